"""Wire protocol v1 (documented in docs/protocol.md, kept in step by tests/test_protocol_doc.py): inbound payloads, outbound events, artifacts.

Field names are camelCase on the wire; Python attributes use the same names so that
`model_dump()` is the wire form without aliases to keep in sync.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr


class ArtifactType(str, Enum):
    search_results = "search_results"
    course_config = "course_config"
    video_outline = "video_outline"
    slide_scripts = "slide_scripts"
    presentation_theme = "presentation_theme"
    slide_preview = "slide_preview"
    dsl = "dsl"
    pptx = "pptx"
    qa_report = "qa_report"
    pdf = "pdf"
    tool_plan = "tool_plan"
    scene_memory_context = "scene_memory_context"
    legal_answer = "legal_answer"
    legal_document = "legal_document"
    requirement_plan = "requirement_plan"
    implementation_plan = "implementation_plan"
    trace = "trace"
    novel_status = "novel_status"
    novel_chapter = "novel_chapter"
    novel_answer = "novel_answer"


class ThreadStatus(str, Enum):
    idle = "idle"
    running = "running"
    interrupted = "interrupted"
    failed = "failed"
    cancelled = "cancelled"
    done = "done"


# Threads in these states can be continued with run:resume.
RESUMABLE_STATUSES = frozenset({ThreadStatus.interrupted, ThreadStatus.failed, ThreadStatus.cancelled})


class Artifact(BaseModel):
    id: str = Field(description="Stable per thread and artifact key; re-generation keeps it")
    type: ArtifactType
    title: str
    version: int = Field(ge=1, description="Raised by one each time the artifact is re-generated")
    showInCanvas: bool = Field(default=False, description="The canvas focuses it when it arrives")
    content: Any = Field(description="JSON of the artifact's model; a summary for binary artifacts")
    mimeType: str | None = None
    url: str | None = Field(default=None, description="Download address for binary artifacts")


class ArtifactRef(BaseModel):
    id: str
    type: ArtifactType
    title: str
    version: int


# ---------------------------------------------------------------- client -> server

MAX_ID_CHARS = 200
MAX_SEQ = 2**63 - 1  # the store's integers are signed 64-bit
TITLE_MAX_CHARS = 80  # a thread title, after cleaning (shown on one line in the thread list)


class Inbound(BaseModel):
    # Unknown keys are refused so a typo ("threadID") is an error, not a silent new thread.
    model_config = ConfigDict(extra="forbid")


class ChatMessageIn(Inbound):
    flow: StrictStr = Field(description="Registered flow name: ppt, novel, legal, requirement")
    text: StrictStr = Field(
        min_length=1,
        description="The user's message; the server cleans control characters and refuses blank or"
        " zero-width-only text and text over MESSAGE_MAX_CHARS (8,000 by default)",
    )
    threadId: StrictStr | None = Field(
        default=None, min_length=1, max_length=MAX_ID_CHARS, description="Continue this thread; omit to start one"
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="Flow-specific options, at most OPTIONS_MAX_BYTES as JSON"
    )


class RunResumeIn(Inbound):
    threadId: StrictStr = Field(min_length=1, max_length=MAX_ID_CHARS)
    answer: Any = Field(default=None, description="Reply to the pending interrupt, if any (at most OPTIONS_MAX_BYTES)")


class RunCancelIn(Inbound):
    threadId: StrictStr = Field(min_length=1, max_length=MAX_ID_CHARS)


class ThreadJoinIn(Inbound):
    threadId: StrictStr = Field(min_length=1, max_length=MAX_ID_CHARS)
    afterSeq: StrictInt = Field(default=0, ge=0, le=MAX_SEQ, description="Replay stored events with seq > afterSeq")


class ThreadListIn(Inbound):
    pass


class ThreadTitleIn(Inbound):
    """The body of `PATCH /api/threads/{id}`."""

    title: StrictStr = Field(
        description="The new title; control characters are removed, whitespace runs become one space;"
        f" blank or over {TITLE_MAX_CHARS} characters is refused"
    )


class ThreadRenameIn(ThreadTitleIn):
    threadId: StrictStr = Field(min_length=1, max_length=MAX_ID_CHARS)


class ThreadDeleteIn(Inbound):
    threadId: StrictStr = Field(min_length=1, max_length=MAX_ID_CHARS)


CLIENT_EVENT_MODELS: dict[str, type[Inbound]] = {
    "chat:message": ChatMessageIn,
    "run:resume": RunResumeIn,
    "run:cancel": RunCancelIn,
    "thread:join": ThreadJoinIn,
    "thread:list": ThreadListIn,
    "thread:rename": ThreadRenameIn,
    "thread:delete": ThreadDeleteIn,
}


# ---------------------------------------------------------------- server -> client

class Envelope(BaseModel):
    threadId: str
    runId: str
    seq: int = Field(ge=1)
    ts: float = Field(description="Unix time in seconds")


class StatusEvent(BaseModel):
    status: str
    message: str | None = None


class AgentSelectedEvent(BaseModel):
    agent: str
    confidence: float
    intent: str | None = Field(default=None, description="The classification that chose the agent (legal flow)")
    category: str | None = Field(default=None, description="The field of law the agent covers (legal flow)")


class ToolMessageStartEvent(BaseModel):
    toolCallId: str
    toolName: str


class ToolStartEvent(BaseModel):
    toolCallId: str
    toolName: str
    input: Any = Field(default=None, description="What the call works on; `{about}` names it in the user's language "
                                                 "where one node runs side by side (the legal specialists' field of law)")


class ToolUpdateEvent(BaseModel):
    toolCallId: str
    status: Literal["running", "done", "failed"]
    output: Any = None


class ToolLogEvent(BaseModel):
    toolCallId: str
    level: Literal["debug", "info", "warning", "error"] = "info"
    message: str
    artifactId: str | None = None


class ToolArtifactEvent(BaseModel):
    toolCallId: str
    artifact: Artifact


class ToolMessageCompleteEvent(BaseModel):
    toolCallId: str
    toolName: str
    artifactId: str | None = None


class ProgressEvent(BaseModel):
    status: str
    current: int
    total: int
    message: str


class MessageEvent(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str
    final: bool


# The clarification answer that keeps every question's fallback (docs/protocol.md, Interrupts).
USE_DEFAULTS = "use defaults"


class InterruptEvent(BaseModel):
    interruptId: str
    kind: Literal["clarification", "confirmation"]
    payload: dict[str, Any]


class CompletionEvent(BaseModel):
    success: bool
    finalArtifactId: str | None = None
    error: str | None = None
    resumable: bool | None = Field(
        default=None,
        description="On a run that ended failed, cancelled or interrupted: whether run:resume can continue it"
        " (false when a resume would fail the same way; a new message still starts afresh)",
    )


EVENT_MODELS: dict[str, type[BaseModel]] = {
    "status": StatusEvent,
    "agent-selected": AgentSelectedEvent,
    "tool:message:start": ToolMessageStartEvent,
    "tool:start": ToolStartEvent,
    "tool:update": ToolUpdateEvent,
    "tool:log": ToolLogEvent,
    "tool:artifact": ToolArtifactEvent,
    "tool:message:complete": ToolMessageCompleteEvent,
    "progress": ProgressEvent,
    "message": MessageEvent,
    "interrupt": InterruptEvent,
    "completion": CompletionEvent,
}


class ReplayedEvent(BaseModel):
    event: str = Field(description="The server event's name, e.g. `tool:log`")
    data: dict[str, Any] = Field(description="Exactly the payload the single event carries, envelope included")


class ThreadReplayEvent(BaseModel):
    """A batch of a `thread:join` replay; live events are never batched."""

    threadId: str
    events: list[ReplayedEvent] = Field(description="Stored events in seq order, contiguous within the replay")


# Server events that wrap others: sent by the server, never published to the event log.
BATCH_EVENT_MODELS: dict[str, type[BaseModel]] = {"thread:replay": ThreadReplayEvent}


class ThreadSummary(BaseModel):
    threadId: str
    flow: str
    title: str
    status: ThreadStatus
    updatedAt: float
    resumable: bool = Field(default=False, description="run:resume would continue the thread")
    waiting: bool = Field(
        default=False,
        description="An interrupted thread whose question waits for the user's answer (not one a restart stopped)",
    )


class ThreadDeletedEvent(BaseModel):
    threadId: str
    message: str = Field(description="A sentence for the user, in the server's LOCALE, naming the deleted thread")


# Sent to every connection of the thread's owner (not to a thread's room, never stored in its log): the
# thread list of each open tab follows a rename or delete made in another tab or over HTTP.
USER_EVENT_MODELS: dict[str, type[BaseModel]] = {"thread:updated": ThreadSummary, "thread:deleted": ThreadDeletedEvent}


class ThreadInfo(BaseModel):
    threadId: str
    flow: str
    status: ThreadStatus
    resumable: bool = Field(
        default=False, description="run:resume would continue the thread: a resumable status, and no failure a resume would repeat"
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="The flow options the thread runs with (e.g. the novel flows' projectId)"
    )
    pendingInterrupt: InterruptEvent | None = None
    artifacts: list[ArtifactRef] = Field(default_factory=list)
    lastSeq: int = 0


class AckError(BaseModel):
    code: Literal["bad_request", "not_found", "conflict", "unauthorized", "rate_limited", "internal"] = Field(
        description="Stable: bad_request, not_found (also a thread that is not yours), conflict, unauthorized,"
        " rate_limited (too many events on this connection; wait and retry), internal"
    )
    message: str = Field(description="A sentence for the user, in the server's LOCALE")


class FlowInfo(BaseModel):
    name: str
    title: str
    description: str
    nodes: dict[str, str] = Field(
        default_factory=dict, description="Display name of each node of the flow's graph, by id (`toolName`)"
    )
    terms: dict[str, dict[str, str]] = Field(
        default_factory=dict, description="Display names of ids the flow shows in artifacts: {kind: {id: name}}"
    )


class InterruptRequest(BaseModel):
    """What a graph passes to `interrupt()`; the runtime turns it into an `interrupt` event."""

    kind: Literal["clarification", "confirmation"]
    payload: dict[str, Any] = Field(default_factory=dict)
