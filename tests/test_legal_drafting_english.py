"""Drafting for an English user (LOCALE=en): every sentence they read names the document and its fields in
English; the document itself stays Chinese, and they are told so."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from datetime import date

from core.i18n import current_locale, set_locale, t
from core.legal.templates import PLACEHOLDER, TEMPLATES, extract_fields
from tests.support.legal import GraphRunner, knowledge, legal_index  # noqa: F401  (fixtures)

CJK = re.compile(r"[\u3400-\u9fff]")
LEASE = "Draft a lease: landlord Wang Wu, tenant Li Si, 3000 yuan a month"
LOAN = "Please draft a loan agreement: Zhang Wei lent Chen Jing 20,000 yuan"


@contextlib.contextmanager
def english() -> Iterator[None]:
    before = current_locale()
    set_locale("en")
    try:
        yield
    finally:
        set_locale(before)


def test_every_template_names_itself_and_its_fields_in_both_languages():
    for template in TEMPLATES.values():
        names = [f"legal.template_{template.id}"] + [f"legal.field_{template.id}_{f.key}" for f in template.fields]
        for key in names:
            assert CJK.search(t(key, locale="zh")), key
            assert not CJK.search(t(key, locale="en")), key


async def test_an_english_lease_request_is_drafted_not_sent_back_to_be_asked_in_chinese(knowledge):
    with english():
        run = await GraphRunner(knowledge).ask(LEASE)
    assert [e["agent"] for e in run.of("agent-selected")] == ["document_draft"]
    assert run.next == ("ask_fields",)


async def test_an_english_user_is_asked_for_missing_fields_in_english(knowledge):
    with english():
        run = await GraphRunner(knowledge).ask(LOAN)
    questions = run.state["pending"]
    assert [q["id"] for q in questions] == ["term"]
    assert "loan term" in questions[0]["question"] and not CJK.search(questions[0]["question"]), questions
    assert not CJK.search(questions[0]["label"])
    logs = [e["message"] for e in run.of("tool:log")]
    assert logs and not [line for line in logs if CJK.search(line)], logs


async def test_an_english_user_reads_the_finished_draft_in_english_and_is_told_the_document_is_chinese(knowledge):
    with english():
        runner = GraphRunner(knowledge)
        await runner.ask(LOAN)
        run = await runner.answer({"term": "one year"})
    said = run.answer.replace(PLACEHOLDER, "")
    assert not CJK.search(said), said
    assert "loan agreement" in said and "in Chinese" in said and "date of signing" in said
    assert "借款合同" in run.artifact("legal_document")["content"]["markdown"]


def test_a_sum_by_the_month_in_a_lease_request_is_the_rent():
    lease = TEMPLATES["lease_contract"]
    assert extract_fields(lease, LEASE)["rent"] == "3000元"
    assert extract_fields(lease, "帮我起草租房合同，房东赵六，租客孙七，每月2500元")["rent"] == "2500元"


async def test_a_document_left_incomplete_names_its_missing_fields_as_the_user_reads_them(knowledge):
    runner = GraphRunner(knowledge)
    await runner.ask("帮我写一份借款合同，张三借给李四五万元")
    run = await runner.answer("use defaults")
    document = run.artifact("legal_document")["content"]
    assert document["missingFields"] == ["term"]
    assert document["missingLabels"] == ["借款期限"]


async def test_how_to_answer_a_drafting_question_is_said_in_the_users_language(knowledge):
    runner = GraphRunner(knowledge)
    with english():
        await runner.ask(LOAN)
    english_format = (await runner.graph.aget_state(runner.config)).tasks[0].interrupts[0].value["payload"]["answerFormat"]
    chinese = GraphRunner(knowledge)
    await chinese.ask("帮我写一份借条，王芳借给我三千元")
    chinese_format = (await chinese.graph.aget_state(chinese.config)).tasks[0].interrupts[0].value["payload"]["answerFormat"]
    assert not CJK.search(english_format.replace(PLACEHOLDER, "")) and "use defaults" in english_format
    assert CJK.search(chinese_format) and "use defaults" in chinese_format


async def test_an_answer_in_english_is_written_into_the_chinese_document_in_its_form(knowledge):
    with english():
        runner = GraphRunner(knowledge)
        await runner.ask(LEASE)
        run = await runner.answer({"address": "Room 302, 8 Jianguo Road, Beijing", "term": "one year"})
    markdown = run.artifact("legal_document")["content"]["markdown"]
    assert "租赁期限：1年" in markdown and "one year" not in markdown, markdown


def test_an_english_lease_request_carries_its_address_and_its_period_into_the_lease():
    fields = extract_fields(TEMPLATES["lease_contract"],
                            "Draft a lease: landlord John Smith, tenant Li Wei, the flat at Room 301, 12 Jianguo Road, "
                            "Chaoyang District, Beijing, rent 5000 yuan a month, from 1 March for a year",
                            today=date(2026, 11, 27))
    assert fields["address"] == "Room 301, 12 Jianguo Road, Chaoyang District, Beijing"
    assert fields["term"] == "2027年3月1日至2028年2月29日"  # the next 1 March, a year less a day on


def test_an_english_iou_due_next_monday_or_at_the_end_of_next_month_is_written_as_that_date():
    iou, friday = TEMPLATES["iou"], date(2026, 11, 27)
    monday = extract_fields(iou, "Draft an IOU: I lent Zhang San 5000 yuan, he pays me back by next Monday", friday)
    month_end = extract_fields(iou, "Write an IOU: Li Lei borrowed 3000 yuan from me, due at the end of next month",
                               friday)
    assert (monday["term"], month_end["term"]) == ("2026年11月30日前", "2026年12月31日")


async def test_a_finished_draft_ends_with_a_drafts_disclaimer_not_the_answers_one(knowledge):
    runner = GraphRunner(knowledge)
    await runner.ask("帮我写一份借条，王芳借给我三千元")
    run = await runner.answer("use defaults")
    assert run.answer.rstrip().endswith(t("legal.draft_disclaimer")) and t("legal.disclaimer") not in run.answer
    assert "律师" in t("legal.draft_disclaimer") and "lawyer" in t("legal.draft_disclaimer", locale="en")


async def test_an_english_user_who_lent_the_money_is_asked_for_their_own_name_as_the_lender(knowledge):
    with english():
        run = await GraphRunner(knowledge).ask("Write an IOU for me: I lent Tom Li 3000 yuan, to be repaid by May 1, 2027")
        asked = {q["id"]: q["question"] for q in run.state["pending"]}
        assert asked.get("lender") == t("legal.ask_own_field", label=t("legal.field_iou_lender"))
    assert "your name" in asked["lender"]


def test_an_english_iou_that_says_the_users_name_names_the_lender():
    fields = extract_fields(TEMPLATES["iou"], "My name is Anna Wu. Draft an IOU: I lent Tom Li 3000 yuan")
    assert (fields["lender"], fields["borrower"]) == ("Anna Wu", "Tom Li")


async def test_an_english_demand_letter_request_is_drafted_from_its_story_and_asks_for_the_senders_own_name(knowledge):
    with english():
        run = await GraphRunner(knowledge).ask("Draft a demand letter to my landlord who kept my deposit of 5000 yuan")
        own_name = t("legal.ask_own_field", label=t("legal.field_lawyer_letter_client"))
    assert run.state["draft"]["fields"]["facts"] == "My landlord kept my deposit of 5000 yuan."
    asked = {q["id"]: q["question"] for q in run.state["pending"]}
    assert "facts" not in asked and asked["client"] == own_name


def test_an_english_demand_letter_names_the_debtor_and_keeps_the_demand_in_the_users_words():
    template = TEMPLATES["lawyer_letter"]
    fields = extract_fields(template, "Write a demand letter to Zhang San, he owes me 3000 yuan and refuses to pay. "
                                      "I want him to pay me back within 10 days.")
    letter = template.render(fields)
    assert "致：Zhang San" in letter and "He owes me 3000 yuan and refuses to pay." in letter
    assert "Pay me back within 10 days." in letter and "请贵方Pay" not in letter, letter


def test_an_english_story_in_the_chinese_demand_letter_is_marked_as_the_users_untranslated_words():
    template = TEMPLATES["lawyer_letter"]
    letter = template.render(extract_fields(template, "Write a demand letter to Zhang San, he owes me 3000 yuan."))
    assert "“He owes me 3000 yuan.”（当事人原文，未译成中文）" in letter, letter


def test_an_english_demand_is_read_from_the_sentence_that_asks_not_from_the_story():
    fields = extract_fields(TEMPLATES["lawyer_letter"], "Write a demand letter to my landlord Zhang San. He kept my deposit "
                                                        "and refuses to return it. I want him to return it within 7 days.")
    assert fields["demands"] == "Return it within 7 days.", fields


async def test_an_english_user_is_told_which_parts_of_the_chinese_letter_are_still_in_their_words(knowledge):
    with english():
        runner = GraphRunner(knowledge)
        await runner.ask("Write a demand letter to Zhang San, he owes me 3000 yuan and refuses to pay")
        run = await runner.answer({"client": "Anna Wu", "demands": "pay me back within 10 days"})
        told = t("legal.field_lawyer_letter_facts")
    assert "not yet in Chinese" in run.answer and told in run.answer, run.answer
    assert "demand letter" in run.answer and run.artifact("legal_document")["title"] == "催告函", run.answer


async def test_an_english_field_question_reads_as_a_sentence_not_a_quoted_label(knowledge):
    with english():
        run = await GraphRunner(knowledge).ask(LOAN)
    [question] = run.state["pending"]
    assert question["question"] == f"Please give the {question['label']}.", question
