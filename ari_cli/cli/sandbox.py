"""`ari-cli sandbox` (placeholder: being written)."""

import typer

app = typer.Typer(name="sandbox", help="Run a local emulator of the push service on loopback.")


@app.callback(invoke_without_command=True)
def sandbox() -> None:
    """Run a local emulator of the push service on loopback."""
