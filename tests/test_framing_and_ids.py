"""The sandbox reads a request's body as a careful service does: lengths that disagree, or a body that stops short
of its Content-Length, are answered 400 with what was wrong, never taken and never left hanging. And the ids a
push sends never hold a character that does not show (the service would take them as other ids)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, run_cli

BODY = json.dumps({"sharepost": "x", "sourceid": "cpbA1", "propertyid": "HTL001", "action": "sellthresholdupdate",
                   "data": {"startdateymd": "2027-01-01", "enddateymd": "2027-01-01", "roomid": "DBL",
                            "threshold": "1"}}).encode()  # fmt: skip


def _exchange(sandbox: Sandbox, head: str, body: bytes) -> tuple[int, dict[str, object]]:
    host, port = sandbox.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=120) as connection:
        connection.sendall(head.encode() + b"\r\n" + body)  # and then send nothing more, the socket left open
        received = b""
        while b"\r\n\r\n" not in received or len(received.split(b"\r\n\r\n", 1)[1]) < _length(received):
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    status = int(received.split(b" ", 2)[1])
    return status, json.loads(received.split(b"\r\n\r\n", 1)[1])


def _length(received: bytes) -> int:
    for line in received.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def test_two_content_lengths_that_differ_are_answered_400() -> None:
    with Sandbox(today=PINNED_TODAY) as sandbox:
        head = (f"POST /v2/push_ari/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(BODY)}\r\nContent-Length: {len(BODY) - 5}\r\n")  # fmt: skip
        status, answer = _exchange(sandbox, head, BODY)
        assert status == 400
        assert answer["success"] is False
        message = answer["errors"][0]["message"]  # type: ignore[index]
        assert f"Content-Length given twice with different values: {len(BODY) - 5}, {len(BODY)}" == message
        assert sandbox.state()["threshold"] == {}


def test_a_body_shorter_than_declared_is_answered_400_once_the_client_stops_sending() -> None:
    with Sandbox(today=PINNED_TODAY, request_timeout=1) as sandbox:
        head = (f"POST /v2/push_ari/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(BODY) + 40}\r\n")  # fmt: skip
        status, answer = _exchange(sandbox, head, BODY)
        assert status == 400
        message = answer["errors"][0]["message"]  # type: ignore[index]
        assert message == f"the body ended after {len(BODY)} of the {len(BODY) + 40} bytes its Content-Length declared"
        assert sandbox.state()["threshold"] == {}


def _refused(head: str, body: bytes) -> str:
    """What the sandbox answers a request framed as `head` says; it must be a 400 that took nothing."""
    with Sandbox(today=PINNED_TODAY) as sandbox:
        start = "POST /v2/push_ari/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        status, answer = _exchange(sandbox, start + head, body)
        assert status == 400, answer
        assert answer["success"] is False
        assert sandbox.state()["threshold"] == {}
        return str(answer["errors"][0]["message"])  # type: ignore[index]


def test_a_length_beside_chunked_coding_is_answered_400_at_once() -> None:
    # The body is well chunked and the length true: which one ends it is still ambiguous (a request smuggled past a
    # proxy that reads the other). It hung for the read timeout and closed with no answer.
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY)
    cases = [
        (f"Content-Length: {len(chunked)}\r\nTransfer-Encoding: chunked\r\n", chunked),
        (f"Transfer-Encoding: chunked\r\nContent-Length: {len(BODY)}\r\n", chunked),
        (f"Content-Length: {len(BODY)}\r\nTransfer-Encoding: chunked\r\n", BODY),  # the body as its length says
    ]
    for head, body in cases:
        message = _refused(head, body)
        assert message == "Content-Length and Transfer-Encoding given together: where the body ends is ambiguous"


def test_a_transfer_coding_other_than_chunked_is_answered_400() -> None:
    message = _refused("Transfer-Encoding: gzip, chunked\r\n", b"0\r\n\r\n")
    assert message == "Transfer-Encoding gzip, chunked is not supported: send chunked, or a length"


def test_a_length_that_is_not_plain_digits_is_answered_400() -> None:
    # Python's int() takes `+200`, `2_00` and `٢٠٠`; a proxy in front may not read them so.
    n = len(BODY)
    for length in (f"+{n}", f"{str(n)[0]}_{str(n)[1:]}", f"-{n}", f"{n}.0"):
        message = _refused(f"Content-Length: {length}\r\n", BODY)
        assert message == f"Content-Length {length!r} is not a number of bytes (digits only)"


INVISIBLE = [("\u200b", "U+200B"), ("\u200d", "U+200D"), ("\u2060", "U+2060"), ("\ufeff", "U+FEFF"),
             ("\u202e", "U+202E"), ("\u2067", "U+2067"), ("\u00a0", "U+00A0")]  # fmt: skip


def test_ids_holding_a_character_that_does_not_show_are_input_errors_naming_cell_and_character(tmp_path: Path) -> None:
    lines = ["propertyid,roomid,date,threshold"]
    lines += [f"HTL001,D{c}BL,2027-01-02,1" for c, _ in INVISIBLE]
    lines.append("HTL\u200c001,DBL,2027-01-02,1")
    path = tmp_path / "ids.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Sandbox(today=PINNED_TODAY) as sandbox:
        env = clean_env(tmp_path, ARI_BASE_URL=sandbox.base_url, ARI_API_KEY=sandbox.api_key,
                        ARI_SOURCE_ID=sandbox.source_id, ARI_HOME=str(tmp_path / "home"))  # fmt: skip
        result = run_cli(["threshold", "push", str(path), "--today", PINNED_TODAY, "--output", "json"], env)
        assert sandbox.received == []
    assert result.returncode == 3, result.stderr
    for n, (_, code) in enumerate(INVISIBLE, start=2):
        assert f"{path.name} line {n}, roomid: holds {code} (" in result.stderr, result.stderr
    assert f"{path.name} line {len(INVISIBLE) + 2}, propertyid: holds U+200C (zero width non-joiner)" in result.stderr
    assert "Traceback" not in result.stderr
