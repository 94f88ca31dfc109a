"""A Chinese user (the default locale) reads no English sentence: every user-facing text field of every
event of an offline PPT and requirement run, and the refusals of bad requests, over Socket.IO."""

from __future__ import annotations

import re
from typing import Any

import pytest

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# Names a Chinese sentence keeps as they are.
PROPER_NOUNS = {"ppt", "pptx", "json", "markdown", "implementation_plan", "md", "llm_provider", "offline", "openai",
                "use", "defaults", "answer", "true", "false", "repo", "csv", "api", "http"}


def english_sentences(texts: list[str]) -> list[str]:
    """Texts with no Chinese but at least three ordinary Latin words: an English sentence."""
    found = []
    for text in texts:
        words = [w for w in LATIN_WORD.findall(text) if w.lower() not in PROPER_NOUNS]
        if not CJK.search(text) and len(words) >= 3:
            found.append(text)
    return found


def user_texts(event: str, data: dict[str, Any]) -> list[str]:
    if event in {"tool:log", "status", "progress"}:
        return [data.get("message") or ""]
    if event == "message":
        return [data.get("content") or ""]
    if event == "completion":
        return [data.get("error") or ""]
    if event == "tool:artifact":
        return [data["artifact"]["title"]]
    if event == "interrupt":
        payload = data.get("payload", {})
        questions = payload.get("questions", [])
        return [payload.get("answerFormat", ""), payload.get("prompt", "")] + [
            q[field] for q in questions for field in ("question", "why_needed", "fallback_assumption")]
    return []


async def run_to_end(client, flow: str, text: str) -> str:
    ack = await client.call("chat:message", {"flow": flow, "text": text})
    assert ack["ok"], ack
    thread_id, run_id = ack["threadId"], ack["runId"]
    while True:
        ended = await client.wait_for("status", lambda d: d["threadId"] == thread_id and d.get("runId") == run_id
                                      and d["status"] != "running", timeout=60)
        if ended["status"] != "interrupted":
            await client.wait_for("completion", lambda d: d["threadId"] == thread_id and d.get("runId") == run_id)
            return thread_id
        resumed = await client.call("run:resume", {"threadId": thread_id, "answer": "use defaults"})
        assert resumed["ok"], resumed
        run_id = resumed["runId"]


@pytest.mark.parametrize(("flow", "text"), [
    ("requirement", "给课程管理系统增加作业批改功能"),
    ("ppt", "做一个关于火山的5分钟科普PPT"),
])
async def test_a_chinese_user_reads_no_english_sentence_in_a_run(start_server, connect, flow, text):
    server = await start_server()
    client = await connect(server.url)
    thread_id = await run_to_end(client, flow, text)
    texts = [line for event, data in client.of(thread_id) for line in user_texts(event, data)]
    assert texts and english_sentences(texts) == []


async def test_a_chinese_user_reads_no_english_refusal(start_server, connect):
    server = await start_server()
    client = await connect(server.url)
    refusals = [
        await client.call("chat:message", {"flow": "no-such-flow", "text": "你好"}),
        await client.call("run:resume", {"threadId": "t-missing"}),
        await client.call("run:cancel", {"threadId": "t-missing"}),
    ]
    messages = [ack["error"]["message"] for ack in refusals]
    assert all(not ack["ok"] for ack in refusals)
    assert english_sentences(messages) == []
