"""Shared pieces of the legal tests: one statute index per test session, the case corpus path,
a headless graph runner, and test doubles for failing tools and models."""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from core.legal import LegalKnowledge
from core.legal.cases import CaseLibrary
from core.legal.statutes import ChinaLawStatutes
from core.llm.base import LLMError
from core.llm.offline import OfflineLLM
from graphs.base import FlowContext
from graphs.legal import build_graph, initial_input



def _shared_cases() -> Path:
    """The shared case corpus: $SHARED_DATA_DIR/legal-cases, else shared/data/legal-cases beside a parent folder."""
    if os.environ.get("SHARED_DATA_DIR"):
        return Path(os.environ["SHARED_DATA_DIR"]) / "legal-cases"
    here = Path(__file__).resolve()
    found = (parent / "shared" / "data" / "legal-cases" for parent in here.parents)
    return next((path for path in found if path.is_dir()), here.parents[3] / "shared" / "data" / "legal-cases")


CASES_DIR = _shared_cases()
# Tests that read the cases themselves; the others run with an empty case library where it is absent.
NEEDS_CASES = pytest.mark.skipif(
    not CASES_DIR.is_dir(), reason=f"the shared case corpus is not at {CASES_DIR} (set SHARED_DATA_DIR)"
)


@pytest.fixture(scope="session")
def legal_index(tmp_path_factory) -> Path:
    """The china-law BM25 index, built once per session (~13-25 s) and shared by every legal test."""
    path = tmp_path_factory.mktemp("china-law") / "bm25.pkl"
    ChinaLawStatutes(index_path=path).warm()
    return path


@pytest.fixture
def knowledge(legal_index) -> LegalKnowledge:
    return LegalKnowledge(statutes=ChinaLawStatutes(index_path=legal_index), cases=CaseLibrary(CASES_DIR))


class CountingLLM(OfflineLLM):
    """The offline model, counting calls per kind."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.structured_calls: list[str] = []
        self.text_roles: list[str] = []

    async def structured(self, schema, **kwargs):
        self.structured_calls.append(schema.__name__)
        return await super().structured(schema, **kwargs)

    async def complete(self, **kwargs):
        self.text_roles.append(kwargs["role"])
        return await super().complete(**kwargs)


class FailingRolesLLM(CountingLLM):
    """A model whose text calls for some roles always fail (a specialist that cannot answer)."""

    def __init__(self, failing: set[str]) -> None:
        super().__init__()
        self.failing = failing

    async def complete(self, **kwargs):
        if kwargs["role"] in self.failing:
            raise LLMError("The model is unavailable.")
        return await super().complete(**kwargs)


@dataclass
class FlakyStatutes:
    """Statute source doubles: `fail` always raises on search; `slow_when` sleeps on matching queries."""

    inner: Any
    fail: bool = False
    slow_when: str | None = None
    delay_s: float = 1.0
    searches: list[str] = field(default_factory=list)
    # A slow search waits on this (set it when the test is done, so no worker thread lingers).
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def ready(self) -> bool:
        return True

    def warm(self) -> None:
        self.inner.warm()

    def search(self, query: str, top_k: int = 6, law: str | None = None, question: str | None = None):
        self.searches.append(query)
        if self.fail:
            raise ConnectionError("statute service down")
        if self.slow_when and self.slow_when in query:
            self.release.wait(self.delay_s)
        return self.inner.search(query, top_k, law, question)

    def get_article(self, law, article_no):
        return self.inner.get_article(law, article_no)

    def verify(self, law, article_no):
        return self.inner.verify(law, article_no)


@dataclass
class Run:
    events: list[tuple[str, dict[str, Any]]]
    state: dict[str, Any]
    next: tuple[str, ...]

    def of(self, event: str) -> list[dict[str, Any]]:
        return [data for name, data in self.events if name == event]

    def artifact(self, type_: str) -> dict[str, Any]:
        return [a["artifact"] for a in self.of("tool:artifact") if a["artifact"]["type"] == type_][-1]

    @property
    def answer(self) -> str:
        return [m for m in self.of("message") if m["final"]][-1]["content"]


class GraphRunner:
    """The legal graph headless (in-memory checkpoints), as the runtime would run it."""

    def __init__(self, knowledge: LegalKnowledge, llm: Any = None, tools: dict[str, Any] | None = None) -> None:
        self.graph = build_graph().compile(checkpointer=InMemorySaver())
        self.context = FlowContext(llm=llm or OfflineLLM(), tools={"legal": knowledge, **(tools or {})})
        self.config = {"configurable": {"thread_id": "legal-test"}}

    async def _stream(self, graph_input: Any) -> Run:
        events: list[tuple[str, dict[str, Any]]] = []
        async for _ns, _mode, chunk in self.graph.astream(graph_input, self.config, context=self.context,
                                                         stream_mode=["custom"], subgraphs=True):
            events.extend((event["event"], event["data"]) for event in chunk["events"])
        snapshot = await self.graph.aget_state(self.config)
        return Run(events=events, state=dict(snapshot.values), next=tuple(snapshot.next))

    async def ask(self, text: str) -> Run:
        return await self._stream(initial_input(text, {}))

    async def answer(self, reply: Any) -> Run:
        return await self._stream(Command(resume=reply))




class FixedIntentLLM(CountingLLM):
    """A model that classifies every message as given (the test decides the route, not the model)."""

    def __init__(self, **intent: Any) -> None:
        super().__init__()
        self.intent = intent

    async def structured(self, schema, **kwargs):
        from schemas.legal import IntentResult

        if schema is IntentResult:
            self.structured_calls.append(schema.__name__)
            return IntentResult(confidence=0.7, **self.intent)
        return await super().structured(schema, **kwargs)
