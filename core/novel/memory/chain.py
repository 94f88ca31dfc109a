"""The scene memory chain (spec 003): scene plan in, `SceneMemoryContext` out. Stateless; needs no runtime.

1. The model analyses the scene into search queries and key entities (`MemoryRetrievalAnalysis`,
   structured output validated by pydantic; the LLM layer re-asks with the validation error). If the
   model fails, the analysis is derived from the plan itself and a `degraded` note says so.
2. Each query searches the story memory (filtered to the key entities), results fused by rank;
   nothing from the scene being written or later is kept.
3. The key entities' latest states before this scene, and a timeline window around the chapter.
4. The context is written to `projects/<id>/scene_<chapter>_<scene>_memory.json`.

No retrieval failure stops the chain: each part that fails is left empty, logged, and named in
`degraded`; a failed write is logged and the context is still returned.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from core.i18n import t
from core.llm.base import LLM
from core.llm.offline import OfflineRequest, offline_composer
from core.novel.memory.derive import mentioned
from core.novel.memory.store import DEFAULT_TOP_K, SearchResult, fuse, memory_settings, memory_store
from core.novel.project import NovelProject, ProjectError
from core.settings import Settings
from schemas.novel import (
    ChapterPlan,
    CharactersConfig,
    EntityStateSnapshot,
    MemoryRetrievalAnalysis,
    NovelSettings,
    SceneMemoryContext,
    ScenePlan,
    StoryMemoryChunk,
)

log = logging.getLogger(__name__)

MAX_QUERIES = 5
PER_QUERY_TOP_K = 5
TIMELINE_WINDOW = 1

SearchFn = Callable[..., "SearchResult | list[StoryMemoryChunk]"]
EntityStateFn = Callable[..., "EntityStateSnapshot | None"]
TimelineFn = Callable[..., "list[EntityStateSnapshot]"]


@dataclass
class MemoryTools:
    """What the chain retrieves with. Only `search` is required: entity states and the timeline
    may be unwired (None), and the chain still produces a valid context without them."""

    search: SearchFn
    entity_state: EntityStateFn | None = None
    timeline: TimelineFn | None = None

    @classmethod
    def for_project(cls, project_id: str, settings: Settings | None = None) -> MemoryTools:
        store = memory_store(project_id, settings)
        return cls(
            search=lambda project_id, query, **kw: store.search(query, **kw),
            entity_state=lambda project_id, entity_id, chapter_index=None, scene_index=None: store.entity_state(
                entity_id, chapter_index, scene_index, before=True
            ),
            timeline=lambda project_id, chapter_index, context_window: store.timeline(chapter_index, context_window),
        )


SYSTEM_PROMPT = (
    "你是小说记忆检索分析助手。根据即将写作的场景计划，找出需要查询状态的关键实体（主要是出场角色），"
    "并给出 2-5 条语义化的检索短语，用来在已写章节中找相关的情节、事件和人物关系。只输出 JSON。"
)


def analysis_prompt(scene: ScenePlan, characters: CharactersConfig | None, chapter_index: int, scene_index: int,
                    novel_settings: NovelSettings | None, chapter_plan: ChapterPlan | None) -> str:
    lines = [
        f"第 {chapter_index} 章第 {scene_index} 场",
        f"场景类型：{scene.scene_type}；强度：{scene.intensity}",
        f"地点：{scene.location}",
        f"出场角色：{'、'.join(scene.characters)}",
        f"场景目的：{scene.purpose}",
        "关键动作：" + "；".join(scene.key_actions),
        "已知角色：" + "、".join(f"{c.name}（{c.role}）" for c in (characters.all_characters() if characters else [])),
    ]
    if chapter_plan:
        lines.append(f"本章：{chapter_plan.chapter_title}")
    if novel_settings:
        lines.append(f"世界观：{novel_settings.world_description}")
    return "\n".join(lines)


@offline_composer(MemoryRetrievalAnalysis)
def _offline_analysis(request: OfflineRequest) -> MemoryRetrievalAnalysis:
    """Offline: the analysis derived from the plan (see `derive_analysis`)."""
    scene = ScenePlan.model_validate(request.fact("scene_plan"))
    return derive_analysis(scene, request.fact("known_characters", []))


def derive_analysis(scene: ScenePlan, known_characters: list[str]) -> MemoryRetrievalAnalysis:
    """Queries and entities read off the plan: the characters present plus known characters the
    purpose or actions name; one query per key action, and the place with the scene's purpose."""
    named = mentioned(" ".join([scene.purpose, scene.location, *scene.key_actions]), known_characters)
    entities = list(dict.fromkeys([*scene.characters, *named]))
    queries = [f"{scene.location} {scene.purpose}".strip(), *scene.key_actions]
    if len(entities) > 1:
        queries.append("与".join(entities[:3]) + "的关系")
    queries = [q for q in dict.fromkeys(q.strip() for q in queries) if q]
    return MemoryRetrievalAnalysis(search_queries=queries[:MAX_QUERIES], key_entities=entities)


async def retrieve_scene_memory_context(
    scene_plan: ScenePlan,
    characters: CharactersConfig | None,
    project_id: str,
    chapter_index: int,
    scene_index: int,
    *,
    novel_settings: NovelSettings | None = None,
    chapter_plan: ChapterPlan | None = None,
    llm: LLM | None = None,
    tools: MemoryTools | None = None,
    settings: Settings | None = None,
    write_json: bool = True,
    top_k: int = DEFAULT_TOP_K,
) -> SceneMemoryContext:
    settings = memory_settings(settings)
    degraded: list[str] = []

    analysis = await _analyse(scene_plan, characters, chapter_index, scene_index, novel_settings, chapter_plan,
                              llm, settings, degraded)
    if tools is None:
        try:
            tools = MemoryTools.for_project(project_id, settings)
        except ProjectError as error:  # an unusable project id: nothing can be retrieved
            degraded.append(t("novel.memory_search_failed", problem=error.user_message))
            tools = MemoryTools(search=lambda *a, **k: [])

    memories = await asyncio.to_thread(
        _search_memories, tools, project_id, analysis, chapter_index, scene_index, top_k, degraded
    )
    states = await asyncio.to_thread(_entity_states, tools, project_id, analysis, chapter_index, scene_index, degraded)
    timeline = await asyncio.to_thread(_timeline, tools, project_id, chapter_index, scene_index, degraded)

    context = SceneMemoryContext(
        project_id=project_id,
        chapter_index=chapter_index,
        scene_index=scene_index,
        entity_states=states,
        relevant_memories=memories,
        timeline_context=timeline,
        retrieval_timestamp=datetime.now(timezone.utc),
        degraded=list(dict.fromkeys(degraded)),
    )
    if write_json:
        _write(context, settings)
    return context


async def _analyse(scene, characters, chapter_index, scene_index, novel_settings, chapter_plan, llm, settings,
                   degraded) -> MemoryRetrievalAnalysis:
    known = characters.names() if characters else []
    try:
        if llm is None:
            from core.llm.factory import make_llm

            llm = make_llm(settings)
        analysis = await llm.structured(
            MemoryRetrievalAnalysis,
            role="novel_memory",
            system=SYSTEM_PROMPT,
            prompt=analysis_prompt(scene, characters, chapter_index, scene_index, novel_settings, chapter_plan),
            facts={"scene_plan": scene.model_dump(mode="json"), "known_characters": known},
        )
    except Exception as error:  # a model that is down or keeps answering off-schema must not block writing
        _degrade(degraded, t("novel.memory_analysis_failed", problem=getattr(error, "user_message", str(error))[:200]))
        return derive_analysis(scene, known)
    if not analysis.search_queries or not analysis.key_entities:
        fallback = derive_analysis(scene, known)
        analysis = MemoryRetrievalAnalysis(
            search_queries=analysis.search_queries or fallback.search_queries,
            key_entities=analysis.key_entities or fallback.key_entities,
        )
    return analysis


def _is_past(chunk: StoryMemoryChunk, chapter_index: int, scene_index: int) -> bool:
    if chunk.chapter_index is None:
        return True
    if chunk.chapter_index != chapter_index:
        return chunk.chapter_index < chapter_index
    # Same chapter: earlier scenes only; chapter-wide chunks (summaries) describe the whole chapter.
    return chunk.scene_index is not None and chunk.scene_index < scene_index


def _search_memories(tools, project_id, analysis, chapter_index, scene_index, top_k, degraded) -> list[StoryMemoryChunk]:
    rankings: list[list[StoryMemoryChunk]] = []
    depth = PER_QUERY_TOP_K * 3  # room for what the past-only filter removes

    def run(query: str, entities: list[str] | None) -> list[StoryMemoryChunk]:
        found = tools.search(project_id, query, entities=entities, top_k=depth)
        if isinstance(found, SearchResult):
            degraded.extend(found.degraded)
            found = found.chunks
        return [c for c in found if _is_past(c, chapter_index, scene_index)][:PER_QUERY_TOP_K]

    try:
        for query in analysis.search_queries[:MAX_QUERIES]:
            rankings.append(run(query, analysis.key_entities or None))
        if sum(len(r) for r in rankings) < top_k and analysis.search_queries:
            # Entity filters can starve a scene whose characters are new; the plain query widens it.
            rankings.append(run(analysis.search_queries[0], None))
    except Exception as error:
        _degrade(degraded, t("novel.memory_search_failed", problem=str(error)[:200]))
    return fuse(rankings, top_k)


def _entity_states(tools, project_id, analysis, chapter_index, scene_index, degraded) -> list[EntityStateSnapshot]:
    if tools.entity_state is None:
        degraded.append(t("novel.memory_tool_not_wired", tool=t("novel.memory_tool_entity_state")))
        return []
    states = []
    try:
        for entity in analysis.key_entities:
            snapshot = tools.entity_state(project_id, entity, chapter_index, scene_index)
            if snapshot is not None:
                states.append(snapshot)
    except Exception as error:
        _degrade(degraded, t("novel.memory_state_failed", problem=str(error)[:200]))
        return []
    return states


def _timeline(tools, project_id, chapter_index, scene_index, degraded) -> dict[str, Any] | None:
    if tools.timeline is None:
        degraded.append(t("novel.memory_tool_not_wired", tool=t("novel.memory_tool_timeline")))
        return None
    try:
        snapshots = tools.timeline(project_id, chapter_index, TIMELINE_WINDOW)
    except Exception as error:
        _degrade(degraded, t("novel.memory_timeline_failed", problem=str(error)[:200]))
        return None
    past = [s for s in snapshots if _snapshot_is_past(s, chapter_index, scene_index)]
    if not past:
        return None
    chapters: dict[str, dict[str, str]] = {}
    for snapshot in past:
        if snapshot.scene_index is None and "state" in snapshot.state_data:
            chapters.setdefault(str(snapshot.chapter_index), {})[snapshot.entity_id] = str(snapshot.state_data["state"])
    return {
        "chapter_range": [chapter_index - TIMELINE_WINDOW, chapter_index],
        "total_snapshots": len(past),
        "entities_tracked": sorted({s.entity_id for s in past}),
        "character_states_by_chapter": chapters,
    }


def _snapshot_is_past(snapshot: EntityStateSnapshot, chapter_index: int, scene_index: int) -> bool:
    if snapshot.chapter_index is None or snapshot.chapter_index < chapter_index:
        return True
    return snapshot.chapter_index == chapter_index and snapshot.scene_index is not None and snapshot.scene_index < scene_index


def _degrade(degraded: list[str], sentence: str) -> None:
    """A part of the retrieval that could not be done: logged, and named in the context's `degraded`."""
    log.warning("%s", sentence)
    degraded.append(sentence)


def _write(context: SceneMemoryContext, settings: Settings) -> None:
    try:
        project = NovelProject.at(context.project_id, settings)
        project.save_scene_memory(context)
    except ProjectError as error:
        log.error("%s", t("novel.memory_context_write_failed", file=error.file or context.project_id,
                          problem=error.detail or error.user_message))
    except Exception as error:  # the orchestrator carries on without the file
        log.error("%s", t("novel.memory_context_write_failed", file=context.project_id, problem=str(error)[:200]))
