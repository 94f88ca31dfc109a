"""`ng novel …`: NovelGen-format projects from the terminal (init, status, run, resume, export, index).

`run` and `resume` go through the runtime like every other entry point (flow `novel_workflow`, one
thread per project, `novel-<project_id>`), so a run killed in the middle of a chapter is resumed
from its checkpoint at the scene it was on.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from app.cli_args import add_subcommands
from app.terminal import NgConsole
from core.i18n import set_locale, t
from core.settings import Settings

console = NgConsole()

WORKFLOW_FLOW = "novel_workflow"


def _novel_config(settings: Settings) -> Any:
    # Imported here: the retrieval stack behind it costs a quarter second every `ng` command would pay.
    from core.tools.novel import NovelConfig

    return NovelConfig.from_settings(settings)


def say_project_error(out: Console, sentence: str, settings: Settings, project_id: str) -> None:
    """The refusal, and for a project that does not exist yet the command that creates it."""
    from core.novel.project import ProjectError, check_project_id
    from graphs.novel.library import how_to_get_project

    # The canvas's "pick the novel generation flow" means nothing at a prompt: the hint below says it here.
    sentence = sentence.removesuffix(how_to_get_project(project_id))
    out.print(f"[red]{escape(sentence)}[/]", highlight=False)

    try:
        check_project_id(project_id)
    except ProjectError:
        return  # a name no project can have: the sentence already says which names are allowed
    if not (Path(settings.projects_dir) / project_id).exists():
        out.print(f"[dim]{escape(t('cli.novel_init_hint', project=project_id))}[/]", highlight=False)


def workflow_thread_id(project_id: str) -> str:
    return f"novel-{project_id}"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("novel", help=t("novel.cli_help"), description=t("novel.cli_help"))
    sub = add_subcommands(parser, "novel_command")

    init = sub.add_parser("init", help=t("novel.cli_init_help"), description=t("novel.cli_init_help"))
    init.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))
    init.add_argument("--world", metavar=t("cli.metavar_world"), required=True, help=t("novel.cli_world_help"))
    init.add_argument("--theme", metavar=t("cli.metavar_theme"), default="", help=t("novel.cli_theme_help"))
    init.add_argument("--chapters", metavar=t("cli.metavar_chapters"), type=int, default=3, help=t("novel.cli_chapters_help"))
    init.add_argument("--author", metavar=t("cli.metavar_author"), default="", help=t("novel.cli_author_help"))

    status = sub.add_parser("status", help=t("novel.cli_status_help"), description=t("novel.cli_status_help"))
    status.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))

    run = sub.add_parser("run", help=t("novel.cli_run_help"), description=t("novel.cli_run_help"))
    run.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))
    run.add_argument("--to", type=int, dest="to_chapter", metavar="N", help=t("novel.cli_to_help"))
    run.add_argument("--force", action="store_true", help=t("novel.cli_force_help"))

    resume = sub.add_parser("resume", help=t("novel.cli_resume_help"), description=t("novel.cli_resume_help"))
    resume.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))

    export = sub.add_parser("export", help=t("novel.cli_export_help"), description=t("novel.cli_export_help"))
    export.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))
    export.add_argument("--out", metavar=t("cli.metavar_path"), help=t("novel.cli_out_help"))

    index = sub.add_parser("index", help=t("novel.cli_index_help"), description=t("novel.cli_index_help"))
    index.add_argument("project_id", metavar=t("cli.metavar_project_id"), help=t("novel.cli_project_help"))
    parser.set_defaults(func=main)
    return parser


def main(args: argparse.Namespace, settings: Settings) -> int:
    set_locale(settings.locale)
    from graphs.novel.library import NovelProjectError

    try:
        return COMMANDS[args.novel_command](args, settings)
    except NovelProjectError as error:
        if args.novel_command == "init":
            console.print(f"[red]{escape(error.user_message)}[/]", highlight=False)
        else:
            say_project_error(console, error.user_message, settings, args.project_id)
        return 2


# ------------------------------------------------------------------- commands


def cmd_init(args: argparse.Namespace, settings: Settings) -> int:
    from graphs.novel.library import ProjectFiles

    files = ProjectFiles.create(_novel_config(settings), args.project_id, world_description=args.world, theme_description=args.theme,
                                initial_chapters=args.chapters, author=args.author)
    console.print(f"[green]{t('novel.cli_created', project=args.project_id, path=str(files.root))}[/]")
    console.print(f"[dim]{t('novel.cli_next_run', project=args.project_id)}[/]")
    return 0


def render_status(status: Any) -> None:
    console.print(Panel(t("novel.cli_status_head", project=status.project_id), expand=False))
    for step in status.steps:
        mark = "[green]✔[/]" if step.done else "[dim]○[/]"
        console.print(f"  {mark} {t(f'novel.step_{step.step}')}  [dim]{step.file}[/]")
    console.print(t("novel.cli_status_counts", planned=status.chapters_planned, generated=status.chapters_generated,
                    total=status.outline_chapters))
    if status.chapters:  # a new project has none: an empty table and "0 words" said nothing
        render_chapters(status)
    for problem in status.problems:
        console.print(f"[yellow]{problem}[/]")
    if status.running:
        console.print(f"[yellow]{t('novel.generation_running', project=status.project_id)}[/]")
    elif status.resumable:
        console.print(f"[yellow]{t('novel.cli_status_resumable', project=status.project_id)}[/]")
    elif not status.chapters:
        console.print(f"[dim]{t('novel.cli_next_run', project=status.project_id)}[/]")


def render_chapters(status: Any) -> None:
    table = Table(t("novel.col_chapter"), t("novel.col_title"), t("novel.col_scenes"), t("novel.col_words"),
                  t("novel.col_state"), header_style="bold")
    for chapter in status.chapters:
        state = ("[green]✔[/]" if chapter.generated else
                 (f"[yellow]{t('novel.state_planned')}[/]" if chapter.planned else f"[dim]{t('novel.state_todo')}[/]"))
        table.add_row(str(chapter.chapter_number), chapter.chapter_title,
                      str(chapter.scenes) if chapter.generated else "-",
                      f"{chapter.words:,}" if chapter.generated else "-", state)
    console.print(table)
    console.print(t("novel.cli_status_words", words=f"{status.total_words:,}", memory=status.chapter_memory_entries))


def cmd_status(args: argparse.Namespace, settings: Settings) -> int:
    from graphs.novel.tools import WorkflowTool

    render_status(WorkflowTool(_novel_config(settings), args.project_id).status())
    return 0


async def _run_workflow(settings: Settings, project_id: str, options: dict[str, Any] | None, text: str):
    """Start (or, with `options=None`, resume) the project's workflow thread and follow it live."""
    from app.cli import _follow
    from app.errors import RequestError

    thread_id = workflow_thread_id(project_id)

    async def start(runtime, watched: set[str]) -> str:
        watched.add(thread_id)
        thread = await runtime.store.get_thread(thread_id)
        resumable = thread is not None and thread["status"] in {"interrupted", "failed", "cancelled"}
        if options is None or (resumable and options.get("queue") is not None):
            if not resumable:
                raise RequestError("conflict", _nothing_to_resume(settings, project_id))
            await runtime.resume(thread_id)  # the checkpoint knows the very scene it stopped at
        else:
            await runtime.send_message(flow=WORKFLOW_FLOW, text=text, thread_id=thread_id, create=thread is None,
                                       options=options)
        return thread_id

    # The command the user ran this with, not the runtime's thread id: `ng novel status` names it too.
    return await _follow(settings, start, resume_command=f"ng novel resume {project_id}")


def _nothing_to_resume(settings: Settings, project_id: str) -> str:
    from graphs.novel.tools import WorkflowTool

    status = WorkflowTool(_novel_config(settings), project_id).status()
    if status.outline_chapters and status.chapters_generated >= status.outline_chapters:
        return t("novel.cli_nothing_to_resume_done", project=project_id, chapters=status.outline_chapters)
    return t("novel.cli_nothing_to_resume_next", project=project_id, chapter=status.chapters_generated + 1)


def _drive(settings: Settings, project_id: str, options: dict[str, Any] | None, text: str) -> int:
    from app.errors import RequestError

    try:
        _artifacts, display, _thread = asyncio.run(_run_workflow(settings, project_id, options, text))
    except RequestError as error:
        console.print(f"[red]{error.message}[/]")
        return 2
    console.print()  # the live display leaves its last line open, as in `ng ppt`
    completion = display.completion or {}
    if completion.get("success"):
        from graphs.novel.tools import WorkflowTool

        render_status(WorkflowTool(_novel_config(settings), project_id).status())
        return 0
    console.print(f"[red]{completion.get('error') or t('novel.cli_run_stopped')}[/]")
    if completion.get("resumable") is not False:
        console.print(f"[dim]{t('novel.cli_status_resumable', project=project_id)}[/]")
    return 1


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    from graphs.novel.tools import WorkflowTool

    WorkflowTool(_novel_config(settings), args.project_id)  # refuses an unknown project before anything starts
    options: dict[str, Any] = {"projectId": args.project_id, "force": bool(args.force)}
    if args.to_chapter is not None:
        options["toChapter"] = args.to_chapter
    # The thread's title: without --to the run goes to the outline's last chapter, not to "chapter —".
    text = (t("novel.cli_run_text", project=args.project_id, to=args.to_chapter) if args.to_chapter is not None
            else t("novel.cli_run_all_text", project=args.project_id))
    return _drive(settings, args.project_id, options, text)


def cmd_resume(args: argparse.Namespace, settings: Settings) -> int:
    """The interrupted thread when there is one (scene-exact); else the run the project's journal records."""
    from graphs.novel.tools import WorkflowTool

    journal = WorkflowTool(_novel_config(settings), args.project_id).files.run_journal()
    options = None
    if journal is not None:
        options = {"projectId": args.project_id, "toChapter": journal.to_chapter, "force": journal.force,
                   "queue": journal.pending}
    return _drive(settings, args.project_id, options, t("novel.cli_resume_text", project=args.project_id))


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from graphs.novel.tools import WorkflowTool

    tool = WorkflowTool(_novel_config(settings), args.project_id)
    out = Path(args.out) if args.out else tool.files.root / f"{args.project_id}_full.txt"
    chapters = tool.export(out)
    if not chapters:
        console.print(f"[yellow]{t('novel.export_nothing', project=args.project_id)}[/]")
        return 1
    console.print(f"[green]{t('novel.export_done', chapters=chapters, path=str(out))}[/]")
    return 0


def cmd_index(args: argparse.Namespace, settings: Settings) -> int:
    from graphs.novel.tools import WorkflowTool

    report = asyncio.run(WorkflowTool(_novel_config(settings), args.project_id).index())
    console.print(f"[green]{report.sentence()}[/]")
    for note in [*report.degraded, *report.problems]:
        console.print(f"[yellow]{note}[/]")
    return 0


COMMANDS = {"init": cmd_init, "status": cmd_status, "run": cmd_run, "resume": cmd_resume, "export": cmd_export,
            "index": cmd_index}
