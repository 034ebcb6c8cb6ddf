"""The push service's wire format: request bodies, the response, actions and the URL.

Field names, types and allowed values follow the spec's field tables exactly. Everything that
goes on the wire, or is read back from it, passes through these models. What needs no pydantic
(operations, value limits, the URL) lives in `operations` and is re-exported here.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    model_validator,
)

# Re-exported: these live in a module without pydantic, light enough for start-up and dry runs.
from ari_cli.wire.operations import ACTIONS as ACTIONS
from ari_cli.wire.operations import CLEAR as CLEAR
from ari_cli.wire.operations import DEPOSIT_INTERVALS as DEPOSIT_INTERVALS
from ari_cli.wire.operations import LABELS as LABELS
from ari_cli.wire.operations import OPERATION_BY_ACTION as OPERATION_BY_ACTION
from ari_cli.wire.operations import PERCENT_MAX as PERCENT_MAX
from ari_cli.wire.operations import PERCENT_MIN as PERCENT_MIN
from ari_cli.wire.operations import REQUEST_HEADERS as REQUEST_HEADERS
from ari_cli.wire.operations import SOURCE_ID_PATTERN as SOURCE_ID_PATTERN
from ari_cli.wire.operations import THRESHOLD_MAX as THRESHOLD_MAX
from ari_cli.wire.operations import TIME_MAX as TIME_MAX
from ari_cli.wire.operations import TIME_MIN as TIME_MIN
from ari_cli.wire.operations import UNUSED_DEPOSIT_INTERVAL as UNUSED_DEPOSIT_INTERVAL
from ari_cli.wire.operations import Operation as Operation
from ari_cli.wire.operations import path_segment as path_segment
from ari_cli.wire.operations import push_url as push_url


def _iso_date(value: str) -> str:
    try:
        parsed = dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a date of the form YYYY-MM-DD") from None
    if parsed.isoformat() != value:
        raise ValueError(f"{value!r} is not a date of the form YYYY-MM-DD")
    return value


def _exact_int(value: Any) -> Any:
    # A Literal of ints lets True and 3.0 through even in strict mode (True == 1, 3.0 == 3);
    # the wire wants JSON integers, so only a real int may reach the Literal check.
    if type(value) is not int:
        raise ValueError("Input should be a valid integer")
    return value


def _bounded_text(low: int, high: int) -> AfterValidator:
    def check(value: str) -> str:
        if value == CLEAR:
            return value
        if not value.isascii() or not value.isdigit() or (len(value) > 1 and value[0] == "0"):
            raise ValueError(f"{value!r} is not a whole number {low}-{high} or {CLEAR!r}")
        if not low <= int(value) <= high:
            raise ValueError(f"{value} is outside {low}-{high}")
        return value

    return AfterValidator(check)


IsoDate = Annotated[str, AfterValidator(_iso_date)]
Id = Annotated[str, Field(min_length=1)]
ThresholdValue = Annotated[str, _bounded_text(0, THRESHOLD_MAX)]
TimeValue = Annotated[str, _bounded_text(TIME_MIN, TIME_MAX)]
Percent = Annotated[int, Field(ge=PERCENT_MIN, le=PERCENT_MAX)]
ExactInt = BeforeValidator(_exact_int)
FirstNightOrFullStay = Annotated[Literal[3, 4], ExactInt]
PercentOfStay = Annotated[Literal[3], ExactInt]


# Each model's validator is built when first used, not on import: a threshold or maxadv dry run
# uses none of them (its rows are checked as they are read), and building them all, with pydantic's
# search for plugins, cost a tenth of its start-up.
_LAZY = ConfigDict(defer_build=True)


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, **_LAZY)


class _Envelope(_Wire):
    sharepost: Annotated[str, Field(min_length=1)]
    sourceid: Annotated[str, Field(pattern=SOURCE_ID_PATTERN)]
    propertyid: Id


class ThresholdRecord(_Wire):
    startdateymd: IsoDate
    enddateymd: IsoDate
    roomid: Id
    threshold: ThresholdValue


class MaxAdvRecord(_Wire):
    startdateymd: IsoDate
    enddateymd: IsoDate
    roomid: Id
    rateid: Id
    minmaxmessagetype: Literal["maxadvbooking"] = "maxadvbooking"
    time: TimeValue


class CancellationRule(_Wire):
    policyid: Annotated[int, Field(ge=1, le=5)]
    dayspriorcheckin: Annotated[int, Field(ge=0)]
    penaltytype: PercentOfStay
    penaltyamount: Percent
    penaltyapplied: FirstNightOrFullStay
    level: Annotated[Literal[1, 2], ExactInt]


class Deposit(_Wire):
    depositpolicy: Literal["required", "not required"]
    deposittype: PercentOfStay
    depositamount: Percent
    depositapplied: FirstNightOrFullStay
    depositintervalunits: Annotated[Literal[0, 1], ExactInt]
    deposittimeinterval: int

    @model_validator(mode="after")
    def _interval_matches_units(self) -> Deposit:
        if self.depositintervalunits == 1 and self.deposittimeinterval not in DEPOSIT_INTERVALS:
            raise ValueError("deposittimeinterval must be 1-10, 30, 45 or 60 when depositintervalunits is 1")
        # The spec says the interval is only *used* with units 1, so the service ignores it otherwise:
        # partners' bodies may carry any allowed interval there. ari-cli itself sends 0.
        if self.depositintervalunits == 0 and self.deposittimeinterval not in (
            UNUSED_DEPOSIT_INTERVAL,
            *DEPOSIT_INTERVALS,
        ):
            raise ValueError("deposittimeinterval must be 0, 1-10, 30, 45 or 60")
        return self


class PolicyDetails(_Wire):
    cancellation: Annotated[list[CancellationRule], Field(min_length=1)] | CancellationRule
    deposit: Deposit

    @property
    def rules(self) -> list[CancellationRule]:
        c = self.cancellation
        return list(c) if isinstance(c, list) else [c]

    @model_validator(mode="after")
    def _levels_unique(self) -> PolicyDetails:
        levels = [rule.level for rule in self.rules]
        if len(set(levels)) != len(levels):
            raise ValueError("each cancellation level may appear only once")
        return self


class ThresholdBody(_Envelope):
    action: Literal["sellthresholdupdate"] = "sellthresholdupdate"
    data: Annotated[list[ThresholdRecord], Field(min_length=1)] | ThresholdRecord


class MaxAdvBody(_Envelope):
    action: Literal["setadvbookingcondrq"] = "setadvbookingcondrq"
    data: Annotated[list[MaxAdvRecord], Field(min_length=1)] | MaxAdvRecord


class PolicyBody(_Envelope):
    roomid: Id
    rateid: Id
    startdate: IsoDate
    enddate: IsoDate
    refundable: Literal["true", "false"]
    action: Literal["getcancellation"] = "getcancellation"
    policydetails: PolicyDetails

    @model_validator(mode="after")
    def _non_refundable_needs_deposit(self) -> PolicyBody:
        if self.refundable == "false" and self.policydetails.deposit.depositpolicy != "required":
            raise ValueError("depositpolicy must be 'required' when refundable is 'false'")
        return self


RequestBody = ThresholdBody | MaxAdvBody | PolicyBody
BODY_MODELS: dict[Operation, type[ThresholdBody] | type[MaxAdvBody] | type[PolicyBody]] = {
    Operation.THRESHOLD: ThresholdBody,
    Operation.MAXADV: MaxAdvBody,
    Operation.POLICY: PolicyBody,
}

RECORD_MODELS: dict[Operation, type[ThresholdRecord] | type[MaxAdvRecord]] = {
    Operation.THRESHOLD: ThresholdRecord,
    Operation.MAXADV: MaxAdvRecord,
}


def field_problems(document: dict[str, Any], operation: Operation) -> list[str]:
    """What is wrong with a body's fields, each as `data[0].threshold: missing`; empty when none.

    On the wire every field of the spec is required, although the models default `action` and
    `minmaxmessagetype` for building bodies: presence is checked first.
    """
    body_model = BODY_MODELS[operation]
    problems = [f"{name}: missing" for name in body_model.model_fields if name not in document]
    record_model = RECORD_MODELS.get(operation)
    data = document.get("data")
    records = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
    for index, record in enumerate(records):
        where = f"data[{index}]" if isinstance(data, list) else "data"
        if record_model is not None and isinstance(record, dict):
            problems += [f"{where}.{name}: missing" for name in record_model.model_fields if name not in record]
    try:
        body_model.model_validate(document)
    except ValidationError as invalid:
        for error in invalid.errors():
            found = _located(document, error["loc"])
            if found is not None:
                said = "missing" if error["type"] == "missing" else error["msg"].removeprefix("Value error, ")
                problems.append(f"{found or 'the body'}: {said}")
    return list(dict.fromkeys(problems))


def _located(document: Any, loc: tuple[int | str, ...]) -> str | None:
    """`data[0].threshold` for a pydantic location; None for an error of a union's branch the value is not."""
    where = ""
    value = document
    for position, part in enumerate(loc):
        last = position == len(loc) - 1
        if isinstance(part, int):
            if not isinstance(value, list) or part >= len(value):
                return None
            where, value = f"{where}[{part}]", value[part]
        elif "[" in part or part[:1].isupper():
            # A union's tag (`list[ThresholdRecord]`, `ThresholdRecord`); the spec's fields are lower case.
            if part.startswith("list[") != isinstance(value, list):
                return None
        elif isinstance(value, dict) and (part in value or last):
            where, value = f"{where}.{part}" if where else part, value.get(part)
    return where


_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole_characters(value: str) -> str:
    """Text with each lone surrogate (JSON can write `\\ud800`) as U+FFFD: no encoder writes one."""
    return value if value.isascii() else _SURROGATE.sub("\ufffd", value)


# Text from the service: it is printed, logged and written to reports, so it must be encodable.
ServiceText = Annotated[str, AfterValidator(_whole_characters)]


class ErrorItem(BaseModel):
    """One entry of a response's `errors` list."""

    model_config = ConfigDict(extra="allow", **_LAZY)

    code: int | None = None
    # A null message must not make the whole response unreadable: the code still tells what failed.
    message: Annotated[ServiceText, BeforeValidator(lambda v: "" if v is None else v)] = ""


class PushResponse(BaseModel):
    """The common response body; every field is optional in the spec."""

    model_config = ConfigDict(extra="allow", **_LAZY)

    # Strict: lax parsing would read "true", "yes", "on" or 1 as a success, which is a guess.
    success: StrictBool | None = None
    trackingid: ServiceText | None = None
    errors: list[ErrorItem] | None = None


def dump_body(body: RequestBody) -> dict[str, Any]:
    """The JSON-ready dict of a request body, fields in the spec's order."""
    return body.model_dump(mode="json")
