"""A cancellation and deposit policy in words, as a revenue manager would say it to a guest.

"Free cancellation until 7 days before arrival; after that 100% of the first night. Deposit: 30%
of the stay, charged at booking." Kept apart from the records so that the dry-run table, overlap
messages and `policy describe` all say a policy the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ari_cli.wire.models import CancellationRule, Deposit

APPLIED_WORDS = {3: "the first night", 4: "the stay"}


def _days(count: int) -> str:
    return "1 day" if count == 1 else f"{count} days"


def _until(days: int) -> str:
    # 0 is the service's "18:00 on the day of arrival", not midnight.
    return "on the day of arrival until 18:00" if days == 0 else f"until {_days(days)} before arrival"


def _from(days: int) -> str:
    return "from 18:00 on the day of arrival" if days == 0 else f"from {_days(days)} before arrival"


def _share(amount: int, applied: int) -> str:
    return f"{amount}% of {APPLIED_WORDS.get(applied, f'(applied {applied})')}"


def cancellation_words(refundable: str, rules: Sequence[CancellationRule]) -> str:
    """The cancellation part: the free period, then each level's penalty in level order."""
    ordered = sorted(rules, key=lambda rule: rule.level)
    if refundable != "true":
        # What is sent, even where it contradicts itself: the levels travel with the flag.
        free = [rule for rule in ordered if rule.dayspriorcheckin > 0]
        if not free:
            return "Non-refundable."
        until = _until(free[0].dayspriorcheckin)
        return f"Non-refundable, yet level {free[0].level} is sent with free cancellation {until}."
    if not ordered:
        return "Refundable."
    first, *later = ordered
    parts = [
        f"Free cancellation {_until(first.dayspriorcheckin)}",
        f"after that {_share(first.penaltyamount, first.penaltyapplied)}",
    ]
    parts += [f"{_from(rule.dayspriorcheckin)}, {_share(rule.penaltyamount, rule.penaltyapplied)}" for rule in later]
    return "; ".join(parts) + "."


def deposit_words(deposit: Deposit) -> str:
    """The deposit part: none, or how much of what, and when it is charged."""
    if deposit.depositpolicy != "required":
        return "No deposit required."
    units, interval = deposit.depositintervalunits, deposit.deposittimeinterval
    when = f"{_days(interval)} before arrival" if units == 1 else "at booking"
    return f"Deposit: {_share(deposit.depositamount, deposit.depositapplied)}, charged {when}."


def describe_policy(refundable: str, rules: Sequence[CancellationRule], deposit: Deposit) -> str:
    """The whole policy in words: cancellation, then deposit."""
    return f"{cancellation_words(refundable, rules)} {deposit_words(deposit)}"
