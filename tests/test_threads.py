"""Threads over the socket: replay by seq, refinement of a finished deck, cancel and resume, bad input; thread titles."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shutil
from collections import Counter

import pytest

from core.i18n import t
from app.runtime import new_thread_id
from app.services import open_runtime
from core.llm.offline import OfflineLLM
from core.settings import Settings
from graphs.base import ForkBefore
from graphs.legal import FLOW as LEGAL
from graphs.novel.chat import FLOW as NOVEL_CHAT
from graphs.novel.workflow import FLOW as NOVEL_WORKFLOW
from schemas.events import TITLE_MAX_CHARS
from tests.test_novel_chat import SOURCE as NOVEL_PROJECT
from tests.test_ppt_socket import run_ppt


def artifact_versions(events) -> dict[str, int]:
    latest: dict[str, int] = {}
    for name, data in events:
        if name == "tool:artifact":
            artifact = data["artifact"]
            latest[artifact["type"]] = max(latest.get(artifact["type"], 0), artifact["version"])
    return latest


# ------------------------------------------------------------------ replay


async def test_join_with_after_seq_replays_exactly_the_missing_tail(live_server, connect):
    runner = await connect(live_server.url)
    thread_id, _ = await run_ppt(runner, "做一个关于浮力的5分钟PPT")
    all_seqs = [d["seq"] for _, d in runner.of(thread_id)]

    late = await connect(live_server.url)
    ack = await late.call("thread:join", {"threadId": thread_id, "afterSeq": 10})
    assert ack["ok"] and ack["thread"]["lastSeq"] == all_seqs[-1]
    assert [d["seq"] for _, d in late.of(thread_id)] == all_seqs[10:]


async def test_join_while_running_gets_tail_then_live_without_gap_or_duplicate(start_server, connect):
    server = await start_server(offline_latency_s=0.03)
    runner = await connect(server.url)
    ack = await runner.call("chat:message", {"flow": "ppt", "text": "做一个关于声音传播的6分钟PPT"})
    thread_id = ack["threadId"]
    await runner.wait_for("tool:artifact", lambda d: d["threadId"] == thread_id)

    watcher = await connect(server.url)
    seen_before_join = max(d["seq"] for _, d in runner.of(thread_id))
    after = seen_before_join - 3
    joined = await watcher.call("thread:join", {"threadId": thread_id, "afterSeq": after})
    assert joined["ok"] and joined["thread"]["status"] == "running"
    await watcher.wait_for("completion", lambda d: d["threadId"] == thread_id, timeout=60)
    await runner.wait_for("completion", lambda d: d["threadId"] == thread_id, timeout=60)

    watched = [d["seq"] for _, d in watcher.of(thread_id)]
    final_seq = max(d["seq"] for _, d in runner.of(thread_id))
    assert watched == list(range(after + 1, final_seq + 1))


# -------------------------------------------------------------- refinement


async def test_outline_feedback_reruns_from_the_outline_and_keeps_course_config_and_theme(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于细胞结构的6分钟PPT")
    first_outline = next(d["artifact"] for _, d in client.of(thread_id, "tool:artifact")
                         if d["artifact"]["type"] == "video_outline")

    ack = await client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "大纲太复杂，精简一下"})
    assert ack["ok"], ack
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert completion["success"]

    second_run = [(n, d) for n, d in client.of(thread_id) if d["runId"] == ack["runId"]]
    rerun = [d["toolName"] for n, d in second_run if n == "tool:start"]
    # The theme depends on the course config, not on the outline: the deck keeps its look.
    assert rerun == ["generate_video_outline", "generate_slide_scripts", "generate_slides", "check_deck", "preview_deck"]
    versions = artifact_versions(client.of(thread_id))
    assert versions["course_config"] == versions["presentation_theme"] == 1
    for kind in ("video_outline", "slide_scripts", "dsl", "pptx"):
        assert versions[kind] == 2, kind
    new_outline = next(d["artifact"] for n, d in second_run if n == "tool:artifact" and d["artifact"]["type"] == "video_outline")
    assert new_outline["id"] == first_outline["id"], "re-generation keeps the artifact id"
    assert completion["finalArtifactId"] == next(d["artifact"]["id"] for n, d in second_run
                                                 if n == "tool:artifact" and d["artifact"]["type"] == "pptx")


async def test_visual_feedback_regenerates_only_the_slides(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于太阳系的5分钟PPT")
    ack = await client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "增加配图，视觉优化一下"})
    await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    rerun = [d["toolName"] for n, d in client.of(thread_id, "tool:start") if d["runId"] == ack["runId"]]
    assert rerun == ["generate_slides", "check_deck", "preview_deck"]
    versions = artifact_versions(client.of(thread_id))
    assert versions["slide_scripts"] == 1 and versions["dsl"] == 2


class GatedRouterLLM:
    """The server's model, except that feedback classification (role "router") waits for `gate`."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.router_calls = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def structured(self, schema, **kwargs):
        if kwargs.get("role") == "router":
            self.router_calls += 1
            await self.gate.wait()
        return await self.inner.structured(schema, **kwargs)


async def test_feedback_needing_the_model_is_acked_before_the_model_answers(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于彩虹的5分钟PPT")
    gated = live_server.runtime.llm = GatedRouterLLM(live_server.runtime.llm)

    # No feedback rule matches this sentence, so only the model can classify it.
    ack = await client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "嗯，我再想想吧"})

    assert ack["ok"], "the ack came while the classification was still waiting on the model"
    gated.gate.set()
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert completion["success"] and gated.router_calls == 1


async def test_a_new_topic_on_a_finished_thread_runs_all_stages(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于月相的5分钟PPT")
    ack = await client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "做一个关于潮汐的5分钟PPT"})
    await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    rerun = [d["toolName"] for n, d in client.of(thread_id, "tool:start") if d["runId"] == ack["runId"]]
    assert rerun[0] == "analyze_topic" and len(rerun) == 8  # six stages, the QA gate, the preview
    outline = [d["artifact"] for n, d in client.of(thread_id, "tool:artifact")
               if d["runId"] == ack["runId"] and d["artifact"]["type"] == "video_outline"][0]
    assert "潮汐" in outline["content"]["theme"]


# ----------------------------------------------------------- cancel, resume


async def test_cancel_stops_at_a_node_boundary_and_resume_finishes_without_redoing_work(start_server, connect):
    server = await start_server(offline_latency_s=0.05, llm_concurrency=1)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于磁场的6分钟PPT"})
    thread_id = ack["threadId"]
    await client.wait_for("tool:message:complete", lambda d: d["toolName"] == "generate_video_outline")
    cancel = await client.call("run:cancel", {"threadId": thread_id})
    assert cancel["ok"]
    stopped = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])
    assert stopped["success"] is False and stopped["error"] == t("runtime.cancelled")
    info = await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000})
    assert info["thread"]["status"] == "cancelled"

    resumed = await client.call("run:resume", {"threadId": thread_id})
    assert resumed["ok"]
    done = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
    assert done["success"]
    starts = Counter(d["toolName"] for _, d in client.of(thread_id, "tool:start"))
    assert starts["analyze_topic"] == starts["generate_course_config"] == starts["generate_video_outline"] == 1
    assert starts["generate_slides"] == 1


# --------------------------------------------------------------- bad input


async def test_bad_input_is_refused_with_a_stable_code_and_the_connection_stays(live_server, connect):
    client = await connect(live_server.url)
    cases = [
        ("chat:message", {"flow": "cooking", "text": "hi"}, "bad_request"),
        ("chat:message", {"flow": "ppt"}, "bad_request"),
        ("chat:message", {"flow": "ppt", "text": "   "}, "bad_request"),
        ("chat:message", {"flow": "ppt", "text": 42}, "bad_request"),
        ("chat:message", {"flow": ["ppt"], "text": "hi"}, "bad_request"),
        ("chat:message", {"flow": "ppt", "text": "hi", "threadID": "typo"}, "bad_request"),
        ("chat:message", "not an object", "bad_request"),
        ("chat:message", {"flow": "ppt", "text": "hi", "threadId": "no-such-thread"}, "not_found"),
        ("run:resume", {"threadId": "no-such-thread"}, "not_found"),
        ("run:resume", {}, "bad_request"),
        ("run:cancel", {"threadId": "no-such-thread"}, "not_found"),
        ("thread:join", {"threadId": "no-such-thread"}, "not_found"),
        ("thread:join", {"threadId": "x", "afterSeq": -1}, "bad_request"),
        ("thread:join", {"threadId": "x", "afterSeq": "ten"}, "bad_request"),
    ]
    for event, payload, code in cases:
        ack = await client.call(event, payload)
        assert ack["ok"] is False, (event, payload)
        assert ack["error"]["code"] == code, (event, payload, ack)
        assert ack["error"]["message"] and "Traceback" not in ack["error"]["message"]

    thread_id, completion = await run_ppt(client, "做一个关于光的折射的5分钟PPT")
    assert completion["success"], "the same connection still runs flows after bad input"
    done_resume = await client.call("run:resume", {"threadId": thread_id})
    assert done_resume["error"]["code"] == "conflict"
    cancel_idle = await client.call("run:cancel", {"threadId": thread_id})
    assert cancel_idle["error"]["code"] == "conflict"
    listed = await client.call("thread:list", {})
    assert [t["threadId"] for t in listed["threads"]] == [thread_id], "refused requests wrote nothing"


async def test_an_unknown_flow_lists_the_flows_as_a_chinese_list(live_server, connect):
    client = await connect(live_server.url)

    refused = await client.call("chat:message", {"flow": "slides", "text": "做一个关于彩虹的PPT"})

    assert refused["error"]["code"] == "bad_request"
    assert "ppt、requirement" in refused["error"]["message"] and ", " not in refused["error"]["message"]


async def test_a_message_of_another_flow_names_the_threads_flow_by_its_title(live_server, connect):
    client = await connect(live_server.url)
    started = await client.call("chat:message", {"flow": "requirement", "text": "给社区图书角做一个借书登记小程序"})
    await client.wait_for("status", lambda d: d["threadId"] == started["threadId"] and d["status"] == "interrupted")

    refused = await client.call("chat:message", {"flow": "ppt", "text": "删掉最后一页", "threadId": started["threadId"]})

    assert refused["error"]["code"] == "bad_request"
    assert f"「{t('flows.requirement_title')}」" in refused["error"]["message"], "the flow as the picker names it"


async def listed(client, thread_id: str) -> dict:
    return next(t for t in (await client.call("thread:list", {}))["threads"] if t["threadId"] == thread_id)


async def test_a_thread_whose_question_waits_is_listed_as_waiting(live_server, connect):
    client = await connect(live_server.url)
    started = await client.call("chat:message", {"flow": "requirement", "text": "给社区菜园做一个浇水排班表"})
    await client.wait_for("status", lambda d: d["threadId"] == started["threadId"] and d["status"] == "interrupted")

    summary = await listed(client, started["threadId"])

    assert summary["status"] == "interrupted" and summary["waiting"] is True


async def test_a_thread_a_restart_stopped_is_listed_as_not_waiting_for_an_answer(start_server, connect):
    server = await start_server(offline_latency_s=0.2)
    client = await connect(server.url)
    started = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于月相变化的5分钟PPT"})
    await client.wait_for("tool:start", lambda d: d["threadId"] == started["threadId"])
    await server.runtime.shutdown(grace_s=30)
    await client.wait_for("completion", lambda d: d["threadId"] == started["threadId"])

    summary = await listed(client, started["threadId"])

    assert summary["status"] == "interrupted" and summary["waiting"] is False, "no question waits: it was stopped"


async def test_a_second_message_while_running_is_a_conflict(start_server, connect):
    server = await start_server(offline_latency_s=0.05)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于雷电的5分钟PPT"})
    busy = await client.call("chat:message", {"flow": "ppt", "threadId": ack["threadId"], "text": "增加配图"})
    assert busy["ok"] is False and busy["error"]["code"] == "conflict"
    done = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert done["success"]


async def test_a_canvas_user_resuming_a_running_thread_reads_the_canvas_word_for_it(start_server, connect):
    # The refusal is the runtime's, shared with `ng` (线程); the canvas calls a thread 会话 on every page.
    server = await start_server(offline_latency_s=0.05)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于季风的5分钟PPT"})

    busy = await client.call("run:resume", {"threadId": ack["threadId"]})

    assert busy["error"]["code"] == "conflict"
    assert busy["error"]["message"].startswith(f"会话 {ack['threadId']} 正在运行"), busy
    assert "线程" not in busy["error"]["message"]
    assert (await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60))["success"]


async def test_a_run_the_canvas_started_ends_in_the_canvas_word_for_a_thread(start_server, connect):
    # The run's task, not the socket handler, words this failure: it inherits the server's surface.
    server = await start_server()
    client = await connect(server.url)
    thread_id, _ = await run_ppt(client, "做一个关于潮汐的5分钟PPT")

    async def fork_before_a_missing_step(*_args):
        return ForkBefore(node="no_such_step", as_node="no_such_step", update={})

    ppt = server.runtime.flows["ppt"]
    server.runtime.flows["ppt"] = dataclasses.replace(ppt, continue_thread=fork_before_a_missing_step)
    ack = await client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "重做大纲"})
    done = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)

    assert done["success"] is False and done["error"].startswith("这个会话还没有走到这一步"), done


async def test_events_of_other_threads_are_not_delivered(live_server, connect):
    alice = await connect(live_server.url)
    bob = await connect(live_server.url)
    thread_id, _ = await run_ppt(alice, "做一个关于酸碱中和的5分钟PPT")
    # One round trip on bob's connection: anything the server sent bob before it arrives first.
    assert (await bob.call("thread:list", {}))["ok"]
    assert bob.of(thread_id) == []


async def test_two_simultaneous_messages_to_one_thread_start_one_run(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于摩擦力的5分钟PPT")
    acks = await asyncio.gather(*(
        client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "增加配图"}) for _ in range(3)
    ))
    assert sorted(a["ok"] for a in acks) == [False, False, True]
    assert {a["error"]["code"] for a in acks if not a["ok"]} == {"conflict"}
    started = next(a for a in acks if a["ok"])
    assert (await client.wait_for("completion", lambda d: d["runId"] == started["runId"], timeout=60))["success"]


async def test_wait_returns_only_after_the_completion_is_stored(live_server):
    runtime = live_server.runtime
    for _ in range(20):  # the gap between freeing the thread and storing completion is a few ms
        thread_id = new_thread_id()
        await runtime.send_message(flow="ppt", text="做一个关于质数的5分钟PPT", thread_id=thread_id, create=True)
        await runtime.wait(thread_id)
        last_event, _ = (await runtime.store.events_after(thread_id))[-1]
        assert last_event == "completion"


# ------------------------------------------------------------------ titles

# Legal has the default title; the novel flows theirs with a placeholder for an empty message.
_TITLED_BY_FIRST_LINE = [LEGAL, NOVEL_CHAT, NOVEL_WORKFLOW]


@pytest.mark.parametrize("flow", _TITLED_BY_FIRST_LINE, ids=lambda flow: flow.name)
@pytest.mark.parametrize("question", ["In chapter three, why did Mara and her brother part ways at the harbour?",
                                      "第三章里，林舟在港口和他的哥哥大吵一架以后就再也没有回过家，连母亲的葬礼也没有去，后来也从不提起这件事，"
                                      "他们兄弟俩当年到底为什么会在港口分开？"])
def test_a_question_that_fits_a_title_names_its_thread_whole_with_its_question_mark(flow, question):
    assert flow.thread_title(question) == question


@pytest.mark.parametrize("flow", _TITLED_BY_FIRST_LINE, ids=lambda flow: flow.name)
def test_a_long_question_titles_its_thread_cut_between_words_with_an_ellipsis(flow):
    question = ("We met Mara at the harbour in chapter three and she never spoke to her brother again after that night, "
                "so why did they part?")
    title = flow.thread_title(question)
    assert title.endswith("…") and not title.endswith(" …") and len(title) <= TITLE_MAX_CHARS
    assert question.startswith(title[:-1]) and question[len(title) - 1] in " ,", "no word is cut"


@contextlib.asynccontextmanager
async def offline_runtime(tmp_path):
    projects = tmp_path / "projects"
    shutil.copytree(NOVEL_PROJECT, projects / NOVEL_PROJECT.name)
    settings = Settings(data_dir=tmp_path / "data", llm_provider="offline", office_preview=False,
                        legal_warm_at_startup=False, novel_projects_dir=projects, _env_file=None)
    async with open_runtime(settings, llm=OfflineLLM(), local_user=True) as runtime:
        yield runtime


async def title_of(runtime, flow: str, text: str, thread_id: str | None = None, options=None) -> str:
    thread_id = thread_id or new_thread_id()
    existing = await runtime.store.get_thread(thread_id)
    await runtime.send_message(flow=flow, text=text, thread_id=thread_id, create=existing is None,
                               options=options if existing is None else None)
    await runtime.wait(thread_id)
    return (await runtime.store.get_thread(thread_id))["title"]


async def test_a_novel_chat_opened_with_a_slash_command_is_named_by_its_project_then_by_the_first_question(tmp_path):
    async with offline_runtime(tmp_path) as runtime:
        thread_id = new_thread_id()
        options = {"projectId": NOVEL_PROJECT.name}
        named = await title_of(runtime, "novel", "/help", thread_id, options)
        assert named == f"{NOVEL_PROJECT.name} · {t('flows.novel_title')}", "not a thread called /help"
        assert await title_of(runtime, "novel", "/status", thread_id) == named, "a second command says nothing either"
        assert await title_of(runtime, "novel", "现在写到第几章了？", thread_id) == "现在写到第几章了？"


@pytest.mark.parametrize(("flow", "text", "title"), [
    ("legal", "😀", "flows.legal_title"), ("legal", "？？", "flows.legal_title"),
    ("ppt", "👍👍", "ppt.untitled_thread"), ("requirement", "🙂", "requirement.untitled_thread"),
])
async def test_a_thread_begun_with_only_emoji_or_marks_is_named_by_its_flow_not_by_the_marks(tmp_path, flow, text, title):
    async with offline_runtime(tmp_path) as runtime:
        assert await title_of(runtime, flow, text) == t(title)


async def test_a_message_whose_first_line_says_nothing_is_titled_by_its_next_line_that_does(tmp_path):
    async with offline_runtime(tmp_path) as runtime:
        assert await title_of(runtime, "legal", "😀\n房东不退押金怎么办") == "房东不退押金怎么办"
