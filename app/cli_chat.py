"""`ng chat <project_id>`: the novel assistant (flow `novel`) in the terminal.

The session runs through the runtime like a canvas session: the same thread, checkpoints and
event log, so `ng chat <id> --thread <thread>` (or the canvas) continues it. Questions and plan
confirmations are answered at the prompt; a generation shows a progress bar; Ctrl-C leaves
cleanly and names the thread to come back to.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn

from app.errors import RequestError
from app import terminal
from app.terminal import NgConsole
from core.i18n import set_locale, t
from core.settings import Settings

FLOW = "novel"
QUIT = {"/quit", "/exit", "/q"}
# What a line may break after: a Chinese character (with the punctuation opening before it and closing on
# it, so that none ends or opens a line), or a run of other text with its spaces. Rich breaks only at spaces, so a Chinese answer longer
# than the room beside the label went whole to the next line, under an empty one.
_BREAK_UNIT = re.compile(r"[\u3008\u300a\u300c\u300e\u3010\u3014\uff08\u201c]*[\u3400-\u9fff\u3000-\u303f\uff00-\uffef][\u3001-\u3002\u300d\u300f\u3011\uff01\uff09"
                         r"\uff0c\uff1a\uff1b\uff1f\s]*|[^\u3400-\u9fff\u3000-\u303f\uff00-\uffef]+?(?:\s+|$|(?=[\u3400-\u9fff"
                         r"\u3000-\u303f\uff00-\uffef]))")


def fit(text: str, width: int, taken: int = 0) -> str:
    """`text` with its lines broken to `width` cells, between Chinese characters too; the first line starts
    `taken` cells in (after the speaker's label)."""
    lines = []
    for paragraph in text.split("\n"):
        line, used = "", taken if not lines else 0
        for unit in _BREAK_UNIT.findall(paragraph):
            size = cell_len(unit.rstrip())
            if line and used + size > width:
                lines.append(line.rstrip())
                line, used = "", 0
            line += unit
            used += cell_len(unit)
        lines.append(line.rstrip())
    return "\n".join(lines)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("chat", help=t("novel.cli_chat_help"), description=t("novel.cli_chat_help"))
    parser.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))
    parser.add_argument("--thread", metavar=t("cli.metavar_id"), help=t("novel.cli_chat_thread_help"))
    parser.set_defaults(func=main)
    return parser


class ChatTerminal:
    """Prints one thread's events as they arrive; a progress bar while a generation runs."""

    def __init__(self, console: Console, thread_id: str) -> None:
        self.console = console
        self.thread_id = thread_id
        self.progress: Progress | None = None
        self.task: Any = None
        self.failed: str | None = None
        self.last_log: str | None = None

    def _out(self) -> Console:
        return self.progress.console if self.progress is not None else self.console

    async def on_event(self, thread_id: str, event: str, data: dict[str, Any]) -> None:
        if thread_id != self.thread_id:
            return
        if event == "message" and data.get("final"):
            if data["content"] != self.last_log:  # a step that logs its outcome and says it: one line
                label = t("novel.cli_chat_assistant")
                text = fit(data["content"], self._out().width, cell_len(label) + 1)
                self._out().print(f"[bold cyan]{label}[/] {escape(text)}", highlight=False, soft_wrap=True)
        elif event == "tool:log":
            style = {"warning": "yellow", "error": "red"}.get(data.get("level"), "dim")
            self._out().print(f"  [{style}]{escape(data['message'])}[/]", highlight=False)
            self.last_log = data["message"]
        elif event == "progress":
            if self.progress is None:
                self.progress = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                                         console=self.console, transient=True)
                self.progress.start()
                self.task = self.progress.add_task("", total=data["total"])
            self.progress.update(self.task, description=data["message"], completed=data["current"], total=data["total"])
        elif event == "completion" and not data.get("success"):
            self.failed = data.get("error")

    def run_ended(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
        if self.failed:
            self.console.print(f"[red]{escape(self.failed)}[/]")
            self.failed = None


async def answer_interrupt(console: Console, pending: dict[str, Any]) -> Any:
    from graphs.novel import understanding as read

    payload = pending.get("payload") or {}
    if pending.get("kind") == "confirmation":
        console.print(f"[yellow]{escape(payload.get('prompt', ''))}[/]", highlight=False)
        reply = await terminal.read_line(console, t("novel.cli_chat_confirm_prompt"))  # the prompt above asks the question
        if reply is None or reply.strip().lower() in QUIT:
            return None
        reply = reply.strip()
        if not reply or read.is_no(reply):
            return False  # N is the default
        # A command or a new request typed here (a str) is sent as a chat message: the flow cancels the
        # plan, says so, and serves it.
        return True if read.is_yes(reply) else reply
    answers: dict[str, str] = {}
    for question in payload.get("questions", []):
        console.print(f"[yellow]? {escape(question['question'])}[/]", highlight=False)
        candidates = question.get("candidates") or []
        for number, name in enumerate(candidates, 1):
            console.print(f"   {number}. {escape(name)}", highlight=False)
        reply = await terminal.read_line(console, "  > ")
        if reply is None or reply.strip().lower() in QUIT:
            return None  # the question stays pending: `ng chat --thread` asks it again
        reply = reply.strip()
        if reply.isdigit() and 1 <= int(reply) <= len(candidates):
            reply = candidates[int(reply) - 1]  # a number picks a candidate
        answers[question["id"]] = reply or question.get("default", "")
    return answers


def refuse_other_thread(runtime, thread: dict[str, Any], args: argparse.Namespace) -> None:
    """`--thread` names a thread of the novel chat about this project, or the session would talk about another."""
    if thread["flow"] != FLOW:
        raise RequestError("bad_request", t("runtime.other_flow", thread=args.thread,
                                            flow=runtime.flow_title(thread["flow"])))
    project = (thread.get("options") or {}).get("projectId")
    if project and project != args.project_id:
        raise RequestError("bad_request", t("novel.cli_chat_thread_other_project", thread=args.thread,
                                            project=project, asked=args.project_id))


async def session(args: argparse.Namespace, settings: Settings, console: Console, thread_id: str) -> int:
    from app.eventlog import each_event
    from app.services import open_runtime

    chat_view = ChatTerminal(console, thread_id)
    async with open_runtime(settings, fanouts=[each_event(chat_view.on_event)], local_user=True) as runtime:
        if args.thread:
            # A thread that is missing, or another flow's or project's, is the thread's fault: no project hint.
            try:
                thread = await runtime.thread_or_404(args.thread)
                refuse_other_thread(runtime, thread, args)
            except RequestError as error:
                console.print(f"[red]{escape(error.message)}[/]", highlight=False)
                return 2
        try:
            if args.thread:
                if thread["status"] == "interrupted" and not thread["pending_interrupt"]:
                    await runtime.resume(thread_id)  # a run the last session left unfinished
                    await runtime.wait(thread_id)
                    chat_view.run_ended()
            else:
                await runtime.send_message(flow=FLOW, text="", thread_id=thread_id, create=True,
                                           options={"projectId": args.project_id})
                await runtime.wait(thread_id)
                chat_view.run_ended()
        except RequestError as error:
            from app.cli_novel import say_project_error

            say_project_error(console, error.message, settings, args.project_id)
            return 2
        while True:
            thread = await runtime.store.get_thread(thread_id)
            pending = thread["pending_interrupt"]
            if pending:
                answer = await answer_interrupt(console, pending)
                if answer is None:
                    break
                if pending.get("kind") == "confirmation" and isinstance(answer, str):
                    await runtime.send_message(flow=FLOW, text=answer, thread_id=thread_id, create=False)
                else:
                    await runtime.resume(thread_id, answer)
            else:
                text = await terminal.read_line(console, f"[bold green]{t('novel.cli_chat_you')}[/] ")
                if text is None or text.strip().lower() in QUIT:
                    break
                if not text.strip():
                    continue
                try:
                    await runtime.send_message(flow=FLOW, text=text, thread_id=thread_id, create=False)
                except RequestError as error:
                    console.print(f"[red]{escape(error.message)}[/]", highlight=False)
                    continue
            await runtime.wait(thread_id)
            chat_view.run_ended()
    console.print(f"[dim]{t('novel.cli_chat_bye', thread=thread_id, project=args.project_id)}[/]", highlight=False)
    return 0


def main(args: argparse.Namespace, settings: Settings) -> int:
    from app.runtime import new_thread_id

    set_locale(settings.locale)
    console = NgConsole()
    thread_id = args.thread or new_thread_id()
    try:
        return asyncio.run(session(args, settings, console, thread_id))
    except (KeyboardInterrupt, asyncio.CancelledError):
        console.print()
        console.print(f"[dim]{t('novel.cli_chat_interrupted', thread=thread_id, project=args.project_id)}[/]",
                      highlight=False)
        return 130
