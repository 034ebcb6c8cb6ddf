"""What a run's refusals reach (send/refusals.py), as pure bookkeeping: budgets of split requests, and what a
refusal of the property, the endpoint or the account holds back. The console script's side is tests/test_manners.py."""

from __future__ import annotations

from ari_cli.send.exchange import Exchange, Problem
from ari_cli.send.refusals import Refusals, split_budgets
from ari_cli.wire.errors import Reach


def _exchange(number: int, propertyid: str, records: int, url: str = "http://s/v2/push_ari/S/a") -> Exchange:
    return Exchange(number, propertyid, range(records), {}, url)


def test_a_propertys_split_budget_is_its_planned_requests_or_what_isolating_one_record_takes() -> None:
    planned = [_exchange(n, "BIG", 50) for n in range(40)] + [_exchange(40, "ONE", 50), _exchange(41, "TWO", 3)]
    planned += [_exchange(42, "TWO", 2), _exchange(43, "SINGLE", 1)]
    # 40 requests: 40 split ones at most, so every record refused costs at most 80 requests. One request of 50
    # records: halving to one record takes 6 rounds of 2. Requests of 3 records: 2 rounds of 2. One record: its one planned request.
    assert split_budgets(planned) == {"BIG": 40, "ONE": 12, "TWO": 4, "SINGLE": 1}


def test_a_budget_spent_is_said_and_no_split_is_allowed() -> None:
    refusals = Refusals()
    one = _exchange(1, "P", 4)
    refusals.plan([one])
    assert refusals.may_split(one)
    refusals.splitting(one, 2)
    refusals.splitting(one, 2)
    assert not refusals.may_split(one)
    assert refusals.not_isolated(one).message.startswith("not isolated: property P has had its 4 split requests")


def test_a_refusal_holds_back_what_it_reaches_and_no_more() -> None:
    refusals = Refusals()
    a1, a2 = _exchange(1, "A", 1), _exchange(2, "A", 1)
    b = _exchange(3, "B", 1)
    other_url = _exchange(4, "C", 1, url="http://s/v2/push_ari/S/C")
    answer = Problem(446, "invalid property mapping", 421, "check propertyid")
    refusals.refuse(a1, Reach.PROPERTY, answer)
    held = refusals.held_back(a2)
    assert held is not None and held.message == (
        "not sent: on request 1 the service refused property A (446 invalid property mapping), so its other "
        "requests were held back"
    )
    assert held.hint == "check propertyid" and refusals.held_back(b) is None
    refusals.refuse(b, Reach.ENDPOINT, Problem(442, "endpoint is not active", 418))
    assert refusals.held_back(other_url) is None  # another URL
    refusals.refuse(b, Reach.ACCOUNT, Problem(None, "HTTP 403 (forbidden by a gateway) with a body …", 403))
    everyone = refusals.held_back(other_url)
    assert everyone is not None and everyone.message == (
        "not sent: request 3 was answered HTTP 403: forbidden by a gateway, firewall or allow-list, which refuses "
        "the account, so the run sent nothing more"
    )
