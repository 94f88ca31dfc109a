"""The canvas controls a person uses while a run goes and after it: the version switcher, "follow live",
the deck filling up page by page, Send and Stop, the artifact tabs, the thread panel, the plan's buttons."""

from __future__ import annotations

import asyncio
import sys

import pytest

from core.i18n import t
from tests.support.browser import BROWSER_MARKS, browser, open_page, send  # noqa: F401
from tests.support.server import ROOT, ServerProcess

pytestmark = BROWSER_MARKS

COMPLETIONS = "document.querySelectorAll('[data-testid=completion]').length"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process = ServerProcess(tmp_path_factory.mktemp("controls") / "data", env={"OFFLINE_LATENCY_S": "0.02"}).start()
    yield process
    process.stop_gracefully()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    # Each model call takes 0.3 s and pages are made one at a time: a run a person can act on mid-way.
    env = {"OFFLINE_LATENCY_S": "0.3", "LLM_CONCURRENCY": "1"}
    process = ServerProcess(tmp_path_factory.mktemp("controls-slow") / "data", env=env).start()
    yield process
    process.stop_gracefully()


async def run_to_completion(page, text: str, runs: int = 1, flow: str = "ppt") -> None:
    await send(page, text, flow=flow)
    await page.wait_for_function(f"{COMPLETIONS} === {runs}", timeout=60_000)


async def open_first_version_after_a_refinement(page, topic: str, artifact_type: str) -> None:
    """A deck, then colour feedback (v2 of the theme, slides and file), then v1 of one artifact picked."""
    await run_to_completion(page, topic)
    await run_to_completion(page, "换一套配色，颜色更活泼一些", runs=2)
    await page.click(f"[data-testid=artifact-tab][data-type={artifact_type}]")
    await page.select_option("#version-select", "1")
    await page.wait_for_selector("#canvas-body .notice:has-text('v1')")


async def test_viewing_an_older_pptx_version_offers_that_version_for_download(browser, server):
    page, errors = await open_page(browser, server.url)
    await open_first_version_after_a_refinement(page, "给初中生讲浮力，5分钟", "pptx")
    href = await page.get_attribute("[data-testid=download-pptx]", "href")
    assert href.endswith("?version=1"), href
    first = await page.request.get(server.url + href)
    latest = await page.request.get(server.url + href.replace("?version=1", "?version=2"))
    assert first.ok and await first.body() != await latest.body(), "v1's file is not v2's"
    assert errors == []


async def test_versions_made_after_an_older_one_was_opened_join_the_switcher(browser, server):
    page, errors = await open_page(browser, server.url)
    await open_first_version_after_a_refinement(page, "给初中生讲杠杆，5分钟", "presentation_theme")

    await run_to_completion(page, "换一套配色，用深一些的颜色", runs=3)
    await page.wait_for_function(
        "[...document.querySelectorAll('#version-select option')].map(o => o.value).join() === '3,2,1'")
    assert await page.input_value("#version-select") == "1", "the version being read stays selected"
    assert errors == []


async def test_follow_live_pauses_when_the_user_picks_an_artifact_and_comes_back_on_request(browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    follow = page.locator("#follow-live")
    await send(page, "给小学生讲月相，5分钟")
    tab = page.locator("[data-testid=artifact-tab][data-type=course_config]")
    await tab.wait_for(timeout=30_000)
    assert await follow.get_attribute("aria-pressed") == "true"

    await tab.click()
    assert await follow.get_attribute("aria-pressed") == "false"
    await page.wait_for_function(f"{COMPLETIONS} === 1", timeout=90_000)
    assert await page.get_attribute("#canvas-body", "data-type") == "course_config", "the run did not take it away"

    await follow.click()
    await page.wait_for_selector("#canvas-body[data-type=pptx]")
    assert await follow.get_attribute("aria-pressed") == "true"
    assert errors == []


async def test_slides_join_the_deck_view_while_they_are_generated(browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    await send(page, "给小学生讲四季，5分钟")
    # Pages arrive 0.3 s apart; any count between 2 and the last page will do (a busy page may skip one).
    await page.wait_for_function(
        "(document.querySelector('#canvas-body[data-type=slide_preview] [data-testid=deck]')?.dataset.slides ?? 0) >= 2",
        timeout=60_000)
    assert await page.evaluate(COMPLETIONS) == 0, "the deck grows before the run ends"
    await page.wait_for_function(f"{COMPLETIONS} === 1", timeout=90_000)
    assert errors == []


async def test_send_is_disabled_while_a_run_is_going(browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    await send(page, "给小学生讲彩虹，5分钟")
    await page.wait_for_selector("#thread-status[data-status=running]", timeout=30_000)
    assert await page.is_disabled("#send-btn")
    await page.wait_for_function(f"{COMPLETIONS} === 1", timeout=90_000)
    assert await page.is_enabled("#send-btn")
    assert errors == []


async def test_a_lost_connection_mid_run_says_reconnecting_and_keeps_the_typed_text(browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    await send(page, "给小学生讲雷雨，5分钟")
    await page.wait_for_selector("#thread-status[data-status=running]", timeout=30_000)
    await page.evaluate("window.agentCanvas.socket.disconnect()")  # held down until the test reconnects
    await page.fill("#message-input", "再加一页总结")

    await page.wait_for_selector("#thread-status[data-status=reconnecting]", timeout=5_000)
    assert await page.text_content("#thread-status") == t("canvas.status_reconnecting"), "not 运行中"
    assert await page.is_hidden("#stop-btn"), "a Stop that cannot reach the server is not offered"
    assert await page.is_disabled("#send-btn")

    await page.evaluate("window.agentCanvas.socket.connect()")
    # The server's word after the replay: still running, or done if it finished meanwhile.
    await page.wait_for_selector("#thread-status:is([data-status=running], [data-status=done])", timeout=15_000)
    await page.wait_for_function(f"{COMPLETIONS} === 1", timeout=90_000)
    assert await page.is_enabled("#send-btn")
    assert await page.input_value("#message-input") == "再加一页总结"
    assert errors == []


async def test_a_lost_connection_mid_run_shows_the_run_card_reconnecting_until_the_rejoin(browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    await send(page, "给小学生讲冰川，5分钟")
    card = page.locator(".run-card .run-status").last
    await page.wait_for_selector(".run-card .run-status[data-status=running]", timeout=30_000)
    await page.evaluate("window.agentCanvas.socket.disconnect()")

    await page.wait_for_selector(".run-card .run-status[data-status=reconnecting]", timeout=5_000)
    assert await card.text_content() == t("canvas.status_reconnecting"), "the card still says 运行中"

    await page.evaluate("window.agentCanvas.socket.connect()")
    await page.wait_for_selector(".run-card .run-status:is([data-status=running], [data-status=done])", timeout=15_000)
    await page.wait_for_function(f"{COMPLETIONS} === 1", timeout=90_000)
    assert await card.get_attribute("data-status") == "done"
    assert errors == []


async def deck_stopped_by_the_user(browser, server, topic: str):
    """A deck sent from the page and stopped with its Stop button once its first stage is on screen."""
    page, errors = await open_page(browser, server.url)
    await send(page, topic)
    await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_course_config]", timeout=30_000)
    await page.click("#stop-btn")
    await page.locator("[data-testid=completion]").wait_for(timeout=30_000)
    return page, errors


async def test_a_stop_the_user_asked_for_is_shown_as_neutral_not_as_an_error(browser, slow_server):
    page, errors = await deck_stopped_by_the_user(browser, slow_server, "给小学生讲潮汐，5分钟")
    stopped = page.locator("[data-testid=completion]")
    assert await stopped.get_attribute("class") == "completion completion-stopped"
    assert await page.get_attribute("#thread-status", "data-status") == "cancelled"
    assert await stopped.locator("[data-testid=resume]").is_enabled(), "the stopped run can be continued"
    assert errors == []


async def test_a_stopped_run_is_called_stopped_as_its_button_and_ng_threads_say(browser, slow_server):
    page, errors = await deck_stopped_by_the_user(browser, slow_server, "给社区老人讲防诈骗，5分钟")
    await page.click("#threads-toggle")
    in_list = await page.locator(".thread-link .status-dot").first.text_content()
    badge = await page.inner_text("#thread-status")
    said_by_ng = t("runtime.status_cancelled")
    assert badge.lower() == in_list.lower() == said_by_ng.lower(), (badge, in_list, said_by_ng)
    assert errors == []


async def test_a_page_coming_back_from_the_terminal_shows_the_run_ng_resume_finished(browser, slow_server):
    page, errors = await deck_stopped_by_the_user(browser, slow_server, "给社区志愿者讲急救包扎，5分钟")
    thread_id = await page.evaluate("window.agentCanvas.threadId")

    env = {**slow_server.env, "OFFLINE_LATENCY_S": "0", "OFFICE_PREVIEW": "false"}
    resumed = await asyncio.create_subprocess_exec(sys.executable, "-m", "app.cli", "resume", thread_id, cwd=ROOT,
                                                   env=env, stdout=asyncio.subprocess.DEVNULL)
    assert await asyncio.wait_for(resumed.wait(), 120) == 0
    await page.evaluate("window.dispatchEvent(new Event('focus'))")  # the person switches back to the page

    await page.wait_for_function(f"{COMPLETIONS} === 2", timeout=15_000)
    assert await page.get_attribute("#thread-status", "data-status") == "done"
    assert errors == []


async def test_the_artifact_tab_row_scrolls_to_its_first_tab_on_a_phone(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    await run_to_completion(page, "给初中生讲声音的传播，5分钟")
    row = page.locator("#artifact-tabs")
    assert await row.evaluate("el => el.scrollWidth > el.clientWidth"), "more tabs than fit: the row scrolls"
    await row.evaluate("el => { el.scrollLeft = 0; }")
    first = page.locator("[data-testid=artifact-tab]").first
    box, row_box = await first.bounding_box(), await row.bounding_box()
    assert box["x"] >= row_box["x"] and await first.evaluate("el => el.scrollWidth <= el.clientWidth"), "not clipped"
    assert errors == []


async def test_artifact_tabs_answer_arrow_keys(browser, server):
    page, errors = await open_page(browser, server.url)
    await run_to_completion(page, "给初中生讲光的折射，5分钟")
    types = await page.locator("[data-testid=artifact-tab]").evaluate_all("els => els.map(e => e.dataset.type)")
    await page.focus("[data-testid=artifact-tab].active")
    await page.keyboard.press("Home")
    await page.wait_for_selector(f"#canvas-body[data-type={types[0]}]")
    await page.keyboard.press("ArrowRight")
    await page.wait_for_selector(f"#canvas-body[data-type={types[1]}]")
    assert await page.evaluate("document.activeElement.dataset.type") == types[1], "focus moves with the selection"
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector(f"#canvas-body[data-type={types[0]}]")
    assert errors == []


async def test_picking_a_thread_closes_the_thread_panel(browser, server):
    page, errors = await open_page(browser, server.url)
    await run_to_completion(page, "给初中生讲磁场，5分钟")
    thread_id = await page.evaluate("window.agentCanvas.threadId")
    await page.click("#new-thread")
    await page.click("#threads-toggle")
    await page.click(f".thread-link[data-thread-id='{thread_id}']")
    await page.wait_for_function(f"window.agentCanvas.threadId === '{thread_id}'")
    assert await page.is_hidden("#threads-panel")
    assert await page.get_attribute("#threads-toggle", "aria-expanded") == "false"
    assert errors == []


async def test_escape_closes_the_thread_panel_and_returns_to_its_button(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.click("#threads-toggle")
    await page.wait_for_selector("#threads-panel:not([hidden])")
    await page.keyboard.press("Escape")
    assert await page.is_hidden("#threads-panel")
    assert await page.get_attribute("#threads-toggle", "aria-expanded") == "false"
    assert await page.evaluate("document.activeElement.id") == "threads-toggle"
    assert errors == []


async def test_the_implementation_plan_can_be_copied_and_downloaded(browser, server):
    page, errors = await open_page(browser, server.url, permissions=["clipboard-read", "clipboard-write"])
    await send(page, "Add a CSV export of orders to the shop.", flow="requirement")
    for _ in range(4):  # settle every round of questions with the defaults
        await page.wait_for_selector("[data-testid=completion], [data-testid=interrupt]:not(.answered)", timeout=30_000)
        if await page.locator("[data-testid=completion]").count():
            break
        await page.locator("[data-testid=interrupt]:not(.answered) [data-testid=use-defaults]").click()
    await page.click("[data-testid=artifact-tab][data-type=implementation_plan]")
    await page.click("[data-testid=plan-copy]")
    await page.wait_for_selector("[data-testid=plan-copy-status]:has-text('已复制')")
    copied = await page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("#") and len(copied) > 100, copied[:200]

    href = await page.get_attribute("[data-testid=plan-download]", "href")
    downloaded = await page.request.get(server.url + href)
    assert downloaded.ok and await downloaded.text() == copied, "the file is the plan that was copied"
    assert errors == []


async def finished_thread_in_open_panel(page, topic: str) -> str:
    await run_to_completion(page, topic)
    thread_id = await page.evaluate("window.agentCanvas.threadId")
    await page.click("#threads-toggle")
    await page.wait_for_selector(f"li.thread-item[data-thread-id='{thread_id}']")
    return thread_id


async def test_a_thread_is_renamed_in_place_with_enter_and_escape_cancels(browser, server):
    page, errors = await open_page(browser, server.url)
    thread_id = await finished_thread_in_open_panel(page, "给初中生讲电流，5分钟")
    item = f"li.thread-item[data-thread-id='{thread_id}']"
    before = await page.text_content(f"{item} .thread-link-title")

    await page.click(f"{item} [data-testid=thread-rename]")
    await page.fill("[data-testid=thread-rename-input]", "电流 · 复习课")
    await page.keyboard.press("Enter")
    await page.wait_for_selector(f"{item} .thread-link-title:text-is('电流 · 复习课')")
    assert await page.text_content("#thread-title") == "电流 · 复习课", "the open thread's heading follows"
    assert await page.evaluate("document.activeElement.dataset.testid") == "thread-rename", "focus comes back"

    await page.keyboard.press("Enter")  # the focused rename button opens the field again
    await page.fill("[data-testid=thread-rename-input]", "不要这个名字")
    await page.keyboard.press("Escape")
    await page.wait_for_selector(f"{item} .thread-link-title:text-is('电流 · 复习课')")
    await page.reload()
    await page.click("#threads-toggle")
    await page.wait_for_selector(f"{item} .thread-link-title:text-is('电流 · 复习课')")
    assert before != "电流 · 复习课" and errors == []


async def test_deleting_a_thread_asks_first_and_cancel_keeps_it(browser, server):
    page, errors = await open_page(browser, server.url)
    thread_id = await finished_thread_in_open_panel(page, "给初中生讲电阻，5分钟")
    item = f"li.thread-item[data-thread-id='{thread_id}']"

    await page.click(f"{item} [data-testid=thread-delete]")
    await page.wait_for_selector("#delete-dialog[open]")
    await page.keyboard.press("Enter")  # 取消 has the focus: a hasty Enter keeps the thread
    await page.wait_for_selector("#delete-dialog", state="hidden")
    assert await page.locator(item).count() == 1

    await page.click(f"{item} [data-testid=thread-delete]")
    await page.click("#delete-confirm")
    await page.wait_for_selector(item, state="detached")
    await page.wait_for_selector("[data-testid=thread-deleted]")
    assert await page.evaluate("window.agentCanvas.threadId") is None, "the page no longer shows the deleted thread"
    await page.reload()
    await page.click("#threads-toggle")
    await page.wait_for_selector("#thread-list li")
    assert await page.locator(item).count() == 0, "gone on the server too"
    assert errors == []


async def test_another_tab_showing_a_deleted_thread_says_so(browser, server):
    page, errors = await open_page(browser, server.url)
    thread_id = await finished_thread_in_open_panel(page, "给初中生讲电压，5分钟")
    other, other_errors = await open_page(browser, f"{server.url}/#thread={thread_id}")
    await other.wait_for_selector("[data-testid=completion]")

    await page.click(f"li.thread-item[data-thread-id='{thread_id}'] [data-testid=thread-delete]")
    await page.click("#delete-confirm")
    notice = other.locator("[data-testid=thread-deleted]")
    await notice.wait_for()
    assert "已删除" in await notice.text_content()
    assert await other.evaluate("window.agentCanvas.threadId") is None
    assert errors == [] and other_errors == []


OPEN_FORM = "[data-testid=interrupt]:not(.answered)"


async def plan_with_first_answer(page, requirement: str, answer: str, *, button: str) -> None:
    """Ask the requirement flow, type `answer` into the first question, press `button`, keep the defaults of
    any later round, and wait for the run's end."""
    await send(page, requirement, flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    await page.locator(f"{OPEN_FORM} textarea").first.fill(answer)
    await page.locator(f"{OPEN_FORM} [data-testid={button}]").click()
    for _ in range(4):  # later rounds, if any: the defaults
        await page.wait_for_selector(f"[data-testid=completion], {OPEN_FORM}", timeout=30_000)
        if await page.locator("[data-testid=completion]").count():
            break
        await page.locator(f"{OPEN_FORM} [data-testid=use-defaults]").click()


async def test_an_answered_question_form_shows_its_answer_after_a_reload(browser, server):
    page, errors = await open_page(browser, server.url)
    await plan_with_first_answer(page, "做一个社区二手书交换小程序", "小区里的居民和学生", button="answer")
    thread_id = await page.evaluate("window.agentCanvas.threadId")

    await page.reload()
    await page.click("#threads-toggle")
    await page.click(f"li.thread-item[data-thread-id='{thread_id}'] .thread-link-title")
    await page.wait_for_selector("[data-testid=completion]", timeout=30_000)
    first_form = page.locator("[data-testid=interrupt]").first
    assert await first_form.locator("textarea").first.input_value() == "小区里的居民和学生"
    assert "小区里的居民和学生" in await first_form.locator(".interrupt-status").text_content()
    statuses = await page.locator(".run-card .run-status").evaluate_all("els => els.map((e) => e.dataset.status)")
    assert "interrupted" not in statuses, "a run whose question was answered no longer waits for one"
    assert errors == []


async def test_the_deck_view_keeps_design_notes_apart_from_the_words_to_read_aloud(browser, server):
    page, errors = await open_page(browser, server.url)
    await run_to_completion(page, "给初中生讲浮力，5分钟")
    await page.click("[data-testid=artifact-tab][data-type=dsl]")
    await page.wait_for_selector("#canvas-body[data-type=dsl] [data-testid=deck]")
    spoken = await page.locator(".deck-notes p").first.text_content()
    labels = await page.locator(".deck-notes .deck-notes-label").all_text_contents()
    assert "设计提示" not in spoken, "a presenter reads the speaker notes aloud"
    assert labels == ["口播稿", "设计提示（不用念）"]
    assert errors == []


async def test_the_page_previews_of_a_deck_that_lost_its_last_page_stop_at_its_new_last_page(browser, server):
    page, errors = await open_page(browser, server.url)
    await run_to_completion(page, "给初中生讲摩擦力，5分钟")
    await run_to_completion(page, "删掉最后一页", runs=2)
    await page.click("[data-testid=artifact-tab][data-type=dsl]")
    await page.wait_for_selector("#canvas-body[data-type=dsl] [data-testid=deck]")
    deck_pages = await page.get_attribute("#canvas-body [data-testid=deck]", "data-slides")
    await page.click("[data-testid=artifact-tab][data-type=slide_preview]")
    await page.wait_for_selector("#canvas-body[data-type=slide_preview] [data-testid=deck]")
    previews = await page.get_attribute("#canvas-body [data-testid=deck]", "data-slides")
    assert previews == deck_pages, f"{previews} page previews for a deck of {deck_pages} pages"
    tab = await page.inner_text("[data-testid=artifact-tab][data-type=slide_preview]")
    assert tab.endswith(f"×{deck_pages}"), f"the previews' tab says {tab!r} for a deck of {deck_pages} pages"
    assert errors == []


async def test_send_with_nothing_typed_says_to_type_first(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.fill("#message-input", "   ")
    await page.click("#send-btn")
    await page.wait_for_function("document.getElementById('composer-hint').textContent.length > 0", timeout=5_000)
    assert await page.inner_text("#composer-hint") == t("canvas.empty_message")
    assert await page.evaluate("document.activeElement.id") == "message-input"
    assert errors == []


async def test_the_empty_chat_heading_names_what_the_chosen_flow_starts_from(browser, server):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "legal")
    assert await page.inner_text("#empty-title") == t("canvas.empty_title_legal")
    await page.select_option("#flow-select", "novel")
    assert await page.inner_text("#empty-title") == t("canvas.empty_title_novel")
    await page.select_option("#flow-select", "ppt")
    assert await page.inner_text("#empty-title") == t("canvas.page_empty_title")
    assert errors == []


# The tabs cut by the row's left edge, and whether the open tab is whole: what a person sees of the row.
TAB_ROW = """() => {
  const row = document.querySelector('#artifact-tabs').getBoundingClientRect();
  const tabs = [...document.querySelectorAll('[data-testid=artifact-tab]')].map((el) => [el, el.getBoundingClientRect()]);
  const active = tabs.find(([el]) => el.classList.contains('active'))[1];
  return { cut: tabs.filter(([, r]) => r.left < row.left - 0.5 && r.right > row.left + 0.5).map(([el]) => el.textContent),
           activeWhole: active.left >= row.left && active.right <= row.right };
}"""


async def test_the_tab_row_shows_the_open_tab_whole_and_cuts_no_tab_at_its_left_edge(browser, server):
    page, errors = await open_page(browser, server.url)
    await run_to_completion(page, "给高中生讲电磁感应，5分钟")
    assert await page.locator("#artifact-tabs").evaluate("el => el.scrollWidth > el.clientWidth"), "the row scrolls"
    await page.focus("[data-testid=artifact-tab].active")
    for key in ("End", "ArrowLeft", "ArrowLeft", "Home"):
        await page.keyboard.press(key)
        await page.wait_for_timeout(100)
        row = await page.evaluate(TAB_ROW)
        assert row["activeWhole"] and row["cut"] == [], (key, row)
    assert errors == []


async def test_an_artifact_titled_by_its_kind_names_its_kind_once(browser, server):
    page, errors = await open_page(browser, server.url)
    await run_to_completion(page, "给初中生讲大气压强，5分钟")
    await page.click("[data-testid=artifact-tab][data-type=course_config]")
    await page.wait_for_selector("#canvas-body[data-type=course_config]")
    assert await page.text_content("#artifact-title") == t("canvas.type_course_config")
    assert await page.is_hidden("#artifact-type"), "not 课程配置 beside 课程配置"
    await page.click("[data-testid=artifact-tab][data-type=pptx]")
    await page.wait_for_selector("#canvas-body[data-type=pptx]")
    assert await page.is_visible("#artifact-type"), "a file named by its deck still says it is the PPTX file"
    assert errors == []


async def test_keeping_the_defaults_keeps_the_answers_already_typed(browser, server):
    page, errors = await open_page(browser, server.url)
    await plan_with_first_answer(page, "给宠物医院做一个在线预约挂号的网页", "宠物主人和前台护士", button="use-defaults")

    thread_id = await page.evaluate("window.agentCanvas.threadId")
    events = await (await page.request.get(f"{server.url}/api/threads/{thread_id}/events")).json()
    plans = [e["data"]["artifact"]["content"] for e in events
             if e["event"] == "tool:artifact" and e["data"]["artifact"]["type"] == "implementation_plan"]
    assert "宠物主人和前台护士" in plans[-1]["markdown"], "the typed answer is in the plan, not its default"
    assert errors == []


async def test_answers_typed_into_a_question_form_are_there_again_after_a_reload(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给瑜伽馆做一个会员约课和签到的小程序", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    fields = page.locator(f"{OPEN_FORM} textarea")
    await fields.nth(0).fill("会员和前台")
    await fields.nth(1).fill("约课成功率")

    await page.reload()
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    await page.wait_for_function(f"document.querySelector('{OPEN_FORM} textarea').value !== ''", timeout=5_000)
    assert [await fields.nth(i).input_value() for i in range(2)] == ["会员和前台", "约课成功率"]

    await page.locator(f"{OPEN_FORM} [data-testid=use-defaults]").click()
    await page.wait_for_function("!document.querySelector('[data-testid=interrupt]:not(.answered)') "
                                 "|| document.querySelectorAll('[data-testid=interrupt]').length > 1", timeout=30_000)
    # The draft goes once the server has taken the answer (its ack), a moment after the form greys out.
    await page.wait_for_function("!Object.keys(localStorage).some((k) => k.startsWith('agentCanvas.draft:'))",
                                 timeout=5_000)  # a draft left behind times out here: an answered form keeps none
    assert errors == []


async def test_coming_back_to_the_page_keeps_the_hint_said_under_the_composer(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给社区图书馆做一个借书提醒的网页", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    await page.click("#send-btn")  # nothing typed
    await page.wait_for_function("document.getElementById('composer-hint').textContent.length > 0", timeout=5_000)

    await page.evaluate("window.dispatchEvent(new Event('focus'))")  # the person switches back to the page
    await page.wait_for_function("window.agentCanvas.socket.connected")
    await page.wait_for_timeout(800)  # the re-join's answer is in
    assert await page.inner_text("#composer-hint") == t("canvas.empty_message")
    assert errors == []


async def test_a_long_artifact_name_is_readable_in_its_tab_on_a_phone(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    await run_to_completion(page, "给高中生讲光合作用和细胞呼吸的联系，10分钟")
    tab = page.locator("[data-testid=artifact-tab][data-type=pptx]")
    name = await page.evaluate("""() => { const a = [...document.querySelectorAll('[data-testid=artifact-tab]')]
        .find((el) => el.dataset.type === 'pptx'); return a.querySelector('.tab-title').textContent; }""")
    assert len(name) > 12, name
    title = tab.locator(".tab-title")
    assert await title.evaluate("el => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1"), \
        "the file's name is shown whole, not cut"
    assert name in await tab.get_attribute("title"), "hovering the tab names the artifact in full"
    assert errors == []


async def test_the_step_that_asks_says_it_waits_for_the_answer_not_that_it_runs(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给驾校做一个学员预约练车的小程序", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    await page.wait_for_selector("#thread-status[data-status=interrupted]")
    states = await page.eval_on_selector_all("[data-testid=timeline-entry]", "els => els.map((el) => el.dataset.state)")
    assert "running" not in states and states.count("waiting") == 1, states
    waiting = page.locator("[data-testid=timeline-entry][data-state=waiting] .tl-state")
    assert await waiting.text_content() == t("canvas.step_waiting")
    assert errors == []


async def test_a_question_form_marks_the_questions_the_plan_cannot_do_without(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给社区食堂做一个老人订餐的小程序", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    thread_id = await page.evaluate("window.agentCanvas.threadId")
    events = await (await page.request.get(f"{server.url}/api/threads/{thread_id}/events")).json()
    questions = next(e["data"]["payload"]["questions"] for e in events if e["event"] == "interrupt")
    marked = await page.locator(f"{OPEN_FORM} .field label").evaluate_all(
        "els => els.map((el) => !!el.querySelector('.badge'))")
    assert marked == [bool(q.get("blocking")) for q in questions] and any(marked), marked
    assert await page.locator(f"{OPEN_FORM} .field label .badge").first.text_content() == t("canvas.plan_blocking")
    assert errors == []


async def test_ctrl_enter_in_a_question_form_sends_the_answers(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给街道办做一个居民报修登记的网页", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    form = page.locator("[data-testid=interrupt]").first
    field = form.locator("textarea").first
    await field.fill("居民和维修师傅")
    await field.press("Enter")  # a new line of the answer, not a send
    assert "answered" not in (await form.get_attribute("class"))
    await field.press("Control+Enter")
    await page.wait_for_function("document.querySelector('[data-testid=interrupt]').classList.contains('answered')",
                                 timeout=5_000)
    await page.wait_for_function(
        "document.querySelector('[data-testid=interrupt] .interrupt-status').textContent.includes('居民和维修师傅')",
        timeout=30_000)
    assert errors == []


async def test_a_plans_summary_takes_the_whole_width_of_its_card_on_a_phone(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    await send(page, "给一家社区诊所做一个让病人在线挑选就诊时间段的预约网页", flow="requirement")
    await page.wait_for_selector("#canvas-body [data-testid=view-requirement_plan]", timeout=30_000)
    widths = await page.evaluate("""() => {
      const grid = document.querySelector('[data-testid=view-requirement_plan] .kv-grid');
      const summary = [...grid.querySelectorAll('.kv')].at(-1);
      return [summary.getBoundingClientRect().width, grid.getBoundingClientRect().width]; }""")
    assert widths[0] >= widths[1] - 1, widths
    assert errors == []


async def test_each_section_heading_of_a_plan_stands_apart_from_the_block_above_it(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给瑜伽馆做一个会员在线约课的小程序", flow="requirement")
    await page.wait_for_selector("#canvas-body [data-testid=view-requirement_plan] section h4", timeout=30_000)
    gaps = await page.evaluate("""() => [...document.querySelectorAll(
        '#canvas-body [data-testid=view-requirement_plan] > section')].map((section) => {
      const above = section.previousElementSibling.getBoundingClientRect().bottom;
      return [section.querySelector('h4').textContent, section.querySelector('h4').getBoundingClientRect().top - above];
    })""")
    assert len(gaps) >= 2 and all(gap >= 10 for _, gap in gaps), gaps
    assert errors == []


async def test_enter_while_the_thread_runs_says_why_nothing_was_sent_and_keeps_the_text(browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    await send(page, "给高中生讲电磁感应，5分钟")
    await page.wait_for_selector("#send-btn[data-state=busy]", timeout=30_000)
    await page.fill("#message-input", "换一套配色")
    await page.press("#message-input", "Enter")
    assert await page.text_content("#composer-hint") == t("canvas.send_busy")
    assert await page.input_value("#message-input") == "换一套配色"
    assert errors == []


async def test_enter_while_the_server_is_out_of_reach_says_nothing_was_sent_and_keeps_the_text(browser, tmp_path):
    process = ServerProcess(tmp_path / "data").start()
    try:
        page, errors = await open_page(browser, process.url)
        process.stop_gracefully()
        await page.wait_for_selector("#send-btn[data-state=offline]", timeout=30_000)
        await page.fill("#message-input", "给小学生讲垃圾分类")
        await page.press("#message-input", "Enter")
        assert await page.text_content("#composer-hint") == t("canvas.send_when_connected")
        assert await page.input_value("#message-input") == "给小学生讲垃圾分类"
        assert errors == []
    finally:
        process.stop()


async def test_a_long_thread_name_is_readable_in_the_thread_bar_on_a_phone(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    text = "给一家社区诊所做一个让病人在线挑选就诊时间段并收到短信提醒的预约网页"
    await send(page, text, flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    heading = page.locator("#thread-title")
    await page.wait_for_function("document.getElementById('thread-title').textContent.length > 0")
    name = await heading.text_content()
    assert await heading.evaluate("el => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth"), \
        f"{name!r} is cut"
    assert await heading.get_attribute("title") == name
    assert errors == []


async def test_a_long_link_in_the_request_does_not_push_a_phone_page_sideways(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    link = "https://example.org/forms/" + "volunteersignupweekendshift" * 6  # nowhere to break
    await send(page, f"照着这个表单做一个志愿者报名页面 {link}", flow="requirement")
    await page.wait_for_selector("#canvas-body [data-testid=view-requirement_plan]", timeout=30_000)
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors == []


async def test_a_message_typed_but_not_sent_is_still_in_the_box_after_a_reload(browser, server):
    page, errors = await open_page(browser, server.url)
    text = "给高一学生讲牛顿第三定律，\n8分钟，多举生活中的例子"
    await page.fill("#message-input", text)
    await page.reload()
    await page.wait_for_selector("#conn-status[data-state=up]")
    assert await page.input_value("#message-input") == text

    await page.press("#message-input", "Enter")
    await page.wait_for_function("window.agentCanvas.threadId !== null", timeout=10_000)
    await page.reload()
    await page.wait_for_selector("#conn-status[data-state=up]")
    assert await page.input_value("#message-input") == "", "a sent message is not offered again"
    assert errors == []


async def test_sending_a_form_from_the_keyboard_keeps_the_focus_at_the_form(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "给小区物业做一个访客登记的网页", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    field = page.locator(f"{OPEN_FORM} textarea").first
    await field.fill("业主和保安")
    await field.press("Control+Enter")
    await page.wait_for_function("document.querySelector('[data-testid=interrupt]').classList.contains('answered')",
                                 timeout=5_000)
    assert await page.evaluate("!!document.activeElement.closest('[data-testid=interrupt]')"), \
        "not dropped to the top of the page"
    assert errors == []


# The socket's answer to the first thread:list asked after this runs is held back 1.5 s, as a busy server's would be.
_HOLD_FIRST_LIST_REPLY = """() => {
  const socket = window.agentCanvas.socket;
  const emit = socket.emitWithAck.bind(socket);
  let held = false;
  socket.emitWithAck = async (event, payload) => {
    const reply = await emit(event, payload);
    if (event === "thread:list" && !held) { held = true; await new Promise((r) => setTimeout(r, 1500)); }
    return reply;
  };
}"""


async def test_a_list_asked_for_before_a_stop_and_answered_after_it_does_not_call_the_stopped_run_running(
        browser, slow_server):
    page, errors = await open_page(browser, slow_server.url)
    await send(page, "给快递小哥讲冬季骑行安全，5分钟")
    await page.wait_for_selector("[data-testid=timeline-entry][data-tool-name=generate_course_config]", timeout=30_000)
    await page.evaluate(_HOLD_FIRST_LIST_REPLY)
    await page.click("#threads-toggle")  # the list is asked for while the run is still going
    await page.click("#stop-btn")
    await page.locator("[data-testid=completion]").wait_for(timeout=30_000)
    stopped = t("runtime.status_cancelled").lower()
    seen = []
    for _ in range(12):  # past the held reply's arrival and the refresh after it
        seen.append((await page.locator(".thread-link .status-dot").first.text_content()).lower())
        await page.wait_for_timeout(250)
    assert set(seen) == {stopped}, seen  # never 运行中 again once the run is said to be stopped
    assert errors == []


async def test_a_long_thread_name_is_readable_in_the_thread_list_on_a_phone(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    await send(page, "给老年大学的学员做一个报名书法班和国画班并查看课表的小程序", flow="requirement")
    await page.wait_for_selector(OPEN_FORM, timeout=30_000)
    await page.click("#threads-toggle")
    listed = page.locator(".thread-link.active .thread-link-title")
    await listed.wait_for()
    name = await listed.text_content()
    assert await listed.evaluate("el => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth"), \
        f"{name!r} is cut"
    assert errors == []
