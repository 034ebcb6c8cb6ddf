"""The push service's contract: operations, limits, the URL, wire models, the spec's error table, explain."""
