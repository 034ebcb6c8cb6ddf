"""Sending: the vocabulary of requests and outcomes, and the HTTP sender."""
