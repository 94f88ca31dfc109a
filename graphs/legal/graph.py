"""The legal flow (spec 002): classify → route → specialists (in parallel per field of law) →
orchestrate (merge, check every citation, stream, disclaimer) → finish (trace).

- `classify`: status{classifying}; rules first, the model only below RULES_THRESHOLD.
- `route`: picks the agents, one task per field of law when the question touches several, and
  emits agent-selected for each; conditional edges fan the tasks out with `Send`.
- `legal_research` / `case_analysis`: one task each, with its own time limit; a failure or a
  timeout is a result ("all settled"), never an exception that stops the others.
- `orchestrate`: merges what succeeded, names what is unavailable, falls back to the general agent
  when every specialist failed, checks citations, then streams the answer.
- `document_draft` ⇄ `ask_fields`: template, fields, missing fields via `clarification` interrupts,
  Markdown + .docx. Research hands over to it when the user also asks for a document.
- `general`: plain chat, no disclaimer. `finish`: the trace as a `trace` artifact.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import operator
import re
import time
import uuid
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send, interrupt

from core.i18n import join_items, t
from core.language import CJK, understood
from core.legal import LegalKnowledge
from core.legal.intent import RULES_THRESHOLD, classify_by_rules, settle_intent, settled_by_rules
from core.legal.statutes import find_citations, in_chinese_citations, short_excerpt
from core.legal.terms import expand
from core.legal.templates import PLACEHOLDER, TEMPLATES, in_document_form, named_document, template_for, user_parties
from graphs.base import FlowContext
from graphs.hooks import NodeContext, node
from graphs.legal import offline as _offline  # noqa: F401  registers the offline composers
from graphs.legal import prompts
from graphs.legal.agents import AGENTS, AgentOutcome, SharedContext, run_general, skipped_note
from graphs.legal.citations import apply_checks, basis_section
from schemas.events import USE_DEFAULTS, ArtifactType, InterruptRequest
from schemas.legal import AgentRun, DraftFields, IntentResult, LegalAnswer, LegalDocument, Trace, TraceStep

MAX_PARALLEL_DOMAINS = 3
MAX_DRAFT_ROUNDS = 3
STREAM_CHUNK = 40
RESEARCH_INTENTS = {"legal_consultation", "regulation_query", "contract_review"}
ANSWER_KEY, DOCUMENT_KEY, TRACE_KEY = "legal_answer", "legal_document", "trace"


class LegalState(TypedDict, total=False):
    text: str
    trace_id: str
    classification: dict[str, Any]
    context: dict[str, Any]
    tasks: list[dict[str, Any]]
    # Both lists keep every request of the thread; readers filter by the current trace_id.
    results: Annotated[list[dict[str, Any]], operator.add]
    trace: Annotated[list[dict[str, Any]], operator.add]
    handover: str | None
    draft: dict[str, Any]
    pending: list[dict[str, Any]]
    # The thread's previous question: a follow-up ("那我能要求赔偿吗？") is read together with it.
    previous: str | None
    # Its field of law: a follow-up that names none of its own ("能要求赔偿多少") stays in it.
    previous_category: str | None


def initial_input(text: str, options: Mapping[str, Any], previous: str | None = None,
                  previous_category: str | None = None) -> LegalState:
    return LegalState(text=understood(text).strip(), trace_id=uuid.uuid4().hex, classification={}, context={}, tasks=[],
                      handover=None, draft={}, pending=[], previous=previous, previous_category=previous_category)


_FOLLOW_UP_OPENERS = ("那", "那么", "如果", "要是", "假如", "还有", "另外", "这种", "这个", "这样", "此外", "他", "她",
                      "对方", "然后", "可是", "但是", "可以", "能不能", "能否", "是否", "会不会")


def with_previous(text: str, previous: str | None) -> str:
    """The question to work on: a short follow-up that leans on the previous one gets it in front."""
    if not previous or len(text) > 60:
        return text
    rules = classify_by_rules(text)
    if rules.intent == "general_chat" and rules.confidence >= RULES_THRESHOLD:
        return text  # 你好, 谢谢: small talk, not a follow-up
    # It opens like a follow-up, or it names no field of law of its own ("需要什么证据？").
    leans = text.startswith(_FOLLOW_UP_OPENERS) or rules.category == "other"
    return f"{previous}\n{text}" if leans else text


@lru_cache(maxsize=1)
def _default_knowledge() -> LegalKnowledge:
    from core.settings import Settings

    return LegalKnowledge.from_settings(Settings())


def knowledge_of(ctx: NodeContext) -> LegalKnowledge:
    """The runtime hands it over as a tool (built from settings); headless runs build the default."""
    return ctx.flow.tools.get("legal") or _default_knowledge()


def step(trace_id: str, kind: str, name: str, *, status: str = "ok", input: Any = None, output: Any = None,
         duration_ms: int = 0) -> dict[str, Any]:
    record = TraceStep(kind=kind, name=name, status=status, input=input, output=output, durationMs=duration_ms,
                       at=time.time()).model_dump(mode="json")
    return {**record, "traceId": trace_id}


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def domain_label(domain: str | None) -> str:
    return t(f"legal.category_{domain or 'other'}")


# ---------------------------------------------------------------- classify and route


async def classify_text(text: str, llm: Any) -> IntentResult:
    """Layer 1 rules; at ≥ RULES_THRESHOLD no model call. Layer 2 the model (structured output)."""
    rules = classify_by_rules(text)
    if rules.confidence >= RULES_THRESHOLD:
        return IntentResult(intent=rules.intent, category=rules.category, confidence=rules.confidence,
                            entities=rules.entities, domains=rules.domains, via="rules")
    try:
        result = await llm.structured(IntentResult, role="legal_intent", system=prompts.INTENT_SYSTEM,
                                      prompt=f"用户消息：{text}", facts={"text": text})
    except Exception:
        # The model is unreachable: the rules' best guess still routes the question somewhere useful.
        intent, confidence = settled_by_rules(text) if settle_intent(rules.intent, text) != rules.intent \
            else (rules.intent, rules.confidence)
        return IntentResult(intent=intent, category=rules.category, confidence=confidence, entities=rules.entities,
                            domains=rules.domains, via="rules_model_failed")
    result = result.model_copy(update={"via": "model"})
    if settle_intent(result.intent, text) != result.intent:
        # The rules overrode the model: what is shown is their intent and their confidence, not the model's in
        # the intent they ruled out.
        intent, confidence = settled_by_rules(text)
        # Said as a correction, not as "no model call": the model did run.
        result = result.model_copy(update={"intent": intent, "confidence": confidence, "via": "rules_over_model"})
    domains = [] if result.intent == "general_chat" else list(dict.fromkeys([result.category, *result.domains,
                                                                             *rules.domains]))
    domains = [d for d in domains if d != "other"] or ([] if result.intent == "general_chat" else [result.category])
    return result.model_copy(update={"domains": domains, "entities": list(dict.fromkeys([*result.entities,
                                                                                        *rules.entities]))})


def needs_chinese(text: str, llm: Any) -> bool:
    """The statutes are Chinese text: without a model to carry a question across, one with no Chinese
    in it finds only unrelated articles, so the user is asked to put it in Chinese instead, unless the
    glossary knows its words (deposit → 押金, probation → 试用期) and searches in the statutes' own, or it
    cites an article by a law's English name (Article 1087 of the Civil Code)."""
    return (llm.provider == "offline" and not CJK.search(text) and bool(re.search(r"[A-Za-z]{3,}", text))
            and not expand(text).terms and in_chinese_citations(text) == text)


@node("classify")
async def classify(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    ctx.status("classifying")
    started = time.perf_counter()
    question = with_previous(state["text"], state.get("previous"))
    if question != state["text"]:
        ctx.log(t("legal.follow_up", previous=short_excerpt(state["previous"] or "", 40)))
    result = await classify_text(question, ctx.llm)
    kept = state.get("previous_category")
    if question != state["text"] and result.category == "other" and kept and result.intent != "general_chat":
        result = result.model_copy(update={"category": kept, "domains": [kept]})
    fields = join_items(domain_label(d) for d in (result.domains or [result.category]))
    ctx.log(t("legal.classified", intent=t(f"legal.intent_{result.intent}"), category=fields,
              confidence=round(result.confidence * 100), via=t(f"legal.via_{result.via}")))
    shared = SharedContext(question=question, intent=result.intent, category=result.category,
                           domains=list(result.domains), entities=list(result.entities))
    record = step(state["trace_id"], "classification", result.via, input=state["text"][:200],
                  output=result.model_dump(mode="json"), duration_ms=_ms(started))
    ctx.status("running")  # the intent is known: the thread is no longer "working out the intent"
    return {"classification": result.model_dump(mode="json"), "context": shared.as_dict(), "trace": [record]}


def plan_tasks(classification: Mapping[str, Any]) -> list[dict[str, Any]]:
    intent = classification["intent"]
    domains = list(classification.get("domains") or [])[:MAX_PARALLEL_DOMAINS] or [classification["category"]]
    if intent == "general_chat":
        return [{"agent": "general", "domain": None, "mode": "chat"}]
    if intent == "document_draft":
        return [{"agent": "document_draft", "domain": classification["category"], "mode": "draft"}]
    if intent == "case_search":
        return [{"agent": "case_analysis", "domain": d, "mode": "answer"} for d in domains]
    if intent == "contract_review":
        return [{"agent": "legal_research", "domain": classification["category"], "mode": "review"}]
    return [{"agent": "legal_research", "domain": d, "mode": "answer"} for d in domains]


@node("route")
async def route(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    classification = state["classification"]
    tasks = plan_tasks(classification)
    # Drafting searches no statute: its fields are read from English words too (`FIELD_PATTERNS`).
    # In a worker thread: the glossary read over a long story would hold up every other client of the server.
    if tasks[0]["agent"] != "document_draft" and await asyncio.to_thread(needs_chinese, state["text"], ctx.llm):
        tasks = [{"agent": "general", "domain": None, "mode": "chat"}]
    for task in tasks:
        ctx.agent_selected(task["agent"], classification["confidence"], intent=classification["intent"],
                           category=task["domain"] or classification["category"])
    if len(tasks) > 1:
        ctx.log(t("legal.parallel", count=len(tasks), domains=join_items(domain_label(x["domain"]) for x in tasks)))
    record = step(state["trace_id"], "routing", "route", input=classification["intent"],
                  output=[f"{x['agent']}:{x['domain'] or '-'}:{x['mode']}" for x in tasks])
    return {"tasks": tasks, "trace": [record]}


def after_route(state: LegalState) -> list[Send] | str:
    tasks = state.get("tasks") or []
    if tasks and tasks[0]["agent"] == "general":
        return "general"
    if tasks and tasks[0]["agent"] == "document_draft":
        return "document_draft"
    return [Send(task["agent"], {"task": task, "context": state["context"], "trace_id": state["trace_id"]})
            for task in tasks]


# ---------------------------------------------------------------- specialists


async def run_task(payload: Mapping[str, Any], ctx: NodeContext) -> dict[str, Any]:
    """One specialist on one field of law, within its time limit; always settles with a result."""
    task, trace_id = payload["task"], payload["trace_id"]
    shared = SharedContext.from_dict(payload["context"])
    knowledge = knowledge_of(ctx)
    agent = AGENTS[task["agent"]]
    if not knowledge.ready:
        # The index is still being built (the first minute after start-up): that wait is not the
        # specialist's slowness, so it does not count against its time limit. Only a build is worth
        # a sentence; loading one already on disk takes a couple of seconds, every run.
        if not knowledge.built:
            ctx.log(t("legal.index_building"))
        with contextlib.suppress(Exception):  # a failed build is met below as a failed tool
            await asyncio.to_thread(knowledge.warm)
    started = time.perf_counter()
    outcome, status = None, "done"
    try:
        outcome = await asyncio.wait_for(agent.run(shared, ctx, knowledge, domain=task["domain"], mode=task["mode"]),
                                         timeout=knowledge.agent_timeout_s)
    except TimeoutError:
        status = "timeout"
    except Exception:  # a failed specialist is a result; the orchestrator decides what the user sees
        status = "failed"
    duration = _ms(started)
    if status != "done":
        ctx.log(t("legal.agent_unavailable", agent=t(f"legal.agent_{agent.name}"), part=domain_label(task["domain"])),
                level="warning")
    result = {"traceId": trace_id, "agent": agent.name, "domain": task["domain"], "mode": task["mode"],
              "status": status, "durationMs": duration, "text": outcome.text if outcome else "",
              "skipped": outcome.skipped_tools if outcome else [], "facts": outcome.facts if outcome else []}
    records = [step(trace_id, "agent", agent.name, status="ok" if status == "done" else status,
                    input={"domain": task["domain"], "mode": task["mode"], "role": agent.role},
                    output=t("legal.trace_answer_length", count=len(result["text"])), duration_ms=duration)]
    for call in (outcome.tool_calls if outcome else []):
        records.append(step(trace_id, "tool", call["name"], status=call["status"] if call["status"] == "ok" else "failed",
                            input=call["input"], output=call["output"], duration_ms=call["durationMs"]))
    for name in result["skipped"]:
        records.append(step(trace_id, "tool", name, status="skipped",
                            output=t("legal.tool_skipped", tool=t(f"legal.tool_{name}"))))
    return {"results": [result], "trace": records}


def _task_field(payload: Mapping[str, Any]) -> str | None:
    """The field of law a specialist's call covers: two side by side read apart in the timeline."""
    domain = (payload.get("task") or {}).get("domain")
    return domain_label(domain) if domain else None


@node("legal_research", about=_task_field)
async def legal_research(state: dict[str, Any], ctx: NodeContext) -> dict[str, Any]:
    return await run_task(state, ctx)


@node("case_analysis", about=_task_field)
async def case_analysis(state: dict[str, Any], ctx: NodeContext) -> dict[str, Any]:
    return await run_task(state, ctx)


# ---------------------------------------------------------------- answer


def stream_answer(ctx: NodeContext, text: str) -> None:
    for start in range(0, len(text), STREAM_CHUNK):
        ctx.message(text[start:start + STREAM_CHUNK], final=False)
    ctx.message(text, final=True)


def wants_document(text: str) -> bool:
    return bool(re.search(r"(写|起草|拟|发)[^。？?]{0,8}(律师函|起诉状|申请书|催款函|警告函)", text))


def near_same(cited: frozenset, other: frozenset) -> bool:
    """Two sections that cite mostly the same articles (two of three or more, whatever the order) say the same."""
    shared = len(cited & other)
    return cited == other or (shared >= 2 and shared * 3 >= min(len(cited), len(other)) * 2)


def merged_sections(succeeded: list[dict[str, Any]]) -> list[tuple[frozenset, str, list[str]]]:
    """One section per distinct answer, under the names of every field that gave it (the first field's text).

    Fields whose searches found the same articles read as one: an English question that cannot be cut by field came
    back three times under three headings, and a rider's injury, searched as labour, tort and contract, cited 36, 41
    and 1192 in each, one section holding a fourth article the others did not."""
    sections: list[tuple[frozenset, str, list[str]]] = []
    for r in succeeded:
        cited = frozenset((law, article) for _, law, article in find_citations(r["text"])) or frozenset([r["text"]])
        same = next((section for section in sections if near_same(cited, section[0])), None)
        if same is None:
            sections.append((cited, r["text"], [domain_label(r["domain"])]))
        else:
            same[2].append(domain_label(r["domain"]))
    return sections


@node("orchestrate")
async def orchestrate(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    trace_id, classification = state["trace_id"], state["classification"]
    results = [r for r in state.get("results") or [] if r["traceId"] == trace_id]
    succeeded = [r for r in results if r["status"] == "done" and r["text"]]
    records: list[dict[str, Any]] = []
    runs = [AgentRun(agent=r["agent"], domain=r["domain"], status=r["status"], durationMs=r["durationMs"],
                     note="" if r["status"] == "done" else t("legal.part_unavailable", part=domain_label(r["domain"])))
            for r in results]
    unavailable = [run.note for run in runs if run.note]
    if not succeeded:
        # Every specialist failed: the general agent gives a basic answer and a suggestion.
        started = time.perf_counter()
        shared = SharedContext.from_dict(state["context"])
        try:
            fallback = await run_general(shared, ctx, mode="fallback")
            body, status = fallback.text, "done"
        except Exception:
            body, status = t("legal.fallback_basic"), "failed"
        body = f"{body}\n\n{t('legal.fallback_suggestion')}"
        runs.append(AgentRun(agent="general", status=status, durationMs=_ms(started), note=t("legal.fallback_used")))
        records.append(step(trace_id, "fallback", "general", status="ok" if status == "done" else "failed",
                            output=t("legal.fallback_used"), duration_ms=_ms(started)))
        ctx.log(t("legal.fallback_used"), level="warning")
    else:
        sections = merged_sections(succeeded)
        if len(sections) == 1:
            body = succeeded[0]["text"]
        else:
            intro = t("legal.merged_intro", parts=join_items(domain_label(r["domain"]) for r in succeeded))
            body = intro + "\n\n" + "\n\n".join(f"### {join_items(labels)}\n\n{text}" for _, text, labels in sections)
    notes = [skipped_note(r["skipped"]) for r in results if r["skipped"]]
    if unavailable and succeeded:
        notes.append("\n".join(f"> {sentence}" for sentence in unavailable))
    if notes:
        body = body + "\n\n" + "\n".join(n for n in notes if n)

    started = time.perf_counter()
    knowledge = knowledge_of(ctx)
    try:
        checked, citations, removed = await asyncio.to_thread(apply_checks, body, knowledge.statutes)
    except Exception:
        # Without the corpus nothing can be verified: no citation may be shown as verified.
        checked, citations, removed = body, [], []
        checked += "\n\n" + t("legal.citations_unchecked")
    records.append(step(trace_id, "citations", "check_citations",
                        output={"kept": [c.asWritten for c in citations], "removed": [c.asWritten for c in removed]},
                        duration_ms=_ms(started)))
    if removed:
        ctx.log(t("legal.citations_removed", count=len(removed)), level="warning")
    basis = basis_section(citations, removed, checked)
    disclaimer = t("legal.disclaimer")
    answer = "\n\n".join(part for part in (checked.strip(), basis, f"---\n{disclaimer}") if part)
    stream_answer(ctx, answer)
    handover = "document_draft" if classification["intent"] in RESEARCH_INTENTS and wants_document(state["text"]) else None
    content = LegalAnswer(intent=classification["intent"], category=classification["category"],
                          domains=list(classification.get("domains") or []), answer=answer, citations=citations,
                          removedCitations=removed, agents=runs, unavailable=unavailable, disclaimer=disclaimer,
                          traceId=trace_id)
    ctx.artifact(key=ANSWER_KEY, type=ArtifactType.legal_answer, title=t("legal.answer_title"), content=content,
                 show_in_canvas=True, final=handover is None)
    context = dict(state["context"])
    if handover:
        context["facts"] = [f for r in succeeded for f in r["facts"]]
        records.append(step(trace_id, "handover", "legal_research→document_draft", output=context["facts"][:4]))
        ctx.log(t("legal.handover"))
    return {"trace": records, "handover": handover, "context": context}


def after_orchestrate(state: LegalState) -> str:
    return "document_draft" if state.get("handover") == "document_draft" else "finish"


@node("general")
async def general(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    started = time.perf_counter()
    shared = SharedContext.from_dict(state["context"])
    # Small talk ("Hello, what can you do?") is answered in any language: no statute is searched for it.
    if state["classification"]["intent"] != "general_chat" and await asyncio.to_thread(needs_chinese, state["text"], ctx.llm):
        outcome = AgentOutcome(text=t("legal.ask_in_chinese"))
    else:
        outcome = await run_general(shared, ctx, mode="chat")
    stream_answer(ctx, outcome.text)
    classification = state["classification"]
    run = AgentRun(agent="general", status="done", durationMs=_ms(started))
    content = LegalAnswer(intent=classification["intent"], category=classification["category"], domains=[],
                          answer=outcome.text, citations=[], agents=[run], disclaimer=None, traceId=state["trace_id"])
    ctx.artifact(key=ANSWER_KEY, type=ArtifactType.legal_answer, title=t("legal.answer_title"), content=content,
                 show_in_canvas=True, final=True)
    return {"trace": [step(state["trace_id"], "agent", "general", output=t("legal.trace_answer_length", count=len(outcome.text)),
                           duration_ms=run.durationMs)]}


# ---------------------------------------------------------------- drafting


def docx_bytes(markdown: str) -> bytes:
    from docx import Document

    document = Document()
    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        heading = re.match(r"^(#{1,3})\s+(.*)$", stripped)
        if heading:
            document.add_heading(heading.group(2), level=len(heading.group(1)) - 1 if len(heading.group(1)) > 1 else 0)
            continue
        paragraph = document.add_paragraph()
        for piece in re.split(r"(\*\*[^*]+\*\*)", stripped):
            if piece.startswith("**") and piece.endswith("**"):
                paragraph.add_run(piece[2:-2]).bold = True
            elif piece:
                paragraph.add_run(piece)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _questions(missing: list[str], template_id: str | None, text: str = "") -> list[dict[str, Any]]:
    if template_id is None:
        # Names in the user's language; an answer of one is read back by `template_for` (its keywords hold both).
        options = [tpl.name for tpl in TEMPLATES.values()]
        return [{"id": "template", "question": t("legal.ask_template", options=join_items(options)),
                 "options": options, "label": t("legal.draft_type_label"), "blocking": True}]
    template = TEMPLATES[template_id]
    # The party the user is ("I lent…": the lender) is asked as the user's own name, not as a stranger's.
    own = set(user_parties(template, text))
    return [{"id": key, "question": t("legal.ask_own_field" if key in own else "legal.ask_field", label=template.label(key)),
             "label": template.label(key), "blocking": True} for key in missing[:3]]


@node("document_draft")
async def document_draft(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    trace_id = state["trace_id"]
    draft = dict(state.get("draft") or {})
    records: list[dict[str, Any]] = []
    if not draft:
        started = time.perf_counter()
        template = template_for(state["text"])
        wanted = named_document(state["text"])
        if template is None and wanted:
            # A document we have no template for: say so, rather than ask for a type or draft another one.
            stream_answer(ctx, t("legal.draft_unsupported", document=wanted,
                                 available=join_items(x.name for x in TEMPLATES.values())))
            return {"draft": {}, "pending": [], "trace": [step(trace_id, "tool", "extract_fields", status="skipped",
                                                               input=state["text"][:200], output=wanted)]}
        extracted = await ctx.llm.structured(
            DraftFields, role="legal_draft", system=prompts.DRAFT_SYSTEM, prompt=f"用户消息：{state['text']}",
            facts={"text": state["text"], "template": template.id if template else None})
        fields = {k: v for k, v in extracted.values.items() if v and v.strip()}
        handed = (state.get("context") or {}).get("facts") or []
        if handed and template is not None and "facts" in {f.key for f in template.fields}:
            # The research's articles go with the facts, whether the request told them or not.
            told = fields.get("facts") or state["text"]
            fields["facts"] = told + "\n\n" + t("legal.handover_basis") + "\n" + "\n".join(f"- {f}" for f in handed)
        draft = {"template": template.id if template else None, "fields": fields, "rounds": 0, "defaults": False}
        records.append(step(trace_id, "tool", "extract_fields", input=state["text"][:200],
                            output=[template.label(k) if template else k for k in sorted(fields)],
                            duration_ms=_ms(started)))
        ctx.log(t("legal.draft_type", title=template.name if template else t("legal.draft_type_unknown")))
    template_id = draft.get("template")
    missing = TEMPLATES[template_id].missing(draft["fields"]) if template_id else ["template"]
    if missing and not draft.get("defaults") and draft.get("rounds", 0) < MAX_DRAFT_ROUNDS:
        questions = _questions(missing, template_id, state["text"])
        labels = [TEMPLATES[template_id].label(k) for k in missing] if template_id else [t("legal.draft_type_label")]
        ctx.log(t("legal.draft_missing", fields=join_items(labels)))
        return {"draft": draft, "pending": questions, "trace": records}
    if template_id is None:  # the user never named a document type: the one most asked for
        template_id = "lawyer_letter"
    template = TEMPLATES[template_id]
    markdown = template.render(draft["fields"])
    still_missing = template.missing(draft["fields"])
    started = time.perf_counter()
    data = await asyncio.to_thread(docx_bytes, markdown)
    records.append(step(trace_id, "tool", "create_document", input=template.id, output=t("legal.trace_document_made", size=max(1, round(len(data) / 1024))),
                        duration_ms=_ms(started)))
    title = template.document_name(draft["fields"], locale="zh")  # the document's own (Chinese) heading
    content = LegalDocument(template=template.id, title=title, fields=draft["fields"],
                            missingFields=still_missing, missingLabels=[template.label(k) for k in still_missing],
                            markdown=markdown, traceId=trace_id)
    ctx.artifact(key=DOCUMENT_KEY, type=ArtifactType.legal_document, title=title, content=content,
                 show_in_canvas=True, final=True, file=data, file_name=f"{title}.docx",
                 mime_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    note = t("legal.draft_done", title=template.document_name(draft["fields"]))
    untranslated = template.untranslated(draft["fields"])
    if untranslated:
        note += " " + t("legal.draft_untranslated", fields=join_items(template.label(k) for k in untranslated))
    marked = template.placeholders(draft["fields"])  # optional ones too (证据, 日期): the reader fills them in
    if marked:
        note += " " + t("legal.draft_placeholders", placeholder=PLACEHOLDER,
                        fields=join_items(template.label(k) for k in marked))
    stream_answer(ctx, f"{note}\n\n---\n{t('legal.draft_disclaimer')}")
    return {"draft": {**draft, "template": template_id}, "pending": [], "trace": records}


@node("ask_fields")
async def ask_fields(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    pending = state.get("pending") or []
    draft = dict(state.get("draft") or {})
    payload = {"questions": pending, "round": draft.get("rounds", 0) + 1, "maxRounds": MAX_DRAFT_ROUNDS,
               "answerFormat": t("legal.answer_format", placeholder=PLACEHOLDER)}
    # Nothing before this line may have side effects: the node re-runs from the top on resume.
    reply = interrupt(InterruptRequest(kind="clarification", payload=payload).model_dump())
    fields = dict(draft.get("fields") or {})
    if isinstance(reply, str) and _skips(reply):
        draft["defaults"] = True
    elif isinstance(reply, Mapping):
        for key, value in reply.items():
            value = str(value or "").strip()
            if _skips(value):  # this field skipped, the typed ones kept: the draft marks it, nothing is asked again
                draft["defaults"] = True
            if not value or _skips(value):
                continue
            if key == "template":
                chosen = template_for(value)
                draft["template"] = chosen.id if chosen else draft.get("template")
            else:  # an answer in English is written into the Chinese document as its sums and dates are
                fields[key] = in_document_form(key, value)
    elif isinstance(reply, str) and pending:
        fields[pending[0]["id"]] = in_document_form(pending[0]["id"], reply.strip())
    draft.update(fields=fields, rounds=draft.get("rounds", 0) + 1)
    return {"draft": draft, "pending": []}


def _skips(said: str) -> bool:
    """Whether an answer (the whole reply or one field's) asks to go on without it."""
    return said.strip().lower() in {USE_DEFAULTS, "默认", "跳过"}


def after_draft(state: LegalState) -> str:
    return "ask_fields" if state.get("pending") else "finish"


# ---------------------------------------------------------------- trace


@node("finish")
async def finish(state: LegalState, ctx: NodeContext) -> dict[str, Any]:
    trace_id = state["trace_id"]
    steps = [TraceStep(**{k: v for k, v in s.items() if k != "traceId"})
             for s in state.get("trace") or [] if s.get("traceId") == trace_id]
    trace = Trace(traceId=trace_id, threadId=ctx.thread_id, request=state["text"], steps=steps)
    ctx.artifact(key=TRACE_KEY, type=ArtifactType.trace, title=t("legal.trace_title"), content=trace)
    return {}


def build_graph() -> StateGraph:
    graph = StateGraph(LegalState, context_schema=FlowContext)
    for name, fn in (("classify", classify), ("route", route), ("legal_research", legal_research),
                     ("case_analysis", case_analysis), ("orchestrate", orchestrate), ("general", general),
                     ("document_draft", document_draft), ("ask_fields", ask_fields), ("finish", finish)):
        graph.add_node(name, fn)
    graph.add_edge(START, "classify")
    graph.add_edge("classify", "route")
    graph.add_conditional_edges("route", after_route, ["legal_research", "case_analysis", "general", "document_draft"])
    graph.add_edge("legal_research", "orchestrate")
    graph.add_edge("case_analysis", "orchestrate")
    graph.add_conditional_edges("orchestrate", after_orchestrate, ["document_draft", "finish"])
    graph.add_conditional_edges("document_draft", after_draft, ["ask_fields", "finish"])
    graph.add_edge("ask_fields", "document_draft")
    graph.add_edge("general", "finish")
    graph.add_edge("finish", END)
    return graph
