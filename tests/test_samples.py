"""Every sample pushes cleanly to the sandbox, and the sandbox ends up holding exactly the
per-date values the file asked for. The expected map is computed here, straight from the file,
with none of the tool's own reading or planning code."""

from __future__ import annotations

import csv
import datetime as dt
import json
import tomllib
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from tests.helpers import invoke, sandbox_env

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
NOT_INPUT = {".py", ".toml"}  # the script that writes the workbooks; the named policies file
REPLAY = {"partner-call.json", "calls.jsonl"}  # a partner's request bodies, for `ari-cli replay`
EXTRA_ARGS = {
    "policy-named.csv": ["--policies", str(SAMPLES / "policies.toml")],
    "threshold-rooms.csv": ["--property", "HTL001"],
}
GRIDS = {"threshold-grid.csv": "dates across", "threshold-rooms.csv": "rooms across"}
"""The grid samples: dates across (property, room, then a column per date), rooms across (a date column, then a
column per room, for the property --property gives)."""
TODAY = dt.date.today()
NAMES = {
    "propertyid": "propertyid", "property": "propertyid", "hotel": "propertyid",
    "roomid": "roomid", "room": "roomid", "rateid": "rateid",
    "start": "start", "from": "start", "startdate": "start", "startdateymd": "start",
    "end": "end", "to": "end", "enddate": "end", "enddateymd": "end",
    "date": "date", "days": "days", "threshold": "threshold", "sellthreshold": "threshold", "time": "time",
    "nights": "time",
}  # fmt: skip
RULE_FIELDS = ("policyid", "dayspriorcheckin", "penaltytype", "penaltyamount", "penaltyapplied", "level")
DEPOSIT_NUMBERS = ("deposittype", "depositamount", "depositapplied", "depositintervalunits")
DAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}


def day(text: str) -> dt.date:
    text = text.strip().lower()
    if text.startswith("today"):
        return TODAY + dt.timedelta(days=int(text[5:] or 0))
    return dt.date.fromisoformat(text)


def weekdays(text: str) -> set[int]:
    if text.isdigit():
        return {i for i, c in enumerate(text) if c == "1"}
    out: set[int] = set()
    for part in text.lower().split(","):
        a, _, b = part.partition("-")
        lo, hi = DAYS[a[:3]], DAYS[(b or a)[:3]]
        out.update(range(lo, hi + 1))
    return out


def cell(value: Any) -> str:
    """A workbook cell as CSV would hold it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dt.datetime | dt.date):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


def sheet_rows(path: Path) -> list[dict[str, str]]:
    sheet = openpyxl.load_workbook(path).worksheets[0]
    header, *rows = [[cell(v) for v in row] for row in sheet.iter_rows(values_only=True)]
    return [dict(zip(header, row, strict=True)) for row in rows if any(row)]


def grid_rows(path: Path) -> list[dict[str, Any]]:
    """A grid sample as rows of one date each, a row per cell that is not blank."""
    header, *rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    out: list[dict[str, Any]] = []
    for cells in rows:
        if GRIDS[path.name] == "rooms across":
            found = [("HTL001", room, cells[0], value) for room, value in zip(header[1:], cells[1:], strict=True)]
        else:
            found = [(cells[0], cells[1], date, value) for date, value in zip(header[2:], cells[2:], strict=True)]
        out.extend(
            {"propertyid": prop, "roomid": room, "date": date, "threshold": value}
            for prop, room, date, value in found
            if value
        )
    return out


def flat_rows(path: Path) -> list[dict[str, Any]]:
    if path.name in GRIDS:
        return grid_rows(path)
    if path.suffix == ".xlsx":
        rows = sheet_rows(path)
    elif path.suffix == ".csv":
        text = path.read_text(encoding="utf-8-sig")
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
        rows = list(csv.DictReader(text.splitlines(), dialect=dialect))
    elif path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    else:
        data = json.loads(path.read_text())
        rows = data if isinstance(data, list) else [data]
    out = []
    for row in rows:
        if "data" in row:  # an API request body
            for rec in row["data"] if isinstance(row["data"], list) else [row["data"]]:
                out.append({"propertyid": row["propertyid"], **rec})
        else:
            out.append(row)
    return [{NAMES.get(k.lower().replace(" ", "").replace("_", ""), k.lower()): v for k, v in r.items()} for r in out]


def dates_of(row: dict[str, Any]) -> list[str]:
    start, end = (day(row["date"]), day(row["date"])) if "date" in row else (day(row["start"]), day(row["end"]))
    allowed = weekdays(row["days"]) if row.get("days") else set(range(7))
    out = []
    current = max(start, TODAY)
    while current <= end:
        if current.weekday() in allowed:
            out.append(current.isoformat())
        current += dt.timedelta(days=1)
    return out


def expected_levels(path: Path, value: str, with_rate: bool) -> dict[str, Any]:
    expected: dict[str, Any] = {}
    for row in flat_rows(path):
        node = expected.setdefault(row["propertyid"], {}).setdefault(row["roomid"], {})
        if with_rate:
            node = node.setdefault(row["rateid"], {})
        for date in dates_of(row):
            if str(row[value]).lower() == "n/a":
                node.pop(date, None)
            else:
                node[date] = str(row[value])
    return expected


def expected_policies(path: Path) -> dict[str, Any]:
    expected: dict[str, Any] = {}
    if path.suffix == ".json":
        for body in json.loads(path.read_text()):
            details = body["policydetails"]
            rules = details["cancellation"] if isinstance(details["cancellation"], list) else [details["cancellation"]]
            value = {
                "refundable": body["refundable"],
                "policydetails": {"cancellation": rules, "deposit": details["deposit"]},
            }
            node = (
                expected.setdefault(body["propertyid"], {})
                .setdefault(body["roomid"], {})
                .setdefault(body["rateid"], {})
            )
            for date in dates_of({"start": body["startdate"], "end": body["enddate"]}):
                node[date] = value
        return expected
    if path.name in EXTRA_ARGS:
        return expected_named(path)
    groups: dict[tuple[str, ...], list[dict[str, str]]] = {}
    rows = sheet_rows(path) if path.suffix == ".xlsx" else csv.DictReader(path.read_text().splitlines())
    for row in rows:
        groups.setdefault((row["propertyid"], row["roomid"], row["rateid"], row["start"], row["end"]), []).append(row)
    for (prop, room, rate, start, end), rows in groups.items():
        first = rows[0]
        units = int(first["depositintervalunits"])
        value = {
            "refundable": first["refundable"].lower(),
            "policydetails": {
                "cancellation": [
                    {k: int(r[k]) for k in RULE_FIELDS}
                    for r in sorted(rows, key=lambda r: int(r["level"]))
                ],
                "deposit": {
                    "depositpolicy": first["depositpolicy"],
                    **{k: int(first[k]) for k in DEPOSIT_NUMBERS},
                    "deposittimeinterval": int(first["deposittimeinterval"]) if units == 1 else 0,
                },
            },
        }  # fmt: skip
        node = expected.setdefault(prop, {}).setdefault(room, {}).setdefault(rate, {})
        for date in dates_of({"start": start, "end": end}):
            node[date] = value
    return expected


def named_policies(path: Path) -> dict[str, Any]:
    """The wire value of each policy of a TOML file: short deposit keys get their prefix; level and
    the type fields take their defaults."""
    out = {}
    for name, table in tomllib.loads(path.read_text()).get("policies", {}).items():
        deposit = {k if k.startswith("deposit") else f"deposit{k}": v for k, v in table["deposit"].items()}
        deposit.setdefault("deposittype", 3)
        if deposit["depositintervalunits"] != 1:
            deposit["deposittimeinterval"] = 0
        rules = [{"penaltytype": 3, "level": n, **level} for n, level in enumerate(table["levels"], start=1)]
        out[name] = {
            "refundable": str(table["refundable"]).lower(),
            "policydetails": {"cancellation": sorted(rules, key=lambda r: r["level"]), "deposit": deposit},
        }
    return out


def expected_named(path: Path) -> dict[str, Any]:
    policies = named_policies(SAMPLES / "policies.toml")
    expected: dict[str, Any] = {}
    for row in csv.DictReader(path.read_text().splitlines()):
        node = expected.setdefault(row["propertyid"], {}).setdefault(row["roomid"], {}).setdefault(row["rateid"], {})
        for date in dates_of(row):
            node[date] = policies[row["policy"]]
    return expected


def _prune(tree: dict[str, Any]) -> dict[str, Any]:
    """Drop empty branches, as a cleared (n/a) date leaves nothing in the sandbox."""
    out = {}
    for k, v in tree.items():
        if isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()) and not k[:4].isdigit():
            v = _prune(v)
            if not v:
                continue
        elif isinstance(v, dict) and not v:
            continue
        out[k] = v
    return out


INPUTS = sorted(p for p in SAMPLES.glob("*.*") if p.suffix not in NOT_INPUT and p.name not in REPLAY)


def test_every_operation_has_a_workbook_sample_and_named_policies_have_theirs() -> None:
    names = {p.name for p in INPUTS}
    assert {"threshold.xlsx", "maxadv.xlsx", "policy.xlsx", "policy-named.csv"} <= names
    assert (SAMPLES / "policies.toml").exists()
    assert "threshold.jsonl" in names  # `ari-cli samples --help` promises JSONL


def test_the_partner_calls_replay_as_the_readme_says(sandbox: Any) -> None:
    """calls.jsonl is accepted whole; partner-call.json meets the service's 416, naming the records that overlap."""
    calls = invoke(["replay", str(SAMPLES / "calls.jsonl")], env=sandbox_env(sandbox))
    assert calls.exit_code == 0, calls.stdout + calls.stderr
    assert "2 bodies sent: 2 ok, 0 failed" in calls.stdout
    partner = invoke(["replay", str(SAMPLES / "partner-call.json")], env=sandbox_env(sandbox))
    assert partner.exit_code == 1, partner.stdout + partner.stderr
    assert "HTTP 416" in partner.stdout
    assert "data[0] and data[2] (room DBL)" in partner.stdout
    assert sandbox.state()["threshold"]["HTL001"]["DBL"]  # calls.jsonl's value, which the overlap left alone


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_sample_pushes_and_sandbox_holds_exactly_the_file(path: Path, sandbox: Any) -> None:
    operation = path.name.split("-")[0].split(".")[0]
    args = [operation, "push", str(path), "--today", TODAY.isoformat(), *EXTRA_ARGS.get(path.name, [])]
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    state = sandbox.state()
    if operation == "policy":
        expected = expected_policies(path)
    else:
        expected = expected_levels(path, "threshold" if operation == "threshold" else "time", operation == "maxadv")
    assert _prune(state[operation]) == _prune(expected)
