"""Issue 42 points 1, 2 and 7: weekdays, column names and yes/no words in seven languages, from the outside.

Each test runs the console script on a file it writes and asserts what the sandbox holds (`GET
/_sandbox/state`), what the user is told and the exit code. 2030-02-04 is a Monday.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers import invoke, sandbox_env

TODAY = "2030-01-01"
WEEK = ["2030-02-04", "2030-02-05", "2030-02-06", "2030-02-07", "2030-02-08", "2030-02-09", "2030-02-10"]


def _push(sandbox: Any, path: Path, *args: str) -> Any:
    return invoke(["threshold", "push", str(path), "--today", TODAY, *args], env=sandbox_env(sandbox))


def _days_set(sandbox: Any) -> list[str]:
    """The dates the sandbox holds a threshold for, for HTL001's DBL."""
    state = httpx.get(sandbox.base_url + "/_sandbox/state", timeout=10).json()
    return sorted(state["threshold"].get("HTL001", {}).get("DBL", {}))


def _csv(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "rooms.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Jours", "lun-ven"),
        ("Wochentage", "Mo-Fr"),
        ("días", "L-V"),
        ("Weekdays", "Mon.-Thurs, Fri."),
        ("Dias", "segunda-feira - sexta-feira"),
        ("days", "M,Tu,W,Th,F"),
    ],
)
def test_a_days_value_in_another_language_pushes_to_its_days_only(
    tmp_path: Path, sandbox: Any, header: str, value: str
) -> None:
    path = _csv(tmp_path, f"Hotel,Zimmer,Von,Bis,{header},Schwelle", f'HTL001,DBL,{WEEK[0]},{WEEK[6]},"{value}",2')
    result = _push(sandbox, path)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert _days_set(sandbox) == WEEK[:5]


@pytest.mark.parametrize(
    "names",
    [
        "Montag,Dienstag,Mittwoch,Donnerstag,Freitag,Samstag,Sonntag",
        "lundi,mardi,mercredi,jeudi,vendredi,samedi,dimanche",
        "lunes,martes,miércoles,jueves,viernes,sábado,domingo",
        "Mo,Di,Mi,Do,Fr,Sa,So",
        "Ma,Di,Wo,Do,Vr,Za,Zo",
        "Mon.,Tues,Wed.,Thurs,Fri.,Sat.,Sun.",
        "M,T,W,T,F,S,S",
        "L,M,X,J,V,S,D",
    ],
)
def test_seven_flag_columns_in_another_language_push_to_the_days_marked(
    tmp_path: Path, sandbox: Any, names: str
) -> None:
    path = _csv(tmp_path, f"chambre,hotel,du,au,{names},seuil", f"DBL,HTL001,{WEEK[0]},{WEEK[6]},X,X,X,X,X,,,2")
    result = _push(sandbox, path)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert _days_set(sandbox) == WEEK[:5]


@pytest.mark.parametrize("names", ["S,M,T,W,T,F,S", "D,S,T,Q,Q,S,S"])
def test_sunday_first_letters_are_read_sunday_first(tmp_path: Path, sandbox: Any, names: str) -> None:
    # Sunday, then Monday to Friday on, Saturday off.
    path = _csv(tmp_path, f"Hotel,Room,From,To,{names},Threshold", f"HTL001,DBL,{WEEK[0]},{WEEK[6]},,X,X,X,X,X,,2")
    result = _push(sandbox, path)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert _days_set(sandbox) == WEEK[:5]


def test_flag_columns_that_read_two_ways_are_refused_naming_the_readings(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, "Hotel,Room,From,To,Ma,Di,Threshold", f"HTL001,DBL,{WEEK[0]},{WEEK[6]},X,,2")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.splitlines()[0] == (
        f"error: {path}: columns Ma, Di read as weekdays in more than one way: Tuesday, Sunday (French) or "
        "Monday, Tuesday (Dutch); name them in full (Monday ... Sunday)"
    )
    assert result.stdout == ""
    assert _days_set(sandbox) == []


@pytest.mark.parametrize(
    ("value", "readings"),
    [
        ("Do", "Thursday (German, Dutch) or Sunday (Spanish, Italian, Portuguese)"),
        ("ma-vr", "Monday, Tuesday, Wednesday, Thursday, Friday (Dutch)"),
    ],
)
def test_a_days_value_that_reads_two_ways_is_refused_naming_the_readings(
    tmp_path: Path, sandbox: Any, value: str, readings: str
) -> None:
    path = _csv(tmp_path, "Hotel,Room,From,To,Days,Threshold", f"HTL001,DBL,{WEEK[0]},{WEEK[6]},{value},2")
    result = _push(sandbox, path)
    if value == "ma-vr":  # vr is Dutch only: one reading, read
        assert (result.exit_code, result.stderr) == (0, ""), result.stderr
        assert _days_set(sandbox) == WEEK[:5]
        return
    assert result.exit_code == 3
    assert result.stderr == (
        f'error: {path} line 2, days: "{value}" reads as {readings}: write the days in full, or as a mask like '
        "1111100 (Monday first)\n"
        "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones\n"
    )
    assert _days_set(sandbox) == []


def test_a_days_value_mixing_languages_is_refused(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, "Hotel,Room,From,To,Days,Threshold", f"HTL001,DBL,{WEEK[0]},{WEEK[6]},Mo-ven,2")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f'error: {path} line 2, days: "Mo-ven" mixes the weekdays of several languages: write them in one; '
    )
    assert _days_set(sandbox) == []


def test_a_near_miss_of_a_column_name_in_another_language_gets_its_hint(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, "Hotel,Zimer,Von,Bis,Schwelle", f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.splitlines()[0] == f'error: {path}: column "Zimer" is not known; did you mean "Zimmer"?'
    assert _days_set(sandbox) == []


@pytest.mark.parametrize(("word", "refundable"), [("ja", "true"), ("oui", "true"), ("sí", "true"), ("Sim", "true")])
def test_refundable_takes_the_yes_and_no_words(tmp_path: Path, sandbox: Any, word: str, refundable: str) -> None:
    head = "property,room,rate,start,end,refundable,level,policyid,dayspriorcheckin,penaltyamount,penaltyapplied,"
    head += "depositpolicy,depositamount,depositapplied,depositintervalunits"
    path = _csv(tmp_path, head, f"HTL001,DBL,BAR,{WEEK[0]},{WEEK[1]},{word},1,2,7,100,3,required,30,3,0")
    result = invoke(["policy", "push", str(path), "--today", TODAY], env=sandbox_env(sandbox))
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    state = httpx.get(sandbox.base_url + "/_sandbox/state", timeout=10).json()
    held = state["policy"]["HTL001"]["DBL"]["BAR"][WEEK[0]]
    assert str(held["refundable"]).lower() == refundable


def test_a_word_that_is_not_yes_or_no_lists_what_is_accepted(tmp_path: Path, sandbox: Any) -> None:
    head = "property,room,rate,start,end,refundable,level,policyid,dayspriorcheckin,penaltyamount,penaltyapplied,"
    head += "depositpolicy,depositamount,depositapplied,depositintervalunits"
    path = _csv(tmp_path, head, f"HTL001,DBL,BAR,{WEEK[0]},{WEEK[1]},vielleicht,1,2,7,100,3,required,30,3,0")
    result = invoke(["policy", "push", str(path), "--today", TODAY], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert result.stderr.splitlines()[0] == (
        f"error: {path} line 2, refundable: 'vielleicht' is not allowed; use true or false "
        "(or yes/no, ja/nein, oui/non, sí/no, sì/no, ja/nee, sim/não)"
    )


@pytest.mark.parametrize("column", ["Mi", "Sat."])
def test_one_weekday_column_of_another_spelling_is_named_as_a_weekday(
    tmp_path: Path, sandbox: Any, column: str
) -> None:
    path = _csv(tmp_path, f"Hotel,Room,From,To,Threshold,{column}", f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2,x")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.splitlines()[0] == (
        f'error: {path}: column "{column}" looks like a weekday, yet is not one of seven flag columns Mon ... Sun; '
        f'give all seven (Y or N in each) or one days column (Mon-Fri); give --ignore-column "{column}" to leave it out'
    )
    assert _days_set(sandbox) == []
