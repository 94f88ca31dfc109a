"""The console every `ng` command writes through."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text


class NgConsole(Console):
    """A rich Console whose sentences are broken into lines only for a person at a terminal.

    Piped (`ng ppt … | cat`, a log file, a program reading it) there is no screen width to fit: rich would
    still break every sentence at 80 columns, splitting `ng resume <id>` from its id, so a copied command
    fails. There a sentence is written as one line and the reader's own window wraps it. A layout (a table,
    Markdown, a panel) keeps its width: without one its cells and list items would be cut, not wrapped.
    Decided at each print: the same console may write to a terminal, then to a pipe (tests)."""

    def print(self, *objects: Any, soft_wrap: bool | None = None, **kwargs: Any) -> None:
        if soft_wrap is None and not self.is_terminal and all(isinstance(o, (str, Text)) for o in objects):
            soft_wrap = True
        super().print(*objects, soft_wrap=soft_wrap, **kwargs)
