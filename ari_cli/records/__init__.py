"""Rows to checked settings: values, dates, weekday filters and policies, each error tied to its line."""
