"""The run journal (SQLite): store, queries, the recorder, what retry re-sends. The only place with SQL."""
