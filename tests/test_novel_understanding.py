"""Reading chat messages without a model: commands, chapter numbers, yes/no, intents by rule and by example."""

from __future__ import annotations

import pytest

from core.i18n import t
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


@pytest.mark.parametrize("text", ["现在写到第几章了", "写了多少字了？", "How far along is the book?",
                                  "how many chapters are written?"])
def test_asking_how_far_the_book_is_is_a_question_not_an_order_to_write(text):
    assert read.asks_progress(text) and read.intent_by_rules(text) == "knowledge"


@pytest.mark.parametrize("text, thing", [("沈青禾知道顾远舟勾结盐帮了吗", "顾远舟勾结盐帮"),
                                         ("Does Doyle know about the coded messages yet?", "the coded messages"),
                                         ("has Priya found out that the crew left?", "the crew left"),
                                         ("林远知道沈青了吗", None), ("who is Priya?", None)])
def test_what_a_question_asks_whether_someone_knows_is_read_in_its_own_words(text, thing):
    assert read.known_thing(text, ["沈青禾", "顾远舟", "林远", "沈青", "Captain Doyle", "Priya Nair"]) == thing


def test_a_message_no_rule_covers_goes_to_the_closest_example_intent():
    assert read.intent_by_rules("把故事往后推进一些") is None
    assert read.intent_by_examples("把故事往后推进一些") == "generate"


def test_who_is_asks_about_a_name_but_not_about_a_description():
    assert read.person_asked_about("张三是谁？") == "张三"
    assert read.person_asked_about("Who is Lu Ming?") == "Lu Ming"
    assert read.person_asked_about("Who is the lighthouse keeper?") is None
    assert read.person_asked_about("怀表是谁的？") is None  # whose watch: a thing, not a person


@pytest.mark.parametrize("text, kind", [
    ("林远其实很怕水", "character_development"),
    ("主角的性格应该更冷静一些", "character_development"),
    ("结局不要太圆满", "plot_preference"),
    ("I prefer a darker tone", "tone"),
    ("以后每章写长一点", "writing_style"),
])
def test_a_preference_is_saved_under_what_it_is_about(text, kind):
    assert read.preference_type(text, ["林远", "沈青"]) == kind


@pytest.mark.parametrize("text", ["讲讲林远这个人", "介绍一下反派", "Tell me about the villain"])
def test_asking_to_be_told_about_someone_is_a_question_about_the_book(text):
    assert read.intent_by_rules(text) == "knowledge"


@pytest.mark.parametrize("text, name", [("讲讲林远这个人", "林远"), ("介绍一下沈青", "沈青"), ("tell me about Mara Reid", "Mara Reid")])
def test_asking_to_be_told_about_a_person_names_that_person(text, name):
    assert read.person_asked_about(text) == name


CAST = ["Elsie Kerr", "Mara Carrow", "Ines Finch", "Ines Vane"]


@pytest.mark.parametrize("text, named", [
    ("who is mara", ["Mara Carrow"]),  # a first name, in lower case
    ("tell me about elsie kerr", ["Elsie Kerr"]),
    ("How are Ines Finch and Elsie related?", ["Elsie Kerr", "Ines Finch"]),
    ("who is Ines", []),  # two characters are called Ines: the word names neither alone
    ("Did Kerr ever leave the harbour?", ["Elsie Kerr"]),
])
def test_an_english_character_is_recognised_by_part_of_the_name_in_any_letter_case(text, named):
    assert read.names_in(text, CAST) == named


EVERYDAY_CAST = ["Will", "Mara Carrow", "May Finch", "Elsie Kerr"]


def test_a_one_word_name_that_is_an_everyday_english_word_is_a_name_only_written_as_one():
    assert read.names_in("will it rain in chapter 3?", EVERYDAY_CAST) == []
    assert read.names_in("Will it rain in chapter 3?", EVERYDAY_CAST) == []  # a capital opening a sentence
    assert read.names_in("Where is Will now?", EVERYDAY_CAST) == ["Will"]
    assert read.names_in("Will Mara come back?", EVERYDAY_CAST) == ["Mara Carrow"]  # a subject follows: an auxiliary
    assert read.names_in("Will came to the inn.", EVERYDAY_CAST) == ["Will"]  # the book's own sentence


def test_a_word_of_a_name_that_is_an_everyday_english_word_is_a_name_only_written_as_one():
    assert read.names_in("may i ask where Elsie went", EVERYDAY_CAST) == ["Elsie Kerr"]
    assert read.names_in("Did May leave the harbour?", EVERYDAY_CAST) == ["May Finch"]


def test_a_name_that_is_an_everyday_noun_is_not_the_character_after_an_article():
    # "the rose" asked of the book was taken for a question about Rose Hale.
    cast = ["Rose Hale", "Mark", "Elsie Kerr"]
    assert read.names_in("Did the rose bloom again?", cast) == []
    assert read.names_in("Is there a deep mark on the door?", cast) == []
    assert read.names_in("where is rose now? who is mark", cast) == ["Rose Hale", "Mark"]  # no article: the names
    assert read.names_in("林远和师父去了哪里", ["林远"]) == ["林远"]  # a Chinese name runs into the next word


def test_a_first_name_two_characters_share_offers_both():
    assert read.names_like("ines", CAST) == ["Ines Finch", "Ines Vane"]
    assert read.names_like("Zed", CAST) == []


@pytest.mark.parametrize("text, role", [("Who is the villain?", "antagonist"), ("who's the main character", "Protagonist"),
                                        ("Who is the protagonist?", "protagonist"), ("男主是谁？", "主角")])
def test_who_is_asked_of_a_role_in_the_readers_own_words(text, role):
    assert read.is_role(read.person_asked_about(text, described=True), role)
    assert not read.is_role(read.person_asked_about("who is the hero's master?", described=True), role)


@pytest.mark.parametrize("question", ["Where is Elsie Kerr now?", "林远现在在哪里？"])
def test_where_someone_is_now_is_answered_from_the_last_scene_that_shows_them(question):
    from graphs.novel.chat import _ranked_passages

    passages = [{"chapter_number": c, "scene_number": s, "text": f"Elsie Kerr 林远 came to place {c}.{s}."}
                for c, s in ((1, 1), (1, 2), (2, 1), (2, 3))]
    turn = {"question": question, "subject": "Elsie Kerr" if "Elsie" in question else "林远", "passages": passages}
    assert _ranked_passages(turn)[0]["text"].endswith("2.3.")


def test_where_someone_is_now_is_not_answered_from_a_later_scene_that_only_recalls_them():
    # A chapter-2 scene recalling "Mara came to the ferry" was cited as where Mara is now.
    from graphs.novel.chat import _ranked_passages
    from schemas.novel import ChapterPlan, ScenePlan

    plans = {c: ChapterPlan(chapter_number=c, chapter_title=f"Chapter {c}", scenes=[
        ScenePlan(scene_number=1, location="the inn", characters=people, purpose="p", key_actions=["a"],
                  estimated_words=300, scene_type="dialogue", intensity="low")])
        for c, people in ((1, ["Tobiah", "Mara Reid"]), (2, ["Tobiah"]))}

    class Files:
        def has_plan(self, number):
            return number in plans

        def load_plan(self, number):
            return plans[number]

    passages = [{"chapter_number": 1, "scene_number": 1, "text": "Tobiah and Mara Reid came to the inn."},
                {"chapter_number": 2, "scene_number": 1, "text": "They remembered: Mara Reid came to the ferry."}]
    turn = {"question": "where is Mara now?", "subject": "Mara Reid", "passages": passages}
    assert _ranked_passages(turn, Files())[0]["chapter_number"] == 1


def test_where_someone_is_now_reads_each_chapter_plan_once_however_many_passages_it_has():
    # Each passage of "where is X now" read and parsed its chapter's plan again: slow on a long book.
    from graphs.novel.chat import _ranked_passages
    from schemas.novel import ChapterPlan, ScenePlan

    read_plans = []

    class Files:
        def has_plan(self, number):
            return True

        def load_plan(self, number):
            read_plans.append(number)
            return ChapterPlan(chapter_number=number, chapter_title=f"Chapter {number}", scenes=[
                ScenePlan(scene_number=n, location="the inn", characters=["Mara Reid"], purpose="p", key_actions=["a"],
                          estimated_words=300, scene_type="dialogue", intensity="low") for n in (1, 2, 3)])

    passages = [{"chapter_number": c, "scene_number": n, "text": f"Mara Reid came to the inn ({c}.{n})."}
                for c in (1, 2) for n in (1, 2, 3)]
    _ranked_passages({"question": "where is Mara now?", "subject": "Mara Reid", "passages": passages}, Files())
    assert sorted(read_plans) == [1, 2]


def test_an_answers_quotes_read_each_chapter_once_however_many_they_are():
    # verify() read and parsed a chapter file again for each quoted passage: slow on a long book.
    from graphs.novel.chat import verify
    from schemas.novel import GeneratedChapter, GeneratedScene

    read_chapters = []

    class Files:
        def has_chapter(self, number):
            return True

        def load_chapter(self, number):
            read_chapters.append(number)
            return GeneratedChapter.assemble(number, f"Chapter {number}", [
                GeneratedScene.from_content(n, f"Mara Reid came to the inn ({number}.{n}).") for n in (1, 2, 3)])

    claims = [(c, f"Mara Reid came to the inn ({c}.{n}).", n) for c in (1, 2) for n in (1, 2, 3)]
    evidence, dropped = verify(Files(), claims)
    assert (len(evidence), dropped) == (6, 0)
    assert sorted(read_chapters) == [1, 2]


@pytest.mark.parametrize("question, asks", [
    ("When did Elsie Kerr and Mara Carrow's friendship change?", True),
    ("when did mara turn against elsie", True),
    ("Did Elsie ever forgive Mara?", True),
    ("What became of Mara and Elsie later?", True),
    ("林远和师父的关系什么时候变了？", True),
    ("Where did Elsie Kerr meet Mara Carrow?", False),
    ("林远在哪里遇到沈青？", False),
])
def test_a_question_about_when_a_relation_changed_is_answered_with_where_it_turned(question, asks):
    from graphs.novel.chat import compose_offline
    from schemas.novel_chat import Evidence

    turn = {"question": question, "subject": "Elsie Kerr", "other": "Mara Carrow"}
    cited = Evidence(chapter_number=2, scene_number=1, quote="Mara no longer trusted Elsie.", verified=True)
    who = t("novel.chat_pair", first="Elsie Kerr", second="Mara Carrow")
    turned = t("novel.chat_answer_turn", who=who, chapter=2, scene=1, quote=cited.quote)
    assert (turned in compose_offline(turn, [cited])) is asks


def test_an_english_question_about_a_thing_is_looked_up_by_that_things_word_in_any_ending():
    # With no word to look for, "will it rain?" was taken for a question about a person ("which character?").
    assert read.topic_words("will it rain?") == ["rain"]
    assert read.topic_words("Was the sea spirit ever mentioned?") == ["sea", "spirit"]
    assert read.mentions("It rained all night.", "rain") and not read.mentions("They were training.", "rain")


@pytest.mark.parametrize("description, named", [
    ("a town called Brindle where a boy named Ash lives with an old keeper called Will", ["Ash", "Will"]),
    ("一座叫青石的小镇，住着名叫阿福的少年和他的师父沈墨", ["阿福", "沈墨"]),
])
def test_a_place_the_description_names_is_not_taken_for_a_character(description, named):
    assert [c.name for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    ("海边的少女阿青，和青梅竹马顾川一起寻找藏宝图", [("阿青", "少女"), ("顾川", "青梅竹马")]),
    ("高三学生陈默和同桌李想调查校园怪谈，她的邻居王婶知道些什么", [("陈默", "学生"), ("李想", "同桌"), ("王婶", "邻居")]),
    # at the start of a clause, where jieba's dictionary tag (邻居 v, 侦探 v) alone reads a verb and its object
    ("少年沈墨在镇上长大，邻居王大山常来帮忙", [("沈墨", "少年"), ("王大山", "邻居")]),
    ("侦探周默接手了一桩旧案", [("周默", "侦探")]),
    # jieba cuts 之 / 女林 / 素素 and reads 买办 a verb: the heroine lost her surname and the comprador his place
    ("清末福建茶商之女林素素接手家中濒临破产的茶庄，与洋行买办周怀远周旋", [("林素素", "茶商之女"), ("周怀远", "买办")]),
])
def test_a_chinese_name_set_right_after_who_they_are_is_a_character(description, named):
    # "青梅竹马顾川" left 顾川 out of the cast, though "the harbourmaster, Corin," was one.
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    # jieba glued 满 to the 给 after it (满给, a verb): the boy was called 杜小
    ("渔夫之子杜小满给他们带路", [("杜小满", "渔夫之子")]),
    ("邻居苏晴给他送来一封信", [("苏晴", "邻居")]),
    # jieba tags 少东家 an idiom, not a noun of a person
    ("途中结识了镖局少东家韩秋雁", [("韩秋雁", "少东家")]),
])
def test_a_chinese_name_before_to_or_for_someone_is_read_whole(description, named):
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, name", [
    ("少女阿青的师父沈墨教她剑法", "沈墨"),
    ("少年林远，师父沈墨教剑法", "沈墨"),
    ("名叫林远的青年，邻居苏晴常来找他", "苏晴"),  # an adverb (常来) opens the predicate
])
def test_a_chinese_name_ends_where_the_verb_after_it_begins(description, name):
    # "师父沈墨教她…" named the master 沈墨教.
    assert name in [c.name for c in read.characters_in_description(description)]


@pytest.mark.parametrize("description, name", [
    ("江湖之中，一个叫周行的剑客为师父报仇", "周行"),  # 剑客 is a person, though 剑 is a thing
    ("一位叫林默的书生进京赶考", "林默"),  # jieba's guess glued 叫 to the name (叫林默)
])
def test_someone_called_x_who_is_said_to_be_a_role_is_a_character(description, name):
    # "一个叫周行的剑客" found no character: the 剑 of 剑客 was read as "a sword called 周行".
    assert [c.name for c in read.characters_in_description(description)] == [name]


def test_a_name_ends_before_but_and_her_after_a_verb_is_not_the_doers():
    # "车间主任老郑却总找她的麻烦" made a woman named 老郑却: 却 was read into the name, 她的 as his.
    people = read.characters_in_description("工友小陈总帮着阿芳，车间主任老郑却总找她的麻烦")
    assert [(c.name, c.gender) for c in people if c.said_as == "车间主任"] == [("老郑", None)]


@pytest.mark.parametrize("description, named", [
    ("八十年代的东北小城，车间主任老郑总找下岗女工沈秋菱的麻烦", [("老郑", "车间主任"), ("沈秋菱", "下岗女工")]),
    ("厂长老周看中了技术员小陈", [("老周", "厂长"), ("小陈", "技术员")]),
    ("她的师傅老郑快退休了", [("老郑", "师傅")]),
])
def test_a_familiar_name_after_who_someone_is_is_the_surname_and_its_lao_or_xiao(description, named):
    # "车间主任老郑总找…" lost 老郑, the book's antagonist: 总 was read into the name (老郑总找), and 老周, being
    # in jieba's dictionary, was taken for a word.
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


def test_an_idiom_after_a_two_character_name_is_not_read_into_it():
    # "女儿小燕相依为命" named the daughter 小燕相.
    people = read.characters_in_description("录像厅老板刘二和女儿小燕相依为命")
    assert [c.name for c in people] == ["刘二", "小燕"]


@pytest.mark.parametrize("description, name", [
    ("沈秋菱是纺织厂的挡车工，丈夫常年在外", "沈秋菱"),
    ("江南烟雨中，苏晚晴撑伞走过石桥", "苏晚晴"),
])
def test_a_chinese_name_opening_a_clause_before_its_verb_is_a_character(description, name):
    # "沈秋菱是纺织厂的挡车工" had no cast: only a name after 名叫 or a word for someone was read.
    assert [c.name for c in read.characters_in_description(description)] == [name]


@pytest.mark.parametrize("description", ["王朝覆灭后，天下大乱", "高山上有一座庙", "白天他睡觉，夜里出门", "小时候他在海边长大"])
def test_a_common_word_opening_a_clause_is_no_character(description):
    assert read.characters_in_description(description) == []


@pytest.mark.parametrize("description, name", [
    ("名叫李明远行到北方，寻找失散的妹妹", "李明远"),  # 远行 and 行到 both verbs: 远 is a name's character
    ("名叫林远走进来", "林远"),  # 走进 and 进来 both verbs, but 走 makes few names
])
def test_a_three_character_name_is_read_when_a_verb_follows_it_too(description, name):
    # "名叫李明远行到北方" named 李明: jieba's cut 远行 decided, not which reading leaves a verb.
    assert [c.name for c in read.characters_in_description(description)] == [name]


@pytest.mark.parametrize("description", ["一个少年行走江湖，寻找失散的妹妹", "哥哥每天上山砍柴", "一个男孩遇见了会说话的猫"])
def test_what_someone_does_after_the_word_for_them_is_not_taken_for_a_name(description):
    # "一个少年行走江湖" made a protagonist called 行走: any two characters after 少年 / 哥哥 were a name.
    assert read.characters_in_description(description) == []


def test_a_named_mentor_and_rival_are_not_among_the_things_every_scene_recalls():
    # Each scene of this book read "their minds were on the kingdom, the mentor Aldric, the rival Kael…":
    # the mentor and the rival, named with two words, were taken for things the story is about.
    description = ("In the kingdom of Ashvale, a young smith named Tess Corran trains under her mentor Aldric Venn, "
                   "while her rival Kael Morrow seeks the lost crown.")
    assert read.key_things(description) == ["the kingdom", "the lost crown"]


@pytest.mark.parametrize("description, things", [
    ("少女阿青和师父沈墨一起寻找一张藏宝图", ["藏宝图"]),
    ("A clockmaker named Ada and her apprentice Pell search the fog city for a missing gear.",
     ["the fog city", "a missing gear"]),
    # every scene of this book read "their minds were on a storm-battered and a drowned sailor"
    ("A lighthouse keeper's daughter on a storm-battered Cornish island finds letters from a drowned sailor",
     ["a storm-battered Cornish island", "a drowned sailor"]),
])
def test_the_things_a_description_is_about_are_read_without_its_people(description, things):
    assert read.key_things(description) == things


def test_he_or_she_after_asking_about_someone_of_unknown_gender_means_that_person():
    from graphs.novel.chat import pronoun_references

    # "顾星河是谁？" then "他现在在哪？" asked "which one?" when the sheet left 顾星河's gender unknown.
    assert pronoun_references([("顾星河", "未知")]) == {"他": "顾星河", "她": "顾星河"}
    # one of a known gender keeps the pronoun that is theirs ("李想和苏微": 她 is 苏微, 他 the other)
    assert pronoun_references([("苏微", "女"), ("李想", "unknown")]) == {"她": "苏微", "他": "李想"}


@pytest.mark.parametrize("question, quote", [
    ("韩舟和王婶什么时候决裂的？", "王婶遇到沈墨"),
    ("When did Elsie Kerr and Mara Carrow fall out?", "Elsie Kerr and Tobiah came to the inn."),
])
def test_a_passage_that_tells_no_change_is_not_called_the_turn_of_a_relation(question, quote):
    from graphs.novel.chat import compose_offline
    from schemas.novel_chat import Evidence

    # "韩舟和王婶什么时候决裂的" was answered "第 1 章第 1 场出现转折——「王婶遇到沈墨」": a meeting of others.
    first, second = ("王婶", "韩舟") if "王婶" in quote else ("Elsie Kerr", "Mara Carrow")
    turn = {"question": question, "subject": first, "other": second}
    who = t("novel.chat_pair", first=first, second=second)
    answer = compose_offline(turn, [Evidence(chapter_number=1, scene_number=1, quote=quote, verified=True)])
    assert answer.splitlines()[0] == t("novel.chat_answer_no_turn", who=who), answer


@pytest.mark.parametrize("description, name", [
    ("The ship's mind, called HALden, claims she has been asleep for a century.", "HALden"),
    ("A drifter called Rook swears that she saw the lights over the marsh.", "Rook"),
    ("一个名叫阿福的孩子说，她是山里的巫婆。", "阿福"),
])
def test_a_pronoun_in_what_someone_says_does_not_tell_the_speakers_gender(description, name):
    # "HALden claims she has been asleep" made HALden a woman: the "she" is in what is claimed, anyone's.
    person = next(c for c in read.characters_in_description(description) if c.name == name)
    assert person.gender is None


def test_a_master_of_a_guild_is_a_post_not_the_protagonists_master():
    # "the guild master, Anselm" made the hero call Anselm "master" and Anselm call the hero "apprentice".
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    description = "Engineer Priya Nair keeps the docks running. The guild master, Anselm, schemes to sell the station."
    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description, "language": "en"}))
    anselm = next(c for c in [cast.antagonist, *cast.supporting_characters] if c.name == "Anselm")
    assert cast.protagonist.relationships["Anselm"] != "master"
    assert anselm.relationships["Priya Nair"] != "apprentice"


def test_her_master_is_still_the_protagonists_master():
    person = read.characters_in_description("A girl named Lio trains under her master Anselm.")[1]
    assert person.said_as == "master"


@pytest.mark.parametrize("description, things", [
    ("On a derelict mining station orbiting Ceres, the engineer Priya Nair wakes to find the crew gone and the "
     "reactor failing.", ["a derelict mining station", "the crew", "the reactor"]),
    ("The sea keeps a secret, and an old clockmaker searches the flooded archive for the stolen map.",
     ["the sea", "a secret", "an old clockmaker", "the flooded archive"]),
])
def test_an_english_thing_ends_at_its_head_noun(description, things):
    assert read.key_things(description) == things


@pytest.mark.parametrize("subject, passages, quoted", [
    ("Priya Nair", ["Wren Carrow mends the pump on the lower deck.", "Priya climbs the ladder to the reactor."],
     ["Priya climbs the ladder to the reactor."]),
    ("沈青禾", ["周伯在盐帮码头卸货。"], []),
])
def test_who_is_the_protagonist_quotes_only_passages_that_name_the_protagonist(subject, passages, quoted):
    # "Who is the protagonist?" was answered with a passage about whoever the protagonist met.
    from graphs.novel.chat import _ranked_passages

    turn = {"question": "Who is the protagonist?", "subject": subject,
            "passages": [{"chapter_number": 1, "scene_number": n, "text": text} for n, text in enumerate(passages, 1)]}
    assert [p["text"] for p in _ranked_passages(turn)] == quoted


@pytest.mark.parametrize("description, name, post", [
    ("少女沈青禾在盐帮长大，盐帮帮主顾远舟暗中勾结官府。", "顾远舟", "帮主"),
    ("船长林涛带着水手出海。", "林涛", "船长"),
])
def test_a_chinese_name_said_with_a_post_is_a_character_by_that_post(description, name, post):
    # "盐帮帮主顾远舟" named no one: jieba cut it 帮帮 / 主顾, and the villain the author named was replaced.
    assert any(c.name == name and c.said_as == post for c in read.characters_in_description(description))


def test_someone_brought_in_by_a_calling_jieba_cuts_in_two_is_a_character():
    # "采茶女苏晚晴" named no one (jieba cuts 采茶 / 女): the heroine was dropped and a side character led the book.
    person = read.characters_in_description("江南茶乡，采茶女苏晚晴继承了祖母的百年茶庄。")[0]
    assert (person.name, person.said_as, person.gender) == ("苏晚晴", "采茶女", "女")


@pytest.mark.parametrize("description, name, gender", [
    ("落魄书生周慕白来到京城。茶商顾德安想骗他的钱。慕白不善言辞，他却看穿了骗局。", "周慕白", "男"),
    ("猎户林晚和师父赵大成住在山中。赵大成年迈多病。阿晚十六岁那年，她独自下山。", "林晚", "女"),
    ("The story follows Dr. Helen Okafor. When miners fall ill of a strange fever, Helen hides the samples. She trusts no one.",
     "Helen Okafor", "female"),
])
def test_a_character_called_by_a_shorter_name_later_is_one_person(description, name, gender):
    # 慕白 / 阿晚 / Helen were no one (or a second person, "Helen"), so the pronouns after them told nothing.
    people = read.characters_in_description(description)
    person = next(p for p in people if p.name == name)
    assert person.gender == gender and not any(p.name in ("慕白", "阿晚", "Helen") for p in people)


def test_a_question_naming_someone_by_given_name_is_about_that_character():
    # "晚晴和赵德昌是什么关系" was answered about 赵德昌 alone: 晚晴 was no one of the book.
    assert read.names_in("晚晴和赵德昌是什么关系", ["苏晚晴", "赵德昌", "陈砚之"]) == ["苏晚晴", "赵德昌"]
    assert read.names_in("三丰后来去了哪里", ["张三丰", "林晚"]) == ["张三丰"]


@pytest.mark.parametrize("description, language, lead", [
    ("师父沈墨在山中隐居多年，一天他收了一个徒弟，名叫林远。故事的主角是林远。", "zh", "林远"),
    ("The old keeper Tom Reed trains a girl named Ivy Hale. Ivy is the heroine of this tale.", "en", "Ivy Hale"),
])
def test_the_one_the_premise_calls_its_protagonist_leads_though_named_second(description, language, lead):
    # The first one named led the book though the premise said plainly who its protagonist is.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))
    assert cast.protagonist.name == lead


@pytest.mark.parametrize("description, name, gender", [
    ("A drifter called Mara says the mine is cursed, and she refuses to go down.", "Mara", "female"),
    ("一个名叫阿福的孩子说山里有鬼，但他还是独自进了山。", "阿福", "男"),
])
def test_a_pronoun_after_what_someone_says_tells_the_speakers_gender(description, name, gender):
    # "Mara says …, and she refuses" left Mara's gender unknown: every pronoun after "says" counted as said.
    person = next(c for c in read.characters_in_description(description) if c.name == name)
    assert person.gender == gender


def test_english_full_names_said_beside_a_calling_are_the_cast_and_a_schemer_by_surname_is_the_antagonist():
    # Victor Kane and Mara Voss were no one, and an invented villain stood in for "Kane schemes".
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    description = ("Dr. Helen Okafor is the colony's only physician. Helen suspects the station director Victor Kane. "
                   "Mara Voss, a union organizer, has proof. Kane schemes to bury the truth.")
    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": "en"}))
    assert cast.antagonist.name == "Victor Kane"
    assert [c.name for c in cast.supporting_characters][:1] == ["Mara Voss"]


@pytest.mark.parametrize("question, topics", [("斗茶大会在哪一章", ["斗茶", "大会"]), ("哪一章写到了下雨", ["下雨"]),
                                              ("灯塔在第几章出现", ["灯塔"])])
def test_asking_in_which_chapter_something_is_looks_for_that_thing_alone(question, topics):
    # "斗茶大会在哪一章" quoted any scene with 一 in it ("这一场的目的…"): 一 of 哪一章 was taken for the topic.
    assert read.topic_words(question) == topics



@pytest.mark.parametrize("question, topics", [("茶叶博览大会上发生了什么", ["茶叶", "博览", "大会"]),
                                              ("会长在第几章出现", ["会长"])])
def test_a_chinese_topic_keeps_its_words_that_hold_a_grammar_character(question, topics):
    # 大会 lost its 会 (a grammar character) and came back as 大 and the fragment 茶大.
    assert read.topic_words(question) == topics


def test_an_invented_character_answers_to_no_pet_name_of_a_named_one():
    # 宋晚 was invented beside 苏晚晴, and "阿晚现在在哪" then named neither.
    from graphs.novel.offline import _name

    invented = [_name(f"premise {n}", 1, {"苏晚晴", "林雨"}) for n in range(60)]
    assert [name for name in invented if read.names_in("阿晚和阿雨现在在哪", ["苏晚晴", "林雨", name]) != ["苏晚晴", "林雨"]] == []


@pytest.mark.parametrize("question, first, second, quote", [
    ("苏晚晴和赵德昌是什么关系", "苏晚晴", "赵德昌", "苏晚晴遇到陈砚之"),
    ("What is Mara Carrow to Elsie Kerr?", "Mara Carrow", "Elsie Kerr", "Mara Carrow came to the inn."),
])
def test_a_question_of_two_people_quotes_no_scene_of_one_of_them_as_theirs(question, first, second, quote):
    # "苏晚晴与赵德昌：第 1 章第 1 场写道——「苏晚晴遇到陈砚之」": a scene of one of them was given as the pair's.
    from graphs.novel.chat import compose_offline
    from schemas.novel_chat import Evidence

    turn = {"question": question, "subject": first, "other": second}
    answer = compose_offline(turn, [Evidence(chapter_number=1, scene_number=1, quote=quote, verified=True)])
    who = t("novel.chat_pair", first=first, second=second)
    assert answer.splitlines()[0] == t("novel.chat_answer_not_together", who=who), answer


@pytest.mark.parametrize("description, name, said_as", [
    ("少年欧阳明月拜入青云门，师兄上官云飞处处刁难他。", "欧阳明月", "少年"),
    ("少年欧阳明月拜入青云门，师兄上官云飞处处刁难他。", "上官云飞", "师兄"),
    ("落魄剑客萧无痕在边城遇见了一个小乞丐。", "萧无痕", "剑客"),
    ("女捕快沈青鸾奉命调查连环命案。", "沈青鸾", "捕快"),
])
def test_a_chinese_name_jieba_cuts_oddly_is_read_whole(description, name, said_as):
    # 欧阳明月 was read 欧阳明, 萧无痕 and 沈青鸾 (after 捕快, which jieba tags a verb) were no one.
    assert any(c.name == name and c.said_as == said_as for c in read.characters_in_description(description))


def _offline_cast(description: str, language: str):
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    return characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))


_TEA_PREMISE = "民国上海，茶商之女沈书瑶发现父亲的账本被人篡改，她与巡捕房探长陆铭一起追查，发现真凶是父亲的合伙人周怀山。"


def test_a_premise_s_people_whose_names_end_like_places_or_follow_a_post_are_in_the_cast():
    # 周怀山 ends in 山 (a mountain's character) and 探长 is tagged a verb: both were lost from the cast.
    assert [c.name for c in read.characters_in_description(_TEA_PREMISE)] == ["沈书瑶", "陆铭", "周怀山"]


def test_a_seaside_town_a_premise_sets_its_story_in_is_no_one_of_the_cast():
    # jieba tags 小镇 a name (nr): "海边小镇" made a character called 小镇.
    assert read.characters_in_description("在一个被诅咒的海边小镇上住着一只会说话的猫") == []


def test_a_merchant_named_right_after_a_one_character_trade_is_in_the_cast():
    # jieba cuts "盐商周德昌" 盐 / 商周 / 德昌: the salt merchant was left out of the cast.
    people = read.characters_in_description("扬州盐商周德昌被人毒死，账房先生林秋白暗中追查")
    assert [(c.name, c.said_as) for c in people][:1] == [("周德昌", "盐商")]


def test_her_after_a_verb_of_suspecting_tells_the_suspecting_one_is_a_woman():
    # "suspects her uncle" was read as her in what Wren thinks, which may be anyone: Wren's gender stayed unknown.
    people = read.characters_in_description("A net-mender named Wren Talbot suspects her uncle Silas of sinking the boat")
    assert [(c.name, c.gender) for c in people] == [("Wren Talbot", "female"), ("Silas", "male")]


@pytest.mark.parametrize("description", ["The banker Hollis Crane covets her ranch and the water under it.",
                                         "A cattle baron named Otto Reyes eyes her land."])
def test_her_after_a_verb_of_coveting_is_the_owners_not_the_one_who_covets(description):
    # "covets her ranch" made the banker a woman: the ranch is someone else's
    assert [c.gender for c in read.characters_in_description(description)] == [None]


def test_her_after_a_verb_of_owning_still_tells_the_subject_is_a_woman():
    assert [c.gender for c in read.characters_in_description("Ada Quinn sells her boat to pay the debt.")] == ["female"]


@pytest.mark.parametrize("description", [
    "Inspector Clara Voss investigates the death of a fisherman. His widow Lydia hides a letter.",
    "Dr. Ines Varga reads the diary of a dead sailor. His granddaughter Mei wants it back."])
def test_his_opening_a_sentence_after_someone_unnamed_does_not_make_the_subject_a_man(description):
    # "His widow Lydia" was read as the inspector's widow: Clara Voss was written down as a man
    assert read.characters_in_description(description)[0].gender is None


@pytest.mark.parametrize("description, named", [
    ("渔村少女林小满救起落水的陌生人，她的堂哥林大海想把她嫁出去", ("林大海", "堂哥", "男")),
    ("落魄书生陈默进京赶考，他的姑父王守仁在京城做官", ("王守仁", "姑父", "男")),
    ("寡妇周氏守着布庄，她的弟媳刘翠想分家产", ("刘翠", "弟媳", "女")),
])
def test_a_relative_named_by_a_kin_word_has_the_gender_it_tells(description, named):
    assert named in [(c.name, c.said_as, c.gender) for c in read.characters_in_description(description)]


def test_his_opening_a_sentence_still_means_the_subject_when_no_one_else_is_there():
    people = read.characters_in_description("Detective Sam Hale hunts a killer. His partner Joe helps.")
    assert [(c.name, c.gender) for c in people] == [("Sam Hale", "male"), ("Joe", None)]


@pytest.mark.parametrize("description, named", [
    # a calling opening the description is capitalised: the rancher was left out of the cast
    ("Rancher Maria Lopez fights drought while the banker Hollis Crane covets her ranch.",
     [("Maria Lopez", "rancher"), ("Hollis Crane", "banker")]),
    # "Old" was read as a name, and the fisherman was no one
    ("Old fisherman Bram Hale lost his son to the sea. His daughter-in-law Nessa blames him.",
     [("Bram Hale", "fisherman"), ("Nessa", "daughter-in-law")]),
    # a job with no person's ending brings its person in as any calling does
    ("Barista Tom Reyes finds a note in a paper cup. The midwife Ana Cruz helps him.",
     [("Tom Reyes", "barista"), ("Ana Cruz", "midwife")]),
])
def test_a_capitalised_calling_opening_a_sentence_is_said_of_the_full_name_after_it(description, named):
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


def test_the_first_word_of_a_two_word_calling_opening_a_premise_is_no_character():
    # "Bounty" was a character, and the "She" after it was hers, not the hunter's
    people = read.characters_in_description("Bounty hunter Kai Vance tracks a smuggler across Mars. She trusts no one.")
    assert [(c.name, c.gender) for c in people] == [("Kai Vance", "female")]


def test_a_title_after_a_tie_opens_the_titled_name_and_is_no_character_itself():
    # "His neighbour Mrs. Finch" made a character called "Mrs" beside Mrs. Finch
    people = read.characters_in_description("Walter Briggs buys the old house. His neighbour Mrs. Finch watches him.")
    assert [c.name for c in people] == ["Walter Briggs", "Mrs. Finch"]


@pytest.mark.parametrize("description, named", [
    ("Young witch Poppy Marsh inherits her grandmother's bakery.", [("Poppy Marsh", "witch")]),
    ("The knight Aldric Vane swears to guard the princess.", [("Aldric Vane", "knight")]),
])
def test_a_calling_with_no_persons_ending_before_a_full_name_makes_a_character(description, named):
    # witch and knight end like no noun of a person: the witch and the knight were left out of the cast
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


def test_a_month_opening_a_sentence_is_no_calling():
    assert read.characters_in_description("Come December Maria Lopez must sell the ranch.") == []


def test_a_full_name_opening_a_premise_is_in_the_cast_without_named():
    # "Wren Talbot suspects her uncle Silas": without "named", only Silas was in the cast.
    people = read.characters_in_description("Wren Talbot suspects her uncle Silas of sinking the boat")
    assert [c.name for c in people] == ["Wren Talbot", "Silas"]


@pytest.mark.parametrize("question, asks", [
    ("what does Kofi do?", True), ("What is Ama's job?", True), ("周德昌是做什么的？", True), ("林远做什么工作", True),
    ("what did Kofi do in chapter 2?", False), ("what does Kofi do after the fire?", False), ("林远在第二章做了什么", False),
])
def test_a_question_of_what_someone_does_for_a_living_is_told_from_one_of_an_event(question, asks):
    assert read.asks_occupation(question) is asks


def test_the_one_a_premise_calls_the_culprit_is_the_antagonist_and_no_one_is_invented():
    cast = _offline_cast(_TEA_PREMISE, "zh")
    assert cast.antagonist.name == "周怀山"
    assert sorted(cast.names()) == sorted(["沈书瑶", "陆铭", "周怀山"])


def test_a_post_is_no_tie_to_the_protagonist_but_stays_in_the_background():
    cast = _offline_cast(_TEA_PREMISE, "zh")
    assert cast.protagonist.relationships["陆铭"] != "探长"
    assert "探长" in cast.by_name("陆铭").background


def test_a_two_person_romance_gets_no_invented_rival():
    cast = _offline_cast("In Lisbon, Ella Moss, a baker, falls for a shy fisherman called Rui Costa.", "en")
    assert cast.names() == ["Ella Moss", "Rui Costa"] and cast.antagonist is None


def test_a_pronoun_whose_clause_has_an_object_of_the_other_gender_means_someone_else():
    # "…, and she believes him" made Tom a woman: she is Helen, him is Tom.
    people = read.characters_in_description(
        "Dr. Helen Okafor investigates the drowning of a jazz singer. Detective Tom Reilly swears he saw her alive "
        "after midnight, and she believes him.")
    assert [(c.name, c.gender) for c in people] == [("Helen Okafor", "female"), ("Tom Reilly", "male")]


@pytest.mark.parametrize("description, persuader", [
    ("少年阿木要出海寻找父亲，邻居林秀云劝他留下，他却执意要走。", "林秀云"),
    ("Ada Finch begs him to stay, but he sails anyway.", "Ada Finch"),
])
def test_he_after_one_persuading_him_is_not_the_one_persuading(description, persuader):
    # "邻居林秀云劝他留下，他却执意要走" made 林秀云 a man: 他 is the one persuaded, and 他却 goes on with him.
    person = next(c for c in read.characters_in_description(description) if c.name == persuader)
    assert person.gender is None


@pytest.mark.parametrize("description, named", [
    # 海 is a surname of the 百家姓 the commonest ones lacked: the magistrate's daughter was no one
    ("明朝嘉靖年间，海瑞之女海清漪随父赴任淳安知县", [("海清漪", "海瑞之女")]),
    # jieba tags 师爷 and 清道夫 as names, so the calling was not read as a noun of a person
    ("县衙里，师爷钱谦益言其失足", [("钱谦益", "师爷")]),
    ("荒坂集团的清道夫周烬已经盯上了她", [("周烬", "清道夫")]),
    # jieba glued 员 of 快递员 to the surname after it (快递 / 员林 / 小 / 满)
    ("赛博朋克快递员林小满靠送黑市芯片为生", [("林小满", "快递员")]),
])
def test_a_period_or_a_future_calling_before_a_chinese_name_makes_a_character(description, named):
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    # 刚 before a verb is "just": the newcomer was called 苏晴刚
    ("苏晴刚到任就发现账目不对", ["苏晴"]),
    ("出狱那天，陈默刚走出监狱大门就被人跟上了", ["陈默"]),
    # 志刚 is a given name many bear: it stays whole
    ("张志刚走进工厂，发现机器停了", ["张志刚"]),
])
def test_gang_before_a_verb_is_just_not_the_end_of_the_name(description, named):
    assert [c.name for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    # jieba cuts 店 / 长老 / 郑让她: the manager was an elder called 郑让她
    ("便利店里，店长老郑让她每天早上六点开门", [("老郑", "店长")]),
    ("村长老赵不肯让路，车队只好绕行", [("老赵", "村长")]),
    # an elder before a given name stays one
    ("寺里的长老慧明闭关多年", [("慧明", "长老")]),
])
def test_a_post_then_a_familiar_name_is_the_post_and_lao_with_the_surname(description, named):
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    # jieba tags 大副 a numeral, and cuts 收银员 / 小 / 周: the mate and the cashier were no one
    ("货轮在太平洋上遇险，大副韩冬发现船长失踪", [("韩冬", "大副")]),
    ("便利店的收银员小周每晚都看见一个穿红衣的女人", [("小周", "收银员")]),
    # 有 of 王有财 ended the name after its surname, and 先生 alone was the bookkeeper's calling
    ("民国年间，布商王有财和账房先生林秋白争夺家产", [("王有财", "布商"), ("林秋白", "账房先生")]),
])
def test_a_chinese_name_after_an_occupation_is_a_character_with_that_occupation(description, named):
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    ("The first mate Han Dong finds the captain gone", [("Han Dong", "first mate")]),
    ("On the island, the lighthouse keeper Mara Quill and the herbalist Lin find a drowned man",
     [("Mara Quill", "lighthouse keeper"), ("Lin", "herbalist")]),
])
def test_an_english_name_after_an_occupation_is_a_character_with_that_occupation(description, named):
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, named", [
    ("清末江南，船工之子陈阿水在运河上撑船，茶商之女林素素是他的青梅竹马", [("陈阿水", "船工之子", "男"), ("林素素", "茶商之女", "女")]),
    ("秀才之妻柳如烟守寡多年，县令之子李承业对她纠缠不休", [("柳如烟", "秀才之妻", "女"), ("李承业", "县令之子", "男")]),
])
def test_a_chinese_name_after_whose_son_or_wife_they_are_is_a_character_of_that_gender(description, named):
    # "船工之子陈阿水" left the boatman's son, the book's first-named lead, out of the cast.
    assert [(c.name, c.said_as, c.gender) for c in read.characters_in_description(description)] == named


@pytest.mark.parametrize("description, era", [
    ("清末", "early_modern"), ("晚清的汉口码头，脚夫刘大根", "early_modern"),
    ("明末的苏州，绣娘沈青禾", "ancient"), ("东汉末年，群雄并起", "ancient"), ("宋初的汴京", "ancient"),
])
def test_a_dynastys_late_or_early_years_said_alone_set_the_books_age(description, era):
    # "清末" alone was read as no age at all: the late Qing met at 山道 and 后山竹林, not at its docks.
    assert read.story_era(description) == era


@pytest.mark.parametrize("description, era", [
    ("请在说明末尾写上作者", None), ("发明末日武器的公司职员", "modern"), ("大明末年，江南", "ancient"),
    ("明末清初的扬州", "ancient"),
])
def test_an_era_word_counts_only_as_a_word_not_the_tail_of_another(description, era):
    # "说明末尾" set a book in the late Ming: 明末 was found inside 说明 / 末尾.
    assert read.story_era(description) == era


@pytest.mark.parametrize("description, era, said", [
    ("A mill town in the 1890s. Ada Blake organises a strike", "early_modern", "the 1890s"),
    ("In 1890s Cornwall, a keeper's daughter finds a ledger", "early_modern", "the 1890s"),
    ("八十年代的东北小城，下岗女工沈秋菱", "late_twentieth", "八十年代"),
    ("In the 1980s, a video store clerk finds a tape", "late_twentieth", "the 1980s"),
    ("民国初年的天津，报馆学徒小周卷入命案", "early_modern", "民国"),
])
def test_a_decade_or_era_the_description_names_is_its_age_in_its_own_words(description, era, said):
    # "the 1890s" set a mill town in the ancient age, the 1980s in the present day of subways and 便利店.
    assert (read.story_era(description), read.era_said(description)) == (era, said)


@pytest.mark.parametrize("description, era", [
    ("民国二十年的福州，茶行少东家林书白与码头工会的女记者苏曼卿，一起调查茶叶走私案", "early_modern"),
    ("赛博朋克都市里，快递员替公司运送古代文物", "future"),
])
def test_the_age_a_description_names_outweighs_a_thing_of_another_age_in_it(description, era):
    # "民国二十年的福州" with a 女记者 met at 地铁站 and 便利店: 记者 tied 民国, and the tie went to the present day.
    assert read.story_era(description) == era


def test_a_former_girlfriend_is_a_woman_and_keeps_the_word_that_says_so():
    # "前女友陈雾" gave 陈雾 no gender, said only as 女友
    person = read.characters_in_description("她发现货物是前女友陈雾的记忆备份")[0]
    assert (person.name, person.said_as, person.gender) == ("陈雾", "前女友", "女")


def test_she_opening_a_sentence_is_the_one_its_last_clause_was_about():
    # 她 was taken for 钱谦益, named first in a sentence whose last clause is about 海清漪
    description = "海瑞之女海清漪随父赴任。师爷钱谦益言其失足，海清漪却发现袖中藏着粮册。她与捕快赵铁柱暗中查访。"
    genders = {c.name: c.gender for c in read.characters_in_description(description)}
    assert genders["海清漪"] == "女" and genders["钱谦益"] is None, genders


def test_a_constable_in_league_with_smugglers_is_the_antagonist():
    # The harbor constable was no one, and an invented villain stood in for him.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    description = ("Maine, 1923. Widowed lighthouse keeper Elias Thorne tends the light. Elias and the postmistress, "
                   "June Alder, suspect that the harbor constable Walter Briggs is in league with the smugglers.")
    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": "en"}))
    assert (cast.protagonist.name, cast.antagonist.name) == ("Elias Thorne", "Walter Briggs")


def _cited(chapter: int, scene: int, quote: str):
    from schemas.novel_chat import Evidence

    return Evidence(chapter_number=chapter, scene_number=scene, quote=quote, verified=True)


_CANGSHU = [(1, 1, "仓书与韩岚来到渡口。"), (1, 2, "仓书遇到韩岚。"), (2, 1, "仓书与沈墨来到城门。"),
            (2, 2, "仓书遇到沈墨。"), (2, 3, "他们想起了前事：仓书与韩岚来到客栈。")]


def _cangshu_turn(question: str) -> dict:
    passages = [{"chapter_number": c, "scene_number": s, "text": text} for c, s, text in _CANGSHU]
    return {"question": question, "subject": "仓书", "cast": ["仓书", "韩岚", "沈墨"],
            "places": ["渡口", "城门", "客栈"], "passages": passages}


@pytest.mark.parametrize("question", ["仓书去了哪里", "仓书遇到了谁", "仓书去过哪些地方"])
def test_where_and_whom_questions_are_answered_from_different_passages(question):
    # Both were answered with the same three quotes, none of which said where or whom.
    from graphs.novel.chat import _ranked_passages

    quotes = [p["text"] for p in _ranked_passages(_cangshu_turn(question))[:2]]
    wanted = ["仓书与韩岚来到渡口。", "仓书与沈墨来到城门。"] if "去" in question else ["仓书遇到韩岚。", "仓书遇到沈墨。"]
    assert [q for q in quotes if q in wanted] == wanted, quotes


def test_a_where_question_names_the_places_gone_to_not_one_only_recalled():
    from graphs.novel.chat import compose_offline

    turn = _cangshu_turn("仓书去了哪里")
    answer = compose_offline(turn, [_cited(c, s, text) for c, s, text in _CANGSHU])
    items = "、".join(t("novel.chat_answer_found_item", thing=p, chapter=c) for p, c in (("渡口", 1), ("城门", 2)))
    assert answer == t("novel.chat_answer_where", who="仓书", found=items), answer


@pytest.mark.parametrize("question", ["仓书现在在哪里？", "仓书最后去了哪里"])
def test_where_someone_is_now_names_the_place_of_their_latest_scene_not_every_place(question):
    # "林素素现在在哪里" listed every place she had ever been, in story order, the latest last.
    from graphs.novel.chat import _ranked_passages, compose_offline

    turn = _cangshu_turn(question)
    ranked = [_cited(p["chapter_number"], p["scene_number"], p["text"]) for p in _ranked_passages(turn)]
    answer = compose_offline(turn, ranked)
    assert answer == t("novel.chat_answer_where_latest", who="仓书", place="城门", chapter=2, scene=1), answer


def test_a_whom_question_names_the_others_met_with_the_chapter_first_showing_them():
    from graphs.novel.chat import compose_offline

    answer = compose_offline(_cangshu_turn("仓书遇到了谁"), [_cited(c, s, text) for c, s, text in _CANGSHU])
    items = "、".join(t("novel.chat_answer_found_item", thing=p, chapter=c) for p, c in (("韩岚", 1), ("沈墨", 2)))
    assert answer == t("novel.chat_answer_whom", who="仓书", found=items), answer


@pytest.mark.parametrize("text, places", [
    ("他们回到上海，走进巡捕房。", ["上海", "巡捕房"]),
    ("一路上，他们心里记挂着上海、码头。", []),
    ("They remembered what had gone before: Mara came to the inn.", []),
    ("Tobiah and Mara came to the ferry landing.", ["the ferry landing"]),
])
def test_a_place_counts_as_gone_to_only_after_a_verb_of_going_there(text, places):
    assert read.places_gone_to(text, ["巡捕房", "码头", "the inn", "the ferry landing"]) == places


def test_a_chapter_is_quoted_scene_by_scene_in_story_order():
    # "第二章发生了什么" quoted scene 2 before scene 1, and twice the same scene before the third.
    from graphs.novel.chat import _scene_by_scene

    evidence = [_cited(2, 2, "b"), _cited(2, 1, "a"), _cited(2, 1, "a2"), _cited(2, 3, "c")]
    assert [e.quote for e in _scene_by_scene(evidence)][:3] == ["a", "b", "c"]


def test_an_event_and_the_scene_sentence_telling_it_are_quoted_once():
    # "苏晚晴遇到顾铭" (the chapter memory's event) and "苏晚晴遇到顾铭。" (the scene's sentence) were both cited.
    from graphs.novel.chat import verify
    from schemas.novel import GeneratedChapter, GeneratedScene

    class Files:
        def has_chapter(self, number):
            return True

        def load_chapter(self, number):
            return GeneratedChapter.assemble(number, "第2章", [GeneratedScene.from_content(1, "苏晚晴遇到顾铭。")])

    evidence, _ = verify(Files(), [(2, "苏晚晴遇到顾铭"), (2, "苏晚晴遇到顾铭。")])
    assert len(evidence) == 1


class _SheetGraph:
    def whois(self, name):
        return {"name": name, "motivation": f"{name}想守住家里的茶庄。"}


class _SheetTools:
    graph = _SheetGraph()


_SUSU_CAST = ["林素素", "江野"]


def _why_turn(passages: list[tuple[int, int, str]]) -> dict:
    return {"question": "林素素为什么离开茶庄？", "subject": "林素素", "cast": _SUSU_CAST, "sheet": [],
            "passages": [{"chapter_number": c, "scene_number": s, "text": text} for c, s, text in passages],
            "events": [{"chapter_number": 1, "chapter_title": "第1章", "key_events": ["林素素遇到江野"]}]}


def test_why_someone_did_what_no_passage_names_says_the_book_has_not_told_it_and_quotes_nothing():
    # "林素素为什么离开茶庄" was answered "no turn of a relation yet" and "林素素遇到江野" three times over.
    from graphs.novel.chat import _focus_on_why, _ranked_passages, compose_offline

    turn = _why_turn([(1, 1, "林素素遇到江野。")])
    _focus_on_why(_SheetTools(), turn, "林素素", _SUSU_CAST)
    answer = compose_offline(turn, [_cited(p["chapter_number"], p["scene_number"], p["text"]) for p in _ranked_passages(turn)])
    assert "江野" not in answer and t("novel.chat_answer_motivation", name="林素素", motivation="林素素想守住家里的茶庄") in answer
    assert t("novel.chat_answer_why_not_written", who="林素素", things="「离开」、「茶庄」") in answer


def test_why_someone_did_something_is_answered_by_the_passage_naming_it_quoted_once():
    from graphs.novel.chat import _cited_lines, _focus_on_why, _ranked_passages, compose_offline

    turn = _why_turn([(1, 1, "林素素遇到江野。"), (2, 1, "因为父亲欠了债，林素素离开了茶庄。")])
    _focus_on_why(_SheetTools(), turn, "林素素", _SUSU_CAST)
    evidence = [_cited(p["chapter_number"], p["scene_number"], p["text"]) for p in _ranked_passages(turn)]
    answer = compose_offline(turn, evidence)
    full = answer + "\n" + _cited_lines(answer, evidence)
    assert full.count("离开了茶庄") == 1 and "江野" not in full, full
    assert t("novel.chat_answer_no_turn", who="林素素") not in full


def test_why_someone_left_a_place_is_not_answered_by_a_passage_only_naming_the_place():
    # "林素素为什么离开茶庄" quoted "林素素与江野来到茶庄。" as the reason: it shares 茶庄, not the leaving.
    from graphs.novel.chat import _focus_on_why, _ranked_passages, compose_offline

    turn = _why_turn([(1, 1, "林素素与江野来到茶庄。")])
    _focus_on_why(_SheetTools(), turn, "林素素", _SUSU_CAST)
    answer = compose_offline(turn, [_cited(p["chapter_number"], p["scene_number"], p["text"]) for p in _ranked_passages(turn)])
    assert "来到茶庄" not in answer and t("novel.chat_answer_why_not_written", who="林素素", things="「离开」、「茶庄」") in answer


def test_why_someone_did_a_deed_of_lone_characters_is_not_answered_by_any_passage_of_theirs():
    # "孟怀安为什么劫镖" quoted "谢云帆遇到孟怀安": 劫镖 was cut into 劫 and 镖, which name nothing, so nothing was asked.
    from graphs.novel.chat import _focus_on_why, _ranked_passages, compose_offline

    cast = ["谢云帆", "孟怀安"]
    turn = {"question": "孟怀安为什么劫镖", "subject": "孟怀安", "cast": cast, "sheet": [], "events": [],
            "passages": [{"chapter_number": 2, "scene_number": 1, "text": "谢云帆遇到孟怀安。"}]}
    _focus_on_why(_SheetTools(), turn, "孟怀安", cast)
    answer = compose_offline(turn, [_cited(p["chapter_number"], p["scene_number"], p["text"]) for p in _ranked_passages(turn)])
    assert "遇到" not in answer and t("novel.chat_answer_why_not_written", who="孟怀安", things="「劫镖」") in answer, answer


@pytest.mark.parametrize("question, deed, passage, shown", [
    ("why did Wren leave the village?", "leave", "Wren Talbot walked through the village.", False),
    ("why did Wren leave the village?", "leave", "Wren Talbot left the village at dawn.", True),
    ("沈秋菱为什么去码头", "去", "沈秋菱与陆青川来到码头。", True),
    ("沈秋菱为什么去码头", "去", "一路上，沈秋菱心里记挂着码头。", False),
    ("沈秋菱为什么去运河码头", "去", "沈秋菱与陆青川来到江南运河。", False),
    ("沈秋菱为什么去运河码头", "去", "沈秋菱与陆青川来到运河码头。", True),
])
def test_a_why_question_is_answered_by_a_passage_telling_the_deed_asked_of(question, deed, passage, shown):
    names = ["Wren Talbot", "沈秋菱"]
    assert read.asked_deed(question, names) == deed
    things = ["village"] if deed == "leave" else ["运河", "码头"] if "运河" in question else ["码头"]
    assert read.shows_deed(passage, deed, things) is shown


@pytest.mark.parametrize("question, deed, passage, shown", [
    ("林素素为什么会在茶楼", "在", "一路上，林素素心里记挂着茶楼。", False),
    ("林素素为什么会在茶楼", "在", "林素素与江野来到茶楼。", True),
    ("why is Wren at the lighthouse?", "at", "All the while Wren Talbot's mind was on the lighthouse.", False),
    ("why is Wren at the lighthouse?", "at", "Wren Talbot came to the lighthouse at dusk.", True),
])
def test_why_someone_is_at_a_place_is_answered_by_a_passage_taking_them_there_not_one_naming_it(question, deed, passage,
                                                                                               shown):
    # "为什么他会在茶楼" was asked of 茶楼, and a passage only thinking of the tea house was its reason.
    assert read.asked_deed(question, ["Wren Talbot", "林素素"]) == deed
    assert read.shows_deed(passage, deed, ["lighthouse"] if deed == "at" else ["茶楼"]) is shown


@pytest.mark.parametrize("question, deed, passage, shown", [
    ("why was Wren in love with Tom?", "love", "Wren Talbot came to the inn with Tom.", False),
    ("why was Wren in love with Tom?", "love", "Wren Talbot had loved Tom since the flood.", True),
    ("why is Wren in debt?", "debt", "Wren Talbot owed a debt to the harbourmaster.", True),
    ("为什么林素素会爱上江野", "爱", "林素素与江野来到茶楼。", False),
    ("为什么林素素会爱上江野", "爱", "林素素早在那年春天就爱上了江野。", True),
])
def test_why_someone_is_in_love_asks_of_the_love_not_of_a_place_called_love(question, deed, passage, shown):
    # "why was he in love with her" was read as being at a place called "love", answered by passages of going places.
    assert read.asked_deed(question, ["Wren Talbot", "林素素", "江野"]) == deed
    assert read.shows_deed(passage, deed, []) is shown


def test_why_one_person_helps_another_gives_the_helpers_motive_not_the_first_of_the_sheet():
    # "林素素为什么要帮陈阿水" gave 陈阿水's motive: he comes first in characters.json.
    from graphs.novel.chat import _focus_on_why, compose_offline

    turn = {"question": "林素素为什么要帮陈阿水", "subject": "陈阿水", "other": "林素素", "sheet": [], "events": [],
            "cast": ["陈阿水", "林素素"], "passages": [{"chapter_number": 1, "scene_number": 1, "text": "陈阿水遇到林素素。"}]}
    _focus_on_why(_SheetTools(), turn, "陈阿水", ["陈阿水", "林素素"])
    answer = compose_offline(turn, [_cited(1, 1, "陈阿水遇到林素素。")])
    assert t("novel.chat_answer_motivation", name="林素素", motivation="林素素想守住家里的茶庄") in answer, answer


def test_when_two_people_met_is_answered_without_saying_their_relation_never_turned():
    # "陈阿水什么时候遇到林素素" was told "no chapter tells of their relation turning yet" before the meeting.
    from graphs.novel.chat import compose_offline

    turn = {"question": "陈阿水什么时候遇到林素素", "subject": "陈阿水", "other": "林素素", "events": []}
    answer = compose_offline(turn, [_cited(1, 1, "陈阿水遇到林素素。")])
    pair = t("novel.chat_pair", first="陈阿水", second="林素素")
    assert answer == t("novel.chat_answer_passage", who=pair, chapter=1, scene=1, quote="陈阿水遇到林素素。"), answer


def test_an_ex_husband_set_beside_his_name_is_in_the_cast_and_calls_her_his_ex_wife():
    # "Her ex-husband, Callum Reid," was left out: an invented "Callum Vane" and a nemesis stood in his place.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    description = ("A night-shift nurse named Priya Das at a Glasgow hospital notices that her patients' medication "
                   "has been changed. Her ex-husband, Callum Reid, is the hospital pharmacist.")
    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": "en"}))
    assert {c.name: c.relationships for c in cast.all_characters()} == {
        "Priya Das": {"Callum Reid": "ex-husband"}, "Callum Reid": {"Priya Das": "ex-wife"}}


@pytest.mark.parametrize("question, thing", [("who runs the smuggling ring?", "the smuggling ring"),
                                             ("Who is behind the Salt Guild", "the Salt Guild"),
                                             ("谁在幕后操纵私盐", "私盐"), ("盐帮的头目是谁", "盐帮"), ("谁是漕帮的老大", "漕帮"),
                                             ("谁是反派", None), ("who is Silas?", None), ("谁在码头", None)])
def test_who_leads_or_is_behind_a_thing_is_read_as_a_question_of_its_leader(question, thing):
    assert read.leader_asked_of(question) == thing


@pytest.mark.parametrize("description, places", [
    ("清末江南运河小镇，私盐贩子横行，船家女沈秋菱追查父亲的死因", ["江南运河", "小镇"]),
    ("On a mining station orbiting Europa, the station doctor Amara Osei finds deaths hidden in the ice mines",
     ["the mining station", "the ice mines"]),
])
def test_the_places_a_premise_names_are_read_but_not_a_calling_named_after_one(description, places):
    # "the station doctor" made "the station" a place of the book, and its scenes met there.
    assert read.places_in_description(description) == places


def test_a_place_before_a_word_jieba_reads_as_a_name_makes_no_character():
    # "南极科考站…": jieba tags 科考 a name and 南极 a noun, so the polar station's 科考 led the book.
    description = "南极科考站的极夜里，气象员周晓发现越冬队员老陈失踪了，站长郑国平似乎隐瞒了什么"
    assert [c.name for c in read.characters_in_description(description)] == ["周晓", "老陈", "郑国平"]


@pytest.mark.parametrize("name, said_as, age", [("老陈", "队员", "old"), ("小周", "收银员", "young")])
def test_a_familiar_chinese_name_tells_how_old_someone_is(name, said_as, age):
    # 老陈 was written down as 22.
    assert read.age_said(f"越冬{said_as}{name}失踪了", name, said_as) == age


@pytest.mark.parametrize("description, named", [
    ("滇西深山的小山村里，采药女阿箬跟着师父岩叔学医", [("阿箬", "采药女", "女"), ("岩叔", "师父", "男")]),
    ("她的邻居秀婶每天来送饭", [("秀婶", "邻居", "女")]),
])
def test_a_name_said_with_its_title_after_a_word_saying_who_is_a_character(description, named):
    # 岩 is no surname of the list, so the herbalist's master 岩叔 was no one.
    assert [(c.name, c.said_as, c.gender) for c in read.characters_in_description(description)] == named


def test_the_tail_jieba_cuts_from_a_forest_of_trees_is_no_place():
    # "东北林海里" (林 / 海里): the forest story's first place was 海里, "in the sea".
    assert "海里" not in read.places_in_description("东北林海里，护林员老韩遇见一只受伤的东北虎")


def test_a_guide_of_a_three_word_name_is_a_character():
    # "the young guide Idris Ag Moussa" was no one, and the caravan master he suspects led the book.
    description = ("A salt caravan crosses the Tanezrouft desert; the young guide Idris Ag Moussa suspects the caravan "
                   "master Karim Belkacem is smuggling rifles")
    people = read.characters_in_description(description)
    assert [(c.name, c.said_as) for c in people] == [("Idris Ag Moussa", "guide"), ("Karim Belkacem", "caravan master")]


def test_who_someone_is_does_not_cite_again_a_later_scene_recalling_the_line_it_quotes():
    # "江岚是谁" quoted 「周老四遇到江岚」 and then, under it, 「他们想起了前事：周老四遇到江岚。」: the same line twice.
    from graphs.novel.chat import _cited_lines

    evidence = [_cited(1, 1, "周老四遇到江岚"), _cited(1, 1, "周老四与江岚来到运河码头。"),
                _cited(2, 1, "他们想起了前事：周老四遇到江岚。")]
    answer = t("novel.chat_answer_passage", who="江岚", chapter=1, scene=1, quote="周老四遇到江岚")
    full = answer + "\n" + _cited_lines(answer, evidence)
    assert full.count("周老四遇到江岚") == 1 and "来到运河码头" in full, full


def test_why_someone_would_fall_in_love_names_the_love_not_the_would_as_what_is_untold():
    # "为什么阿芳会爱上小陈" said no passage mentions 「会爱上」: the 会 of the question's frame was taken for its topic.
    from graphs.novel.chat import _focus_on_why, _ranked_passages, compose_offline

    turn = _why_turn([(1, 1, "林素素与江野来到茶庄。")])
    turn["question"] = "为什么林素素会爱上江野"
    _focus_on_why(_SheetTools(), turn, "林素素", _SUSU_CAST)
    answer = compose_offline(turn, [_cited(p["chapter_number"], p["scene_number"], p["text"]) for p in _ranked_passages(turn)])
    assert t("novel.chat_answer_why_not_written", who="林素素", things="「爱上」") in answer, answer


def test_who_is_answer_says_no_chapter_event_its_quote_or_another_person_already_tells():
    # "Who is Kenji Mori?" quoted 'Silas Kerr meets Kenji Mori', then said "Chapter 1: Silas Kerr meets Kenji
    # Mori; Silas Kerr makes choice number 1": the quote again, and a choice of someone else.
    from graphs.novel.chat import compose_offline
    from schemas.novel_chat import Evidence

    turn = {"question": "Who is Kenji Mori?", "subject": "Kenji Mori",
            "events": [{"chapter_number": 1, "key_events": ["Silas Kerr meets Kenji Mori",
                                                            "Silas Kerr makes choice number 1"]}]}
    answer = compose_offline(turn, [Evidence(chapter_number=1, scene_number=1, quote="Silas Kerr meets Kenji Mori",
                                             verified=True)])
    assert answer.count("Silas Kerr meets Kenji Mori") == 1 and "choice" not in answer, answer


@pytest.mark.parametrize("question, count", [
    ("第一章发生了什么？给我看两段原文", 2), ("列出5条引文", 5), ("show me one passage about Ada", 1),
    ("give me a couple of quotes", 2), ("第三章发生了什么", None), ("他去过哪两条街", None),
])
def test_a_question_asking_for_a_number_of_quotes_is_read_as_that_number(question, count):
    # "给我看两段原文" was answered with three quotes, whatever it asked.
    assert read.quotes_asked(question) == count


@pytest.mark.parametrize("question, field", [
    ("林晚多大了？", "age"), ("How old is Rose?", "age"), ("What does Ada look like?", "appearance"),
    ("沈青是个什么样的人", "personality"), ("林远什么时候学会了武功", None), ("林远和沈青是什么关系", None),
])
def test_a_question_of_what_a_character_sheet_records_names_its_field(question, field):
    assert read.asked_attribute(question) == field


@pytest.mark.parametrize("description, language, name, ages", [
    ("A mill town in the 1890s. Ada Blake, a young weaver, organises a strike", "en", "Ada Blake", range(17, 27)),
    ("Tom Reed, an elderly lighthouse keeper, finds a bottle", "en", "Tom Reed", range(55, 75)),
    ("年迈的船工陈伯在渡口等一个失踪的少年", "zh", "陈伯", range(55, 75)),
    ("年轻的绣娘沈秋在绣坊里等一封信", "zh", "沈秋", range(17, 27)),
])
def test_young_or_old_said_beside_a_name_sets_the_characters_age(description, language, name, ages):
    # "Ada Blake, a young weaver" was 29, "年迈的船工陈伯" anything from 32 to 58.
    assert _offline_cast(description, language).by_name(name).age in ages


def test_a_young_masters_title_keeps_its_shao_on_his_sheet():
    # "少镖头陈远" was written down as a 镖头, the head of the escort agency, not its heir.
    cast = _offline_cast("民国初年的福州，少镖头陈远押送一批货物北上", "zh")
    assert "少镖头" in cast.by_name("陈远").background


def test_a_name_after_a_calling_jieba_reads_as_a_verb_is_a_character():
    # "会计李红梅" after a place clause: jieba tags 会计 a verb, and the book had no 李红梅.
    names = [c.name for c in read.characters_in_description("九十年代的西北矿区，会计李红梅发现矿上的账目对不上，她决定查下去。")]
    assert "李红梅" in names


def test_a_room_a_calling_is_named_after_is_no_place():
    # 账房 of "账房先生周伯" was listed among the book's places.
    places = read.places_in_description("民国初年的福州，年迈的账房先生周伯守着一批来历不明的货物。")
    assert "账房" not in places and "福州" in places


def test_the_verb_after_a_plural_noun_is_no_part_of_the_thing():
    # every scene read "their minds were on a ledger, the pit owners hide and a flooded shaft"
    things = read.key_things("A bookkeeper guards a ledger while the pit owners hide a flooded shaft.")
    assert "the pit owners hide" not in things and "a flooded shaft" in things


def test_a_full_name_opening_a_sentence_beside_their_kin_is_a_character():
    # "Owen Hale and his sister Maren search the shore" gave a book of Maren alone: Owen Hale was no one.
    people = read.characters_in_description("A foggy northern coast. Owen Hale and his sister Maren search the shore.")
    assert [(c.name, c.gender) for c in people] == [("Owen Hale", "male"), ("Maren", "female")]


@pytest.mark.parametrize("description, name", [
    ("渔村少年阿木想出海寻找失踪的父亲。", "阿木"),
    ("少女林晚还是上了船，去找她的哥哥。", "林晚"),
    ("书生周文想去京城赶考。", "周文"), ("孤女苏晴还在等她的父亲。", "苏晴"),
])
def test_a_modal_or_adverb_after_a_name_opens_what_they_do(description, name):
    # "阿木想出海" gave the book a 阿木想, "林晚还是上了船" a 林晚还.
    assert [c.name for c in read.characters_in_description(description)][0] == name


def test_the_third_character_before_bei_is_the_names():
    # "沈月如被许配给县令之子" gave 沈月: 如 was read as a verb
    assert read.characters_in_description("大户人家的小姐沈月如被许配给县令之子。")[0].name == "沈月如"


def test_a_name_a_sentence_calls_her_brother_is_male():
    # "Tom Reed is her brother" made Tom female: "her" was taken for his
    people = read.characters_in_description("A mapmaker named Ivy Hale sails north. Tom Reed is her brother.")
    assert ("Tom Reed", "male") in [(c.name, c.gender) for c in people]


def test_a_calling_said_beside_a_tie_reaches_the_background():
    # "his sister Maren, a lighthouse keeper" kept only "sister": her background had no calling
    cast = _offline_cast("A ferryman named Owen Hale crosses the strait. His sister Maren, a lighthouse keeper, "
                         "watches the rocks.", "en")
    maren = cast.by_name("Maren")
    assert "lighthouse keeper" in maren.background and cast.protagonist.relationships["Maren"] == "sister"


@pytest.mark.parametrize("description, expected", [
    ("A widow named Clara Vieira runs an inn. Her cousin Rui Duarte wants it. She refuses.",
     {"Clara Vieira": "female", "Rui Duarte": None}),
    ("寡妇林秀云开着一家客栈。她的表亲陈默想要这家客栈。她拒绝了。", {"林秀云": "女", "陈默": None}),
])
def test_the_she_after_her_cousin_goes_on_meaning_the_woman_whose_cousin_he_is(description, expected):
    # "Her cousin Rui Duarte … She refuses" made Rui a woman: "she" is the widow, Rui's gender is not told
    assert {c.name: c.gender for c in read.characters_in_description(description)} == expected


@pytest.mark.parametrize("description, name, calling", [
    ("Ida is a young sailor.", "Ida", "sailor"),
    ("Kofi Mensah was the ship's cook.", "Kofi Mensah", "ship's cook"),
    ("Ida, a young sailor, finds a map.", "Ida", "sailor"),
])
def test_a_sheet_that_only_says_who_someone_is_names_them(description, name, calling):
    # "Ida is a young sailor." found no one: no pronoun followed and sailor is no word of kinship
    people = read.characters_in_description(description)
    assert [(c.name, c.calling) for c in people] == [(name, calling)]
    assert read.age_said(description, name) == ("young" if "young" in description else None)


@pytest.mark.parametrize("description", ["Winter is a killer.", "Paris is a city of lights.", "Rome was an empire."])
def test_a_thing_said_to_be_something_is_no_character(description):
    assert read.characters_in_description(description) == []


@pytest.mark.parametrize("description, expected", [
    ("苏家小姐苏婉和她的丫鬟春桃在茶村长大。", [("苏婉", "女"), ("春桃", "女")]),
    ("书童墨砚跟着公子谢安出门。", [("墨砚", "男"), ("谢安", "男")]),
    ("少爷沈念之和老爷沈德昌不和，太太周氏从中调停。", [("沈念之", "男"), ("沈德昌", "男"), ("周氏", "女")]),
])
def test_the_words_of_a_great_house_tell_gender_and_a_servant_needs_no_surname(description, expected):
    # 小姐 / 丫鬟 / 少爷 / 老爷 / 太太 told no gender, and 丫鬟春桃 was no one (春 is no surname)
    assert [(c.name, c.gender) for c in read.characters_in_description(description)] == expected


@pytest.mark.parametrize("description", ["老爷让丫鬟连忙去请大夫。", "丫鬟低头不语。", "管家连忙去请大夫。"])
def test_what_a_servant_does_is_no_name(description):
    # "管家连忙去请大夫" named a 连忙去: 连 is a surname, 连忙 how he goes
    assert read.characters_in_description(description) == []


@pytest.mark.parametrize("question", ["陈文远多大了", "林晚几岁", "船长多高"])
def test_how_old_asked_with_no_question_mark_is_a_question_not_a_preference(question):
    # "陈文远多大了" was saved as a preference about the character
    assert read.intent_by_rules(question) == "knowledge"


@pytest.mark.parametrize("question, latest", [("苏微出现在哪里", False), ("韩岚在第几章出现在码头", False),
                                              ("他的本事体现在哪", False), ("苏微现在在哪里", True),
                                              ("她现在出现在哪", True), ("where is Mara now", True)])
def test_the_now_inside_appears_at_is_no_question_of_where_someone_is_now(question, latest):
    # "苏微出现在哪里" was answered with the one scene she was last in: 出现在 holds 现在 but means "appears at"
    assert read.asks_latest(question) is latest


@pytest.mark.parametrize("text, deleted", [("删除第9章", (9, False)), ("delete chapter 2", (2, False)),
                                           ("删掉最后一章", (5, False)), ("remove the last chapter", (5, False)),
                                           ("把第3章及之后都删了", (3, True)), ("删除第3章之后的章节", (4, True)),
                                           ("delete chapters 2 onwards", (2, True)),
                                           ("delete everything after chapter 3", (4, True))])
def test_a_deletion_in_words_names_the_chapter_it_starts_at_and_whether_later_ones_go(text, deleted):
    assert read.wants_rollback(text) and read.intent_by_rules(text) == "generate"
    assert read.chapters_deleted(text, 5) == deleted


@pytest.mark.parametrize("text, deleted", [("删除最后两章", (4, True)), ("把最近3章删了", (3, True)),
                                           ("delete the last two chapters", (4, True)),
                                           ("remove the final 3 chapters", (3, True)), ("删掉最后十章", (1, True))])
def test_a_count_of_the_last_chapters_deleted_rolls_back_to_the_first_of_them(text, deleted):
    # "删除最后两章" named no chapter and was not read as a deletion of any
    assert read.wants_rollback(text)
    assert read.chapters_deleted(text, 5) == deleted


@pytest.mark.parametrize("text", ["第3章删掉了哪些内容", "把这个项目全部删除", "以后去掉景物描写"])
def test_deleting_asked_about_or_of_the_whole_project_is_no_chapter_deletion(text):
    assert not read.wants_deletion(text)


@pytest.mark.parametrize("text, rename", [("把楚辰改名为楚风", True), ("rename Silas to Simon", True),
                                          ("能把楚辰改名为楚风吗", True), ("change Wren's name to Jenny", True),
                                          ("楚辰为什么改名", False), ("Why did Silas change his name?", False)])
def test_a_rename_is_asked_for_as_a_request_not_asked_about_as_a_question(text, rename):
    assert read.wants_rename(text) is rename


@pytest.mark.parametrize("text", ["show me two passages about Wren and Silas", "给我看两段林晚和周怀安的原文"])
def test_passages_asked_for_are_a_question_of_the_book_whose_frame_is_no_topic(text):
    # "show me two passages…" was answered "no chapter mentions show, two, passages"
    assert read.intent_by_rules(text) == "knowledge"
    assert read.topic_words(read.without_names(text, ["Wren", "Silas", "林晚", "周怀安"])) == []


@pytest.mark.parametrize("description, name, said_as", [
    ("民国年间，纺织厂女工刚子的姐姐失踪了，她四处寻找。", "刚子", "女工"),
    ("山村少年虎子救了一只受伤的狐狸。", "虎子", "少年"),
    ("八十年代，钢厂工人柱子想下海经商。", "柱子", "工人"),
])
def test_a_nickname_said_after_who_someone_is_is_read_as_their_name(description, name, said_as):
    # "女工刚子": 刚子 has no surname, so the book's lead was an invented stranger.
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)][:1] == [(name, said_as)]


@pytest.mark.parametrize("description", ["他的儿子失踪了，妻子日夜哭泣。", "孩子们在村口玩耍。"])
def test_kin_ending_in_zi_is_no_nickname(description):
    assert read.characters_in_description(description) == []


async def _cast_of(description: str, language: str):
    from core.llm.offline import OfflineLLM
    from graphs.novel import offline  # noqa: F401  (registers the offline composers)
    from schemas.novel import CharactersConfig

    return await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": description})


@pytest.mark.parametrize("language, description, said", [
    ("zh", "民国年间，落魄少爷沈墨在上海滩救起落水的陌生人，从此卷入帮派与家族的恩怨。", "陌生人"),
    ("en", "A lighthouse keeper named Rowan Finch finds that a stranger washes ashore one stormy night.", "stranger"),
    ("en", "In a cold northern barony, a young maid named Elsa serves the baron. She discovers a secret in the cellar.",
     "baron"),
    ("zh", "寒冬的边境小镇，铁匠之女林小满收留了一个受伤的刺客。", "刺客"),
])
async def test_someone_the_premise_brings_in_without_a_name_is_in_the_cast(language, description, said):
    # The stranger saved from the water, the baron served: the book's cast was its lead and a stock trio.
    cast = await _cast_of(description, language)
    others = [cast.antagonist, *cast.supporting_characters]
    assert [c for c in others if c and said in c.background], cast


@pytest.mark.parametrize("language, description", [
    ("en", "A young swordsman named Kai Lin trains alone on a misty mountain."),
    ("zh", "雪山脚下，邮递员陈默每天送一封没有收信人的信。"),
])
async def test_a_premise_of_one_person_alone_gets_one_other_not_a_stock_mentor_friend_and_rival(language, description):
    cast = await _cast_of(description, language)
    assert len(cast.all_characters()) == 2, cast


@pytest.mark.parametrize("language, description, name_said, background", [
    ("en", "A lighthouse keeper named Rowan Finch finds that a stranger washes ashore one stormy night.", "Rowan Finch",
     "a lighthouse keeper"),
    ("zh", "民国年间，落魄少爷沈墨在上海滩讨生活，他的青梅竹马苏婉儿一直在等他。", "苏婉儿", "沈墨的青梅竹马"),
])
async def test_a_character_sheets_background_says_who_they_are_not_an_empty_offline_placeholder(
        language, description, name_said, background):
    # "Who is Rowan?" answered "[offline sample] where Rowan Finch comes from."
    cast = await _cast_of(description, language)
    said = cast.by_name(name_said).background
    assert said.startswith(background) and "comes from" not in said and "来历" not in said and "[offline" not in said, said


async def test_an_unnamed_post_the_premise_says_does_harm_is_the_antagonist_not_an_invented_rival():
    # "船长隐瞒了航线的真相": the captain was no one, and an invented 宿敌 stood against the engineer.
    cast = await _cast_of("2150年，殖民飞船上的工程师陈默发现船长隐瞒了航线的真相。", "zh")
    assert cast.antagonist is not None and cast.antagonist.background.startswith("船长"), cast


async def test_a_school_story_is_set_today_and_its_one_unnamed_classmate_is_one_young_person():
    from core.llm.offline import OfflineLLM
    from schemas.novel import WorldSetting

    description = "高二女生林晓晓转学到新学校，同桌是个不爱说话的男孩。"
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="",
                                          facts={"language": "zh", "seed": "book", "description": description})
    cast = await _cast_of(description, "zh")
    assert "城门" not in world.geography and "当代" in world.time_period, world
    assert cast.protagonist.age < 20, cast.protagonist  # a 高二女生 was 30
    assert [(c.gender, c.background) for c in cast.supporting_characters] == [("男", "林晓晓的同桌")], cast


@pytest.mark.parametrize("description, named", [
    ("Two rival chefs, Sofia and Marco, compete for the same restaurant in Naples and fall in love.",
     [("Sofia", "chef"), ("Marco", "chef")]),
    ("The twin sisters, Ada Lark and Bea Lark, inherit a failing vineyard.", [("Ada Lark", "sister"), ("Bea Lark", "sister")]),
])
def test_names_said_after_a_plural_noun_of_people_are_each_one_of_them(description, named):
    # "Two rival chefs, Sofia and Marco," named no one: an invented lead and friend wrote the romance.
    assert [(c.name, c.said_as) for c in read.characters_in_description(description)] == named


def test_places_said_after_a_plural_noun_of_places_are_no_one():
    assert read.characters_in_description("In the towns, Paris and Lyon, nothing happens.") == []


def test_a_brother_is_no_place_the_book_is_set_in():
    # The world of a 北宋 escort's book was named 哥哥, which jieba tags a place name.
    assert read.setting_named("北宋末年，镖局少镖头谢云帆押送货物进京，途中遇到的刺客自称是他失散多年的哥哥。") != "哥哥"


@pytest.mark.parametrize("description, name", [
    ("A baker named Tom Hale runs a shop by the sea. A woman arrives with a sealed letter. She asks him to hide it.",
     "Tom Hale"),
    ("小城咖啡馆的店员许念遇见了每天来买咖啡的陌生男人，他总是坐在窗边写信。", "许念"),
])
def test_a_pronoun_after_someone_new_and_unnamed_is_theirs_not_the_named_ones(description, name):
    # "A woman arrives… She asks him": the baker Tom was written down as a woman.
    person = next(c for c in read.characters_in_description(description) if c.name == name)
    assert person.gender is None, person


@pytest.mark.parametrize("question", ["谁是幕后黑手", "主谋是谁", "who is the mastermind?", "who is behind it all?"])
def test_the_one_behind_it_all_asked_with_no_thing_led_is_the_antagonist_role(question):
    # "谁是幕后黑手" was read as a name the book lacks
    assert read.is_role(read.person_asked_about(question, described=True), "反派")
    assert read.leader_asked_of(question) is None


@pytest.mark.parametrize("sentence, names", [
    ("林远找到一封信，信是凶手写的", ["林远", "赵四"]),
    ("真凶是谁，周怀安一直不知道", ["周怀安", "赵四"]),
    ("Reid found the letter, and it was the killer who wrote it", ["Reid", "Vane"]),
])
def test_a_name_in_another_clause_than_the_culprit_word_is_not_the_culprit(sentence, names):
    # "林远找到一封信，信是凶手写的" answered "谁是幕后主使" with 林远, who only found the letter.
    from graphs.novel.understanding import culprit_named

    assert culprit_named(sentence, names) is None


@pytest.mark.parametrize("description, name", [
    ("Tom Hale runs a bakery", "Tom Hale"),
    ("Anna Reid inherits a vineyard in Tuscany.", "Anna Reid"),
])
def test_a_full_name_opening_the_premise_before_its_verb_is_the_lead(description, name):
    # "Tom Hale runs a bakery" got Tobias Stroud as its lead, and a friend "Nora Hale".
    cast = _offline_cast(description, "en")
    assert cast.protagonist.name == name, cast.names()


@pytest.mark.parametrize("description", ["New Haven sleeps under the snow", "Silver Creek hides a secret"])
def test_a_place_opening_the_premise_before_its_verb_is_no_character(description):
    assert read.characters_in_description(description) == []


def test_the_one_a_premise_says_is_the_culprit_of_a_named_crime_is_the_antagonist():
    # "周怀安才是灭门案的真凶" left the book with no antagonist: 周怀安 stood beside the hero as a 相识.
    cast = _offline_cast("镇远镖局的少镖头谢云帆护送一趟暗镖，途中发现父亲的结义兄弟周怀安才是灭门案的真凶", "zh")
    assert cast.antagonist is not None and cast.antagonist.name == "周怀安", cast


@pytest.mark.parametrize("description, language, elder", [
    ("镇远镖局的少镖头谢云帆护送一趟暗镖，途中发现父亲的结义兄弟周怀安才是灭门案的真凶", "zh", "周怀安"),
    ("Lena Hart learns that her father's partner, Silas Crane, is the real killer.", "en", "Silas Crane"),
])
def test_a_parent_s_friend_or_partner_is_of_the_parent_s_generation(description, language, elder):
    # "父亲的结义兄弟周怀安" was 16, younger than the 少镖头 whose father he swore brotherhood with.
    cast = _offline_cast(description, language)
    assert cast.by_name(elder).age >= 40, cast


@pytest.mark.parametrize("description", ["师父周怀安收了个徒弟", "一个叫周怀安的捕快追查灭门案", "县令周怀安心怀鬼胎"])
def test_a_three_character_name_before_a_one_character_verb_or_an_idiom_stays_whole(description):
    # "师父周怀安收了个徒弟" and "一个叫周怀安的捕快" made a character called 周怀.
    names = [c.name for c in read.characters_in_description(description)]
    assert "周怀安" in names and "周怀" not in names, names


def test_a_title_after_its_agency_keeps_its_shao_prefix():
    # "镖局少镖头谢云帆" wrote the boy down as the agency's 镖头, its head.
    people = read.characters_in_description("镇远镖局少镖头谢云帆押送一趟暗镖")
    assert [(c.name, c.said_as) for c in people] == [("谢云帆", "少镖头")]


@pytest.mark.parametrize("description, lead, calling", [
    ("周怀安是县城里的捕快，追查一桩灭门案", "周怀安", "捕快"),
    ("林晓是个记者，她在码头遇到一个陌生人", "林晓", "记者"),
])
def test_the_calling_a_premise_gives_its_lead_after_shi_is_theirs_not_a_strangers(description, lead, calling):
    # "周怀安是县城里的捕快" made an invented 苏青 the 捕快, and 周怀安 had no background.
    cast = _offline_cast(description, "zh")
    assert cast.protagonist.name == lead and cast.protagonist.background.startswith(calling), cast
    assert not any(c.background.startswith(calling) for c in cast.all_characters() if c.name != lead), cast


def test_a_school_romance_s_cast_is_the_two_it_names_whole_not_its_school_year():
    # "高二女生苏念和学霸江屿成了同桌" led with a "高二女" and cut 江屿 to 江屿成, with an invented 同桌 beside them.
    cast = _offline_cast("高二女生苏念和学霸江屿成了同桌，两人从互相看不顺眼到慢慢心动", "zh")
    assert sorted(cast.names()) == sorted(["苏念", "江屿"]) and cast.protagonist.name == "苏念", cast.names()


@pytest.mark.parametrize("description, name", [
    ("江南小镇上开茶馆的林婆婆，发现常来喝茶的老顾客死在了院子里", "林婆婆"),
    ("王伯死在了自家院子里，茶馆的伙计吓得说不出话", "王伯"),
])
def test_a_surname_and_an_old_person_s_title_is_a_character_ending_its_clause_or_before_a_verb(description, name):
    # "开茶馆的林婆婆，发现…" named no one (an invented 顾青 led the book), "王伯死在了…" named a 王伯死.
    assert name in [c.name for c in read.characters_in_description(description)]


def test_a_word_jieba_cut_in_two_before_a_name_is_no_character():
    # "地球化工程师陈岚" led the book with a 程师 (the end of 工程师), a 化工 by trade.
    people = read.characters_in_description("殖民星上，地球化工程师陈岚发现总督隐瞒了大气数据")
    assert [(c.name, c.said_as) for c in people] == [("陈岚", "工程师")]


@pytest.mark.parametrize("description, language, absent", [
    ("On the colony world Kepler's Reach, botanist Yara Okoye finds the terraforming is failing.", "en", "the harbour"),
    ("殖民星上，地球化工程师陈岚发现总督隐瞒了大气数据", "zh", "城门"),
])
def test_a_colony_world_is_a_planet_with_a_habitat_not_a_harbour(description, language, absent):
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import world

    setting = world(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                           "language": language}))
    assert absent not in setting.geography and ("habitat" in setting.geography or "栖息舱" in setting.geography), setting


def test_a_family_s_village_in_a_wuxia_premise_is_a_place_not_a_character():
    # "血洗萧家庄的黑衣人" put 萧家庄 in the cast, a 相识 of the hero, "血洗" by trade.
    cast = _offline_cast("大仇未报，少年剑客萧寒隐姓埋名拜入青城派，只为查出当年血洗萧家庄的黑衣人", "zh")
    assert "萧家庄" not in cast.names() and cast.protagonist.name == "萧寒", cast.names()


@pytest.mark.parametrize("description, named", [
    ("宫女沈知微入宫三年，卷入贵妃韩氏与皇后的争斗", "沈知微"),
    ("老顾客每天来面馆吃面，店主陈志明说了句话", "陈志明"),
])
def test_a_three_character_name_before_its_verb_keeps_its_third_character(description, named):
    # 沈知微 was 沈知 (jieba cut 微入), 陈志明 was 陈志 (jieba read 明说 as a verb).
    assert named in [c.name for c in read.characters_in_description(description)]


@pytest.mark.parametrize("description, going", [
    ("宫女沈知微入宫三年，卷入贵妃韩氏与皇后的争斗", "入宫"),
    ("少年剑客萧寒下山寻仇", "下山"),
    ("书生顾言进城赶考，住进一家客栈", "进城"),
])
def test_going_somewhere_is_no_place_the_story_is_set_in(description, going):
    # the world of a 宫女 entering the palace was named 入宫, a swordsman's coming down the mountain 下山
    assert going not in read.places_in_description(description)
    assert read.setting_named(description) != going


def test_a_city_whose_name_looks_like_going_somewhere_stays_a_place():
    assert "上海" in read.places_in_description("民国初年的上海，报童阿毛卷入一桩绑票案")


@pytest.mark.parametrize("description, name, said_as", [
    ("民国初年的上海码头，搬运工陈阿四卷入一桩洋行走私案", "陈阿四", "搬运工"),
    ("清洁工张秀英在写字楼里捡到一个U盘", "张秀英", "清洁工"),
    ("老顾客王伯每天来面馆吃面", "王伯", "老顾客"),
])
def test_someone_after_a_calling_jieba_misreads_is_of_the_cast(description, name, said_as):
    # 搬运工 is tagged a verb and 顾客 a name: 陈阿四 and 王伯 were left out, the lead invented instead
    people = {c.name: c.said_as for c in read.characters_in_description(description)}
    assert people.get(name) == said_as, people


@pytest.mark.parametrize("description, name, said_as", [
    ("Astronaut Mark Lee is stranded on Mars after a dust storm", "Mark Lee", "astronaut"),
    ("Botanist Ada Kerr grows potatoes in the colony greenhouse.", "Ada Kerr", "botanist"),
])
def test_a_trade_opening_the_sentence_before_a_full_name_brings_that_person_in(description, name, said_as):
    # "Astronaut Mark Lee" named no one: the offline cast was two invented strangers
    people = {c.name: c.said_as for c in read.characters_in_description(description)}
    assert people.get(name) == said_as, people


def test_siblings_named_after_the_word_for_them_are_the_cast_and_each_others_siblings():
    people = read.characters_in_description("Two siblings, Max and Lily, find a door in their grandmother's attic")
    assert [(c.name, c.said_as) for c in people] == [("Max", "sibling"), ("Lily", "sibling")]


@pytest.mark.parametrize("description, not_on_minds", [
    ("万历年间，镖局少镖头谢云帆押送一批神秘货物进京", ("万历", "万历年间", "镖局")),
    ("康熙年间，江南织造府的绣娘柳青发现了一匹藏着密信的云锦", ("康熙", "康熙年间")),
    ("宫女沈知微入宫三年，卷入贵妃韩氏与皇后的争斗", ("皇后", "贵妃")),
])
def test_the_reign_the_place_and_the_people_of_a_book_are_not_what_its_people_keep_thinking_of(
        description, not_on_minds):
    # "一路上，他们心里记挂着万历、镖局", and 皇后 on the minds of the 皇后 herself
    things = read.things_on_minds(description)
    assert things and not set(things) & set(not_on_minds), things


@pytest.mark.parametrize("description, lead", [
    ("Mira runs a tea shop with her brother, Tom, in a small town", "Mira"),
    ("Priya quits her job to sail around the world", "Priya"),
])
def test_a_single_name_opening_the_premise_with_her_or_his_after_its_verb_is_the_lead(description, lead):
    # "Mira runs a tea shop with her brother, Tom": Tom led the book and Mira was no one
    people = read.characters_in_description(description)
    assert people and people[0].name == lead, people


@pytest.mark.parametrize("description", ["Everyone loves her cooking", "Paris sleeps while a thief plans his heist"])
def test_a_word_for_anyone_or_a_city_opening_the_premise_is_no_lead(description):
    assert read.characters_in_description(description) == []


def test_a_chat_message_in_traditional_characters_is_read_as_its_simplified_twin():
    # "寫到第三章" matched no rule and went to the examples' guess; read as Simplified it is the order it is.
    from graphs.novel.chat import initial_input

    said = initial_input("寫到第三章", {"projectId": "book"})["text"]
    assert read.intent_by_rules(said) == read.intent_by_rules("写到第三章") == "generate"
