"""Exact request bodies as a partner sent them: reading and filling them (`bodies.py`), and what the service's
answer to each means (`hints.py`). The `replay` command's use case is `app/replay_run.py`."""
