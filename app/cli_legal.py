"""`ng legal "问题"`: the legal flow in the terminal, through the same runtime as the server.

Shows the classification, the agents chosen and the checked answer; drafting questions are asked at
the prompt (empty line or EOF = leave the field open); `--out` saves a drafted document's .docx.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from rich.markdown import Markdown
from rich.markup import escape

from app.errors import RequestError
from app.terminal import NgConsole
from core.i18n import join_items, t
from core.settings import Settings

console = NgConsole()


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("legal", help=t("cli.help_legal"), description=t("cli.help_legal_description"))
    parser.add_argument("question", nargs="+", metavar=t("cli.metavar_question"), help=t("cli.help_question"))
    parser.add_argument("--thread", metavar=t("cli.metavar_id"), help=t("cli.help_legal_thread"))
    parser.add_argument("--out", metavar=t("cli.metavar_path"), help=t("cli.help_legal_out"))
    return parser


async def _ask_fields(questions: list[dict[str, Any]]) -> tuple[dict[str, str], bool]:
    """The drafting questions, read as every `ng` prompt reads (Ctrl-C stops at once): the fields answered (an
    empty line leaves one open), and whether the input has ended (a file, a pipe): the rest are left open unasked."""
    from app import terminal

    answers: dict[str, str] = {}
    for question in questions:
        console.print(f"[bold yellow]?[/] {escape(question['question'])}", highlight=False)
        reply = await terminal.read_line(console, "> ")
        if reply is None:
            return answers, True
        answers[question["id"]] = reply.strip()
    return answers, False


async def run(args: argparse.Namespace, settings: Settings) -> int:
    from app.runtime import new_thread_id
    from app.eventlog import each_event
    from app.services import open_runtime

    text = sys.stdin.read().strip() if args.question == ["-"] else " ".join(args.question).strip()
    if not text:
        console.print(f"[red]{t('legal.cli_empty')}[/]")
        return 2
    from app.cli_export import OutPathError, out_path_problem, write_artifact

    problem = out_path_problem(Path(args.out)) if args.out else None
    if problem:
        console.print(f"[red]{problem}[/]", highlight=False)
        return 2
    seen: dict[str, Any] = {"interrupt": None, "completion": None}

    async def show(thread_id: str, event: str, data: dict[str, Any]) -> None:
        if thread_id != seen.get("thread"):
            return
        if event == "status" and data.get("status") == "classifying":
            console.print(f"[dim]{t('legal.cli_classifying')}[/]")
        elif event == "agent-selected":
            console.print(agent_selected_line(data))
        elif event == "tool:log" and data.get("level") in {"info", "warning", "error"}:
            console.print(f"  [dim]{data['message']}[/]")
        elif event == "message" and data.get("final"):
            console.print(Markdown(data["content"]))
        elif event == "interrupt":
            seen["interrupt"] = data
        elif event == "completion":
            seen["completion"] = data

    async with open_runtime(settings, fanouts=[each_event(show)], local_user=True) as runtime:
        # Load the statute index while the question is being classified, not after.
        if (legal := runtime.tools.get("legal")) is not None:
            legal.warm_in_background()
        try:
            if args.thread:
                seen["thread"] = args.thread
                await runtime.send_message(flow="legal", text=text, thread_id=args.thread, create=False)
            else:
                seen["thread"] = new_thread_id()
                await runtime.send_message(flow="legal", text=text, thread_id=seen["thread"], create=True)
            input_ended = False  # stdin at its end (a file, a pipe): later rounds are not asked again
            while True:
                await runtime.wait(seen["thread"])
                pending = seen.pop("interrupt", None)
                seen["interrupt"] = None
                if not pending:
                    break
                questions = pending["payload"].get("questions", [])
                answers, input_ended = ({}, True) if input_ended else await _ask_fields(questions)
                answers = {k: v for k, v in answers.items() if v} or "use defaults"
                await runtime.resume(seen["thread"], answers)
        except RequestError as error:
            console.print(f"[red]{error.message}[/]")
            return 2
        except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels this task
            await _stop_resumably(runtime, seen.get("thread"))
        completion = seen.get("completion") or {}
        if not completion.get("success"):
            console.print(f"[red]{completion.get('error') or t('runtime.run_failed')}[/]")
            return 1
        final = completion.get("finalArtifactId")
        artifact = await runtime.store.get_artifact(final) if final else None
        if args.out:
            if not (artifact and artifact.get("_filePath")):
                console.print(f"[yellow]{t('legal.cli_no_file', path=args.out)}[/]", highlight=False)
                return 1
            try:
                written = write_artifact(artifact, Path(args.out))
            except OutPathError as error:
                console.print(f"[red]{error.sentence}[/] {t('cli.export_instead', thread=seen['thread'])}",
                              highlight=False)
                return 1
            console.print(t("legal.cli_saved", path=written), highlight=False)
        elif artifact and artifact.get("_filePath"):
            # A drafted .docx with no --out: the terminal has no download button, so say how to get the file.
            console.print(t("cli.export_instead", thread=seen["thread"]), highlight=False)
        console.print(f"[dim]{t('cli.thread_label', thread=seen['thread'])}[/]", highlight=False)
    return 0


async def _stop_resumably(runtime: Any, thread_id: str | None) -> None:
    """Ctrl-C: leave the thread interrupted and let `ng` say how to resume it (as `ng ppt` does)."""
    from app.cli import ThreadInterrupted, mark_interrupted

    if thread_id is None or await runtime.store.get_thread(thread_id) is None:
        raise KeyboardInterrupt  # no thread yet: nothing to resume
    await mark_interrupted(runtime, thread_id)
    raise ThreadInterrupted(thread_id, f"ng resume {thread_id}") from None


def main(args: argparse.Namespace, settings: Settings) -> int:
    # Anything raised here happened outside a run (a run's failure is its completion): `ng` says it in one
    # sentence (a setting to fix, or "failed unexpectedly"), not "the work so far is saved" with nothing saved.
    return asyncio.run(run(args, settings))


def agent_selected_line(data: dict[str, Any]) -> str:
    """The routed agent and why, as rich markup, in the user's language throughout."""
    # Names, not ids: the user reads 法律咨询 / 劳动法, never legal_consultation / labor_law.
    about = [t("legal.intent_" + data["intent"]), t("legal.category_" + (data.get("category") or "other"))] \
        if data.get("intent") else []
    # A percentage, as the line above it says it ("confidence 49%"), not a bare 0.49.
    about.append(t("cli.legal_confidence", percent=round(float(data["confidence"]) * 100)))
    return f"[cyan]→ {t('cli.legal_routed', agent=t('legal.agent_' + data['agent']), about=join_items(about))}[/]"
