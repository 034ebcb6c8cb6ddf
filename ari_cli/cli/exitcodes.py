"""What each command's exit codes mean, written once: every command's --help lists them (cli/helptext.py).

Every command can also end with 2 (a usage error), 130 (interrupted) and 141 (standard output closed, `| head`),
and with 1 when standard output cannot be written: `COMMON` adds those to each command's own codes.
tests/test_exit_codes_help.py holds every command's list against a table of its own.
"""

from __future__ import annotations

from ari_cli.wire.operations import Operation

COMMON = {
    1: "standard output could not be written",
    2: "a usage error",
    130: "interrupted",
    141: "standard output closed (`| head`)",
}

_PUSH = {
    0: "all ok",
    1: "some rows failed, or an export's conflicts were not sent",
    3: "invalid input",
    4: "configuration",
    5: "a guard (--max-changed, --max-cleared, --min-coverage, --max-step) tripped: nothing sent",
}
_DIFF = {
    0: "compared (with --exit-code: nothing would change)",
    1: "with --exit-code, when anything would change",
    3: "invalid input",
    4: "no base URL or source id, or a journal that cannot be read",
}
_SEND = {
    0: "ok",
    1: "the request failed",
    3: "invalid values",
    4: "configuration",
    5: "a guard (--max-changed, --max-cleared, --max-step) tripped: nothing sent",
}

# By the command's path after `ari-cli`; a group that only holds commands shows its help (0) or a usage error.
OWN: dict[str, dict[int, str]] = {
    "": {
        0: "all ok",
        1: "some rows failed",
        3: "invalid input",
        4: "configuration",
        5: "a guard tripped: nothing sent (each command's --help says which it gives)",
    },
    **{f"{operation} push": _PUSH for operation in Operation},
    **{f"{operation} diff": _DIFF for operation in Operation},
    **{f"{operation} send": _SEND for operation in Operation},
    **{operation: {0: "help shown"} for operation in (*Operation, "config")},
    "policy describe": {0: "described", 3: "a policies file that cannot be read or is invalid"},
    "replay": {
        0: "every body accepted",
        1: "any failure",
        3: "a file that is not request bodies",
        4: "no configuration",
    },
    "explain": {0: "explained", 2: "a code not in the spec's error table"},
    "errors": {0: "shown"},
    "retry": {
        0: "every row ok, skipped, or superseded by a later acknowledgement (or nothing left to send)",
        1: "a request still failed, or rows stay refused for their own data",
        2: "no such run",
        4: "no key configured, a URL refused, a run that went to a sandbox that has ended, or an unreadable journal",
    },
    "revert": {
        0: "everything put back (or nothing to put back)",
        1: "a request failed or the question was answered no",
        2: "no such run, a retry given instead of its run, or no terminal to ask at without --yes",
        4: "no key configured, a run that went to a sandbox that has ended, or a journal that cannot be read",
    },
    "calendar": {
        0: "shown",
        1: "nothing acknowledged for the property",
        2: "bad dates",
        4: "the journal or config file unreadable",
    },
    "why": {
        0: "answered (nothing known is an answer)",
        1: "no service configured and none known for the property",
        2: "a bad date or option",
        4: "the journal or config file unreadable",
    },
    "samples": {0: "written", 2: "a folder that cannot be written"},
    **{
        f"{operation} export": {
            0: "written",
            1: "nothing acknowledged in the window",
            2: "bad dates, or a file that cannot be written",
            4: "no base URL or source id, or a journal that cannot be read",
        }
        for operation in Operation
    },
    "completion": {0: "the script printed", 2: "a shell it does not know"},
    "sandbox": {0: "stopped with Ctrl-C", 3: "a bad fixtures file", 4: "the port is in use"},
    "config init": {0: "saved", 4: "a config file that cannot be read or written, or no terminal to ask at"},
    "config show": {0: "shown", 4: "a config file or profile that cannot be read"},
    "config set": {0: "set", 4: "no such profile or setting, or a config file that cannot be read or written"},
    "config get": {0: "shown", 4: "no such profile or setting, or a config file that cannot be read"},
    "config delete": {
        0: "deleted",
        1: "the question was answered no (nothing deleted)",
        2: "no terminal to ask at without --yes",
        4: "no such profile, or a config file that cannot be read or written",
    },
    "config profiles": {0: "listed", 4: "a config file that cannot be read"},
    "history": {0: "listed", 4: "a journal that cannot be read"},
    "history show": {0: "shown", 2: "no such run", 4: "a journal that cannot be read"},
    "history find": {0: "found", 1: "nothing found", 2: "a search not given or a bad date", 4: "an unreadable journal"},
    "history prune": {
        0: "pruned (or nothing to prune)",
        1: "the question was answered no",
        4: "a journal that cannot be read or written",
    },
}


def codes(path: str) -> dict[int, str]:
    """Every exit code the command at `path` (`"threshold push"`) can give, with what it means, in order."""
    own = OWN.get(path, {})
    merged = {**COMMON, **own}
    if 2 in own and own[2] != COMMON[2]:
        merged[2] = f"{COMMON[2]}, {own[2]}"
    if 1 in own:
        merged[1] = f"{own[1]}, or standard output could not be written"
    return dict(sorted(merged.items()))


def exit_codes_line(path: str) -> str:
    """`Exit codes: 0 all ok, 1 some rows failed, ... 130 interrupted, 141 ...`: what --help shows."""
    return "Exit codes: " + ", ".join(f"{code} {meaning}" for code, meaning in codes(path).items()) + "."
