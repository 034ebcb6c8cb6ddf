"""A request as a bash-ready curl command, with the key left to the shell: `$ARI_API_KEY`, or a partner's own
key as `$PARTNER_API_KEY`.

Every piece of text is single-quoted, so bash takes it literally (quotes, `$`, backticks, newlines
and all); only the variables are outside the quotes, in double quotes, so that bash expands them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from urllib.parse import quote

from ari_cli.config.secrets import keys_in, scrub, spellings
from ari_cli.wire.operations import REQUEST_HEADERS

KEY_VARIABLE = "ARI_API_KEY"
PARTNER_VARIABLE = "PARTNER_API_KEY"
PARTNER_NOTE = (
    "# The body carries the partner's own key (sharepost): set PARTNER_API_KEY to it to make the partner's\n"
    "# call as they made it (ari-cli's own key, $ARI_API_KEY, could get another answer).\n"
)
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


def for_request(url: str, body: bytes, configured: bool = True, partner_keys: Collection[str] = ()) -> str:
    """The curl command of one request; every key in its body is left to the shell, never written.

    The configured key (or `<API_KEY>` without configuration) is written `$ARI_API_KEY`. A partner's own key
    (`partner_keys`: replay sends it as the partner did) is written `$PARTNER_API_KEY`, after a comment that
    says so: run with ari-cli's key in its place, the command would succeed where the partner's call failed.
    Bash puts the variable's value inside the JSON string as it is, so a key holding `"` or `\\` would need
    escaping there; the service's keys are human-readable text without them.
    """
    keys = keys_in(body)
    variables = {
        spelling: PARTNER_VARIABLE if key in partner_keys else KEY_VARIABLE
        for key in keys
        for spelling in spellings(key)
    }
    if not configured:
        variables.update(UNCONFIGURED)
    # A key that got into the command some other way is masked rather than printed.
    text = scrub(command(url, body, variables))
    if any(key in partner_keys for key in keys):
        text = PARTNER_NOTE + text
    return text
