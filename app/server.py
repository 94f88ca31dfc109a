"""aiohttp + Socket.IO server: `create_app(settings)`; validates every inbound payload at the edge."""

from __future__ import annotations

import asyncio
import functools
import gc
import html
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import engineio.packet
import socketio
import socketio.packet
from aiohttp import web
from pydantic import BaseModel, ValidationError

from app.auth import (
    TOKEN_COOKIE,
    OriginPolicy,
    UserDirectory,
    owned_thread,
    owner_of,
    token_from_headers,
    user_directory,
)
from app.eventlog import Fanout
from app.limits import TokenBucket, bounded_json, clean_message, parse_query_int, rate_limited_error
from app.flows import flow_terms, flow_text, node_names
from app.runtime import FlowRuntime, RequestError, new_thread_id
from app.sendcap import SendCap
from app import wire_json
from app.services import open_runtime
from app.store import LOCAL_OWNER, Store, public_artifact
from core.i18n import current_locale, domain_messages, set_surface, t
from core.llm.factory import describe_llm
from core.novel.project import list_projects
from core.settings import Settings
from core.validation import describe_validation_error
from schemas.events import (
    AckError,
    ChatMessageIn,
    FlowInfo,
    RunCancelIn,
    RunResumeIn,
    ThreadDeleteIn,
    ThreadDeletedEvent,
    ThreadJoinIn,
    ThreadListIn,
    ThreadRenameIn,
    ThreadSummary,
    ThreadTitleIn,
)

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
RUNTIME_KEY = web.AppKey("runtime", FlowRuntime)
STORE_KEY = web.AppKey("store", Store)
SETTINGS_KEY = web.AppKey("settings", Settings)
USERS_KEY = web.AppKey("users", UserDirectory)
SOCKETIO_KEY = web.AppKey("socketio", socketio.AsyncServer)
USER_KEY = web.RequestKey("user", str)  # who is asking (None: nobody signed in), set by the edge middleware
# Reachable without a token: the page, its assets, health, and the sign-in itself.
PUBLIC_PATHS = ("/", "/healthz", "/api/session")
PUBLIC_PREFIXES = ("/static/", "/socket.io/")
# Events per `thread:replay` message: python-socketio costs ~0.1 ms per message whatever its size, so
# batching is what makes a 10k-event replay fast; 500 keeps one message well under the send cap.
REPLAY_BATCH = 500
# and at most this many bytes: clients cap one websocket message (aiohttp's default is 4 MB).
REPLAY_BATCH_BYTES = 1_000_000
EVENTS_PAGE_MAX = 1000  # most events one GET /api/threads/{id}/events returns


def replay_batches(
    page: list[tuple[str, dict[str, Any]]], max_bytes: int
) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The page cut into `thread:replay` batches of about `max_bytes` each (an event bigger than that goes alone)."""
    batch: list[tuple[str, dict[str, Any]]] = []
    size = 0
    for event, data in page:
        event_size = len(json.dumps(data))
        if batch and size + event_size > max_bytes:
            yield batch
            batch, size = [], 0
        batch.append((event, data))
        size += event_size
    if batch:
        yield batch


def error_ack(code: str, message: str) -> dict[str, Any]:
    # AckError pins `code` to the protocol's stable set.
    return {"ok": False, "error": AckError(code=code, message=message).model_dump()}


def user_room(user: str) -> str:
    # Thread rooms are hex ids: a prefix keeps a user's room apart from them.
    return f"user:{user}"


async def tell_owner_renamed(sio: socketio.AsyncServer, owner: str, summary: ThreadSummary) -> None:
    """Every open tab of the owner updates its thread list (the tab that renamed included)."""
    await sio.emit("thread:updated", summary.model_dump(mode="json"), room=user_room(owner))


async def tell_owner_deleted(sio: socketio.AsyncServer, owner: str, thread: dict[str, Any]) -> None:
    """Every open tab of the owner drops the thread; one that shows it says so. Nobody stays in its room."""
    event = ThreadDeletedEvent(threadId=thread["thread_id"], message=t("server.thread_deleted", title=thread["title"]))
    await sio.emit("thread:deleted", event.model_dump(), room=user_room(owner))
    await sio.close_room(thread["thread_id"])


@dataclass
class Connection:
    user: str
    bucket: TokenBucket


def local_port(environ_or_request: Any) -> int | None:
    request = environ_or_request.get("aiohttp.request") if isinstance(environ_or_request, dict) else environ_or_request
    transport = getattr(request, "transport", None)
    sockname = transport.get_extra_info("sockname") if transport is not None else None
    return sockname[1] if isinstance(sockname, tuple) and len(sockname) >= 2 else None


async def user_for_token(app: web.Application, token: str | None) -> str | None:
    """Who the token belongs to; in AUTH_MODE=none everyone is the local user."""
    if app[SETTINGS_KEY].auth_mode == "none":
        return LOCAL_OWNER
    return await app[USERS_KEY].user_for(token)


def attach_socketio(app: web.Application, settings: Settings, origins: OriginPolicy) -> socketio.AsyncServer:
    manager = socketio.AsyncRedisManager(settings.socketio_redis_url) if settings.socketio_redis_url else None
    sio = socketio.AsyncServer(
        async_mode="aiohttp",
        cors_allowed_origins=lambda origin, environ: origins.allows(origin, local_port(environ)),
        client_manager=manager,
        # Frames larger than this close the websocket with 1009 "message too big"; polling POSTs get 400.
        max_http_buffer_size=settings.max_frame_bytes,
        json=wire_json,
    )
    sio.attach(app)
    send_cap = SendCap(sio, settings.send_buffer_max_bytes, settings.send_stall_s)

    async def stop_send_cap(app: web.Application) -> None:
        await send_cap.close()

    app.on_cleanup.append(stop_send_cap)
    connections: dict[str, Connection] = {}

    def runtime() -> FlowRuntime:
        return app[RUNTIME_KEY]

    def over_rate(connection: Connection | None) -> dict[str, Any] | None:
        """The rate_limited ack when this connection has used up its bucket, else None."""
        if connection is None or connection.bucket.take():
            return None
        error = rate_limited_error(settings)
        return error_ack(error.code, error.message)

    def socket_handler(model: type[BaseModel]):
        """Rate-limit, then validate the payload into `model`; every failure is an ack error, never a dropped connection."""

        def decorate(fn: Callable[[Connection, str, Any], Awaitable[dict[str, Any]]]):
            @functools.wraps(fn)
            async def handler(sid: str, *args: Any) -> dict[str, Any]:
                connection = connections.get(sid)
                if connection is None:  # disconnected while the event was in flight
                    return error_ack("unauthorized", t("server.unauthorized"))
                if refusal := over_rate(connection):
                    return refusal
                if len(args) > 1:
                    return error_ack("bad_request", t("server.extra_arguments", count=len(args)))
                data = args[0] if args and args[0] is not None else {}
                try:
                    payload = model.model_validate(data)
                except ValidationError as error:
                    return error_ack("bad_request", t("server.invalid_request", details=describe_validation_error(error, data)))
                try:
                    return {"ok": True, **await fn(connection, sid, payload)}
                except RequestError as error:
                    return error_ack(error.code, error.message)
                except Exception:
                    log.exception("socket handler %s failed", fn.__name__)
                    return error_ack("internal", t("server.internal"))

            return handler

        return decorate

    @sio.event
    async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        token = auth.get("token") if isinstance(auth, dict) else None
        if token is None:
            token = token_from_headers(environ.get("HTTP_AUTHORIZATION"), environ.get("HTTP_COOKIE"))
        user = await user_for_token(app, token)
        if user is None:
            # The code lets the canvas tell "sign in" from other refusals without parsing the sentence.
            raise socketio.exceptions.ConnectionRefusedError(t("server.unauthorized"), {"code": "unauthorized"})
        connections[sid] = Connection(user, TokenBucket(settings.rate_limit_per_s, settings.rate_limit_burst))
        await sio.enter_room(sid, user_room(user))
        send_cap.arm(sid)

    @sio.event
    async def disconnect(sid: str, reason: Any = None) -> None:
        connections.pop(sid, None)
        # A thread whose last page here closes is no longer watched for runs of other processes.
        for room in sio.rooms(sid):
            if room != sid and not any(other != sid for other, _eio in sio.manager.get_participants("/", room)):
                runtime().events.forget(room)

    @sio.on("*")
    async def unknown_event(event: str, sid: str, *args: Any) -> dict[str, Any]:
        if refusal := over_rate(connections.get(sid)):
            return refusal
        return error_ack("bad_request", t("server.unknown_event", event=str(event)[:100]))

    @sio.on("chat:message")
    @socket_handler(ChatMessageIn)
    async def chat_message(connection: Connection, sid: str, msg: ChatMessageIn) -> dict[str, Any]:
        rt = runtime()
        rt.flow_or_400(msg.flow)
        text = clean_message(msg.text, settings)
        options = bounded_json("options", msg.options, settings)
        if msg.threadId is not None:
            await owned_thread(rt.store, msg.threadId, connection.user)
        # Join the room before the run starts so the sender sees its first event.
        thread_id = msg.threadId or new_thread_id()
        await sio.enter_room(sid, thread_id)
        rt.events.subscribed_live(thread_id)
        run_id = await rt.send_message(
            flow=msg.flow, text=text, thread_id=thread_id, create=msg.threadId is None, options=options,
            owner=connection.user,
        )
        return {"threadId": thread_id, "runId": run_id}

    @sio.on("run:resume")
    @socket_handler(RunResumeIn)
    async def run_resume(connection: Connection, sid: str, msg: RunResumeIn) -> dict[str, Any]:
        answer = bounded_json("answer", msg.answer, settings)
        await owned_thread(runtime().store, msg.threadId, connection.user)
        await sio.enter_room(sid, msg.threadId)
        runtime().events.subscribed_live(msg.threadId)
        run_id = await runtime().resume(msg.threadId, answer)
        return {"threadId": msg.threadId, "runId": run_id}

    @sio.on("run:cancel")
    @socket_handler(RunCancelIn)
    async def run_cancel(connection: Connection, sid: str, msg: RunCancelIn) -> dict[str, Any]:
        await owned_thread(runtime().store, msg.threadId, connection.user)
        await runtime().cancel(msg.threadId)
        return {}

    @sio.on("thread:join")
    @socket_handler(ThreadJoinIn)
    async def thread_join(connection: Connection, sid: str, msg: ThreadJoinIn) -> dict[str, Any]:
        rt = runtime()
        await owned_thread(rt.store, msg.threadId, connection.user)

        async def send_batch(page: list[tuple[str, dict[str, Any]]], *, paced: bool = True) -> bool:
            for batch in replay_batches(page, min(REPLAY_BATCH_BYTES, send_cap.max_bytes // 4)):
                # Unpaced under the thread's lock: a slow reader must not hold up the run's publishing.
                if paced and not await send_cap.writable(sid):
                    return False  # the client is gone
                await sio.emit(
                    "thread:replay",
                    {"threadId": msg.threadId, "events": [{"event": event, "data": data} for event, data in batch]},
                    to=sid,
                )
            return True

        # Bulk of the history page by page, outside the thread's lock and paced by what the client reads;
        # then what arrived meanwhile and the subscription under the lock, so there is still no gap.
        after_seq = msg.afterSeq
        async for page in rt.store.event_pages(msg.threadId, after_seq, page_size=REPLAY_BATCH):
            if not await send_batch(page):
                return {}  # nobody reads this ack
            after_seq = page[-1][1]["seq"]
        await rt.events.replay_then(
            msg.threadId, after_seq, functools.partial(send_batch, paced=False), lambda: sio.enter_room(sid, msg.threadId)
        )
        info = await rt.thread_info(msg.threadId)
        return {"thread": info.model_dump(mode="json", exclude_none=True)}

    @sio.on("thread:list")
    @socket_handler(ThreadListIn)
    async def thread_list(connection: Connection, sid: str, msg: ThreadListIn) -> dict[str, Any]:
        threads = await runtime().list_threads(owner=connection.user)
        return {"threads": [thread.model_dump(mode="json") for thread in threads]}

    @sio.on("thread:rename")
    @socket_handler(ThreadRenameIn)
    async def thread_rename(connection: Connection, sid: str, msg: ThreadRenameIn) -> dict[str, Any]:
        summary = await runtime().rename_thread(msg.threadId, msg.title, owner=connection.user)
        await tell_owner_renamed(sio, connection.user, summary)
        return {"thread": summary.model_dump(mode="json")}

    @sio.on("thread:delete")
    @socket_handler(ThreadDeleteIn)
    async def thread_delete(connection: Connection, sid: str, msg: ThreadDeleteIn) -> dict[str, Any]:
        thread = await runtime().delete_thread(msg.threadId, owner=connection.user)
        await tell_owner_deleted(sio, connection.user, thread)
        return {"threadId": msg.threadId}

    return sio


# ---------------------------------------------------------------------- HTTP


def error_body(code: str, message: str) -> str:
    return json.dumps({"error": {"code": code, "message": message}})


def http_error(status: int, code: str, message: str) -> web.HTTPException:
    cls = {400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden, 404: web.HTTPNotFound,
           409: web.HTTPConflict}[status]
    return cls(text=error_body(code, message), content_type="application/json")


def in_our_words(error: web.HTTPException, request: web.Request) -> web.HTTPException:
    """aiohttp's own refusals (no route, wrong method, body too large) with a catalogue sentence, as JSON.

    The exception keeps its status and headers (405's `Allow`); only the English body is replaced.
    """
    if error.status == 404:
        code, message = "not_found", t("server.http_not_found")
    elif error.status == 405:
        code, message = "bad_request", t("server.http_method_not_allowed", method=request.method)
    elif error.status == 413:
        code, message = "bad_request", t("server.http_too_large", limit=request.client_max_size)
    else:
        code, message = "bad_request", t("server.http_bad_request")
    error.text = error_body(code, message)
    error.content_type = "application/json"
    return error


def make_edge_middleware(origins: OriginPolicy):
    @web.middleware
    async def edge(request: web.Request, handler):
        """Foreign origins refused, the caller identified, and refusals as JSON sentences, never a traceback."""
        path = request.path
        origin = request.headers.get("Origin")
        # Before engineio's own origin check too, which would answer in English.
        if not origins.allows(origin, local_port(request)):
            raise http_error(403, "unauthorized", t("server.origin_refused", origin=origin))
        if path.startswith("/socket.io/"):
            return await handler(request)  # the Socket.IO connect checks the token
        token = token_from_headers(request.headers.get("Authorization"), request.headers.get("Cookie"))
        user = await user_for_token(request.app, token)
        if user is None and not (path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)):
            raise http_error(401, "unauthorized", t("server.unauthorized"))
        request[USER_KEY] = user
        try:
            return await handler(request)
        except RequestError as error:
            status = {"not_found": 404, "unauthorized": 401, "conflict": 409}.get(error.code, 400)
            raise http_error(status, error.code, error.message) from None
        except web.HTTPException as error:
            if error.status < 400 or error.content_type == "application/json":
                raise  # a redirect, or already one of our sentences
            raise in_our_words(error, request) from None

    return edge


# The canvas page in the server's LOCALE, filled in as it is served so no untranslated text ever shows:
# `{{lang}}`, `{{messages}}` (the `canvas` catalogue as JSON, read by static/i18n.js before anything
# renders) and `{{page_*}}` sentences. A `{field}` in a page sentence names another canvas key, shown as code.
PAGE_SLOT = re.compile(r"\{\{(\w+)\}\}")
PAGE_FIELD = re.compile(r"\{(\w+)\}")
HTML_LANG = {"zh": "zh-CN", "en": "en"}


def render_page(template: str) -> str:
    messages = domain_messages("canvas")

    def slot(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "lang":
            return HTML_LANG[current_locale()]
        if name == "messages":
            # JSON inside <script>: "<" escaped so no text can close the element.
            return json.dumps(messages, ensure_ascii=False).replace("<", "\\u003c")
        return PAGE_FIELD.sub(lambda field: f"<code>{html.escape(messages[field.group(1)])}</code>",
                              html.escape(messages[name]))

    return PAGE_SLOT.sub(slot, template)


async def index(request: web.Request) -> web.StreamResponse:
    template = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    return web.Response(text=render_page(template), content_type="text/html", headers={"Cache-Control": "no-cache"})


async def healthz(request: web.Request) -> web.Response:
    settings = request.app[SETTINGS_KEY]
    ready = RUNTIME_KEY in request.app
    body = {
        "status": "ok" if ready else "starting",
        "llm": describe_llm(settings),
        "flows": sorted(request.app[RUNTIME_KEY].flows) if ready else [],
        "auth": settings.auth_mode,
        "signedIn": request.get(USER_KEY) is not None,
    }
    legal = request.app[RUNTIME_KEY].tools.get("legal") if ready else None
    if legal is not None:
        body["legal"] = legal.describe()  # the statute index builds in the background after start-up
    return web.json_response(body, status=200 if ready else 503)


async def sign_in(request: web.Request) -> web.Response:
    """POST {token}: checks it and sets it as an HttpOnly cookie, so downloads and links carry it too."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    token = body.get("token") if isinstance(body, dict) else None
    user = await user_for_token(request.app, token if isinstance(token, str) else None)
    if user is None:
        raise http_error(401, "unauthorized", t("server.unauthorized"))
    response = web.json_response({"user": user, "message": t("server.signed_in", name=user)})
    if request.app[SETTINGS_KEY].auth_mode == "token":
        response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=30 * 24 * 3600)
    return response


async def list_flows(request: web.Request) -> web.Response:
    runtime = request.app[RUNTIME_KEY]
    return web.json_response([
        FlowInfo(
            name=f.name, title=flow_text(f, "title"), description=flow_text(f, "description"),
            nodes=node_names(runtime.graphs[f.name].builder), terms=flow_terms(f),
        ).model_dump()
        for f in runtime.flows.values()
    ])


async def list_novel_projects(request: web.Request) -> web.Response:
    # The page offers these in its project field: a name typed from memory is the common refusal.
    settings = request.app[SETTINGS_KEY]
    return web.json_response(await asyncio.to_thread(list_projects, settings))


async def owned_artifact(request: web.Request, not_found_key: str) -> dict[str, Any]:
    store = request.app[STORE_KEY]
    version = parse_query_int(request.query.get("version"), "version", low=1)
    artifact = await store.get_artifact(request.match_info["artifact_id"], version)
    thread = await store.get_thread(artifact["_threadId"]) if artifact else None
    if thread is None or owner_of(thread) != request[USER_KEY]:
        raise http_error(404, "not_found", t(not_found_key))
    return artifact


async def get_artifact(request: web.Request) -> web.Response:
    return web.json_response(public_artifact(await owned_artifact(request, "server.artifact_not_found")))


async def download_artifact(request: web.Request) -> web.StreamResponse:
    artifact = await owned_artifact(request, "server.no_download")
    if not artifact.get("_filePath"):
        raise http_error(404, "not_found", t("server.no_download"))
    path = Path(artifact["_filePath"])
    file_name = artifact.get("_fileName") or artifact["id"]
    mime_type = artifact.get("mimeType") or "application/octet-stream"
    # RFC 6266: an ASCII fallback plus the UTF-8 name percent-encoded, so quotes or backslashes in a topic stay harmless.
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in file_name)
    disposition = f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(file_name, safe='')}"
    return web.FileResponse(path, headers={"Content-Type": mime_type, "Content-Disposition": disposition})


async def get_trace(request: web.Request) -> web.Response:
    store = request.app[STORE_KEY]
    trace = await store.find_trace(request.match_info["trace_id"])
    thread = await store.get_thread(trace["_threadId"]) if trace else None
    # Someone else's trace answers exactly as one that does not exist.
    if thread is None or owner_of(thread) != request[USER_KEY]:
        raise http_error(404, "not_found", t("server.trace_not_found"))
    return web.json_response(public_artifact(trace))


async def thread_events(request: web.Request) -> web.Response:
    """At most `limit` events after `afterSeq`; a client pages on from the last `seq` it got."""
    after_seq = parse_query_int(request.query.get("afterSeq"), "afterSeq", low=0, default=0)
    limit = min(parse_query_int(request.query.get("limit"), "limit", low=1, default=EVENTS_PAGE_MAX), EVENTS_PAGE_MAX)
    thread_id = request.match_info["thread_id"]
    store = request.app[STORE_KEY]
    await owned_thread(store, thread_id, request[USER_KEY])
    events = await store.events_after(thread_id, after_seq, limit=limit)
    return web.json_response([{"event": event, "data": payload} for event, payload in events])


async def rename_thread(request: web.Request) -> web.Response:
    """PATCH {title}: the same rules as `thread:rename`; answers the thread's new summary."""
    try:
        body = await request.json()
    except ValueError:
        # Not "title is missing": the body could not be read at all.
        raise http_error(400, "bad_request", t("server.body_not_json")) from None
    try:
        payload = ThreadTitleIn.model_validate(body if body is not None else {})
    except ValidationError as error:
        raise http_error(400, "bad_request", t("server.invalid_request", details=describe_validation_error(error, body))) from None
    user = request[USER_KEY]
    summary = await request.app[RUNTIME_KEY].rename_thread(request.match_info["thread_id"], payload.title, owner=user)
    await tell_owner_renamed(request.app[SOCKETIO_KEY], user, summary)
    return web.json_response(summary.model_dump(mode="json"))


async def delete_thread(request: web.Request) -> web.Response:
    """DELETE: the same rules as `thread:delete`; 204 once the thread and all it holds are gone."""
    user = request[USER_KEY]
    thread = await request.app[RUNTIME_KEY].delete_thread(request.match_info["thread_id"], owner=user)
    await tell_owner_deleted(request.app[SOCKETIO_KEY], user, thread)
    return web.Response(status=204)


# ------------------------------------------------------------------- factory


def room_fanout(sio: socketio.AsyncServer) -> Fanout:
    """Sends a stored batch of a thread's events to the clients in its room, in seq order.

    With rooms kept in this process, each packet is encoded once and the batch is queued on each
    client's engine.io socket in one go: the socket's writer wakes once for a node's events, and no
    task is made per event and client (what `sio.emit` does, to not wait on a slow client; our queues
    never block, see app/sendcap). A pub/sub manager (Redis, other workers) gets one `emit` per event.
    """
    local_rooms = type(sio.manager) is socketio.AsyncManager

    async def to_room(thread_id: str, events: list[tuple[str, dict[str, Any]]]) -> None:
        if not local_rooms:
            for event, payload in events:
                await sio.emit(event, payload, room=thread_id)
            return
        recipients = [eio_sid for _sid, eio_sid in sio.manager.get_participants("/", thread_id)]
        if not recipients:
            return
        # binary=False: payloads are JSON-mode dumps, so the walk through every value looking for bytes
        # (python-socketio's default) is skipped; encode() then gives one text packet.
        packets = [
            engineio.packet.Packet(
                engineio.packet.MESSAGE,
                sio.packet_class(socketio.packet.EVENT, namespace="/", data=[event, payload], binary=False).encode(),
            )
            for event, payload in events
        ]
        for eio_sid in recipients:
            for packet in packets:
                await sio.eio.send_packet(eio_sid, packet)

    return to_room


async def freeze_startup_heap(warming: threading.Thread | None) -> None:
    """Move what start-up built out of the garbage collector's sight (`gc.freeze`), once now and again once the
    statute index is warm; while it warms, no full collection runs at all.

    A full collection walks every tracked object: with the start-up heap (imports, compiled graphs, the
    index) that is 125-135 ms here, on the event loop, and every client's events wait it out (P2's p99,
    bench/README.md). What start-up builds lives as long as the process, so it need not be walked again.
    The index build allocates millions of objects, which would start full collections of 13-110 ms while
    it runs; and a closing `gc.collect()` found ~350 unreachable objects for a 50-110 ms pause, so the
    warm-up's little garbage is frozen with the rest instead. Tests and `LEGAL_WARM_AT_STARTUP=false`
    skip the warm-up.
    """
    gc.freeze()
    if warming is None:
        return
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, _NEVER)  # young collections go on: they are short and free most cycles
    try:
        await asyncio.to_thread(warming.join)
        gc.freeze()  # before the old threshold is back: the counts it missed would start a full collection at once
    finally:
        gc.set_threshold(young, middle, old)


# A generation threshold no count reaches in a process's life.
_NEVER = 2**31 - 1


def create_app(settings: Settings) -> web.Application:
    # The runtime's shared sentences name a thread as the canvas does (会话). Set before the server starts,
    # so every request, socket handler and run task (and the events it emits) inherits it.
    set_surface("canvas")
    origins = OriginPolicy(settings)
    app = web.Application(middlewares=[make_edge_middleware(origins)])
    app[SETTINGS_KEY] = settings
    sio = app[SOCKETIO_KEY] = attach_socketio(app, settings, origins)

    async def start_services(app: web.Application):
        async with user_directory(settings) as users, open_runtime(settings, fanouts=[room_fanout(sio)]) as runtime:
            app[USERS_KEY] = users
            app[STORE_KEY] = runtime.store
            app[RUNTIME_KEY] = runtime
            legal = runtime.tools.get("legal")
            warming = legal.warm_in_background() if legal is not None and settings.legal_warm_at_startup else None
            freezing = asyncio.create_task(freeze_startup_heap(warming))
            try:
                yield
            finally:
                freezing.cancel()
                gc.unfreeze()  # back in the collector's sight: an in-process server (tests, bench) may be followed by others

    async def stop_runs_and_close_sockets(app: web.Application) -> None:
        # aiohttp has stopped accepting; it waits for open requests next, and a socket never ends on
        # its own: stop the runs at a step boundary (resumable) while clients still see it, then close them.
        if RUNTIME_KEY in app:
            await app[RUNTIME_KEY].shutdown()
        # Close without waiting for each send queue to drain: a client that already went away (or
        # stopped reading) never takes the close packet, and shutdown must not wait on it.
        for eio_socket in list(sio.eio.sockets.values()):
            await eio_socket.close(wait=False, reason=sio.eio.reason.SERVER_DISCONNECT)
        sio.eio.sockets.clear()
        await sio.shutdown()

    app.cleanup_ctx.append(start_services)
    app.on_shutdown.append(stop_runs_and_close_sockets)
    app.router.add_get("/", index)
    app.router.add_get("/healthz", healthz)
    app.router.add_post("/api/session", sign_in)
    app.router.add_get("/api/flows", list_flows)
    app.router.add_get("/api/novel/projects", list_novel_projects)
    app.router.add_get("/api/threads/{thread_id}/events", thread_events)
    app.router.add_patch("/api/threads/{thread_id}", rename_thread)
    app.router.add_delete("/api/threads/{thread_id}", delete_thread)
    app.router.add_get("/api/traces/{trace_id}", get_trace)
    app.router.add_get("/artifacts/{artifact_id}", get_artifact)
    app.router.add_get("/artifacts/{artifact_id}/download", download_artifact)
    if STATIC_DIR.is_dir():
        app.router.add_static("/static/", STATIC_DIR)
    return app
