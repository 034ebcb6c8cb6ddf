"""CSV reading: dialects, encodings, line numbers, skipped rows and row-width errors."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, SourceRow, csvfile, read_rows
from ari_cli.inputs.csvfile import SAMPLE_BYTES, sniff_delimiter
from ari_cli.wire.models import Operation

HEADER = "propertyid,roomid,start,end,threshold"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # so sources read "rooms.csv" as a user would type it


def write(name: str, content: str | bytes) -> str:
    data = content.encode("utf-8") if isinstance(content, str) else content
    Path(name).write_bytes(data)
    return name


def rows(name: str, operation: Operation = Operation.THRESHOLD, **options: str) -> list[SourceRow]:
    return list(read_rows([name], operation, ReadOptions(**options)).rows)


def lines_and_rooms(name: str) -> list[tuple[int, str]]:
    return [(row.line, row.fields["roomid"]) for row in rows(name)]


def test_plain_rows_have_canonical_fields_source_and_line() -> None:
    write("rooms.csv", f"{HEADER}\nH1,R1,2027-01-01,2027-01-05,5\nH1,R2,2027-02-01,2027-02-03,n/a\n")
    assert rows("rooms.csv") == [
        SourceRow(
            "rooms.csv",
            2,
            {
                "propertyid": "H1",
                "roomid": "R1",
                "start": "2027-01-01",
                "end": "2027-01-05",
                "threshold": "5",
            },
        ),
        SourceRow(
            "rooms.csv",
            3,
            {
                "propertyid": "H1",
                "roomid": "R2",
                "start": "2027-02-01",
                "end": "2027-02-03",
                "threshold": "n/a",
            },
        ),
    ]


def test_rows_stream_lazily() -> None:
    write("rooms.csv", f"{HEADER}\nH1,R1,2027-01-01,2027-01-05,5\n")
    result = read_rows(["rooms.csv"], Operation.THRESHOLD, ReadOptions())
    assert not isinstance(result.rows, list)
    assert [row.line for row in result.rows] == [2]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_delimiters_newlines_and_bom(delimiter: str, newline: str, bom: str) -> None:
    lines = [HEADER, "H1,R1,2027-01-01,2027-01-05,5", "H1,R2,2027-01-01,2027-01-05,6"]
    write("rooms.csv", bom + newline.join(line.replace(",", delimiter) for line in lines) + newline)
    got = rows("rooms.csv")
    assert [(row.line, row.fields["roomid"], row.fields["threshold"]) for row in got] == [
        (2, "R1", "5"),
        (3, "R2", "6"),
    ]
    assert list(got[0].fields) == ["propertyid", "roomid", "start", "end", "threshold"]


def test_quoted_multiline_field_counts_lines_from_where_the_record_begins() -> None:
    write(
        "rooms.csv",
        f'{HEADER},notes\r\nH1,R1,2027-01-01,2027-01-05,5,"first\r\nsecond\r\nthird"\r\n'
        'H1,"R,2",2027-01-01,2027-01-05,6,plain\r\n',
    )
    assert lines_and_rooms("rooms.csv") == [(2, "R1"), (5, "R,2")]


def test_blank_and_empty_rows_are_skipped_and_lines_still_count() -> None:
    write(
        "rooms.csv",
        f"\n\n{HEADER}\nH1,R1,2027-01-01,2027-01-05,5\n\n,,,,\n  ,  , ,,\nH1,R2,2027-01-01,2027-01-05,6\n\n",
    )
    assert lines_and_rooms("rooms.csv") == [(4, "R1"), (8, "R2")]


def test_spaces_around_headers_and_values_are_trimmed() -> None:
    write(
        "rooms.csv",
        ' Property ID , Room ,  start , end ,threshold \n  H1 ,  "R1" , 2027-01-01 ,2027-01-05,  5  \n',
    )
    assert rows("rooms.csv")[0].fields == {
        "propertyid": "H1",
        "roomid": "R1",
        "start": "2027-01-01",
        "end": "2027-01-05",
        "threshold": "5",
    }


def test_quoted_value_after_a_space_keeps_its_comma() -> None:
    write("rooms.csv", f'{HEADER}\nH1, "R,1", 2027-01-01, 2027-01-05, 5\n')
    assert rows("rooms.csv")[0].fields["roomid"] == "R,1"


def test_short_rows_are_padded_with_empty_text() -> None:
    write("rooms.csv", f"{HEADER}\nH1,R1,2027-01-01\n")
    assert rows("rooms.csv")[0].fields == {
        "propertyid": "H1",
        "roomid": "R1",
        "start": "2027-01-01",
        "end": "",
        "threshold": "",
    }


def test_a_row_of_only_unused_values_is_skipped_with_a_note() -> None:
    # A comment in a Notes column on an otherwise empty row must not block the whole file.
    write("rooms.csv", f"{HEADER},notes\n,,,,,remember me\n")
    part = read_rows(["rooms.csv"], Operation.THRESHOLD, ReadOptions()).parts[0]
    assert list(part.rows()) == []
    assert part.notes == ["rooms.csv line 2: skipped, as the columns this command reads are empty there"]


def test_a_row_wider_than_the_header_is_an_error_naming_its_line() -> None:
    write("rooms.csv", f"{HEADER}\nH1,R1,2027-01-01,2027-01-05,5\nH1,R1,2027-01-01,2027-01-05,5,extra,more\n")
    with pytest.raises(InputError) as caught:
        rows("rooms.csv")
    assert caught.value.message == "rooms.csv line 3: 7 values but the header has 5 columns"
    assert caught.value.hint is not None and '","' in caught.value.hint


def test_empty_cells_past_the_header_are_tolerated() -> None:
    write("rooms.csv", f"{HEADER}\nH1,R1,2027-01-01,2027-01-05,5,,\n")
    assert lines_and_rooms("rooms.csv") == [(2, "R1")]


@pytest.mark.parametrize(
    "content",
    ["", "\n\n", "\r\n  \r\n", "\ufeff", f"{HEADER}\n", f"{HEADER}\n\n,,,,\n"],
    ids=["empty", "blank-lines", "blank-crlf", "bom-only", "header-only", "header-and-empty-rows"],
)
def test_files_without_rows_give_no_rows(content: str) -> None:
    write("rooms.csv", content)
    result = read_rows(["rooms.csv"], Operation.THRESHOLD, ReadOptions())
    assert list(result.rows) == []
    assert result.warnings == []


def test_a_sniffer_fooled_by_values_still_uses_the_header_delimiter() -> None:
    body = "".join(f"H1,R{i},2027-01-01,2027-01-05,5,a;b;c\n" for i in range(5))
    write("rooms.csv", f"{HEADER},notes\n{body}")
    assert [row.fields["roomid"] for row in rows("rooms.csv")] == [f"R{i}" for i in range(5)]


@pytest.mark.parametrize(
    ("sample", "expected"),
    [
        ("a,b,c\n1,2,3\n", ","),
        ("a;b;c\n1;2;3\n", ";"),
        ("a\tb\tc\n1\t2\t3\n", "\t"),
        ("a;b\n", ";"),
        ("single\n", ","),
        ("", ","),
        ('a;b;c\n"1,5";2;3\n', ";"),
    ],
)
def test_sniff_delimiter(sample: str, expected: str) -> None:
    assert sniff_delimiter(sample) == expected


def test_tsv_extension_and_upper_case_extension() -> None:
    write("ROOMS.TSV", HEADER.replace(",", "\t") + "\nH1\tR1\t2027-01-01\t2027-01-05\t5\n")
    assert lines_and_rooms("ROOMS.TSV") == [(2, "R1")]


CP1252 = f"{HEADER}\nH1,R1,2027-01-01,2027-01-05,5\nH1,Chambre double é,2027-01-01,2027-01-05,5\n"


def test_cp1252_file_reads_with_the_encoding_option() -> None:
    write("rooms.csv", CP1252.encode("cp1252"))
    assert [row.fields["roomid"] for row in rows("rooms.csv", encoding="cp1252")] == [
        "R1",
        "Chambre double é",
    ]


def test_cp1252_file_without_the_option_names_the_line_and_hints_encoding() -> None:
    write("rooms.csv", CP1252.encode("cp1252"))
    with pytest.raises(InputError) as caught:
        rows("rooms.csv")
    assert caught.value.message == "rooms.csv line 3: cannot decode byte e9 as UTF-8"
    assert caught.value.hint is not None and "--encoding cp1252" in caught.value.hint


def test_undecodable_byte_past_the_sample_is_found_while_streaming() -> None:
    good = "".join(f"H1,R{i},2027-01-01,2027-01-05,5\n" for i in range(SAMPLE_BYTES // 20))
    write("rooms.csv", f"{HEADER}\n{good}".encode() + b"H1,R\xe9,2027-01-01,2027-01-05,5\n")
    line = 2 + good.count("\n")
    result = read_rows(["rooms.csv"], Operation.THRESHOLD, ReadOptions())
    with pytest.raises(InputError) as caught:
        list(result.rows)
    assert caught.value.message == f"rooms.csv line {line}: cannot decode byte e9 as UTF-8"


def test_utf16_with_bom_is_recognised() -> None:
    write(
        "rooms.csv",
        (HEADER.replace(",", "\t") + "\r\nH1\tR1\t2027-01-01\t2027-01-05\t5\r\n").encode("utf-16"),
    )
    assert lines_and_rooms("rooms.csv") == [(2, "R1")]


def test_explicit_utf8_keeps_the_header_clean_of_a_bom() -> None:
    write("rooms.csv", f"\ufeff{HEADER}\nH1,R1,2027-01-01,2027-01-05,5\n")
    assert rows("rooms.csv", encoding="utf-8")[0].fields["propertyid"] == "H1"


def test_nul_bytes_are_a_clear_error() -> None:
    write("rooms.csv", f"{HEADER}\nH1,R1\x00,2027-01-01,2027-01-05,5\n")
    with pytest.raises(InputError) as caught:
        rows("rooms.csv")
    assert caught.value.message == "rooms.csv line 2: holds a NUL byte; this is not a text file"
    assert caught.value.hint is not None and "CSV (UTF-8)" in caught.value.hint


def test_utf16_without_bom_read_as_utf8_is_a_nul_error() -> None:
    write("rooms.csv", f"{HEADER}\n".encode("utf-16-le"))
    with pytest.raises(InputError, match="NUL byte"):
        rows("rooms.csv")


def test_maxadv_and_policy_columns() -> None:
    write("maxadv.csv", "Hotel,Room Type,Rate Plan,Date,Days,Max Advance\nH1,R1,BAR,2027-03-01,Mon-Fri,30\n")
    assert rows("maxadv.csv", Operation.MAXADV)[0].fields == {
        "propertyid": "H1",
        "roomid": "R1",
        "rateid": "BAR",
        "date": "2027-03-01",
        "days": "Mon-Fri",
        "time": "30",
    }


def test_many_rows_read_quickly() -> None:
    count = 50_000
    write("big.csv", HEADER + "\n" + "H1,R1,2027-01-01,2027-01-05,5\n" * count)
    got = read_rows(["big.csv"], Operation.THRESHOLD, ReadOptions()).rows
    last = None
    for last in got:  # noqa: B007 - only the last one is checked
        pass
    assert last is not None and last.line == count + 1


LINE_TEXT = st.text(alphabet=st.sampled_from(["a", ",", '"', "\r", "\n", " ", "é"]), max_size=80)


@settings(max_examples=300, deadline=None)
@given(text=LINE_TEXT, block_size=st.integers(1, 9))
def test_lines_read_a_block_at_a_time_are_the_lines_a_text_stream_gives(text: str, block_size: int) -> None:
    """Whatever the line ends (\\n, \\r\\n, a lone \\r, one split across two blocks), the csv module
    gets the lines it would get from the file itself, and reads the same records."""
    expected = io.StringIO(text, newline="").readlines()
    assert list(csvfile.bounded_lines("f.csv", io.StringIO(text, newline=""), block_size)) == expected
    try:
        direct = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error:
        return
    assert list(csv.reader(csvfile.bounded_lines("f.csv", io.StringIO(text, newline=""), block_size))) == direct
