"""Input readers: CSV, JSON and JSON Lines files to rows with their source, line and canonical fields."""

from ari_cli.inputs.model import ReadOptions, ReadResult, SourceRow
from ari_cli.inputs.reader import read_rows

__all__ = ["ReadOptions", "ReadResult", "SourceRow", "read_rows"]
