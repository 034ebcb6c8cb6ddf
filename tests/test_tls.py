"""TLS verification is always on: an untrusted certificate fails clearly; the standard trust variables work."""

from __future__ import annotations

import http.server
import json
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme
from typer.testing import Result

from tests.conftest import PINNED_TODAY
from tests.helpers import invoke

ROW = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n"


class _Accepting(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = json.dumps({"success": True, "trackingid": "tls-ok-1"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def https_service(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """An HTTPS service on loopback whose certificate comes from a CA nobody trusts by default."""
    authority = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Accepting)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    ca = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca))
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}", ca
    finally:
        server.shutdown()
        server.server_close()


def _push(tmp_path: Path, base_url: str, env: dict[str, str] | None = None) -> Result:
    data = tmp_path / "one.csv"
    data.write_text(ROW)
    settings = {"ARI_BASE_URL": base_url, "ARI_API_KEY": "tls-test-key-0001", "ARI_SOURCE_ID": "cpbA1"}
    return invoke(["threshold", "push", str(data), "--today", PINNED_TODAY, "--retries", "0"],
                  env={**settings, **(env or {})})  # fmt: skip


def test_an_untrusted_certificate_is_refused_with_a_clear_error(
    https_service: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base_url, _ = https_service
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    result = _push(tmp_path, base_url)
    assert result.exit_code == 1
    out = result.stdout + result.stderr
    assert f"cannot reach {base_url}" in out and "CERTIFICATE_VERIFY_FAILED" in out
    assert "Traceback" not in out


def test_a_private_authority_is_trusted_through_ssl_cert_file(
    https_service: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base_url, ca = https_service
    monkeypatch.setenv("SSL_CERT_FILE", str(ca))
    result = _push(tmp_path, base_url)
    assert result.exit_code == 0, result.stderr
    assert "tls-ok-1" in result.stdout


def test_no_code_path_turns_verification_off() -> None:
    source = Path(__file__).parent.parent / "ari_cli"
    offenders = [p for p in source.rglob("*.py") if "verify=False" in p.read_text() or "CERT_NONE" in p.read_text()]
    assert offenders == []
