"""Column mapping for any export: --column FIELD=HEADER and a profile's [profiles.NAME.columns]."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from tests.helpers import invoke, sandbox_env

DAY = (dt.date.today() + dt.timedelta(days=5)).isoformat()
EXPORT = f"Hotel Code,Room,From,To,Min Rooms Unsold,threshold\nHTL001,DBL,{DAY},{DAY},3,9\n"
MAPPED = ["--column", "threshold=Min Rooms Unsold", "--column", 'propertyid="Hotel Code"']


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_mapped_columns_win_over_names_and_aliases(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "export.csv", EXPORT)
    result = invoke(["threshold", "push", path, *MAPPED], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    body = sandbox.received[0].json
    assert body["propertyid"] == "HTL001" and body["data"][0]["threshold"] == "3"
    assert f'warning: {path}: ignored column threshold (threshold comes from "Min Rooms Unsold", as mapped)\n' in (
        result.stderr
    )


def test_the_dry_run_shows_the_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "export.csv", EXPORT)
    result = invoke(["threshold", "push", path, *MAPPED, "--dry-run", "--output", "json"])
    assert result.exit_code == 0, result.stderr
    assert 'note: columns mapped: threshold = "Min Rooms Unsold", propertyid = "Hotel Code"\n' in result.stderr
    assert json.loads(result.stdout)["requests"][0]["body"]["data"][0]["threshold"] == "3"


def test_a_mapping_to_a_header_the_file_lacks_names_the_headers(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "export.csv", EXPORT)
    result = invoke(["threshold", "push", path, "--column", "threshold=Min Unsold"], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert (
        f'error: {path}: column "Hotel Code" is not known; did you mean "hotelid"?\n'
        f'{path}: --column threshold="Min Unsold": there is no such column; the columns are "Hotel Code", '
        '"Room", "From", "To", "Min Rooms Unsold", "threshold"\n'
    ) in result.stderr
    assert sandbox.received == []


def test_an_unknown_field_is_a_usage_error(tmp_path: Path) -> None:
    path = write(tmp_path, "export.csv", EXPORT)
    for given, message in (
        ("thresh=X", '--column: "thresh" is not a field of threshold; the fields are propertyid, roomid, start, end'),
        ("threshold", '--column: "threshold" is not FIELD=HEADER, e.g. --column threshold="Min Rooms Unsold"'),
    ):
        result = invoke(["threshold", "push", path, "--column", given, "--dry-run"])
        assert result.exit_code == 2
        assert result.stderr.startswith(f"error: {message}")


def test_a_profile_maps_columns_and_config_show_says_so(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "export.csv", EXPORT)
    config = tmp_path / "config.toml"
    config.write_text(
        f'[profiles.hotel]\nbase_url = "{sandbox.base_url}"\nsource_id = "{sandbox.source_id}"\n\n'
        '[profiles.hotel.columns]\nthreshold = "Min Rooms Unsold"\npropertyid = "Hotel Code"\n'
    )
    config.chmod(0o600)
    env = {"ARI_API_KEY": sandbox.api_key}
    result = invoke(["threshold", "push", path, "--config", str(config), "--profile", "hotel"], env=env)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.received[0].json["data"][0]["threshold"] == "3"
    # A flag wins over the profile, field by field.
    again = invoke(
        ["threshold", "push", path, "--config", str(config), "--profile", "hotel", "--column", "threshold=threshold"],
        env=env,
    )
    assert again.exit_code == 0, again.stdout + again.stderr
    assert sandbox.received[1].json["data"][0]["threshold"] == "9"
    shown = invoke(["config", "show", "--config", str(config), "--profile", "hotel"], env=env)
    assert shown.exit_code == 0, shown.stderr
    assert 'threshold   "Min Rooms Unsold"' in shown.stdout and 'propertyid  "Hotel Code"' in shown.stdout
    doc = json.loads(
        invoke(["config", "show", "--config", str(config), "--profile", "hotel", "-o", "json"], env=env).stdout
    )
    assert doc["columns"] == {"threshold": "Min Rooms Unsold", "propertyid": "Hotel Code"}
