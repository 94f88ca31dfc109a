"""The store on PostgreSQL, for several workers sharing one database (STORE=postgres).

Same contract as the SQLite `Store` (tests/test_store_contract.py runs both); what differs is that
nothing is cached per process: `seq` comes from a row-locked `UPDATE threads ... RETURNING`, artifact
versions are numbered under a transaction-scoped advisory lock, and a running thread belongs to one
worker by a lease (`worker_id`, `lease_until`) that the worker renews while the run lives.
Artifact files stay on DATA_DIR, which workers share as a volume (docker-compose.yml).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from app.store import (
    ArtifactWrite,
    EventWrite,
    RowWrite,
    Store,
    _artifact_row,
    artifact_columns,
    failed_per_task,
    remove_files,
    stored_artifact,
)

# Versioned migrations: each step runs once, in order, recorded in schema_migrations. Alembic would
# add a second schema language and an env.py for five tables; these steps are the whole history.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE threads (
        thread_id TEXT PRIMARY KEY,
        flow TEXT NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        pending_interrupt TEXT,
        start_input TEXT,
        last_seq BIGINT NOT NULL DEFAULT 0,
        owner TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        worker_id TEXT,
        lease_until DOUBLE PRECISION
    );
    CREATE TABLE events (
        thread_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        run_id TEXT NOT NULL,
        event TEXT NOT NULL,
        payload JSONB NOT NULL,
        event_key TEXT,
        PRIMARY KEY (thread_id, seq)
    );
    CREATE UNIQUE INDEX events_by_key ON events(thread_id, event_key) WHERE event_key IS NOT NULL;
    CREATE TABLE artifacts (
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
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (id, version)
    );
    CREATE INDEX artifacts_by_thread ON artifacts(thread_id);
    CREATE UNIQUE INDEX artifacts_by_origin ON artifacts(id, origin);
    CREATE INDEX threads_running_lease ON threads(lease_until) WHERE status = 'running';
    """,
    """
    CREATE TABLE users (
        name TEXT PRIMARY KEY,
        token_sha256 TEXT NOT NULL UNIQUE,
        created_at DOUBLE PRECISION NOT NULL
    );
    """,
    # run:cancel on a worker that does not hold the run: the holder reads it at its next heartbeat.
    "ALTER TABLE threads ADD COLUMN cancel_requested BOOLEAN NOT NULL DEFAULT false",
    # false after a failure that a resume would repeat (an exception with `resumable = False`).
    "ALTER TABLE threads ADD COLUMN resumable BOOLEAN NOT NULL DEFAULT true",
    # the final artifact of the thread's latest run, kept for a resume that does not make it again.
    "ALTER TABLE threads ADD COLUMN final_artifact_id TEXT",
    # the process running the thread (core/processes.py; the leases above are what counts here).
    "ALTER TABLE threads ADD COLUMN runner TEXT",
    # true once a person named the thread: the runtime names only threads no one has.
    "ALTER TABLE threads ADD COLUMN title_chosen BOOLEAN NOT NULL DEFAULT false",
]
# Any constant shared by every worker: serialises concurrent start-ups running the migrations.
MIGRATION_LOCK_ID = 7_130_001


def _pg(sql: str) -> str:
    """The SQLite statement text with psycopg's placeholders."""
    return sql.replace("?", "%s")


class PostgresStore(Store):
    shared = True

    def __init__(self, url: str, files_dir: Path) -> None:
        super().__init__(Path(), files_dir)
        self.url = url
        self._pool: AsyncConnectionPool | None = None

    async def open(self) -> PostgresStore:
        self.files_dir.mkdir(parents=True, exist_ok=True)
        self._pool = AsyncConnectionPool(
            self.url, min_size=1, max_size=8, open=False, kwargs={"autocommit": True, "row_factory": dict_row}
        )
        await self._pool.open(wait=True)
        await self.migrate()
        return self

    async def migrate(self) -> int:
        """Apply the steps this database has not seen; returns the schema version."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK_ID,))
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION)"
            )
            row = await (await conn.execute("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")).fetchone()
            version = row["v"]
            for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
                await conn.execute(step)
                await conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)", (number, time.time()))
            return len(MIGRATIONS)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> AsyncConnectionPool:
        assert self._pool is not None, "PostgresStore.open() was not awaited"
        return self._pool

    async def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        async with self.pool.connection() as conn:
            return await (await conn.execute(_pg(sql), args)).fetchall()

    async def _one(self, sql: str, args: tuple[Any, ...] = ()) -> dict[str, Any] | None:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def _run(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        async with self.pool.connection() as conn:
            return (await conn.execute(_pg(sql), args)).rowcount

    async def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        # The base class's one-statement write: its thread methods (create, get, list, update) run here as is.
        await self._run(sql, args)

    # ------------------------------------------------------------------ threads

    async def delete_thread(self, thread_id: str) -> bool:
        async with self.pool.connection() as conn, conn.transaction():
            rows = await (
                await conn.execute(
                    "SELECT file_path FROM artifacts WHERE thread_id = %s AND file_path IS NOT NULL", (thread_id,)
                )
            ).fetchall()
            await conn.execute("DELETE FROM events WHERE thread_id = %s", (thread_id,))
            await conn.execute("DELETE FROM artifacts WHERE thread_id = %s", (thread_id,))
            deleted = (await conn.execute("DELETE FROM threads WHERE thread_id = %s", (thread_id,))).rowcount
        await remove_files(row["file_path"] for row in rows)
        return deleted > 0

    # ------------------------------------------------------------- run leases

    async def claim_run(self, thread_id: str, worker_id: str, lease_s: float) -> bool:
        """Mark the thread running for `worker_id`, unless another worker's live lease holds it."""
        now = time.time()
        return bool(
            await self._run(
                "UPDATE threads SET status = 'running', pending_interrupt = NULL, worker_id = ?, lease_until = ?,"
                " cancel_requested = false, updated_at = ? WHERE thread_id = ? AND (status <> 'running' OR worker_id = ?"
                " OR lease_until IS NULL OR lease_until < ?)",
                (worker_id, now + lease_s, now, thread_id, worker_id, now),
            )
        )

    async def renew_leases(self, worker_id: str, thread_ids: list[str], lease_s: float) -> dict[str, bool]:
        """Extend this worker's leases; returns the threads it still holds, each with "cancel asked"."""
        if not thread_ids:
            return {}
        rows = await self._all(
            "UPDATE threads SET lease_until = ? WHERE worker_id = ? AND status = 'running'"
            " AND thread_id = ANY(?) RETURNING thread_id, cancel_requested",
            (time.time() + lease_s, worker_id, thread_ids),
        )
        return {r["thread_id"]: r["cancel_requested"] for r in rows}

    async def request_cancel(self, thread_id: str) -> bool:
        """Ask whichever worker holds the running thread to cancel it; False when nothing is running."""
        return bool(
            await self._run(
                "UPDATE threads SET cancel_requested = true WHERE thread_id = ? AND status = 'running'"
                " AND NOT cancel_requested",
                (thread_id,),
            )
        )

    async def expired_runs(self) -> list[str]:
        """Running threads whose worker stopped renewing (or that never had a lease)."""
        rows = await self._all(
            "SELECT thread_id FROM threads WHERE status = 'running' AND (lease_until IS NULL OR lease_until < ?)"
            " ORDER BY updated_at",
            (time.time(),),
        )
        return [r["thread_id"] for r in rows]

    # ------------------------------------------------------------------- events

    async def append_events(
        self, thread_id: str, run_id: str, items: Sequence[EventWrite | tuple[Any, ...]], *, row: RowWrite | None = None
    ) -> list[dict[str, Any] | None]:
        """The seqs come from the thread row, locked until commit: workers never hand out the same one."""
        if not items and row is None:
            return []
        items = [EventWrite(*item) for item in items]
        while True:
            try:
                return await self._append_in_transaction(thread_id, run_id, items, row)
            except _KeyTaken:
                continue  # the next attempt finds that key stored and drops its event

    async def _append_in_transaction(
        self, thread_id: str, run_id: str, items: Sequence[EventWrite], thread_row: RowWrite | None
    ) -> list[dict[str, Any] | None]:
        async with self.pool.connection() as conn, conn.transaction():
            if thread_row is not None:
                await conn.execute(_pg(thread_row.sql), thread_row.args)
            keys = [item.key for item in items if item.key is not None]
            seen: set[str] = set()
            if keys:
                rows = await (
                    await conn.execute(
                        "SELECT event_key FROM events WHERE thread_id = %s AND event_key = ANY(%s)", (thread_id, keys)
                    )
                ).fetchall()
                seen = {row["event_key"] for row in rows}
            fresh: list[EventWrite | None] = []
            for item in items:
                if item.key is not None and item.key in seen:
                    fresh.append(None)
                    continue
                if item.key is not None:
                    seen.add(item.key)
                fresh.append(item)
            count = sum(item is not None for item in fresh)
            if not count:
                return [None] * len(items)
            row = await (
                await conn.execute(
                    "UPDATE threads SET last_seq = last_seq + %s, updated_at = %s WHERE thread_id = %s RETURNING last_seq",
                    (count, time.time(), thread_id),
                )
            ).fetchone()
            if row is None:
                raise KeyError(thread_id)
            seq = row["last_seq"] - count
            payloads: list[dict[str, Any] | None] = []
            rows_to_insert = []
            for item in fresh:
                if item is None:
                    payloads.append(None)
                    continue
                event, fields, key, artifact = item
                if artifact is not None:
                    fields = {**fields, "artifact": await self._put_artifact(conn, thread_id, artifact, fields["artifact"])}
                seq += 1
                payload = {"threadId": thread_id, "runId": run_id, "seq": seq, "ts": time.time(), **fields}
                payloads.append(payload)
                rows_to_insert.append((thread_id, seq, run_id, event, json.dumps(payload, ensure_ascii=False), key))
            async with conn.cursor() as cursor:
                await cursor.executemany(
                    "INSERT INTO events(thread_id, seq, run_id, event, payload, event_key) VALUES (%s,%s,%s,%s,%s,%s)"
                    " ON CONFLICT (thread_id, event_key) WHERE event_key IS NOT NULL DO NOTHING",
                    rows_to_insert,
                )
                if cursor.rowcount != len(rows_to_insert):
                    raise _KeyTaken  # a key committed by another worker meanwhile: the rollback gives the seqs back
        return payloads

    async def failed_attempts(self, thread_id: str) -> dict[str, int]:
        rows = await self._all(
            "SELECT event_key FROM events WHERE thread_id = ? AND event = 'tool:update' AND event_key IS NOT NULL"
            " AND payload->>'status' = 'failed'",
            (thread_id,),
        )
        return failed_per_task(row["event_key"] for row in rows)

    async def events_after(
        self, thread_id: str, after_seq: int = 0, limit: int | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        rows = await self._all(
            "SELECT event, payload FROM events WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (thread_id, after_seq, limit),
        )
        return [(r["event"], r["payload"]) for r in rows]

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
        async with self.pool.connection() as conn, conn.transaction():
            return await self._put_artifact(conn, thread_id, ArtifactWrite(artifact, origin, file, file_name), artifact)

    async def _put_artifact(
        self, conn: AsyncConnection, thread_id: str, write: ArtifactWrite, announced: dict[str, Any]
    ) -> dict[str, Any]:
        """Number and write the artifact's row (and file) in the caller's transaction; `announced` with its version."""
        artifact_id = write.artifact["id"]
        # Versions are read-then-written: one writer per artifact id across every worker.
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (artifact_id,))
        same_origin = await (
            await conn.execute("SELECT version FROM artifacts WHERE id = %s AND origin = %s", (artifact_id, write.origin))
        ).fetchone()
        if same_origin:
            version = same_origin["version"]
        else:
            row = await (
                await conn.execute("SELECT COALESCE(MAX(version), 0) AS v FROM artifacts WHERE id = %s", (artifact_id,))
            ).fetchone()
            version = row["v"] + 1
        file_path = None
        if write.file is not None:
            target = self.files_dir / f"{artifact_id}.v{version}"
            await asyncio.to_thread(target.write_bytes, write.file)
            file_path = str(target)
        await conn.execute(
            "INSERT INTO artifacts(id, version, thread_id, type, title, show_in_canvas, content, mime_type,"
            " file_path, file_name, origin, created_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
            " ON CONFLICT (id, version) DO UPDATE SET type = EXCLUDED.type, title = EXCLUDED.title,"
            " show_in_canvas = EXCLUDED.show_in_canvas, content = EXCLUDED.content, mime_type = EXCLUDED.mime_type,"
            " file_path = EXCLUDED.file_path, file_name = EXCLUDED.file_name, created_at = EXCLUDED.created_at",
            artifact_columns(thread_id, write.artifact, version, write.origin, file_path, write.file_name),
        )
        return stored_artifact(announced, version, write.file is not None)

    async def get_artifact(self, artifact_id: str, version: int | None = None) -> dict[str, Any] | None:
        query, args = "SELECT * FROM artifacts WHERE id = ?", (artifact_id,)
        if version is not None:
            query, args = query + " AND version = ?", (*args, version)
        row = await self._one(query + " ORDER BY version DESC LIMIT 1", args)
        if row is None:
            return None
        versions = [r["version"] for r in await self._all("SELECT version FROM artifacts WHERE id = ? ORDER BY version", (artifact_id,))]
        return {**_artifact_row(row), "versions": versions}

    async def find_trace(self, trace_id: str) -> dict[str, Any] | None:
        row = await self._one(
            "SELECT content, thread_id FROM artifacts WHERE type = 'trace' AND (content::jsonb)->>'traceId' = ?"
            " ORDER BY version DESC LIMIT 1",
            (trace_id,),
        )
        return {**json.loads(row["content"]), "_threadId": row["thread_id"]} if row else None

    async def latest_artifacts(self, thread_id: str) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT a.* FROM artifacts a JOIN (SELECT id, MAX(version) v FROM artifacts WHERE thread_id = ? GROUP BY id)"
            " m ON a.id = m.id AND a.version = m.v ORDER BY a.created_at",
            (thread_id,),
        )
        return [_artifact_row(r) for r in rows]


class _KeyTaken(Exception):
    """Rolls back an append whose key another worker stored first."""


class PostgresUserDirectory:
    """`app.auth.UserDirectory` on the shared database: every worker checks the same tokens."""

    def __init__(self, url: str, files_dir: Path) -> None:
        self._store = PostgresStore(url, files_dir)  # its pool and migrations

    async def open(self) -> PostgresUserDirectory:
        await self._store.open()
        return self

    async def close(self) -> None:
        await self._store.close()

    async def __aenter__(self) -> PostgresUserDirectory:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def add(self, name: str) -> str | None:
        from app.auth import hash_token

        token = secrets.token_urlsafe(32)
        added = await self._store._run(
            "INSERT INTO users(name, token_sha256, created_at) VALUES (?,?,?) ON CONFLICT DO NOTHING",
            (name, hash_token(token), time.time()),
        )
        return token if added else None

    async def remove(self, name: str) -> bool:
        return bool(await self._store._run("DELETE FROM users WHERE name = ?", (name,)))

    async def list(self) -> list[tuple[str, float]]:
        rows = await self._store._all("SELECT name, created_at FROM users ORDER BY name")
        return [(row["name"], row["created_at"]) for row in rows]

    async def user_for(self, token: object) -> str | None:
        from app.auth import hash_token

        if not isinstance(token, str) or not token or len(token) > 512:
            return None
        row = await self._store._one("SELECT name FROM users WHERE token_sha256 = ?", (hash_token(token),))
        return row["name"] if row else None
