"""`ng plan`: the requirement clarification flow in the terminal, in-process.

The graph runs with an AsyncSqliteSaver under settings.data_dir, so an interrupted session can be
picked up again with `--thread ID`. Questions are shown with rich and answered at the prompt
(empty line = keep the fallback; "use defaults" = keep every fallback; EOF, e.g. no terminal,
= defaults for the rest).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel

from core.settings import Settings
from schemas.requirement import export_json_schema

InputFn = Callable[[str], str]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "plan",
        help="clarify a requirement with questions and produce IMPLEMENTATION_PLAN.md",
        description="Turn a requirement into a staged, verifiable plan (schema v1.0) through clarification rounds.",
    )
    parser.add_argument("requirement", nargs="*", help="the requirement text ('-' reads it from stdin)")
    parser.add_argument("--repo", metavar="PATH", help="target repository to explore read-only")
    parser.add_argument("--write", action="store_true",
                        help="authorise writing IMPLEMENTATION_PLAN.md at the root of --repo (nothing else is written)")
    parser.add_argument("--max-rounds", type=int, metavar="N", dest="max_rounds",
                        help="clarification rounds before unknowns become assumptions (default: settings)")
    parser.add_argument("--schema", action="store_true", help="print the plan JSON Schema (v1.0) and exit")
    parser.add_argument("--json", action="store_true", dest="as_json",
                        help="print the final plan JSON on stdout (the dialogue goes to stderr)")
    parser.add_argument("--thread", metavar="ID", help="continue an earlier `ng plan` session")
    return parser


def _read_requirement(args: argparse.Namespace) -> str:
    words = list(args.requirement or [])
    if words == ["-"]:
        return sys.stdin.read().strip()
    return " ".join(words).strip()


def _read_line_stderr(prompt: str) -> str:
    """input() that prompts on stderr, so `--json` keeps stdout for the JSON alone."""
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def _make_llm(settings: Settings):
    from core.llm.factory import make_llm

    return make_llm(settings)


def _show_event(console: Console, chunk: dict[str, Any]) -> None:
    event, data = chunk.get("event"), chunk.get("data", {})
    if event == "tool:start":
        console.print(f"[dim]→ {data['toolName']}[/]")
    elif event == "tool:log" and data.get("level") != "debug":
        style = {"warning": "yellow", "error": "red"}.get(data.get("level"), "dim")
        console.print(f"  [{style}]{data['message']}[/]")
    elif event == "tool:artifact":
        artifact = data["artifact"]
        console.print(f"  [cyan]artifact[/] {artifact['type']} · {artifact['title']}")


async def _ask_questions(console: Console, payload: dict[str, Any], input_fn: InputFn) -> dict[str, str] | str:
    questions = payload.get("questions", [])
    console.print(Panel.fit(
        f"Clarification {payload.get('clarificationRound', '?')} of {payload.get('maxRounds', '?')} — "
        "answer each question; [bold]Enter[/] keeps the fallback, [bold]use defaults[/] keeps all of them.",
        title="Questions"))
    answers: dict[str, str] = {}
    for number, q in enumerate(questions, start=1):
        flag = "[red]blocking[/]" if q.get("blocking") else "[dim]optional[/]"
        console.print(f"\n[bold]{number}. {q['question']}[/] {flag} [dim]({q['id']})[/]")
        console.print(f"   [dim]why: {q['why_needed']}[/]")
        console.print(f"   [dim]fallback: {q['fallback_assumption']}[/]")
        try:
            text = await asyncio.to_thread(input_fn, "   > ")
        except EOFError:  # no terminal: every remaining question keeps its fallback
            console.print("   [dim](no input: using the fallbacks)[/]")
            return answers or "use defaults"
        text = text.strip()
        if number == 1 and text.lower() in {"use defaults", "defaults", "默认"}:
            return "use defaults"
        answers[q["id"]] = text  # "" = keep this question's fallback
    return answers


async def run(args: argparse.Namespace, settings: Settings, *, llm: Any = None, input_fn: InputFn | None = None,
              console: Console | None = None) -> int:
    if args.schema:
        print(json.dumps(export_json_schema(), indent=2, ensure_ascii=False))
        return 0
    console = console or Console(stderr=bool(args.as_json))
    requirement = _read_requirement(args)
    if not requirement and not args.thread:
        console.print("[red]Give the requirement text (or '-' to read it from stdin).[/]")
        return 2
    if args.write and not args.repo and not args.thread:
        console.print("[red]--write needs --repo: only IMPLEMENTATION_PLAN.md at the repository root is ever written.[/]")
        return 2
    if args.max_rounds is not None and not 1 <= args.max_rounds <= 10:
        console.print("[red]--max-rounds must be between 1 and 10.[/]")
        return 2

    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.types import Command

    from core.llm.base import LLMError
    from core.tools import ToolRefused
    from graphs.base import FlowContext
    from graphs.requirement import FLOW

    options: dict[str, Any] = {"maxRounds": args.max_rounds or settings.requirement_max_rounds}
    if args.repo:
        options["repo"] = args.repo
    if args.write:
        options["write"] = True
    llm = llm if llm is not None else _make_llm(settings)
    input_fn = input_fn or (_read_line_stderr if args.as_json else input)
    thread_id = args.thread or f"plan-{uuid.uuid4().hex[:12]}"
    config = {"configurable": {"thread_id": thread_id}}
    settings.data_dir.mkdir(parents=True, exist_ok=True)

    async with AsyncSqliteSaver.from_conn_string(str(settings.checkpoint_path)) as saver:
        graph = FLOW.build_graph().compile(checkpointer=saver)
        context = FlowContext(llm=llm, options=options)
        next_input: Any = FLOW.initial_input(requirement, options)
        if args.thread:
            state = await graph.aget_state(config)
            if not state.values:
                console.print(f"[red]No plan session {args.thread!r} in {settings.checkpoint_path}.[/]")
                return 1
            next_input = None  # pending questions are asked below; a crashed run continues
        console.print(f"[dim]plan session {thread_id} · model: {getattr(llm, 'provider', '?')}[/]")
        try:
            while True:
                state = await graph.aget_state(config)
                if next_input is None and state.interrupts:
                    next_input = Command(resume=await _ask_questions(console, state.interrupts[0].value["payload"],
                                                                      input_fn))
                    continue
                if next_input is None and not state.next:
                    break
                async for mode, chunk in graph.astream(next_input, config, context=context,
                                                       stream_mode=["custom", "updates"], durability="sync"):
                    if mode == "custom":
                        _show_event(console, chunk)
                next_input = None
        except (LLMError, ToolRefused) as error:
            console.print(f"[red]{error.user_message}[/]")
            console.print(f"[dim]Resume with: ng plan --thread {thread_id}[/]")
            return 1

        values = (await graph.aget_state(config)).values
    plan = values.get("plan") or {}
    console.print(Markdown(plan.get("plan_markdown", "")))
    if values.get("plan_path"):
        console.print(f"[green]Wrote {values['plan_path']}[/]")
    elif args.repo and not args.write:
        console.print("[dim]Not written to the repository (pass --write to authorise IMPLEMENTATION_PLAN.md).[/]")
    if plan.get("commit_message_suggestion"):
        console.print(f"[dim]Suggested commit: {plan['commit_message_suggestion']}[/]")
    if args.as_json:
        print(json.dumps(plan, indent=2, ensure_ascii=False))
    return 0
