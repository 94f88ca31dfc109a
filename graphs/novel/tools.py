"""The chat agent's tools over one project: WorkflowTool, PreferenceTool, GraphTool, MemoryTool.

Deterministic Python over the project's files and memory store; the chat flow calls them from its
nodes (slash commands route straight here, natural language goes through a ToolPlan first).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig

from graphs.novel.library import IndexReport, ProjectFiles
from graphs.novel.workflow import WORKFLOW, WorkflowState, workflow_input
from schemas.novel import GeneratedChapter


class WorkflowTool:
    """status / run / resume, and the destructive rollback / clean (callers confirm those first)."""

    def __init__(self, project_id: str) -> None:
        self.files = ProjectFiles.open(project_id)
        self.project_id = project_id

    def status(self):
        return self.files.status()

    def run_input(self, to_chapter: int | None = None, force: bool = False) -> WorkflowState:
        return workflow_input(self.project_id, to_chapter, force)

    def resume_input(self) -> WorkflowState | None:
        """The unfinished run this project's journal records (None: nothing to resume)."""
        journal = self.files.run_journal()
        if journal is None:
            return None
        return workflow_input(self.project_id, journal.to_chapter, journal.force, list(journal.pending))

    async def run(self, config: RunnableConfig, to_chapter: int | None = None, force: bool = False) -> dict[str, Any]:
        """Run the workflow nested in the caller's graph (its checkpoints and events go with the caller's)."""
        return await WORKFLOW.ainvoke(self.run_input(to_chapter, force), config)

    async def resume(self, config: RunnableConfig) -> dict[str, Any] | None:
        state = self.resume_input()
        return None if state is None else await WORKFLOW.ainvoke(state, config)

    def rollback(self, to_chapter: int) -> list[str]:
        """Back to before `to_chapter` (NovelGen's meaning): that chapter and every later one are removed."""
        return self.files.remove_chapters_from(to_chapter)

    def clean(self) -> list[str]:
        """Everything generated goes; settings.json and preferences.json stay."""
        return self.files.remove_generated()

    async def index(self) -> IndexReport:
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
