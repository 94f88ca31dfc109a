"""A failure a resume would repeat, on the canvas page in headless Chromium: the sentence, no resume button."""

from __future__ import annotations

import pytest

from core.i18n import t
from graphs.ppt import render_pool
from tests.support.browser import BROWSER_MARKS, browser, open_page, send  # noqa: F401
from tests.test_failures import unrenderable

pytestmark = BROWSER_MARKS


@pytest.fixture
async def failing_server(start_server, monkeypatch):
    # In-process, so the patch reaches its runs; requested before `browser`, which closes first.
    monkeypatch.setattr(render_pool, "gate", unrenderable)
    return await start_server()


async def test_a_deck_that_cannot_render_shows_its_sentence_and_no_resume_button(failing_server, browser):
    page, errors = await open_page(browser, failing_server.url)
    await send(page, "做一个关于地震的5分钟PPT")
    completion = page.locator("[data-testid=completion]")
    await completion.wait_for(timeout=60_000)

    assert await completion.locator(".completion-text").text_content() == t("ppt.render_failed", reason="ValueError")
    assert await page.locator("[data-testid=resume]").count() == 0
    assert errors == []
