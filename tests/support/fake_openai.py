"""A real HTTP server speaking the OpenAI chat-completions wire format, for tests and benchmarks.

    async with FakeOpenAI(responder=lambda body: '{"title": "x"}', delay_s=0.0) as fake:
        fake.reply('{"title": "first"}').malformed().fail(500)   # consumed one per request
        llm = OpenAICompatibleLLM(Settings(llm_base_url=fake.base_url, ...))
        ...
        fake.requests[-1]["messages"]                            # every chat request body, in order

Scripted behaviours are consumed one per `POST /v1/chat/completions`; when the queue is empty the
default `responder(request_json) -> str` (sync or async) supplies the content. Requests are served
concurrently (each handler only awaits), so a fixed `delay_s` with N parallel calls takes about
`delay_s`, not N × `delay_s`; `max_in_flight` shows how many overlapped.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

Responder = Callable[[dict[str, Any]], "str | Awaitable[str]"]

MALFORMED_JSON = '{"this is": "not valid json",'


@dataclass(frozen=True)
class Reply:
    """Answer with this content (a dict/list is JSON-encoded), after `delay_s` seconds."""

    content: str | Mapping[str, Any] | list[Any]
    delay_s: float = 0.0


@dataclass(frozen=True)
class Fail:
    """Answer with an HTTP error. `retry_after_ms` makes the openai client retry quickly
    (it honours the header), so retry tests do not sit through its exponential backoff."""

    status: int = 500
    message: str = "The fake server had an internal error."
    retry_after_ms: int | None = 10
    delay_s: float = 0.0


@dataclass(frozen=True)
class Delay:
    """Wait `seconds`, then answer with `content` (or the default responder's content if None)."""

    seconds: float
    content: str | Mapping[str, Any] | list[Any] | None = None


Behaviour = Reply | Fail | Delay


def default_responder(request_json: dict[str, Any]) -> str:
    return "Hello from FakeOpenAI."


def message_text(request_json: Mapping[str, Any], role: str | None = None) -> str:
    """All message contents of a request (optionally of one role), joined by newlines."""
    parts: list[str] = []
    for message in request_json.get("messages", []):
        if role is not None and message.get("role") != role:
            continue
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):  # content blocks
            parts.extend(str(block.get("text", "")) for block in content if isinstance(block, dict))
    return "\n".join(parts)


class FakeOpenAI:
    def __init__(
        self,
        *,
        responder: Responder = default_responder,
        delay_s: float = 0.0,
        models: tuple[str, ...] = ("fake-model",),
        stream_chunk_chars: int = 8,
    ) -> None:
        self.responder = responder
        self.delay_s = delay_s  # applied to every chat request, before any scripted delay
        self.models = models
        self.stream_chunk_chars = stream_chunk_chars
        self.requests: list[dict[str, Any]] = []  # chat-completion request bodies, in arrival order
        self.headers: list[dict[str, str]] = []  # their headers, same order
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Behaviour] = deque()
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # -- scripting -------------------------------------------------------------------------

    def enqueue(self, *behaviours: Behaviour) -> FakeOpenAI:
        self._queue.extend(behaviours)
        return self

    def reply(self, content: str | Mapping[str, Any] | list[Any], *, delay_s: float = 0.0) -> FakeOpenAI:
        return self.enqueue(Reply(content, delay_s))

    def malformed(self, content: str = MALFORMED_JSON) -> FakeOpenAI:
        return self.enqueue(Reply(content))

    def fail(self, status: int = 500, *, times: int = 1, retry_after_ms: int | None = 10) -> FakeOpenAI:
        return self.enqueue(*[Fail(status, retry_after_ms=retry_after_ms)] * times)

    def delay(self, seconds: float, content: str | Mapping[str, Any] | list[Any] | None = None) -> FakeOpenAI:
        return self.enqueue(Delay(seconds, content))

    @property
    def pending(self) -> int:
        """Scripted behaviours not yet consumed."""
        return len(self._queue)

    # -- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat_completions)
        app.router.add_get("/v1/models", self._list_models)
        # handler_cancellation: a client that timed out stops its handler, so a long scripted
        # delay does not hold up shutdown; a short shutdown_timeout keeps teardown fast.
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- handlers --------------------------------------------------------------------------

    async def _list_models(self, request: web.Request) -> web.Response:
        created = int(time.time())
        data = [{"id": m, "object": "model", "created": created, "owned_by": "fake"} for m in self.models]
        return web.json_response({"object": "list", "data": data})

    async def _chat_completions(self, request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return _error(400, "Request body is not JSON.", "invalid_request_error")
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        behaviour = self._queue.popleft() if self._queue else None
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            if isinstance(behaviour, Fail):
                await asyncio.sleep(behaviour.delay_s)
                headers = {}
                if behaviour.retry_after_ms is not None:
                    headers["retry-after-ms"] = str(behaviour.retry_after_ms)
                error_type = "server_error" if behaviour.status >= 500 else "invalid_request_error"
                return _error(behaviour.status, behaviour.message, error_type, headers)
            if isinstance(behaviour, Delay):
                await asyncio.sleep(behaviour.seconds)
                content = behaviour.content
            elif isinstance(behaviour, Reply):
                await asyncio.sleep(behaviour.delay_s)
                content = behaviour.content
            else:
                content = None
            if content is None:
                produced = self.responder(body)
                content = await produced if inspect.isawaitable(produced) else produced
            text = content if isinstance(content, str) else json.dumps(content)
            if body.get("stream"):
                return await self._stream(request, body, text)
            return web.json_response(self._completion(body, text))
        finally:
            self.in_flight -= 1

    def _completion(self, body: Mapping[str, Any], text: str) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.models[0]),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ],
            "usage": _usage(body, text),
        }

    async def _stream(self, request: web.Request, body: Mapping[str, Any], text: str) -> web.StreamResponse:
        response = web.StreamResponse(
            status=200, headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        ident, created, model = f"chatcmpl-fake-{next(self._ids)}", int(time.time()), body.get("model")

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}
            return {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [choice],
            }

        events = [chunk({"role": "assistant", "content": ""})]
        step = max(1, self.stream_chunk_chars)
        events += [chunk({"content": text[i : i + step]}) for i in range(0, len(text), step)]
        events.append(chunk({}, "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            events.append({**chunk({}), "choices": [], "usage": _usage(body, text)})
        for event in events:
            await response.write(f"data: {json.dumps(event)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


def _usage(body: Mapping[str, Any], text: str) -> dict[str, int]:
    # Rough word counts: enough for clients that read usage, not a tokenizer.
    prompt_tokens = len(message_text(body).split())
    completion_tokens = len(text.split())
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def _error(
    status: int, message: str, error_type: str, headers: Mapping[str, str] | None = None
) -> web.Response:
    payload = {"error": {"message": message, "type": error_type, "param": None, "code": None}}
    return web.json_response(payload, status=status, headers=dict(headers or {}))
