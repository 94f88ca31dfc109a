"""The novel flows on the canvas page: the project field, the status view, a generated chapter's view."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.i18n import t
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
    assert "带出处的回答" in await page.text_content(".canvas-empty")  # not the deck flow's slides and PPTX
    assert await page.is_visible("#project-input")
    await say(page, "/status")  # no project named yet: the page says where to name it
    assert await page.text_content("#composer-hint") == t("canvas.project_missing")
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
    tab = await page.text_content("[data-testid=artifact-tab]:has-text('第 4 章 ·')")
    assert tab.count("第") == 1, tab  # the tab too: "第 4 章 · 剑碑"
    heading = await view.locator("h4").first.text_content()
    assert heading.startswith("第 4 章") and heading.count("章") == 1, heading  # not "第 4 章 第4章 对峙"

    await page.click("[data-testid=artifact-tab]:has-text('第 4 章第 1 场')")
    memory = page.locator("#canvas-body[data-type=scene_memory_context] [data-testid=view-scene_memory_context]")
    await memory.wait_for()
    assert "第 3 章" in await memory.text_content()  # retrieved memories name the chapter they come from

    await page.locator(".run-card").last.locator("[data-testid=completion]").wait_for(timeout=60_000)
    await page.wait_for_selector("#send-btn[data-state=ready]:enabled")
    finished = page.locator(".run-card").last.locator("[data-testid=progress]")
    assert await finished.get_attribute("data-current") == await finished.get_attribute("data-total")
    assert "正在生成" not in await finished.text_content()  # a finished run is not still "writing scene N…"
    # A rollback is confirmed even with /auto on: the card lists its step on a line of its own, in words,
    # and the plan view says the same, with no tool name or JSON.
    await say(page, "/rollback 4")
    prompt = page.locator("[data-testid=interrupt][data-kind=confirmation] .interrupt-prompt")
    await prompt.wait_for()
    assert "\n1. 回滚到第 4 章之前" in await prompt.inner_text()
    assert "workflow." not in await page.text_content("[data-testid=interrupt][data-kind=confirmation]")
    await page.click("[data-testid=artifact-tab]:has-text('执行计划')")
    plan = page.locator("#canvas-body[data-type=tool_plan] [data-testid=view-tool_plan]")
    await plan.wait_for()
    assert "回滚到第 4 章之前" in await plan.text_content() and "workflow." not in await plan.text_content()
    assert errors == []


async def test_the_project_field_offers_the_projects_that_exist(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "novel")
    # The browser lists the field's datalist as suggestions: a person picks the name, not recalls it.
    await page.wait_for_function("document.querySelectorAll('#project-list option').length > 0")
    offered = await page.eval_on_selector_all("#project-list option", "os => os.map((o) => o.value)")
    assert offered == [PROJECT]
    assert await page.get_attribute("#project-input", "list") == "project-list"
    assert errors == []


async def test_a_reloaded_novel_thread_still_shows_its_project(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "novel")
    await page.fill("#project-input", PROJECT)
    await say(page, "/status")
    await page.wait_for_selector("[data-testid=completion]")
    await page.reload()
    await page.wait_for_selector("#conn-status[data-state=up]")
    # The thread keeps its project: the field names it and cannot be edited into a name that does nothing.
    await page.wait_for_function(f"document.getElementById('project-input').value === {PROJECT!r}")
    assert await page.get_attribute("#project-input", "readonly") is not None
    assert await page.get_attribute("#project-input", "title") == t("canvas.project_of_thread")
    await page.click("#new-thread")
    assert await page.input_value("#project-input") == ""
    assert await page.is_editable("#project-input")
    assert errors == []


async def test_a_projects_status_fits_a_phone_without_sideways_scrolling(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    await page.select_option("#flow-select", "novel")
    await page.fill("#project-input", PROJECT)
    await say(page, "/status")
    await page.wait_for_selector("#canvas-body [data-testid=view-novel_status]")
    await page.wait_for_selector("[data-testid=completion]")
    # One script reads both: the canvas redraws its view as the run's last events arrive, and a view
    # replaced between finding it and measuring it has no layout at all.
    layout = await page.evaluate("""() => {
        const view = document.querySelector("#canvas-body [data-testid=view-novel_status]");
        const wrap = view.querySelector(".table-wrap");
        const grid = view.querySelector(".kv-grid");
        return {tableFits: wrap.scrollWidth <= wrap.clientWidth,
                columns: getComputedStyle(grid).gridTemplateColumns.split(" ").length};
    }""")
    assert layout["tableFits"], "the chapter table needs no sideways scroll"
    assert layout["columns"] >= 2, "two facts a row, not a tall column of cards"
    assert errors == []


@pytest.fixture
def english_server(tmp_path):
    projects = tmp_path / "projects"
    shutil.copytree(Path(__file__).resolve().parent / "data" / "novel" / PROJECT, projects / PROJECT)
    with ServerProcess(tmp_path / "data", env={"NOVEL_PROJECTS_DIR": str(projects), "LOCALE": "en"}) as process:
        yield process


async def test_an_english_status_run_offers_to_open_the_project_status_in_sentence_case(browser, english_server):
    page, errors = await open_page(browser, english_server.url)
    await page.select_option("#flow-select", "novel_workflow")
    await page.fill("#project-input", PROJECT)
    await say(page, "continue")  # the run ends on the project's status
    button = page.locator("[data-testid=completion-open]")
    await button.wait_for(timeout=90_000)
    assert await button.text_content() == "Open project status"  # not "Open Project status"
    assert errors == []


async def test_an_english_chapter_is_headed_with_its_number_set_apart_from_its_title(browser, english_server):
    page, errors = await open_page(browser, english_server.url)
    await page.select_option("#flow-select", "novel_workflow")
    await page.fill("#project-input", PROJECT)
    await say(page, "continue")
    tab = page.locator("[data-testid=artifact-tab]:has-text('Chapter 4 ·')")
    await tab.wait_for(timeout=90_000)
    await tab.click()
    view = page.locator("#canvas-body[data-type=novel_chapter] [data-testid=view-novel_chapter]")
    heading = await view.locator("h4").first.text_content()
    title = await page.text_content("#artifact-title")
    assert heading == title and heading.startswith("Chapter 4 · "), (heading, title)  # not "Chapter 4 The Turn"
    assert errors == []


async def test_a_proposed_plan_logs_its_steps_one_per_line_not_after_a_stray_space(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "novel")
    await page.fill("#project-input", PROJECT)
    await say(page, "/auto on")  # a run is then planned without asking, and its plan logged
    await page.wait_for_selector("#send-btn[data-state=ready]:enabled")
    await say(page, "/run 4")
    line = page.locator("[data-testid=log-line]", has_text=t("novel.plan_proposed", steps="").strip())
    await line.first.wait_for()
    text = await line.first.inner_text()
    assert "：\n1. " in text and "： " not in text, text
    assert errors == []


async def test_a_chat_begun_with_a_slash_command_is_named_by_its_project_never_by_the_command(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "novel")
    await page.fill("#project-input", PROJECT)
    await page.evaluate("""() => { window.titles = [];
      new MutationObserver(() => window.titles.push(document.querySelector('#thread-title').textContent))
        .observe(document.querySelector('#thread-title'), { childList: true, characterData: true, subtree: true }); }""")
    await say(page, "/help")
    named = f"{PROJECT} · {t('flows.novel_title')}"
    await page.wait_for_function("(name) => document.querySelector('#thread-title').textContent === name", arg=named)
    assert "/help" not in await page.evaluate("window.titles"), "the header never says the command"
    await page.click("#threads-toggle")
    assert await page.locator(".thread-link .thread-link-title").first.text_content() == named
    assert errors == []
