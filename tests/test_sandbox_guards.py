"""The sandbox guards its own controls: fault durations are capped, and only this machine queues faults."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox


def post(url: str, document: Any) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, json.dumps(document).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def own_address() -> str:
    """An address of this machine that is not loopback (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
        except OSError:
            address = ""
    if not address or address.startswith("127."):
        pytest.skip("this machine has no address but loopback")
    return address


@pytest.mark.parametrize("seconds", [1e9, 301, -1])
def test_a_hang_longer_than_the_cap_is_refused(sb: Sandbox, seconds: float) -> None:
    status, answer = post(f"{sb.base_url}/_sandbox/faults", {"kind": "hang", "seconds": seconds})
    assert status == 400
    assert answer == {"error": "`seconds` must be 0 to 300"}
    assert sb.pending_faults() == []
    status, answer = post(f"{sb.base_url}/_sandbox/faults", {"kind": "hang", "seconds": 300})
    assert status == 200 and answer["queued"] == 1


def test_faults_come_from_loopback_only_unless_allowed() -> None:
    address = own_address()
    with Sandbox(host=address) as exposed:
        status, answer = post(f"http://{address}:{exposed.port}/_sandbox/faults", {"kind": "drop"})
        assert status == 403
        assert answer["error"].endswith("start the sandbox with --allow-remote-faults")
        assert exposed.pending_faults() == []
    with Sandbox(host=address, remote_faults=True) as allowed:
        status, answer = post(f"http://{address}:{allowed.port}/_sandbox/faults", {"kind": "drop"})
        assert status == 200 and allowed.pending_faults() == [{"kind": "drop", "times": 1}]


def test_the_sandbox_command_offers_the_flag() -> None:
    from tests.helpers import invoke

    result = invoke(["sandbox", "--help"])
    assert result.exit_code == 0
    assert "--allow-remote-faults" in result.stdout
