"""`why --output html`: a small page of what the service holds on one night, each setting with who set it.

Its own template (`why.html.j2`), autoescaped as every page is: no script, no map, nothing fetched.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import IO, Any

from ari_cli.render.html.page import environment, local_time, who


def write_why(title: str, as_of: str, items: Sequence[dict[str, Any]], stream: IO[str], when: dt.datetime) -> None:
    """The page: the title, what it rests on (`as_of`), per setting its label, words, dates and setter, and when
    it was made (`when`, the use case's clock)."""
    user, host = who()
    template = environment().get_template("why.html.j2")
    for piece in template.generate(title=title, as_of=as_of, items=items, when=local_time(when), user=user, host=host):
        stream.write(piece)
    stream.flush()
