"""A project's story memory in SQLite (`DATA_DIR/novel_memory/<project_id>/memory.sqlite`).

Holds the memory chunks (the text the keyword search ranks, and the record of what is in the vector
store), the entity state snapshots, and one signature per indexed source so re-indexing touches
only what changed. A connection per call: calls come from worker threads.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from schemas.novel import EntityStateSnapshot, StoryMemoryChunk

from core.novel.memory.derive import SourceItems

_SCHEMA = """
CREATE TABLE IF NOT EXISTS memory_chunks (
    chunk_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    chapter_index INTEGER,
    scene_index INTEGER,
    content_type TEXT NOT NULL,
    body TEXT NOT NULL,             -- the chunk as JSON
    vectorized INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS memory_chunks_source ON memory_chunks(source);
CREATE TABLE IF NOT EXISTS entity_states (
    entity_id TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    chapter_index INTEGER,
    scene_index INTEGER,
    source TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entity_states_entity ON entity_states(entity_id, chapter_index);
CREATE INDEX IF NOT EXISTS entity_states_chapter ON entity_states(chapter_index);
CREATE TABLE IF NOT EXISTS indexed_sources (source TEXT PRIMARY KEY, signature TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# A chapter-level snapshot (scene_index NULL) is the state at the chapter's end: after its scenes.
_SCENE_ORDER = "COALESCE(scene_index, 1000000000)"
_END_OF_CHAPTER = 1_000_000_000


class StateDB:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._ready = False

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        if not self._ready:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=10)
        try:
            if not self._ready:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.executescript(_SCHEMA)
                self._ready = True
            with connection:
                yield connection
        finally:
            connection.close()

    # --- index bookkeeping -------------------------------------------------------------------

    def signatures(self) -> dict[str, str]:
        with self.connect() as db:
            return dict(db.execute("SELECT source, signature FROM indexed_sources"))

    def generation(self) -> int:
        """Changes with every write of chunks: caches of the keyword index key on it."""
        with self.connect() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
            return int(row[0]) if row else 0

    def replace_source(self, items: SourceItems) -> list[str]:
        """Swap in a source's chunks and snapshots; the chunk ids it had before (to drop from vectors)."""
        with self.connect() as db:
            old = [r[0] for r in db.execute("SELECT chunk_id FROM memory_chunks WHERE source = ?", (items.source,))]
            self._delete(db, items.source)
            db.executemany(
                "INSERT OR REPLACE INTO memory_chunks VALUES (?, ?, ?, ?, ?, ?, 0)",
                [
                    (c.chunk_id, items.source, c.chapter_index, c.scene_index, c.content_type, c.model_dump_json())
                    for c in items.chunks
                ],
            )
            db.executemany(
                "INSERT INTO entity_states VALUES (?, ?, ?, ?, ?, 1, ?)",
                [
                    (s.entity_id, s.entity_type, s.chapter_index, s.scene_index, items.source, s.model_dump_json())
                    for s in items.snapshots
                ],
            )
            db.execute("INSERT OR REPLACE INTO indexed_sources VALUES (?, ?)", (items.source, items.signature))
            self._renumber(db)
            self._bump(db)
        return old

    def remove_source(self, source: str) -> list[str]:
        with self.connect() as db:
            old = [r[0] for r in db.execute("SELECT chunk_id FROM memory_chunks WHERE source = ?", (source,))]
            self._delete(db, source)
            db.execute("DELETE FROM indexed_sources WHERE source = ?", (source,))
            self._renumber(db)
            self._bump(db)
        return old

    @staticmethod
    def _delete(db: sqlite3.Connection, source: str) -> None:
        db.execute("DELETE FROM memory_chunks WHERE source = ?", (source,))
        db.execute("DELETE FROM entity_states WHERE source = ?", (source,))

    @staticmethod
    def _renumber(db: sqlite3.Connection) -> None:
        # version = position of the snapshot in its entity's timeline (1 = first time seen).
        db.execute(
            f"""UPDATE entity_states SET version = (
                SELECT n FROM (SELECT rowid AS id, ROW_NUMBER() OVER (
                    PARTITION BY entity_id ORDER BY chapter_index, {_SCENE_ORDER}, source) AS n
                    FROM entity_states) AS ordered WHERE ordered.id = entity_states.rowid)"""
        )

    @staticmethod
    def _bump(db: sqlite3.Connection) -> None:
        db.execute(
            "INSERT INTO meta VALUES ('generation', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def unvectorized(self) -> list[StoryMemoryChunk]:
        with self.connect() as db:
            rows = db.execute("SELECT body FROM memory_chunks WHERE vectorized = 0 ORDER BY rowid").fetchall()
        return [StoryMemoryChunk.model_validate_json(r[0]) for r in rows]

    def mark_vectorized(self, chunk_ids: list[str]) -> None:
        with self.connect() as db:
            db.executemany("UPDATE memory_chunks SET vectorized = 1 WHERE chunk_id = ?", [(c,) for c in chunk_ids])

    def mark_all_unvectorized(self) -> None:
        with self.connect() as db:
            db.execute("UPDATE memory_chunks SET vectorized = 0")

    # --- reading -------------------------------------------------------------------------------

    def chunks(self) -> list[StoryMemoryChunk]:
        with self.connect() as db:
            rows = db.execute("SELECT body FROM memory_chunks ORDER BY chapter_index, scene_index, rowid").fetchall()
        return [StoryMemoryChunk.model_validate_json(r[0]) for r in rows]

    def chunk_count(self) -> int:
        with self.connect() as db:
            return db.execute("SELECT COUNT(*) FROM memory_chunks").fetchone()[0]

    def entity_state(
        self, entity_id: str, chapter_index: int | None = None, scene_index: int | None = None, *, before: bool = False
    ) -> EntityStateSnapshot | None:
        """The entity's latest snapshot at (or, with `before`, strictly before) the given point of the story."""
        query = f"SELECT body, version FROM entity_states WHERE entity_id = ?"
        args: list[object] = [entity_id]
        if chapter_index is not None:
            scene = _END_OF_CHAPTER if scene_index is None else scene_index
            op = "<" if before else "<="
            query += f" AND (chapter_index < ? OR (chapter_index = ? AND {_SCENE_ORDER} {op} ?))"
            args += [chapter_index, chapter_index, scene]
        query += f" ORDER BY chapter_index DESC, {_SCENE_ORDER} DESC, source DESC LIMIT 1"
        with self.connect() as db:
            row = db.execute(query, args).fetchone()
        return _snapshot(row) if row else None

    def timeline(self, chapter_index: int, context_window: int) -> list[EntityStateSnapshot]:
        lo, hi = chapter_index - context_window, chapter_index + context_window
        with self.connect() as db:
            rows = db.execute(
                f"SELECT body, version FROM entity_states WHERE chapter_index BETWEEN ? AND ? "
                f"ORDER BY chapter_index, {_SCENE_ORDER}, entity_id, source",
                (lo, hi),
            ).fetchall()
        return [_snapshot(r) for r in rows]

    def entity_ids(self) -> list[str]:
        with self.connect() as db:
            return [r[0] for r in db.execute("SELECT DISTINCT entity_id FROM entity_states ORDER BY entity_id")]


def _snapshot(row: tuple[str, int]) -> EntityStateSnapshot:
    data = json.loads(row[0])
    data["version"] = row[1]
    return EntityStateSnapshot.model_validate(data)
