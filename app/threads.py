"""Renaming and deleting threads: one set of rules for the socket, HTTP and `ng threads`.

A delete removes what the thread is made of in both places it lives: the store (thread row, event
log, artifact rows and files) and LangGraph's checkpointer (every checkpoint and pending write).
"""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from app.auth import owned_thread
from app.errors import RequestError
from app.limits import clean_title
from app.store import Store
from core.processes import process_alive
from core.i18n import t
from schemas.events import ThreadStatus


async def rename_thread(store: Store, thread_id: str, title: str, owner: str | None) -> dict[str, Any]:
    """The thread row with its new title; `owner=None` is the operator (`ng threads`), who may rename any."""
    cleaned = clean_title(title)
    thread = await owned_thread(store, thread_id, owner)
    await store.rename_thread(thread_id, cleaned, chosen=True)
    return {**thread, "title": cleaned, "title_chosen": True}


async def ask_runner_to_stop(store: Store, thread: dict[str, Any]) -> bool:
    """Ask the live process (or, with a shared store, worker) running the thread to cancel it at its
    next step boundary; False when none runs it."""
    if thread["status"] != ThreadStatus.running.value:
        return False
    if not (store.shared or process_alive(thread.get("runner"))):
        return False  # its process is gone: start-up recovery makes it resumable
    return await store.request_cancel(thread["thread_id"])


def refuse_running(thread: dict[str, Any]) -> None:
    if thread["status"] == ThreadStatus.running.value:
        raise RequestError("conflict", t("runtime.delete_running", title=thread["title"]))


async def remove_thread(store: Store, checkpointer: BaseCheckpointSaver, thread_id: str) -> None:
    # The store first: once its rows are gone no client sees the thread, even if the checkpoints outlive a crash.
    await store.delete_thread(thread_id)
    await checkpointer.adelete_thread(thread_id)


async def delete_thread(
    store: Store, checkpointer: BaseCheckpointSaver, thread_id: str, owner: str | None
) -> dict[str, Any]:
    """Delete a thread no run holds; returns its row as it was."""
    thread = await owned_thread(store, thread_id, owner)
    refuse_running(thread)
    await remove_thread(store, checkpointer, thread_id)
    return thread
