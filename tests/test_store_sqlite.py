"""The SQLite store's write path: appends on the event loop's thread that never stall it."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import app.store as store_module
from app.store import EventWrite, Store


async def test_an_append_waits_off_the_loop_while_another_process_holds_the_write_lock(tmp_path):
    store = await Store(tmp_path / "s.sqlite", tmp_path / "files").open()
    try:
        await store.create_thread("t", "ppt", "title", {})
        other = sqlite3.connect(tmp_path / "s.sqlite", isolation_level=None)  # `ng` in another terminal
        other.execute("BEGIN IMMEDIATE")
        append = asyncio.create_task(store.append_events("t", "r", [EventWrite("log", {"message": "a"})]))
        ticks = 0
        started = time.monotonic()
        while time.monotonic() - started < 0.3:
            await asyncio.sleep(0.01)
            ticks += 1
        assert not append.done(), "the append waits for the lock"
        assert ticks >= 10, "the loop kept running meanwhile"
        other.execute("COMMIT")
        other.close()
        [payload] = await asyncio.wait_for(append, timeout=10)
        assert payload["seq"] == 1
        assert [p["message"] for _e, p in await store.events_after("t")] == ["a"]
    finally:
        await store.close()


async def test_the_write_ahead_log_stays_bounded_while_events_keep_coming(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "WAL_CHECKPOINT_BYTES", 64 * 1024)
    monkeypatch.setattr(store_module, "WAL_CHECK_INTERVAL_S", 0.02)
    store = await Store(tmp_path / "s.sqlite", tmp_path / "files").open()
    wal = tmp_path / "s.sqlite-wal"
    try:
        await store.create_thread("t", "ppt", "title", {})
        text = "x" * 2000
        for _batch in range(250):  # ~5 MB of events, 80 times the bound
            await store.append_events("t", "r", [EventWrite("log", {"message": text})] * 10)
            await asyncio.sleep(0.005)
        assert wal.stat().st_size < 2 * 1024 * 1024
        assert len(await store.events_after("t")) == 2500
    finally:
        await store.close()
