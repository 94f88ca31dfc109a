"""The legal flow on the canvas page in headless Chromium: checked answer, quiet disclaimer, trace, .docx."""

from __future__ import annotations

import pytest

from tests.support.browser import BROWSER_MARKS, OUTPUT, browser, open_page, send  # noqa: F401
from tests.support.legal import CASES_DIR, legal_index  # noqa: F401  (fixture)
from tests.support.server import ServerProcess

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path, legal_index):
    env = {"CHINA_LAW_INDEX": str(legal_index), "LEGAL_CASES_DIR": str(CASES_DIR), "LEGAL_WARM_AT_STARTUP": "true"}
    with ServerProcess(tmp_path / "data", env=env) as process:
        yield process


async def test_a_legal_question_shows_verified_citations_a_quiet_disclaimer_and_the_trace(browser, server):
    page, errors = await open_page(browser, server.url)
    await send(page, "劳动合同法第三十九条是怎么规定的", flow="legal")
    await page.wait_for_selector("[data-testid=completion]", timeout=90_000)
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
    page, errors = await open_page(browser, server.url)
    await send(page, "帮我起草一份借款合同，出借人张三，借款人李四，借款金额10万元，期限一年", flow="legal")
    await page.wait_for_selector("[data-testid=completion]", timeout=90_000)
    await page.wait_for_selector("#canvas-body [data-testid=view-legal_document]")
    href = await page.locator("[data-testid=download-docx]").get_attribute("href")
    response = await page.request.get(server.url + href if href.startswith("/") else href)
    assert response.ok and (await response.body())[:2] == b"PK"
    assert "张三" in await page.text_content("#canvas-body")
    assert errors == []
