"""The LLM interface every flow talks to, whatever the provider behind it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


class LLMError(Exception):
    """A model call that failed for good; `user_message` is safe to show to a person."""

    def __init__(self, user_message: str, *, detail: str = "") -> None:
        super().__init__(f"{user_message} {detail}".strip())
        self.user_message = user_message
        self.detail = detail


class LLM(Protocol):
    """What graphs may ask of a model.

    `facts` carries the request's structured inputs (topic, duration, answers…). A real model
    reads them from the prompt; the offline model builds its output from them.
    """

    provider: str
    max_concurrency: int

    async def structured(
        self,
        schema: type[M],
        *,
        role: str,
        system: str,
        prompt: str,
        facts: Mapping[str, Any] | None = None,
    ) -> M: ...

    async def complete(
        self, *, role: str, system: str, prompt: str, facts: Mapping[str, Any] | None = None
    ) -> str: ...

    def stream(
        self, *, role: str, system: str, prompt: str, facts: Mapping[str, Any] | None = None
    ) -> AsyncIterator[str]: ...
