"""The `novel` chat flow (spec 000): one thread is one chat session over one project.

Per message: slash commands go straight to the tools (no model); natural language is read for its
intent, gaps are filled with tools first (at most NOVEL_MAX_TOOL_CALLS calls), then the agent asks
(a `clarification` interrupt), answers with verified quotes, or proposes a ToolPlan that is
confirmed (a `confirmation` interrupt) and executed one step per superstep. Session state —
history, resolved references, `/auto`, results of executed plans — lives in the checkpoint.
"""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Mapping
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from core.i18n import catalogue, join_clauses, join_items, language_name, t
from core.language import CJK, language_of, understood, whole_clauses
from core.llm.base import LLM
from graphs.base import Continuation, FlowContext, FlowDefinition, ResumeWith, StartFresh, ThreadView, first_line_title
from graphs.hooks import NodeContext, node, stage
from graphs.novel import understanding as read
from graphs.novel.library import ProjectFiles, check_project_option, novel_config
from graphs.novel.offline import EN_TAG, TAG
from graphs.novel.tools import GraphTool, MemoryTool, PreferenceTool, WorkflowTool
from schemas.events import USE_DEFAULTS, ArtifactType
from schemas.novel_chat import AnswerDraft, Evidence, IntentDecision, NovelAnswer, ToolPlan, ToolStep

ROLE = "novel_chat"
HISTORY_KEPT = 20
RESULTS_KEPT = 10
DESTRUCTIVE = frozenset({"workflow.rollback", "workflow.clean"})
GENDER_PRONOUN = {"男": "他", "女": "她", "male": "他", "female": "她"}
CONFIRMED_UNLESS_AUTO = frozenset({"workflow.run", "workflow.resume"})
# Commands that write the project's files, refused while a run of it goes on elsewhere.
WRITING_COMMANDS = frozenset({"/run", "/resume", "/rollback"})


class ChatState(TypedDict, total=False):
    project_id: str
    text: str
    started: bool
    auto: bool
    history: list[dict[str, str]]
    references: dict[str, str]  # pronoun or relation word → the character it meant
    results: list[dict[str, Any]]  # what executed plans did, newest last
    turn: dict[str, Any] | None  # what this message has gathered so far
    plan: dict[str, Any] | None
    step: int
    outcome: str | None


def _remember(state: ChatState, role: str, content: str) -> list[dict[str, str]]:
    return (list(state.get("history") or []) + [{"role": role, "content": content}])[-HISTORY_KEPT:]


def _say(ctx: NodeContext, state: ChatState, text: str, history: list[dict[str, str]] | None = None) -> list[dict[str, str]]:
    ctx.message(text, final=True)
    return _remember({"history": history if history is not None else state.get("history")}, "assistant", text)


def _status_artifact(ctx: NodeContext, tool: WorkflowTool) -> Any:
    status = tool.status(asker=ctx.thread_id, running_here=ctx.thread_running)
    ctx.artifact(key="novel_status", type=ArtifactType.novel_status, title=t("novel.status_title"), content=status,
                 show_in_canvas=True)
    return status


def pref_type(kind: str) -> str:
    """NovelGen's preference types (writing_style, tone…) in the user's language; a type of their own as typed."""
    key = f"novel.pref_type_{kind}"
    return t(key) if key in catalogue() else kind


def status_sentence(status: Any) -> str:
    steps = join_items(t(f"novel.step_{s.step}") for s in status.steps if s.done) or t("novel.chat_no_steps")
    sentence = t("novel.chat_status", project=status.project_id, steps=steps, planned=status.chapters_planned,
                 generated=status.chapters_generated, total=status.outline_chapters, words=status.total_words)
    if status.preferences_top:
        prefs = join_clauses(t("novel.chat_pref_item", kind=pref_type(p.get("preference_type", "")), content=p.get("content", ""))
                             for p in status.preferences_top)
        sentence += "\n" + t("novel.chat_prefs_top", prefs=prefs)
    if status.running:  # not "/resume": a second run would write the same files
        sentence += "\n" + t("novel.chat_generation_running")
    elif status.resumable:
        sentence += "\n" + t("novel.chat_resumable")
    return sentence


# ------------------------------------------------------------------- start-up


@stage("startup")
async def startup(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    status = _status_artifact(ctx, WorkflowTool(novel_config(ctx.flow.tools), state["project_id"]))
    # While another run writes the book, "continue to chapter 3" would be refused: only questions are offered.
    # the example asks for the next chapter to write (the outline grows when it is past its end)
    hint = t("novel.chat_hint_while_running") if status.running else t("novel.chat_hint", chapter=status.chapters_generated + 1)
    history = _say(ctx, state, status_sentence(status) + "\n" + hint)
    return {"started": True, "history": history}


# -------------------------------------------------------------- slash commands


def _plan(*steps: ToolStep) -> dict[str, Any]:
    return ToolPlan(steps=list(steps)).model_dump()


def _help() -> str:
    return t("novel.chat_help")


@node("slash_command")
async def slash_command(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    """Deterministic: each command is one tool call, no model is asked anything."""
    command = read.parse_slash(state["text"])
    project_id = state["project_id"]
    history = _remember(state, "user", state["text"])
    args = command.args

    def reply(text: str, **more: Any) -> dict[str, Any]:
        return {"history": _say(ctx, state, text, history), "plan": None, **more}

    if command.name == "/status":
        return reply(status_sentence(_status_artifact(ctx, WorkflowTool(novel_config(ctx.flow.tools), project_id))))
    if command.name == "/prefs":
        prefs = PreferenceTool(novel_config(ctx.flow.tools), project_id)
        if args[:1] == ["add"]:
            if len(args) < 3:
                return reply(t("novel.chat_prefs_add_usage"))
            entry = prefs.add(args[1], " ".join(args[2:]), source="chat")
            return reply(t("novel.chat_prefs_added", type=pref_type(entry["preference_type"]), content=entry["content"]))
        listed = prefs.list()
        if not listed:
            return reply(t("novel.chat_prefs_empty"))
        return reply("\n".join(f"{i}. [{pref_type(p.get('preference_type', ''))}] {p.get('content', '')}"
                               for i, p in enumerate(listed, 1)))
    if command.name == "/auto":
        if args[:1] not in (["on"], ["off"]):
            return reply(t("novel.chat_auto_usage"))
        on = args[0] == "on"
        return reply(t("novel.chat_auto_on" if on else "novel.chat_auto_off"), auto=on)
    if command.name in WRITING_COMMANDS:
        busy = WorkflowTool(novel_config(ctx.flow.tools), project_id).running_elsewhere(ctx.thread_id, ctx.thread_running)
        if busy:
            return reply(busy)
    if command.name == "/run":
        if args and not (args[0].isdigit() and int(args[0]) >= 1):
            return reply(t("novel.chat_run_usage"))
        to = int(args[0]) if args else None
        return {"history": history, "plan": _plan(ToolStep(tool="workflow.run", args={"to_chapter": to, "force": False},
                                                          requires_confirmation=True)), "step": 0}
    if command.name == "/resume":
        if WorkflowTool(novel_config(ctx.flow.tools), project_id).resume_input() is None:
            return reply(t("novel.chat_nothing_to_resume"))  # nothing to confirm
        return {"history": history, "plan": _plan(ToolStep(tool="workflow.resume", args={}, requires_confirmation=True)),
                "step": 0}
    if command.name == "/rollback":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
            return reply(t("novel.chat_rollback_usage"))
        nothing = _nothing_to_roll_back(WorkflowTool(novel_config(ctx.flow.tools), project_id), int(args[0]))
        if nothing:
            return reply(nothing)
        return {"history": history, "step": 0, "plan": _plan(
            ToolStep(tool="workflow.rollback", args={"to_chapter": int(args[0])}, requires_confirmation=True))}
    if command.name == "/quit":
        return reply(t("novel.chat_quit_hint"))
    if command.name == "/help":
        return reply(_help())
    close = difflib.get_close_matches(command.name, read.SLASH_COMMANDS, n=1, cutoff=0.6)
    if close:  # "/rollbak 2": offer the command as it was meant, arguments and all
        return reply(t("novel.chat_unknown_command_close", command=command.name, meant=" ".join([close[0], *args])))
    return reply(t("novel.chat_unknown_command", command=command.name, known=" ".join(read.SLASH_COMMANDS)))


def _nothing_to_roll_back(tool: WorkflowTool, to_chapter: int) -> str | None:
    """The sentence for a rollback past the last chapter (it would remove nothing: no confirmation to ask)."""
    last = tool.files.last_chapter_on_disk()
    if to_chapter <= last:
        return None
    return t("novel.chat_rollback_nothing", to=to_chapter, generated=tool.status().chapters_generated)


# ------------------------------------------------------------ natural language


class Gatherer:
    """Tool calls of one turn, counted against the bound and logged for the user to see."""

    def __init__(self, ctx: NodeContext, project_id: str, turn: dict[str, Any]) -> None:
        self.ctx = ctx
        self.turn = turn
        config = novel_config(ctx.flow.tools)
        self.limit = config.max_tool_calls
        self.graph = GraphTool(config, project_id)
        self.memory = MemoryTool(config, project_id)
        self.workflow = WorkflowTool(config, project_id)

    @property
    def left(self) -> int:
        return self.limit - self.turn.get("tool_calls", 0)

    async def call(self, name: str, fn, *args: Any, **kwargs: Any) -> Any:
        self.turn["tool_calls"] = self.turn.get("tool_calls", 0) + 1
        # The user reads what is being looked up, in their language — not the tool's class name.
        self.ctx.log(t("novel.chat_tool_call", tool=t(f"novel.chat_tool_{name}"), n=self.turn["tool_calls"], limit=self.limit))
        result = fn(*args, **kwargs)
        return await result if asyncio.iscoroutine(result) else result


async def classify(text: str, llm: LLM) -> tuple[str, int | None]:
    by_rules = read.intent_by_rules(text)
    if by_rules is not None:
        return by_rules, read.target_chapter(text)
    if llm.provider != "offline":
        decision = await llm.structured(IntentDecision, role="router", system=t("novel.chat_intent_system"),
                                        prompt=text, facts={"text": text})
        return decision.intent, decision.target_chapter or read.target_chapter(text)
    return await asyncio.to_thread(read.intent_by_examples, text), read.target_chapter(text)


def _ask(turn: dict[str, Any], questions: list[dict[str, Any]]) -> dict[str, Any]:
    turn["questions"] = questions[:3]
    return {"turn": turn, "outcome": "ask"}


async def _understand_generation(state: ChatState, ctx: NodeContext, turn: dict[str, Any]) -> dict[str, Any]:
    tools = Gatherer(ctx, state["project_id"], turn)
    answers = turn.get("answers") or {}
    status = await tools.call("status", tools.workflow.status, asker=ctx.thread_id, running_here=ctx.thread_running)
    if status.running:
        return {"turn": None, "outcome": "done", "reply": t("novel.generation_running", project=state["project_id"])}
    text = turn["question"]
    if read.wants_clean(text):
        return {"turn": turn, "outcome": "plan", "step": 0,
                "plan": _plan(ToolStep(tool="workflow.clean", args={}, requires_confirmation=True))}
    if read.wants_deletion(text) and "target" not in answers:
        deleted = _deletion(tools.workflow, text)
        if deleted is not None:
            return {"turn": turn, **deleted}
    if read.wants_rollback(text):
        target = read.chapter_answer(answers.get("target", "")) or read.target_chapter(text)
        if target is None:
            return _ask(turn, [{"id": "target", "question": t("novel.chat_ask_rollback", generated=status.chapters_generated),
                                "missing": "rollback_chapter"}])
        nothing = _nothing_to_roll_back(tools.workflow, target)
        if nothing:
            return {"turn": None, "outcome": "done", "reply": nothing}
        return {"turn": turn, "outcome": "plan", "step": 0,
                "plan": _plan(ToolStep(tool="workflow.rollback", args={"to_chapter": target}, requires_confirmation=True))}
    target = turn.get("target") or read.chapter_answer(answers.get("target", "")) or read.target_chapter(text)
    if target is None and read.wants_continue(text):
        if status.resumable:
            return {"turn": turn, "outcome": "plan", "plan": _plan(
                ToolStep(tool="workflow.resume", args={}, requires_confirmation=True)), "step": 0}
        last_run = next((r for r in reversed(state.get("results") or []) if r.get("tool") == "workflow.run"), None)
        if last_run and last_run.get("to_chapter"):
            target = last_run["to_chapter"] + 1  # the previous plan's result decides "continue"
    if target is None:
        return _ask(turn, [{"id": "target", "question": t("novel.chat_ask_target", next=status.chapters_generated + 1),
                            "missing": "target_chapter", "default": str(status.chapters_generated + 1)}])
    turn["target"] = target
    force = read.is_yes(answers["overwrite"]) if "overwrite" in answers else read.wants_overwrite(text)
    already = [c.chapter_number for c in status.chapters if c.generated and c.chapter_number <= target]
    if already and len(already) == target and not force:
        if "overwrite" in answers or (read.wants_continue(text) and not read.wants_overwrite(text)):
            # "continue to chapter 2" with 1-2 written, or "no" to overwriting: nothing is left to write.
            return {"turn": None, "outcome": "done", "reply": t("novel.chat_nothing_to_continue", target=target)}
        return _ask(turn, [{"id": "overwrite", "question": t("novel.chat_ask_overwrite", target=target),
                            "missing": "force"}])
    args: dict[str, Any] = {"to_chapter": target, "force": bool(force)}
    if force and "overwrite" not in answers and target in already and not read.names_span_end(text):
        # "重写第2章" / "rewrite chapter 2": that chapter, not chapters 1–2 (those are "重写到第2章")
        args["chapters"] = [target]
    steps = [ToolStep(tool="workflow.run", args=args, requires_confirmation=True)]
    return {"turn": turn, "outcome": "plan", "plan": _plan(*steps), "step": 0}



def _deletion(tool: WorkflowTool, text: str) -> dict[str, Any] | None:
    """"删除第4章" / "delete the last chapter": a rollback from that chapter, confirmed, when it is the last one
    written (or the later ones go too); a chapter in the middle cannot go alone, and the user is told what can be
    done instead. None when no chapter is named (asked like a rollback)."""
    last = tool.files.last_chapter_on_disk()
    found = read.chapters_deleted(text, last)
    if found is None:
        return None
    first, later = found
    nothing = _nothing_to_roll_back(tool, first)
    if nothing:
        return _done(nothing)
    if first < last and not later:
        return _done(t("novel.chat_delete_middle", chapter=first, last=last))
    return {"outcome": "plan", "step": 0,
            "plan": _plan(ToolStep(tool="workflow.rollback", args={"to_chapter": first}, requires_confirmation=True))}


async def _understand_question(state: ChatState, ctx: NodeContext, turn: dict[str, Any]) -> dict[str, Any]:
    """Resolve who the question is about with tools; ask when tools leave it open; stop when known."""
    tools = Gatherer(ctx, state["project_id"], turn)
    text = turn["question"]
    answers = turn.get("answers") or {}
    references = dict(state.get("references") or {})
    names = tools.graph.names()
    mentioned = read.names_in(text, names)
    if read.asks_progress(text) and not mentioned:
        # "现在写到第几章了" / "how far along is the book": the project's status answers it, as /status does;
        # no passage of the text does ("how many chapters is Mara in" names someone and is a question of the text).
        status = await tools.call("status", _status_artifact, ctx, tools.workflow)
        return {"turn": None, "outcome": "done", "reply": status_sentence(status)}
    book_language = language_of(" ".join(names))
    if ctx.llm.provider == "offline" and names and not mentioned and language_of(text) != book_language:
        # "Who is the protagonist's mentor?" of a Chinese book: without a model no word of it meets the text,
        # and "the book has nothing on it" would be wrong.
        language = language_name(book_language)
        return {"turn": None, "outcome": "done",
                "reply": t("novel.chat_ask_in_book_language", language=language, names=join_items(names))}
    chosen = read.names_in(" ".join(answers.values()), names)
    pair = read.pair_asked_about(text) if not answers else None
    if pair:
        roles_held = {person.role for person in tools.graph.files.all_characters()}
        unknown = [side for side in pair if not read.names_in(side, names) and not read.pronoun_in(side)
                   and not any(read.is_role(side, role) for role in roles_held)]
        if len(unknown) == 1:
            # "沈书瑶和陆铭是什么关系" with no 陆铭 in the book: say so, not an answer about 沈书瑶 alone.
            return {"turn": None, "outcome": "done",
                    "reply": t("novel.chat_person_unknown", name=unknown[0], cast=_cast(names))}
    led = read.leader_asked_of(text) if not mentioned else None
    if led:
        return await _answer_leader(tools, text, led, names)
    pronoun = read.pronoun_in(text)
    # "秦啸是谁？" then "他和陆明什么关系？": 他 is the one spoken of before, and 陆明 the other one.
    referent = references.get(pronoun) if pronoun else None
    if referent not in names or referent in mentioned:
        referent = None
    subject = (turn.get("subject") or (chosen[0] if chosen else None)
               or (mentioned[0] if mentioned and not referent else None))
    if subject is None and "who" in answers:
        # The user was asked who and named no one in the book: say so once, never ask the same again.
        return {"turn": None, "outcome": "done",
                "reply": t("novel.chat_person_unknown", name=answers["who"].strip(), cast=_cast(names))}
    chapter = read.target_chapter(text) or _latest_chapter_asked(text, tools.graph.files)
    if subject is None and not pronoun and chapter is not None:
        # "第二章发生了什么": the question is about a chapter, not a person; asking "who?" would miss it.
        return await _gather_for_chapter(tools, turn, chapter)

    relations = turn.get("relations")
    if relations is None and tools.left > 0:
        relations = [r.__dict__ for r in await tools.call("relations", tools.graph.relations)]
        turn["relations"] = relations
    labels = {r["relation"] for r in relations or []}
    relation_word = next((w for w in sorted(labels, key=len, reverse=True) if w in text), None)

    roles: dict[str, list[str]] = {}
    for person in tools.graph.files.all_characters():
        roles.setdefault(person.role, []).append(person.name)
    # "沈墨和主角什么时候决裂的" / "when did Corin and the hero fall out": a role held by one character names them
    by_role = [held[0] for role, held in roles.items() if len(held) == 1 and read.names_role(text, role)]
    if subject is None and referent and not relation_word:
        subject = referent
    if subject is None and relation_word:
        holders = sorted({r["person"] for r in relations if r["relation"] == relation_word and r["person"] not in mentioned})
        # "主角的青梅竹马是谁": the role says whose, though both of a pair call each other so
        holders_by_role = [name for name in by_role if name in holders]
        if pronoun and references.get(pronoun) in holders:
            subject = references[pronoun]
        elif len(holders) == 1 or len(holders_by_role) == 1:
            subject = holders_by_role[0] if len(holders_by_role) == 1 else holders[0]
        elif len(holders) > 1:
            turn["candidates"] = holders
            written = read.pronoun_as_written(text)
            question = (t("novel.chat_ask_which", pronoun=written, relation=relation_word, candidates=join_items(holders))
                        if written else t("novel.chat_ask_whose", relation=relation_word, candidates=join_items(holders)))
            return _ask(turn, [{"id": "who", "question": question, "candidates": holders, "missing": "subject"}])
    subject = subject or referent
    if subject is None and not pronoun and not relation_word:
        # "反派是谁" / "主角为什么…" / "who is the villain": a role held by one character names them; in a
        # who-question only when the role is what is asked ("who is the hero's master" asks of someone else).
        described = read.person_asked_about(text, described=True)
        subject = next((held[0] for role, held in roles.items() if len(held) == 1
                        and (read.is_role(described, role) if described else read.names_role(text, role))), None)
        if subject is None and described and read.is_calling(described):
            subject = _held_by_calling(tools, described)
        if subject is None and described and read.is_role_word(described):
            # "谁是反派" / "who is the villain" of a book whose sheet names none: no name was asked, and no passage says
            return {"turn": None, "outcome": "done", "reply": t("novel.chat_role_unheld", role=described, cast=_cast(names))}
    asked = read.person_asked_about(text) if subject is None and not pronoun and not relation_word else None
    if asked and read.asks_culprit(text):
        # "凶手是谁": 凶手 is who is asked for, no name the book lacks
        told = [s for s in _world_sentences(tools.graph.files, []) if read.names_culprit(s)]
        culprit = told and read.culprit_named(told[0], names)
        if culprit:
            return {"turn": None, "outcome": "done",
                    "reply": t("novel.chat_culprit_from_world", name=culprit, quote=told[0])}
        asked = None
    if asked:
        alike = read.names_like(asked, names)
        if len(alike) > 1:  # "who is Ines" with Ines Finch and Ines Vane in the book: which one, not a search
            return _ask(turn, [{"id": "who", "question": t("novel.chat_ask_which_of", candidates=join_items(alike)),
                                "candidates": alike, "missing": "subject"}])
        if not any(read.is_role(asked, role) for role in roles):
            # "张三是谁": a name the book does not have. Saying so beats asking which of the cast was meant; a
            # name only the author's world description holds ("海瑞之女…": her father) is quoted from it.
            said = _world_sentences(tools.graph.files, [asked])
            reply = (t("novel.chat_person_only_in_world", name=asked, cast=_cast(names), quote=" ".join(said[:2]))
                     if said else t("novel.chat_person_unknown", name=asked, cast=_cast(names)))
            return {"turn": None, "outcome": "done", "reply": reply}
    if subject is None and not mentioned and read.asks_story_setting(text) and tools.graph.files.has("world"):
        # "where does the story take place": the world's name and geography, not passages sharing "story"
        world = tools.graph.files.load("world")
        return {"turn": None, "outcome": "done",
                "reply": t("novel.chat_story_setting", name=world.world_name, geography=world.geography)}
    if subject is None and tools.left > 0:
        hits = await tools.call("search", tools.memory.search, text, [], 6)
        topic = read.topic_words(text) if not pronoun and not relation_word and "who" not in answers else []
        if topic:
            # A question about a thing, not a person ("书里有外星人吗", "怀表是谁的"): only passages that
            # share a word with it count, and with none the book has nothing to say — no "who?" to ask.
            hits = [h for h in hits if any(read.mentions(h.text, word) for word in topic)]
            if not hits:
                # "盐帮是什么" / "what is the Salt Guild": no scene names it, but the author's world description
                # may; that is the book's setting, and saying so beats "nothing found".
                said = _world_sentences(tools.graph.files, topic)
                # "谁是灭门案的真凶" of "…周怀安才是灭门案的真凶": the one the description names, not only its words
                told = [s for s in said if read.names_culprit(s)] if read.asks_culprit(text) else []
                culprit = told and read.culprit_named(told[0], names)
                if culprit:
                    return {"turn": None, "outcome": "done",
                            "reply": t("novel.chat_culprit_from_world", name=culprit, quote=told[0])}
                if said:
                    return {"turn": None, "outcome": "done",
                            "reply": t("novel.chat_answer_from_world", quote=" ".join(said[:2]))}
                return {"turn": None, "outcome": "done", "reply": t("novel.chat_nothing_found", question=text.strip())}
        seen = list(dict.fromkeys(n for h in hits for n in read.names_in(h.text, names)))
        if topic and (len(seen) != 1 or not read.asks_who(text)):
            # "剑碑是什么" asks of the thing: the passages naming it answer it, not the one person they happen to
            # name ("怀表是谁的" asks for that person)
            turn["passages"] = [h.__dict__ for h in hits]
            return {"turn": turn, "outcome": "answer"}
        if len(seen) == 1:
            subject = seen[0]
        elif seen:
            turn["candidates"] = seen[:5]
    if subject is None:
        candidates = turn.get("candidates") or []
        question = (t("novel.chat_ask_which_of", candidates=join_items(candidates)) if candidates
                    else t("novel.chat_ask_who"))
        return _ask(turn, [{"id": "who", "question": question, "candidates": candidates, "missing": "subject"}])
    turn["subject"] = subject
    # a question the sheet answers is about someone as much: "How old is Amos?" then "what does he want?" is Amos
    sheet = tools.graph.whois(subject)
    about = {**references, **pronoun_references([(subject, sheet.get("gender", ""))] if sheet else []),
             **({pronoun: subject} if pronoun else {})}
    if read.asks_occupation(text) and not mentioned[1:]:
        told = _occupation_lines(tools, subject, names)
        if told:
            return {"turn": None, "outcome": "done", "reply": "\n".join(told), "references": about}
    field = read.asked_attribute(text)
    if field and not mentioned[1:]:
        # what someone wants is what the author wrote of them ("a developer named Victor Crane wants the farm"),
        # beside the sheet's line, not scenes of whom they met
        said = _world_lines(tools, subject, names) if field == "motivation" else []
        return {"turn": None, "outcome": "done", "reply": "\n".join([_attribute_line(tools, subject, field), *said]),
                "references": about}
    other = None
    if relation_word:
        other = next((r["other"] for r in relations if r["person"] == subject and r["relation"] == relation_word), None)
    other = other or next((n for n in [*mentioned, *by_role] if n != subject), None)
    if other is None and pronoun in _PLURAL and references.get(pronoun) == subject:
        # "沈青川和韩秋雁是什么关系" then "他们后来怎么样了": 他们 are the two, not one to be asked about
        other = references.get(_PLURAL[pronoun])
    turn["other"] = other
    entities = [subject] + ([other] if other else [])
    turn["sheet"] = _sheet_lines(tools, subject, other, turn.get("relations") or [], text)
    sheets = [(name, tools.graph.whois(name)) for name in (other, subject) if name]
    references.update(pronoun_references([(name, sheet.get("gender", "")) for name, sheet in sheets if sheet]))
    if pronoun:
        references[pronoun] = subject
    if other:
        for plural, second in _PLURAL.items():
            references[plural], references[second] = subject, other
    if relation_word and other:
        references[relation_word] = other

    if "events" not in turn and tools.left > 0:
        turn["events"] = await tools.call("events", tools.graph.events, entities)
    # What kind of thing is asked decides what the passages must show: a place for "去了哪里", the others met for
    # "遇到了谁"; else a change of relation, the one thing the sheet and the events cannot show.
    turn["cast"] = names
    if read.asks_where(text):
        turn["places"] = _scene_places(tools.graph.files)
    cues = turn.get("places") or ([n for n in names if n not in entities] if read.asks_whom(text) else read.CHANGE_CUES[:6])
    if "passages" not in turn and tools.left > 0:
        query = " ".join([text, *entities, *cues])
        # all the places or people of a book are asked for, not the best passage: more scenes are read
        found = await tools.call("search", tools.memory.search, query, entities,
                                 16 if read.asks_where(text) or read.asks_whom(text) else 8)
        turn["passages"] = [p.__dict__ for p in found]
    if chapter is not None and "passages" in turn:
        # "林晚在第3章做了什么" / "what did Silas do in the last chapter": that chapter answers it, not the whole book
        narrowed = _within_chapter(tools, turn, subject, chapter, read.names_span_end(text))
        if narrowed is not None:
            return narrowed
    if read.asks_first(text) and "passages" in turn:
        # "林晚第一次在哪里出现" / "where did Mara first appear": the earliest scene naming them answers it, and the
        # search, ranking by likeness, may not bring it back
        earliest = _first_paragraph_naming(tools.graph.files, subject)
        if earliest and (earliest["chapter_number"], earliest["scene_number"]) not in {
                (p["chapter_number"], p.get("scene_number")) for p in turn["passages"]}:
            turn["passages"] = [earliest, *turn["passages"]]
    thing = read.known_thing(text, names)
    if thing and "passages" in turn:
        # "does Doyle know about the coded messages yet": only a passage naming the thing can say he does; the
        # character sheet and his chapter events tell nothing of it, so without one the answer is "not yet".
        words = read.topic_words(read.without_names(thing, names))
        files, written = tools.graph.files, tools.graph.files.chapter_numbers()
        scenes = [s.content for n in written for s in files.load_chapter(n).scenes]
        if not any(read.mentions(scene, w) for scene in scenes for w in words):
            return {"turn": None, "outcome": "done",
                    "reply": t("novel.chat_not_known_yet", name=subject, thing=thing, written=len(written))}
        naming = [p for p in turn["passages"] if any(read.mentions(p["text"], w) for w in words)] \
            or _paragraphs_naming(files, subject, words)
        if naming:
            turn["passages"], turn["events"], turn["sheet"] = naming, [], []
    if not thing and "passages" in turn and _asks_of_a_deed_or_thing(text, relation_word) and not read.asks_first(text):
        untold = _untold_words(tools.graph.files, text, names)
        if untold:
            # "许青禾找到账簿了吗", "谁在幕后诬陷许青禾的父亲": no scene tells it, and quoting whatever she did instead
            # answers another question
            return {"turn": None, "outcome": "done", "reply": _untold_reply(tools.graph.files, untold)}
    if read.asks_why(text) and "passages" in turn:
        _focus_on_why(tools, turn, subject, names)
    if not turn.get("passages") and not turn.get("events") and not turn["sheet"] and "passages" in turn \
            and tools.graph.whois(subject):
        # "where is Mara now" of someone no chapter shows yet: the character sheet is all the book has on
        # them, and saying so beats asking the user for a chapter or an event.
        turn["sheet"] = [_whois_line(tools, subject, turn.get("relations") or []),
                         t("novel.chat_answer_not_in_chapters", name=subject)]
    # The character sheet answers "反派是谁" even when the chapters never show them.
    if not turn.get("passages") and not turn.get("events") and not turn["sheet"]:
        if "passages" not in turn:  # the bound stopped the search before any passage was read
            return _ask(turn, [{"id": "detail", "missing": "evidence", "question": t(
                "novel.chat_ask_after_bound", calls=turn["tool_calls"], who=join_items(entities))}])
        return _ask(turn, [{"id": "detail", "question": t("novel.chat_ask_detail", who=join_items(entities)),
                            "missing": "evidence"}])
    return {"turn": turn, "references": references, "outcome": "answer"}


def _within_chapter(tools: Gatherer, turn: dict[str, Any], subject: str, chapter: int, up_to: bool) -> dict[str, Any] | None:
    """Keep the events and passages of the chapter asked about (of chapters 1 to it, for "到第3章为止"), with the
    sentences of that chapter naming `subject` when the search brought back none; a reply when the chapter is not
    written or does not show them, else None (the turn goes on, narrowed)."""
    files = tools.graph.files
    written = files.chapter_numbers()
    if chapter not in written:
        return _done(t("novel.chat_chapter_unknown", chapter=chapter, written=len(written)))
    asked = [n for n in written if n <= chapter] if up_to else [chapter]
    turn["events"] = [e for e in turn.get("events") or [] if e.get("chapter_number") in asked]
    scenes = [(n, scene) for n in asked for scene in files.load_chapter(n).scenes]
    # a memory line retold in other words is no quote: only what the chapter's text holds is kept
    passages = [p for p in turn.get("passages") or [] if p["chapter_number"] in asked and _names(p["text"], subject)
                and any(n == p["chapter_number"] and p["text"] in scene.content for n, scene in scenes)]
    if not passages:  # the search ranked other chapters first: the chapter's own sentences naming them
        passages = [{"chapter_number": n, "scene_number": scene.scene_number, "text": said, "score": 0.0}
                    for n, scene in scenes for line in scene.content.split("\n")
                    for said in map(str.strip, _SENTENCE_STOP.split(line)) if said and _names(said, subject)]
    turn["passages"] = passages
    if not passages and not turn["events"]:
        where = t("novel.chat_chapters_up_to", chapter=chapter) if up_to else t("novel.chat_chapter_named", chapter=chapter)
        return _done(t("novel.chat_not_in_chapter", name=subject, where=where))
    return None


def _first_paragraph_naming(files: Any, subject: str) -> dict[str, Any] | None:
    """The first line of the book naming `subject`, as a passage (None: no written scene names them)."""
    for number in files.chapter_numbers():
        for scene in files.load_chapter(number).scenes:
            # the sentence naming them, not a scene heading before it on the same line
            said = next((part.strip() for line in scene.content.split("\n") for part in _SENTENCE_STOP.split(line)
                         if _names(part, subject)), None)
            if said:
                return {"chapter_number": number, "scene_number": scene.scene_number, "text": said, "score": 0.0}
    return None


def _paragraphs_naming(files: Any, subject: str, words: list[str]) -> list[dict[str, Any]]:
    """The paragraphs of the written scenes naming `subject` and a word of the thing, as passages: the search,
    ranking by the whole question, may bring back none of them ("does Ines know about the astrolabe yet")."""
    found = []
    for number in files.chapter_numbers():
        for scene in files.load_chapter(number).scenes:
            lines = scene.content.split("\n")
            named_at = None
            for at, line in enumerate(lines):
                named_at = at if _names(line, subject) else named_at
                if named_at is not None and any(read.mentions(line, w) for w in words):
                    # from the line naming them to the one naming the thing ("…their minds were on the astrolabe")
                    found.append({"chapter_number": number, "scene_number": scene.scene_number,
                                  "text": "\n".join(lines[named_at:at + 1]).strip(), "score": 0.0})
                    break
    return found


def _asks_of_a_deed_or_thing(text: str, relation_word: str | None) -> bool:
    """A question of what someone did or what befell them, in words of its own ("找到账簿了吗", "who sold the
    astrolabe"); not a pair's relation, a why, a turn, a where or a whom, which are answered (or found untold) their own way."""
    # "她做了什么" / "what did Ada do" asks for whatever they did: the chapters' events answer it
    return not (relation_word or re.search(r"什么|\bwhat\b", text, re.I) or read.person_asked_about(text, described=True)
                or read.pair_asked_about(text) or read.asks_why(text) or read.asks_change(text) or read.asks_where(text)
                or read.asks_whom(text))


def _untold_words(files: Any, text: str, names: list[str]) -> list[str]:
    """The words of a question no written scene holds all together (those no scene holds at all, if any); none
    when a scene tells it or the question has no words beside the names. "幕后" / "behind" only frame it."""
    words = [w for w in read.topic_words(read.without_names(text, names)) if not read.asks_behind(w)]
    if not words:
        return []
    scenes = [s.content for n in files.chapter_numbers() for s in files.load_chapter(n).scenes]
    if any(all(read.mentions(scene, w) for w in words) for scene in scenes):
        return []
    return [w for w in words if not any(read.mentions(scene, w) for scene in scenes)] or words


def _untold_reply(files: Any, untold: list[str]) -> str:
    """No chapter tells it yet; the author's world description, when a sentence of it names it, is quoted."""
    reply = t("novel.chat_untold", written=len(files.chapter_numbers()), words=join_items(untold))
    said = _world_sentences(files, untold)
    return reply + (t("novel.chat_untold_world", quote=" ".join(said[:2])) if said else "")


async def _answer_leader(tools: Gatherer, text: str, led: str, names: list[str]) -> dict[str, Any]:
    """"who runs the smuggling ring" / "谁在幕后操纵私盐": the one of the cast a scene, their character sheet or the
    author's world description ties to leading it, with the words saying so; else the sheet's antagonist, said as
    such; never a passage that only names the thing ("their minds were on the smuggling ring")."""
    words = read.topic_words(led)
    hits = await tools.call("search", tools.memory.search, text, [], 8) if tools.left > 0 else []
    for hit in hits:
        who = read.leader_named(hit.text, names, words)
        if who:
            cited, _ = verify(tools.graph.files, [(hit.chapter_number, hit.text, hit.scene_number)])
            if cited:
                return _done(t("novel.chat_leader_by_passage", name=who, thing=led, chapter=cited[0].chapter_number,
                               scene=cited[0].scene_number or "-", quote=cited[0].quote))
    people = tools.graph.files.all_characters()
    # "a station doctor" runs no station: the sheet must say they lead it, in the clause naming it
    by_sheet = [p for p in people if any(read.tells_leading(said or "", words) for said in (p.background, p.motivation))]
    if len(by_sheet) == 1:
        person = by_sheet[0]
        said = next(s for s in (person.background, person.motivation) if read.tells_leading(s or "", words))
        return _done(t("novel.chat_leader_by_sheet", name=person.name, thing=led, line=_first_sentence(said)))
    told = [s for s in _world_sentences(tools.graph.files, words) if read.tells_leading(s, words)]
    culprit = None
    if not told and read.asks_behind(text):
        # "谁在幕后操纵私盐" of "…幕后主使是镇上的盐商周德昌": the one behind it all, though not in the thing's words;
        # named as the sentence calls them ("谁是盐案的主谋" of "…追查盐案，幕后主使是…周德昌" is 周德昌)
        told = [s for s in _world_sentences(tools.graph.files, []) if read.names_culprit(s)]
        culprit = told and read.culprit_named(told[0], names)
    if told:
        who = culprit or read.leader_named(told[0], names, words)
        return _done(t("novel.chat_leader_by_world", name=who, thing=led, quote=told[0]) if who
                     else t("novel.chat_leader_world_quote", thing=led, quote=told[0]))
    villains = [p.name for p in people if read.is_antagonist(p.role or "")]
    if len(villains) == 1:
        return _done(t("novel.chat_leader_antagonist", name=villains[0], thing=led))
    return _done(t("novel.chat_leader_unknown", thing=led, cast=_cast(names)))


def _done(reply: str) -> dict[str, Any]:
    return {"turn": None, "outcome": "done", "reply": reply}


def _asked_words(question: str, names: list[str]) -> list[str]:
    """The words of a question besides the people in it ("林素素为什么离开茶庄" → 离开, 茶庄; "Tamsin" of Tamsin
    Penhale is hers too); a lone Chinese character (替, 做) names nothing a passage could be found by."""
    words = read.topic_words(read.without_names(question, names))
    return [w for w in words if not read.names_in(w, names) and (len(w) > 1 or not CJK.fullmatch(w))]


def _focus_on_why(tools: Gatherer, turn: dict[str, Any], subject: str, names: list[str]) -> None:
    """"林素素为什么离开茶庄": passages naming what was done, and what the character sheet says drives them. The
    chapters' events are no reason (they repeated the one quote); with no passage naming it, the book has not
    told it yet, and saying so beats a passage about whoever they met."""
    deed = read.asked_deed(turn["question"], names)
    # "为什么劫镖": topic words split 劫镖 into lone characters, which name nothing; the deed does
    words = _asked_words(turn["question"], names) or ([deed] if deed else [])
    if deed:
        # "为什么离开茶庄": a passage telling the leaving, not one only naming 茶庄 (a place word tells no reason)
        things = [w for w in words if not read.mentions(w, deed) and not read.mentions(deed, w)]
        turn["passages"] = [p for p in turn["passages"] if read.shows_deed(p["text"], deed, things)]
    elif words:
        turn["passages"] = [p for p in turn["passages"] if any(read.mentions(p["text"], w) for w in words)]
    turn["events"] = []
    lines = list(turn.get("sheet") or [])
    if words and not turn["passages"]:
        things = join_items(t("novel.chat_quoted_word", word=w) for w in words)
        lines.append(t("novel.chat_answer_why_not_written", who=subject, things=things))
    turn["sheet"] = lines
    # "林素素为什么要帮陈阿水" asks her reason: the one named first does it, whatever the sheet's order
    actor = _first_named(turn["question"], [e for e in (subject, turn.get("other")) if e], names)
    motivation = _first_sentence((tools.graph.whois(actor) or {}).get("motivation") or "")
    if motivation:  # said after what the passages show: the book's own text first, the plan for it after
        turn["motive"] = t("novel.chat_answer_motivation", name=actor, motivation=motivation)


def _first_named(text: str, people: list[str], names: list[str]) -> str:
    """Which of `people` the text names first, by whole name or a name of theirs no one else has (阿水)."""
    def at(person: str) -> int:
        found = [text.find(w) for w in (person, *read.unique_aliases(person, names)) if w and w in text]
        return min(found, default=len(text))

    return min(people, key=at)


# Where the references keep the second of a pair 他们 / 她们 mean (the first is under the pronoun itself).
_PLURAL = {"他们": "他们+", "她们": "她们+"}


def _scene_places(files: Any) -> list[str]:
    """The places the written chapters' scene plans set their scenes in: the book's own place names."""
    plans = [files.load_plan(n) for n in files.chapter_numbers() if files.has_plan(n)]
    return list(dict.fromkeys(scene.location for plan in plans for scene in plan.scenes if scene.location))


# Where a sentence of a world description ends, in Chinese or English ("…the Salt Guild. The engineer…").
_WORLD_SENTENCE = re.compile(r"[^。！？!?;；\n]+?(?:[。！？!?;；]+|\.(?=\s|$)|$)")


def _cast(names: list[str]) -> str:
    """Who the book does have, said after "no such person": a new project may have nobody yet."""
    return t("novel.chat_cast", names=join_items(names)) if names else t("novel.chat_no_cast")


# The fields of a world.json an author may write their places, order and customs in.
_WORLD_FIELDS = ("geography", "social_system", "culture_customs", "power_system", "special_rules", "technology_level")


def _world_sentences(files: Any, topic: list[str]) -> list[str]:
    """The sentences of the author's world description that name every topic word of a question, then those of
    the world.json they wrote ("云雾坞在哪" is answered by its geography); the fields the offline composer
    wrote only say the description again."""
    world = files.load("world") if files.has("world") else None
    written = [str(getattr(world, field, None) or "") for field in _WORLD_FIELDS] if world else []
    texts = [files.settings().world_description or "", *(w for w in written if w and not w.startswith((TAG, EN_TAG)))]
    return [s.strip() for text in texts for s in _WORLD_SENTENCE.findall(text)
            if s.strip() and all(read.mentions(s, word) for word in topic)]


def pronoun_references(people: list[tuple[str, str]]) -> dict[str, str]:
    """Who 他 / 她 mean after a turn about `people` ((name, gender) of the character sheet, the subject last:
    of two of one gender, "他" then means the subject). A gender the book leaves unknown ("未知") lets 他 or
    她 mean that person where no one of a known gender is meant, rather than asking "which one?"."""
    found: dict[str, str] = {}
    for name, gender in people:
        if gender in GENDER_PRONOUN:
            found[GENDER_PRONOUN[gender]] = name
    claimed = set(found)
    for name, gender in people:
        if gender not in GENDER_PRONOUN:
            found.update({pronoun: name for pronoun in ("他", "她") if pronoun not in claimed})
    return found


def _held_by_calling(tools: Gatherer, calling: str) -> str | None:
    """The one character whose sheet says they are `calling` ("who is the postmistress", "捕快是谁"): their
    background names it; None when no one's or more than one's does."""
    held = [c.name for c in tools.graph.files.all_characters() if read.mentions(c.background or "", calling)]
    return held[0] if len(held) == 1 else None


def _sheet_lines(tools: Gatherer, subject: str, other: str | None, relations: list[dict[str, Any]], text: str) -> list[str]:
    """What characters.json says: how the two regard each other, or (for "X是谁") who X is."""
    if other:
        return [t("novel.chat_answer_relation", person=r["person"], other=r["other"], relation=r["relation"])
                for r in relations if {r["person"], r["other"]} == {subject, other}]
    if read.person_asked_about(text, described=True) is None:
        return []
    background = _first_sentence((tools.graph.whois(subject) or {}).get("background") or "")
    # the role (主角, 配角) is the book's label; who they are (a post, a calling: 捕快, "a harbor constable")
    # is what the background opens with
    # the world description says what the sheet's offline background cannot ("邻居林秀云暗中帮她")
    return [_whois_line(tools, subject, relations)] + \
        ([t("novel.chat_answer_whois_background", name=subject, background=background)] if background else []) + \
        _world_lines(tools, subject, tools.graph.names())


_SENTENCE_STOP = re.compile(r"(?<=[。！？!?])|(?<=\.)\s")


_CLAUSE = re.compile(r"[^,;，；。！？!?\n]+?(?=[,;，；。！？!?\n]|\.(?:\s|$)|$)")


def _occupation_lines(tools: Gatherer, subject: str, names: list[str]) -> list[str]:
    """What someone does, for "what does Kofi do?": the opening of their sheet's background (a post: "a
    constable"), then the clauses of the author's world description that name them ("her brother Kofi works the
    night shift at the morgue"). The sheet comes first: "what does Owen do?" quoted a clause naming him beside
    his sister, and missed that the sheet makes him a constable. Passages of whom they meet do not tell it."""
    background = _first_sentence((tools.graph.whois(subject) or {}).get("background") or "")
    told = [t("novel.chat_answer_whois_background", name=subject, background=background)] if background else []
    return told + _world_lines(tools, subject, names)


def _world_lines(tools: Gatherer, subject: str, names: list[str]) -> list[str]:
    """The clauses of the author's world description naming someone ("邻居林秀云暗中帮她"), as one line."""
    called = [subject, *read.unique_aliases(subject, names)]
    first = subject.split()[0] if " " in subject else None
    if first and not any(n != subject and first in n.split() for n in names):
        called.append(first)  # "Ama" of Ama Mensah, when no one else is an Ama
    description = tools.graph.files.settings().world_description or ""
    clauses = _naming_clauses(description, called)
    return [t("novel.chat_answer_occupation", name=subject, quote=" … ".join(clauses[:2]))] if clauses else []


# A clause set beside a name, saying who they are (", a lighthouse keeper,"): an article opens it.
_APPOSITION = re.compile(r"^\s*(?:a|an|the)\s", re.I)


def _naming_clauses(text: str, called: list[str]) -> list[str]:
    """The clauses of `text` naming one called so, each with the clause set beside its name ("his sister
    Maren, a lighthouse keeper"): cut at the comma, "Maren" alone tells nothing of what she does."""
    clauses = [c.strip(" .") for c in _CLAUSE.findall(text)]  # not ". Her cousin Rui…": the stop is the last one's
    naming = []
    for at, clause in enumerate(clauses):
        if any(read.mentions(clause, word) for word in called):
            # only the name the clause ends on has the next clause beside it: not Owen of "Owen and his sister Maren"
            ends_on_name = any(clause.endswith(word) for word in called)
            beside = clauses[at + 1] if ends_on_name and at + 1 < len(clauses) and _APPOSITION.match(clauses[at + 1]) else ""
            naming.append(f"{clause}, {beside}" if beside else clause)
    return naming


# What a sheet holds for a field it does not know: the offline sheet's "未知" gender is no answer.
_UNRECORDED = {"", "未知", "unknown", "none", "-"}


def _attribute_line(tools: Gatherer, subject: str, field: str) -> str:
    """"林晚多大了" / "How old is Rose?": the field of their character sheet, the file named as the evidence."""
    value = (tools.graph.whois(subject) or {}).get(field)
    attribute = t(f"novel.character_field_{field}")
    if value is None or str(value).strip().lower() in _UNRECORDED:
        return t("novel.chat_answer_attribute_unrecorded", name=subject, attribute=attribute)
    told = t("novel.chat_age_value", age=value) if field == "age" else _first_sentence(str(value))
    return t("novel.chat_answer_attribute", name=subject, attribute=attribute, value=told)


def _first_sentence(text: str, limit: int = 80) -> str:
    """The opening sentence of a sheet's text, cut at the last clause end within `limit`: a line, not the
    whole biography."""
    first = _SENTENCE_STOP.split(text.strip(), maxsplit=1)[0].strip().rstrip("。.")
    told = whole_clauses(first, limit)  # a first clause longer than the limit stays whole, and nothing trails
    return told if told == first else told + "…"


def _whois_line(tools: Gatherer, subject: str, relations: list[dict[str, Any]]) -> str:
    person = tools.graph.whois(subject) or {}
    known = join_items(t("novel.chat_relation_item", other=r["other"], relation=r["relation"])
                       for r in relations if r["person"] == subject)
    return t("novel.chat_answer_whois", name=subject, role=person.get("role") or "-", relations=known or "-")


def _latest_chapter_asked(text: str, files: Any) -> int | None:
    """The last chapter written when the question names it so ("上一章发生了什么"); None when it does not or none is."""
    if not read.names_latest_chapter(text):
        return None
    return max(files.chapter_numbers(), default=0) or None


async def _gather_for_chapter(tools: Gatherer, turn: dict[str, Any], chapter: int) -> dict[str, Any]:
    turn["chapter"] = chapter
    if "events" not in turn and tools.left > 0:
        turn["events"] = await tools.call("chapter_events", tools.graph.chapter_events, chapter)
    if "passages" not in turn and tools.left > 0:
        # The chapter's own events make the query: the question alone ("发生了什么") names nothing to find.
        said = [turn["question"], *(part for e in turn.get("events") or [] for part in (e.get("summary", ""), *e.get("key_events", [])))]
        found = await tools.call("search", tools.memory.search, " ".join(said), [], 24)
        turn["passages"] = [p.__dict__ for p in found if p.chapter_number == chapter]
    if not turn.get("events") and not turn.get("passages"):
        written = tools.workflow.status().chapters_generated
        return {"turn": None, "outcome": "done", "reply": t("novel.chat_chapter_unknown", chapter=chapter, written=written)}
    return {"turn": turn, "outcome": "answer"}


def _unwritten_chapter_to_confirm(state: ChatState, ctx: NodeContext, turn: dict[str, Any]) -> bool:
    """A guessed generation is planned only as "把第五章写出来" is: a chapter not yet written, and a confirmation
    (not /auto) to catch a wrong guess before anything is written."""
    if state.get("auto") or not turn.get("target"):
        return False
    written = WorkflowTool(novel_config(ctx.flow.tools), state["project_id"]).files.chapter_numbers()
    return turn["target"] > max(written, default=0)


@node("understand")
async def understand(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    turn = dict(state.get("turn") or {})
    if not turn:
        turn = {"question": state["text"], "tool_calls": 0}
        intent, target = await classify(state["text"], ctx.llm)
        # Only the nearest example sentence said so (no rule word, no model): a guess, never acted on unasked.
        guessed = ctx.llm.provider == "offline" and read.intent_by_rules(state["text"]) is None
        turn.update(intent=intent, target=target, guessed=guessed)
        history = _remember(state, "user", state["text"])
    else:
        history = state.get("history") or []
    if read.wants_rename(turn["question"]):
        # "把楚辰改名为楚风" / "rename Silas to Simon": the sheet, the chapters and the memory would all have to
        # change; no tool does that yet, and keeping it as a "preference" would look done when nothing is.
        update = {"turn": None, "outcome": "done", "reply": t("novel.chat_rename_unsupported", text=turn["question"].strip())}
    elif turn["intent"] == "generate" and turn.get("guessed") and not _unwritten_chapter_to_confirm(state, ctx, turn):
        # "删除第3章", "rename Silas to Simon": no word of writing in it, and planning a run ("要覆盖重写吗？")
        # would answer a request never made; what can be done is said instead.
        update = {"turn": None, "outcome": "done", "reply": t("novel.chat_request_unclear", text=turn["question"].strip())}
    elif turn["intent"] == "generate":
        update = await _understand_generation(state, ctx, turn)
    elif turn["intent"] == "knowledge":
        update = await _understand_question(state, ctx, turn)
    elif turn["intent"] == "preference":
        cast = GraphTool(novel_config(ctx.flow.tools), state["project_id"]).names()
        kind = read.preference_type(turn["question"], cast)
        update = {"turn": turn, "outcome": "plan", "step": 0, "plan": _plan(ToolStep(
            tool="preferences.add", args={"preference_type": kind, "content": turn["question"]},
            # a guessed preference ("把楚辰改名为楚风") is kept only when the user says it is one
            requires_confirmation=bool(turn.get("guessed"))))}
    elif read.is_bare_reply(turn["question"]):
        # "n" typed after the plan it meant to decline had gone: say so rather than guess at a plan.
        update = {"turn": None, "outcome": "done", "reply": t("novel.chat_nothing_pending") + "\n" + _help()}
    else:
        update = {"turn": turn, "outcome": "done", "history": _say(ctx, state, _help(), history)}
    if "reply" in update:
        update["history"] = _say(ctx, state, update.pop("reply"), history)
    update.setdefault("history", history)
    return update


@node("clarify")
async def clarify(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    turn = dict(state["turn"])
    payload = {"questions": turn["questions"], "missing": [q.get("missing") for q in turn["questions"]],
               "toolCalls": turn.get("tool_calls", 0), "maxToolCalls": novel_config(ctx.flow.tools).max_tool_calls}
    answer = interrupt({"kind": "clarification", "payload": payload})
    if isinstance(answer, str):
        answer = {q["id"]: answer for q in turn["questions"][:1]}
    # "use defaults", for the whole form or for one question (the canvas keeps what was typed in the others)
    defaults = {str(q["id"]): q.get("default") or "" for q in turn["questions"]}
    answer = {k: defaults.get(str(k), "") if v == USE_DEFAULTS else v for k, v in (answer or {}).items()}
    said = " ".join(str(v) for v in (answer or {}).values()).strip()
    if said.startswith("/") or _a_new_question(state, ctx, turn, said):
        # Not an answer but a command or a new question: the pending one is dropped, this one is served.
        return {"turn": None, "text": said, "plan": None, "step": 0, "outcome": None}
    turn["answers"] = {**(turn.get("answers") or {}), **{k: str(v) for k, v in (answer or {}).items()}}
    turn["tool_calls"] = 0  # the user answered: a fresh budget for what is still missing
    turn.pop("questions", None)
    turn.pop("candidates", None)
    return {"turn": turn}


def _a_new_question(state: ChatState, ctx: NodeContext, turn: dict[str, Any], said: str) -> bool:
    """A reply that is a message of its own rather than an answer to what was asked.

    At "which character?": one naming none of them that reads as a question. At "up to which
    chapter?" / "overwrite?": a question ("第五章发生了什么" names a chapter but asks about it), or
    a reply that holds no chapter number / no yes or no at all.
    """
    asked = {q.get("id") for q in turn.get("questions") or []}
    if not said:
        return False
    if "who" in asked:
        names = GraphTool(novel_config(ctx.flow.tools), state["project_id"]).names()
        return not read.names_in(said, names) and read.intent_by_rules(said) is not None
    if "target" in asked:
        # "重写第2章" / "删除第3章" typed there is a request of its own, though it names a chapter
        return read.is_question(said) or read.chapter_answer(said) is None or read.asks_another_action(said)
    if "overwrite" in asked:
        return read.is_question(said) or not (read.is_yes(said) or read.is_no(said))
    return False


# ------------------------------------------------------------------ the answer


_CLOSING = "。.!！?？ "


def verify(files: Any, claims: list[tuple[int, str] | tuple[int, str, int | None]]) -> tuple[list[Evidence], int]:
    """Keep a quote only if it is, character for character, in the chapter it cites; count the dropped.

    A claim may name its scene too (a passage found in it): a line several scenes repeat is cited from
    that scene, not from the first that has it. Each chapter is read once: the quotes of an answer share
    few chapters, and each read parses a whole chapter file."""
    kept: list[Evidence] = []
    dropped = 0
    chapters: dict[int, Any] = {}
    for number, quote, *at in claims:
        if number not in chapters:
            chapters[number] = files.load_chapter(number) if files.has_chapter(number) else None
        chapter = chapters[number]
        holding = [s for s in chapter.scenes if quote in s.content] if chapter else []
        scene = next((s for s in holding if at and s.scene_number == at[0]), holding[0] if holding else None)
        if scene is None:
            dropped += 1
            continue
        # "苏晚晴遇到顾铭" (an event, as the memory tells it) and "苏晚晴遇到顾铭。" (the scene's sentence) are one quote
        if all(e.quote.rstrip(_CLOSING) != quote.rstrip(_CLOSING) for e in kept):
            kept.append(Evidence(chapter_number=number, scene_number=scene.scene_number, quote=quote, verified=True))
    return kept, dropped


def _in_scene(files: Any, passage: dict[str, Any], name: str, plans: dict[int, Any]) -> bool:
    """`name` is among the people the chapter plan puts in the passage's scene (true where no plan says):
    a later scene that only recalls them says nothing of where they are now. `plans` keeps each chapter's
    plan once read: a long book's passages share few chapters, and each read parses a file."""
    number, scene = passage["chapter_number"], passage.get("scene_number")
    if files is None or scene is None:
        return True
    if number not in plans:
        plans[number] = files.load_plan(number) if files.has_plan(number) else None
    if plans[number] is None:
        return True
    planned = next((s for s in plans[number].scenes if s.scene_number == scene), None)
    return planned is None or name in planned.characters


def _names(text: str, name: str) -> bool:
    """`text` names the character `name`, whole or by a word of their name ("Priya" of Priya Nair)."""
    return name in text or bool(read.names_in(text, [name]))


def _ranked_passages(turn: dict[str, Any], files: Any = None) -> list[dict[str, Any]]:
    """Passages naming the people asked about, a change of relation first, then in story order. A question
    about someone is answered from passages naming them (as the book calls them: "Priya" of Priya Nair) or
    none: "who is the protagonist?" was answered with a passage about whoever she met."""
    entities = [e for e in (turn.get("subject"), turn.get("other")) if e]
    passages = [p for p in turn.get("passages") or [] if not entities or any(_names(p["text"], e) for e in entities)]

    question = turn.get("question", "")
    shows = _what_passages_show(turn)
    if read.asks_latest(question):
        # "where is X now": the last scene that shows them answers it, not the first one, nor one recalling them;
        # of those, one showing the place they are in first.
        subject = turn.get("subject")
        plans: dict[int, Any] = {}
        return sorted(passages, key=lambda p: (not subject or _in_scene(files, p, subject, plans),
                                               bool(shows and shows(p)), p["chapter_number"], p.get("scene_number") or 0),
                      reverse=True)
    if shows is not None:
        # "去了哪里" / "遇到了谁": passages showing a place (or someone else) first, one for each place or person
        # before a second of any, so that the quotes answer it rather than repeat one scene; for "whom", a
        # passage telling a meeting before one where the other only goes along.
        meeting = read.asks_whom(question)
        told: set[str] = set()
        firsts, rest = [], []
        for p in sorted(passages, key=lambda p: (not shows(p), meeting and not read.tells_meeting(p["text"]),
                                                 p["chapter_number"], p.get("scene_number") or 0)):
            new = [x for x in shows(p) if x not in told]
            (firsts if new else rest).append(p)
            told.update(new)
        # with some passage showing it, one showing none only repeats the scene without answering
        return firsts + [p for p in rest if shows(p)] if firsts else rest
    if read.asks_first(question):
        return sorted(passages, key=lambda p: (p["chapter_number"], p.get("scene_number") or 0))
    topic = _asked_words(question, [*entities, *(turn.get("cast") or [])])
    why = read.asks_why(question)

    def key(p: dict[str, Any]) -> tuple:
        changed = read.tells_change(p["text"])
        both = all(_names(p["text"], e) for e in entities)
        # "苏晚晴为什么去地铁站": a passage naming 地铁站 before any other passage of her
        shared = sum(read.mentions(p["text"], word) for word in topic)
        if why:  # "为什么离开": what was done first (离开 is no turn of a relation here), a cause told before none
            return (-shared, not read.tells_cause(p["text"]), not both, p["chapter_number"], p.get("scene_number") or 0)
        # of a pair, a passage showing the two first: a turn between one of them and someone else is not theirs
        return (not both, not changed, -shared, p["chapter_number"], p.get("scene_number") or 0)

    return sorted(passages, key=key)


def _what_passages_show(turn: dict[str, Any]):
    """For a where- or whom-question, what a passage shows that answers it (places gone to, others named);
    None for any other question."""
    entities = [e for e in (turn.get("subject"), turn.get("other")) if e]
    question = turn.get("question", "")
    if read.asks_first(question):
        return None  # "第一次出现在哪": the earliest scene answers it, whether or not it names a place
    if entities and read.asks_where(question):
        places = turn.get("places") or []
        return lambda p: read.places_gone_to(p["text"], places) if all(_names(p["text"], e) for e in entities) else []
    if entities and read.asks_whom(question):
        others = [n for n in turn.get("cast") or [] if n not in entities]
        return lambda p: read.names_in(p["text"], others) if _names(p["text"], entities[0]) else []
    return None


def _found_line(turn: dict[str, Any], who: str, evidence: list[Evidence]) -> str | None:
    """"苏晚晴到过：咖啡馆（第 1 章）、地铁站（第 2 章）" / "…遇到的人：…": what the verified quotes show for a where- or
    whom-question, each place or person with the chapter that first shows it; None for other questions."""
    shows = _what_passages_show(turn)
    if shows is None:
        return None
    question = turn.get("question", "")
    if read.asks_where(question) and read.asks_latest(question):
        return _latest_place_line(who, evidence, shows)
    first: dict[str, int] = {}
    for cited in sorted(evidence, key=lambda e: (e.chapter_number, e.scene_number or 0)):
        for found in shows({"text": cited.quote}):
            first.setdefault(found, cited.chapter_number)
    kind = "where" if read.asks_where(turn.get("question", "")) else "whom"
    if not first:
        return t(f"novel.chat_answer_{kind}_none", who=who)
    items = join_items(t("novel.chat_answer_found_item", thing=thing, chapter=chapter) for thing, chapter in first.items())
    return t(f"novel.chat_answer_{kind}", who=who, found=items)


def _latest_place_line(who: str, evidence: list[Evidence], shows) -> str:
    """"林素素现在在哪里": the place of the last scene showing them, not every place they ever went. `evidence`
    is ranked so (the scenes they are in, latest first); in that scene the last place gone to is where they are."""
    for cited in evidence:
        places = shows({"text": cited.quote})
        if places:
            return t("novel.chat_answer_where_latest", who=who, place=places[-1], chapter=cited.chapter_number,
                     scene=cited.scene_number or "-")
    return t("novel.chat_answer_where_none", who=who)


def _scene_by_scene(evidence: list[Evidence]) -> list[Evidence]:
    """"第二章发生了什么": a quote of each scene in story order first, then the rest; the chapter told as it goes,
    not three lines of whichever scene the search liked best."""
    ordered = sorted(evidence, key=lambda e: (e.chapter_number, e.scene_number or 0))
    firsts = list({(e.chapter_number, e.scene_number): e for e in reversed(ordered)}.values())[::-1]
    return firsts + [e for e in ordered if e not in firsts]


def compose_offline(turn: dict[str, Any], evidence: list[Evidence]) -> str:
    pair = [e for e in (turn.get("subject"), turn.get("other")) if e]
    who = t("novel.chat_pair", first=pair[0], second=pair[1]) if len(pair) == 2 else "".join(pair)
    events = turn.get("events") or []
    lines = []
    lines += turn.get("sheet") or []
    found = _found_line(turn, who, evidence) if who else None
    if not who and not turn.get("chapter"):
        lines.append(t("novel.chat_answer_found"))  # a question about a thing: the passages say it
    elif turn.get("chapter") and not who:
        for event in events[:1]:
            title = read.bare_chapter_title(event.get("chapter_title", ""))
            lines.append(t("novel.chat_answer_chapter", chapter=event["chapter_number"], title=title,
                           summary=event.get("summary", "")))
    elif found is not None:
        # the places or the people asked for, from the quotes: the chapters' events do not say where or whom
        return "\n".join([*lines, found])
    elif evidence:
        first = evidence[0]
        # "出现转折" only when the question asks about a change ("什么时候变了") and the passage tells one: a
        # passage that only names them ("王婶遇到沈墨") was called the turn of a falling-out no chapter has.
        # "为什么离开" asks a reason, not when a relation turned, though 离开 is a word of turning
        asks_change = (read.asks_change(turn["question"]) and not read.asks_why(turn["question"])
                       and not read.asks_first(turn["question"]))  # "最早什么时候出场" asks no turn either
        turned = asks_change and read.tells_change(first.quote)
        if asks_change and not turned:
            lines.append(t("novel.chat_answer_no_turn", who=who))
        # the passage is worth quoting for a pair only when it shows them together: "苏晚晴与赵德昌：…写道——
        # 「苏晚晴遇到陈砚之」" answered a question of the two with a scene of one of them and someone else
        together = all(_names(first.quote, name) for name in pair)
        if turned or together:
            key = "novel.chat_answer_turn" if turned else "novel.chat_answer_passage"
            lines.append(t(key, who=who, chapter=first.chapter_number, scene=first.scene_number or "-", quote=first.quote))
        elif not asks_change:
            lines.append(t("novel.chat_answer_not_together", who=who))
    for event in events[:4]:
        # an event the passage above already quotes is not said again under it ("…scene 1 says — 'Silas Kerr
        # meets Kenji Mori'", then "Chapter 1: Silas Kerr meets Kenji Mori; …")
        # ("Chapter 1: Silas Kerr makes choice number 1" of a question about Kenji: no event of his)
        unsaid = [e for e in event.get("key_events") or [] if not any(e in line for line in lines)
                  and any(_names(e, name) for name in pair)]
        if who and event.get("key_events") and not unsaid:
            continue
        happened = join_clauses(unsaid if who else event.get("key_events") or []) or event.get("summary", "")
        if turn.get("chapter") and not who:
            if happened not in event.get("summary", ""):  # else the chapter line above said it already
                # under the line naming the chapter: its events, not the chapter's number a second time
                lines.append(t("novel.chat_answer_key_events", events=happened))
            continue
        lines.append(t("novel.chat_answer_event", chapter=event["chapter_number"], event=happened))
    lines += [turn["motive"]] if turn.get("motive") else []
    return "\n".join(lines) or t("novel.chat_answer_none", who=who)


# Quotes under an answer: the usual number, and the most a question asking for more is given.
_QUOTES = 3
_MOST_QUOTES = 6


@stage("answer")
async def answer(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    turn = state["turn"]
    files = WorkflowTool(novel_config(ctx.flow.tools), state["project_id"]).files
    ranked = _ranked_passages(turn, files)
    if ctx.llm.provider != "offline":
        numbered = "\n".join(f"- 第{p['chapter_number']}章：{p['text']}" for p in ranked)
        events = "\n".join([*(f"- {line}" for line in [*(turn.get("sheet") or []), *filter(None, [turn.get("motive")])]),
                            *(f"- 第{e['chapter_number']}章：{e.get('summary', '')}" for e in turn.get("events") or [])])
        draft = await ctx.llm.structured(
            AnswerDraft, role=ROLE, system=t("novel.chat_answer_system"),
            prompt=f"{turn['question']}\n\n{events}\n{numbered}",
            facts={"question": turn["question"], "passages": ranked, "events": turn.get("events") or []},
        )
        evidence, dropped = verify(files, [(c.chapter_number, c.quote.strip()) for c in draft.evidence])
        text = draft.answer
    else:
        # Candidates of our own (memory sentences, some from summaries): keep those found in the text,
        # and say nothing of the rest: no one claimed them.
        evidence, dropped = verify(files, [(p["chapter_number"], p["text"], p.get("scene_number")) for p in ranked])[0], 0
        if read.asks_first(turn["question"]):
            # a memory line has no scene until verified (it sorted as scene 0): "first appears" is the earliest scene
            evidence.sort(key=lambda e: (e.chapter_number, e.scene_number or 0))
        # every verified passage: a where- or whom-answer names what all of them show, the quotes are three
        text = compose_offline(turn, evidence)
    if turn.get("chapter") and not turn.get("subject"):
        evidence = _scene_by_scene(evidence)
    # "where is X now" is answered by the one latest scene: the places before it are not where X is; "给我看两段原文"
    # by two quotes, not the usual three
    latest_place = read.asks_where(turn["question"]) and read.asks_latest(turn["question"])
    evidence = evidence[:1 if latest_place else min(read.quotes_asked(turn["question"]) or _QUOTES, _MOST_QUOTES)]
    if dropped:
        ctx.log(t("novel.chat_quotes_dropped", count=dropped), level="warning")
    result = NovelAnswer(question=turn["question"], answer=text, evidence=evidence)
    artifact_id = ctx.artifact(key="novel_answer", type=ArtifactType.novel_answer, title=t("novel.answer_title"),
                               content=result, show_in_canvas=True, final=True)
    cited = _cited_lines(text, evidence)
    full = text + ("\n" + cited if cited else "")
    for start in range(0, len(full), 40):
        ctx.message(full[start:start + 40], final=False)
    ctx.log(t("novel.chat_answered", evidence=len(evidence)), artifact_id=artifact_id)
    return {"history": _say(ctx, state, full), "turn": None, "outcome": None}


def _cited_lines(answer_text: str, evidence: list[Evidence]) -> str:
    """The quotes cited under an answer, one a line; one the answer itself gives ("…第 1 章第 1 场写道——「…」") is
    not said a second time under it, nor a later scene recalling it ("他们想起了前事：周老四遇到江岚。" under
    「周老四遇到江岚」: the same line again)."""
    given = [e.quote.rstrip(_CLOSING) for e in evidence if t("novel.chat_quoted_word", word=e.quote) in answer_text]
    return "\n".join(t("novel.chat_evidence", chapter=e.chapter_number, scene=e.scene_number or "-", quote=e.quote)
                     for e in evidence if not any(quote and quote in e.quote for quote in given))


# ------------------------------------------------------------- plans and steps


def _needs_confirmation(plan: ToolPlan, auto: bool) -> bool:
    """/auto spares the confirmation of a run or a resume only (spec 000): a step confirmed for another reason (a
    preference only guessed to be one) is still asked about."""
    return any(s.requires_confirmation and (s.tool not in CONFIRMED_UNLESS_AUTO or s.args.get("force") or not auto)
               for s in plan.steps)


def restate(plan: ToolPlan, files: ProjectFiles | None = None) -> str:
    """The plan's steps, numbered; with the project's files, a run says what it does to the outline too."""
    return "\n".join(f"{i}. {step.summary}" for i, step in enumerate(described(plan, files).steps, 1))


def described(plan: ToolPlan, files: ProjectFiles | None = None) -> ToolPlan:
    """The plan with each step's summary in words: the canvas shows these, never a tool name and its JSON."""
    outline, limit = (files.status().outline_chapters, files.settings().max_chapters) if files else (0, None)
    return ToolPlan(steps=[step.model_copy(update={"summary": describe(step, outline, limit)}) for step in plan.steps])


def describe(step: ToolStep, outline: int = 0, limit: int | None = None) -> str:
    args = step.args
    if step.tool == "workflow.run":
        if args.get("chapters"):
            return t("novel.plan_rewrite_chapter", chapter=join_items(map(str, args["chapters"])))
        if not args.get("to_chapter"):  # "/run": the whole outline
            return t("novel.plan_run_force_all" if args.get("force") else "novel.plan_run_all")
        # What the workflow's outline stage does: a target past the project's limit stops at the limit,
        # and one past the outline's end extends the outline first.
        wanted = args["to_chapter"]
        to = min(wanted, limit) if limit else wanted
        line = t("novel.plan_run_force" if args.get("force") else "novel.plan_run", to=to)
        if 0 < outline < to:
            line = t("novel.plan_run_extends", step=line, outline=outline, to=to)
        if to < wanted:
            line = t("novel.plan_run_capped", step=line, wanted=wanted, max=to)
        return line
    if step.tool == "workflow.rollback":
        return t("novel.plan_rollback", to=args["to_chapter"])
    if step.tool == "preferences.add":
        return t("novel.plan_pref", content=args.get("content", ""))
    return t(f"novel.plan_{step.tool.split('.')[-1]}")


@stage("tool_plan")
async def present_plan(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    plan = ToolPlan.model_validate(state["plan"])
    files = WorkflowTool(novel_config(ctx.flow.tools), state["project_id"]).files
    artifact_id = ctx.artifact(key="tool_plan", type=ArtifactType.tool_plan, title=t("novel.plan_title"),
                               content=described(plan, files), show_in_canvas=True)
    if _needs_confirmation(plan, bool(state.get("auto"))):
        return {"outcome": "confirm"}  # the confirmation restates the steps: once is enough
    ctx.log(t("novel.plan_proposed", steps=restate(plan, files)), artifact_id=artifact_id)
    return {"outcome": "execute"}


@node("confirm_plan")
async def confirm_plan(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    plan = ToolPlan.model_validate(state["plan"])
    files = WorkflowTool(novel_config(ctx.flow.tools), state["project_id"]).files
    shown = described(plan, files)
    prompt = t("novel.plan_confirm", steps=restate(plan, files))
    # The action is said in words (the canvas shows it to the user); the tool names stay in `plan`.
    reply = interrupt({"kind": "confirmation", "payload": {
        "prompt": prompt, "action": shown.steps[0].summary, "plan": shown.model_dump(),
        "destructive": any(s.tool in DESTRUCTIVE or s.args.get("force") for s in plan.steps)}})
    if read.is_yes(reply):
        return {"outcome": "execute"}
    said = reply.strip() if isinstance(reply, str) else ""
    if said and not read.is_no(said):
        # Neither yes nor no but a command or a new request: the plan is dropped (nothing ran) and what
        # was typed is served, instead of being swallowed as a "no".
        return {"outcome": "redirect", "plan": None, "turn": None, "step": 0, "text": said,
                "history": _say(ctx, state, t("novel.plan_cancelled_for", text=said))}
    return {"outcome": "declined", "plan": None, "turn": None, "history": _say(ctx, state, t("novel.plan_declined"))}


@node("execute_plan")
async def execute_plan(state: ChatState, ctx: NodeContext) -> dict[str, Any]:
    """One step per superstep: a crash inside a long generation re-runs that step only (and it resumes)."""
    plan = ToolPlan.model_validate(state["plan"])
    index = state.get("step") or 0
    step = plan.steps[index]
    project_id = state["project_id"]
    workflow = WorkflowTool(novel_config(ctx.flow.tools), project_id)
    result: dict[str, Any] = {"tool": step.tool, **step.args}
    # Confirmed a while ago: a run started elsewhere since then is not written over.
    busy = workflow.running_elsewhere(ctx.thread_id, ctx.thread_running) if step.tool.startswith("workflow.") else None
    if busy:
        sentence = busy
    elif step.tool == "workflow.run":
        await workflow.run(ctx.config, step.args.get("to_chapter"), bool(step.args.get("force")), step.args.get("chapters"))
        sentence = status_sentence(_status_artifact(ctx, workflow))
    elif step.tool == "workflow.resume":
        done = await workflow.resume(ctx.config)
        sentence = status_sentence(_status_artifact(ctx, workflow)) if done is not None else t("novel.chat_nothing_to_resume")
    elif step.tool == "workflow.rollback":
        removed = workflow.rollback(step.args["to_chapter"])
        result["removed"] = removed
        sentence = t("novel.chat_rolled_back", to=step.args["to_chapter"], files=len(removed))
        _status_artifact(ctx, workflow)
    elif step.tool == "workflow.clean":
        removed = workflow.clean()
        result["removed"] = removed
        sentence = t("novel.chat_cleaned", files=len(removed))
    elif step.tool == "preferences.add":
        entry = PreferenceTool(novel_config(ctx.flow.tools), project_id).add(step.args.get("preference_type", "writing_style"), step.args["content"])
        sentence = t("novel.chat_prefs_added", type=pref_type(entry["preference_type"]), content=entry["content"])
    else:
        sentence = t("novel.chat_unknown_tool", tool=step.tool)
    results = (list(state.get("results") or []) + ([] if busy else [result]))[-RESULTS_KEPT:]
    last = index + 1 >= len(plan.steps)
    update: dict[str, Any] = {"results": results, "step": index + 1, "history": _say(ctx, state, sentence)}
    if last:
        update.update(plan=None, turn=None, outcome=None)
    return update


# ---------------------------------------------------------------------- routing


def _after_start(state: ChatState) -> str:
    if not state.get("started"):
        return "startup"
    return _route_message(state)


def _route_message(state: ChatState) -> str:
    text = (state.get("text") or "").strip()
    if not text:
        return END
    return "slash_command" if text.startswith("/") else "understand"


def _after_startup(state: ChatState) -> str:
    # the start-up greeting is the project's status: a first "/status" would only say it again
    command = read.parse_slash(state.get("text") or "")
    if command is not None and command.name == "/status":
        return END
    return _route_message(state)


def _after_slash(state: ChatState) -> str:
    return "tool_plan" if state.get("plan") else END


def _after_understand(state: ChatState) -> str:
    return {"ask": "clarify", "plan": "tool_plan", "answer": "answer"}.get(state.get("outcome") or "", END)


def _after_clarify(state: ChatState) -> str:
    return "slash_command" if state.get("turn") is None and (state.get("text") or "").startswith("/") else "understand"


def _after_plan(state: ChatState) -> str:
    return "confirm_plan" if state.get("outcome") == "confirm" else "execute_plan"


def _after_confirm(state: ChatState) -> str:
    if state.get("outcome") == "redirect":
        return _route_message(state)
    return "execute_plan" if state.get("outcome") == "execute" else END


def _after_step(state: ChatState) -> str:
    return "execute_plan" if state.get("plan") else END


def build_graph() -> StateGraph:
    graph = StateGraph(ChatState, context_schema=FlowContext)
    for name, fn in (("startup", startup), ("slash_command", slash_command), ("understand", understand),
                     ("clarify", clarify), ("answer", answer), ("tool_plan", present_plan),
                     ("confirm_plan", confirm_plan), ("execute_plan", execute_plan)):
        graph.add_node(name, fn)
    graph.add_conditional_edges(START, _after_start, ["startup", "slash_command", "understand", END])
    graph.add_conditional_edges("startup", _after_startup, ["slash_command", "understand", END])
    graph.add_conditional_edges("slash_command", _after_slash, ["tool_plan", END])
    graph.add_conditional_edges("understand", _after_understand, ["clarify", "tool_plan", "answer", END])
    graph.add_conditional_edges("clarify", _after_clarify, ["slash_command", "understand"])
    graph.add_edge("answer", END)
    graph.add_conditional_edges("tool_plan", _after_plan, ["confirm_plan", "execute_plan"])
    graph.add_conditional_edges("confirm_plan", _after_confirm, ["execute_plan", "slash_command", "understand", END])
    graph.add_conditional_edges("execute_plan", _after_step, ["execute_plan", END])
    return graph


# ------------------------------------------------------------- flow definition


def _turn_input(text: str) -> dict[str, Any]:
    return {"text": understood(text), "turn": None, "plan": None, "step": 0, "outcome": None}


def initial_input(text: str, options: Mapping[str, Any]) -> ChatState:
    return ChatState(project_id=str(options["projectId"]), started=False, auto=False, history=[], references={},
                     results=[], **_turn_input(text))


async def continue_thread(view: ThreadView, text: str, options: Mapping[str, Any], llm: LLM) -> Continuation:
    if view.pending_interrupt is not None:
        if view.pending_interrupt.get("kind") == "confirmation":
            # yes / no as such; anything else (a command, a new request) goes on as typed: see confirm_plan
            said = text.strip()
            return ResumeWith(said if said and not (read.is_yes(said) or read.is_no(said)) else read.is_yes(said))
        return ResumeWith(text)
    return StartFresh(_turn_input(text))


def check_options(options: Mapping[str, Any], tools: Mapping[str, Any], text: str = "") -> None:
    check_project_option(options, tools)


FLOW = FlowDefinition(
    name="novel",
    title="小说助手 Novel assistant",
    description="Chat over a NovelGen project: progress, preferences, generation with confirmation, cited answers.",
    build_graph=build_graph,
    initial_input=initial_input,
    continue_thread=continue_thread,
    check_options=check_options,
    option_names=frozenset({"projectId"}),
    thread_title=lambda text: first_line_title(text) or t("novel.chat_thread_title"),
    # a chat whose messages say nothing yet ("/help") is named by its project beside the flow ("雾港 · 小说助手")
    subject_option="projectId",
)
