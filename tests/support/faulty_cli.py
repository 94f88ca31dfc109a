"""`ng` with a test-only fault point: kill -9 this very process at the N-th call of a storage step.

FAULT="<point>:<when>:<N>" with point one of
  checkpoint — LangGraph writes a checkpoint (AsyncSqliteSaver.aput),
  writes     — LangGraph saves a finished task's writes (AsyncSqliteSaver.aput_writes),
  event      — the runtime appends a node's event to the log (a keyed item of Store.append_events;
               the kill falls before / after the batch that holds the N-th one),
and when `before` or `after` that call (for `writes`, N may name a node: its task's writes). Used as `python -m tests.support.faulty_cli ppt "topic"`.

FAULT="slow-sqlite:<N>:<seconds>" does not kill: the N-th SQLite call made through aiosqlite's worker
thread first prints `sqlite call held` and sleeps, so a test can press Ctrl-C while it is in flight.
Lives in tests/: product code has no fault hooks.
"""

from __future__ import annotations

import functools
import os
import signal
import sys


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _wrap(owner: type, name: str, when: str, nth: int, counts=lambda *a, **k: 1) -> None:
    """Kill at the call during which the count of `counts(call)` reaches `nth`."""
    original = getattr(owner, name)
    calls = 0

    @functools.wraps(original)
    async def faulty(*args, **kwargs):
        nonlocal calls
        before = calls
        calls += counts(*args, **kwargs)
        reached = before < nth <= calls
        if reached and when == "before":
            _die()
        result = await original(*args, **kwargs)
        if reached and when == "after":
            _die()
        return result

    setattr(owner, name, faulty)


def _hold_sqlite_call(nth: int, seconds: float) -> None:
    import time

    import aiosqlite.core

    original = aiosqlite.core.Connection._execute
    calls = 0

    async def held(self, fn, *args, **kwargs):
        nonlocal calls
        calls += 1
        if calls != nth:
            return await original(self, fn, *args, **kwargs)

        def slowly(*inner_args, **inner_kwargs):
            print("sqlite call held", flush=True)
            time.sleep(seconds)
            return fn(*inner_args, **inner_kwargs)

        return await original(self, slowly, *args, **kwargs)

    aiosqlite.core.Connection._execute = held


def install(spec: str) -> None:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from app.store import EventWrite, Store

    point, when, nth = spec.split(":")
    if point == "slow-sqlite":
        _hold_sqlite_call(int(when), float(nth))
    elif point == "checkpoint":
        _wrap(AsyncSqliteSaver, "aput", when, int(nth))
    elif point == "writes" and not nth.isdigit():  # writes:<when>:<node>: that node's task-writes save
        _wrap(AsyncSqliteSaver, "aput_writes", when, 1, counts=lambda _saver, _config, _writes, _task_id, path="": int(
            path.rsplit(",", 1)[-1].strip(" ')") == nth
        ))
    elif point == "writes":
        _wrap(AsyncSqliteSaver, "aput_writes", when, int(nth))
    elif point == "event":
        _wrap(Store, "append_events", when, int(nth), counts=lambda _store, _thread, _run, items, **_row: sum(
            EventWrite(*item).key is not None for item in items
        ))
    else:
        raise SystemExit(f"unknown fault point {spec!r}")


if __name__ == "__main__":
    if os.environ.get("FAULT"):
        install(os.environ["FAULT"])
    from app.cli import main

    sys.exit(main(sys.argv[1:]))
