"""aiohttp + Socket.IO server: `create_app(settings)`; validates every inbound payload at the edge."""

from __future__ import annotations

import functools
import json
from urllib.parse import quote
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import socketio
from aiohttp import web
from pydantic import BaseModel, ValidationError

from core.llm.factory import describe_llm
from app.runtime import FlowRuntime, RequestError, new_thread_id
from app.services import open_runtime
from core.settings import Settings
from app.store import Store, public_artifact
from schemas.events import (
    AckError,
    ChatMessageIn,
    FlowInfo,
    RunCancelIn,
    RunResumeIn,
    ThreadJoinIn,
    ThreadListIn,
)

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
RUNTIME_KEY = web.AppKey("runtime", FlowRuntime)
STORE_KEY = web.AppKey("store", Store)
SETTINGS_KEY = web.AppKey("settings", Settings)


def error_ack(code: str, message: str) -> dict[str, Any]:
    # AckError pins `code` to the protocol's stable set.
    return {"ok": False, "error": AckError(code=code, message=message).model_dump()}


def describe_validation_error(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "payload"
        parts.append(f"{where}: {item['msg']}")
    return "Invalid request — " + "; ".join(parts)


def socket_handler(model: type[BaseModel]):
    """Validate the payload into `model`; turn every failure into an ack error, never a dropped connection."""

    def decorate(fn: Callable[[str, Any], Awaitable[dict[str, Any]]]):
        @functools.wraps(fn)
        async def handler(sid: str, data: Any = None) -> dict[str, Any]:
            try:
                payload = model.model_validate(data if data is not None else {})
            except ValidationError as error:
                return error_ack("bad_request", describe_validation_error(error))
            try:
                return {"ok": True, **await fn(sid, payload)}
            except RequestError as error:
                return error_ack(error.code, error.message)
            except Exception:
                log.exception("socket handler %s failed", fn.__name__)
                return error_ack("internal", "Something went wrong on the server; nothing was changed.")

        return handler

    return decorate


def attach_socketio(app: web.Application, settings: Settings) -> socketio.AsyncServer:
    manager = socketio.AsyncRedisManager(settings.socketio_redis_url) if settings.socketio_redis_url else None
    sio = socketio.AsyncServer(async_mode="aiohttp", cors_allowed_origins="*", client_manager=manager)
    sio.attach(app)

    def runtime() -> FlowRuntime:
        return app[RUNTIME_KEY]

    @sio.on("chat:message")
    @socket_handler(ChatMessageIn)
    async def chat_message(sid: str, msg: ChatMessageIn) -> dict[str, Any]:
        rt = runtime()
        rt.flow_or_400(msg.flow)
        if msg.threadId is not None:
            await rt.thread_or_404(msg.threadId)
        # Join the room before the run starts so the sender sees its first event.
        thread_id = msg.threadId or new_thread_id()
        await sio.enter_room(sid, thread_id)
        run_id = await rt.send_message(
            flow=msg.flow, text=msg.text, thread_id=thread_id, create=msg.threadId is None, options=msg.options
        )
        return {"threadId": thread_id, "runId": run_id}

    @sio.on("run:resume")
    @socket_handler(RunResumeIn)
    async def run_resume(sid: str, msg: RunResumeIn) -> dict[str, Any]:
        await runtime().thread_or_404(msg.threadId)
        await sio.enter_room(sid, msg.threadId)
        run_id = await runtime().resume(msg.threadId, msg.answer)
        return {"threadId": msg.threadId, "runId": run_id}

    @sio.on("run:cancel")
    @socket_handler(RunCancelIn)
    async def run_cancel(sid: str, msg: RunCancelIn) -> dict[str, Any]:
        await runtime().cancel(msg.threadId)
        return {}

    @sio.on("thread:join")
    @socket_handler(ThreadJoinIn)
    async def thread_join(sid: str, msg: ThreadJoinIn) -> dict[str, Any]:
        rt = runtime()
        await rt.thread_or_404(msg.threadId)

        async def send(event: str, payload: dict[str, Any]) -> None:
            await sio.emit(event, payload, to=sid)

        await rt.events.replay_then(msg.threadId, msg.afterSeq, send, lambda: sio.enter_room(sid, msg.threadId))
        info = await rt.thread_info(msg.threadId)
        return {"thread": info.model_dump(mode="json", exclude_none=True)}

    @sio.on("thread:list")
    @socket_handler(ThreadListIn)
    async def thread_list(sid: str, msg: ThreadListIn) -> dict[str, Any]:
        return {"threads": [t.model_dump(mode="json") for t in await runtime().list_threads()]}

    return sio


# ---------------------------------------------------------------------- HTTP


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC_DIR / "index.html")


async def healthz(request: web.Request) -> web.Response:
    settings = request.app[SETTINGS_KEY]
    ready = RUNTIME_KEY in request.app
    body = {"status": "ok" if ready else "starting", "llm": describe_llm(settings), "flows": sorted(request.app[RUNTIME_KEY].flows) if ready else []}
    legal = request.app[RUNTIME_KEY].tools.get("legal") if ready else None
    if legal is not None:
        body["legal"] = legal.describe()  # the statute index builds in the background after start-up
    return web.json_response(body, status=200 if ready else 503)


async def list_flows(request: web.Request) -> web.Response:
    flows = request.app[RUNTIME_KEY].flows.values()
    return web.json_response([FlowInfo(name=f.name, title=f.title, description=f.description).model_dump() for f in flows])


def http_error(status: int, code: str, message: str) -> web.HTTPException:
    cls = {400: web.HTTPBadRequest, 404: web.HTTPNotFound}[status]
    return cls(text=json.dumps({"error": {"code": code, "message": message}}), content_type="application/json")


def _version_param(request: web.Request) -> int | None:
    raw = request.query.get("version")
    if raw is None:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise http_error(400, "bad_request", "version must be a positive integer")
    return int(raw)


def _not_found(message: str) -> web.HTTPException:
    return http_error(404, "not_found", message)


async def get_artifact(request: web.Request) -> web.Response:
    artifact = await request.app[STORE_KEY].get_artifact(request.match_info["artifact_id"], _version_param(request))
    if artifact is None:
        raise _not_found("No such artifact or version.")
    return web.json_response(public_artifact(artifact))


async def download_artifact(request: web.Request) -> web.StreamResponse:
    found = await request.app[STORE_KEY].artifact_file(request.match_info["artifact_id"], _version_param(request))
    if found is None:
        raise _not_found("This artifact has no file to download.")
    path, file_name, mime_type = found
    # RFC 6266: an ASCII fallback plus the UTF-8 name percent-encoded, so quotes or backslashes in a topic stay harmless.
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in file_name)
    disposition = f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(file_name, safe='')}"
    return web.FileResponse(path, headers={"Content-Type": mime_type, "Content-Disposition": disposition})


async def get_trace(request: web.Request) -> web.Response:
    trace = await request.app[STORE_KEY].find_trace(request.match_info["trace_id"])
    if trace is None:
        raise _not_found("No trace with this id.")
    return web.json_response(trace)


async def thread_events(request: web.Request) -> web.Response:
    raw = request.query.get("afterSeq", "0")
    if not raw.isdigit():
        raise http_error(400, "bad_request", "afterSeq must be a non-negative integer")
    thread_id = request.match_info["thread_id"]
    store = request.app[STORE_KEY]
    if await store.get_thread(thread_id) is None:
        raise _not_found("No such thread.")
    events = await store.events_after(thread_id, int(raw))
    return web.json_response([{"event": event, "data": payload} for event, payload in events])


# ------------------------------------------------------------------- factory


def create_app(settings: Settings) -> web.Application:
    app = web.Application()
    app[SETTINGS_KEY] = settings
    sio = attach_socketio(app, settings)

    async def to_room(thread_id: str, event: str, payload: dict[str, Any]) -> None:
        await sio.emit(event, payload, room=thread_id)

    async def start_services(app: web.Application):
        async with open_runtime(settings, fanouts=[to_room]) as runtime:
            app[STORE_KEY] = runtime.store
            app[RUNTIME_KEY] = runtime
            legal = runtime.tools.get("legal")
            if legal is not None and settings.legal_warm_at_startup:
                legal.warm_in_background()
            yield

    app.cleanup_ctx.append(start_services)
    app.router.add_get("/", index)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/api/flows", list_flows)
    app.router.add_get("/api/threads/{thread_id}/events", thread_events)
    app.router.add_get("/api/traces/{trace_id}", get_trace)
    app.router.add_get("/artifacts/{artifact_id}", get_artifact)
    app.router.add_get("/artifacts/{artifact_id}/download", download_artifact)
    if STATIC_DIR.is_dir():
        app.router.add_static("/static/", STATIC_DIR)
    return app
