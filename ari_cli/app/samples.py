"""`ari-cli samples DIR`: the sample files the README and every help example use, written where the user wants them.

An installed copy carries them inside the package (`ari_cli/samples`); a source checkout keeps them in
its `samples/` folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ari_cli.exits import ConfigError, UsageProblem

_KINDS = (".csv", ".json", ".jsonl", ".xlsx", ".toml")


def _sample_files() -> list[Path]:
    installed = Path(str(resources.files("ari_cli"))) / "samples"
    checkout = Path(__file__).resolve().parents[2] / "samples"
    folder = installed if installed.is_dir() else checkout
    files = sorted(p for p in folder.iterdir() if p.suffix in _KINDS) if folder.is_dir() else []
    if not files:
        raise ConfigError(
            "the sample files are not installed", "reinstall ari-cli from its checkout or wheel (pipx install .)"
        )
    return files


def write_samples(directory: Path, force: bool) -> list[Path]:
    """Copy every sample file into `directory` (made if missing); existing files only with `force`. The files
    written."""
    files = _sample_files()
    clashes = [directory / f.name for f in files if (directory / f.name).exists()]
    if clashes and not force:
        names = ", ".join(str(p) for p in clashes)
        raise UsageProblem(f"{names}: already there; nothing was written", "give --force to overwrite them")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for sample in files:
            (directory / sample.name).write_bytes(sample.read_bytes())
    except OSError as problem:
        raise UsageProblem(f"cannot write the samples into {directory}: {problem.strerror or problem}") from None
    return [directory / f.name for f in files]
