"""The event log: every event that reaches a client is validated, sequenced and stored first, then fanned out.

A per-thread lock spans "append + fan out" and "replay + subscribe", so a client that joins
while a run is live gets the stored tail and then the live stream with no gap and no duplicate.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from app.store import EventWrite, RowWrite, Store
from schemas.events import EVENT_MODELS

EventHandler = Callable[[str, str, dict[str, Any]], Awaitable[None]]  # (thread_id, event, payload)
# (thread_id, [(event, payload)] in seq order): one call per stored batch, so a node's events can leave together.
Fanout = Callable[[str, list[tuple[str, dict[str, Any]]]], Awaitable[None]]
SendBatch = Callable[[list[tuple[str, dict[str, Any]]]], Awaitable[object]]  # [(event, payload)] in seq order

# Events of our own, documented in README, beside protocol.md's.
EXTRA_EVENTS = {"user:message"}


class EventLog:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._fanouts: list[Fanout] = []
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._passed_on: dict[str, int] = {}  # threads another process writes → the last seq passed on
        # Threads a client subscribed to → the seq every subscriber has seen (so a run another process starts
        # later can be passed on from there).
        self._delivered: dict[str, int] = {}

    def add_fanout(self, fanout: Fanout) -> None:
        self._fanouts.append(fanout)

    async def publish(
        self, thread_id: str, run_id: str, event: str, fields: dict[str, Any], *, key: str | None = None
    ) -> dict[str, Any] | None:
        """Store and fan out; an event whose `key` is already stored (a re-run task) is dropped: None."""
        [payload] = await self.publish_many(thread_id, run_id, [EventWrite(event, fields, key)])
        return payload

    async def publish_many(
        self,
        thread_id: str,
        run_id: str,
        items: list[EventWrite],
        *,
        row: RowWrite | None = None,
        on_stored: Callable[[], None] | None = None,
    ) -> list[dict[str, Any] | None]:
        """Store the events in one transaction, then fan each out in seq order; None where dropped (see Store.append_events).

        `row` changes the thread's row in the same transaction; `on_stored` runs once it is committed,
        before any client hears of it. An invalid event stops the batch there: the ones before it are
        stored and sent, then it raises.
        """
        valid: list[EventWrite] = []
        error: Exception | None = None
        for item in items:
            fields = item.fields
            if item.artifact is not None:
                # The store numbers the version (always >= 1) in the same transaction; check the rest now.
                fields = {**fields, "artifact": {**fields["artifact"], "version": 1}}
            try:
                valid.append(EventWrite(item.event, _validated(item.event, fields), item.key, item.artifact))
            except (ValueError, TypeError) as invalid:  # pydantic's ValidationError is a ValueError
                error = invalid
                break
        payloads: list[dict[str, Any] | None] = []
        if valid or row is not None:
            async with self._locks[thread_id]:
                payloads = await self.store.append_events(thread_id, run_id, valid, row=row)
                if on_stored is not None:
                    on_stored()
                stored = [(item.event, payload) for item, payload in zip(valid, payloads) if payload is not None]
                if stored:
                    for fanout in self._fanouts:
                        await fanout(thread_id, stored)
                    self._mark_delivered(thread_id, stored)
        if error is not None:
            raise error
        return payloads

    async def replay_then(
        self, thread_id: str, after_seq: int, send_batch: SendBatch, subscribe: Callable[[], Awaitable[None]]
    ) -> int:
        """Send stored events with seq > after_seq a page at a time, then subscribe, with no publish in between."""
        sent = 0
        async with self._locks[thread_id]:
            async for page in self.store.event_pages(thread_id, after_seq):
                await send_batch(page)
                sent += len(page)
                after_seq = page[-1][1]["seq"]
            await subscribe()
            if self.store.shared:
                # Another worker may have stored events between the read and the subscribe (this lock
                # is only ours): send them too; one may also arrive live, and clients drop a seq they hold.
                late = await self.store.events_after(thread_id, after_seq)
                if late:
                    await send_batch(late)
                    sent += len(late)
                    after_seq = late[-1][1]["seq"]  # seen: a run passed on from the log goes on after them
            self._delivered[thread_id] = min(self._delivered.get(thread_id, after_seq), after_seq)
        return sent


    async def pass_on_stored(self, thread_id: str) -> None:
        """Fan out what another process stored since the last call (nothing here published it); under the
        thread's lock, like a publish."""
        async with self._locks[thread_id]:
            stored = await self.store.events_after(thread_id, self._passed_on[thread_id])
            if stored:
                for fanout in self._fanouts:
                    await fanout(thread_id, stored)
                self._passed_on[thread_id] = stored[-1][1]["seq"]
                self._mark_delivered(thread_id, stored)

    def stop_passing_on(self, thread_id: str) -> None:
        self._passed_on.pop(thread_id, None)

    def subscribed_live(self, thread_id: str) -> None:
        """A client subscribed without a replay (it starts or resumes a run here): what it has seen is set by the
        run's first event; until then, passing on would start from the beginning (clients drop a seq they hold)."""
        self._delivered.setdefault(thread_id, 0)

    def forget(self, thread_id: str) -> None:
        """A thread deleted, or whose last subscriber here left: no run of another process on it is looked for
        any more (one being followed is followed to its end)."""
        self._delivered.pop(thread_id, None)

    def subscribed_threads(self) -> dict[str, int]:
        """Threads a client has subscribed to in this process, not passed on from another process right now, with
        the seq every subscriber has seen."""
        return {thread_id: seq for thread_id, seq in self._delivered.items() if thread_id not in self._passed_on}

    async def pass_on_from_delivered(self, thread_id: str) -> bool:
        """Start passing on another process's events (`pass_on_stored`) from what this thread's subscribers have
        seen, read under the thread's lock so no event falls between. True when the thread was not passed on yet."""
        async with self._locks[thread_id]:
            if thread_id in self._passed_on:
                return False
            self._passed_on[thread_id] = self._delivered[thread_id]
            return True

    def _mark_delivered(self, thread_id: str, stored: list[tuple[str, dict[str, Any]]]) -> None:
        if thread_id in self._delivered:  # only threads someone subscribed to
            self._delivered[thread_id] = stored[-1][1]["seq"]


def each_event(handler: EventHandler) -> Fanout:
    """A fanout that hands a batch's events to `handler` one at a time, in seq order."""

    async def fanout(thread_id: str, events: list[tuple[str, dict[str, Any]]]) -> None:
        for event, payload in events:
            await handler(thread_id, event, payload)

    return fanout


def _validated(event: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields in their wire form, checked against the event's model (protocol.md)."""
    model = EVENT_MODELS.get(event)
    if model is not None:
        # model_validate + model_dump(mode="json", exclude_none=True) without their per-call wrappers:
        # this runs for every event (bench/orchestration_overhead).
        return model.__pydantic_serializer__.to_python(
            model.__pydantic_validator__.validate_python(fields), mode="json", exclude_none=True
        )
    if event not in EXTRA_EVENTS:
        raise ValueError(f"unknown event {event!r}")
    return fields
