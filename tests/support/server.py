"""Test servers: in-process on an ephemeral port, or a real `ng serve` process that a test can SIGKILL."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Upper bound on a SIGTERM shutdown before the helper gives up and kills: a hang guard, not a speed test.
SHUTDOWN_WAIT_S = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """`ng serve` in a child process on DATA_DIR, for crash/restart tests and the browser tests."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None, port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "DATA_DIR": str(self.data_dir),
                    "LLM_PROVIDER": "offline", "LEGAL_WARM_AT_STARTUP": "false", **(env or {})}
        self.process: subprocess.Popen | None = None
        self.log_path = self.data_dir / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 60.0) -> ServerProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not become healthy:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no goodbye — a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> int | None:
        """SIGTERM, then wait for the server's own shutdown; SIGKILL only if it never ends. Returns the exit code."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=SHUTDOWN_WAIT_S)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode if self.process else None

    def stop_gracefully(self) -> None:
        """Stop as an operator would (SIGTERM) and require a clean exit: status 0, not a kill."""
        code = self.stop()
        assert code == 0, f"server exit status {code} after SIGTERM:\n{self.log_tail()}"

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
