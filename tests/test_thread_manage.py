"""Renaming and deleting threads over the socket and HTTP: the list follows, a delete leaves nothing behind,
another user's thread is not there, a running thread is kept until it is stopped."""

from __future__ import annotations

import aiohttp

from app.server import SETTINGS_KEY
from core.i18n import t
from schemas.events import TITLE_MAX_CHARS
from tests.test_access import token_server  # noqa: F401  (alice and bob on a token server)
from tests.test_ppt_socket import run_ppt


async def titles(client) -> dict[str, str]:
    return {thread["threadId"]: thread["title"] for thread in (await client.call("thread:list", {}))["threads"]}


async def http(method: str, url: str, token: str | None = None, json=None) -> tuple[int, dict | None]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as session, session.request(method, url, headers=headers, json=json) as response:
        body = await response.json() if response.content_type == "application/json" else None
        return response.status, body


# ------------------------------------------------------------------- rename


async def test_a_renamed_thread_shows_its_new_title_in_the_thread_list(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于浮力的5分钟PPT")
    ack = await client.call("thread:rename", {"threadId": thread_id, "title": "  浮力\n复习课\x07 "})
    assert ack["ok"] and ack["thread"]["title"] == "浮力 复习课", "cleaned, on one line"
    assert (await titles(client))[thread_id] == "浮力 复习课"


async def test_a_blank_or_too_long_title_is_refused_with_a_sentence_and_the_title_stays(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于杠杆的5分钟PPT")
    before = (await titles(client))[thread_id]
    blank = await client.call("thread:rename", {"threadId": thread_id, "title": " \u200b\n"})
    long = await client.call("thread:rename", {"threadId": thread_id, "title": "长" * (TITLE_MAX_CHARS + 1)})
    assert blank["error"] == {"code": "bad_request", "message": t("runtime.title_blank")}
    assert long["error"] == {
        "code": "bad_request", "message": t("runtime.title_too_long", length=TITLE_MAX_CHARS + 1, limit=TITLE_MAX_CHARS)
    }
    assert (await titles(client))[thread_id] == before


async def test_another_tab_of_the_owner_hears_of_a_rename(live_server, connect):
    first = await connect(live_server.url)
    thread_id, _ = await run_ppt(first, "做一个关于电路的5分钟PPT")
    second = await connect(live_server.url)
    await first.call("thread:rename", {"threadId": thread_id, "title": "电路入门"})
    updated = await second.wait_for("thread:updated", lambda d: d["threadId"] == thread_id, timeout=5)
    assert updated["title"] == "电路入门" and updated["flow"] == "ppt"


# ------------------------------------------------------------------- delete


async def test_a_deleted_thread_leaves_the_list_and_its_download_answers_404(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于光合作用的5分钟PPT")
    download = f"{live_server.url}/artifacts/{completion['finalArtifactId']}/download"
    assert (await http("GET", download))[0] == 200

    ack = await client.call("thread:delete", {"threadId": thread_id})
    assert ack == {"ok": True, "threadId": thread_id}
    assert thread_id not in await titles(client)
    assert (await http("GET", download))[0] == 404
    assert (await http("GET", f"{live_server.url}/api/threads/{thread_id}/events"))[0] == 404
    rejoin = await client.call("thread:join", {"threadId": thread_id})
    assert rejoin["error"]["code"] == "not_found"


async def test_a_deleted_thread_leaves_no_checkpoint_and_no_file(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于火山的5分钟PPT")
    files_dir = live_server.app[SETTINGS_KEY].files_dir
    checkpointer = live_server.runtime.checkpointer
    config = {"configurable": {"thread_id": thread_id}}
    assert await checkpointer.aget_tuple(config) is not None and any(files_dir.iterdir())

    assert (await client.call("thread:delete", {"threadId": thread_id}))["ok"]
    assert await checkpointer.aget_tuple(config) is None
    assert list(files_dir.iterdir()) == []


async def test_a_tab_showing_a_deleted_thread_is_told_in_a_sentence(live_server, connect):
    deleter = await connect(live_server.url)
    thread_id, _ = await run_ppt(deleter, "做一个关于地震的5分钟PPT")
    title = (await titles(deleter))[thread_id]
    watcher = await connect(live_server.url)
    assert (await watcher.call("thread:join", {"threadId": thread_id}))["ok"]

    await deleter.call("thread:delete", {"threadId": thread_id})
    told = await watcher.wait_for("thread:deleted", lambda d: d["threadId"] == thread_id, timeout=5)
    assert told["message"] == t("server.thread_deleted", title=title)


async def test_a_running_thread_cannot_be_deleted_until_it_is_stopped(start_server, connect):
    server = await start_server(offline_latency_s=0.05)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于台风的5分钟PPT"})
    thread_id = ack["threadId"]
    title = (await titles(client))[thread_id]

    refused = await client.call("thread:delete", {"threadId": thread_id})
    assert refused["error"] == {"code": "conflict", "message": t("runtime.delete_running", title=title)}
    assert (await http("DELETE", f"{server.url}/api/threads/{thread_id}"))[0] == 409

    await client.call("run:cancel", {"threadId": thread_id})
    await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert (await client.call("thread:delete", {"threadId": thread_id}))["ok"], "stopped, it can go"


# ----------------------------------------------------------------- owners


async def test_another_users_thread_cannot_be_renamed_or_deleted_and_answers_as_missing(token_server, connect):
    alice = await connect(token_server.url, auth={"token": token_server.alice})
    thread_id, _ = await run_ppt(alice, "做一个关于水循环的5分钟PPT")
    bob = await connect(token_server.url, auth={"token": token_server.bob})
    for event, payload in [("thread:rename", {"threadId": thread_id, "title": "mine now"}),
                           ("thread:delete", {"threadId": thread_id})]:
        theirs = await bob.call(event, payload)
        missing = await bob.call(event, {**payload, "threadId": "no-such-thread"})
        assert theirs == {"ok": False, "error": {"code": "not_found",
                                                 "message": t("runtime.no_thread", thread=thread_id)}}
        assert missing["error"]["code"] == "not_found"
    assert thread_id in await titles(alice) and (await titles(alice))[thread_id] != "mine now"
    assert not [name for name, _ in bob.events if name.startswith("thread:")], "bob heard nothing of it"


# -------------------------------------------------------------------- HTTP


async def test_http_patch_renames_and_delete_removes_a_thread(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于磁铁的5分钟PPT")
    url = f"{live_server.url}/api/threads/{thread_id}"

    status, summary = await http("PATCH", url, json={"title": "磁铁 · 复习"})
    assert status == 200 and summary["title"] == "磁铁 · 复习"
    assert (await titles(client))[thread_id] == "磁铁 · 复习"
    assert (await http("DELETE", url))[0] == 204
    assert thread_id not in await titles(client)
    assert (await http("DELETE", url))[0] == 404


async def test_http_patch_with_a_body_that_is_not_json_says_so_not_that_the_title_is_missing(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于指南针的5分钟PPT")

    async with aiohttp.ClientSession() as session, session.patch(
        f"{live_server.url}/api/threads/{thread_id}", data="title=指南针"
    ) as response:
        status, body = response.status, await response.json()

    assert status == 400
    assert body["error"] == {"code": "bad_request", "message": t("server.body_not_json")}


async def test_http_refuses_a_bad_title_and_another_users_thread(token_server, connect):
    alice = await connect(token_server.url, auth={"token": token_server.alice})
    thread_id, _ = await run_ppt(alice, "做一个关于彩虹的5分钟PPT")
    url = f"{token_server.url}/api/threads/{thread_id}"
    assert (await http("PATCH", url, token_server.alice, json={"title": ""}))[0] == 400
    assert (await http("PATCH", url, token_server.alice, json={"name": "x"}))[0] == 400
    for method, body in [("PATCH", {"title": "bob's"}), ("DELETE", None)]:
        status, answer = await http(method, url, token_server.bob, json=body)
        assert status == 404 and answer["error"]["code"] == "not_found", method
    assert thread_id in await titles(alice)
