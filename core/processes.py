"""Which process runs a thread, when several share one SQLite DATA_DIR (`ng ppt` beside `ng serve`).

A run's thread row names its process (host, pid and the pid's start time, so a pid the system
has since given to another program does not count). Start-up recovery then marks `running` only
the threads whose process is gone, not a live run of the process next door.

Graphs ask the same of what they record themselves (the novel workflow's run journal): whether the
run a (process, thread) pair names is still going, in another process or in this one.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from functools import lru_cache


def _started(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), None where /proc does not say."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            # The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
            return stat.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


@lru_cache(maxsize=1)
def this_process() -> str:
    return f"{socket.gethostname()}|{os.getpid()}|{_started(os.getpid()) or ''}"


def process_alive(runner: str | None) -> bool:
    """Whether the process `runner` (a `this_process()` of some process) still runs; False when unknown."""
    try:
        host, pid_text, started = (runner or "").split("|")
        pid = int(pid_text)
    except ValueError:
        return False
    if host != socket.gethostname():
        return False  # another machine's process cannot share a SQLite file with this one
    if started:
        return _started(pid) == started
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by another user
    return True


def nothing_running(_thread_id: str) -> bool:
    """No thread has a run in progress here: a graph run headless, a CLI that runs no flow."""
    return False


def run_alive(runner: str | None, thread_id: str | None, running_here: Callable[[str], bool] = nothing_running) -> bool:
    """Whether the run of `thread_id` in process `runner` still goes on: in this process, while its thread
    runs here (`running_here`, the runtime's word: a stopped or failed run leaves the process alive); in
    another, while that process lives."""
    if runner is None:
        return False
    if runner == this_process():
        return thread_id is not None and running_here(thread_id)
    return process_alive(runner)
