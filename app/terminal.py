"""The console every `ng` command writes through."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.text import Text

# A sentence telling the person what to type: "… continue with ng resume 3f0c…", "ng export <id> --out <file>".
_NAMES_A_COMMAND = re.compile(r"(?<![\w-])ng [a-z]")


class NgConsole(Console):
    """A rich Console that never breaks a command someone will copy.

    rich breaks a sentence into lines at the console's width with real newlines: piped (`ng ppt … | cat`,
    a log file) at 80 columns, so `ng resume` and its id landed on two lines and the copied command failed;
    at a terminal the same happened to a sentence naming a command. Such sentences, and every sentence
    when piped, are written as one line and the reader's window wraps them (a terminal joins its own
    wraps when text is copied). Other sentences at a terminal still wrap between words; a layout (a
    table, Markdown, a panel) keeps its width, or its cells and list items would be cut, not wrapped.
    Decided at each print: the same console may write to a terminal, then to a pipe (tests)."""

    def print(self, *objects: Any, soft_wrap: bool | None = None, **kwargs: Any) -> None:
        if soft_wrap is None and objects and all(isinstance(o, (str, Text)) for o in objects):
            soft_wrap = not self.is_terminal or any(_NAMES_A_COMMAND.search(str(o)) for o in objects)
        super().print(*objects, soft_wrap=soft_wrap, **kwargs)
