"""What the novel graphs need of a project on disk, in one place.

`ProjectFiles` names the project's NovelGen files by step and chapter and adds the one piece of
state the workflow keeps beside them: the run journal (`.workflow_run.json`), i.e. which chapters
an unfinished run still had to write, so `resume` works from any entry point.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from pydantic import BaseModel, Field, ValidationError

from core.i18n import t
from core.settings import Settings
from core.tools.novel import NovelConfig
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    ChapterSummary,
    Character,
    CharactersConfig,
    GeneratedChapter,
    Outline,
    NovelSettings,
    SceneMemoryContext,
    ThemeConflict,
    WorldSetting,
)

STEP_FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "world": ("world.json", WorldSetting),
    "theme_conflict": ("theme_conflict.json", ThemeConflict),
    "characters": ("characters.json", CharactersConfig),
    "outline": ("outline.json", Outline),
}
JOURNAL = ".workflow_run.json"
_CHAPTER_FILE = re.compile(r"^chapter_(\d{3,})\.json$")


class NovelProjectError(Exception):
    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)
        self.user_message = user_message


class RunJournal(BaseModel):
    to_chapter: int
    force: bool = False
    pending: list[int] = Field(default_factory=list)


class StepState(BaseModel):
    name: str
    label: str
    file: str
    done: bool


class ChapterState(BaseModel):
    chapter_number: int
    chapter_title: str
    planned: bool
    generated: bool
    scenes: int = 0
    words: int = 0


class NovelStatus(BaseModel):
    project_id: str
    project_name: str
    steps: list[StepState]
    chapters_total: int = Field(description="Chapters in the outline")
    chapters_planned: int
    chapters_generated: int
    chapters: list[ChapterState]
    total_words: int
    memory_entries: int
    preferences_top: list[dict[str, Any]] = Field(default_factory=list)
    resumable: bool = False


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
    return sorted(p.name for p in root.iterdir() if (p / "settings.json").exists()) if root.exists() else []


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=2)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def check_project_option(options: Mapping[str, Any], tools: Mapping[str, Any]) -> None:
    """Refuse a missing or unknown project with a sentence (ValueError) before anything runs."""
    project_id = options.get("projectId")
    if not isinstance(project_id, str) or not project_id.strip():
        raise ValueError(t("novel.project_id_needed"))
    try:
        ProjectFiles.open(novel_config(tools), project_id)
    except NovelProjectError as error:
        raise ValueError(error.user_message) from error


class ProjectFiles:
    def __init__(self, project_id: str, root: Path) -> None:
        self.project_id = project_id
        self.root = root

    @classmethod
    def open(cls, config: NovelConfig, project_id: str) -> ProjectFiles:
        base = config.projects_dir
        root = (base / project_id).resolve()
        if root.parent != base.resolve() or not (root / "settings.json").exists():
            known = "、".join(list_projects(config)) or "—"
            raise NovelProjectError(t("novel.unknown_project", project=project_id, known=known))
        return cls(project_id, root)

    @classmethod
    def create(cls, config: NovelConfig, project_id: str, **fields: Any) -> ProjectFiles:
        root = config.projects_dir / project_id
        settings = NovelSettings(project_name=project_id, **{k: v for k, v in fields.items() if v not in (None, "")})
        _write_json(root / "settings.json", settings.model_dump(mode="json"))
        (root / "chapters").mkdir(exist_ok=True)
        return cls(project_id, root)

    # ---- reading and writing
    def _load(self, path: Path, model):
        try:
            return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, ValidationError) as error:
            raise NovelProjectError(f"{path.name}: {error}") from error

    def settings(self) -> NovelSettings:
        return self._load(self.root / "settings.json", NovelSettings)

    def file_name(self, step: str) -> str:
        return STEP_FILES[step][0]

    def has(self, step: str) -> bool:
        return (self.root / STEP_FILES[step][0]).exists()

    def load(self, step: str):
        name, model = STEP_FILES[step]
        return self._load(self.root / name, model)

    def save(self, step: str, value: BaseModel) -> None:
        _write_json(self.root / STEP_FILES[step][0], value.model_dump(mode="json"))

    def _plan_path(self, number: int) -> Path:
        return self.root / "chapters" / f"chapter_{number:03d}_plan.json"

    def _chapter_path(self, number: int) -> Path:
        return self.root / "chapters" / f"chapter_{number:03d}.json"

    def chapter_file_name(self, number: int) -> str:
        return f"chapters/{self._chapter_path(number).name}"

    def has_plan(self, number: int) -> bool:
        return self._plan_path(number).exists()

    def has_chapter(self, number: int) -> bool:
        return self._chapter_path(number).exists()

    def load_plan(self, number: int) -> ChapterPlan:
        return self._load(self._plan_path(number), ChapterPlan)

    def save_plan(self, plan: ChapterPlan) -> None:
        _write_json(self._plan_path(plan.chapter_number), plan.model_dump(mode="json"))

    def load_chapter(self, number: int) -> GeneratedChapter:
        return self._load(self._chapter_path(number), GeneratedChapter)

    def save_chapter(self, chapter: GeneratedChapter) -> None:
        _write_json(self._chapter_path(chapter.chapter_number), chapter.model_dump(mode="json"))

    def chapter_numbers(self) -> list[int]:
        folder = self.root / "chapters"
        found = [int(m.group(1)) for p in folder.iterdir() if (m := _CHAPTER_FILE.match(p.name))] if folder.exists() else []
        return sorted(found)

    def chapter_summary(self, number: int) -> ChapterSummary | None:
        if not self.has("outline"):
            return None
        return next((c for c in self.load("outline").chapters if c.chapter_number == number), None)

    def chapter_memory(self) -> list[ChapterMemoryEntry]:
        path = self.root / "chapter_memory.json"
        if not path.exists():
            return []
        return [ChapterMemoryEntry.model_validate(e) for e in json.loads(path.read_text(encoding="utf-8"))]

    def upsert_chapter_memory(self, entry: ChapterMemoryEntry) -> None:
        entries = [e for e in self.chapter_memory() if e.chapter_number != entry.chapter_number] + [entry]
        entries.sort(key=lambda e: e.chapter_number)
        _write_json(self.root / "chapter_memory.json", [e.model_dump(mode="json") for e in entries])

    def preferences(self) -> list[dict[str, Any]]:
        path = self.root / "preferences.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []

    def all_characters(self) -> list[Character]:
        if not self.has("characters"):
            return []
        config = self.load("characters")
        return [config.protagonist, *([config.antagonist] if config.antagonist else []), *config.supporting_characters]

    def add_preference(self, preference_type: str, content: str, source: str) -> dict[str, Any]:
        entry = {"project_id": self.project_id, "preference_type": preference_type, "content": content,
                 "source": source, "timestamp": datetime.now(timezone.utc).isoformat()}
        _write_json(self.root / "preferences.json", self.preferences() + [entry])
        return entry

    async def search_passages(self, query: str, entities: list[str], top_k: int):
        from core.retrieval.bm25 import BM25Index
        from graphs.novel.tools import Passage

        passages = []
        for number in self.chapter_numbers():
            for scene in self.load_chapter(number).scenes:
                for line in re.split(r"(?<=[。！？!?])|\n", scene.content):
                    if line.strip():
                        passages.append((number, scene.scene_number, line.strip()))
        if entities:
            passages = [p for p in passages if any(e in p[2] for e in entities)] or passages
        index = BM25Index([p[2] for p in passages])
        return [Passage(passages[i][0], passages[i][1], passages[i][2], score) for i, score in index.search(query, top_k)]

    # ---- run journal
    def run_journal(self) -> RunJournal | None:
        path = self.root / JOURNAL
        if not path.exists():
            return None
        return RunJournal.model_validate_json(path.read_text(encoding="utf-8"))

    def record_run(self, *, to_chapter: int, force: bool, pending: list[int]) -> None:
        _write_json(self.root / JOURNAL, RunJournal(to_chapter=to_chapter, force=force, pending=pending).model_dump())

    def clear_run(self) -> None:
        (self.root / JOURNAL).unlink(missing_ok=True)

    # ---- destructive
    def remove_chapters_from(self, first: int) -> list[str]:
        removed: list[str] = []
        for path in sorted((self.root / "chapters").glob("chapter_*.json")):
            m = re.match(r"chapter_(\d+)", path.name)
            if m and int(m.group(1)) >= first:
                path.unlink()
                removed.append(f"chapters/{path.name}")
        for path in sorted(self.root.glob("scene_*_*_memory.json")):
            m = re.match(r"scene_(\d+)_", path.name)
            if m and int(m.group(1)) >= first:
                path.unlink()
                removed.append(path.name)
        kept = [e for e in self.chapter_memory() if e.chapter_number < first]
        if len(kept) != len(self.chapter_memory()):
            _write_json(self.root / "chapter_memory.json", [e.model_dump(mode="json") for e in kept])
            removed.append("chapter_memory.json")
        self.clear_run()
        return removed

    def remove_generated(self) -> list[str]:
        removed = self.remove_chapters_from(1)
        for name in ("world.json", "theme_conflict.json", "characters.json", "outline.json", "chapter_memory.json",
                     "consistency_reports.json"):
            if (self.root / name).exists():
                (self.root / name).unlink()
                removed.append(name)
        return removed

    # ---- status
    def status(self) -> NovelStatus:
        outline = self.load("outline") if self.has("outline") else None
        chapters = []
        for summary in (outline.chapters if outline else []):
            n = summary.chapter_number
            generated = self.has_chapter(n)
            chapter = self.load_chapter(n) if generated else None
            chapters.append(ChapterState(chapter_number=n, chapter_title=summary.chapter_title, planned=self.has_plan(n),
                                         generated=generated, scenes=len(chapter.scenes) if chapter else 0,
                                         words=chapter.total_words if chapter else 0))
        prefs = self.preferences()
        return NovelStatus(
            project_id=self.project_id, project_name=self.settings().project_name,
            steps=[StepState(name=s, label=t(f"novel.step_{s}"), file=f, done=self.has(s)) for s, (f, _) in STEP_FILES.items()],
            chapters_total=len(chapters), chapters_planned=sum(c.planned for c in chapters),
            chapters_generated=len(self.chapter_numbers()), chapters=chapters,
            total_words=sum(c.words for c in chapters), memory_entries=len(self.chapter_memory()),
            preferences_top=prefs[-5:], resumable=self.run_journal() is not None,
        )

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
