"""`policy`: the cancellation and deposit policy of a room and rate, a request body of its own per record."""

from __future__ import annotations

from ari_cli.operations.descriptor import Descriptor, Terms, Words
from ari_cli.wire.operations import Operation

# A policy row: the refundable flag, one cancellation level, and the deposit.
LEVEL_FIELDS = ("level", "policyid", "dayspriorcheckin", "penaltytype", "penaltyamount", "penaltyapplied")
DEPOSIT_FIELDS = (
    "depositpolicy",
    "deposittype",
    "depositamount",
    "depositapplied",
    "depositintervalunits",
    "deposittimeinterval",
)
NAMED_POLICY = "policy"
"""A policy row's column naming a policy of --policies; it stands for the level and deposit columns."""
VALUE_FIELDS = ("refundable", *LEVEL_FIELDS, *DEPOSIT_FIELDS)

POLICY = Descriptor(
    operation=Operation.POLICY,
    key_fields=("propertyid", "roomid", "rateid"),
    rule=Terms(named=NAMED_POLICY),
    own_columns=(*VALUE_FIELDS, NAMED_POLICY),
    aliases={},
    # penaltytype and deposittype have one value each, which an empty cell or a missing column means.
    optional=frozenset({"deposittimeinterval", NAMED_POLICY, "penaltytype", "deposittype"}),
    body_keys=frozenset({"policydetails"}),
    layout=None,
    clearable=False,
    words=Words(heading="Policy", many="policies"),
    # A deposit that is not required has no amount, share or moment: a file of such deposits needs none of these.
    needed_by=dict.fromkeys(("depositamount", "depositapplied", "depositintervalunits"), "a required deposit"),
    abroad={
        "refundable": ("erstattbar", "remboursable", "reembolsable", "rimborsabile", "restitueerbaar", "reembolsável")
    },
)
