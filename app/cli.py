"""`ng`: serve the canvas, run a flow in the terminal, list and resume threads."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.live import Live
from rich.table import Table

from app.runtime import RequestError, new_thread_id
from core.i18n import t
from core.settings import Settings

console = Console()


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from aiohttp import web

    from app.auth import ConfigError, check_bind
    from app.server import create_app
    from core.i18n import set_locale
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
    llm = describe_llm(settings)
    console.print(f"[bold]agent-canvas[/] on http://{host}:{port}  ·  LLM: {llm['provider']} ({llm['model']})  ·  data: {settings.data_dir}")
    # Runs and sockets are closed by the app's on_shutdown; a handler still reading a slow request body
    # (a polling POST that never completes) gets this long, then is cancelled, so SIGTERM is never held.
    web.run_app(create_app(settings), host=host, port=port, print=None, shutdown_timeout=0.5)
    # Runs are drained and every store is closed by now; skip the interpreter's module teardown,
    # which alone takes about a second with LangChain's import graph loaded.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


class StageDisplay:
    """A live terminal view of one run, fed by the event log like any other client."""

    SYMBOL = {"pending": "[dim]○[/]", "running": "[yellow]●[/]", "done": "[green]✔[/]", "failed": "[red]✘[/]"}

    def __init__(self) -> None:
        self.stages: dict[str, dict[str, Any]] = {}
        self.progress = ""
        self.completion: dict[str, Any] | None = None
        self.interrupt: dict[str, Any] | None = None
        self.logs: list[str] = []

    def apply(self, event: str, payload: dict[str, Any]) -> None:
        if event == "tool:start":
            self.stages.setdefault(payload["toolCallId"], {"name": payload["toolName"]})["status"] = "running"
        elif event == "tool:update":
            if payload["toolCallId"] in self.stages:
                self.stages[payload["toolCallId"]]["status"] = payload["status"]
        elif event == "progress":
            self.progress = f"{payload['message']} ({payload['current']}/{payload['total']})"
        elif event == "tool:log":
            self.logs = (self.logs + [payload["message"]])[-4:]
        elif event == "completion":
            self.completion = payload
        elif event == "interrupt":
            self.interrupt = payload

    def render(self) -> Table:
        table = Table.grid(padding=(0, 1))
        for stage in self.stages.values():
            table.add_row(self.SYMBOL.get(stage.get("status", "pending"), "?"), stage["name"])
        if self.progress:
            table.add_row("", f"[cyan]{self.progress}[/]")
        for line in self.logs:
            table.add_row("", f"[dim]{line}[/]")
        return table


async def _follow(settings: Settings, start) -> tuple[Any, StageDisplay, str]:
    """Open the runtime, start a run with `start(runtime)`, show it live until it ends."""
    from app.services import open_runtime

    display = StageDisplay()
    watched: set[str] = set()

    async def to_terminal(thread_id: str, event: str, payload: dict[str, Any]) -> None:
        if thread_id in watched:
            display.apply(event, payload)

    async with open_runtime(settings, fanouts=[to_terminal], local_user=True) as runtime:
        thread_id = await start(runtime, watched)
        with Live(display.render(), console=console, refresh_per_second=8, transient=False) as live:
            finished = asyncio.create_task(runtime.wait(thread_id))
            while not finished.done():
                live.update(display.render())
                await asyncio.wait({finished}, timeout=0.1)
            live.update(display.render())
        artifacts = await runtime.store.latest_artifacts(thread_id)
        return artifacts, display, thread_id


def _report(display: StageDisplay, artifacts: list[dict[str, Any]], thread_id: str, out: Path | None) -> int:
    console.print()
    completion = display.completion or {}
    if display.interrupt:
        console.print(f"[yellow]Waiting for an answer[/] on thread {thread_id}: {display.interrupt['payload']}")
        return 0
    if not completion.get("success"):
        console.print(f"[red]{completion.get('error', 'The run did not finish.')}[/]  Resume with: ng resume {thread_id}")
        return 1
    final = next((a for a in artifacts if a["id"] == completion.get("finalArtifactId")), None)
    if final and final.get("_filePath") and out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(final["_filePath"], out)
        console.print(f"[green]Saved[/] {out}  (thread {thread_id})")
    else:
        console.print(f"[green]Done[/] (thread {thread_id})")
    return 0


def cmd_ppt(args: argparse.Namespace, settings: Settings) -> int:
    if not args.topic.strip():
        console.print(f"[red]{t('ppt.empty_topic')}[/]")
        return 2

    async def start(runtime, watched: set[str]) -> str:
        thread_id = new_thread_id()
        watched.add(thread_id)
        await runtime.send_message(flow="ppt", text=args.topic, thread_id=thread_id, create=True)
        return thread_id

    artifacts, display, thread_id = asyncio.run(_follow(settings, start))
    out = Path(args.out) if args.out else Path(f"{thread_id[:8]}.pptx")
    return _report(display, artifacts, thread_id, out)


def cmd_resume(args: argparse.Namespace, settings: Settings) -> int:
    async def start(runtime, watched: set[str]) -> str:
        watched.add(args.thread_id)
        await runtime.resume(args.thread_id, args.answer)
        return args.thread_id

    try:
        artifacts, display, thread_id = asyncio.run(_follow(settings, start))
    except RequestError as error:
        console.print(f"[red]{error.message}[/]")
        return 2
    return _report(display, artifacts, thread_id, Path(args.out) if args.out else None)


def cmd_threads(args: argparse.Namespace, settings: Settings) -> int:
    from app.store import Store

    async def load():
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            return await store.list_threads()
        finally:
            await store.close()

    table = Table("thread", "flow", "status", "title")
    table.columns[0].no_wrap = True
    for thread in asyncio.run(load()):
        table.add_row(thread["thread_id"], thread["flow"], thread["status"], thread["title"])
    console.print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ng", description="agent-canvas: checkpointed agent flows, live.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="start the web canvas and Socket.IO server")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.set_defaults(func=cmd_serve)

    ppt = sub.add_parser("ppt", help="generate a slide deck in the terminal")
    ppt.add_argument("topic")
    ppt.add_argument("--out", help="where to save the .pptx (default: <thread>.pptx)")
    ppt.set_defaults(func=cmd_ppt)

    threads = sub.add_parser("threads", help="list threads")
    threads.set_defaults(func=cmd_threads)

    resume = sub.add_parser("resume", help="continue an interrupted, failed or cancelled thread")
    resume.add_argument("thread_id")
    resume.add_argument("--answer", help="reply to a pending question")
    resume.add_argument("--out", help="save the final file here")
    resume.set_defaults(func=cmd_resume)

    try:
        from app import cli_plan
    except ImportError:
        cli_plan = None
    if cli_plan is not None:
        cli_plan.add_parser(sub)
    from app import cli_chat, cli_novel, cli_users

    cli_users.register(sub)
    cli_novel.add_parser(sub)
    cli_chat.add_parser(sub)
    from app import cli_legal

    cli_legal.add_parser(sub).set_defaults(func=cli_legal.main)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    settings = Settings()
    if args.command == "plan":
        from app import cli_plan

        return asyncio.run(cli_plan.run(args, settings))
    return args.func(args, settings)


if __name__ == "__main__":
    sys.exit(main())
