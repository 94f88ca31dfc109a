"""`ng`: serve the canvas, run a flow in the terminal, list and resume threads."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import shutil
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.cells import cell_len
from rich.console import Console, Group
from rich.live import Live
from rich.measure import Measurement
from rich.markup import escape
from rich.padding import Padding
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from app.cli_args import (NgArgumentParser, add_subcommands, debug_after_any_command, help_for_missing_subcommand,
                          innermost_parser, port_number, speak_the_catalogue)
from app.errors import ConfigError, RequestError
from app.flows import node_label
from app import terminal
from app.terminal import NgConsole
from core.i18n import catalogue, join_items, set_locale, t
from core.settings import Settings
from core.validation import describe_validation_error

console = NgConsole()


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from aiohttp import web

    from app.auth import check_bind
    from app.server import create_app
    from core.llm.factory import describe_llm

    host = args.host or settings.host
    port = args.port if args.port is not None else settings.port
    settings = settings.model_copy(update={"host": host, "port": port})
    set_locale(settings.locale)
    try:
        check_bind(settings, host)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    where: dict[str, Any] = {"host": host, "port": port}
    if port == 0:
        # The system picks the port: bind first, so the banner and the server's own origin name the real one, not :0.
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        where = {"sock": socket.create_server((host, 0), family=family)}
        port = where["sock"].getsockname()[1]
        settings = settings.model_copy(update={"port": port})
    llm = describe_llm(settings)

    def say_started(*_aiohttp_banner: Any) -> None:
        # Called by run_app once the port is bound: a server that could not start never says it did.
        console.print(t("cli.serve_banner", host=host, port=port, provider=llm["provider"], model=llm["model"],
                        data_dir=settings.data_dir), style="bold", markup=False, highlight=False, soft_wrap=True)

    # Runs and sockets are closed by the app's on_shutdown; a handler still reading a slow request body
    # (a polling POST that never completes) gets this long, then is cancelled, so SIGTERM is never held.
    try:
        web.run_app(create_app(settings), **where, print=say_started, shutdown_timeout=0.5)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        print(t("cli.port_in_use", port=port), file=sys.stderr)
        _exit_now(1)
    except ConfigError as error:  # a setting start-up could not work with (LLM_BASE_URL missing)
        print(error, file=sys.stderr)
        _exit_now(2)
    _exit_now(0)
    return 0


def _exit_now(code: int) -> None:
    """End `ng serve` at once. Runs are drained and every store is closed by now; the interpreter's module
    teardown alone takes about a second with LangChain loaded, and start-up work still going in the
    background (the statute index build, up to a minute) would hold a server that failed to bind."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


class StageDisplay:
    """A live terminal view of one run, fed by the event log like any other client: each stage with the
    log lines it wrote beneath it, and a progress bar for the stage's own steps (e.g. pages)."""

    SYMBOL = {"pending": "[dim]○[/]", "running": "[yellow]●[/]", "done": "[green]✔[/]", "failed": "[red]✘[/]"}
    LOG_LINES_PER_STAGE = 3
    LOG_INDENT = 4  # log lines sit under their stage's name

    def __init__(self) -> None:
        self.stages: dict[str, dict[str, Any]] = {}
        self.completion: dict[str, Any] | None = None
        self.interrupt: dict[str, Any] | None = None
        self.said: list[str] = []  # the run's final assistant messages (what a refinement changed, the QA summary)

    def _stage(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        return self.stages.get(payload.get("toolCallId") or "") or (list(self.stages.values())[-1] if self.stages else None)

    def apply(self, event: str, payload: dict[str, Any]) -> None:
        if event == "tool:start":
            stage = self.stages.setdefault(payload["toolCallId"], {"name": payload["toolName"], "logs": []})
            stage["status"] = "running"
            described = payload.get("input")
            stage["about"] = described.get("about") if isinstance(described, dict) else None
        elif event == "tool:update":
            if payload["toolCallId"] in self.stages:
                self.stages[payload["toolCallId"]]["status"] = payload["status"]
        elif event == "progress":
            stage = self._stage(payload)
            if stage is not None:
                stage["progress"] = (payload["current"], payload["total"], payload["message"])
        elif event == "tool:log" and payload.get("level") != "debug":
            stage = self._stage(payload)
            if stage is not None:
                stage["logs"] = (stage["logs"] + [payload["message"]])[-self.LOG_LINES_PER_STAGE:]
        elif event == "message" and payload.get("role") == "assistant" and payload.get("final"):
            self.said.append(payload["content"])
        elif event == "completion":
            self.completion = payload
        elif event == "interrupt":
            self.interrupt = payload

    def render(self) -> Group:
        """Each stage's line, its progress bar while it runs, and its log lines indented beneath it. A log
        line takes the whole width and wraps under its own first letter: in a grid it shared the width
        with the progress bar's empty column and broke at half the terminal, its next line out of step."""
        rows: list[Any] = []
        done = sum(stage.get("status") == "done" for stage in self.stages.values())
        if self.stages:
            overall = ProgressBar(total=len(self.stages), completed=done, width=30)
            rows.append(self._row(Text(t("cli.stages_done", done=done, total=len(self.stages))), overall))
        for stage in self.stages.values():
            symbol = Text.from_markup(self.SYMBOL.get(stage.get("status", "pending"), "?"))
            # One node run side by side for two fields of law reads apart by what each call is about.
            name = " · ".join(filter(None, (node_label(stage["name"]), stage.get("about"))))
            rows.append(Text.assemble(symbol, " ", Text(name, style="bold")))
            current, total, message = stage.get("progress") or (0, 0, "")
            if total and stage.get("status") == "running":
                rows.append(self._row(ProgressBar(total=total, completed=current, width=30),
                                      Text(f"{message} {current}/{total}", style="cyan")))
            rows.extend(Padding(Text(line, style="dim"), (0, 0, 0, self.LOG_INDENT)) for line in stage["logs"])
        return Group(*rows)

    @staticmethod
    def _row(*cells: Any) -> Table:
        """A bar beside its words, starting where the stage names do (after the status symbol)."""
        row = Table.grid(padding=(0, 1))
        row.add_row(" ", *cells)
        return row


class ThreadInterrupted(Exception):
    """Ctrl-C during a run: the thread is already marked interrupted; main prints how to resume it."""

    def __init__(self, thread_id: str, resume_command: str) -> None:
        super().__init__(thread_id)
        self.thread_id = thread_id
        self.resume_command = resume_command


async def mark_interrupted(runtime: Any, thread_id: str) -> None:
    """Stop the run at once and leave the thread resumable (what start-up recovery would do later)."""
    from schemas.events import ThreadStatus

    await runtime.shutdown(grace_s=0.5)
    thread = await runtime.store.get_thread(thread_id)
    if thread is not None and thread["status"] == ThreadStatus.running.value:
        await runtime.store.update_thread(thread_id, status=ThreadStatus.interrupted)


def say_model(runtime: Any, out: Console | None = None) -> None:
    """Tell the user when answers come from the offline model (as `ng serve` does)."""
    if getattr(runtime.llm, "provider", "") == "offline":
        (out or console).print(f"[dim]{t('cli.offline_model')}[/]")


async def _follow(settings: Settings, start, resume_command: str | None = None,
                  ask=None) -> tuple[Any, StageDisplay, str]:
    """Open the runtime, start a run with `start(runtime)`, show it live until it ends.

    `resume_command` is what the user is told to type after Ctrl-C (default `ng resume <thread>`).
    `ask(runtime, thread_id)`, when given, answers a question the run stops at (None: leave it waiting),
    and the run goes on with that answer, as often as the flow asks."""
    from app.eventlog import each_event
    from app.services import open_runtime

    display = StageDisplay()
    watched: set[str] = set()

    async def to_terminal(thread_id: str, event: str, payload: dict[str, Any]) -> None:
        if thread_id in watched:
            display.apply(event, payload)

    async with open_runtime(settings, fanouts=[each_event(to_terminal)], local_user=True) as runtime:
        thread_id = await start(runtime, watched)
        say_model(runtime)  # after start: a refused resume or --thread says only why, not which model would run
        try:
            while True:
                await _show_live(runtime, thread_id, display)
                answer = await ask(runtime, thread_id) if ask and display.interrupt else None
                if answer is None:
                    break
                display.interrupt = None
                await runtime.resume(thread_id, answer)
        except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels this task
            await mark_interrupted(runtime, thread_id)
            raise ThreadInterrupted(thread_id, resume_command or f"ng resume {thread_id}") from None
        artifacts = await runtime.store.latest_artifacts(thread_id)
        return artifacts, display, thread_id


async def _show_live(runtime: Any, thread_id: str, display: StageDisplay) -> None:
    with Live(display.render(), console=console, refresh_per_second=8, transient=False,
              vertical_overflow="visible") as live:
        finished = asyncio.create_task(runtime.wait(thread_id))
        while not finished.done():
            live.update(display.render())
            await asyncio.wait({finished}, timeout=0.1)
        live.update(display.render())


async def ask_pending_question(runtime: Any, thread_id: str) -> Any:
    """The question a thread waits on, asked at the prompt as `ng plan` (a plan's questions, with why and
    fallback) or `ng chat` (any other question, a yes/no) ask it; its answer, or None at the end of input."""
    from app.cli_chat import answer_interrupt
    from app.cli_plan import ask_questions

    thread = await runtime.store.get_thread(thread_id)
    pending = thread and thread.get("pending_interrupt")
    if not pending:
        return None
    console.print()
    questions = (pending.get("payload") or {}).get("questions") or []
    if pending.get("kind") == "clarification" and all(q.get("default") for q in questions):
        try:
            return await ask_questions(console, pending["payload"], None)
        except EOFError:
            return None
    answer = await answer_interrupt(console, pending)
    if isinstance(answer, dict) and not any(answer.values()):
        return "use defaults"  # every question left open: the flow keeps or marks its defaults
    return answer


def _report(display: StageDisplay, artifacts: list[dict[str, Any]], thread_id: str, out: Path | None,
            options: dict[str, Any] | None = None) -> int:
    """How the run ended, in sentences; a finished plan is printed as `ng plan` prints it (`options`: the thread's)."""
    from app.cli_export import OutPathError, write_artifact
    from app.cli_plan import plan_document, show_plan

    console.print()
    completion = display.completion or {}
    if display.interrupt:
        console.print(f"[yellow]{t('cli.waiting_answer', thread=thread_id)}[/]")
        return 0
    if not completion.get("success"):
        error = completion.get("error") or t("cli.not_finished")
        if completion.get("resumable") is False:  # a resume would fail the same way: the sentence says what to do
            console.print(f"[red]{error}[/]", highlight=False)
        else:
            console.print(f"[red]{error}[/]  {t('cli.resume_with', command=f'ng resume {thread_id}')}", highlight=False)
        return 1
    final = next((a for a in artifacts if a["id"] == completion.get("finalArtifactId")), None)
    plan = plan_document([final]) if final else None
    if plan is not None:
        show_plan(console, plan, options or {})  # the plan itself, not the browser's sentence about it
    for sentence in display.said if plan is None else ():
        console.print(sentence, highlight=False)
    if final and final.get("_filePath") and out is not None:
        try:
            written = write_artifact(final, out)
        except OutPathError as error:
            console.print(f"[red]{error.sentence}[/] {t('cli.export_instead', thread=thread_id)}", highlight=False)
            return 1
        console.print(f"[green]{t('cli.saved', path=written, thread=thread_id)}[/]", highlight=False)
    elif out is not None:
        # A file was asked for and the run made none (no topic given, a question answered): "done" would lie.
        console.print(f"[yellow]{t('cli.no_file_made', path=out, thread=thread_id)}[/]", highlight=False)
        return 1
    else:
        console.print(f"[green]{t('cli.done', thread=thread_id)}[/]", highlight=False)
    return 0


def cmd_ppt(args: argparse.Namespace, settings: Settings) -> int:
    topic = " ".join(args.topic).strip()  # `ng ppt volcanoes for kids` unquoted is one topic, as ng legal's question
    if not topic:
        console.print(f"[red]{t('ppt.empty_topic')}[/]")
        return 2
    from app.cli_export import out_path_problem, remember_out, remembered_out
    from app.runtime import new_thread_id

    out = Path(args.out) if args.out else None
    problem = out_path_problem(out) if out is not None else None
    if problem:
        console.print(f"[red]{problem}[/]", highlight=False)
        return 2

    def saved_as(thread_id: str) -> Path:
        # Feedback on a deck rewrites the file the deck was saved to, unless --out names another.
        return out or remembered_out(settings, thread_id) or Path(f"{thread_id[:8]}.pptx")

    async def start(runtime, watched: set[str]) -> str:
        if args.thread:
            watched.add(args.thread)
            await runtime.send_message(flow="ppt", text=topic, thread_id=args.thread, create=False)
            remember_out(settings, args.thread, saved_as(args.thread))
            return args.thread
        thread_id = new_thread_id()
        watched.add(thread_id)
        # Remembered before the run: an interrupted run's `ng resume` saves the deck there too.
        remember_out(settings, thread_id, saved_as(thread_id))
        await runtime.send_message(flow="ppt", text=topic, thread_id=thread_id, create=True)
        return thread_id

    try:
        artifacts, display, thread_id = asyncio.run(_follow(settings, start))
    except RequestError as error:  # --thread: an unknown thread, another flow's, or one still running
        console.print(f"[red]{error.message}[/]", highlight=False)
        return 2
    return _report(display, artifacts, thread_id, saved_as(thread_id))


def cmd_resume(args: argparse.Namespace, settings: Settings) -> int:
    from app.cli_export import remember_out, remembered_out

    # At a terminal the question a thread waits on is asked, as `ng plan` asks it; a script gives --answer.
    ask = ask_pending_question if args.answer is None and sys.stdin.isatty() else None
    options: dict[str, Any] = {}  # the thread's, for how its outcome is reported

    async def start(runtime, watched: set[str]) -> str:
        watched.add(args.thread_id)
        options.update(((await runtime.store.get_thread(args.thread_id)) or {}).get("options") or {})
        answer = args.answer
        if ask and await _waits_for_answer(runtime, args.thread_id):
            try:
                answer = await ask(runtime, args.thread_id)
            except asyncio.CancelledError:  # Ctrl-C at the question: no run started, the question stays waiting
                raise ThreadInterrupted(args.thread_id, f"ng resume {args.thread_id}") from None
            if answer is None:  # end of input at the prompt: the question stays for the next time
                raise RequestError("bad_request", t("cli.waiting_answer", thread=args.thread_id))
        try:
            await runtime.resume(args.thread_id, answer)
        except RequestError as error:
            if args.answer is None and await _waits_for_answer(runtime, args.thread_id):
                # The runtime's sentence speaks of the protocol's `answer`; here the answer is an option.
                raise RequestError(error.code, t("cli.waiting_answer", thread=args.thread_id)) from None
            raise RequestError(error.code, error.message + await _after_done(runtime, args.thread_id)) from None
        return args.thread_id

    if args.out:
        remember_out(settings, args.thread_id, Path(args.out))
    try:
        artifacts, display, thread_id = asyncio.run(_follow(settings, start, ask=ask))
    except RequestError as error:
        console.print(f"[red]{error.message}[/]", highlight=False)
        return 2
    return _report(display, artifacts, thread_id, remembered_out(settings, thread_id), options)


async def _waits_for_answer(runtime: Any, thread_id: str) -> bool:
    thread = await runtime.store.get_thread(thread_id)
    return bool(thread and thread.get("pending_interrupt"))


async def _after_done(runtime: Any, thread_id: str) -> str:
    """For a finished thread `ng resume` refuses: what the person can do with it instead."""
    thread = await runtime.store.get_thread(thread_id)
    if thread is None or thread["status"] != "done":
        return ""
    hints = [t("cli.resume_done_ppt", thread=thread_id)] if thread["flow"] == "ppt" else []
    if await runtime.store.latest_artifacts(thread_id):
        hints.append(t("cli.resume_done_export", thread=thread_id))
    return "".join(hints)


def cmd_threads(args: argparse.Namespace, settings: Settings) -> int:
    if args.threads_command == "rename":
        return _rename_thread(args, settings)
    if args.threads_command == "delete":
        return _delete_thread(args, settings)
    if args.threads_command == "show":
        return _show_thread(args, settings)
    console.print(t("cli.threads_from", data_dir=Path(settings.data_dir).resolve()), highlight=False)
    threads = _with_store(settings, lambda store: store.list_threads())
    if not threads:
        _say(t("cli.threads_none"))
        return 0
    rows = [(thread["thread_id"], _flow_words(thread["flow"]), _status_words(thread)) for thread in threads]
    table = Table()
    widths = [max(cell_len(t(heading)), *(cell_len(row[column]) for row in rows))
              for column, heading in enumerate(("cli.heading_thread", "cli.heading_flow", "cli.heading_status"))]
    for width, heading in zip(widths, ("cli.heading_thread", "cli.heading_flow", "cli.heading_status")):
        # Never cut: the id is what `ng resume` and `ng export` take.
        table.add_column(t(heading), no_wrap=True, min_width=width)
    if console.is_terminal:
        # One line a thread: the title takes the width left (each column costs 3 cells of border and
        # padding, the table 1 more) and a long one ends in an ellipsis.
        title_width = max(12, console.width - sum(widths) - 3 * 4 - 1)
        table.add_column(t("cli.heading_title"), no_wrap=True, overflow="ellipsis", max_width=title_width)
    else:  # read by a program (`| grep`): every title whole, on its thread's line
        table.add_column(t("cli.heading_title"), no_wrap=True)
    for row, thread in zip(rows, threads):
        table.add_row(*row, Text(thread["title"]))
    if console.is_terminal:
        console.print(table)
    else:
        _print_at_natural_width(table)
    return 0


def _print_at_natural_width(table: Table) -> None:
    """Piped, rich squeezes a table into 80 columns: the titles came out one character a line under their
    thread. A program reads lines, not a screen, so the table takes the width its rows need."""
    natural = Measurement.get(console, console.options.update_width(10_000), table).maximum
    Console(width=natural, highlight=False).print(table)


def _flow_words(flow: str) -> str:
    """The flow as the canvas's flow picker names it (小说生成), not its id (novel_workflow)."""
    key = f"flows.{flow}_title"
    return t(key) if key in catalogue() else flow


def _status_words(thread: dict[str, Any]) -> str:
    """A thread's status as the canvas's list says it: waiting for an answer is not the same as stopped."""
    from app.runtime import thread_summary

    if thread_summary(thread).waiting:
        return t("cli.status_waiting")
    status = f"runtime.status_{thread['status']}"
    return t(status) if status in catalogue() else thread["status"]


def _say(sentence: str, style: str | None = None) -> None:
    # Text, not markup: a title may hold brackets that rich would read as styles.
    console.print(Text(sentence, style=style or ""), highlight=False)


def _with_store(settings: Settings, action: Callable[[Any], Awaitable[Any]]) -> Any:
    """`action(store)` on DATA_DIR's store, opened for it and closed after."""
    from app.store import open_store

    async def run() -> Any:
        store = await open_store(settings).open()
        try:
            return await action(store)
        finally:
            await store.close()

    return asyncio.run(run())


def _show_thread(args: argparse.Namespace, settings: Settings) -> int:
    """A thread replayed from its event log as `ng` showed it live: each step with its last lines, then how it
    ended (a plan printed whole, a deck's file to export, the question it waits on, or how to resume it)."""

    async def replay(store) -> tuple[dict[str, Any] | None, StageDisplay, list[dict[str, Any]]]:
        display = StageDisplay()
        thread = await store.get_thread(args.thread_id)
        if thread is None:
            return None, display, []
        async for page in store.event_pages(args.thread_id, 0):  # page by page: a long thread is never loaded whole
            for event, payload in page:
                display.apply(event, payload)
        return thread, display, await store.latest_artifacts(args.thread_id)

    thread, display, artifacts = _with_store(settings, replay)
    if thread is None:
        _say(t("runtime.no_thread", thread=args.thread_id), "red")
        return 2
    _say(t("cli.thread_heading", title=thread["title"], flow=_flow_words(thread["flow"]),
           status=_status_words(thread)), "bold")
    console.print(display.render())
    if thread["status"] == "running":
        console.print()
        _say(t("cli.thread_running_elsewhere", thread=args.thread_id), "yellow")
        return 0
    from app.runtime import thread_summary

    if not thread_summary(thread).waiting:
        display.interrupt = None  # a question answered since: the run went on past it
    if thread["status"] == "interrupted" and not display.completion:
        # Stopped by Ctrl-C (or a crash) between steps: no completion says so, the thread's status does.
        console.print()
        _say(t("cli.interrupted", thread=args.thread_id, command=f"ng resume {args.thread_id}"), "yellow")
        return 0
    code = _report(display, artifacts, args.thread_id, None, thread.get("options"))
    if any(artifact.get("_filePath") for artifact in artifacts):
        _say(t("cli.export_instead", thread=args.thread_id))
    return code


def _rename_thread(args: argparse.Namespace, settings: Settings) -> int:
    from app import threads

    try:
        thread = _with_store(settings, lambda store: threads.rename_thread(store, args.thread_id, args.title, owner=None))
    except RequestError as error:
        _say(error.message, "red")
        return 2
    _say(t("cli.thread_renamed", thread=args.thread_id, title=thread["title"]), "green")
    return 0


def cmd_cancel(args: argparse.Namespace, settings: Settings) -> int:
    """Stops a run that another `ng` or the server on this DATA_DIR is running (Ctrl-C stops one's own)."""
    from app import threads
    from app.auth import owned_thread

    async def cancel(store) -> bool:
        return await threads.ask_runner_to_stop(store, await owned_thread(store, args.thread_id, None))

    try:
        asked = _with_store(settings, cancel)
    except RequestError as error:
        _say(error.message, "red")
        return 2
    if not asked:
        _say(t("runtime.nothing_running", thread=args.thread_id), "red")
        return 2
    _say(t("cli.cancel_requested", thread=args.thread_id), "green")
    return 0


def _confirmed(question: str) -> bool:
    """y/N at the terminal, read as every `ng` prompt is; Ctrl-C or Ctrl-D there is a no."""
    try:
        answer = asyncio.run(terminal.read_line(console, escape(question)))
    except KeyboardInterrupt:
        console.print()  # the ^C stays on the question's line; the answer starts one of its own
        return False
    return answer is not None and answer.strip().lower() in ("y", "yes")


def _delete_thread(args: argparse.Namespace, settings: Settings) -> int:
    """Asks y/N at a terminal; without one only `--yes` deletes (a script never deletes by accident)."""
    from app import threads
    from app.auth import owned_thread
    from app.checkpoints import open_checkpointer

    async def check(store) -> dict[str, Any]:
        thread = await owned_thread(store, args.thread_id, None)
        threads.refuse_running(thread)
        return thread

    async def delete(store) -> dict[str, Any]:
        async with open_checkpointer(settings) as checkpointer:
            return await threads.delete_thread(store, checkpointer, args.thread_id, owner=None)

    try:
        thread = _with_store(settings, check)
        if not args.yes:
            if not sys.stdin.isatty():
                _say(t("cli.delete_needs_yes", thread=args.thread_id), "red")
                return 2
            if not _confirmed(t("cli.delete_confirm", thread=args.thread_id, title=thread["title"])):
                _say(t("cli.delete_kept", thread=args.thread_id))
                return 1
        thread = _with_store(settings, delete)
    except RequestError as error:
        _say(error.message, "red")
        return 2
    _say(t("cli.thread_deleted", thread=args.thread_id, title=thread["title"]), "green")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The `ng` command line, its help in the current locale (set it first)."""
    speak_the_catalogue()
    parser = NgArgumentParser(prog="ng", description=t("cli.help_description"), epilog=t("cli.help_exit_codes"))
    parser.add_argument("--debug", action="store_true", help=t("cli.help_debug"))
    sub = add_subcommands(parser, "command", name_key="cli.metavar_command")

    serve = sub.add_parser("serve", help=t("cli.help_serve"), description=t("cli.help_serve"))
    serve.add_argument("--host", metavar=t("cli.metavar_host"), help=t("cli.help_host"))
    serve.add_argument("--port", type=port_number, metavar=t("cli.metavar_port"), help=t("cli.help_port"))
    serve.set_defaults(func=cmd_serve)

    ppt = sub.add_parser("ppt", help=t("cli.help_ppt"), description=t("cli.help_ppt"))
    ppt.add_argument("topic", nargs="+", metavar=t("cli.metavar_topic"), help=t("cli.help_topic"))
    ppt.add_argument("--out", metavar=t("cli.metavar_path"), help=t("cli.help_ppt_out"))
    ppt.add_argument("--thread", metavar=t("cli.metavar_id"), help=t("cli.help_ppt_thread"))
    ppt.set_defaults(func=cmd_ppt)

    threads = sub.add_parser("threads", help=t("cli.help_threads"), description=t("cli.help_threads"))
    threads.set_defaults(func=cmd_threads)
    thread_actions = add_subcommands(threads, "threads_command", required=False)  # none: list them
    thread_actions.add_parser("list", help=t("cli.threads_list_help"), description=t("cli.threads_list_help"))
    show = thread_actions.add_parser("show", help=t("cli.threads_show_help"), description=t("cli.threads_show_help"))
    show.add_argument("thread_id", metavar=t("cli.metavar_thread_id"), help=t("cli.help_thread_id"))
    rename = thread_actions.add_parser("rename", help=t("cli.threads_rename_help"),
                                     description=t("cli.threads_rename_help"))
    rename.add_argument("thread_id", metavar=t("cli.metavar_thread_id"), help=t("cli.help_thread_id"))
    rename.add_argument("title", metavar=t("cli.metavar_title"), help=t("cli.help_new_title"))
    delete = thread_actions.add_parser("delete", help=t("cli.threads_delete_help"),
                                     description=t("cli.threads_delete_help"))
    delete.add_argument("thread_id", metavar=t("cli.metavar_thread_id"), help=t("cli.help_thread_id"))
    delete.add_argument("--yes", "-y", action="store_true", help=t("cli.threads_yes_help"))

    resume = sub.add_parser("resume", help=t("cli.help_resume"), description=t("cli.help_resume"))
    resume.add_argument("thread_id", metavar=t("cli.metavar_thread_id"), help=t("cli.help_thread_id"))
    resume.add_argument("--answer", metavar=t("cli.metavar_answer"), help=t("cli.help_answer"))
    resume.add_argument("--out", metavar=t("cli.metavar_path"), help=t("cli.help_resume_out"))
    resume.set_defaults(func=cmd_resume)

    cancel = sub.add_parser("cancel", help=t("cli.help_cancel"), description=t("cli.help_cancel"))
    cancel.add_argument("thread_id", metavar=t("cli.metavar_thread_id"), help=t("cli.help_thread_id"))
    cancel.set_defaults(func=cmd_cancel)

    try:
        from app import cli_plan
    except ImportError:
        cli_plan = None
    if cli_plan is not None:
        cli_plan.add_parser(sub)
    from app import cli_chat, cli_export, cli_novel, cli_users

    cli_users.register(sub)
    cli_novel.add_parser(sub)
    cli_chat.add_parser(sub)
    from app import cli_legal

    cli_legal.add_parser(sub).set_defaults(func=cli_legal.main)
    cli_export.register(sub)
    debug_after_any_command(parser, t("cli.help_debug"))
    return parser


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """Unknown flags are reported with the subcommand's own usage, not the top-level one."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        innermost_parser(parser, args).error(t("cli.unknown_arguments", arguments=" ".join(extra)))
    help_for_missing_subcommand(parser, args)
    return args


# Shorter than this, a prefix is more likely a typo than a thread: `ng threads delete t` must not pick one.
THREAD_PREFIX_MIN = 4


def _full_thread_ids(args: argparse.Namespace, settings: Settings) -> bool:
    """Let a command take the start of a thread's id, as git takes a commit's: the deck is saved as the
    id's first 8 characters (53f7cd44.pptx), so that is what a person types back. A unique prefix becomes
    the full id; an ambiguous one is refused with the threads it could mean (False)."""
    slot = next((name for name in ("thread_id", "thread") if getattr(args, name, None)), None)
    if slot is None or len(getattr(args, slot)) < THREAD_PREFIX_MIN:
        return True
    given = getattr(args, slot)

    async def matching(store) -> list[dict[str, Any]]:
        if await store.get_thread(given) is not None:
            return []
        return [thread for thread in await store.list_threads(limit=1_000_000)
                if thread["thread_id"].startswith(given)]

    found = _with_store(settings, matching)
    if len(found) == 1:
        setattr(args, slot, found[0]["thread_id"])
    elif len(found) > 1:
        listed = join_items(t("cli.thread_with_title", thread=thread["thread_id"], title=thread["title"])
                            for thread in found[:5])
        _say(t("cli.thread_prefix_ambiguous", prefix=given, count=len(found), threads=listed), "red")
        return False
    return True


def _settings_sentence(error: ValidationError) -> str:
    first = error.errors()[0]
    setting = ".".join(str(part) for part in first.get("loc", ())) or "?"
    return t("cli.bad_setting", setting=setting.upper(), value=first.get("input"),
             reason=describe_validation_error(error, name=str.upper))


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings()
    except ValidationError as error:
        set_locale(os.environ.get("LOCALE", ""))
        parser_args = sys.argv[1:] if argv is None else argv
        if "--debug" in parser_args:
            raise
        print(_settings_sentence(error), file=sys.stderr)
        return 2
    set_locale(settings.locale)
    args = _parse(build_parser(), argv)
    runtime_log = logging.getLogger("app.runtime")
    level = runtime_log.level
    if args.debug:
        runtime_log.setLevel(logging.DEBUG)  # failures the runtime put in words come with their traceback
    elif args.command != "serve":
        runtime_log.setLevel(logging.ERROR)  # the terminal says how a run ended in its own sentence
    try:
        if not _full_thread_ids(args, settings):
            return 2
        if args.command == "plan":
            from app import cli_plan

            return asyncio.run(cli_plan.run(args, settings))
        return args.func(args, settings)
    except (KeyboardInterrupt, ThreadInterrupted) as stop:
        if isinstance(stop, ThreadInterrupted):
            console.print()  # the live display leaves its last line open
            console.print(t("cli.interrupted", thread=stop.thread_id, command=stop.resume_command), highlight=False)
        else:
            console.print(t("cli.stopped"), highlight=False)
        return 130
    except ConfigError as error:  # a setting to fix (LLM_BASE_URL missing): its sentence says which
        if args.debug:
            raise
        print(error, file=sys.stderr)
        return 2
    except Exception as error:
        if args.debug:
            raise
        sentence = getattr(error, "user_message", None) or getattr(error, "message", None)
        console.print(f"[red]{sentence or t('cli.unexpected', error=type(error).__name__)}[/]", highlight=False)
        return 1
    finally:
        runtime_log.setLevel(level)  # main() may run again in this process (tests)


if __name__ == "__main__":
    # Run the importable module's main, through `ng`'s entry point: command modules import its classes
    # (ThreadInterrupted) from `app.cli`, which under `python -m` is a second copy of this file.
    from app.ng import main as ng_main

    sys.exit(ng_main())
