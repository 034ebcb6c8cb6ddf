"""Named policies: a TOML file read with the policy rows' own checks, each policy said in words, and
policy rows that give a policy by name."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from ari_cli.exits import InputError
from ari_cli.records.named import load_policies, parse_policies
from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()

POLICIES = """\
[policies.flex7]
refundable = true
levels = [{ policyid = 2, dayspriorcheckin = 7, penaltyamount = 100, penaltyapplied = 3 }]
deposit = { policy = "required", amount = 30, applied = 4, intervalunits = 0 }

[policies.sameday]
refundable = "TRUE"
levels = [{ policyid = 3, dayspriorcheckin = 0, penaltyamount = 50, penaltyapplied = 4 }]
deposit = { depositpolicy = "not required", depositamount = 10, depositapplied = 3, depositintervalunits = 0 }

[policies.nonref]
refundable = false
levels = [{ policyid = 1, dayspriorcheckin = 0, penaltyamount = 100, penaltyapplied = 4 }]
deposit = { policy = "required", amount = 100, applied = 4, intervalunits = 1, timeinterval = 7 }

[policies.twostep]
refundable = "yes"
deposit = { policy = "required", amount = 20, applied = 3, intervalunits = 1, timeinterval = 1 }

[[policies.twostep.levels]]
level = 2
policyid = 2
dayspriorcheckin = 1
penaltyamount = 100
penaltyapplied = 4

[[policies.twostep.levels]]
level = 1
policyid = 2
dayspriorcheckin = 14
penaltyamount = 25
penaltyapplied = 3
"""

WORDS = {
    "flex7": "Free cancellation until 7 days before arrival; after that 100% of the first night. "
    "Deposit: 30% of the stay, charged at booking.",
    "sameday": "Free cancellation on the day of arrival until 18:00; after that 50% of the stay. No deposit required.",
    "nonref": "Non-refundable. Deposit: 100% of the stay, charged 7 days before arrival.",
    "twostep": "Free cancellation until 14 days before arrival; after that 25% of the first night; "
    "from 1 day before arrival, 100% of the stay. Deposit: 20% of the first night, charged 1 day before arrival.",
}


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


@pytest.fixture
def toml(tmp_path: Path) -> Path:
    path = tmp_path / "policies.toml"
    path.write_text(POLICIES)
    return path


def error(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_policies("p.toml", text)
    return caught.value


# -- the file and the words ----------------------------------------------------------------------


@pytest.mark.parametrize("name", list(WORDS))
def test_each_named_policy_reads_correctly_in_words(toml: Path, name: str) -> None:
    assert load_policies(str(toml))[name].describe() == WORDS[name]


def test_levels_take_their_place_and_the_types_their_only_value(toml: Path) -> None:
    policies = load_policies(str(toml))
    assert [rule.level for rule in policies["twostep"].rules] == [1, 2]
    flex = policies["flex7"]
    assert (flex.refundable, flex.rules[0].level, flex.rules[0].penaltytype) == ("true", 1, 3)
    assert (flex.deposit.deposittype, flex.deposit.deposittimeinterval) == (3, 0)
    assert policies["sameday"].refundable == "true" and policies["twostep"].refundable == "true"


def test_not_valid_toml_names_the_line() -> None:
    problem = error("[policies.a]\nrefundable = true\nlevels = [{ policyid = 2 }]]\n")
    assert problem.message.startswith("p.toml line 3 column ")
    assert ": not valid TOML: " in problem.message and "(at line" not in problem.message
    assert problem.hint is not None and "policy describe --help" in problem.hint


def test_toml_left_open_names_the_last_line() -> None:
    problem = error("[policies.a]\nrefundable = true\nlevels = [{ policyid = 2 }\n")
    assert problem.message == "p.toml line 3 (the end): not valid TOML: Unclosed array"


def test_a_file_without_policies() -> None:
    assert error("[other]\nx = 1\n").message == "p.toml: defines no policy; give each as a [policies.NAME] table"


def test_values_are_checked_by_the_policy_row_rules_and_name_the_policy_and_its_line() -> None:
    problem = error(
        "# comment\n"
        "[policies.bad]\n"
        'refundable = "maybe"\n'
        "levels = [{ policyid = 9, dayspriorcheckin = 7, penaltyamount = 100, penaltyapplied = 3 }]\n"
        'deposit = { policy = "not required", amount = 300, applied = 4, intervalunits = 0 }\n'
    )
    assert problem.message.splitlines() == [
        "p.toml line 2, policy bad, refundable: 'maybe' is not allowed; use true or false (or yes/no, ja/nein, oui/non, sí/no, sì/no, ja/nee, sim/não)",
        "p.toml line 2, policy bad, depositamount: 300 is above the maximum 100",
        "p.toml, policy bad, levels entry 1, policyid: 9 is above the maximum 5",
    ]


def test_level_tables_give_their_own_lines() -> None:
    problem = error(
        "[policies.x]\nrefundable = true\n"
        'deposit = { policy = "required", amount = 10, applied = 3, intervalunits = 0 }\n'
        "[[policies.x.levels]]\npolicyid = 1\ndayspriorcheckin = 3\npenaltyamount = 10\npenaltyapplied = 3\n"
        "[[policies.x.levels]]\npolicyid = 1\ndayspriorcheckin = 1\npenaltyamount = 10\npenaltyapplied = 5\n"
    )
    assert problem.message == (
        "p.toml line 9, policy x, levels entry 2, penaltyapplied: '5' is not allowed; use 3 (first night), 4 (full stay)"
    )


def test_non_refundable_needs_a_deposit_and_levels_are_unique_as_in_rows() -> None:
    problem = error(
        "[policies.n]\nrefundable = false\n"
        "levels = [{ level = 1, policyid = 1, dayspriorcheckin = 0, penaltyamount = 100, penaltyapplied = 4 },\n"
        "          { level = 1, policyid = 1, dayspriorcheckin = 0, penaltyamount = 100, penaltyapplied = 4 }]\n"
        'deposit = { policy = "not required", amount = 10, applied = 3, intervalunits = 0 }\n'
    )
    assert problem.message.splitlines() == [
        "p.toml line 1, policy n, depositpolicy: must be required when refundable is false",
        "p.toml, policy n, levels entry 2, level: level 1 appears twice in one policy",
    ]


def test_unknown_keys_and_missing_levels() -> None:
    problem = error(
        "[policies.u]\nrefundable = true\ncolour = 'red'\n"
        'deposit = { policy = "required", amount = 10, applied = 3, intervalunits = 0, when = 1 }\n'
    )
    assert problem.message.splitlines() == [
        'p.toml line 1, policy u: unknown key "colour"; a policy has refundable, levels, deposit',
        'p.toml line 1, policy u: unknown key "when" in deposit; the keys are policy, type, amount, applied, '
        "intervalunits, timeinterval",
        "p.toml line 1, policy u, levels: none given; a policy has one or two cancellation levels",
    ]


def test_names_that_differ_only_in_case_are_refused() -> None:
    body = (
        "refundable = true\n"
        "levels = [{ policyid = 2, dayspriorcheckin = 7, penaltyamount = 100, penaltyapplied = 3 }]\n"
        'deposit = { policy = "required", amount = 30, applied = 4, intervalunits = 0 }\n'
    )
    problem = error(f"[policies.Flex]\n{body}[policies.flex]\n{body}")
    assert problem.message == 'p.toml: policies "Flex" and "flex" differ only in case'


def test_a_missing_policies_file() -> None:
    with pytest.raises(InputError) as caught:
        load_policies("nowhere.toml")
    assert caught.value.message == "cannot read nowhere.toml: no such file"


# -- ari-cli policy describe ---------------------------------------------------------------------


def test_describe_one_policy_prints_its_words(toml: Path) -> None:
    result = invoke(["policy", "describe", "FLEX7", "--policies", str(toml)])
    assert result.exit_code == 0
    assert result.stdout == WORDS["flex7"] + "\n"


def test_describe_without_a_name_prints_every_policy(toml: Path) -> None:
    result = invoke(["policy", "describe", "--policies", str(toml)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{name}: {words}" for name, words in WORDS.items()]


def test_describe_an_unknown_name_lists_the_names(toml: Path) -> None:
    result = invoke(["policy", "describe", "flex8", "--policies", str(toml)])
    assert result.exit_code == 3
    assert f'error: {toml}: no policy named "flex8"; the names are flex7, sameday, nonref, twostep' in result.stderr


def test_describe_a_broken_file_exits_3_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text("[policies.a\n")
    result = invoke(["policy", "describe", "--policies", str(path)])
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path} line 1 column ") and "Traceback" not in result.stderr


def test_describe_has_help_with_an_example() -> None:
    result = invoke(["policy", "describe", "--help"])
    assert result.exit_code == 0 and "ari-cli policy describe flex7 --policies policies.toml" in result.stdout


# -- policy rows that name a policy --------------------------------------------------------------


def rows_file(tmp_path: Path, *rows: str, header: str = "propertyid,roomid,rateid,start,end,policy") -> Path:
    path = tmp_path / "named.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def wire(toml: Path, name: str) -> dict[str, Any]:
    policy = load_policies(str(toml))[name]
    return {
        "refundable": policy.refundable,
        "policydetails": {
            "cancellation": [rule.model_dump() for rule in policy.rules],
            "deposit": policy.deposit.model_dump(),
        },
    }


def test_rows_that_name_policies_push_them(tmp_path: Path, toml: Path, sandbox: Any) -> None:
    path = rows_file(
        tmp_path,
        f"HTL001,DBL,BAR,{day(10)},{day(11)},flex7",
        f"HTL001,DBL,NRF,{day(10)},{day(10)},NonRef",
        f"HTL002,KNG,FLEX,{day(12)},{day(12)},twostep",
    )
    args = ["policy", "push", str(path), "--policies", str(toml), "--today", TODAY.isoformat()]
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["policy"] == {
        "HTL001": {
            "DBL": {
                "BAR": {day(10): wire(toml, "flex7"), day(11): wire(toml, "flex7")},
                "NRF": {day(10): wire(toml, "nonref")},
            }
        },
        "HTL002": {"KNG": {"FLEX": {day(12): wire(toml, "twostep")}}},
    }


def test_the_dry_run_table_says_the_policy_in_words(tmp_path: Path, toml: Path) -> None:
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},flex7")
    result = invoke(["policy", "push", str(path), "--policies", str(toml), "--dry-run", "--show", "all"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "flex7: Free cancellation until 7 days before arrival;" in " ".join(result.stdout.split())


def test_level_rows_also_read_in_words_in_the_table(tmp_path: Path) -> None:
    header = (
        "propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltytype,penaltyamount,"
        "penaltyapplied,depositpolicy,deposittype,depositamount,depositapplied,depositintervalunits"
    )
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(3)},{day(4)},true,1,2,7,3,100,3,required,3,30,4,0", header=header)
    result = invoke(["policy", "push", str(path), "--dry-run"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert WORDS["flex7"] in " ".join(result.stdout.split())


def test_an_unknown_name_is_a_row_error_listing_the_names(tmp_path: Path, toml: Path, sandbox: Any) -> None:
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},flex8")
    args = ["policy", "push", str(path), "--policies", str(toml), "--today", TODAY.isoformat()]
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert (
        f'{path} line 2, policy: no policy named "flex8" in --policies; the names are flex7, sameday, nonref, twostep'
    ) in result.stderr
    assert sandbox.state()["policy"] == {}


def test_a_name_without_the_policies_option(tmp_path: Path) -> None:
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},flex7")
    result = invoke(["policy", "push", str(path), "--dry-run"])
    assert result.exit_code == 3
    assert f'error: {path} line 2: the policy column names "flex7", but no --policies FILE was given' in result.stderr
    assert "hint:" in result.stderr and "Traceback" not in result.stderr


def test_a_name_with_level_columns_too_is_an_error(tmp_path: Path, toml: Path) -> None:
    path = rows_file(
        tmp_path,
        f"HTL001,DBL,BAR,{day(10)},{day(11)},flex7,true",
        f"HTL001,DBL,NRF,{day(10)},{day(11)},,",
        header="propertyid,roomid,rateid,start,end,policy,refundable",
    )
    result = invoke(["policy", "push", str(path), "--policies", str(toml), "--dry-run"])
    assert result.exit_code == 3
    assert f'{path} line 2, policy: "flex7" is a named policy, so leave refundable empty' in result.stderr
    assert f"{path} line 3, policy: is empty; give the name of a policy of --policies" in result.stderr


def test_a_two_level_named_policy_cannot_go_as_one_object(tmp_path: Path, toml: Path) -> None:
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},twostep")
    result = invoke(["policy", "push", str(path), "--policies", str(toml), "--dry-run", "--data-form", "object"])
    assert result.exit_code == 3
    assert '"twostep" has 2 levels and cannot be sent with --data-form object' in result.stderr


def test_policies_option_on_another_operation_is_a_usage_error(tmp_path: Path, toml: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text(f"propertyid,roomid,date,threshold\nHTL001,DBL,{day(1)},2\n")
    result = invoke(["threshold", "push", str(path), "--policies", str(toml), "--dry-run"])
    assert result.exit_code == 2
    assert "named policies are for policy push only" in result.stderr


def test_a_policy_file_with_only_the_policy_column_needs_no_level_columns(tmp_path: Path, toml: Path) -> None:
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},sameday")
    result = invoke(["policy", "push", str(path), "--policies", str(toml), "--dry-run", "--output", "json"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "missing column" not in result.stderr


def test_a_name_holding_a_character_that_does_not_show_is_named(tmp_path: Path, toml: Path, sandbox: Any) -> None:
    # "flex7" followed by a zero-width space looks like flex7 in every editor and is not it.
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},flex7\u200b")
    args = ["policy", "push", str(path), "--policies", str(toml), "--today", TODAY.isoformat()]
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert (
        f"{path} line 2, policy: holds U+200B (zero width space), which does not show: "
        "type the policy's name again without it"
    ) in " ".join(result.stderr.split())
    assert "no policy named" not in result.stderr
    assert sandbox.state()["policy"] == {}


def test_a_policies_file_name_holding_a_character_that_does_not_show_is_refused(tmp_path: Path) -> None:
    toml = tmp_path / "named.toml"
    text = POLICIES.replace("[policies.flex7]", '[policies."flex\\u2060seven"]')
    toml.write_text(text, encoding="utf-8")
    path = rows_file(tmp_path, f"HTL001,DBL,BAR,{day(10)},{day(11)},flexseven")
    result = invoke(["policy", "push", str(path), "--policies", str(toml), "--dry-run"])
    assert result.exit_code == 3, result.stdout + result.stderr
    assert f'{toml}: the name "flexseven" holds U+2060 (word joiner), which does not show: type it again' in (
        " ".join(result.stderr.split())
    )
