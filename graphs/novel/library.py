"""What the novel graphs need of a project, over core/novel's `NovelProject` (NovelGen files).

`ProjectFiles` opens a project from the runtime's `NovelConfig`, names its files by step and
chapter, and adds the one piece of state the workflow keeps beside NovelGen's files: the run
journal (`.workflow_run.json`) — which chapters an unfinished run still had to write — so that
`resume` works from any entry point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from core.i18n import t
from core.novel.project import NovelProject, ProjectError, check_project_id, project_status
from core.settings import Settings
from core.tools.novel import NovelConfig
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    ChapterSummary,
    Character,
    GeneratedChapter,
    NovelSettings,
    SceneMemoryContext,
    UserPreference,
)
from schemas.novel_chat import NovelStatus

JOURNAL = ".workflow_run.json"
SETUP_FILES = {"world": "world.json", "theme_conflict": "theme_conflict.json", "characters": "characters.json",
               "outline": "outline.json"}

NovelProjectError = ProjectError  # one error type with a sentence for the user: core/novel's


class RunJournal(BaseModel):
    to_chapter: int
    force: bool = False
    pending: list[int] = Field(default_factory=list)


@dataclass
class IndexReport:
    chunks: int = 0
    snapshots: int = 0
    degraded: bool = False


def novel_config(tools: Mapping[str, Any] | None = None) -> NovelConfig:
    """The runtime's novel settings (FlowContext.tools["novel"]); the environment's when run bare."""
    configured = (tools or {}).get("novel")
    return configured if isinstance(configured, NovelConfig) else NovelConfig.from_settings(Settings())


def list_projects(config: NovelConfig) -> list[str]:
    root = config.projects_dir
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and NovelProject(p.name, p).exists()) if root else []


def check_project_option(options: Mapping[str, Any], tools: Mapping[str, Any]) -> None:
    """Refuse a missing or unknown project with a sentence (ValueError) before anything runs."""
    project_id = options.get("projectId")
    if not isinstance(project_id, str) or not project_id.strip():
        raise ValueError(t("novel.need_project_id"))
    try:
        ProjectFiles.open(novel_config(tools), project_id)
    except ProjectError as error:
        raise ValueError(error.user_message) from error


class ProjectFiles:
    def __init__(self, project: NovelProject) -> None:
        self.project = project
        self.project_id = project.project_id
        self.root = project.root

    @classmethod
    def open(cls, config: NovelConfig, project_id: str) -> ProjectFiles:
        check_project_id(project_id)
        project = NovelProject(project_id, config.projects_dir / project_id)
        if not project.exists():
            raise ProjectError(t("novel.unknown_project", project=project_id,
                                 known="、".join(list_projects(config)) or "—"))
        return cls(project)

    @classmethod
    def create(cls, config: NovelConfig, project_id: str, **fields: Any) -> ProjectFiles:
        check_project_id(project_id)
        project = NovelProject(project_id, config.projects_dir / project_id)
        given = {k: v for k, v in fields.items() if v not in (None, "")}
        chapters = given.get("initial_chapters")
        if chapters:
            given.setdefault("max_chapters", max(chapters, 50))
        if project.exists():
            raise ProjectError(t("novel.project_exists", project_id=project_id))
        (project.root / "chapters").mkdir(parents=True, exist_ok=True)
        project.save_settings(NovelSettings(project_name=project_id, **given))
        return cls(project)

    # ---- the set-up steps, by name
    def settings(self) -> NovelSettings:
        return self.project.load_settings() or NovelSettings(project_name=self.project_id, world_description="")

    def file_name(self, step: str) -> str:
        return SETUP_FILES[step]

    def has(self, step: str) -> bool:
        return (self.root / SETUP_FILES[step]).exists()

    def load(self, step: str):
        return getattr(self.project, f"load_{step}")()

    def save(self, step: str, value: BaseModel) -> None:
        getattr(self.project, f"save_{step}")(value)

    # ---- chapters
    def chapter_file_name(self, number: int) -> str:
        return self.project.chapter_path(number).relative_to(self.root).as_posix()

    def has_plan(self, number: int) -> bool:
        return self.project.chapter_plan_path(number).exists()

    def has_chapter(self, number: int) -> bool:
        return self.project.chapter_path(number).exists()

    def load_plan(self, number: int) -> ChapterPlan:
        return self.project.load_chapter_plan(number)

    def save_plan(self, plan: ChapterPlan) -> None:
        self.project.save_chapter_plan(plan)

    def load_chapter(self, number: int) -> GeneratedChapter:
        return self.project.load_chapter(number)

    def save_chapter(self, chapter: GeneratedChapter) -> None:
        self.project.save_chapter(chapter)

    def chapter_numbers(self) -> list[int]:
        return self.project.chapter_numbers()

    def chapter_summary(self, number: int) -> ChapterSummary | None:
        outline = self.project.load_outline()
        return outline.chapter(number) if outline else None

    def chapter_memory(self) -> list[ChapterMemoryEntry]:
        return self.project.load_chapter_memory()

    def upsert_chapter_memory(self, entry: ChapterMemoryEntry) -> None:
        self.project.upsert_chapter_memory(entry)

    def all_characters(self) -> list[Character]:
        characters = self.project.load_characters()
        return characters.all_characters() if characters else []

    # ---- preferences
    def preferences(self) -> list[dict[str, Any]]:
        return [p.model_dump(mode="json") for p in self.project.load_preferences()]

    def add_preference(self, preference_type: str, content: str, source: str) -> dict[str, Any]:
        entry = UserPreference(project_id=self.project_id, preference_type=preference_type, content=content,
                               source=source, timestamp=datetime.now())
        self.project.add_preference(entry)
        return entry.model_dump(mode="json")

    # ---- run journal
    def run_journal(self) -> RunJournal | None:
        path = self.root / JOURNAL
        return RunJournal.model_validate_json(path.read_text(encoding="utf-8")) if path.exists() else None

    def record_run(self, *, to_chapter: int, force: bool, pending: list[int]) -> None:
        self.project.write_json(self.root / JOURNAL, RunJournal(to_chapter=to_chapter, force=force, pending=pending).model_dump())

    def clear_run(self) -> None:
        (self.root / JOURNAL).unlink(missing_ok=True)

    # ---- destructive (callers confirm first)
    def remove_chapters_from(self, first: int) -> list[str]:
        removed = self.project.delete_chapters_after(first - 1)
        self.clear_run()
        return [p.relative_to(self.root).as_posix() for p in removed]

    def remove_generated(self) -> list[str]:
        removed = self.remove_chapters_from(1)
        for name in [*SETUP_FILES.values(), "chapter_memory.json", "consistency_reports.json"]:
            if (self.root / name).exists():
                (self.root / name).unlink()
                removed.append(name)
        return removed

    # ---- status
    def status(self, top_preferences: int = 5) -> NovelStatus:
        base = project_status(self.project)
        return NovelStatus(**base.model_dump(), chapters_planned=base.chapter_plans,
                           preferences_top=self.preferences()[-top_preferences:], resumable=self.run_journal() is not None)

    # ---- memory
    async def search_passages(self, query: str, entities: list[str], top_k: int):
        from core.retrieval.bm25 import BM25Index
        from graphs.novel.tools import Passage
        from graphs.novel.understanding import sentences_of

        passages = [(chapter.chapter_number, scene.scene_number, line)
                    for chapter in self.project.iter_chapters() for scene in chapter.scenes
                    for line in sentences_of(scene.content)]
        if entities:
            passages = [p for p in passages if any(e in p[2] for e in entities)] or passages
        index = BM25Index([p[2] for p in passages])
        return [Passage(passages[i][0], passages[i][1], passages[i][2], score) for i, score in index.search(query, top_k)]

    async def index_all(self) -> IndexReport:
        return IndexReport()


class _NoMemory:
    async def context_for(self, *args: Any, **kwargs: Any) -> SceneMemoryContext | None:
        return None

    async def index_chapter(self, chapter: GeneratedChapter, entry: ChapterMemoryEntry) -> IndexReport:
        return IndexReport()


def memory_chain_for(files: ProjectFiles):
    return _NoMemory()


def indexer_for(files: ProjectFiles):
    return _NoMemory()
