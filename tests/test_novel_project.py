"""NovelGen-format project folders: open, round trip, atomic saves, malformed files, status."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.novel.project import NovelProject, ProjectError, list_projects, project_status
from core.settings import Settings
from schemas.novel import ChapterMemoryEntry, GeneratedChapter, GeneratedScene, NovelSettings

TEST_PROJECT = Path(__file__).resolve().parent / "data" / "novel" / "qingyun"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", novel_projects_dir=tmp_path / "projects")


@pytest.fixture
def project(settings: Settings) -> NovelProject:
    shutil.copytree(TEST_PROJECT, settings.projects_dir / "qingyun")
    return NovelProject.open("qingyun", settings)


def _json_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.json"))


def test_hand_written_project_opens_with_every_file(project: NovelProject) -> None:
    assert project.validate_all() == []
    assert project.load_characters().protagonist.relationships["陈玄"] == "师父"
    assert project.chapter_numbers() == [1, 2, 3]
    assert project.load_chapter_plan(2).scenes[1].location == "江心古城林家祠堂"


def test_load_then_save_reproduces_every_file_byte_for_byte(project: NovelProject, tmp_path: Path) -> None:
    copy = NovelProject("qingyun", tmp_path / "copy" / "qingyun")
    copy.save_settings(project.load_settings())
    copy.save_world(project.load_world())
    copy.save_theme_conflict(project.load_theme_conflict())
    copy.save_characters(project.load_characters())
    copy.save_outline(project.load_outline())
    copy.save_chapter_memory(project.load_chapter_memory())
    copy.save_consistency_reports(project.load_consistency_reports())
    for number in project.chapter_numbers():
        copy.save_chapter_plan(project.load_chapter_plan(number))
        copy.save_chapter(project.load_chapter(number))
    originals = {p.relative_to(project.root): p.read_bytes() for p in _json_files(project.root)}
    written = {p.relative_to(copy.root): p.read_bytes() for p in _json_files(copy.root)}
    assert written == originals


def test_keys_from_another_novelgen_version_survive_a_round_trip(project: NovelProject) -> None:
    plan = project.load_chapter_plan(1)
    project.save_chapter_plan(plan)
    saved = json.loads(project.chapter_plan_path(1).read_text(encoding="utf-8"))
    assert saved["scenes"][0]["developer_name"] == "Jamesenh"


def test_project_missing_optional_files_still_loads(settings: Settings) -> None:
    project = NovelProject.create("新书", NovelSettings(project_name="新书", world_description="赛博都市"), settings)
    assert (project.load_world(), project.load_outline(), project.load_chapter_memory()) == (None, None, [])
    assert list_projects(settings) == ["新书"]


def test_malformed_chapter_names_file_and_field(project: NovelProject) -> None:
    data = json.loads(project.chapter_path(2).read_text(encoding="utf-8"))
    data["scenes"][1]["word_count"] = "很多"
    project.chapter_path(2).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ProjectError) as caught:
        project.load_chapter(2)
    assert "qingyun/chapters/chapter_002.json" in caught.value.user_message
    assert "scenes[1].word_count" in caught.value.user_message
    assert "Traceback" not in caught.value.user_message


def test_missing_field_names_file_and_field(project: NovelProject) -> None:
    data = json.loads((project.root / "world.json").read_text(encoding="utf-8"))
    del data["geography"]
    (project.root / "world.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ProjectError) as caught:
        project.load_world()
    assert caught.value.file == "qingyun/world.json"
    assert caught.value.field == "geography"


def test_truncated_json_file_gets_a_sentence_with_its_position(project: NovelProject) -> None:
    text = project.chapter_plan_path(3).read_text(encoding="utf-8")
    project.chapter_plan_path(3).write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(ProjectError) as caught:
        project.load_chapter_plan(3)
    assert "chapter_003_plan.json" in caught.value.user_message


def test_generated_scene_counts_non_whitespace_characters() -> None:
    scene = GeneratedScene.from_content(1, "林风 拔剑。\n  苏月笑了。")
    chapter = GeneratedChapter.assemble(1, "t", [scene, GeneratedScene.from_content(2, "a b")])
    assert (scene.word_count, chapter.total_words) == (10, 12)


def test_save_leaves_no_temporary_file_and_valid_json(project: NovelProject) -> None:
    chapter = project.load_chapter(1)
    project.save_chapter(chapter.model_copy(update={"chapter_title": "新标题"}))
    assert [p.name for p in project.chapters_dir.iterdir() if p.name.endswith(".tmp")] == []
    assert json.loads(project.chapter_path(1).read_text(encoding="utf-8"))["chapter_title"] == "新标题"


def test_chapter_memory_rerun_replaces_its_entry(project: NovelProject) -> None:
    project.upsert_chapter_memory(ChapterMemoryEntry(chapter_number=2, chapter_title="江心古城", summary="重写"))
    entries = project.load_chapter_memory()
    assert [e.chapter_number for e in entries] == [1, 2, 3]
    assert entries[1].summary == "重写"


def test_status_counts_plans_chapters_scenes_and_words(project: NovelProject) -> None:
    project.chapter_path(3).unlink()
    status = project_status(project)
    assert status.steps_done == ["world", "theme_conflict", "characters", "outline"]
    assert (status.chapter_plans, status.chapters_generated, status.outline_chapters) == (3, 2, 3)
    assert [c.scenes for c in status.chapters] == [2, 2, 0]
    assert status.total_words == sum(c.total_words for c in project.iter_chapters())


def test_status_reports_a_malformed_file_instead_of_failing(project: NovelProject) -> None:
    (project.root / "outline.json").write_text("{", encoding="utf-8")
    status = project_status(project)
    assert not status.steps[3].done
    assert "outline.json" in status.problems[0]


def test_project_id_with_a_path_separator_is_refused(settings: Settings) -> None:
    with pytest.raises(ProjectError):
        NovelProject.open("../etc", settings)
