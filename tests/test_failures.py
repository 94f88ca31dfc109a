"""A stage whose model call fails for good: the user gets a sentence, the thread stays resumable, nothing is lost."""

from __future__ import annotations

from collections import Counter

from core.i18n import t
from core.llm.base import LLMError
from core.llm.offline import OfflineLLM
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
