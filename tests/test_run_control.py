"""Run control: cancel at a step boundary or between pages (LangGraph's RunControl drain), cancel after the end,
SIGTERM shutdown."""

from __future__ import annotations

import asyncio
import contextvars
import os
import signal
import sys
import threading
from collections import Counter
from types import SimpleNamespace

from core.i18n import set_surface, t
from graphs.ppt.planning import PIPELINE_NODES
from schemas.events import ThreadStatus
from tests.support.client import RecordingClient
from tests.support.fake_openai import FakeOpenAI
from tests.support.ppt_responder import SLIDES, Responder, pages_asked
from tests.support.server import ROOT, ServerProcess
from tests.test_ppt_socket import run_ppt


async def deck_at_its_first_page(start_server, connect, fake: FakeOpenAI):
    """A deck run on a slow model (0.4 s a call, two pages at a time), once its first page is out:
    a stop from here must not wait for the twelve pages."""
    server = await start_server(llm_provider="openai", llm_base_url=fake.base_url, llm_api_key="x",
                                llm_concurrency=2, llm_validation_retries=0)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "Make a 10 minute deck about photosynthesis"})
    await client.wait_for("tool:artifact", lambda d: d["artifact"]["type"] == "slide_preview")
    return server, client, ack


async def test_cancel_during_page_generation_stops_between_pages_and_resume_asks_each_page_once(
    start_server, connect
):
    async with FakeOpenAI(responder=Responder(), delay_s=0.4) as fake:
        server, client, ack = await deck_at_its_first_page(start_server, connect, fake)
        thread_id = ack["threadId"]
        assert (await client.call("run:cancel", {"threadId": thread_id}))["ok"]
        stopped = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])
        asked_before_resume = pages_asked(fake.requests)

        resumed = await client.call("run:resume", {"threadId": thread_id})
        done = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
        asked = pages_asked(fake.requests)

    assert stopped["success"] is False and stopped["error"] == t("runtime.cancelled")
    # The pages in flight finished; the pages still waiting for the pool never went to the model.
    assert sum(asked_before_resume.values()) < SLIDES, "the stop did not wait for every page"
    assert done["success"], done
    assert asked == Counter(range(1, SLIDES + 1)), "each page asked of the model once in all: none lost, none twice"
    deck = next(d["artifact"]["content"] for _, d in reversed(client.of(thread_id, "tool:artifact"))
                if d["artifact"]["type"] == "dsl")
    assert [s["index"] for s in deck["slides"]] == list(range(1, SLIDES + 1))
    starts = Counter(d["toolName"] for _, d in client.of(thread_id, "tool:start"))
    assert starts == Counter(PIPELINE_NODES), "every stage shown once: the stopped stage continued, nothing re-ran"


async def test_shutdown_during_page_generation_stops_between_pages_and_leaves_the_thread_resumable(
    start_server, connect
):
    async with FakeOpenAI(responder=Responder(), delay_s=0.4) as fake:
        server, client, ack = await deck_at_its_first_page(start_server, connect, fake)
        # A grace long enough for every page: the run must still stop after the pages in flight.
        await server.runtime.shutdown(grace_s=30)
        stopped = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])
        thread = await server.runtime.store.get_thread(ack["threadId"])
        asked = pages_asked(fake.requests)

    assert stopped["error"] == t("runtime.server_stopping")
    assert thread["status"] == "interrupted", "a shutdown leaves the run resumable, not cancelled"
    assert sum(asked.values()) < SLIDES


async def test_cancel_after_the_run_ended_is_a_conflict_and_changes_nothing(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于杠杆的5分钟PPT")
    assert completion["success"]
    before = (await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000}))["thread"]

    cancel = await client.call("run:cancel", {"threadId": thread_id})

    assert cancel["ok"] is False and cancel["error"]["code"] == "conflict"
    after = (await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000}))["thread"]
    assert after == before
    assert after["status"] == "done"


async def test_sigterm_with_a_client_connected_exits_and_the_thread_resumes(tmp_path):
    env = {"OFFLINE_LATENCY_S": "0.1", "LLM_CONCURRENCY": "1"}
    first = ServerProcess(tmp_path / "data", env=env).start()
    client = await RecordingClient().connect(first.url)
    try:
        ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于电路基础的8分钟PPT"})
        thread_id = ack["threadId"]
        await client.wait_for("progress", lambda d: d["current"] == 2, timeout=30)
        first.process.send_signal(signal.SIGTERM)
        # Generous bound: a server that waits on its open socket takes aiohttp's 60 s default.
        exit_code = first.process.wait(timeout=10)
    finally:
        await client.close()
        first.stop()
    assert exit_code == 0

    second = ServerProcess(tmp_path / "data", env=env).start()
    try:
        client = await RecordingClient().connect(second.url)
        joined = await client.call("thread:join", {"threadId": thread_id})
        assert joined["thread"]["status"] == "interrupted"
        resumed = await client.call("run:resume", {"threadId": thread_id})
        done = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
        assert done["success"] is True
        starts = Counter(d["toolName"] for n, d in client.of(thread_id, "tool:start"))
        await client.close()
    finally:
        second.stop()
    assert starts == Counter(PIPELINE_NODES), "the run stopped between steps and continued where it stopped"


class HeldPreview:
    """An office preview that waits until the test lets it go: the deck's last step, held open."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def render(self, pptx):
        self.release.wait(timeout=30)
        return SimpleNamespace(pdf=None, thumbnails=[])


async def deck_in_its_last_step(live_server, connect):
    preview = HeldPreview()
    live_server.runtime.tools["office_preview"] = preview
    client = await connect(live_server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于潮汐成因的5分钟PPT"})
    await client.wait_for("tool:start", lambda d: d["toolName"] == PIPELINE_NODES[-1])
    return client, ack, preview


async def test_cancel_during_the_last_step_is_told_the_run_finished_anyway(live_server, connect):
    client, ack, preview = await deck_in_its_last_step(live_server, connect)

    cancel = await client.call("run:cancel", {"threadId": ack["threadId"]})
    preview.release.set()
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])

    assert cancel["ok"] and completion["success"]
    last_status = client.of(ack["threadId"], "status")[-1][1]
    assert last_status["status"] == "done"
    assert last_status["message"] == t("runtime.finished_before_stop"), "a stop that came too late says so"


async def test_a_second_cancel_before_the_run_stops_says_it_is_already_stopping(live_server, connect):
    client, ack, preview = await deck_in_its_last_step(live_server, connect)

    first = await client.call("run:cancel", {"threadId": ack["threadId"]})
    second = await client.call("run:cancel", {"threadId": ack["threadId"]})
    preview.release.set()
    await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])

    assert first["ok"]
    assert second["error"] == {"code": "conflict", "message": t("runtime.already_stopping", thread=ack["threadId"])}


async def ng(*args: str, data_dir) -> tuple[int, str]:
    """`ng …` as a person types it in another terminal on the same DATA_DIR (the loop keeps serving meanwhile)."""
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline"}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "app.cli", *args, env=env, cwd=ROOT,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await process.communicate()
    return process.returncode, output.decode()


def as_ng_says(key: str, **fields) -> str:
    """A sentence as `ng` words it (线程), though this test's context is the in-process server's (会话)."""
    return contextvars.copy_context().run(lambda: (set_surface("cli"), t(key, **fields))[1])


async def test_ng_cancel_in_another_terminal_stops_a_run_the_server_is_running(start_server, connect):
    # A slower model than above: `ng` itself takes a second or two to start on a busy machine.
    async with FakeOpenAI(responder=Responder(), delay_s=2.0) as fake:
        server, client, ack = await deck_at_its_first_page(start_server, connect, fake)
        code, said = await ng("cancel", ack["threadId"], data_dir=server.runtime.settings.data_dir)
        stopped = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=30)
        asked = pages_asked(fake.requests)

    assert code == 0 and said.strip() == as_ng_says("cli.cancel_requested", thread=ack["threadId"]), said
    assert stopped["success"] is False and stopped["error"] == t("runtime.cancelled")
    assert sum(asked.values()) < SLIDES, "the run stopped between pages, not after the last"
    assert (await server.runtime.store.get_thread(ack["threadId"]))["status"] == "cancelled"


async def test_ng_cancel_of_a_thread_with_nothing_running_says_so_and_changes_nothing(start_server, connect):
    server = await start_server()
    client = await connect(server.url)
    thread_id, _completion = await run_ppt(client, "做一个关于月相的5分钟PPT")
    before = await server.runtime.store.get_thread(thread_id)
    code, said = await ng("cancel", thread_id, data_dir=server.runtime.settings.data_dir)
    assert code == 2 and said.strip() == as_ng_says("runtime.nothing_running", thread=thread_id), said
    assert await server.runtime.store.get_thread(thread_id) == before


async def test_a_run_started_by_ng_is_stopped_by_a_cancel_sent_to_the_server(start_server, connect):
    async with FakeOpenAI(responder=Responder(), delay_s=2.0) as fake:
        server = await start_server()
        data_dir = server.runtime.settings.data_dir
        env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "openai", "LLM_BASE_URL": fake.base_url,
               "LLM_API_KEY": "x", "LLM_CONCURRENCY": "2", "LLM_VALIDATION_RETRIES": "0", "OFFICE_PREVIEW": "false"}
        deck = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "app.cli", "ppt", "Make a 10 minute deck about photosynthesis", env=env, cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        async with asyncio.timeout(60):
            while not pages_asked(fake.requests):  # the terminal's run is at its pages
                await asyncio.sleep(0.2)
        [thread] = await server.runtime.store.threads_with_status(ThreadStatus.running)
        client = await connect(server.url)
        cancelled = await client.call("run:cancel", {"threadId": thread["thread_id"]})
        async with asyncio.timeout(60):
            output, _ = await deck.communicate()
        asked = pages_asked(fake.requests)

    assert cancelled["ok"], cancelled
    assert deck.returncode == 1
    said = output.decode()
    assert as_ng_says("runtime.cancelled") in said and f"ng resume {thread['thread_id']}" in said, said
    assert sum(asked.values()) < SLIDES, "the run stopped between pages, not after the last"
