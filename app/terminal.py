"""The console every `ng` command writes through, and the one way each of them reads a line typed at it."""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
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


async def read_line(console: Console, prompt: str) -> str | None:
    """One line from stdin without a worker thread (so Ctrl-C never waits on a blocked read); None at EOF."""
    console.print(prompt, end="", highlight=False)
    if not sys.stdin.isatty():
        # Questions from a file or a pipe: the event loop cannot watch a regular file, and lines the
        # buffer already holds would never wake a reader; nothing else runs between turns anyway.
        line = sys.stdin.readline()
        # The transcript shows what was asked; at the end of input the prompt's line is closed, so the
        # goodbye does not read "you> Bye.".
        console.print(escape(line.rstrip("\n")), highlight=False)
        return None if line == "" else line.rstrip("\n")
    loop = asyncio.get_running_loop()
    got: asyncio.Future[str] = loop.create_future()

    def ready() -> None:
        if not got.done():
            got.set_result(sys.stdin.readline())

    loop.add_reader(sys.stdin.fileno(), ready)
    try:
        line = await got
    finally:
        loop.remove_reader(sys.stdin.fileno())
    if line == "":
        console.print()  # Ctrl-D echoes no newline: the goodbye starts a line of its own
        return None
    return line.rstrip("\n")
