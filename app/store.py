"""SQLite storage for threads, the per-thread event log and versioned artifacts (one file in DATA_DIR).

Checkpoints live apart, in LangGraph's own checkpointer; this store holds what clients see.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import aiosqlite

from app import wire_json
from schemas.events import ThreadStatus

log = logging.getLogger(__name__)

# Owner of threads stored with none (before owners existed, or started by the in-process CLI).
LOCAL_OWNER = "local"

SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (
    thread_id TEXT PRIMARY KEY,
    flow TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    pending_interrupt TEXT,
    start_input TEXT,
    resumable INTEGER NOT NULL DEFAULT 1,
    title_chosen INTEGER NOT NULL DEFAULT 0,
    final_artifact_id TEXT,
    runner TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    last_seq INTEGER NOT NULL DEFAULT 0,
    owner TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    thread_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    event_key TEXT,
    PRIMARY KEY (thread_id, seq)
);
CREATE TABLE IF NOT EXISTS artifacts (
    id TEXT NOT NULL,
    version INTEGER NOT NULL,
    thread_id TEXT NOT NULL,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    show_in_canvas INTEGER NOT NULL,
    content TEXT NOT NULL,
    mime_type TEXT,
    file_path TEXT,
    file_name TEXT,
    origin TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE INDEX IF NOT EXISTS artifacts_by_thread ON artifacts(thread_id);
-- Earlier versions advanced last_seq by trigger, one UPDATE per event; append_events now does it once per batch.
DROP TRIGGER IF EXISTS events_advance_last_seq;
"""
# An event a graph node wrote carries a key (task id + ordinal within the task): a task re-run after
# a crash writes the same keys again and the store keeps the first of each.
EVENT_KEY_INDEX = (
    "CREATE UNIQUE INDEX IF NOT EXISTS events_by_key ON events(thread_id, event_key) WHERE event_key IS NOT NULL"
)
REPLAY_PAGE_SIZE = 500
KEY_LOOKUP_CHUNK = 500  # well under SQLite's bound on the parameters of one statement
# Threads appending within this window count as writing at once (see append_events).
CONCURRENT_WRITERS_WINDOW_S = 0.05
# SQLite checkpoints its WAL at 1000 pages (4 MB); the store does it at that size, off the event loop.
WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024
WAL_CHECK_INTERVAL_S = 1.0
# An inline commit slower than this (the disk is busy) sends the next ones to the worker thread for a while.
INLINE_STALL_S = 0.005
INLINE_PAUSE_S = 30.0
T = TypeVar("T")


class ArtifactWrite(NamedTuple):
    """An artifact saved in the same transaction as the `tool:artifact` event announcing it."""

    artifact: dict[str, Any]
    origin: str
    file: bytes | None = None
    file_name: str | None = None


class RowWrite(NamedTuple):
    """A statement on a thread's row, run in the same transaction as a batch of the thread's events
    (a run's start creates or updates the row with its first events, its end with its last)."""

    sql: str
    args: tuple[Any, ...]
    # The row leaves `running` (a run's last transaction): the thread stops counting as a writer.
    ends_run: bool = False


class EventWrite(NamedTuple):
    """One event to append: with `artifact`, the store numbers the artifact's version and sets it in
    `fields["artifact"]` (with its download url) before the event is stored."""

    event: str
    fields: dict[str, Any]
    key: str | None = None
    artifact: ArtifactWrite | None = None

# Columns added after the first release: older data directories get them on open.
# NULL owner means the local user.
ADDED_COLUMNS = {
    "events": {"event_key": "TEXT"},
    "threads": {"start_input": "TEXT", "owner": "TEXT", "resumable": "INTEGER NOT NULL DEFAULT 1",
                "final_artifact_id": "TEXT", "runner": "TEXT", "title_chosen": "INTEGER NOT NULL DEFAULT 0",
                "cancel_requested": "INTEGER NOT NULL DEFAULT 0"},
}


class _Append:
    """One append_events call waiting for its group commit."""

    __slots__ = ("thread_id", "run_id", "items", "row", "payloads", "future", "look_up_keys", "carries_file")

    def __init__(self, thread_id: str, run_id: str, items: list[EventWrite], row: RowWrite | None) -> None:
        self.thread_id, self.run_id, self.items, self.row = thread_id, run_id, items, row
        self.carries_file = any(item.artifact is not None and item.artifact.file is not None for item in items)
        # Keys are looked up before writing only once the unique index refused one (see _insert_rows).
        self.look_up_keys = False
        self.payloads: list[dict[str, Any] | None] = []
        self.future: asyncio.Future[list[dict[str, Any] | None]] = asyncio.get_running_loop().create_future()

    def settle(self, error: BaseException | None = None) -> None:
        if self.future.done():  # its caller was cancelled; the events are stored all the same
            return
        if error is None:
            self.future.set_result(self.payloads)
        else:
            self.future.set_exception(error)


class Store:
    # One process per DATA_DIR: no run leases, start-up recovery owns every `running` thread.
    shared = False

    def __init__(self, path: Path, files_dir: Path) -> None:
        self.path = path
        self.files_dir = files_dir
        self._db: aiosqlite.Connection | None = None
        # One writer at a time: seq and version numbers are read-then-written.
        self._write_lock = asyncio.Lock()
        # Each thread's last seq, read once from the database and then kept here (under _write_lock).
        self._last_seq: dict[str, int] = {}
        self._pending: list[_Append] = []  # appends waiting for the next group commit
        self._committer: asyncio.Task[None] | None = None
        # While one thread writes, its appends go on the event loop's own thread through this connection:
        # a small WAL commit costs less than the two hops to aiosqlite's worker (bench/orchestration_overhead).
        self._inline: sqlite3.Connection | None = None
        self._wal_keeper: asyncio.Task[None] | None = None
        self._recent_writers: dict[str, float] = {}  # thread id → when it last appended (monotonic)
        self._inline_paused_until = 0.0  # monotonic; see _write_appends
        self._copying_wal = False

    async def open(self) -> Store:
        try:
            return await self._open()
        except BaseException:
            # Ctrl-C (or a failure) halfway: let aiosqlite's worker finish its call and stop while the
            # loop still runs, or it reports to a closed loop in a thread traceback.
            await self.close()
            raise

    async def _open(self) -> Store:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.files_dir.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        # With WAL, NORMAL loses nothing when the process is killed (only on power loss), and spares
        # a disk sync per event (bench/: ~10-30% of a run's orchestration time, and the p99 stalls).
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.executescript(SCHEMA)
        for table, columns in ADDED_COLUMNS.items():
            async with self._db.execute(f"PRAGMA table_info({table})") as cur:
                present = {row["name"] for row in await cur.fetchall()}
            for name, kind in columns.items():
                if name not in present:
                    await self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        await self._db.execute(EVENT_KEY_INDEX)
        await self._db.commit()
        # timeout=0: a lock held by another process is not waited for on the loop (see _write_appends).
        # Used only on the loop, under _write_lock.
        self._inline = sqlite3.connect(self.path, timeout=0)
        self._inline.execute("PRAGMA synchronous=NORMAL")
        # SQLite's own checkpoint runs inside the commit that crosses 1000 pages: a disk sync and a copy
        # (~20 ms here), on the loop for an inline commit. _keep_wal_small runs it off the loop instead,
        # and, while one run writes, empties the file there too. Otherwise the write that starts the WAL
        # over cuts the file back to WAL_CHECKPOINT_BYTES, on whichever thread that write runs.
        for pragma in ("PRAGMA wal_autocheckpoint=0", f"PRAGMA journal_size_limit={WAL_CHECKPOINT_BYTES}"):
            self._inline.execute(pragma)
            await self._db.execute(pragma)
        self._wal_keeper = asyncio.create_task(self._keep_wal_small())
        return self

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.gather(self._committer, return_exceptions=True)  # what is pending gets written
        if self._wal_keeper is not None:
            self._wal_keeper.cancel()
            await asyncio.gather(self._wal_keeper, return_exceptions=True)
            self._wal_keeper = None
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        assert self._db is not None, "Store.open() was not awaited"
        return self._db

    async def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        return list(await self.db.execute_fetchall(sql, args))  # one trip, where execute + fetch + close are three

    async def _one(self, sql: str, args: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        """One statement and its COMMIT in one trip."""
        async with self._write_lock:
            await self._in_db_thread(_execute_and_commit, sql, args)

    # ------------------------------------------------------------------ threads

    async def create_thread(
        self, thread_id: str, flow: str, title: str, options: dict[str, Any], owner: str | None = None
    ) -> None:
        row = thread_insert(thread_id, flow, title, options, owner)
        await self._write(row.sql, row.args)

    async def get_thread(self, thread_id: str) -> dict[str, Any] | None:
        row = await self._one("SELECT * FROM threads WHERE thread_id = ?", (thread_id,))
        return _thread_row(row) if row else None

    async def last_seqs(self, thread_ids: list[str]) -> dict[str, int]:
        """The last stored seq of each of these threads (whichever process stored it); unknown ids are left out."""
        found: dict[str, int] = {}
        for start in range(0, len(thread_ids), 500):  # SQLite's bound on one statement's parameters
            chunk = thread_ids[start:start + 500]
            rows = await self._all(f"SELECT thread_id, last_seq FROM threads WHERE thread_id IN ({','.join('?' * len(chunk))})",
                                   tuple(chunk))
            found.update({row["thread_id"]: row["last_seq"] for row in rows})
        return found

    async def list_threads(self, limit: int = 200, owner: str | None = None) -> list[dict[str, Any]]:
        """Most recent first; with `owner`, only that owner's (NULL owner counts as `local_owner`)."""
        if owner is None:
            query, args = "SELECT * FROM threads ORDER BY updated_at DESC LIMIT ?", (limit,)
        else:
            query = "SELECT * FROM threads WHERE COALESCE(owner, ?) = ? ORDER BY updated_at DESC LIMIT ?"
            args = (LOCAL_OWNER, owner, limit)
        rows = await self._all(query, args)
        return [_thread_row(r) for r in rows]

    async def update_thread(self, thread_id: str, **changes: Any) -> None:
        """The changes `thread_update` takes, in a transaction of their own."""
        row = thread_update(thread_id, **changes)
        await self._write(row.sql, row.args)

    async def interrupt_orphan(self, thread_id: str, runner: str | None) -> bool:
        """Mark the thread interrupted if it is still `running` under `runner` (its process is gone);
        False when meanwhile it ended or another run took it."""
        async with self._write_lock:
            changed = await self._in_db_thread(
                _execute_and_commit,
                "UPDATE threads SET status = ?, pending_interrupt = NULL, updated_at = ?"
                " WHERE thread_id = ? AND status = ? AND runner IS ?",
                (ThreadStatus.interrupted.value, time.time(), thread_id, ThreadStatus.running.value, runner),
            )
        return bool(changed)

    async def request_cancel(self, thread_id: str) -> bool:
        """Ask the process running the thread (another one on this DATA_DIR) to cancel it: it looks every
        second (`Runtime.recover`). False when the thread is not running."""
        async with self._write_lock:
            changed = await self._in_db_thread(
                _execute_and_commit, "UPDATE threads SET cancel_requested = ? WHERE thread_id = ? AND status = ?",
                (True, thread_id, ThreadStatus.running.value),
            )
        return bool(changed)

    async def cancel_requests(self, thread_ids: list[str]) -> list[str]:
        """Those of the running `thread_ids` that another process asked to cancel."""
        if not thread_ids:
            return []
        marks = ",".join("?" * len(thread_ids))
        rows = await self._all(
            f"SELECT thread_id FROM threads WHERE cancel_requested AND status = ? AND thread_id IN ({marks})",
            (ThreadStatus.running.value, *thread_ids),
        )
        return [row["thread_id"] for row in rows]

    async def rename_thread(self, thread_id: str, title: str, *, chosen: bool = False) -> None:
        """`chosen`: a person named the thread, and the runtime never renames it after that (even when the name
        is the flow's placeholder); a title the runtime sets keeps the thread's mark as it was."""
        # The list is ordered by activity, and a rename is not activity: updated_at stays.
        if chosen:
            await self._write("UPDATE threads SET title = ?, title_chosen = ? WHERE thread_id = ?", (title, True, thread_id))
        else:
            await self._write("UPDATE threads SET title = ? WHERE thread_id = ?", (title, thread_id))

    async def delete_thread(self, thread_id: str) -> bool:
        """Remove the thread, its events and its artifacts (their files too); False when there was none."""
        async with self._write_lock:
            async with self.db.execute(
                "SELECT file_path FROM artifacts WHERE thread_id = ? AND file_path IS NOT NULL", (thread_id,)
            ) as cur:
                files = [row["file_path"] for row in await cur.fetchall()]
            # One transaction: a crash leaves the thread whole or gone, never half its log.
            await self.db.execute("DELETE FROM events WHERE thread_id = ?", (thread_id,))
            await self.db.execute("DELETE FROM artifacts WHERE thread_id = ?", (thread_id,))
            cursor = await self.db.execute("DELETE FROM threads WHERE thread_id = ?", (thread_id,))
            await self.db.commit()
            self._last_seq.pop(thread_id, None)
        await remove_files(files)
        return cursor.rowcount > 0

    async def threads_with_status(self, status: ThreadStatus) -> list[dict[str, Any]]:
        rows = await self._all("SELECT * FROM threads WHERE status = ?", (status.value,))
        return [_thread_row(r) for r in rows]

    # ------------------------------------------------------------------- events

    async def append_event(
        self, thread_id: str, run_id: str, event: str, fields: dict[str, Any], *, key: str | None = None
    ) -> dict[str, Any] | None:
        """Give the event the thread's next seq and store it; returns the wire payload.

        With a `key` already stored for this thread nothing is written and None is returned.
        """
        [payload] = await self.append_events(thread_id, run_id, [EventWrite(event, fields, key)])
        return payload

    async def append_events(
        self, thread_id: str, run_id: str, items: Sequence[EventWrite | tuple[Any, ...]], *, row: RowWrite | None = None
    ) -> list[dict[str, Any] | None]:
        """Store the events in order, in one transaction: their payloads, None for a key already stored.
        `row` (a thread_insert or thread_update) goes first in the same transaction.

        An artifact whose event key is stored already (a task re-run after a crash) keeps its first
        outcome: neither it nor its event is written again.

        While only this thread is writing, the transaction runs on the loop's own thread (no hop: the
        lowest latency for one run). Once several threads write at once it runs on the connection's
        thread instead, and group commit takes over: appends that arrive while a write is in flight
        (other threads' runs, a node's next events) wait for it and then go together, one transaction
        and one trip (artifact rows, INSERTs and COMMIT all run there), and the loop stays free.
        """
        if not items and row is None:
            return []
        append = _Append(thread_id, run_id, [item if type(item) is EventWrite else EventWrite(*item) for item in items], row)
        alone = self._only_writer(thread_id)
        try:
            if not self._pending and not self._write_lock.locked():
                # Nothing to group with: write it now (a free lock is taken without a pause), no hop to the committer.
                async with self._write_lock:
                    await self._insert_alone(append, inline=alone)
                return append.payloads
            self._pending.append(append)
            if self._committer is None or self._committer.done():
                self._committer = asyncio.create_task(self._commit_pending())
            return await append.future
        finally:
            if row is not None and row.ends_run:
                # The next run (another thread's, back to back) is then the only writer at once.
                self._recent_writers.pop(thread_id, None)

    async def _commit_pending(self) -> None:
        """The one task that writes appends: whatever is pending when it gets the write lock goes together."""
        while self._pending:
            async with self._write_lock:
                appends, self._pending = self._pending, []
                try:
                    await self._write_appends(appends)
                except Exception:
                    # Each alone now, so one bad append fails only its own caller.
                    for append in appends:
                        try:
                            await self._insert_alone(append)
                        except Exception as error:
                            append.settle(error=error)
                            continue
                        append.settle()
                    continue
                except BaseException as error:  # cancelled (the loop is closing): nobody waits in vain
                    for append in appends:
                        append.settle(error=error)
                    raise
            for append in appends:
                append.settle()

    async def _insert_alone(self, append: _Append, *, inline: bool = False) -> None:
        try:
            await self._write_appends([append], inline=inline)
        except sqlite3.IntegrityError:
            # A key stored already (a task re-run after a crash or an interrupt), or another process on
            # the same DATA_DIR (`ng resume` beside `ng serve`) wrote to this thread since its seq was
            # cached (the failed try dropped the cache): again, reading both first.
            append.look_up_keys = True
            await self._write_appends([append], inline=inline)

    def _only_writer(self, thread_id: str) -> bool:
        """Whether no other thread appended within the last CONCURRENT_WRITERS_WINDOW_S."""
        now = time.monotonic()
        recent = self._recent_writers
        recent[thread_id] = now
        if len(recent) > 1:
            for other, seen in list(recent.items()):
                if now - seen > CONCURRENT_WRITERS_WINDOW_S:
                    del recent[other]
        return len(recent) == 1

    async def _write_appends(self, appends: list[_Append], *, inline: bool = False) -> None:
        """One transaction: on the loop's thread when `inline` and it can be quick, else on the connection's.
        Held by _write_lock."""
        with_files = any(append.carries_file for append in appends)
        if inline and self._inline is not None and not with_files and self._inline_allowed():
            started = time.monotonic()
            try:
                self._insert_appends(self._inline, appends)
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
                # Another process (`ng` beside `ng serve`) is writing: wait for it off the loop.
            finally:
                if time.monotonic() - started > INLINE_STALL_S:
                    # The disk is slow (another fsync holds the filesystem's journal): a commit here
                    # would stall every client, so the next ones go off the loop for a while.
                    self._inline_paused_until = time.monotonic() + INLINE_PAUSE_S
        await self._in_db_thread(self._insert_appends, appends)

    def _inline_allowed(self) -> bool:
        return not self._copying_wal and time.monotonic() >= self._inline_paused_until

    async def _keep_wal_small(self) -> None:
        """Checkpoint the WAL once it has grown past SQLite's own threshold, on a thread of its own.

        Not on aiosqlite's worker, and at first holding no lock: appends go on meanwhile (a 4 MB copy
        takes ~30 ms, which group commits would otherwise wait out). Once every frame is copied while
        one run writes, it empties the file too, so the run's next commit starts the WAL over at no
        cost: cutting the file inside that commit took 20-30 ms of the loop here, every few seconds.
        """
        wal = self.path.with_name(self.path.name + "-wal")
        while True:
            await asyncio.sleep(WAL_CHECK_INTERVAL_S)
            try:
                # Past the limit only when what the WAL holds since it last started over is.
                if wal.exists() and wal.stat().st_size > WAL_CHECKPOINT_BYTES:
                    self._copying_wal = True  # its disk syncs would stall a commit on the loop meanwhile
                    try:
                        copied = await asyncio.to_thread(_copy_wal, self.path)
                        # While one run writes, its commits run on the loop, where the write that cuts
                        # the file would stall every client: empty it here instead. With many writers
                        # the commits run on the worker, and emptying it (the file then grows again)
                        # cost p99 at 50 runs 15-27 ms against 11 (bench/hook_latency).
                        empty = len(self._recent_writers) <= 1
                        if empty or not copied:
                            # Under the log's write lock: appends wait on the loop's lock, not in SQLite's
                            # busy handler, which sleeps in growing steps. If appends never paused long
                            # enough, what they added is copied now (a short copy): else the WAL never
                            # starts over and keeps growing.
                            async with self._write_lock:
                                await asyncio.to_thread(_copy_wal, self.path, 1, empty)
                    finally:
                        self._copying_wal = False
            except (OSError, sqlite3.Error) as error:  # the next tick tries again; the keeper must not die
                log.warning("WAL checkpoint of %s failed: %s", self.path, error)

    async def _in_db_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(connection, *args)` on aiosqlite's own thread: one hop for any number of statements.

        aiosqlite has no public call for this; `_execute` is how each of its own methods gets there.
        """
        return await self.db._execute(fn, self.db._conn, *args)

    def _insert_appends(self, conn: sqlite3.Connection, appends: list[_Append]) -> None:
        # Runs on the connection's thread while _commit_pending holds _write_lock: _last_seq is ours.
        last_seqs: dict[str, int] = {}
        try:
            for append in appends:
                append.payloads = self._insert_rows(conn, append, last_seqs)
            for thread_id, last_seq in last_seqs.items():
                # MAX: a stale cache (another process wrote meanwhile) never moves it back.
                conn.execute(
                    "UPDATE threads SET last_seq = MAX(last_seq, ?), updated_at = ? WHERE thread_id = ?",
                    (last_seq, time.time(), thread_id),
                )
            conn.commit()
        except BaseException:
            conn.rollback()
            for append in appends:
                self._last_seq.pop(append.thread_id, None)
            raise
        self._last_seq.update(last_seqs)

    def _insert_rows(
        self, conn: sqlite3.Connection, append: _Append, last_seqs: dict[str, int]
    ) -> list[dict[str, Any] | None]:
        """One append's rows, uncommitted; `last_seqs` carries each thread's seq through the transaction."""
        thread_id, run_id = append.thread_id, append.run_id
        if append.row is not None:
            conn.execute(append.row.sql, append.row.args)
        last_seq = last_seqs.get(thread_id, self._last_seq.get(thread_id))
        if last_seq is None:
            found = conn.execute("SELECT last_seq FROM threads WHERE thread_id = ?", (thread_id,)).fetchall()
            if not found:
                raise KeyError(thread_id)
            last_seq = found[0][0]
        keys = [item.key for item in append.items if item.key is not None]
        # Most keys are new (a task's first attempt): the unique index finds a stored one, and the failed
        # transaction is tried again with this lookup. Not with a file, which the failed try would have
        # written over the stored version's.
        taken = _stored_keys(conn, thread_id, keys) if keys and (append.look_up_keys or append.carries_file) else set()
        payloads: list[dict[str, Any] | None] = []
        rows: list[tuple[Any, ...]] = []
        for event, fields, key, artifact in append.items:
            if key is not None:
                if key in taken:  # a re-run task's event (and artifact): its first outcome stands
                    payloads.append(None)
                    continue
                taken.add(key)
            if artifact is not None:
                fields = {**fields, "artifact": self._put_artifact(conn, thread_id, artifact, fields["artifact"])}
            last_seq += 1
            payload = {"threadId": thread_id, "runId": run_id, "seq": last_seq, "ts": time.time(), **fields}
            rows.append((thread_id, last_seq, run_id, event, wire_json.dumps(payload), key))
            payloads.append(payload)
        if rows:
            # A key or seq written by another process since the read above fails the batch (IntegrityError):
            # _insert_alone then reads again.
            conn.executemany(
                "INSERT INTO events(thread_id, seq, run_id, event, payload, event_key) VALUES (?,?,?,?,?,?)", rows
            )
            last_seqs[thread_id] = last_seq
        return payloads

    async def has_event(self, thread_id: str, key: str) -> bool:
        return await self._one(
            "SELECT 1 FROM events WHERE thread_id = ? AND event_key = ?", (thread_id, key)
        ) is not None

    async def failed_attempts(self, thread_id: str) -> dict[str, int]:
        """Failed attempts recorded per LangGraph task id (keyed `tool:update{failed}` events)."""
        rows = await self._all(
            "SELECT event_key FROM events WHERE thread_id = ? AND event = 'tool:update' AND event_key IS NOT NULL"
            " AND json_extract(payload, '$.status') = 'failed'",
            (thread_id,),
        )
        return failed_per_task(row["event_key"] for row in rows)

    async def events_after(
        self, thread_id: str, after_seq: int = 0, limit: int | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        rows = await self._all(
            "SELECT event, payload FROM events WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (thread_id, after_seq, -1 if limit is None else limit),
        )
        return [(r["event"], json.loads(r["payload"])) for r in rows]

    async def event_pages(
        self, thread_id: str, after_seq: int = 0, page_size: int = REPLAY_PAGE_SIZE
    ) -> AsyncIterator[list[tuple[str, dict[str, Any]]]]:
        """The events after `after_seq` in seq order, read `page_size` rows at a time (a long log never sits in memory whole)."""
        while True:
            page = await self.events_after(thread_id, after_seq, limit=page_size)
            if page:
                yield page
            if len(page) < page_size:
                return
            after_seq = page[-1][1]["seq"]

    # ---------------------------------------------------------------- artifacts

    async def save_artifact(
        self,
        thread_id: str,
        artifact: dict[str, Any],
        *,
        origin: str,
        file: bytes | None = None,
        file_name: str | None = None,
    ) -> dict[str, Any]:
        """Store a new version of the artifact, or replace the version this origin already made.

        `origin` names the task that produced it; a task re-executed after a crash has the same
        origin, so it overwrites its own version instead of adding a duplicate one. (A run's
        artifacts go with their events: EventWrite.artifact in append_events.)
        """
        async with self._write_lock:
            return await self._in_db_thread(self._write_artifact, thread_id, artifact, origin, file, file_name)

    def _write_artifact(
        self,
        conn: sqlite3.Connection,
        thread_id: str,
        artifact: dict[str, Any],
        origin: str,
        file: bytes | None,
        file_name: str | None,
    ) -> dict[str, Any]:
        # On the connection's thread, under _write_lock: the lookups, the file and the row are one hop.
        try:
            stored = self._put_artifact(conn, thread_id, ArtifactWrite(artifact, origin, file, file_name), artifact)
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        return stored

    def _put_artifact(
        self, conn: sqlite3.Connection, thread_id: str, write: ArtifactWrite, announced: dict[str, Any]
    ) -> dict[str, Any]:
        """Number and write the artifact's row (and file), uncommitted; returns `announced` with its version and url."""
        artifact_id = write.artifact["id"]
        # The producing task's own version when it wrote one before (a re-run), else the next.
        # fetchall, not fetchone: a statement left unfinished keeps its read snapshot, and with it the WAL, alive.
        [(same_origin, latest)] = conn.execute(
            "SELECT MAX(CASE WHEN origin = ? THEN version END), COALESCE(MAX(version), 0) FROM artifacts WHERE id = ?",
            (write.origin, artifact_id),
        ).fetchall()
        version = same_origin if same_origin is not None else latest + 1
        file_path = None
        if write.file is not None:
            target = self.files_dir / f"{artifact_id}.v{version}"
            target.write_bytes(write.file)
            file_path = str(target)
        conn.execute(
            "INSERT OR REPLACE INTO artifacts(id, version, thread_id, type, title, show_in_canvas, content,"
            " mime_type, file_path, file_name, origin, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            artifact_columns(thread_id, write.artifact, version, write.origin, file_path, write.file_name),
        )
        return stored_artifact(announced, version, write.file is not None)

    async def get_artifact(self, artifact_id: str, version: int | None = None) -> dict[str, Any] | None:
        query = "SELECT * FROM artifacts WHERE id = ?"
        args: tuple[Any, ...] = (artifact_id,)
        if version is not None:
            query += " AND version = ?"
            args += (version,)
        query += " ORDER BY version DESC LIMIT 1"
        row = await self._one(query, args)
        if row is None:
            return None
        rows = await self._all("SELECT version FROM artifacts WHERE id = ? ORDER BY version", (artifact_id,))
        versions = [r["version"] for r in rows]
        return {**_artifact_row(row), "versions": versions}

    async def artifact_file(self, artifact_id: str, version: int | None = None) -> tuple[Path, str, str] | None:
        row = await self.get_artifact(artifact_id, version)
        if row is None or not row.get("_filePath"):
            return None
        return Path(row["_filePath"]), row.get("_fileName") or artifact_id, row.get("mimeType") or "application/octet-stream"

    async def latest_artifacts(self, thread_id: str) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT a.* FROM artifacts a JOIN (SELECT id, MAX(version) v FROM artifacts WHERE thread_id = ? GROUP BY id)"
            " m ON a.id = m.id AND a.version = m.v ORDER BY a.created_at",
            (thread_id,),
        )
        return [_artifact_row(r) for r in rows]

    async def find_trace(self, trace_id: str) -> dict[str, Any] | None:
        """The latest `trace` artifact whose content has this traceId (the legal flow's traces), with its
        thread as `_threadId` (private, like an artifact's) so the caller can check the owner."""
        row = await self._one(
            "SELECT content, thread_id FROM artifacts WHERE type = 'trace' AND json_extract(content, '$.traceId') = ?"
            " ORDER BY version DESC LIMIT 1",
            (trace_id,),
        )
        return {**json.loads(row["content"]), "_threadId": row["thread_id"]} if row else None


async def remove_files(paths: Iterable[str]) -> None:
    """Artifact files of a deleted thread, after its rows are gone (a file already missing is fine)."""

    def unlink_all() -> None:
        for path in paths:
            Path(path).unlink(missing_ok=True)

    await asyncio.to_thread(unlink_all)


def thread_insert(
    thread_id: str,
    flow: str,
    title: str,
    options: dict[str, Any],
    owner: str | None = None,
    *,
    status: ThreadStatus = ThreadStatus.idle,
    start_input: dict[str, Any] | None = None,
    runner: str | None = None,
) -> RowWrite:
    """A new thread's row (`start_input`, `runner`: see thread_update)."""
    now = time.time()
    return RowWrite(
        "INSERT INTO threads(thread_id, flow, title, status, options, owner, start_input, runner, created_at, updated_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?)",
        (thread_id, flow, title, ThreadStatus(status).value, json.dumps(options), owner,
         json.dumps(start_input, ensure_ascii=False) if start_input is not None else None, runner, now, now),
    )


def thread_update(
    thread_id: str,
    *,
    status: ThreadStatus | None = None,
    pending_interrupt: dict[str, Any] | None | bool = False,
    options: dict[str, Any] | None = None,
    start_input: dict[str, Any] | None = None,
    resumable: bool | None = None,
    final_artifact_id: str | None | bool = False,
    runner: str | None = None,
) -> RowWrite:
    """`pending_interrupt=False` leaves it as is; None clears it; the same for `final_artifact_id`.

    `start_input` is what the thread's latest run was started with, so a run killed before its
    first checkpoint can start again from it. `resumable=False` marks a failure that a resume
    would repeat (the next run clears it). `final_artifact_id` is the run's final artifact once a
    node made it: a resumed run that does not make it again still names it in its `completion`.
    `runner` names the process that runs it (core/processes.py).
    """
    sets, args = ["updated_at = ?"], [time.time()]
    if status is not None:
        sets.append("status = ?")
        args.append(ThreadStatus(status).value)
    if pending_interrupt is not False:
        sets.append("pending_interrupt = ?")
        args.append(json.dumps(pending_interrupt) if pending_interrupt else None)
    if options is not None:
        sets.append("options = ?")
        args.append(json.dumps(options))
    if start_input is not None:
        sets.append("start_input = ?")
        args.append(json.dumps(start_input, ensure_ascii=False))
    if resumable is not None:
        sets.append("resumable = ?")
        args.append(resumable)
    if final_artifact_id is not False:
        sets.append("final_artifact_id = ?")
        args.append(final_artifact_id)
    if runner is not None:  # a new run: a cancel asked of the one before is spent
        sets.append("runner = ?, cancel_requested = ?")
        args.extend((runner, False))
    return RowWrite(
        f"UPDATE threads SET {', '.join(sets)} WHERE thread_id = ?", (*args, thread_id),
        ends_run=status is not None and ThreadStatus(status) != ThreadStatus.running,
    )


def _copy_wal(path: Path, rounds: int = 2, empty: bool = False) -> bool:
    """PASSIVE checkpoints (they wait for nobody) until every frame is copied or `rounds` ran: each
    round copies what appends added during the one before. Whether every frame was copied; if so and
    `empty`, the file is emptied too, unless a reader is busy (TRUNCATE does not wait: timeout=0)."""
    conn = sqlite3.connect(path, timeout=0)
    try:
        for _ in range(rounds):
            [(_busy, frames, copied)] = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            if copied >= frames:
                if empty:
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                return True
        return False
    finally:
        conn.close()


def _execute_and_commit(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> int:
    """The rows it changed."""
    try:
        changed = conn.execute(sql, args).rowcount
        conn.commit()
        return changed
    except BaseException:
        conn.rollback()
        raise


def _stored_keys(conn: sqlite3.Connection, thread_id: str, keys: list[str]) -> set[str]:
    """Which of these event keys the thread's log holds already."""
    found: set[str] = set()
    for start in range(0, len(keys), KEY_LOOKUP_CHUNK):
        chunk = keys[start:start + KEY_LOOKUP_CHUNK]
        found.update(row[0] for row in conn.execute(
            f"SELECT event_key FROM events WHERE thread_id = ? AND event_key IN ({','.join('?' * len(chunk))})",
            (thread_id, *chunk),
        ))
    return found


def stored_artifact(artifact: dict[str, Any], version: int, has_file: bool) -> dict[str, Any]:
    """The artifact as saved: its version, and the download url when it has a file."""
    stored = {**artifact, "version": version}
    if has_file:
        stored["url"] = f"/artifacts/{artifact['id']}/download?version={version}"
    return stored


def failed_per_task(event_keys: Iterable[str]) -> dict[str, int]:
    """Failed attempts per LangGraph task id, from the keys (`task/stream/ordinal`) of failed updates."""
    counts: dict[str, int] = {}
    for key in event_keys:
        task_id = key.split("/", 1)[0]
        counts[task_id] = counts.get(task_id, 0) + 1
    return counts


def artifact_columns(
    thread_id: str, artifact: dict[str, Any], version: int, origin: str, file_path: str | None, file_name: str | None
) -> tuple[Any, ...]:
    """One artifact version's row, in the artifacts table's column order."""
    return (
        artifact["id"],
        version,
        thread_id,
        artifact["type"],
        artifact["title"],
        int(bool(artifact.get("showInCanvas"))),
        wire_json.dumps(artifact.get("content")),
        artifact.get("mimeType"),
        file_path,
        file_name,
        origin,
        time.time(),
    )


def _thread_row(row: aiosqlite.Row) -> dict[str, Any]:
    data = dict(row)
    data["options"] = json.loads(data["options"] or "{}")
    data["pending_interrupt"] = json.loads(data["pending_interrupt"]) if data["pending_interrupt"] else None
    data["start_input"] = json.loads(data["start_input"]) if data.get("start_input") else None
    data["resumable"] = bool(data.get("resumable", True))
    data["title_chosen"] = bool(data.get("title_chosen", False))
    return data


def _artifact_row(row: aiosqlite.Row) -> dict[str, Any]:
    data = {
        "id": row["id"],
        "type": row["type"],
        "title": row["title"],
        "version": row["version"],
        "showInCanvas": bool(row["show_in_canvas"]),
        "content": json.loads(row["content"]),
        "mimeType": row["mime_type"],
        "url": f"/artifacts/{row['id']}/download?version={row['version']}" if row["file_path"] else None,
        "_filePath": row["file_path"],
        "_fileName": row["file_name"],
        "_threadId": row["thread_id"],
    }
    return data


def public_artifact(data: dict[str, Any]) -> dict[str, Any]:
    """The artifact as clients see it: no storage paths."""
    return {k: v for k, v in data.items() if not k.startswith("_")}


def open_store(settings: Any) -> Store:
    """The store STORE names (not yet opened): SQLite in DATA_DIR, or Postgres for several workers."""
    if settings.store == "postgres":
        url = settings.store_url or settings.postgres_url
        if not url:
            raise ValueError("STORE=postgres needs STORE_URL or POSTGRES_URL")
        try:
            from app.store_postgres import PostgresStore
        except ImportError as error:  # the scale-out extra is optional
            raise ValueError("STORE=postgres needs: pip install -e '.[scale]'") from error
        return PostgresStore(url, settings.files_dir)
    return Store(settings.store_path, settings.files_dir)
