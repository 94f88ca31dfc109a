"""The service's settings as the novel graphs see them (FlowContext.tools["novel"])."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.settings import Settings


@dataclass(frozen=True)
class NovelConfig:
    # The whole settings object: core/novel's project and memory functions take it as `settings=`.
    settings: Settings

    @classmethod
    def from_settings(cls, settings: Settings) -> NovelConfig:
        return cls(settings)

    @property
    def projects_dir(self) -> Path:
        return self.settings.projects_dir

    @property
    def max_tool_calls(self) -> int:
        return self.settings.novel_max_tool_calls
