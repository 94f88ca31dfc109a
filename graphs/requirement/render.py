"""IMPLEMENTATION_PLAN.md rendering (the template the prompt describes to real models too).

Each stage follows the usual IMPLEMENTATION_PLAN template: `## Stage N: Name` with **Goal**,
**Success Criteria**, **Tests**, **Status**, plus tasks, risks and owner. The plan is written in
the language of the requirement, its headings too (`zh`): a Chinese plan reads 阶段、目标、成功标准….
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.i18n import catalogue, t
from core.language import CJK, clip, is_function_word


def _bullets(items: Iterable[str], prefix: str = "- ") -> list[str]:
    return [f"{prefix}{item}" for item in items if str(item).strip()]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


# The risk levels an assumption may have, shown in the table in the plan's language.
_RISK_LEVELS = ("low", "medium", "high")


_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n")


# "for our dog grooming salon": whose place it is, then its name to the end of the title.
_FOR_A_PLACE = re.compile(r"\sfor\s+(?:our|my|the|a|an)\s+(?P<place>[a-z-]+(?:\s+[a-z-]+)+)$", re.IGNORECASE)


def _place_shortened(title: str) -> str | None:
    """The title with the first qualifier of the place it ends on dropped ("… for our dog grooming salon" → "… for our
    grooming salon"); None when it ends on no place of three words or more, or on words that are no name."""
    found = _FOR_A_PLACE.search(title)
    words = found.group("place").split() if found else []
    if len(words) < 3 or any(is_function_word(w) for w in words):
        return None
    return title[:found.start("place")] + " ".join(words[1:])


def plan_title(summary: str) -> str:
    """What the plan is called (its heading, the commit message): the summary's first sentence, cut
    between phrases with an ellipsis when long; not the whole requirement."""
    first = next((s.strip() for s in _FIRST_SENTENCE.split(summary.strip()) if s.strip()), summary.strip())
    first, limit = first.rstrip("。.!！"), 20 if CJK.search(first) else 48
    # whose place it is for, said at its end, keeps its head noun before the title is cut ("… for our dog grooming
    # salon" → "… for our grooming salon"), so the title still says what place it is for
    while len(first) > limit and (shorter := _place_shortened(first)):
        first = shorter
    return clip(first, limit, "…")


def word(key: str, zh: bool, **fields: Any) -> str:
    """One of the plan's words (core/messages/plan.toml) in the plan's language, which is its requirement's."""
    return t(f"plan.{key}", locale="zh" if zh else "en", **fields)


def _status(status: str, zh: bool) -> str:
    """A plan's status as its reader says it ("plan ready"), not the schema's value ("plan_ready")."""
    return word(f"status_{status}", zh) if f"plan.status_{status}" in catalogue() else status


def assumptions_table(assumptions: Sequence[Mapping[str, Any]], *, zh: bool = False) -> list[str]:
    lines = [word("table", zh), "|---|---|---|"]
    lines += [f"| {_cell(a['text'])} | {word(a['risk_level'], zh) if a['risk_level'] in _RISK_LEVELS else a['risk_level']} | "
              f"{_cell(a['rollback_hint'])} |" for a in assumptions]
    return lines


def render_markdown(
    plan: Mapping[str, Any],
    *,
    decisions: Sequence[tuple[str, str]] = (),
    sources: Sequence[str] = (),
    open_questions: Sequence[Mapping[str, Any]] = (),
    zh: bool = False,
    title: str | None = None,
) -> str:
    """Markdown for a plan dict (RequirementPlan fields). With no stages it renders the settled part only.
    `title`: what the plan is called, when the composer knows better than the summary's first sentence."""
    summary = plan["requirement_summary"]

    def heading(key: str) -> str:
        return f"## {word(key, zh)}"

    lines = [f"# {word('title', zh, title=title or plan_title(summary))}", "",
             f"> {word('schema', zh, version=plan.get('version', '1.0'), status=_status(plan['status'], zh))}", "",
             heading("summary"), "", summary, ""]
    if plan.get("scope"):
        lines += [heading("scope"), "", *_bullets(plan["scope"]), ""]
    if plan.get("out_of_scope"):
        lines += [heading("out_of_scope"), "", *_bullets(plan["out_of_scope"]), ""]
    if decisions:
        lines += [heading("decisions"), "", *_bullets(f"**{label}**: {text}" for label, text in decisions), ""]
    if plan.get("assumptions"):
        lines += [heading("assumptions"), "", *assumptions_table(plan["assumptions"], zh=zh), ""]
    if plan.get("dependencies"):
        lines += [heading("dependencies"), "", *_bullets(plan["dependencies"]), ""]
    for number, stage in enumerate(plan.get("stages") or [], start=1):
        lines += [
            f"## {word('stage', zh, number=number, name=stage['name'])}",
            "",
            f"**{word('goal', zh)}**: {stage['goal']}",
            "",
            f"**{word('success_criteria', zh)}**:",
            *_bullets(stage["success_criteria"]),
            "",
            f"**{word('tasks', zh)}**:",
            *_bullets(stage["tasks"], "- [ ] "),
            "",
            f"**{word('tests', zh)}**:",
            *_bullets(stage["validation"]),
            "",
        ]
        if stage.get("risks"):
            lines += [f"**{word('risks', zh)}**:", *_bullets(stage["risks"]), ""]
        if stage.get("owner_hint"):
            lines += [f"**{word('owner', zh)}**: {stage['owner_hint']}", ""]
        lines += [f"**{word('status', zh)}**: {word('not_started', zh)}", ""]
    if open_questions:
        lines += [heading("open_questions"), ""]
        lines += [f"- `{q['id']}`{word('blocking', zh) if q['blocking'] else ''}: {q['question']} — "
                  f"{word('fallback', zh)}: {q['fallback_assumption']}" for q in open_questions]
        lines += [""]
    if plan.get("deliverables"):
        lines += [heading("deliverables"), "", *_bullets(plan["deliverables"]), ""]
    if sources:
        lines += [heading("sources"), "", *_bullets(f"`{s}`" for s in sources), ""]
    return "\n".join(lines).rstrip() + "\n"
