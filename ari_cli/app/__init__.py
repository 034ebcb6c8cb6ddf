"""The use cases behind the commands: push, retry, replay."""
