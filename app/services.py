"""The one composition root: store, event log, checkpointer, model and tools → a FlowRuntime.

Used by the server (fan-out to Socket.IO rooms) and by the CLI (fan-out to the terminal).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Iterable
from typing import Any
from contextlib import asynccontextmanager

from app.checkpoints import open_checkpointer
from app.errors import ConfigError
from app.eventlog import EventLog, Fanout
from app.flows import load_flows
from core.llm.base import LLM
from core.llm.factory import make_llm
from app.runtime import FlowRuntime
from core.settings import Settings
from app.store import open_store
from core.i18n import set_locale, t
from core.novel.memory import close_memory
from core.tools.web_search import tools_from_settings

log = logging.getLogger(__name__)


@asynccontextmanager
async def open_runtime(
    settings: Settings, fanouts: Iterable[Fanout] = (), *, llm: LLM | None = None, local_user: bool = False
) -> AsyncIterator[FlowRuntime]:
    """The runtime every entry point uses (server, `ng ppt`, `ng plan`, `ng resume`).

    `llm` replaces the configured model; `local_user` (every `ng` command but `serve`) lifts the REPO_ROOTS gate,
    which guards a server from its remote clients, not a person from their own files, and makes the runtime a
    terminal's: it never takes over a server's runs, leases under a name of its own, and on the servers' Postgres
    with Redis emits its runs to their pages.
    """
    set_locale(settings.locale)
    store = await open_store(settings).open()
    pages: PagesOfServers | None = None
    try:
        events = EventLog(store)
        for fanout in fanouts:
            events.add_fanout(fanout)
        if local_user and store.shared and settings.socketio_redis_url:
            # `ng ppt` on the servers' database: its run reaches their pages the way a worker's does, through the
            # Socket.IO manager they listen to (servers with one do not read other processes' runs from the log).
            pages = PagesOfServers(settings.socketio_redis_url)
            events.add_fanout(pages.fanout)
        tools = tools_from_settings(settings)
        if local_user:
            tools.pop("repo_access", None)
        try:
            llm = llm if llm is not None else make_llm(settings)
        except ValueError as error:  # a setting that is missing or wrong; the sentence names it (LLM_BASE_URL)
            raise ConfigError(str(error)) from None
        async with open_checkpointer(settings) as checkpointer:
            runtime = FlowRuntime(
                settings=settings,
                store=store,
                events=events,
                flows=load_flows(),
                checkpointer=checkpointer,
                llm=llm,
                tools=tools,
                # A lease renews and re-claims by name: `ng` beside a worker with the same WORKER_ID in its
                # environment (`docker compose exec worker1 ng …`) must not pass for that worker.
                worker_id=f"ng-{settings.worker_id or socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
                if local_user else None,
            )
            recovered = await runtime.recover(take_over=not local_user)  # a CLI process never runs a server's threads
            if recovered:
                # The server's operator reads this; in the terminal `ng threads` shows it, in the user's language.
                (log.info if local_user else log.warning)("marked %d interrupted thread(s) resumable: %s", len(recovered), ", ".join(recovered))
            try:
                yield runtime
            finally:
                await runtime.shutdown()
                close_memory()  # Qdrant local mode: the one client per path this process opened
                close_llm = getattr(runtime.llm, "aclose", None)
                if close_llm is not None:
                    await close_llm()
    finally:
        if pages is not None:
            await pages.close()
        await store.close()


class PagesOfServers:
    """A terminal's fan-out to the pages of the `ng serve` workers that share a Redis manager: each stored event is
    emitted to the thread's room as a worker emits it (python-socketio's write-only manager, no server here)."""

    def __init__(self, redis_url: str) -> None:
        import socketio

        self._url = redis_url
        # Quiet: the manager logs two errors per event while Redis is away; the terminal is told once (fanout).
        quiet = logging.getLogger(f"{__name__}.pages")
        quiet.setLevel(logging.CRITICAL)
        self._manager = socketio.AsyncRedisManager(redis_url, write_only=True, logger=quiet)
        self._reachable: bool | None = None

    async def fanout(self, thread_id: str, events: list[tuple[str, dict[str, Any]]]) -> None:
        if self._reachable is None:
            self._reachable = await self._ping()
            if not self._reachable:
                log.warning(t("cli.pages_unreachable"))
        if not self._reachable:
            return  # the run goes on; pages read it from the log when they reload
        for event, payload in events:
            await self._manager.emit(event, payload, room=thread_id, namespace="/")

    async def _ping(self) -> bool:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self._url, socket_connect_timeout=2, socket_timeout=2)
        try:
            return bool(await client.ping())
        except Exception:
            return False
        finally:
            await client.aclose()

    async def close(self) -> None:
        redis = getattr(self._manager, "redis", None)
        if redis is not None:
            await redis.aclose()
