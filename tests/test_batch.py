"""Batching: ceil(records / batch size) requests per property, no overlapping twins together."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ari_cli.planning.batch import DataForm, Envelope, _fill, build_body, make_batches
from ari_cli.planning.plan import Record
from ari_cli.wire.models import Operation


def rec(prop: str, room: str, start: str, end: str, value: str = "1") -> Record:
    return Record((prop, room), dt.date.fromisoformat(start), dt.date.fromisoformat(end), value, (0,))


@pytest.mark.parametrize(("n", "size"), [(1, 50), (50, 50), (51, 50), (120, 7), (10, 1)])
def test_a_property_takes_ceil_records_over_size_requests(n: int, size: int) -> None:
    base = dt.date(2027, 1, 1)
    records = [rec("H1", f"R{i % 5}", (base + dt.timedelta(days=3 * i)).isoformat(),
                   (base + dt.timedelta(days=3 * i + 1)).isoformat()) for i in range(n)]  # fmt: skip
    batches = make_batches(records, size)
    assert len(batches) == math.ceil(n / size)
    assert sorted(i for b in batches for i in b.records) == list(range(n))
    assert all(len(b.records) <= size for b in batches)


def test_properties_are_never_mixed() -> None:
    records = [rec("H1", "A", "2027-01-01", "2027-01-02"), rec("H2", "A", "2027-01-01", "2027-01-02"),
               rec("H1", "B", "2027-01-01", "2027-01-02")]  # fmt: skip
    batches = make_batches(records, 50)
    assert [(b.propertyid, tuple(b.records)) for b in batches] == [("H1", (0, 2)), ("H2", (1,))]


def test_a_propertys_records_go_by_key_then_dates_whatever_their_order() -> None:
    records = [rec("H1", "B", "2027-01-05", "2027-01-06"), rec("H1", "A", "2027-01-03", "2027-01-04"),
               rec("H1", "B", "2027-01-01", "2027-01-02"), rec("H1", "A", "2027-01-01", "2027-01-02"),
               rec("H1", "A", "2027-01-08", "2027-01-09")]  # fmt: skip
    assert [tuple(b.records) for b in make_batches(records, 2)] == [(3, 1), (4, 2), (0,)]


def test_overlapping_records_of_one_key_go_to_different_requests() -> None:
    records = [rec("H1", "A", "2027-01-01", "2027-01-10"), rec("H1", "A", "2027-01-05", "2027-01-12"),
               rec("H1", "B", "2027-01-01", "2027-01-10")]  # fmt: skip
    batches = make_batches(records, 50)
    assert len(batches) == 2
    for b in batches:
        assert not {0, 1} <= set(b.records)


def test_threshold_body_list_and_object_forms() -> None:
    records = [rec("H1", "DBL", "2027-01-01", "2027-01-31", "3")]
    env = Envelope("k" * 16, "cpbA1")
    listed = build_body(Operation.THRESHOLD, env, records, DataForm.LIST)
    assert listed == {
        "sharepost": "k" * 16, "sourceid": "cpbA1", "propertyid": "H1", "action": "sellthresholdupdate",
        "data": [{"startdateymd": "2027-01-01", "enddateymd": "2027-01-31", "roomid": "DBL", "threshold": "3"}],
    }  # fmt: skip
    single = build_body(Operation.THRESHOLD, env, records, DataForm.OBJECT)
    assert single["data"] == listed["data"][0]


def test_dry_run_without_configuration_shows_the_spec_placeholders() -> None:
    body = build_body(Operation.THRESHOLD, Envelope(), [rec("H1", "DBL", "2027-01-01", "2027-01-02")], DataForm.LIST)
    assert body["sharepost"] == "<API_KEY>" and body["sourceid"] == "<source_id>"


def _plainly(records: list[Record], size: int) -> list[tuple[str, tuple[int, ...]]]:
    """The rule said plainly: properties in order of first appearance; a property's records by key, then dates,
    then input order; cut into ceil(n / size) requests, overlapping twins apart (as `_fill` cuts them)."""
    rank: dict[str, int] = {}
    for record in records:
        rank.setdefault(record.propertyid, len(rank))
    ordered: dict[str, list[int]] = {}
    for index in sorted(
        range(len(records)),
        key=lambda i: (rank[records[i].propertyid], records[i].key, records[i].start, records[i].end, i),
    ):
        ordered.setdefault(records[index].propertyid, []).append(index)
    return [(prop, tuple(group)) for prop, indexes in ordered.items() for group in _fill(records, indexes, size)]


_RECORDS = st.lists(
    st.tuples(st.sampled_from("ABC"), st.sampled_from(["R1", "R2", "R10", "S"]), st.integers(0, 20), st.integers(0, 5)),
    max_size=60,
)


@given(rows=_RECORDS, size=st.integers(1, 7), grouped=st.booleans())
def test_batches_are_the_plain_rules(rows: list[tuple[str, str, int, int]], size: int, grouped: bool) -> None:
    day = dt.date(2027, 1, 1)
    records = [Record((p, r), day + dt.timedelta(s), day + dt.timedelta(s + n), "1", (0,)) for p, r, s, n in rows]
    if grouped:  # as a plan gives them: a key's records side by side
        records.sort(key=lambda record: record.key)
    batches = [(batch.propertyid, tuple(batch.records)) for batch in make_batches(records, size)]
    assert batches == _plainly(records, size)
