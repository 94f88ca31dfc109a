"""NovelGen-format project folders under `NOVEL_PROJECTS_DIR`: load, save (atomically), list, status.

Layout of one project (`<projects_dir>/<project_id>/`), as NovelGen writes it:

    settings.json  world.json  theme_conflict.json  characters.json  outline.json
    chapter_memory.json  consistency_reports.json  preferences.json        (lists)
    chapters/chapter_NNN_plan.json  chapters/chapter_NNN.json
    scene_<chapter>_<scene>_memory.json                                     (scene memory chain)

Every file is optional; reading a missing one gives None (or [] for the lists). A file that is not
JSON or does not fit NovelGen's model raises `ProjectError` whose `user_message` names the file and
the field. Writes go to a temporary file in the same folder and are renamed over the target
(`os.replace`), so a reader — or a process killed mid-write — never sees half a file.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from core.i18n import t
from core.validation import expected_kind, field_path
from core.settings import Settings
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    ChapterStatus,
    CharactersConfig,
    ConsistencyReport,
    GeneratedChapter,
    NovelModel,
    NovelSettings,
    Outline,
    ProjectStatus,
    SceneMemoryContext,
    StepStatus,
    ThemeConflict,
    UserPreference,
    WorldSetting,
)

M = TypeVar("M", bound=BaseModel)

SETTINGS_FILE = "settings.json"
WORLD_FILE = "world.json"
THEME_CONFLICT_FILE = "theme_conflict.json"
CHARACTERS_FILE = "characters.json"
OUTLINE_FILE = "outline.json"
CHAPTER_MEMORY_FILE = "chapter_memory.json"
CONSISTENCY_REPORTS_FILE = "consistency_reports.json"
PREFERENCES_FILE = "preferences.json"
CHAPTERS_DIR = "chapters"

# The generation steps before chapters, in order, with the file each one writes.
STEP_FILES: tuple[tuple[str, str], ...] = (
    ("world", WORLD_FILE),
    ("theme_conflict", THEME_CONFLICT_FILE),
    ("characters", CHARACTERS_FILE),
    ("outline", OUTLINE_FILE),
)
_PROJECT_MARKERS = (SETTINGS_FILE, WORLD_FILE, OUTLINE_FILE, CHAPTERS_DIR)

_VALID_ID = re.compile(r"^[\w\u4e00-\u9fff][\w\u4e00-\u9fff.\-]*$", re.UNICODE)
_CHAPTER_FILE = re.compile(r"^chapter_(\d+)\.json$")
_PLAN_FILE = re.compile(r"^chapter_(\d+)_plan\.json$")


class ProjectError(Exception):
    """A project problem a person can act on; `user_message` is a catalogue sentence (no traceback)."""

    def __init__(self, user_message: str, *, file: str | None = None, field: str | None = None, detail: str = "") -> None:
        super().__init__(user_message)
        self.user_message = user_message
        self.file = file
        self.field = field
        self.detail = detail


def chapter_file_name(chapter_number: int) -> str:
    return f"chapter_{chapter_number:03d}.json"


def chapter_plan_file_name(chapter_number: int) -> str:
    return f"chapter_{chapter_number:03d}_plan.json"


def scene_memory_file_name(chapter_index: int, scene_index: int) -> str:
    return f"scene_{chapter_index}_{scene_index}_memory.json"


def projects_dir(settings: Settings | None = None) -> Path:
    return (settings or Settings()).projects_dir


def check_project_id(project_id: str) -> str:
    """A project id is a single folder name: no separators, no leading dot, no traversal."""
    if not isinstance(project_id, str) or not _VALID_ID.match(project_id) or project_id in {".", ".."}:
        raise ProjectError(t("novel.project_invalid_id", project_id=str(project_id)))
    return project_id


def list_projects(settings: Settings | None = None) -> list[str]:
    """Project ids under `NOVEL_PROJECTS_DIR`: folders holding at least one NovelGen project file."""
    root = projects_dir(settings)
    if not root.is_dir():
        return []
    return sorted(
        entry.name
        for entry in root.iterdir()
        if entry.is_dir() and _VALID_ID.match(entry.name) and any((entry / m).exists() for m in _PROJECT_MARKERS)
    )


def dump_json(data: Any) -> str:
    """NovelGen's formatting (`json.dump(..., ensure_ascii=False, indent=2)`), so its files round-trip byte for byte."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` so that at every moment `path` holds either the old or the new content."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


_locks: dict[Path, threading.RLock] = {}
_locks_guard = threading.Lock()


def _project_lock(root: Path) -> threading.RLock:
    with _locks_guard:
        return _locks.setdefault(root.resolve(), threading.RLock())


class NovelProject:
    """One project folder. Cheap to create; every `load_*` reads the file afresh (another process —
    NovelGen itself, or our workflow — may have written it since)."""

    def __init__(self, project_id: str, root: Path) -> None:
        self.project_id = check_project_id(project_id)
        self.root = root

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def at(cls, project_id: str, settings: Settings | None = None) -> NovelProject:
        """The project's folder object whether or not it exists yet."""
        check_project_id(project_id)
        return cls(project_id, projects_dir(settings) / project_id)

    @classmethod
    def open(cls, project_id: str, settings: Settings | None = None) -> NovelProject:
        """An existing project; `ProjectError(project_not_found)` otherwise."""
        project = cls.at(project_id, settings)
        if not project.exists():
            raise ProjectError(
                t("novel.project_not_found", project_id=project_id, projects_dir=str(project.root.parent))
            )
        return project

    @classmethod
    def create(
        cls, project_id: str, novel_settings: NovelSettings, settings: Settings | None = None, *, exist_ok: bool = False
    ) -> NovelProject:
        """A new project folder with `settings.json` and an empty `chapters/`."""
        project = cls.at(project_id, settings)
        if project.exists() and not exist_ok:
            raise ProjectError(t("novel.project_exists", project_id=project_id))
        (project.root / CHAPTERS_DIR).mkdir(parents=True, exist_ok=True)
        # A new project's settings.json shows every setting (defaults included) for the user to edit.
        project.write_json(project.root / SETTINGS_FILE, novel_settings.model_dump(mode="json", exclude_none=True))
        return project

    def exists(self) -> bool:
        return self.root.is_dir() and any((self.root / m).exists() for m in _PROJECT_MARKERS)

    @property
    def chapters_dir(self) -> Path:
        return self.root / CHAPTERS_DIR

    def chapter_path(self, chapter_number: int) -> Path:
        return self.chapters_dir / chapter_file_name(chapter_number)

    def chapter_plan_path(self, chapter_number: int) -> Path:
        return self.chapters_dir / chapter_plan_file_name(chapter_number)

    def scene_memory_path(self, chapter_index: int, scene_index: int) -> Path:
        return self.root / scene_memory_file_name(chapter_index, scene_index)

    # --- reading ---------------------------------------------------------------------------

    def _display(self, path: Path) -> str:
        try:
            return f"{self.project_id}/{path.relative_to(self.root).as_posix()}"
        except ValueError:
            return str(path)

    def read_json(self, path: Path) -> Any | None:
        """The parsed JSON of `path`, None when it does not exist."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise ProjectError(
                t("novel.project_file_unreadable", file=self._display(path), problem=_oneline(error)),
                file=self._display(path),
                detail=repr(error),
            ) from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ProjectError(
                t(
                    "novel.project_file_not_json",
                    file=self._display(path),
                    line=error.lineno,
                    column=error.colno,
                    problem=error.msg,
                ),
                file=self._display(path),
                detail=str(error),
            ) from None

    def _validated(self, path: Path, validate: Callable[[Any], M], data: Any) -> M:
        try:
            return validate(data)
        except ValidationError as error:
            raise _field_error(self._display(path), error, data) from None

    def _load(self, path: Path, model: type[M]) -> M | None:
        data = self.read_json(path)
        return None if data is None else self._validated(path, model.model_validate, data)

    def _load_list(self, path: Path, model: type[M]) -> list[M]:
        data = self.read_json(path)
        if data is None:
            return []
        return self._validated(path, TypeAdapter(list[model]).validate_python, data)

    def load_settings(self) -> NovelSettings | None:
        return self._load(self.root / SETTINGS_FILE, NovelSettings)

    def load_world(self) -> WorldSetting | None:
        return self._load(self.root / WORLD_FILE, WorldSetting)

    def load_theme_conflict(self) -> ThemeConflict | None:
        return self._load(self.root / THEME_CONFLICT_FILE, ThemeConflict)

    def load_characters(self) -> CharactersConfig | None:
        return self._load(self.root / CHARACTERS_FILE, CharactersConfig)

    def load_outline(self) -> Outline | None:
        return self._load(self.root / OUTLINE_FILE, Outline)

    def load_chapter_plan(self, chapter_number: int) -> ChapterPlan | None:
        return self._load(self.chapter_plan_path(chapter_number), ChapterPlan)

    def load_chapter(self, chapter_number: int) -> GeneratedChapter | None:
        return self._load(self.chapter_path(chapter_number), GeneratedChapter)

    def load_chapter_memory(self) -> list[ChapterMemoryEntry]:
        return self._load_list(self.root / CHAPTER_MEMORY_FILE, ChapterMemoryEntry)

    def load_consistency_reports(self) -> list[ConsistencyReport]:
        return self._load_list(self.root / CONSISTENCY_REPORTS_FILE, ConsistencyReport)

    def load_preferences(self) -> list[UserPreference]:
        return self._load_list(self.root / PREFERENCES_FILE, UserPreference)

    def load_scene_memory(self, chapter_index: int, scene_index: int) -> SceneMemoryContext | None:
        return self._load(self.scene_memory_path(chapter_index, scene_index), SceneMemoryContext)

    def _numbers(self, pattern: re.Pattern[str]) -> list[int]:
        if not self.chapters_dir.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.chapters_dir.iterdir() if (m := pattern.match(p.name)))

    def chapter_numbers(self) -> list[int]:
        """Numbers of the generated chapters on disk (`chapters/chapter_NNN.json`)."""
        return self._numbers(_CHAPTER_FILE)

    def chapter_plan_numbers(self) -> list[int]:
        return self._numbers(_PLAN_FILE)

    def iter_chapters(self) -> Iterator[GeneratedChapter]:
        for number in self.chapter_numbers():
            chapter = self.load_chapter(number)
            if chapter is not None:
                yield chapter

    def validate_all(self) -> list[ProjectError]:
        """Read every project file; the problems found (empty when the whole project loads)."""
        loaders: list[Callable[[], Any]] = [
            self.load_settings,
            self.load_world,
            self.load_theme_conflict,
            self.load_characters,
            self.load_outline,
            self.load_chapter_memory,
            self.load_consistency_reports,
            self.load_preferences,
        ]
        loaders += [lambda n=n: self.load_chapter_plan(n) for n in self.chapter_plan_numbers()]
        loaders += [lambda n=n: self.load_chapter(n) for n in self.chapter_numbers()]
        problems = []
        for load in loaders:
            try:
                load()
            except ProjectError as error:
                problems.append(error)
        return problems

    # --- writing ---------------------------------------------------------------------------

    def write_json(self, path: Path, data: Any) -> None:
        try:
            write_atomic(path, dump_json(data))
        except OSError as error:
            raise ProjectError(
                t("novel.project_file_unwritable", file=self._display(path), problem=_oneline(error)),
                file=self._display(path),
                detail=repr(error),
            ) from None

    def _save(self, path: Path, model: NovelModel) -> Path:
        self.write_json(path, model.to_json_dict())
        return path

    def save_settings(self, value: NovelSettings) -> Path:
        return self._save(self.root / SETTINGS_FILE, value)

    def save_world(self, value: WorldSetting) -> Path:
        return self._save(self.root / WORLD_FILE, value)

    def save_theme_conflict(self, value: ThemeConflict) -> Path:
        return self._save(self.root / THEME_CONFLICT_FILE, value)

    def save_characters(self, value: CharactersConfig) -> Path:
        return self._save(self.root / CHARACTERS_FILE, value)

    def save_outline(self, value: Outline) -> Path:
        return self._save(self.root / OUTLINE_FILE, value)

    def save_chapter_plan(self, plan: ChapterPlan) -> Path:
        return self._save(self.chapter_plan_path(plan.chapter_number), plan)

    def save_chapter(self, chapter: GeneratedChapter) -> Path:
        return self._save(self.chapter_path(chapter.chapter_number), chapter)

    def save_scene_memory(self, context: SceneMemoryContext) -> Path:
        path = self.scene_memory_path(context.chapter_index or 0, context.scene_index or 0)
        return self._save(path, context)

    def save_chapter_memory(self, entries: list[ChapterMemoryEntry]) -> Path:
        path = self.root / CHAPTER_MEMORY_FILE
        self.write_json(path, [e.to_json_dict() for e in entries])
        return path

    def save_consistency_reports(self, reports: list[ConsistencyReport]) -> Path:
        path = self.root / CONSISTENCY_REPORTS_FILE
        self.write_json(path, [r.to_json_dict() for r in reports])
        return path

    def save_preferences(self, preferences: list[UserPreference]) -> Path:
        path = self.root / PREFERENCES_FILE
        self.write_json(path, [p.to_json_dict() for p in preferences])
        return path

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Serialises read-modify-write of list files within this process."""
        with _project_lock(self.root):
            yield

    def upsert_chapter_memory(self, entry: ChapterMemoryEntry) -> Path:
        """Add a chapter's memory entry, replacing an earlier one for the same chapter (a re-run)."""
        with self.locked():
            kept = [e for e in self.load_chapter_memory() if e.chapter_number != entry.chapter_number]
            return self.save_chapter_memory(sorted([*kept, entry], key=lambda e: e.chapter_number))

    def add_consistency_report(self, report: ConsistencyReport) -> Path:
        with self.locked():
            kept = [r for r in self.load_consistency_reports() if r.chapter_number != report.chapter_number]
            return self.save_consistency_reports(sorted([*kept, report], key=lambda r: r.chapter_number))

    def add_preference(self, preference: UserPreference) -> Path:
        with self.locked():
            return self.save_preferences([*self.load_preferences(), preference])

    def delete_chapters_after(self, chapter_number: int) -> list[Path]:
        """Remove chapter texts, plans and memory entries after `chapter_number` (a rollback); the paths removed."""
        removed: list[Path] = []
        with self.locked():
            for number in self.chapter_numbers():
                if number > chapter_number:
                    self.chapter_path(number).unlink(missing_ok=True)
                    removed.append(self.chapter_path(number))
            for number in self.chapter_plan_numbers():
                if number > chapter_number:
                    self.chapter_plan_path(number).unlink(missing_ok=True)
                    removed.append(self.chapter_plan_path(number))
            for path in self.root.glob("scene_*_*_memory.json"):
                parts = path.name.split("_")
                if parts[1].isdigit() and int(parts[1]) > chapter_number:
                    path.unlink(missing_ok=True)
                    removed.append(path)
            entries = self.load_chapter_memory()
            if any(e.chapter_number > chapter_number for e in entries):
                self.save_chapter_memory([e for e in entries if e.chapter_number <= chapter_number])
        return removed


def project_status(project: NovelProject) -> ProjectStatus:
    """Steps done, chapter plans N/M, chapters generated N/M with scenes and word counts.

    Never raises for a malformed file: the file counts as not done and its sentence goes to `problems`.
    """
    problems: list[str] = []

    def attempt(load: Callable[[], Any]) -> Any:
        try:
            return load()
        except ProjectError as error:
            problems.append(error.user_message)
            return None

    loaded = {step: attempt(getattr(project, f"load_{step}")) for step, _ in STEP_FILES}
    steps = [StepStatus(step=step, file=file, done=loaded[step] is not None) for step, file in STEP_FILES]
    outline: Outline | None = loaded["outline"]

    titles = {c.chapter_number: c.chapter_title for c in outline.chapters} if outline else {}
    plan_numbers = set(project.chapter_plan_numbers())
    chapter_numbers = set(project.chapter_numbers())
    chapters: list[ChapterStatus] = []
    for number in sorted(set(titles) | plan_numbers | chapter_numbers):
        plan = attempt(lambda n=number: project.load_chapter_plan(n)) if number in plan_numbers else None
        text = attempt(lambda n=number: project.load_chapter(n)) if number in chapter_numbers else None
        chapters.append(
            ChapterStatus(
                chapter_number=number,
                chapter_title=titles.get(number) or (text.chapter_title if text else plan.chapter_title if plan else ""),
                planned=plan is not None,
                planned_scenes=len(plan.scenes) if plan else 0,
                generated=text is not None,
                scenes=len(text.scenes) if text else 0,
                words=text.total_words if text else 0,
            )
        )
    memory = attempt(project.load_chapter_memory) or []
    return ProjectStatus(
        project_id=project.project_id,
        steps=steps,
        outline_chapters=len(titles),
        chapter_plans=sum(1 for c in chapters if c.planned),
        chapters_generated=sum(1 for c in chapters if c.generated),
        total_words=sum(c.words for c in chapters),
        chapters=chapters,
        chapter_memory_entries=len(memory),
        problems=problems,
    )


# --- turning pydantic's errors into one sentence ---------------------------------------------------

def _field_error(file: str, error: ValidationError, data: Any) -> ProjectError:
    first = error.errors(include_url=False)[0]
    field = field_path(tuple(first["loc"]), data, missing=first["type"] == "missing") or "-"
    if first["type"] == "missing":
        message = t("novel.project_field_missing", file=file, field=field)
    else:
        value = json.dumps(first.get("input"), ensure_ascii=False, default=str)
        value = value if len(value) <= 40 else value[:37] + "…"
        expected = expected_kind(first["type"]) or t("novel.project_expected_valid")
        message = t("novel.project_field_invalid", file=file, field=field, value=value, expected=expected)
    return ProjectError(message, file=file, field=field, detail=str(error))


def _oneline(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error)
    return text.splitlines()[0] if text else type(error).__name__
