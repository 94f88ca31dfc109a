"""The refusal types of the service, apart from the runtime so edge helpers can raise them without importing it."""

from __future__ import annotations


class RequestError(Exception):
    """A request the runtime refuses; `code` is one of the protocol's stable ack error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ConfigError(Exception):
    """A setting that makes the server unsafe or unable to start; the message is the one sentence shown."""
