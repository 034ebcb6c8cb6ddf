"""`why`: what the service holds on one night, each setting with who set it; as text, one JSON document or a page.

Every form says what the answer rests on: "as acknowledged to this journal; last run N at T" (the push API
has no read call, so a change made elsewhere is not known).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ari_cli.journal.why import SetBy, Setting, Why
from ari_cli.operations import of
from ari_cli.render.history import runs as render_history
from ari_cli.render.history.detail import labelled
from ari_cli.render.history.runs import local_time
from ari_cli.render.html.why import write_why
from ari_cli.render.values import policy_parts, runs_text, text
from ari_cli.wire.operations import CLEAR

NOTHING = "nothing known"
CLEARED = f"cleared ({CLEAR}): no value"


def as_of(found: Why) -> str:
    """What every answer rests on."""
    if found.last_run is None:
        return "as acknowledged to this journal; it holds no run to this service"
    return f"as acknowledged to this journal; last run {found.last_run.id} at {local_time(found.last_run.started)}"


def title(found: Why) -> str:
    rate = f", rate {found.rateid}" if found.rateid is not None else ""
    return (
        f"{found.propertyid} room {found.roomid}{rate}, the night of {found.night} ({found.night:%A}): "
        f"what {found.base_url} (source {found.source_id}) holds"
    )


def label(setting: Setting) -> str:
    rate = "" if setting.rateid is None else f", rate {setting.rateid}"
    return of(setting.operation).label + rate


def words(setting: Setting) -> list[str]:
    """The value in words: a line, or a policy's cancellation and deposit; `nothing known` when it is unknown."""
    value = setting.value
    if value is None:
        return [NOTHING]
    if value == CLEAR:
        return [CLEARED]
    if of(setting.operation).structured:
        return list(policy_parts(value))
    if setting.bookable_from is not None:
        return [f"{value}: bookable from {setting.bookable_from} ({value} days ahead)"]
    return [value]


def labelled_words(setting: Setting) -> list[tuple[str, str]]:
    """`words`, each with its label: a policy's read as its cancellation and its deposit."""
    said = words(setting)
    if len(said) == 2 and of(setting.operation).structured:
        return [("cancellation", said[0]), ("deposit", said[1])]
    return [("value", line) for line in said]


def lines_of(set_by: SetBy) -> str:
    return runs_text(set_by.lines) or "-"


def setter_text(set_by: SetBy) -> str:
    """Who set a value: `run 3 (threshold push): a.csv:2, root on vm, acknowledged 2027-01-01 10:00:00`."""
    if set_by.command is None:
        return f"run {set_by.run}, since pruned from the journal (its file and lines are not known)"
    command = set_by.command.removeprefix("ari-cli ")
    when = local_time(set_by.acknowledged)
    return f"run {set_by.run} ({command}): {lines_of(set_by)}, {set_by.user} on {set_by.host}, acknowledged {when}"


def span_text(setting: Setting) -> str:
    held = setting.held
    if held is None:
        return ""
    return f"held from {held.start} to {held.end}" if held.start != held.end else f"held on {held.start}"


def answer(found: Why, out: Console) -> None:
    """The title, what it rests on, then per setting its value in words, the dates it holds and who set it."""
    out.print(text(title(found)), style="bold")
    out.print(text(as_of(found)))
    for setting in found.settings:
        out.print()
        style = "dim" if setting.held is None else ""
        fields: list[tuple[str, Text]] = [(name, text(line, style)) for name, line in labelled_words(setting)]
        if setting.held is not None:
            fields += [("dates", text(span_text(setting))), ("set by", text(setter_text(setting.held.set_by)))]
        out.print(text(label(setting)), style="bold")
        labelled(fields, out)


def setting_dict(setting: Setting) -> dict[str, Any]:
    held = setting.held
    value: Any = None if held is None else held.value
    if held is not None and held.value != CLEAR and of(setting.operation).structured:
        with contextlib.suppress(ValueError):
            value = json.loads(held.value)
    found: dict[str, Any] = {
        "operation": setting.operation,
        "label": of(setting.operation).label,
        "rateid": setting.rateid,
        "known": held is not None,
        "value": value,
        "cleared": held is not None and held.value == CLEAR,
        "words": words(setting),
        "from": None if held is None else held.start.isoformat(),
        "to": None if held is None else held.end.isoformat(),
        "set_by": None if held is None else set_by_dict(held.set_by),
    }
    if of(setting.operation).books_ahead:
        found["bookable_from"] = None if setting.bookable_from is None else setting.bookable_from.isoformat()
    return found


def set_by_dict(set_by: SetBy) -> dict[str, Any]:
    return {
        "run": set_by.run,
        "command": set_by.command,
        "pruned": set_by.command is None,
        "lines": runs_text(set_by.lines) if set_by.lines else None,
        "files": list(dict.fromkeys(source for source, *_ in set_by.lines)),
        "user": set_by.user if set_by.command is not None else None,
        "host": set_by.host if set_by.command is not None else None,
        "acknowledged": set_by.acknowledged,
    }


def why_dict(found: Why) -> dict[str, Any]:
    return {
        "propertyid": found.propertyid,
        "roomid": found.roomid,
        "rateid": found.rateid,
        "date": found.night.isoformat(),
        "base_url": found.base_url,
        "source_id": found.source_id,
        "as_of": as_of(found),
        "last_run": None if found.last_run is None else {"id": found.last_run.id, "started": found.last_run.started},
        "settings": [setting_dict(s) for s in found.settings],
    }


def page_items(found: Why) -> list[dict[str, Any]]:
    """Per setting what the page shows: its label, its value in words, its dates and who set it."""
    return [
        {
            "label": label(s),
            "known": s.held is not None,
            "words": labelled_words(s),
            "dates": span_text(s),
            "set_by": "" if s.held is None else setter_text(s.held.set_by),
        }
        for s in found.settings
    ]


def show(found: Why, form: str, when: dt.datetime) -> None:
    """`why`: text, one JSON document or an HTML page (made at `when`) on standard output."""
    if form == "json":
        render_history.write_json(why_dict(found), sys.stdout)
    elif form == "html":
        write_why(title(found), as_of(found), page_items(found), sys.stdout, when)
    else:
        answer(found, render_history.console())
