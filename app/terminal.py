"""The console every `ng` command writes through."""

from __future__ import annotations

from typing import Any

from rich.console import Console


class NgConsole(Console):
    """A rich Console that breaks lines only for a person at a terminal.

    Piped (`ng ppt … | cat`, a log file, a program reading it) there is no screen width to fit: rich
    would still break every sentence at 80 columns, splitting `ng resume <id>` from its id, so a copied
    command fails. There each print keeps its lines whole, and the reader's own window wraps them.
    Decided at each print, not once: the same console may write to a terminal, then to a pipe (tests)."""

    def __init__(self, *args: Any, soft_wrap: bool = False, **kwargs: Any) -> None:
        self._soft_wrap_asked = soft_wrap
        super().__init__(*args, soft_wrap=soft_wrap, **kwargs)

    @property
    def soft_wrap(self) -> bool:  # type: ignore[override]
        return self._soft_wrap_asked or not self.is_terminal

    @soft_wrap.setter
    def soft_wrap(self, value: bool) -> None:
        self._soft_wrap_asked = value
