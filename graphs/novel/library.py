"""What the novel graphs need of a project, over core/novel's `NovelProject` (NovelGen files).

`ProjectFiles` opens a project from the runtime's `NovelConfig`, names its files by step and
chapter, and adds the one piece of state the workflow keeps beside NovelGen's files: the run
journal (`.workflow_run.json`) — which chapters an unfinished run still had to write — so that
`resume` works from any entry point.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import asyncio
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from core.i18n import join_items, t
from core.language import language_of
from core.novel.memory import IndexReport as MemoryIndexReport
from core.novel.memory import index_project, memory_store, retrieve_scene_memory_context
from core.novel.memory.derive import sentences
from core.processes import nothing_running, run_alive, this_process
from core.novel.project import NovelProject, ProjectError, check_project_id, list_projects, project_status
from core.settings import Settings
from core.tools.novel import NovelConfig
from graphs.novel.offline import is_scene_note, without_heading
from graphs.novel.understanding import book_description
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    ChapterSummary,
    Character,
    GeneratedChapter,
    NovelSettings,
    SceneMemoryContext,
    ScenePlan,
    UserPreference,
)
from schemas.novel_chat import NovelStatus

JOURNAL = ".workflow_run.json"
SETUP_FILES = {"world": "world.json", "theme_conflict": "theme_conflict.json", "characters": "characters.json",
               "outline": "outline.json"}

NovelProjectError = ProjectError  # one error type with a sentence for the user: core/novel's


class GenerationRunning(ProjectError):
    """A run refused because another run of the project is writing it: nothing of it started, so there is
    nothing to resume (the runtime reads `resumable`); the person runs again once the other has ended."""

    resumable = False


class RunJournal(BaseModel):
    to_chapter: int
    force: bool = False
    pending: list[int] = Field(default_factory=list)
    # Who writes: the process (core.processes.this_process) and thread of the run, so that another
    # entry point can tell a run still going on from one to resume.
    runner: str | None = None
    thread_id: str | None = None

    def running(self, besides: str | None = None, running_here: Callable[[str], bool] = nothing_running) -> bool:
        """The run is going on now, in a thread other than `besides` (the asker's own); `running_here` says
        which threads have a run in progress in this process (NodeContext.thread_running)."""
        return self.thread_id != besides and run_alive(self.runner, self.thread_id, running_here)


def novel_config(tools: Mapping[str, Any] | None = None) -> NovelConfig:
    """The runtime's novel settings (FlowContext.tools["novel"]); the environment's when run bare."""
    configured = (tools or {}).get("novel")
    return configured if isinstance(configured, NovelConfig) else NovelConfig.from_settings(Settings())


def check_project_option(options: Mapping[str, Any], tools: Mapping[str, Any], message: str | None = None) -> None:
    """Refuse a missing, invalid or unknown project with a sentence (ValueError) before anything runs.

    `message`: the message of a flow that creates the project it is given (novel_workflow). An unknown
    project is then let through when the message describes the book (the flow's first step creates
    it: nothing is written here), and refused with how to create one when it only commands a run.
    """
    project_id = options.get("projectId")
    if not isinstance(project_id, str) or not project_id.strip():
        raise ValueError(t("novel.need_project_id"))
    config = novel_config(tools)
    try:
        project = ProjectFiles.project(config, project_id)
    except ProjectError as error:
        raise ValueError(error.user_message) from error
    if project.exists() or (message is not None and book_description(message)):
        return
    refusal = unknown_project(config, project_id)
    how_to = how_to_get_project(project_id) if message is None else t("novel.how_to_create_project")
    raise ValueError(f"{refusal}{how_to}")


def how_to_get_project(project_id: str) -> str:
    """For a flow that needs an existing project (the novel chat): where a project comes from, which the
    refusal alone does not say (a new user has none yet)."""
    return t("novel.how_to_get_project", flow=t("flows.novel_workflow_title"), project=project_id)


def unknown_project(config: NovelConfig, project_id: str) -> str:
    """There is no such project: the ones there are, or that there is none yet (not "existing projects: —")."""
    known = list_projects(config.settings)
    if not known:
        return t("novel.unknown_project_none_yet", project=project_id)
    return t("novel.unknown_project", project=project_id, known=join_items(known))


class ProjectFiles:
    def __init__(self, project: NovelProject, config: NovelConfig) -> None:
        self.project = project
        self.config = config
        self.project_id = project.project_id
        self.root = project.root

    @staticmethod
    def project(config: NovelConfig, project_id: str) -> NovelProject:
        """The project's folder (existing or not); an invalid id is a ProjectError."""
        check_project_id(project_id)
        return NovelProject(project_id, config.projects_dir / project_id)

    @classmethod
    def open(cls, config: NovelConfig, project_id: str) -> ProjectFiles:
        project = cls.project(config, project_id)
        if not project.exists():
            raise ProjectError(unknown_project(config, project_id))
        return cls(project, config)

    @classmethod
    def create(cls, config: NovelConfig, project_id: str, **fields: Any) -> ProjectFiles:
        """A new project's settings.json (`ng novel init`, and novel_workflow's first step for a new project)."""
        project = cls.project(config, project_id)
        given = {k: v.strip() if isinstance(v, str) else v for k, v in fields.items()}
        given = {k: v for k, v in given.items() if v not in (None, "")}
        # Checked before anything is written: a refused project must leave no folder behind to block a retry.
        if not given.get("world_description"):
            raise ProjectError(t("novel.init_world_empty"), field="world_description")
        chapters = given.get("initial_chapters")
        if chapters is not None and chapters < 1:
            raise ProjectError(t("novel.init_chapters_invalid", chapters=chapters), field="initial_chapters")
        if chapters:
            given.setdefault("max_chapters", max(chapters, 50))
        if project.exists():
            raise ProjectError(t("novel.project_exists", project_id=project_id))
        settings = NovelSettings(project_name=project_id, **given)
        (project.root / "chapters").mkdir(parents=True, exist_ok=True)
        project.save_settings(settings)
        return cls(project, config)

    # ---- the set-up steps, by name
    def settings(self) -> NovelSettings:
        return self.project.load_settings() or NovelSettings(project_name=self.project_id, world_description="")

    def language(self) -> str:
        """The language the book is written in: the one its author described the world (and theme) in."""
        settings = self.settings()
        return language_of(f"{settings.world_description} {settings.theme_description or ''}")

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

    def record_run(self, *, to_chapter: int, force: bool, pending: list[int], thread_id: str | None) -> None:
        journal = RunJournal(to_chapter=to_chapter, force=force, pending=pending, runner=this_process(), thread_id=thread_id)
        self.project.write_json(self.root / JOURNAL, journal.model_dump())

    def claim_run(self, thread_id: str | None, running_here: Callable[[str], bool] = nothing_running) -> None:
        """Before a run writes: refused while another run of this project goes on; a run resumed in a new
        process or thread becomes the journal's (so others see it running)."""
        journal = self.run_journal()
        if journal is None or (journal.runner, journal.thread_id) == (this_process(), thread_id):
            return
        if journal.running(besides=thread_id, running_here=running_here):
            raise GenerationRunning(t("novel.generation_running", project=self.project_id))
        self.record_run(to_chapter=journal.to_chapter, force=journal.force, pending=journal.pending, thread_id=thread_id)

    def clear_run(self) -> None:
        (self.root / JOURNAL).unlink(missing_ok=True)

    # ---- destructive (callers confirm first)
    def last_chapter_on_disk(self) -> int:
        """The highest chapter with a text, a plan or a memory entry (0: none) — what a rollback could remove."""
        numbers = [*self.chapter_numbers(), *self.project.chapter_plan_numbers(),
                   *(e.chapter_number for e in self.chapter_memory())]
        return max(numbers, default=0)

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
    def status(
        self, top_preferences: int = 5, asker: str | None = None, running_here: Callable[[str], bool] = nothing_running
    ) -> NovelStatus:
        """`asker`: the thread asking, whose own interrupted run is one to resume, never one running elsewhere."""
        base = project_status(self.project)
        journal = self.run_journal()
        running = journal is not None and journal.running(besides=asker, running_here=running_here)
        return NovelStatus(**base.model_dump(), chapters_planned=base.chapter_plans,
                           preferences_top=self.preferences()[-top_preferences:], resumable=journal is not None and not running,
                           running=running)

    # ---- story memory (core/novel/memory: chunks and entity states from these files; vectors + BM25)
    async def search_passages(self, query: str, entities: list[str], top_k: int):
        """Sentences of the memory chunks the search returns, with their chapter and scene, best first."""
        from graphs.novel.tools import Passage

        store = memory_store(self.project_id, self.config.settings)
        result = await asyncio.to_thread(store.search, query, entities=entities or None, top_k=top_k)
        found: list[Passage] = []
        for chunk in result.chunks:
            if chunk.chapter_index is None:
                continue
            lines = [without_heading(line) for line in sentences(chunk.content) if not is_scene_note(line)]
            named = [line for line in lines if any(e in line for e in entities)] if entities else lines
            found += [Passage(chunk.chapter_index, chunk.scene_index, line, chunk.score or 0.0) for line in named or lines[:1]]
        return found

    async def index_all(self) -> MemoryIndexReport:
        """Chunks and entity states of every chapter not indexed yet (changed chapters are re-indexed)."""
        return await asyncio.to_thread(index_project, self.project_id, self.config.settings)

    async def scene_memory(self, scene: ScenePlan, chapter: int, plan: ChapterPlan, llm: Any) -> SceneMemoryContext:
        """The scene memory chain; it writes scene_<chapter>_<scene>_memory.json itself and never raises on retrieval."""
        return await retrieve_scene_memory_context(
            scene, self.project.load_characters(), self.project_id, chapter, scene.scene_number,
            novel_settings=self.project.load_settings(), chapter_plan=plan, llm=llm, settings=self.config.settings,
        )
