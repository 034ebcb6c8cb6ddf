"""Showing the journal: the list of runs, one run, its page, and what `history find` finds."""
