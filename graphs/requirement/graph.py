"""The requirement clarification flow (spec 004): discover → plan ⇄ ask_human → finalize.

- `discover` explores the target repository with the read-only tools (no repository: skipped).
- `plan` asks the model for a RequirementPlan, then enforces what must hold whatever the model
  said: answered or assumed question ids are never asked again, at the round limit every unknown
  becomes an assumption from its fallback, and the linkage rules validate. It publishes a new
  version of the `requirement_plan` artifact each round (same key → same id, rising version).
- `ask_human` only calls `interrupt()` and merges the reply: it re-runs from the top on resume,
  so it has no side effects before the interrupt.
- `finalize` publishes `implementation_plan` (final) and writes IMPLEMENTATION_PLAN.md into the
  target repository only when authorised.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from core.llm.base import LLMError
from core.i18n import join_sentences, t
from core.language import CJK, clip, understood
from core.tools import PLAN_FILE_NAME, ToolRefused, write_text_file
from graphs.base import FlowContext, first_line_title
from graphs.hooks import NodeContext, node
from graphs.requirement import offline as _offline  # noqa: F401  registers the offline composer
from graphs.requirement.discovery import empty_discovery, explore
from graphs.requirement.prompts import ROLE, SYSTEM_PROMPT, build_prompt
from graphs.requirement.render import assumptions_table, word
from graphs.requirement.topics import (TOPICS, TOPICS_BY_ID, belongs_to, declines, is_chinese, only_names_its_system,
                                       said_of_other_topics)
from schemas.events import USE_DEFAULTS, ArtifactType, InterruptRequest
from schemas.requirement import (
    ImplementationPlanDoc,
    RequirementPlan,
    RequirementPlanArtifact,
    RoundRecord,
    SourceRef,
    ToolCallRecord,
)

MAX_ROUNDS_CAP = 10
PLAN_ARTIFACT_KEY = "requirement_plan"
IMPLEMENTATION_ARTIFACT_KEY = "implementation_plan"


class RequirementState(TypedDict, total=False):
    requirement: str
    repo: str | None  # target repository (absolute after discovery), or None
    write: bool | None  # authorised to write IMPLEMENTATION_PLAN.md into the repo
    max_rounds: int | None  # clarification rounds before unknowns become assumptions
    round: int  # planning rounds done
    clarifications: int  # human replies merged
    discovery: dict[str, Any]
    answers: dict[str, str]  # question id -> human answer, merged over rounds
    assumed: dict[str, dict[str, Any]]  # question id -> assumption built from its fallback
    asked: dict[str, dict[str, Any]]  # question id -> the question as last asked
    pending: list[dict[str, Any]]  # questions of the open round
    plan: dict[str, Any] | None
    plan_artifact_id: str | None
    history: list[dict[str, Any]]
    plan_path: str | None


# ---------------------------------------------------------------- options


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return value is True or value == 1


def _rounds(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return min(max(number, 1), MAX_ROUNDS_CAP)


DEFAULT_MAX_ROUNDS = 3  # when the graph runs headless, without the runtime's settings


def configured_max_rounds(ctx: NodeContext) -> int:
    """REQUIREMENT_MAX_ROUNDS from the settings the runtime hands every node."""
    settings = ctx.flow.settings if ctx.flow is not None else None
    return settings.requirement_max_rounds if settings is not None else DEFAULT_MAX_ROUNDS


# A label the asker puts before the requirement, as on a ticket ("Requirements: export …", "需求：前台…"): it names
# what the text is, not a thing to build, so it leaves before the text is read (else it opens the title and scope).
_LABEL = re.compile(r"^\s*(?:(?:new|my|our|the)\s+)?(?:requirements?|feature(?:\s+request)?|request|user\s+story|story|"
                    r"task|brief|ask)\s*[:：]\s*"
                    r"|^\s*新?(?:需求|要求|功能|任务|用户故事)(?:描述|说明|内容)?\s*[:：]\s*", re.IGNORECASE)


def without_label(text: str) -> str:
    """The requirement without the label that opens it ("Requirements: export …" → "export …")."""
    rest = _LABEL.sub("", text, count=1).strip()
    return rest or text.strip()


def initial_input(text: str, options: Mapping[str, Any]) -> RequirementState:
    """A full fresh state: a new requirement on an old thread inherits no answers or rounds."""
    options = options or {}
    return RequirementState(
        requirement=without_label(understood(text)),
        repo=str(options["repo"]) if options.get("repo") else None,
        write=_truthy(options.get("write")),
        max_rounds=_rounds(options.get("maxRounds")),
        round=0,
        clarifications=0,
        discovery=empty_discovery(),
        answers={},
        assumed={},
        asked={},
        pending=[],
        plan=None,
        plan_artifact_id=None,
        history=[],
        plan_path=None,
    )


# Words that ask or greet but name nothing to build: "帮我做一个", "hi, please make a plan".
_ASKING_ZH = re.compile(r"你好|您好|在吗|请问?|帮我|帮忙|麻烦|我想要?|我要|我们|需要|做一?个|写一?个|弄一?个|搞一?个|"
                        r"一下|需求|计划|方案|谢谢|可以吗|吗|呢|吧|啊")
_ASKING_EN = {"hi", "hello", "hey", "please", "pls", "help", "me", "i", "we", "want", "need", "would", "like", "to",
              "a", "an", "the", "some", "plan", "requirement", "requirements", "make", "build", "create", "do",
              "write", "something", "thing", "stuff", "test", "thanks", "thank", "you", "can", "could"}


def names_a_requirement(text: str) -> bool:
    """Whether a message says what to build: two words (or two Chinese characters) are left once the
    greeting and asking words are out ("x", "你好", "帮我做一个APP", "make a plan" name nothing to plan)."""
    rest = _ASKING_ZH.sub(" ", text or "")
    words = [w for w in re.findall(r"[^\W\d_]+|\d+", CJK.sub(" ", rest)) if w.lower() not in _ASKING_EN]
    return len(CJK.findall(rest)) + len(words) >= 2


UNTITLED_THREAD = "requirement.untitled_thread"


def thread_title(message: str) -> str:
    """The thread's name in the list: the requirement's first line; a message naming nothing to build
    ("x", "你好") has the placeholder until a message that does (not a thread called "x")."""
    if not names_a_requirement(understood(message)):
        return t(UNTITLED_THREAD)
    return first_line_title(without_label(message))


# ---------------------------------------------------------------- replies


_DEFAULT_PHRASES = {
    "usedefaults", "usedefault", "usethedefaults", "defaults", "default", "usefallbacks", "usefallback",
    "fallbacks", "fallback", "skip", "默认", "使用默认", "使用默认值", "用默认", "用默认值", "按默认", "按默认来",
    "全部默认", "都用默认", "默认即可", "默认就行", "默认吧",
}


_HAS_WORD = re.compile(r"[^\W_]")  # a letter, digit or CJK character: an answer says something


# An answer that says the asker does not know or does not mind ("不知道", "not sure", "up to you") leaves the
# question to its default: taken as written, the plan would read "Persist through not sure".
_UNSURE_PHRASES = {
    "dontknow", "idontknow", "donotknow", "idonotknow", "dunno", "idk", "notsure", "imnotsure", "unsure", "noidea",
    "ihavenoidea", "notdecided", "undecided", "notyet", "tbd", "whatever", "anything", "any", "either", "nopreference",
    "dontcare", "idontcare", "doesntmatter", "itdoesntmatter", "uptoyou", "youdecide", "yourcall", "youchoose",
    "不知道", "我不知道", "不清楚", "我不清楚", "不确定", "我不确定", "还不确定", "没想好", "还没想好", "没想过", "不懂", "不了解",
    "待定", "未定", "还没定", "没定", "随便", "都行", "都可以", "无所谓", "你定", "你决定", "你来定", "你看着办", "看着办",
    "没有要求", "没要求", "没有偏好",
    # a wish that it works, which every plan has: no measure of its own
    "itshouldjustwork", "itshouldwork", "justwork", "itjustworks", "justmakeitwork", "aslongasitworks",
    "能用就行", "能用就好", "好用就行", "能用就可以", "正常用就行",
}

# "not sure, maybe 40 a day", "不知道，大概每天30单": the doubt that opens an answer, before what it does say.
_UNSURE_LEAD = re.compile(r"^\s*(?:(?:I'?m\s+|I\s+am\s+)?not\s+(?:really\s+)?sure|I\s+don'?t\s+(?:really\s+)?know|"
                          r"I\s+do\s+not\s+know|dunno|no\s+idea|idk|hmm+|"
                          r"(?:我)?(?:也)?(?:不知道|不清楚|不确定|说不好|没想好|不太清楚|不太确定))\s*[,，.。;；!！:：…-]+\s*",
                          re.IGNORECASE)


def without_doubt(text: str) -> str:
    """An answer without the doubt it opens with ("not sure, it should just work" → "it should just work")."""
    return _UNSURE_LEAD.sub("", text, count=1).strip() or text


def is_use_defaults(text: Any) -> bool:
    if not isinstance(text, str):
        return False
    said = re.sub(r"[\W_]+", "", text.lower())
    return said in _DEFAULT_PHRASES or said in _UNSURE_PHRASES


def parse_reply(text: str, questions: Sequence[Mapping[str, Any]]) -> dict[str, str] | str:
    """A free-text chat reply → the interrupt answer: "use defaults", a JSON object, `id: answer` or
    `1. answer` lines, or else the whole text as the answer to the blocking questions."""
    stripped = (text or "").strip()
    if not stripped or is_use_defaults(stripped):
        return USE_DEFAULTS
    try:
        parsed = json.loads(stripped)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        # Never {}: LangGraph reads Command(resume={}) as an empty interrupt-id map, not an answer.
        return {str(k): "" if v is None else str(v) for k, v in parsed.items()} or USE_DEFAULTS
    ids = [str(q["id"]) for q in questions]
    result: dict[str, str] = {}
    last: str | None = None
    for line in stripped.splitlines():
        by_id = re.match(r"^\s*([A-Za-z][\w.-]*)\s*[:：=]\s*(.*)$", line)
        by_number = re.match(r"^\s*(\d{1,2})\s*[.)、:：]\s*(.*)$", line)
        if by_id and by_id.group(1) in ids:
            last = by_id.group(1)
            result[last] = by_id.group(2).strip()
        elif by_number and 1 <= int(by_number.group(1)) <= len(ids):
            last = ids[int(by_number.group(1)) - 1]
            result[last] = by_number.group(2).strip()
        elif last is not None and line.strip():
            result[last] = f"{result[last]}\n{line.strip()}".strip()
    if result:
        return result
    targets = [q for q in questions if q.get("blocking")] or list(questions)
    return {str(q["id"]): stripped for q in targets}


def normalize_reply(reply: Any, questions: Sequence[Mapping[str, Any]]) -> tuple[dict[str, str], set[str]]:
    """(answered id → text, ids to settle by their fallback). An empty reply means "use defaults"."""
    ids = [str(q["id"]) for q in questions]
    if reply is None:
        return {}, set(ids)
    if not isinstance(reply, (str, Mapping)):
        reply = json.dumps(reply, ensure_ascii=False, default=str)
    if isinstance(reply, str):
        reply = parse_reply(reply, questions)
        if isinstance(reply, str):
            return {}, set(ids)
    answered: dict[str, str] = {}
    defaulted: set[str] = set()
    stray: list[str] = []
    misplaced: dict[str, str] = {}  # topic id -> an answer to it typed into another question
    for key, value in reply.items():
        text = without_doubt("" if value is None else str(value).strip())
        if str(key) not in ids:
            if text:
                stray.append(text)
            continue
        if not text or is_use_defaults(text) or not _HAS_WORD.search(text) or declines(str(key), text):
            # "???", "...", "-": nothing said; the question keeps its fallback instead of a plan that
            # reads "Data store: ???"; a bare "no" to "Is there a deadline?" means what the fallback says.
            defaulted.add(str(key))
        elif (other := belongs_to(str(key), text)) and (other in ids or str(key) in TOPICS_BY_ID):
            # A date typed into another question ("March 15" for the access rules) answers when it is due, a count
            # the load, not that question: it goes to its own when that is asked too, and the question keeps its
            # fallback. A question a model phrased itself ("q_store") may ask just that: its answer stays unless
            # the topic it belongs to is asked beside it.
            defaulted.add(str(key))
            misplaced.setdefault(other, text)
        else:
            answered[str(key)] = text[:4000]
    for other, text in misplaced.items():
        if other in ids and other not in answered:
            answered[other] = text
            defaulted.discard(other)
    for other, text in misplaced.items():
        # where the data already lives, said though not asked ("we use Mindbody for everything" typed as the
        # deadline, of a job that reads it): what the plan reads from, kept
        # likewise who alone may do what ("only the office manager can cancel bookings" typed as the load)
        if other not in ids and other not in answered and (only_names_its_system(text) or other == "q_security"):
            answered[other] = text
    _read_for_other_topics(answered, defaulted, ids)
    for other, text in misplaced.items():  # its own answer was about another question ("用微信登录就行" typed as the load)
        if other in ids and other not in answered:
            answered[other] = text
            defaulted.discard(other)
    if not answered and not defaulted:
        if stray:  # ids the client got wrong: keep the words, apply them like a free-text reply
            return normalize_reply("\n".join(stray), questions)
        return {}, set(ids)
    return answered, defaulted


def _read_for_other_topics(answered: dict[str, str], defaulted: set[str], ids: Sequence[str]) -> None:
    """An answer that also states what another question of the round asks ("no rush, we use Postgres" to the
    deadline) answers that question too, unless it has an answer of its own; what is left of it answers its own
    question, or, when nothing is left or only a no, that one keeps its fallback."""
    for key in list(answered):
        still_open = [i for i in ids if i not in answered]
        rest, said = said_of_other_topics(key, answered[key], still_open)
        for other, text in said.items():
            if declines(other, text):  # "no rush": the deadline's fallback is what it means
                defaulted.add(other)
            else:
                answered[other] = text
                defaulted.discard(other)
        if rest == answered[key]:
            continue  # all of it answers its own question too ("30秒内记完一单": the measure, and the load)
        if not _HAS_WORD.search(rest) or declines(key, rest) or is_use_defaults(rest):
            del answered[key]
            defaulted.add(key)
        else:
            answered[key] = rest


def assumption_from(question: Mapping[str, Any]) -> dict[str, Any]:
    """The assumption a question turns into when its fallback is used (keeps the question id)."""
    zh = is_chinese(question["question"])
    hint = word("revisit_and_adjust", zh, question=question["question"])
    return {
        "id": question["id"],
        "question": question["question"],
        "text": question["fallback_assumption"],
        "risk_level": "medium" if question.get("blocking") else "low",
        "rollback_hint": hint,
    }


# ---------------------------------------------------------------- planning


def build_facts(state: RequirementState, round_no: int, force: bool, note: str = "") -> dict[str, Any]:
    discovery = state.get("discovery") or empty_discovery()
    answers = state.get("answers") or {}
    asked = state.get("asked") or {}
    zh = is_chinese(state["requirement"])
    repository = None
    if discovery.get("root"):
        repository = {k: discovery.get(k) for k in
                      ("root", "top_level", "doc_files", "validation_commands", "readme_head")}
    return {
        "requirement": state["requirement"],
        "round": round_no,
        "max_rounds": state.get("max_rounds") or DEFAULT_MAX_ROUNDS,
        "clarifications_done": state.get("clarifications", 0),
        "force_plan": force,
        "answers": dict(answers),
        "answered_questions": [{"id": k, "question": asked.get(k, {}).get("question", ""), "answer": v}
                               for k, v in answers.items()],
        "assumed": list((state.get("assumed") or {}).values()),
        "asked": [{"id": q["id"], "question": q["question"], "blocking": q["blocking"]} for q in asked.values()],
        "repository": repository,
        "knowledge": [{"source": k["source"], "path": k["path"], "start_line": k["start_line"], "text": k["text"]}
                      for k in discovery.get("knowledge", [])],
        "topics": [{"id": topic.id, "blocking": topic.blocking, "question": topic.text(topic.question, zh)} for topic in TOPICS],
        "note": note,
    }


def _has_assumption(assumptions: Sequence[Mapping[str, Any]], text: str) -> bool:
    wanted = " ".join(text.split()).lower()
    return any(wanted in " ".join(str(a.get("text", "")).split()).lower() for a in assumptions)


def settle_plan(
    raw: RequirementPlan, *, answers: Mapping[str, str], assumed: Mapping[str, Mapping[str, Any]], force: bool
) -> RequirementPlan | None:
    """Hold the model's plan to the loop's guarantees; None when a plan_ready is due but the reply has no plan."""
    data = raw.model_dump(mode="json")
    resolved = set(answers) | set(assumed)
    questions: list[dict[str, Any]] = []
    for q in data["questions"]:
        if q["id"] not in resolved and all(q["id"] != kept["id"] for kept in questions):
            questions.append(q)
    questions.sort(key=lambda q: (not q["blocking"], q["priority"]))
    added: list[dict[str, Any]] = []
    for item in assumed.values():  # every fallback in use must be visible as an assumption
        if not _has_assumption(data["assumptions"] + added, item["text"]):
            added.append({k: item[k] for k in ("text", "risk_level", "rollback_hint")})

    if data["status"] == "plan_ready" or force or not any(q["blocking"] for q in questions):
        if not 3 <= len(data["stages"]) <= 5 or not data["plan_markdown"].strip():
            return None
        for q in questions:  # whatever is still open is planned on its fallback
            item = assumption_from(q)
            if not _has_assumption(data["assumptions"] + added, item["text"]):
                added.append({k: item[k] for k in ("text", "risk_level", "rollback_hint")})
        data["status"], data["questions"] = "plan_ready", []
    else:
        data["questions"] = questions[:5]
    if added:
        data["assumptions"] = data["assumptions"] + added
        if data["plan_markdown"].strip():
            zh = is_chinese(data["requirement_summary"])  # written in the requirement's language
            data["plan_markdown"] = (data["plan_markdown"].rstrip() + f"\n\n## {word('assumptions_added', zh)}\n\n"
                                     + "\n".join(assumptions_table(added, zh=zh)) + "\n")
    return RequirementPlan.model_validate(data)


async def _ask_model(ctx: NodeContext, state: RequirementState, round_no: int, force: bool, note: str = "") -> RequirementPlan:
    facts = build_facts(state, round_no, force, note)
    return await ctx.llm.structured(RequirementPlan, role=ROLE, system=SYSTEM_PROMPT, prompt=build_prompt(facts),
                                    facts=facts)


def _sources(discovery: Mapping[str, Any]) -> list[SourceRef]:
    refs = [SourceRef(path=k["path"], start_line=k["start_line"], end_line=k["end_line"], via="retrieve_knowledge")
            for k in discovery.get("knowledge", [])]
    for call in discovery.get("tool_calls", []):
        if call["tool"] == "view_text_file" and call["ok"]:
            path, _, span = call["args"].partition(":")
            start, _, end = span.partition("-")
            refs.append(SourceRef(path=path, start_line=int(start) if start.isdigit() else None,
                                  end_line=int(end) if end.isdigit() else None, via="view_text_file"))
    return refs


# ---------------------------------------------------------------- nodes

ASK_FOR_REQUIREMENT = "ask_for_requirement"


@node("discover")
async def discover(state: RequirementState, ctx: NodeContext) -> dict[str, Any]:
    options = ctx.options or {}
    repo = state.get("repo") or (str(options["repo"]) if options.get("repo") else None)
    write = state.get("write") if state.get("write") is not None else _truthy(options.get("write"))
    max_rounds = state.get("max_rounds") or _rounds(options.get("maxRounds")) or configured_max_rounds(ctx)
    update: dict[str, Any] = {"write": bool(write), "max_rounds": max_rounds}
    if not repo:
        ctx.log(t("requirement.no_repo"))
        return {**update, "repo": None, "discovery": empty_discovery()}
    access = ctx.flow.tools.get("repo_access")
    if access is not None:  # a server names the roots remote clients may read; the local CLI reads any
        access.check(repo)
    ctx.progress(0, 1, t("requirement.exploring"))
    found = await asyncio.to_thread(explore, repo, state["requirement"])  # ToolRefused → clear failure
    for call in found["tool_calls"]:
        ctx.log(f"{call['tool']}({call['args']}) → {'ok' if call['ok'] else 'refused/failed'}"
                + (f": {call['note']}" if call["note"] else ""), level="debug")
    used = sorted({k["path"] for k in found["knowledge"]})
    scripts = ", ".join(found["validation_commands"]) or t("requirement.none")
    if used:
        ctx.log(t("requirement.explored_summary", root=found["root"], entries=len(found["top_level"]),
                  passages=len(found["knowledge"]), docs=", ".join(used), scripts=scripts))
    else:  # not "0 passages from none"
        ctx.log(t("requirement.explored_summary_no_docs", root=found["root"], entries=len(found["top_level"]),
                  scripts=scripts))
    ctx.progress(1, 1, t("requirement.explored"))
    return {**update, "repo": found["root"], "discovery": found}


@node("plan")
async def plan(state: RequirementState, ctx: NodeContext) -> dict[str, Any]:
    round_no = state.get("round", 0) + 1
    max_rounds = state.get("max_rounds") or configured_max_rounds(ctx)
    force = state.get("clarifications", 0) >= max_rounds
    answers, assumed = state.get("answers") or {}, state.get("assumed") or {}
    settled = settle_plan(await _ask_model(ctx, state, round_no, force), answers=answers, assumed=assumed, force=force)
    if settled is None:  # no blocking question left (or the limit reached) but no full plan in the reply
        note = ("Every blocking question is answered or assumed, or the round limit is reached: "
                "return status plan_ready with 3–5 stages and plan_markdown now.")
        settled = settle_plan(await _ask_model(ctx, state, round_no, True, note), answers=answers, assumed=assumed,
                              force=True)
    if settled is None:
        raise LLMError(t("requirement.planner_incomplete"))

    questions = [q.model_dump(mode="json") for q in settled.questions]
    asked = {**(state.get("asked") or {}), **{q["id"]: q for q in questions}}
    record = RoundRecord(round=round_no, status=settled.status, question_ids=[q["id"] for q in questions],
                         blocking=sum(q["blocking"] for q in questions), assumptions=len(settled.assumptions))
    history = [*(state.get("history") or []), record.model_dump()]
    discovery = state.get("discovery") or empty_discovery()
    content = RequirementPlanArtifact(
        round=round_no, max_rounds=max_rounds, plan=settled, answers=dict(answers),
        assumed_question_ids=sorted(assumed), sources=_sources(discovery),
        tool_calls=[ToolCallRecord(**c) for c in discovery.get("tool_calls", [])],
        history=[RoundRecord(**h) for h in history],
    )
    artifact_id = ctx.artifact(key=PLAN_ARTIFACT_KEY, type=ArtifactType.requirement_plan,
                               title=t("requirement.plan_title", version=settled.version, round=round_no),
                               content=content,
                               show_in_canvas=True)
    if settled.status == "clarification_needed":
        ctx.log(t("requirement.round_questions", round=round_no, count=len(questions), blocking=record.blocking,
                  clarification=state.get("clarifications", 0) + 1, max_rounds=max_rounds), artifact_id=artifact_id)
        # The questions themselves are shown once, by the interrupt's form; the chat only points to it.
        ctx.message(t("requirement.questions_waiting", count=len(questions)), final=True)
    else:
        ctx.log(t("requirement.round_plan_ready", round=round_no, stages=len(settled.stages),
                  assumptions=len(settled.assumptions)), artifact_id=artifact_id)
    return {"round": round_no, "plan": settled.model_dump(mode="json"), "pending": questions, "asked": asked,
            "history": history, "plan_artifact_id": artifact_id}


@node("ask_human")
async def ask_human(state: RequirementState, ctx: NodeContext) -> dict[str, Any]:
    pending = state.get("pending") or []
    max_rounds = state.get("max_rounds") or configured_max_rounds(ctx)
    done = state.get("clarifications", 0)
    payload = {
        # `default` is the protocol's name for what "use defaults" keeps, the same in every flow.
        "questions": [{**q, "default": q["fallback_assumption"]} for q in pending],
        "round": state.get("round", 1),
        "clarificationRound": done + 1,
        "maxRounds": max_rounds,
        "requirementSummary": (state.get("plan") or {}).get("requirement_summary", ""),
        "planArtifactId": state.get("plan_artifact_id"),
        "answerFormat": t("requirement.answer_format"),
    }
    # Nothing before this line may have side effects: the node re-runs from the top on resume.
    reply = interrupt(InterruptRequest(kind="clarification", payload=payload).model_dump())

    answered, defaulted = normalize_reply(reply, pending)
    at_limit = done + 1 >= max_rounds
    for q in pending:
        # Unanswered non-blocking questions take their fallback now; blocking ones are asked again,
        # until the round limit, where every unknown becomes an assumption.
        if q["id"] not in answered and (not q["blocking"] or at_limit):
            defaulted.add(q["id"])
    assumed = {**(state.get("assumed") or {}),
               **{q["id"]: assumption_from(q) for q in pending if q["id"] in defaulted}}
    left = [q["id"] for q in pending if q["id"] not in answered and q["id"] not in defaulted]
    still_open = [next(q["question"] for q in pending if q["id"] == qid) for qid in left]
    ctx.log(t("requirement.clarified", clarification=done + 1, answered=len(answered), defaulted=len(defaulted))
            + (t("requirement.still_open", questions=join_sentences(still_open)) if still_open else ""))
    return {"answers": {**(state.get("answers") or {}), **answered}, "assumed": assumed,
            "clarifications": done + 1, "pending": []}


@node("finalize")
async def finalize(state: RequirementState, ctx: NodeContext) -> dict[str, Any]:
    settled = RequirementPlan.model_validate(state["plan"])
    written: Path | None = None
    # Authorised at the start (state) or by the thread's options on the run that finishes it.
    if state.get("write") or _truthy((ctx.options or {}).get("write")):
        if state.get("repo"):
            try:
                written = await asyncio.to_thread(write_text_file, state["repo"], PLAN_FILE_NAME,
                                                  settled.plan_markdown, authorised=True)
                ctx.log(t("requirement.wrote", path=written))
            except ToolRefused as refused:
                ctx.log(t("requirement.not_written", file=PLAN_FILE_NAME, reason=refused.reason), level="warning")
        else:
            ctx.log(t("requirement.write_without_repo", file=PLAN_FILE_NAME), level="warning")
    doc = ImplementationPlanDoc(markdown=settled.plan_markdown, rounds=state.get("round", 1),
                                written_to=str(written) if written else None,
                                commit_message_suggestion=settled.commit_message_suggestion)
    ctx.artifact(key=IMPLEMENTATION_ARTIFACT_KEY, type=ArtifactType.implementation_plan, title=PLAN_FILE_NAME,
                 content=doc, show_in_canvas=True, final=True, file=settled.plan_markdown.encode("utf-8"),
                 file_name=PLAN_FILE_NAME, mime_type="text/markdown")
    where = t("requirement.written_to", path=written) if written else ""
    ctx.message(t("requirement.plan_ready", rounds=state.get("round", 1), where=where, stages=len(settled.stages),
                  assumptions=len(settled.assumptions), commit=settled.commit_message_suggestion), final=True)
    return {"plan_path": str(written) if written else None}


@node(ASK_FOR_REQUIREMENT)
async def ask_for_requirement(state: RequirementState, ctx: NodeContext) -> dict[str, Any]:
    """A message that names nothing to build: no plan is made, and the user hears what to write instead."""
    ctx.message(t("requirement.no_requirement"), final=True)
    return {}


def _start(state: RequirementState) -> str:
    return "discover" if names_a_requirement(state["requirement"]) else ASK_FOR_REQUIREMENT


def _after_plan(state: RequirementState) -> str:
    return "finalize" if (state.get("plan") or {}).get("status") == "plan_ready" else "ask_human"


def build_graph() -> StateGraph:
    graph = StateGraph(RequirementState, context_schema=FlowContext)
    graph.add_node("discover", discover)
    graph.add_node("plan", plan)
    graph.add_node("ask_human", ask_human)
    graph.add_node("finalize", finalize)
    graph.add_node(ASK_FOR_REQUIREMENT, ask_for_requirement)
    graph.add_conditional_edges(START, _start, ["discover", ASK_FOR_REQUIREMENT])
    graph.add_edge(ASK_FOR_REQUIREMENT, END)
    graph.add_edge("discover", "plan")
    graph.add_conditional_edges("plan", _after_plan, ["ask_human", "finalize"])
    graph.add_edge("ask_human", "plan")
    graph.add_edge("finalize", END)
    return graph
