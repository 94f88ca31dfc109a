"""The PPT pipeline (spec 001): six stages, each a hooked node, ending in the slide DSL and a .pptx.

`route_request` (START) reads a message sent to a finished deck (`feedback`) and routes to the stage it
targets, so the classification (rules, else a model call) runs inside the graph, never on the ack path.
Edits of the deck as a whole run only what they need: `add_slides` (a new page's script and design),
`remove_slides` (drop and renumber), `move_slides` (reorder and renumber), `change_language` (the stages whose text is in the deck's language).

`generate_slides` runs a small page subgraph: every page is a task of one superstep, LLM_CONCURRENCY
at a time, and each finished page is checkpointed as it finishes, so a crash at page 7 resumes at
page 7 and no page waits for a slower one. The theme stage runs beside the outline and the slide scripts.
"""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command, Send

from core.llm.base import LLM

from graphs.base import FlowContext
from graphs.hooks import NodeContext, node, stage
from graphs.ppt import offline as _offline  # noqa: F401  registers the offline composers
from graphs.ppt import prompts
from graphs.ppt.design import deck_part_named, design_slide, merge_with_draft
from graphs.ppt.planning import (
    ADD_SLIDES,
    CHANGE_LANGUAGE,
    MIN_SLIDES_LEFT,
    PIPELINE_NODES,
    MOVE_SLIDES,
    REMOVE_SLIDES,
    STAGES,
    FeedbackIntent,
    asks_for_new_deck,
    classify_by_rules,
    audience_hint,
    deck_setting,
    capitalised,
    Colour,
    title_limit,
    REVISE_PAGES,
    colour_named,
    deck_file_name,
    duration_hint,
    MAX_SLIDES,
    MIN_SLIDES,
    hue_of,
    language_of,
    layout_asked,
    names_a_topic,
    narration_budget,
    palette_for,
    requested_minutes,
    short_title,
    slide_count_for,
    slide_count_hint,
    wants_simpler,
)
from core.i18n import join_items, join_sentences, language_name, t
from core.tools.office_preview import data_url
from core.language import understood
from graphs.ppt.qa import qa_summary, spoken_minutes
from graphs.ppt.render import prepare
from graphs.ppt.render_pool import gate_deck, render_deck
from graphs.ppt.render.text import plain
from schemas.events import ArtifactType
from schemas.ppt import (
    CourseConfig,
    DeckPreview,
    PptxSummary,
    PresentationTheme,
    SlideDeck,
    SlideScript,
    SlideScripts,
    SlideSpec,
    TopicAnalysis,
    VideoOutline,
)


class PptState(TypedDict, total=False):
    request: str
    feedback: str | None
    feedback_stage: str | None
    # Every refinement applied to this deck, oldest first ({stage, feedback, pages}): a stage re-run
    # later still honours what was asked of it before (a colour chosen earlier stays).
    refinements: list[dict[str, Any]]
    change_note: str | None  # what this run's refinement changed, said in the chat when the deck is ready
    analysis: dict[str, Any]
    search: dict[str, Any] | None
    course_config: dict[str, Any]
    video_outline: dict[str, Any]
    slide_scripts: dict[str, Any]
    theme: dict[str, Any]
    deck: dict[str, Any]


def initial_input(text: str, options: dict[str, Any]) -> PptState:
    """A full, fresh state: a new topic on an old thread must not inherit the old deck."""
    return PptState(
        request=understood(text), feedback=None, feedback_stage=None, refinements=[], change_note=None, analysis={}, search=None,
        course_config={}, video_outline={}, slide_scripts={}, theme={}, deck={},
    )


def feedback_input(text: str) -> PptState:
    """A message on a finished deck: `route_request` decides whether it refines the deck or starts anew."""
    return PptState(feedback=understood(text), feedback_stage=None)


def feedback_for(state: PptState, stage_name: str) -> str | None:
    """All feedback ever aimed at a stage, oldest first, goes into its prompt (and only into its prompt)."""
    asked = [r["feedback"] for r in state.get("refinements") or [] if r["stage"] == stage_name]
    return "；".join(asked) if asked else None


def _page_list(pages: list[int]) -> str:
    return join_items(str(p) for p in pages)


def change_note_for(stage_name: str, feedback: str, pages: list[int]) -> str:
    """The sentence that tells the user what their refinement changed (and what it left alone)."""
    if stage_name == REVISE_PAGES:
        key = "ppt.changed_pages_simplified" if wants_simpler(feedback) else "ppt.changed_pages"
        return t(key, pages=_page_list(pages))
    colour = colour_named(feedback) if stage_name == "generate_presentation_theme" else None
    if colour is not None:
        return t("ppt.changed_theme_colour", colour=t(f"ppt.colour_{colour.name}"))
    minutes = duration_hint(feedback) if stage_name == "generate_course_config" else None
    if minutes is not None:
        return t("ppt.changed_duration", minutes=minutes)
    return t(f"ppt.changed_{stage_name}")


# ---------------------------------------------------------------------- routing


async def classify_feedback(text: str, topic: str, llm: LLM, language: str | None = None) -> FeedbackIntent:
    """Rules first (cheap, predictable); the model decides only what no rule covers. `language` is the deck's:
    "翻译一下" names no language and means the other one."""
    by_rules = classify_by_rules(text, topic, language)
    if by_rules is not None:
        return by_rules
    return await llm.structured(
        FeedbackIntent, role="router", system=prompts.SYSTEM, prompt=prompts.feedback_intent(text, topic),
        facts={"text": text, "topic": topic},
    )


async def route_request(state: PptState, runtime: Runtime[FlowContext]) -> Command:
    """A new request runs every stage; feedback on a finished deck re-runs its target stage onward."""
    feedback = state.get("feedback")
    if not feedback or not state.get("deck"):
        if not names_a_topic(state["request"]):  # "🎉🎉", "做一个PPT": a deck on nothing helps no one
            return Command(goto=ASK_FOR_TOPIC)
        return Command(goto=STAGES[0])
    topic = (state.get("analysis") or {}).get("topic", "")
    intent = await classify_feedback(feedback, topic, runtime.context.llm, state["deck"].get("language"))
    target = intent.targetStage
    if intent.intent == "REFINEMENT" and target in DECK_EDITS:
        applied, refusal = _deck_edit(intent, feedback, SlideDeck.model_validate(state["deck"]))
        if refusal is not None:  # a page the deck does not have, or a size it cannot take: nothing changes
            return Command(goto=FEEDBACK_NOT_APPLIED, update={"feedback_stage": None, "change_note": refusal})
        return Command(goto=target, update={
            "feedback_stage": target, "refinements": [*(state.get("refinements") or []), applied], "change_note": None})
    pages = sorted({p for p in intent.pages if 1 <= p <= len(state["deck"]["slides"])})
    if intent.intent == "REFINEMENT" and target == REVISE_PAGES and not pages:
        target = "generate_slides"  # the pages named are not in the deck: redesign the slides instead
    if intent.intent == "REFINEMENT" and (target in STAGES[1:] or target == REVISE_PAGES):
        applied = {"stage": target, "feedback": feedback, "pages": pages if target == REVISE_PAGES else []}
        return Command(goto=target, update={
            "feedback_stage": target, "refinements": [*(state.get("refinements") or []), applied],
            "change_note": change_note_for(target, feedback, applied["pages"]),
        })
    # A model's INITIAL is checked too: the deck is replaced only when another subject is plainly asked for.
    if intent.intent == "INITIAL" and asks_for_new_deck(feedback, topic):
        return Command(goto=STAGES[0], update=initial_input(feedback, {}))
    return Command(goto=FEEDBACK_NOT_APPLIED, update={"feedback_stage": None, "change_note": None})


FEEDBACK_NOT_APPLIED = "feedback_not_applied"
ASK_FOR_TOPIC = "ask_for_topic"
# Edits of the finished deck as a whole: each runs only what it needs, not a stage and all that follows.
DECK_EDITS = (ADD_SLIDES, REMOVE_SLIDES, MOVE_SLIDES, CHANGE_LANGUAGE)


def _resolve(page: int, total: int) -> int:
    """A page as the user numbered it: -1 is the last page, -2 the one before it."""
    return page if page > 0 else total + 1 + page


def _bad_pages(pages: list[int], total: int) -> str | None:
    """The sentence for pages the deck does not have, else None."""
    missing = [p for p in pages if not 1 <= _resolve(p, total) <= total]
    if not missing:
        return None
    if all(p < 0 for p in missing):
        return t("ppt.no_such_page_from_end", total=total, pages=_page_list([-p for p in missing]))
    return t("ppt.no_such_page", total=total, pages=_page_list([p for p in missing if p > 0] or missing))


def _closing_start(deck: SlideDeck) -> int:
    """How many pages come before the deck's closing run (summary, Q&A): where a new page goes by default."""
    after = len(deck.slides)
    while after > 1 and deck.slides[after - 1].layout in ("summary", "qa"):
        after -= 1
    return after


def _deck_edit(intent: FeedbackIntent, feedback: str, deck: SlideDeck) -> tuple[dict[str, Any], str | None]:
    """The refinement an edit applies (pages resolved against this deck), or the sentence saying why it cannot."""
    total = len(deck.slides)
    applied: dict[str, Any] = {"stage": intent.targetStage, "feedback": feedback, "pages": []}
    bad = _bad_pages(intent.pages, total)
    if bad is not None:
        return applied, bad
    if intent.targetStage == CHANGE_LANGUAGE:
        if intent.language in (None, deck.language):
            return applied, t("ppt.already_in_language", language=language_name(deck.language))
        return {**applied, "language": intent.language}, None
    if intent.targetStage == REMOVE_SLIDES:
        pages = sorted({_resolve(p, total) for p in intent.pages})
        if not pages:
            return applied, t("ppt.feedback_not_applied")
        if total - len(pages) < MIN_SLIDES_LEFT:
            return applied, t("ppt.too_few_slides_left", total=total, count=len(pages), low=MIN_SLIDES_LEFT)
        return {**applied, "pages": pages}, None
    if intent.targetStage == MOVE_SLIDES:
        pages = sorted({_resolve(p, total) for p in intent.pages})
        if intent.afterPage is None:  # a swap of the two pages named
            return ({**applied, "pages": pages, "order": _swapped(total, *pages)}, None) if len(pages) == 2 \
                else (applied, t("ppt.feedback_not_applied"))
        after = intent.afterPage if intent.afterPage >= 0 else total + 1 + intent.afterPage
        if not 0 <= after <= total:
            return applied, t("ppt.no_such_page", total=total, pages=_page_list([after]))
        rest = [n for n in range(1, total + 1) if n not in pages]
        at = sum(1 for n in rest if n <= after)
        order = [*rest[:at], *pages, *rest[at:]]
        if order == list(range(1, total + 1)):
            return applied, t("ppt.already_in_place", pages=_page_list(pages))
        return {**applied, "pages": pages, "order": order}, None
    if total + intent.count > MAX_SLIDES:
        return applied, t("ppt.too_many_slides", high=MAX_SLIDES, total=total, count=intent.count)
    part = deck_part_named(intent.subject)
    # A deck has one recap and one agenda: asking for another points the user at the one it has.
    has = next((s for s in deck.slides if s.layout == part or (part and deck_part_named(plain(s.title)) == part)), None)
    if has is not None:
        return applied, t("ppt.already_has_page", kind=t(f"ppt.deck_part_{part}"), page=has.index, title=plain(has.title))
    after = _closing_start(deck) if intent.afterPage is None else (
        intent.afterPage if intent.afterPage >= 0 else total + 1 + intent.afterPage)
    if not 0 <= after <= total:
        return applied, t("ppt.no_such_page", total=total, pages=_page_list([after]))
    return {**applied, "afterPage": after, "count": intent.count, "subject": intent.subject}, None


def _swapped(total: int, a: int, b: int) -> list[int]:
    order = list(range(1, total + 1))
    order[a - 1], order[b - 1] = b, a
    return order


@node(FEEDBACK_NOT_APPLIED)
async def feedback_not_applied(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """Feedback that cannot be carried out: the deck stays as it is and the user hears why (a page it does not
    have, a size it cannot take) or, for feedback no stage can carry out, what can be changed."""
    ctx.message(state.get("change_note") or t("ppt.feedback_not_applied"), final=True)
    return {"change_note": None}


@node(ASK_FOR_TOPIC)
async def ask_for_topic(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """A request that names no subject: nothing is made, and the user hears what to write instead."""
    ctx.message(t("ppt.no_topic"), final=True)
    return {}


# ---------------------------------------------------------------------- stages


@stage("analyze_topic")
async def analyze_topic(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    request = state["request"]
    topic = short_title(request)
    analysis = await ctx.llm.structured(
        TopicAnalysis,
        role="ppt",
        system=prompts.SYSTEM,
        prompt=prompts.analyze(request),
        facts={"topic": topic, "language": language_of(request), "durationHint": requested_minutes(request),
               "audienceHint": audience_hint(request), "slideCountHint": slide_count_hint(request)},
    )
    if slide_count_hint(request) is not None:  # "8页" read by rule is the count asked for, whatever the model read
        analysis = analysis.model_copy(update={"slideCountHint": slide_count_hint(request)})
    if analysis.durationMinutesHint is None and requested_minutes(request):  # "a short talk" read by rule is short
        analysis = analysis.model_copy(update={"durationMinutesHint": requested_minutes(request)})
    if len(analysis.topic) > title_limit(analysis.topic):  # the topic becomes the deck title, the cover and the file name
        analysis = analysis.model_copy(update={"topic": topic})
    search_tool = ctx.flow.tools.get("web_search")
    search = None
    if search_tool is None:
        ctx.log(t("ppt.search_off"))
    else:
        try:
            search = await search_tool.search(analysis.topic)
        except Exception as error:  # search is an aid, not a requirement of the pipeline
            ctx.log(t("ppt.search_failed", reason=getattr(error, "user_message", None) or type(error).__name__), level="warning")
        if search is not None:
            artifact_id = ctx.artifact(key="search_results", type=ArtifactType.search_results,
                                       title=t("ppt.artifact_search", topic=analysis.topic), content=search)
            ctx.log(t("ppt.search_found", count=len(search.results), topic=analysis.topic), artifact_id=artifact_id)
    return {"analysis": analysis.model_dump(), "search": search.model_dump() if search else None}


@stage("generate_course_config")
async def generate_course_config(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    analysis = TopicAnalysis.model_validate(state["analysis"])
    minutes = _duration_asked(state)
    if minutes is not None:  # a length asked in feedback replaces the request's, and the page count follows it
        analysis = analysis.model_copy(update={"durationMinutesHint": minutes, "slideCountHint": None})
    config = await ctx.llm.structured(
        CourseConfig,
        role="ppt",
        system=prompts.SYSTEM,
        prompt=prompts.course_config(analysis, state.get("search"), feedback_for(state, "generate_course_config")),
        facts={**analysis.model_dump(), "feedback": feedback_for(state, "generate_course_config"),
               "setting": deck_setting(state["request"], analysis.audienceHint), "request": state["request"]},
    )
    # The request itself, however long, stays with the course: later stages and refinements read it.
    config = config.model_copy(update={"request": state["request"], **({"duration": minutes} if minutes else {})})
    artifact_id = ctx.artifact(key="course_config", type=ArtifactType.course_config, title=t("ppt.artifact_course_config"),
                               content=config, show_in_canvas=True)
    ctx.log(t("ppt.course_logged", minutes=config.duration, audience=config.targetAudience), artifact_id=artifact_id)
    return {"course_config": config.model_dump(), **({"analysis": analysis.model_dump()} if minutes else {})}


def _duration_asked(state: PptState) -> int | None:
    """The minutes the latest feedback on the course names ("缩短到10分钟"), else None."""
    asked = [duration_hint(r["feedback"]) for r in state.get("refinements") or [] if r["stage"] == "generate_course_config"]
    return next((m for m in reversed(asked) if m is not None), None)


@stage("generate_video_outline")
async def generate_video_outline(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    analysis = TopicAnalysis.model_validate(state["analysis"])
    config = CourseConfig.model_validate(state["course_config"])
    feedback = feedback_for(state, "generate_video_outline")
    # A talk's parts are a report's (background, where things stand, next steps), a lesson's are not.
    setting = deck_setting(config.request or state["request"], analysis.audienceHint)
    # a deck asked for in pages ("40页" in ten minutes) needs parts enough to fill them, or its pages come round again
    slide_count = slide_count_for(config.duration, analysis.slideCountHint)
    outline = await ctx.llm.structured(
        VideoOutline,
        role="ppt",
        system=prompts.SYSTEM,
        prompt=prompts.video_outline(analysis, config, feedback, setting, slide_count),
        facts={"topic": analysis.topic, "language": analysis.language, "duration": config.duration, "feedback": feedback,
               "setting": setting, "request": config.request or state["request"], "slideCount": slide_count},
    )
    artifact_id = ctx.artifact(key="video_outline", type=ArtifactType.video_outline, title=t("ppt.artifact_outline"),
                               content=outline, show_in_canvas=True)
    points = sum(len(u.knowledgePoints) for u in outline.knowledgeUnits)
    ctx.log(t("ppt.outline_logged", units=len(outline.knowledgeUnits), points=points), artifact_id=artifact_id)
    return {"video_outline": outline.model_dump()}


@stage("generate_slide_scripts")
async def generate_slide_scripts(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    analysis = TopicAnalysis.model_validate(state["analysis"])
    config = CourseConfig.model_validate(state["course_config"])
    outline = VideoOutline.model_validate(state["video_outline"])
    slide_count = slide_count_for(config.duration, analysis.slideCountHint)
    if analysis.slideCountHint and slide_count != analysis.slideCountHint:
        ctx.log(t("ppt.slide_count_clamped", asked=analysis.slideCountHint, pages=slide_count, low=MIN_SLIDES,
                  high=MAX_SLIDES), level="warning")
    budget = narration_budget(config.duration, slide_count, analysis.language)
    feedback = feedback_for(state, "generate_slide_scripts")
    setting = deck_setting(config.request or state["request"], analysis.audienceHint)
    scripts = await ctx.llm.structured(
        SlideScripts,
        role="ppt",
        system=prompts.SYSTEM,
        prompt=prompts.slide_scripts(analysis, config, outline, slide_count, budget, feedback, setting),
        facts={"topic": analysis.topic, "language": analysis.language, "slideCount": slide_count,
               "narrationBudget": budget, "duration": config.duration, "outline": outline.model_dump(),
               "feedback": feedback, "setting": setting, "request": config.request or state["request"]},
    )
    if len(scripts.scripts) != slide_count:
        ctx.log(t("ppt.scripts_count_mismatch", written=len(scripts.scripts), asked=slide_count), level="warning")
    artifact_id = ctx.artifact(key="slide_scripts", type=ArtifactType.slide_scripts, title=t("ppt.artifact_scripts"),
                               content=scripts, show_in_canvas=True)
    ctx.log(t("ppt.scripts_logged_zh" if analysis.language == "zh" else "ppt.scripts_logged_words",
              pages=len(scripts.scripts), budget=budget), artifact_id=artifact_id)
    return {"slide_scripts": scripts.model_dump()}


@stage("generate_presentation_theme")
async def generate_presentation_theme(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    analysis = TopicAnalysis.model_validate(state["analysis"])
    config = CourseConfig.model_validate(state["course_config"])
    feedback = feedback_for(state, "generate_presentation_theme")
    # Theme feedback ("换一套配色") asks for colours other than the deck's current ones.
    current = (state.get("theme") or {}).get("themeName") if feedback else None
    theme = await ctx.llm.structured(
        PresentationTheme,
        role="ppt",
        system=prompts.SYSTEM,
        prompt=prompts.presentation_theme(analysis, config, feedback, current),
        facts={"topic": analysis.topic, "language": analysis.language, "feedback": feedback, "currentTheme": current},
    )
    colour = colour_named(feedback)
    if colour is not None and not _has_colour(theme, colour):
        # The colour asked for is a requirement, not a hint: whichever model answered, the deck wears it.
        theme = theme.model_copy(update={"colorScheme": palette_for(colour)})
    artifact_id = ctx.artifact(key="presentation_theme", type=ArtifactType.presentation_theme,
                               title=t("ppt.artifact_theme"), content=theme, show_in_canvas=True)
    ctx.log(t("ppt.theme_logged", name=theme.themeName), artifact_id=artifact_id)
    return {"theme": theme.model_dump()}


def _has_colour(theme: PresentationTheme, colour: Colour) -> bool:
    primary = theme.colorScheme.primary
    if colour.saturation == 0:  # black and grey: no hue to match, only no colour
        r, g, b = (int(primary[i : i + 2], 16) for i in (1, 3, 5))
        return max(r, g, b) - min(r, g, b) < 24
    distance = abs(hue_of(primary) - colour.hue) % 360
    return min(distance, 360 - distance) <= 20


@stage("generate_slides")
async def generate_slides(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    analysis = TopicAnalysis.model_validate(state["analysis"])
    scripts = SlideScripts.model_validate(state["slide_scripts"])
    theme = PresentationTheme.model_validate(state["theme"])
    config = CourseConfig.model_validate(state["course_config"])
    minutes = f"{config.duration} 分钟" if analysis.language == "zh" else f"{config.duration} min"
    pages_done = await PAGES.ainvoke(
        {
            "scripts": scripts.model_dump()["scripts"],
            "theme": theme.model_dump(),
            "language": analysis.language,
            # a label, so it starts with a capital ("Girls · 10 min"); in sentences the audience is as written
            "subtitle": f"{capitalised(config.targetAudience)} · {minutes}",
            "feedback": feedback_for(state, "generate_slides"),
            "tool_call_id": ctx.tool_call_id,
            "slides": [],
        },
        # A pool of LLM_CONCURRENCY pages at a time (LangGraph's per-superstep task limit): a new page
        # starts as soon as any finishes, in page order, so progress still counts up 1, 2, 3…
        {**ctx.config, "max_concurrency": max(1, ctx.llm.max_concurrency)},
    )
    slides = sorted((SlideSpec.model_validate(s) for s in pages_done["slides"]), key=lambda s: s.index)
    # The topic as the deck's title (file name, cover, QA report): "History of the bicycle", as the cover reads.
    deck = SlideDeck(title=capitalised(analysis.topic), language=analysis.language, theme=theme, slides=slides)
    prepared = await asyncio.to_thread(prepare, deck)
    for change in prepared.changes:
        ctx.log(change)
    deck = prepared.deck
    dsl_id = ctx.artifact(key="dsl", type=ArtifactType.dsl, title=t("ppt.artifact_dsl"), content=deck,
                          show_in_canvas=True)
    layouts = len({s.layout for s in deck.slides})
    ctx.log(t("ppt.dsl_ready", pages=len(deck.slides), layouts=layouts), artifact_id=dsl_id)
    return {"deck": deck.model_dump()}


class DeckRenderError(Exception):
    """Rendering this deck failed. Rendering is deterministic, so resuming would fail the same way:
    `resumable` is False and the sentence asks for a new or changed request instead."""

    resumable = False

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.user_message = t("ppt.render_failed", reason=reason)


@stage(REVISE_PAGES)
async def revise_pages(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """Page feedback ("第三页内容太多了"): only the pages named are rewritten; every other page, the
    outline, the scripts and the theme stay exactly as they are."""
    deck = SlideDeck.model_validate(state["deck"])
    refinement = state["refinements"][-1]
    slides = list(deck.slides)

    async def revise(index: int) -> SlideSpec:
        current = slides[index - 1]
        revised = await ctx.llm.structured(
            SlideSpec, role="ppt", system=prompts.SYSTEM,
            prompt=prompts.revise_page(current.model_dump(exclude_defaults=True), len(slides), deck.theme,
                                       refinement["feedback"]),
            facts={"current": current.model_dump(), "feedback": refinement["feedback"], "language": deck.language,
                   "total": len(slides)},
        )
        return revised.model_copy(update={"index": index, "notes": revised.notes or current.notes})

    asked = layout_asked(refinement["feedback"])
    changed: list[int] = []
    for index, page in zip(refinement["pages"], await asyncio.gather(*(revise(i) for i in refinement["pages"]))):
        if not _revised_as_asked(slides[index - 1], page, asked):
            continue  # the page stays as it was, and the reply says so
        slides[index - 1] = page
        changed.append(index)
        artifact_id = ctx.artifact(key=f"slide_preview_{index}", type=ArtifactType.slide_preview,
                                   title=t("ppt.artifact_page", index=index), content=page)
        ctx.log(t("ppt.page_ready", index=index, total=len(slides), title=page.title), artifact_id=artifact_id)
    unchanged = [i for i in refinement["pages"] if i not in changed]
    already = [i for i in unchanged if asked is not None and slides[i - 1].layout == asked]
    note = _pages_note(refinement["feedback"], changed, [i for i in unchanged if i not in already], asked, already)
    # The same clean-up as generate_slides (markup, fonts, contrast): a model's page arrives raw.
    prepared = await asyncio.to_thread(prepare, deck.model_copy(update={"slides": slides}))
    for change in prepared.changes:
        ctx.log(change)
    ctx.artifact(key="dsl", type=ArtifactType.dsl, title=t("ppt.artifact_dsl"), content=prepared.deck,
                 show_in_canvas=True)
    return {"deck": prepared.deck.model_dump(), "change_note": note}


def _revised_as_asked(current: SlideSpec, revised: SlideSpec, layout: str | None) -> bool:
    """A revision counts only when the page really changed, and into the layout asked for if one was."""
    same = revised.model_dump(exclude={"index", "notes"}) == current.model_dump(exclude={"index", "notes"})
    return not same and (layout is None or revised.layout == layout)


def _pages_note(feedback: str, changed: list[int], unchanged: list[int], layout: str | None,
                already: list[int] = ()) -> str:
    """What the page feedback really did: the pages changed, the pages that already had the layout asked
    for ("第3页加一张图" on a picture page), and the pages that could not be changed."""
    said = []
    if changed:
        said.append(t("ppt.changed_pages_layout", pages=_page_list(changed), layout=t(f"ppt.layout_{layout}"))
                    if layout else change_note_for(REVISE_PAGES, feedback, changed))
    if already:
        said.append(t("ppt.pages_already_layout", pages=_page_list(already), layout=t(f"ppt.layout_{layout}")))
    if unchanged:
        said.append(t("ppt.pages_not_changed_layout", pages=_page_list(unchanged), layout=t(f"ppt.layout_{layout}"))
                    if layout else t("ppt.pages_not_changed", pages=_page_list(unchanged)))
    return join_sentences(said)


def _renumbered(slides: list[SlideSpec], old_index: dict[int, int]) -> list[SlideSpec]:
    """Pages numbered 1, 2, 3… in order; a split page's `continuationOf` follows its page (None if it is gone)."""
    new_index = {old: new for new, old in old_index.items()}
    return [s.model_copy(update={"index": n, "continuationOf": new_index.get(s.continuationOf) if s.continuationOf else None})
            for n, s in enumerate(slides, 1)]


def _scripts_before(deck: SlideDeck, pages: int) -> int:
    """How many scripts the first `pages` pages came from: a page split off a full one has no script of its own."""
    return sum(1 for s in deck.slides[:pages] if s.continuationOf is None)


def _publish_edit(ctx: NodeContext, before: SlideDeck, after: SlideDeck, scripts: SlideScripts) -> None:
    """An edited deck's artifacts: the previews of pages whose number or content changed, the scripts, the DSL."""
    for slide in after.slides:
        old = before.slides[slide.index - 1] if slide.index <= len(before.slides) else None
        if old != slide:
            ctx.artifact(key=f"slide_preview_{slide.index}", type=ArtifactType.slide_preview,
                         title=t("ppt.artifact_page", index=slide.index), content=slide)
    ctx.artifact(key="slide_scripts", type=ArtifactType.slide_scripts, title=t("ppt.artifact_scripts"), content=scripts)
    dsl_id = ctx.artifact(key="dsl", type=ArtifactType.dsl, title=t("ppt.artifact_dsl"), content=after, show_in_canvas=True)
    ctx.log(t("ppt.dsl_ready", pages=len(after.slides), layouts=len({s.layout for s in after.slides})), artifact_id=dsl_id)


def _resized_course(ctx: NodeContext, state: PptState, deck: SlideDeck) -> CourseConfig:
    """The course's minutes follow its pages: each page keeps its narration, so the lesson grows or shrinks by
    the pages added or removed, to what its narration now takes (the QA gate checks it against that)."""
    config = CourseConfig.model_validate(state["course_config"])
    minutes = max(1, min(180, spoken_minutes(deck)))
    if minutes != config.duration:
        config = config.model_copy(update={"duration": minutes})
        ctx.artifact(key="course_config", type=ArtifactType.course_config, title=t("ppt.artifact_course_config"),
                     content=config)
    return config


@stage(ADD_SLIDES)
async def add_slides(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """"加一页，讲讲…的应用": a script for each new page (from the outline, the subject asked for and its
    neighbours), that page's design, and the deck renumbered; every other page stays exactly as it was."""
    refinement = state["refinements"][-1]
    deck = SlideDeck.model_validate(state["deck"])
    analysis = TopicAnalysis.model_validate(state["analysis"])
    config = CourseConfig.model_validate(state["course_config"])
    scripts = SlideScripts.model_validate(state["slide_scripts"]).scripts
    after, count = refinement["afterPage"], refinement["count"]
    total = len(deck.slides) + count
    # As long as the pages around it: the deck grows by the new page's minutes, the others keep theirs.
    budget = narration_budget(config.duration, len(scripts), deck.language)
    outline = state["video_outline"]
    titles = [s.title for s in deck.slides]

    async def script_for(n: int) -> SlideScript:
        index = after + n + 1
        neighbours = {"before": titles[after - 1] if after else None, "after": titles[after] if after < len(titles) else None}
        written = await ctx.llm.structured(
            SlideScript, role="ppt", system=prompts.SYSTEM,
            prompt=prompts.added_slide_script(analysis, outline, refinement["subject"], index, total, budget, neighbours,
                                              refinement["feedback"]),
            facts={"topic": analysis.topic, "language": deck.language, "subject": refinement["subject"], "index": index,
                   "total": total, "narrationBudget": budget, "outline": outline, "nth": n, "titles": titles, **neighbours,
                   "setting": deck_setting(config.request or state["request"], analysis.audienceHint),
                   "request": config.request or state["request"]},
        )
        return written.model_copy(update={"slideIndex": index})

    new_scripts = list(await asyncio.gather(*(script_for(n) for n in range(count))))
    pages = await asyncio.gather(*(write_page(ctx, script, total, deck.theme, deck.language, None,
                                              feedback_for(state, "generate_slides"), added=True) for script in new_scripts))
    slides = [*deck.slides[:after], *pages, *deck.slides[after:]]
    old_index = {n: s.index for n, s in enumerate(slides, 1) if not after < n <= after + count}
    prepared = await asyncio.to_thread(prepare, deck.model_copy(update={"slides": _renumbered(slides, old_index)}))
    for change in prepared.changes:
        ctx.log(change)
    at = _scripts_before(deck, after)
    all_scripts = [*scripts[:at], *new_scripts, *scripts[at:]]
    renumbered = SlideScripts(scripts=[s.model_copy(update={"slideIndex": n}) for n, s in enumerate(all_scripts, 1)])
    added = [prepared.deck.slides[after + n] for n in range(count)]
    for page in added:
        ctx.log(t("ppt.page_ready", index=page.index, total=total, title=page.title))
    course = _resized_course(ctx, state, prepared.deck)
    _publish_edit(ctx, deck, prepared.deck, renumbered)
    note = t("ppt.added_slides", pages=_page_list([p.index for p in added]), total=len(prepared.deck.slides),
             titles=join_items(plain(p.title) for p in added), minutes=course.duration)
    return {"deck": prepared.deck.model_dump(), "slide_scripts": renumbered.model_dump(), "change_note": note,
            "course_config": course.model_dump()}


@stage(REMOVE_SLIDES)
async def remove_slides(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """"删掉第4页": the pages named are dropped with their scripts and the rest renumbered; nothing is rewritten."""
    refinement = state["refinements"][-1]
    deck = SlideDeck.model_validate(state["deck"])
    scripts = SlideScripts.model_validate(state["slide_scripts"]).scripts
    dropped = set(refinement["pages"])
    kept = [s for s in deck.slides if s.index not in dropped]
    dropped_scripts = {_scripts_before(deck, s.index) for s in deck.slides if s.index in dropped and s.continuationOf is None}
    left = [s for n, s in enumerate(scripts, 1) if n not in dropped_scripts]
    renumbered = SlideScripts(scripts=[s.model_copy(update={"slideIndex": n}) for n, s in enumerate(left, 1)])
    after = deck.model_copy(update={"slides": _renumbered(kept, {n: s.index for n, s in enumerate(kept, 1)})})
    course = _resized_course(ctx, state, after)
    _publish_edit(ctx, deck, after, renumbered)
    note = t("ppt.removed_slides", pages=_page_list(sorted(dropped)), total=len(after.slides), minutes=course.duration)
    return {"deck": after.model_dump(), "slide_scripts": renumbered.model_dump(), "change_note": note,
            "course_config": course.model_dump()}


@stage(MOVE_SLIDES)
async def move_slides(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """"把第5页移到最后", "swap slides 3 and 4": the pages in the new order with their scripts, renumbered; nothing is
    rewritten. A page split off a full one goes with it."""
    refinement = state["refinements"][-1]
    deck = SlideDeck.model_validate(state["deck"])
    scripts = SlideScripts.model_validate(state["slide_scripts"]).scripts
    order = [n for n in refinement["order"] if deck.slides[n - 1].continuationOf is None]
    parts = {s.index: [s] for s in deck.slides if s.continuationOf is None}
    for s in deck.slides:
        if s.continuationOf is not None:
            parts[next(n for n in sorted(parts, reverse=True) if n < s.index)].append(s)
    slides = [page for n in order for page in parts[n]]
    script_of = {n: _scripts_before(deck, n) for n in parts}  # 1-based script of each whole page
    moved = SlideScripts(scripts=[scripts[script_of[n] - 1].model_copy(update={"slideIndex": i})
                                  for i, n in enumerate(order, 1)])
    after = deck.model_copy(update={"slides": _renumbered(slides, {n: s.index for n, s in enumerate(slides, 1)})})
    _publish_edit(ctx, deck, after, moved)
    pages = refinement["pages"]
    if refinement.get("afterPage") is None and len(pages) == 2:
        note = t("ppt.swapped_slides", first=pages[0], second=pages[1])
    else:
        now = [n for n, s in enumerate(slides, 1) if s.index in pages and s.continuationOf is None]
        note = t("ppt.moved_slides", pages=_page_list(pages), now=_page_list(now))
    return {"deck": after.model_dump(), "slide_scripts": moved.model_dump(), "change_note": note}


@node(CHANGE_LANGUAGE)
async def change_language(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """"改成英文": the topic is restated in the language asked for, then every stage whose text is in that
    language re-runs (course config, outline, scripts, slides); the theme, colours and fonts stay."""
    refinement = state["refinements"][-1]
    analysis = TopicAnalysis.model_validate(state["analysis"])
    language = refinement["language"]
    # As many pages and minutes as now, added or removed ones counted: a translation does not resize the deck.
    pages = len(SlideScripts.model_validate(state["slide_scripts"]).scripts)
    minutes = CourseConfig.model_validate(state["course_config"]).duration
    restated = await ctx.llm.structured(
        TopicAnalysis, role="ppt", system=prompts.SYSTEM, prompt=prompts.restate_analysis(analysis, language),
        facts={"topic": analysis.topic, "language": language, "durationHint": minutes,
               "audienceHint": analysis.audienceHint, "slideCountHint": pages},
    )
    restated = restated.model_copy(update={"language": language, "slideCountHint": pages,
                                           "durationMinutesHint": minutes})
    if len(restated.topic) > title_limit(restated.topic):
        restated = restated.model_copy(update={"topic": analysis.topic})
    name = language_name(language)
    ctx.log(t("ppt.language_logged", language=name))
    return {"analysis": restated.model_dump(), "change_note": t("ppt.changed_language", language=name)}


def _after_course_config(state: PptState) -> list[str]:
    """The outline always follows the course config; the theme too, except when only the language changes:
    colours and fonts do not depend on it."""
    if state.get("feedback_stage") == CHANGE_LANGUAGE:
        return ["generate_video_outline"]
    return ["generate_video_outline", "generate_presentation_theme"]


def _render_processes(ctx: NodeContext) -> int:
    return ctx.flow.settings.render_processes if ctx.flow.settings is not None else 0


@node("check_deck")
async def check_deck(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """The QA gate: render, check the .pptx itself, repair (split, re-layout) and check again; publish the
    file and, whatever the outcome, the report — remaining problems are stated, never hidden."""
    deck = SlideDeck.model_validate(state["deck"])
    config = CourseConfig.model_validate(state["course_config"])
    try:
        outcome = await gate_deck(deck, config.duration, _render_processes(ctx))
    except Exception as error:
        raise DeckRenderError(type(error).__name__) from error
    for repair in outcome.report.repairs:
        ctx.log(repair)
    if outcome.deck != deck:
        ctx.artifact(key="dsl", type=ArtifactType.dsl, title=t("ppt.artifact_dsl"), content=outcome.deck)
    report_id = ctx.artifact(key="qa_report", type=ArtifactType.qa_report, title=t("ppt.qa_title"),
                             content=outcome.report, show_in_canvas=not outcome.report.passed)
    if outcome.report.passed:
        ctx.log(t("ppt.qa_passed", checks=len(outcome.report.checks)), artifact_id=report_id)
    else:
        ctx.log(t("ppt.qa_failed", count=len(outcome.report.issues)), level="warning", artifact_id=report_id)
    file_name = deck_file_name(plain(deck.title), "pptx")
    pptx_id = ctx.artifact(
        key="pptx", type=ArtifactType.pptx, title=file_name,
        content=PptxSummary(fileName=file_name, slideCount=len(outcome.deck.slides), sizeBytes=len(outcome.pptx),
                            qaPassed=outcome.report.passed),
        final=True, file=outcome.pptx, file_name=file_name,
        mime_type="application/vnd.openxmlformats-officedocument.presentationml.presentation",
    )
    ctx.log(t("ppt.pptx_ready", name=file_name, kb=len(outcome.pptx) // 1024), artifact_id=pptx_id)
    # One closing message: what the feedback changed and the file it is in, not two bubbles in a row.
    done = qa_summary(outcome.report, file_name, len(outcome.deck.slides))
    ctx.message(join_sentences([n for n in (state.get("change_note"), done) if n]), final=True)
    return {"deck": outcome.deck.model_dump()}


@node("preview_deck")
async def preview_deck(state: PptState, ctx: NodeContext) -> dict[str, Any]:
    """A real preview when LibreOffice is configured: the PDF to download and per-slide thumbnails.
    It runs after the .pptx is published, so the download never waits for it."""
    office = ctx.flow.tools.get("office_preview")
    if office is None:
        ctx.log(t("ppt.preview_unavailable"))
        return {}
    deck = SlideDeck.model_validate(state["deck"])
    try:
        pptx = await render_deck(deck, _render_processes(ctx))
        preview = await asyncio.to_thread(office.render, pptx)
    except Exception as error:  # the preview is an aid: the .pptx is already delivered
        ctx.log(t("ppt.preview_failed", reason=type(error).__name__), level="warning")
        return {}
    if preview.pdf is None:
        ctx.log(t("ppt.preview_unavailable"))
        return {}
    file_name = deck_file_name(plain(deck.title), "pdf")
    pdf_id = ctx.artifact(
        key="pdf", type=ArtifactType.pdf, title=file_name,
        content=DeckPreview(fileName=file_name, pageCount=len(preview.thumbnails),
                            thumbnails=[data_url(image) for image in preview.thumbnails]),
        file=preview.pdf, file_name=file_name, mime_type="application/pdf",
    )
    ctx.log(t("ppt.preview_ready", pages=len(preview.thumbnails)), artifact_id=pdf_id)
    return {}


# ------------------------------------------------------------ page subgraph


class PagesState(TypedDict, total=False):
    scripts: list[dict[str, Any]]
    theme: dict[str, Any]
    language: str
    subtitle: str
    feedback: str | None
    tool_call_id: str
    slides: Annotated[list[dict[str, Any]], operator.add]


class PageTask(TypedDict):
    """One page's work, sent to `generate_page`: the shared inputs and its own script."""

    script: dict[str, Any]
    total: int
    theme: dict[str, Any]
    language: str
    subtitle: str
    feedback: str | None
    tool_call_id: str


async def generate_page(task: PageTask, config: RunnableConfig, runtime: Runtime[FlowContext]) -> dict[str, Any]:
    # A LangGraph task of its own: its write is saved the moment it finishes, so a crash redoes only
    # the pages still in flight, and a slow page holds up no other.
    ctx = NodeContext.from_runtime(config, runtime, tool_name="generate_slides", tool_call_id=task["tool_call_id"])
    # A page still waiting for a place in the pool does not start once a stop (cancel, shutdown) is asked.
    ctx.stop_if_draining()
    script, total, index = task["script"], task["total"], task["script"]["slideIndex"]
    # The spec fixes this sentence (正在生成第 N/M 页...). It is said to the reader in the reader's language, like every
    # other step's line, whatever language the deck is written in.
    ctx.progress(index, total, t("ppt.generating_slide", current=index, total=total), status="generating_slide")
    slide = await write_page(ctx, SlideScript.model_validate(script), total, PresentationTheme.model_validate(task["theme"]),
                             task["language"], task["subtitle"], task.get("feedback"))
    artifact_id = ctx.artifact(key=f"slide_preview_{index}", type=ArtifactType.slide_preview,
                               title=t("ppt.artifact_page", index=index), content=slide)
    ctx.log(t("ppt.page_ready", index=index, total=total, title=slide.title), artifact_id=artifact_id)
    await ctx.flush()  # not a hooked node: make the page's events durable before its write is checkpointed
    return {"slides": [slide.model_dump()]}


async def write_page(ctx: NodeContext, script: SlideScript, total: int, theme: PresentationTheme, language: str,
                     subtitle: str | None, feedback: str | None, *, added: bool = False) -> SlideSpec:
    """One page from its script: the layout its shape calls for, then the model's page merged over it. A page
    `added` to a finished deck takes its layout from its content only, never from standing first or last."""
    as_placed = script.model_copy(update={"slideIndex": 2}) if added else script
    draft = design_slide(as_placed, total + 2 if added else total, subtitle if script.slideIndex == 1 else None)
    draft = draft.model_copy(update={"index": script.slideIndex})
    written = await ctx.llm.structured(
        SlideSpec,
        role="ppt",
        system=prompts.SYSTEM,
        prompt=prompts.slide_page(script.model_dump(), total, theme, feedback, draft.model_dump(exclude_defaults=True)),
        facts={"script": script.model_dump(), "total": total, "language": language, "feedback": feedback,
               "subtitle": subtitle, "added": added},
    )
    return merge_with_draft(written, draft).model_copy(update={"index": script.slideIndex})


def _send_pages(state: PagesState) -> list[Send]:
    shared = {key: state.get(key) for key in ("theme", "language", "subtitle", "feedback", "tool_call_id")}
    total = len(state["scripts"])
    return [Send("generate_page", PageTask(script=script, total=total, **shared)) for script in state["scripts"]]


def build_pages_graph() -> StateGraph:
    graph = StateGraph(PagesState, context_schema=FlowContext)
    graph.add_node("generate_page", generate_page)
    graph.add_conditional_edges(START, _send_pages, ["generate_page"])
    graph.add_edge("generate_page", END)
    return graph


# Compiled without a checkpointer: invoked inside `generate_slides`, it checkpoints with the parent's.
PAGES = build_pages_graph().compile()


def build_graph() -> StateGraph:
    graph = StateGraph(PptState, context_schema=FlowContext)
    nodes = {
        "analyze_topic": analyze_topic,
        "generate_course_config": generate_course_config,
        "generate_video_outline": generate_video_outline,
        "generate_slide_scripts": generate_slide_scripts,
        "generate_presentation_theme": generate_presentation_theme,
        "generate_slides": generate_slides,
    }
    assert tuple(nodes) == STAGES
    graph.add_node("route_request", route_request, destinations=(*STAGES, REVISE_PAGES, *DECK_EDITS, FEEDBACK_NOT_APPLIED,
                                                                  ASK_FOR_TOPIC))
    graph.add_node(FEEDBACK_NOT_APPLIED, feedback_not_applied)
    graph.add_edge(FEEDBACK_NOT_APPLIED, END)
    graph.add_node(ASK_FOR_TOPIC, ask_for_topic)
    graph.add_edge(ASK_FOR_TOPIC, END)
    graph.add_node(REVISE_PAGES, revise_pages)
    graph.add_edge(REVISE_PAGES, "check_deck")
    for edit, fn in ((ADD_SLIDES, add_slides), (REMOVE_SLIDES, remove_slides), (MOVE_SLIDES, move_slides)):
        graph.add_node(edit, fn)
        graph.add_edge(edit, "check_deck")
    graph.add_node(CHANGE_LANGUAGE, change_language)
    graph.add_edge(CHANGE_LANGUAGE, "generate_course_config")
    # After the six stages: the QA gate (renders, checks, repairs, publishes) and the real preview.
    nodes |= {"check_deck": check_deck, "preview_deck": preview_deck}
    for name, fn in nodes.items():
        # generate_slides is deferred: it runs once, when every branch leading to it has finished — the
        # theme and the scripts after a new request, or only the stage a refinement re-ran.
        graph.add_node(name, fn, defer=name == "generate_slides")
    graph.add_edge(START, "route_request")
    # A chain, except that the theme (it needs only the analysis and the course config) starts with the
    # outline and runs beside it and the scripts, off the critical path.
    chain = ["analyze_topic", "generate_course_config", "generate_video_outline", "generate_slide_scripts",
             "generate_slides", "check_deck", "preview_deck"]
    for before, after in zip(chain, chain[1:]):
        if before != "generate_course_config":
            graph.add_edge(before, after)
    graph.add_conditional_edges("generate_course_config", _after_course_config,
                                ["generate_video_outline", "generate_presentation_theme"])
    graph.add_edge("generate_presentation_theme", "generate_slides")
    graph.add_edge(chain[-1], END)
    assert set(chain) | {"generate_presentation_theme"} == set(PIPELINE_NODES)
    return graph
