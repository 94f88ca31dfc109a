"""The canvas page beyond the basics of test_canvas_browser.py: a second tab on a live run, hostile text,
versions after a refinement, and the thread list — in headless Chromium against a live `ng serve`."""

from __future__ import annotations


import pytest

from graphs.ppt.planning import STAGES
from tests.support.browser import BROWSER_MARKS, OUTPUT, browser, open_page, send, stage_states  # noqa: F401
from tests.support.server import ServerProcess

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # Slow enough that a second tab can join while the run is still going.
    process = ServerProcess(tmp_path_factory.mktemp("canvas") / "data", env={"OFFLINE_LATENCY_S": "0.1"}).start()
    yield process
    process.stop_gracefully()


async def stored_events(page, base: str) -> list[dict]:
    thread_id = await page.evaluate("window.agentCanvas.threadId")
    response = await page.request.get(f"{base}/api/threads/{thread_id}/events")
    assert response.ok
    return await response.json()


async def test_second_tab_follows_the_live_run_and_hostile_text_stays_text(browser, server):
    hostile = '讲解<img src=x onerror="window.__xss=1">和<b>杠杆</b>，5分钟'
    first, first_errors = await open_page(browser, server.url)
    await send(first, hostile)
    await first.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_course_config]", timeout=30_000)
    assert await first.locator("[data-testid=completion]").count() == 0, "the run should still be going"

    # A second tab (its own browser context) on the same URL: replay, then the live tail.
    second, second_errors = await open_page(browser, first.url)
    for page in (first, second):
        await page.wait_for_selector("[data-testid=completion]", timeout=60_000)

    stored = await stored_events(second, server.url)
    for page in (first, second):
        states = await stage_states(page)
        assert {s: states.get(s) for s in STAGES} == {s: ["done"] for s in STAGES}, states
        assert await page.locator(".msg-user").count() == 1
        assert await page.locator(".msg-user .msg-body").inner_text() == hostile, "the message is shown as typed"
        assert await page.locator("[data-testid=log-line]").count() == sum(e["event"] == "tool:log" for e in stored)
        assert await page.evaluate("window.agentCanvas.lastSeq") == stored[-1]["data"]["seq"]
        # Untrusted text never became markup, anywhere on the page.
        assert await page.locator("main img, main b").count() == 0
        assert await page.evaluate("window.__xss") is None
        # The run ended on the final artifact: the .pptx with its download link.
        await page.wait_for_selector("#canvas-body[data-type=pptx] [data-testid=download-pptx]")
    assert first_errors == [] and second_errors == []


async def test_refinement_versions_and_the_thread_list(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给初中生讲浮力，5分钟")
    await page.wait_for_selector("[data-testid=completion]", timeout=60_000)
    thread_url = page.url

    # Theme feedback re-runs the theme and the slides (then the QA gate and the preview): new versions of the
    # same artifacts, a second run card.
    await send(page, "换一套配色，颜色更活泼一些")
    await page.wait_for_function("document.querySelectorAll('[data-testid=completion]').length === 2", timeout=60_000)
    second_run = page.locator(".run-card").nth(1)
    names = await second_run.locator("[data-testid=timeline-entry]").evaluate_all("els => els.map(e => e.dataset.toolName)")
    assert names == ["generate_presentation_theme", "generate_slides", "check_deck", "preview_deck"], names

    theme_tab = page.locator("[data-testid=artifact-tab][data-type=presentation_theme]")
    assert "v2" in await theme_tab.inner_text()
    await theme_tab.click()
    await page.wait_for_selector("#canvas-body[data-type=presentation_theme] [data-testid=view-presentation_theme]")
    assert await page.locator("#version-wrap").is_visible()
    assert await page.locator("#version-select option").all_inner_texts() == ["v2（最新）", "v1"]
    latest_swatches = await page.locator(".swatch code").all_inner_texts()
    async with page.expect_response(lambda r: "/artifacts/" in r.url and "version=1" in r.url) as response:
        await page.select_option("#version-select", "1")
    assert (await response.value).ok
    await page.wait_for_selector("#canvas-body .notice:has-text('v1')")
    old_swatches = await page.locator(".swatch code").all_inner_texts()
    assert old_swatches and old_swatches != latest_swatches, "v1 shows the first theme's colours"
    OUTPUT.mkdir(exist_ok=True)
    await page.screenshot(path=str(OUTPUT / "canvas-versions.png"))

    # The thread list of a fresh page leads back to the whole thread.
    fresh, fresh_errors = await open_page(browser, server.url)
    await fresh.click("#threads-toggle")
    link = fresh.locator(".thread-link", has_text="浮力")
    await link.wait_for()
    assert "已完成" in await link.inner_text()
    await link.click()
    await fresh.wait_for_function("document.querySelectorAll('[data-testid=completion]').length === 2", timeout=30_000)
    assert fresh.url == thread_url
    assert await fresh.locator(".msg-user").count() == 2
    assert errors == [] and fresh_errors == []


async def test_server_crash_mid_run_reconnects_and_resumes_from_the_page(browser, tmp_path):
    data = tmp_path / "crash"
    env = {"OFFLINE_LATENCY_S": "0.25", "LLM_CONCURRENCY": "1"}
    first = ServerProcess(data, env=env).start()
    try:
        page, errors = await open_page(browser, first.url)
        await send(page, "给小学生讲彩虹，5分钟")
        await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_video_outline]", timeout=30_000)
        first.kill()  # SIGKILL mid-run
        await page.wait_for_selector("#conn-status[data-state=down]", timeout=10_000)
    finally:
        first.stop()
    second = ServerProcess(data, env={**env, "OFFLINE_LATENCY_S": "0.02"}, port=first.port).start()
    try:
        # The page reconnects by itself, re-joins after its last seq and learns the run was cut short.
        await page.wait_for_selector("#conn-status[data-state=up]", timeout=20_000)
        stopped = page.locator("[data-testid=run-stopped]")
        await stopped.wait_for(timeout=20_000)
        OUTPUT.mkdir(exist_ok=True)
        await page.screenshot(path=str(OUTPUT / "canvas-resume.png"))
        await stopped.locator("[data-testid=resume]").click()
        await page.wait_for_selector("[data-testid=completion].completion-ok", timeout=60_000)

        states = await stage_states(page)
        assert {s: states.get(s) for s in STAGES} == {s: ["done"] for s in STAGES}, states
        stored = await stored_events(page, f"http://127.0.0.1:{first.port}")
        assert await page.evaluate("window.agentCanvas.lastSeq") == stored[-1]["data"]["seq"]
        assert await page.locator("[data-testid=log-line]").count() == sum(e["event"] == "tool:log" for e in stored)
        assert await stopped.locator("[data-testid=resume]").is_disabled(), "the old resume button is spent"
        await page.close()
    finally:
        second.stop_gracefully()
    assert errors == []
