"""Where novel projects live and how far the chat agent may look before asking: from settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.settings import Settings


@dataclass(frozen=True)
class NovelConfig:
    projects_dir: Path
    max_tool_calls: int = 3

    @classmethod
    def from_settings(cls, settings: Settings) -> NovelConfig:
        configured = getattr(settings, "novel_projects_dir", None)
        return cls(Path(configured) if configured else settings.data_dir / "projects", settings.novel_max_tool_calls)
