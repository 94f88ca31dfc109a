"""The one refusal type of the service, apart from the runtime so edge helpers can raise it without importing it."""

from __future__ import annotations


class RequestError(Exception):
    """A request the runtime refuses; `code` is one of the protocol's stable ack error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
