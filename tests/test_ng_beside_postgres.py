"""`ng` beside `ng serve` on one Postgres database: a run the terminal started is watched live in the browser,
with one server (no Redis) and with servers sharing Redis, and a page can stop it."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from app.services import open_runtime
from core.i18n import t
from schemas.events import ThreadStatus
from tests.support.legal import legal_index  # noqa: F401  (fixture)
from tests.support.pg import NEEDS_POSTGRES, NEEDS_REDIS, NEEDS_SCALE_EXTRA

pytestmark = [NEEDS_POSTGRES, NEEDS_SCALE_EXTRA]


async def postgres_settings(postgres, **more) -> dict:
    # A slow offline model, so that the terminal's run is still going when the page joins it.
    return {"store": "postgres", "checkpointer": "postgres", "postgres_url": await postgres.new_database(),
            "offline_latency_s": 0.1, "llm_concurrency": 1, **more}


async def running_thread(store) -> dict:
    async with asyncio.timeout(60):
        while not (running := await store.threads_with_status(ThreadStatus.running)):
            await asyncio.sleep(0.05)
    return running[0]


async def watch_a_terminal_run(servers, connect, terminal_settings) -> tuple[str, list[tuple[dict, list[int], dict, object]]]:
    """`ng ppt` (a runtime of the CLI's own, local_user) on the servers' database; a page on each server joins its
    thread while it runs and waits for its end. Returns the thread and, for each page, the join's ack, the seqs the
    join replayed, the completion and the client."""
    thread_id = "t" + "0" * 31
    pages = []
    async with open_runtime(terminal_settings, local_user=True) as terminal:
        await terminal.send_message(flow="ppt", text="Make a 10 minute deck about volcanoes", thread_id=thread_id,
                                    create=True)
        await running_thread(servers[0].runtime.store)
        for server in servers:
            client = await connect(server.url)
            joined = await client.call("thread:join", {"threadId": thread_id, "afterSeq": 0})
            pages.append((joined, [d["seq"] for _n, d in client.of(thread_id)], client))
        seen = []
        for joined, replayed, client in pages:
            completion = await client.wait_for("completion", lambda d: d["threadId"] == thread_id, timeout=60)
            seen.append((joined, replayed, completion, client))
        await terminal.wait(thread_id)
    return thread_id, seen


async def assert_every_event_once(server, client, thread_id: str, joined: dict) -> None:
    """Every stored event reached the page, and each one after its join (the live ones) exactly once. (A join
    may send an event both in its replay and live: clients drop a seq they hold, protocol.md.)"""
    await asyncio.sleep(1.5)  # a duplicate would come with the next look
    seqs = [d["seq"] for _n, d in client.of(thread_id)]
    stored = [payload["seq"] for _event, payload in await server.runtime.store.events_after(thread_id)]
    live = [seq for seq in seqs if seq > joined["thread"]["lastSeq"]]
    twice = [seq for seq, count in Counter(live).items() if count > 1]
    assert twice == [], f"events delivered twice: {twice}"
    assert live == sorted(live), "live events in seq order"
    assert sorted(set(seqs)) == stored, "every event the terminal's run stored, none missed"


async def test_a_page_on_a_postgres_server_sees_a_run_ng_started_live_to_its_end(
    postgres, start_server, connect, make_settings
):
    settings = await postgres_settings(postgres)
    server = await start_server(**settings)
    thread_id, [(joined, replayed, completion, client)] = await watch_a_terminal_run(
        [server], connect, make_settings(**settings))

    assert joined["ok"] and joined["thread"]["status"] == "running", joined
    assert completion["success"], completion
    assert completion["seq"] > max(replayed, default=0), "the end arrived live, not only with the join's replay"
    await assert_every_event_once(server, client, thread_id, joined)


@NEEDS_REDIS
async def test_pages_on_two_workers_sharing_redis_see_a_run_ng_started_live_each_event_once(
    postgres, redis_server, start_server, connect, make_settings
):
    settings = await postgres_settings(postgres, socketio_redis_url=redis_server.url)
    workers = [await start_server(**settings), await start_server(**settings)]
    thread_id, pages = await watch_a_terminal_run(workers, connect, make_settings(**settings))

    for worker, (joined, replayed, completion, client) in zip(workers, pages):
        assert joined["ok"] and joined["thread"]["status"] == "running", joined
        assert completion["success"], completion
        assert completion["seq"] > max(replayed, default=0), "the end arrived live, not only with the join's replay"
        await assert_every_event_once(worker, client, thread_id, joined)


async def test_a_page_on_a_postgres_server_stops_a_run_ng_started(postgres, start_server, connect, make_settings):
    settings = await postgres_settings(postgres, run_lease_s=1.5, offline_latency_s=0.2)
    server = await start_server(**settings)
    async with open_runtime(make_settings(**settings), local_user=True) as terminal:
        thread_id = "s" + "0" * 31
        await terminal.send_message(flow="ppt", text="Make a 20 minute deck about rivers", thread_id=thread_id,
                                    create=True)
        await running_thread(server.runtime.store)
        client = await connect(server.url)
        await client.call("thread:join", {"threadId": thread_id, "afterSeq": 0})
        stop = await client.call("run:cancel", {"threadId": thread_id})
        completion = await client.wait_for("completion", lambda d: d["threadId"] == thread_id, timeout=60)
        await terminal.wait(thread_id)

    assert stop["ok"], stop
    assert completion["success"] is False, "the terminal's run stopped at the page's word, and the page saw it"
    statuses = [d["status"] for _n, d in client.of(thread_id, "status")]
    assert statuses[-1] == ThreadStatus.cancelled.value, statuses
    assert (await server.runtime.store.get_thread(thread_id))["resumable"], "the stopped run can be resumed"


async def test_what_another_process_stores_while_a_page_joins_is_not_passed_on_to_it_again(postgres, tmp_path):
    from app.eventlog import EventLog
    from app.store import EventWrite
    from app.store_postgres import PostgresStore

    store = await PostgresStore(await postgres.new_database(), tmp_path / "files").open()
    try:
        thread_id = "j" + "0" * 31
        await store.create_thread(thread_id, "ppt", "deck", {})
        await store.append_events(thread_id, "run-elsewhere", [EventWrite("progress", {"message": "one", "percent": 10})])
        events, replayed, passed_on = EventLog(store), [], []

        async def to_room(_thread_id, batch):
            passed_on.extend(payload["seq"] for _event, payload in batch)

        async def send_batch(page):
            replayed.extend(payload["seq"] for _event, payload in page)

        async def subscribe():  # the terminal's run stores its next step between the page's read and its subscribe
            await store.append_events(thread_id, "run-elsewhere", [EventWrite("progress", {"message": "two", "percent": 20})])

        events.add_fanout(to_room)
        await events.replay_then(thread_id, 0, send_batch, subscribe)
        await events.pass_on_from_delivered(thread_id)
        await events.pass_on_stored(thread_id)
    finally:
        await store.close()

    assert replayed == [1, 2], "the join sent both steps"
    assert passed_on == [], "following the run from the log does not send the page a step it was just sent"


async def test_ng_in_a_workers_container_cannot_start_a_second_run_of_a_thread_that_worker_runs(
    postgres, start_server, connect, make_settings
):
    from app.errors import RequestError

    # `docker compose exec worker1 ng ppt --thread …`: the terminal has the worker's environment, WORKER_ID included.
    settings = await postgres_settings(postgres, worker_id="worker1", offline_latency_s=0.2)
    server = await start_server(**settings)
    page = await connect(server.url)
    ack = await page.call("chat:message", {"flow": "ppt", "text": "Make a 10 minute deck about deserts"})
    async with open_runtime(make_settings(**settings), local_user=True) as terminal:
        try:
            await terminal.send_message(flow="ppt", text="add a slide about oases", thread_id=ack["threadId"],
                                        create=False)
            refused = None
        except RequestError as error:
            refused = error
    assert refused is not None and refused.code == "conflict", "the worker's run holds the thread"
    completion = await page.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert completion["success"], "the worker's run went on to its end"


async def test_ng_with_redis_away_finishes_its_run_and_says_once_that_pages_wont_see_it_live(
    postgres, make_settings, caplog
):
    from tests.support.server import free_port

    settings = await postgres_settings(postgres, offline_latency_s=0, socketio_redis_url=f"redis://127.0.0.1:{free_port()}/0")
    thread_id = "r" + "0" * 31
    async with open_runtime(make_settings(**settings), local_user=True) as terminal:
        await terminal.send_message(flow="ppt", text="Make a 5 minute deck about tea", thread_id=thread_id, create=True)
        await terminal.wait(thread_id)
        thread = await terminal.store.get_thread(thread_id)

    assert thread["status"] == ThreadStatus.done.value, thread
    said = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert said == [t("cli.pages_unreachable")], said


def test_ng_legal_leaves_a_stopped_workers_run_to_the_servers(postgres, tmp_path, legal_index):
    import os
    import subprocess
    import sys

    from app.store_postgres import PostgresStore
    from tests.support.server import ROOT

    url = asyncio.run(postgres.new_database())

    async def with_store(action):
        store = await PostgresStore(url, tmp_path / "files").open()
        try:
            return await action(store)
        finally:
            await store.close()

    async def a_deck_whose_worker_died(store):
        await store.create_thread("d" + "0" * 31, "ppt", "deck", {})
        await store.claim_run("d" + "0" * 31, "worker1", lease_s=-1)  # its lease ran out: a server takes it over

    asyncio.run(with_store(a_deck_whose_worker_died))
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "CHINA_LAW_INDEX": str(legal_index),
           "STORE": "postgres", "CHECKPOINTER": "postgres", "POSTGRES_URL": url}
    result = subprocess.run([sys.executable, "-m", "app.cli", "legal", "房东不退押金怎么办"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    deck = asyncio.run(with_store(lambda store: store.get_thread("d" + "0" * 31)))

    assert result.returncode == 0, result.stdout + result.stderr
    assert deck["status"] == ThreadStatus.running.value, "a terminal question does not take over a server's deck"
