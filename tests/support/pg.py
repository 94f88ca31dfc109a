"""Real PostgreSQL and Redis servers for the scale-out tests: Debian's binaries, free loopback ports,
temp folders, stopped by PID. Tests skip with a reason where the binaries are absent."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.support.server import free_port

PG_BIN = next((p for p in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True) if (p / "initdb").exists()), None)
REDIS_SERVER = shutil.which("redis-server")

NEEDS_POSTGRES = pytest.mark.skipif(
    PG_BIN is None, reason="no PostgreSQL server binaries (apt-get install postgresql); .ci/run installs them in CI"
)
NEEDS_REDIS = pytest.mark.skipif(
    REDIS_SERVER is None, reason="no redis-server (apt-get install redis-server); .ci/run installs it in CI"
)


def _scale_extra_missing() -> str | None:
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
        import redis  # noqa: F401
    except ImportError:
        return "the scale extra is not installed (pip install -e '.[scale]')"
    return None


NEEDS_SCALE_EXTRA = pytest.mark.skipif(_scale_extra_missing() is not None, reason=str(_scale_extra_missing()))


def _as_postgres(command: list[str]) -> list[str]:
    """initdb refuses root: run the server as the `postgres` user when we are root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class PostgresServer:
    def __init__(self) -> None:
        # Its own temp folder, not pytest's: that one sits under a root-only directory the server's
        # user (postgres) cannot enter.
        self.dir = Path(tempfile.mkdtemp(prefix="canvas-pg-"))
        self.port = free_port()
        self.pid: int | None = None

    @property
    def url(self) -> str:
        return f"postgresql://app@127.0.0.1:{self.port}/postgres"

    async def new_database(self) -> str:
        """An empty database of its own (a test's store starts from nothing); returns its URL."""
        import psycopg

        name = f"db_{uuid.uuid4().hex[:12]}"
        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
            await conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def start(self) -> PostgresServer:
        assert PG_BIN is not None
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        run = lambda args: subprocess.run(_as_postgres(args), check=True, capture_output=True)  # noqa: E731
        run([str(PG_BIN / "initdb"), "-D", str(self.dir), "-A", "trust", "-U", "app"])
        run([
            str(PG_BIN / "pg_ctl"), "-D", str(self.dir), "-l", str(self.dir / "server.log"), "-w", "start",
            "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off",
        ])
        self.pid = int((self.dir / "postmaster.pid").read_text().split()[0])
        return self

    def stop(self) -> None:
        if self.pid is not None:
            # SIGINT is Postgres' "fast" shutdown: roll back sessions, exit.
            _signal_and_wait(self.pid, signal.SIGINT)
            self.pid = None
        shutil.rmtree(self.dir, ignore_errors=True)


class RedisServer:
    def __init__(self, root: Path) -> None:
        self.dir = Path(root) / "redis"
        self.port = free_port()
        self.pid: int | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        assert REDIS_SERVER is not None
        self.dir.mkdir(parents=True, exist_ok=True)
        pidfile = self.dir / "redis.pid"
        subprocess.run(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--daemonize", "yes",
             "--pidfile", str(pidfile), "--dir", str(self.dir), "--save", "", "--appendonly", "no"],
            check=True, capture_output=True,
        )
        deadline = time.monotonic() + 10
        while not pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.pid = int(pidfile.read_text())
        return self

    def stop(self) -> None:
        if self.pid is not None:
            _signal_and_wait(self.pid, signal.SIGTERM)
            self.pid = None


def _signal_and_wait(pid: int, sig: signal.Signals, timeout_s: float = 10) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def postgres():
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()
