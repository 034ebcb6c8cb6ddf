"""A local emulator of the push service, for `ari-cli sandbox`, `--sandbox` and the tests.

`with Sandbox(today="2027-01-01") as sb:` serves the push API at `sb.base_url` until the block ends;
`sb.state()` shows what it accepted, and `sb.queue_*` methods script the next answers.
"""

from ari_cli.sandbox.emulator import Received, Sandbox
from ari_cli.sandbox.faults import Fault, FaultKind
from ari_cli.sandbox.fixtures import Account, FixtureError, Fixtures, Property, load_fixtures

__all__ = [
    "Account",
    "Fault",
    "FaultKind",
    "FixtureError",
    "Fixtures",
    "Property",
    "Received",
    "Sandbox",
    "load_fixtures",
]
