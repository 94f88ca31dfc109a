"""What a flow module hands the runtime: its graph, how a message becomes input, how a thread continues.

Nothing here knows about Socket.IO, aiohttp or storage; the runtime interprets these values.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from langgraph.graph import StateGraph

from core.language import clip
from core.llm.base import LLM
from core.processes import nothing_running
from core.settings import Settings
from schemas.events import TITLE_MAX_CHARS


# A line that commands a tool rather than says something: "/help", "/status 3".
_COMMAND = re.compile(r"^\s*/[^\W\d]")


def says_something(line: str) -> bool:
    """Whether a line has words or numbers of its own: not a slash command ("/help"), not only emoji or marks ("😀", "？")."""
    return not _COMMAND.match(line) and any(c.isalnum() for c in line)


def first_line_title(text: str) -> str:
    """A thread's name in the list: the message's first line that says something, as written ("…why did they part?"
    keeps its "?"; a "/help" or "😀" line names nothing); a line longer than a title may be is cut between words with
    "…" showing the cut. Empty for a message that says nothing."""
    line = next((line for line in text.strip().splitlines() if says_something(line)), "")
    return clip(line.strip(), TITLE_MAX_CHARS, "…") if line else ""


# (stream id, events written on it) → returns once the runtime has stored that many of them.
Flush = Callable[[str, int], Awaitable[None]]


@dataclass(frozen=True)
class FlowContext:
    """LangGraph runtime context given to every node (`Runtime[FlowContext]`)."""

    llm: LLM
    options: Mapping[str, Any] = field(default_factory=dict)
    # Tools the runtime configured from settings, by name (e.g. "web_search"); absent when not configured.
    tools: Mapping[str, Any] = field(default_factory=dict)
    # The runtime's settings; None when a graph runs headless (nodes fall back to their defaults).
    settings: Settings | None = None
    # The durability barrier: a node's hook awaits it at exit so that the node's events are stored
    # before LangGraph records the node as done. None when a graph runs headless.
    flush: Flush | None = None
    # Failed attempts already recorded per LangGraph task id: a retry's events get keys of their
    # own, while a task re-run after a crash repeats its keys and the store keeps one of each.
    failed_attempts: Mapping[str, int] = field(default_factory=dict)
    # Whether a thread has a run in progress in this process (the runtime's runs; none when headless): a
    # graph that records its runs itself (the novel journal) tells one still going on from one that stopped.
    thread_running: Callable[[str], bool] = nothing_running


# ---- how a new message on an existing thread continues it


@dataclass(frozen=True)
class StartFresh:
    """Run the graph from START with this input (a new task on the same thread)."""

    input: dict[str, Any]


@dataclass(frozen=True)
class ForkBefore:
    """Re-run from the checkpoint taken just before `node`, with `update` applied as if `as_node` wrote it."""

    node: str
    as_node: str
    update: dict[str, Any]


@dataclass(frozen=True)
class ResumeWith:
    """Answer the pending interrupt."""

    answer: Any


Continuation = StartFresh | ForkBefore | ResumeWith


@dataclass(frozen=True)
class ThreadView:
    """What a flow may look at when deciding how to continue a thread."""

    values: Mapping[str, Any]
    pending_interrupt: Mapping[str, Any] | None
    finished: bool


@dataclass(frozen=True)
class FlowDefinition:
    name: str
    title: str
    description: str
    build_graph: Callable[[], StateGraph]
    initial_input: Callable[[str, Mapping[str, Any]], dict[str, Any]]
    # Decide how a message continues an existing thread; default: a fresh run with the message.
    continue_thread: Callable[[ThreadView, str, Mapping[str, Any], LLM], Awaitable[Continuation]] | None = None
    thread_title: Callable[[str], str] = first_line_title
    # The catalogue key of the title `thread_title` gives a message with nothing to name the thread by (an
    # emoji alone): the thread's next message that has a subject names it instead.
    untitled_key: str | None = None
    # The option naming what the thread works on (a novel's projectId): a thread whose messages have said nothing yet
    # (a "/help") is named by it beside the flow's name, "雾港 · 小说助手", when the flow has no untitled_key.
    subject_option: str | None = None
    # Refuse bad options before anything is written: raise ValueError with a sentence for the user.
    # (options, tools, message): the message too, since what it says can decide (a new novel project's world).
    check_options: Callable[[Mapping[str, Any], Mapping[str, Any], str], None] | None = None
    # The option keys the flow reads; any other is refused with a sentence naming these (a typo such as
    # `page` for a key never goes unnoticed). None: the flow does not declare them (nothing is refused).
    option_names: frozenset[str] | None = None
    # Ids the flow puts in front of people inside artifacts, by kind: {kind: {id: catalogue key}}
    # (e.g. the legal intent `regulation_query`); clients show the names `GET /api/flows` serves.
    terms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
