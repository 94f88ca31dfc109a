"""The PPT graph run headless (offline model, in-memory checkpointer): a deck built once per request and
shared, and feedback runs on a copy of it, with the protocol events each run emitted."""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from pptx import Presentation

from core.llm.offline import OfflineLLM
from graphs.base import FlowContext
from graphs.ppt import FLOW
from graphs.ppt.graph import feedback_input
from schemas.ppt import SlideDeck


@dataclass
class Run:
    values: dict[str, Any]  # the thread's state when the run ended
    events: list[tuple[str, dict[str, Any], dict[str, Any]]]  # (event, data, meta) in order

    @property
    def deck(self) -> SlideDeck:
        return SlideDeck.model_validate(self.values["deck"])

    def started(self) -> list[str]:
        return [data["toolName"] for event, data, _ in self.events if event == "tool:start"]

    def artifacts(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [data["artifact"] for event, data, _ in self.events
                if event == "tool:artifact" and kind in (None, data["artifact"]["type"])]

    def said(self) -> list[str]:
        return [data["content"] for event, data, _ in self.events if event == "message" and data["final"]]

    def pptx_slide_count(self) -> int:
        files = [meta["file"] for event, data, meta in self.events
                 if event == "tool:artifact" and data["artifact"]["type"] == "pptx"]
        return len(Presentation(io.BytesIO(files[-1])).slides)


async def run_graph(start: dict[str, Any], thread_id: str) -> Run:
    graph = FLOW.build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread_id}}
    events = []
    async for chunk in graph.astream(start, config, context=FlowContext(llm=OfflineLLM()), stream_mode="custom",
                                     durability="sync"):
        events += [(e["event"], e["data"], e["meta"]) for e in chunk["events"]]
    return Run(values=(await graph.aget_state(config)).values, events=events)


_FINISHED: dict[str, dict[str, Any]] = {}


async def finished_deck(request: str) -> dict[str, Any]:
    """The state of a finished deck for this request, built once per test session (the offline model is
    deterministic); each caller gets its own copy."""
    if request not in _FINISHED:
        _FINISHED[request] = (await run_graph(FLOW.initial_input(request, {}), request)).values
    return copy.deepcopy(_FINISHED[request])


async def feedback_on(request: str, feedback: str) -> tuple[dict[str, Any], Run]:
    """(the deck before, the feedback run) — the feedback sent on a finished deck of `request`, as a message
    on its thread starts a run."""
    before = await finished_deck(request)
    return copy.deepcopy(before), await run_graph({**before, **feedback_input(feedback)}, f"{request}/{feedback}")
