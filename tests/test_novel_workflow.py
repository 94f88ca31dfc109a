"""The novel generation workflow: NovelGen-format files to chapter 2 offline, and a SIGKILL mid-scene."""

from __future__ import annotations

import json
import shutil
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.support.client import RecordingClient
from tests.support.server import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
SCENE = re.compile(r"第 (\d+) 章第 (\d+) 场")


def ng(*args: str, data_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "COLUMNS": "200", "LOCALE": "zh"}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=180, stdin=subprocess.DEVNULL)


def read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A project generated to chapter 2 by `ng novel run` (once for the tests that only read it)."""
    data = tmp_path_factory.mktemp("novel") / "data"
    assert ng("novel", "init", "demo", "--world", "蒸汽朋克的港口城市，钟楼统治时间", data_dir=data).returncode == 0
    result = ng("novel", "run", "demo", "--to", "2", data_dir=data)
    assert result.returncode == 0, result.stdout + result.stderr
    return data


def test_ng_novel_run_writes_two_chapters_in_novelgen_format(generated):
    from schemas.novel import ChapterMemoryEntry, ChapterPlan, CharactersConfig, GeneratedChapter, Outline

    project = generated / "projects" / "demo"
    CharactersConfig.model_validate(read(project / "characters.json"))
    assert len(Outline.model_validate(read(project / "outline.json")).chapters) >= 2
    for number in (1, 2):
        plan = ChapterPlan.model_validate(read(project / "chapters" / f"chapter_{number:03d}_plan.json"))
        chapter = GeneratedChapter.model_validate(read(project / "chapters" / f"chapter_{number:03d}.json"))
        assert [s.scene_number for s in chapter.scenes] == [s.scene_number for s in plan.scenes]
        for scene in chapter.scenes:
            assert scene.word_count == len("".join(scene.content.split()))
            assert (project / f"scene_{number}_{scene.scene_number}_memory.json").exists()
        assert chapter.total_words == sum(s.word_count for s in chapter.scenes)
    assert not (project / "chapters" / "chapter_003.json").exists()
    memory = [ChapterMemoryEntry.model_validate(e) for e in read(project / "chapter_memory.json")]
    assert [e.chapter_number for e in memory] == [1, 2]
    assert "2/" in ng("novel", "status", "demo", data_dir=generated).stdout


def test_ng_novel_export_joins_every_chapter_into_one_text_file(generated, tmp_path):
    out = tmp_path / "novel.txt"
    result = ng("novel", "export", "demo", "--out", str(out), data_dir=generated)
    assert result.returncode == 0, result.stdout + result.stderr
    text = out.read_text(encoding="utf-8")
    for number in (1, 2):
        chapter = read(generated / "projects" / "demo" / "chapters" / f"chapter_{number:03d}.json")
        assert chapter["chapter_title"] in text
        assert all(scene["content"] in text for scene in chapter["scenes"])


def test_ng_novel_status_of_an_unknown_project_lists_the_existing_ones(tmp_path):
    data = tmp_path / "data"
    ng("novel", "init", "alpha", "--world", "荒漠", data_dir=data)
    result = ng("novel", "status", "beta", data_dir=data)
    assert result.returncode == 2
    assert "beta" in result.stdout and "alpha" in result.stdout and "Traceback" not in result.stdout + result.stderr


async def test_a_message_naming_a_chapter_generates_up_to_that_chapter(tmp_path):
    # The canvas sends the typed sentence and the project only, no toChapter option.
    data = tmp_path / "data"
    assert ng("novel", "init", "demo", "--world", "沙漠里的商队城邦", data_dir=data).returncode == 0
    server = ServerProcess(data).start()
    client = await RecordingClient().connect(server.url)
    try:
        ack = await client.call("chat:message", {"flow": "novel_workflow", "text": "生成到第 1 章",
                                                 "options": {"projectId": "demo"}})
        assert ack["ok"], ack
        completion = await client.wait_for("completion", lambda d: d["threadId"] == ack["threadId"], timeout=120)
    finally:
        await client.close()
        server.stop()
    assert completion["success"] is True
    chapters = data / "projects" / "demo" / "chapters"
    assert (chapters / "chapter_001.json").exists()
    assert not (chapters / "chapter_002.json").exists()


async def test_sigkill_mid_scene_then_resume_continues_at_that_scene(tmp_path):
    data = tmp_path / "data"
    assert ng("novel", "init", "demo", "--world", "群岛上的航海时代", data_dir=data).returncode == 0
    env = {"OFFLINE_LATENCY_S": "0.1"}
    first = ServerProcess(data, env=env).start()
    client = await RecordingClient().connect(first.url)
    try:
        ack = await client.call("chat:message", {"flow": "novel_workflow", "text": "写到第 2 章",
                                                 "options": {"projectId": "demo", "toChapter": 2}})
        assert ack["ok"], ack
        thread_id = ack["threadId"]
        # Chapter 2, scene 2 has started (its progress is out) while scene 1 is finished.
        await client.wait_for("progress", lambda d: SCENE.search(d["message"]) is not None
                              and SCENE.search(d["message"]).groups() == ("2", "2"), timeout=60)
        first.kill()
    finally:
        await client.close()

    project = data / "projects" / "demo"
    for path in project.rglob("*.json"):
        read(path)  # every file a crash left behind is whole JSON
    assert (project / "chapters" / "chapter_001.json").exists()
    assert not (project / "chapters" / "chapter_002.json").exists()

    second = ServerProcess(data, env=env).start()
    try:
        client = await RecordingClient().connect(second.url)
        joined = await client.call("thread:join", {"threadId": thread_id})
        assert joined["thread"]["status"] == "interrupted"
        resumed = await client.call("run:resume", {"threadId": thread_id})
        assert resumed["ok"], resumed
        completion = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=90)
        assert completion["success"] is True, completion
        log = client.of(thread_id)
        await client.close()
    finally:
        second.stop()

    starts = Counter(d["toolName"] for n, d in log if n == "tool:start")
    for step in ("world", "theme_conflict", "characters", "outline"):
        assert starts[step] == 1, f"{step} ran again after the crash"
    # The progress events that start a scene (the others count scenes written).
    scenes = Counter(SCENE.search(d["message"]).groups() for n, d in log
                     if n == "progress" and SCENE.search(d["message"]))
    assert scenes[("2", "1")] == 1, "a finished scene was written again"
    # The interrupted scene re-runs as the same task: its progress event is stored once (durable events).
    assert set(scenes.values()) == {1}, scenes
    chapter = read(project / "chapters" / "chapter_002.json")
    plan = read(project / "chapters" / "chapter_002_plan.json")
    assert [s["scene_number"] for s in chapter["scenes"]] == [s["scene_number"] for s in plan["scenes"]]


def test_ng_novel_resume_with_nothing_unfinished_says_so(tmp_path):
    data = tmp_path / "data"
    ng("novel", "init", "demo", "--world", "雪原", data_dir=data)
    result = ng("novel", "resume", "demo", data_dir=data)
    assert result.returncode == 2 and "没有未完成的生成" in result.stdout
    assert not (data / "projects" / "demo" / "world.json").exists()


def test_ng_novel_resume_with_nothing_unfinished_names_the_command_that_writes_on(tmp_path):
    data = tmp_path / "data"
    ng("novel", "init", "snow", "--world", "雪原上的驿站", data_dir=data)
    result = ng("novel", "resume", "snow", data_dir=data)
    said = " ".join(result.stdout.split())
    assert result.returncode == 2 and "ng novel run snow --to 1" in said, said  # not a dead end


def test_ng_novel_index_builds_the_memory_of_a_hand_written_project(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "tests" / "data" / "novel" / "mentor_rift", data / "projects" / "mentor_rift")
    result = ng("novel", "index", "mentor_rift", data_dir=data)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "mentor_rift" in result.stdout and "Traceback" not in result.stdout + result.stderr
    assert (data / "novel_memory").exists()


def test_ctrl_c_during_ng_novel_run_names_the_novel_resume_command_and_it_finishes_the_run(tmp_path):
    pexpect = pytest.importorskip("pexpect", reason="pexpect (a dev dependency) drives the pseudo-terminal")
    data = tmp_path / "data"
    ng("novel", "init", "demo", "--world", "星际殖民舰上的人工智能觉醒了", "--chapters", "2", data_dir=data)
    env = {**os.environ, "DATA_DIR": str(data), "LLM_PROVIDER": "offline", "COLUMNS": "200", "LOCALE": "zh",
           "OFFLINE_LATENCY_S": "0.3"}
    child = pexpect.spawn(sys.executable, ["-m", "app.cli", "novel", "run", "demo"], cwd=str(ROOT), env=env,
                          encoding="utf-8", timeout=120)
    child.expect("✔")  # a first step is done: the run is under way
    child.sendintr()
    child.expect(r"继续运行：(ng [^\r\n]+)")
    command = child.match.group(1).strip()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in child.before
    assert command == "ng novel resume demo", "the command `ng novel status demo` names too"
    resumed = ng(*command.split()[1:], data_dir=data)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "2/2" in resumed.stdout


def test_a_second_ng_novel_run_on_a_project_being_generated_is_refused(tmp_path):
    data = tmp_path / "data"
    assert ng("novel", "init", "demo", "--world", "雪山脚下的驿站", data_dir=data).returncode == 0
    env = {**os.environ, "DATA_DIR": str(data), "LLM_PROVIDER": "offline", "OFFLINE_LATENCY_S": "0.2", "LOCALE": "zh"}
    first = subprocess.Popen([sys.executable, "-m", "app.cli", "novel", "run", "demo", "--to", "2"], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        store = data / "agent_canvas.sqlite"
        for _ in range(600):
            if store.exists():
                try:
                    with sqlite3.connect(store, timeout=5) as db:
                        rows = db.execute("SELECT status FROM threads WHERE thread_id = 'novel-demo'").fetchall()
                except sqlite3.OperationalError:  # the run is creating its tables or committing: look again
                    rows = []
                if rows and rows[0][0] == "running":
                    break
            time.sleep(0.1)
        second = ng("novel", "run", "demo", "--to", "2", data_dir=data)
        still_running = first.poll() is None
    finally:
        first.kill()
        first.wait(timeout=10)
    assert still_running, "the first run had ended before the second started: the test proves nothing"
    assert second.returncode == 2, second.stdout + second.stderr
    assert "正在运行" in second.stdout + second.stderr


@pytest.mark.parametrize("bad, why", [
    (["--world", ""], "世界观描述不能为空"), (["--world", "   "], "世界观描述不能为空"),
    (["--world", "雪原", "--chapters", "0"], "章节数必须是大于 0 的整数"),
    (["--world", "雪原", "--chapters", "-3"], "章节数必须是大于 0 的整数"),
])
def test_ng_novel_init_with_bad_arguments_says_why_and_leaves_nothing_to_block_a_retry(tmp_path, bad, why):
    data = tmp_path / "data"
    refused = ng("novel", "init", "zero", *bad, data_dir=data)
    said = refused.stdout + refused.stderr
    assert refused.returncode == 2 and why in said and "Error" not in said, said
    assert not (data / "projects" / "zero").exists(), "a retry would be told the project exists"


# ---- a new project from the canvas: named in "Project", its world described in the message (in-process runtime)

WORLD = "海上孤岛的灯塔守护人发现灯光会引来别的世纪的船"


def runtime_settings(data_dir: Path):
    from core.settings import Settings

    return Settings(data_dir=data_dir, llm_provider="offline", locale="zh", _env_file=None)


async def test_a_new_project_name_with_its_world_described_creates_the_project_and_writes_chapter_1(tmp_path):
    from app.runtime import new_thread_id
    from app.services import open_runtime
    from graphs.novel.library import ProjectFiles, novel_config
    from schemas.novel import GeneratedChapter, NovelSettings

    data = tmp_path / "data"
    async with open_runtime(runtime_settings(data)) as runtime:
        thread_id = new_thread_id()
        await runtime.send_message(flow="novel_workflow", text=f"{WORLD}，生成到第 1 章", thread_id=thread_id,
                                   create=True, options={"projectId": "lighthouse"})
        await runtime.wait(thread_id)
        events = await runtime.store.events_after(thread_id)
        config = novel_config(runtime.tools)
    assert [p for n, p in events if n == "completion"][-1]["success"] is True
    assert [p["toolName"] for n, p in events if n == "tool:start"][:2] == ["create_project", "world"]
    project = data / "projects" / "lighthouse"
    # settings.json as `ng novel init` writes it, the message (without its command) as the world
    assert NovelSettings.model_validate(read(project / "settings.json")).world_description == WORLD
    assert ProjectFiles.open(config, "lighthouse").language() == "zh"
    GeneratedChapter.model_validate(read(project / "chapters" / "chapter_001.json"))
    assert not (project / "chapters" / "chapter_002.json").exists()


@pytest.mark.parametrize("project_id, text, refusal", [
    ("lighthouse", "生成到第2章", "novel.how_to_create_project"),
    ("lighthouse", "write up to chapter 3", "novel.how_to_create_project"),
    # a name that cannot be a folder is refused for what it is, however well the world is described
    ("../lighthouse", WORLD, "novel.project_invalid_id"),
])
async def test_an_unknown_project_the_message_cannot_create_is_refused_with_how_to_and_nothing_is_made(
        tmp_path, project_id, text, refusal):
    from app.errors import RequestError
    from app.runtime import new_thread_id
    from app.services import open_runtime
    from core.i18n import t

    data = tmp_path / "data"
    async with open_runtime(runtime_settings(data)) as runtime:
        with pytest.raises(RequestError) as refused:
            await runtime.send_message(flow="novel_workflow", text=text, thread_id=new_thread_id(), create=True,
                                       options={"projectId": project_id})
        threads = await runtime.store.list_threads()
    assert t(refusal, project_id=project_id) in refused.value.message
    assert threads == [] and not (data / "projects").exists()


# ---- single steps, in-process (fast): a step run alone in a one-node graph, its events collected


async def step_events(step, state, config, schema=None, thread_id: str = "t") -> list[tuple[str, dict]]:
    from langgraph.graph import END, START, StateGraph

    from core.llm.offline import OfflineLLM
    from graphs.base import FlowContext
    from graphs.novel.workflow import WorkflowState

    graph = StateGraph(schema or WorkflowState, context_schema=FlowContext)
    graph.add_node("step", step)
    graph.add_edge(START, "step")
    graph.add_edge("step", END)
    events = []
    try:
        async for chunk in graph.compile().astream(state, {"configurable": {"thread_id": thread_id}}, stream_mode="custom",
                                                   context=FlowContext(llm=OfflineLLM(), tools={"novel": config})):
            events += [(e["event"], e["data"]) for e in chunk["events"]]
    except Exception as error:  # a step that fails: its events, then what it raised
        events.append(("raised", {"error": error}))
    return events


def novel_config(tmp_path: Path):
    from core.settings import Settings
    from core.tools.novel import NovelConfig

    return NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", llm_provider="offline", _env_file=None))


async def test_a_rerun_of_create_project_after_a_crash_says_it_reuses_the_project_not_that_it_created_it(tmp_path):
    from core.i18n import t
    from graphs.novel.library import ProjectFiles
    from graphs.novel.workflow import create_project, workflow_input

    config = novel_config(tmp_path)
    ProjectFiles.create(config, "lighthouse", world_description="海上孤岛的灯塔守护人")  # the crashed run made it
    events = await step_events(create_project, workflow_input("lighthouse", description="海上孤岛的灯塔守护人"), config)
    logs = [d["message"] for n, d in events if n == "tool:log"]
    assert logs == [t("novel.project_reused", project="lighthouse")]


async def test_a_step_already_written_says_in_english_that_it_is_kept_whatever_its_name(tmp_path):
    from core.i18n import current_locale, set_locale
    from graphs.novel.library import ProjectFiles
    from graphs.novel.workflow import characters, theme_conflict, workflow_input, world

    config = novel_config(tmp_path)
    ProjectFiles.create(config, "lighthouse", world_description="A lighthouse keeper on a lonely island")
    state = workflow_input("lighthouse")
    for step in (world, theme_conflict, characters):
        await step_events(step, state, config)
    was = current_locale()
    set_locale("en")
    try:
        kept = [d["message"] for step in (theme_conflict, characters)
                for n, d in await step_events(step, state, config) if n == "tool:log"]
    finally:
        set_locale(was)
    assert [m for m in kept if "Theme and conflict" in m] and [m for m in kept if "Characters" in m], kept
    assert not [m for m in kept if " exists " in m], "no verb that agrees with one name and not the other"


async def test_scene_progress_counts_scenes_written_and_ends_at_the_chapters_total(tmp_path, monkeypatch):
    from datetime import datetime

    from graphs.novel.library import ProjectFiles
    from graphs.novel.workflow import write_scene, workflow_input
    from schemas.novel import ChapterPlan, SceneMemoryContext, ScenePlan

    config = novel_config(tmp_path)
    files = ProjectFiles.create(config, "demo", world_description="雪山脚下的驿站")
    files.save_plan(ChapterPlan(chapter_number=1, chapter_title="第1章 启程", scenes=[
        ScenePlan(scene_number=n, location="驿站", characters=["林远"], purpose="推进剧情", key_actions=["赶路"], estimated_words=300,
                  scene_type="日常", intensity="低")
        for n in (1, 2)]))

    async def no_memory(self, scene, chapter, plan, llm):  # retrieval is not what is measured here
        return SceneMemoryContext(project_id="demo", retrieval_timestamp=datetime.now())

    monkeypatch.setattr(ProjectFiles, "scene_memory", no_memory)
    state = {**workflow_input("demo", to_chapter=1), "chapter": 1, "scene_total": 2, "scenes": []}
    seen = []
    for _ in range(2):
        events = await step_events(write_scene, state, config)
        seen += [(d["current"], d["total"]) for n, d in events if n == "progress"]
        written = [d for n, d in events if n == "tool:log" and "完成" in d["message"]]
        assert written, events
        state["scenes"] = state["scenes"] + [{"scene_number": len(state["scenes"]) + 1, "content": "x", "word_count": 1}]
    # While scene 1 is being written none is done; the last event says both are.
    assert seen[0] == (0, 2) and seen[-1] == (2, 2), seen
    assert all(current <= total for current, total in seen)


def another_live_process() -> str:
    """The runner name of a process other than this one that is alive (the one that started the tests)."""
    import socket

    from core.processes import _started

    return f"{socket.gethostname()}|{os.getppid()}|{_started(os.getppid()) or ''}"


def journal_of_a_run(tmp_path: Path, runner: str, thread_id: str):
    from graphs.novel.library import ProjectFiles

    files = ProjectFiles.create(novel_config(tmp_path), "demo", world_description="雪山脚下的驿站")
    files.project.write_json(files.root / ".workflow_run.json", {"to_chapter": 2, "force": False, "pending": [1, 2],
                                                                  "runner": runner, "thread_id": thread_id})
    return files


async def test_the_chat_says_a_generation_is_running_in_another_process_and_refuses_resume_instead_of_offering_it(tmp_path):
    from core.i18n import t
    from graphs.novel.chat import ChatState, slash_command, status_sentence

    files = journal_of_a_run(tmp_path, another_live_process(), "novel-demo")
    sentence = status_sentence(files.status())
    assert t("novel.chat_generation_running") in sentence and t("novel.chat_resumable") not in sentence
    for command in ("/resume", "/run 2"):
        events = await step_events(slash_command, ChatState(project_id="demo", text=command, history=[]),
                                   novel_config(tmp_path), schema=ChatState, thread_id="chat-thread")
        said = [d["content"] for n, d in events if n == "message"]
        assert said == [t("novel.generation_running", project="demo")], said
        assert not [n for n, d in events if n == "interrupt"]


async def test_the_chat_opened_while_a_generation_runs_elsewhere_offers_questions_not_generation(tmp_path):
    from core.i18n import t
    from graphs.novel.chat import ChatState, startup

    journal_of_a_run(tmp_path, another_live_process(), "novel-demo")
    events = await step_events(startup, ChatState(project_id="demo", text="", history=[]), novel_config(tmp_path),
                               schema=ChatState, thread_id="chat-thread")
    [said] = [d["content"] for n, d in events if n == "message"]
    assert t("novel.chat_hint_while_running") in said and t("novel.chat_hint") not in said, said


async def test_a_run_refused_because_another_generates_the_project_is_not_offered_for_resume(tmp_path):
    from app.runtime import new_thread_id
    from app.services import open_runtime

    journal_of_a_run(tmp_path, another_live_process(), "novel-demo")
    async with open_runtime(runtime_settings(tmp_path / "data")) as runtime:
        thread_id = new_thread_id()
        await runtime.send_message(flow="novel_workflow", text="生成到第 2 章", thread_id=thread_id, create=True,
                                   options={"projectId": "demo"})
        await runtime.wait(thread_id)
        [completion] = [p for n, p in await runtime.store.events_after(thread_id) if n == "completion"]
    assert (completion["success"], completion["resumable"]) == (False, False), completion


def test_a_run_of_this_process_offers_resume_only_once_its_thread_stopped_running(tmp_path):
    from core.processes import this_process

    files = journal_of_a_run(tmp_path, this_process(), "workflow-thread")
    assert not files.status(running_here={"workflow-thread"}.__contains__).resumable
    assert files.status(running_here=set().__contains__).resumable


async def test_a_second_run_of_a_project_being_generated_elsewhere_writes_nothing_and_says_why(tmp_path):
    from core.i18n import t
    from graphs.novel.workflow import workflow_input, world

    files = journal_of_a_run(tmp_path, another_live_process(), "novel-demo")
    events = await step_events(world, workflow_input("demo", to_chapter=2), novel_config(tmp_path), thread_id="chat-thread")
    errors = [d["message"] for n, d in events if n == "tool:log" and d["level"] == "error"]
    assert errors == [t("novel.generation_running", project="demo")], events
    assert not files.has("world")
    assert files.run_journal().runner == another_live_process()


async def understood(tmp_path, monkeypatch, question: str, project: str = "mentor_rift") -> dict:
    """The chat's turn after its understand step read `question` about a copy of a test project (no passages)."""
    from langgraph.graph import END, START, StateGraph

    from core.llm.offline import OfflineLLM
    from core.settings import Settings
    from core.tools.novel import NovelConfig
    from graphs.base import FlowContext
    from graphs.novel.chat import ChatState, understand
    from graphs.novel.tools import MemoryTool

    async def no_passages(self, query, entities=None, top_k=8):
        return []  # the passages are not what is tested: no index is built

    monkeypatch.setattr(MemoryTool, "search", no_passages)
    shutil.copytree(ROOT / "tests" / "data" / "novel" / project, tmp_path / "projects" / project)
    config = NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", novel_projects_dir=tmp_path / "projects",
                                                llm_provider="offline", _env_file=None))
    graph = StateGraph(ChatState, context_schema=FlowContext)
    graph.add_node("understand", understand)
    graph.add_edge(START, "understand")
    graph.add_edge("understand", END)
    return await graph.compile().ainvoke(ChatState(project_id=project, text=question, history=[], references={}),
                                         context=FlowContext(llm=OfflineLLM(), tools={"novel": config}))


@pytest.mark.parametrize("question", ["沈青和主角什么时候决裂的", "when did 沈青 and the hero fall out"])
async def test_the_protagonist_named_by_role_in_a_question_is_the_other_one_asked_about(tmp_path, monkeypatch, question):
    # "沈墨和主角什么时候决裂的" asked of 沈墨 alone: 主角 was read as no one.
    state = await understood(tmp_path, monkeypatch, question)
    assert (state["turn"]["subject"], state["turn"]["other"]) == ("沈青", "林远")


@pytest.mark.parametrize("question, whose", [("主角的宿敌是谁", ("林远", "顾川")), ("反派的宿敌是谁", ("顾川", "林远"))])
async def test_a_tie_both_of_a_pair_share_is_read_from_the_role_the_question_names(tmp_path, monkeypatch, question, whose):
    # "主角的宿敌是谁" was asked back "“”指的是谁？": both 林远 and 顾川 call the other 宿敌.
    state = await understood(tmp_path, monkeypatch, question)
    assert (state["turn"]["subject"], state["turn"]["other"]) == whose


def test_a_line_two_scenes_repeat_is_cited_from_the_scene_the_passage_was_found_in(tmp_path):
    from graphs.novel.chat import verify
    from graphs.novel.library import ProjectFiles
    from schemas.novel import GeneratedChapter, GeneratedScene

    files = ProjectFiles.create(novel_config(tmp_path), "demo", world_description="雪山脚下的驿站")
    said = "他们想起了前事：林小雨遇到林大山。"
    files.save_chapter(GeneratedChapter.assemble(2, "第2章 对峙", [
        GeneratedScene.from_content(n, f"林小雨来到城门。{said}" if n != 2 else "林小雨来到渡口。") for n in (1, 2, 3)]))
    evidence, dropped = verify(files, [(2, said, 3)])
    assert dropped == 0 and [(e.chapter_number, e.scene_number) for e in evidence] == [(2, 3)]


def test_a_hand_written_world_json_gives_the_chapter_plans_their_places(tmp_path):
    # A 民国 tea village whose world.json names 云雾坞, its 石拱桥 and 炒茶坊 planned scenes at 码头 and 电车站
    data = tmp_path / "data"
    assert ng("novel", "init", "tea", "--world", "民国初年，一个种茶为生的地方，茶农之女林素素想保住家里的茶园。",
              "--chapters", "2", data_dir=data).returncode == 0
    project = data / "projects" / "tea"
    (project / "world.json").write_text(json.dumps({
        "world_name": "云雾坞", "time_period": "民国初年", "social_system": "宗族", "technology_level": "手工制茶",
        "culture_customs": "祭茶神",
        "geography": "皖南山中的云雾坞，半山腰是林家的老茶园，坞口有一座石拱桥，溪边是周家的炒茶坊，山那边是屯溪镇。"},
        ensure_ascii=False), encoding="utf-8")
    result = ng("novel", "run", "tea", data_dir=data)
    assert result.returncode == 0, result.stdout + result.stderr
    places = {scene["location"] for number in (1, 2)
              for scene in read(project / "chapters" / f"chapter_{number:03d}_plan.json")["scenes"]}
    assert places and places <= {"山中", "云雾坞", "茶园", "石拱桥", "溪边", "茶坊", "屯溪镇"}, places


async def test_a_project_made_from_a_message_is_announced_without_the_message_said_back(tmp_path):
    from graphs.novel.workflow import create_project, workflow_input

    description = "一个失忆的剑客在江南小镇醒来，发现镇上的人都认识他，却没人肯说他是谁"
    events = await step_events(create_project, workflow_input("jianghu", description=description), novel_config(tmp_path))
    logs = [d["message"] for n, d in events if n == "tool:log"]
    assert len(logs) == 1 and "jianghu" in logs[0], logs
    assert "江南小镇" not in logs[0] and "世界观：" not in logs[0], "the person's words are not echoed back"


@pytest.mark.parametrize(("queue", "locale", "said"), [
    ([1], "zh", "本次写第 1 章。"), ([2, 3, 4], "zh", "本次要写 3 章：第 2、3、4 章。"),
    ([1], "en", "This run writes chapter 1."), ([5, 6], "en", "This run writes 2 chapters: 5, 6."),
])
def test_the_chapters_a_run_writes_are_said_as_chapters_not_bare_numbers(queue, locale, said):
    from core.i18n import set_locale, current_locale
    from graphs.novel.workflow import queued_sentence

    before = current_locale()
    set_locale(locale)
    try:
        assert queued_sentence(queue) == said
    finally:
        set_locale(before)


async def _step_log_of_a_run(data_dir, text: str, project_id: str) -> list[str]:
    """The tool:log lines a novel_workflow run leaves, started as the canvas starts one."""
    from app.runtime import new_thread_id
    from app.services import open_runtime

    async with open_runtime(runtime_settings(data_dir)) as runtime:
        thread_id = new_thread_id()
        await runtime.send_message(flow="novel_workflow", text=text, thread_id=thread_id, create=True,
                                   options={"projectId": project_id})
        await runtime.wait(thread_id)
        events = await runtime.store.events_after(thread_id)
    return [p["message"] for n, p in events if n == "tool:log"]


async def test_the_first_chapters_scenes_say_there_is_nothing_earlier_to_recall_not_that_zero_were_found(tmp_path):
    from core.i18n import t

    logs = await _step_log_of_a_run(tmp_path / "data", "雪山脚下的邮递员每天送一封没有收信人的信，生成到第 1 章", "snowpost")
    first_scene = [line for line in logs if line == t("novel.scene_memory_none")]
    assert first_scene, logs
    assert not [line for line in logs if "检索到 0 条" in line], logs


async def test_the_step_log_names_the_world_and_the_chapter_not_the_files_they_are_kept_in(tmp_path):
    logs = await _step_log_of_a_run(tmp_path / "data", "民国年间，落魄少爷沈墨在上海滩讨生活，生成到第 1 章", "bund")
    assert not [line for line in logs if ".json" in line], logs
    assert any("上海滩" in line for line in logs), logs  # the world's name
    assert any(line.startswith("第 1 章「") and "」已写好" in line for line in logs), logs  # the chapter's title


async def test_a_later_scene_of_the_first_chapter_says_it_follows_the_scenes_just_written(tmp_path):
    from core.i18n import t

    logs = await _step_log_of_a_run(tmp_path / "data", "雪山脚下的邮递员每天送一封没有收信人的信，生成到第 1 章", "snowpost")
    memory_lines = [line for line in logs if line == t("novel.scene_memory_none") or "这一场接着本章" in line]
    assert memory_lines[0] == t("novel.scene_memory_none"), logs
    assert memory_lines[1:] and all("这一场接着本章" in line for line in memory_lines[1:]), logs


@pytest.mark.parametrize(("written", "generated", "locale", "said"), [
    ([1], 1, "en", "Done: chapter 1. Chapters generated so far: 1 of 2."),
    ([1, 2], 2, "en", "Done: chapters 1, 2. Chapters generated so far: 2 of 2."),
    ([2], 2, "zh", "生成完成：第 2 章。目前已生成 2/2 章。"),
])
def test_a_finished_run_names_the_chapters_it_wrote_with_no_chapter_s_left_unsettled(written, generated, locale, said):
    from core.i18n import current_locale, set_locale, t
    from graphs.novel.workflow import chapters_named

    before = current_locale()
    set_locale(locale)
    try:
        assert t("novel.run_done", chapters=chapters_named(written), generated=generated, total=2) == said
    finally:
        set_locale(before)


def test_ng_novel_run_without_to_titles_its_thread_as_the_whole_book_not_chapter_dash(tmp_path):
    data = tmp_path / "data"
    assert ng("novel", "init", "pond", "--world", "山村小学旁的荷塘", "--chapters", "1", data_dir=data).returncode == 0
    assert ng("novel", "run", "pond", data_dir=data).returncode == 0
    listed = ng("threads", data_dir=data).stdout
    assert "novel-pond" in listed and "—" not in listed and "pond" in listed.split("novel-pond", 1)[1], listed
