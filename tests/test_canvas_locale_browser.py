"""The canvas in the user's language: with LOCALE=en an English user reads no Chinese around a PPT run
(buttons, statuses, labels, tooltips, aria labels, the artifact views); by default the same chrome is Chinese."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import BROWSER_MARKS, browser, open_page, send  # noqa: F401
from tests.support.server import ServerProcess

pytestmark = BROWSER_MARKS

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
COMPLETIONS = "document.querySelectorAll('[data-testid=completion]').length"

# Everything a person reads or hears: the visible text, and the labels, tooltips, placeholders and alt texts.
PAGE_TEXTS = """() => {
  const texts = [document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  return texts;
}"""

# The chrome of the page around a finished run: one element of each kind, none of them user content.
CHROME = ["#send-btn", "#conn-status", "#threads-toggle", "#thread-status", ".run-card .run-status",
          "[data-testid=completion]", "#follow-live", "#artifact-type"]


def start_server(tmp_path, **env):
    return ServerProcess(tmp_path / "data", env={"OFFLINE_LATENCY_S": "0.01", **env}).start()


@pytest.fixture
def english_server(tmp_path):
    process = start_server(tmp_path, LOCALE="en")
    yield process
    process.stop_gracefully()


@pytest.fixture
def server(tmp_path):
    process = start_server(tmp_path)
    yield process
    process.stop_gracefully()


async def finish_a_deck(page, topic: str) -> None:
    await send(page, topic, flow="ppt")
    await page.wait_for_function(f"{COMPLETIONS} === 1", timeout=90_000)
    await page.click("[data-testid=completion-open]")  # the PPTX view: file card, deck, notes, thumbnails
    await page.wait_for_selector("[data-testid=view-pptx] [data-testid=deck]")
    await page.click("#threads-toggle")  # the thread panel with its rename and delete buttons
    await page.wait_for_selector("[data-testid=thread-rename]")


def around_first_chinese(text: str) -> str:
    at = CJK.search(text).start()
    return text[max(0, at - 40):at + 40]


async def chrome_texts(page) -> list[str]:
    return [await page.inner_text(selector) for selector in CHROME]


async def test_an_english_user_reads_no_chinese_around_a_ppt_run(browser, english_server):
    page, errors = await open_page(browser, english_server.url)
    assert await page.get_attribute("html", "lang") == "en"
    await finish_a_deck(page, "Explain buoyancy to middle-school students, 5 minutes")
    chinese = [around_first_chinese(text) for text in await page.evaluate(PAGE_TEXTS) if CJK.search(text)]
    assert not chinese, chinese
    assert (await page.inner_text("#send-btn")) == "Send"
    assert errors == []


async def test_the_default_canvas_is_chinese(browser, server):
    page, errors = await open_page(browser, server.url)
    assert await page.get_attribute("html", "lang") == "zh-CN"
    await finish_a_deck(page, "给初中生讲浮力，5分钟")
    not_chinese = [(selector, text) for selector, text in zip(CHROME, await chrome_texts(page)) if not CJK.search(text)]
    assert not not_chinese, not_chinese
    assert errors == []


# Lines each piece of a thread's meta row (flow, status, time) is drawn on: a piece broken mid-phrase
# ("Waiting for / an answer") reads as stray fragments.
META_PIECE_LINES = """() => [...document.querySelectorAll('.thread-link-meta > *')].map(el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
  return [el.textContent, tops.size];
})"""


async def test_an_english_thread_list_keeps_its_flow_status_and_time_whole(browser, english_server):
    page, errors = await open_page(browser, english_server.url)
    await send(page, "A booking app for our bike repair shop so customers can pick a time slot", flow="requirement")
    await page.wait_for_selector("[data-testid=interrupt]", timeout=60_000)
    await page.click("#threads-toggle")
    await page.wait_for_selector("[data-testid=thread-rename]")
    broken = [text for text, lines in await page.evaluate(META_PIECE_LINES) if lines > 1]
    assert not broken, f"broken across lines: {broken}"
    assert errors == []


async def test_an_english_flow_name_too_long_for_a_phone_ends_in_an_ellipsis(browser, english_server):
    page, errors = await open_page(browser, english_server.url, width=390, height=844)
    await page.select_option("#flow-select", "novel_workflow")
    picker = await page.eval_on_selector("#flow-select", """el => {
      const style = getComputedStyle(el);
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = style.font;
      const name = pen.measureText(el.options[el.selectedIndex].textContent).width;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;  // less the arrow
      return { cut: name > room, ellipsis: style.textOverflow === 'ellipsis' };
    }""")
    assert picker == {"cut": True, "ellipsis": True}, "a name cut on a phone ends in “…”, not mid-letter"
    assert errors == []


async def test_the_empty_chat_runs_its_two_chinese_sentences_on_without_a_space(server, browser):
    page, errors = await open_page(browser, server.url)
    await page.select_option("#flow-select", "novel_workflow")
    hint = await page.inner_text("#chat-empty p.muted")
    assert "发送。在「项目」" in hint and "。 " not in hint, hint
    assert errors == []



async def test_an_english_project_field_shows_its_whole_hint(browser, english_server):
    page, errors = await open_page(browser, english_server.url)
    for flow in ("novel_workflow", "novel"):
        await page.select_option("#flow-select", flow)
        field = await page.eval_on_selector("#project-input", """el => {
          const style = getComputedStyle(el);
          const pen = document.createElement('canvas').getContext('2d');
          pen.font = style.font;
          const hint = pen.measureText(el.placeholder).width;
          const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return { hint: el.placeholder, cut: hint > room };
        }""")
        assert not field["cut"], f"the hint “{field['hint']}” is cut off in its field"
    assert errors == []
