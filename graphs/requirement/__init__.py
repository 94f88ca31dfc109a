"""The requirement flow (spec 004): a requirement → clarification rounds with a human → a versioned plan.

A chat message sent while questions are pending answers them (`ResumeWith`); once the plan is
done, a new message starts a fresh requirement on the same thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.llm.base import LLM
from graphs.base import Continuation, FlowDefinition, ResumeWith, StartFresh, ThreadView
from core.i18n import t
from graphs.requirement.graph import (
    MAX_ROUNDS_CAP,
    UNTITLED_THREAD,
    USE_DEFAULTS,
    build_graph,
    initial_input,
    is_use_defaults,
    normalize_reply,
    parse_reply,
    settle_plan,
    thread_title,
)


def _pending_questions(pending: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    # The runtime may hand over the interrupt event ({interruptId, kind, payload}) or the raw
    # interrupt value ({kind, payload}); either way the questions sit in payload.
    payload = pending.get("payload", pending)
    if not isinstance(payload, Mapping):
        return None
    questions = payload.get("questions")
    return list(questions) if isinstance(questions, list) else None


async def continue_thread(view: ThreadView, text: str, options: Mapping[str, Any], llm: LLM) -> Continuation:
    if view.pending_interrupt is not None:
        questions = _pending_questions(view.pending_interrupt)
        if questions is not None:
            return ResumeWith(parse_reply(text, questions))
        return ResumeWith(text)
    return StartFresh(initial_input(text, dict(options or {})))


def check_options(options: Mapping[str, Any], tools: Mapping[str, Any], text: str = "") -> None:
    """A target repository must be one the server allows (REPO_ROOTS); refused before a thread exists.
    `write` and `maxRounds` are the JSON values docs/protocol.md lists: bool("false") is True, which wrote
    into the repository a client had said not to, and a maxRounds of 99 quietly became 10."""
    access = tools.get("repo_access")
    if options.get("repo") and access is not None:
        access.check(str(options["repo"]))
    if not isinstance(options.get("write", False), bool):
        raise ValueError(t("requirement.bad_write"))
    rounds = options.get("maxRounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= MAX_ROUNDS_CAP):
        raise ValueError(t("requirement.bad_max_rounds", cap=MAX_ROUNDS_CAP))


FLOW = FlowDefinition(
    name="requirement",
    title="需求澄清 Requirement plan",
    description="Explores a repository read-only, asks clarification rounds, and ends in a versioned "
    "plan JSON plus IMPLEMENTATION_PLAN.md.",
    build_graph=build_graph,
    initial_input=initial_input,
    continue_thread=continue_thread,
    check_options=check_options,
    option_names=frozenset({"repo", "write", "maxRounds"}),
    thread_title=thread_title,
    untitled_key=UNTITLED_THREAD,
)

__all__ = [
    "FLOW",
    "USE_DEFAULTS",
    "build_graph",
    "continue_thread",
    "initial_input",
    "is_use_defaults",
    "normalize_reply",
    "parse_reply",
    "settle_plan",
]
