"""The environment's mistakes are configuration errors (exit 4), said before anything is journaled or sent.

Certificates that `SSL_CERT_FILE` or `SSL_CERT_DIR` name but that cannot be used, and a proxy variable
that is not a URL httpx can use: the console script says what is wrong and what to do, `--output json`
gets its one document, and no run is journaled. A bad proxy variable matters only where it would be
used: a loopback service never goes through one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, rooms

SCRIPT = str(Path(sys.executable).parent / "ari-cli")
SERVICE = "https://push.example.invalid"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = clean_env(tmp_path, ARI_BASE_URL=SERVICE, ARI_API_KEY="env-key-00000001", ARI_SOURCE_ID="cpbA1")
    env = {k: v for k, v in env.items() if not k.lower().endswith("_proxy") and not k.startswith("SSL_CERT_")}
    return {**env, **extra}


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.DEVNULL)  # fmt: skip


def _mistakes(tmp_path: Path) -> dict[str, tuple[dict[str, str], str, str]]:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    return {
        "missing file": ({"SSL_CERT_FILE": str(tmp_path / "nowhere.pem")},
                         f"error: SSL_CERT_FILE names '{tmp_path / 'nowhere.pem'}', which is not a readable file",
                         "hint: point SSL_CERT_FILE at a readable file of PEM certificates"),
        "missing folder": ({"SSL_CERT_DIR": str(tmp_path / "nowhere")},
                           f"error: SSL_CERT_DIR names '{tmp_path / 'nowhere'}', which is not a readable folder",
                           "hint: point SSL_CERT_DIR at a readable folder of PEM certificates"),
        "a file of no certificates": ({"SSL_CERT_FILE": str(garbage)},
                                      "error: the certificates named by SSL_CERT_FILE or SSL_CERT_DIR cannot be loaded",
                                      "hint: point it at PEM certificates"),
        "a proxy that is not a URL": ({"HTTPS_PROXY": "http://user:s3cret@[::1"},
                                      "error: the proxy in HTTPS_PROXY or ALL_PROXY cannot be used: it is not a URL",
                                      "hint: name an http://, https:// or socks5:// proxy as a URL"),
        "a proxy of an unknown kind": ({"ALL_PROXY": "ftp://user:s3cret@127.0.0.1:9"},
                                       "error: the proxy in HTTPS_PROXY or ALL_PROXY cannot be used",
                                       "hint: name an http://, https:// or socks5:// proxy as a URL"),
        # httpx would take these for a proxy host (`http://not-a-url`): every row would fail as unreachable.
        "a proxy with no scheme": ({"HTTPS_PROXY": "not-a-url"},
                                   "error: the proxy in HTTPS_PROXY or ALL_PROXY cannot be used: it has no scheme",
                                   "hint: name an http://, https:// or socks5:// proxy as a URL"),
        "a proxy with no host": ({"HTTPS_PROXY": "http://:99999"},
                                 "error: the proxy in HTTPS_PROXY or ALL_PROXY cannot be used: it names no host",
                                 "hint: name an http://, https:// or socks5:// proxy as a URL"),
        "a proxy port out of range": ({"all_proxy": "http://user:s3cret@proxy.example.invalid:70000"},
                                      "error: the proxy in HTTPS_PROXY or ALL_PROXY cannot be used: its port 70000 is"
                                      " not from 1 to 65535", "hint: name an http://, https:// or socks5:// proxy"),
    }  # fmt: skip


@pytest.mark.parametrize("name", ["missing file", "missing folder", "a file of no certificates",
                                  "a proxy that is not a URL", "a proxy of an unknown kind", "a proxy with no scheme",
                                  "a proxy with no host", "a proxy port out of range"])  # fmt: skip
def test_a_mistake_of_the_environment_is_a_configuration_error_and_nothing_is_journaled(
    name: str, tmp_path: Path
) -> None:
    variables, error, hint = _mistakes(tmp_path)[name]
    env = _env(tmp_path, **variables)
    path = str(rooms(tmp_path, 1))
    done = _run(["threshold", "push", path, "--today", PINNED_TODAY, "--retries", "0"], env)
    assert done.returncode == 4, done.stdout + done.stderr
    assert done.stdout == ""
    assert error in done.stderr and hint in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr and "s3cret" not in done.stderr

    as_json = _run(["threshold", "push", path, "--today", PINNED_TODAY, "--output", "json"], env)
    assert as_json.returncode == 4, as_json.stderr
    document = json.loads(as_json.stdout)  # one document, nothing else
    assert document["error"]["kind"] == "config" and document["requests"] == []
    assert error.removeprefix("error: ") in document["error"]["message"]
    assert "s3cret" not in as_json.stdout

    history = _run(["history", "--output", "json"], _env(tmp_path))
    assert history.returncode == 0, history.stderr
    assert "threshold push" not in history.stdout  # no run journaled


def test_a_bad_proxy_variable_does_not_matter_to_a_loopback_service(tmp_path: Path) -> None:
    env = _env(tmp_path, HTTPS_PROXY="http://[::1", ALL_PROXY="ftp://x", ARI_BASE_URL="http://127.0.0.1:9")
    done = _run(["threshold", "push", str(rooms(tmp_path, 1)), "--today", PINNED_TODAY, "--retries", "0"], env)
    # Port 9 refuses: the row fails as a connection that could not be made; the proxy was never read.
    assert done.returncode == 1, done.stderr
    assert "cannot reach http://127.0.0.1:9" in done.stdout and "proxy" not in done.stderr


def test_a_retry_meeting_a_mistake_of_the_environment_is_not_journaled_as_a_run(tmp_path: Path) -> None:
    env = _env(tmp_path)
    path = str(rooms(tmp_path, 1))
    first = _run(["threshold", "push", path, "--today", PINNED_TODAY, "--retries", "0"], env)
    assert first.returncode == 1, first.stderr  # the host does not resolve: a row left for retry
    done = _run(["retry", "1", "--retries", "0"], {**env, "SSL_CERT_FILE": str(tmp_path / "nowhere.pem")})
    assert done.returncode == 4, done.stdout + done.stderr
    assert "error: SSL_CERT_FILE names" in done.stderr and "Traceback" not in done.stderr
    runs = json.loads(_run(["history", "--output", "json"], env).stdout)
    assert len(runs["runs"] if isinstance(runs, dict) else runs) == 1, runs
