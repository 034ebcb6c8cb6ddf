"""Showing changes at the service: a diff and a revert's plan."""
