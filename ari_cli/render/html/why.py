"""`why --output html`: a small page of what the service holds on one night, each setting with who set it.

Its own template (`why.html.j2`), autoescaped as every page is: no script, no map, nothing fetched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

from ari_cli.render.html.page import environment, now, who


def write_why(title: str, as_of: str, items: Sequence[dict[str, Any]], stream: IO[str]) -> None:
    """The page: the title, what it rests on (`as_of`), and per setting its label, words, dates and setter."""
    user, host = who()
    template = environment().get_template("why.html.j2")
    for piece in template.generate(title=title, as_of=as_of, items=items, when=now(), user=user, host=host):
        stream.write(piece)
    stream.flush()
