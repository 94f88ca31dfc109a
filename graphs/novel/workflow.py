"""The generation workflow: (new project →) world → theme → characters → outline → per chapter: plan → scenes → chapter.

A checkpointed graph with one superstep per scene: `write_scene` loops on itself, so a crash in the
middle of a chapter resumes at the scene it was on and no finished scene is written again. Each
step writes its file in NovelGen's format (atomically) and skips a file that already exists unless
`force` (then chapters up to the target are rewritten; world, theme, characters and outline stay).

The same compiled graph runs at the top level (flow `novel_workflow`) and nested inside the chat
flow's plan execution (it then checkpoints inside the chat thread, like the PPT page subgraph).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from core.i18n import join_items, t
from core.language import understood
from graphs.base import FlowContext, FlowDefinition, first_line_title
from graphs.novel.understanding import bare_chapter_title, book_description, target_chapter
from graphs.hooks import NodeContext, node, stage
from graphs.novel import offline as _offline  # noqa: F401  registers the offline composers
from graphs.novel import prompts
from graphs.novel.library import NovelProjectError as ProjectError, ProjectFiles, check_project_option, novel_config
from schemas.events import ArtifactType
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    CharactersConfig,
    GeneratedChapter,
    GeneratedScene,
    NovelSettings,
    Outline,
    ThemeConflict,
    WorldSetting,
)

ROLE = "novel"


class WorkflowState(TypedDict, total=False):
    project_id: str
    description: str  # what the message says of the book: the world of a project that does not exist yet
    to_chapter: int | None  # None: every chapter of the outline
    force: bool
    queue: list[int] | None  # chapters this run still has to write (None: not computed yet)
    chapter: int | None  # the chapter being written
    scenes: list[dict[str, Any]]  # its finished scenes (GeneratedScene dicts)
    scene_total: int  # scenes in its plan
    written: list[int]  # chapters finished by this run


def workflow_input(project_id: str, to_chapter: int | None = None, force: bool = False,
                   queue: list[int] | None = None, description: str = "") -> WorkflowState:
    return WorkflowState(project_id=project_id, description=description, to_chapter=to_chapter, force=force,
                         queue=queue, chapter=None, scenes=[], written=[])


def chapters_named(numbers: list[int]) -> str:
    """Chapters as a sentence names them: "第 1 章", "第 2、3 章" / "chapter 1", "chapters 2, 3"."""
    if len(numbers) == 1:
        return t("novel.chapter_named", chapter=numbers[0])
    return t("novel.chapters_named", chapters=join_items(map(str, numbers)))


def queued_sentence(queue: list[int]) -> str:
    """The chapters a run writes, said as chapters ("本次写第 1 章", not "本次要写 1 章：1")."""
    if not queue:
        return t("novel.chapters_queued_none")
    if len(queue) == 1:
        return t("novel.chapter_queued_one", chapter=queue[0])
    return t("novel.chapters_queued", count=len(queue), chapters=join_items(map(str, queue)))


def _files(state: WorkflowState, ctx: NodeContext) -> ProjectFiles:
    return ProjectFiles.open(novel_config(ctx.flow.tools), state["project_id"])


# ------------------------------------------------------------------ set-up steps


@stage("create_project")
async def create_project(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    """A project the message names and describes, made as `ng novel init` makes one (its world: the message)."""
    config = novel_config(ctx.flow.tools)
    # Made already when this step is re-run after a crash: it goes on with that project, and says so.
    if ProjectFiles.project(config, state["project_id"]).exists():
        ctx.log(t("novel.project_reused", project=state["project_id"]))
        return {}
    ProjectFiles.create(config, state["project_id"], world_description=state["description"])
    ctx.log(t("novel.project_created_from_message", project=state["project_id"]))
    return {}


async def _compose(ctx: NodeContext, files: ProjectFiles, schema, *, prompt: str, facts: dict[str, Any]):
    """One structured model call of the workflow, in the book's language."""
    language = files.language()
    return await ctx.llm.structured(schema, role=ROLE, system=prompts.system(language), prompt=prompt,
                                    facts={**facts, "language": language})


def _premise(settings: NovelSettings) -> str:
    """The project's world description as the offline rules read it (Traditional in Simplified); the project keeps it
    as the author typed it."""
    return understood(settings.world_description)


def _what_it_holds(made: Any) -> str:
    """What a setup step made, in the user's words: the world's name, the core theme, the cast's names (the log
    said "World written to world.json", a file the user never opens)."""
    if isinstance(made, WorldSetting):
        return made.world_name
    if isinstance(made, ThemeConflict):
        return made.core_theme
    if isinstance(made, CharactersConfig):
        people = [made.protagonist, made.antagonist, *made.supporting_characters]
        return join_items(p.name for p in people if p is not None)
    return ""


async def _setup_step(state: WorkflowState, ctx: NodeContext, *, step: str, schema, prompt: str,
                      facts: dict[str, Any]) -> dict[str, Any]:
    files = _files(state, ctx)
    if files.has(step):
        ctx.log(t("novel.step_kept", step=t(f"novel.step_{step}"), what=_what_it_holds(files.load(step))))
        return {}
    made = await _compose(ctx, files, schema, prompt=prompt, facts=facts)
    files.save(step, made)
    ctx.log(t("novel.step_written", step=t(f"novel.step_{step}"), what=_what_it_holds(made)))
    return {}


@stage("world")
async def world(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    files.claim_run(ctx.thread_id, ctx.thread_running)  # two runs writing one project's files would overwrite each other
    settings = files.settings()
    return await _setup_step(state, ctx, step="world", schema=WorldSetting, prompt=prompts.world(settings.world_description),
                             facts={"description": _premise(settings), "seed": settings.project_name})


@stage("theme_conflict")
async def theme_conflict(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    settings, world_setting = files.settings(), files.load("world")
    return await _setup_step(
        state, ctx, step="theme_conflict", schema=ThemeConflict,
        prompt=prompts.theme_conflict(world_setting.model_dump(), settings.theme_description or ""),
        facts={"world": world_setting.model_dump(), "direction": understood(settings.theme_description or ""),
               "description": _premise(settings)},
    )


@stage("characters")
async def characters(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    world_setting, theme = files.load("world").model_dump(), files.load("theme_conflict").model_dump()
    settings = files.settings()
    # The description itself too: the people its author named there keep their names. A Traditional premise is
    # read in Simplified, so its names come out Simplified ("林曉雨" → "林晓雨"): the offline book is written in
    # Simplified, and one script throughout reads better than names in another script from the text around them.
    return await _setup_step(state, ctx, step="characters", schema=CharactersConfig,
                             prompt=prompts.characters(world_setting, theme, settings.world_description),
                             facts={"world": world_setting, "theme": theme, "seed": settings.project_name,
                                    "description": _premise(settings)})


@stage("outline")
async def outline(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    """Writes or extends the outline to the target, then decides which chapters this run writes."""
    files = _files(state, ctx)
    settings = files.settings()
    existing: Outline | None = files.load("outline") if files.has("outline") else None
    wanted = state.get("to_chapter") or (len(existing.chapters) if existing else settings.initial_chapters)
    if wanted > settings.max_chapters:
        ctx.log(t("novel.capped_at_max", wanted=wanted, max=settings.max_chapters), level="warning")
        wanted = settings.max_chapters
    if existing is None or len(existing.chapters) < wanted:
        size = wanted if existing else max(wanted, settings.initial_chapters)
        facts = {"world": files.load("world").model_dump(), "theme": files.load("theme_conflict").model_dump(),
                 "characters": files.load("characters").model_dump(), "chapters": size,
                 "existing": existing.model_dump() if existing else None,
                 # the first chapter opens on what the description has the protagonist do
                 "description": _premise(settings)}
        made = await _compose(
            ctx, files, Outline,
            prompt=prompts.outline(facts["world"], facts["theme"], facts["characters"], size, facts["existing"]),
            facts=facts,
        )
        files.save("outline", made)
        ctx.log(t("novel.outline_written", chapters=len(made.chapters)))
        existing = made
    else:
        ctx.log(t("novel.outline_kept", chapters=len(existing.chapters)))
    queue = state.get("queue")
    if queue is None:
        numbers = sorted(c.chapter_number for c in existing.chapters if c.chapter_number <= wanted)
        queue = [n for n in numbers if state.get("force") or not files.has_chapter(n)]
    files.record_run(to_chapter=wanted, force=bool(state.get("force")), pending=queue, thread_id=ctx.thread_id)
    ctx.log(queued_sentence(queue))
    return {"to_chapter": wanted, "queue": queue}


# ------------------------------------------------------------------- per chapter


@stage("plan_chapter")
async def plan_chapter(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    files.claim_run(ctx.thread_id, ctx.thread_running)  # a run resumed from its checkpoint may start here
    number = state["queue"][0]
    if files.has_plan(number) and not state.get("force"):
        plan = files.load_plan(number)
        ctx.log(t("novel.plan_kept", chapter=number, scenes=len(plan.scenes)))
    else:
        summary = files.chapter_summary(number)
        characters_config = files.load("characters").model_dump()
        memory = [m.model_dump() for m in files.chapter_memory() if m.chapter_number < number][-3:]
        world = files.load("world")
        plan = await _compose(
            ctx, files, ChapterPlan,
            prompt=prompts.chapter_plan(summary.model_dump(), characters_config, memory, world.geography if world else ""),
            # the description says the book's age, which its scenes' places keep
            facts={"summary": summary.model_dump(), "characters": characters_config, "memory": memory,
                   "description": _premise(files.settings()),
                   # a world its author wrote names the book's own places, where its scenes happen
                   "world": world.model_dump() if world else {}},
        )
        files.save_plan(plan)
        ctx.log(t("novel.plan_written", chapter=number, scenes=len(plan.scenes)))
    return {"chapter": number, "scenes": [], "scene_total": len(plan.scenes)}


@node("write_scene")
async def write_scene(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    files.claim_run(ctx.thread_id, ctx.thread_running)  # a run resumed from its checkpoint may start here
    number = state["chapter"]
    plan = files.load_plan(number)
    done = list(state.get("scenes") or [])
    scene = plan.scenes[len(done)]
    total = len(plan.scenes)
    # The count is of scenes finished: the one being written is named, and counted once it is written.
    ctx.progress(len(done), total, t("novel.progress_scene", chapter=number, scene=scene.scene_number, total=total),
                 status="generating_scene")
    context = await files.scene_memory(scene, number, plan, ctx.llm)
    artifact_id = ctx.artifact(key=f"scene_memory_{number}_{scene.scene_number}", type=ArtifactType.scene_memory_context,
                               title=t("novel.scene_memory_title", chapter=number, scene=scene.scene_number),
                               content=context.to_json_dict())
    found = (len(context.relevant_memories), len(context.entity_states))
    # a later scene of the book's first chapter has no chapter memory yet, but follows the scenes just written
    ctx.log(t("novel.scene_memory_found", memories=found[0], states=found[1]) if any(found)
            else t("novel.scene_memory_follows", done=len(done)) if done
            else t("novel.scene_memory_none"), artifact_id=artifact_id)
    for note in context.degraded:
        ctx.log(note, level="warning")
    memories = [m.content for m in context.relevant_memories]
    previous = [s["content"][-200:] for s in done]
    made = await _compose(
        ctx, files, GeneratedScene,
        prompt=prompts.scene_text(plan.model_dump(), scene.model_dump(), previous,
                                  context.to_json_dict()),
        facts={"scene": scene.model_dump(), "chapter_number": number, "chapter_title": plan.chapter_title,
               "memories": memories, "previous": previous, "description": _premise(files.settings())},
    )
    # The model's own numbering and count are not trusted: the plan and the text decide them.
    written = GeneratedScene.from_content(scene.scene_number, made.content)
    ctx.log(t("novel.scene_written", chapter=number, scene=scene.scene_number, words=written.word_count))
    ctx.progress(len(done) + 1, total, t("novel.progress_scenes_done", chapter=number, done=len(done) + 1, total=total),
                 status="generating_scene")
    return {"scenes": done + [written.model_dump()]}


@stage("assemble_chapter")
async def assemble_chapter(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    number = state["chapter"]
    plan = files.load_plan(number)
    scenes = [GeneratedScene.model_validate(s) for s in state["scenes"]]
    chapter = GeneratedChapter.assemble(number, plan.chapter_title, scenes)
    files.save_chapter(chapter)
    artifact_id = ctx.artifact(key=f"chapter_{number}", type=ArtifactType.novel_chapter,
                               title=t("novel.chapter_title", chapter=number, title=bare_chapter_title(plan.chapter_title)),
                               content=chapter, show_in_canvas=True)
    ctx.log(t("novel.chapter_written", chapter=number, title=bare_chapter_title(plan.chapter_title), scenes=len(scenes),
              words=chapter.total_words), artifact_id=artifact_id)
    return {}


@stage("remember_chapter")
async def remember_chapter(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    """Chapter memory entry, entity state snapshots and memory chunks for the chapter just written."""
    files = _files(state, ctx)
    number = state["chapter"]
    chapter, plan = files.load_chapter(number), files.load_plan(number)
    summary = files.chapter_summary(number)
    entry = await _compose(
        ctx, files, ChapterMemoryEntry,
        prompt=prompts.chapter_memory(chapter.model_dump(), summary.model_dump() if summary else None),
        facts={"chapter": chapter.model_dump(), "plan": plan.model_dump(),
               "summary": summary.model_dump() if summary else {}},
    )
    entry = entry.model_copy(update={"chapter_number": number, "chapter_title": chapter.chapter_title})
    files.upsert_chapter_memory(entry)
    report = await files.index_all()  # only the chapter just written (and memory entries that changed) are new
    ctx.log(t("novel.chapter_remembered", chapter=number, chunks=report.chunks, snapshots=report.states))
    for note in report.degraded:
        ctx.log(note, level="warning")
    queue = list(state["queue"][1:])
    files.record_run(to_chapter=state["to_chapter"], force=bool(state.get("force")), pending=queue,
                     thread_id=ctx.thread_id)
    return {"queue": queue, "chapter": None, "scenes": [], "written": list(state.get("written") or []) + [number]}


@node("finish")
async def finish(state: WorkflowState, ctx: NodeContext) -> dict[str, Any]:
    files = _files(state, ctx)
    files.clear_run()
    status = files.status()
    artifact_id = ctx.artifact(key="novel_status", type=ArtifactType.novel_status, title=t("novel.status_title"),
                               content=status, final=True)
    written = state.get("written") or []
    sentence = (t("novel.run_done", chapters=chapters_named(written), generated=status.chapters_generated,
                  total=status.outline_chapters) if written else t("novel.run_nothing_to_do", generated=status.chapters_generated))
    ctx.log(sentence, artifact_id=artifact_id)
    ctx.message(sentence, final=True)
    return {}


# ---------------------------------------------------------------------- routing


def _first_step(state: WorkflowState, runtime: Runtime[FlowContext]) -> str:
    # Only a project that does not exist and that the message describes is created; any other unknown
    # (or invalid) project fails in `world` with its sentence, as before (the edge refuses it first).
    try:
        missing = not ProjectFiles.project(novel_config(runtime.context.tools), state["project_id"]).exists()
    except ProjectError:
        return "world"
    return "create_project" if missing and state.get("description") else "world"


def _next_chapter(state: WorkflowState) -> str:
    return "plan_chapter" if state.get("queue") else "finish"


def _next_scene(state: WorkflowState) -> str:
    return "write_scene" if len(state.get("scenes") or []) < state["scene_total"] else "assemble_chapter"


SETUP_STEPS = ("world", "theme_conflict", "characters", "outline")


def build_graph() -> StateGraph:
    graph = StateGraph(WorkflowState, context_schema=FlowContext)
    for name, fn in (("create_project", create_project), ("world", world), ("theme_conflict", theme_conflict), ("characters", characters),
                     ("outline", outline), ("plan_chapter", plan_chapter), ("write_scene", write_scene),
                     ("assemble_chapter", assemble_chapter), ("remember_chapter", remember_chapter),
                     ("finish", finish)):
        graph.add_node(name, fn)
    graph.add_conditional_edges(START, _first_step, ["create_project", SETUP_STEPS[0]])
    graph.add_edge("create_project", SETUP_STEPS[0])
    for before, after in zip(SETUP_STEPS, SETUP_STEPS[1:]):
        graph.add_edge(before, after)
    graph.add_conditional_edges("outline", _next_chapter, ["plan_chapter", "finish"])
    graph.add_conditional_edges("plan_chapter", _next_scene, ["write_scene", "assemble_chapter"])
    graph.add_conditional_edges("write_scene", _next_scene, ["write_scene", "assemble_chapter"])
    graph.add_edge("assemble_chapter", "remember_chapter")
    graph.add_conditional_edges("remember_chapter", _next_chapter, ["plan_chapter", "finish"])
    graph.add_edge("finish", END)
    return graph


# Compiled without a checkpointer: nested inside another flow's node it checkpoints with the parent's.
WORKFLOW = build_graph().compile()


# ------------------------------------------------------------- flow definition


def initial_input(text: str, options: Mapping[str, Any]) -> WorkflowState:
    # The canvas sends only the message: "生成到第 2 章" names the target as `toChapter` would.
    to_chapter = options.get("toChapter") or target_chapter(understood(text))
    queue = options.get("queue")
    return workflow_input(str(options.get("projectId", "")), int(to_chapter) if to_chapter else None,
                          bool(options.get("force", False)), [int(n) for n in queue] if queue is not None else None,
                          description=book_description(text))


def check_options(options: Mapping[str, Any], tools: Mapping[str, Any], text: str = "") -> None:
    # The message may describe a new project's world: the flow creates it (create_project).
    check_project_option(options, tools, message=text)
    to_chapter = options.get("toChapter")
    if to_chapter is not None and (not isinstance(to_chapter, int) or isinstance(to_chapter, bool) or to_chapter < 1):
        raise ValueError(t("novel.bad_to_chapter"))
    queue = options.get("queue")
    if queue is not None and not (isinstance(queue, list) and all(_is_chapter_number(n) for n in queue)):
        raise ValueError(t("novel.bad_queue"))
    # a JSON boolean only: bool("false") is True, and a rewrite the user did not ask for loses chapters
    if not isinstance(options.get("force", False), bool):
        raise ValueError(t("novel.bad_force"))


def _is_chapter_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


FLOW = FlowDefinition(
    name="novel_workflow",
    title="小说生成 Novel generation",
    description="World → theme → characters → outline → chapter plans → scenes → chapters, in NovelGen's project format.",
    build_graph=build_graph,
    initial_input=initial_input,
    check_options=check_options,
    # queue: the chapters a resumed run still has to write (`ng novel resume` reads them from the run journal)
    option_names=frozenset({"projectId", "toChapter", "force", "queue"}),
    thread_title=lambda text: first_line_title(text) or "novel",
    subject_option="projectId",
)
