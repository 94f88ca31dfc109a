"""The memory tools of spec 003, with its signatures and defaults.

They use the settings given to `configure_memory()` (else the environment), index a project on first
use, and never raise for a store that is down: they log a warning and answer with what they have
([] / None). Callers that need to know *why* (the scene memory chain) use `MemoryStore` directly.
"""

from __future__ import annotations

import logging

from core.i18n import t
from core.novel.memory.store import DEFAULT_TOP_K, memory_store
from schemas.novel import EntityStateSnapshot, StoryMemoryChunk

log = logging.getLogger(__name__)


def search_story_memory_tool(
    project_id: str,
    query: str,
    entities: list[str] | None = None,
    content_type: str | None = None,
    tags: list[str] | None = None,
    top_k: int = DEFAULT_TOP_K,
) -> list[StoryMemoryChunk]:
    """Story memory chunks relevant to `query`, best first (vector + keyword search, fused).

    entities: keep chunks that mention any of these characters; content_type: scene, summary, event
    or character_state; tags: keep chunks with any of these tags (scene type, location, time anchor).
    """
    result = memory_store(project_id).search(
        query, entities=entities, content_type=content_type, tags=tags, top_k=top_k
    )
    for note in result.degraded:
        log.warning("%s", note)
    return result.chunks


def get_entity_state_tool(
    project_id: str,
    entity_id: str,
    chapter_index: int | None = None,
    scene_index: int | None = None,
) -> EntityStateSnapshot | None:
    """The entity's latest state snapshot at that point of the story (the latest overall without one)."""
    try:
        return memory_store(project_id).entity_state(entity_id, chapter_index, scene_index)
    except Exception as error:
        log.warning("%s", t("novel.memory_state_failed", problem=str(error)[:200]))
        return None


def get_recent_timeline_tool(project_id: str, chapter_index: int, context_window: int) -> list[EntityStateSnapshot]:
    """Every state snapshot from chapter `chapter_index - context_window` to `chapter_index + context_window`."""
    try:
        return memory_store(project_id).timeline(chapter_index, context_window)
    except Exception as error:
        log.warning("%s", t("novel.memory_timeline_failed", problem=str(error)[:200]))
        return []
