"""`ng` and `ng serve` on one SQLite DATA_DIR: a run the terminal started is watched live in the browser."""

from __future__ import annotations

import asyncio
import os
import sys

from app.store import EventWrite, Store
from schemas.events import ThreadStatus
from tests.support.fake_openai import FakeOpenAI
from tests.support.ppt_responder import Responder
from tests.support.server import ROOT


async def ng(data_dir, fake: FakeOpenAI, *args: str) -> asyncio.subprocess.Process:
    """`ng …` in another terminal, on a slow model so that there is a run to watch."""
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "openai", "LLM_BASE_URL": fake.base_url,
           "LLM_API_KEY": "x", "LLM_CONCURRENCY": "2", "LLM_VALIDATION_RETRIES": "0", "OFFICE_PREVIEW": "false"}
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "app.cli", *args, env=env, cwd=ROOT,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def running_thread(store) -> dict:
    async with asyncio.timeout(60):
        while not (running := await store.threads_with_status(ThreadStatus.running)):
            await asyncio.sleep(0.1)
    return running[0]


async def test_a_page_watching_a_run_ng_started_sees_its_steps_live_to_the_end(start_server, connect):
    async with FakeOpenAI(responder=Responder(), delay_s=0.3) as fake:
        server = await start_server()
        deck = await ng(server.runtime.settings.data_dir, fake, "ppt", "Make a 10 minute deck about photosynthesis")
        thread = await running_thread(server.runtime.store)
        client = await connect(server.url)
        joined = await client.call("thread:join", {"threadId": thread["thread_id"], "afterSeq": 0})
        replayed = [d["seq"] for _n, d in client.of(thread["thread_id"])]
        completion = await client.wait_for("completion", lambda d: d["threadId"] == thread["thread_id"], timeout=90)
        await deck.communicate()

    assert joined["ok"] and joined["thread"]["status"] == "running", joined
    assert completion["success"], completion
    assert completion["seq"] > max(replayed, default=0), "the end arrived live, not only with the join's replay"
    seqs = sorted({d["seq"] for _n, d in client.of(thread["thread_id"])})
    stored = await server.runtime.store.events_after(thread["thread_id"])
    assert seqs == [payload["seq"] for _event, payload in stored], "every step the terminal's run stored, none missed"


async def test_a_page_open_on_a_stopped_thread_sees_ng_resume_finish_it_without_reloading(start_server, connect):
    async with FakeOpenAI(responder=Responder(), delay_s=0.3) as fake:
        server = await start_server()
        data_dir = server.runtime.settings.data_dir
        deck = await ng(data_dir, fake, "ppt", "Make a 10 minute deck about tides")
        thread_id = (await running_thread(server.runtime.store))["thread_id"]
        stop = await ng(data_dir, fake, "cancel", thread_id)
        await stop.communicate()
        await deck.communicate()
        client = await connect(server.url)
        joined = await client.call("thread:join", {"threadId": thread_id, "afterSeq": 0})
        seen_at_join = max(d["seq"] for _n, d in client.of(thread_id))
        resume = await ng(data_dir, fake, "resume", thread_id)
        completion = await client.wait_for("completion", lambda d: d["threadId"] == thread_id and d["success"], timeout=90)
        await resume.communicate()

    assert joined["ok"] and joined["thread"]["status"] == "cancelled", joined
    assert completion["seq"] > seen_at_join, "the resumed run's end arrived live, after the join"
    seqs = sorted({d["seq"] for _n, d in client.of(thread_id)})
    stored = await server.runtime.store.events_after(thread_id)
    assert seqs == [payload["seq"] for _event, payload in stored], "every step the terminal's resume stored, none missed"


async def test_the_page_that_started_a_deck_sees_ng_resume_finish_it_after_a_stop(start_server, connect):
    async with FakeOpenAI(responder=Responder(), delay_s=0.3) as fake:
        server = await start_server(llm_provider="openai", llm_base_url=fake.base_url, llm_api_key="x",
                                    llm_concurrency=2, llm_validation_retries=0)
        client = await connect(server.url)
        ack = await client.call("chat:message", {"flow": "ppt", "text": "Make a 10 minute deck about glaciers"})
        thread_id = ack["threadId"]
        await client.wait_for("tool:artifact", lambda d: d["artifact"]["type"] == "slide_preview")
        await client.call("run:cancel", {"threadId": thread_id})
        stopped = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])
        resume = await ng(server.runtime.settings.data_dir, fake, "resume", thread_id)
        finished = await client.wait_for("completion", lambda d: d["threadId"] == thread_id and d["success"], timeout=90)
        await resume.communicate()

    assert stopped["success"] is False, stopped
    assert finished["seq"] > stopped["seq"], "the terminal's resume reached the page that started the deck"
    seqs = sorted({d["seq"] for _n, d in client.of(thread_id)})
    stored = await server.runtime.store.events_after(thread_id)
    assert seqs == [payload["seq"] for _event, payload in stored], "no step of the resumed run missed"


async def test_a_run_of_another_process_too_short_to_be_seen_running_still_reaches_the_page(start_server, connect):
    server = await start_server()
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "Make a 5 minute deck about clouds"})
    thread_id = ack["threadId"]
    await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    settings = server.runtime.settings
    # another process's whole run lands between two looks: stored at once, the thread never seen running
    elsewhere = await Store(settings.store_path, settings.files_dir).open()
    try:
        await elsewhere.append_events(thread_id, "run-elsewhere", [
            EventWrite("progress", {"message": "elsewhere", "percent": 50}),
            EventWrite("completion", {"success": True}),
        ])
    finally:
        await elsewhere.close()
    later = await client.wait_for("completion", lambda d: d["runId"] == "run-elsewhere", timeout=15)

    assert later["success"], later
    seqs = sorted({d["seq"] for _n, d in client.of(thread_id)})
    assert seqs == list(range(1, later["seq"] + 1)), "the other process's events arrived in order, none missed"


async def test_once_the_last_page_on_a_thread_closes_the_server_stops_looking_for_its_runs(start_server, connect):
    server = await start_server()
    page, other_page = await connect(server.url), await connect(server.url)
    ack = await page.call("chat:message", {"flow": "ppt", "text": "Make a 5 minute deck about rain"})
    await page.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    await other_page.call("thread:join", {"threadId": ack["threadId"], "afterSeq": 0})
    looked_for = []
    last_seqs = server.runtime.store.last_seqs

    async def counted(thread_ids):
        looked_for.extend(thread_ids)
        return await last_seqs(thread_ids)

    server.runtime.store.last_seqs = counted
    await page.close()
    await asyncio.sleep(2.5)
    still_open = list(looked_for)
    await other_page.close()
    await asyncio.sleep(0.5)  # a look under way when the page closed
    looked_for.clear()
    await asyncio.sleep(2.5)

    assert ack["threadId"] in still_open, "a page still had the thread open: its runs were looked for"
    assert looked_for == [], "no page has the thread open: the database is not asked about it any more"
