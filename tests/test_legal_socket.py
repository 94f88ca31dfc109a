"""The legal flow over a live Socket.IO server: events, traces over HTTP, drafting with interrupts and
a .docx download, and a model (OpenAI wire) that invents and mis-cites law."""

from __future__ import annotations

import io

import aiohttp
import pytest
from docx import Document

from core.i18n import t
from schemas.events import EVENT_MODELS
from tests.support.fake_openai import FakeOpenAI
from tests.support.legal import CASES_DIR, NEEDS_CASES, legal_index  # noqa: F401  (fixture)

INVENTED = ("根据《中华人民共和国利率法》第3条，民间借贷利率不得超过百分之二十四；"
            "依照《劳动合同法》第999条，公司应当赔偿；《合同法》第52条规定违法合同无效；"
            "《劳动合同法》第39条规定了用人单位可以解除劳动合同的情形。")


@pytest.fixture
async def legal_server(start_server, legal_index):
    async def start(**overrides):
        return await start_server(china_law_index=legal_index, legal_cases_dir=CASES_DIR, **overrides)
    return start


async def fetch(url: str, *, binary: bool = False):
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            return response.status, (await response.read() if binary else await response.json())


async def ask(client, text: str, thread_id: str | None = None) -> dict:
    payload = {"flow": "legal", "text": text, **({"threadId": thread_id} if thread_id else {})}
    ack = await client.call("chat:message", payload)
    assert ack["ok"], ack
    return ack


async def test_a_question_over_socketio_streams_a_checked_answer_and_a_queryable_trace(legal_server, connect):
    server = await legal_server()
    client = await connect(server.url)
    ack = await ask(client, "劳动合同法第三十九条是怎么规定的")
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert completion["success"], completion
    events = client.of(ack["threadId"])
    for name, data in events:
        if name in EVENT_MODELS:
            EVENT_MODELS[name].model_validate(data)
    names = [n for n, _ in events]
    assert names.index("agent-selected") > names.index("status")
    assert [d["status"] for n, d in events if n == "status"][1] == "classifying"
    [selected] = [d for n, d in events if n == "agent-selected"]
    assert (selected["agent"], selected["intent"], selected["category"]) == ("legal_research", "regulation_query",
                                                                             "labor_law")
    messages = [d for n, d in events if n == "message"]
    assert len(messages) > 2 and messages[-1]["final"] and not messages[0]["final"]
    answer = next(d["artifact"]["content"] for n, d in events
                  if n == "tool:artifact" and d["artifact"]["type"] == "legal_answer")
    status, trace = await fetch(f"{server.url}/api/traces/{answer['traceId']}")
    assert status == 200 and trace["threadId"] == ack["threadId"]
    assert {"classification", "routing", "agent", "tool", "citations"} <= {s["kind"] for s in trace["steps"]}
    missing, _ = await fetch(f"{server.url}/api/traces/no-such-trace")
    assert missing == 404


@NEEDS_CASES
async def test_healthz_says_when_the_statute_index_is_ready(legal_server):
    server = await legal_server()
    legal = server.runtime.tools["legal"]
    legal.warm_in_background().join(timeout=120)
    _, health = await fetch(f"{server.url}/healthz")
    assert health["legal"]["statuteIndex"] == "ready" and health["legal"]["cases"] == "configured"


async def test_drafting_interrupts_for_missing_fields_and_offers_a_docx(legal_server, connect):
    server = await legal_server()
    client = await connect(server.url)
    ack = await ask(client, "帮我起草一份借款合同，出借人张三，借款人李四")
    thread_id = ack["threadId"]
    interrupt = await client.wait_for("interrupt", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert interrupt["kind"] == "clarification"
    assert [q["id"] for q in interrupt["payload"]["questions"]] == ["amount", "term"]
    await client.wait_for("status", lambda d: d["runId"] == ack["runId"] and d["status"] == "interrupted")
    resumed = await client.call("run:resume", {"threadId": thread_id,
                                               "answer": {"amount": "人民币十万元", "term": "一年"}})
    assert resumed["ok"], resumed
    completion = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
    assert completion["success"], completion
    document = next(d["artifact"] for n, d in client.of(thread_id, "tool:artifact")
                    if d["artifact"]["type"] == "legal_document")
    assert completion["finalArtifactId"] == document["id"]
    assert document["content"]["fields"]["amount"] == "人民币十万元"
    status, data = await fetch(server.url + document["url"], binary=True)
    text = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
    assert status == 200 and "张三" in text and "人民币十万元" in text and "一年" in text


async def test_invented_wrong_and_repealed_citations_never_show_as_verified(legal_server, connect):
    async with FakeOpenAI(responder=lambda body: INVENTED) as fake:
        server = await legal_server(llm_provider="openai", llm_base_url=fake.base_url, llm_api_key="k")
        client = await connect(server.url)
        ack = await ask(client, "《劳动合同法》第39条原文")  # rules decide: the only model call is the answer
        completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    assert completion["success"], completion
    answer = next(d["artifact"]["content"] for n, d in client.of(ack["threadId"], "tool:artifact")
                  if d["artifact"]["type"] == "legal_answer")
    shown = answer["answer"]
    assert "利率法》第3条" not in shown.split(t("legal.basis_heading"))[0]
    assert "第999条" not in shown.split(t("legal.basis_heading"))[0]
    removed = {(c["law"], c["status"]) for c in answer["removedCitations"]}
    assert removed == {("中华人民共和国利率法", "law_not_found"), ("中华人民共和国劳动合同法", "article_not_found")}
    by_status = {c["status"]: c for c in answer["citations"]}
    assert by_status["repealed"]["verified"] is False and "民法典" in by_status["repealed"]["replacement"]
    assert t("legal.repealed_inline", replacement=by_status["repealed"]["replacement"]) in shown
    assert by_status["in_force"]["law"] == "中华人民共和国劳动合同法" and by_status["in_force"]["verified"]
    assert all(not c["verified"] for c in answer["removedCitations"])
