"""Access control: token users own their threads; AUTH_MODE=none only on loopback; foreign origins refused."""

from __future__ import annotations

import subprocess
import sys

import aiohttp
import pytest
import socketio

from app.auth import UserDirectory
from app.server import SETTINGS_KEY
from core.i18n import t
from tests.support.server import ROOT
from tests.test_ppt_socket import run_ppt


async def add_user(server, name: str) -> str:
    async with UserDirectory(server.app[SETTINGS_KEY].store_path) as users:
        return await users.add(name)


@pytest.fixture
async def token_server(start_server):
    server = await start_server(auth_mode="token")
    server.alice = await add_user(server, "alice")
    server.bob = await add_user(server, "bob")
    return server


async def http_get(url: str, token: str | None = None, headers: dict[str, str] | None = None):
    headers = dict(headers or {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.json(content_type=None), dict(response.headers)


async def alice_finished_deck(server, connect):
    alice = await connect(server.url, auth={"token": server.alice})
    thread_id, completion = await run_ppt(alice, "做一个关于水循环的5分钟PPT")
    assert completion["success"]
    return alice, thread_id, completion["finalArtifactId"]


# ------------------------------------------------------------ owners, socket


async def test_another_users_thread_answers_as_a_missing_thread_over_the_socket(token_server, connect):
    _, thread_id, _ = await alice_finished_deck(token_server, connect)
    bob = await connect(token_server.url, auth={"token": token_server.bob})
    missing = t("runtime.no_thread", thread=thread_id)
    calls = [
        ("thread:join", {"threadId": thread_id}),
        ("run:resume", {"threadId": thread_id}),
        ("run:cancel", {"threadId": thread_id}),
        ("chat:message", {"flow": "ppt", "threadId": thread_id, "text": "增加配图"}),
    ]
    for event, payload in calls:
        ack = await bob.call(event, payload)
        assert ack == {"ok": False, "error": {"code": "not_found", "message": missing}}, event
    assert bob.of(thread_id) == [], "nothing of alice's thread reached bob"


async def test_thread_list_shows_only_your_own_threads(token_server, connect):
    alice, thread_id, _ = await alice_finished_deck(token_server, connect)
    bob = await connect(token_server.url, auth={"token": token_server.bob})
    assert (await bob.call("thread:list", {}))["threads"] == []
    assert [t["threadId"] for t in (await alice.call("thread:list", {}))["threads"]] == [thread_id]


# -------------------------------------------------------------- owners, HTTP


async def test_another_users_artifacts_and_events_answer_404_like_missing_ones(token_server, connect):
    _, thread_id, deck_id = await alice_finished_deck(token_server, connect)
    base, bob = token_server.url, token_server.bob
    pairs = [
        (f"/artifacts/{deck_id}", "/artifacts/no-such-artifact"),
        (f"/artifacts/{deck_id}/download", "/artifacts/no-such-artifact/download"),
        (f"/api/threads/{thread_id}/events", None),
    ]
    for theirs, missing in pairs:
        status, body, _ = await http_get(base + theirs, bob)
        assert status == 404, theirs
        if missing:
            assert (status, body) == (await http_get(base + missing, bob))[:2]
        else:
            assert body["error"] == {"code": "not_found", "message": t("runtime.no_thread", thread=thread_id)}
    status, _, _ = await http_get(f"{base}/artifacts/{deck_id}", token_server.alice)
    assert status == 200, "the owner still reads it"


async def test_http_without_a_token_is_401_but_the_page_and_health_are_public(token_server):
    status, body, _ = await http_get(token_server.url + "/api/flows")
    assert status == 401 and body["error"]["code"] == "unauthorized"
    health_status, health, _ = await http_get(token_server.url + "/healthz")
    assert health_status == 200 and health["auth"] == "token" and health["signedIn"] is False
    async with aiohttp.ClientSession() as session, session.get(token_server.url + "/") as response:
        assert response.status == 200


async def test_sign_in_sets_a_cookie_that_authorises_http(token_server):
    # unsafe=True: aiohttp's jar otherwise ignores cookies from IP-address hosts such as 127.0.0.1.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.post(token_server.url + "/api/session", json={"token": "wrong"}) as refused:
            assert refused.status == 401
        async with session.post(token_server.url + "/api/session", json={"token": token_server.alice}) as signed:
            assert signed.status == 200 and (await signed.json())["user"] == "alice"
        async with session.get(token_server.url + "/api/flows") as flows:
            assert flows.status == 200


async def test_socket_connect_without_a_valid_token_is_refused_with_a_sentence(token_server):
    client = socketio.AsyncClient(reconnection=False)
    refusals = []
    client.on("connect_error", refusals.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(token_server.url, transports=["websocket"], auth={"token": "not-a-token"}, wait_timeout=5)
    assert refusals == [{"message": t("server.unauthorized"), "data": {"code": "unauthorized"}}]


async def test_a_removed_user_can_no_longer_connect(token_server, connect):
    async with UserDirectory(token_server.app[SETTINGS_KEY].store_path) as users:
        assert await users.remove("bob")
    client = socketio.AsyncClient(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(token_server.url, transports=["websocket"], auth={"token": token_server.bob}, wait_timeout=5)
    status, _, _ = await http_get(token_server.url + "/api/flows", token_server.bob)
    assert status == 401


# ---------------------------------------------------------- AUTH_MODE=none


def test_auth_none_refuses_to_bind_a_non_loopback_address(tmp_path):
    env = {"DATA_DIR": str(tmp_path), "AUTH_MODE": "none", "LOCALE": "en", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "app.cli", "serve", "--host", "0.0.0.0", "--port", "0"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.strip() == t("server.auth_none_not_loopback", locale="en", host="0.0.0.0")
    assert "Traceback" not in done.stdout + done.stderr


async def test_auth_none_serves_the_local_user_as_before(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于风的5分钟PPT")
    assert completion["success"]
    status, _, _ = await http_get(f"{live_server.url}/api/threads/{thread_id}/events")
    assert status == 200


# ------------------------------------------------------------------ origins


async def test_a_foreign_origin_cannot_connect_the_socket(live_server):
    client = socketio.AsyncClient(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(live_server.url, transports=["websocket"], headers={"Origin": "http://evil.example"}, wait_timeout=5)


async def test_the_servers_own_origin_connects(live_server, connect):
    client = await connect(live_server.url, headers={"Origin": live_server.url})
    assert (await client.call("thread:list", {}))["ok"]


async def test_a_foreign_origin_is_refused_over_http_without_cors_headers(live_server):
    status, body, headers = await http_get(live_server.url + "/api/flows", headers={"Origin": "http://evil.example"})
    assert status == 403 and body["error"]["code"] == "unauthorized"
    assert "Access-Control-Allow-Origin" not in headers


async def test_allowed_origins_admits_a_configured_origin(start_server, connect):
    server = await start_server(allowed_origins=["https://canvas.example.org"])
    client = await connect(server.url, headers={"Origin": "https://canvas.example.org"})
    assert (await client.call("thread:list", {}))["ok"]
