"""The novel flows on the canvas page: the project field, the status view, a generated chapter's view."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.browser import BROWSER_MARKS, browser, open_page  # noqa: F401
from tests.support.server import ServerProcess

pytestmark = BROWSER_MARKS
PROJECT = "mentor_rift"


@pytest.fixture
def server(tmp_path):
    projects = tmp_path / "projects"
    shutil.copytree(Path(__file__).resolve().parent / "data" / "novel" / PROJECT, projects / PROJECT)
    with ServerProcess(tmp_path / "data", env={"NOVEL_PROJECTS_DIR": str(projects)}) as process:
        yield process


async def say(page, text: str) -> None:
    await page.fill("#message-input", text)
    await page.press("#message-input", "Enter")


async def test_status_and_a_generated_chapter_show_as_readable_views(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "novel")
    assert await page.is_visible("#project-input")
    await page.fill("#project-input", PROJECT)
    await say(page, "/auto on")
    await page.wait_for_selector("#canvas-body[data-type=novel_status] [data-testid=view-novel_status]")
    assert "3 / 4" in await page.text_content("[data-testid=view-novel_status]")
    await page.wait_for_selector("[data-testid=completion]")

    await say(page, "/run 4")
    await page.wait_for_selector("[data-testid=artifact-tab]:has-text('第 4 章 ·')", timeout=60_000)
    await page.click("[data-testid=artifact-tab]:has-text('第 4 章 ·')")
    view = page.locator("#canvas-body[data-type=novel_chapter] [data-testid=view-novel_chapter]")
    await view.wait_for()
    assert await view.locator(".novel-scene").count() >= 2

    await page.click("[data-testid=artifact-tab]:has-text('第 4 章第 1 场')")
    memory = page.locator("#canvas-body[data-type=scene_memory_context] [data-testid=view-scene_memory_context]")
    await memory.wait_for()
    assert "第 3 章" in await memory.text_content()  # retrieved memories name the chapter they come from
    assert errors == []
