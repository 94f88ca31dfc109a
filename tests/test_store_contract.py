"""The store contract, run against both backends: SQLite (one worker) and a real PostgreSQL server."""

from __future__ import annotations

import asyncio

import pytest

from app.eventlog import EventLog
from app.store import ArtifactWrite, EventWrite, Store, thread_insert, thread_update
from schemas.events import ThreadStatus
from tests.support.pg import NEEDS_POSTGRES, NEEDS_SCALE_EXTRA


async def _fresh_postgres_store(postgres, tmp_path):
    from app.store_postgres import PostgresStore

    # One database per test: the contract starts from an empty store each time.
    return await PostgresStore(await postgres.new_database(), tmp_path / "files").open()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=[NEEDS_POSTGRES, NEEDS_SCALE_EXTRA])])
async def store(request, tmp_path):
    if request.param == "sqlite":
        opened = await Store(tmp_path / "s.sqlite", tmp_path / "files").open()
    else:
        opened = await _fresh_postgres_store(request.getfixturevalue("postgres"), tmp_path)
    yield opened
    await opened.close()


async def test_events_get_consecutive_seqs_and_replay_in_order(store):
    await store.create_thread("t", "ppt", "title", {"pages": 3}, owner="ann")
    for n in range(5):
        await store.append_event("t", "r1", "log", {"message": f"m{n}"})
    events = await store.events_after("t", 2)
    assert [payload["seq"] for _event, payload in events] == [3, 4, 5]
    assert [payload["message"] for _event, payload in events] == ["m2", "m3", "m4"]
    thread = await store.get_thread("t")
    assert (thread["last_seq"], thread["options"], thread["owner"]) == (5, {"pages": 3}, "ann")


async def test_an_event_key_stored_once_is_dropped_the_second_time(store):
    await store.create_thread("t", "ppt", "title", {})
    first = await store.append_event("t", "r1", "log", {"message": "a"}, key="task/1")
    repeated = await store.append_event("t", "r2", "log", {"message": "a"}, key="task/1")
    after = await store.append_event("t", "r2", "log", {"message": "b"})
    assert first["seq"] == 1 and repeated is None
    assert after["seq"] == 2, "a dropped repeat leaves no gap in seq"
    assert await store.has_event("t", "task/1")


async def test_concurrent_appends_never_share_a_seq(store):
    await store.create_thread("t", "ppt", "title", {})
    await asyncio.gather(*(store.append_event("t", "r", "log", {"message": str(n)}) for n in range(40)))
    seqs = [payload["seq"] for _event, payload in await store.events_after("t")]
    assert seqs == list(range(1, 41))


async def test_a_batch_of_events_takes_consecutive_seqs_and_drops_keys_already_stored(store):
    await store.create_thread("t", "ppt", "title", {})
    first = await store.append_events(
        "t", "r1", [("log", {"message": "a"}, "task/1"), ("log", {"message": "b"}, None), ("log", {"message": "a"}, "task/1")]
    )
    second = await store.append_events("t", "r2", [("log", {"message": "a"}, "task/1"), ("log", {"message": "c"}, "task/2")])
    assert [p and p["seq"] for p in first] == [1, 2, None], "a key repeated within the batch is dropped"
    assert [p and p["seq"] for p in second] == [None, 3], "a key stored by an earlier batch is dropped, no gap"
    assert [payload["message"] for _event, payload in await store.events_after("t")] == ["a", "b", "c"]
    assert (await store.get_thread("t"))["last_seq"] == 3


async def test_an_append_to_a_missing_thread_fails_alone_beside_appends_written_with_it(store):
    await store.create_thread("t", "ppt", "title", {})
    first, missing, second = await asyncio.gather(
        store.append_event("t", "r", "log", {"message": "a"}),
        store.append_event("gone", "r", "log", {"message": "b"}),
        store.append_event("t", "r", "log", {"message": "c"}),
        return_exceptions=True,
    )
    assert isinstance(missing, KeyError)
    assert {first["seq"], second["seq"]} == {1, 2}
    assert sorted(payload["message"] for _event, payload in await store.events_after("t")) == ["a", "c"]


async def test_a_thread_created_with_its_first_events_exists_with_them_or_not_at_all(store):
    started = await store.append_events(
        "t", "r1", [EventWrite("user:message", {"content": "hi"}), EventWrite("status", {"status": "running"})],
        row=thread_insert("t", "ppt", "title", {"pages": 3}, status=ThreadStatus.running, start_input={"id": "r1", "input": {}}),
    )
    assert [p["seq"] for p in started] == [1, 2]
    thread = await store.get_thread("t")
    assert (thread["status"], thread["last_seq"], thread["start_input"]["id"]) == ("running", 2, "r1")

    with pytest.raises(Exception):  # the same id again: the row fails, and so do the events with it
        await store.append_events("t", "r2", [EventWrite("user:message", {"content": "again"})],
                                  row=thread_insert("t", "ppt", "other", {}))
    assert [p["content"] for _e, p in await store.events_after("t") if "content" in p] == ["hi"]
    assert (await store.get_thread("t"))["title"] == "title"


async def test_a_run_end_changes_the_row_and_stores_its_last_events_together(store):
    await store.create_thread("t", "ppt", "title", {})
    await store.append_events("t", "r1", [EventWrite("status", {"status": "done"}), EventWrite("completion", {"success": True})],
                              row=thread_update("t", status=ThreadStatus.done, pending_interrupt=None))
    thread = await store.get_thread("t")
    assert (thread["status"], thread["last_seq"]) == ("done", 2)


async def test_an_artifact_announced_by_a_rerun_task_keeps_its_first_outcome(store):
    await store.create_thread("t", "ppt", "title", {})
    artifact = {"id": "a1", "type": "dsl", "title": "x", "content": {"n": 1}}

    def announce(content):
        fields = {"toolCallId": "task-1", "artifact": {**artifact, "content": content}}
        return EventWrite("tool:artifact", fields, "task-1/0/3", ArtifactWrite(fields["artifact"], "task-1/dsl"))

    [first] = await store.append_events("t", "r1", [announce({"n": 1})])
    [rerun] = await store.append_events("t", "r2", [announce({"n": 2})])
    assert first["artifact"]["version"] == 1 and rerun is None
    assert (await store.get_artifact("a1"))["content"] == {"n": 1}
    assert (await store.get_artifact("a1"))["versions"] == [1], "the artifact row is stored with its event"


async def test_a_file_announced_by_a_rerun_task_leaves_the_stored_file_as_it_was(store):
    await store.create_thread("t", "ppt", "title", {})

    def announce(file):
        fields = {"toolCallId": "task-1", "artifact": {"id": "a1", "type": "pptx", "title": "deck", "content": {}}}
        return EventWrite("tool:artifact", fields, "task-1/0/3",
                          ArtifactWrite(fields["artifact"], "task-1/pptx", file=file, file_name="deck.pptx"))

    await store.append_events("t", "r1", [announce(b"first deck")])
    [rerun] = await store.append_events("t", "r2", [announce(b"second deck")])
    path, _name, _mime = await store.artifact_file("a1")
    assert rerun is None and path.read_bytes() == b"first deck"


async def test_artifact_versions_per_producing_task_and_latest_listing(store):
    await store.create_thread("t", "ppt", "title", {})
    artifact = {"id": "a1", "type": "dsl", "title": "x", "content": {"n": 1}}
    first = await store.save_artifact("t", artifact, origin="task-1/dsl")
    again = await store.save_artifact("t", {**artifact, "content": {"n": 2}}, origin="task-1/dsl")
    later = await store.save_artifact("t", artifact, origin="task-2/dsl", file=b"bytes", file_name="a.pptx")
    assert (first["version"], again["version"], later["version"]) == (1, 1, 2)
    assert (await store.get_artifact("a1", 1))["content"] == {"n": 2}
    assert (await store.get_artifact("a1"))["versions"] == [1, 2]
    path, name, _mime = await store.artifact_file("a1", 2)
    assert path.read_bytes() == b"bytes" and name == "a.pptx"
    assert [a["version"] for a in await store.latest_artifacts("t")] == [2]


async def test_a_trace_is_found_by_its_trace_id_with_its_thread(store):
    await store.create_thread("t", "legal", "title", {})
    trace = {"id": "tr", "type": "trace", "title": "trace", "content": {"traceId": "abc", "steps": []}}
    await store.save_artifact("t", trace, origin="task-1/trace")
    found = await store.find_trace("abc")
    assert found == {"traceId": "abc", "steps": [], "_threadId": "t"}
    assert await store.find_trace("other") is None


async def test_failed_attempts_are_counted_per_task_from_the_log(store):
    await store.create_thread("t", "ppt", "title", {})
    await store.append_event("t", "r", "tool:update", {"status": "failed"}, key="task9/stage/1")
    await store.append_event("t", "r", "tool:update", {"status": "done"}, key="task8/stage/1")
    assert await store.failed_attempts("t") == {"task9": 1}


async def test_thread_updates_and_status_listing(store):
    await store.create_thread("t1", "ppt", "one", {})
    await store.create_thread("t2", "plan", "two", {}, owner="bob")
    await store.update_thread("t1", status=ThreadStatus.running, pending_interrupt={"kind": "confirmation"})
    assert [t["thread_id"] for t in await store.threads_with_status(ThreadStatus.running)] == ["t1"]
    assert (await store.get_thread("t1"))["pending_interrupt"] == {"kind": "confirmation"}
    assert [t["thread_id"] for t in await store.list_threads(owner="bob")] == ["t2"]
    assert {t["thread_id"] for t in await store.list_threads()} == {"t1", "t2"}


async def test_a_failure_a_resume_would_repeat_is_kept_with_the_thread_until_the_next_run(store):
    await store.create_thread("t", "ppt", "one", {})
    assert (await store.get_thread("t"))["resumable"] is True, "a new thread"
    await store.update_thread("t", status=ThreadStatus.failed, resumable=False)
    assert (await store.get_thread("t"))["resumable"] is False
    assert [t["resumable"] for t in await store.list_threads()] == [False]
    await store.update_thread("t", status=ThreadStatus.running, resumable=True)
    assert (await store.get_thread("t"))["resumable"] is True


async def test_a_renamed_thread_keeps_its_place_in_the_list(store):
    await store.create_thread("old", "ppt", "first", {})
    await store.create_thread("new", "ppt", "second", {})
    before = await store.get_thread("old")
    await store.rename_thread("old", "光合作用 · 第二版")
    after = await store.get_thread("old")
    assert after["title"] == "光合作用 · 第二版"
    assert after["updated_at"] == before["updated_at"], "a rename is not activity"
    assert [t["thread_id"] for t in await store.list_threads()] == ["new", "old"]


async def test_deleting_a_thread_removes_its_events_artifacts_and_files_and_nothing_else(store):
    for thread_id in ("gone", "kept"):
        await store.create_thread(thread_id, "ppt", thread_id, {})
        await store.append_event(thread_id, "r", "log", {"message": "m"})
        await store.save_artifact(thread_id, {"id": f"{thread_id}-deck", "type": "pptx", "title": "deck", "content": {}},
                                  origin="task/pptx", file=b"bytes", file_name="deck.pptx")
    gone_file, _, _ = await store.artifact_file("gone-deck")
    kept_file, _, _ = await store.artifact_file("kept-deck")

    assert await store.delete_thread("gone") is True
    assert await store.get_thread("gone") is None
    assert await store.events_after("gone") == []
    assert await store.get_artifact("gone-deck") is None and not gone_file.exists()
    assert [t["thread_id"] for t in await store.list_threads()] == ["kept"]
    assert len(await store.events_after("kept")) == 1 and kept_file.read_bytes() == b"bytes"
    assert await store.delete_thread("gone") is False, "a second delete finds nothing"


async def test_a_thread_id_used_again_after_a_delete_starts_a_fresh_log(store):
    await store.create_thread("t", "ppt", "first", {})
    for n in range(3):
        await store.append_event("t", "r", "log", {"message": str(n)})
    await store.delete_thread("t")
    await store.create_thread("t", "ppt", "again", {})
    appended = await store.append_event("t", "r", "log", {"message": "new"})
    assert appended["seq"] == 1, "no seq remembered from the deleted thread"


@NEEDS_POSTGRES
@NEEDS_SCALE_EXTRA
async def test_a_live_lease_keeps_other_workers_out_until_it_expires(postgres, tmp_path):
    store = await _fresh_postgres_store(postgres, tmp_path)
    try:
        await store.create_thread("t", "ppt", "title", {})
        assert await store.claim_run("t", "w1", lease_s=0.3)
        assert not await store.claim_run("t", "w2", lease_s=0.3), "w1's lease is live"
        assert await store.expired_runs() == []
        await asyncio.sleep(0.4)
        assert await store.expired_runs() == ["t"]
        assert await store.claim_run("t", "w2", lease_s=5)
        assert await store.renew_leases("w1", ["t"], 5) == {}, "w1 lost the run to w2"
        assert await store.request_cancel("t")
        assert await store.renew_leases("w2", ["t"], 5) == {"t": True}, "the holder learns of a cancel asked elsewhere"
    finally:
        await store.close()


@NEEDS_POSTGRES
@NEEDS_SCALE_EXTRA
async def test_a_join_gets_what_another_worker_stored_while_it_subscribed(postgres, tmp_path):
    from app.store_postgres import PostgresStore

    url = await postgres.new_database()
    here = await PostgresStore(url, tmp_path / "files").open()
    other_worker = await PostgresStore(url, tmp_path / "files").open()
    try:
        await here.create_thread("t", "ppt", "title", {})
        for n in range(3):
            await here.append_event("t", "r", "tool:log", {"message": f"m{n}"})
        received: list[int] = []

        async def send_batch(page):
            received.extend(payload["seq"] for _event, payload in page)

        async def subscribe():  # this worker's lock does not hold the other one back
            await other_worker.append_event("t", "r", "tool:log", {"message": "late"})

        sent = await EventLog(here).replay_then("t", 0, send_batch, subscribe)
        assert received == [1, 2, 3, 4] and sent == 4
    finally:
        await other_worker.close()
        await here.close()


@NEEDS_POSTGRES
@NEEDS_SCALE_EXTRA
async def test_migrations_run_once_when_workers_start_together(postgres, tmp_path):
    first = await _fresh_postgres_store(postgres, tmp_path)
    try:
        versions = await asyncio.gather(*(first.migrate() for _ in range(4)))
        async with first.pool.connection() as conn:
            applied = await (await conn.execute("SELECT count(*) AS n FROM schema_migrations")).fetchone()
        assert set(versions) == {applied["n"]}
    finally:
        await first.close()


@NEEDS_POSTGRES
@NEEDS_SCALE_EXTRA
async def test_a_token_added_on_one_worker_signs_in_on_another(postgres, tmp_path, make_settings):
    from app.auth import user_directory

    settings = make_settings(store="postgres", postgres_url=await postgres.new_database())
    async with user_directory(settings) as first, user_directory(settings) as second:
        token = await first.add("ann")
        assert await first.add("ann") is None, "a name is taken once"
        assert await second.user_for(token) == "ann"
        assert await second.remove("ann")
        assert await first.user_for(token) is None


async def test_a_title_a_person_chose_is_marked_on_the_thread_and_a_later_runtime_title_keeps_the_mark(store):
    await store.create_thread("t", "ppt", "新课件", {})
    assert (await store.get_thread("t"))["title_chosen"] is False
    await store.rename_thread("t", "新课件", chosen=True)
    await store.rename_thread("t", "光合作用")  # the runtime's own naming
    thread = await store.get_thread("t")
    assert (thread["title"], thread["title_chosen"]) == ("光合作用", True)
