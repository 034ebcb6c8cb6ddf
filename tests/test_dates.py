"""Dates as users write them, weekday filters, and the runs a filter cuts a range into."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ari_cli.records.dates import parse_date, parse_days, weekday_runs

TODAY = dt.date(2027, 1, 4)  # a Monday
D = dt.date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2027-03-01", D(2027, 3, 1)),
        (" 2027-03-01 ", D(2027, 3, 1)),
        ("2028-02-29", D(2028, 2, 29)),
        ("today", TODAY),
        ("TODAY", TODAY),
        ("Today+1", D(2027, 1, 5)),
        ("today + 30", D(2027, 2, 3)),
        ("today-4", D(2026, 12, 31)),
        ("today - 0", TODAY),
        (D(2027, 5, 6), D(2027, 5, 6)),
        # Issue 42: a date-time is its day at midnight only (13:30 is refused: test_dates_written.py).
        (dt.datetime(2027, 5, 6), D(2027, 5, 6)),
    ],
)
def test_parse_date(text: str | dt.date, expected: dt.date) -> None:
    assert parse_date(text, TODAY) == expected
    assert type(parse_date(text, TODAY)) is dt.date


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "04/01/2027",
            '"04/01/2027" is not a date of the form YYYY-MM-DD; '
            "for other layouts give --date-format, e.g. --date-format %d/%m/%Y (day first) or %m/%d/%Y (month first)",
        ),
        (
            "13/01/2027",
            '"13/01/2027" is not a date of the form YYYY-MM-DD; '
            "for other layouts give --date-format, e.g. --date-format %d/%m/%Y",
        ),
        (
            "04.01.2027",
            '"04.01.2027" is not a date of the form YYYY-MM-DD; '
            "for other layouts give --date-format, e.g. --date-format %d.%m.%Y (day first) or %m.%d.%Y (month first)",
        ),
        (
            "20270104",
            '"20270104" is not a date of the form YYYY-MM-DD; '
            "for other layouts give --date-format, e.g. --date-format %Y%m%d",
        ),
        (
            "2027-1-4",
            '"2027-1-4" is not a date of the form YYYY-MM-DD; '
            "for other layouts give --date-format, e.g. --date-format %Y-%m-%d",
        ),
        (
            "4-1-2027",
            '"4-1-2027" is not a date of the form YYYY-MM-DD; '
            "for other layouts give --date-format, e.g. --date-format %d-%m-%Y (day first) or %m-%d-%Y (month first)",
        ),
        ("2027-02-29", '"2027-02-29" is not a valid date: day is out of range for month'),
        ("2027-13-01", '"2027-13-01" is not a valid date: month must be in 1..12'),
        ("", "the date is empty; give YYYY-MM-DD, today or today+N"),
        ("   ", "the date is empty; give YYYY-MM-DD, today or today+N"),
        ("today+999999999999", '"today+999999999999" is outside the calendar'),
        ("tomorrow", '"tomorrow" is not a date; give YYYY-MM-DD, today or today+N'),
        ("5", '"5" is not a date; give YYYY-MM-DD, today or today+N'),
        ("today+1d", '"today+1d": today+N needs a number of days, e.g. today+7 (or today-N, or today alone)'),
        ("today+", '"today+": today+N needs a number of days, e.g. today+7 (or today-N, or today alone)'),
    ],
)
def test_parse_date_errors_never_guess(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_date(text, TODAY)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("04/01/2027", D(2027, 1, 4)),
        ("2027-01-05", D(2027, 1, 5)),  # ISO still accepted
        ("today+1", D(2027, 1, 5)),
        ("4/1/2027", D(2027, 1, 4)),
    ],
)
def test_parse_date_with_a_format(text: str, expected: dt.date) -> None:
    assert parse_date(text, TODAY, "%d/%m/%Y") == expected


def test_a_format_that_looks_like_iso_wins_over_iso() -> None:
    assert parse_date("2027-04-01", TODAY, "%Y-%d-%m") == D(2027, 1, 4)
    assert parse_date("2027-01-31", TODAY, "%Y-%d-%m") == D(2027, 1, 31)  # not that layout: ISO


def test_parse_date_with_a_format_that_does_not_match() -> None:
    with pytest.raises(ValueError) as caught:
        parse_date("01-04-2027", TODAY, "%d/%m/%Y")
    assert str(caught.value) == '"01-04-2027" does not match the date format %d/%m/%Y (nor YYYY-MM-DD)'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mon-Fri", {0, 1, 2, 3, 4}),
        ("mon - fri", {0, 1, 2, 3, 4}),
        ("Sat,Sun", {5, 6}),
        ("sat, sun", {5, 6}),
        ("mo,tu", {0, 1}),
        ("Monday,Wednesday", {0, 2}),
        ("Tues Thurs", {1, 3}),
        ("Fri-Mon", {4, 5, 6, 0}),
        ("Sun-Sun", {6}),
        ("Mon-Wed,Sat", {0, 1, 2, 5}),
        ("WE", {2}),
        ("1111100", {0, 1, 2, 3, 4}),
        ("0000011", {5, 6}),
        ("1000000", {0}),
        (" 1111111 ", set(range(7))),
    ],
)
def test_parse_days(text: str, expected: set[int]) -> None:
    assert parse_days(text) == frozenset(expected)


HELP = "use names like Mon-Fri, Sat,Sun or mo,tu, or a 7-character mask like 1111100 (Monday first)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", f"no weekdays given; {HELP}"),
        ("0000000", f'the mask "0000000" selects no day; {HELP}'),
        ("111110", f'"111110" is not a 7-character mask of 0 and 1; {HELP}'),
        ("1-5", f'"1" in "1-5" is not a weekday; {HELP}'),
        ("Mnday", f'"Mnday" in "Mnday" is not a weekday; {HELP}'),
        ("K,Tu", f'"K" in "K,Tu" is not a weekday; {HELP}'),  # M,Tu now reads: M is Monday in English
        ("Mon-", f'"Mon-" in "Mon-" is not a range of weekdays; {HELP}'),
        ("Sat,-Sun", f'"-Sun" in "Sat,-Sun" is not a range of weekdays; {HELP}'),
        (",", f'"," names no weekday; {HELP}'),
    ],
)
def test_parse_days_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_days(text)
    assert str(caught.value) == message


WEEKDAYS = frozenset(range(5))
WEEKEND = frozenset({5, 6})


@pytest.mark.parametrize(
    ("start", "end", "days", "expected"),
    [
        (D(2027, 1, 4), D(2027, 1, 17), frozenset(range(7)), [(D(2027, 1, 4), D(2027, 1, 17))]),
        (
            D(2027, 1, 4),
            D(2027, 1, 17),
            WEEKDAYS,
            [(D(2027, 1, 4), D(2027, 1, 8)), (D(2027, 1, 11), D(2027, 1, 15))],
        ),
        (
            D(2027, 1, 1),
            D(2027, 1, 17),
            WEEKEND,
            [
                (D(2027, 1, 2), D(2027, 1, 3)),
                (D(2027, 1, 9), D(2027, 1, 10)),
                (D(2027, 1, 16), D(2027, 1, 17)),
            ],
        ),
        (D(2027, 1, 4), D(2027, 1, 8), WEEKEND, []),  # no matching day
        (D(2027, 1, 4), D(2027, 1, 4), WEEKDAYS, [(D(2027, 1, 4), D(2027, 1, 4))]),
        (D(2027, 1, 9), D(2027, 1, 9), WEEKDAYS, []),
        (D(2027, 1, 8), D(2027, 1, 4), WEEKDAYS, []),  # start after end
        (D(2027, 1, 4), D(2027, 1, 17), frozenset(), []),
        (
            D(2027, 1, 6),
            D(2027, 1, 19),
            frozenset({4, 5, 6, 0}),  # Fri-Mon wraps over the weekend into one run
            [(D(2027, 1, 8), D(2027, 1, 11)), (D(2027, 1, 15), D(2027, 1, 18))],
        ),
        (
            D(2026, 12, 28),
            D(2027, 1, 10),
            frozenset({2}),
            [(D(2026, 12, 30), D(2026, 12, 30)), (D(2027, 1, 6), D(2027, 1, 6))],
        ),
    ],
)
def test_weekday_runs(
    start: dt.date, end: dt.date, days: frozenset[int], expected: list[tuple[dt.date, dt.date]]
) -> None:
    runs = weekday_runs(start, end, days)
    assert runs == expected
    assert all(type(day) is dt.date for run in runs for day in run)


def test_weekday_runs_over_a_long_range_cover_every_matching_day() -> None:
    start, end = D(2027, 1, 1), D(2028, 12, 31)
    runs = weekday_runs(start, end, WEEKDAYS)
    covered = [run[0] + dt.timedelta(days=i) for run in runs for i in range((run[1] - run[0]).days + 1)]
    expected = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    assert covered == [day for day in expected if day.weekday() < 5]


@settings(max_examples=300, deadline=None)
@given(
    start=st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2031, 12, 31)),
    length=st.integers(min_value=-3, max_value=800),
    days=st.frozensets(st.integers(min_value=0, max_value=6)),
)
def test_weekday_runs_are_those_a_walk_date_by_date_finds(start: dt.date, length: int, days: frozenset[int]) -> None:
    # The plain reference: every date looked at, runs joined as they touch.
    end = start + dt.timedelta(days=length)
    expected: list[tuple[dt.date, dt.date]] = []
    day = start
    while day <= end:
        if day.weekday() in days:
            if expected and expected[-1][1] + dt.timedelta(days=1) == day:
                expected[-1] = (expected[-1][0], day)
            else:
                expected.append((day, day))
        day += dt.timedelta(days=1)
    assert weekday_runs(start, end, days) == expected
