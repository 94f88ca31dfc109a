"""A Socket.IO test client that records every server event and waits on them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import socketio


class RecordingClient:
    def __init__(self) -> None:
        self.sio = socketio.AsyncClient(reconnection=False)
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.replay_batches: list[int] = []  # size of each `thread:replay` message received
        self._changed = asyncio.Condition()

        @self.sio.on("*")
        async def record(event: str, data: dict[str, Any]) -> None:
            if event == "thread:replay":  # a batch of replayed events, recorded one by one like live ones
                self.replay_batches.append(len(data["events"]))
                self.events.extend((item["event"], item["data"]) for item in data["events"])
            else:
                self.events.append((event, data))
            async with self._changed:
                self._changed.notify_all()

    async def connect(self, url: str, auth: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> RecordingClient:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=10, auth=auth, headers=headers or {})
        return self

    async def call(self, event: str, data: Any = None, timeout: float = 10) -> dict[str, Any]:
        return await self.sio.call(event, data, timeout=timeout)

    async def wait_for(
        self, event: str, where: Callable[[dict[str, Any]], bool] = lambda d: True, timeout: float = 30
    ) -> dict[str, Any]:
        async def found() -> dict[str, Any]:
            async with self._changed:
                while True:
                    for name, data in self.events:
                        if name == event and where(data):
                            return data
                    await self._changed.wait()

        return await asyncio.wait_for(found(), timeout)

    def of(self, thread_id: str, event: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        return [(n, d) for n, d in self.events if d.get("threadId") == thread_id and (event is None or n == event)]

    async def close(self) -> None:
        if self.sio.connected:
            await self.sio.disconnect()
