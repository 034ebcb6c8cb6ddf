"""Settings resolved once: the Python API's keywords are the option objects' fields, and a profile's numbers
written as text still read (into their typed form, once)."""

from __future__ import annotations

import datetime as dt
import inspect
import json
import typing
from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from ari_cli import api, api_revert, api_why
from ari_cli.app.options import (
    ConnectionOptions,
    GuardOptions,
    InputOptions,
    OutputOptions,
    PlanOptions,
    PushRequest,
    SendTuning,
)
from ari_cli.config.settings import resolve
from ari_cli.config.tuning import Limit
from tests.helpers import invoke

GROUPS = (ConnectionOptions, InputOptions, PlanOptions, SendTuning, OutputOptions, GuardOptions)

# Where a keyword's name is not its field's (the command line's flag names them so too).
RENAMED = {
    ("InputOptions", "format"): "input_format",
    ("OutputOptions", "format"): "output",
    ("GuardOptions", "override"): "override_guards",
    ("InputOptions", "sheets"): "sheet",
}
# What Python callers may give in a handier form than the object holds, and how it is held: each such keyword is
# named here, so that a new one has to be thought about.
CONVERTED: dict[str, tuple[Any, Any]] = {
    # keyword: (the keyword's annotation, the field's annotation)
    "columns": (Mapping[str, str] | None, tuple[str, ...]),  # {"end": "Until"} is --column end=Until
    "ignore_columns": (Sequence[str], tuple[str, ...]),
    "sheet": (str | Sequence[str] | None, tuple[str, ...]),  # "Hotel A" is --sheet "Hotel A"
    "today": (dt.date | str | None, dt.date | None),
    "max_changed": (int | str | None, str | None),
    "max_cleared": (int | str | None, str | None),
    "min_coverage": (float | str | None, str | None),
    "max_step": (int | str | None, str | None),
}
# Defaults that differ on purpose: without `output`, ari_cli.push() shows nothing (the command shows a table).
DEFAULTS_APART = {"output": (None, "table")}
# push()'s keywords that are the request's own, not a group's.
OWN = {"operation", "files", "rows", "dry_run"}


def _hints(function: Any) -> dict[str, Any]:
    return typing.get_type_hints(function, vars(api) | {"dt": dt})


def _plain(annotation: Any) -> Any:
    """An API annotation as the option object holds it: a path argument as a Path, a Literal of choices as the
    enum (or text) of those values."""
    if annotation == api.PathArg | None:
        return Path | None
    args = typing.get_args(annotation)
    literal = next((a for a in args if typing.get_origin(a) is typing.Literal), None)
    if typing.get_origin(annotation) is typing.Literal:
        literal = annotation
    if literal is None:
        return annotation
    return frozenset(typing.get_args(literal)), type(None) in args


def _field_type(annotation: Any) -> Any:
    """A field's annotation, an enum of choices as the set of its values."""
    args = typing.get_args(annotation) or (annotation,)
    enum = next((a for a in args if isinstance(a, type) and issubclass(a, Enum)), None)
    if enum is None:
        return annotation
    return frozenset(member.value for member in enum), type(None) in args


def _fields() -> dict[str, tuple[Any, Any]]:
    """Each option object's field by the keyword that gives it: (annotation, default)."""
    found: dict[str, tuple[Any, Any]] = {}
    for group in GROUPS:
        hints = typing.get_type_hints(group)
        for name, default in group._field_defaults.items():
            keyword = RENAMED.get((group.__name__, name), name)
            assert keyword not in found, f"{keyword} is a field of two option objects"
            found[keyword] = (hints[name], default)
    return found


def test_the_push_keywords_are_the_option_objects_fields() -> None:
    parameters = inspect.signature(api.push).parameters
    hints = _hints(api.push)
    fields = _fields()
    keywords = set(parameters) - OWN
    assert keywords == set(fields), "a keyword of ari_cli.push() without a field, or a field without a keyword"
    assert set(PushRequest._fields) | {"rows"} >= OWN
    for name in sorted(keywords):
        field_type, field_default = fields[name]
        if name in CONVERTED:
            assert (hints[name], field_type) == CONVERTED[name], name
        elif field_type == Path | None and hints[name] == api.PathArg | None:
            pass
        elif _field_type(field_type) != field_type:  # an enum of choices: the keyword's Literal offers the same
            offered, optional = _plain(hints[name])
            choices, none = _field_type(field_type)
            assert offered == choices, name
            assert optional == none or name in DEFAULTS_APART, name
        elif name == "data_form":  # text the settings check, as a profile's is: the Literal of its values
            assert _plain(hints[name]) == (frozenset({"list", "object"}), True)
        else:
            assert hints[name] == field_type, name
        default = parameters[name].default
        if name in DEFAULTS_APART:
            assert (default, field_default) == DEFAULTS_APART[name]
        elif name in ("columns", "sheet"):
            assert (default, field_default) == (None, ())
        else:
            assert default == field_default, name


def test_the_revert_keywords_are_fields_of_the_same_objects_with_the_same_defaults() -> None:
    parameters = inspect.signature(api_revert.revert).parameters
    fields = _fields()
    own = {"run", "dry_run", "clear_unknown", "force", "today"}
    for name, parameter in parameters.items():
        if name in own:
            continue
        assert name in fields, f"revert({name}=...) is no option object's field"
        assert parameter.default == fields[name][1], name
    assert set(SendTuning._fields) - {"rate_per_property"} <= set(parameters)


def test_the_why_keywords_are_fields_of_the_same_objects_with_the_same_defaults() -> None:
    parameters = inspect.signature(api_why.why).parameters
    fields = _fields()
    own = {"propertyid", "roomid", "date", "rateid"}
    assert own < set(parameters)
    for name, parameter in parameters.items():
        if name not in own:
            assert name in fields, f"why({name}=...) is no option object's field"
            assert parameter.default == fields[name][1], name


def test_a_field_added_to_an_option_object_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails for a field the API lacks (the test is not vacuous)."""

    class Wider(typing.NamedTuple):
        made_up_setting: str | None = None

    monkeypatch.setattr(f"{__name__}.GROUPS", (*GROUPS, Wider))
    with pytest.raises(AssertionError, match="without a keyword"):
        test_the_push_keywords_are_the_option_objects_fields()


NUMBERS_AS_TEXT = """\
[profiles.default]
base_url = "https://push.example.com"
source_id = "cpbA1"
timeout = "12"
batch_size = "7"
max_step = "5"
max_changed = "5%"
"""


def test_a_profile_s_numbers_written_as_text_still_read(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(NUMBERS_AS_TEXT, encoding="utf-8")
    config.chmod(0o600)
    result = invoke(["config", "show", "--config", str(config), "--output", "json"], env={"ARI_API_KEY": "k" * 16})
    assert result.exit_code == 0, result.output
    settings = json.loads(result.stdout)["settings"]
    where = f"profile default in {config}"
    assert (settings["timeout"]["value"], settings["timeout"]["source"]) == (12.0, where)
    assert (settings["batch_size"]["value"], settings["batch_size"]["source"]) == (7, where)
    assert settings["max_step"] == {"value": "5", "source": "profile default"}
    assert settings["max_changed"] == {"value": "5%", "source": "profile default"}
    assert result.stderr == ""
    # Read once into their typed form: the tuning, and the guards' limits.
    resolved = resolve({}, ConnectionOptions(config=config))
    assert (resolved.tuned.timeout, resolved.tuned.batch_size) == (12.0, 7)
    assert resolved.guards["max_step"].value == Limit(5, percent=False)
    assert resolved.guards["max_changed"].value == Limit(5, percent=True)


def test_a_profile_s_text_that_is_no_number_is_still_refused(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(NUMBERS_AS_TEXT.replace('"12"', '"12s"'), encoding="utf-8")
    config.chmod(0o600)
    result = invoke(["config", "show", "--config", str(config)])
    assert result.exit_code == 4
    assert result.stdout == ""
    assert result.stderr.startswith(
        f"error: config file {config}, line 4: timeout must be a number, 0.1 to 600, not '12s'"
    )


def test_tuning_and_guards_given_win_and_are_typed(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(NUMBERS_AS_TEXT, encoding="utf-8")
    resolved = resolve(
        {},
        ConnectionOptions(config=config),
        PlanOptions(data_form="object"),
        SendTuning(timeout=3, rate_per_property="10/ min"),
        GuardOptions(max_step="9"),
    )
    assert resolved.tuned.timeout == 3.0 and resolved.values["timeout"].source == "flag --timeout"
    assert resolved.tuned.data_form == "object"
    assert resolved.tuned.rate_per_property == "10/min"
    assert resolved.tuned.per_property is not None and resolved.tuned.per_property.requests == 10
    assert resolved.guards["max_step"].value == Limit(9, percent=False)
    assert resolved.guards["max_step"].source == "flag --max-step"


def test_a_flag_left_out_is_none_in_the_option_object(tmp_path: Path) -> None:
    """The command line hands the use case None for a setting not typed, though --help shows its default."""
    config = tmp_path / "config.toml"
    config.write_text(NUMBERS_AS_TEXT.replace('batch_size = "7"', "batch_size = 1"), encoding="utf-8")
    data = tmp_path / "rooms.csv"
    data.write_text(
        "propertyid,roomid,start,end,threshold\nH1,R1,2099-01-01,2099-01-02,3\nH1,R2,2099-01-01,2099-01-02,3\n"
    )
    base = ["threshold", "push", str(data), "--dry-run", "--output", "json", "--config", str(config)]
    left_out = invoke(base)
    assert left_out.exit_code == 0, left_out.output
    assert json.loads(left_out.stdout)["summary"]["requests"] == 2  # the profile's batch_size = 1
    assert "[default: 50]" in invoke(["threshold", "push", "--help"]).stdout
