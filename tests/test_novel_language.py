"""A book is written in the language its author described the world in, whatever the interface's language."""

from __future__ import annotations

import uuid

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from core.i18n import t
from core.llm.offline import OfflineLLM
from core.novel.memory.derive import chapter_memory_items
from core.settings import Settings
from core.tools.novel import NovelConfig
from graphs.base import FlowContext
from graphs.novel.library import ProjectFiles
from graphs.novel.understanding import bare_chapter_title
from graphs.novel.workflow import build_graph, workflow_input
from schemas.novel import ChapterMemoryEntry, CharactersConfig, Outline, count_words

CJK = "\u3400-\u9fff"


async def write_first_chapter(tmp_path, world: str) -> ProjectFiles:
    config = NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", llm_provider="offline", _env_file=None))
    files = ProjectFiles.create(config, "book", world_description=world, initial_chapters=1)
    graph = build_graph().compile(checkpointer=InMemorySaver())
    await graph.ainvoke(workflow_input("book", to_chapter=1), {"configurable": {"thread_id": uuid.uuid4().hex}},
                        context=FlowContext(llm=OfflineLLM(), tools={"novel": config}))
    return files


async def test_a_world_described_in_english_gives_an_english_book_with_its_words_counted(tmp_path):
    files = await write_first_chapter(tmp_path, "A lighthouse keeper on a remote island sees ships from other centuries.")
    chapter = files.load_chapter(1)
    text = chapter.chapter_title + "".join(scene.content for scene in chapter.scenes)
    names = [c.name for c in files.load("characters").all_characters()]
    assert not any(CJK[0] <= ch <= CJK[2] for ch in text + "".join(names)), text
    assert chapter.total_words == sum(len(scene.content.split()) for scene in chapter.scenes)


async def test_a_world_described_in_chinese_still_gives_a_chinese_book(tmp_path):
    files = await write_first_chapter(tmp_path, "海上孤岛的灯塔守护人发现灯光会引来别的世纪的船")
    chapter = files.load_chapter(1)
    assert chapter.chapter_title.startswith("第1章")
    assert chapter.total_words == sum(count_words(scene.content) for scene in chapter.scenes)
    assert chapter.total_words == sum(len("".join(scene.content.split())) for scene in chapter.scenes)


def test_an_english_chapter_title_loses_its_number_and_colon_when_named_beside_its_number():
    assert bare_chapter_title("Chapter 2: The Harbour") == "The Harbour"
    assert bare_chapter_title("第二章 江畔") == "江畔"


async def _offline_cast_and_outline(language: str, chapters: int) -> tuple[CharactersConfig, Outline]:
    llm = OfflineLLM()
    facts = {"language": language, "seed": "book", "description": "a harbour town" if language == "en" else "港口小城"}
    characters = await llm.structured(CharactersConfig, role="novel", system="", prompt="", facts=facts)
    outline = await llm.structured(Outline, role="novel", system="", prompt="", facts={
        **facts, "chapters": chapters, "theme": {}, "characters": characters.model_dump()})
    return characters, outline


@pytest.mark.parametrize("language", ["zh", "en"])
async def test_an_offline_outline_never_has_the_protagonist_meet_themself(language):
    characters, outline = await _offline_cast_and_outline(language, 8)
    hero = characters.protagonist.name
    met = [event for chapter in outline.chapters for event in chapter.key_events[:1]]
    assert len(met) == 8 and all(event.count(hero) == 1 for event in met), met


@pytest.mark.parametrize("language", ["zh", "en"])
async def test_who_is_a_minor_character_reads_as_a_whole_sentence_whatever_their_role(tmp_path, language):
    from types import SimpleNamespace

    from core.i18n import current_locale, set_locale
    from graphs.novel.chat import _sheet_lines
    from graphs.novel.tools import GraphTool

    # one who shelters, one sheltered and one who betrays: a lead, someone beside them and their antagonist
    world = ("In a harbour town, a fisherman shelters a stranger, but a merchant betrays him." if language == "en"
             else "港口小城里，船夫收留了陌生人，却被商人出卖。")
    config = NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", llm_provider="offline", _env_file=None))
    files = ProjectFiles.create(config, "book", world_description=world, initial_chapters=1)
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": world})
    files.save("characters", cast)
    tools = SimpleNamespace(graph=GraphTool(config, "book"))
    before = current_locale()
    set_locale(language)
    try:
        lines = {c.role: _sheet_lines(tools, c.name, None, [], f"Who is {c.name}?" if language == "en" else f"{c.name}是谁？")[0]
                 for c in cast.all_characters()}
    finally:
        set_locale(before)
    assert len(lines) == 3, lines  # protagonist, antagonist, a supporting role
    # The role is named as what it is, a label, and never ends a sentence that needs a noun after it.
    for role, line in lines.items():
        assert (f"role in the book: {role};" if language == "en" else f"书中定位：{role}；") in line, line


@pytest.mark.parametrize("language", ["zh", "en"])
async def test_no_two_chapters_of_an_offline_outline_share_a_title(language):
    _characters, outline = await _offline_cast_and_outline(language, 10)
    titles = [bare_chapter_title(chapter.chapter_title) for chapter in outline.chapters]
    assert len(titles) == 10 and len(set(titles)) == 10, titles


async def test_an_earlier_event_recalled_in_an_english_scene_ends_on_a_whole_word():
    from schemas.novel import GeneratedScene

    memory = ("What the keeper saw that night changed everything she believed about the sea, the ships and "
              "the centuries between them")
    scene = await OfflineLLM().structured(GeneratedScene, role="novel", system="", prompt="", facts={
        "language": "en", "chapter_number": 2, "memories": [memory],
        "scene": {"scene_number": 1, "characters": ["Mara Reid"], "purpose": "a visit"}})
    recalled = next(line for line in scene.content.splitlines() if line.startswith("They remembered"))
    told = recalled.split(": ", 1)[1].rstrip(".…")
    assert memory.startswith(told) and not memory[len(told)].isalnum(), recalled


@pytest.mark.parametrize("language, description, named, ties", [
    ("en", "A harbour town where lanterns keep the sea spirits away: a girl named Mira and her brother Tom",
     {"Mira": ("protagonist", "female"), "Tom": ("supporting", "male")}, ("brother", "sister")),
    ("zh", "讲一个名叫林小雨的女孩和她的哥哥林大山的故事，灯塔在海上", {"林小雨": ("主角", "女"), "林大山": ("配角", "男")},
     ("哥哥", "妹妹")),
    # "Mr Graves" / "niece" were no one; a niece called her uncle her "close friend"
    ("en", "A retired inspector named Arthur Penhallow investigates a death. His niece Lucy helps.",
     {"Arthur Penhallow": ("protagonist", "male"), "Lucy": ("supporting", "female")}, ("niece", "uncle")),
])
async def test_characters_the_description_names_keep_their_names_and_ties_offline(language, description, named, ties):
    llm = OfflineLLM()
    cast = await llm.structured(CharactersConfig, role="novel", system="", prompt="",
                                facts={"language": language, "seed": "book", "description": description})
    people = {c.name: (c.role, c.gender) for c in cast.all_characters()}
    assert {name: people.get(name) for name in named} == named, people
    assert cast.protagonist.name == next(iter(named))
    hero, sibling = named
    sheet = {c.name: c.relationships for c in cast.all_characters()}
    assert (sheet[hero][sibling], sheet[sibling][hero]) == ties  # her brother Tom calls her his sister


@pytest.mark.parametrize("language, description, genders", [
    ("en", "Mira keeps the lighthouse on a storm island. She distrusts the new harbourmaster, Corin, because he lies "
           "about the wrecks.", {"Mira": "female", "Corin": "male"}),
    ("en", "A thief named Kestrel steals a crown; she flees north with her partner Doran.", {"Kestrel": "female"}),
    ("zh", "守塔人名叫阿青，他从小在岛上长大，朋友叫周野，她是渔夫。", {"阿青": "男", "周野": "女"}),
    # no pronoun: a title tells it, and nothing else is guessed ("赵先生" was written down as 女 at random)
    ("zh", "工程师名叫顾星河，舰长赵先生下令封锁消息，邻居王婶知道真相。", {"顾星河": "未知", "赵先生": "男", "王婶": "女"}),
    ("en", "A retired inspector named Arthur Penhallow, while Mr Graves, the innkeeper, hides something.",
     {"Arthur Penhallow": "unknown", "Mr Graves": "male"}),
])
async def test_a_character_the_description_calls_she_or_he_has_that_gender_offline(language, description, genders):
    # Without a word like "girl" the gender was drawn at random, so "she" of the description became "he" in the book.
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": description})
    people = {c.name: c.gender for c in cast.all_characters()}
    assert {name: people.get(name) for name in genders} == genders, people
    assert cast.protagonist.name == next(iter(genders))


async def test_no_two_characters_of_an_offline_english_cast_share_a_first_name():
    llm = OfflineLLM()
    for seed in ("lantern", "book", "demo", "harbor", "x1", "x2"):
        cast = await llm.structured(CharactersConfig, role="novel", system="", prompt="",
                                    facts={"language": "en", "seed": seed, "description": "a harbour town"})
        firsts = [c.name.split()[0] for c in cast.all_characters()]
        assert len(set(firsts)) == len(firsts), firsts


@pytest.mark.parametrize("number", [1, 2, 3])
async def test_an_offline_scene_where_the_protagonist_meets_someone_lists_who_they_meet(number):
    # "Tobiah meets Mara" was planned with the cast [Tobiah, Tobiah]: the scene said "Tobiah came to the inn" alone.
    from schemas.novel import ChapterPlan

    summary = {"chapter_number": number, "chapter_title": f"Chapter {number}",
               "key_events": ["Tobiah meets Mara Reid", "Tobiah chooses"]}
    characters = {"protagonist": {"name": "Tobiah"}, "antagonist": {"name": "Ines Vane"},
                  "supporting_characters": [{"name": "Mara Reid"}]}
    plan = await OfflineLLM().structured(ChapterPlan, role="novel", system="", prompt="", facts={
        "language": "en", "summary": summary, "characters": characters})
    assert all(scene.characters == ["Tobiah", "Mara Reid"] for scene in plan.scenes), plan.scenes


async def test_an_offline_chapter_memory_tells_each_event_once():
    llm = OfflineLLM()
    scene = {"location": "the inn", "characters": ["Mira", "Tom"], "scene_type": "dialogue", "intensity": "low"}
    plan = {"scenes": [{**scene, "scene_number": n, "purpose": purpose}
                       for n, purpose in enumerate(["Mira meets Tom", "Mira chooses", "Mira meets Tom"], 1)]}
    entry = await llm.structured(ChapterMemoryEntry, role="novel", system="", prompt="", facts={
        "language": "en", "chapter": {"chapter_number": 1, "chapter_title": "Chapter 1"}, "plan": plan, "summary": {}})
    assert entry.key_events == ["Mira meets Tom", "Mira chooses"]


async def test_she_in_an_english_follow_up_means_the_woman_just_asked_about(tmp_path):
    from app.runtime import new_thread_id
    from app.services import open_runtime

    await write_first_chapter(tmp_path, "A harbour town where lanterns keep the sea spirits away: a girl named Mira "
                                        "and her brother Tom")
    settings = Settings(data_dir=tmp_path / "data", llm_provider="offline", locale="en", _env_file=None)
    async with open_runtime(settings) as runtime:
        thread_id = new_thread_id()
        for first, text in ((True, "who is Mira?"), (False, "where is she now?")):
            await runtime.send_message(flow="novel", text=text, thread_id=thread_id, create=first,
                                       options={"projectId": "book"})
            await runtime.wait(thread_id)
        events = await runtime.store.events_after(thread_id)
    follow_up = events[max(i for i, (n, p) in enumerate(events) if n == "user:message"):]
    answers = [p["artifact"]["content"]["answer"] for n, p in follow_up
               if n == "tool:artifact" and p["artifact"]["type"] == "novel_answer"]
    assert not [n for n, p in follow_up if n == "interrupt"], "she is the one just asked about: no 'which character?'"
    assert len(answers) == 1 and "Mira" in answers[0], answers


@pytest.mark.parametrize("language, description, ties", [
    ("en", "A clockmaker named Ada and her apprentice Pell search the fog city", ("apprentice", "master")),
    ("en", "A girl named Ada and her student Pell", ("student", "teacher")),
    ("zh", "少女阿青和她的学生林晚", ("学生", "老师")),
    ("zh", "少女阿青和青梅竹马顾川", ("青梅竹马", "青梅竹马")),
])
async def test_a_described_pupil_or_teacher_calls_the_protagonist_by_the_other_side_of_the_tie(language, description, ties):
    # A described apprentice called the protagonist "close friend".
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": description})
    hero, other = cast.protagonist.name, cast.supporting_characters[0].name
    sheet = {c.name: c.relationships for c in cast.all_characters()}
    assert (sheet[hero][other], sheet[other][hero]) == ties, sheet


@pytest.mark.parametrize("language, description, thing", [
    ("en", "A clockmaker named Ada and her apprentice Pell search the fog city for a missing gear.", "gear"),
    ("zh", "海边小镇的少女阿青，和青梅竹马顾川一起寻找一张藏宝图", "藏宝图"),
])
async def test_an_offline_scene_carries_what_the_description_is_about(language, description, thing):
    # "did the gear appear?" found nothing: no offline scene ever named what the book was about.
    from schemas.novel import GeneratedScene

    scene = await OfflineLLM().structured(GeneratedScene, role="novel", system="", prompt="", facts={
        "language": language, "chapter_number": 1, "description": description,
        "scene": {"scene_number": 1, "characters": ["Ada"], "purpose": "a visit"}})
    assert thing in scene.content, scene.content


@pytest.mark.parametrize("language, memory, heading", [
    ("en", "[offline sample] Chapter 1, scene 2. Ada and Pell came to the inn.\nWhat the scene is for: a visit.",
     "Chapter 1, scene 2"),
    ("zh", "【离线示例】第1章第2场。阿青与顾川来到渡口。\n这一场的目的：相遇。", "第1章第2场"),
])
async def test_a_scene_recalls_an_earlier_event_not_its_heading(language, memory, heading):
    # "They remembered…: [offline sample] Chapter 1, scene 2. …" repeated the earlier scene's heading.
    from schemas.novel import GeneratedScene

    scene = await OfflineLLM().structured(GeneratedScene, role="novel", system="", prompt="", facts={
        "language": language, "chapter_number": 2, "memories": [memory],
        "scene": {"scene_number": 1, "characters": ["Ada"], "purpose": "a visit"}})
    recalled = next(line for line in scene.content.splitlines() if line.startswith(("They remembered", "他们想起")))
    assert heading not in recalled and ("came to the inn" in recalled or "来到渡口" in recalled), scene.content


def test_an_english_books_chapter_memory_is_quoted_back_without_chinese():
    entry = ChapterMemoryEntry(chapter_number=2, chapter_title="The Fog Bell", summary="Mira rings the bell at dusk.",
                               key_events=["Mira rings the bell."], character_states={"Mira": "tired but hopeful"})
    chunks = [chunk.content for chunk in chapter_memory_items("book", entry, ["Mira"]).chunks]
    assert chunks[0] == "Chapter 2, “The Fog Bell”: Mira rings the bell at dusk."
    assert "Mira: tired but hopeful" in chunks
    assert not any(CJK[0] <= ch <= CJK[2] for ch in "".join(chunks)), chunks


@pytest.mark.parametrize("language, description, gender, beside", [
    ("zh", "一个少年行走江湖，寻找失散的妹妹。邻居王婶收养了他，师父沈墨教他剑法。", "男", {"王婶": "邻居", "沈墨": "师父"}),
    ("en", "A young girl runs away to sea. Her brother Tom follows.", "female", {"Tom": "brother"}),
])
async def test_an_unnamed_lead_the_description_opens_with_is_the_protagonist_offline(language, description, gender, beside):
    # "一个少年行走江湖，…邻居王婶收养了他" made the neighbour 王婶 the protagonist, with the boy's master as hers.
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": description})
    hero = cast.protagonist
    assert (hero.name not in beside, hero.gender) == (True, gender), hero
    assert {name: (hero.relationships or {}).get(name) for name in beside} == beside, hero.relationships


async def test_a_lead_named_beside_the_words_that_bring_her_in_is_the_protagonist_offline():
    # "A lighthouse keeper's daughter, Mara, …" made an invented "Nora Penrose" the lead and Mara a friend of hers.
    description = ("A lighthouse keeper's daughter, Mara, finds letters from her missing mother; "
                   "her uncle Tobias, the harbourmaster, hides the truth.")
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": "en", "seed": "book", "description": description})
    assert (cast.protagonist.name, cast.protagonist.gender) == ("Mara", "female"), cast.protagonist


@pytest.mark.parametrize("description, lead", [
    # "Engineer Priya Nair" was no one: an invented "Captain Doyle" cast led the book and Priya was never in it
    ("A mining station orbiting Neptune. Engineer Priya Nair wakes from cryosleep to find the crew gone.", "Priya Nair"),
    ("Sister Agnes keeps the abbey's bees while the village starves.", "Agnes"),
])
async def test_a_lead_brought_in_by_a_capitalised_calling_is_the_protagonist_offline(description, lead):
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": "en", "seed": "book", "description": description})
    assert cast.protagonist.name == lead, cast.protagonist


async def test_a_character_called_with_capitals_inside_the_name_is_in_the_cast_offline():
    description = "Priya repairs the station; the station AI, called HALden, lies about the date."
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": "en", "seed": "book", "description": description})
    assert "HALden" in [c.name for c in cast.all_characters()]


@pytest.mark.parametrize("language, description, villain", [
    ("zh", "江南茶商世家，少女沈青禾接手濒临破产的茶庄，她的表哥顾远舟暗中勾结盐帮，老管家周伯知道当年的秘密", "顾远舟"),
    ("en", "A glassblower named Otto Brandt and his daughter Liesel run a furnace; the guild master, Anselm, schemes "
           "to seize their workshop.", "Anselm"),
    ("en", "A girl named Wren flies mail planes over the Andes. Her old rival Dario Salas sabotages her engine.",
     "Dario Salas"),
    ("en", "A young net-mender named Wren Talbot suspects her uncle Silas runs the smuggling ring that drowned her "
           "brother.", "Silas"),
    ("en", "On a mining station, the station doctor Amara Osei discovers that the company administrator, Lucas Brandt, "
           "has been hiding deaths in the ice mines.", "Lucas Brandt"),
    # a cover-up said in Chinese set no one against the lead: the book had no antagonist
    ("zh", "南极科考站的极夜里，气象员周晓发现越冬队员老陈失踪了，站长郑国平似乎隐瞒了什么", "郑国平"),
])
async def test_the_one_the_description_sets_against_the_lead_is_the_antagonist_offline(language, description, villain):
    # "反派是谁" named an invented 叶瑶 while the description's own schemer stood beside the lead as a friend.
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": description})
    assert cast.antagonist.name == villain, cast.antagonist
    assert villain not in [c.name for c in cast.supporting_characters]


async def test_a_cousin_set_against_the_lead_still_calls_her_his_cousin_offline():
    description = "少女沈青禾接手茶庄，她的表哥顾远舟暗中勾结盐帮"
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": "zh", "seed": "book", "description": description})
    assert (cast.protagonist.relationships["顾远舟"], cast.antagonist.relationships["沈青禾"]) == ("表哥", "表妹")
    assert cast.antagonist.gender == "男"


async def test_a_girl_is_young_and_an_old_steward_old_offline():
    # "少女沈青禾" was written down as 36 and "老管家周伯" as 25.
    description = "少女沈青禾接手濒临破产的茶庄，老管家周伯知道当年的秘密"
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": "zh", "seed": "tea", "description": description})
    ages = {c.name: c.age for c in cast.all_characters()}
    assert ages["沈青禾"] < 20 and ages["周伯"] >= 55, ages


@pytest.mark.parametrize("language, description, young, old", [
    ("en", "A young net-mender named Wren Talbot and a retired sailor named Jonas Hale watch the fens",
     "Wren Talbot", "Jonas Hale"),
    ("zh", "青城山下的小镖局少镖头谢云帆押镖遭劫，老船工陈伯救了他", "谢云帆", "陈伯"),
])
async def test_the_words_bringing_someone_in_say_whether_they_are_young_or_old_offline(language, description, young, old):
    # "A young net-mender named Wren Talbot" was 54 and "少镖头谢云帆" 55.
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "fen", "description": description})
    ages = {c.name: c.age for c in cast.all_characters()}
    assert ages[young] < 30 and ages[old] >= 55, ages


@pytest.mark.parametrize("language, description, name, youngest, oldest", [
    ("zh", "民国初年的江南水乡，摆渡人周老四某夜从运河里救起一个落水的陌生女子", "周老四", 30, 62),
    ("zh", "戈壁深处的小火车站，站长赵铁山收留了一个逃婚的姑娘", "赵铁山", 38, 65),
    ("zh", "药铺的学徒阿青在山里采药时捡到一块会发光的石头", "阿青", 14, 25),
    ("zh", "八十年代初的深圳，从湖南来打工的姑娘阿芳在电子厂认识了工友小陈", "阿芳", 16, 27),
    ("zh", "电子厂里，工友小陈总帮着阿芳，车间主任老郑却总找她的麻烦", "老郑", 50, 64),  # old, and still at work
    ("en", "On a flooded river, the ferryman Tom Hale carries a stranger who will not give her name", "Tom Hale", 30, 62),
    ("en", "At a lonely outpost, the station director Victor Kane hides a signal from the crew", "Victor Kane", 38, 65),
    ("en", "A student named Ben Lowe finds a map in the university library", "Ben Lowe", 14, 25),
])
@pytest.mark.parametrize("seed", ["river", "salt", "ember"])
async def test_someone_said_to_hold_a_post_or_calling_is_of_an_age_that_fits_it_offline(
        language, description, name, youngest, oldest, seed):
    # A premise saying nothing of age left it to chance: a ferryman or a station chief was 17, a student 52.
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": seed, "description": description})
    ages = {c.name: c.age for c in cast.all_characters()}
    assert youngest <= ages[name] <= oldest, ages


@pytest.mark.parametrize("locale, world, question, said", [
    # four things the scenes keep in mind, before the one only the description names (places are in no one's mind)
    ("en", "A harbour of fog, a lantern market, an old lighthouse, a sunken bell, a cracked compass, a drowned choir "
           "and a stolen chart. The engineer Priya Nair owes money to the Salt Guild.",
     "what is the Salt Guild?", "owes money to the Salt Guild"),
    # (the lead's first deed opens chapter 1, so the thing is said in a later sentence of the description)
    ("zh", "海边的雾城。少女沈青禾在码头补网。她欠了盐帮一笔债。", "盐帮是什么", "她欠了盐帮一笔债"),
])
async def test_a_thing_only_the_world_description_names_is_answered_from_it(tmp_path, locale, world, question, said):
    # "what is the Salt Guild" answered "the book has nothing on it" though the author's description names it.
    told = "\n".join(await _chat_replies(tmp_path, world, question, locale))
    assert said in told and t("novel.chat_nothing_found", question=question) not in told


@pytest.mark.parametrize("language, world, name, post", [
    ("zh", "她与捕快赵铁柱暗中查访", "赵铁柱", "捕快"),
    ("en", "the harbor constable Walter Briggs is in league with the smugglers", "Walter Briggs", "constable"),
])
async def test_who_is_someone_says_their_post_not_only_their_role_in_the_book(tmp_path, language, world, name, post):
    # "赵铁柱是谁" answered only "书中定位：主角": the 捕快 the description calls him was left out.
    from types import SimpleNamespace

    from core.i18n import current_locale, set_locale
    from graphs.novel.chat import _sheet_lines
    from graphs.novel.tools import GraphTool

    config = NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", llm_provider="offline", _env_file=None))
    files = ProjectFiles.create(config, "book", world_description=world, initial_chapters=1)
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="",
                                         facts={"language": language, "seed": "book", "description": world})
    files.save("characters", cast)
    before = current_locale()
    set_locale(language)
    try:
        lines = _sheet_lines(SimpleNamespace(graph=GraphTool(config, "book")), name, None, [],
                             f"Who is {name}?" if language == "en" else f"{name}是谁？")
    finally:
        set_locale(before)
    assert any(post in line for line in lines), lines


@pytest.mark.parametrize("language, world, asked, name", [
    ("zh", "县衙里，师爷钱谦益言其失足，她与捕快赵铁柱暗中查访", "师爷", "钱谦益"),
    ("en", "Elias and the postmistress, June Alder, suspect the harbor constable Walter Briggs.", "postmistress",
     "June Alder"),
])
async def test_who_is_a_calling_names_the_one_whose_sheet_says_it(tmp_path, language, world, asked, name):
    # "who is the postmistress?" said no chapter mentions it, and "师爷是谁" that the book has no 师爷.
    from types import SimpleNamespace

    from graphs.novel import understanding as read
    from graphs.novel.chat import _held_by_calling
    from graphs.novel.tools import GraphTool

    config = NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", llm_provider="offline", _env_file=None))
    files = ProjectFiles.create(config, "book", world_description=world, initial_chapters=1)
    files.save("characters", await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": language, "seed": "book", "description": world}))
    described = read.person_asked_about(f"who is the {asked}?" if language == "en" else f"{asked}是谁", described=True)
    assert read.is_calling(described) and not read.is_calling("Walter Briggs") and not read.is_calling("海瑞")
    assert _held_by_calling(SimpleNamespace(graph=GraphTool(config, "book")), described) == name


async def _chat_replies(tmp_path, world: str, question: str, locale: str, backgrounds: dict[str, str] | None = None
                        ) -> list[str]:
    """The assistant's final messages to one question on a one-chapter offline book of `world`; `backgrounds`
    rewrites the character sheet's background of the ones it names, as a model's sheet would say it."""
    from app.runtime import new_thread_id
    from app.services import open_runtime

    files = await write_first_chapter(tmp_path, world)
    if backgrounds:
        cast = files.project.load_characters()
        for person in [cast.protagonist, *([cast.antagonist] if cast.antagonist else []), *cast.supporting_characters]:
            person.background = backgrounds.get(person.name, person.background)
        files.project.save_characters(cast)
    settings = Settings(data_dir=tmp_path / "data", llm_provider="offline", locale=locale, _env_file=None)
    async with open_runtime(settings) as runtime:
        thread_id = new_thread_id()
        await runtime.send_message(flow="novel", text=question, thread_id=thread_id, create=True,
                                   options={"projectId": "book"})
        await runtime.wait(thread_id)
        events = await runtime.store.events_after(thread_id)
    asked = max(i for i, (n, p) in enumerate(events) if n == "user:message")
    return [p["content"] for n, p in events[asked:] if n == "message" and p.get("final")]


async def test_who_runs_a_ring_names_the_one_the_description_says_runs_it(tmp_path):
    # "who runs the smuggling ring" quoted a scene only naming the ring ("their minds were on ... the smuggling ring").
    # (the lead's first deed opens chapter 1, so the ring is said in a later sentence of the description)
    world = ("A fishing village on the edge of the fens. A young net-mender named Wren Talbot mends nets on the quay. "
             "She suspects her uncle Silas runs the smuggling ring that drowned her brother.")
    replies = await _chat_replies(tmp_path, world, "who runs the smuggling ring?", "en")
    sentence = "She suspects her uncle Silas runs the smuggling ring that drowned her brother."
    assert replies[-1] == t("novel.chat_leader_by_world", name="Silas", thing="the smuggling ring", quote=sentence,
                            locale="en"), replies


async def test_who_leads_a_gang_nobody_is_said_to_lead_is_not_answered_with_another_clause(tmp_path):
    # "谁是漕帮的老大" quoted "…漕帮少年陆青川联手追查，幕后主使是…": the 主使 there leads no 漕帮.
    world = "清末运河小镇。船家女沈秋菱与漕帮少年陆青川联手追查，幕后主使是镇上的盐商周德昌。"
    replies = await _chat_replies(tmp_path, world, "谁是漕帮的老大", "zh")
    # 盐商周德昌 is in the cast, the antagonist: named as such, not as the 漕帮's leader
    assert replies[-1] == t("novel.chat_leader_antagonist", thing="漕帮", name="周德昌", locale="zh"), replies


@pytest.mark.parametrize("world, question, locale, villain", [
    ("清末运河小镇。船家女沈秋菱与漕帮少年陆青川联手追查，幕后主使是镇上的盐商周德昌。", "谁是幕后黑手", "zh", "周德昌"),
    ("A fishing village on the edge of the fens. A young net-mender named Wren Talbot mends nets on the quay. "
     "She suspects her uncle Silas runs the smuggling ring that drowned her brother.", "who is behind it all?", "en",
     "Silas")])
async def test_who_is_behind_it_all_names_the_antagonist_of_the_character_sheet(tmp_path, world, question, locale,
                                                                             villain):
    # "谁是幕后黑手" was answered "书中没有叫'幕后黑手'的人物": it asks for the villain, not a name
    replies = await _chat_replies(tmp_path, world, question, locale)
    assert "幕后黑手”的人物" not in replies[-1] and "no character called" not in replies[-1], replies
    # the character sheet's antagonist, with what the sheet and the author's description say of them
    role = {"zh": "反派", "en": "antagonist"}[locale]
    opening = t("novel.chat_answer_whois", name=villain, role=role, relations="", locale=locale).split(role)[0]
    assert replies[-1].startswith(opening + role), replies


async def test_who_is_behind_a_case_names_the_one_the_description_calls_the_mastermind(tmp_path):
    # "谁是盐案的主谋" quoted "…追查盐案，幕后主使是镇上的盐商周德昌" without naming 周德昌: the clause naming him
    # does not hold 盐案
    world = "清末运河小镇。船家女沈秋菱与漕帮少年陆青川联手追查盐案，幕后主使是镇上的盐商周德昌。"
    replies = await _chat_replies(tmp_path, world, "谁是盐案的主谋", "zh")
    sentence = "船家女沈秋菱与漕帮少年陆青川联手追查盐案，幕后主使是镇上的盐商周德昌。"
    assert replies[-1] == t("novel.chat_leader_by_world", name="周德昌", thing="盐案", quote=sentence, locale="zh"), \
        replies


async def test_who_runs_a_place_is_not_the_one_whose_calling_only_names_it(tmp_path):
    # "who runs the station?" answered "Amara Osei runs the station: a station doctor".
    world = "On a mining station orbiting Europa, the station doctor Amara Osei finds that her brother Kofi is missing."
    replies = await _chat_replies(tmp_path, world, "who runs the station?", "en")
    assert "Amara Osei runs" not in replies[-1] and replies[-1].startswith(
        t("novel.chat_leader_unknown", thing="the station", cast="", locale="en").strip()), replies


async def test_what_someone_does_is_answered_from_their_character_sheet(tmp_path):
    # "What does Owen do?" quoted the description's "Owen Hale and his sister Maren", though his sheet says he
    # is a constable.
    world = "A foggy northern coast. A man named Owen Hale and his sister Maren search the shore for lost boats."
    replies = await _chat_replies(tmp_path, world, "What does Owen do?", "en",
                                  backgrounds={"Owen Hale": "A constable of the coast watch, born in the village."})
    assert "constable" in replies[-1], replies


async def test_what_someone_does_quotes_the_words_set_beside_their_name(tmp_path):
    # "What is Maren's job?" quoted "…his sister Maren" and left off ", a lighthouse keeper" after the comma.
    world = "A foggy northern coast where the constable Owen Hale and his sister Maren, a lighthouse keeper, search."
    replies = await _chat_replies(tmp_path, world, "What is Maren's job?", "en")
    assert "lighthouse keeper" in replies[-1], replies


async def test_a_thing_asked_of_is_not_answered_with_what_the_people_have_in_mind(tmp_path):
    # "Who stole the astrolabe?" quoted "All the while their minds were on … a stolen brass astrolabe" as the story.
    world = "In a desert trading city, the cartographer Ines Alvar searches for a stolen brass astrolabe."
    replies = await _chat_replies(tmp_path, world, "Who stole the astrolabe?", "en")
    assert "minds were on" not in replies[-1] and "stolen brass astrolabe" in replies[-1], replies


async def test_a_deed_no_chapter_tells_is_said_untold_not_answered_with_other_events(tmp_path):
    # "谁在幕后诬陷许青禾的父亲" was answered with 许青禾's meetings and choices, which tell nothing of it.
    # (the lead's first deed opens chapter 1, so the 诬陷 is said in a later clause of the description)
    world = "民国初年的徽州茶乡，采茶女许青禾在茶园采茶，她想查清父亲被诬陷的真相。邻居林秀云暗中帮她。"
    replies = await _chat_replies(tmp_path, world, "谁在幕后诬陷许青禾的父亲", "zh")
    assert replies[-1].startswith(t("novel.chat_untold", written=1, words="诬陷、父亲", locale="zh")), replies
    assert "她想查清父亲被诬陷的真相" in replies[-1]


async def test_who_is_quotes_the_world_description_naming_them(tmp_path):
    # "林秀云是谁" gave the offline sheet's empty background and missed "邻居林秀云暗中帮她".
    world = "民国初年的徽州茶乡，采茶女许青禾想查清父亲被诬陷的真相。邻居林秀云暗中帮她。"
    replies = await _chat_replies(tmp_path, world, "林秀云是谁", "zh")
    assert "邻居林秀云暗中帮她" in replies[-1], replies


async def test_whether_someone_knows_of_a_thing_quotes_the_scene_naming_it(tmp_path):
    # "Does Ines know about the astrolabe yet" quoted scenes of whom she met, none naming the astrolabe.
    world = "In 1890s Lisbon, a young cartographer named Ines Duarte wants to recover her father's lost astrolabe."
    replies = await _chat_replies(tmp_path, world, "Does Ines know about the astrolabe yet", "en")
    assert "astrolabe" in replies[-1].split("[chapter")[0], replies


async def test_a_premise_in_traditional_characters_casts_the_people_of_its_simplified_twin(tmp_path):
    # The names come out Simplified (沈墨 either way, 林小滿 as 林小满): the offline book is written in Simplified,
    # and a name in another script from the sentences around it reads as a typo.
    casts = []
    for n, world in enumerate(("民國年間，落魄少爺沈墨在上海灘救起落水的陌生人，從此捲入幫派與家族的恩怨。",
                               "民国年间，落魄少爷沈墨在上海滩救起落水的陌生人，从此卷入帮派与家族的恩怨。")):
        files = await write_first_chapter(tmp_path / str(n), world)
        casts.append([(c.name, c.background) for c in files.load("characters").all_characters()])
    assert casts[0] == casts[1], casts
