"""The application layer: one module per use case, called by the commands' doing modules (cli/doing/,
cli/runs.py) and by the Python API (api.py).

A use case is given what it needs (options, a `Listener`, the `World`) and returns what happened; it reads no
terminal or environment itself. The commands load a use case only when they run (tests/test_startup.py), by
importing their doing module then, so nothing here needs to be lazy.
"""
