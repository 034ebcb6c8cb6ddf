"""Planning, pure: records to send, requests, overlaps, what changes, guards, what a revert puts back."""
