"""Showing a push run: its table, JSON and CSV, its report, its ending, curl commands."""
