"""The PPT flow: topic → six stages → slide DSL + .pptx; feedback re-runs the targeted stage onward."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.llm.base import LLM
from graphs.base import Continuation, FlowDefinition, ForkBefore, ResumeWith, StartFresh, ThreadView
from graphs.ppt import prompts
from graphs.ppt.graph import build_graph, initial_input
from graphs.ppt.planning import STAGES, FeedbackIntent, classify_by_rules, predecessor_of


async def classify_feedback(text: str, topic: str, llm: LLM) -> FeedbackIntent:
    """Rules first (cheap, predictable); the model decides only what no rule covers."""
    by_rules = classify_by_rules(text)
    if by_rules is not None:
        return by_rules
    return await llm.structured(
        FeedbackIntent, role="router", system=prompts.SYSTEM, prompt=prompts.feedback_intent(text, topic),
        facts={"text": text, "topic": topic},
    )


async def continue_thread(view: ThreadView, text: str, options: Mapping[str, Any], llm: LLM) -> Continuation:
    if view.pending_interrupt is not None:
        return ResumeWith(text)
    if not (view.finished and view.values.get("deck")):
        return StartFresh(initial_input(text, dict(options)))
    topic = (view.values.get("analysis") or {}).get("topic", "")
    intent = await classify_feedback(text, topic, llm)
    if intent.intent == "REFINEMENT" and intent.targetStage in STAGES[1:]:
        return ForkBefore(
            node=intent.targetStage,
            as_node=predecessor_of(intent.targetStage),
            update={"feedback": text, "feedback_stage": intent.targetStage},
        )
    return StartFresh(initial_input(text, dict(options)))


FLOW = FlowDefinition(
    name="ppt",
    title="PPT 课件生成 Slide deck",
    description="Topic → course config → video outline → slide scripts → theme → slides, ending in a .pptx.",
    build_graph=build_graph,
    initial_input=initial_input,
    continue_thread=continue_thread,
)
