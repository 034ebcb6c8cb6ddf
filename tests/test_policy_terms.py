"""Policy rows repeat a few terms a million times: each distinct level and deposit is judged once and shared,
yet every row with a problem still gets each of its messages, with its own line."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ari_cli.inputs import ListedPart
from ari_cli.records.check import check_rows
from ari_cli.records.policy import _DEPOSIT_FIELDS, _RULE_FIELDS, Policy, _deposit, _rule
from ari_cli.records.rules import RowErrors
from ari_cli.wire.models import Operation
from tests.helpers import invoke
from tests.test_records import DATES, POLICY, rows

HEADER = ",".join(POLICY)


def _csv(tmp_path: Path, *changes: dict[str, str]) -> Path:
    path = tmp_path / "p.csv"
    lines = [HEADER] + [",".join({**POLICY, **change}.values()) for change in changes]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class _Reads(dict[str, Any]):
    """Fields that remember which of them a check read."""

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __iter__(self) -> Iterator[str]:
        self.read.update(self.keys())  # read all of them
        return super().__iter__()


def test_the_memos_are_keyed_on_every_field_the_level_and_deposit_checks_read() -> None:
    # A field a check reads but its memo's key lacks would give a row another row's judgement.
    for check, names in ((_rule, _RULE_FIELDS), (_deposit, _DEPOSIT_FIELDS)):
        for units in ("0", "1"):
            fields = _Reads({**POLICY, "depositpolicy": "required", "depositintervalunits": units})
            check(RowErrors("p.csv line 2"), fields)
            assert fields.read <= set(names), check.__name__


def test_rows_of_equal_terms_share_one_level_and_one_deposit() -> None:
    source = rows({"roomid": "R1"}, {"roomid": "R2"}, {"roomid": "R3", "level": "1.0"})
    _, settings = check_rows([ListedPart("p.csv", source)], Operation.POLICY, DATES)
    policies = [kind.value for kind in settings.kind_list]
    assert len(policies) == 3 and all(isinstance(policy, Policy) for policy in policies)
    assert policies[0] is policies[1]  # equal cells: one judgement, one policy, described once
    assert policies[2] == policies[0]  # other cells (1.0), the same terms


def test_rows_of_equal_bad_terms_each_get_every_message_with_their_line(tmp_path: Path) -> None:
    bad = {"level": "3", "depositpolicy": "sometimes"}
    path = _csv(tmp_path, bad, {}, bad, {"roomid": "R2", **bad})
    result = invoke(["policy", "push", str(path), "--dry-run", "--today", "2027-01-01", "--output", "json"])
    assert result.exit_code == 3
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    for line in (2, 4, 5):
        assert f"error: {path} line {line}, level: '3' is not allowed; use 1 (first level), 2 (second level)" in errors
        assert (
            f"error: {path} line {line}, depositpolicy: 'sometimes' is not allowed; use required or not required"
            in (errors)
        )
    assert not any(f"{path} line 3," in error for error in errors if "policy: another row" not in error)


def test_json_true_is_not_level_1_though_a_row_before_it_gave_1(tmp_path: Path) -> None:
    # JSON's true and 1 are equal keys of a memo: they are remembered apart, with their types.
    base = {**POLICY, "level": 1, "refundable": True}
    objects = [base, {**base, "roomid": "R2", "level": True}, {**base, "roomid": "R3"}]
    path = tmp_path / "p.json"
    path.write_text("[\n" + ",\n".join(map(json.dumps, objects)) + "\n]\n", encoding="utf-8")  # a line each
    result = invoke(["policy", "push", str(path), "--dry-run", "--today", str(dt.date(2027, 1, 1))])
    assert result.exit_code == 3
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert [error for error in errors if ", level:" in error] == [
        f"error: {path} line 3, level: 'True' is not allowed; use 1 (first level), 2 (second level)"
    ], errors
