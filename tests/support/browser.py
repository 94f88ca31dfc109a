"""Headless Chromium for the canvas tests: the launch, the skip when it is missing, and page helpers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium); .ci/run installs it in CI"),
]


# Server fixtures of the browser tests. A test's server starts before its browser, so pytest tears the
# browser down first and the server's SIGTERM shutdown runs with no page attached, as an operator's would.
SERVER_FIXTURES = ("server", "slow_server")


@pytest.fixture
async def browser(request):
    from playwright.async_api import async_playwright

    for name in SERVER_FIXTURES:
        if name in request.fixturenames:
            request.getfixturevalue(name)

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield launched
        await launched.close()


async def open_page(browser, url: str, width: int = 1280, height: int = 800, **context_options):
    page = await browser.new_page(viewport={"width": width, "height": height}, **context_options)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(url)
    await page.wait_for_selector("#conn-status[data-state=up]")
    await page.wait_for_function("document.querySelectorAll('#flow-select option').length > 0")
    return page, errors


async def send(page, text: str, flow: str = "ppt") -> None:
    await page.select_option("#flow-select", flow)
    await page.fill("#message-input", text)
    await page.press("#message-input", "Enter")


async def stage_states(page) -> dict[str, list[str]]:
    return await page.eval_on_selector_all(
        "[data-testid=timeline-entry]",
        "els => els.reduce((acc, el) => { (acc[el.dataset.toolName] ||= []).push(el.dataset.state); return acc; }, {})",
    )
