"""A request as a bash-ready curl command, with the key left to the shell as `$ARI_API_KEY`.

Every piece of text is single-quoted, so bash takes it literally (quotes, `$`, backticks, newlines
and all); only the variables are outside the quotes, in double quotes, so that bash expands them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote

from ari_cli.config.secrets import keys_in, scrub, spellings
from ari_cli.wire.operations import REQUEST_HEADERS

KEY_VARIABLE = "ARI_API_KEY"
# What a dry run without configuration writes in place of the connection: the same variables
# that configure ari-cli then make the command work.
UNCONFIGURED: dict[str, str] = {
    "<API_KEY>": KEY_VARIABLE,
    "<source_id>": "ARI_SOURCE_ID",
    quote("<source_id>", safe=""): "ARI_SOURCE_ID",
    "<base_url>": "ARI_BASE_URL",
}


def single_quoted(text: str) -> str:
    """`text` as one literal bash word."""
    return "'" + text.replace("'", "'\\''") + "'"


def shell_word(text: str, variables: Mapping[str, str]) -> str:
    """`text` as one bash word in which each key of `variables` becomes `"$VARIABLE"`."""
    if not variables:
        return single_quoted(text)
    # Longest first, so that a literal containing another is replaced whole.
    pattern = re.compile("|".join(re.escape(k) for k in sorted(variables, key=len, reverse=True)))
    parts: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        if match.start() > last:
            parts.append(single_quoted(text[last : match.start()]))
        parts.append(f'"${variables[match.group()]}"')
        last = match.end()
    if last < len(text):
        parts.append(single_quoted(text[last:]))
    return "".join(parts) or "''"


def command(url: str, body: bytes, variables: Mapping[str, str]) -> str:
    """`curl` posting `body` to `url` with the service's headers, printing the answer and a line break."""
    # The service's JSON ends without a newline; curl's -w adds one, so a script's answers stay apart.
    lines = [f"curl -sS -w '\\n' {shell_word(url, variables)}"]
    lines += [f"  -H {single_quoted(f'{name}: {value}')}" for name, value in REQUEST_HEADERS.items()]
    lines.append(f"  --data-binary {shell_word(body.decode('utf-8'), variables)}")
    return " \\\n".join(lines)


def for_request(url: str, body: bytes, configured: bool = True) -> str:
    """The curl command of one request; every key in its body is written `$ARI_API_KEY`.

    Bash puts the variable's value inside the JSON string as it is, so a key holding `"` or `\\`
    would need escaping there; the service's keys are human-readable text without them.
    """
    variables = {spelling: KEY_VARIABLE for key in keys_in(body) for spelling in spellings(key)}
    if not configured:
        variables.update(UNCONFIGURED)
    # A key that got into the command some other way is masked rather than printed.
    return scrub(command(url, body, variables))
