"""What an installed copy carries: the sample files (`ari-cli samples`), completions, py.typed, the licence."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p for p in (ROOT / "samples").iterdir() if p.suffix in (".csv", ".json", ".jsonl", ".xlsx", ".toml"))
CLI = str(Path(sys.executable).parent / "ari-cli")


def ari_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_samples_writes_every_sample_file_into_a_new_folder(tmp_path: Path) -> None:
    done = ari_cli("samples", "mine", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted((tmp_path / "mine").iterdir())
    assert [p.name for p in written] == [p.name for p in SAMPLES]
    assert all(p.read_bytes() == (ROOT / "samples" / p.name).read_bytes() for p in written)
    assert done.stdout.split() == [f"mine/{p.name}" for p in SAMPLES]
    assert f"wrote {len(SAMPLES)} sample files into mine" in done.stderr
    pushed = ari_cli("threshold", "push", "mine/threshold.csv", "--sandbox", "--output", "json", cwd=tmp_path)
    assert pushed.returncode == 0, pushed.stderr


def test_samples_never_overwrites_without_force(tmp_path: Path) -> None:
    (tmp_path / "threshold.csv").write_text("mine\n")
    refused = ari_cli("samples", ".", cwd=tmp_path)
    assert refused.returncode == 2
    assert "threshold.csv" in refused.stderr and "already there; nothing was written" in refused.stderr
    assert "--force" in refused.stderr
    assert (tmp_path / "threshold.csv").read_text() == "mine\n"
    assert not (tmp_path / "maxadv.csv").exists()
    forced = ari_cli("samples", ".", "--force", cwd=tmp_path)
    assert forced.returncode == 0
    assert (tmp_path / "threshold.csv").read_bytes() == (ROOT / "samples" / "threshold.csv").read_bytes()


def test_samples_into_a_path_that_is_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x")
    done = ari_cli("samples", "taken/inside", cwd=tmp_path)
    assert done.returncode == 2
    assert "cannot write the samples into taken/inside" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_wheel_carries_samples_completions_types_and_licence(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("hotel_ari_cli-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "ari_cli/py.typed" in names
    # The HTML report's template, style and script are read from the package when a report is written.
    assert {f"ari_cli/render/templates/report.{suffix}" for suffix in ("html.j2", "css", "js")} <= names
    assert {f"ari_cli/samples/{p.name}" for p in SAMPLES} <= names
    data = next(n.split("/data/")[0] for n in names if "/data/share/" in n)
    assert {
        f"{data}/data/share/bash-completion/completions/ari-cli",
        f"{data}/data/share/zsh/site-functions/_ari-cli",
        f"{data}/data/share/fish/vendor_completions.d/ari-cli.fish",
    } <= names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.endswith(".py") and "/samples/" in n for n in names)
