"""The one composition root: store, event log, checkpointer, model and tools → a FlowRuntime.

Used by the server (fan-out to Socket.IO rooms) and by the CLI (fan-out to the terminal).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from app.checkpoints import open_checkpointer
from app.eventlog import EventLog, Fanout
from app.flows import load_flows
from core.llm.factory import make_llm
from app.runtime import FlowRuntime
from core.settings import Settings
from app.store import Store
from core.i18n import set_locale
from core.novel.memory import close_memory
from core.tools.web_search import tools_from_settings

log = logging.getLogger(__name__)


@asynccontextmanager
async def open_runtime(settings: Settings, fanouts: Iterable[Fanout] = ()) -> AsyncIterator[FlowRuntime]:
    set_locale(settings.locale)
    store = await Store(settings.store_path, settings.files_dir).open()
    try:
        events = EventLog(store)
        for fanout in fanouts:
            events.add_fanout(fanout)
        async with open_checkpointer(settings) as checkpointer:
            runtime = FlowRuntime(
                settings=settings,
                store=store,
                events=events,
                flows=load_flows(),
                checkpointer=checkpointer,
                llm=make_llm(settings),
                tools=tools_from_settings(settings),
            )
            recovered = await runtime.recover()
            if recovered:
                log.warning("marked %d interrupted thread(s) resumable: %s", len(recovered), ", ".join(recovered))
            try:
                yield runtime
            finally:
                await runtime.shutdown()
                close_memory()  # Qdrant local mode: the one client per path this process opened
                close_llm = getattr(runtime.llm, "aclose", None)
                if close_llm is not None:
                    await close_llm()
    finally:
        await store.close()
