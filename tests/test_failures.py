"""A stage whose model call fails for good: the user gets a sentence, the thread stays resumable, nothing is lost."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from app.cli import main
from app.store import Store
from core.i18n import t
from core.llm.base import LLMError
from core.llm.offline import OfflineLLM
from core.settings import Settings
from graphs.ppt import render_pool
from schemas.ppt import VideoOutline


class FailingFor:
    """The offline model, except that one output schema fails the first `times` calls."""

    def __init__(self, schema: type, times: int) -> None:
        self.inner = OfflineLLM()
        self.schema, self.left = schema, times
        self.provider, self.max_concurrency = "offline", 4

    async def structured(self, schema, **kwargs):
        if schema is self.schema and self.left > 0:
            self.left -= 1
            raise LLMError("The model's answer did not match the expected format after 3 attempts.")
        return await self.inner.structured(schema, **kwargs)

    async def complete(self, **kwargs):
        return await self.inner.complete(**kwargs)

    def stream(self, **kwargs):
        return self.inner.stream(**kwargs)


async def test_failed_stage_reports_a_sentence_and_resume_continues_from_it(live_server, connect):
    live_server.runtime.llm = FailingFor(VideoOutline, times=1)
    client = await connect(live_server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于欧姆定律的5分钟PPT"})
    thread_id = ack["threadId"]
    failed = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])

    assert failed["success"] is False
    assert failed["error"] == "The model's answer did not match the expected format after 3 attempts."
    assert failed["resumable"] is True
    updates = [d for _, d in client.of(thread_id, "tool:update") if d["status"] == "failed"]
    assert len(updates) == 1
    error_logs = [d for _, d in client.of(thread_id, "tool:log") if d["level"] == "error"]
    assert error_logs and error_logs[0]["toolCallId"] == updates[0]["toolCallId"]
    joined = await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000})
    assert joined["thread"]["status"] == "failed"

    resumed = await client.call("run:resume", {"threadId": thread_id})
    assert resumed["ok"], resumed
    done = await client.wait_for("completion", lambda d: d["runId"] == resumed["runId"], timeout=60)
    assert done["success"] and done["finalArtifactId"]
    starts = Counter(d["toolName"] for _, d in client.of(thread_id, "tool:start"))
    assert starts["analyze_topic"] == starts["generate_course_config"] == 1
    assert starts["generate_video_outline"] == 2


async def test_an_unexpected_error_never_reaches_the_client_as_a_traceback(live_server, connect):
    class Broken(FailingFor):
        async def structured(self, schema, **kwargs):
            raise ZeroDivisionError("internal detail")

    live_server.runtime.llm = Broken(VideoOutline, 0)
    client = await connect(live_server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于惯性的5分钟PPT"})
    failed = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"])
    assert failed["success"] is False
    texts = [failed["error"], *(d["message"] for _, d in client.of(ack["threadId"], "tool:log"))]
    assert not any("ZeroDivisionError" in t or "Traceback" in t or "internal detail" in t for t in texts)
    assert failed["error"] == t("runtime.run_failed"), "a sentence saying the work is kept"


# -- a failure a resume would repeat (an error marked `resumable = False`)


def squeeze(text: str) -> str:
    """Without whitespace: the terminal wraps long sentences."""
    return "".join(text.split())


async def only_thread(data_dir: Path) -> str:
    settings = Settings(_env_file=None, data_dir=data_dir)
    store = await Store(settings.store_path, settings.files_dir).open()
    try:
        [thread] = await store.list_threads()
        return thread["thread_id"]
    finally:
        await store.close()


def unrenderable(deck, minutes):
    raise ValueError("All strings must be XML compatible")


async def fail_to_render(client) -> tuple[str, dict]:
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于地震的5分钟PPT"})
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)
    return ack["threadId"], completion


async def test_a_deck_that_cannot_render_ends_failed_and_not_resumable(live_server, connect, monkeypatch):
    monkeypatch.setattr(render_pool, "gate", unrenderable)  # the QA gate on a thread (RENDER_PROCESSES=0)
    client = await connect(live_server.url)
    thread_id, completion = await fail_to_render(client)

    assert (completion["success"], completion["resumable"]) == (False, False)
    assert completion["error"] == t("ppt.render_failed", reason="ValueError")
    joined = await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000})
    assert (joined["thread"]["status"], joined["thread"]["resumable"]) == ("failed", False)
    listed = await client.call("thread:list", {})
    assert [s["resumable"] for s in listed["threads"] if s["threadId"] == thread_id] == [False]


async def test_resuming_a_failure_that_would_repeat_is_refused_with_a_sentence(live_server, connect, monkeypatch):
    monkeypatch.setattr(render_pool, "gate", unrenderable)  # the QA gate on a thread (RENDER_PROCESSES=0)
    client = await connect(live_server.url)
    thread_id, _ = await fail_to_render(client)

    refused = await client.call("run:resume", {"threadId": thread_id})

    assert refused == {"ok": False, "error": {"code": "conflict",
                                              "message": t("runtime.resume_would_fail", thread=thread_id)}}


async def test_a_new_message_after_an_unrenderable_deck_starts_afresh_and_finishes(live_server, connect, monkeypatch):
    monkeypatch.setattr(render_pool, "gate", unrenderable)  # the QA gate on a thread (RENDER_PROCESSES=0)
    client = await connect(live_server.url)
    thread_id, _ = await fail_to_render(client)
    monkeypatch.undo()  # the changed request renders

    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于火山的5分钟PPT", "threadId": thread_id})
    assert ack["ok"], ack
    done = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=60)

    assert done["success"] and done["finalArtifactId"]
    joined = await client.call("thread:join", {"threadId": thread_id, "afterSeq": 10_000})
    assert (joined["thread"]["status"], joined["thread"]["resumable"]) == ("done", False)


def test_ng_ppt_offers_no_resume_for_a_deck_that_cannot_render(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(render_pool, "gate", unrenderable)  # the QA gate on a thread (RENDER_PROCESSES=0)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LLM_PROVIDER", "offline")

    code = main(["ppt", "做一个关于地震的5分钟PPT", "--out", str(tmp_path / "deck.pptx")])

    out = capsys.readouterr()
    assert code == 1
    assert squeeze(t("ppt.render_failed", reason="ValueError")) in squeeze(out.out)
    assert "ng resume" not in out.out and "Traceback" not in out.out + out.err


def test_ng_resume_of_a_failure_that_would_repeat_says_to_change_the_request(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(render_pool, "gate", unrenderable)  # the QA gate on a thread (RENDER_PROCESSES=0)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    main(["ppt", "做一个关于地震的5分钟PPT", "--out", str(tmp_path / "deck.pptx")])
    capsys.readouterr()
    thread_id = asyncio.run(only_thread(tmp_path / "data"))

    code = main(["resume", thread_id])

    assert code == 2
    assert squeeze(t("runtime.resume_would_fail", thread=thread_id)) in squeeze(capsys.readouterr().out)
