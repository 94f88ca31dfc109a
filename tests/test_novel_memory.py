"""Story memory of a NovelGen project: indexing, the three tools, and the scene memory chain alone."""

from __future__ import annotations

import inspect
import json
import logging
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from core.llm.base import LLMError
from core.novel.memory import (
    MemoryTools,
    close_memory,
    configure_memory,
    derive_analysis,
    get_entity_state_tool,
    get_recent_timeline_tool,
    index_project,
    memory_store,
    retrieve_scene_memory_context,
    search_story_memory_tool,
)
from core.novel.project import NovelProject, ProjectError
from core.settings import Settings
from schemas.novel import SceneMemoryContext, ScenePlan

TEST_PROJECT = Path(__file__).resolve().parent / "data" / "novel" / "qingyun"


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def _project_copy(root: Path, **overrides) -> Settings:
    settings = Settings(data_dir=root / "data", novel_projects_dir=root / "projects", **overrides)
    shutil.copytree(TEST_PROJECT, settings.projects_dir / "qingyun")
    return settings


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory):
    """The test project indexed once with real embeddings in local Qdrant (embedding is the slow part)."""
    settings = _project_copy(tmp_path_factory.mktemp("memory"))
    configure_memory(settings)
    report = index_project("qingyun")
    yield settings, report
    configure_memory(None)
    close_memory()


@pytest.fixture
def keyword_only(tmp_path: Path):
    """A fresh copy whose vector store is a Qdrant server nobody listens on."""
    settings = _project_copy(tmp_path, qdrant_url=_dead_url(), qdrant_timeout_s=2)
    yield settings
    close_memory()


class FailingLLM:
    provider = "test"
    max_concurrency = 1

    async def structured(self, schema, **kwargs):
        raise LLMError("模型不可用", detail="test")


def _scene(chapter: int, scene: int, settings: Settings) -> ScenePlan:
    return NovelProject.open("qingyun", settings).load_chapter_plan(chapter).scenes[scene - 1]


def _characters(settings: Settings):
    return NovelProject.open("qingyun", settings).load_characters()


# --- indexing -------------------------------------------------------------------------------------


def test_hand_written_project_indexes_with_vectors(indexed) -> None:
    _, report = indexed
    assert (report.chapters, report.vectors, report.problems) == (3, True, [])
    scene_chunks = [c for c in memory_store("qingyun").db.chunks() if c.content_type == "scene"]
    assert {(c.chapter_index, c.scene_index) for c in scene_chunks} == {(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)}


def test_scene_chunk_lists_the_characters_its_text_names(indexed) -> None:
    chunk = next(c for c in memory_store("qingyun").db.chunks() if c.chunk_id == "qingyun/c002/s002/0")
    assert chunk.entities_mentioned == ["林风", "苏月"]
    assert chunk.tags == ["发展", "江心古城林家祠堂"]


def test_second_index_run_redoes_nothing_unchanged(indexed) -> None:
    assert index_project("qingyun").sources_updated == []


# --- tools ----------------------------------------------------------------------------------------


def test_tool_signatures_and_defaults_follow_the_spec() -> None:
    search = inspect.signature(search_story_memory_tool).parameters
    assert list(search) == ["project_id", "query", "entities", "content_type", "tags", "top_k"]
    assert [search[p].default for p in ("entities", "content_type", "tags", "top_k")] == [None, None, None, 10]
    state = inspect.signature(get_entity_state_tool).parameters
    assert list(state) == ["project_id", "entity_id", "chapter_index", "scene_index"]
    assert (state["chapter_index"].default, state["scene_index"].default) == (None, None)
    assert list(inspect.signature(get_recent_timeline_tool).parameters) == ["project_id", "chapter_index", "context_window"]


def test_search_finds_the_scene_with_the_palm_print(indexed) -> None:
    found = search_story_memory_tool("qingyun", "残碑上焦黑的掌印")
    assert ("qingyun/c002/s002/0") in [c.chunk_id for c in found[:3]]


def test_search_returns_ten_chunks_by_default(indexed) -> None:
    assert len(search_story_memory_tool("qingyun", "林风")) == 10


def test_search_keeps_only_chunks_naming_the_entity_and_type(indexed) -> None:
    found = search_story_memory_tool("qingyun", "师父", entities=["白若雪"], content_type="scene")
    assert found
    assert all("白若雪" in c.entities_mentioned and c.content_type == "scene" for c in found)


def test_search_filters_by_tag(indexed) -> None:
    found = search_story_memory_tool("qingyun", "江水", tags=["落霞江畔"])
    assert [c.chunk_id for c in found] == ["qingyun/c002/s001/0"]


def test_entity_state_follows_the_change_of_master(indexed) -> None:
    at_chapter_two = get_entity_state_tool("qingyun", "林风", chapter_index=2)
    latest = get_entity_state_tool("qingyun", "林风")
    assert "陈玄" in at_chapter_two.state_data["state"]
    assert "白若雪" in latest.state_data["state"]
    assert latest.version > at_chapter_two.version


def test_entity_state_at_a_scene_is_that_scene(indexed) -> None:
    snapshot = get_entity_state_tool("qingyun", "苏月", chapter_index=2, scene_index=1)
    assert (snapshot.chapter_index, snapshot.scene_index, snapshot.state_data["location"]) == (2, 1, "落霞江畔")


def test_unknown_entity_has_no_state(indexed) -> None:
    assert get_entity_state_tool("qingyun", "无名氏") is None


def test_timeline_window_spans_chapters_around_the_given_one(indexed) -> None:
    only_two = get_recent_timeline_tool("qingyun", 2, 0)
    around_two = get_recent_timeline_tool("qingyun", 2, 1)
    assert {s.chapter_index for s in only_two} == {2}
    assert {s.chapter_index for s in around_two} == {1, 2, 3}


# --- the chain ------------------------------------------------------------------------------------


async def test_chain_alone_retrieves_only_the_past_and_writes_its_file(indexed) -> None:
    settings, _ = indexed
    context = await retrieve_scene_memory_context(_scene(3, 1, settings), _characters(settings), "qingyun", 3, 1)
    assert context.relevant_memories
    assert all(m.chapter_index < 3 for m in context.relevant_memories)
    assert "陈玄" in {s.entity_id for s in context.entity_states}
    assert "陈玄" in context.timeline_context["character_states_by_chapter"]["2"]["林风"]
    assert context.degraded == []
    written = settings.projects_dir / "qingyun" / "scene_3_1_memory.json"
    assert SceneMemoryContext.model_validate(json.loads(written.read_text(encoding="utf-8"))) == context


async def test_chain_gives_the_state_before_the_scene_not_after(indexed) -> None:
    settings, _ = indexed
    context = await retrieve_scene_memory_context(_scene(3, 2, settings), _characters(settings), "qingyun", 3, 2)
    lin_feng = next(s for s in context.entity_states if s.entity_id == "林风")
    assert (lin_feng.chapter_index, lin_feng.scene_index) == (3, 1)


async def test_chain_with_only_search_wired_still_answers(indexed) -> None:
    settings, _ = indexed
    tools = MemoryTools(search=search_story_memory_tool)
    context = await retrieve_scene_memory_context(
        _scene(2, 2, settings), _characters(settings), "qingyun", 2, 2, tools=tools, write_json=False
    )
    assert context.relevant_memories
    assert (context.entity_states, context.timeline_context) == ([], None)


async def test_chain_with_vector_store_down_uses_keyword_search(keyword_only, caplog) -> None:
    caplog.set_level(logging.WARNING)
    context = await retrieve_scene_memory_context(
        _scene(3, 1, keyword_only), _characters(keyword_only), "qingyun", 3, 1, settings=keyword_only
    )
    assert context.relevant_memories
    assert any("向量检索暂不可用" in note for note in context.degraded)
    assert any(r.levelno == logging.WARNING for r in caplog.records)


def test_project_without_index_gets_one_on_first_search(keyword_only) -> None:
    assert not (keyword_only.novel_memory_dir / "qingyun").exists()
    found = memory_store("qingyun", keyword_only).search("玉笛").chunks
    assert found and found[0].chunk_id.startswith("qingyun/c001/s002")


def test_edited_chapter_is_searched_with_its_new_text(keyword_only) -> None:
    store = memory_store("qingyun", keyword_only)
    store.search("玉笛")
    project = NovelProject.open("qingyun", keyword_only)
    chapter = project.load_chapter(1)
    chapter.scenes[0].content += "\n殿外忽然飞来一只青鸾。"
    project.save_chapter(chapter)
    assert store.search("青鸾").chunks[0].chapter_index == 1


async def test_chain_with_database_failure_has_no_entity_states(keyword_only) -> None:
    db_path = keyword_only.novel_memory_dir / "qingyun" / "memory.sqlite"
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"this is not a database" * 100)
    context = await retrieve_scene_memory_context(
        _scene(3, 1, keyword_only), _characters(keyword_only), "qingyun", 3, 1, settings=keyword_only
    )
    assert context.entity_states == []
    assert any("角色状态查询失败" in note for note in context.degraded)


async def test_chain_json_write_failure_is_logged_and_context_returned(keyword_only, caplog) -> None:
    (keyword_only.projects_dir / "qingyun" / "scene_2_1_memory.json").mkdir()
    context = await retrieve_scene_memory_context(
        _scene(2, 1, keyword_only), _characters(keyword_only), "qingyun", 2, 1, settings=keyword_only
    )
    assert context.scene_index == 1
    assert any(r.levelno == logging.ERROR and "scene_2_1_memory.json" in r.getMessage() for r in caplog.records)


async def test_chain_falls_back_to_the_plan_when_the_model_fails(keyword_only) -> None:
    context = await retrieve_scene_memory_context(
        _scene(2, 2, keyword_only), _characters(keyword_only), "qingyun", 2, 2, settings=keyword_only, llm=FailingLLM()
    )
    assert context.relevant_memories
    assert any("模型未能分析场景" in note for note in context.degraded)


def test_analysis_from_the_plan_adds_characters_its_actions_name() -> None:
    plan = ScenePlan(
        scene_number=1, location="藏经阁", characters=["林风"], purpose="查找剑谱",
        key_actions=["林风翻到陈玄的批注", "林风藏起残页"], estimated_words=300, scene_type="发展", intensity="中",
    )
    analysis = derive_analysis(plan, ["林风", "陈玄", "苏月"])
    assert analysis.key_entities == ["林风", "陈玄"]
    assert analysis.search_queries[:3] == ["藏经阁 查找剑谱", "林风翻到陈玄的批注", "林风藏起残页"]


def test_indexing_over_a_broken_memory_db_says_what_to_delete(keyword_only) -> None:
    db_path = keyword_only.novel_memory_dir / "qingyun" / "memory.sqlite"
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ProjectError) as caught:
        index_project("qingyun", keyword_only)
    assert str(db_path.parent) in caught.value.user_message


def test_qdrant_path_held_by_another_process_falls_back_to_keywords(tmp_path: Path) -> None:
    settings = _project_copy(tmp_path)
    path = settings.novel_memory_dir / "qdrant"
    path.mkdir(parents=True)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from qdrant_client import QdrantClient; c = QdrantClient(path=sys.argv[1]); "
         "print('ready', flush=True); sys.stdin.read(); c.close()", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        result = memory_store("qingyun", settings).search("玉笛")
        assert result.chunks
        assert any("向量检索暂不可用" in note for note in result.degraded)
    finally:
        holder.communicate("", timeout=30)
        close_memory()
