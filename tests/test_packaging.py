"""What an installed copy carries: the sample files (`ari-cli samples`), completions, py.typed, the licence."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from email import message_from_bytes
from email.message import Message
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel built from it (as `python -m build` makes them), and a wheel built from the tree."""
    out = tmp_path_factory.mktemp("dist")
    for args, where in (([], out / "from-sdist"), (["--wheel"], out / "from-tree")):
        done = subprocess.run([sys.executable, "-m", "build", *args, "--outdir", str(where), str(ROOT)],
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = (out / "from-sdist").glob("hotel_ari_cli-*.tar.gz")
    (wheel,) = (out / "from-sdist").glob("hotel_ari_cli-*.whl")
    (tree_wheel,) = (out / "from-tree").glob("hotel_ari_cli-*.whl")
    return {"sdist": sdist, "wheel": wheel, "tree wheel": tree_wheel}


def test_the_wheel_carries_samples_completions_types_and_licence(built: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(built["tree wheel"]).namelist())
    assert "ari_cli/py.typed" in names
    # The HTML report's template, style and script are read from the package when a report is written.
    assert {f"ari_cli/render/html/templates/report.{suffix}" for suffix in ("html.j2", "css", "js")} <= names
    assert {f"ari_cli/samples/{p.name}" for p in SAMPLES} <= names
    data = next(n.split("/data/")[0] for n in names if "/data/share/" in n)
    assert {
        f"{data}/data/share/bash-completion/completions/ari-cli",
        f"{data}/data/share/zsh/site-functions/_ari-cli",
        f"{data}/data/share/fish/vendor_completions.d/ari-cli.fish",
    } <= names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.endswith(".py") and "/samples/" in n for n in names)


def test_the_sdist_builds_the_same_wheel_as_the_tree(built: dict[str, Path]) -> None:
    from_sdist, from_tree = zipfile.ZipFile(built["wheel"]), zipfile.ZipFile(built["tree wheel"])
    assert sorted(from_sdist.namelist()) == sorted(from_tree.namelist())
    assert all(from_sdist.read(name) == from_tree.read(name) for name in from_tree.namelist())


def test_the_sdist_carries_the_tests_benchmarks_scripts_and_changelog(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    expected = {"benchmarks/run.py", "benchmarks/README.md", "CHANGELOG.md", "README.md", "PYPI.md",
                "ARCHITECTURE.md", "LICENSE", "pyproject.toml", "tests/conftest.py", "completions/generate.py",
                "docs/README.md", "docs/reference.md", "docs/man/ari-cli.1"}  # fmt: skip
    assert expected <= names
    assert {f"scripts/{p.name}" for p in (ROOT / "scripts").glob("*.py")} <= names
    assert {f"samples/{p.name}" for p in SAMPLES} <= names
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)


def metadata(wheel: Path) -> Message:
    archive = zipfile.ZipFile(wheel)
    (name,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    return message_from_bytes(archive.read(name))


def test_the_metadata_describes_a_real_package(built: dict[str, Path]) -> None:
    found = metadata(built["wheel"])
    classifiers = found.get_all("Classifier") or []
    for wanted in ("Environment :: Console", "Programming Language :: Python :: 3.11",
                   "Programming Language :: Python :: 3.12", "Programming Language :: Python :: 3.13"):  # fmt: skip
        assert wanted in classifiers
    assert any(c.startswith("Intended Audience :: ") for c in classifiers)
    assert any(c.startswith("Topic :: ") for c in classifiers)
    # The licence is said once, as an SPDX expression: a licence classifier beside it is refused by the index.
    assert found["License-Expression"] == "MIT" and not any(c.startswith("License ::") for c in classifiers)
    assert found["Author"] == "the ari-cli developers"
    assert "hotel" in (found["Keywords"] or "").split(",")
    assert found.get_all("Project-URL") is None  # no public home yet
    assert found["Version"] == "0.2.0"


def test_the_long_description_has_no_link_that_only_works_in_the_repository(built: dict[str, Path]) -> None:
    found = metadata(built["wheel"])
    assert found["Description-Content-Type"] == "text/markdown"
    description = found.get_payload()
    assert isinstance(description, str)
    assert description.strip() == (ROOT / "PYPI.md").read_text(encoding="utf-8").strip()
    # Markdown links and images: relative ones (`ARCHITECTURE.md`, `#troubleshooting`) break on the index.
    targets = re.findall(r"\]\(([^)]*)\)", description) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", description, re.M)
    assert [t for t in targets if not t.startswith("https://")] == []
    assert "](" not in description  # none at all, until the project has a public home


def test_the_changelog_has_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "\n## Unreleased\n" in text
