"""The canvas sign-in in headless Chromium against `ng serve` with AUTH_MODE=token."""

from __future__ import annotations

import pytest

from app.auth import UserDirectory
from tests.support.browser import BROWSER_MARKS, browser  # noqa: F401
from tests.support.server import ServerProcess

pytestmark = BROWSER_MARKS


@pytest.fixture
async def token_server(tmp_path):
    data_dir = tmp_path / "data"
    async with UserDirectory(data_dir / "agent_canvas.sqlite") as users:
        token = await users.add("alice")
    with ServerProcess(data_dir, env={"AUTH_MODE": "token"}) as process:
        process.token = token
        yield process


async def test_a_token_typed_into_the_sign_in_opens_the_canvas_and_is_remembered(browser, token_server):
    page = await browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(token_server.url)
    await page.wait_for_selector("#signin:not([hidden])")

    await page.fill("#signin-token", "not-a-token")
    await page.click("#signin-submit")
    await page.wait_for_function("document.getElementById('signin-error').textContent.length > 0")
    assert await page.is_visible("#signin")

    await page.fill("#signin-token", token_server.token)
    await page.click("#signin-submit")
    await page.wait_for_selector("#conn-status[data-state=up]")
    await page.wait_for_function("document.querySelectorAll('#flow-select option').length > 0")
    assert await page.is_hidden("#signin")

    await page.reload()
    await page.wait_for_selector("#conn-status[data-state=up]")
    assert await page.is_hidden("#signin"), "the stored token signs in again without asking"
    assert errors == []
