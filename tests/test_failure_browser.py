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


@pytest.fixture
async def slow_in_process_server(start_server):
    return await start_server(offline_latency_s=0.2)


async def test_a_run_the_server_stopped_between_steps_is_shown_stopped_not_failed(slow_in_process_server, browser):
    page, errors = await open_page(browser, slow_in_process_server.url)
    await send(page, "做一个关于垃圾分类的5分钟PPT")
    await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_course_config]", timeout=30_000)

    await slow_in_process_server.runtime.shutdown(grace_s=30)  # a restart: the run stops between steps
    completion = page.locator("[data-testid=completion]")
    await completion.wait_for(timeout=30_000)

    assert await completion.locator(".completion-text").text_content() == t("runtime.server_stopping")
    assert "completion-stopped" in await completion.get_attribute("class"), "neutral, as a stop is: the work is saved"
    assert await page.text_content("#thread-status") == t("canvas.status_stopped")
    assert await page.locator("[data-testid=resume]").count() == 1
    assert errors == []


@pytest.fixture
async def held_preview_server(start_server):
    from tests.test_run_control import HeldPreview

    server = await start_server()
    server.runtime.tools["office_preview"] = HeldPreview()
    return server


async def test_a_stop_pressed_during_the_last_step_says_the_run_finished_anyway(held_preview_server, browser):
    page, errors = await open_page(browser, held_preview_server.url)
    await send(page, "做一个关于彩虹成因的5分钟PPT")
    await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=preview_deck]", timeout=30_000)

    await page.click("#stop-btn")
    stopping = t("canvas.stopping")
    await page.wait_for_function(f"document.querySelector('#live-status').textContent === {stopping!r}")  # acked
    held_preview_server.runtime.tools["office_preview"].release.set()
    completion = page.locator("[data-testid=completion]")
    await completion.wait_for(timeout=30_000)

    assert t("runtime.finished_before_stop") in await completion.text_content()
    assert errors == []


async def test_the_thread_list_shows_a_run_the_server_stopped_as_stopped_not_waiting(slow_in_process_server, browser):
    page, errors = await open_page(browser, slow_in_process_server.url)
    await send(page, "做一个关于四季成因的5分钟PPT")
    await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_course_config]", timeout=30_000)
    await slow_in_process_server.runtime.shutdown(grace_s=30)
    await page.locator("[data-testid=completion]").wait_for(timeout=30_000)

    await page.click("#threads-toggle")
    status = page.locator(".thread-link .status-dot").first
    await status.wait_for()

    assert await status.text_content() == t("canvas.status_stopped"), "not 'waiting for an answer': none is asked"
    assert errors == []


async def test_a_run_a_restart_found_cut_short_says_so_on_its_own_card_as_a_stop(slow_in_process_server, browser,
                                                                                   monkeypatch):
    from app import runtime as runtime_module

    page, errors = await open_page(browser, slow_in_process_server.url)
    await send(page, "做一个关于火山的5分钟PPT")
    await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_course_config]", timeout=30_000)

    runtime = slow_in_process_server.runtime
    await runtime.shutdown(grace_s=0)  # the run is cut mid-step: the thread stays `running`, as after a crash
    monkeypatch.setattr(runtime_module, "process_alive", lambda runner: False)  # its process is gone
    assert await runtime._mark_orphans_interrupted()  # what the next start-up does  # noqa: SLF001
    stopped = page.locator("[data-testid=run-stopped]")
    await stopped.wait_for(timeout=30_000)

    assert await page.locator(".run-card").count() == 1, "the restart's note joins the run it stopped"
    assert await stopped.locator(".completion-text").text_content() == t("runtime.server_restarted")
    assert "completion-stopped" in await stopped.get_attribute("class"), "neutral, as a stop is: the work is saved"
    assert await stopped.locator("[data-testid=resume]").count() == 1
    assert errors == []
