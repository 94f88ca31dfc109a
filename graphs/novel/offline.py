"""Offline composers for the generation workflow: short, plainly offline prose built from the request.

Every text says it was written offline and is assembled from what the graph passes as `facts`
(the world description, the outline, the scene plan…), so each step of the workflow has real,
schema-valid input to work on and the same project always gives the same novel.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from core.language import is_function_word, whole_clauses
from core.llm.offline import OfflineRequest, offline_composer, stable_choice, stable_int
from graphs.novel.understanding import (adversary, age_said, animals_in_description, characters_in_description, chinese_aliases, era_said,
                                       key_things, lead_named, people_unnamed, places_in_description, setting_named,
                                       story_era, story_setting, tells_harm, things_on_minds, unnamed_lead,
                                       opening_deed)
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    ChapterSummary,
    Character,
    CharactersConfig,
    GeneratedScene,
    Outline,
    ScenePlan,
    ThemeConflict,
    WorldSetting,
)

SURNAMES = "林沈顾苏陆叶江秦楚温韩宋"
GIVEN = ("远", "青", "辰", "岚", "川", "微", "珩", "晚", "舟", "寒", "瑶", "野")
PLACES = ("城门", "旧书院", "山道", "渡口", "集市", "后山竹林", "议事厅", "客栈")
TAG = "【离线示例】"
# A book whose author described its world in English is written in English (ProjectFiles.language).
EN_FIRST = ("Mara", "Elias", "Rowan", "Ines", "Callum", "Wren", "Tobias", "Iris", "Jonah", "Elsie", "Silas", "Nora")
# The gender the invented first names are commonly read as (Rowan and Wren are given to either): a name a reader
# takes for a woman's is never written down as a man's.
EN_FIRST_FEMALE = {"Mara": True, "Ines": True, "Iris": True, "Elsie": True, "Nora": True, "Elias": False,
                   "Callum": False, "Tobias": False, "Jonah": False, "Silas": False}
# What a character sheet says of a gender nothing told: never a guess ("she" of a man was the guess's cost).
UNKNOWN_GENDER = {"zh": "未知", "en": "unknown"}
EN_SURNAMES = ("Reid", "Hale", "Moray", "Finch", "Carrow", "Lisle", "Drummond", "Vane", "Ashby", "Kerr", "Stroud", "Penrose")
EN_PLACES = ("the harbour", "the old library", "the cliff path", "the ferry landing", "the market", "the pine wood",
             "the council hall", "the inn")
# Where scenes happen, by the age the description sets the book in (understanding.story_era): a cyberpunk city's
# people meet at a data centre, not at a 城门; a book of no age said keeps the timeless places above.
ERA_PLACES = {
    "modern": {"zh": ("地铁站", "老小区", "写字楼", "便利店", "医院走廊", "江边步道", "咖啡馆", "天台"),
               "en": ("the subway platform", "a corner café", "the office", "the hospital corridor", "the riverside path",
                      "the parking garage", "the rooftop", "the apartment")},
    "late_twentieth": {"zh": ("厂区大院", "筒子楼", "车间", "供销社", "国营饭店", "录像厅", "火车站", "澡堂"),
                       "en": ("the diner", "the bus depot", "the plant floor", "the video store", "the motel",
                              "the pay phone", "the high school gym", "the bowling alley")},
    # places any town of the 民国 or late 清 had: a 电车站, a 洋行 or a 弄堂 sets the book in Shanghai, which a
    # saga set nowhere it names is not
    "early_modern": {"zh": ("茶楼", "码头", "当铺", "报馆", "火车站月台", "戏院后台", "药铺", "街口"),
                     "en": ("the docks", "the tea room", "the telegraph office", "the railway platform", "the newspaper office",
                            "the boarding house", "the dance hall", "the pawnshop")},
    "future": {"zh": ("霓虹街区", "数据中心", "地下诊所", "空轨站台", "废弃工厂", "全息广告牌下", "公司大楼顶层", "黑市"),
               "en": ("the neon market", "the data centre", "a back-alley clinic", "the maglev platform",
                      "the abandoned fab", "the docking ring", "the corporate tower", "the server vault")},
}
# Where scenes happen in a setting no age gives places to (understanding.story_setting): a botanist stranded on
# Mars works in the 温室 and steps out through the 气闸, he meets no one at a 议事厅 or a 渡口.
SETTING_PLACES = {
    "planet": {"zh": ("栖息舱", "温室", "气闸", "控制舱", "储藏舱", "着陆点", "陨石坑边", "通讯天线下"),
               "en": ("the habitat", "the greenhouse", "the airlock", "the control module", "the storage bay",
                      "the landing site", "the crater rim", "the comms mast")},
    "starship": {"zh": ("舰桥", "水培舱", "引擎舱", "冬眠舱", "观景甲板", "居住环廊", "气闸", "医疗舱"),
                 "en": ("the bridge", "the hydroponics bay", "the engine room", "the cryo bay", "the observation deck",
                        "the habitat ring", "the airlock", "the medical bay")},
    "sea": {"zh": ("甲板", "船舱", "驾驶台", "货舱", "桅杆下", "救生艇", "船长室", "港口"),
            "en": ("the deck", "the cabin", "the bridge", "the hold", "the foot of the mast", "the lifeboat",
                   "the captain's cabin", "the harbour")},
    "palace": {"zh": ("后宫", "御花园", "冷宫", "尚宫局", "宫道", "太后寝宫", "御书房", "掖庭"),
               "en": ("the throne room", "the inner court", "the palace gardens", "the queen's chambers",
                      "the servants' passage", "the council chamber", "the palace kitchens", "the long gallery")},
    "polar": {"zh": ("科考站", "冰原", "气象观测塔", "冰裂缝边", "雪地车库", "食堂", "通讯室", "极光下的营地"),
              "en": ("the research station", "the ice shelf", "the weather mast", "the edge of the crevasse",
                     "the vehicle shed", "the mess hall", "the radio room", "the camp under the aurora")},
    "desert": {"zh": ("绿洲", "沙丘", "驼队营地", "枯井边", "烽燧", "商队驿站", "岩洞", "干涸的河床"),
               "en": ("the oasis", "the dunes", "the caravan camp", "the dry well", "the old watchtower",
                      "the caravanserai", "the rock shelter", "the dry riverbed")},
    "island": {"zh": ("岛上码头", "灯塔", "礁石滩", "渔村", "海崖", "避风湾", "潮池边", "岛上小屋"),
               "en": ("the jetty", "the lighthouse", "the rocky shore", "the fishing huts", "the sea cliffs",
                      "the cove", "the tide pools", "the island chapel")},
    "mountain": {"zh": ("山道", "山顶", "崖壁", "山神庙", "吊桥", "山洞", "半山腰的茶棚", "溪涧"),
                 "en": ("the mountain path", "the summit", "the cliff ledge", "the mountain shrine", "the rope bridge",
                        "the cave", "the shepherd's hut", "the stream")},
    "forest": {"zh": ("林间小径", "猎人小屋", "古树下", "溪边", "林中空地", "伐木场", "密林深处", "护林站"),
               "en": ("the forest path", "the hunter's cabin", "the old oak", "the brook", "the clearing",
                      "the logging camp", "the deep woods", "the ranger station")},
    "village": {"zh": ("村口", "老街", "祠堂", "晒谷场", "井边", "石桥", "镇上的茶馆", "田埂"),
                "en": ("the village green", "the pub", "the church", "the post office", "the bridge", "the high street",
                       "the mill", "the schoolhouse")},
}
# What the geography of a book of such a setting calls its land: a Mars base is no "country where… meet".
SETTING_LANDS = {"planet": {"zh": "一颗异星", "en": "a world beyond Earth"},
                 "starship": {"zh": "一艘星际飞船", "en": "a ship between the stars"},
                 "palace": {"zh": "一座深宫", "en": "a royal palace"}, "sea": {"zh": "一片海域", "en": "open water"},
                 "polar": {"zh": "一片冰原", "en": "an icebound land"}, "desert": {"zh": "一片大漠", "en": "a desert"},
                 "island": {"zh": "一座海岛", "en": "an island"}, "mountain": {"zh": "一片山地", "en": "mountain country"},
                 "forest": {"zh": "一片森林", "en": "a forest"}, "village": {"zh": "一方乡土", "en": "a small place"}}
EN_TAG = "[offline sample] "
CHAPTER_WORDS = {"zh": ("启程", "风起", "试探", "暗流", "抉择", "转折", "对峙", "归来"),
                 "en": ("Departure", "The Wind Rises", "Testing", "Undercurrents", "The Choice", "The Turn",
                        "Standoff", "Homecoming")}
SCENE_TYPES = {"zh": ("日常", "对话", "发展"), "en": ("everyday", "dialogue", "development")}
INTENSITIES = {"zh": ("低", "中", "高"), "en": ("low", "medium", "high")}
ROLES = {"zh": ("主角", "反派", "配角"), "en": ("protagonist", "antagonist", "supporting")}


def _english(request: OfflineRequest) -> bool:
    return request.fact("language") == "en"


# Places beside a Chinese setting word, by its last character: a canal town's people meet at its 码头 and 老街, not
# at a 电车站 of a treaty port its age (清末) also had.
_NEAR_PLACES_ZH = {"河": ("{}码头", "{}边"), "江": ("{}码头", "{}边"), "渠": ("{}边",), "湖": ("{}畔",), "海": ("{}边",),
                   "镇": ("镇口", "镇上的茶馆"), "村": ("村口", "祠堂"), "城": ("城门", "城中集市"), "山": ("山道",),
                   "岭": ("山道",), "岛": ("岛上码头",), "港": ("港口码头",)}
# With fewer places of its own than this, a book also meets at the places of its age.
_OWN_PLACES_ENOUGH = 3


# Ages whose towns have no walls: an 八十年代 小城 has no 城门.
_WALLED_ERAS = (None, "ancient")


def _places_of_description(description: str) -> list[str]:
    """The description's own places ("运河", "小镇", "the old abbey") and the places beside them (运河码头, 镇口)."""
    own = places_in_description(description)
    walled = story_era(description) in _WALLED_ERAS
    near = [pattern.format(place[-2:]) for place in own for pattern in _NEAR_PLACES_ZH.get(place[-1], ())
            if walled or place[-1] != "城"]
    return list(dict.fromkeys([*own, *near]))


def _places(request: OfflineRequest) -> tuple[str, ...]:
    """Where the book's scenes happen, in its language: the places its description names, then those of its
    setting (a Mars base's 温室, a caravan's 绿洲, not the 城门 beside the lost city it seeks); a village's or a
    book of no such setting's, the places it names and those beside them (a 清末 canal town's 运河码头), and with
    fewer than three of its own, those of a village or of the age it says (not a Shanghai 电车站), else timeless
    ones."""
    language = "en" if _english(request) else "zh"
    description = str(request.fact("description") or "")
    # the places a world.json its author wrote names come first (云雾坞's 茶坊, not a treaty port's 电车站); one
    # the offline composer wrote only says again what the description says
    geography = str((request.fact("world") or {}).get("geography") or "")
    written = places_in_description(geography) if geography and not geography.startswith((TAG, EN_TAG)) else []
    if len(written) >= _OWN_PLACES_ENOUGH:
        return tuple(dict.fromkeys([*written, *places_in_description(description)]))
    setting = _story_setting(f"{geography}\n{description}" if written else description)
    if setting in SETTING_PLACES and setting != "village":
        return tuple(dict.fromkeys([*written, *places_in_description(description), *SETTING_PLACES[setting][language]]))
    own = list(dict.fromkeys([*written, *_places_of_description(description)]))
    if len(own) >= _OWN_PLACES_ENOUGH:
        return tuple(own)
    kind = SETTING_PLACES.get(setting) or ERA_PLACES.get(story_era(description))
    return tuple(dict.fromkeys([*own, *(kind[language] if kind else (EN_PLACES if language == "en" else PLACES))]))


def fable_cast(description: str) -> list:
    """The animals a premise that tells of no person is about ("a fox and a crow", "一只小猫和一只老鼠成了朋友": the
    朋友 they become is no one else); [] when it tells of people."""
    if characters_in_description(description) or unnamed_lead(description) \
            or any(_tie(p.said_as, "") == "" for p in people_unnamed(description, [])):
        return []
    return animals_in_description(description)


def _story_setting(description: str) -> str | None:
    """The setting the description says (understanding.story_setting); a fable of animals that names none and no
    place of its own is set in the woods, not an old walled town's 城门 and 书院."""
    said = story_setting(description)
    if said is None and not places_in_description(description) and fable_cast(description):
        return "forest"
    return said


def _seed(request: OfflineRequest) -> str:
    return str(request.fact("seed") or request.fact("description") or request.prompt[:80])


def _short(text: str, limit: int = 12, *, english: bool = False) -> str:
    """The first clause of a description, for names and titles, in whole words (in English, its first few
    words without the function words at either end: "The Land of In Regency-era Bath" read as garbage)."""
    first = re.split(r"[，。,.;；！!？?\n]", (text or "").strip())[0].strip()
    if english:
        words = first.split()
        while words and is_function_word(words[0]):
            words.pop(0)
        words = words[:4]  # counted after "On a": "storm-bound Hebridean" left its island out
        while words and is_function_word(words[-1]):
            words.pop()
        return " ".join(words) or "the nameless land"
    return _whole_words(first, limit) or "无名之地"


def _whole_words(text: str, limit: int) -> str:
    """The words of a Chinese clause that fit in `limit` characters, the word the limit falls in left out
    ("在一个被诅咒的海边小镇上住" was the name of a world)."""
    if len(text) <= limit:
        return text
    import jieba

    kept = ""
    for word in jieba.lcut(text):
        if len(kept) + len(word) > limit:
            break
        kept += word
    return kept or text[:limit]


def _untagged(text: str) -> str:
    """Composed text quoted inside another: without its own offline tag, which the outer text already has."""
    return str(text or "").replace(TAG, "").replace(EN_TAG, "").strip()


def _name(seed: str, slot: int, taken: set[str], *, english: bool = False, female: bool | None = None) -> str:
    # Readers call English characters by their first name: no two share one ("who is Jonah?" names one person).
    first_names = {name.split()[0] for name in taken}
    # a first name read as the other gender's is not given to someone the description says is a girl or a boy
    firsts = tuple(n for n in EN_FIRST if EN_FIRST_FEMALE.get(n, female) == female) if female is not None else EN_FIRST
    for attempt in range(40):
        if english:
            name = f"{stable_choice(firsts, seed, slot, attempt)} {stable_choice(EN_SURNAMES, seed, slot, attempt, 'g')}"
        else:
            name = stable_choice(SURNAMES, seed, slot, attempt) + stable_choice(GIVEN, seed, slot, attempt, "g")
        # nor do two Chinese characters answer to one pet name (宋晚 beside 苏晚晴: "阿晚" would be either)
        shared = not english and set(chinese_aliases(name)) & {a for t in taken for a in (t, *chinese_aliases(t))}
        if name not in taken and not (english and name.split()[0] in first_names) and not shared:
            taken.add(name)
            return name
    return f"Character {slot}" if english else f"角色{slot}"


def _geography_en(setting: str | None, description: str, places: tuple[str, ...]) -> str:
    """Where the book's places lie: Mars, the storm-bound island, not "a country" (of a setting with a land of its
    own), the land named once ("an island, around the storm-bound island, the jetty…" said it twice)."""
    land = SETTING_LANDS.get(_story_setting(description))
    if land is None:  # as the Chinese: the place it is set in, else a town of its age ("a country where…" was none)
        if setting and (setting[:1].isupper() or setting in places):
            return f"{setting}, around {_join_en([p for p in places if p != setting][:4])}"
        return f"{_era_land_en(description)}: {_join_en(list(places[:4]))}"
    head = setting if setting and (setting[:1].isupper() or setting in places) else land["en"]
    return f"{head}, around {_join_en([p for p in places if p != head][:4])}"


# What the Chinese geography of a book with no setting of its own calls its land, by the age it says
# (understanding.story_era); a book of no age said meets at the 城门 and 山道 of an old walled town.
ERA_LANDS_ZH = {"modern": "一座当代城市", "late_twentieth": "一座上世纪的城镇", "early_modern": "一座近代城镇",
                "future": "一座未来都市"}
TIMELESS_LAND_ZH = "一座古城内外"
ERA_LANDS_EN = {"modern": "A present-day city", "late_twentieth": "A town of the late twentieth century",
                "early_modern": "A town of the railway and telegraph age", "future": "A city of the future"}
TIMELESS_LAND_EN = "An old walled town and the country round it"


def _era_land_en(description: str) -> str:
    """The land of a book with no setting of its own, by its age: "A town of the 1890s" when it names one."""
    era, said = story_era(description), era_said(description)
    if era in ERA_LANDS_EN and said and era != "future":
        return f"A town of {said}"
    return ERA_LANDS_EN.get(era or "", TIMELESS_LAND_EN)


def _era_land_zh(description: str) -> str | None:
    """The Chinese land of a book with no setting of its own, by its age: "八十年代的一座城镇" when it names one."""
    era, said = story_era(description), era_said(description)
    if era in ERA_LANDS_ZH and said and era != "future":
        return f"{said}的一座城镇"
    return ERA_LANDS_ZH.get(era or "")


def _geography_zh(setting: str | None, description: str, places: tuple[str, ...]) -> str:
    """Where the book's places lie: the land of its setting (一片大漠), else the place it is set in (运河一带), else
    a town of its age; "城门、旧书院…相连的一片土地" said of any book was no place at all."""
    land = SETTING_LANDS.get(_story_setting(description))
    if land is not None:
        return f"{land['zh']}，{'、'.join(places)}一带"
    era_land = _era_land_zh(description)
    # 运河 or 上海, one of the book's places; 都市 of "霓虹都市" only names the kind of town its age has
    # 东北小城 holds the 小城 the places found: the setting, not "1980年代的一座城镇：小城、…"
    if setting and (any(p in setting for p in places) or not era_land):
        around = [p for p in places if p not in setting]
        return f"{setting}一带：{'、'.join(around)}" if around else f"{setting}一带"
    return f"{era_land or TIMELESS_LAND_ZH}：{'、'.join(places)}"


# What a world's time period says of an age the description hints at without naming it (江湖, a starship).
ERA_PERIODS = {"zh": {"future": "未来", "modern": "当代", "late_twentieth": "二十世纪后半叶", "early_modern": "近代",
                      "ancient": "古代"},
               "en": {"future": "the future", "modern": "the present day", "late_twentieth": "the late twentieth century",
                      "early_modern": "the age of railways and telegraphs", "ancient": "an age before engines"}}


# The name of a world whose description names no place, after the land of its age (ERA_LANDS_EN): "The Land of
# young swordsman trains", built from its first words, named no place.
ERA_WORLD_NAMES_EN = {"modern": "The City", "late_twentieth": "The Town", "early_modern": "The Town",
                      "future": "The Sprawl"}
TIMELESS_WORLD_NAME_EN = "The Walled Town"


def _world_name_en(description: str) -> str:
    return ERA_WORLD_NAMES_EN.get(story_era(description) or "", TIMELESS_WORLD_NAME_EN)


def _core_thing_en(description: str) -> str:
    """What an English premise is about, as a noun phrase: the place it is set in ("storm-bound Hebridean island"),
    else its first thing ("young swordsman" of "A young swordsman trains…"), not its first words ("young swordsman
    trains")."""
    things = places_in_description(description) or key_things(description, 1)
    return things[0].split(None, 1)[1] if things else _short(description, english=True)


def _time_period_zh(description: str) -> str:
    """The age the description names (八十年代, 民国), else the one its cues tell (古代 of 江湖), else that it names
    none ("与“一个失忆的杀手试图找回”相应的时代" quoted a clause cut mid-way)."""
    era = story_era(description)
    return era_said(description) or (ERA_PERIODS["zh"][era] if era else UNSAID_PERIOD_ZH)


UNSAID_PERIOD_ZH = "描述未点明的年代"
UNSAID_PERIOD_EN = "an age the description leaves unsaid"
# The name of a Chinese world whose description names no place: the world its first clause names ("灵气复苏的修仙
# 世界": 修仙世界), else a town of its age ("一个失忆的杀手试图找回之境" was its first words cut).
WORLD_WORDS_ZH = ("世界", "大陆", "江湖", "天下", "王朝", "帝国", "仙界", "宗门", "末世", "废土")
ERA_WORLD_NAMES_ZH = {"modern": "都市", "late_twentieth": "小城", "early_modern": "旧城", "future": "未来都市"}
TIMELESS_WORLD_NAME_ZH = "古城"


def _world_name_zh(description: str) -> str:
    import jieba

    head = re.split(r"[，。,.;；！!？?\n]", description.strip())[0].rsplit("的", 1)[-1]
    if head.endswith(WORLD_WORDS_ZH):
        words = jieba.lcut(head)
        return "".join(words[-2:]) if len(head) > 6 else head  # 修仙世界 of 一个人人修仙世界
    land = SETTING_LANDS.get(_story_setting(description))
    if land is not None:  # a palace's story is of the 深宫, a fable's of the 森林, not of an old walled 古城
        return re.sub(r"^一[座片颗艘方]", "", land["zh"])
    return ERA_WORLD_NAMES_ZH.get(story_era(description) or "", TIMELESS_WORLD_NAME_ZH)


def _time_period_en(description: str) -> str:
    """As the Chinese: "the 1890s", "Victorian", else "the present day" of a police precinct."""
    era = story_era(description)
    # a fox and a crow "in an age that suits “forest”" named a thing of the book as its age: none is said
    return era_said(description) or (ERA_PERIODS["en"][era] if era else UNSAID_PERIOD_EN)


@offline_composer(WorldSetting)
def world(request: OfflineRequest) -> WorldSetting:
    description = str(request.fact("description") or "")
    places = _places(request)[:5]
    setting = setting_named(description)  # "Mars", 火星: the name of where it is set, not its first words
    if _english(request):
        core = _core_thing_en(description)
        return WorldSetting(
            world_name=setting[:1].upper() + setting[1:] if setting else _world_name_en(description),
            time_period=f"{EN_TAG}{_time_period_en(description)}",
            geography=f"{EN_TAG}{_geography_en(setting, description, places)}",
            social_system=f"{EN_TAG}an order read from the description: {whole_clauses(description, 80)}",
            power_system=f"{EN_TAG}powers that turn on “{core}”",
            technology_level=f"{EN_TAG}as the age allows",
            culture_customs=f"{EN_TAG}people here keep their word",
            special_rules=None,
        )
    world_name = setting or _world_name_zh(description)
    return WorldSetting(
        world_name=world_name,
        time_period=f"{TAG}{_time_period_zh(description)}",
        geography=f"{TAG}{_geography_zh(setting, description, places[:4])}",
        social_system=f"{TAG}由描述推得的社会秩序：{whole_clauses(description, 60)}",
        # of the place, not of the premise's first clause ("围绕“民国初年的福州”的力量体系")
        power_system=f"{TAG}{world_name}的各方势力与它们之间的角力",
        technology_level=f"{TAG}与时代相称",
        culture_customs=f"{TAG}当地人重诺守约",
        special_rules=None,
    )


def _article_lowered(name: str) -> str:
    """An English world's name set inside a sentence: its article, capital only as the name's first word, lowered
    ("in The Welsh mining village" → "in the Welsh mining village"); its own words keep theirs ("Mars")."""
    article, _, rest = name.partition(" ")
    return f"{article.lower()} {rest}" if rest and article.lower() in ("the", "a", "an") else name


def _sub_conflicts(description: str, *, english: bool) -> list[str]:
    """The lesser conflicts, between the people the description brings in (who become the cast): the lead against
    the one set against them, and strained trust with the others. No stock mentor and pupil: a cast without a
    mentor had "师徒之间的分歧"."""
    named = characters_in_description(description)
    lead_said = lead_named(description, named)
    named = [lead_said] + [c for c in named if c is not lead_said] if lead_said else _wronged_first(description, named)
    hero = named[0].name if named and unnamed_lead(description) is None else ("the protagonist" if english else "主角")
    others = [c for c in named if c.name != hero]
    foe = adversary(description, others, hero) if others else None
    lines = []
    if foe is not None:
        lines.append(f"{hero} against {foe.name}" if english else f"{hero}与{foe.name}的明争暗斗")
    for other in [c for c in others if c is not foe][:2]:
        lines.append(f"trust strained between {hero} and {other.name}" if english
                     else f"{hero}与{other.name}之间的信任与隔阂")
    if len(lines) < 2:
        lines.append(f"what {hero} must give up to go on" if english else f"{hero}为走下去必须舍弃的东西")
    if len(lines) < 2:
        lines.append(f"doubt among those nearest {hero}" if english else f"{hero}身边人的猜疑")
    return lines


@offline_composer(ThemeConflict)
def theme_conflict(request: OfflineRequest) -> ThemeConflict:
    direction = str(request.fact("direction") or "").strip()
    description = str(request.fact("description") or "")
    if _english(request):
        world_name = _article_lowered((request.fact("world") or {}).get("world_name", "this land"))
        core = _short(direction, english=True) if direction else "growing up and choosing"
        return ThemeConflict(
            core_theme=core,
            sub_themes=["trust", "the price paid"],
            main_conflict=f"{EN_TAG}in {world_name}, the protagonist stands for “{core}” against the old order",
            sub_conflicts=[f"{EN_TAG}{line}" for line in _sub_conflicts(description, english=True)],
            tone="measured",
        )
    world_name = (request.fact("world") or {}).get("world_name", "此地")
    core = _short(direction) if direction else "成长与抉择"
    return ThemeConflict(
        core_theme=core,
        sub_themes=["信任", "代价"],
        main_conflict=f"{TAG}在{world_name}，主角为“{core}”与旧秩序对抗",  # "主角在江南中" read as no Chinese
        sub_conflicts=[f"{TAG}{line}" for line in _sub_conflicts(description, english=False)],
        tone="沉稳",
    )


# Words a description calls someone by that tell their age: a 少女 was written down as 36, a 老管家 as 25.
# The age a year at school starts at (understanding.age_said reads 高二 of "高二女生").
SCHOOL_YEAR_AGES = {f"{stage}{year}": start + index for stage, start in (("初", 12), ("高", 15), ("大", 18))
                    for index, year in enumerate("一二三四") if stage == "大" or index < 3}
_YOUNG_WORDS = {"少女", "少年", "女孩", "男孩", "女生", "男生", "girl", "boy"}  # a 高二女生 was 30
_OLD_WORDS = {"爷爷", "奶奶", "grandfather", "grandmother"}
# A parent is a generation older than the one said to be someone's child ("Her father, Jory" was 18, as old as
# the keeper's daughter herself): parents 40-59, a son or daughter ("船工之子", "a keeper's daughter") 15-24.
_PARENT_WORDS = {"父亲", "母亲", "爸爸", "妈妈", "father", "mother", "stepfather", "stepmother"}
_CHILD_ENDINGS = ("之子", "之女", "儿子", "女儿", "daughter", "son")
_GRANDCHILD_ENDINGS = ("孙子", "孙女", "外孙", "外孙女", "granddaughter", "grandson")


# The ages a post or a calling is commonly held at (lowest, highest), by the word the description calls someone
# ("摆渡人周老四", "the station director Victor Kane"): a ferryman or a station chief of 17 reads as a slip.
_ROLE_AGES = (
    ((40, 62), ("站长", "局长", "所长", "厂长", "船长", "舰长", "镖头", "掌柜", "族长", "村长", "镇长", "县令", "知县", "知府",
                "院长", "校长", "馆长", "主任", "将军", "老板", "帮主", "掌门", "庄主", "寨主", "捕头", "警长", "探长", "总管",
                "管家", "账房先生", "账房", "师爷", "住持", "方丈", "师父", "师傅", "男爵", "伯爵", "公爵", "侯爵"),
     ("chief", "director", "captain", "commander", "mayor", "headmaster", "headmistress", "principal",
      "superintendent", "governor", "general", "abbot", "abbess", "innkeeper", "landlord", "foreman", "sheriff",
      "inspector", "warden", "steward", "butler", "housekeeper", "postmaster", "postmistress", "mentor", "master",
      "baron", "baroness", "count", "countess", "duke", "duchess", "earl")),
    ((45, 66), ("教授", "老爷", "太傅"), ("professor", "judge", "bishop")),
    ((32, 58), ("摆渡人", "艄公", "船夫", "船工", "渔夫", "铁匠", "木匠", "郎中", "猎户", "猎人", "樵夫", "农夫", "守林人", "守塔人",
                "看守", "邮差", "大副", "车夫", "马夫", "石匠", "裁缝", "屠夫", "寡妇"),
     ("ferryman", "boatman", "fisherman", "blacksmith", "smith", "carpenter", "herbalist", "hunter", "farmer",
      "shepherd", "keeper", "mate", "boatswain", "miller", "tailor", "butcher", "mason", "widow", "widower")),
    ((27, 50), ("医生", "大夫", "律师", "工程师", "记者", "警察", "捕快", "侦探", "教师", "老师", "护士", "法医", "会计", "编辑",
                "科学家", "研究员", "植物学家", "宇航员", "飞行员", "军官", "法官"),
     ("doctor", "physician", "lawyer", "engineer", "journalist", "reporter", "detective", "constable", "teacher",
      "nurse", "scientist", "botanist", "astronaut", "pilot", "officer", "surgeon", "editor", "accountant")),
    ((19, 34), ("快递员", "收银员", "服务员", "店员", "外卖员", "伙计", "小二"),
     ("courier", "cashier", "waiter", "waitress", "clerk", "barista", "shop assistant")),
    ((17, 26), ("姑娘", "小伙子", "小伙", "后生"), ("lass", "lad")),
    ((9, 16), ("孤儿",), ("orphan",)),
    ((15, 23), ("学生", "书生", "学徒", "弟子", "徒弟", "新兵", "实习生", "小厮", "丫鬟", "书童", "侍女", "宫女"),
     ("student", "apprentice", "intern", "cadet", "recruit", "pupil", "squire", "novice", "page")),
)


def _role_ages(said_as: str | None) -> tuple[int, int] | None:
    """The ages `said_as` is commonly held at ("摆渡人", "老船工" of 船工, "the station director" of director), by
    the longest word of the table it ends with; None for a word the table lacks."""
    said = (said_as or "").lower().strip()
    if not said:
        return None
    fits = [(len(word), ages) for ages, zh, en in _ROLE_AGES for word in (*zh, *en)
            if said.endswith(word) and (not word.isascii() or said == word or said.endswith(" " + word))]
    return max(fits)[1] if fits else None


def _age(seed: str, name: str, said_as: str | None, age_word: str | None = None) -> int:
    """An age fitting what the description calls them: a 少年 14-19, "a young net-mender" or a 少镖头 17-26 (was 54
    or 55), a parent 40-59, a child of someone's 15-24, an old or a 老 one 55-74, a post or a calling the ages it
    is held at (a ferryman 32-58, a station director 40-62); else anything from 16 to 55."""
    spread = stable_int(seed, name)
    if age_word in SCHOOL_YEAR_AGES:  # a 高二 girl is 16 or 17 (she was 14, a 初二 pupil's age)
        return SCHOOL_YEAR_AGES[age_word] + spread % 2
    if said_as in _YOUNG_WORDS:
        return 14 + spread % 6
    if age_word == "young":
        return 17 + spread % 10
    if said_as in _PARENT_WORDS or age_word == "elder":  # a parent, or a parent's friend ("父亲的结义兄弟")
        return 40 + spread % 20
    if said_as and said_as.endswith(_CHILD_ENDINGS):
        return 15 + spread % 10
    if said_as in _OLD_WORDS or (said_as and said_as.startswith("老") and len(said_as) >= 3) \
            or age_word == "old":  # 老管家, not 老师
        # still in the post: "车间主任老郑" is old for a workshop head (55-62), not 70
        oldest = max(_role_ages(said_as)[1], 62) if _role_ages(said_as) else 74
        return 55 + spread % (oldest - 54)
    ages = _role_ages(said_as)
    if ages:
        return ages[0] + spread % (ages[1] - ages[0] + 1)
    return 16 + spread % 40


# Kin a generation's few years older or younger than the protagonist they are said to be kin of ("沈秋菱的弟弟
# 沈小军" was 55 beside his sister's 46, "表哥顾远舟" 19 beside his cousin's 21).
_ELDER_KIN = {"哥哥", "姐姐", "表哥", "表姐", "堂哥", "堂姐", "大哥", "大姐", "师兄", "师姐", "older brother",
              "older sister", "elder brother", "elder sister", "big brother", "big sister"}
_YOUNGER_KIN = {"弟弟", "妹妹", "表弟", "表妹", "堂弟", "堂妹", "小弟", "小妹", "师弟", "师妹", "younger brother",
                "younger sister", "little brother", "little sister", "kid brother", "kid sister"}


# Those in the protagonist's class at school: of their age, a year either way.
_SCHOOL_SENIORS = {"学长", "学姐"}
_SCHOOL_JUNIORS = {"学弟", "学妹"}
_CLASSMATES = {"同桌", "同学", "同班同学", "classmate", "schoolmate", "deskmate"}


def _age_beside(seed: str, name: str, said_as: str | None, hero_age: int, age: int) -> int:
    """`age`, unless the description makes them the protagonist's elder or younger kin: then 1-8 years older or
    younger than the protagonist."""
    gap = 1 + stable_int(seed, name, "gap") % 8
    if said_as in _ELDER_KIN:
        return hero_age + gap
    if said_as in _YOUNGER_KIN:
        return max(hero_age - gap, 5)
    said = (said_as or "").lower()
    if said.endswith(_GRANDCHILD_ENDINGS) and hero_age >= 55:
        return max(hero_age - 40 - gap, 3)  # 老太爷's 孙女 was 28 beside his 63
    if said.endswith(_CHILD_ENDINGS) and not said.endswith(_GRANDCHILD_ENDINGS) and hero_age >= 40:
        return max(hero_age - 20 - 2 * gap, 3)  # his 大儿子 was 21 beside his 63
    if said_as in _SCHOOL_SENIORS:  # a 学长 of a 19-year-old 大一新生 was 18: a year or three above
        return hero_age + 1 + stable_int(seed, name, "side") % 3
    if said_as in _SCHOOL_JUNIORS:
        return max(hero_age - 1 - stable_int(seed, name, "side") % 3, 6)
    if said_as in _CLASSMATES:  # a 学霸 同桌 of a 17-year-old was 21: one class is one school year
        return max(hero_age + stable_int(seed, name, "side") % 3 - 1, 6)
    if said_as in _PEER_KIN:
        return max(hero_age + (gap if stable_int(seed, name, "side") % 2 else -gap), 16)
    return age


# Kin by marriage of the protagonist's own generation: a widower's sister-in-law was 18 beside his 42.
_PEER_KIN = {"sister-in-law", "brother-in-law", "嫂子", "嫂嫂", "姐夫", "妹夫", "弟媳", "小姑子", "小叔子", "大伯子", "妯娌",
             "连襟",
             # school and room mates: a 同桌 of a 高二 girl was 32
             "同桌", "同学", "室友", "classmate", "roommate", "schoolmate",
             # "Two siblings, Max and Lily": a few years apart, not 49 and 46 strangers
             "sibling", "twin"}


def _character(name: str, role: str, seed: str, relationships: dict[str, str], *, english: bool,
               female: bool | None = None, said_as: str | None = None, age_word: str | None = None,
               calling: str | None = None, of: tuple[str, str] | None = None) -> Character:
    # what the description says of them ("a girl named Mira"), else what an invented name is read as, else unknown
    female = EN_FIRST_FEMALE.get(name.split()[0]) if female is None and english and name.split() else female
    if female is None:
        gender = UNKNOWN_GENDER["en" if english else "zh"]
    else:
        gender = ("female" if female else "male") if english else ("女" if female else "男")
    # a post or a calling the description gives ("探长", "doctor") is who they are: their background opens with it
    # (or said beside the tie: "his sister Maren, a lighthouse keeper")
    post = calling or (said_as if said_as and _tie(said_as, "") == "" and said_as not in _YOUNG_WORDS else None)
    # The background says what the description tells of them (their post) and what they are to the lead (`of`: the
    # lead's name and the tie): facts read, not offline prose, so untagged; "[offline sample] where Rowan Finch comes
    # from" said nothing and was shown as an answer to "who is Rowan?"
    if english:
        known = [f"{_article(post)} {post}" if post else "", f"{of[0]}'s {of[1]}" if of else ""]
        if post and of and re.match(r"(?:father|mother|dad|mum|mom|parents|brother|sister|husband|wife)['’]s ", post):
            # "her father's partner, Silas Crane" is the lead's father's partner, not "a father's partner"
            known = [f"{of[0]}'s {post}"]
        return Character(
            name=name, role=role, age=_age(seed, name, said_as, age_word), gender=gender,
            appearance=f"{EN_TAG}{name} looks plain", personality=f"{EN_TAG}as befits the {role}",
            background="; ".join(k for k in known if k) or f"{EN_TAG}where {name} comes from",
            motivation=f"{EN_TAG}{name} wants to keep what matters",
            abilities=None, relationships=relationships or None,
        )
    return Character(
        name=name, role=role, age=_age(seed, name, said_as, age_word), gender=gender,
        appearance=f"{TAG}{name}的样貌朴素", personality=f"{TAG}{role}的性格",
        background="，".join(k for k in (post or "", f"{of[0]}的{of[1]}" if of else "") if k) or f"{TAG}{name}的来历",
        motivation=f"{TAG}{name}想要守住自己在意的东西", abilities=None, relationships=relationships or None,
    )


def _wronged_first(description: str, named: list) -> list:
    """The people named, the one doing harm not first: "车间主任老郑总找女工沈秋菱的麻烦" is 沈秋菱's story, and
    老郑 her antagonist, though named first."""
    doer = adversary(description, named, "") if len(named) > 1 else None
    return [c for c in named if c is not doer] + ([doer] if doer else [])


@offline_composer(CharactersConfig)
def characters(request: OfflineRequest) -> CharactersConfig:
    seed = _seed(request)
    english = _english(request)
    # The people the author named keep their names: the first is the protagonist, the others stand beside them.
    description = str(request.fact("description") or "")
    named = characters_in_description(description)
    # "师父沈墨收了个徒弟林远，故事的主角是林远": the one the description calls its lead leads, wherever named
    lead_said = lead_named(description, named)
    named = ([lead_said] + [c for c in named if c is not lead_said] if lead_said else _wronged_first(description, named))[:4]
    # a fable's cast is its animals ("a fox and a crow", "小兔子和大灰狼"), when it tells of no person at all; the
    # hunter among them stands against the hunted
    animals = fable_cast(description) if not named else []
    hunters = [a for a in animals if a.said_as and a.said_as.lower() in _PREDATORS] if len(animals) > 1 else []
    if animals:
        named = [a for a in animals if a not in hunters] + hunters
        if len(hunters) == len(animals):
            hunters = hunters[1:]
    taken: set[str] = {c.name for c in named}
    lead, villain, support = ROLES["en" if english else "zh"]
    ties = (("mentor", "close friend", "nemesis", "pupil") if english else ("师父", "挚友", "宿敌", "徒弟"))
    invented = iter(_name(seed, slot, taken, english=english) for slot in range(4))
    # "一个少年行走江湖，…邻居王婶收养了他": the unnamed boy is the protagonist (named here), not the neighbour
    unnamed = unnamed_lead(description) if lead_said is None else None
    # those it brings in by what they are ("救起落水的陌生人", "serves the baron") are of the cast too, named here;
    # with no one named, the first of them leads ("老渔夫在海边捡到一个昏迷的女人")
    nameless = people_unnamed(description, named, unnamed) if not animals else []
    if not named and unnamed is None and nameless:
        unnamed, nameless = nameless[0], nameless[1:]
    invented_for = {p.name: _name(seed, 10 + slot, taken, english=english, female=_female(p.gender))
                    for slot, p in enumerate(nameless)}
    if unnamed is not None:
        hero_female, beside, hero_said = _female(unnamed.gender), named[:3], unnamed.said_as
        hero = _name(seed, 9, taken, english=english, female=hero_female)
    else:
        hero = named[0].name if named else next(invented)
        hero_female, beside = (_female(named[0].gender) if named else None), named[1:]
        hero_said = named[0].said_as if named else None
    # the one the description sets against the hero is the antagonist ("her rival Doyle", "表哥顾远舟勾结盐帮"),
    # not a stranger invented beside them
    # the unnamed are found in the text by the word they are said as ("the baron schemes"), then given their names
    foe = adversary(description, [*beside, *nameless], hero) or next(iter(hunters), None)
    beside = [c if c.name not in invented_for else replace(c, name=invented_for[c.name])
              for c in [*beside, *nameless] if c is not foe]
    foe = foe and (replace(foe, name=invented_for[foe.name]) if foe.name in invented_for else foe)
    # The people the premise brings in are the cast: no stranger is invented to stand beside or against them (a
    # villain only when the premise sets one against the lead). A premise of one person alone gets one other, not
    # a stock mentor, friend and rival: their rival when it tells of harm done, else a friend.
    invents = len(beside) + (foe is not None) == 0
    acquaintance = "acquaintance" if english else "相识"
    rival = foe.name if foe else next(invented) if invents and tells_harm(description) else None
    rival_tie = _tie(foe.said_as, ties[2]) if foe else ties[2]
    rival_back = (_called_back(foe.said_as, hero_female) if foe else None) or ties[2]
    # (name, what the protagonist calls them, what they call the protagonist, gender, the post they hold)
    side = [(c.name, _tie(c.said_as, acquaintance), _called_back(c.said_as, hero_female) or _tie(c.said_as, acquaintance),
             _female(c.gender), c.said_as) for c in beside]
    if invents and rival is None:
        side.append((next(invented), ties[1], ties[1], None, None))
    hero_ties = {name: tie for name, tie, *_ in side} | ({rival: rival_tie} if rival else {})
    # "A young net-mender named Wren", "少镖头谢云帆": the words bringing them in say how old they are
    ages = {c.name: age_said(description, c.name, c.said_as) for c in named}
    callings = {c.name: c.calling for c in named}
    cast = CharactersConfig(
        protagonist=_character(hero, lead, seed, hero_ties, english=english, female=hero_female, said_as=hero_said,
                               age_word=ages.get(hero), calling=callings.get(hero)),
        antagonist=_character(rival, villain, seed, {hero: rival_back}, english=english,
                              female=_female(foe.gender) if foe else None,
                              said_as=foe.said_as if foe else None, age_word=ages.get(rival),
                              calling=callings.get(rival), of=(hero, rival_tie)) if rival else None,
        supporting_characters=[_character(name, support, seed, {hero: back}, english=english, female=female,
                                          said_as=said_as, age_word=ages.get(name), calling=callings.get(name),
                                          of=(hero, tie))
                               for name, tie, back, female, said_as in side],
    )
    if animals:  # a fox has no age in years a fable tells
        return cast.model_copy(update={
            "protagonist": cast.protagonist.model_copy(update={"age": None}),
            "antagonist": cast.antagonist and cast.antagonist.model_copy(update={"age": None}),
            "supporting_characters": [c.model_copy(update={"age": None}) for c in cast.supporting_characters]})
    hero_age = cast.protagonist.age
    return cast.model_copy(update={
        "antagonist": cast.antagonist and cast.antagonist.model_copy(update={"age": _age_beside(
            seed, cast.antagonist.name, foe.said_as if foe else None, hero_age, cast.antagonist.age)}),
        "supporting_characters": [c.model_copy(update={"age": _age_beside(seed, c.name, said_as, hero_age, c.age)})
                                  for c, (*_, said_as) in zip(cast.supporting_characters, side)]})


# Animals that hunt the others of a fable: beside the hen or the hare they are its antagonist.
_PREDATORS = {"fox", "wolf", "lion", "tiger", "cat", "owl", "eagle", "weasel", "bear", "snake", "狐狸", "大灰狼", "灰狼",
              "老虎", "狮子", "黄鼠狼", "猫头鹰"} | {f"{size}{beast}" for size in ("", "大", "小", "老", "大灰", "小灰")
                                             for beast in ("狼", "狐狸", "老虎", "狐", "蛇", "虎")}


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _tie(said_as: str | None, default: str) -> str:
    """What the protagonist is to someone the description calls `said_as`: a word of kinship or of a tie
    (brother, 师父, rival), else `default`. A post or a calling ("探长", "station director") is what they
    are, not what they are to the protagonist: their background says it."""
    tie = (said_as or "").lower().removeprefix("ex-")  # an ex-husband is a tie as a husband is
    return said_as if tie in _KIN_BACK or tie in _TIES else default


# What someone called X calls the protagonist back, as (said by a woman's relative, by a man's): her brother
# Tom calls her his sister. Words the table lacks ("keeper") leave the default tie.
_KIN_BACK = {"brother": ("sister", "brother"), "sister": ("sister", "brother"), "mother": ("daughter", "son"),
             "father": ("daughter", "son"), "son": ("mother", "father"), "daughter": ("mother", "father"),
             "uncle": ("niece", "nephew"), "aunt": ("niece", "nephew"), "grandfather": ("granddaughter", "grandson"),
             "grandmother": ("granddaughter", "grandson"), "wife": ("husband", "husband"), "husband": ("wife", "wife"),
             "friend": ("friend", "friend"), "cousin": ("cousin", "cousin"), "mentor": ("pupil", "pupil"),
             "master": ("apprentice", "apprentice"), "teacher": ("pupil", "pupil"), "rival": ("rival", "rival"),
             "apprentice": ("master", "master"), "pupil": ("teacher", "teacher"), "student": ("teacher", "teacher"),
             "partner": ("partner", "partner"), "sibling": ("sibling", "sibling"), "twin": ("twin", "twin"), "neighbour": ("neighbour", "neighbour"),
             "neighbor": ("neighbor", "neighbor"), "classmate": ("classmate", "classmate"),
             "niece": ("aunt", "uncle"), "nephew": ("aunt", "uncle"), "granddaughter": ("grandmother", "grandfather"),
             "grandson": ("grandmother", "grandfather"),
             "sister-in-law": ("sister-in-law", "brother-in-law"), "brother-in-law": ("sister-in-law", "brother-in-law"),
             "mother-in-law": ("daughter-in-law", "son-in-law"), "father-in-law": ("daughter-in-law", "son-in-law"),
             "daughter-in-law": ("mother-in-law", "father-in-law"), "son-in-law": ("mother-in-law", "father-in-law"),
             "哥哥": ("妹妹", "弟弟"), "姐姐": ("妹妹", "弟弟"), "弟弟": ("姐姐", "哥哥"), "妹妹": ("姐姐", "哥哥"),
             "父亲": ("女儿", "儿子"), "爸爸": ("女儿", "儿子"), "母亲": ("女儿", "儿子"), "妈妈": ("女儿", "儿子"),
             "儿子": ("母亲", "父亲"), "女儿": ("母亲", "父亲"), "师父": ("徒弟", "徒弟"), "师傅": ("徒弟", "徒弟"),
             "徒弟": ("师父", "师父"), "师兄": ("师妹", "师弟"), "师姐": ("师妹", "师弟"), "师弟": ("师姐", "师兄"),
             "师妹": ("师姐", "师兄"), "朋友": ("朋友", "朋友"), "好友": ("好友", "好友"), "对手": ("对手", "对手"),
             "宿敌": ("宿敌", "宿敌"), "学徒": ("师父", "师父"), "弟子": ("师父", "师父"), "学生": ("老师", "老师"),
             "老师": ("学生", "学生"), "同学": ("同学", "同学"), "同桌": ("同桌", "同桌"), "邻居": ("邻居", "邻居"),
             "室友": ("室友", "室友"), "同事": ("同事", "同事"), "伙伴": ("伙伴", "伙伴"), "同伴": ("同伴", "同伴"),
             "队友": ("队友", "队友"), "战友": ("战友", "战友"), "搭档": ("搭档", "搭档"), "青梅竹马": ("青梅竹马", "青梅竹马"),
             "孙子": ("奶奶", "爷爷"), "孙女": ("奶奶", "爷爷"), "大儿子": ("母亲", "父亲"), "二儿子": ("母亲", "父亲"),
             "小儿子": ("母亲", "父亲"), "大女儿": ("母亲", "父亲"), "小女儿": ("母亲", "父亲"), "舅舅": ("外甥女", "外甥"),
             "叔叔": ("侄女", "侄子"), "姑姑": ("侄女", "侄子"), "外婆": ("外孙女", "外孙"), "外公": ("外孙女", "外孙"),
             "女婿": ("岳母", "岳父"), "儿媳": ("婆婆", "公公"), "嫂子": ("小姑子", "小叔子"), "姐夫": ("小姨子", "小舅子"),
             "表哥": ("表妹", "表弟"), "表姐": ("表妹", "表弟"), "表弟": ("表姐", "表哥"), "表妹": ("表姐", "表哥")}


# Ties the description may name that are no kinship: a rival is the protagonist's rival.
_TIES = {"rival", "nemesis", "enemy", "宿敌", "对手", "仇人", "死对头", "青梅竹马", "恋人", "lover", "fiancee", "fiancée",
         "fiance", "fiancé", "wife", "husband", "sweetheart"}


def _called_back(said_as: str | None, hero_female: bool | None) -> str | None:
    former = (said_as or "").startswith("ex-")  # her ex-husband calls her his ex-wife
    back = _KIN_BACK.get((said_as or "").removeprefix("ex-"))
    if back is None or (hero_female is None and back[0] != back[1]):
        return None
    return ("ex-" if former else "") + (back[0] if hero_female or hero_female is None else back[1])


def _female(gender: str | None) -> bool | None:
    return None if gender is None else gender in ("female", "女")


def _cast(characters: dict[str, Any]) -> list[str]:
    people = [characters.get("protagonist") or {}, characters.get("antagonist") or {}]
    people += list(characters.get("supporting_characters") or [])
    return [p["name"] for p in people if p and p.get("name")]


def _chapter_word(number: int, hero: str, *, english: bool) -> str:
    """The title word of a chapter: consecutive chapters walk the list from a place the book picks, so no
    two chapters of one book share a title (past the list's end, a second round is numbered)."""
    words = CHAPTER_WORDS["en" if english else "zh"]
    index = stable_int(hero) + number - 1
    word = words[index % len(words)]
    rounds = (number - 1) // len(words)
    if rounds:
        return f"{word} {rounds + 1}" if english else f"{word}·{rounds + 1}"
    return word


def _chapter_summary(number: int, theme: dict[str, Any], cast: list[str], *, english: bool,
                     opening: str | None = None) -> ChapterSummary:
    """A chapter of the outline; the first opens on what the author's description has the protagonist do
    (`opening`: "Moira finds a drowned sailor who is still breathing"), which no template says."""
    summary = _template_chapter_summary(number, theme, cast, english=english)
    if number == 1 and opening:
        return summary.model_copy(update={"key_events": [opening, *summary.key_events]})
    return summary


def _template_chapter_summary(number: int, theme: dict[str, Any], cast: list[str], *, english: bool) -> ChapterSummary:
    conflict = _untagged(theme.get("main_conflict", "") if theme else "")
    # The protagonist meets someone else each chapter, never themself.
    met = cast[1 + number % (len(cast) - 1)] if len(cast) > 1 else None
    title = _chapter_word(number, cast[0] if cast else "", english=english)
    if english:
        hero = cast[0] if cast else "the protagonist"
        other = met or "a stranger"
        return ChapterSummary(
            chapter_number=number,
            chapter_title=f"Chapter {number}: {title}",
            summary=f"{EN_TAG}{hero} and {other} carry the main plot forward in chapter {number}: "
                    f"{whole_clauses(conflict, 80)}",
            key_events=[f"{hero} meets {other}", f"{hero} makes choice number {number}"],
            timeline_anchor=f"Day {number}",
            dependencies=[],
        )
    hero = cast[0] if cast else "主角"
    other = met or "旁人"
    return ChapterSummary(
        chapter_number=number,
        chapter_title=f"第{number}章 {title}",
        summary=f"{TAG}{hero}与{other}在第{number}章推进主线：{whole_clauses(conflict, 40)}",
        key_events=[f"{hero}遇到{other}", f"{hero}做出第{number}个选择"],
        timeline_anchor=f"第{number}天",
        dependencies=[],
    )


@offline_composer(Outline)
def outline(request: OfflineRequest) -> Outline:
    english = _english(request)
    existing = request.fact("existing") or {}
    theme = request.fact("theme") or {}
    cast = _cast(request.fact("characters") or {})
    chapters = [ChapterSummary.model_validate(c) for c in existing.get("chapters", [])]
    description = str(request.fact("description") or "")
    opening = opening_deed(description, cast[0], cast) if cast and description else None
    for number in range(len(chapters) + 1, int(request.fact("chapters", 3)) + 1):
        chapters.append(_chapter_summary(number, theme, cast, english=english, opening=opening))
    if english:
        parts = (f"{EN_TAG}{_untagged(theme.get('main_conflict', 'a story about a choice'))}", f"{EN_TAG}the protagonist leaves home",
                 f"{EN_TAG}allies and rivals appear", f"{EN_TAG}the protagonist faces {theme.get('core_theme', 'the choice')}",
                 f"{EN_TAG}the dust settles")
    else:
        parts = (f"{TAG}{_untagged(theme.get('main_conflict', '一个关于选择的故事'))}", f"{TAG}主角离开熟悉的地方",
                 f"{TAG}同伴与对手先后出现", f"{TAG}主角直面{theme.get('core_theme', '抉择')}", f"{TAG}尘埃落定")
    keys = ("story_premise", "beginning", "development", "climax", "resolution")
    return Outline(**{key: existing.get(key) or part for key, part in zip(keys, parts)}, chapters=chapters)


@offline_composer(ChapterPlan)
def chapter_plan(request: OfflineRequest) -> ChapterPlan:
    language = "en" if _english(request) else "zh"
    summary = request.fact("summary") or {}
    number = int(summary.get("chapter_number", 1))
    cast = _cast(request.fact("characters") or {}) or [ROLES[language][0]]
    # The people the outline names for this chapter meet in its scenes.
    cast = [name for name in cast if name in str(summary)] or cast
    events = list(summary.get("key_events") or ["the plot moves on" if language == "en" else "推进剧情"])
    count = 2 + stable_int(number, summary.get("chapter_title")) % 2
    scenes = [
        ScenePlan(
            scene_number=n,
            location=stable_choice(_places(request), number, n),
            # the protagonist and someone else: never the protagonist twice, which left the one met out
            characters=[cast[0], cast[1 + (number + n) % (len(cast) - 1)]] if len(cast) > 1 else cast[:1],
            purpose=events[(n - 1) % len(events)],
            key_actions=[events[(n - 1) % len(events)]],
            estimated_words=300,
            scene_type=stable_choice(SCENE_TYPES[language], number, n),
            intensity=stable_choice(INTENSITIES[language], number, n),
        )
        for n in range(1, count + 1)
    ]
    title = summary.get("chapter_title") or (f"Chapter {number}" if language == "en" else f"第{number}章")
    return ChapterPlan(chapter_number=number, chapter_title=title, scenes=scenes)


# How a scene or a chapter's memory opens ("【离线示例】第1章第2场。", "[offline sample] Chapter 1, scene 2.",
# "第1章「启程」：【离线示例】…"): headings of the text, not events of the story, so a recall leaves them out.
_TAGGED = r"(?:" + re.escape(TAG) + "|" + re.escape(EN_TAG.strip()) + r")?\s*"
_HEADING = re.compile(r"^\s*" + _TAGGED + r"(?:第\d+章第\d+场。|Chapter \d+, scene \d+\.|第\d+章「[^」]*」[:：]|Chapter \d+, “[^”]*”: )?\s*" + _TAGGED)


def without_heading(line: str) -> str:
    """The line after the scene heading it opens with ("[offline sample] Chapter 1, scene 1. Ada came to the
    inn." → "Ada came to the inn."): still words of the scene, so a quote of it is still verified."""
    return _HEADING.sub("", line, count=1).strip()


def is_scene_heading(line: str) -> bool:
    """The line is a scene's heading and nothing else ("【离线示例】第3章第1场。"): quoted as what a chapter
    says, it says nothing."""
    return bool(line.strip()) and not without_heading(line).strip(" 。.")


# The lines of an offline scene that tell what the scene is for, what its people have in mind and how it closes
# ("这一场的目的：…", "All the while their minds were on …"; "气氛低，场景在日常中收束。" of projects written before):
# notes of the plan written into the text, not the story. "Who stole the astrolabe" quoted "their minds were on
# … a stolen brass astrolabe" as the book's answer.
_PLAN_NOTE = re.compile(r"^\s*" + _TAGGED + r"(?:这一场的目的[:：]|What the scene is for:|气氛[^，。]*，场景在[^。]*中收束"
                        r"|The mood was [^,]*, and the scene closed on |一路上，他们心里记挂着|All the while their minds were on )")

# How an offline scene closes, by its plan's kind of scene and intensity: a sentence a writer would write, not
# "气氛中，场景在对话中收束" (the plan's words 中 and 对话 set into a template). A kind or an intensity a model's plan
# names otherwise closes the scene plainly.
_CLOSINGS = {
    "zh": {"日常": "这一天就这样平平常常地过去了。", "对话": "话说到这里，谁也没有再开口。", "发展": "事情从这里起了变化。",
           None: "这一场就此告一段落。"},
    "en": {"everyday": "The day went on as days there did.", "dialogue": "After that, neither of them said anything more.",
           "development": "From there, things began to change.", None: "And there the moment passed."},
}
_MOODS = {"zh": {"低": "四下里静悄悄的。", "高": "每个人的心都悬着。"},
          "en": {"low": "All was quiet around them.", "high": "The air was taut as a drawn string."}}


def _closing(scene: dict, language: str) -> str:
    closings = _CLOSINGS[language]
    mood = _MOODS[language].get(str(scene.get("intensity", "")).strip(), "")
    return mood + ("" if language == "zh" or not mood else " ") + closings.get(scene.get("scene_type"), closings[None])


# the closing as a line, and its sentences as the passages a search splits it into: mood, then closing
_CLOSING_LINES = {_closing({"scene_type": kind, "intensity": mood}, language)
                  for language in _CLOSINGS for kind in _CLOSINGS[language] for mood in (None, *_MOODS[language])} | {
    said for language in _CLOSINGS for said in (*_CLOSINGS[language].values(), *_MOODS[language].values())}


def is_scene_note(line: str) -> bool:
    """The line is no story text: a scene's bare heading, or a note of its plan. Quoted as what the book
    says, "这一场的目的：苏晚晴遇到顾铭" answered "where did she go" and "whom did she meet" alike."""
    return is_scene_heading(line) or bool(_PLAN_NOTE.match(line)) or without_heading(line) in _CLOSING_LINES


def _recall(memory: Any, limit: int, trailing: str, stop: str) -> str:
    """An earlier event as a scene recalls it: what happened (its first line, without the offline tag and
    scene heading), in whole clauses, and a trail-off where the memory was cut."""
    text = _HEADING.sub("", str(memory), count=1).strip().splitlines()[0].strip() if str(memory).strip() else ""
    told = whole_clauses(text, limit)
    # a whole sentence kept ends as one; only a clause cut off from the rest of its sentence trails off
    if told != text and not told.endswith(tuple(".。!?！？")):
        return told + trailing
    return told.rstrip(".。!?！？") + stop


def _join_en(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


@offline_composer(GeneratedScene)
def scene_text(request: OfflineRequest) -> GeneratedScene:
    scene = request.fact("scene") or {}
    chapter = request.fact("chapter_number", 1)
    recalled = [m for m in (request.fact("memories") or []) if m][:1]
    number = scene.get("scene_number", 1)
    # What the book is about (the description's things) is in every scene, so a reader's "did the map
    # appear?" finds it in the book.
    things = things_on_minds(str(request.fact("description") or ""))
    if _english(request):
        people = " and ".join(dict.fromkeys(scene.get("characters") or ["The protagonist"]))
        lines = [
            f"{EN_TAG}Chapter {chapter}, scene {number}. {people} came to {scene.get('location', 'a quiet place')}.",
            f"What the scene is for: {scene.get('purpose', 'the plot moves on')}.",
            *(f"{action}." for action in scene.get("key_actions") or []),
            *(f"They remembered what had gone before: {_recall(m, 80, '…', '.')}" for m in recalled),
            *([f"All the while their minds were on {_join_en(things)}."] if things else []),
            _closing(scene, "en"),
        ]
    else:
        people = "与".join(dict.fromkeys(scene.get("characters") or ["主角"]))
        lines = [
            f"{TAG}第{chapter}章第{number}场。{people}来到{scene.get('location', '某地')}。",
            f"这一场的目的：{scene.get('purpose', '推进剧情')}。",
            *(f"{action}。" for action in scene.get("key_actions") or []),
            *(f"他们想起了前事：{_recall(m, 40, '……', '。')}" for m in recalled),
            *([f"一路上，他们心里记挂着{'、'.join(things)}。"] if things else []),
            _closing(scene, "zh"),
        ]
    return GeneratedScene(scene_number=int(number), content="\n".join(lines), word_count=0)


@offline_composer(ChapterMemoryEntry)
def chapter_memory(request: OfflineRequest) -> ChapterMemoryEntry:
    english = _english(request)
    chapter = request.fact("chapter") or {}
    plan = request.fact("plan") or {}
    summary = request.fact("summary") or {}
    scenes = plan.get("scenes") or []
    number = chapter.get("chapter_number", 1)
    people = list(dict.fromkeys(name for s in scenes for name in s.get("characters", [])))
    places = list(dict.fromkeys(s.get("location", "") for s in scenes))
    # Two scenes of one purpose are one event of the chapter, told once.
    purposes = list(dict.fromkeys(s.get("purpose", "") for s in scenes if s.get("purpose")))
    if english:
        states = {name: f"{EN_TAG}appears in chapter {number}" for name in people}
        threads = [f"{EN_TAG}what {summary.get('chapter_title', 'this chapter')} left open"]
        told = f"{EN_TAG}" + "; ".join(purposes)
        where = ", ".join(places)
    else:
        states = {name: f"{TAG}第{number}章出场" for name in people}
        threads = [f"{TAG}{summary.get('chapter_title', '本章')}留下的悬念"]
        told = f"{TAG}" + "；".join(purposes)
        where = "、".join(places)
    return ChapterMemoryEntry(
        chapter_number=int(number),
        chapter_title=chapter.get("chapter_title", ""),
        timeline_anchor=summary.get("timeline_anchor"),
        location_summary=where or None,
        key_events=purposes,
        character_states=states,
        unresolved_threads=threads,
        summary=told,
    )
