"""What the service's refusals in a run reach, and what they cost: pure bookkeeping for the sender.

A refusal goes as far as it reaches (`wire/errors.py` `reach`, clarifications 2026-11-28). A record-level one
splits its request in halves until each failing record stands alone, within a budget per property; one about
the property holds back that property's other requests, one about the endpoint every request to that URL, one
about the account every request of the run. The service would refuse them again: asking again only spends the
budget it counts (at a real service, a few calls a minute per property), and channels get blocked for less.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ari_cli.send.exchange import Exchange, Problem
from ari_cli.wire.errors import Reach
from ari_cli.wire.gateway import gateway_answer


def split_budgets(planned: Sequence[Exchange]) -> Counter[str]:
    """How many split requests each property may send in a run: as many as it planned, so that records refused one
    by one cost at most twice the planned requests; and at least what isolating one refused record of its largest
    request takes (halving 50 records to one is 6 rounds of 2 requests), so that one bad room among a small file's
    good ones still fails alone."""
    requests: Counter[str] = Counter()
    largest: dict[str, int] = {}
    for exchange in planned:
        requests[exchange.propertyid] += 1
        largest[exchange.propertyid] = max(largest.get(exchange.propertyid, 0), len(exchange.records))
    return Counter({p: max(n, 2 * (largest[p] - 1).bit_length()) for p, n in requests.items()})


class Refusals:
    """A run's split budgets and what its refusals hold back."""

    def __init__(self) -> None:
        self.budget: Counter[str] = Counter()  # each property's budget of split requests in the run
        self.split: Counter[str] = Counter()  # each property's split requests so far
        # What a refusal reaches, and the problem its held-back requests end with: by property, by URL, and the
        # whole account ("" once it is refused).
        self.refused: dict[tuple[Reach, str], Problem] = {}

    def plan(self, planned: Sequence[Exchange]) -> None:
        """The run's planned requests, whose count per property is its budget of split ones."""
        self.budget.update(split_budgets(planned))

    def may_split(self, exchange: Exchange) -> bool:
        """Whether `exchange`'s property may still send its records again in two halves."""
        return self.split[exchange.propertyid] + 2 <= self.budget[exchange.propertyid]

    def splitting(self, exchange: Exchange, halves: int) -> None:
        self.split[exchange.propertyid] += halves

    def not_isolated(self, exchange: Exchange) -> Problem:
        """Why a record-level refusal's records were not split further: the property's budget is spent."""
        return Problem(
            None,
            f"not isolated: property {exchange.propertyid} has had its {self.budget[exchange.propertyid]} split "
            f"requests this run, so these {len(exchange.records)} records were not split further to find which of "
            "them the service refused",
            None,
            "the answer is about one or more of these records: fix what it names, or send them in smaller requests "
            "(--batch-size) to learn which",
        )

    def refuse(self, exchange: Exchange, scope: Reach, answer: Problem) -> None:
        """Hold back what `answer` reaches (`scope`, one of `wire.errors.WHOLE`): the property's other requests, the
        URL's, or every one."""
        if scope is Reach.PROPERTY:
            where, whom, then = (
                exchange.propertyid,
                f"property {exchange.propertyid}",
                "its other requests were held back",
            )
        elif scope is Reach.ENDPOINT:
            where, whom, then = exchange.url, f"the endpoint {exchange.url}", "nothing more was sent to it"
        else:
            where, whom, then = "", "the account", "the run sent nothing more"
        if answer.code is not None:
            said = f"on request {exchange.id} the service refused {whom} ({answer.code} {answer.message})"
        else:  # a gateway's page, or a 404 that is not the service's: its own words are in the request's error
            gateway = gateway_answer(answer.http_status, None)
            what = f": {gateway.message}" if gateway else ", not the service's JSON"
            said = f"request {exchange.id} was answered HTTP {answer.http_status}{what}, which refuses {whom}"
        self.refused.setdefault((scope, where), Problem(None, f"not sent: {said}, so {then}", None, answer.hint))

    def held_back(self, exchange: Exchange) -> Problem | None:
        """Why `exchange` is not to be sent, when a refusal reaches it; else None."""
        if not self.refused:
            return None
        for key in ((Reach.ACCOUNT, ""), (Reach.ENDPOINT, exchange.url), (Reach.PROPERTY, exchange.propertyid)):
            if (found := self.refused.get(key)) is not None:
                return found
        return None
