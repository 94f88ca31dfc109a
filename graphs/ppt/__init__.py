"""The PPT flow: topic → six stages → slide DSL + .pptx; feedback re-runs the targeted stage onward.

Which stage feedback targets is decided inside the graph (`route_request`), not when the message arrives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.llm.base import LLM
from graphs.base import Continuation, FlowDefinition, ResumeWith, StartFresh, ThreadView
from graphs.ppt.graph import build_graph, classify_feedback, feedback_input, initial_input
from graphs.ppt.planning import UNTITLED_THREAD, thread_title


async def continue_thread(view: ThreadView, text: str, options: Mapping[str, Any], llm: LLM) -> Continuation:
    if view.pending_interrupt is not None:
        return ResumeWith(text)
    if view.finished and view.values.get("deck"):
        return StartFresh(feedback_input(text))
    return StartFresh(initial_input(text, dict(options)))


FLOW = FlowDefinition(
    name="ppt",
    title="PPT 课件生成 Slide deck",
    description="Topic → course config → video outline → slide scripts → theme → slides, ending in a .pptx.",
    build_graph=build_graph,
    initial_input=initial_input,
    continue_thread=continue_thread,
    thread_title=thread_title,
    untitled_key=UNTITLED_THREAD,
    option_names=frozenset(),  # everything a deck needs is said in the message (topic, minutes, audience)
)

__all__ = ["FLOW", "classify_feedback", "continue_thread"]
