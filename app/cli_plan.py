"""`ng plan`: the requirement clarification flow in the terminal, through the same runtime as the server.

The thread lives in the runtime's store and checkpointer under DATA_DIR, so it is listed by
`ng threads`, and an interrupted session is picked up again with `--thread ID` (or `ng resume`).
Questions are shown with rich and answered at the prompt (empty line = keep the fallback;
"use defaults" = keep every fallback; EOF, e.g. no terminal, = defaults for the rest).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel

from app.flows import node_label
from app.terminal import NgConsole
from core.i18n import t
from core.settings import Settings
from schemas.requirement import export_json_schema

InputFn = Callable[[str], str]
# Typed at any question: every remaining question of the round keeps its fallback.
USE_DEFAULTS = {"use defaults", "defaults", "默认", "使用默认"}


async def _ask_in_daemon(input_fn: InputFn, prompt: str) -> str:
    """input() on a daemon thread: on Ctrl-C the loop is not held by a thread still blocked in input()."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def read() -> None:
        try:
            text = input_fn(prompt)
        except BaseException as error:  # EOFError above all; handed to the awaiting coroutine
            failure = error
            loop.call_soon_threadsafe(lambda: answer.done() or answer.set_exception(failure))
        else:
            loop.call_soon_threadsafe(lambda: answer.done() or answer.set_result(text))

    threading.Thread(target=read, daemon=True).start()
    return await answer


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "plan",
        help=t("cli.help_plan"),
        description=t("cli.help_plan_description"),
    )
    parser.add_argument("requirement", nargs="*", metavar=t("cli.metavar_requirement"), help=t("cli.help_requirement"))
    parser.add_argument("--repo", metavar=t("cli.metavar_path"), help=t("cli.help_repo"))
    parser.add_argument("--write", action="store_true", help=t("cli.help_write"))
    parser.add_argument("--max-rounds", type=int, metavar="N", dest="max_rounds", help=t("cli.help_max_rounds"))
    parser.add_argument("--schema", action="store_true", help=t("cli.help_schema"))
    parser.add_argument("--json", action="store_true", dest="as_json", help=t("cli.help_json"))
    parser.add_argument("--thread", metavar=t("cli.metavar_id"), help=t("cli.help_plan_thread"))
    return parser


def _read_requirement(args: argparse.Namespace) -> str:
    words = list(args.requirement or [])
    if words == ["-"]:
        return sys.stdin.read().strip()
    return " ".join(words).strip()


def _show_event(console: Console, event: str, data: dict[str, Any]) -> None:
    if event == "tool:start":
        console.print(f"[dim]→ {node_label(data['toolName'])}[/]")
    elif event == "tool:log" and data.get("level") != "debug":
        style = {"warning": "yellow", "error": "red"}.get(data.get("level"), "dim")
        console.print(f"  [{style}]{data['message']}[/]")
    elif event == "tool:artifact":
        artifact = data["artifact"]
        # Named by its title ("需求计划 v1.0（第 1 轮）"), not by its wire type (requirement_plan).
        console.print(f"  [cyan]{t('cli.artifact_made', title=artifact['title'])}[/]", highlight=False)


async def _read_answer(console: Console, input_fn: InputFn | None, prompt: str) -> str:
    """One answer; EOFError at the end of input. At the terminal (no input_fn) it is read the way `ng chat`
    reads: the prompt on the console (stderr with --json), and a line piped in is echoed after it, so the
    next line printed does not join the prompt."""
    if input_fn is not None:
        return await _ask_in_daemon(input_fn, prompt)
    from app import terminal

    line = await terminal.read_line(console, prompt)
    if line is None:
        raise EOFError
    return line


async def ask_questions(console: Console, payload: dict[str, Any], input_fn: InputFn | None) -> dict[str, str] | str:
    """A plan's clarification questions, each with why it is asked and its fallback, answered at the prompt
    (`ng plan`, and `ng resume` of a plan waiting on them); typing "use defaults" keeps the rest's fallbacks."""
    questions = payload.get("questions", [])
    # The round is the title: inside a long sentence "第 1/3 轮" was broken at its spaces by the wrap.
    title = t("cli.questions_title", round=payload.get("clarificationRound", "?"), max_rounds=payload.get("maxRounds", "?"))
    console.print(Panel.fit(t("cli.questions_panel"), title=title))
    answers: dict[str, str] = {}
    for number, q in enumerate(questions, start=1):
        flag = f"[red]{t('cli.blocking')}[/]" if q.get("blocking") else f"[dim]{t('cli.optional')}[/]"
        console.print(f"\n[bold]{number}. {q['question']}[/] {flag}")
        if q.get("why_needed"):
            console.print(f"   [dim]{t('cli.why', text=q['why_needed'])}[/]")
        console.print(f"   [dim]{t('cli.fallback', text=q['default'])}[/]")
        try:
            text = await _read_answer(console, input_fn, "   > ")
        except EOFError:  # no terminal: every remaining question keeps its fallback, as the line printed says
            console.print(f"   [dim]{t('cli.no_input')}[/]")
            return {**{str(rest["id"]): "" for rest in questions[number - 1:]}, **answers}
        text = text.strip()
        if text.lower() in USE_DEFAULTS:
            # The rest of the round keeps its fallbacks ("" = fallback); answers already typed stand.
            return {**{str(rest["id"]): "" for rest in questions[number - 1:]}, **answers}
        answers[q["id"]] = text  # "" = keep this question's fallback
    return answers


async def run(args: argparse.Namespace, settings: Settings, *, llm: Any = None, input_fn: InputFn | None = None,
              console: Console | None = None) -> int:
    if args.schema:
        print(json.dumps(export_json_schema(), indent=2, ensure_ascii=False))
        return 0
    console = console or NgConsole(stderr=bool(args.as_json))
    requirement = _read_requirement(args)
    if not requirement and not args.thread:
        console.print(f"[red]{t('cli.need_requirement')}[/]")
        return 2
    if args.write and not args.repo and not args.thread:
        console.print(f"[red]{t('cli.write_needs_repo')}[/]")
        return 2
    if args.max_rounds is not None and not 1 <= args.max_rounds <= 10:
        console.print(f"[red]{t('cli.max_rounds_range')}[/]")
        return 2
    if args.repo and not Path(args.repo).expanduser().is_dir():
        console.print(f"[red]{t('cli.bad_repo', repo=args.repo)}[/]", highlight=False)
        return 2

    from app.cli import ThreadInterrupted, mark_interrupted, say_model
    from app.runtime import RequestError, new_thread_id
    from app.eventlog import each_event
    from app.services import open_runtime
    from schemas.events import RESUMABLE_STATUSES, ThreadStatus

    options: dict[str, Any] = {}
    if args.max_rounds is not None:
        options["maxRounds"] = args.max_rounds
    if args.repo:
        options["repo"] = args.repo
    if args.write:
        options["write"] = True
    thread_id = args.thread or new_thread_id()
    completion: dict[str, Any] = {}
    said: list[str] = []  # the run's final assistant messages (the browser's; the terminal shows the plan itself)

    async def to_terminal(event_thread: str, event: str, payload: dict[str, Any]) -> None:
        if event_thread == thread_id:
            _show_event(console, event, payload)
            if event == "completion":
                completion.update(payload)
            elif event == "message" and payload.get("role") == "assistant" and payload.get("final"):
                said.append(payload["content"])

    async with open_runtime(settings, fanouts=[each_event(to_terminal)], llm=llm, local_user=True) as runtime:
        try:
            if args.thread:
                thread = await runtime.store.get_thread(thread_id)
                if thread is None or thread["flow"] != "requirement":
                    console.print(f"[red]{t('cli.no_plan_session', thread=args.thread, data_dir=settings.data_dir)}[/]")
                    return 2  # as every `ng` command: 2, no such thread
                if ThreadStatus(thread["status"]) in RESUMABLE_STATUSES and not thread["pending_interrupt"]:
                    await runtime.resume(thread_id)  # a crashed, failed or cancelled run continues
            else:
                await runtime.send_message(flow="requirement", text=requirement, thread_id=thread_id, create=True,
                                           options=options)
            console.print(f"[dim]{t('cli.plan_session', thread=thread_id)}[/]")
            say_model(runtime, console)
            while True:
                await runtime.wait(thread_id)
                thread = await runtime.store.get_thread(thread_id)
                pending = thread["pending_interrupt"] if thread else None
                if pending:
                    answer = await ask_questions(console, pending["payload"], input_fn)
                    await runtime.resume(thread_id, answer)
                    continue
                if thread and thread["status"] == ThreadStatus.done.value:
                    break
                console.print(f"[red]{completion.get('error') or thread and thread['status']}[/]")
                if completion.get("resumable") is not False:
                    console.print(f"[dim]{t('cli.plan_resume', thread=thread_id)}[/]")
                return 1
        except asyncio.CancelledError:  # Ctrl-C, while running or at a question prompt
            await mark_interrupted(runtime, thread_id)
            raise ThreadInterrupted(thread_id, f"ng plan --thread {thread_id}") from None
        except RequestError as error:
            console.print(f"[red]{error.message}[/]")
            return 2
        document = plan_document(await runtime.store.latest_artifacts(thread_id))
        graph = runtime.graphs["requirement"]
        values = (await graph.aget_state(runtime.graph_config(thread_id))).values
    if document is None:  # the message named nothing to plan: what to write instead
        console.print(said[-1] if said else t("requirement.no_requirement"))
        return 2
    show_plan(console, document, thread["options"])
    if args.as_json:
        print(json.dumps(values.get("plan") or {}, indent=2, ensure_ascii=False))
    return 0


def plan_document(artifacts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The finished plan (IMPLEMENTATION_PLAN.md's content) among a thread's latest artifacts, if it has one."""
    from schemas.events import ArtifactType

    return next((a["content"] for a in artifacts if a["type"] == ArtifactType.implementation_plan.value), None)


def show_plan(console: Console, document: dict[str, Any], options: dict[str, Any]) -> None:
    """A finished plan as every command that finishes one prints it (`ng plan`, `ng resume`): the Markdown,
    where it was written, the commit subject. `options` are the thread's (repo, write)."""
    console.print(Markdown(document.get("markdown", "")))
    if document.get("written_to"):
        console.print(f"[green]{t('cli.plan_written', path=document['written_to'])}[/]", highlight=False)
    elif options.get("repo") and not options.get("write"):
        console.print(f"[dim]{t('cli.plan_not_written')}[/]")
    if document.get("commit_message_suggestion"):
        console.print(f"[dim]{t('cli.suggested_commit', message=document['commit_message_suggestion'])}[/]",
                      highlight=False)
