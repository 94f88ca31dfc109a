"""The shared node hooks: every graph node reports through here, never through a socket.

`@node("name")` emits `tool:start` on enter and `tool:update{done}` on exit (`failed` plus a
`tool:log` on error); `@stage("name")` additionally wraps the node in
`tool:message:start` / `tool:message:complete{artifactId}` (one tool message per PPT stage).
The wrapped function is a plain `async def fn(state, ctx: NodeContext) -> dict` returning
partial state. Everything is written with LangGraph's stream writer as custom chunks
`{"events": [{"event": <protocol name>, "data": {...wire fields}, "meta": {...runtime hints}}, ...]}`
(the events a node emits back to back share a chunk); the runtime turns them into persisted,
sequenced protocol events.

Durability: every event carries a deterministic key (LangGraph task id, attempt, ordinal within the
task), and on exit (success, failure, interrupt) the hook awaits `FlowContext.flush` until the
runtime has stored all of the node's events — before LangGraph sees the node finish and checkpoints
it. A kill before the checkpoint re-runs the task with the same keys, which the store keeps once.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.errors import GraphBubbleUp, GraphDrained
from langgraph.runtime import RunControl, Runtime
from pydantic import BaseModel

from core.i18n import t
from graphs.base import FlowContext
from schemas.events import ArtifactType

# A custom stream chunk is {EVENTS_KEY: [event, ...]}, each event {CUSTOM_EVENT_KEY: name, "data": ..., "meta": ...}.
CUSTOM_EVENT_KEY = "event"
EVENTS_KEY = "events"


def artifact_id_for(thread_id: str, key: str) -> str:
    """Stable id for an artifact of a thread: re-generating it keeps the id, the store bumps the version."""
    return "art_" + hashlib.sha1(f"{thread_id}/{key}".encode()).hexdigest()[:20]


def task_id_from(config: RunnableConfig) -> str:
    """LangGraph's task id of the running node: deterministic, so a re-executed task keeps it."""
    namespace = config.get("configurable", {}).get("checkpoint_ns", "") or ""
    last = namespace.split("|")[-1]
    return last.split(":", 1)[1] if ":" in last else (last or "root")


def user_message_for(error: BaseException, tool_name: str) -> str:
    message = getattr(error, "user_message", None)
    if message:
        return message
    return t("runtime.step_failed", step=tool_name)


class NodeContext:
    """The small API a node uses to report: progress, logs, artifacts, assistant text."""

    def __init__(
        self, *, tool_call_id: str, tool_name: str, config: RunnableConfig, flow: FlowContext,
        control: RunControl | None = None,
    ) -> None:
        self.tool_call_id = tool_call_id
        self.tool_name = tool_name
        self.config = config
        self.flow = flow
        self.thread_id: str = config.get("configurable", {}).get("thread_id", "")
        self.last_artifact_id: str | None = None
        self.control = control  # LangGraph's run control (the runtime's cancel and shutdown drains)
        self._write = get_stream_writer()
        task_id = task_id_from(config)
        self.stream_id = f"{task_id}/{flow.failed_attempts.get(task_id, 0) if flow else 0}"
        self._written = 0
        self._queued: list[dict[str, Any]] = []  # emitted, not yet handed to the stream writer

    @classmethod
    def from_runtime(
        cls, config: RunnableConfig, runtime: Runtime[FlowContext], *, tool_name: str, tool_call_id: str | None = None
    ) -> NodeContext:
        return cls(
            tool_call_id=tool_call_id or task_id_from(config),
            tool_name=tool_name,
            config=config,
            flow=runtime.context,
            control=runtime.control,
        )

    def thread_running(self, thread_id: str) -> bool:
        """Whether `thread_id` has a run in progress in this process (see FlowContext.thread_running)."""
        return self.flow is not None and self.flow.thread_running(thread_id)

    @property
    def llm(self):
        return self.flow.llm

    @property
    def options(self):
        return self.flow.options

    def emit(self, event: str, data: dict[str, Any], **meta: Any) -> None:
        """Events emitted back to back (no await between them) go out as one stream chunk, at the loop's
        next turn or the node's flush: LangGraph's stream costs per chunk (bench/orchestration_overhead)."""
        self._written += 1
        meta.update(stream=self.stream_id, ordinal=self._written, key=f"{self.stream_id}/{self._written}")
        self._queued.append({CUSTOM_EVENT_KEY: event, "data": data, "meta": meta})
        if len(self._queued) == 1:
            try:
                asyncio.get_running_loop().call_soon(self._send_queued)
            except RuntimeError:  # no loop running: nothing to wait for
                self._send_queued()

    def _send_queued(self) -> None:
        if self._queued:
            queued, self._queued = self._queued, []
            self._write({EVENTS_KEY: queued})

    def stop_if_draining(self) -> None:
        """Before a unit of work that is one of many tasks of a superstep (a page of a deck): do not
        start it once a stop was asked. LangGraph drains only at a superstep boundary, so a task that
        has not started would otherwise still run; raising GraphDrained (a GraphBubbleUp, not a
        failure) lets the tasks in flight finish and keeps their writes, and the run stops with the
        drain's reason, resumable where it stopped."""
        if self.control is not None and self.control.drain_requested:
            raise GraphDrained(self.control.drain_reason or "shutdown")

    async def flush(self) -> None:
        """Return once everything this node emitted is stored (no-op when the graph runs headless).

        One NodeContext per task: the ordinal is counted here.
        """
        self._send_queued()
        flush = self.flow.flush if self.flow is not None else None
        if flush is not None and self._written:
            await flush(self.stream_id, self._written)

    def progress(self, current: int, total: int, message: str, status: str = "running") -> None:
        self.emit("progress", {"status": status, "current": current, "total": total, "message": message})

    def log(self, message: str, *, level: str = "info", artifact_id: str | None = None) -> None:
        data: dict[str, Any] = {"toolCallId": self.tool_call_id, "level": level, "message": message}
        if artifact_id:
            data["artifactId"] = artifact_id
        self.emit("tool:log", data)

    def message(self, content: str, *, final: bool) -> None:
        self.emit("message", {"role": "assistant", "content": content, "final": final})

    def status(self, status: str, message: str | None = None) -> None:
        self.emit("status", {"status": status, "message": message})

    def agent_selected(self, agent: str, confidence: float, *, intent: str | None = None,
                       category: str | None = None) -> None:
        data: dict[str, Any] = {"agent": agent, "confidence": confidence}
        if intent is not None:
            data.update(intent=intent, category=category)
        self.emit("agent-selected", data)

    def artifact(
        self,
        *,
        key: str,
        type: ArtifactType,
        title: str,
        content: BaseModel | dict[str, Any] | list[Any],
        show_in_canvas: bool = False,
        final: bool = False,
        file: bytes | None = None,
        file_name: str | None = None,
        mime_type: str | None = None,
    ) -> str:
        """Publish an artifact; returns its stable id. `key` names it within the thread."""
        artifact_id = artifact_id_for(self.thread_id, key)
        body = content.model_dump(mode="json") if isinstance(content, BaseModel) else content
        artifact = {
            "id": artifact_id,
            "type": ArtifactType(type).value,
            "title": title,
            "showInCanvas": show_in_canvas,
            "content": body,
            "mimeType": mime_type or ("application/json" if file is None else None),
        }
        self.emit(
            "tool:artifact",
            {"toolCallId": self.tool_call_id, "artifact": artifact},
            origin=f"{self.tool_call_id}/{key}",
            final=final,
            file=file,
            fileName=file_name,
        )
        self.last_artifact_id = artifact_id
        return artifact_id


NodeFn = Callable[[Any, NodeContext], Awaitable[dict[str, Any]]]


def _hooked(tool_name: str | None, *, stage: bool,
            about: Callable[[Any], str | None] | None = None) -> Callable[[NodeFn], Callable[..., Awaitable[dict[str, Any]]]]:
    def decorate(fn: NodeFn):
        name = tool_name or fn.__name__

        @functools.wraps(fn)
        async def wrapper(state: Any, config: RunnableConfig, runtime: Runtime[FlowContext]) -> dict[str, Any]:
            ctx = NodeContext.from_runtime(config, runtime, tool_name=name)
            call = {"toolCallId": ctx.tool_call_id, "toolName": name}
            if stage:
                ctx.emit("tool:message:start", call)
            subject = about(state) if about else None
            ctx.emit("tool:start", {**call, "input": {"about": subject} if subject else None})
            try:
                result = await fn(state, ctx)
            except GraphBubbleUp:
                # interrupt() and friends: not a failure, the node re-runs on resume.
                await ctx.flush()
                raise
            except Exception as error:
                sentence = user_message_for(error, name)
                ctx.emit("tool:log", {"toolCallId": ctx.tool_call_id, "level": "error", "message": sentence})
                ctx.emit("tool:update", {"toolCallId": ctx.tool_call_id, "status": "failed", "output": None})
                await ctx.flush()
                raise
            ctx.emit("tool:update", {"toolCallId": ctx.tool_call_id, "status": "done", "output": None})
            if stage:
                ctx.emit("tool:message:complete", {**call, "artifactId": ctx.last_artifact_id})
            await ctx.flush()
            return result

        # LangGraph injects `config` and `runtime` by parameter name; drop the wrapped signature.
        del wrapper.__wrapped__
        return wrapper

    return decorate


def node(tool_name: str | None = None, *, about: Callable[[Any], str | None] | None = None):
    """Hook a graph node: tool:start → … → tool:update{done|failed}. `about(state)` names, in the user's
    language, what this call works on where one node runs several times side by side (`input.about`)."""
    return _hooked(tool_name, stage=False, about=about)


def stage(tool_name: str | None = None):
    """Hook a pipeline stage: tool:message:start → tool:start → … → tool:update → tool:message:complete."""
    return _hooked(tool_name, stage=True)
