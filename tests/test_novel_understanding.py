"""Reading chat messages without a model: commands, chapter numbers, yes/no, intents by rule and by example."""

from __future__ import annotations

import pytest

from graphs.novel import understanding as read


@pytest.mark.parametrize("text, number", [("继续生成到第三章", 3), ("写到第 12 章", 12), ("generate chapter 5", 5),
                                          ("第二十一章发生了什么", 21), ("继续生成", None)])
def test_the_target_chapter_is_read_in_digits_or_chinese_numerals(text, number):
    assert read.target_chapter(text) == number


def test_a_slash_command_is_split_into_name_and_arguments():
    command = read.parse_slash("/prefs add style 多写对话")
    assert command.name == "/prefs" and command.args == ["add", "style", "多写对话"] and command.known
    assert not read.parse_slash("/frobnicate").known
    assert read.parse_slash("不是命令") is None


@pytest.mark.parametrize("answer, yes", [(True, True), (False, False), ("是", True), ("y", True), ("好的。", True),
                                         ("不要", False), ("no", False), ({"confirm": "确认"}, True)])
def test_a_confirmation_reply_is_read_as_yes_or_no(answer, yes):
    assert read.is_yes(answer) is yes


@pytest.mark.parametrize("text, intent", [("继续生成到第 3 章", "generate"), ("他和师父关系什么时候变了？", "knowledge"),
                                          ("我希望以后对话多一些", "preference"), ("你好", "other"),
                                          ("你能做什么", "other"), ("有没有写到下雨", "knowledge"),
                                          ("书里是不是写过枪", "knowledge"), ("能不能写到第五章", "generate"),
                                          ("n", "other")])
def test_clear_messages_are_classified_by_rules(text, intent):
    assert read.intent_by_rules(text) == intent


def test_a_message_no_rule_covers_goes_to_the_closest_example_intent():
    assert read.intent_by_rules("把故事往后推进一些") is None
    assert read.intent_by_examples("把故事往后推进一些") == "generate"


def test_who_is_asks_about_a_name_but_not_about_a_description():
    assert read.person_asked_about("张三是谁？") == "张三"
    assert read.person_asked_about("Who is Lu Ming?") == "Lu Ming"
    assert read.person_asked_about("Who is the lighthouse keeper?") is None
    assert read.person_asked_about("怀表是谁的？") is None  # whose watch: a thing, not a person
