"""Shared fixtures: settings on a temp DATA_DIR, an in-process live server, recording Socket.IO clients."""

from __future__ import annotations

import os

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp import web

from app.server import RUNTIME_KEY, create_app
from app.runtime import FlowRuntime
from core.i18n import DEFAULT_LOCALE, set_locale, set_surface
from core.settings import Settings
from tests.support.client import RecordingClient
from tests.support.pg import postgres, redis_server  # noqa: F401  (session servers for the scale-out tests)

# Processes the tests start (`ng serve`, `ng ppt`, killed runs) inherit this: no LibreOffice preview
# (~2 s a deck) and no legal index warm-up unless a test asks for them.
os.environ.setdefault("OFFICE_PREVIEW", "false")
os.environ.setdefault("LEGAL_WARM_AT_STARTUP", "false")
# What a developer's shell exports for their own use (`NOVEL_PROJECTS_DIR=~/novels`, `LOCALE=en`, a real model) must
# not reach the tests or the processes they start: each test picks its own folders, language and model.
for _personal in ("NOVEL_PROJECTS_DIR", "LOCALE", "LLM_PROVIDER", "LLM_BASE_URL", "LLM_API_KEY"):
    os.environ.pop(_personal, None)


@pytest.fixture(autouse=True)
def each_test_starts_in_the_default_language():
    """`ng` run in-process (`main([...])`) and `create_app` set the locale and surface for what follows them, as
    they should in a process of their own; a test after them in the same worker must not read their language."""
    yield
    set_locale(DEFAULT_LOCALE)
    set_surface("cli")


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    def make(**overrides) -> Settings:
        # LibreOffice previews cost ~2 s a deck, and the legal index warm-up seconds of CPU: on only where
        # a test asks for them (legal tests share one index).
        values = {"data_dir": tmp_path / "data", "llm_provider": "offline", "office_preview": False, "_env_file": None,
                  "legal_warm_at_startup": False, **overrides}
        return Settings(**values)

    return make


@dataclass
class LiveServer:
    url: str
    app: web.Application

    @property
    def runtime(self) -> FlowRuntime:
        return self.app[RUNTIME_KEY]


@pytest.fixture
async def start_server(make_settings) -> AsyncIterator[Callable[..., LiveServer]]:
    runners: list[web.AppRunner] = []

    async def start(**overrides) -> LiveServer:
        app = create_app(make_settings(**overrides))
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        port = site._server.sockets[0].getsockname()[1]
        return LiveServer(url=f"http://127.0.0.1:{port}", app=app)

    yield start
    for runner in reversed(runners):
        await runner.cleanup()


@pytest.fixture
async def live_server(start_server) -> LiveServer:
    return await start_server()


@pytest.fixture
async def connect() -> AsyncIterator[Callable[[str], RecordingClient]]:
    clients: list[RecordingClient] = []

    async def make(url: str, **options) -> RecordingClient:
        client = await RecordingClient().connect(url, **options)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()
