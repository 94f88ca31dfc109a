"""What a reader sees of an offline book: its age kept in its places, its people's names whole, no cut clauses."""

from __future__ import annotations

import json

import pytest

from core.llm.offline import OfflineLLM
from core.novel.project import NovelProject
from core.retrieval.bm25 import BM25Index
from core.settings import Settings
from graphs.novel import offline  # noqa: F401  (registers the offline composers)
from graphs.novel.offline import EN_PLACES
from schemas.novel import ChapterPlan, WorldSetting


ANCIENT_PLACES = {"城门", "旧书院", "山道", "渡口", "集市", "后山竹林", "议事厅", "客栈",
                  "the harbour", "the old library", "the cliff path", "the ferry landing", "the market", "the pine wood",
                  "the council hall", "the inn"}


async def _scene_places(language: str, description: str, world: dict | None = None) -> set[str]:
    places: set[str] = set()
    for number in (1, 2, 3, 4):
        summary = {"chapter_number": number, "chapter_title": f"{number}", "key_events": ["a meeting"]}
        plan = await OfflineLLM().structured(ChapterPlan, role="novel", system="", prompt="", facts={
            "language": language, "summary": summary, "characters": {"protagonist": {"name": "X"}},
            "description": description, "world": world or {}})
        places |= {scene.location for scene in plan.scenes}
    return places


@pytest.mark.parametrize("language, description", [
    ("zh", "2087年的新港市，义体黑客苏晚晴受雇潜入天穹科技的数据中心，偷出一段被删除的记忆芯片"),
    ("zh", "都市白领林晓在一家互联网公司加班时，发现同事的手机里藏着失踪案的线索"),
    ("en", "A cyberpunk megacity where a hacker named Juno Park steals a memory implant from an orbital corporation"),
    ("en", "A detective named Nell Ortiz works the night shift at a Chicago police precinct"),
    # a decade said in words: a 1980s factory girl met her workmates at 议事厅 and 渡口
    ("zh", "八十年代初的深圳，从湖南来打工的姑娘阿芳在电子厂流水线上认识了工友小陈"),
])
async def test_a_modern_or_future_book_meets_in_places_of_its_age_not_at_city_gates_and_inns(language, description):
    # A cyberpunk book's hacker met her fixer at 城门, 渡口 and 客栈 every chapter.
    places = await _scene_places(language, description)
    assert places and not places & ANCIENT_PLACES, places


@pytest.mark.parametrize("language, description", [
    ("zh", "民国初年的上海码头，搬运工陈阿四卷入一桩洋行走私案"),
    ("en", "In 1925 a jazz singer named Rose Callahan witnesses a murder in a Chicago speakeasy"),
])
async def test_a_book_of_the_early_twentieth_century_meets_neither_at_a_convenience_store_nor_a_city_gate(
        language, description):
    # A 民国 Shanghai-docks book met at 便利店 and 地铁站: 民国 was read as the present day.
    from graphs.novel.offline import ERA_PLACES

    places = await _scene_places(language, description)
    assert places and not places & (ANCIENT_PLACES | set(ERA_PLACES["modern"][language])), places


@pytest.mark.parametrize("language, description, own", [
    ("zh", "清末江南运河小镇，私盐贩子横行，船家女沈秋菱追查父亲的死因", {"江南运河", "小镇", "运河码头", "运河边", "镇口"}),
    ("en", "A fishing village on the edge of the fens, where smugglers move through the reed channels to the old abbey",
     {"the fishing village", "the fens", "the reed channels", "the old abbey"}),
    ("en", "On a mining station orbiting Europa, the station doctor Amara Osei finds deaths hidden in the ice mines",
     {"the mining station", "the ice mines", *EN_PLACES}),
])
async def test_a_book_meets_at_the_places_its_premise_names_not_at_another_towns(language, description, own):
    # A 清末 canal town met at 电车站, 火车站月台 and 洋行门口, a Shanghai of its age; the fens at a council hall; a
    # station doctor's book at "the station" (her calling, not a place).
    places = await _scene_places(language, description)
    assert places and places <= own | {"镇上的茶馆"}, places


@pytest.mark.parametrize("description", ["民国年间，落魄书生陈默为了一笔旧债四处奔走", "民国初年，戏班武生周小楼与班主反目"])
async def test_a_minguo_saga_that_names_no_place_meets_where_any_town_of_its_age_would_not_in_shanghai(description):
    # Its scenes sat at a 电车站 and a 洋行门口, places of a treaty port the description never named.
    places = await _scene_places("zh", description)
    assert places and not places & {"电车站", "洋行门口", "弄堂口"}, places


async def test_an_offline_future_worlds_geography_names_places_of_its_age():
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": "赛博朋克的霓虹都市，人人装着义体"})
    assert not any(place in world.geography for place in ANCIENT_PLACES), world.geography


def test_a_characters_rare_name_is_found_in_the_passages_that_name_it():
    # jieba cut "韩岚与仓书道了别" into 仓 / 书道: a search for 仓书 found no passage of his.
    passages = ["韩岚与仓书道了别。", "旧书院里满是书。", "韩岚独自上了山道。"]
    assert [position for position, _ in BM25Index(passages, keep=["仓书"]).search("仓书")] == [0]


def test_reading_one_books_cast_leaves_how_every_other_text_is_cut_as_it_was(tmp_path):
    # Loading characters.json added its names to jieba's dictionary, which the whole process shares: another
    # book's description, a statute or a slide was cut by this book's names ever after.
    import jieba

    settings = Settings(data_dir=tmp_path / "data", novel_projects_dir=tmp_path / "projects", _env_file=None)
    root = settings.projects_dir / "book"
    root.mkdir(parents=True)
    person = {"role": "主角", "gender": "男", "appearance": "-", "personality": "-", "background": "-", "motivation": "-"}
    (root / "characters.json").write_text(json.dumps({"protagonist": {"name": "书道明", **person}}, ensure_ascii=False))
    before = jieba.lcut("他在书道明心")
    NovelProject.at("book", settings).load_characters()
    assert jieba.lcut("他在书道明心") == before


@pytest.mark.parametrize("language, conflict, tail", [
    ("en", "[offline sample] in the Land of Bath, the protagonist stands for “the truth” against a forged will "
           "and the family that profits from it", "against a forged will and the family that profits from it"),
    ("zh", "【离线示例】主角在明朝嘉靖年间之境中追查漕银失窃案，与南京守备太监周旋，为“清白”与旧秩序对抗", "与旧秩序对抗"),
])
async def test_an_offline_chapter_summary_quotes_the_conflict_in_whole_clauses_and_tags_once(language, conflict, tail):
    # "…in chapter 1: [offline sample] in The Land of Bath, the protagonist stands for" ended mid-clause.
    from schemas.novel import Outline

    outline = await OfflineLLM().structured(Outline, role="novel", system="", prompt="", facts={
        "language": language, "chapters": 1, "theme": {"main_conflict": conflict},
        "characters": {"protagonist": {"name": "Harriet"}}})
    summary = outline.chapters[0].summary
    tag = "[offline sample]" if language == "en" else "【离线示例】"
    assert summary.count(tag) == 1, summary
    assert summary.rstrip("…").endswith(("Bath", "周旋")), summary  # the last clause that fits, whole
    assert tail not in summary


async def test_an_english_scene_names_what_a_possessive_owns_not_a_dangling_adjective():
    # "All the while their minds were on the late." of "…forged his late brother's will".
    from schemas.novel import GeneratedScene

    scene = await OfflineLLM().structured(GeneratedScene, role="novel", system="", prompt="", facts={
        "language": "en", "chapter_number": 1, "scene": {"scene_number": 1, "characters": ["Harriet Lane"]},
        "description": "A penniless governess named Harriet Lane discovers that her employer forged his late brother's will"})
    assert "the late brother's will" in scene.content and "on the late." not in scene.content, scene.content


@pytest.mark.parametrize("language, description, name", [
    ("en", "In Regency-era Bath, a governess named Harriet Lane uncovers a forged will", "Regency-era Bath"),
    ("zh", "在一个被诅咒的海边小镇上住着一只会说话的猫", "海边小镇"),
])
async def test_an_offline_world_is_named_from_whole_words_of_the_description(language, description, name):
    # "The Land of In Regency-era Bath", "在一个被诅咒的海边小镇上住之境": a word cut or a preposition left in.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": language, "description": description})
    assert world.world_name == name


@pytest.mark.parametrize("language, description, name", [
    ("zh", "一个在火星上种土豆的植物学家，被困后靠自己活下来", "火星"),
    ("en", "a botanist stranded on Mars grows potatoes to survive", "Mars"),
    ("zh", "一艘远洋货轮在风暴中失联，大副和厨娘必须在海上找到回家的路", "海上"),  # not 风暴, no place
    # the city sought is not where the book is set: the desert crossed is
    ("zh", "大漠驼队穿越戈壁，向导阿依古丽寻找失落的古城", "大漠"),
    ("zh", "一支驼队穿越沙漠，寻找传说中的古城", "沙漠"),
])
async def test_an_offline_world_is_named_after_where_the_premise_is_set(language, description, name):
    # "一个在火星上种土豆的之境": the premise's first words, cut, were the world's name.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": language, "description": description})
    assert world.world_name == name


@pytest.mark.parametrize("description, name", [
    ("1980年代的东北小城，下岗工人王建国在录像厅里发现了一桩旧案", "东北小城"),
    ("九十年代的西北矿区，会计在账本里发现了一笔亏空", "西北矿区"),
])
async def test_a_premise_opening_on_a_place_is_set_there_not_where_its_lead_acts(description, name):
    # "录像厅", "账本": the room a later clause put the lead in named a whole book's world.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    assert world.world_name == name


@pytest.mark.parametrize("language, description, place", [
    ("zh", "一个在火星上种土豆的植物学家，被困后靠自己活下来", "温室"),
    ("en", "a botanist stranded on Mars grows potatoes to survive", "the greenhouse"),
])
async def test_a_stranded_botanist_on_mars_meets_in_the_base_not_at_a_ferry(language, description, place):
    # His scenes met at 议事厅 and 渡口, the timeless places of a book of no age.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": language, "description": description})
    assert place in world.geography and "渡口" not in world.geography and "ferry" not in world.geography


@pytest.mark.parametrize("language, description, place", [
    ("zh", "大漠驼队穿越戈壁，向导阿依古丽寻找失落的古城", "绿洲"),
    ("zh", "南极科考站里，气象员周晓在极夜中发现一名队员失踪", "冰原"),
    ("zh", "深山里的采药人沈青，靠一本医书救活了全村的人", "山道"),
    ("zh", "东北林海里，护林员老韩遇见一只受伤的东北虎", "林间小径"),
    ("en", "In the Sahara, a caravan guide named Idris crosses the dunes", "the oasis"),
    ("en", "On a remote island, the lighthouse keeper Mara Quill finds a message in a bottle", "the jetty"),
    ("en", "A small village in the Yorkshire countryside hides a murder", "the village green"),
])
async def test_a_desert_ice_mountain_forest_island_or_village_story_meets_at_its_own_places(language, description, place):
    # A desert caravan met at 城门 and 集市, an island keeper at the council hall: the places of a city.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": language, "description": description})
    assert place in world.geography, world.geography
    assert not {"城门", "城中集市", "议事厅", "the council hall", "the market"} & set(world.geography.replace("，", "、")
                                                                           .replace(", ", "、").split("、"))
    assert "全村" not in world.geography  # the whole village's people, no place


@pytest.mark.parametrize("description, land", [
    ("民国初年，摆渡人周老四在运河上撑了三十年船", "运河一带："),
    ("赛博朋克的霓虹都市，人人装着义体", "一座未来都市："),
    ("一个少年拜师学剑，誓要为父报仇", "一座古城内外："),
])
async def test_the_chinese_geography_of_a_book_of_no_special_setting_names_its_land(description, land):
    # "城门、旧书院、山道、渡口相连的一片土地" was said of every such book: a list of places, no land.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    assert world.geography.removeprefix("【离线示例】").startswith(land) and "相连的一片土地" not in world.geography, \
        world.geography


@pytest.mark.parametrize("description, world_name, land", [
    ("A detective in 1920s Shanghai hunts a smuggler", "Shanghai", "Shanghai, around the docks"),
    ("A nurse in present-day London finds a letter from her dead mother", "London", "London, around"),
])
async def test_the_english_world_of_a_book_of_no_special_setting_is_named_after_its_place(description, world_name, land):
    # "The Land of detective in 1920s Shanghai", and "a country where the docks, the tea room … meet".
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": description})
    assert world.world_name == world_name
    assert world.geography.removeprefix("[offline sample] ").startswith(land) and "country where" not in world.geography


async def test_the_english_geography_of_a_book_of_no_place_or_age_names_a_town_not_a_country():
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": "A young swordsman trains to avenge his father"})
    assert world.geography.removeprefix("[offline sample] ").startswith("An old walled town and the country round it: ")


async def test_the_geography_of_a_mars_story_is_no_country():
    # "a country where the habitat, the greenhouse, the airlock and the control module meet"
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": "a botanist stranded on Mars grows potatoes to survive"})
    assert "country" not in world.geography and world.geography.endswith("Mars, around the habitat, the greenhouse, "
                                                                         "the airlock and the control module")


async def test_an_island_book_names_its_island_once_and_whole():
    # "an island, around the storm-bound Hebridean island, …" and an age suiting “storm-bound Hebridean”.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": "On a storm-bound Hebridean island, the lighthouse keeper Mara Quill finds "
                                         "a drowned stranger"})
    assert world.geography.count("island") == 1 and world.geography.endswith(
        "the storm-bound Hebridean island, around the jetty, the lighthouse, the rocky shore and the fishing huts")
    # no age is said: the time period says so, not "an age that suits" a cut phrase of the island
    assert world.time_period.endswith("an age the description leaves unsaid"), world.time_period


async def test_a_book_set_in_the_sahara_is_named_after_it():
    # "The Land of Sahara": "in the Sahara" was no setting named, for its article.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": "In the Sahara, a caravan guide named Idris crosses the dunes"})
    assert world.world_name == "Sahara"


async def test_a_night_at_a_convenience_store_is_set_among_todays_places():
    # "深夜的便利店里…" was the world "深夜的便利店里之境", its scenes at 城门 and 渡口.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": "深夜的便利店里，收银员发现每晚三点都有一个不说话的老人来买牛奶"})
    assert world.world_name == "便利店" and "渡口" not in world.geography and "城门" not in world.geography


async def test_a_scene_recalls_a_long_earlier_line_up_to_a_clause_end_not_mid_word():
    from schemas.novel import GeneratedScene

    memory = "韩岚与仓书来到渡口，仓书心里一直记挂着那本失传的账册和南京守备太监留下的暗号与城外的火光，迟迟不肯上船。"
    scene = await OfflineLLM().structured(GeneratedScene, role="novel", system="", prompt="", facts={
        "language": "zh", "chapter_number": 2, "memories": [memory],
        "scene": {"scene_number": 1, "characters": ["仓书"], "purpose": "追查"}})
    recalled = next(line for line in scene.content.splitlines() if line.startswith("他们想起"))
    assert recalled == "他们想起了前事：韩岚与仓书来到渡口……", recalled


async def test_a_passage_the_chat_finds_is_never_a_bare_scene_heading(tmp_path):
    # "第三章讲了什么" cited 〔第 3 章第 1 场〕「【离线示例】第3章第1场。」, a heading that says nothing.
    import uuid

    from langgraph.checkpoint.memory import InMemorySaver

    from core.tools.novel import NovelConfig
    from graphs.base import FlowContext
    from graphs.novel.library import ProjectFiles
    from graphs.novel.workflow import build_graph, workflow_input

    config = NovelConfig.from_settings(Settings(data_dir=tmp_path / "data", llm_provider="offline", _env_file=None))
    files = ProjectFiles.create(config, "book", world_description="2087年的新港市，黑客苏晚晴潜入数据中心", initial_chapters=1)
    graph = build_graph().compile(checkpointer=InMemorySaver())
    await graph.ainvoke(workflow_input("book", to_chapter=1), {"configurable": {"thread_id": uuid.uuid4().hex}},
                        context=FlowContext(llm=OfflineLLM(), tools={"novel": config}))
    found = [p.text for p in await files.search_passages("第1章第1场讲了什么", [], 10)]
    assert found and not [text for text in found if text.endswith("第1章第1场。")], found


@pytest.mark.parametrize("description", ["明朝嘉靖年间，锦衣卫小旗仓书奉命追查一桩漕银失窃案", "书生仓书赶考途中遇到狐妖"])
async def test_a_lead_of_a_rare_surname_named_after_their_post_leads_the_cast(description):
    # 仓 is no common surname: an invented 陆舟 led the book and 仓书 was "记挂着" as a thing beside 漕银.
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "zh", "seed": "book", "description": description})
    assert cast.protagonist.name == "仓书", cast.protagonist


@pytest.mark.parametrize("line", ["【离线示例】这一场的目的：苏晚晴遇到顾铭。", "这一场的目的：苏晚晴遇到顾铭。", "气氛低，场景在日常中收束。",
                                  "What the scene is for: Ada meets Mara.",
                                  "The mood was low, and the scene closed on dialogue.",
                                  "All the while their minds were on a desert trading city, a stolen brass astrolabe.",
                                  "【离线示例】一路上，他们心里记挂着烟土、账簿。"])
def test_a_note_of_the_scene_plan_is_no_story_text_to_quote(line):
    # "苏晚晴去了哪里" cited 「这一场的目的：苏晚晴遇到杜三爷。」, the plan's note, as what the book says.
    assert offline.is_scene_note(line)
    assert not offline.is_scene_note("苏晚晴与顾铭来到地铁站。")


@pytest.mark.parametrize("language, scene_type, intensity, awkward", [
    ("zh", "对话", "中", ("收束", "气氛中")), ("zh", "高潮", "紧张", ("收束", "气氛紧张")),
    ("en", "dialogue", "medium", ("closed on", "mood was medium")),
])
def test_an_offline_scene_closes_on_a_sentence_a_writer_would_write(language, scene_type, intensity, awkward):
    # scenes ended "气氛中，场景在对话中收束。": the plan's words set into a template, read as nonsense
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import scene_text

    scene = scene_text(OfflineRequest(role="novel", system="", prompt="", facts={
        "description": "", "language": language,
        "scene": {"scene_number": 1, "characters": ["X"], "location": "L", "scene_type": scene_type,
                  "intensity": intensity}}))
    closing = scene.content.splitlines()[-1]
    assert not any(word in closing for word in awkward), closing
    assert offline.is_scene_note(closing), "a closing of no event is not quoted as what happened"


def test_an_english_passage_is_quoted_without_the_scene_heading_it_opens_with():
    line = "[offline sample] Chapter 1, scene 1. Ada Thorne and Callum Lisle came to the council hall."
    assert offline.without_heading(line) == "Ada Thorne and Callum Lisle came to the council hall."


@pytest.mark.parametrize("language, description, child, parent", [
    ("en", "In 1890s Cornwall, a lighthouse keeper's daughter named Tamsin Penhale finds a smuggler's ledger. "
           "Her father, Jory, owes money to the harbourmaster, Silas Crane.", "Tamsin Penhale", "Jory"),
    ("zh", "茶商之女林素素和她的父亲林茂一起经营茶庄", "林素素", "林茂"),
])
def test_a_parent_the_description_names_is_a_generation_older_than_their_child(language, description, child, parent):
    # "Her father, Jory," was written down as 18, as old as his daughter.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))
    ages = {c.name: c.age for c in cast.all_characters()}
    assert ages[parent] >= ages[child] + 16, ages


@pytest.mark.parametrize("language, description, period, absent", [
    ("zh", "八十年代的东北小城，车间主任老郑总找下岗女工沈秋菱的麻烦", "八十年代", ("城门", "地铁站", "便利店")),
    ("en", "A mill town in the 1890s. Ada Blake, a weaver, organises a strike", "the 1890s",
     ("the cliff path", "the subway platform", "the old library")),
])
def test_a_world_of_a_named_decade_is_of_that_decade_and_its_places(language, description, period, absent):
    # "八十年代的东北小城" had 城门 and 城中集市 and "an age that suits 八十年代的东北小城"; a 1890s mill town
    # a cliff path and an old library.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import world

    setting = world(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                           "language": language}))
    assert period in setting.time_period and not any(place in setting.geography for place in absent), setting


def test_the_one_a_premise_says_bullies_another_is_the_antagonist_though_named_first():
    # "车间主任老郑总找女工沈秋菱的麻烦" made 老郑 the hero and left the book without an antagonist.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={
        "description": "车间主任老郑总找下岗女工沈秋菱的麻烦", "language": "zh"}))
    assert (cast.protagonist.name, cast.antagonist and cast.antagonist.name) == ("沈秋菱", "老郑")


@pytest.mark.parametrize("description, name", [
    ("A young swordsman trains under a blind master to avenge his father.", "The Walled Town"),
    ("A mill town in the 1890s. Ada Blake, a weaver, organises a strike", "The mill town"),
])
def test_an_english_world_is_named_after_a_place_not_the_premise_s_first_words(description, name):
    # "A young swordsman trains…" was set in "The Land of young swordsman trains", a clause, no place.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import world

    setting = world(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                           "language": "en"}))
    assert setting.world_name == name


@pytest.mark.parametrize("language, description, lead, kin, elder", [
    ("zh", "下岗女工沈秋菱的弟弟沈小军在录像厅里混日子", "沈秋菱", "沈小军", False),
    ("zh", "茶商之女林素素与码头工人陈阿水相识，表哥顾远舟勾结洋行走私鸦片", "林素素", "顾远舟", True),
])
@pytest.mark.parametrize("seed", ["river", "salt", "ember"])
def test_a_younger_or_elder_sibling_or_cousin_is_younger_or_older_than_the_protagonist(
        language, description, lead, kin, elder, seed):
    # "沈秋菱的弟弟沈小军" was 55 beside his sister's 46.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                              "language": language, "seed": seed}))
    ages = {c.name: c.age for c in cast.all_characters()}
    assert (ages[kin] > ages[lead]) is elder and ages[kin] != ages[lead], ages


def test_an_offline_outline_premise_carries_the_offline_tag_once():
    # "【离线示例】【离线示例】主角在福州中…": the conflict quoted kept its own tag.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import TAG, outline

    book = outline(OfflineRequest(role="novel", system="", prompt="", facts={
        "language": "zh", "theme": {"main_conflict": f"{TAG}主角与旧秩序对抗"}, "characters": {}, "chapters": 1}))
    assert book.story_premise.count(TAG) == 1, book.story_premise


def test_the_one_a_premise_sets_the_lead_against_is_the_antagonist():
    # "organises a strike against the owner, Silas Crane" made the owner a supporting acquaintance.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"language": "en", "description":
                      "Ada Blake, a young weaver, organises a strike against the owner, Silas Crane."}))
    assert cast.antagonist is not None and cast.antagonist.name == "Silas Crane"


@pytest.mark.parametrize("language, description, gender", [
    ("en", "A lighthouse keeper's daughter on a storm-battered Cornish island in the 1950s finds letters from a "
           "drowned sailor", "female"),
    ("zh", "一个灯塔看守人的女儿在海岛上发现了溺亡水手留下的信", "女"),
])
def test_an_unnamed_keepers_daughter_is_the_heroine_not_the_keeper(language, description, gender):
    # "A lighthouse keeper's daughter … finds letters" gave the book a 41-year-old male keeper as its lead.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))
    assert cast.protagonist.gender == gender and cast.protagonist.age <= 24, cast.protagonist


@pytest.mark.parametrize("description, name", [
    ("灵气复苏的修仙世界", "修仙世界"),
    ("一个失忆的杀手试图找回过去", "古城"),
])
async def test_a_chinese_world_naming_no_place_is_not_named_after_its_first_words(description, name):
    # "一个失忆的杀手试图找回之境", its powers "围绕“一个失忆的杀手试图找回”的力量体系": a clause cut mid-way.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    assert world.world_name == name
    assert "试图" not in world.power_system + world.time_period, (world.power_system, world.time_period)


async def test_a_chinese_conflict_says_where_before_the_lead_not_zhu_jiao_zai_x_zhong():
    # "主角在江南中为…" read as no Chinese.
    from schemas.novel import ThemeConflict

    theme = await OfflineLLM().structured(ThemeConflict, role="novel", system="", prompt="", facts={
        "language": "zh", "world": {"world_name": "江南"}})
    assert "在江南，主角" in theme.main_conflict and "江南中" not in theme.main_conflict, theme.main_conflict


async def test_a_chinese_geography_around_a_named_town_starts_from_it():
    # "1980年代的一座城镇：小城、厂区大院…": the 东北小城 the premise opens on was left out of its own land.
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": "1980年代的东北小城，下岗工人王建国在录像厅里发现了一桩旧案"})
    assert world.geography.startswith("【离线示例】东北小城一带"), world.geography


@pytest.mark.parametrize("language, description, absent", [
    ("zh", "民国初年的福州，年迈的账房先生周伯守着一批来历不明的货物，学徒阿福发现了账本里的秘密。",
     ("民国", "福州", "账房", "先生")),
    ("en", "A retired lighthouse keeper on a storm-bound Hebridean island finds a bottle with a map inside during "
           "the Victorian era.", ("island", "Victorian")),
])
def test_what_a_scenes_people_think_of_is_no_age_nor_the_place_they_stand_in(language, description, absent):
    # "一路上，他们心里记挂着民国初年、福州、货物、账房": they missed an age, the town they stood in and a calling.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import scene_text

    scene = scene_text(OfflineRequest(role="novel", system="", prompt="", facts={
        "description": description, "language": language,
        "scene": {"scene_number": 1, "characters": ["X"], "location": "L"}}))
    minds = next(line for line in scene.content.splitlines() if "记挂" in line or "minds were on" in line)
    assert not any(word in minds for word in absent), minds


def test_a_world_named_with_the_inside_a_sentence_has_its_article_lowered():
    # the main conflict read "in The Welsh mining village, the protagonist stands for …"
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import theme_conflict

    conflict = theme_conflict(OfflineRequest(role="novel", system="", prompt="", facts={
        "language": "en", "direction": "a strike", "world": {"world_name": "The Welsh mining village"}}))
    assert "in the Welsh mining village," in conflict.main_conflict, conflict.main_conflict


@pytest.mark.parametrize("language, description, geography, own", [
    ("zh", "民国初年，一个种茶为生的地方，茶农之女林素素想保住家里的茶园，茶商周老爷步步紧逼。",
     "皖南山中的云雾坞，半山腰是林家的老茶园，坞口有一座石拱桥，溪边是周家的炒茶坊，翻过山梁才是屯溪镇的茶行。",
     {"山中", "云雾坞", "茶园", "石拱桥", "溪边", "茶坊", "屯溪镇"}),
    ("en", "In 1920s Shanghai a tea merchant's daughter named Lin Mei fights to keep the family business.",
     "The Lin estate sits above the tea terraces; below lie the old mill, the village square and the river quay.",
     {"the Lin estate", "the tea terraces", "the old mill", "the village square", "the river quay"}),
])
async def test_a_world_its_author_wrote_sets_the_scenes_at_its_own_places(language, description, geography, own):
    # A 民国 tea village whose world.json names its places met at 码头, 电车站 and 报馆 of a treaty port of its age
    places = await _scene_places(language, description, {"geography": geography})
    assert places and places <= own, places


@pytest.mark.parametrize("description", ["民国时期的一个茶乡，苏家小姐苏婉和丫鬟春桃守着祖传的茶园。",
                                         "民国二十年，浙西茶村，制茶师傅老林带着徒弟阿茶守着几亩茶山。"])
async def test_a_republic_era_tea_village_meets_at_village_places_not_a_treaty_ports(description):
    # 茶乡 was no village, so the age's 码头 / 电车站 / 报馆 filled in; 老林 (a tea master) set the book in a forest
    from graphs.novel.offline import ERA_PLACES, SETTING_PLACES

    places = await _scene_places("zh", description)
    assert places and not places & (set(ERA_PLACES["early_modern"]["zh"]) | set(SETTING_PLACES["forest"]["zh"])), places


@pytest.mark.parametrize("description, language, hero, foe", [
    ("民国初年，茶农之女林素素想保住家里的茶园，茶商周老爷步步紧逼。", "zh", "林素素", "周老爷"),
    ("渔村少年阿海和奶奶相依为命，船老大赵德发想强占他家的渔船。", "zh", "阿海", "赵德发"),
    ("A retired opera singer named Greta Lind returns to Vienna. Her former pupil Anton Weiss now runs the opera "
     "house and wants her gone.", "en", "Greta Lind", "Anton Weiss"),
])
def test_the_one_pressing_the_lead_out_of_what_is_theirs_is_the_antagonist(description, language, hero, foe):
    # "茶商周老爷步步紧逼" left 周老爷 an acquaintance; 阿海 (jieba: a place) and 赵德发 (cut 赵德 / 发想) were lost
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))
    assert (cast.protagonist.name, cast.antagonist and cast.antagonist.name) == (hero, foe)


def test_a_woman_called_by_her_surname_and_po_is_a_woman():
    # "管事王婆刁难…" left 王婆's gender unknown
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={
        "description": "江南织造府的绣娘沈绣绣被管事王婆刁难，少爷顾长风暗中相助。", "language": "zh"}))
    genders = {c.name: c.gender for c in [cast.protagonist, cast.antagonist, *cast.supporting_characters] if c}
    assert genders == {"沈绣绣": "女", "王婆": "女", "顾长风": "男"}


@pytest.mark.parametrize("description, hero, kin", [
    ("A remote Scottish island in 1952; the lighthouse keeper's daughter Moira finds a drowned sailor who is still "
     "breathing. Her father Angus distrusts the stranger.", "Moira", "Angus"),
    ("In 1880s Whitby, a draper named Edith Moore keeps the ledger of a murdered clerk. Her brother Tom thinks she "
     "should burn it.", "Edith Moore", "Tom"),
])
def test_a_drowned_or_murdered_stranger_makes_the_one_finding_them_no_antagonist(description, hero, kin):
    # "finds a drowned sailor" read as Moira drowning him: her father Angus led, and she was his nemesis
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": "en"}))
    assert cast.protagonist.name == hero and cast.antagonist is None, cast
    assert kin in [c.name for c in cast.supporting_characters]


@pytest.mark.parametrize("description, hero", [
    ("Old Bram is the keeper of the lighthouse. His niece Ada comes to stay for the winter.", "Bram"),
    ("Old Nan Tully is the village midwife; her grandson Pip runs errands for her.", "Nan Tully"),
])
def test_old_before_a_name_says_the_age_and_is_no_part_of_the_name(description, hero):
    # "Old Bram is the keeper" named the keeper "Old Bram"
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": "en"}))
    assert cast.protagonist.name == hero and cast.protagonist.age >= 55, cast.protagonist


@pytest.mark.parametrize("description, child", [
    ("八十年代的东北小城，下岗女工沈秋菱摆摊卖早点，她的儿子小军今年十岁。", "小军"),
    ("寡妇刘翠兰在镇上开面馆，女儿阿梅帮她端碗。", "阿梅"),
])
def test_a_child_called_by_xiao_or_a_and_a_given_name_after_a_kin_word_is_in_the_cast(description, child):
    # "她的儿子小军" left 小军 out: jieba knows 小军 as a rare word, so it read as no name
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": "zh"}))
    assert child in [c.name for c in cast.supporting_characters], cast


def _cast_of(description: str, language: str = "zh"):
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))
    return {c.name: c for c in [cast.protagonist, cast.antagonist, *cast.supporting_characters] if c}


@pytest.mark.parametrize("description, elder", [
    ("江南织造府的绣娘沈绣绣被管事王婆刁难，少爷顾长风暗中相助。", "王婆"),
    ("渔村少女林小满跟着邻居陈伯学补网，村长周德海想收走她家的船。", "陈伯"),
    ("北平胡同里，报童小顺子无依无靠，隔壁的李奶奶常给他留饭。", "李奶奶"),
])
def test_one_called_by_surname_and_po_bo_or_nainai_is_old(description, elder):
    # 王婆 was 22: 婆 / 伯 / 奶奶 after a surname say she is old
    cast = _cast_of(description)
    assert elder in cast and cast[elder].age >= 55, {n: c.age for n, c in cast.items()}


@pytest.mark.parametrize("description, name", [
    ("货郎孟三郎走村串户，邻居王婆常给他送饭。", "王婆"),
    ("山村小学的老师苏晴刚到任，隔壁的李伯总来送菜。", "李伯"),
])
def test_surname_and_title_then_an_adverb_is_the_whole_name(description, name):
    # "王婆常给他送饭" named her 王婆常
    assert name in _cast_of(description)


@pytest.mark.parametrize("description, name, gender", [
    ("孟三郎挑着货担走村串户，王婆常给他送饭。", "孟三郎", "男"),
    ("宋朝年间，绣坊的沈七娘在汴京开了一间铺子，邻居王婆常来帮忙。", "沈七娘", "女"),
])
def test_a_name_of_a_familys_nth_son_or_daughter_tells_the_gender(description, name, gender):
    # 孟三郎 (the third son) was of unknown gender
    assert _cast_of(description)[name].gender == gender


@pytest.mark.parametrize("description, name", [
    ("采茶女林素素在茶山和炒茶坊之间过日子，茶商周老爷步步紧逼。", "茶山"),
    ("民国年间，脚夫刘大根在码头与货栈之间讨生活。", "码头"),
])
async def test_a_world_set_between_two_places_is_named_after_the_first_not_what_is_done_there(description, name):
    # "在茶山和炒茶坊之间过日子" named the world 过日子
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    assert world.world_name == name


@pytest.mark.parametrize("description, hero, foe", [
    ("A farmer named Tom Reed keeps his land; his neighbour Silas Grant wants the farm.", "Tom Reed", "Silas Grant"),
    ("Nell Brown is an orphan in 1840s London; the parish clerk Josiah Pike wants the girl sent to the workhouse.",
     "Nell Brown", "Josiah Pike"),
    ("In 1950s Ohio, a widower named Frank Doyle raises three daughters; his sister-in-law June wants the children "
     "sent to boarding school.", "Frank Doyle", "June"),
])
def test_one_who_wants_the_leads_farm_or_wants_someone_sent_away_is_the_antagonist(description, hero, foe):
    # "wants the farm" / "wants the boy sent to the workhouse" left the one wanting it an acquaintance
    cast = _cast_of(description, "en")
    assert cast[hero].role == "protagonist" and cast[foe].role == "antagonist", {n: c.role for n, c in cast.items()}


def test_an_orphan_is_a_child():
    # "Nell Brown is an orphan" was 49
    assert _cast_of("Nell Brown is an orphan in 1840s London; the parish clerk Josiah Pike wants the girl sent to "
                    "the workhouse.", "en")["Nell Brown"].age <= 16


@pytest.mark.parametrize("description, name, said", [
    ("In a Texas border town, rancher Maria Lopez fights drought; the banker Hollis Crane covets her ranch.",
     "Maria Lopez", "rancher"),
    ("Off the coast of Maine, lobsterman Eli Batten hauls up a locked box.", "Eli Batten", "lobsterman"),
])
def test_a_calling_said_with_no_article_before_a_full_name_brings_them_in(description, name, said):
    # "rancher Maria Lopez fights drought" left Maria out, and the banker who covets her ranch led the book
    people = read_people(description)
    assert (name, said) in [(c.name, c.said_as) for c in people], people


def read_people(description):
    from graphs.novel.understanding import characters_in_description

    return characters_in_description(description)


def test_a_sister_in_law_is_of_the_protagonists_generation():
    cast = _cast_of("In 1950s Ohio, a widower named Frank Doyle raises three daughters; his sister-in-law June "
                    "wants the children sent to boarding school.", "en")
    assert abs(cast["June"].age - cast["Frank Doyle"].age) <= 8 and cast["Frank Doyle"].relationships["June"] == "sister-in-law"


@pytest.mark.parametrize("language, description, event", [
    ("en", "A remote Scottish island in 1952; the lighthouse keeper's daughter Moira finds a drowned sailor who is "
           "still breathing. Her father Angus distrusts the stranger.", "Moira finds a drowned sailor who is still breathing"),
    ("en", "Ada Blake, a young weaver, organises a strike against the owner, Silas Crane.",
     "Ada Blake organises a strike against the owner, Silas Crane"),
    ("zh", "八十年代的东北小城，下岗女工沈秋菱摆摊卖早点，她的儿子小军今年十岁。", "沈秋菱摆摊卖早点"),
])
async def test_the_first_chapter_opens_on_what_the_description_has_the_protagonist_do(language, description, event):
    # chapter 1 planned "Moira meets Angus" (her own father) and never the drowned sailor the book is about
    llm = OfflineLLM()
    from schemas.novel import CharactersConfig, Outline

    facts = {"language": language, "seed": "book", "description": description}
    cast = await llm.structured(CharactersConfig, role="novel", system="", prompt="", facts=facts)
    book = await llm.structured(Outline, role="novel", system="", prompt="", facts={
        **facts, "chapters": 3, "theme": {}, "characters": cast.model_dump()})
    assert book.chapters[0].key_events[0] == event, book.chapters[0].key_events
    assert all(event not in c.key_events for c in book.chapters[1:])


@pytest.mark.parametrize("description, language, hero", [
    ("London, 1923. Inspector Clara Voss investigates the poisoning of a shipping magnate. His widow Lydia inherits "
     "everything, and his secretary Arthur Penn is hiding a ledger.", "en", "Clara Voss"),
    ("民国二十年的上海，巡捕房探长陆铭调查一桩走私案，码头老板韩七爷在暗中打点。", "zh", "陆铭"),
])
def test_the_one_investigating_a_crime_leads_and_is_not_taken_for_its_doer(description, language, hero):
    # "Inspector Clara Voss investigates the poisoning" made the inspector the poisoner: the widow led, Clara her nemesis
    cast = _cast_of(description, language)
    assert cast[hero].role in ("protagonist", "主角"), {n: c.role for n, c in cast.items()}


async def test_a_dateline_opening_the_description_sets_the_world_and_its_year():
    # "London, 1923." gave "The Walled Town" in "an age that suits “poisoning”"
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": "London, 1923. Inspector Clara Voss investigates the poisoning of a shipping "
                                         "magnate."})
    assert world.world_name == "London" and "1923" in world.time_period, world


def test_one_framed_for_a_wrong_is_its_victim_not_its_doer():
    # "Poppy Adair is framed for cheating" made Poppy the head girl's nemesis and the head girl the lead
    cast = _cast_of("At Hawthorne Academy, scholarship girl Poppy Adair is framed for cheating; the head girl, "
                    "Cressida Vane, knows who did it.", "en")
    assert cast["Poppy Adair"].role == "protagonist" and cast["Cressida Vane"].role != "antagonist"


def test_wanting_a_house_painted_is_no_wanting_the_house():
    cast = _cast_of("Ella Moss wants the house painted blue; her husband Rob hates blue.", "en")
    assert cast["Ella Moss"].role == "protagonist" and cast["Rob"].role == "supporting"


@pytest.mark.parametrize("description, language, name", [
    ("On the generation ship Perihelion, hydroponics tech Amara Osei discovers the captain has been falsifying the "
     "course logs. Her friend Kit Marlow, a pilot, helps her hack the archives.", "en", "Amara Osei"),
    ("Old Martha Quill runs the family orchard; her son Dennis wants to sell it, and her granddaughter Bea wants to "
     "stay.", "en", "Martha Quill"),
])
def test_the_first_named_with_a_calling_or_an_age_word_leads(description, language, name):
    # "hydroponics tech Amara Osei" and "Old Martha Quill runs…" were no one: her friend or her son led
    assert _cast_of(description, language)[name].role == "protagonist"


def test_a_family_sagas_children_and_grandchildren_are_a_generation_or_two_younger():
    # 老太爷陈守业 (63) had a 大儿子 of 21 who called him 大儿子, and a 孙女 of 28; 孙女陈念安 was no one
    cast = _cast_of("民国初年，江南陈家的老太爷陈守业病重，大儿子陈文远和二儿子陈文博为争家产反目，孙女陈念安夹在中间。")
    elder, son, granddaughter = cast["陈守业"], cast["陈文远"], cast["陈念安"]
    assert elder.gender == "男" and son.relationships == {"陈守业": "父亲"} and granddaughter.relationships == {"陈守业": "爷爷"}
    assert elder.age - 35 >= son.age - 10 and granddaughter.age <= elder.age - 40


def test_a_desk_mate_is_of_the_students_age():
    cast = _cast_of("县城一中高二学生林小雨成绩平平，同桌陈浩是年级第一，班主任王老师总偏心成绩好的学生。")
    assert abs(cast["陈浩"].age - cast["林小雨"].age) <= 8


def test_a_governor_suppressing_the_engineers_reports_is_the_antagonist():
    cast = _cast_of("2087年，火星殖民地的工程师许星河发现氧气配给被人动了手脚，殖民地总督周衡一再压下他的报告。")
    assert cast["周衡"].role == "反派"


def test_the_first_chapter_opens_on_the_state_the_description_puts_the_lead_in():
    # "老太爷陈守业病重" gave chapter 1 only "陈守业遇到陈文博" (his own son)
    from graphs.novel.understanding import opening_deed

    assert opening_deed("民国初年，江南陈家的老太爷陈守业病重，大儿子陈文远和二儿子陈文博为争家产反目。", "陈守业",
                        ["陈守业", "陈文远", "陈文博"]) == "陈守业病重"


def test_one_who_has_been_hiding_deaths_is_the_doer_not_a_victim():
    # the passive rule for "is framed" read "has been hiding deaths" as done to the administrator
    cast = _cast_of("On a mining station, the station doctor Amara Osei discovers that the company administrator, "
                    "Lucas Brandt, has been hiding deaths in the ice mines.", "en")
    assert cast["Lucas Brandt"].role == "antagonist"


@pytest.mark.parametrize("language, description, lead, foe", [
    ("zh", "车间主任老郑总找女工沈秋菱的麻烦", "沈秋菱", "老郑"),
    ("en", "A fishing village on the edge of the fens. A young net-mender named Wren Talbot mends nets on the quay. "
           "She suspects her uncle Silas runs the smuggling ring that drowned her brother.", "Wren Talbot", "Silas")])
def test_the_sub_conflicts_are_between_the_people_of_the_cast_not_a_stock_mentor_and_pupil(language, description,
                                                                                          lead, foe):
    # "师徒之间的分歧" / "a rift between mentor and pupil" was a sub-conflict of every book, mentor or none
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters, theme_conflict
    facts = {"description": description, "seed": "book", "language": language, "world": {"world_name": "X"}}
    theme = theme_conflict(OfflineRequest(role="novel", system="", prompt="", facts=facts))
    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts=facts))
    assert cast.protagonist.name == lead and cast.antagonist.name == foe
    said = " ".join(theme.sub_conflicts)
    assert "师徒" not in said and "mentor" not in said
    assert lead in theme.sub_conflicts[0] and foe in theme.sub_conflicts[0]


@pytest.mark.parametrize("language, description, aboard, absent", [
    ("en", "A generation ship drifts between the stars; its engineer Ada Voss finds the logs were faked.",
     "the hydroponics bay", ("the harbour", "the ferry landing", "the greenhouse")),
    ("zh", "世代飞船上，轮机长林远发现舰长隐瞒了航线。", "水培舱", ("港口", "渡口", "着陆点")),
])
def test_a_story_aboard_a_starship_meets_on_its_decks_not_at_a_harbour(language, description, aboard, absent):
    # "A generation ship drifts…" was set "around the harbour, the old library, the cliff path".
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import world

    setting = world(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                           "language": language}))
    assert aboard in setting.geography and not any(place in setting.geography for place in absent), setting


@pytest.mark.parametrize("language, description, cast_names, villain", [
    ("en", "a fox and a crow in the forest", {"Fox", "Crow"}, "Fox"),
    ("zh", "小兔子和大灰狼", {"小兔子", "大灰狼"}, "大灰狼"),
    ("zh", "一只小猫和一只老鼠成了朋友", {"小猫", "老鼠"}, None),
])
def test_a_fable_s_cast_is_the_animals_it_names_not_invented_people(language, description, cast_names, villain):
    # "a fox and a crow in the forest" got Ines Finch and Wren Carrow, a 30-year-old woman and her friend.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import characters

    cast = characters(OfflineRequest(role="novel", system="", prompt="", facts={"description": description,
                                                                               "language": language}))
    assert set(cast.names()) == cast_names, cast.names()
    assert (cast.antagonist.name if cast.antagonist else None) == villain


def test_a_fable_that_names_no_place_is_set_in_the_woods_not_an_old_walled_town():
    # "小兔子和大灰狼" met at the 城门, the 旧书院 and the 议事厅.
    from core.llm.offline import OfflineRequest
    from graphs.novel.offline import world

    setting = world(OfflineRequest(role="novel", system="", prompt="", facts={"description": "小兔子和大灰狼",
                                                                           "language": "zh"}))
    assert "森林" in setting.geography and "城门" not in setting.geography, setting


@pytest.mark.parametrize("language, description, palace_place", [
    ("zh", "宫女沈知微入宫三年，卷入贵妃韩氏与皇后的争斗", "御花园"),
    ("zh", "深宫之中，秀女苏婉被选入宫，太后却另有打算", "冷宫"),
    ("en", "A young maid at the royal court of Castile is drawn into the rivalry between the queen and a courtier",
     "the throne room"),
])
async def test_a_palace_story_meets_inside_the_palace_not_at_city_gates_and_an_old_academy(
        language, description, palace_place):
    # A 宫女's story met at 城门 and 旧书院, in a world named 微入宫 of a 描述未点明的年代.
    places = await _scene_places(language, description)
    from graphs.novel.offline import SETTING_PLACES

    assert places and places <= set(SETTING_PLACES["palace"][language]) and not places & ANCIENT_PLACES, places
    assert palace_place in SETTING_PLACES["palace"][language]
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": language, "description": description})
    assert ("古代" in world.time_period or "before engines" in world.time_period), world.time_period
    if language == "zh":
        assert world.world_name == "深宫" and "深宫" in world.geography, world


async def test_a_fable_set_in_the_woods_has_a_world_named_after_the_woods_not_an_old_town():
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": "一只小狐狸和一只乌鸦在争一块肉"})
    assert world.world_name == "森林", world.world_name


async def test_an_english_book_of_no_age_says_so_rather_than_naming_a_thing_of_it_as_its_age():
    # "an age that suits “forest”" of a fox and a crow
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "en", "description": "A fox and a crow quarrel over a piece of cheese in the forest"})
    assert "suits" not in world.time_period and "forest" not in world.time_period, world.time_period


async def test_two_named_siblings_are_siblings_to_each_other_not_acquaintances():
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "en", "description": "Two siblings, Max and Lily, find a door in their grandmother's attic"})
    assert cast.protagonist.name == "Max" and cast.protagonist.relationships == {"Lily": "sibling"}
    lily = cast.supporting_characters[0]
    assert lily.name == "Lily" and abs(lily.age - cast.protagonist.age) <= 8


@pytest.mark.parametrize("description", ["少年剑客萧寒下山寻仇，遇见了学霸同桌林小雨",
                                         "少年剑客顾长风下山寻仇，遇见了同桌苏小婉"])
async def test_the_youth_a_swordsman_is_said_to_be_is_no_one_else_and_his_classmate_is_his_age(description):
    # 少年 was a separate invented 15-year-old, and the 同桌 was 21 beside the 17-year-old lead
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    people = [cast.protagonist, *cast.supporting_characters]
    assert len(people) == 2 and cast.antagonist is None, [p.name for p in people]
    assert abs(people[1].age - cast.protagonist.age) <= 1, [(p.name, p.age) for p in people]


@pytest.mark.parametrize("description", ["女法医秦素在一具无名尸体上发现了十年前旧案的线索",
                                         "老木匠在一张旧桌子上刻下了女儿的名字"])
async def test_a_thing_something_is_found_on_is_not_the_world_the_book_is_set_in(description):
    # "在一具无名尸体上发现…": the world was named 尸体, its land 尸体一带
    world = await OfflineLLM().structured(WorldSetting, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    assert "尸体" not in world.world_name + world.geography and "桌子" not in world.world_name + world.geography, world


async def test_a_forensic_examiner_works_in_a_city_of_today_not_at_city_gates():
    places = await _scene_places("zh", "女法医秦素在一具无名尸体上发现了十年前旧案的线索")
    assert places and not places & ANCIENT_PLACES, places


async def test_a_retired_baker_who_falls_for_the_lighthouse_keeper_are_the_lead_and_the_one_she_falls_for():
    # the baker and the keeper were "on their minds" while two invented strangers, friends, were the cast
    from schemas.novel import CharactersConfig
    from graphs.novel.understanding import things_on_minds

    description = "A retired baker opens a tiny bookshop in a Cornish fishing village and falls for the grumpy lighthouse keeper"
    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "en", "description": description})
    assert "baker" in cast.protagonist.background, cast.protagonist
    assert any("keeper" in c.background for c in cast.supporting_characters), cast.supporting_characters
    assert not any("baker" in thing or "keeper" in thing for thing in things_on_minds(description))


@pytest.mark.parametrize("description, lowest, highest", [
    ("高二女生苏念和同桌江屿一起调查校园怪谈", 16, 17),
    ("初一男生陈默在开学第一天就迷了路", 12, 13),
    ("高三学生林夏在高考前夜收到一封匿名信", 17, 18),
])
async def test_a_lead_said_with_a_year_at_school_is_that_years_age(description, lowest, highest):
    # a 高二 girl was 14, a 初二 pupil's age
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "zh", "description": description})
    assert lowest <= cast.protagonist.age <= highest, (cast.protagonist.name, cast.protagonist.age)


async def test_a_freshmans_senior_is_older_than_the_freshman():
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "zh", "description": "大一新生林小鹿在迎新晚会上遇见了学长顾言"})
    senior = next(c for c in cast.supporting_characters if c.name == "顾言")
    assert cast.protagonist.age < senior.age <= cast.protagonist.age + 3, (cast.protagonist.age, senior.age)


async def test_a_fathers_partner_named_after_a_comma_is_of_the_cast_as_the_leads_fathers_partner():
    # "her father's partner, Silas Crane" named no one: an invented Silas was the lead's close friend
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "en", "description": "A lighthouse keeper's daughter named Ada finds letters hidden by her "
                                         "father's partner, Silas Crane"})
    silas = next(c for c in cast.supporting_characters if c.name == "Silas Crane")
    assert silas.background == "Ada's father's partner" and silas.age >= 40, silas
