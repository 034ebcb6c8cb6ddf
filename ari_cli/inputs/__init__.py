"""Input readers: CSV, JSON, JSON Lines and workbook files to parts of rows with their source and line."""

from ari_cli.inputs.model import ListedPart, Part, ReadOptions, ReadResult, SourceRow
from ari_cli.inputs.reader import read_rows

__all__ = ["ListedPart", "Part", "ReadOptions", "ReadResult", "SourceRow", "read_rows"]
