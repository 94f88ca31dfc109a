"""Run one checked argv without a shell: clean environment, timeout, capped output, process group killed."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from core.tools.shell_policy import SAFE_PATH

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MAX_OUTPUT_BYTES = 64_000

# Fixed, minimal environment for child processes: an inherited RIPGREP_CONFIG_PATH could inject
# `--pre`, GREP_OPTIONS could add options, PATH could point at look-alike binaries.
_CHILD_ENV = {"PATH": SAFE_PATH, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}


@dataclass
class ShellResult:
    command: str
    returncode: int | None
    stdout: str
    stderr: str
    truncated: bool = False
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def run_capped(argv: list[str], cwd: Path, timeout_s: float, max_bytes: int) -> tuple[int | None, bytes, bytes, bool, bool]:
    """Run argv (no shell), read at most `max_bytes` per stream, kill the process group on timeout or overflow."""
    proc = subprocess.Popen(
        argv, cwd=cwd, env=_CHILD_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        close_fds=True, start_new_session=True,
    )
    buffers = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    truncated = timed_out = False
    deadline = time.monotonic() + timeout_s
    with selectors.DefaultSelector() as selector:
        for stream in buffers:
            selector.register(stream, selectors.EVENT_READ)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(remaining):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer = buffers[key.fileobj]
                buffer.extend(chunk)
                if len(buffer) > max_bytes:
                    del buffer[max_bytes:]
                    truncated = True
            if truncated:
                break
    if timed_out or truncated:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        returncode = proc.wait(timeout=2)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL above makes this unlikely
        proc.kill()
        returncode = proc.wait()
    for stream in buffers:
        stream.close()
    return (None if timed_out else returncode), bytes(buffers[proc.stdout]), bytes(buffers[proc.stderr]), truncated, timed_out
