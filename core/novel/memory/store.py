"""One project's story memory: indexing from the project files, and search (vectors + BM25, fused).

`search` ranks with both retrievers and fuses them by reciprocal rank (RRF, k=60): a chunk high in
either list comes out high, no score scales to reconcile. When the vector store cannot be used the
keyword ranking alone answers and the result says so in `degraded`.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from core.i18n import t
from core.novel.memory.derive import SourceItems, chapter_items, chapter_memory_items
from core.novel.memory.statedb import StateDB
from core.novel.memory.vectors import OWNER, VectorIndex, VectorStoreUnavailable
from core.novel.project import CHAPTER_MEMORY_FILE, CHARACTERS_FILE, NovelProject, ProjectError
from core.retrieval.bm25 import BM25Index
from core.retrieval.embeddings import embedder_for
from core.settings import Settings
from schemas.novel import EntityStateSnapshot, StoryMemoryChunk

log = logging.getLogger(__name__)
_warned: set[str] = set()


def _warn_once(note: str) -> None:
    """A degraded search is said once a process: every search of a chapter would repeat it (the result carries it too)."""
    if note not in _warned:
        _warned.add(note)
        log.warning("%s", note)

RRF_K = 60
DEFAULT_TOP_K = 10
SearchMode = Literal["fused", "vector", "keyword"]


@dataclass
class SearchResult:
    chunks: list[StoryMemoryChunk]
    degraded: list[str] = field(default_factory=list)  # sentences: what could not be used, and what was used instead


@dataclass
class IndexReport:
    project_id: str
    chapters: int
    chunks: int
    states: int
    sources_updated: list[str]
    vectors: bool
    degraded: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # project files skipped (sentences)

    def sentence(self) -> str:
        return t(
            "novel.memory_index_built", project_id=self.project_id, chapters=self.chapters, chunks=self.chunks, states=self.states
        )


class MemoryStore:
    def __init__(self, project: NovelProject, settings: Settings, *, vector_index: VectorIndex | None = None) -> None:
        self.project = project
        self.settings = settings
        self.db = StateDB(settings.novel_memory_dir / project.project_id / "memory.sqlite")
        self._vector_index = vector_index
        self._index_lock = threading.Lock()
        self._fingerprint: tuple | None = None
        self._bm25: tuple[int, list[StoryMemoryChunk], BM25Index] | None = None

    @property
    def project_id(self) -> str:
        return self.project.project_id

    def vectors(self) -> VectorIndex:
        """The project's vector index; `VectorStoreUnavailable` when Qdrant or the embedder cannot be used."""
        if self._vector_index is None:
            try:
                embedder = embedder_for(self.settings)
            except Exception as error:
                raise VectorStoreUnavailable(str(error)[:200]) from error
            self._vector_index = VectorIndex(OWNER.client(self.settings), self.project_id, embedder)
        return self._vector_index

    # --- indexing --------------------------------------------------------------------------------

    def _files_fingerprint(self) -> tuple:
        paths: list[Path] = [self.project.root / CHAPTER_MEMORY_FILE, self.project.root / CHARACTERS_FILE]
        if self.project.chapters_dir.is_dir():
            paths += sorted(self.project.chapters_dir.iterdir())
        stats = []
        for path in paths:
            try:
                stat = path.stat()
                stats.append((path.name, stat.st_mtime_ns, stat.st_size))
            except FileNotFoundError:
                pass
        return tuple(stats)

    def _character_names(self, problems: list[str]) -> list[str]:
        names: list[str] = []
        try:
            characters = self.project.load_characters()
            if characters:
                names += characters.names()
                for character in characters.all_characters():
                    names += list((character.relationships or {}).keys())
        except ProjectError as error:
            problems.append(error.user_message)
        return list(dict.fromkeys(n for n in names if n))

    def _sources(self, problems: list[str]) -> list[SourceItems]:
        names = self._character_names(problems)
        sources: list[SourceItems] = []
        memory = []
        try:
            memory = self.project.load_chapter_memory()
        except ProjectError as error:
            problems.append(error.user_message)
        for entry in memory:
            names += [n for n in entry.character_states if n not in names]
        for number in self.project.chapter_numbers():
            try:
                chapter = self.project.load_chapter(number)
            except ProjectError as error:
                problems.append(error.user_message)
                continue
            try:
                plan = self.project.load_chapter_plan(number)
            except ProjectError as error:
                problems.append(error.user_message)
                plan = None
            if chapter is not None:
                plan_names = [n for s in (plan.scenes if plan else []) for n in s.characters if n not in names]
                sources.append(chapter_items(self.project_id, chapter, plan, [*names, *dict.fromkeys(plan_names)]))
        for entry in memory:
            sources.append(chapter_memory_items(self.project_id, entry, names))
        return sources

    def index(self) -> IndexReport:
        """Bring the memory up to date with the project files; only changed chapters are redone."""
        with self._index_lock:
            fingerprint = self._files_fingerprint()
            problems: list[str] = []
            sources = self._sources(problems)
            known = self.db.signatures()
            updated: list[str] = []
            stale: list[str] = []
            for items in sources:
                if known.get(items.source) != items.signature:
                    old = self.db.replace_source(items)
                    stale += sorted(set(old) - {c.chunk_id for c in items.chunks})
                    updated.append(items.source)
            for source in sorted(set(known) - {s.source for s in sources}):
                stale += self.db.remove_source(source)
                updated.append(source)
            degraded: list[str] = []
            vectors_ok = True
            try:
                index = self.vectors()
                if index.ensure_collection():
                    self.db.mark_all_unvectorized()
                index.delete(stale)
                pending = self.db.unvectorized()
                index.upsert(pending)
                self.db.mark_vectorized([c.chunk_id for c in pending])
            except VectorStoreUnavailable as error:
                vectors_ok = False
                degraded.append(t("novel.memory_vectors_unavailable", problem=str(error)))
                _warn_once(degraded[-1])
            self._fingerprint = fingerprint
            return IndexReport(
                project_id=self.project_id,
                chapters=len(self.project.chapter_numbers()),
                chunks=self.db.chunk_count(),
                states=sum(len(s.snapshots) for s in sources),
                sources_updated=updated,
                vectors=vectors_ok,
                degraded=degraded,
                problems=problems,
            )

    def ensure_index(self) -> IndexReport | None:
        """Index when the project files changed since this process last looked (first use included)."""
        if self._fingerprint is not None and self._fingerprint == self._files_fingerprint():
            return None
        return self.index()

    # --- search ----------------------------------------------------------------------------------

    def _keyword_corpus(self) -> tuple[list[StoryMemoryChunk], BM25Index]:
        # the book's people's names are cut whole in its passages and in what is asked of them (this book's
        # alone: jieba's dictionary is the process's, and another book's names are nothing here)
        generation = (self.db.generation(), tuple(self._character_names([])))
        if self._bm25 is None or self._bm25[0] != generation:
            chunks = self.db.chunks()
            self._bm25 = (generation, chunks, BM25Index([_searchable(c) for c in chunks], keep=generation[1]))
        return self._bm25[1], self._bm25[2]

    def keyword_ranking(
        self, query: str, *, entities=None, content_type=None, tags=None, limit: int = 30
    ) -> list[StoryMemoryChunk]:
        chunks, index = self._keyword_corpus()
        ranked = [chunks[i] for i, _ in index.search(query, top_k=len(chunks))]
        return [c for c in ranked if _matches(c, entities, content_type, tags)][:limit]

    def vector_ranking(
        self, query: str, *, entities=None, content_type=None, tags=None, limit: int = 30
    ) -> list[StoryMemoryChunk]:
        hits = self.vectors().search(query, limit=limit, entities=entities, content_type=content_type, tags=tags)
        return [chunk for chunk, _ in hits]

    def search(
        self,
        query: str,
        *,
        entities: Sequence[str] | None = None,
        content_type: str | None = None,
        tags: Sequence[str] | None = None,
        top_k: int = DEFAULT_TOP_K,
        mode: SearchMode = "fused",
    ) -> SearchResult:
        """Chunks best first, each with `score` (RRF). Filters: any of `entities`, the `content_type`, any of `tags`."""
        degraded: list[str] = []
        try:
            report = self.ensure_index()
            if report:
                degraded += report.degraded
        except Exception as error:  # the memory DB itself may be unusable; vectors may still answer
            log.warning("%s", t("novel.memory_index_failed", project_id=self.project_id, problem=str(error)[:200]))
        filters = {"entities": list(entities or []) or None, "content_type": content_type, "tags": list(tags or []) or None}
        depth = max(top_k * 3, 30)
        rankings: list[list[StoryMemoryChunk]] = []
        known_ids: set[str] | None = None
        keyword_error: Exception | None = None
        if mode in ("fused", "keyword"):
            try:
                rankings.append(self.keyword_ranking(query, limit=depth, **filters))
                known_ids = {c.chunk_id for c in self._bm25[1]} if self._bm25 else None
            except Exception as error:
                keyword_error = error
                log.warning("%s", t("novel.memory_keyword_failed", problem=str(error)[:200]))
        if mode in ("fused", "vector"):
            try:
                hits = self.vector_ranking(query, limit=depth, **filters)
                # A point the memory DB no longer lists was left by an index run that could not reach the store.
                rankings.append([c for c in hits if known_ids is None or c.chunk_id in known_ids])
            except VectorStoreUnavailable as error:
                note = t("novel.memory_vectors_unavailable", problem=str(error))
                if note not in degraded:
                    degraded.append(note)
                    _warn_once(note)
        if keyword_error is not None and rankings:
            degraded.append(t("novel.memory_keyword_failed", problem=str(keyword_error)[:200]))
        if not rankings:
            problem = str(keyword_error) if keyword_error else "-"
            degraded.append(t("novel.memory_search_failed", problem=problem[:200]))
            return SearchResult([], degraded)
        return SearchResult(fuse(rankings, top_k), degraded)

    # --- entity states ----------------------------------------------------------------------------

    def entity_state(
        self, entity_id: str, chapter_index: int | None = None, scene_index: int | None = None, *, before: bool = False
    ) -> EntityStateSnapshot | None:
        self.ensure_index()
        return self.db.entity_state(entity_id, chapter_index, scene_index, before=before)

    def timeline(self, chapter_index: int, context_window: int) -> list[EntityStateSnapshot]:
        self.ensure_index()
        return self.db.timeline(chapter_index, context_window)


def fuse(rankings: Sequence[Sequence[StoryMemoryChunk]], top_k: int) -> list[StoryMemoryChunk]:
    """Reciprocal-rank fusion: score = Σ 1/(k + rank) over the rankings a chunk appears in."""
    scores: dict[str, float] = {}
    chunks: dict[str, StoryMemoryChunk] = {}
    for ranking in rankings:
        for rank, chunk in enumerate(ranking, start=1):
            scores[chunk.chunk_id] = scores.get(chunk.chunk_id, 0.0) + 1.0 / (RRF_K + rank)
            chunks.setdefault(chunk.chunk_id, chunk)
    ordered = sorted(scores, key=lambda cid: scores[cid], reverse=True)[:top_k]
    return [chunks[cid].model_copy(update={"score": round(scores[cid], 6)}) for cid in ordered]


def _searchable(chunk: StoryMemoryChunk) -> str:
    return " ".join([chunk.content, *chunk.tags])


def _matches(chunk: StoryMemoryChunk, entities, content_type, tags) -> bool:
    if entities and not set(entities) & set(chunk.entities_mentioned):
        return False
    if content_type and chunk.content_type != content_type:
        return False
    if tags and not set(tags) & set(chunk.tags):
        return False
    return True


# --- one store per project and configuration, per process --------------------------------------

_stores: dict[tuple, MemoryStore] = {}
_stores_lock = threading.Lock()
_configured: Settings | None = None


def configure_memory(settings: Settings | None) -> None:
    """Settings the memory tools use when none are passed (None: read the environment)."""
    global _configured
    _configured = settings


def memory_settings(settings: Settings | None = None) -> Settings:
    return settings or _configured or Settings()


def memory_store(project_id: str, settings: Settings | None = None) -> MemoryStore:
    settings = memory_settings(settings)
    project = NovelProject.at(project_id, settings)
    key = (str(project.root.resolve()), str(settings.novel_memory_dir.resolve()), settings.qdrant_url,
           settings.embeddings_provider, settings.embeddings_model)
    with _stores_lock:
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = MemoryStore(project, settings)
        return store


def index_project(project_id: str, settings: Settings | None = None) -> IndexReport:
    """Build or update a project's memory index (`ng novel index <id>`); ProjectError if there is no such project."""
    settings = memory_settings(settings)
    NovelProject.open(project_id, settings)
    store = memory_store(project_id, settings)
    try:
        return store.index()
    except (sqlite3.Error, OSError) as error:
        raise ProjectError(
            t("novel.memory_store_unusable", project_id=project_id, problem=str(error)[:200], path=str(store.db.path.parent))
        ) from error


def ensure_index(project_id: str, settings: Settings | None = None) -> IndexReport | None:
    return memory_store(project_id, settings).ensure_index()


def close_memory() -> None:
    """Close the process's Qdrant clients and forget the stores (server shutdown, tests)."""
    with _stores_lock:
        _stores.clear()
    OWNER.close_all()
