"""Runs any registered flow: start, continue, resume, cancel; turns stream chunks into protocol events.

The runtime knows flows only through `FlowDefinition`; graphs know nothing of the runtime. Data
flows one way: graph → stream writer → here → event log → fan-out (Socket.IO room, CLI display).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.errors import GraphDrained
from langgraph.runtime import RunControl
from langgraph.types import Command

from app.errors import RequestError
from app import threads
from app.auth import owned_thread
from app.eventlog import EventLog
from app.flows import flow_text
from core.processes import process_alive, this_process
from core.i18n import LOCALES, join_clauses, join_items, t
from core.llm.base import LLM
from core.settings import Settings
from app.store import ArtifactWrite, EventWrite, Store, thread_insert, thread_update
from graphs.base import FlowContext, FlowDefinition, ForkBefore, ResumeWith, StartFresh, ThreadView, says_something
from graphs.hooks import CUSTOM_EVENT_KEY, EVENTS_KEY
from schemas.events import (
    USE_DEFAULTS,
    RESUMABLE_STATUSES,
    ArtifactRef,
    InterruptEvent,
    ThreadInfo,
    ThreadStatus,
    ThreadSummary,
)

log = logging.getLogger(__name__)

# Checkpoint metadata naming the start (the StartFresh run) a checkpoint descends from.
START_ID_KEY = "canvas_start_id"
CANCEL, SHUTDOWN = "cancel", "shutdown"
FOLLOW_LOOK_S = 0.5  # how often a watched run of another process is looked at for new events
CANCEL_LOOK_S = 1.0  # how soon a run stops after another process's cancel (SQLite: no heartbeat to carry it)
# The key of an "updates" stream chunk that reports an interrupt (LangGraph keeps its constant private).
INTERRUPT_KEY = "__interrupt__"


def new_thread_id() -> str:
    return uuid.uuid4().hex


@dataclass
class ActiveRun:
    run_id: str
    task: asyncio.Task[None] | None = None
    # LangGraph's own run control: a drain stops the run at the next superstep boundary, checkpointed.
    control: RunControl = field(default_factory=RunControl)
    final_artifact_id: str | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)


class StoredEvents:
    """The durability barrier behind `FlowContext.flush`: a node awaits it until its events are stored.

    The run's EventWriter calls `stored(stream, ordinal)` after each keyed event is in the
    store (or found there already); a node's hook awaits `flush(stream, count)` before it returns,
    so LangGraph checkpoints a node only after its events, artifacts included, are durable.
    """

    def __init__(self) -> None:
        self._stored: dict[str, int] = {}
        self._waiters: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}
        self._error: BaseException | None = None

    def stored(self, stream: str, ordinal: int) -> None:
        self._stored[stream] = max(ordinal, self._stored.get(stream, 0))
        waiting = self._waiters.pop(stream, [])
        still = [(count, future) for count, future in waiting if count > self._stored[stream]]
        for count, future in waiting:
            if count <= self._stored[stream] and not future.done():
                future.set_result(None)
        if still:
            self._waiters[stream] = still

    def fail(self, error: BaseException) -> None:
        """The events can no longer be stored: every waiting and later flush raises (the node fails, not hangs)."""
        self._error = error
        for waiting in self._waiters.values():
            for _count, future in waiting:
                if not future.done():
                    future.set_exception(EventsNotStored())
        self._waiters.clear()

    async def flush(self, stream: str, count: int) -> None:
        if self._stored.get(stream, 0) >= count:
            return
        if self._error is not None:
            raise EventsNotStored() from self._error
        future = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(stream, []).append((count, future))
        await future


class EventsNotStored(RuntimeError):
    """A node's events could not be stored (the run's event writer failed): the node must not checkpoint."""


_END = object()


class EventWriter:
    """Takes a run's stream chunks without waiting and stores them in batches, in order.

    Group commit: the stream loop only queues; this task takes everything queued since its last
    write and stores it in one transaction (artifacts included), so the events a node emits back to
    back cost one trip to the database, not one each. A write failure fails the barrier: nodes stop.
    """

    def __init__(self, write: Callable[[list[dict[str, Any]]], Awaitable[None]], barrier: StoredEvents) -> None:
        self._write = write
        self._barrier = barrier
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task = asyncio.create_task(self._run())

    def put_many(self, chunks: list[dict[str, Any]]) -> None:
        self._queue.put_nowait(chunks)

    async def _run(self) -> None:
        try:
            while True:
                batch: list[dict[str, Any]] = []
                item = await self._queue.get()
                while item is not _END:
                    batch.extend(item)
                    if self._queue.empty():
                        break
                    item = self._queue.get_nowait()
                if batch:
                    await self._write(batch)
                if item is _END:
                    return
        except BaseException as error:
            self._barrier.fail(error)
            raise

    async def close(self) -> None:
        """Once everything queued is stored; raises what stopped the writer, if anything did."""
        self._queue.put_nowait(_END)
        await self._task

    def cancel(self) -> None:
        self._task.cancel()


class FlowRuntime:
    def __init__(
        self,
        *,
        settings: Settings,
        store: Store,
        events: EventLog,
        flows: Mapping[str, FlowDefinition],
        checkpointer: BaseCheckpointSaver,
        llm: LLM,
        tools: Mapping[str, Any] | None = None,
        worker_id: str | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.events = events
        self.flows = dict(flows)
        self.llm = llm
        self.tools = dict(tools or {})
        self.checkpointer = checkpointer
        self.graphs = {name: flow.build_graph().compile(checkpointer=checkpointer) for name, flow in flows.items()}
        self.active: dict[str, ActiveRun] = {}  # threads with a run in progress
        self.latest: dict[str, ActiveRun] = {}  # each thread's most recent run, for wait()
        self.closing = False  # set by shutdown(): no new run starts
        # Several workers on one Postgres store: each run is leased to one worker, renewed by a heartbeat.
        # `worker_id` names a runtime that is not the WORKER_ID worker (`ng` run in that worker's container).
        self.worker_id = worker_id or settings.worker_id or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self._lease_keeper: asyncio.Task[None] | None = None
        self._cancel_watcher: asyncio.Task[None] | None = None
        self._runs_watcher: asyncio.Task[None] | None = None
        # The tasks following runs of another process (`ng ppt` beside `ng serve`) that clients here watch.
        self._followers: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ queries

    @staticmethod
    def graph_config(thread_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": 500}

    async def thread_or_404(self, thread_id: str) -> dict[str, Any]:
        thread = await self.store.get_thread(thread_id)
        if thread is None:
            raise RequestError("not_found", t("runtime.no_thread", thread=thread_id))
        return thread

    async def thread_info(self, thread_id: str) -> ThreadInfo:
        thread = await self.thread_or_404(thread_id)
        artifacts = await self.store.latest_artifacts(thread_id)
        pending = thread["pending_interrupt"]
        return ThreadInfo(
            threadId=thread_id,
            flow=thread["flow"],
            status=thread["status"],
            resumable=_resumable(thread),
            options=thread.get("options") or {},
            pendingInterrupt=InterruptEvent(**pending) if pending else None,
            artifacts=[ArtifactRef(**{k: a[k] for k in ("id", "type", "title", "version")}) for a in artifacts],
            lastSeq=thread["last_seq"],
        )

    async def list_threads(self, owner: str | None = None) -> list[ThreadSummary]:
        return [thread_summary(thread) for thread in await self.store.list_threads(owner=owner)]

    # ----------------------------------------------------------------- commands

    def flow_title(self, flow: str) -> str:
        """The flow as the reader knows it from the flow picker (需求澄清), its id only when it is not loaded."""
        definition = self.flows.get(flow)
        return flow_text(definition, "title") if definition is not None else flow

    def flow_or_400(self, flow: str) -> FlowDefinition:
        definition = self.flows.get(flow)
        if definition is None:
            raise RequestError("bad_request", t("runtime.unknown_flow", flow=flow, available=join_items(sorted(self.flows))))
        return definition

    async def send_message(
        self,
        *,
        flow: str,
        text: str,
        thread_id: str,
        create: bool,
        options: Mapping[str, Any] | None = None,
        owner: str | None = None,
    ) -> str:
        """Start a thread (`create`) or continue one with a new message. Returns the run id."""
        definition = self.flow_or_400(flow)
        options = dict(options or {})
        if create:
            self._refuse_when_closing()
            self._check_options(definition, options, text)
            title = self._thread_title(definition, text, options)
            with self._reservation(thread_id) as run:
                start = StartFresh(definition.initial_input(text, options))
                new_row = {"flow": flow, "title": title, "options": options, "owner": owner}
                if self.store.shared:
                    # The run claim below needs the row; elsewhere the row comes with the first events.
                    await self.store.create_thread(thread_id, **new_row)
                    new_row = None
                await self._launch(thread_id, run, flow, start, options, said=text, new_row=new_row)
            return run.run_id
        thread = await self.thread_or_404(thread_id)
        if thread["flow"] != flow:
            raise RequestError("bad_request", t("runtime.other_flow", thread=thread_id, flow=self.flow_title(thread["flow"])))
        if not self.store.shared and thread["status"] == ThreadStatus.running.value and process_alive(thread.get("runner")):
            # Another process on this DATA_DIR runs it (`ng novel run` twice on one project): two runners
            # would write the same files and checkpoints. (A shared store refuses by its run claim.)
            raise RequestError("conflict", t("runtime.already_running", thread=thread_id))
        # A message on an existing thread keeps the thread's options unless it overrides them.
        options = {**thread["options"], **options}
        self._check_options(definition, options, text)
        with self._reservation(thread_id) as run:
            continuation = await self._continuation_for(definition, thread_id, text, options)
            await self._name_untitled(definition, thread, text)
            await self._launch(thread_id, run, flow, continuation, options, said=text, thread=thread)
        return run.run_id

    def _thread_title(self, definition: FlowDefinition, text: str, options: Mapping[str, Any]) -> str:
        """The name a message gives a new thread; one that says nothing (a "/help", a "😀") names it by what it
        works on and its flow ("雾港 · 小说助手", "法律助手"), or the flow's placeholder ("新课件"), for every flow."""
        if any(says_something(line) for line in text.splitlines()):
            return definition.thread_title(text)
        return self._untitled(definition, options)

    def _untitled(self, definition: FlowDefinition, options: Mapping[str, Any], locale: str | None = None) -> str:
        if definition.untitled_key is not None:
            return t(definition.untitled_key, locale=locale)
        flow = flow_text(definition, "title", locale=locale)
        subject = options.get(definition.subject_option) if definition.subject_option else None
        return t("runtime.untitled_thread", subject=subject, flow=flow, locale=locale) if subject else flow

    async def _name_untitled(self, definition: FlowDefinition, thread: Mapping[str, Any], text: str) -> None:
        """A thread still under its placeholder title (its messages said nothing yet) takes the first later message's
        own title (the thread list refreshes when a message is sent); a title a person chose is never touched."""
        if thread.get("title_chosen"):
            return  # a person named it, if only "新课件": theirs stays
        options = thread.get("options") or {}
        placeholders = {name for locale in LOCALES for name in (self._untitled(definition, options, locale),
                                                                  flow_text(definition, "title", locale=locale))}
        if thread["title"] not in placeholders:
            return
        title = self._thread_title(definition, text, options)
        if title not in placeholders:
            await self.store.rename_thread(thread["thread_id"], title)

    async def rename_thread(self, thread_id: str, title: str, owner: str | None = None) -> ThreadSummary:
        """Give the thread a new title (cleaned at most TITLE_MAX_CHARS); another owner's thread is not_found."""
        return thread_summary(await threads.rename_thread(self.store, thread_id, title, owner))

    async def delete_thread(self, thread_id: str, owner: str | None = None) -> dict[str, Any]:
        """Delete the thread with its events, artifacts, files and checkpoints; a running one is a conflict.

        Returns the thread's row as it was (its title names it in the sentences that follow).
        """
        thread = await owned_thread(self.store, thread_id, owner)
        if thread_id in self.active:
            raise RequestError("conflict", t("runtime.delete_running", title=thread["title"]))
        threads.refuse_running(thread)  # another process or worker runs it
        # Hold the thread like a run would, so no message starts one while its rows and checkpoints go.
        hold = ActiveRun(run_id="delete")
        self.active[thread_id] = hold
        try:
            await threads.remove_thread(self.store, self.checkpointer, thread_id)
        finally:
            self._release(thread_id, hold)
            hold.finished.set()
        self.latest.pop(thread_id, None)
        self.events.forget(thread_id)
        return thread

    def _check_options(self, definition: FlowDefinition, options: dict[str, Any], text: str) -> None:
        known = definition.option_names
        if known is not None and (unknown := sorted(set(options) - known)):
            unknown_keys = join_items(unknown)
            if known:
                raise RequestError("bad_request", t("runtime.unknown_options", flow=definition.name,
                                                    options=unknown_keys, known=join_items(sorted(known))))
            raise RequestError("bad_request", t("runtime.no_options", flow=definition.name, options=unknown_keys))
        if definition.check_options is not None:
            try:
                definition.check_options(options, self.tools, text)
            except ValueError as error:
                raise RequestError("bad_request", str(error)) from error

    async def resume(self, thread_id: str, answer: Any = None) -> str:
        thread = await self.thread_or_404(thread_id)
        with self._reservation(thread_id) as run:
            status = ThreadStatus(thread["status"])
            if status not in RESUMABLE_STATUSES:
                raise RequestError(
                    "conflict",
                    t("runtime.not_resumable", thread=thread_id, status=t(f"runtime.status_{status.value}")),
                )
            if not thread["resumable"]:
                raise RequestError("conflict", t("runtime.resume_would_fail", thread=thread_id))
            pending = thread["pending_interrupt"]
            if pending:
                if answer is None:
                    raise RequestError("bad_request", t("runtime.answer_needed"))
                _check_answer(pending["kind"], answer)
                continuation: Any = ResumeWith(answer)
                said = UserSaid(answer_text(answer, (pending.get("payload") or {}).get("questions")), {"interruptId": pending["interruptId"], "answer": answer})
            else:
                continuation, said = None, None  # continue from the last checkpoint
            await self._launch(thread_id, run, thread["flow"], continuation, thread["options"], thread=thread, said=said)
        return run.run_id

    async def cancel(self, thread_id: str) -> None:
        """Ask the running run to stop at its next step boundary; after the run ended: a conflict, nothing changes."""
        thread = await self.thread_or_404(thread_id)
        run = self.active.get(thread_id)
        if run is None and await threads.ask_runner_to_stop(self.store, thread):
            return  # another process runs it: it drains at its next heartbeat or look
        if run is None:
            raise RequestError("conflict", t("runtime.nothing_running", thread=thread_id))
        if run.control.drain_requested:
            raise RequestError("conflict", t("runtime.already_stopping", thread=thread_id))
        run.control.request_drain(CANCEL)

    async def wait(self, thread_id: str) -> None:
        """Until the thread's latest run has stored its last event (the thread is free a little earlier)."""
        run = self.latest.get(thread_id)
        if run is not None:
            await run.finished.wait()

    async def recover(self, *, take_over: bool = True) -> list[str]:
        """Threads left `running` by a dead process: resumable (one worker) or taken over (shared store).

        With a shared store only runs whose lease expired are touched (another worker's live run is
        left alone), and a background sweep keeps taking over expired leases while this worker lives.
        Without `take_over` (a CLI process) only this process's own leases are kept alive.

        With SQLite, a run of another live process on the same DATA_DIR (`ng ppt` beside `ng serve`)
        is left alone too; a server (`take_over`) keeps looking, so a run whose process is killed
        later becomes resumable without a restart.

        A server also passes on to its pages the runs other processes store (`_watch_runs_elsewhere`):
        always with SQLite, and with a shared store unless a Socket.IO manager (Redis) already carries them.
        """
        if self.store.shared:
            taken = await self.take_over_expired() if take_over else []
            self._lease_keeper = asyncio.create_task(self._keep_leases(take_over))
            if take_over and not self.settings.socketio_redis_url:
                # No manager: nothing but this process's own publishes reaches its pages, so the runs of
                # `ng ppt` (or of any other process) on this database are read from the log. With Redis,
                # every worker and `ng` itself (app/services.py) emit through it: reading too would send twice.
                self._runs_watcher = asyncio.create_task(self._watch_runs_elsewhere())
            return taken
        recovered = await self._mark_orphans_interrupted()
        self._cancel_watcher = asyncio.create_task(self._watch_cancel_requests())
        if take_over:
            self._lease_keeper = asyncio.create_task(self._watch_orphans())
            self._runs_watcher = asyncio.create_task(self._watch_runs_elsewhere())
        return recovered

    async def _mark_orphans_interrupted(self) -> list[str]:
        recovered = []
        for thread in await self.store.threads_with_status(ThreadStatus.running):
            thread_id = thread["thread_id"]
            if thread_id in self.active or process_alive(thread.get("runner")):
                continue
            if not await self.store.interrupt_orphan(thread_id, thread.get("runner")):
                continue
            await self.events.publish(
                thread_id, "recovery", "status", {"status": ThreadStatus.interrupted.value, "message": t("runtime.server_restarted")}
            )
            recovered.append(thread_id)
        return recovered

    def _start_following(self, thread_id: str) -> None:
        task = asyncio.create_task(self._follow(thread_id))
        self._followers.add(task)
        task.add_done_callback(self._followers.discard)

    async def _follow(self, thread_id: str) -> None:
        try:
            while not self.closing:
                await asyncio.sleep(FOLLOW_LOOK_S)
                # The row first: the run's last events are stored with the row that ends it, so the read after
                # this one holds them all.
                thread = await self.store.get_thread(thread_id)
                await self.events.pass_on_stored(thread_id)
                if thread is None or thread["status"] != ThreadStatus.running.value or thread_id in self.active:
                    return
        except Exception:  # a client that reloads joins again and gets the rest from the log
            log.exception("following thread %s run by another process failed", thread_id)
        finally:
            self.events.stop_passing_on(thread_id)

    async def _watch_runs_elsewhere(self) -> None:
        """A server on SQLite, or on Postgres without Redis: a thread a page joined or started may be run by
        another process (`ng ppt` beside `ng serve`, `ng resume` in a terminal); when its log grows past what the
        page has seen, pass it on and follow the run while it lasts (with Redis, the Socket.IO manager carries
        every process's events instead, see recover). A look a second, only while a page here has a thread open;
        a run shorter than that is passed on whole when it is seen."""
        while not self.closing:
            await asyncio.sleep(2 * FOLLOW_LOOK_S)
            watched = {tid: seq for tid, seq in self.events.subscribed_threads().items() if tid not in self.active}
            if not watched:
                continue
            try:
                stored = await self.store.last_seqs(list(watched))
                for thread_id, last_seq in stored.items():
                    if last_seq > watched[thread_id] and thread_id not in self.active \
                            and await self.events.pass_on_from_delivered(thread_id):
                        self._start_following(thread_id)
            except Exception:  # the next look tries again
                log.exception("looking for runs of other processes failed")

    async def _watch_cancel_requests(self) -> None:
        """SQLite: stop this process's runs that another process asked to cancel (`ng cancel`, or a page on
        `ng serve` stopping a run `ng` started). A look a second, and only while something runs here."""
        while not self.closing:
            await asyncio.sleep(CANCEL_LOOK_S)
            running = [tid for tid, run in self.active.items() if run.task is not None and not run.task.done()]
            if not running:
                continue
            try:
                asked = await self.store.cancel_requests(running)
            except Exception:  # the next look tries again
                log.exception("looking for cancel requests failed")
                continue
            for thread_id in asked:
                run = self.active.get(thread_id)
                if run is not None and not run.control.drain_requested:
                    run.control.request_drain(CANCEL)

    async def _watch_orphans(self) -> None:
        while not self.closing:
            await asyncio.sleep(self.settings.run_lease_s)
            try:
                recovered = await self._mark_orphans_interrupted()
            except Exception:  # the next look tries again
                log.exception("looking for runs of stopped processes failed")
                continue
            if recovered:
                log.warning("marked %d thread(s) of a stopped process resumable: %s", len(recovered), ", ".join(recovered))

    async def take_over_expired(self) -> list[str]:
        """Continue, from their last checkpoint, the runs whose worker stopped renewing their lease."""
        taken = []
        for thread_id in await self.store.expired_runs():
            if self.closing or thread_id in self.active:
                continue
            thread = await self.store.get_thread(thread_id)
            if thread is None:
                continue
            run = ActiveRun(run_id=uuid.uuid4().hex)
            self.active[thread_id] = self.latest[thread_id] = run
            try:
                if not await self.store.claim_run(thread_id, self.worker_id, self.settings.run_lease_s):
                    self._release(thread_id, run)  # another worker was quicker
                    continue
                log.warning("worker %s takes over thread %s (lease expired)", self.worker_id, thread_id)
                await self._launch(thread_id, run, thread["flow"], None, thread["options"], thread=thread, claimed=True)
            except BaseException:
                if run.task is None:
                    self._release(thread_id, run)
                    run.finished.set()
                raise
            taken.append(thread_id)
        return taken

    async def _keep_leases(self, take_over: bool) -> None:
        """Heartbeat: renew this worker's leases, then sweep for expired ones, every third of a lease."""
        period = self.settings.run_lease_s / 3
        while not self.closing:
            await asyncio.sleep(period)
            try:
                running = [tid for tid, run in self.active.items() if run.task is not None and not run.task.done()]
                held = await self.store.renew_leases(self.worker_id, running, self.settings.run_lease_s)
                for thread_id in running:
                    run = self.active.get(thread_id)
                    if run is None or run.task is None:
                        continue
                    if thread_id not in held:
                        # This worker stalled past its lease and another took the run over: stop
                        # writing to it (the new holder continues from the last checkpoint).
                        log.warning("worker %s lost the lease of thread %s", self.worker_id, thread_id)
                        run.task.cancel()
                    elif held[thread_id] and not run.control.drain_requested:
                        run.control.request_drain(CANCEL)
                if take_over:
                    await self.take_over_expired()
            except Exception:  # the database may be briefly away: the next beat tries again
                log.exception("lease heartbeat of worker %s failed", self.worker_id)

    async def shutdown(self, grace_s: float = 1.0) -> None:
        """Refuse new runs, drain running ones at a step boundary (resumable), cancel what outlasts `grace_s`."""
        self.closing = True
        for keeper in (self._lease_keeper, self._cancel_watcher, self._runs_watcher, *self._followers):
            if keeper is not None:
                keeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await keeper
        runs = [run for run in self.latest.values() if run.task is not None and not run.task.done()]
        for run in runs:
            if not run.control.drain_requested:
                run.control.request_drain(SHUTDOWN)
        tasks = [run.task for run in runs if run.task is not None]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=grace_s)
            for task in late:
                task.cancel()  # a long node: the thread stays `running`, start-up recovery makes it resumable
            for task in late:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # ---------------------------------------------------------------- internals

    def _refuse_when_closing(self) -> None:
        if self.closing:
            raise RequestError("conflict", t("runtime.closing"))

    @contextlib.contextmanager
    def _reservation(self, thread_id: str):
        """Claim the thread for one run, with no await between check and claim; give it back on any error."""
        self._refuse_when_closing()
        if thread_id in self.active:
            raise RequestError("conflict", t("runtime.already_running", thread=thread_id))
        run = ActiveRun(run_id=uuid.uuid4().hex)
        self.active[thread_id] = self.latest[thread_id] = run
        try:
            yield run
        except BaseException:
            if run.task is None:
                self._release(thread_id, run)
                run.finished.set()
            raise

    async def _continuation_for(self, definition: FlowDefinition, thread_id: str, text: str, options: dict[str, Any]):
        graph = self.graphs[definition.name]
        snapshot = await graph.aget_state(self.graph_config(thread_id))
        pending = _pending_interrupt(snapshot)
        view = ThreadView(values=snapshot.values or {}, pending_interrupt=pending, finished=not snapshot.next)
        if definition.continue_thread is not None:
            return await definition.continue_thread(view, text, options, self.llm)
        if pending is not None:
            return ResumeWith(text)
        return StartFresh(definition.initial_input(text, options))

    async def _launch(
        self,
        thread_id: str,
        run: ActiveRun,
        flow: str,
        continuation: Any,
        options: dict[str, Any],
        *,
        said: str | UserSaid | None = None,
        thread: Mapping[str, Any] | None = None,
        new_row: dict[str, Any] | None = None,
        claimed: bool = False,
    ) -> None:
        """Mark the thread running and start the run's task: the thread's row, the user's message (`said`)
        and the `running` status go in one transaction. `new_row` (flow, title, options, owner) creates
        the row; otherwise `thread` is the row as read."""
        start: dict[str, Any] | None = None
        if isinstance(continuation, StartFresh):
            # Kept with the thread: a run killed before its first checkpoint starts again from it.
            start = {"id": run.run_id, "input": continuation.input}
        if self.store.shared and not claimed:
            # The claim is the database's: two workers asked to run one thread, one wins.
            if not await self.store.claim_run(thread_id, self.worker_id, self.settings.run_lease_s):
                raise RequestError("conflict", t("runtime.already_running", thread=thread_id))
        # A resume, or an answer to an interrupt, goes on with the stopped run: the final artifact one
        # of its nodes made before the stop is this run's too. Any other start makes its own.
        goes_on = continuation is None or isinstance(continuation, ResumeWith)
        if goes_on and thread is not None:
            run.final_artifact_id = thread.get("final_artifact_id")
        if new_row is not None:
            row = thread_insert(thread_id, **new_row, status=ThreadStatus.running, start_input=start, runner=this_process())
        else:
            # A message may change the thread's options; a resume keeps them.
            row = thread_update(
                thread_id, status=ThreadStatus.running, pending_interrupt=None, start_input=start, resumable=True,
                options=options if isinstance(said, str) else None, final_artifact_id=False if goes_on else None,
                runner=this_process(),
            )
        events = []
        if isinstance(said, UserSaid):  # an answer: kept with the question it answers (a reload shows it there)
            events.append(EventWrite("user:message", {"content": said.content, **said.fields}))
        elif said is not None:
            events.append(EventWrite("user:message", {"content": said}))
        events.append(EventWrite("status", {"status": ThreadStatus.running.value}))
        await self.events.publish_many(thread_id, run.run_id, events, row=row)
        start_id = (start or (thread or {}).get("start_input") or {}).get("id")
        run.task = asyncio.create_task(self._execute(thread_id, run, flow, continuation, options, start_id))
        run.task.add_done_callback(lambda _task: run.finished.set())

    async def _graph_input(self, graph: Any, config: dict[str, Any], continuation: Any) -> tuple[Any, dict[str, Any]]:
        if continuation is None:
            return await self._restart_input(graph, config), config
        if isinstance(continuation, StartFresh):
            return continuation.input, config
        if isinstance(continuation, ResumeWith):
            # Address the answer to the pending interrupt by id: a bare dict would be read by
            # LangGraph as a map of interrupt ids (an empty one resumes nothing).
            pending = _pending_interrupt(await graph.aget_state(config))
            if pending is None:
                return Command(resume=continuation.answer), config
            return Command(resume={pending["interruptId"]: continuation.answer}), config
        if isinstance(continuation, ForkBefore):
            async for snapshot in graph.aget_state_history(config):
                if snapshot.next == (continuation.node,):
                    # The fork's checkpoints carry the run's metadata too (see _restart_input).
                    at = {**snapshot.config, "metadata": config.get("metadata", {})}
                    forked = await graph.aupdate_state(at, continuation.update, as_node=continuation.as_node)
                    return None, {**config, "configurable": forked["configurable"]}
            raise RequestError("conflict", t("runtime.never_reached"))
        raise TypeError(f"unknown continuation {continuation!r}")

    async def _restart_input(self, graph: Any, config: dict[str, Any]) -> Any:
        """None (continue from the last checkpoint), or the stored input when the start never checkpointed."""
        thread = await self.store.get_thread(config["configurable"]["thread_id"])
        start = (thread or {}).get("start_input")
        if not start:
            return None
        snapshot = await graph.aget_state(config)
        if snapshot.metadata is None:
            return start["input"]  # no checkpoint at all
        latest_start = snapshot.metadata.get(START_ID_KEY)
        if latest_start is not None and latest_start != start["id"]:
            return start["input"]  # the checkpoints are an earlier start's: this one never checkpointed
        return None

    def _run_config(self, thread_id: str, start_id: str | None) -> dict[str, Any]:
        config = self.graph_config(thread_id)
        if start_id:
            config["metadata"] = {START_ID_KEY: start_id}
        return config

    async def _execute(
        self, thread_id: str, run: ActiveRun, flow: str, continuation: Any, options: dict[str, Any], start_id: str | None
    ) -> None:
        graph = self.graphs[flow]
        barrier = StoredEvents()
        try:
            # A fresh start makes new checkpoints, hence new task ids: no earlier attempt can be one of its tasks'.
            failed_attempts = {} if isinstance(continuation, StartFresh) else await self.store.failed_attempts(thread_id)
            context = FlowContext(
                llm=self.llm, options=options, tools=self.tools, settings=self.settings, flush=barrier.flush,
                failed_attempts=failed_attempts, thread_running=self.active.__contains__,
            )
            graph_input, config = await self._graph_input(graph, self._run_config(thread_id, start_id), continuation)
            stream = graph.astream(
                graph_input,
                config,
                context=context,
                # "updates" only to see an interrupt go by: a run that saw none reads no state at its end.
                stream_mode=["custom", "updates"],
                subgraphs=True,
                durability="sync",
                control=run.control,
            )
            writer = EventWriter(
                lambda chunks: self._forward(thread_id, run, chunks, barrier, context), barrier
            )
            interrupted = False
            try:
                try:
                    async with contextlib.aclosing(stream):
                        async for _namespace, mode, chunk in stream:
                            if mode == "custom":
                                if isinstance(chunk, dict) and isinstance(chunk.get(EVENTS_KEY), list):
                                    writer.put_many(chunk[EVENTS_KEY])
                            elif isinstance(chunk, dict) and INTERRUPT_KEY in chunk:
                                interrupted = True
                except asyncio.CancelledError:
                    writer.cancel()  # shutdown or a lost lease: stop writing to this thread
                    raise
                except BaseException:
                    await writer.close()  # the failed node's events first, then its outcome
                    raise
                await writer.close()
            except GraphDrained as drained:
                if drained.reason == CANCEL:
                    await self._finish(thread_id, run, ThreadStatus.cancelled, error=t("runtime.cancelled"))
                else:
                    await self._finish(thread_id, run, ThreadStatus.interrupted, error=t("runtime.server_stopping"))
                return
            pending = _pending_interrupt(await graph.aget_state(self.graph_config(thread_id))) if interrupted else None
            if pending is not None:
                # Free the thread once this is stored, before clients hear it: one may answer at once.
                await self.events.publish_many(
                    thread_id, run.run_id,
                    [EventWrite("interrupt", pending), EventWrite("status", {"status": ThreadStatus.interrupted.value})],
                    row=thread_update(thread_id, status=ThreadStatus.interrupted, pending_interrupt=pending),
                    on_stored=lambda: self._release(thread_id, run),
                )
                return
            # A stop that came during the last step found no step boundary left: the run finished, and says so.
            stop_came_late = run.control.drain_reason == CANCEL
            await self._finish(thread_id, run, ThreadStatus.done,
                               message=t("runtime.finished_before_stop") if stop_came_late else None)
        except asyncio.CancelledError:
            # Server shutdown: the thread stays `running` and start-up recovery makes it resumable.
            self._release(thread_id, run)
            raise
        except RequestError as error:
            await self._finish(thread_id, run, ThreadStatus.failed, error=error.message)
        except Exception as error:
            sentence = getattr(error, "user_message", None)
            if sentence:
                # A failure the code foresaw and put in words (model unreachable, deck unrenderable):
                # one line; the traceback only when debugging.
                log.warning("run %s of thread %s failed: %s", run.run_id, thread_id, error,
                            exc_info=log.isEnabledFor(logging.DEBUG))
            else:
                log.exception("run %s of thread %s failed", run.run_id, thread_id)
            # An error whose class says `resumable = False` would fail the same way on resume.
            resumable = getattr(error, "resumable", True) is not False
            await self._finish(thread_id, run, ThreadStatus.failed, error=sentence or t("runtime.run_failed"),
                               resumable=resumable)

    async def _forward(
        self, thread_id: str, run: ActiveRun, chunks: list[dict[str, Any]], barrier: StoredEvents, context: FlowContext
    ) -> None:
        """Store a batch of the run's custom chunks (artifacts with their events) in one transaction, then open the barrier."""
        items: list[EventWrite] = []
        metas: list[dict[str, Any]] = []
        row = None
        for chunk in chunks:
            event, data, meta = chunk[CUSTOM_EVENT_KEY], dict(chunk.get("data") or {}), chunk.get("meta") or {}
            artifact = None
            if event == "tool:artifact":
                artifact = ArtifactWrite(
                    data["artifact"],
                    origin=meta.get("origin") or f"{run.run_id}/{data['artifact']['id']}",
                    file=meta.get("file"),
                    file_name=meta.get("fileName"),
                )
                if meta.get("final"):
                    # Also when a task re-run after a crash finds its first outcome stored (which stands).
                    run.final_artifact_id = data["artifact"]["id"]
                    row = thread_update(thread_id, final_artifact_id=run.final_artifact_id)
            items.append(EventWrite(event, data, meta.get("key"), artifact))
            metas.append(meta)
        published = await self.events.publish_many(thread_id, run.run_id, items, row=row)
        for item, meta, payload in zip(items, metas, published):
            if item.key and payload is not None and item.event == "tool:update" and item.fields.get("status") == "failed":
                # The task's next attempt (a retry) writes events of its own.
                task_id = meta["stream"].rsplit("/", 1)[0]
                context.failed_attempts[task_id] = context.failed_attempts.get(task_id, 0) + 1
        stored: dict[str, int] = {}
        for meta in metas:
            if meta.get("key"):
                stored[meta["stream"]] = meta["ordinal"]  # a stream's ordinals grow: its last is its highest
        for stream, ordinal in stored.items():
            barrier.stored(stream, ordinal)

    async def _finish(
        self, thread_id: str, run: ActiveRun, status: ThreadStatus, *, error: str | None = None, resumable: bool = True,
        message: str | None = None,
    ) -> None:
        """The run's last events, status (with `message`, a note on how it ended) then completion (success only
        for `done`; `resumable` on a failure), stored with the thread's new status in one transaction."""
        completion: dict[str, Any] = {"success": status == ThreadStatus.done}
        if run.final_artifact_id and status == ThreadStatus.done:
            completion["finalArtifactId"] = run.final_artifact_id
        if error:
            completion["error"] = error
        if status in RESUMABLE_STATUSES:
            completion["resumable"] = resumable
        try:
            await self.events.publish_many(
                thread_id, run.run_id,
                [EventWrite("status", {"status": status.value, **({"message": message} if message else {})}),
                 EventWrite("completion", completion)],
                row=thread_update(thread_id, status=status, pending_interrupt=None, resumable=resumable),
                # Free the thread before clients hear of the end: one may send its next message on completion.
                on_stored=lambda: self._release(thread_id, run),
            )
        finally:
            self._release(thread_id, run)

    def _release(self, thread_id: str, run: ActiveRun) -> None:
        """Free the thread for its next run; `run.finished` is set when the run's task has ended."""
        if self.active.get(thread_id) is run:
            del self.active[thread_id]


def _resumable(thread: Mapping[str, Any]) -> bool:
    """`run:resume` would continue it: a resumable status, and no failure a resume would repeat."""
    return ThreadStatus(thread["status"]) in RESUMABLE_STATUSES and thread["resumable"]


def thread_summary(thread: Mapping[str, Any]) -> ThreadSummary:
    return ThreadSummary(
        threadId=thread["thread_id"], flow=thread["flow"], title=thread["title"], status=thread["status"],
        updatedAt=thread["updated_at"], resumable=_resumable(thread),
        waiting=ThreadStatus(thread["status"]) == ThreadStatus.interrupted and bool(thread.get("pending_interrupt")),
    )


def _pending_interrupt(snapshot: Any) -> dict[str, Any] | None:
    interrupts = getattr(snapshot, "interrupts", ()) or ()
    if not interrupts:
        return None
    first = interrupts[0]
    value = first.value if isinstance(first.value, dict) else {"kind": "confirmation", "payload": {"prompt": str(first.value)}}
    return InterruptEvent(
        interruptId=first.id, kind=value.get("kind", "confirmation"), payload=value.get("payload", {})
    ).model_dump(mode="json")


@dataclass(frozen=True)
class UserSaid:
    """A `user:message` that answers an interrupt: its text, plus the fields naming what it answers."""

    content: str
    fields: dict[str, Any]


def answer_text(answer: Any, questions: Any = ()) -> str:
    """An interrupt's answer as the user's words in the conversation. Answers typed beside "use defaults"
    read as what was typed, then what became of the rest: their defaults, or skipped where there are none."""
    if isinstance(answer, bool):
        return t("runtime.answer_yes" if answer else "runtime.answer_no")
    # Questions without defaults (a draft's missing facts) left to "use defaults" are skipped, and say so.
    has_defaults = any(isinstance(q, dict) and q.get("default") for q in questions or ())
    typed = [str(value) for value in answer.values() if value != USE_DEFAULTS] if isinstance(answer, dict) else []
    if answer == USE_DEFAULTS or (isinstance(answer, dict) and not typed):
        return t("runtime.answer_defaults" if has_defaults else "runtime.answer_all_skipped")
    if isinstance(answer, dict):
        if len(typed) == len(answer):
            return join_clauses(typed)
        return join_clauses([*typed, t("runtime.answer_rest_defaults" if has_defaults else "runtime.answer_rest_skipped")])
    return str(answer)


def _check_answer(kind: str, answer: Any) -> None:
    if kind == "confirmation" and not isinstance(answer, bool):
        raise RequestError("bad_request", t("runtime.yes_no_needed"))
    if kind == "clarification":
        valid_mapping = isinstance(answer, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in answer.items()
        )
        if not (valid_mapping or isinstance(answer, str)):
            raise RequestError(
                "bad_request", t("runtime.answers_shape")
            )
