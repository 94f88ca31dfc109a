"""The chat agent's tools over one project: WorkflowTool, PreferenceTool, GraphTool, MemoryTool.

Deterministic Python over the project's files and memory store; the chat flow calls them from its
nodes (slash commands route straight here, natural language goes through a ToolPlan first).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig

from core.i18n import t
from core.processes import nothing_running
from core.tools.novel import NovelConfig
from graphs.novel.library import MemoryIndexReport, ProjectFiles
from graphs.novel.workflow import WORKFLOW, WorkflowState, workflow_input
from schemas.novel import GeneratedChapter


class WorkflowTool:
    """status / run / resume, and the destructive rollback / clean (callers confirm those first)."""

    def __init__(self, config: NovelConfig, project_id: str) -> None:
        self.files = ProjectFiles.open(config, project_id)
        self.project_id = project_id

    def status(self, asker: str | None = None, running_here: Callable[[str], bool] = nothing_running):
        return self.files.status(asker=asker, running_here=running_here)

    def running_elsewhere(self, asker: str | None, running_here: Callable[[str], bool] = nothing_running) -> str | None:
        """The sentence saying a run of this project goes on in another thread or process (None: none does)."""
        journal = self.files.run_journal()
        if journal is not None and journal.running(besides=asker, running_here=running_here):
            return t("novel.generation_running", project=self.project_id)
        return None

    def run_input(self, to_chapter: int | None = None, force: bool = False,
                  chapters: list[int] | None = None) -> WorkflowState:
        """`chapters`: only these are written (a rewrite of chapter 2 leaves chapter 1 as it is)."""
        return workflow_input(self.project_id, to_chapter, force, list(chapters) if chapters else None)

    def resume_input(self) -> WorkflowState | None:
        """The unfinished run this project's journal records (None: nothing to resume)."""
        journal = self.files.run_journal()
        if journal is None:
            return None
        return workflow_input(self.project_id, journal.to_chapter, journal.force, list(journal.pending))

    async def run(self, config: RunnableConfig, to_chapter: int | None = None, force: bool = False,
                  chapters: list[int] | None = None) -> dict[str, Any]:
        """Run the workflow nested in the caller's graph (its checkpoints and events go with the caller's)."""
        return await WORKFLOW.ainvoke(self.run_input(to_chapter, force, chapters), config)

    async def resume(self, config: RunnableConfig) -> dict[str, Any] | None:
        state = self.resume_input()
        return None if state is None else await WORKFLOW.ainvoke(state, config)

    def rollback(self, to_chapter: int) -> list[str]:
        """Back to before `to_chapter` (NovelGen's meaning): that chapter and every later one are removed."""
        return self.files.remove_chapters_from(to_chapter)

    def clean(self) -> list[str]:
        """Everything generated goes; settings.json and preferences.json stay."""
        return self.files.remove_generated()

    async def index(self) -> MemoryIndexReport:
        return await self.files.index_all()

    def export(self, out: Path) -> int:
        """The whole novel as one text file; returns how many chapters it holds."""
        chapters: list[GeneratedChapter] = [self.files.load_chapter(n) for n in self.files.chapter_numbers()]
        if not chapters:
            return 0
        blocks = []
        for chapter in chapters:
            body = "\n\n".join(scene.content.strip() for scene in chapter.scenes)
            blocks.append(f"{chapter.chapter_title}\n\n{body}\n")
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text("\n\n".join(blocks), encoding="utf-8")
        tmp.replace(out)
        return len(chapters)


class PreferenceTool:
    """The project's preferences.json: `[{project_id, preference_type, content, source, timestamp}]`."""

    def __init__(self, config: NovelConfig, project_id: str) -> None:
        self.files = ProjectFiles.open(config, project_id)

    def list(self, top: int | None = None) -> list[dict[str, Any]]:
        prefs = self.files.preferences()
        return prefs[-top:] if top else prefs

    def add(self, preference_type: str, content: str, source: str = "chat") -> dict[str, Any]:
        return self.files.add_preference(preference_type, content, source)


@dataclass(frozen=True)
class Relation:
    """`person` calls `other` their `relation` (characters.json: person.relationships[other] = relation)."""

    person: str
    other: str
    relation: str


@dataclass(frozen=True)
class Passage:
    chapter_number: int
    scene_number: int | None
    text: str
    score: float


class GraphTool:
    """Who is who and what happened between them, from characters.json and chapter_memory.json."""

    def __init__(self, config: NovelConfig, project_id: str) -> None:
        self.files = ProjectFiles.open(config, project_id)

    def names(self) -> list[str]:
        return [c.name for c in self.files.all_characters()]

    def whois(self, name: str) -> dict[str, Any] | None:
        person = next((c for c in self.files.all_characters() if c.name == name), None)
        return person.model_dump() if person else None

    def relations(self, name: str | None = None, relation: str | None = None) -> list[Relation]:
        found = []
        for person in self.files.all_characters():
            for other, label in (person.relationships or {}).items():
                if name not in (None, person.name, other):
                    continue
                if relation is not None and relation not in label:
                    continue
                found.append(Relation(person.name, other, label))
        return found

    def chapter_events(self, chapter_number: int) -> list[dict[str, Any]]:
        """The chapter memory entry of one chapter (empty when that chapter is not written yet)."""
        return [e.model_dump() for e in self.files.chapter_memory() if e.chapter_number == chapter_number]

    def events(self, entities: list[str]) -> list[dict[str, Any]]:
        """Chapter memory entries that mention every one of `entities`, oldest first."""
        hits = []
        for entry in self.files.chapter_memory():
            text = json.dumps(entry.model_dump(), ensure_ascii=False)
            if all(e in text for e in entities):
                hits.append(entry.model_dump())
        return hits


class MemoryTool:
    """Scene passages for a query: the memory chain's store (vectors + BM25) through its search tool."""

    def __init__(self, config: NovelConfig, project_id: str) -> None:
        self.files = ProjectFiles.open(config, project_id)

    async def search(self, query: str, entities: list[str] | None = None, top_k: int = 8) -> list[Passage]:
        return await self.files.search_passages(query, entities or [], top_k)
