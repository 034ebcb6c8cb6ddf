"""Showing results: tables, JSON, CSV, reports, history and calendar views, safe printing of outside text."""
