"""The SQLite store's write path: appends on the event loop's thread that never stall it."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest

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


@pytest.fixture
async def small_wal(tmp_path, monkeypatch):
    """A store whose WAL keeper checks every 20 ms against a 64 KB limit, with thread "t"; and its WAL file."""
    monkeypatch.setattr(store_module, "WAL_CHECKPOINT_BYTES", 64 * 1024)
    monkeypatch.setattr(store_module, "WAL_CHECK_INTERVAL_S", 0.02)
    store = await Store(tmp_path / "s.sqlite", tmp_path / "files").open()
    try:
        await store.create_thread("t", "ppt", "title", {})
        yield store, tmp_path / "s.sqlite-wal"
    finally:
        await store.close()


async def test_the_write_ahead_log_stays_bounded_while_events_keep_coming(small_wal):
    store, wal = small_wal
    text = "x" * 2000
    sizes = []
    for _batch in range(250):  # ~5 MB of events, 80 times the bound
        await store.append_events("t", "r", [EventWrite("log", {"message": text})] * 10)
        sizes.append(wal.stat().st_size)
        await asyncio.sleep(0.005)
    # How far it grows between checkpoints depends on how long the disk takes to sync; that it
    # starts over while writes go on, and is back at its limit once they pause, does not.
    assert any(after < before for before, after in zip(sizes, sizes[1:])), sizes
    written = 2500
    for _tick in range(100):  # within 10 s of the writes pausing, on however slow a disk
        await asyncio.sleep(0.1)
        await store.append_events("t", "r", [EventWrite("log", {"message": "after the pause"})])
        written += 1
        if wal.stat().st_size <= 4 * 64 * 1024:
            break
    assert wal.stat().st_size <= 4 * 64 * 1024
    assert len(await store.events_after("t")) == written


async def test_once_writes_pause_the_write_ahead_log_is_emptied_off_the_loop(small_wal):
    # Cutting the file inside the next commit, on the loop, took 20-30 ms every few seconds of a run.
    store, wal = small_wal
    for _batch in range(20):
        await store.append_events("t", "r", [EventWrite("log", {"message": "x" * 2000})] * 10)
    assert wal.stat().st_size > 64 * 1024
    for _tick in range(100):
        await asyncio.sleep(0.1)
        if wal.stat().st_size == 0:
            break
    assert wal.stat().st_size == 0
    await store.append_events("t", "r", [EventWrite("log", {"message": "after"})])
    assert len(await store.events_after("t")) == 201


async def test_after_a_commit_stalls_on_a_slow_disk_the_next_ones_leave_the_loop_free(tmp_path, monkeypatch):
    store = await Store(tmp_path / "s.sqlite", tmp_path / "files").open()
    original = Store._insert_appends
    threads_used = []

    def slow_disk(self, conn, appends):
        threads_used.append(threading.current_thread() is threading.main_thread())
        time.sleep(0.2)  # a write blocked behind another file's fsync (long enough to tick on a busy machine)
        return original(self, conn, appends)

    try:
        await store.create_thread("t", "ppt", "title", {})
        monkeypatch.setattr(Store, "_insert_appends", slow_disk)
        await store.append_events("t", "r", [EventWrite("log", {"message": "a"})])
        ticks = 0

        async def tick():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                ticks += 1

        ticker = asyncio.create_task(tick())
        await store.append_events("t", "r", [EventWrite("log", {"message": "b"})])
        ticker.cancel()
        assert threads_used == [True, False], "the first commit ran on the loop's thread, the next off it"
        assert ticks >= 3, "the loop kept running during the second, slow commit"
        assert [p["message"] for _e, p in await store.events_after("t")] == ["a", "b"]
    finally:
        await store.close()
