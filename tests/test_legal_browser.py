"""The legal flow on the canvas page in headless Chromium: checked answer, quiet disclaimer, trace, .docx."""

from __future__ import annotations

import pytest

from core.i18n import t
from schemas.legal import AgentName
from tests.support.browser import BROWSER_MARKS, OUTPUT, browser, open_page, send  # noqa: F401
from tests.support.legal import CASES_DIR, legal_index  # noqa: F401  (fixture)
from tests.support.server import ServerProcess
from tests.test_flow_names import GRAPH_NODES

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory, legal_index):
    # One server for the module: each test asks on a page of its own, in a thread of its own.
    env = {"CHINA_LAW_INDEX": str(legal_index), "LEGAL_CASES_DIR": str(CASES_DIR), "LEGAL_WARM_AT_STARTUP": "true"}
    with ServerProcess(tmp_path_factory.mktemp("legal-browser") / "data", env=env) as process:
        yield process


STATUTE_QUESTION = "劳动合同法第三十九条是怎么规定的"


async def ask(browser, server, question: str):
    """A new page that asks the legal flow one question and waits for the run's end."""
    page, errors = await open_page(browser, server.url)
    await send(page, question, flow="legal")
    await page.wait_for_selector("[data-testid=completion]", timeout=90_000)
    return page, errors


async def test_a_legal_question_shows_verified_citations_a_quiet_disclaimer_and_the_trace(browser, server):
    page, errors = await ask(browser, server, STATUTE_QUESTION)
    await page.click("[data-testid=artifact-tab]:has-text('法律解答')")
    await page.wait_for_selector("#canvas-body [data-testid=view-legal_answer]")
    assert await page.locator("[data-testid=cite-verified]").count() >= 1
    assert await page.locator("[data-testid=cite-unverified]").count() == 0
    disclaimer = page.locator("[data-testid=legal-disclaimer]")
    assert "律师" in await disclaimer.text_content()
    assert await disclaimer.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") < 14, "quiet, not loud"
    OUTPUT.mkdir(exist_ok=True)
    await page.screenshot(path=str(OUTPUT / "legal-answer.png"), full_page=True)

    await page.click("[data-testid=artifact-tab]:has-text('执行轨迹')")
    await page.wait_for_selector("#canvas-body [data-testid=view-trace]")
    kinds = await page.eval_on_selector_all("[data-testid=trace-step]", "els => els.map(e => e.dataset.kind)")
    assert kinds[:2] == ["classification", "routing"] and "tool" in kinds
    assert errors == []


async def test_a_drafted_document_downloads_as_docx(browser, server):
    page, errors = await ask(browser, server, "帮我起草一份借款合同，出借人张三，借款人李四，借款金额10万元，期限一年")
    await page.wait_for_selector("#canvas-body [data-testid=view-legal_document]")
    href = await page.locator("[data-testid=download-docx]").get_attribute("href")
    response = await page.request.get(server.url + href if href.startswith("/") else href)
    assert response.ok and (await response.body())[:2] == b"PK"
    assert "张三" in await page.text_content("#canvas-body")
    assert errors == []


async def test_a_drafts_missing_facts_are_skipped_not_given_defaults_they_do_not_have(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "帮我起草一份房屋租赁合同，出租人李明，承租人王芳，月租金三千元", flow="legal")
    skip = page.locator("[data-testid=interrupt] [data-testid=use-defaults]")
    await skip.wait_for(timeout=90_000)
    assert await skip.text_content() == t("canvas.skip_questions_button")
    await skip.click()
    await page.wait_for_selector("#canvas-body [data-testid=view-legal_document]", timeout=90_000)
    assert errors == []


async def legal_answer_of(page, server) -> dict:
    thread_id = await page.evaluate("window.agentCanvas.threadId")
    events = await (await page.request.get(f"{server.url}/api/threads/{thread_id}/events")).json()
    return next(e["data"]["artifact"]["content"] for e in events
                if e["event"] == "tool:artifact" and e["data"]["artifact"]["type"] == "legal_answer")


async def test_a_legal_run_names_every_step_and_agent_never_by_its_id(browser, server):
    page, errors = await ask(browser, server, STATUTE_QUESTION)

    entries = await page.eval_on_selector_all(
        "[data-testid=timeline-entry]", "els => els.map(e => [e.dataset.toolName, e.querySelector('.tl-label').textContent])")
    assert entries, "the run showed its steps"
    # A specialist's step may add the field of law it works on after its name ("法规研究 · 劳动法").
    assert [label.split(" · ")[0] for _, label in entries] == [t(f"nodes.{node}", locale="zh") for node, _ in entries]
    run_text = await page.text_content(".run-card")
    agents = [t(f"legal.agent_{agent}", locale="zh") for agent in AgentName.__args__]
    assert any(name in run_text for name in agents), "the chosen agent is named"
    ids = set(GRAPH_NODES["legal"]) | set(AgentName.__args__)
    assert sorted(i for i in ids if i in run_text) == []
    assert errors == []


async def test_the_legal_answer_names_its_intent_and_field_of_law(browser, server):
    page, errors = await ask(browser, server, STATUTE_QUESTION)
    await page.click("[data-testid=artifact-tab]:has-text('法律解答')")
    meta = await page.text_content("#canvas-body [data-testid=view-legal_answer] .legal-meta")

    answer = await legal_answer_of(page, server)
    assert t(f"legal.intent_{answer['intent']}", locale="zh") in meta
    fields = answer["domains"] or [answer["category"]]
    assert all(t(f"legal.category_{field}", locale="zh") in meta for field in fields)
    assert [i for i in (answer["intent"], *fields) if i in meta] == [], "names, not ids"
    assert errors == []


async def test_an_answer_over_two_fields_of_law_heads_each_field_no_smaller_than_its_text(browser, server):
    # Two fields whose searches find different articles (fields that find the same ones share one section).
    page, errors = await ask(browser, server, "公司拖欠我工资，而且我借给同事的五万块钱他也不还，我该怎么办")
    await page.click("[data-testid=artifact-tab]:has-text('法律解答')")
    answer = page.locator("#canvas-body [data-testid=view-legal_answer] .md").first
    await answer.wait_for()
    sizes = await answer.evaluate("""md => {
      const size = el => parseFloat(getComputedStyle(el).fontSize);
      return {text: size(md.querySelector('p')), headings: [...md.querySelectorAll('h3, h4, h5, h6')].map(size)};
    }""")
    assert len(sizes["headings"]) >= 2, "one heading per field of law"
    assert all(size >= sizes["text"] for size in sizes["headings"]), sizes
    assert errors == []


async def test_a_question_in_two_fields_of_law_names_the_field_each_chosen_agent_covers(browser, server):
    page, errors = await ask(browser, server, "邻居家的狗咬了我孩子，对方不肯赔医药费怎么办")
    lines = await page.locator("[data-testid=agent-selected]").all_text_contents()  # under the routing step
    assert len(lines) >= 2 and len(set(lines)) == len(lines), lines
    fields = [t(f"legal.category_{c}") for c in ("tort_law", "civil_law", "contract_law")]
    assert all(any(field in line for field in fields) for line in lines), lines
    assert errors == []


async def test_two_specialists_side_by_side_read_apart_in_the_timeline_by_their_field(browser, server):
    page, errors = await ask(browser, server, "公司拖欠我工资，而且我借给同事的五万块钱他也不还，我该怎么办")
    labels = await page.locator("[data-testid=timeline-entry][data-tool-name=legal_research] .tl-label").all_text_contents()
    assert len(labels) == 2 and len(set(labels)) == 2, labels
    assert any(t("legal.category_labor_law") in label for label in labels), labels
    assert errors == []


async def test_the_trace_fits_a_phone_screen(browser, server):
    page, errors = await open_page(browser, server.url, width=390, height=844)
    await send(page, "公司拖欠我三个月的工资怎么办", flow="legal")
    await page.wait_for_selector("[data-testid=completion]", timeout=90_000)
    await page.click("[data-testid=artifact-tab][data-type=trace]")
    await page.wait_for_selector("#canvas-body [data-testid=view-trace]")
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390, "the page does not scroll sideways"
    assert errors == []


async def test_the_trace_names_its_steps_and_tools_in_words_not_by_their_ids(browser, server):
    page, errors = await ask(browser, server, "房东不退押金，合同里写了押一付三，怎么办")
    await page.click("[data-testid=artifact-tab][data-type=trace]")
    view = page.locator("#canvas-body [data-testid=view-trace]")
    await view.wait_for()
    text = await view.inner_text()
    for raw in ("traceId", "route", "statute_search", "legal_research", "hit(s)", " ok ", "chars", '{"'):
        assert raw not in text, (raw, text)
    assert t("legal.tool_statute_search") in text and t("legal.agent_legal_research") in text
    citations = await view.locator("[data-testid=trace-step][data-kind=citations]").inner_text()
    assert t("legal.tool_check_citations") not in citations, "the step's kind names it once"
    assert errors == []


async def test_the_agents_chosen_are_said_under_the_step_that_chose_them_not_after_the_run_ended(browser, server):
    page, errors = await ask(browser, server, "我在工地干活摔断了腿，包工头跑了，找谁赔")
    chosen = page.locator("[data-testid=agent-selected]")
    assert await chosen.count() >= 1
    steps = await chosen.evaluate_all("els => els.map(e => e.closest('[data-testid=timeline-entry]')?.dataset.toolName)")
    assert set(steps) == {"route"}, steps
    assert errors == []
