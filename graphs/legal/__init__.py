"""The legal assistant (spec 002): classified, routed specialists whose every citation is checked.

A message sent while drafting questions are pending answers them; otherwise a message starts a
new request (new traceId) on the same thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.llm.base import LLM
from graphs.base import Continuation, FlowDefinition, ResumeWith, StartFresh, ThreadView
from graphs.legal.graph import build_graph, classify_text, initial_input
from graphs.requirement import parse_reply
from schemas.legal import CATEGORIES, INTENTS, AgentName

# The ids a legal answer and `agent-selected` carry, named in legal.toml (domains are categories).
TERMS = {
    "intent": {intent: f"legal.intent_{intent}" for intent in INTENTS},
    "category": {category: f"legal.category_{category}" for category in CATEGORIES},
    "agent": {agent: f"legal.agent_{agent}" for agent in AgentName.__args__},  # type: ignore[attr-defined]
    # The trace's steps: the tool each ran, how the question was classified.
    "tool": {tool: f"legal.tool_{tool}" for tool in ("statute_search", "case_search", "web_search", "get_article",
                                                      "extract_fields", "create_document", "check_citations")},
    "via": {via: f"legal.via_{via}" for via in ("rules", "model", "rules_over_model", "rules_model_failed")},
}


async def continue_thread(view: ThreadView, text: str, options: Mapping[str, Any], llm: LLM) -> Continuation:
    if view.pending_interrupt is not None:
        payload = view.pending_interrupt.get("payload", view.pending_interrupt)
        questions = payload.get("questions") if isinstance(payload, Mapping) else None
        return ResumeWith(parse_reply(text, questions) if isinstance(questions, list) else text)
    previous, category = thread_topic(view.values)
    return StartFresh(initial_input(text, dict(options or {}), previous=previous, previous_category=category))


def thread_topic(values: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """What a follow-up is read with, and its field of law: the last question as it was understood, so a
    second follow-up ("能要求赔偿多少" after "那他不还呢") still carries the question that opened the topic."""
    classification = values.get("classification") or {}
    if not classification:
        return None, None
    if classification.get("intent") == "general_chat":  # a "谢谢" in between does not end the topic
        return values.get("previous"), values.get("previous_category")
    question = (values.get("context") or {}).get("question") or values.get("text")
    category = classification.get("category")
    return question, (category if category != "other" else values.get("previous_category"))


FLOW = FlowDefinition(
    name="legal",
    title="法律助手 Legal assistant",
    description="Classifies a legal question, routes it to research, case, drafting or review agents, and checks "
    "every citation against the statute corpus before the answer is shown.",
    build_graph=build_graph,
    initial_input=initial_input,
    continue_thread=continue_thread,
    option_names=frozenset(),  # the question, its facts and a draft's details are all said in the message
    terms=TERMS,
)

__all__ = ["FLOW", "build_graph", "classify_text", "continue_thread", "initial_input"]
