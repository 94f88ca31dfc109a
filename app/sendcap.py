"""A cap on what the server holds for a client that does not read.

How python-socketio sends (engineio 4, aiohttp driver): every emit puts a packet on the client's
engineio `queue` (an unbounded `asyncio.Queue`) and returns; one writer task per client takes the
queued packets and awaits `WebSocketResponse.send_str`, which waits for the socket to drain once
aiohttp's transport buffer passes its high-water mark. A client that stops reading therefore
parks the writer forever and the queue grows without limit (issue 13: 268 → 939 MB), and even a
ping timeout cannot free it, since the writer never returns.

So: the queue counts its bytes, and once a client has more than SEND_BUFFER_MAX_BYTES waiting, or
its queue has not moved for SEND_STALL_S, the client is dropped — its TCP transport aborted (which wakes the parked writer with an error) and its
engineio socket closed. Nothing is lost: the client reconnects and rejoins with `afterSeq`.

The same driver corks each client's TCP socket for the rest of a loop turn once a frame is written
(TurnCork), so the frames of one batch leave in one segment.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable

import socketio
from engineio.async_drivers import aiohttp as engineio_aiohttp

from core.i18n import t

log = logging.getLogger(__name__)
TCP_CORK = getattr(socket, "TCP_CORK", None)  # Linux only; elsewhere frames leave one by one


def _packet_bytes(packet: object) -> int:
    data = getattr(packet, "data", None)
    return len(data) if isinstance(data, (str, bytes)) else 16


class CappedSendQueue(asyncio.Queue):
    """engineio's per-client send queue, counting queued bytes; calls `on_overflow` once past the cap."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__()
        self.max_bytes = max_bytes
        self.queued_bytes = 0
        self.overflowed = False
        self.on_overflow: Callable[[], None] | None = None
        self.taken = asyncio.Event()  # set whenever the writer takes packets: the client is reading
        self.waiting_since: float | None = None  # when the oldest packet still queued was queued

    # asyncio.Queue's documented extension points (PriorityQueue overrides the same pair).
    def put_nowait(self, item: object) -> None:
        if self.overflowed and item is not None:
            # The client is being dropped: hold nothing more for it (None still stops the writer),
            # and leave engineio's `close()` (which joins the queue) nothing to wait for.
            return
        super().put_nowait(item)

    def _put(self, item: object) -> None:
        super()._put(item)
        if self.waiting_since is None:
            self.waiting_since = time.monotonic()
        self.queued_bytes += _packet_bytes(item)
        if self.queued_bytes > self.max_bytes:
            self.overflowed = True
            if self.on_overflow is not None:
                self.on_overflow()

    def _get(self) -> object:
        item = super()._get()
        self.queued_bytes -= _packet_bytes(item)
        self.waiting_since = time.monotonic() if self.qsize() else None
        self.taken.set()
        return item

    def stalled_for(self) -> float:
        return time.monotonic() - self.waiting_since if self.waiting_since is not None else 0.0


class TurnCork:
    """Holds a TCP socket's output from the first send of an event-loop turn until that turn ends.

    Each uncorked send() crosses the whole TCP stack at once (~0.1 ms a frame on loopback here,
    bench/README.md); corked, the frames written in one turn leave together. The cork is taken off
    by a callback at the loop's next turn, so nothing waits longer than the turn that wrote it.
    """

    def __init__(self, tcp_socket: socket.socket | None) -> None:
        self._socket = tcp_socket
        self._held = False

    def hold(self) -> None:
        if self._held or self._socket is None:
            return
        if self._set(1):
            self._held = True
            asyncio.get_running_loop().call_soon(self._release)

    def _release(self) -> None:
        self._held = False
        self._set(0)

    def _set(self, value: int) -> bool:
        try:
            self._socket.setsockopt(socket.IPPROTO_TCP, TCP_CORK, value)
        except (OSError, AttributeError):  # closed meanwhile, or not TCP (a unix socket behind a proxy)
            self._socket = None
            return False
        return True


class SendCap:
    """Installs the capped queue on a Socket.IO server and drops clients that stop reading."""

    def __init__(self, sio: socketio.AsyncServer, max_bytes: int, stall_s: float) -> None:
        self.sio = sio
        self.eio = sio.eio
        self.max_bytes = max_bytes
        self.stall_s = stall_s
        self.eio.create_queue = lambda *args, **kwargs: CappedSendQueue(max_bytes)

        class TrackedWebSocket(engineio_aiohttp.WebSocket):
            """The aiohttp websocket driver, remembering which TCP transport belongs to which engineio socket.

            Its sends are corked per loop turn (TurnCork): engineio's writer sends each queued packet
            as a frame of its own, and a node's events are queued together.
            """

            _cork: TurnCork | None = None

            async def __call__(self, environ):
                eio_socket = getattr(self.handler, "__self__", None)
                transport = environ["aiohttp.request"].transport
                if eio_socket is not None and transport is not None:
                    eio_socket.abort_transport = transport.abort
                if transport is not None and TCP_CORK is not None:
                    self._cork = TurnCork(transport.get_extra_info("socket"))
                return await super().__call__(environ)

            async def send(self, message):
                if self._cork is not None:
                    self._cork.hold()
                await super().send(message)

        # A copy: the driver table is module-global in engineio, shared by every server in the process.
        self.eio._async = {**self.eio._async, "websocket": TrackedWebSocket}
        self._watchdog: asyncio.Task | None = None

    async def _watch(self) -> None:
        """Drop clients whose queue has not moved for SEND_STALL_S, however little it holds.

        The byte cap alone misses a client that stops reading after a burst smaller than the cap:
        its writer would stay parked, and its queue held, for the life of the process.
        """
        interval = min(max(self.stall_s / 4, 0.1), 5.0)
        while True:
            await asyncio.sleep(interval)
            for eio_socket in list(self.eio.sockets.values()):
                queue = eio_socket.queue
                if isinstance(queue, CappedSendQueue) and queue.stalled_for() > self.stall_s:
                    self._drop(eio_socket)

    async def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
            self._watchdog = None

    def _socket(self, sid: str):
        eio_sid = self.sio.manager.eio_sid_from_sid(sid, "/")
        eio_socket = self.eio.sockets.get(eio_sid) if eio_sid is not None else None
        if eio_socket is None or not isinstance(eio_socket.queue, CappedSendQueue):
            return None
        return eio_socket

    def arm(self, sid: str) -> None:
        """Call on connect, once the client's engineio socket exists."""
        if self._watchdog is None:
            self._watchdog = asyncio.ensure_future(self._watch())
        eio_socket = self._socket(sid)
        if eio_socket is None:
            return
        eio_socket.queue.on_overflow = lambda: self._drop(eio_socket)
        if eio_socket.queue.overflowed:
            self._drop(eio_socket)

    def _drop(self, eio_socket) -> None:
        if getattr(eio_socket, "dropped", False):
            return
        eio_socket.dropped = True
        log.warning(t("server.client_dropped", sid=eio_socket.sid, limit=self.max_bytes))
        abort = getattr(eio_socket, "abort_transport", None)
        if abort is not None:
            abort()  # wakes the writer parked on a full socket
        self.eio.start_background_task(eio_socket.close, wait=False, abort=True)

    async def writable(self, sid: str) -> bool:
        """Back-pressure for bulk sends (replay): wait while over half the cap is queued.

        False when the client is gone or made no progress for SEND_STALL_S (it is then dropped).
        """
        eio_socket = self._socket(sid)
        if eio_socket is None or eio_socket.closed or getattr(eio_socket, "dropped", False):
            return False
        queue: CappedSendQueue = eio_socket.queue
        while queue.queued_bytes > self.max_bytes // 2:
            queue.taken.clear()
            try:
                await asyncio.wait_for(queue.taken.wait(), self.stall_s)
            except asyncio.TimeoutError:
                self._drop(eio_socket)
                return False
            if eio_socket.closed:
                return False
        return True
