"""The PPT pipeline over a live Socket.IO server, as a client sees it (spec 001, protocol v1)."""

from __future__ import annotations

import io
import zipfile

import aiohttp
from pptx import Presentation
from pptx.util import Emu

from graphs.ppt.planning import STAGES, slide_count_for
from schemas.events import EVENT_MODELS, Artifact

STAGE_ARTIFACTS = {
    "generate_course_config": "course_config",
    "generate_video_outline": "video_outline",
    "generate_slide_scripts": "slide_scripts",
    "generate_presentation_theme": "presentation_theme",
    "generate_slides": "dsl",
}


async def run_ppt(client, text: str, **extra) -> tuple[str, dict]:
    ack = await client.call("chat:message", {"flow": "ppt", "text": text, **extra})
    assert ack["ok"], ack
    completion = await client.wait_for(
        "completion", lambda d: d["threadId"] == ack["threadId"] and d["runId"] == ack["runId"], timeout=60
    )
    return ack["threadId"], completion


async def fetch_json(url: str) -> dict:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200, await response.text()
        return await response.json()


async def fetch_bytes(url: str) -> bytes:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        return await response.read()


async def test_full_run_streams_every_stage_in_protocol_order(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于光合作用的8分钟PPT，面向初中生")
    events = client.of(thread_id)

    assert completion["success"] is True
    assert [d["seq"] for _, d in events] == list(range(1, len(events) + 1)), "seq must be contiguous from 1"
    for name, data in events:
        assert {"threadId", "runId", "seq", "ts"} <= data.keys()
        if name in EVENT_MODELS:
            EVENT_MODELS[name].model_validate(data)

    names = [n for n, _ in events]
    started = [d["toolName"] for n, d in events if n == "tool:message:start"]
    # The theme starts once the course config is there (it needs neither outline nor scripts) and runs
    # beside them; the slides wait for both. The rest is a chain.
    theme = "generate_presentation_theme"
    assert [s for s in started if s != theme] == [s for s in STAGES if s != theme]
    assert started.index("generate_course_config") < started.index(theme) < started.index("generate_slides")
    completed = [d["toolName"] for n, d in events if n == "tool:message:complete"]
    assert completed.index(theme) < completed.index("generate_slides")
    for stage in STAGES:
        call_id = next(d["toolCallId"] for n, d in events if n == "tool:message:start" and d["toolName"] == stage)
        own = [(n, d) for n, d in events if d.get("toolCallId") == call_id]
        kinds = [n for n, _ in own]
        assert kinds[0] == "tool:message:start" and kinds[1] == "tool:start"
        assert kinds[-2:] == ["tool:update", "tool:message:complete"]
        assert own[-2][1]["status"] == "done"
        if stage in STAGE_ARTIFACTS:
            artifacts = [d["artifact"] for n, d in own if n == "tool:artifact"]
            assert STAGE_ARTIFACTS[stage] in [a["type"] for a in artifacts]
            assert own[-1][1]["artifactId"] == artifacts[-1]["id"], "message:complete links the stage's artifact"
            assert kinds.index("tool:artifact") < kinds.index("tool:update")
    assert names[-1] == "completion"


async def test_slides_report_progress_page_by_page(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于杠杆原理的6分钟PPT")
    progress = [d for _, d in client.of(thread_id, "progress")]
    total = slide_count_for(6)
    assert [p["current"] for p in progress] == list(range(1, total + 1))
    assert all(p["total"] == total and p["status"] == "generating_slide" for p in progress)
    assert progress[2]["message"] == f"正在生成第 3/{total} 页..."


async def test_an_english_deck_reports_its_pages_in_the_readers_language(live_server, connect):
    # The server speaks Chinese (the default locale): every step's line is Chinese, whatever the deck is written in.
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "A 5 minute talk on how volcanoes form, for Year 9")
    progress = [d for _, d in client.of(thread_id, "progress")]
    assert progress and progress[0]["message"] == f"正在生成第 1/{progress[0]['total']} 页...", progress[0]


async def test_completion_points_to_a_real_16_9_pptx_with_notes_and_east_asian_fonts(live_server, connect):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于水循环的5分钟PPT")
    artifacts = {d["artifact"]["type"]: d["artifact"] for _, d in client.of(thread_id, "tool:artifact")}
    assert completion["finalArtifactId"] == artifacts["pptx"]["id"]

    final = await fetch_json(f"{live_server.url}/artifacts/{completion['finalArtifactId']}")
    Artifact.model_validate(final)
    data = await fetch_bytes(live_server.url + final["url"])
    deck = Presentation(io.BytesIO(data))
    scripts = artifacts["slide_scripts"]["content"]["scripts"]

    assert len(deck.slides) == len(scripts) == slide_count_for(5)
    assert abs(Emu(deck.slide_width).inches / Emu(deck.slide_height).inches - 16 / 9) < 0.01
    for slide, script in zip(deck.slides, scripts):
        # The narration first; design suggestions (and on the last page the icon credit) follow it.
        assert slide.notes_slide.notes_text_frame.text.startswith(script["narrationScript"])
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        slide_xml = package.read("ppt/slides/slide2.xml").decode()
    assert "<a:ea " in slide_xml, "East-Asian font must be set on runs"
    # Layout placeholders were re-laid for 16:9, not left in the 4:3 left part of the slide.
    widest = max(shape.left + shape.width for shape in deck.slides[1].placeholders)
    assert widest > deck.slide_width * 0.85


async def test_artifact_versions_are_retrievable(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于分数加法的5分钟PPT")
    outline = next(d["artifact"] for _, d in client.of(thread_id, "tool:artifact") if d["artifact"]["type"] == "video_outline")
    fetched = await fetch_json(f"{live_server.url}/artifacts/{outline['id']}?version=1")
    assert fetched["content"] == outline["content"] and fetched["versions"] == [1]
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{live_server.url}/artifacts/{outline['id']}?version=9") as missing:
            assert missing.status == 404
            assert (await missing.json())["error"]["code"] == "not_found"
        async with session.get(f"{live_server.url}/artifacts/{outline['id']}?version=abc") as bad:
            assert bad.status == 400


async def test_thread_list_and_http_replay_show_the_run(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于勾股定理的5分钟PPT")
    listed = await client.call("thread:list", {})
    assert listed["ok"]
    entry = next(t for t in listed["threads"] if t["threadId"] == thread_id)
    assert entry["status"] == "done" and entry["flow"] == "ppt" and "勾股定理" in entry["title"]
    replay = await fetch_json(f"{live_server.url}/api/threads/{thread_id}/events?afterSeq=3")
    assert [e["data"]["seq"] for e in replay] == [d["seq"] for _, d in client.of(thread_id)][3:]


async def test_healthz_says_which_model_answers(live_server):
    health = await fetch_json(f"{live_server.url}/healthz")
    assert health["status"] == "ok"
    assert health["llm"]["provider"] == "offline"
    flows = await fetch_json(f"{live_server.url}/api/flows")
    assert "ppt" in [f["name"] for f in flows]


async def test_two_topics_give_two_different_decks(live_server, connect):
    client = await connect(live_server.url)
    first, _ = await run_ppt(client, "做一个关于火山的5分钟PPT")
    second, _ = await run_ppt(client, "做一个关于地震的5分钟PPT")

    def outline(thread_id):
        return next(d["artifact"]["content"] for _, d in client.of(thread_id, "tool:artifact")
                    if d["artifact"]["type"] == "video_outline")

    assert outline(first) != outline(second)
    assert "火山" in outline(first)["theme"] and "地震" in outline(second)["theme"]
