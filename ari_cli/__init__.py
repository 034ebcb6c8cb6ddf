"""ari-cli: push hotel ARI settings (sell threshold, policies, max advance booking) from files."""

__version__ = "0.1.0"
