"""Story memory of a novel project: chunks and entity states derived from its files, searched by
vectors (Qdrant) and keywords (BM25), and the scene memory chain built on them. See core/novel/__init__.py."""

from core.novel.memory.chain import MemoryTools, derive_analysis, retrieve_scene_memory_context
from core.novel.memory.store import (
    DEFAULT_TOP_K,
    IndexReport,
    MemoryStore,
    SearchResult,
    close_memory,
    configure_memory,
    ensure_index,
    index_project,
    memory_store,
)
from core.novel.memory.tools import get_entity_state_tool, get_recent_timeline_tool, search_story_memory_tool
from core.novel.memory.vectors import VectorStoreUnavailable

__all__ = [
    "DEFAULT_TOP_K",
    "IndexReport",
    "MemoryStore",
    "MemoryTools",
    "SearchResult",
    "VectorStoreUnavailable",
    "close_memory",
    "configure_memory",
    "derive_analysis",
    "ensure_index",
    "get_entity_state_tool",
    "get_recent_timeline_tool",
    "index_project",
    "memory_store",
    "retrieve_scene_memory_context",
    "search_story_memory_tool",
]
