"""The `novel` chat flow over Socket.IO, on a small NovelGen project (tests/data/novel/mentor_rift):
start-up summary, slash commands without the model, the tool-call bound, an ambiguous reference
answered with verified quotes, generation behind a confirmation, /auto, and a restart."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.i18n import language_name, t
from schemas.novel import GeneratedChapter
from tests.support.client import RecordingClient
from tests.support.fake_openai import FakeOpenAI
from tests.support.server import ServerProcess

PROJECT = "mentor_rift"
SOURCE = Path(__file__).resolve().parent / "data" / "novel" / PROJECT


@pytest.fixture()
def projects(tmp_path: Path) -> Path:
    root = tmp_path / "projects"
    shutil.copytree(SOURCE, root / PROJECT)
    return root


@pytest.fixture()
async def server(start_server, projects):
    return await start_server(novel_projects_dir=projects)


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha1(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file()}


async def say(client: RecordingClient, text: str, thread_id: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {"flow": "novel", "text": text, "options": {"projectId": PROJECT}}
    if thread_id:
        payload["threadId"] = thread_id
    ack = await client.call("chat:message", payload)
    assert ack["ok"], ack
    return ack


async def settled(client: RecordingClient, ack: dict[str, Any], timeout: float = 60) -> tuple[str, dict[str, Any]]:
    """How the run ended: ("completion", data) or ("interrupt", data)."""
    def mine(d: dict[str, Any]) -> bool:
        return d.get("runId") == ack["runId"]

    status = await client.wait_for("status", lambda d: mine(d) and d["status"] in {"done", "interrupted", "failed"},
                                   timeout)
    if status["status"] == "interrupted":  # the interrupt event comes just before this status
        return "interrupt", [d for n, d in client.events if n == "interrupt" and mine(d)][-1]
    return "completion", await client.wait_for("completion", mine, timeout)


def messages(client: RecordingClient, ack: dict[str, Any]) -> list[str]:
    return [d["content"] for n, d in client.events if n == "message" and d["runId"] == ack["runId"] and d["final"]]


def artifacts(client: RecordingClient, ack: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [d["artifact"] for n, d in client.events
            if n == "tool:artifact" and d["runId"] == ack["runId"] and d["artifact"]["type"] == kind]


async def reply_at_which_character(client: RecordingClient, reply: str) -> dict[str, Any]:
    """Ask about "him and the master" (two candidates), then type `reply` at the which-character question."""
    ack = await say(client, "他和师父的关系什么时候变了？")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "clarification"
    question = interrupt["payload"]["questions"][0]
    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": {question["id"]: reply}})
    assert resumed["ok"], resumed
    return resumed


async def test_start_up_summary_arrives_as_novel_status_and_a_message(server, connect):
    client = await connect(server.url)
    ack = await say(client, "/help")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    status = artifacts(client, ack, "novel_status")[0]["content"]
    assert status["project_id"] == PROJECT
    assert status["chapters_generated"] == 3 and status["chapters_planned"] == 3
    assert status["preferences_top"][0]["content"] == "对话要简短有力"
    said = messages(client, ack)
    assert "3/4" in said[0] and "对话要简短有力" in said[0]
    assert "/rollback" in said[1]


async def test_the_start_up_hint_offers_the_next_chapter_to_write(server, connect):
    client = await connect(server.url)
    ack = await say(client, "/status")
    await settled(client, ack)
    greeting = messages(client, ack)[0]
    assert "继续生成到第 4 章" in greeting, greeting  # three of the outline's four chapters are written


async def test_a_first_status_command_shows_the_project_status_once(server, connect):
    client = await connect(server.url)
    ack = await say(client, "/status")
    await settled(client, ack)
    said = messages(client, ack)
    assert len(said) == 1 and "3/4" in said[0], said


async def test_an_unknown_project_is_refused_with_the_existing_ones_named(server, connect):
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "novel", "text": "/status", "options": {"projectId": "nope"}})
    assert ack["ok"] is False and ack["error"]["code"] == "bad_request"
    assert "nope" in ack["error"]["message"] and PROJECT in ack["error"]["message"]


async def test_an_unknown_project_is_refused_with_how_to_make_one(server, connect):
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "novel", "text": "第一章讲了什么？", "options": {"projectId": "雾港"}})
    said = ack["error"]["message"]
    assert t("flows.novel_workflow_title") in said, "the flow that makes a project is named"
    assert "ng novel init 雾港" in said, said


async def test_slash_commands_never_call_the_model(start_server, projects, connect):
    async with FakeOpenAI(responder=lambda body: "{}") as fake:
        live = await start_server(novel_projects_dir=projects, llm_provider="openai", llm_base_url=fake.base_url,
                                  llm_api_key="test")
        client = await connect(live.url)
        first = await say(client, "/status")
        await settled(client, first)
        thread = first["threadId"]
        for text in ("/prefs", "/prefs add tone 冷峻克制", "/auto off", "/help", "/nonsense"):
            ack = await say(client, text, thread)
            assert (await settled(client, ack))[0] == "completion"
        unknown = messages(client, ack)[-1]
        assert "/nonsense" in unknown and "/status" in unknown and "/rollback" in unknown
        ack = await say(client, "/run 4", thread)
        kind, interrupt = await settled(client, ack)
        assert kind == "interrupt" and interrupt["kind"] == "confirmation"
        assert fake.requests == []
    prefs = json.loads((projects / PROJECT / "preferences.json").read_text(encoding="utf-8"))
    assert prefs[-1]["preference_type"] == "tone" and prefs[-1]["content"] == "冷峻克制"


async def test_after_the_tool_call_bound_the_agent_asks_what_is_missing(start_server, projects, connect):
    live = await start_server(novel_projects_dir=projects, novel_max_tool_calls=1)
    client = await connect(live.url)
    ack = await say(client, "她后来怎么样了？")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "clarification"
    payload = interrupt["payload"]
    assert payload["toolCalls"] <= 1
    assert 1 <= len(payload["questions"]) <= 3 and "subject" in payload["missing"]
    calls = [d for n, d in client.events if n == "tool:log" and d["runId"] == ack["runId"] and "调用" in d["message"]]
    assert len(calls) <= 1


async def test_ambiguous_reference_is_asked_then_answered_with_verified_quotes(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "他和师父的关系什么时候变了？")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "clarification"
    question = interrupt["payload"]["questions"][0]
    assert set(question["candidates"]) == {"林远", "苏微"}

    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": {question["id"]: "林远"}})
    assert resumed["ok"], resumed
    kind, _ = await settled(client, resumed)
    assert kind == "completion"
    answer = artifacts(client, resumed, "novel_answer")[-1]["content"]
    assert answer["evidence"], answer
    for evidence in answer["evidence"]:
        chapter = GeneratedChapter.model_validate_json(
            (projects / PROJECT / "chapters" / f"chapter_{evidence['chapter_number']:03d}.json").read_text("utf-8"))
        scene = next(s for s in chapter.scenes if s.scene_number == evidence["scene_number"])
        assert evidence["verified"] is True and evidence["quote"] in scene.content
    assert 3 in [e["chapter_number"] for e in answer["evidence"]], "the chapter where they broke is cited"
    assert "沈青" in answer["answer"]


async def test_generation_plan_declined_changes_nothing_then_accepted_writes_the_chapter(server, connect, projects):
    client = await connect(server.url)
    folder = projects / PROJECT
    before = snapshot(folder)
    ack = await say(client, "继续生成到第 4 章")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    plan = artifacts(client, ack, "tool_plan")[-1]["content"]
    assert plan["steps"][0]["tool"] == "workflow.run" and plan["steps"][0]["args"]["to_chapter"] == 4
    assert plan["steps"][0]["requires_confirmation"] is True

    declined = await client.call("run:resume", {"threadId": ack["threadId"], "answer": False})
    assert (await settled(client, declined))[0] == "completion"
    assert snapshot(folder) == before

    again = await say(client, "继续生成到第 4 章", ack["threadId"])
    kind, interrupt = await settled(client, again)
    assert kind == "interrupt"
    accepted = await client.call("run:resume", {"threadId": ack["threadId"], "answer": True})
    kind, completion = await settled(client, accepted, timeout=120)
    assert kind == "completion" and completion["success"], completion
    chapter = GeneratedChapter.model_validate_json((folder / "chapters" / "chapter_004.json").read_text("utf-8"))
    assert chapter.chapter_number == 4 and chapter.total_words == sum(s.word_count for s in chapter.scenes)
    assert any(n == "progress" and d["runId"] == accepted["runId"] for n, d in client.events)
    assert artifacts(client, accepted, "novel_status")[-1]["content"]["chapters_generated"] == 4


async def test_auto_on_skips_the_run_confirmation_but_not_the_rollback_one(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "/auto on")
    await settled(client, ack)
    run = await say(client, "/run 4", ack["threadId"])
    kind, completion = await settled(client, run, timeout=120)
    assert kind == "completion" and completion["success"]
    assert (projects / PROJECT / "chapters" / "chapter_004.json").exists()

    rollback = await say(client, "/rollback 4", ack["threadId"])
    kind, interrupt = await settled(client, rollback)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    declined = await client.call("run:resume", {"threadId": ack["threadId"], "answer": False})
    await settled(client, declined)
    assert (projects / PROJECT / "chapters" / "chapter_004.json").exists()


async def test_a_chat_thread_resumes_after_a_server_restart(tmp_path, projects):
    env = {"NOVEL_PROJECTS_DIR": str(projects)}
    first = ServerProcess(tmp_path / "data", env=env).start()
    try:
        client = await RecordingClient().connect(first.url)
        ack = await say(client, "他和师父的关系什么时候变了？")
        kind, interrupt = await settled(client, ack)
        assert kind == "interrupt"
        await client.close()
    finally:
        first.stop()

    second = ServerProcess(tmp_path / "data", env=env).start()
    try:
        client = await RecordingClient().connect(second.url)
        joined = await client.call("thread:join", {"threadId": ack["threadId"]})
        pending = joined["thread"]["pendingInterrupt"]
        assert pending["kind"] == "clarification"
        question = pending["payload"]["questions"][0]
        resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": {question["id"]: "林远"}})
        kind, _ = await settled(client, resumed)
        assert kind == "completion"
        assert artifacts(client, resumed, "novel_answer")[-1]["content"]["evidence"]
        # The session remembers who "他" was: a follow-up needs no question.
        follow = await say(client, "他和师父后来怎么样了？", ack["threadId"])
        kind, _ = await settled(client, follow)
        assert kind == "completion"
        await client.close()
    finally:
        second.stop()


async def test_a_quote_the_model_invented_is_dropped_and_a_real_one_kept(start_server, projects, connect):
    real = "林远将剑掷在地上，与沈青当众决裂。"
    draft = {"answer": "第三章里林远与沈青决裂。", "evidence": [
        {"chapter_number": 3, "quote": real},
        {"chapter_number": 3, "quote": "沈青当众刺伤了林远。"},  # not in the text
        {"chapter_number": 1, "quote": real},  # real words, wrong chapter
    ]}
    async with FakeOpenAI(responder=lambda body: json.dumps(draft, ensure_ascii=False)) as fake:
        live = await start_server(novel_projects_dir=projects, llm_provider="openai", llm_base_url=fake.base_url,
                                  llm_api_key="test")
        client = await connect(live.url)
        ack = await say(client, "林远和师父的关系什么时候变了？")
        kind, _ = await settled(client, ack)
        assert kind == "completion"
        assert len(fake.requests) == 1  # the answer; the intent was settled by rules
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert answer["evidence"] == [{"chapter_number": 3, "scene_number": 2, "quote": real, "verified": True}]


async def test_clean_asked_in_words_is_confirmed_even_in_auto_mode_and_declining_keeps_everything(server, connect,
                                                                                                   projects):
    client = await connect(server.url)
    folder = projects / PROJECT
    ack = await say(client, "/auto on")
    await settled(client, ack)
    before = snapshot(folder)
    clean = await say(client, "把这个项目清理掉，从头再来", ack["threadId"])
    kind, interrupt = await settled(client, clean)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    assert interrupt["payload"]["destructive"] is True and interrupt["payload"]["plan"]["steps"][0]["tool"] == "workflow.clean"
    declined = await say(client, "不要", ack["threadId"])  # a chat reply answers the pending confirmation
    await settled(client, declined)
    assert snapshot(folder) == before


async def test_a_confirmed_rollback_removes_that_chapter_and_every_later_one(server, connect, projects):
    client = await connect(server.url)
    folder = projects / PROJECT
    ack = await say(client, "/rollback 2")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["payload"]["destructive"] is True
    accepted = await client.call("run:resume", {"threadId": ack["threadId"], "answer": True})
    assert (await settled(client, accepted))[0] == "completion"
    chapters = sorted(p.name for p in (folder / "chapters").iterdir())
    assert chapters == ["chapter_001.json", "chapter_001_plan.json"]
    memory = json.loads((folder / "chapter_memory.json").read_text(encoding="utf-8"))
    assert [m["chapter_number"] for m in memory] == [1]
    assert artifacts(client, accepted, "novel_status")[-1]["content"]["chapters_generated"] == 1


async def test_a_configured_model_reads_a_message_no_rule_covers(start_server, projects, connect):
    decision = {"intent": "generate", "target_chapter": 4}
    async with FakeOpenAI(responder=lambda body: json.dumps(decision)) as fake:
        live = await start_server(novel_projects_dir=projects, llm_provider="openai", llm_base_url=fake.base_url,
                                  llm_api_key="test")
        client = await connect(live.url)
        ack = await say(client, "把故事往后推进一些")
        kind, interrupt = await settled(client, ack)
        assert len(fake.requests) == 1
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    assert interrupt["payload"]["plan"]["steps"][0]["args"]["to_chapter"] == 4


async def test_a_question_about_a_chapter_is_answered_from_that_chapter_without_asking_who(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "第二章发生了什么？")
    kind, _ = await settled(client, ack)
    assert kind == "completion", "a chapter question needs no character named"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    memory = json.loads((projects / PROJECT / "chapter_memory.json").read_text(encoding="utf-8"))
    second = next(entry for entry in memory if entry["chapter_number"] == 2)
    assert second["summary"] in answer["answer"]
    assert answer["evidence"] and {e["chapter_number"] for e in answer["evidence"]} == {2}


async def test_a_chapter_answer_names_the_chapter_once_then_what_happens_in_it(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "第三章发生了什么？")
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]["answer"]
    memory = json.loads((projects / PROJECT / "chapter_memory.json").read_text(encoding="utf-8"))
    third = next(entry for entry in memory if entry["chapter_number"] == 3)
    assert answer.count("第 3 章") == 1, answer
    assert t("novel.chat_answer_key_events", events=t("validation.separator").join(third["key_events"])) in answer


async def test_a_question_about_the_last_chapter_is_answered_from_the_latest_chapter_written(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "上一章发生了什么？")  # chapters 1–3 are written
    kind, _ = await settled(client, ack)
    assert kind == "completion", "the latest chapter is known: no one to ask about"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    memory = json.loads((projects / PROJECT / "chapter_memory.json").read_text(encoding="utf-8"))
    third = next(entry for entry in memory if entry["chapter_number"] == 3)
    assert third["summary"] in answer["answer"]
    assert answer["evidence"] and {e["chapter_number"] for e in answer["evidence"]} == {3}


async def test_what_someone_did_in_a_named_chapter_is_answered_from_that_chapter_only(server, connect):
    client = await connect(server.url)
    ack = await say(client, "林远在第2章做了什么")  # was answered from the whole book, chapter 1 first
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert answer["evidence"] and {e["chapter_number"] for e in answer["evidence"]} == {2}
    assert any("比剑" in e["quote"] for e in answer["evidence"])


async def test_what_someone_did_in_the_last_chapter_is_answered_from_the_latest_chapter_written(server, connect):
    client = await connect(server.url)
    ack = await say(client, "沈青在最新一章做了什么")  # chapters 1–3 are written
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert answer["evidence"] and {e["chapter_number"] for e in answer["evidence"]} == {3}


async def test_someone_asked_about_in_a_chapter_that_never_names_them_is_said_to_be_absent(server, connect):
    client = await connect(server.url)
    ack = await say(client, "白鹤在第3章做了什么")
    assert (await settled(client, ack))[0] == "completion"
    assert messages(client, ack)[-1] == t("novel.chat_not_in_chapter", name="白鹤",
                                          where=t("novel.chat_chapter_named", chapter=3))
    assert not artifacts(client, ack, "novel_answer")


async def test_rewriting_one_chapter_rewrites_that_chapter_and_leaves_the_others(server, connect, projects):
    client = await connect(server.url)
    folder = projects / PROJECT
    before = snapshot(folder / "chapters")
    ack = await say(client, "重写第2章")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    assert "重写第 2 章" in interrupt["payload"]["action"] and "1–2" not in interrupt["payload"]["action"]
    accepted = await client.call("run:resume", {"threadId": ack["threadId"], "answer": True})
    kind, completion = await settled(client, accepted, timeout=120)
    assert kind == "completion" and completion["success"], completion
    after = snapshot(folder / "chapters")
    changed = {name for name in before if before[name] != after.get(name)}
    assert changed == {"chapter_002.json", "chapter_002_plan.json"}, changed


async def test_deleting_a_middle_chapter_in_words_says_what_can_be_done_and_changes_nothing(server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "删除第2章")  # was answered as a question about chapter 2
    kind, _ = await settled(client, ack)
    assert kind == "completion", "nothing is planned: chapter 2 cannot go alone"
    said = messages(client, ack)[-1]
    assert "/rollback 2" in said and "第 2–3 章" in said and "重写第 2 章" in said
    assert not artifacts(client, ack, "tool_plan") and snapshot(projects / PROJECT) == before


async def test_deleting_the_last_chapter_in_words_is_a_rollback_confirmed_first(server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "删掉最后一章")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation" and interrupt["payload"]["destructive"] is True
    step = interrupt["payload"]["plan"]["steps"][0]
    assert step["tool"] == "workflow.rollback" and step["args"] == {"to_chapter": 3}
    declined = await client.call("run:resume", {"threadId": ack["threadId"], "answer": False})
    assert (await settled(client, declined))[0] == "completion"
    assert snapshot(projects / PROJECT) == before


async def test_deleting_a_chapter_past_the_end_plans_no_generation(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "删除第9章")  # was planned as "生成到第 9 章"
    kind, _ = await settled(client, ack)
    assert kind == "completion" and not artifacts(client, ack, "tool_plan")
    assert "第 9 章" in messages(client, ack)[-1] and "生成" not in messages(client, ack)[-1]


async def test_a_rename_request_is_told_it_is_not_supported_and_what_can_be_done(server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "把沈青改名为沈清")  # was offered as a preference to keep, as if that renamed him
    kind, _ = await settled(client, ack)
    assert kind == "completion" and not artifacts(client, ack, "tool_plan")
    said = messages(client, ack)[-1]
    assert said.startswith(t("novel.chat_rename_unsupported", text="把沈青改名为沈清")[:6]) and "settings.json" in said
    assert snapshot(projects / PROJECT) == before


async def test_auto_on_still_confirms_a_preference_that_was_only_guessed(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "/auto on")
    await settled(client, ack)
    before = snapshot(projects / PROJECT)
    guessed = await say(client, "多一些打斗场面", ack["threadId"])  # no rule word: only the nearest example says "preference"
    kind, interrupt = await settled(client, guessed)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    assert interrupt["payload"]["plan"]["steps"][0]["tool"] == "preferences.add"
    declined = await client.call("run:resume", {"threadId": ack["threadId"], "answer": False})
    await settled(client, declined)
    assert snapshot(projects / PROJECT) == before


async def test_a_rewrite_typed_at_which_chapter_to_generate_up_to_is_served_as_a_new_request(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "继续往下写")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["payload"]["missing"] == ["target_chapter"]
    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": "重写第2章"})
    kind, interrupt = await settled(client, resumed)
    # taken as the answer "2", it asked whether to overwrite chapters 1–2; as a request it rewrites chapter 2 alone
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    step = interrupt["payload"]["plan"]["steps"][0]
    assert step["tool"] == "workflow.run" and step["args"]["chapters"] == [2]


async def test_where_someone_first_appears_is_answered_with_the_earliest_scene_naming_them(server, connect):
    client = await connect(server.url)
    ack = await say(client, "林远第一次出现在哪一场？")  # 林远 opens chapter 1; "出现在" holds no "now"
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert "第 1 章第 1 场" in answer["answer"] and "最近" not in answer["answer"], answer["answer"]
    assert "林远跪在沈青面前" in answer["answer"]


async def test_where_someone_first_appears_names_the_earliest_scene_though_a_memory_line_is_of_a_later_one(
        start_server, connect, projects):
    memory_file = projects / PROJECT / "chapter_memory.json"
    memory = json.loads(memory_file.read_text(encoding="utf-8"))
    # a memory line the text holds word for word, in chapter 2's second scene (苏微 is first in its first scene)
    memory[1]["key_events"] = ["林远与苏微在院中比剑"]
    memory_file.write_text(json.dumps(memory, ensure_ascii=False), encoding="utf-8")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)
    ack = await say(client, "苏微第一次出现在哪一场？")
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert "第 2 章第 1 场" in answer["answer"], answer["answer"]  # was "第 2 章第 2 场", the memory line's scene


async def test_passages_asked_for_are_shown_not_kept_as_a_preference(server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "给我看两段林远和苏微的原文")  # was offered as a preference to keep
    kind, _ = await settled(client, ack)
    assert kind == "completion" and not artifacts(client, ack, "tool_plan")
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert len(answer["evidence"]) == 2 and "苏微" in answer["evidence"][0]["quote"]
    assert snapshot(projects / PROJECT) == before


async def test_what_a_thing_is_is_answered_with_the_passage_naming_it_not_with_the_person_beside_it(server, connect):
    client = await connect(server.url)
    ack = await say(client, "剑碑是什么？")  # only 苏微's line names it; the question is not about 苏微
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]
    assert answer["evidence"] and all("剑碑" in e["quote"] for e in answer["evidence"]), answer


async def test_a_question_about_a_chapter_not_yet_written_says_so(server, connect):
    client = await connect(server.url)
    ack = await say(client, "第九章发生了什么？")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    reply = messages(client, ack)[-1]
    assert "9" in reply and "3" in reply and not artifacts(client, ack, "novel_answer")


async def test_a_quoted_line_is_cited_whole_with_its_closing_quote_mark(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "第一章发生了什么？")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    quotes = [e["quote"] for e in artifacts(client, ack, "novel_answer")[-1]["content"]["evidence"]]
    assert quotes
    assert all(not q.startswith("”") and q.count("“") == q.count("”") for q in quotes), quotes


async def test_what_the_assistant_looks_up_is_named_in_chinese_not_by_tool_class(server, connect):
    client = await connect(server.url)
    ack = await say(client, "林远和顾川是什么关系？")
    assert (await settled(client, ack))[0] == "completion"
    calls = [d["message"] for n, d in client.events if n == "tool:log" and d["runId"] == ack["runId"] and "调用" in d["message"]]
    assert calls
    assert not [c for c in calls if any("a" <= ch.lower() <= "z" for ch in c)], calls


async def test_the_relation_between_two_named_characters_states_what_the_character_sheet_says(server, connect):
    client = await connect(server.url)
    ack = await say(client, "林远和顾川是什么关系？")
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]["answer"]
    assert "宿敌" in answer, answer  # characters.json: 林远.relationships[顾川] = 宿敌


async def test_the_example_question_of_the_start_up_summary_is_answered_without_asking_whose(server, connect):
    client = await connect(server.url)
    ack = await say(client, "主角的师父是谁？")  # the start-up summary's own example
    assert (await settled(client, ack))[0] == "completion", "主角 is 林远: there is no one to choose between"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]["answer"]
    assert "沈青" in answer, answer  # characters.json: 林远.relationships[沈青] = 师父


async def test_a_relation_asked_of_nobody_in_particular_asks_whose_in_a_whole_sentence(server, connect):
    client = await connect(server.url)
    ack = await say(client, "师父是谁？")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt"
    question = interrupt["payload"]["questions"][0]
    assert question["question"] == t("novel.chat_ask_whose", relation="师父", candidates="林远、苏微")


async def test_asking_who_a_name_not_in_the_book_is_says_so_and_names_the_cast(server, connect):
    client = await connect(server.url)
    ack = await say(client, "张三是谁？")
    kind, _ = await settled(client, ack)
    assert kind == "completion", "nobody to choose from: the name is simply not in the book"
    reply = messages(client, ack)[-1]
    assert "张三" in reply and "林远" in reply and "顾川" in reply


async def test_asking_who_someone_is_in_a_book_with_no_characters_yet_says_it_has_none(start_server, connect, tmp_path):
    root = tmp_path / "fresh_projects"
    (root / PROJECT).mkdir(parents=True)
    shutil.copy(SOURCE / "settings.json", root / PROJECT / "settings.json")  # a project just begun: no cast yet
    server = await start_server(novel_projects_dir=root)
    client = await connect(server.url)

    ack = await say(client, "张三是谁？")
    assert (await settled(client, ack))[0] == "completion"

    reply = messages(client, ack)[-1]
    assert "张三" in reply and t("novel.chat_no_cast") in reply, reply
    assert "：。" not in reply, reply


async def test_a_relation_asked_with_one_name_the_book_lacks_says_that_name_is_not_in_it(server, connect):
    client = await connect(server.url)
    ack = await say(client, "林远和陆铭是什么关系？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert reply.startswith(t("novel.chat_person_unknown", name="陆铭", cast="").split("。")[0]), reply


async def test_an_english_question_about_a_chinese_book_is_asked_again_in_chinese_offline(server, connect):
    client = await connect(server.url)
    ack = await say(client, "Who is the protagonist's mentor?")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert reply.startswith(t("novel.chat_ask_in_book_language", language=language_name("zh"), names="")[:12]), reply
    assert "林远" in reply, "the cast is named as the book writes it"


async def test_a_question_about_something_the_book_never_mentions_says_so_without_asking_who(server, connect):
    client = await connect(server.url)
    ack = await say(client, "这本书里有外星飞船吗？")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    assert "外星飞船" in messages(client, ack)[-1] and not artifacts(client, ack, "novel_answer")


async def test_a_command_typed_at_a_which_character_question_is_run_instead(server, connect):
    client = await connect(server.url)
    resumed = await reply_at_which_character(client, "/status")
    kind, _ = await settled(client, resumed)
    assert kind == "completion"
    assert "3/4" in messages(client, resumed)[-1]


async def test_a_which_character_question_answered_with_no_name_in_the_book_is_not_asked_again(server, connect):
    client = await connect(server.url)
    resumed = await reply_at_which_character(client, "王五")
    kind, _ = await settled(client, resumed)
    assert kind == "completion"
    assert "王五" in messages(client, resumed)[-1]


async def test_a_new_question_typed_at_a_which_character_question_is_answered_as_one(server, connect):
    client = await connect(server.url)
    resumed = await reply_at_which_character(client, "第二章发生了什么？")
    kind, _ = await settled(client, resumed)
    assert kind == "completion"
    answer = artifacts(client, resumed, "novel_answer")[-1]["content"]
    assert {e["chapter_number"] for e in answer["evidence"]} == {2}


async def test_he_in_a_follow_up_means_the_character_just_asked_about(server, connect):
    client = await connect(server.url)
    first = await say(client, "沈青是谁？")
    assert (await settled(client, first))[0] == "completion"
    ack = await say(client, "他和林远是什么关系？", first["threadId"])
    assert (await settled(client, ack))[0] == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]["answer"]
    assert "徒弟" in answer, answer  # characters.json: 沈青 regards 林远 as his 徒弟


async def test_she_in_a_follow_up_means_the_woman_just_asked_about_without_asking_who(server, connect):
    client = await connect(server.url)
    first = await say(client, "苏微是谁？")
    assert (await settled(client, first))[0] == "completion"
    ack = await say(client, "她做了什么？", first["threadId"])
    kind, _ = await settled(client, ack)
    assert kind == "completion", "苏微 was just asked about"
    assert artifacts(client, ack, "novel_answer")[-1]["content"]["answer"].startswith("苏微")


async def test_a_mistyped_command_is_answered_with_the_command_it_resembles_and_nothing_runs(server, connect, projects):
    before = snapshot(projects / PROJECT)
    client = await connect(server.url)
    ack = await say(client, "/rollbak 2")
    assert (await settled(client, ack))[0] == "completion"
    assert "/rollback 2" in messages(client, ack)[-1]
    assert snapshot(projects / PROJECT) == before


async def test_a_preference_said_in_words_is_kept_as_novelgen_writing_style_and_named_in_chinese(server, connect, projects):
    client = await connect(server.url)
    ack = await say(client, "我喜欢节奏快一点的文风")
    assert (await settled(client, ack))[0] == "completion"
    prefs = json.loads((projects / PROJECT / "preferences.json").read_text(encoding="utf-8"))
    assert prefs[-1]["preference_type"] == "writing_style" and prefs[-1]["content"] == "我喜欢节奏快一点的文风"
    reply = messages(client, ack)[-1]
    assert "[文风]" in reply and "style" not in reply


async def test_a_cited_line_of_dialogue_keeps_its_own_quote_marks_readable(server, connect):
    client = await connect(server.url)
    ack = await say(client, "第一章发生了什么？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert "徒弟。”" in reply, reply  # the line of dialogue is cited whole…
    assert "””" not in reply and "“”" not in reply  # …set off by marks of another kind, not a pile of ”


async def test_an_answer_about_what_a_character_did_cites_the_passage_without_calling_it_a_turn(server, connect):
    client = await connect(server.url)
    ack = await say(client, "林远在江边做了什么？")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]["answer"]
    assert "出现转折" not in answer and "林远" in answer


async def test_asking_whether_the_book_mentions_something_it_lacks_says_so_and_plans_nothing(server, connect):
    client = await connect(server.url)
    ack = await say(client, "有没有写到下雨")  # 写到 is a generation verb, but this asks about the text
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    assert "下雨" in messages(client, ack)[-1]
    assert not artifacts(client, ack, "tool_plan")


async def test_asking_whether_the_book_has_something_it_has_answers_with_a_quote(server, connect):
    client = await connect(server.url)
    ack = await say(client, "书里有没有出现过剑")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    evidence = artifacts(client, ack, "novel_answer")[-1]["content"]["evidence"]
    assert evidence and all("剑" in e["quote"] for e in evidence)


async def test_a_bare_no_with_nothing_pending_asks_nothing_and_plans_nothing(server, connect):
    client = await connect(server.url)
    ack = await say(client, "n")
    kind, _ = await settled(client, ack)
    assert kind == "completion", "no question about chapters for a stray 'n'"
    assert "没有等你确认" in messages(client, ack)[-1]


async def reply_at_which_chapter(client: RecordingClient, reply: str) -> dict[str, Any]:
    """Say "继续生成" (no chapter named, nothing to resume), then type `reply` at "要生成到第几章？"."""
    ack = await say(client, "继续生成")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["payload"]["missing"] == ["target_chapter"]
    resumed = await client.call("run:resume", {"threadId": ack["threadId"], "answer": {"target": reply}})
    assert resumed["ok"], resumed
    return resumed


async def test_a_question_about_a_written_chapter_typed_at_which_chapter_to_generate_is_answered(server, connect):
    client = await connect(server.url)
    resumed = await reply_at_which_chapter(client, "第三章结尾发生了什么")
    kind, _ = await settled(client, resumed)
    assert kind == "completion", "a question is not an answer to 'up to which chapter?'"
    assert not artifacts(client, resumed, "tool_plan")
    answer = artifacts(client, resumed, "novel_answer")[-1]["content"]
    assert {e["chapter_number"] for e in answer["evidence"]} == {3}


async def test_a_question_about_an_unwritten_chapter_typed_at_which_chapter_to_generate_plans_nothing(server, connect):
    client = await connect(server.url)
    resumed = await reply_at_which_chapter(client, "第五章发生了什么")
    kind, _ = await settled(client, resumed)
    assert kind == "completion"
    assert not artifacts(client, resumed, "tool_plan")
    assert "第 5 章还没有写出来" in messages(client, resumed)[-1]


async def test_a_bare_number_typed_at_which_chapter_to_generate_is_the_target(server, connect):
    client = await connect(server.url)
    resumed = await reply_at_which_chapter(client, "4")
    kind, interrupt = await settled(client, resumed)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    assert interrupt["payload"]["plan"]["steps"][0]["args"]["to_chapter"] == 4


async def test_a_command_typed_at_a_confirmation_cancels_the_plan_says_so_and_runs(server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "/rollback 2")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    typed = await say(client, "/status", ack["threadId"])
    kind, _ = await settled(client, typed)
    assert kind == "completion"
    said = messages(client, typed)
    assert "已取消" in said[0] and "/status" in said[0]
    assert "3/4" in said[-1], "the typed command ran"
    assert snapshot(projects / PROJECT) == before


async def test_rollback_past_the_last_chapter_says_there_is_nothing_and_asks_no_confirmation(server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "/rollback 99")
    kind, _ = await settled(client, ack)
    assert kind == "completion", "nothing would be removed: nothing to confirm"
    assert "只有 3 章" in messages(client, ack)[-1] and "没有可回滚" in messages(client, ack)[-1]
    assert snapshot(projects / PROJECT) == before


async def test_resume_with_nothing_unfinished_says_so_without_asking_to_confirm(server, connect):
    client = await connect(server.url)
    ack = await say(client, "/resume")
    kind, _ = await settled(client, ack)
    assert kind == "completion"
    assert "没有未完成的生成" in messages(client, ack)[-1]


async def test_run_without_a_number_is_confirmed_in_a_whole_sentence(server, connect):
    client = await connect(server.url)
    ack = await say(client, "/run")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    assert "生成到大纲的最后一章" in interrupt["payload"]["prompt"], interrupt["payload"]["prompt"]


async def test_a_run_confirmation_and_its_plan_say_the_step_in_words_not_as_a_tool_call(server, connect):
    client = await connect(server.url)
    ack = await say(client, "/run 3")
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    step = interrupt["payload"]["plan"]["steps"][0]
    assert "生成到第 3 章" in step["summary"] and interrupt["payload"]["action"] == step["summary"], interrupt["payload"]
    [plan] = artifacts(client, ack, "tool_plan")  # what the canvas shows under 执行计划
    assert "生成到第 3 章" in plan["content"]["steps"][0]["summary"], plan["content"]


async def test_continuing_to_a_chapter_already_written_says_nothing_is_left_instead_of_offering_to_overwrite(
        server, connect, projects):
    client = await connect(server.url)
    before = snapshot(projects / PROJECT)
    ack = await say(client, "继续生成到第 2 章")
    kind, _ = await settled(client, ack)
    assert kind == "completion", "continue asks no overwrite question"
    assert "没有需要继续生成的" in messages(client, ack)[-1]
    assert snapshot(projects / PROJECT) == before


async def test_who_a_character_the_chapters_never_show_is_answered_from_the_character_sheet(server, connect):
    client = await connect(server.url)
    ack = await say(client, "反派是谁？")  # 顾川, the antagonist of characters.json, is in no chapter yet
    kind, _ = await settled(client, ack)
    assert kind == "completion", "the character sheet says who; there is nothing to ask"
    assert "顾川" in messages(client, ack)[-1] and "反派" in messages(client, ack)[-1]


async def test_where_a_character_the_chapters_never_show_is_now_is_answered_from_the_character_sheet(server, connect):
    client = await connect(server.url)
    ack = await say(client, "顾川现在在哪里？")  # 顾川 is in characters.json and in no chapter yet
    kind, _ = await settled(client, ack)
    assert kind == "completion", "the character sheet is what the book has on them; there is nothing to ask"
    reply = messages(client, ack)[-1]
    assert "顾川" in reply and "反派" in reply and "还没有出现" in reply, reply


@pytest.mark.parametrize("command, said", [("/run 9", ["大纲目前只有 4 章", "续写到第 9 章"]),
                                           ("/run 12", ["大纲目前只有 4 章", "超过项目上限 10 章", "生成到第 10 章"])])
async def test_run_past_the_outline_says_the_outline_is_extended_first_and_where_it_stops(server, connect, command, said):
    client = await connect(server.url)  # mentor_rift: an outline of 4 chapters, a limit of 10
    ack = await say(client, command)
    kind, interrupt = await settled(client, ack)
    assert kind == "interrupt" and interrupt["kind"] == "confirmation"
    prompt = interrupt["payload"]["prompt"]
    assert all(words in prompt for words in said), prompt


def describe_world(projects, description: str) -> None:
    """The author's world description of the test project, as `ng novel init --world` writes it."""
    settings = projects / PROJECT / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["world_description"] = description
    settings.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


async def test_asking_who_someone_only_the_world_description_names_quotes_it(start_server, projects, connect):
    # "海瑞是谁" of "海瑞之女海清漪…" said only that the book has no such character, as of a name never written.
    describe_world(projects, "云岭山中，两座剑派隔江相望。传说剑圣萧无涯曾在剑碑前悟道。")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)
    ack = await say(client, "萧无涯是谁？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert "传说剑圣萧无涯曾在剑碑前悟道" in reply and "林远" in reply, reply


async def test_asking_what_someone_does_quotes_the_world_description_not_meeting_passages(start_server, projects,
                                                                                          connect):
    # "what does Kofi do?" of "her brother Kofi works the night shift" was answered with scenes of whom he met.
    describe_world(projects, "云岭山中，两座剑派隔江相望。林远在山脚下的铁匠铺里打铁为生，沈青是他的师姐。")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)
    ack = await say(client, "林远是做什么的？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert "林远在山脚下的铁匠铺里打铁为生" in reply, reply


async def test_they_after_a_question_of_two_people_means_those_two_without_asking_who(server, connect):
    # "沈青川和韩秋雁是什么关系" then "他们后来怎么样了" asked "which one?" of the whole cast.
    client = await connect(server.url)
    first = await say(client, "林远和沈青是什么关系？")
    assert (await settled(client, first))[0] == "completion"
    ack = await say(client, "他们后来怎么样了？", first["threadId"])
    assert (await settled(client, ack))[0] == "completion", "他们 are the two just asked about"
    answer = artifacts(client, ack, "novel_answer")[-1]["content"]["answer"]
    assert "林远" in answer and "沈青" in answer, answer


async def test_asking_who_the_villain_is_of_a_book_without_one_says_no_one_is(start_server, connect, projects):
    # "谁是反派" of a book with no antagonist said "the book has no character called 反派".
    sheet = projects / PROJECT / "characters.json"
    cast = json.loads(sheet.read_text(encoding="utf-8"))
    cast["antagonist"] = None
    sheet.write_text(json.dumps(cast, ensure_ascii=False), encoding="utf-8")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)

    ack = await say(client, "谁是反派？")
    assert (await settled(client, ack))[0] == "completion"
    assert messages(client, ack)[-1].startswith(t("novel.chat_role_unheld", role="反派", cast="")), messages(client, ack)


async def test_asking_a_characters_age_answers_from_the_character_sheet_not_scenes(server, connect):
    # "林远多大了" was answered with quotes of whom he met; the sheet records his age.
    client = await connect(server.url)
    ack = await say(client, "苏微多大了？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert "19 岁" in reply and "characters.json" in reply and "〔" not in reply, reply


async def test_asking_about_a_place_only_the_world_json_names_quotes_its_geography(start_server, projects, connect):
    # "屯溪镇是什么地方" of a world.json whose geography names it said the book had nothing on it: only the
    # settings' world description was read, and 地方 was taken for a thing the answer had to name.
    world = projects / PROJECT / "world.json"
    data = json.loads(world.read_text(encoding="utf-8"))
    data["geography"] = "云岭山脉与青江两岸，翻过山梁是落霞镇，镇上有一座铸剑坊。"
    world.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)
    ack = await say(client, "落霞镇是什么地方？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert "翻过山梁是落霞镇" in reply, reply


async def test_asking_what_someone_wants_answers_from_the_sheet_and_the_world_description(start_server, projects,
                                                                                          connect):
    # "What does Victor Crane want?" quoted scenes of whom he met, not "a developer named Victor Crane wants the farm"
    describe_world(projects, "云岭山中，两座剑派隔江相望。苏微一心想找回母亲遗失的玉佩。")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)
    ack = await say(client, "苏微想要什么？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert "守护剑碑" in reply and "苏微一心想找回母亲遗失的玉佩" in reply and "〔" not in reply, reply


async def test_she_after_a_question_the_sheet_answered_means_the_one_asked_about(server, connect):
    # "苏微多大了？" then "她的性格怎么样？" asked which character was meant: the sheet's answer set no reference
    client = await connect(server.url)
    first = await say(client, "苏微多大了？")
    assert (await settled(client, first))[0] == "completion"
    ack = await say(client, "她的性格怎么样？", first["threadId"])
    kind, _ = await settled(client, ack)
    assert kind == "completion" and "苏微" in messages(client, ack)[-1], messages(client, ack)


@pytest.mark.parametrize("question", ["谁是灭门案的真凶？", "凶手是谁？"])
async def test_asking_who_the_culprit_is_names_the_one_the_world_description_names(start_server, projects, connect,
                                                                                   question):
    # "谁是灭门案的真凶" of "…周怀安才是灭门案的真凶" quoted the description without saying who; "凶手是谁" said the
    # book had no character called 凶手.
    describe_world(projects, "云岭山中，两座剑派隔江相望。林远一路追查，发现师姐沈青才是灭门案的真凶。")
    server = await start_server(novel_projects_dir=projects)
    client = await connect(server.url)
    ack = await say(client, question)
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert reply.startswith(t("novel.chat_culprit_from_world", name="沈青", quote="")[:-2]), reply


async def test_asking_where_the_story_takes_place_answers_from_the_world_setting(server, connect, projects):
    # "where does the story take place?" said nothing in the book matched it.
    world = json.loads((projects / PROJECT / "world.json").read_text(encoding="utf-8"))
    client = await connect(server.url)
    ack = await say(client, "故事发生在哪里？")
    assert (await settled(client, ack))[0] == "completion"
    reply = messages(client, ack)[-1]
    assert world["world_name"] in reply and "world.json" in reply, reply
