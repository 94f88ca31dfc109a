"""Fuzz the server edge with Hypothesis: every client event is acked (never `internal`), every HTTP
route answers 2xx/4xx, and afterwards the same server still runs a normal flow.

The server and a Socket.IO client live on an event loop in a background thread, so Hypothesis drives
plain synchronous test functions. Examples are derandomised: a CI failure reproduces.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp import web
from hypothesis import HealthCheck, given, settings, strategies as st

from app.server import create_app
from core.settings import Settings
from schemas.events import AckError
from tests.support.client import RecordingClient
from tests.test_ppt_socket import run_ppt

STABLE_CODES = set(AckError.model_fields["code"].annotation.__args__)
FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40))
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
thread_ids = st.text(max_size=30) | json_scalars


def shaped(**fields: st.SearchStrategy) -> st.SearchStrategy:
    """Dicts with (some of) the event's own keys, sometimes an unknown one, or any JSON at all."""
    return st.fixed_dictionaries({}, optional={**fields, "extra": json_values}) | json_values


EVENTS = {
    # Flows that exist and do not: a valid message starts a real (offline, quick) requirement run.
    "chat:message": shaped(flow=st.sampled_from(["requirement", "nope", ""]) | json_scalars,
                           text=st.text(max_size=60) | json_scalars, threadId=thread_ids, options=json_values),
    "run:resume": shaped(threadId=thread_ids, answer=json_values),
    "run:cancel": shaped(threadId=thread_ids),
    "thread:join": shaped(threadId=thread_ids, afterSeq=json_scalars),
    "thread:list": shaped(),
}
ROUTES = ["/api/threads/{x}/events", "/artifacts/{x}", "/artifacts/{x}/download", "/api/flows", "/healthz",
          "/api/session", "/{x}", "/static/{x}"]


class LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float = 60) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def edge(tmp_path_factory):
    loop = LoopThread()
    data_dir = tmp_path_factory.mktemp("fuzz")

    async def start():
        app = create_app(Settings(data_dir=data_dir, llm_provider="offline", rate_limit_burst=10**6, _env_file=None))
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
        client = await RecordingClient().connect(url)
        return runner, url, client, aiohttp.ClientSession()

    runner, url, client, session = loop.run(start())
    yield loop, url, client, session

    async def stop():
        await client.close()
        await session.close()
        await runner.cleanup()

    loop.run(stop())
    loop.stop()


def assert_acked(ack: Any, event: str) -> None:
    assert isinstance(ack, dict) and isinstance(ack.get("ok"), bool), (event, ack)
    if not ack["ok"]:
        assert ack["error"]["code"] in STABLE_CODES - {"internal"}, (event, ack)
        assert isinstance(ack["error"]["message"], str) and ack["error"]["message"], (event, ack)


@pytest.mark.parametrize("event", sorted(EVENTS))
def test_every_client_event_is_acked_whatever_its_payload(edge, event):
    loop, _, client, _ = edge

    @FUZZ
    @given(payload=EVENTS[event], extra=st.lists(json_values, max_size=2))
    def check(payload, extra):
        data = (payload, *extra) if extra else payload
        assert_acked(loop.run(client.call(event, data, timeout=20)), event)

    check()


def test_every_http_route_answers_2xx_or_4xx(edge):
    loop, url, _, session = edge

    async def request(method: str, path: str, query: dict[str, str], body: Any) -> int:
        call = session.post if method == "POST" else session.get
        async with call(url + path, params=query, json=body if method == "POST" else None) as response:
            await response.read()
            return response.status

    @FUZZ
    @given(method=st.sampled_from(["GET", "POST"]), route=st.sampled_from(ROUTES), segment=st.text(min_size=1, max_size=30),
           query=st.dictionaries(st.sampled_from(["afterSeq", "version", "x"]), st.text(max_size=25), max_size=2),
           body=json_values)
    def check(method, route, segment, query, body):
        status = loop.run(request(method, route.format(x=quote(segment, safe="")), query, body))
        assert status < 500, (method, route, segment, query, status)

    check()


def test_after_the_fuzz_the_server_still_runs_a_normal_flow(edge):
    loop, url, _, _ = edge

    async def normal_run():
        client = await RecordingClient().connect(url)
        try:
            return await run_ppt(client, "做一个关于彩虹的5分钟PPT")
        finally:
            await client.close()

    _, completion = loop.run(normal_run())
    assert completion["success"]
