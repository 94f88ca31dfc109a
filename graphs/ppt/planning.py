"""Pure rules of the PPT pipeline: slide budget from duration, request parsing, feedback routing."""

from __future__ import annotations

import functools
import re
from collections import Counter

import colorsys
from typing import Literal

from pydantic import BaseModel, Field

from core.i18n import t
from core.language import CJK, JOBS_EN, JOBS_ZH, PEOPLE_PLURAL_EN, as_written, chinese_number, clip, gerund_en, is_function_word, is_keyboard_noise, is_small_talk, language_of, mid_sentence, names_a_job_zh, opens_with_common_word, plural_en, understood
from graphs.ppt.render.text import plain
from graphs.ppt.render.theme import BODY_CONTRAST, ensure_contrast
from schemas.ppt import ColorScheme

STAGES = (
    "analyze_topic",
    "generate_course_config",
    "generate_video_outline",
    "generate_slide_scripts",
    "generate_presentation_theme",
    "generate_slides",
)
# Every node a run passes after route_request: the six stages (each a tool message), then the QA
# gate and the real preview (plain nodes).
PIPELINE_NODES = (*STAGES, "check_deck", "preview_deck")

# Narration pace (spec: a lecture video): ~200 Chinese characters or ~150 English words a minute.
ZH_CHARS_PER_MINUTE = 200
EN_WORDS_PER_MINUTE = 150
MIN_SLIDES, MAX_SLIDES = 4, 40



def slide_count_for(duration_minutes: int, requested: int | None = None) -> int:
    """The slides asked for, else about one a minute plus title and closing pages; within MIN..MAX_SLIDES."""
    return max(MIN_SLIDES, min(MAX_SLIDES, requested or duration_minutes + 2))


def narration_budget(duration_minutes: int, slides: int, language: str) -> int:
    """Narration per slide: characters (zh) or words (en), so the deck fills its duration."""
    per_minute = ZH_CHARS_PER_MINUTE if language == "zh" else EN_WORDS_PER_MINUTE
    return max(20, round(duration_minutes * per_minute / slides))


def narration_length(text: str, language: str) -> int:
    return len(CJK.findall(text)) if language == "zh" else len(text.split())


_ZH_NUMERAL = r"\d零一二两三四五六七八九十"
_ZH_NUMBER = rf"[{_ZH_NUMERAL}]+"


def _zh_number(text: str) -> int:
    """"3" → 3, "三" → 3, "十二" → 12, "二十三" → 23; 0 when it is no number."""
    return chinese_number(text) or 0


_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
               "thirty": 30, "forty": 40, "forty-five": 45, "sixty": 60, "ninety": 90}
_EN_NUMBER = "|".join(sorted(_EN_NUMBERS, key=len, reverse=True))


def _number(text: str) -> float:
    """A figure as a request writes it: "8", "1.5", "十二", "twelve"."""
    text = text.strip().lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    return float(_EN_NUMBERS[text]) if text in _EN_NUMBERS else float(_zh_number(text))


# A length of time, however it is written; the first one a request names is the one meant
# ("大概半个小时左右吧也可能四十分钟" → 30). Chinese numerals need 分钟: "十分" alone means "very".
_DURATION = re.compile(
    rf"(?P<minutes>\d{{1,3}})[\s-]*(?:分钟|分(?![之数])|min\b|mins\b|minutes?\b)"
    rf"|(?P<zh_minutes>[零一二两三四五六七八九十]+)\s*分钟"
    rf"|\b(?P<en_minutes>{_EN_NUMBER})[\s-]+minutes?\b"
    rf"|(?P<hours>\d{{1,2}}(?:\.\d+)?|[一二两三四五])?\s*个?\s*(?P<half>半)?\s*个?\s*(?:小时|钟头)(?!候)"
    rf"|\b(?P<half_en>half\s+an?\s+)?(?P<en_hours>\d{{1,2}}(?:\.\d+)?|{_EN_NUMBER})?[\s-]*hours?\b",
    re.IGNORECASE,
)
# A slide count ("8页", "十页", "8张幻灯片", "8 slides", "a 12-slide deck"), not a page named (第3页) or
# added (加一页, 每页, 最后一页).
_SLIDE_COUNT_ZH = re.compile(
    rf"(?<![第加添增补多每这那前后哪某再{_ZH_NUMERAL}])(?P<count>[{_ZH_NUMERAL}]+)\s*"
    r"(?:页|张(?=\s*(?:幻灯片|PPT|ppt|课件|的)))(?:左右|以内)?", re.IGNORECASE)
# "a slide deck" names no count: "a"/"an" count only hours ("an hour").
_EN_COUNT = "|".join(word for word in _EN_NUMBER.split("|") if word not in ("a", "an"))
_SLIDE_COUNT_EN = re.compile(rf"\b(?P<count>\d{{1,3}}|{_EN_COUNT})[\s-]*(?:slides?|pages?)\b",
                             re.IGNORECASE)


# A class period ("一节课", "两节课") is as long as one, when no figure of time is named ("一节课40分钟" is 40).
_LESSON_PERIODS_ZH = re.compile(r"(?<![上下这那每])(?P<periods>[一两二三]|\d)\s*[节堂]课")
LESSON_PERIOD_MINUTES = 40


def duration_hint(text: str) -> int | None:
    """Minutes the request names, from its first clear figure of time, else from the class periods it names."""
    minutes = _named_minutes(text)
    periods = _LESSON_PERIODS_ZH.search(text)
    return minutes if minutes or not periods else LESSON_PERIOD_MINUTES * int(_number(periods.group("periods")))


# A deck asked to be short ("a short talk on…", "a quick intro", "简短介绍…", "简要讲讲…") with no figure of time is a few
# minutes long, not the default length: its slides follow from those minutes.
# Not where the word is the subject's ("short stories", "short-term memory", "quick sort") or the verb ("Brief the board").
_SHORT_DECK = re.compile(r"简短|简要|精简|短一[点些]|简单介绍|简单讲讲|快速了解|几分钟|\b(?:short(?![\s-]+(?:stor|term|circuit|film|vowel|sell|sale|hand))"
                         r"|quick(?![\s-]*sort)|lightning(?=\s+talk)|(?<=\w\s)brief)\b", re.IGNORECASE)
SHORT_DECK_MINUTES = 5


def requested_minutes(text: str) -> int | None:
    """The minutes a request names (duration_hint), else a short deck's when it asks for a short one."""
    return duration_hint(text) or (SHORT_DECK_MINUTES if _SHORT_DECK.search(text) else None)


def _named_minutes(text: str) -> int | None:
    for match in _DURATION.finditer(text):
        groups = match.groupdict()
        if groups["minutes"] or groups["zh_minutes"] or groups["en_minutes"]:
            minutes = _number(groups["minutes"] or groups["zh_minutes"] or groups["en_minutes"])
        elif groups["hours"] or groups["half"]:
            minutes = 60 * (_number(groups["hours"]) if groups["hours"] else 0) + (30 if groups["half"] else 0)
        elif groups["en_hours"] or groups["half_en"]:
            minutes = 30 if groups["half_en"] else 60 * _number(groups["en_hours"])
        else:
            continue  # "小时" with no figure
        if minutes >= 1:
            return max(1, min(180, round(minutes)))
    return None


def slide_count_hint(text: str) -> int | None:
    """The number of slides the request asks for, if it names one."""
    found = [m for pattern in (_SLIDE_COUNT_ZH, _SLIDE_COUNT_EN) for m in pattern.finditer(text)]
    if not found:
        return None
    count = round(_number(min(found, key=lambda m: m.start()).group("count")))
    return count if count >= 1 else None


# A company's departments, as a request names the people in them: at the end of the "for" (or before "team" and the
# like), never within a subject ("engineering drawings", "finance basics for engineers" names its listeners after).
_DEPARTMENTS_EN = (r"(?:engineering|finance|accounting|hr|human\s+resources|marketing|sales|legal|ops|operations|(?-i:IT)|"
                   r"support|customer\s+(?:support|service|success)|procurement|purchasing|payroll|compliance|r\s*&\s*d|"
                   r"(?-i:QA)|facilities|logistics)(?=\s*(?:[,.;:!?()\n-]|$|(?:team|department|staff|group|folks|on|about|and)\b))")
# Words for people who listen: "explain recursion to first-year CS students", "for 9th graders", "for new nurses".
_LISTENERS_EN = (r"(?:(?:team|tech|project|product|engineering)\s+leads|"  # "for team leads", not "for team"
                 r"students?|graders|pupils|kids?|children|child|beginners|teachers|parents|employees|staff|hires|engineers|"
                 r"developers|managers|retirees|seniors|adults|audiences?|team|class(?!\s+of\s+(?:19|20)\d\d)|board|customers|clients|volunteers|"
                 r"colleagues|co-?workers|newcomers|freshmen|interns|trainees|members|users|nurses|learners|people|"
                 r"everyone|leadership|executives|stakeholders|investors|juniors|sophomores|recruits|readers|folks|"
                 r"doctors|patients|families|residents|citizens|novices|newbies|professionals|researchers|scientists|"
                 r"designers|marketers|leaders|founders|owners|graduates|grads|teens|teenagers|toddlers|preschoolers|"
                 r"kindergartners|youth|elders|caregivers|athletes|players|writers|artists|workers|crew|son|daughter|"
                 r"bloggers|creators|coders|programmers|gamers|hobbyists|fans|enthusiasts|travell?ers|girls|boys|ladies|men|reps|"
                 # who stays, visits or gathers somewhere: "for hotel guests", "for our patrons", "for the locals"
                 r"guests|patrons|delegates|pilgrims|locals|tenants|neighbou?rs|couples|alumni|"
                 r"representatives|agents|clubs?|societ(?:y|ies)|(?:under|post)grad(?:uate)?s|(?:middle|high|"
                 r"primary|elementary|secondary)\s+school(?:ers|\s+(?:students|pupils|kids|children|girls|boys|teachers))?|[\w-]*year-olds?|years?\s+olds?|grade\s*\d+|year\s*\d+|"
                 # a department heard as the people in it ("a 15 minute update for engineering", "for HR")
                 + _DEPARTMENTS_EN +
                 # and any trade or role by its ending: "for sailors", "for electricians", "for new cashiers"
                 "|" + PEOPLE_PLURAL_EN + ")")
# An audience named with "for" is people ("for 9th graders", "for the board"), not a thing or an event: "Reasons for
# the fall of Rome" and "tips for code review" name no audience, their "for …" is the subject's own.
# Their school year or age after them goes with them ("for girls in grade 6", "for kids aged 8-10"): it is no subject's.
_LISTENERS_YEAR_EN = r"(?:(?:\s+(?:in|of)\s+(?:grade|year|class)\s*\d+|\s+aged\s+\d+(?:\s*(?:-|–|to)\s*\d+)?)(?!\s+of\b))?"
# Listeners named as a group by what they are ("a class of Year 6 students", "a seniors' college class", "a Year 6 class")
# end with the group's own noun, and those named with where they are ("night shift nurses at our clinic", "the
# volunteers at our food bank") with their place: both are whom the deck is for, not its subject.
_LISTENER_STOP_EN = r"(?!(?:on|about|for|to|with|and|or|in|of|at|from|how|what|why|who|that|which)\b)"
_LISTENERS_GROUP_EN = (r"(?:(?:['’\ue001\ue002]s?)?(?:\s+" + _LISTENER_STOP_EN + r"[\w'-]+){0,2}?\s+(?:students|pupils|kids|children|learners|"
                       r"class(?:es)?|group|club|course|cohort|circle|association|committee|council|network|choirs?|orchestras?|bands?|"
                       r"ensembles?|troops?|teams?|leagues?|guilds?|"
                       # "for the leadership team", "for our sales staff": the team is who listens, not the subject's
                       r"teams?|staff|department|board|panel|squad))?")
_LISTENERS_PLACE_EN = (r"(?:\s+(?:(?:at|from)\s+(?:our|the|my|this|their|a|an)|in\s+(?:our|my|this|their))"
                       r"(?:\s+" + _LISTENER_STOP_EN + r"(?!\d)[\w'-]+){1,3})?")
# Listeners who come with others ("for Year 7 students and their parents", "for nurses and their managers") are all
# whom the deck is for: the others are no part of the subject.
_LISTENERS_WITH_EN = (r"(?:\s+(?:and|&)\s+(?:(?:their|the|our|your|his|her)\s+)?(?:[\w'-]+\s+)?" + _LISTENERS_EN
                      + _LISTENERS_PLACE_EN + r"(?=\s*(?:[,.;:!?()\n–—-]|$|(?:on|about|to|with|how|what|why)\b)))?")
_LISTENER_PHRASE_EN = (_LISTENERS_EN + _LISTENERS_GROUP_EN + _LISTENERS_YEAR_EN + _LISTENERS_PLACE_EN
                       + _LISTENERS_WITH_EN)
# A gathering of listeners ("a group of volunteer firefighters", "a room of retirees") names who listens by its last words.
_GATHERING_OF_EN = r"(?:(?:a|an|the|our|my|this)\s+)?(?:group|room|roomful|class(?!\s+of\s+(?:19|20)\d\d)|team|bunch|crowd|handful)\s+of\s+"
# A word before them may have its apostrophe held while the subject is read ("for our library's seniors club": \ue001).
_FOR_LISTENERS_EN = (r"for\s+(?P<audience>(?:" + _GATHERING_OF_EN + r")?(?:(?!(?:for|about|on|of|in|to|with)\b)[\w'’\ue001\ue002-]+\s+){0,4}?"
                     + _LISTENER_PHRASE_EN + r")\b")
_FOR_LISTENERS_SPAN_EN = _FOR_LISTENERS_EN.replace("?P<audience>", "?:")

# Listeners in brackets ("为什么要刷牙（给小朋友）") end at the closing bracket; those a deck is shown or told to
# ("给外国游客看", "给家长听的讲座") end before 看/听.
_AUDIENCE_ZH = re.compile(r"(?:面向|(?<![写献送寄交还])给(?![出予我])|针对)([^，,。；;\s（()）]{2,20}?)(?:的|讲|介绍|做|(?:看|听)(?![护守台众障课力友者])|(?:做|作)?(?:汇报|分享|演示|展示|培训|演讲)|，|,|。|[）)]|$)")
# 为 names listeners only before what is done for them ("为退休教师介绍…", "为新员工做…"): "为人民服务的精神" names none.
_FOR_WHOM_ZH = re.compile(r"为(?!什么|了|何)([^，,。；;\s的]{2,12}?)(?=讲|介绍|说说|聊聊|谈谈|做|作|准备|(?:汇报|分享|演示|培训|演讲))")
_AUDIENCE_EN = re.compile(r"\b" + _FOR_LISTENERS_EN, re.IGNORECASE)
_FILLER_ZH = re.compile(
    r"(请|帮我|帮忙|给我|我想|我要|想要|我需要|一下|(?:简短|简要|精简)(?:地|一点|一些|些)?|短一(?:点|些)|的?分享会?$|的?讲座|(?:再|重新|另外)(?=做|来|帮|制作|生成)|大概|大约|左右|差不多|也?可能(?!性)|吧|做一个|做一份|做个|制作|生成|一份|一个|(?<![上下这那])[一两]?[节堂]课(?=\s*(?:\d|[，,。]|$))|关于|介绍|讲解|的?\s*PPT|的?\s*课件|的?\s*演示文稿|的\s*简报|(?<=[份个])\s*简报|幻灯片|课程|\d+\s*分钟|(?:面向|针对)[^，,。的]{1,20}的?)",
    re.IGNORECASE,
)
# "给高中生讲解…" / "面向小学生的…": the audience is not part of the topic.
# 为 names listeners ("为新员工讲…"), not in 为什么/为了/为何: "讲为什么天空是蓝色的" keeps its question, nor before 的:
# "为人民服务的精神" is about serving the people.
# A verb of the occasion after them ("给管理层汇报", "为新员工培训") goes with them: it names no subject; so does 做
# before the subject ("给新员工做信息安全培训": the audience stops at 做, the subject follows it), and a verb of telling
# that ends the clause ("走进秦朝，给初一讲": the subject came before it; "给新来的志愿者讲15分钟：怎么分拣": after the colon).
# 看/听 in a listener's name (听众, 听障儿童, 看护人员) is no verb of showing.
_SEEING_IN_A_NAME_ZH = r"看(?=[护守台])|听(?=[众障课力友者])"
_AUDIENCE_SPAN_ZH = re.compile(r"(?:面向|针对|(?<![写献送寄交还])给|为(?!什么|了|何)(?![^，,。；;\s的讲介做]{2,12}的))(?:[^，,。；;\s的讲介做看听]|" + _SEEING_IN_A_NAME_ZH + r"){2,12}(?:的|(?:讲解|讲讲|讲|介绍|说说|聊聊|谈谈)(?=\s*(?:[，,。；;！!:：]|$))"
                               r"|(?=讲|介绍|说说|聊聊|谈谈)"
                               r"|(?:做|作)?(?:汇报|分享|演示|展示|培训|演讲)(?:一下)?|做(?:一次|一场|一个|一份|一期|个)?"
                               r"|(?:看看|看一看|看一下|听听|听一听|听一下|看|听)(?![护守台众障课力友者]))"
                               r"|跟[^，,。；;\s的讲介]{1,12}?(?=讲|介绍|说说|聊聊|谈谈)")
# The verbs of asking lead the request ("make a deck…"); inside the subject they are its words ("how to
# make bread", "how to build a birdhouse"), and so is a verb that leads a subject told as what to do ("Make friends
# in a new city", "Build a birdhouse"): a verb asks only before the deck's own word, "about"/"on", or nothing.
# So are "about" and "on" after the deck's own word or at the start ("slides on volcanoes"), not inside the subject
# ("life on Mars", "effects of social media on teens") nor opening a work's name ("On the Origin of Species").
_ASKING_LEAD_EN = (
    r"^\W*(?:(?:please|pls|plz|i\s+(?:want|need|would\s+like|'d\s+like))\s+)?(?:(?:make|create|generate|build|do)\s+)?"
    r"(?:about|on)\b|^\W*(?:(?:please|pls|plz)\s+)?(?:make|create|generate|build|do)\b"
    r"(?=\s+(?:(?:me|us)\s+)?(?:(?:a|an|the|some|one|my|our|short|quick|brief|new)\s+)*(?:[\w-]+\s+)?"
    r"(?:deck|slides?|presentation|ppt|talk|lecture|lesson|course|overview|it|one|something)\b|\s+(?:about|on)\b|\W*$)|")
_FILLER_EN_PARTS = (
    r"\b(please|pls|plz|thanks|thx|(?:a|an|the)\s+(?:short\s+)?(?:talk|lecture)(?:\s+(?:about|on))?|"
    # An article is an asking word before "deck"/"slides"; inside the subject ("journey to the moon") it stays.
    r"(?:a|an|the|short|quick|brief)(?=\s+(?:[\w-]+\s+)?(?:deck|slides?|presentation|ppt|course|lesson|overview)\b)|"
    r"(?:deck|slides?|overview|presentation|ppt|course|lesson)(?:\s+(?:about|on))?|"
    # "for retirees" is the audience; "… on spotting scams" after it is the subject again.
    + _FOR_LISTENERS_SPAN_EN + r"(?:\s+(?:about|on)\b)?|\d+\s*(?:min|mins|minutes?))\b")
_FILLER_EN = re.compile(_ASKING_LEAD_EN + _FILLER_EN_PARTS, re.IGNORECASE)
_FILLER_IN_WORK_EN = re.compile(_FILLER_EN_PARTS, re.IGNORECASE)  # a work's name keeps its first word
_TITLE_SMALL_WORDS = {"a", "an", "the", "and", "or", "nor", "but", "of", "in", "on", "at", "to", "for", "by", "with",
                      "from", "as", "vs", "into", "upon", "about"}


def _names_a_work(text: str) -> bool:
    """Whether the subject is written as a work's name, in title case ("On the Origin of Species", "On Writing Well"):
    its first word and at least two more words capitalised, only small words lower case. Its leading "On" is part
    of the name; that of "On volcanoes" and "On Liberty" (one word could be any name) is not."""
    words = re.findall(r"[A-Za-z][\w'’-]*", text)
    if not words or not words[0][0].isupper() or any(w[0].islower() and w.lower() not in _TITLE_SMALL_WORDS for w in words):
        return False
    return sum(w[0].isupper() and w.lower() not in _TITLE_SMALL_WORDS for w in words[1:]) >= 2


def _keeps_its_article(text: str) -> bool:
    """Whether a subject's leading "The" belongs to a name written in title case with one thing at its head ("The Great
    Gatsby", "The Hobbit", "The Lord of the Rings"); a group ("The Napoleonic Wars") or a common noun ("the water
    cycle") reads as well without it."""
    match = re.match(r"\s*The\s+(?P<name>.+)$", text)
    words = re.findall(r"[A-Za-z][\w'’-]*", match.group("name")) if match else []
    return bool(words) and words[0][0].isupper() and not plural_subject(" ".join(words)) and all(
        w[0].isupper() or w.lower() in _TITLE_SMALL_WORDS for w in words)


# Who listens when the request names no audience but its occasion or listeners ("家长会", "新员工入职培训").
# A group is named whole with what sets it apart ("社区老年大学", "退休教师"): 教师 alone lost who they are.
_SENIORS_COLLEGE_ZH = r"(?:社区|街道)?老年大学(?:的?学员)?"
_LISTENERS_ZH = re.compile(r"(" + _SENIORS_COLLEGE_ZH + r"|退休(?:教师|老师|职工|人员|干部|老人)|小学生|初中生|高中生|大学生|研究生|"
                           r"新员工|员工|家长|老师|教师|老年人|老人|医护人员|志愿者|工程师|程序员)")
# Listeners that lead the request as its own part ("社区老年大学：防范电信诈骗", "社区老年大学的防诈骗讲座", "在家长会上讲讲…")
# say whom it is for, not what it is about. Only a college or a meeting is led by 的 so: "老人的健康" is about old people.
_LISTENERS_LEAD_ZH = re.compile(r"^\s*(?:在)?(?:" + _SENIORS_COLLEGE_ZH + r"\s*(?:的|[:：])|" + _LISTENERS_ZH.pattern
                                + r"\s*[:：]|家长会上)\s*")
# A class named by its grade and course as a clause of its own ("《背影》课文赏析，初二语文", "高一物理：牛顿第一定律")
# says who listens (初二, 高一); it is not part of the subject. A school stage with its course ("初中英语语法：现在完成时",
# "高中化学 氧化还原反应") says so too: its students (初中生) listen, and the subject is what follows.
_COURSE_ZH = r"(?:语文|数学|英语|物理|化学|生物|历史|地理|政治|道德与法治|道法|科学|音乐|美术|体育|信息技术|信息科技)"
# A grade and its course lead the subject written straight after them too ("初三物理电路故障分析").
_CLASS_ZH = re.compile(r"(?:^|(?<=[\s，,。；;]))(?:(?P<grade>(?:小学|初中|高中)?(?:[一二三四五六七八九]年级|初[一二三]|高[一二三]|大[一二三四]))"
                       rf"(?:{_COURSE_ZH}(?:课堂|课)?(?=[\u3400-\u9fff]{{2}})|{_COURSE_ZH}?(?:课堂|课)?(?=\s*(?:[，,。；;:：]|$)|\s+\S))"
                       rf"|(?P<stage>小学|初中|高中){_COURSE_ZH}(?:语法|知识|必修[一二三]?|选修[一二三]?)?(?:课堂|课)?"
                       r"(?=\s*(?:[，,。；;:：]|$)|\s+\S))")
_STAGE_STUDENTS_ZH = {"小学": "小学生", "初中": "初中生", "高中": "高中生", "大学": "大学生"}


# At a parents' meeting ("Parents' evening for year 5", "五年级家长会") the school year named is whose parents listen.
_PARENTS_MEETING = re.compile(r"家长会|\bparents['’]?\s+(?:evening|meeting|night)s?\b", re.IGNORECASE)
_PUPILS_NAMED = re.compile(r"^(?:year|grade|class|primary|p)\s*\d{1,2}$|^\d{1,2}(?:st|nd|rd|th)[\s-]+grade$|"
                           r"^(?:小学|初中|高中)?(?:[一二三四五六七八九]年级|初[一二三]|高[一二三])$", re.IGNORECASE)


def audience_hint(text: str) -> str | None:
    audience = _audience_hint(text)
    if audience and _PARENTS_MEETING.search(text) and _PUPILS_NAMED.match(audience):
        return f"{audience}家长" if CJK.search(audience) else f"{audience} parents"
    return audience


def _audience_hint(text: str) -> str | None:
    if language_of(text) == "zh":
        held, phrases = _latin_phrases_held(text)
        audience = _chinese_audience(_listeners_held(held))
        return _latin_phrases_released(audience.replace(_HELD_DE, "的"), phrases) if audience else None
    text = _recipient_held(text)
    match = (_AUDIENCE_EN.search(text) or _TOLD_WHOM_EN.search(text) or _TAUGHT_EN.search(text) or _TOLD_TO_EN.search(text)
             or _SCHOOL_YEAR_LEAD_EN.search(text))
    if not match:
        return _course_header_audience(text)
    listeners = re.sub(r"^" + _GATHERING_OF_EN, "", match.group("audience").strip(), flags=re.IGNORECASE).translate(_RELEASED)
    return _school_years_named(listeners)


def _chinese_audience(text: str) -> str | None:
    told = _TOLD_WHOM_ZH.search(text)
    if told:
        return (told.group("audience") or told.group("audience2")).strip()
    match = _AUDIENCE_ZH.search(text) or _FOR_WHOM_ZH.search(text)
    if match:
        return match.group(1).strip()
    school_class = _CLASS_ZH.search(text)
    if school_class:
        return school_class.group("grade") or _STAGE_STUDENTS_ZH[school_class.group("stage")]
    match = _LISTENERS_SPOKEN_OF_ZH.search(text)
    return match.group(1).strip() if match else _course_header_audience(text)


# People named as one's own or as whom a speech thanks ("感谢我的老师", "致敬医护人员", "献给我的父母") are what it is
# about; they are not whom it is told to (a graduation's graduates and guests hear the thanks to the teachers).
_SPOKEN_OF_ZH = "".join(f"(?<!{lead})" for lead in ("我的", "我们的", "你的", "他的", "她的", "亲爱的", "敬爱的", "感谢",
                                                    "谢谢", "致敬", "致谢", "献给", "写给", "怀念", "纪念", "赞美", "歌颂", "致"))
_LISTENERS_SPOKEN_OF_ZH = re.compile(_SPOKEN_OF_ZH + _LISTENERS_ZH.pattern)


# A school year that heads the request ("Year 3 lesson: how plants grow", "Grade 5 science - fractions", "9th grade
# class on…") is whom the lesson is for.
_SCHOOL_YEAR_LEAD_EN = re.compile(r"^\W*(?P<audience>(?:year|grade|class|primary|p)\s*\d{1,2}|\d{1,2}(?:st|nd|rd|th)[\s-]+grade)"
                                  r"(?=(?:\s+[a-z]+){0,2}(?:\s*[:,]|\s+[–—-]\s)|(?:\s+[a-z]+)?\s+(?:lesson|class|session)\b)", re.IGNORECASE)
_SCHOOL_YEAR_HEADER_EN = re.compile(_SCHOOL_YEAR_LEAD_EN.pattern.split("(?=")[0] + r"(?:\s+[a-z]+){0,2}(?:\s*:|\s+[–—-])\s+(?=\w)",
                                    re.IGNORECASE)
# A course that heads the request ("Primary school maths: telling the time", "KS2 science - magnets", "幼儿园大班安全教育：
# 过马路要注意什么", "小学数学：认识钟表") is the class it is taught in, not the subject: the subject follows it, and a school
# stage or class named in it is whom it is for.
_SCHOOL_STAGE_EN = (r"(?:(?:primary|elementary|junior|middle|secondary|high)\s+school|ks\s*[1-5]|key\s+stage\s+[1-5]|"
                    r"(?:year|grade|class|p)\s*\d{1,2}|\d{1,2}(?:st|nd|rd|th)[\s-]+grade|kindergarten|preschool|nursery|"
                    r"reception|university|college|undergraduate)")
_COURSES_EN = (r"(?:maths?|mathematics|numeracy|literacy|phonics|science|english|history|geography|biology|chemistry|"
               r"physics|music|art|pe|computing|ict|french|spanish|german|chinese|economics|psychology|"
               r"(?:health|safety|road\s+safety|sex|citizenship|religious)\s+education|pshe|re|rse|dt|design\s+and\s+technology)")
_COURSE_HEADER_EN = re.compile(r"^\W*(?:(?P<stage>" + _SCHOOL_STAGE_EN + r")\s+)?" + _COURSES_EN
                               + r"(?:\s+(?:lesson|class))?\s*(?::|\s[–—-])\s+(?=\w)", re.IGNORECASE)
_COURSE_HEADER_ZH = re.compile(r"^\s*(?P<stage>幼儿园(?:[大中小]班)?|[大中小]班|(?:小学|初中|高中)?(?:[一二三四五六七八九]年级|初[一二三]|高[一二三])|"
                               r"小学|初中|高中|大学)?(?:" + _COURSE_ZH + r"|[\u3400-\u9fff]{1,4}?教育|(?:主题)?班会)(?:课|讲座|公开课)?\s*[:：]\s*(?=\S{2})")
# A school year said after the subject ("…, year 2", "… (Grade 4)", "…, for year 5 pupils") is whom it is for too.
_SCHOOL_YEAR_TAIL_EN = re.compile(r"\s*[,;(\ue006–—-]\s*(?:for\s+)?(?P<audience>(?:year|grade|class|p)\s*\d{1,2}|\d{1,2}(?:st|nd|rd|th)[\s-]+grade)"
                                  r"(?:\s+(?:students|pupils|kids|children|class|learners))?\s*[)\ue007]?\s*[.!]?\s*$", re.IGNORECASE)
_STAGE_LISTENERS_EN = {"primary": "primary school pupils", "elementary": "elementary school pupils", "junior": "junior school pupils",
                       "middle": "middle school students", "secondary": "secondary school students", "high": "high school students"}


def _course_header_audience(text: str) -> str | None:
    """Whom a course heading the request names ("Primary school maths: …" → primary school pupils, "幼儿园大班安全教育：…"
    → 幼儿园大班), or a school year said after the subject ("…, year 2" → Year 2)."""
    if language_of(text) == "zh":
        match = _COURSE_HEADER_ZH.match(text)
        stage = match and match.group("stage")
        return _STAGE_STUDENTS_ZH.get(stage, stage) if stage else None
    if tail := _SCHOOL_YEAR_TAIL_EN.search(text):
        return _school_years_named(tail.group("audience"))
    match = _COURSE_HEADER_EN.match(text)
    stage = match and match.group("stage")
    if not stage:
        return None
    first = stage.split()[0].lower()
    return _STAGE_LISTENERS_EN.get(first) if first in _STAGE_LISTENERS_EN and "school" in stage.lower() else _school_years_named(stage)


# A school year is a name ("Year 6", "Grade 9", "Class 3"), written with its capital wherever it stands.
_SCHOOL_YEAR_EN = re.compile(r"\b(?:year|grade|class)(?=\s*\d)", re.IGNORECASE)


def _school_years_named(audience: str) -> str:
    return _SCHOOL_YEAR_EN.sub(lambda m: m.group(0).capitalize(), audience)


# Whether the deck is a lesson or a talk at work or in public sets its wording (本课内容 or 议程, "with a partner"
# or "with your team"). Who listens decides first ("给大学生讲项目管理" is a lesson); then the occasion and the
# subject ("季度销售复盘，给管理层汇报", "Q3 results review"); a request that names neither is a lesson.
_LEARNERS = re.compile(r"学生|小学|初中|高中|大学生|研究生|同学|孩子|小朋友|儿童|学员|课堂|学校|学习|\b(?:students?|pupils?|kids|children|school|"
                       r"graders?|learners|schoolchildren|undergrad(?:uate)?s?|freshmen|(?:\d+(?:st|nd|rd|th)|first|second|third)"
                       r"[\s-]+(?:grade|year)|class(?:room)?|homework)\b", re.IGNORECASE)
# A sharing ("五分钟分享", "经验分享会", "a lightning talk", "lunch and learn") is told among peers at work.
_SHARING = re.compile(r"(?<!读书)分享|\b(?:sharing\s+session|lightning\s+talks?|lunch[\s-]+(?:and|&|n)[\s-]+learns?|brown[\s-]+bags?|"
                      r"tech\s+talks?)\b", re.IGNORECASE)


# A change told to those it touches ("a briefing for parents on the new school bus routes", "the changes to bin
# collection", "给居民讲讲垃圾清运时间调整", "新的作息时间说明会") is news to act on, not an issue to think about.
_A_CHANGE = re.compile(r"\b(?:briefing|changes?\s+(?:to|in)|new\s+(?:[\w-]+\s+){0,3}?(?:routes?|timetables?|schedules?|"
                       r"times|hours|rules|arrangements?|procedures?|system|policy|policies|fees|term\s+dates|menus?|uniforms?|"
                       r"opening\s+hours|collection\s+days?))\b|调整|变更|说明会|通知|新的?[\u3400-\u9fff]{0,4}?(?:路线|线路|时刻表|"
                       r"作息|时间|安排|规定|制度|收费|流程|办法|政策)"
                       # new rules in a word ("垃圾分类新规"); not a plan (新规划) nor a law of nature (新规律)
                       r"|新规(?![划律则范模格])"
                       # the plans for a term, told to parents ("家长会：三年级下学期工作安排", "Parents' evening: the autumn term")
                       r"|(?:学期|学年)[\u3400-\u9fff]{0,4}?(?:安排|计划)|\b(?:autumn|spring|summer|fall|new|next|coming)\s+"
                       r"(?:term|semester|school\s+year)\b", re.IGNORECASE)


# The rules of a place told to those they bind ("给会员讲讲积分规则", "the points scheme for our gym members") are news
# to act on as a change is: what they say, what they mean for you, what to do.
_RULES = re.compile(r"(?:规则|规定|制度|政策|条款|细则|章程)$|\b(?:rules|polic(?:y|ies)|terms(?:\s+and\s+conditions)?|"
                    r"schemes?|regulations|code\s+of\s+conduct)$", re.IGNORECASE)


# A guided tour ("给游客介绍故宫", "Museum guided tour: the Egyptian galleries", "带新生参观校园") walks visitors through a
# place: the route and its stops, what to see there, the practical tips. Visitors told about a place are on one too.
_TOUR = re.compile(r"导览|导游|参观|游览|讲解员|\b(?:guided\s+tours?|walking\s+tours?|(?:museum|gallery|site|campus|city|"
                   r"house|garden|factory)\s+tours?|tours?\s+(?:of(?!\s+duty)|around|through)|docents?)\b", re.IGNORECASE)
_VISITORS = re.compile(r"游客|参观者|访客|\b(?:visitors|tourists|sightseers)\b", re.IGNORECASE)


# A product launch ("新品发布会：我们的智能水杯", "Product launch: our new budgeting app") introduces a product to those
# who may use it: told to the public, not reported to colleagues.
_LAUNCH = re.compile(r"发布会|新品发布|产品发布|\b(?:product\s+launch(?:es)?|launch(?:ing)?\s+(?:event|of\s+our\b)|"
                     r"(?:launch|introducing|unveiling)\s*:)", re.IGNORECASE)


def launches_a_product(request: str) -> bool:
    return _LAUNCH.search(request or "") is not None


def gives_a_tour(request: str) -> bool:
    return _TOUR.search(request) is not None or _VISITORS.search(audience_hint(request) or "") is not None


def states_rules(subject: str) -> bool:
    """Whether a subject is the rules of a place ("积分规则", "the points scheme")."""
    return bool(_RULES.search((subject or "").strip()))


# New policy in a word ("报销新政", "楼市新政") is a change too; a New Deal of history is named after its leader or era.
_NEW_POLICY_ZH = re.compile(r"新政(?![治权府])")


def tells_of_a_change(request: str) -> bool:
    """Whether a request tells of a change to those it touches ("A briefing for parents on the new school bus routes")."""
    if _A_CHANGE.search(request or ""):
        return True
    match = _NEW_POLICY_ZH.search(request or "")
    if not match:
        return False
    import jieba.posseg  # loaded only for such a request, not on import
    words = jieba.posseg.lcut(request[:match.start()], HMM=False)
    # "罗斯福新政" (a person, nr), "清末新政" (a time, t) are history
    return not (words and (words[-1].flag.startswith("nr") or words[-1].flag == "t"))


def a_sharing(request: str) -> bool:
    """Whether a request is for a sharing among peers ("五分钟分享：…", "a lightning talk on …")."""
    return bool(_SHARING.search(request or ""))


_AT_WORK = re.compile(_SHARING.pattern + r"|员工|同事|早会|晨会|例会|班前会|管理层|领导|主管|组长|技术负责人|高管|董事|股东|投资人|客户|团队|部门|公司|企业|入职|述职|汇报|复盘|季度|年度|季报|年报|"
                      r"销售|业绩|营收|利润|预算|战略|项目|产品|市场|运营|会议|演讲|发布会|路演|"
                      r"\b(?:employees?|staff|colleagues|leadership|management|managers?|executives?|board|stakeholders?|(?:tech(?:nical)?|team|engineering)\s+leads?|supervisors?|directors?|"
                      r"investors?|shareholders?|clients?|customers?|team|company|business|onboarding|orientation|induction|new hires?|quarter(?:ly)?|"
                      r"q[1-4]|fy\d{2,4}|annual|revenue|sales|profits?|budget|kpis?|okrs?|strategy|roadmap|project|product|"
                      r"pitch|keynote|conference|webinar|all-hands|town hall|briefings?|"
                      # an engineering team's own occasions ("a 15 minute update for engineering", "sprint retro")
                      r"(?:status|progress)\s+update|update\s+for|stand-?ups?|retros?|retrospectives?|post-?mortems?|sprint\s+\d+)\b",
                      re.IGNORECASE)


# A speech or a sharing about the speaker's own life ("三分钟演讲：我的梦想", "分享：我的云南之旅", "A speech about someone
# I admire") is told as a story: what happened, what it means to me, a word to the room; neither a report at work nor
# what to take to the next shift. Work named in it keeps it at work ("五分钟分享：我如何用番茄工作法提高效率").
_OWN_LIFE = re.compile(r"我(?!们)|\b(?:my|i|me|myself)\b|旅行|旅游|之旅|游记|\b(?:trip|travels?|journey|holiday|vacation)\b",
                       re.IGNORECASE)
_WORK_IN_SUBJECT = re.compile(_AT_WORK.pattern + r"|工作|效率|职场|岗位|上班|同事|\b(?:work|job|office|career|productivity|"
                              r"meetings?|colleagues?|shifts?)\b", re.IGNORECASE)
_A_SPEECH = re.compile(r"演讲|演说|\b(?:speech|speeches)\b", re.IGNORECASE)


def about_ones_own_life(subject: str) -> bool:
    """Whether a subject is the speaker's own life ("我的梦想", "my trip to Yunnan"), with no work in it."""
    subject = _SHARING.sub(" ", _A_SPEECH.sub(" ", subject or ""))
    return bool(_OWN_LIFE.search(subject)) and not _WORK_IN_SUBJECT.search(subject)


def told_of_ones_own_life(request: str) -> bool:
    """Whether a request is a speech or a sharing about the speaker's own life ("三分钟演讲：我的梦想"), or a speech at a
    ceremony ("婚礼上的祝酒词", "a best man's toast"): a story and a word to the room either way."""
    return (bool(_A_SPEECH.search(request or "") or a_sharing(request or "")) and about_ones_own_life(core_topic(request or ""))
            or a_ceremony_speech(request))


# A speech at a ceremony: one named as such (a toast, 致辞, 祝酒词, a eulogy) or a speech at a wedding, a graduation, a
# retirement, a birthday. Its listeners are the guests, whoever it thanks or toasts.
_CEREMONY_SPEECH = re.compile(r"祝酒词|敬酒词|致辞|答谢词|贺词|悼词|\b(?:(?<!french\s)toasts?(?!\s+(?:recipes?|bread|racks?))|eulogy|best\s+man['’\ue001]?s?|maid\s+of\s+honou?r)\b",
                              re.IGNORECASE)
_CEREMONY = re.compile(r"婚礼|婚宴|典礼|颁奖|退休|生日|寿宴|欢送|\b(?:weddings?|graduations?|commencement|retirement|birthday|"
                       r"farewell|award|anniversary)\b", re.IGNORECASE)


def a_ceremony_speech(request: str) -> bool:
    return bool(_CEREMONY_SPEECH.search(request or "") or _A_SPEECH.search(request or "") and _CEREMONY.search(request or ""))


_TOAST = re.compile(r"祝酒|敬酒|干杯|举杯|\b(?:(?<!french\s)toasts?(?!\s+(?:recipes?|bread|racks?))|raise\s+(?:a|our|your)\s+glass(?:es)?)\b",
                    re.IGNORECASE)


def raises_a_toast(request: str) -> bool:
    """Whether a ceremony speech is a toast ("婚礼上的祝酒词", "A toast to the class of 2026"): it ends with glasses raised."""
    return a_ceremony_speech(request) and _TOAST.search(request or "") is not None


# Listeners named by their department ("for finance", "for the HR team", "给财务部") are colleagues: the deck is told
# at work.
_A_DEPARTMENT_EN = re.compile(r"(?:(?:the|our)\s+)?" + _DEPARTMENTS_EN, re.IGNORECASE)
_A_DEPARTMENT_ZH = re.compile(r"(?:财务|会计|人事|人力资源|行政|研发|技术|工程|市场|销售|法务|采购|客服|运营|质量|品质|质检|生产|后勤|"
                              r"信息|IT|安保|物流|仓储|审计|风控|合规)(?:部|处|科|中心|组|团队)", re.IGNORECASE)


def _names_a_department(audience: str) -> bool:
    return bool(_A_DEPARTMENT_ZH.search(audience) if CJK.search(audience) else _A_DEPARTMENT_EN.match(audience))


# A training session teaches how to do something at work (入职培训, "onboarding", "a workshop for new managers"): it
# is told as how-to parts (why it matters, the rules, the steps, common mistakes, practice), not a report's.
_TRAINING = re.compile(r"培训|入职|岗前|上岗|新员工|新人|新任|新同事|新入职|新来的(?!同学|学生|小朋友|孩子)|\b(?:training|trainings|refreshers?|onboarding|orientation|"
                       r"induction|workshops?|new\s+(?:[\w-]+\s+){0,2}?(?:hires?|staff|employees?|joiners|starters|recruits|managers?|leads|"
                       # and any people by their job ("for new carpenters", "new baristas")
                       r"team\s+members|colleagues|engineers|agents|nurses|teachers|" + PEOPLE_PLURAL_EN + r"))\b", re.IGNORECASE)
# Safety and health at work ("给工厂员工讲防暑降温", "Heat stress for the warehouse crew") is taught and drilled, never
# reported on: told at work it is a training (its rules, steps and drills), though no one said "培训". A table, read
# word by word, of what such a subject is about.
_SAFETY_WORDS_ZH = ("安全", "防暑", "降温", "中暑", "消防", "防火", "灭火", "逃生", "疏散", "急救", "防护", "劳保", "职业病",
                    "防汛", "防疫", "触电", "防毒", "有限空间", "高空作业")
_SAFETY_WORDS_EN = frozenset("""safety safe fire evacuation heatstroke hazard hazards ppe hygiene
    injury injuries cpr ergonomics lifting burns spill spills""".split())


def about_safety_at_work(subject: str) -> bool:
    """Whether a subject is safety or health at work, taught as a drill ("防暑降温", "fire evacuation")."""
    if CJK.search(subject):
        return any(word in subject for word in _SAFETY_WORDS_ZH)
    return any(word in _SAFETY_WORDS_EN for word in re.findall(r"[a-z]+", subject.lower()))


# A subject told as a way of doing ("怎么写周报", "会议组织技巧", "How to run a one-on-one", "Writing clear emails",
# "tips for code review"): at work it is a training, not a report.
_HOW_TO_NOUNS_ZH = re.compile(r"(?:方法|技巧|要领|指南|须知|守则|规范|操作规程|操作流程|注意事项|窍门|诀窍)$")
_HOW_TO_WORDS_EN = re.compile(r"\b(?:tips|best\s+practices|guide|guidelines|checklist|dos\s+and\s+don'?ts|how-?to)\b",
                              re.IGNORECASE)


# "我们怎么分拣捐赠物、保证食品安全", "大家如何保护眼睛": asked of the listeners themselves (a pronoun, no 是, no verb of a
# thing working by itself) it is a way of doing, said without its pronoun ("分拣捐赠物、保证食品安全的方法").
_DOERS_ZH = re.compile(r"^(?:我们|咱们|我|你们|你|大家|您)$")


def _doers_way_zh(how: re.Match) -> bool:
    return bool(_DOERS_ZH.match(how.group("who"))) and not how.group("is") and not _WORKINGS_ZH.search(how.group("what"))


def asks_how_to(subject: str) -> bool:
    """Whether a subject is a way of doing something ("怎么保护眼睛", "沟通技巧", "how to run a meeting", "Running
    effective meetings", "tips for code review"), not a thing to know about."""
    text = subject.strip()
    if language_of(text) == "zh":
        how = _HOW_ZH.match(text)
        # "疫苗是怎么起作用的" asks how a thing works, not how to do it; "我们怎么分拣捐赠物" is how we do a thing
        return bool(how and (not how.group("who") or _doers_way_zh(how))) or bool(_HOW_TO_NOUNS_ZH.search(text))
    first = text.split(" ", 1)[0].lower()
    return bool(_HOW_TO_EN.match(text) or _HOW_TO_WORDS_EN.search(text)) or (
        " " in text and (first in _IMPERATIVE_VERBS_EN or first in _GERUNDS_EN) and not _names_a_work(text))


def asks_how_it_works(subject: str) -> bool:
    """Whether a subject asks how or why something is as it is ("疫苗是怎么起作用的", "为什么天空是蓝色的", "地震的成因",
    "how vaccines work", "why the sky is blue"): a lesson on it must explain its mechanism."""
    text = subject.strip()
    if language_of(text) == "zh":
        return topic_phrase(text).endswith(("的原理", "的原因")) or bool(re.search(r"原理|机制|成因|为什么|为何", text))
    return bool(_WH_EN.match(text) and not _HOW_TO_EN.match(text)) or bool(
        re.search(r"\b(?:how\s+\w+(?:\s+\w+)?\s+works?|mechanisms?|principles?|causes)\b", text, re.IGNORECASE))


# A subject asked as what a thing is ("什么是区块链", "区块链是什么", "光合作用的定义", "What is inflation?", "what a
# neural network is", "the definition of energy") is a lesson that defines it: a definition, its key features, examples.
_DEFINITION_ZH = re.compile(r"^(?:什么叫|何为|何谓)(?=\w)|(?<=\w)的?(?:定义|含义)$")
_WHAT_IT_IS_EN = re.compile(r"^what\s+(?P<np>.+?)\s+(?:is|are)\??$", re.IGNORECASE)
_DEFINITION_EN = re.compile(r"^(?:the\s+)?(?:definition|meaning)\s+of\s+(?=\w)|^define\s+(?=\w)", re.IGNORECASE)


def asks_what_it_is(subject: str) -> bool:
    """Whether a subject asks what a thing is (see above), not how or why it works."""
    text = unasked(subject)
    if language_of(text) == "zh":
        return bool(_WHAT_ZH.match(text) or _DEFINITION_ZH.search(text))
    return bool(_WHAT_EN.match(text) or _WHAT_IT_IS_EN.match(text) or _DEFINITION_EN.match(text))


# A lesson about a work (a book, poem, essay, play, film, painting) is read, not explained like a phenomenon: its parts
# are a literature teacher's (author and background, content, characters, language, themes), not 核心原理 or "the
# workings of". It is known by its 《》, a word of reading it (赏析, "novel", "poem"), or a title-case name.
_WORK_WORDS_ZH = re.compile(r"赏析|鉴赏|品读|导读|读后感|古诗|诗词|诗歌|课文|小说|散文|文言文|名著|童话|寓言|戏剧|剧本|整本书阅读")
# 《民法典》, 《劳动合同法》, 《南京条约》 name a law, a rule or a treaty, not a work to read as literature. A name ending
# in 法 is a law's only when 法 is not the end of a word for an art or a way ("兵法", "书法", "方法"): 《孙子兵法》 is a work.
_WORK_NAME_ZH = re.compile(r"《(?P<name>[^《》]+)》")
_RULE_NAME_ZH = re.compile(r"(?:(?<![兵书笔章方心算手语画技剑刀拳戏疗魔佛文句说想看做用写读教学活妙秘])法|法典|条例|规定|"
                           r"办法|纲要|标准|规范|通知|意见|决定|报告|指南|准则|守则|公约|条约|宪章|协议|宣言|手册)$")
_WORK_WORDS_EN = re.compile(r"\b(?:novels?|novella|poems?|poetry|poets?|sonnets?|haikus?|short\s+stor(?:y|ies)|essays?|fables?|"
                            r"fairy\s+tales?|(?:the|a|this)\s+(?:play|film|movie|painting|book)|plays?\s+by|literary|literature|"
                            r"shakespeare(?:'s)?|close\s+reading|book\s+report)\b", re.IGNORECASE)
# The head of a title-case name that is a period, an event, a place or a thing to explain, not a work ("The Cold War",
# "The Age of Exploration", "The Solar System").
_NOT_A_WORK_HEADS_EN = frozenset("""war revolution empire dynasty kingdom republic union age era period movement depression
    renaissance reformation enlightenment cycle system body cell theorem law method table market economy wall road river sea
    ocean lake mountains desert forest rainforest reef canal bridge tower treaty act constitution declaration bang effect
    change warming process theory principle equation rule crisis deal trail expedition exploration discovery invasion
    battle siege rebellion uprising conquest crusade election pandemic plague disaster rush program programme mission
    restoration reform reforms revolt mutiny massacre incident affair partition unification migration voyage voyages
    landing race bomb project life fall rise heart brain lungs skeleton chain web planet moon sun earth atom energy light
    sound electricity magnetism gravity climate weather volcano statue pyramid""".split())


def _titled_as_a_work(text: str) -> bool:
    """A name in title case that reads as a work's ("The Great Gatsby", "Romeo and Juliet", "Of Mice and Men"): every
    word but the small ones capitalised, two or more of them, led by "The" or joined by a small word, its head not a
    period, event or thing explained ("The Cold War", "The Solar System") nor a group ("The Napoleonic Wars")."""
    words = re.findall(r"[A-Za-z][\w'’-]*", text)
    content = [w for w in words if w.lower() not in _TITLE_SMALL_WORDS]
    if len(content) < 2 or any(not w[0].isupper() for w in content) or plural_subject(text):
        return False
    small_inside = any(w.lower() in _TITLE_SMALL_WORDS for w in words[1:-1])
    head = re.sub(r"^the\s+", "", _PHRASE_BREAK_EN.split(text, 1)[0].strip(), flags=re.IGNORECASE).split()
    led_by_the = words[0] == "The"
    return (led_by_the or small_inside) and bool(head) and head[-1].lower() not in _NOT_A_WORK_HEADS_EN


# Works a class reads that their names alone do not show as works ("Hamlet", "Macbeth", "Animal Farm", "A Christmas
# Carol", "King Lear" that reads as a king): a short list of the commonest set texts, not a library catalogue. Names that
# are also everyday words, years or people ("Holes", "Wonder", "1984", "Julius Caesar") are left out.
_SET_TEXTS_EN = frozenset("""hamlet|macbeth|othello|king lear|twelfth night|much ado about nothing|
    romeo and juliet|the tempest|a midsummer night's dream|the merchant of venice|beowulf|frankenstein|
    dracula|jekyll and hyde|dr jekyll and mr hyde|jane eyre|wuthering heights|great expectations|oliver twist|
    a christmas carol|hard times|bleak house|pride and prejudice|sense and sensibility|animal farm|nineteen eighty-four|
    lord of the flies|of mice and men|to kill a mockingbird|the great gatsby|an inspector calls|blood brothers|the crucible|
    death of a salesman|things fall apart|the odyssey|the iliad|the canterbury tales|paradise lost|the outsiders|
    charlotte's web|the giver|the hobbit|little women|the catcher in the rye|fahrenheit 451|brave new world|
    the handmaid's tale|never let me go|the kite runner|jane austen's emma|silas marner|a streetcar named desire|
    the importance of being earnest|educating rita|journey's end|the secret garden|treasure island|gulliver's travels|
    robinson crusoe|moby dick|huckleberry finn|the adventures of huckleberry finn|tom sawyer|anne of green gables""".replace(
    "\n", "").replace("    ", "").split("|"))


_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_SET_TEXTS_WITHOUT_ARTICLE_EN = frozenset(_LEADING_ARTICLE.sub("", name) for name in _SET_TEXTS_EN)


def _set_text_name(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower().replace("’", "'")).rstrip(".")


def _a_set_text(text: str) -> bool:
    """Whether an English subject is one of the commonest set texts by name ("Hamlet", "Animal Farm", "Christmas Carol")."""
    return _LEADING_ARTICLE.sub("", _set_text_name(text)) in _SET_TEXTS_WITHOUT_ARTICLE_EN


def about_a_work(subject: str) -> bool:
    """Whether a subject is a work to read ("《背影》课文赏析", "古诗《春晓》", "The Great Gatsby", "Romeo and Juliet",
    "the poem Daffodils"), not a thing to explain ("水循环", "the water cycle", "World War I")."""
    text = subject.strip()
    if language_of(text) == "zh":
        names = [m.group("name") for m in _WORK_NAME_ZH.finditer(text)]
        return any(not _RULE_NAME_ZH.search(name) for name in names) or bool(_WORK_WORDS_ZH.search(text))
    # "Alexander the Great" and "Genghis Khan and the Mongol Empire" are people, though titled like a work
    if _a_set_text(text):
        return True
    person = names_a_person(text) or person_named_first(text) is not None
    return bool(_WORK_WORDS_EN.search(text)) or (_titled_as_a_work(text) and not person)


_VERSE = re.compile(r"诗|宋词|元曲|(?<![A-Za-z])(?:poems?|poetry|sonnets?|haikus?|odes?|verse|ballads?)(?![A-Za-z])", re.IGNORECASE)


def about_a_poem(subject: str) -> bool:
    """Whether a work is named as verse ("古诗《春晓》", "the poem Daffodils"): it is read for its images, not characters."""
    return bool(_VERSE.search(subject))


# A lesson about a historical event, period or person is told in a history teacher's parts (background and causes,
# the course of events, key people, consequences, sources and views), not a science's (核心原理, "everyday life").
# It is known by a word of history (历史, 朝代, 革命, 战争, 统一, 起义, "war", "revolution", "empire", "the fall of"…), a
# century or a year before ours, or a history class named in the request (初一历史, "history class").
_HISTORY_ZH = re.compile(r"历史|史学|朝代|王朝|[夏商周秦汉晋隋唐宋元明清][朝代](?!数)|春秋|战国|三国|帝国|皇帝|始皇|君主|革命|战争|"
                         r"战役|之战|统一|起义|变法|维新|改革开放|洋务|五四运动|新文化运动|文艺复兴|宗教改革|丝绸之路|条约|"
                         r"殖民|独立战争|事变|(?<!随机|独立|互斥|对立|必然|可能)事件(?!循环|驱动|处理|监听|冒泡|委托|绑定)|"
                         r"古代文明|文明古国|之变|世纪|公元|(?<!\d)(?:[1-9]\d{2}|1\d{3})年(?!级|度)|"
                         # a journey or campaign told by who made it ("郑和下西洋", "张骞出使西域", "鉴真东渡", "岳飞抗金")
                         r"下西洋|出使|[东西]渡|[东西]行$|北伐|[东西南]征|远征|出塞|和亲|销烟|称帝|迁都|抗[金倭元清辽蒙]")
# Peoples a history class is about by their name ("The Vikings", "the Aztecs", "The Tudors"): told as a period is.
_PEOPLES_OF_HISTORY_EN = (r"vikings|aztecs|incas|the\s+maya|romans|ancient\s+greeks|ancient\s+egyptians|tudors|stuarts|"
                          r"normans|(?:anglo-)?saxons|celts|spartans|samurai|mongols|ottomans|victorians")
_HISTORY_EN = re.compile(r"\b(?:history|historical|historians?|wars?|warfare|revolutions?|revolutionary|empires?|emperors?|"
                         rf"silk\s+road|{_PEOPLES_OF_HISTORY_EN}|"
                         r"dynast(?:y|ies)|kingdoms?|monarch(?:y|s)|pharaohs?|reign|conquests?|crusades?|invasions?|battles?|"
                         r"civil\s+rights|independence|colonial(?:ism)?|coloni[sz]ation|slavery|holocaust|ancient|medieval|"
                         r"middle\s+ages|renaissance|reformation|great\s+depression|cold\s+war|treaty|eras?|(?:stone|bronze|iron|viking)\s+age|"
                         r"restoration|"
                         # an age named as one ("the Age of Exploration") and an event by its name ("the Cuban Missile
                         # Crisis", "the Dreyfus Affair", "the Boxer Rebellion"): a capitalised name before a capitalised kind
                         r"(?-i:Age\s+of\s+[A-Z]\w*)|(?-i:[A-Z][\w'-]*\s+(?:Crisis|Affair|Incident|Massacre|Rebellion|Uprising|Revolt|"
                         r"Mutiny|Siege|Blockade|Scandal|Armistice|Expedition|Voyages?|Gold\s+Rush|Tea\s+Party|Airlift|Landings))|"
                         r"(?:fall|rise|collapse|decline)\s+of\s+(?:the\s+)?(?-i:[A-Z][a-z])\w*|"
                         r"(?:[1-9]|1\d|20)(?:st|nd|rd|th)[\s-]+century|\d+\s*(?:BC|BCE|CE)|1\d{3}s?)\b", re.IGNORECASE)
_HISTORY_CLASS = re.compile(r"(?:[一二三四五六七八九]年级|初[一二三]|高[一二三]|中学|小学|初中|高中)历史|历史课|"
                            r"\bhistory\s+(?:class|lesson|teacher|students?)\b", re.IGNORECASE)


def about_history(subject: str, request: str = "") -> bool:
    """Whether a subject is a historical event, period or person ("秦始皇统一六国", "辛亥革命的历史意义", "the causes of
    World War I", "the fall of Rome", "讲讲李白的一生", "Abraham Lincoln"), or the request names a history class; not a
    thing to explain ("水循环", "the water cycle") nor a work to read ("《三国演义》", which about_a_work knows first)."""
    text = subject.strip()
    named = (_HISTORY_ZH if language_of(text) == "zh" else _HISTORY_EN).search(text)
    return (bool(named) or names_a_person(text) or person_named_first(text) is not None or _story_of_a_name(text)
            or bool(_HISTORY_CLASS.search(request)))


def _story_of_a_name(text: str) -> bool:
    """"the story of the Titanic", "Story of the Great Wall": a named thing's history; "the story of a raindrop" is none."""
    story = _STORY_OF_EN.match(text)
    return bool(story) and _LEADING_ARTICLE.sub("", story.group("told"))[:1].isupper()


# A life told as such ("李白的一生", "孔子生平", "the life of Gandhi", "a biography of Marie Curie") is a person's.
_LIFE_ZH = re.compile(r"(?<=\w)的?(?:一生|生平(?:事迹)?|传记|其人其事|人物介绍|(?:人生)?故事)$")
_LIFE_EN = re.compile(r"^(?:the\s+)?(?:(?:life|life\s+and\s+times|biography|story)\s+of\s+|who\s+(?:was|were)\s+)"
                      r"|'s\s+life$", re.IGNORECASE)
_STORY_OF_EN = re.compile(r"^(?:the\s+)?story\s+of\s+(?P<told>\S.*)$", re.IGNORECASE)
# English names a person by a title before the name ("Queen Victoria", "Emperor Meiji"), a number after it ("Louis
# XIV", "Henry VIII"), an epithet ("Alexander the Great"), or a given name a reader knows as one; a title-case
# subject without them ("Machine Learning", "Fire Safety") is a thing.
_PERSON_TITLE_EN = (r"(?i:king|queen|emperor|empress|pharaoh|tsar|czar|tsarina|sultan|shah|khan|president|chancellor|"
                    r"prime\s+minister|general|admiral|saint|st|sir|dame|pope|prince|princess|lord|lady|chairman|chief)")
_NAMED_PERSON_EN = re.compile(rf"^(?:{_PERSON_TITLE_EN}\.?\s+[A-Z][\w'-]+|[A-Z][\w'-]+\s+(?:[IVX]+|the\s+(?:Great|Conqueror|"
                              r"Elder|Younger|Wise|Bold))|[A-Z][\w'-]+(?:\s+[A-Z][\w.'-]*){0,3}\s+(?:Jr|Sr)\.?)$")
# Given names of people history lessons are often about, alone ("Napoleon", "Cleopatra") or before a family name
# ("Abraham Lincoln", "Marie Curie"): a short list of the commonest, not an encyclopedia.
_GIVEN_NAMES_EN = frozenset("""abraham ada adolf albert alexander alfred amelia anne aristotle attila augustus benjamin
    catherine charlemagne charles christopher cleopatra confucius elizabeth eleanor emmeline ferdinand florence francis
    franklin frederick frida galileo genghis george hannibal harriet helen henry isaac ivan james joan johann john
    joseph julius karl leonardo leo louis ludwig mahatma malala marco margaret maria marie martin mary michelangelo
    muhammad napoleon nelson nicolaus nikola otto pablo peter plato queen ramses richard rosa saladin sigmund
    simon socrates theodore thomas tutankhamun victoria vincent walt william winston wolfgang
    alan andrew antoine barack carl charlotte daniel dante david edgar edmund edward emily ernest gregory hedy jane
    johannes katherine leonard lewis louisa marcus michael miguel neil oscar paul rachel robert rosalind samuel
    sophie stephen steve sylvia virginia yuri""".split())
# A product, a brand or a program written in title case ("Microsoft Excel", "Adobe Photoshop", "Visual Studio", "Apple
# Watch") is shaped like a full name: a maker's name, a product word, or a word made as programs' names are
# ("Photoshop", "PowerPoint") tells it from a person.
_PRODUCT_WORDS_EN = frozenset("""microsoft google adobe apple amazon oracle samsung huawei xiaomi sony nintendo tesla meta
    intel nvidia cisco salesforce tencent alibaba baidu bytedance netflix spotify zoom slack canva figma notion trello
    excel word outlook teams windows office access visio onenote photoshop illustrator premiere acrobat lightroom
    android linux ubuntu chrome firefox safari edge python java javascript swift kotlin rust scratch minecraft roblox
    unity unreal blender tableau wordpress shopify docs sheets slides drive maps gmail pay cloud studio suite watch
    phone pad pro max mini air server code assistant copilot""".split())
_PRODUCT_MADE_WORD_EN = re.compile(r"(?i:soft|ware|shop|book|point|flix|gram|tube)$|[a-z][A-Z]")
_PERSON_TAGS_ZH = ("nr", "nrfg", "nrt")
# A given name and a family name are two or three capitalised words ("Jane Austen", "Ada Lovelace", "Zora Neale Hurston"):
# a person whoever they are, unless a word is one a lesson is about ("Black Holes", "Machine Learning", "Climate Change")
# or names a place ("New Zealand", "Mount Everest").
_NAME_WORD_SHAPE_EN = re.compile(r"^(?:Mc|Mac|O['’])?[A-Z][a-z]+(?:[-'’][A-Z][a-z]+)*$")
_PLACE_WORDS_EN = frozenset("""new north south east west northern southern eastern western great upper lower central mount
    lake river sea ocean island islands bay cape valley city park coast falls canyon gulf strait peninsula republic united
    kingdom states saint san santa los las port fort hong kong york london paris rome greece egypt china japan india
    africa america europe asia britain england scotland ireland wales france spain germany italy russia rainforest reef
    jungle theatre theater""".split())
# A word made from a place or an age ("Roman Britain", "Victorian London", "Tudor England", "Elizabethan") is no given name.
_OF_A_PLACE_OR_AGE_EN = re.compile(r"(?:ian|ean|ese|ish|[^e]land)$")


def _names_a_product(words: list[str]) -> bool:
    return any(word.lower() in _PRODUCT_WORDS_EN or _PRODUCT_MADE_WORD_EN.search(re.sub(r"^Ma?c(?=[A-Z])", "", word))
               for word in words)  # "MacArthur", "McCarthy" are family names


# A Chinese name jieba does not know (屈原 it reads as a common noun) is known as one when the request says it is a
# person: a role before it ("诗人屈原", "爱国诗人屈原", "科学家钱三强") or a life after it ("屈原的一生", "屈原生平"),
# and it is shaped as a name is: a family name (one character, or two: 诸葛, 司马) and one or two more.
_ROLE_BEFORE_NAME_ZH = re.compile(r"^[\u3400-\u9fff]{0,4}?(?:诗人|词人|作家|文学家|思想家|哲学家|教育家|科学家|数学家|物理学家|"
                                  r"化学家|天文学家|医学家|地理学家|史学家|发明家|政治家|军事家|外交家|改革家|革命家|"
                                  r"艺术家|画家|书法家|音乐家|航海家|旅行家|探险家|皇帝|帝王|君主|名将|将军|英雄|伟人|名人|人物)")
_FAMILY_NAMES_ZH = frozenset("""王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏
    魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤屈
    岳文柳欧辛左包温季康祝司班商谷贝庄鲍骆管伍霍虞卓萧乐祖荀墨庞""".replace("\n", "").replace(" ", ""))
_FAMILY_NAMES_TWO_ZH = ("诸葛", "司马", "欧阳", "上官", "东方", "皇甫", "尉迟", "公孙", "慕容", "长孙", "宇文", "夏侯", "端木")


def _shaped_like_a_chinese_name(name: str) -> bool:
    if name[:2] in _FAMILY_NAMES_TWO_ZH:
        return 3 <= len(name) <= 4
    return name[0] in _FAMILY_NAMES_ZH and 2 <= len(name) <= 3


def _shaped_like_a_full_name(text: str) -> bool:
    words = text.split()
    if not 2 <= len(words) <= 3 or not all(_NAME_WORD_SHAPE_EN.match(word) for word in words) or _HISTORY_EN.search(text):
        return False
    if _OF_A_PLACE_OR_AGE_EN.search(words[0]) or words[-1].lower().endswith("land") or _names_a_product(words):
        return False
    return not any(is_function_word(word) or word.lower() in _PLACE_WORDS_EN or word.lower().rstrip("s") in _COMMON_THING_HEADS_EN
                   or opens_with_common_word(word) for word in words)


# A thing's life is told as a person's is ("石头的一生", "一颗白菜的故事"), and 石 is a family name too: what follows the
# family name tells them apart. jieba's dictionary has tens of thousands of names (nr) and other words; a character that
# closes names there as often as other words (原 in 屈原, 森 in 钱学森) may be a given name, one that mostly closes common
# nouns (头 in 石头, 菜 in 白菜, 油 in 石油) is not, and nor is a noun's own suffix (子, 头, 儿: 叶子, 木头).
_NOUN_SUFFIXES_ZH = "子头儿"
_GIVEN_NAME_SHARE = 0.15  # 屈原 0.27, 钱学森 0.21, 欧阳修 0.20; 白菜 0.11, 石头 0.07, 石油 0.02


@functools.cache
def _closing_counts(character: str) -> tuple[int, int]:
    """How often a character is the second or third of a two- or three-character name in jieba's dictionary, and of
    any other word there."""
    import jieba.posseg  # its word tags are read on import
    in_names = in_words = 0
    for word, tag in jieba.posseg.dt.word_tag_tab.items():
        if 2 <= len(word) <= 3 and character in word[1:]:
            if tag in _PERSON_TAGS_ZH:
                in_names += 1
            else:
                in_words += 1
    return in_names, in_words


# A Chinese noun ends in its kind (金鱼 is a 鱼, 杨树 a 树, 孔雀 a 雀): a living thing's or a thing's life ("金鱼的一生",
# "一棵杨树的故事") is told by that kind, which closes no name a lesson is about, though jieba tags some as names.
_KINDS_OF_THINGS_ZH = frozenset("鱼虫鸟雀鸡鸭鹅蛙蝶蛾蚕蚁蜂龟蛇猫狗兔猪牛羊鼠熊狼虎豹鹿象猴"
                                "花草树叶果瓜豆籽苗芽根茎麦稻米菜藤"
                                "云雨雪霜露冰滴珠塔桥船车灯伞瓶杯碗笔纸词曲")
# The masters (诸子) are named family name + 子 (孔子, 庄子); after any other character 子 is a noun's suffix (叶子, 兔子).
_MASTERS_FAMILY_NAMES_ZH = frozenset("孔孟老庄墨荀韩孙列管朱")
# Names of people lessons are often about that jieba's dictionary tags as common words (屈原, 陆游) or lacks (卫青):
# said alone they are still a person. A short list of the commonest, as _GIVEN_NAMES_EN is, not an encyclopedia.
_NAMES_JIEBA_MISSES_ZH = frozenset("屈原 陆游 卫青 毕昇 屠呦呦 华佗 扁鹊 詹天佑 秋瑾 焦裕禄 戚继光 于谦".split())


# jieba tags some four-character terms as names (文献检索): two words it knows as a noun, verb or adjective each
# (文献 + 检索) make a term; a name's halves are no such words (爱因斯坦, 上官婉儿, 居里夫人).
_WORD_TAGS_ZH = frozenset("n v vn a an nz".split())


def _two_common_words(name: str) -> bool:
    import jieba.posseg  # its word tags are read on import
    tags = jieba.posseg.dt.word_tag_tab
    return len(name) == 4 and all(tags.get(half) in _WORD_TAGS_ZH for half in (name[:2], name[2:]))


def _names_a_kind_of_thing(name: str) -> bool:
    if name[-1] == "子" and len(name) == 2:
        return name[0] not in _MASTERS_FAMILY_NAMES_ZH
    return name[-1] in _KINDS_OF_THINGS_ZH or (len(name) == 2 and name[-1] in _NOUN_SUFFIXES_ZH) or _two_common_words(name)


def _reads_as_a_given_name(name: str) -> bool:
    given = name[2:] if name[:2] in _FAMILY_NAMES_TWO_ZH else name[1:]
    if _names_a_kind_of_thing(name):
        return False
    share = 1.0
    for in_names, in_words in map(_closing_counts, given):
        share *= (in_names + 0.5) / (in_names + in_words + 1)
    return share >= _GIVEN_NAME_SHARE


# A thing of nature (恐龙, 蜜蜂, 火山, 四季, "dinosaurs", "volcanoes", "the Moon") is there, not made to be used: a lesson
# on it has no "典型应用" nor "applications of dinosaurs". Read by the subject's head, the kind it ends in; a thing
# people put to use is named otherwise (太阳能, "solar panels", 光合作用, "magnets").
_LIVING_HEADS_ZH = ("恐龙", "动物", "植物", "昆虫", "鸟类", "鱼类", "哺乳动物", "爬行动物", "两栖动物", "微生物", "鱼", "鸟", "虫", "叶", "细菌", "病毒",
                    "蜜蜂", "蚂蚁", "蝴蝶", "青蛙", "蝌蚪", "鲸", "鲨鱼", "企鹅", "熊猫", "老虎", "狮子", "大象", "海洋生物", "兔", "兔子",
                    "猫", "狗", "猴", "猴子", "熊", "狼", "狐狸", "马", "牛", "羊", "猪", "鸡", "鸭", "鹅", "蛇", "龟", "乌龟", "蜗牛",
                    "蚯蚓", "蜘蛛", "松鼠", "长颈鹿", "斑马", "海豚", "螃蟹", "花", "树", "叶子", "种子", "蘑菇", "竹子")
_EARTH_HEADS_ZH = ("火山", "地震", "台风", "飓风", "龙卷风", "海啸", "雷电", "闪电", "彩虹", "云", "雨", "雪", "冰雹", "雾",
                   "四季", "季节", "春天", "夏天", "秋天", "冬天", "天气", "星星", "星空", "星座", "行星", "恒星", "月亮", "月球",
                   "太阳", "太阳系", "银河系", "宇宙", "黑洞", "彗星", "流星", "极光", "海洋", "河流", "山脉", "高山", "沙漠",
                   "森林", "雨林", "草原", "湿地", "冰川", "岩石", "化石", "矿物")
_LIVING_HEADS_EN = frozenset("""dinosaur animal plant insect bird fish mammal reptile amphibian microbe bacterium bacteria
    virus bee ant butterfly frog tadpole whale shark penguin panda tiger lion elephant spider wolf rabbit bunny cat dog
    monkey bear fox horse cow sheep pig chicken duck goose snake turtle tortoise snail worm squirrel giraffe zebra dolphin
    crab owl octopus flower tree leaf seed mushroom""".split())
_EARTH_HEADS_EN = frozenset("""volcano earthquake typhoon hurricane tornado tsunami storm thunderstorm lightning rainbow
    cloud rain snow hail fog season spring summer autumn winter weather star constellation planet moon sun galaxy universe
    hole comet meteor aurora ocean sea river mountain desert forest rainforest grassland wetland glacier rock fossil
    mineral""".split())


def _nature_head(subject: str) -> tuple[str, bool] | None:
    """The head of a subject that names a thing of nature, with whether it is alive; None for anything else."""
    text = subject.strip().rstrip("?？。.!！")
    if CJK.search(text):
        text = re.sub(r"^(?:认识|了解|走进|探索|探秘|揭秘|神奇的|有趣的|可爱的)", "", text)
        head = next((h for h in sorted((*_LIVING_HEADS_ZH, *_EARTH_HEADS_ZH), key=len, reverse=True) if text.endswith(h)), None)
        return (head, head in _LIVING_HEADS_ZH) if head else None
    words = re.findall(r"[a-z]+", text.lower())
    if not words:
        return None
    head = words[-1]
    singular = head[:-3] + "o" if head.endswith("oes") else head[:-3] + "f" if head.endswith("ves") else \
        head[:-1] if head.endswith("s") and not head.endswith("ss") else head
    for word in (head, singular):
        if word in _LIVING_HEADS_EN or word in _EARTH_HEADS_EN:
            return word, word in _LIVING_HEADS_EN
    return None


def about_nature(subject: str) -> bool:
    """Whether a subject is a thing of nature, there and not made for a use ("恐龙", "认识四季", "Volcanoes", "farm
    animals", "the Moon"): its head, the kind it ends in, is a living thing, a landform, the weather or the sky."""
    return _nature_head(subject) is not None


def alive_in_nature(subject: str) -> bool:
    """Whether a thing of nature lives ("恐龙", "小兔子", "bees"), so a lesson tells how it lives, not how it forms
    ("火山", "rainbows")."""
    head = _nature_head(subject)
    return bool(head and head[1])


def names_a_person(subject: str) -> bool:
    """Whether a subject is a person ("李白", "讲讲孔子的一生", "秦始皇", "Napoleon", "Abraham Lincoln", "Queen
    Victoria", "Louis XIV", "the life of Gandhi", "Jane Austen"): a Chinese one is a name by jieba's word tags (nr), all of it."""
    text = subject.strip()
    if language_of(text) == "zh":
        name = person_name(text)
        said_to_be_a_person = name != text
        # jieba tags "小兔子" a name; a head of one character (云, 马) may end one ("赵云"), a longer one does not
        if len((_nature_head(name) or ("",))[0]) >= 2:
            return False
        if not re.fullmatch(r"[\u3400-\u9fff]{2,6}", name):  # a name is a few characters, nothing else
            return False
        import jieba.posseg  # loaded on the first Chinese subject short enough to be a name, not on import
        words = list(jieba.posseg.cut(name))
        if name in _NAMES_JIEBA_MISSES_ZH or len(words) == 1 and words[0].flag in _PERSON_TAGS_ZH:
            return not _names_a_kind_of_thing(name)
        # a place or a time jieba knows ("黄河", "周期") is no one, whatever is said round it
        return said_to_be_a_person and _shaped_like_a_chinese_name(name) and not any(
            word.flag.startswith(("ns", "t", "m")) for word in words) and _reads_as_a_given_name(name)
    if story := _STORY_OF_EN.match(text):  # "the story of the Titanic" is a thing's; "the story of Anne Frank" a life
        return names_a_person(story.group("told"))
    if _LIFE_EN.search(text):
        return True
    text = re.sub(r"^the\s+", "", text, flags=re.IGNORECASE)
    if _NAMED_PERSON_EN.match(text):
        return True
    words = text.split()
    return (1 <= len(words) <= 3 and words[0].lower() in _GIVEN_NAMES_EN and all(w[:1].isupper() for w in words)
            and not _names_a_product(words[1:]) or _shaped_like_a_full_name(text))


def person_name(subject: str) -> str:
    """A person's name as a subject says it without its life or role ("屈原的一生", "爱国诗人屈原", "the life of Gandhi"
    → 屈原, Gandhi): what a person lesson's parts are named by ("屈原的生平经历", not "爱国诗人屈原的生平经历")."""
    text = subject.strip()
    if language_of(text) != "zh":
        return _LIFE_EN.sub("", text).strip() or text
    name = _LIFE_ZH.sub("", text)
    role = _ROLE_BEFORE_NAME_ZH.match(name)
    return name[role.end():] if role and role.end() < len(name) else name


def person_named_first(subject: str) -> str | None:
    """The person a subject names before "and" and their world ("Charles Dickens and Victorian London", "Genghis Khan
    and the Mongol Empire", "李白与盛唐", "鲁迅和他的时代"): a life in its times, told by the person; else None."""
    text = subject.strip()
    split = r"与|和|以及" if language_of(text) == "zh" else r"\s+and\s+"
    parts = re.split(split, text, maxsplit=1)
    return parts[0].strip() if len(parts) == 2 and parts[0].strip() and names_a_person(parts[0]) else None


# What kind of history a lesson tells sets its parts: an event's causes, course and consequences; a period's (唐朝,
# "the Renaissance", "the Roman Empire") society, culture, achievements and legacy; a person's times, life, deeds,
# how history judges them and their legacy.
_PERIOD_NAME_ZH = (r"(?:[东西南北前后]?[夏商周秦汉晋隋唐宋元明清辽金][朝代]?|盛唐|大唐|两汉|明清|春秋|战国|春秋战国|三国|"
                   r"魏晋|魏晋南北朝|南北朝|五代十国|文艺复兴|启蒙运动|古代?(?:埃及|希腊|罗马|印度|中国|巴比伦)|[\u3400-\u9fff]{1,6}"
                   r"(?:时期|时代|年代|王朝|帝国|文明))")
_PERIOD_NAME_EN = (r"(?:(?:[\w'-]+\s+){0,3}(?:era|age|period|"
                   r"dynasty|empire|kingdom|civili[sz]ation|renaissance|enlightenment|middle\s+ages)|(?:ancient|medieval)"
                   r"\s+[\w' -]+|\d{4}s|(?:[1-9]|1\d|20)(?:st|nd|rd|th)[\s-]+century(?:\s+[\w'-]+){0,2}|(?:[\w'-]+\s+)"
                   r"{0,2}(?:renaissance|enlightenment|middle\s+ages)|age\s+of\s+[\w' -]+|"
                   rf"(?:{_PEOPLES_OF_HISTORY_EN})(?:\s+(?:in|of)\s+[\w' -]+)?)")
_PERIOD_ZH = re.compile(rf"^{_PERIOD_NAME_ZH}(?:的?历史)?$")
_PERIOD_EN = re.compile(rf"^(?:the\s+)?(?:(?:history|story)\s+of\s+(?:the\s+)?)?{_PERIOD_NAME_EN}$", re.IGNORECASE)
# One side of a period's life ("宋朝的科技", "唐代服饰", "daily life in ancient Rome", "art of the Renaissance") is a theme:
# told by its times, its features, its figures, how it developed and what it left, not by an event's causes and course.
_PERIOD_SIDE_ZH = (r"(?:科技|科学|技术|发明|文化|思想|宗教|艺术|文学|诗歌|诗词|绘画|书法|音乐|建筑|服饰|饮食|民俗|节日|教育|科举|经济|"
                   r"商业|贸易|农业|手工业|城市|货币|交通|政治|制度|法律|军事|外交|对外交流|社会|(?:日常|社会)?生活|医学)(?:成就|发展|特点)?")
_PERIOD_SIDE_EN = (r"(?:[\w'-]+\s+){0,2}?(?:science|technology|inventions?|arts?|architecture|literature|poetry|music|religion|"
                   r"beliefs|culture|trade|economy|farming|food|clothing|fashion|life|women|children|education|medicine|"
                   r"government|law|society|cities|transport)")
_PERIOD_THEME_ZH = re.compile(rf"^{_PERIOD_NAME_ZH}的?{_PERIOD_SIDE_ZH}$")
_PERIOD_THEME_EN = re.compile(rf"^(?:the\s+)?{_PERIOD_SIDE_EN}\s+(?:in|of|during|under)\s+(?:the\s+)?{_PERIOD_NAME_EN}$",
                              re.IGNORECASE)
# "the fall of the Roman Empire", "唐朝的灭亡" are events in a period's life, told by their causes and course.
_EVENT_IN_PERIOD = re.compile(r"\b(?:fall|rise|collapse|decline|founding|end|birth)\s+of\b|灭亡|兴起|建立|衰落|覆灭|崩溃",
                              re.IGNORECASE)


# The history of a thing or a place ("我们镇铁路的历史", "the history of our town's railway", "本地老街的变迁") has no causes
# and consequences of its own, as an event has: it is a story told in time order, from its beginnings to today.
_HISTORY_OF_ZH = re.compile(r"(?<=\w)的?(?:历史|变迁|发展史|由来|前世今生)$")
_HISTORY_OF_EN = re.compile(r"^(?:the\s+)?(?:(?:short|brief|little)\s+)?(?:history|story)\s+of\s+", re.IGNORECASE)


def _a_things_history(text: str, zh: bool) -> bool:
    told = (_HISTORY_OF_ZH if zh else _HISTORY_OF_EN).search(text)
    if not told:
        return False
    thing = text[:told.start()] if zh else text[told.end():]
    return bool(thing) and not (_HISTORY_ZH if zh else _HISTORY_EN).search(thing)


def history_kind(subject: str) -> Literal["event", "period", "person", "theme", "story"]:
    """"person" for a life ("李白的一生", "Napoleon"), "period" for an age, dynasty or civilisation ("唐朝", "the
    Renaissance", "ancient Egypt"), "theme" for one side of a period ("宋朝的科技", "daily life in ancient Rome"),
    "story" for the history of a thing or a place ("我们镇铁路的历史"), else "event" ("辛亥革命", "the fall of Rome")."""
    text = subject.strip()
    if names_a_person(text) or person_named_first(text) is not None:
        return "person"
    zh = language_of(text) == "zh"
    if (_PERIOD_THEME_ZH if zh else _PERIOD_THEME_EN).match(text):  # before the period its own words name
        return "theme"
    if not _EVENT_IN_PERIOD.search(text) and (_PERIOD_ZH if zh else _PERIOD_EN).match(text):
        return "period"
    return "story" if _a_things_history(text, zh) else "event"


# A lesson on a language (its grammar, words, sounds or writing: "the past simple tense", "phrasal verbs", "英语语法
# 现在完成时", "汉语拼音", "文言文虚词", "French basics") is taught in a language teacher's parts (form, meaning and use,
# examples in context, common mistakes, practice, a speaking or writing task), not a science's (核心原理, "the workings of").
# A language's name counts only with a word of learning it: "the French Revolution" and "Chinese New Year" are no lessons.
_LANGUAGE_WORDS_ZH = re.compile(r"语法|时态|[现过将]在?(?:完成|进行)?时(?:态)?$|一般(?:现在|过去|将来)时|(?:现在|过去|将来)(?:完成|进行)时|"
                                r"被动语态|虚拟语气|定语从句|状语从句|名词性从句|从句|非谓语|动词短语|短语动词|固定搭配|词汇|单词|"
                                r"音标|发音|拼音|声母|韵母|声调|(?<!成)语气词|虚词|实词|词性|句型|句式|标点符号|病句|"
                                r"(?:英|法|日|德|韩|俄|西班牙|意大利|葡萄牙|阿拉伯)语(?:入门|基础|口语|听力|阅读|写作|学习|课)")
_LANGUAGE_NAMES_EN = r"(?:english|french|spanish|german|italian|portuguese|japanese|korean|mandarin|chinese|arabic|russian|latin)"
_LANGUAGE_WORDS_EN = re.compile(
    r"\b(?:grammar|tenses?|(?:past|present|future)\s+(?:simple|continuous|progressive|perfect)|simple\s+(?:past|present|future)|"
    r"phrasal\s+verbs?|irregular\s+verbs?|modal\s+verbs?|auxiliary\s+verbs?|verb\s+forms?|conditionals?|passive\s+voice|"
    r"reported\s+speech|relative\s+clauses?|question\s+tags?|word\s+order|parts\s+of\s+speech|(?:countable|uncountable)\s+nouns|"
    r"articles\s+a\b|prepositions?\s+of\s+(?:time|place)|comparatives?|superlatives?|collocations?|idioms?|vocabulary|"
    r"pronunciation|phonics|spelling\s+rules|punctuation|conjugations?|"
    + _LANGUAGE_NAMES_EN + r"\s+(?:basics|for\s+beginners|greetings|phrases|words|verbs|alphabet|numbers|conversation|"
    r"pronunciation|vocabulary|grammar|lesson|101)|(?:basic|beginner|beginners'?|conversational|learn(?:ing)?)\s+" + _LANGUAGE_NAMES_EN
    + r")\b", re.IGNORECASE)


def about_a_language(subject: str) -> bool:
    """Whether a subject is a point of a language to learn ("the past simple tense", "phrasal verbs", "food vocabulary",
    "英语语法 现在完成时", "汉语拼音", "文言文虚词", "Spanish basics"); a work named in 《》 is read, not drilled."""
    text = subject.strip()
    if language_of(text) == "zh":
        return "《" not in text and bool(_LANGUAGE_WORDS_ZH.search(text) or _WHOLE_LANGUAGE_ZH.match(text))
    return bool(_LANGUAGE_WORDS_EN.search(text) or re.fullmatch(_LANGUAGE_NAMES_EN + r"(?:\s+language)?", text, re.IGNORECASE))


# A language named as the whole subject ("Spanish for beginners", "French basics", "西班牙语入门", "日语") is a first course in
# it (its sounds, greetings, everyday words, first sentences), not one point of grammar: "the form of Spanish" does not read.
_WHOLE_LANGUAGE_EN = re.compile(rf"^(?:(?:basic|beginners?'?|conversational|learn(?:ing)?|intro(?:duction)?\s+to)\s+)?"
                                rf"(?P<name>{_LANGUAGE_NAMES_EN})(?:\s+(?:language|basics|for\s+beginners|101|lessons?))?$",
                                re.IGNORECASE)
_WHOLE_LANGUAGE_ZH = re.compile(r"^(?:零基础)?(?:学)?(?P<name>(?:英|法|日|德|韩|俄|西班牙|意大利|葡萄牙|阿拉伯)语)"
                                r"(?:零基础|入门|基础|初级|启蒙)?(?:课|学习|教学)?$")


def whole_language_named(subject: str) -> str | None:
    """The language a subject names as a whole ("Spanish for beginners" → "Spanish", "西班牙语入门" → "西班牙语"), or
    None when it is a point of one ("the past simple", "现在完成时") or no language at all."""
    text = subject.strip()
    match = (_WHOLE_LANGUAGE_ZH if language_of(text) == "zh" else _WHOLE_LANGUAGE_EN).match(text)
    return match.group("name").capitalize() if match and language_of(text) != "zh" else (match.group("name") if match else None)


# A request that reads a text the way only a text is read ("Hamlet Act 3", "Frankenstein chapter 5", "the plot", "the main
# characters", "the narrator") makes the name it is about a work's, though a bare name ("Teach Orion") says nothing
# unless it is a set text everyone knows (_SET_TEXTS_EN: "Teach Hamlet").
_READING_A_TEXT_EN = re.compile(r"(?-i:\bAct|\bScene)\s+(?:[IVX]+|\d+)\b|\bchapters?\s+(?:[IVX]+|\d+)\b|\bthe\s+(?:main\s+)?"
                                r"(?:plot|protagonists?|narrator|soliloquy|soliloquies|stanzas?|characters)\b", re.IGNORECASE)
_CAPITALISED_NAME_EN = re.compile(r"\b(?!(?:Act|Scene|Chapter|The|A|An)\b)[A-Z][a-z]+")


def _reads_a_named_work(subject: str, request: str) -> bool:
    """Whether an English request reads a named text: it speaks of acts, chapters, the plot or the characters, and its
    subject has a capitalised name that is no person's or history's ("Teach Hamlet, Act 3", "the characters in Beowulf")."""
    if language_of(request) == "zh" or not _READING_A_TEXT_EN.search(request):
        return False
    name = _CAPITALISED_NAME_EN.search(subject)
    return bool(name) and not names_a_person(name.group(0)) and not about_history(subject)


# A maths lesson (方程, 分数, 勾股定理, "fractions", "Pythagoras' theorem") is taught by its definitions, rules and worked
# examples, not a phenomenon's "observe it, ask why" nor "找一个与基本定义有关的现象".
_MATHS_ZH = re.compile(r"(?<!化学)(?<!离子)方程|不等式|函数|分数|小数|百分数|因数|倍数|因式分解|整式|分式|根式|二次根式|有理数|无理数|实数|"
                       r"勾股|定理|三角形|四边形|平行四边形|梯形|多边形|圆的|几何|相似三角形|全等|坐标|向量|数列|概率|排列组合|对数|指数|"
                       r"导数|积分|加减法|乘除法|乘法|除法|四则运算|口算|竖式|面积|周长|体积|比例")
_MATHS_EN = re.compile(r"\b(?:(?<!chemical\s)(?<!ionic\s)(?<!word\s)equations?|inequalit(?:y|ies)|algebra(?:ic)?|fractions?|decimals?|percentages?|"
                       r"(?:linear|quadratic|exponential|trigonometric)\s+functions?|quadratics?|polynomials?|factori[sz](?:ing|ation)|"
                       r"geometry|triangles?|quadrilaterals?|polygons?|pythagoras|theorem|trigonometry|probability|"
                       r"simultaneous|calculus|derivatives?|differentiation|integration|logarithms?|exponents?|indices|"
                       r"multiplication|division|times\s+tables?|long\s+division|place\s+value|ratios?|proportions?|"
                       r"area\s+of|perimeter|volume\s+of|angles?|vectors?|matri(?:x|ces)|arithmetic|negative\s+numbers|prime\s+numbers)\b",
                       re.IGNORECASE)


def about_maths(subject: str) -> bool:
    """Whether a subject is a point of mathematics to learn ("一元一次方程", "分数加减法", "Pythagoras' theorem",
    "adding fractions", "quadratic equations")."""
    return bool((_MATHS_ZH if language_of(subject) == "zh" else _MATHS_EN).search(subject))


# Listeners who come as members of the public ("给家长做一次演讲", "给社区居民讲讲垃圾分类", "A webinar for parents on
# screen time", "my book club") hear a public talk: why it matters to them and what they can do at home, neither a
# report's next steps nor a class's homework.
_PUBLIC_LISTENERS = re.compile(r"家长|父母|爸爸妈妈|居民|社区|街坊|邻居|市民|村民|群众|公众|老年人|老人|长辈|退休|读书会|俱乐部|业主|志愿者|义工|爱好者|发烧友|"
                               r"\b(?:parents?|residents|neighbou?rs|community|families|citizens|(?:the\s+)?public|"
                               r"seniors|retirees|elders|grandparents|caregivers|carers|volunteers|book\s+club|club\s+members|hobbyists|enthusiasts|societ(?:y|ies))\b|"
                               r"协会|学会|研究会|"
                               # a shop's, a gym's or a line's own people are its customers, not pupils ("给会员讲讲积分规则")
                               r"会员|顾客|乘客|旅客|游客|住客|"
                               r"\b(?:(?<!team\s)(?<!staff\s)(?<!board\s)(?<!committee\s)members|shoppers|passengers|guests|visitors|patrons|diners)\b",
                               re.IGNORECASE)
# Adults named with the place they work or meet ("night shift nurses at our clinic", "the volunteers at our food bank"),
# as a club ("my running club") or as a group of ours ("our neighbourhood watch") are no class either; at a company or in a team they hear a talk at work, which
# _AT_WORK knows first. Only whom it is for says so: "Golf club swing basics" is a subject.
# Listeners named by their trade or the place they work ("诊所护士", "工厂员工", "物业保安", "the workers at our factory")
# hear a public talk at work: what they take from it goes to the next shift, not home. A table, read word by word.
_WORKPLACE_WORDS_ZH = JOBS_ZH + ("诊所", "医院", "卫生院", "工厂", "车间", "工地", "门店", "商场", "超市", "仓库", "物业", "酒店",
                                 "餐厅", "食堂", "银行", "药店")
_WORKPLACE_WORDS_EN = frozenset(plural_en(job) for job in JOBS_EN) | frozenset("""doctors carers workers staff employees
    crew drivers cleaners cashiers porters technicians operators clinic hospital ward practice factory plant workshop
    warehouse site depot store shop supermarket restaurant kitchen hotel office bank pharmacy shift""".split())


# Newcomers told about a place or a group with no subject of their own ("A talk to new volunteers at an animal shelter",
# "给新来的志愿者做个介绍", "新员工入职介绍", "orientation for new lab members") hear an orientation: welcome, who we are
# and what we do, their role and first tasks, the rules and safety, whom to ask. The deck is about the place or group
# named ("Welcome to the animal shelter"), or about the team they join when none is.
_NEWCOMERS_EN = re.compile(r"\b(?:new(?:ly\s+(?:arrived|joined|hired))?\s+(?P<group>(?:[\w-]+\s+){0,2}?)(?:volunteers|members|hires|"
                           r"staff|employees|joiners|starters|recruits|colleagues|interns|trainees|residents|tenants|students|pupils|"
                           + PEOPLE_PLURAL_EN + r"|(?:volunteer|member|hire|staff|employee|joiner|starter|recruit|intern|student)"
                           r"(?=\s+(?:induction|orientation|onboarding|welcome)))|newcomers|freshmen|freshers|new\s+arrivals)\b",
                           re.IGNORECASE)
_NEWCOMERS_ZH = re.compile(r"(?:新来的|新加入的|新入职的|刚入职的|刚来的|新)(?:[\u3400-\u9fff]{0,3}?)(?:员工|同事|成员|会员|志愿者|义工|人|"
                           r"队员|护士|老师|教师|医生|实习生|职工|伙伴|小伙伴|同学|生)")
# what a newcomer's talk is called, with no subject in it ("入职介绍", "welcome talk", "an orientation")
_ORIENTATION_WORDS_ZH = re.compile(r"新员工|新同事|新成员|新人|入职(?:培训)?|岗前培训|入学|迎新|欢迎|入住|见面会?|介绍(?:一下)?|讲解|须知|指南|说明|的|"
                                   r"[给为向面针对做个一份次讲些下]")
_ORIENTATION_WORDS_EN = re.compile(r"\b(?:welcome|welcoming|orientation|induction|onboarding|intro(?:duction)?|talk|session|"
                                   r"presentation|briefing|day|meeting|speech|deck|slides|a|an|the|our|my|for|to|at|in|of|with|"
                                   r"short|quick|brief|first|on|give|make|prepare|create|please|minutes?|mins?|\d+)\b", re.IGNORECASE)
_PLACE_AFTER_NEWCOMERS_EN = re.compile(r"\s+(?:at|in|of|to|joining|with)\s+(?P<det>(?:the|our|this|an?|my)\s+)?"
                                       r"(?P<place>[\w'’ -]+?)(?=\s*(?:[,.;:!?(]|\bfor\b|\babout\b|\bon\b|\bin\s+\d|$))", re.IGNORECASE)
_PLACE_BEFORE_NEWCOMERS_ZH = re.compile(r"(?:给|为|向|面向|针对)(?P<place>[\u3400-\u9fff]{2,10}?)的?(?=新来的|新加入的|新入职的|刚入职的|刚来的|新)")
_OCCASION_AFTER_NEWCOMERS_EN = re.compile(r"(?:\s+(?:induction|orientation|onboarding|welcome|talk|session|day|evening|meeting)s?)*",
                                          re.IGNORECASE)
_GROUP_WORDS_EN = frozenset("""lab team club society choir band department office ward clinic shelter library school
    museum centre center company firm branch studio kitchen crew squad committee council church group""".split())


def _newcomers_place(request: str, zh: bool) -> str:
    """Where the newcomers are joining, as the deck names it ("the animal shelter", "动物收容所"), or "" when unsaid."""
    if zh:
        place = _PLACE_BEFORE_NEWCOMERS_ZH.search(request)
        return place.group("place") if place else ""
    newcomers = _NEWCOMERS_EN.search(request)
    # "New member induction at the rowing club": the occasion may stand between them and the place
    end = _OCCASION_AFTER_NEWCOMERS_EN.match(request, newcomers.end()).end() if newcomers else 0
    after = _PLACE_AFTER_NEWCOMERS_EN.match(request, end) if newcomers else None
    if after and after.group("place").strip():
        det = (after.group("det") or "the ").strip().lower()
        return f"{'the' if det in ('a', 'an', 'this') else det} {after.group('place').strip()}"
    group = (newcomers.group("group") or "").strip() if newcomers else ""
    # "new lab members": the group is the lab
    return f"the {group}" if group and group.split()[-1].lower() in _GROUP_WORDS_EN else ""


# Guests welcomed to a place with no subject ("Welcome talk for hotel guests", "给酒店住客做个欢迎介绍") hear what the
# place offers, the practical details, the house rules and whom to ask: no newcomer's role nor first week.
_WELCOMED_ZH = re.compile(r"欢迎|迎宾|入住")
_WELCOMED_EN = re.compile(r"\bwelcom(?:e|ing)\b", re.IGNORECASE)
_GUESTS_ZH = re.compile(r"住客|客人|宾客|旅客|房客|游客|访客|新住户|新业主")
_GUESTS_EN = re.compile(r"\b(?P<group>(?:[\w-]+\s+){0,2}?)(?:guests|visitors|residents|tenants|passengers|campers|delegates)\b",
                        re.IGNORECASE)
_PLACE_BEFORE_GUESTS_ZH = re.compile(r"(?:给|为|向|面向|针对)?(?P<place>[\u3400-\u9fff]{2,8}?)的?(?=住客|客人|宾客|旅客|房客|游客|访客|新住户|新业主)")


def _guests_place(request: str, zh: bool) -> str:
    if zh:
        place = _PLACE_BEFORE_GUESTS_ZH.search(request)
        return place.group("place") if place else ""
    guests = _GUESTS_EN.search(request)
    after = _PLACE_AFTER_NEWCOMERS_EN.match(request, guests.end()) if guests else None
    if after and after.group("place").strip():
        det = (after.group("det") or "the ").strip().lower()
        return f"{'the' if det in ('a', 'an', 'this') else det} {after.group('place').strip()}"
    named = _GUESTS_EN.search(audience_hint(request) or "")  # whom it is for, as a phrase: "hotel guests"
    group = [word for word in (named.group("group") if named else "").split()
             if not is_function_word(word.lower()) and word.lower() not in ("new", "all", "dear")]
    return f"the {' '.join(group)}" if group else ""  # "hotel guests": the hotel


@functools.lru_cache(maxsize=256)
def welcome_kind(request: str) -> tuple[str, str] | None:
    """("orientation", place) for newcomers joining a place or group, ("welcome", place) for guests welcomed to one,
    when the request names no subject of its own; else None."""
    zh = language_of(request) == "zh"
    newcomers = (_NEWCOMERS_ZH if zh else _NEWCOMERS_EN).search(request)
    audience = audience_hint(request)
    # the newcomers are the listeners: "A talk for managers on welcoming new employees" is told to the managers
    if newcomers is not None and audience and not _NEWCOMERS_ZH.search(audience) and not _NEWCOMERS_EN.search(audience):
        return None
    if newcomers is not None:
        kind, place = "orientation", _newcomers_place(request, zh)
    else:
        newcomers = (_GUESTS_ZH if zh else _GUESTS_EN).search(request)
        if newcomers is None or not (_WELCOMED_ZH if zh else _WELCOMED_EN).search(request):
            return None
        kind, place = "welcome", _guests_place(request, zh)
        if not place:  # welcomed to nowhere named: no deck can say what the place offers
            return None
    rest = _subject_of(request).replace(newcomers.group(0), " ")
    if place:
        rest = rest.replace(place, " ") if zh else re.sub(re.escape(place.split(" ", 1)[-1]), " ", rest, flags=re.IGNORECASE)
    rest = (_ORIENTATION_WORDS_ZH if zh else _ORIENTATION_WORDS_EN).sub(" ", _without_sizes(rest))
    if re.search(r"[^\W\d_]", rest):  # a subject of its own ("新员工入职培训：信息安全意识") is taught, not welcomed into
        return None
    return kind, place


def orientation_title(request: str) -> str | None:
    """The title of a talk welcoming newcomers or guests that names no subject ("Welcome to the animal shelter",
    "欢迎加入我们的团队"), or None when the request is no such talk."""
    welcome = welcome_kind(request)
    if welcome is None:
        return None
    place = welcome[1]
    # new classmates join a class and new students a school, not a team
    school = _NEW_PUPILS.search(request)
    if language_of(request) == "zh":
        return f"欢迎来到{place}" if place else ("欢迎加入我们的团队" if not school else
                                                "欢迎加入我们的班级" if "同学" in school.group(0) else "欢迎来到我们的学校")
    return f"Welcome to {place}" if place else ("Welcome to our school" if school else "Welcome to the team")


_NEW_PUPILS = re.compile(r"(?<=新来的)同学|(?<=新加入的)同学|新同学|新生|\bnew\s+(?:students|pupils)\b|\bfreshmen\b|\bfreshers\b", re.IGNORECASE)


def welcomes_newcomers(request: str) -> bool:
    return orientation_title(request or "") is not None


# "Welcome to the animal shelter" and "Guided tour of the Louvre" are about the place ("the tour of guided tour of the
# Louvre" read twice)
_WELCOME_TO = re.compile(r"^(?:welcome\s+to\s+|(?:(?:guided|walking|virtual)\s+)?tour\s+(?:of|around|through)\s+|欢迎(?:来到|加入))(?=\w)",
                         re.IGNORECASE)


# Volunteers named as new or with where they serve ("新来的志愿者", "动物收容所的志愿者", "new volunteers", "the volunteers
# at the animal shelter", "museum volunteers") are at their place of service: what they take goes to their next shift,
# not home to the family. Named by their age or school ("青年志愿者", "student volunteers") they name no such place.
_SERVING_VOLUNTEERS_ZH = re.compile(r"(?:新来的?|新|[\u3400-\u9fff]{2}(?<!青年)(?<!老年)(?<!学生)(?<!少年)(?<!儿童)的?)(?:志愿者|义工)")
_SERVING_VOLUNTEERS_EN = re.compile(r"\bnew\s+volunteers\b|\bvolunteers\s+(?:at|in|from|with)\s+\w|\b(?!(?:young|older|student|"
                                    r"teen|teenage|youth|senior|retired|our|the|all|local|potential|prospective|future|"
                                    r"adult|for|of|and|to)\b)[a-z]+\s+volunteers\b", re.IGNORECASE)


# A place's guests and customers ("hotel guests", "酒店住客", "the diners at our restaurant") are served there, not at work.
_SERVED_ZH = re.compile(r"住客|客人|顾客|宾客|旅客|乘客|食客|游客|访客|病人|患者|家属")
_SERVED_EN = re.compile(r"\b(?:guests|customers|patrons|diners|passengers|shoppers|visitors|tourists|patients|clients)\b", re.IGNORECASE)


def heard_at_work(audience: str | None) -> bool:
    """Whether the listeners are named by their trade or workplace ("诊所护士", "the nurses at our clinic"), or are
    volunteers at their place of service ("动物收容所的志愿者", "new volunteers")."""
    text = audience or ""
    if (_SERVED_ZH if CJK.search(text) else _SERVED_EN).search(text):
        return False
    if CJK.search(text):
        return (any(word in text for word in _WORKPLACE_WORDS_ZH) or names_a_job_zh(text)
                or bool(_SERVING_VOLUNTEERS_ZH.search(text)))
    return (any(word in _WORKPLACE_WORDS_EN for word in re.findall(r"[a-z]+", text.lower()))
            or bool(_SERVING_VOLUNTEERS_EN.search(text)))


# Children who cannot yet take notes (幼儿园, 一二年级, "Year 1", "5-year-olds"): a class of them is not told to get
# notebooks or scrap paper ready, nor to write points down.
_YOUNG_CHILDREN = re.compile(r"小朋友|幼儿|幼儿园|学前|[大中小]班|(?<![\d十])[一二12]年级|小学低年级|低年级|"
                             r"\b(?:kindergart\w*|preschool\w*|pre-k|nursery|reception\s+class|toddlers|little\s+ones|"
                             r"young\s+children|(?:year|grade|class|p)\s*[12]\b|(?:first|second|1st|2nd)[\s-]+grade\w*|"
                             r"(?:[3-7]|three|four|five|six|seven)[\s-]*(?:year[\s-]*olds?|yos?)\b)", re.IGNORECASE)


_OLDER_PUPILS_ZH = re.compile(r"[三四五六七八九]年级|初[一二三]|高[一二三]|中学|高年级")


# Children who cannot read yet (托班, 幼儿园, "2-3岁幼儿", "3岁宝宝", toddlers, preschool): no textbook to read from and
# no key word to circle, though a first grader can.
_PRE_READERS = re.compile(r"幼儿|幼儿园|托班|学前|宝宝|[大中小]班|(?<![\d十])[1-5]\s*(?:[-~～到至]\s*[1-6]\s*)?(?:周)?岁|"
                          r"(?<![十])[一两二三四五](?:到[三四五六])?(?:周)?岁|"
                          r"\b(?:toddlers?|preschool\w*|pre-k|nursery|kindergart\w*|reception\s+class|babies|"
                          r"(?:[2-5]|two|three|four|five)(?:\s*(?:-|–|to)\s*[3-6])?[\s-]*(?:year[\s-]*olds?|yos?))\b", re.IGNORECASE)


def pre_readers(audience: str | None) -> bool:
    """Whether the listeners are children who cannot read yet ("2-3岁幼儿", "toddlers", "4-year-olds")."""
    return bool(_PRE_READERS.search(audience or ""))


def young_children(audience: str | None) -> bool:
    """Whether the listeners are children too young to take notes ("一年级小朋友", "Year 1", "6-year-olds"); "五年级的小朋友"
    names older ones."""
    return (pre_readers(audience) or bool(_YOUNG_CHILDREN.search(audience or ""))
            and not _OLDER_PUPILS_ZH.search(audience or ""))


# A session held at a public place ("a workshop at the library", "在社区活动中心") is for whoever comes, not for
# colleagues: with no listeners named, its training is practised for home ("town hall" is a meeting at work too).
_PUBLIC_PLACES = re.compile(r"图书馆|社区|文化馆|文化站|活动中心|少年宫|\b(?:library|libraries|community\s+(?:centre|center|hall|garden)|"
                            r"village\s+hall|church\s+hall|parish\s+hall)\b", re.IGNORECASE)


def held_in_public(request: str, audience: str | None) -> bool:
    """Whether a request names no listeners but a public place it is held at ("a workshop at the library")."""
    return not audience and bool(_PUBLIC_PLACES.search(request or ""))


def trained_at_home(audience: str | None) -> bool:
    """Whether a training's listeners come as members of the public ("residents", "小区居民"), not to a job."""
    return bool(audience) and bool(_PUBLIC_LISTENERS.search(audience)) and not heard_at_work(audience)


_ADULTS_MET_AS_SUCH_EN = re.compile(r"\b(?:at|from)\s+(?:our|the|my|this|their)\s+\w+|\bin\s+(?:our|my|this|their)\s+\w+|"
                                    r"\bclubs?$|^(?:our|my)\s", re.IGNORECASE)  # "our neighbourhood watch", "my choir"


# Adults named by the school of their children or pupils ("parents at our primary school", "小学家长") are no class.
_PLACE_AFTER_EN = re.compile(r"\s+(?:at|from|in|of|with)\s+.*$", re.IGNORECASE)


def _adults_of_a_school(audience: str) -> bool:
    """Whether the listeners' own word (after the school they belong to, before where they are) names adults."""
    head = _LEARNERS.split(audience)[-1] if CJK.search(audience) else _PLACE_AFTER_EN.sub("", audience)
    return bool(_PUBLIC_LISTENERS.search(head)) and not _LEARNERS.search(head)


# Teachers listening to a colleague ("给老师们讲如何在课堂上用好提问", "面向全校教师的教研分享", "a talk for teachers")
# hear a training or a talk at work, not a lesson: its pupils, their desk-mates and homework are not in the room, though
# the subject is about a classroom. Retired teachers come as members of the public; "学生和老师" are still a class.
_TEACHERS = re.compile(r"老师|教师|班主任|教研|校长|\b(?:teachers|educators|faculty|lecturers|tutors|teaching\s+staff|"
                       r"headteachers|principals)\b", re.IGNORECASE)
_PUPILS_AMONG = re.compile(r"学生|同学|孩子|小朋友|儿童|学员|\b(?:students?|pupils?|kids|children|learners)\b", re.IGNORECASE)


def teachers_as_colleagues(audience: str | None) -> bool:
    """Whether the listeners are teachers at work ("小学老师", "the teachers at our school"), not their pupils."""
    text = audience or ""
    return (bool(_TEACHERS.search(text)) and not _PUPILS_AMONG.search(text)
            and not _PUBLIC_LISTENERS.search(text))


# What teachers are trained in as teachers: a way of teaching ("如何在课堂上用提问引导学生思考", "using exit tickets in
# lessons"), told by the method's moves and a classroom example, not a workplace's "禁止行为" nor "回到岗位后".
_TEACHING_WORDS = re.compile(r"课堂|教学|上课|备课|授课|听课|评课|学生|提问|作业|班级|班会|板书|课件|分层|差异化|"
                             r"\b(?:classrooms?|teaching|lessons?|students?|pupils?|questioning|homework|marking|"
                             r"differentiation|behaviou?r\s+management|formative|assessment|curriculum)\b", re.IGNORECASE)


def about_teaching(subject: str) -> bool:
    """Whether a subject is a way of teaching ("如何在课堂上用提问引导学生思考", "questioning in lessons")."""
    return bool(_TEACHING_WORDS.search(subject))


def deck_setting(request: str, audience: str | None = None) -> Literal["lesson", "work_lesson", "history_lesson",
                                                                        "language_lesson", "talk", "training",
                                                                        "public_talk"]:
    """"training" for a session that teaches how to do something at work, "talk" for another deck told at work,
    "public_talk" for one told to the public (parents, residents, a club), "language_lesson" for a class learning a
    language (a tense, vocabulary, pinyin), "work_lesson" for one reading a work, "history_lesson" for one on a
    historical event, period or person, "lesson" for another one taught to a class (and by default)."""
    if (told_of_ones_own_life(request) or gives_a_tour(request) or launches_a_product(request)
            or welcomes_newcomers(request)):  # told to whoever listens, not a report nor a lesson
        return "public_talk"
    if teachers_as_colleagues(audience):
        how_to = (_TRAINING.search(f"{audience} {request}") or asks_how_to(core_topic(request)) or _we_do_it_en(core_topic(request))
                  or about_safety_at_work(core_topic(request)))
        return "training" if how_to else "talk"
    for text in (audience or "", request):
        if _LEARNERS.search(text) and not (text == audience and _adults_of_a_school(text)):
            break
        # a training for residents is still a training ("Fire safety training for residents"): drills, not a talk
        if _PUBLIC_LISTENERS.search(text) and not _TRAINING.search(f"{audience or ''} {request}"):
            return "public_talk"
        # a sharing among peers ("五分钟分享：我如何用番茄工作法…") passes on what one found, told as to the public at work:
        # the steps and what to take back to the job, neither a report nor a training's rules
        if text == request and a_sharing(text) and not _TRAINING.search(f"{audience or ''} {request}"):
            return "public_talk"
        if _TRAINING.search(text) or _AT_WORK.search(text) or text == audience and _names_a_department(text):
            # the occasion may be named apart from the listeners ("Onboarding training for the support staff"); "how we
            # store raw meat" told at work is a way of working, trained, not reported on
            training = (_TRAINING.search(f"{audience or ''} {request}") or asks_how_to(core_topic(request)) or _we_do_it_en(core_topic(request))
                        or about_safety_at_work(core_topic(request)))
            return "training" if training else "talk"
    else:
        if audience and (_ADULTS_MET_AS_SUCH_EN.search(audience) or heard_at_work(audience)):
            return "public_talk"
    subject = core_topic(request)
    if about_a_language(subject):
        return "language_lesson"
    if about_a_work(subject) or _reads_a_named_work(subject, request):
        return "work_lesson"
    if about_history(subject, request):
        return "history_lesson"
    # "how we store raw meat, label leftovers and clean the grill": the hands-on jobs of a shift, said as ours, are how
    # the place works, trained; "how we digest food" is a body's working, taught
    doing = our_way_of_doing_en(subject)
    if not audience and doing and _OUR_WAY_EN.match(subject).group("verb").lower() in _SHIFT_VERBS_EN and len(actions_named(doing)) >= 2:
        return "training"
    anyone = not audience or _ONLY_BEGINNERS.fullmatch(audience.strip())
    return "public_talk" if anyone and taken_up_for_its_own_sake(subject, request) else "lesson"


# A hobby or a how-to asked with no listeners named ("手冲咖啡入门", "如何养多肉植物", "How to start a vegetable garden",
# "Sourdough for beginners") is for grown-ups who want to take it up, not a class: no 本节课, 同桌 nor "students new to
# the topic". A school skill or subject asked so ("如何写好作文", "怎么解一元二次方程", "How to write a good paragraph",
# "Python入门") is still a lesson.
_FOR_BEGINNERS = re.compile(r"入门|零基础|新手|初学者?|小白|\b(?:for\s+(?:absolute\s+)?beginners|beginners?['’\ue001]?s?\s+guide|"
                            r"getting\s+started\s+with|first\s+steps\s+in|101)\b", re.IGNORECASE)
_SCHOOL_WORK = re.compile(_COURSE_ZH + r"|作文|写作|阅读|朗读|背诵|默写|单词|词汇|语法|拼音|汉字|识字|[解做答]题|习题|考试|复习|预习|"
                          r"笔记|作业|实验|公式|定理|计算|口算|课文|论文|编程|代码|算法|函数|"
                          r"(?<![A-Za-z])(?:essays?|paragraphs?|homework|exams?|tests?|revision|revise|spelling|grammar|phonics|handwriting|"
                          r"times\s+tables|experiments?|lab|notes|study|studying|research|citations?|coding|programming|code|"
                          r"python|java(?:script)?|sql|excel|algorithms?|maths?|mathematics|physics|chemistry|biology|geography|"
                          r"science|reading|writing)(?![A-Za-z])", re.IGNORECASE)
# Listeners named only as beginners ("Knitting for beginners", "给新手讲手冲咖啡") are whoever takes it up.
_ONLY_BEGINNERS = re.compile(r"(?:(?:complete|absolute|total)\s+)?beginners|新手|初学者|小白|零基础的?(?:朋友|人)?", re.IGNORECASE)


def taken_up_for_its_own_sake(subject: str, request: str = "") -> bool:
    """Whether a subject asked with no listeners reads as a hobby or a how-to for anyone ("手冲咖啡入门", "如何养多肉植物"),
    not a school subject or skill, nor a thing of nature to learn about ("恐龙入门")."""
    beginners = _FOR_BEGINNERS.search(f"{subject} {request}") or _ONLY_BEGINNERS.search(f"{subject} {request}")
    if not (asks_how_to(subject) or beginners and not about_nature(topic_phrase(subject))):
        return False
    return not (_SCHOOL_WORK.search(subject) or about_maths(subject) or about_a_language(subject)
                or re.search(r"(?<![A-Za-z])" + _LANGUAGE_NAMES_EN + r"(?![A-Za-z])|[英法日德韩俄]语", subject, re.IGNORECASE) or _LEARNERS.search(subject)
                or _TRAINING.search(subject) or _AT_WORK.search(subject) or about_safety_at_work(subject))


# A verb of telling that opens the subject ("讲分数的加减法", "介绍光合作用") is how it is asked, not what. 讲 parted
# from what follows by a word taken out ("讲一下台风…" → "讲 台风…") is the verb, whatever word comes next.
_TELLING_ZH = re.compile(r"(?:^|(?<=\s))(?:讲解|讲述|讲授|讲讲|讲一讲|讲一下|介绍一下|介绍|说说|说一说|聊聊|聊一聊|谈谈|谈一谈|"
                         r"科普一下|科普|讲(?![座台义究话师堂稿课]))\s*(?=\S)")


# 讲 before 台, 座, 义… is left by _TELLING_ZH, as 讲台, 讲座, 讲义 are words ("讲座：…"); but in "讲台风" it is the verb
# and 台风 the subject. Word segmentation tells them apart: 讲 cut off as a word of its own is the verb.
_JIANG_BEFORE_A_WORD_ZH = re.compile(r"(?:^|(?<=\s))讲(?=[座台义究话师堂稿课][\u3400-\u9fff])")


def _told_by_jiang_dropped(text: str) -> str:
    match = _JIANG_BEFORE_A_WORD_ZH.search(text)
    if not match:
        return text
    import jieba  # loaded only for such a request, not on import
    clause = re.match(r"[\u3400-\u9fff]+", text[match.start():]).group(0)
    words = jieba.lcut(clause, HMM=False)
    return text[:match.start()] + text[match.end():] if words and words[0] == "讲" else text


def _without_sizes(text: str) -> str:
    """The request without its duration and slide count: "8页", "半个小时", "10 slides" are not the subject."""
    text = _LENGTH_SAID.sub(lambda m: " " if any(m.groupdict().values()) else m.group(0), text)
    return _SLIDE_COUNT_EN.sub(" ", _SLIDE_COUNT_ZH.sub(" ", text))


# A length goes with the word that leads it ("in 15 minutes", "for half an hour"): "French Revolution in" was a title.
_LENGTH_SAID = re.compile(r"(?:\b(?:in|for|within|lasting|of)\s+(?:about\s+|around\s+|roughly\s+|under\s+)?)?"
                          r"(?:" + _DURATION.pattern + ")", re.IGNORECASE)


def core_topic(text: str) -> str:
    """The subject of a request with the asking words taken out ("做一个关于光合作用的PPT" → "光合作用")."""
    welcome = orientation_title(text)
    # "Onboarding for new engineers" names its occasion and no place: titled as asked, below
    if welcome and (welcome_kind(text)[1] or not _BARE_OCCASION_EN.fullmatch(_subject_of(text))):
        return welcome
    subject = _subject_of(text) or text.strip()
    # "A 20 minute training for new lifeguards" names no subject but the occasion: it is the listeners' training,
    # titled with them ("Training for new lifeguards"), not "Training" alone.
    bare = _BARE_OCCASION_EN.fullmatch(subject)
    audience = bare and audience_hint(text)
    if audience:
        return f"{capitalised(bare.group('occasion'))} for {_LISTENERS_PLACE_END_EN.sub('', audience)}"
    return subject


_BARE_OCCASION_EN = re.compile(r"(?:(?:short|quick|brief|half-day|one-day|full-day)\s+)?(?P<occasion>(?:training|onboarding|"
                               r"orientation|induction|workshop|session|briefing|refresher)(?:\s+(?:session|course|day))?)", re.IGNORECASE)
_LISTENERS_PLACE_END_EN = re.compile(r"\s+(?:at|in|from)\s+.*$", re.IGNORECASE)


# "主题是双减政策" / "入职培训：信息安全" / "周一安全早会：夏季防暑" / "Onboarding training on information security": the
# occasion frames the request and the subject follows it.
_NAMED_SUBJECT_ZH = re.compile(r"(?:主题|题目|话题)\s*(?:是|为|[:：])\s*(?P<subject>[^，,。；;！!？?\n]{2,30})")
_OCCASION_ZH = re.compile(r"(?:发布会|培训|讲座|分享|分享会|班会|家长会|汇报|宣讲|演讲(?:比赛|稿)?|公开课|课|读书报告|读书笔记|读后感|书评|(?:早|晨|例|周|班前|班后|安全)会)\s*[:：]\s*(?P<subject>[^，,。；;！!？?\n]{2,30})")
# The listeners after "to" are a few words with no "to" of their own: in "How to give feedback to junior developers"
# they are "junior developers", not "give feedback to junior developers" (which left "How" as the subject).
_TOLD_TO = (r"\s+to\s+(?:the\s+|our\s+|my\s+)?(?P<audience>(?:" + _GATHERING_OF_EN + r")?(?:(?!\bto\b)[a-z0-9 \-])*?"
            + _LISTENER_PHRASE_EN + r")\b")
# "Teach 8th graders how vaccines work", "Explain to my team how OKRs work", "Show new hires how our deploy pipeline
# works", "Introduce first-year students to the library": the listeners named right after the verb of telling are
# the audience (a few words ending in a word for people, or any few words before "how"/"about"), the rest the subject.
_NOT_LISTENER_WORD = r"(?!(?:me|us|how|what|why|when|where|which|about|on|of|to|in|for|with|through|the\s+basics)\b)"
_TOLD_WHOM_EN = re.compile(
    r"^\W*(?:(?:please|pls|plz|i\s+(?:want|need|would\s+like|'d\s+like)\s+to|let's)\s+)?"
    r"(?:(?:explain|present|describe|introduce|show|talk)\s+to|teach|show|tell|brief|train|walk|help|introduce|remind|"
    r"coach|guide)\s+(?P<audience>(?:" + _GATHERING_OF_EN + r")?(?:" + _NOT_LISTENER_WORD + r"[\w'-]+\s+){0,4}?" + _LISTENER_PHRASE_EN + r"|"
    + _NOT_LISTENER_WORD + r"[\w'-]+(?:\s+" + _NOT_LISTENER_WORD + r"[\w'-]+){0,2}(?=\s+(?:how|about|what|why)\b))"
    r"\s+(?:(?:about|on|in|through|to|with|understand|learn|grasp|master)\s+)?(?=\S)", re.IGNORECASE)
# "教初二学生疫苗是怎么起作用的", "向家长介绍孩子的营养": 教 (not 教育, 教学, 教材…) and 向 or 跟 before a verb of telling
# name the listeners, who are the audience and not part of the subject.
_LISTENER_NOUNS_ZH = (r"(?:学生们|学生|同学们|同学|孩子们|孩子|小朋友们|小朋友|宝宝们|宝宝|幼儿|朋友们|朋友|家长们|家长|父母|爸妈|老年人|老人|"
                      r"新员工|员工|同事们|同事|新人|大家|团队|用户|客户|老师们|老师|教师|学员|人员|居民|村民|市民|群众|"
                      r"患者|病人|顾客|游客|读者|观众|听众|志愿者|"
                      # and those named by their job ("给新入职的客服做…", "给夜班的护士讲…")
                      + "|".join(JOBS_ZH) + r"|生|们|"
                      # and any job named by its -师 or -员 ("咖啡师", "药剂师", "收银员", "快递员")
                      r"师|员)")
# Listeners named with 的 ("给五年级的孩子们讲…", "面向高一的同学们"): the 的 is inside whom it is for, not where
# they end; it is held while the audience and the subject are read apart, so neither stops at it.
_LISTENERS_OF_ZH = re.compile(r"(面向|针对|[给为向跟教])([^，,。；;\s的讲介做]{1,8})的(?=[^，,。；;\s的讲介做]{0,4}?" + _LISTENER_NOUNS_ZH
                              + r"们?(?:讲|介绍|说说|聊聊|谈谈|做|上|[，,。；;]|$))")  # "给小区的老人们讲…"
_HELD_DE = "\ue00e"


def _listeners_held(text: str) -> str:
    return _LISTENERS_OF_ZH.sub(lambda m: m.group(1) + m.group(2) + _HELD_DE, text)


_TOLD_WHOM_ZH = re.compile(r"(?<![^\s，,。；;请要想我来])(?:教(?:给|会)?(?![育材案程师室堂训授练]|学(?!生))"
                           r"(?P<audience>[^\s，,。；;的]{0,10}?" + _LISTENER_NOUNS_ZH + r")"
                           r"|(?:向|跟)(?P<audience2>[^\s，,。；;的讲介]{0,10}?" + _LISTENER_NOUNS_ZH + r")(?=讲|介绍|说说|聊聊|谈谈))")
_TOLD_TO_EN = re.compile(_TOLD_TO, re.IGNORECASE)
# Whom it is for as a clause of its own ("…的8分钟课件，给小学五年级", "光合作用10分钟PPT，给初二学生"): a clause that is
# only 给/面向/针对/适合 and listeners (ending in a word for people or a school year) is no part of the subject.
# A clause of its own: after a comma, a space ("为什么要刷牙 给二年级的小朋友", as `ng ppt` joins its words) or a bracket.
# The brackets are read held (_held: \ue006 \ue007 \ue008 \ue009) or as typed (audience_hint).
_AUDIENCE_CLAUSE_ZH = re.compile(r"(?:^|(?<=[，,。；;\s（(\ue006\ue008]))\s*(?:给|面向|针对|适合)[^，,。；;！!？?（()）\ue006-\ue009]{0,10}?"
                                 r"(?:" + _LISTENER_NOUNS_ZH + r"|年级|初[一二三]|高[一二三]|大[一二三四]|小学|初中|高中|大学)"
                                 r"\s*(?=[，,。；;！!？?）)\ue007\ue009]|$)")
_SUBJECT_END_EN = (r"(?P<subject>[^,.;:!?\n]{2,60}?)(?=\s+" + _FOR_LISTENERS_SPAN_EN + "|" + _TOLD_TO.replace("?P<audience>", "?:")
                   + r"|[,.;:!?\n]|$)")
_OCCASIONS_EN = tuple(re.compile(pattern + _SUBJECT_END_EN, re.IGNORECASE) for pattern in (
    r"\b(?:topic|subject|theme)\s*(?:is\s*:?|:)\s*",
    r"^\W*(?:explain|teach|introduce|present|cover|describe|tell|brief|update)\b[^,.;:!?]*?\s+(?:about|on)\s+",
    # ("a class of Year 6 students" is who listens, not a class about them)
    r"^[^,.;:!?]*?\b(?:(?:talk|lecture|lesson|training|workshop|session|seminar|webinar|masterclass|tutorial|speech|"
    r"keynote|assembly|briefing|refresher|overview|deck|slides|presentation|ppt)\s+(?:about|on|of)|class\s+(?:about|on))\s+",
    r"^[^,.;:!?]*?\bintro(?:duction)?\s+to\s+",
    # "Beginner's guide to sourdough baking": the guide is the deck, sourdough baking its subject
    r"^[^,.;:!?]*?\b(?:beginners?(?:['’\ue001]s|s['’\ue001]|['’\ue001])?|absolute\s+beginners?(?:['’\ue001]s?)?)\s+guide\s+to\s+",
    # "a science talk for kids: why is the sky blue?", "Onboarding for new hires: our security basics": the occasion,
    # or whom it is for, then its subject after the colon
    r"^[^,.;:!?]*?\b(?:talk|lecture|lesson|class|training|workshop|session|seminar|briefing|presentation|deck|"
    r"onboarding|orientation|induction|kick-?off|tour|launch|(?:parents['’\ue001]?|open)\s+(?:evening|meeting|night|day))\b"
    r"[^,.;:!?]*:\s*",
    # only when nothing but asking words, the occasion and when it is comes before "for" ("Quarterly update for the
    # board: hiring plans"): "Q3 results review for the board: what went well" is about the Q3 results, and the
    # part after the colon is its own.
    r"^\W*(?:(?:please|pls|plz|make|create|generate|build|do|give|prepare|me|us|a|an|the|some|one|my|our|short|quick|"
    r"brief|new|deck|slides?|presentation|ppt|something|content|materials?|update|review|report|briefing|meeting|"
    r"sync|check-in|recap|quarterly|monthly|weekly|annual|yearly|daily|mid-year|year-end|q[1-4]|h[12]|fy\d{2,4}|"
    r"\d{4})\s+)*for\s+[^,.;:!?]+:\s*",
    r"^[^,.;:!?]*?\b(?:make|do)\s+(?:it|one|this|that)\s+(?:about|on)\s+",
))
# "Present" is a tense's name too ("Present perfect vs past simple"), then no verb of telling.
# The occasion said after the subject ("My grandma's recipes: a talk at the village hall", "…, a short lesson for Year 4")
# and a way of asking for it simple ("Explain blockchain like I'm five") are not the subject either.
# So is an update or a review said so after a dash ("Migrating billing to Kubernetes - a 15 minute update for engineering").
_OCCASION_AFTER_EN = re.compile(r"(?:\s*[:,]|\s+[–—-])\s*(?:(?:a|an|the|my|our)\s+)?(?:(?:short|quick|brief|little)\s+)?(?:talk|lecture|"
                                r"lesson|presentation|workshop|session|webinar|assembly|keynote|speech|(?:status\s+|progress\s+)?update|"
                                r"briefing|walkthrough|demo)\b[^:;!?]*$"
                                r"|\s+(?:like|as\s+if)\s+(?:i|you)(?:['’\ue001]m|['’\ue001]re|\s+am|\s+are|\s+were)\s+(?:five|5)\b",
                                re.IGNORECASE)
_LISTENERS_BEFORE_SUBJECT_EN = re.compile(r"\s+" + _FOR_LISTENERS_SPAN_EN + r"(?=\s+(?:on|about)\s)", re.IGNORECASE)
_TENSE_AFTER_PRESENT = r"(?!\s+(?:perfect|simple|continuous|progressive|tense|participle)\b)"
_TELLING_EN = re.compile(r"^\W*(?:explain|teach|introduce|present" + _TENSE_AFTER_PRESENT + r"|cover|describe)\s+", re.IGNORECASE)
_TAUGHT_EN = re.compile(r"^\W*teach\s+(?P<audience>[a-z0-9 \-]{2,40}?)\s+(?:about|how)\b", re.IGNORECASE)


# A reply opens and closes like speech ("好的，那就讲讲…", "OK, … then", "then make it about …"); that is not
# the subject. "好的"/"OK" count only before a pause, "那就"/"就" only before a verb of asking ("行星", "so-called" stay).
_REPLY_OPENER_ZH = re.compile(r"^\s*(?:(?:好的|好吧|好啊|好|嗯+|行|可以|那好|ok|okay)\s*(?:[，,。.!！~]\s*|$))*"
                              r"(?:(?:那就|那么|那|就)(?=讲|说|聊|谈|介绍|科普|来))?", re.IGNORECASE)
_REPLY_OPENER_EN = re.compile(r"^\W*(?:(?:ok(?:ay)?|sure|yes|yeah|well|alright|all right|fine|then|so)\s*(?:[,!.]+\s*|$))+",
                              re.IGNORECASE)
_REPLY_CLOSER_EN = re.compile(r"[\s,]+then\W*$", re.IGNORECASE)


# A full stop or an apostrophe between two letters or digits is part of a word ("Node.js", "Python 3.12",
# "Newton's"), not the end of a clause: it is held as a private-use character while clauses are cut.
_IN_WORD = re.compile(r"(?<=\w)[.'’](?=\w)")
# So is the full stop that closes an abbreviation: initials ("U.S.", "D.C.", "e.g.") and the short words written
# with one ("Dr.", "St.", "vs."): "the U.S. Constitution" is one subject, not "U.S" and a new clause.
_ABBREVIATION = re.compile(r"(?<![A-Za-z0-9.])(?:[A-Za-z]\.){2,}|(?<![A-Za-z])(?:Mr|Mrs|Ms|Dr|Prof|St|Mt|Ft|Jr|Sr|Gen|Col|Lt|Rev|vs|etc|approx)\.")
# A dot that opens a name (".NET", ".gitignore"), a dash in a span ("1789–1799") and a pair of brackets round a
# part of the subject ("(1789–1799)", "（北京）") are the subject's own too; a pair left empty once the asking
# words are out ("光合作用（10分钟）") goes.
_NAME_DOT = re.compile(r"(?<![\w.])\.(?=[A-Za-z])")
_SPAN_DASH = re.compile(r"(?<=\w)–(?=\w)")
_BRACKETED = re.compile(r"\(([^()]*)\)|（([^（）]*)）")
_HELD = {".": "\ue000", "'": "\ue001", "’": "\ue002", "–": "\ue003", "(": "\ue006", ")": "\ue007", "（": "\ue008",
         "）": "\ue009", "的": _HELD_DE}
_EMPTY_BRACKETS = re.compile("\ue006[\\s\ue000-\ue005]*\ue007|\ue008[\\s\ue000-\ue005]*\ue009")
# "How to talk to toddlers about feelings", "How to explain death to children": after a how-to's verb of saying or giving,
# "to" names whom the skill is used with, who are part of the subject and not the deck's listeners (who use it). Its
# "to" is held as one character while the request is read, so no rule for "to <listeners>" takes them.
_RECIPIENT_TO = "\ue010"
_RECIPIENT_VERBS_EN = (r"talk|speak|chat|explain|read|give|say|write|sing|show|teach|present|describe|introduce|pitch|sell|"
                       r"deliver|break|announce|communicate|respond|reply|apologi[sz]e|listen|tell|send|offer|lend|sign|"
                       r"reach\s+out|open\s+up|mention|recommend|report|be\s+kind|be\s+nice")
_RECIPIENT_AFTER_HOW_TO_EN = re.compile(r"(\bhow\s+to\s+(?:" + _RECIPIENT_VERBS_EN + r")\b(?:\s+(?!to\b)[\w'’\ue001\ue002-]+){0,4}?\s+)to(?=\s)",
                                        re.IGNORECASE)


def _recipient_held(text: str) -> str:
    return _RECIPIENT_AFTER_HOW_TO_EN.sub(lambda m: m.group(1) + _RECIPIENT_TO, text)


_RELEASED = str.maketrans({**{v: k for k, v in _HELD.items()}, _RECIPIENT_TO: "to"})


def _bracketed(match: re.Match) -> str:
    wide = match.group(2) is not None
    inner = match.group(2) if wide else match.group(1)
    return _HELD["（" if wide else "("] + inner + _HELD["）" if wide else ")"]


def _held(text: str) -> str:
    text = _listeners_held(text)
    text = _ABBREVIATION.sub(lambda m: m.group(0).replace(".", _HELD["."]), text)
    text = _NAME_DOT.sub(_HELD["."], _BRACKETED.sub(_bracketed, text))
    text = _SPAN_DASH.sub(lambda m: _HELD[m.group(0)], text)
    return _recipient_held(_IN_WORD.sub(lambda m: _HELD[m.group(0)], text))


def _released(text: str) -> str:
    return re.sub(r"\s+", " ", _EMPTY_BRACKETS.sub(" ", text)).strip().translate(_RELEASED)


def _subject_of(text: str) -> str:
    """What is left of a request once the asking words are out; empty when it names no subject."""
    text, phrases = _latin_phrases_held(text)
    return _latin_phrases_released(_released(_subject_of_held(_held(text))), phrases)


# English words with spaces between them inside a Chinese request ("给high school students讲光合作用", "介绍machine
# learning") are one phrase: Chinese is read as a run of characters up to a space, so each phrase is held as two
# characters while the request is read, and set back after.
_LATIN_PHRASE = re.compile(r"[A-Za-z][A-Za-z0-9'’.-]*(?:[ \t]+[A-Za-z0-9][A-Za-z0-9'’.-]*)+")
_PHRASE_MARK = "\uf0ff"


def _latin_phrases_held(text: str) -> tuple[str, list[str]]:
    if not CJK.search(text or ""):
        return text, []
    phrases = _LATIN_PHRASE.findall(text)[:200]
    spans = iter(range(len(phrases)))
    held = _LATIN_PHRASE.sub(lambda m: chr(0xF000 + next(spans)) + _PHRASE_MARK, text, count=200)
    # a space between Chinese and an English phrase ("面向 high school students") is only typing: Chinese is read
    # without spaces, and a space there cut whom it is for off from 面向
    return _SPACE_BY_PHRASE.sub("", held), phrases


_SPACE_BY_PHRASE = re.compile(r"(?<=[\u3400-\u9fff])[ \t]+(?=[\uf000-\uf0fe]" + _PHRASE_MARK + r")|(?<="
                              + _PHRASE_MARK + r")[ \t]+(?=[\u3400-\u9fff])")


# Set back, a phrase is set off from the Chinese beside it by one space, as Chinese typesetting writes it ("machine
# learning 的基本原理", not "learning的").
_PHRASE_BY_CHINESE = re.compile(r"(?<=[\u3400-\u9fff])(?=[\uf000-\uf0fe]" + _PHRASE_MARK + r")|(?<="
                                + _PHRASE_MARK + r")(?=[\u3400-\u9fff])")


def _latin_phrases_released(text: str, phrases: list[str]) -> str:
    if not phrases:
        return text
    text = _PHRASE_BY_CHINESE.sub(" ", text)
    return re.sub("([\uf000-\uf0fe])" + _PHRASE_MARK, lambda m: phrases[ord(m.group(1)) - 0xF000], text)


# A clause that narrows the lesson ("Teach Hamlet, focusing on the plot and characters", "…, with an emphasis on
# vocabulary", "…，重点讲父亲的形象") says what to stress (focus_of), not what the deck is called.
_FOCUS_EN = re.compile(r"\s*[,;:(—–-]?\s*\b(?:focus(?:s)?ing|concentrating|centred|centered|with\s+(?:an?\s+|special\s+)?"
                       r"(?:focus|emphasis)|(?:and\s+)?(?:especially|particularly|mainly|chiefly))\s+(?:on|upon)\b(?P<focus>.*)$",
                       re.IGNORECASE)
_FOCUS_ZH = re.compile(r"\s*[，,；;。]\s*(?:请|要)?(?:重点|侧重|着重)(?:讲解|讲讲|讲|放在|介绍|分析|于|在|是)?(?P<focus>[^。；;]*)$")


def focus_of(request: str) -> str:
    """What a request asks the lesson to stress ("…, focusing on the plot and characters" → "the plot and characters",
    "…，重点讲父亲的形象" → "父亲的形象"); empty when it names nothing."""
    match = (_FOCUS_ZH if language_of(request) == "zh" else _FOCUS_EN).search(request or "")
    return match.group("focus").strip(" .。") if match else ""


def _subject_of_held(text: str) -> str:
    if language_of(text) == "zh":
        text = _FOCUS_ZH.sub("", _REPLY_OPENER_ZH.sub("", text))
        named = _NAMED_SUBJECT_ZH.search(text) or _OCCASION_ZH.search(text)
        if named:
            text = named.group("subject")
        text = _COURSE_HEADER_ZH.sub("", _LISTENERS_LEAD_ZH.sub("", text), count=1)
        stripped = _AUDIENCE_SPAN_ZH.sub(" ", _TOLD_WHOM_ZH.sub(" ", _CLASS_ZH.sub(" ", _without_sizes(text))))
        stripped = _AUDIENCE_CLAUSE_ZH.sub(" ", stripped)
        stripped = _FILLER_ZH.sub(" ", stripped)
        # Quotation marks go without leaving a gap ("关于“双减”政策" → 双减政策); a work's 《》 is part of its name, and so
        # are the marks round one character the lesson is about ("虚词“之”的用法": 之的用法 reads as no word).
        stripped = re.sub(r"“([\u3400-\u9fff])”", "\ue00b\\1\ue00c", stripped)
        stripped = re.sub(r"[“”\"'‘’「」『』]", "", stripped).replace("\ue00b", "“").replace("\ue00c", "”")
        stripped = _SUBTITLE_COLON.sub(_COLON_KEPT, stripped)
        stripped = re.sub(r"[，,。.!！?？:：;；()（）]", " ", stripped)
        stripped = _told_by_jiang_dropped(_TELLING_ZH.sub("", re.sub(r"\s+", " ", stripped).strip()))
    else:
        text = _FOCUS_EN.sub("", _REPLY_CLOSER_EN.sub("", _REPLY_OPENER_EN.sub("", _without_sizes(text))))
        text = _TOLD_WHOM_EN.sub("", _OCCASION_AFTER_EN.sub("", text), count=1)
        text = _SCHOOL_YEAR_HEADER_EN.sub("", text, count=1)  # "Year 6: volcanoes", "Grade 5 science - fractions"
        text = _SCHOOL_YEAR_TAIL_EN.sub("", _COURSE_HEADER_EN.sub("", text, count=1))  # "Primary school maths: …, year 2"
        # whom it is for, between the occasion and its subject ("A webinar for parents on screen time"), is neither
        text = _LISTENERS_BEFORE_SUBJECT_EN.sub("", text, count=1)
        named = next((m for m in (pattern.search(text) for pattern in _OCCASIONS_EN) if m), None)
        # an occasion's subject said as a list ("A 10 minute training on how we store raw meat, label leftovers and clean
        # the grill") runs past its commas: it was cut to "how we store raw meat"
        if named and text[named.end("subject"):].startswith(",") and _SERIES_EN.search(text[named.start("subject"):]):
            held = text[:named.start("subject")] + re.sub(r"(?<=\w),(?=\s+\w)", _SERIES_COMMA, text[named.start("subject"):])
            named = next((m for m in (pattern.search(held) for pattern in _OCCASIONS_EN) if m), named)
        text = (named.group("subject").rstrip(_SERIES_COMMA + " ") if named
                else _TOLD_TO_EN.sub(" ", _TELLING_EN.sub("", text)))
        work = _names_a_work(_FILLER_IN_WORK_EN.sub(" ", text))  # its name without "for 11th graders" and the like
        stripped = _SUBTITLE_COLON.sub(_COLON_KEPT, (_FILLER_IN_WORK_EN if work else _FILLER_EN).sub(" ", text))
        # one word quoted inside the subject is the word the lesson is about ("Phrasal verbs with 'get'"): its marks stay
        if not re.fullmatch(r"\W*['\"‘“]\w+['\"’”]\W*", stripped):
            stripped = re.sub(r"(?<!\w)['\"‘“](\w+)['\"’”](?!\w)", "\ue00b\\1\ue00c", stripped)
        # a list of things ("how we store raw meat, label leftovers and clean the grill") keeps its commas
        if _SERIES_EN.search(stripped):
            stripped = re.sub(r"(?<=\w),(?=\s+\w)", _SERIES_COMMA, stripped)
        stripped = re.sub(r"[,.!?:;\"'()—–]", " ", stripped).replace("\ue00b", "‘").replace("\ue00c", "’")
        stripped = stripped.replace(_SERIES_COMMA, ",")
        # "The Napoleonic Wars" reads as well without its article; "On the Origin of Species" does not without its "On",
        # nor "The Great Gatsby" without its "The".
        if not _keeps_its_article(stripped) and _set_text_name(stripped) not in _SET_TEXTS_EN:  # "A Christmas Carol"
            stripped = re.sub(r"^\s*(?:a|an|the)\s+", "", stripped, flags=re.IGNORECASE)
    stripped = re.sub(r"\s+", " ", stripped).strip()
    # "蚂蚁是怎么找到回家的路的" needs its closing 的 ("…是怎么找到回家的路" breaks off); a 的 left by the asking
    # words ("关于光合作用的") goes
    stripped = stripped.strip(" 的") + ("的" if _HOW_IT_WAS_DONE_ZH.search(stripped) else "")
    return stripped.replace(_COLON_KEPT, "：" if language_of(text) == "zh" else ": ")


# Three or more things said as a list: "a, b and c" ("fractions, decimals and percentages").
_SERIES_EN = re.compile(r"^[^,]*\w,\s+(?:[^,\s]+\s+){0,5}?[^,\s]+(?:,\s+(?:[^,\s]+\s+){0,5}?[^,\s]+)*,?\s+(?:and|or)\s+\w[^,]*$",
                        re.IGNORECASE)
_SERIES_COMMA = "\ue011"


_HOW_IT_WAS_DONE_ZH = re.compile(r"是(?:怎么|怎样|如何)[\u3400-\u9fff]{2,}的$")


# A colon between two parts of the subject ("Photosynthesis: how plants make food", "光合作用：植物如何制造食物")
# is the title's own; one that ends or opens the request is not.
_SUBTITLE_COLON = re.compile(r"(?<=\w)\s*[:：]\s*(?=\w)")
_COLON_KEPT = "\ue00a"


def names_a_topic(request: str) -> bool:
    """Whether a request names something to make a deck about: a word is left once the asking words are
    out ("做一个PPT", "make a deck", "🎉🎉" name nothing, nor does a number alone: "1", "42"), and not only
    keys typed to try the box ("x", "asdf", "哈哈哈": a deck titled "X: key terms" teaches nothing) nor a greeting or a
    word for trying it ("hi there", "你好", "test", "测试一下": a deck titled "Test" teaches nothing either)."""
    if welcomes_newcomers(request):  # newcomers with no subject are welcomed into the place or group they join
        return True
    words = re.findall(r"[^\W\d_]+", _subject_of(request))
    return any(not is_keyboard_noise(word) and not is_small_talk(word) for word in words)


MAX_TITLE = 40  # characters of a Chinese title: the deck title, the cover and the file name
# English says as much in more characters: "Martin Luther King Jr. and the civil rights movement" (52) is one title.
MAX_TITLE_EN = 64


def title_limit(title: str) -> int:
    return MAX_TITLE if language_of(title) == "zh" else MAX_TITLE_EN


def fitted_title(title: str) -> str:
    """A title within its limit; English is cut between words ("…and the civil rig" named no movement)."""
    return clip(title, title_limit(title))
_SUBJECT_ZH = re.compile(
    r"(?:关于|有关|以)\s*(?P<subject>[^，,。；;！!？?\n]{1,30}?)\s*(?:为主题|为题|的?(?:PPT|课件|公开课|课程|一节课|一堂课|课|演示|幻灯片|讲座|演讲|宣讲|报告|分享|汇报|培训|班会)|[，,。；;！!？?\n]|$)",
    re.IGNORECASE,
)
_SUBJECT_EN = re.compile(r"\b(?:about|on)\s+(?P<subject>[^,.;:!?\n]{2,60}?)(?:\s+" + _FOR_LISTENERS_SPAN_EN
                         + r"|\s+to\b|[,.;:!?\n]|$)", re.IGNORECASE)
_CLAUSE = re.compile(r"[，,。.；;！!？?\n]+")


def short_title(request: str) -> str:
    """The deck's title: the subject of the request, within title_limit.

    A short request is its own topic; a long one (a teacher's paragraph of wishes) names its subject
    once ("关于浮力的公开课", "a lesson about volcanoes"), else its first clause stands for it."""
    topic = core_topic(request)
    zh = language_of(request) == "zh"
    match = (_SUBJECT_ZH if zh else _SUBJECT_EN).search(_held(request))
    subject = core_topic(match.group("subject").translate(_RELEASED)) if match else ""
    # A Chinese request that names its subject with 关于 says what the deck is about, however much else it says
    # ("我下周要给全校师生做一个关于垃圾分类的演讲，要生动一点" is about 垃圾分类).
    if zh and names_a_topic(subject):
        return as_asked(fitted_title(subject), request)
    if len(topic) <= title_limit(topic):
        return as_asked(topic, request)
    if not subject and _SERIES_EN.search(topic):  # a list's commas are the subject's own: cut between words
        subject = topic
    if not subject:
        subject = next((c.strip() for c in _CLAUSE.split(_held(topic)) if c.strip()), topic).translate(_RELEASED)
    return as_asked(fitted_title(subject), request)


def as_asked(title: str, request: str) -> str:
    """A subject the request asks with a question mark titles the deck as the question it is, with the 的 that closes a
    Chinese question and its mark ("为什么天空是蓝色的？", "Why do leaves change colour in autumn?"); any other title is
    unchanged ("为什么天空是蓝色的" without the mark is said as its subject, 为什么天空是蓝色)."""
    asked = re.search(re.escape(title) + r"(?P<end>的?\s*[?？])", request) if _ASKING.search(title) else None
    if asked is None or len(title) + len(asked.group("end")) > title_limit(title):
        return title
    return title + re.sub(r"\s+", "", asked.group("end"))


# A title that is itself a question, not a subject a request asked for with a "?" ("…about photosynthesis?" is titled
# "Photosynthesis"): an English one opens with a question word, a Chinese one has one.
_ASKING = re.compile(r"^(?:how|why|what|when|where|who|which|whose|is|are|was|were|do|does|did|can|could|should|will|"
                     r"would|has|have)\b|为什么|为何|怎么|怎样|如何|什么|哪|谁|多少|是否|能否|吗$|呢$", re.IGNORECASE)


_ASKED_END = re.compile(r"的?\s*[?？]+$")


def unasked(topic: str) -> str:
    """A title asked as a question said as its subject, to set inside a sentence ("为什么天空是蓝色的？" → "为什么天空是蓝色",
    "Why is the sky blue?" → "Why is the sky blue")."""
    return _ASKED_END.sub("", topic.strip())


def thread_title(message: str) -> str:
    """The thread's name in the list: the subject the deck is titled by, without emoji or symbols (a message
    led by "🌋" is named by its words); a message naming no subject ("🎉", "做一个PPT") makes no deck, so the
    thread has the placeholder until a message that does."""
    read = understood(message)  # Traditional read as Simplified, the title given back as the user wrote it
    title = as_written(message, capitalised(plain(short_title(plain(read)))))
    return title if names_a_topic(read) and any(c.isalnum() for c in title) else t(UNTITLED_THREAD)


UNTITLED_THREAD = "ppt.untitled_thread"


_UNSAFE_IN_FILE_NAMES = re.compile(r'\s*[\\/:*?"<>|\x00-\x1f]+[\s\\/:*?"<>|\x00-\x1f]*')


def capitalised(text: str) -> str:
    """Text set as a title: its first letter upper case ("history of the bicycle" → "History of the bicycle"),
    unless its first word carries capitals of its own ("iPhone", "eBay"); Chinese is unchanged."""
    first = text.split(" ", 1)[0]
    return text if first[1:] != first[1:].lower() else text[:1].upper() + text[1:]


# A subject asked as a question ("疫苗是怎么起作用的", "为什么天空是蓝色的", "how vaccines work") or told as a thing to do
# ("Write better commit messages") titles the deck as written; inside a sentence ("…的发展趋势", "the applications of
# …", "today we learn about …") it is said as the noun phrase it stands for.
_WHAT_ZH = re.compile(r"^(?:什么是(?P<a>.+)|(?P<b>.+?)是什么)$")
_WHY_ZH = re.compile(r"^(?P<who>.*?)为什么(?P<what>.+)$")
_WHY_ZH_EXISTS = re.compile(r"^(?:会|要)?(?:有|出现|产生|形成)(?=\w{2})")
_WHY_ZH_VERBS = re.compile(r"^(?:(?:会|要)?(?:有|出现|产生|形成)|会|要)(?=\w{2})")
_HOW_ZH = re.compile(r"^(?P<who>.*?)(?P<is>是)?(?:怎么|怎样|如何)(?P<what>.+?)的?$")
# What a thing does by itself ("起作用", "形成", "飞上天") is told by how it works (原理), not by a method (方法).
# ("番茄工作法", "运动法" are methods a person uses: 法 after the verb makes it a noun)
_WORKINGS_ZH = re.compile(r"(?:起作用|作用|工作|运作|运转|运行|形成|产生|发生|出现|演变|进化|变化|传播|实现|发电|飞|动|长大)(?!法)")
_WH_EN = re.compile(r"^(?:how|why)\s+(?:(?:do|does|did|is|are|was|were|can|could|will|would)\s+)?(?P<clause>.+?)\??$",
                    re.IGNORECASE)
_WHAT_EN = re.compile(r"^what\s+(?:is|are)\s+(?P<np>.+?)\??$", re.IGNORECASE)
_HOW_TO_EN = re.compile(r"^how\s+to\s+(?P<verb>[a-z]+)\b(?P<rest>.*?)\??$", re.IGNORECASE)
# Verbs a question's clause turns on ("how vaccines work", "how the migration went"): the words before it are its subject.
_CLAUSE_VERBS_EN = frozenset("""work works worked happen happens happened form forms formed function functions operate
operates go goes went grow grows grew move moves moved fly flies flew spread spreads change changes changed evolve evolves
evolved live lives die dies begin begins began start starts started end ends ended fail fails failed become becomes became
get gets got make makes made affect affects cause causes help helps keep keeps produce produces use uses learn learns
think thinks see sees hear hears feel feels fit fits stay stays survive survives travel travels turn turns fall falls
rise rises run runs ran win wins won lose loses lost""".split())
# Verbs that open a subject told as a thing to do ("Write better commit messages", "Build a birdhouse"): only those
# rarely a noun, so "Design patterns" and "Change management" stay what they are.
_IMPERATIVE_VERBS_EN = frozenset("""write make build get keep give take find fix save spend invest create draw speak learn
teach grow avoid prevent protect improve reduce choose negotiate prepare organise organize raise apply understand handle
manage lead run become stay start sell hire ask tell explain master boost deal cope beat overcome resolve
deliver""".split())
_DETERMINERS_EN = frozenset("a an the our your my their his her its this that these those".split())



# "Running effective meetings", "Writing clear emails": a thing to do said as a gerund.
_GERUNDS_EN = frozenset(gerund_en(verb) for verb in _IMPERATIVE_VERBS_EN | _CLAUSE_VERBS_EN)


# At work "how we handle refunds", "how our team ships releases" is the way we (or you, or our team) do a thing, said
# as its gerund ("handling refunds"); "we" is no thing whose rules a deck explains ("the rules for we handle"). In a
# class "how we digest food" is how a body works, so only a deck told at work reads it so.
_OUR_WAY_EN = re.compile(r"^how\s+(?:(?:do|can|should)\s+)?(?P<who>we|you|i|our\s+[\w-]+)\s+(?P<verb>[a-z]+)\s+(?P<rest>\S.*?)\??$",
                         re.IGNORECASE)
_BE_EN = frozenset("am is are was were be".split())


def our_way_of_doing_en(text: str) -> str | None:
    """"how we handle refunds" → "handling refunds"; None for a subject not said so."""
    match = _OUR_WAY_EN.match(text.strip())
    verb = match.group("verb").lower() if match else ""
    if not match or verb in _BE_EN:
        return None
    rest = match.group("rest")
    if match.group("who").lower().startswith("our") and verb.endswith("s") and not verb.endswith("ss"):  # our team ships
        verb = _base_of_third_person(verb)
        # "…ships releases and fixes bugs": the verb after "and" is the team's too, said with its -s
        rest = _AND_A_THIRD_PERSON_VERB_EN.sub(lambda m: m.group(1) + gerund_en(_base_of_third_person(m.group(2))), rest)
    # "how we sort donations and keep food safe" is two things we do, both said so ("…and keeping food safe")
    return f"{gerund_en(verb)} {_verbs_after_and_as_gerunds(rest)}"


def _base_of_third_person(verb: str) -> str:
    if verb.endswith("ies") and len(verb) > 4:  # carries
        return verb[:-3] + "y"
    return verb[:-2] if verb.endswith(("ches", "shes", "sses", "xes", "zes")) else verb[:-1]


def _we_do_it_en(text: str) -> bool:
    """"how we store raw meat", "how you log a ticket": a way of doing trained at work; "how our team ships releases" is
    as often reported on (to the board) as trained."""
    match = _OUR_WAY_EN.match(text.strip())
    return bool(match and our_way_of_doing_en(text) and not match.group("who").lower().startswith("our"))


def _verbs_after_and_as_gerunds(text: str) -> str:
    return _AND_A_VERB_EN.sub(lambda m: m.group(1) + gerund_en(m.group(2)), text)


# The things a how-to names to do, two or three ("sorting donations and keeping food safe", "分拣捐赠物、保证食品安全"):
# each opens with a doing (an English gerund, a Chinese verb); a list of things ("苹果、香蕉") or one doing is none.
_ACTIONS_SPLIT_EN = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_ACTIONS_SPLIT_ZH = re.compile(r"、|，|并且|并|和|以及")


def _opens_a_doing_zh(word) -> bool:
    return word.flag[:1] in ("v", "a", "l") or word.word in ("用", "把", "给")


def actions_named(phrase: str) -> list[str]:
    """"sorting donations and keeping food safe" → ["sorting donations", "keeping food safe"]; [] for one thing to do."""
    text = re.sub(r"的?(?:方法|做法|技巧)$", "", phrase.strip())
    if CJK.search(text):
        parts = [part.strip() for part in _ACTIONS_SPLIT_ZH.split(text)]
        if not 2 <= len(parts) <= 3 or any(len(part) < 2 for part in parts):
            return []
        import jieba.posseg  # loaded only for such a subject
        # 清洁, 整理 are tagged as adjectives as often as verbs, 发红包 as a set phrase, and 用 (用微信视频通话) opens a doing
        # as a preposition: a doing opens with any of them, not with a thing (苹果)
        return parts if all(_opens_a_doing_zh(jieba.posseg.lcut(part, HMM=False)[0]) for part in parts) else []
    parts = [part.strip() for part in _ACTIONS_SPLIT_EN.split(text)]
    if not 2 <= len(parts) <= 3 or any(" " not in part for part in parts):
        return []
    return parts if all(re.fullmatch(r"[a-z]{2,}ing", part.split()[0].lower()) for part in parts) else []


# A verb after "and" in a way of working ("…and keep food safe", "…and label the boxes"): one of the verbs a subject is
# told by, or one of the hands-on verbs of a shift.
_SHIFT_VERBS_EN = frozenset("""sort label check clean store wash stack pack greet serve record report lift load unload
    count weigh sign log file stock restock fold cook prepare welcome register book answer""".split())
# and what a team does at its desk ("ships releases and fixes bugs", "plans sprints and tracks risks")
_WORK_VERBS_EN = frozenset("""ship review test deploy track plan release support update train onboard merge publish
    approve close triage monitor measure carry price schedule""".split())
_AND_A_VERB_EN = re.compile(r"(\band\s+|,\s+)(" + "|".join(sorted(_IMPERATIVE_VERBS_EN | _SHIFT_VERBS_EN, key=len, reverse=True)) + r")(?=\s+\w)", re.IGNORECASE)
# The same verbs said by a team ("our team ships releases and fixes bugs").
_AND_A_THIRD_PERSON_VERB_EN = re.compile(r"(\band\s+)((?:" + "|".join(sorted(
    {verb[:-1] + "ies" if verb.endswith("y") and verb[-2:-1] not in "aeiou" else verb + ("es" if verb.endswith(("ch", "sh", "s", "x", "z")) else "s")
     for verb in _IMPERATIVE_VERBS_EN | _SHIFT_VERBS_EN | _WORK_VERBS_EN}, key=len, reverse=True)) + r"))(?=\s+\w)", re.IGNORECASE)


def _clause_subject_en(clause: str) -> str | None:
    """The subject of a question's clause: the words before its verb ("vaccines work" → "vaccines", "the heart pumps
    blood" → "the heart"); None when no verb is found."""
    words = clause.split()
    cut = next((i for i, w in enumerate(words) if i and w.lower() in _CLAUSE_VERBS_EN), None)
    if cut is None:  # a verb's -s or -ed after a singular noun ("the heart pumps blood")
        cut = next((i for i, w in enumerate(words) if i and re.fullmatch(r"[a-z]+(?:s|ed)", w)
                    and words[i - 1].lower() not in _DETERMINERS_EN and not words[i - 1].lower().endswith("s")), None)
    if cut is None:  # a bare verb after a plural noun ("volcanoes erupt", "solar panels turn light into power")
        cut = next((i for i, w in enumerate(words) if i and re.fullmatch(r"[a-z]+", w) and not w.endswith("s")
                    and w not in _DETERMINERS_EN and not _PHRASE_BREAK_EN.fullmatch(f" {w} ")
                    and plural_subject(words[i - 1])), None)
    # "How do you make friends", "how we sort donations and keep food safe": a clause led by "you" or "we" names no
    # thing the lesson is about ("we sort donations and" was said as one)
    return " ".join(words[:cut]) if cut and words[0].lower() not in _PRONOUNS_EN | {"i"} else None


# A why or how question asked as the subject ("为什么要刷牙", "How do bees make honey?") is what a lesson on it answers:
# its titles and pages keep the question, set in a sentence's word order ("how bees make honey", "why the sky is blue");
# "刷牙原因的核心原理" and "the workings of bees" lost it. Only "do" goes and "is"/"are" moves behind a short subject
# ("why are polar bears white" → "why polar bears are white"); "does"/"did" go into the verb after a short subject
# ("why does the moon change shape" → "why the moon changes shape", "how did the Romans build roads" → "how the
# Romans built roads": "a guess at why does the moon change shape" read as a slip); a question that cannot be
# reordered so is kept as asked.
_EMBEDDABLE_EN = re.compile(r"^(?P<wh>how|why)\s+(?:(?P<aux>do|does|did|is|are|was|were)\s+)?(?P<rest>\S.*)$", re.IGNORECASE)
_PRONOUNS_EN = frozenset("it he she they we you people".split())
_IRREGULAR_PAST_EN = dict(pair.split(":") for pair in """be:was have:had do:did go:went come:came become:became fall:fell
make:made take:took get:got begin:began build:built grow:grew fly:flew break:broke win:won lose:lost leave:left find:found
give:gave run:ran sink:sank freeze:froze eat:ate know:knew see:saw say:said think:thought bring:brought buy:bought
fight:fought teach:taught catch:caught rise:rose spread:spread split:split keep:kept feel:felt meet:met lead:led
send:sent spend:spent hold:held stand:stood understand:understood write:wrote draw:drew wear:wore swim:swam
sing:sang ring:rang drink:drank shake:shook throw:threw blow:blew choose:chose speak:spoke steal:stole tell:told
sell:sold hide:hid bite:bit shine:shone light:lit set:set put:put cut:cut let:let hit:hit""".split())


def _third_person(verb: str) -> str:
    """"change" → "changes", "fly" → "flies", "catch" → "catches", "have" → "has"."""
    if verb == "have":
        return "has"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z", "o")) else "s")


def _past(verb: str) -> str:
    """"build" → "built", "stop" → "stopped", "die" → "died", "carry" → "carried"."""
    if verb in _IRREGULAR_PAST_EN:
        return _IRREGULAR_PAST_EN[verb]
    if verb.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):  # one short syllable: stop, plan
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _done_by_subject(words: list[str], aux: str) -> list[str] | None:
    """"does the moon change shape" → the moon changes shape; None when its subject is not short and plain (a pronoun,
    a name, an article and its noun, or one word before the last: "does ice float") or no verb follows it."""
    first = words[0]
    one_word = first.lower() in _PRONOUNS_EN or (first[:1].isupper() and first != "I") or len(words) == 2
    cut = 1 if one_word else _subject_length_en(words, False)
    if not cut or cut >= len(words) or not re.fullmatch(r"[a-z]+", words[cut]):
        return None
    if aux == "does" and first.lower() in ("they", "we", "you", "people"):
        return None
    verb = _third_person(words[cut]) if aux == "does" else _past(words[cut])
    return [*words[:cut], verb, *words[cut + 1:]]


# A common thing's story told as a lesson ("一滴水的旅行", "小种子的故事", "The story of a raindrop", "The journey of a
# water drop") follows it from where it starts to where it ends. A thing named with 一 or 小, or with "a", is any
# one of its kind: "the story of the Titanic" is a named thing's history, and a person's life a life.
_THINGS_STORY_ZH = re.compile(r"^(?:一|小)[\u3400-\u9fff]{1,5}的(?:旅行|旅程|故事|自述|奇遇|历险记?|一生|一天)$")
_THINGS_STORY_EN = re.compile(r"^(?:(?:the|a)\s+)?(?:story|journey|adventures?|travels?|life|(?:a\s+)?day\s+in\s+the\s+life)\s+of\s+"
                              r"(?:a|an|one)\s+(?:little\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?$", re.IGNORECASE)


def tells_a_things_story(subject: str) -> bool:
    text = unasked(subject)
    return bool(_THINGS_STORY_ZH.match(text) or _THINGS_STORY_EN.match(text))


def embedded_question(subject: str) -> str | None:
    """"为什么要刷牙？" → "为什么要刷牙", "Why do we brush our teeth?" → "why we brush our teeth", "Why is the sky blue?" →
    "why the sky is blue"; None for a subject not asked as why or how a thing is so ("地震的成因", "how to tie a knot")."""
    text = unasked(subject)
    if not asks_how_it_works(text) or asks_how_to(text):
        return None
    if language_of(text) == "zh":
        # "为什么天空是蓝色的" keeps its 的: only its question mark goes
        return re.sub(r"\s*[?？]+$", "", subject.strip()) if _WHY_ZH.match(text) or _HOW_ZH.match(text) else None
    match = _EMBEDDABLE_EN.match(text) if _WH_EN.match(text) else None
    if not match:
        return None
    wh, aux, words = match.group("wh").lower(), (match.group("aux") or "").lower(), match.group("rest").split()
    if aux in ("", "do"):
        return " ".join([wh, *words])
    if aux in ("does", "did"):
        done = _done_by_subject(words, aux)
        return " ".join([wh, *(done or [aux, *words])])
    cut = _subject_length_en(words, plural=aux in ("are", "were"))
    return " ".join([wh, *words[:cut], aux, *words[cut:]]) if cut else " ".join([wh, aux, *words])


def _subject_length_en(words: list[str], plural: bool) -> int | None:
    """How many words open a clause as its subject: up to its first plural noun ("polar bears"), or an article and its
    noun ("the sky"); None when that cannot be told, or nothing would follow it."""
    if plural:
        cut = next((i + 1 for i, word in enumerate(words[:3]) if word.lower().endswith("s")), None)
    else:
        cut = 2 if words[0].lower() in _DETERMINERS_EN else None
    return cut if cut and cut < len(words) else None


# A subject that names its own angle or occasion ("量子计算的基本原理", "消防安全知识", "信息安全培训", "the basic
# principles of quantum computing", "Python basics", "fire safety training") is said by what it is about inside the
# deck's sentences: "量子计算基本原理的核心原理", "今天的培训内容是信息安全培训" name it twice.
# A course named before the subject ("英语语法 现在完成时", "初中英语语法：被动语态") says where it belongs, not what it is.
_COURSE_LABEL_ZH = re.compile(r"^(?:小学|初中|高中|大学)?(?:英语|语文|汉语|法语|日语|德语|韩语)?(?:语法|词汇)?(?<=\w)\s*[：:\s]\s*(?=\S{2})")
_ANGLE_TAIL_ZH = re.compile(r"(?<=\w{2}|\w”|”\w)的?(?:基本原理|工作原理|原理|基础知识|基本知识|小知识|常识|知识|零基础|基础|入门|概述|概论|"
                            r"简介|导论|初探|讲座|(?:意义(?:与|和))?用法|(?<!入职)(?<!岗前)(?<!上岗)培训)$")  # 入职培训 is the subject itself
_ANGLE_HEAD_EN = re.compile(r"^(?:(?:the|an?)\s+)?(?:(?:basic|key|core|main|general)\s+)?(?:basics|fundamentals|principles|"
                            r"essentials|introduction|intro|overview|abcs)\s+(?:of|to)\s+(?P<subject>\S.*)$", re.IGNORECASE)
# "Photosynthesis and cellular respiration compared": the pair is the subject ("the core ideas of … compared" said nothing)
_ANGLE_TAIL_EN = re.compile(r"(?<=\w)\s+(?:basics|fundamentals|essentials|101|training|workshop|refresher|compared|contrasted)$",
                            re.IGNORECASE)

# So does a verb of getting to know that opens it ("认识时钟", "走进秦朝", "Understanding fractions", "Exploring the
# ocean"): "认识时钟为什么会这样", "the core ideas of understanding fractions" say the lesson, not its subject.
_LEARNING_HEAD_ZH = re.compile(r"^(?:认识|了解|初识|走进|探索|探秘|揭秘)(?=\w{2})")
_LEARNING_HEAD_EN = re.compile(r"^(?:understanding|understand|exploring|explore|discovering|discover|getting\s+to\s+know|"
                               r"learning\s+about|learn\s+about)\s+(?=\w)", re.IGNORECASE)


# So does a way of reading a work named after it ("《背影》课文赏析", "《故乡》阅读教学"): the lesson is about 《背影》.
_READING_TAIL_ZH = re.compile(r"(?<=》)\s*(?:课文|全文|原文|名著|整本书)?(?:赏析|鉴赏|解读|导读|品读|阅读|精读|研读)?(?:教学|学习)?$")


def _without_angle(text: str) -> str:
    """"量子计算的基本原理" → "量子计算", "信息安全培训" → "信息安全", "the basics of chess" → "chess", "Python basics"
    → "Python", "fire safety training" → "fire safety", "《背影》课文赏析" → "《背影》"."""
    if language_of(text) == "zh":
        return _READING_TAIL_ZH.sub("", _ANGLE_TAIL_ZH.sub("", _LEARNING_HEAD_ZH.sub("", text)))
    text = _LEARNING_HEAD_EN.sub("", text)
    if match := _ANGLE_HEAD_EN.match(text):
        return match.group("subject")
    return _ANGLE_TAIL_EN.sub("", text)


# A head that names the occasion, not the subject ("Team meeting", "Monday huddle", "部门周会").
_OCCASION_HEAD = re.compile(r"(?:会议|[早晨例周月]会|班前会|汇报|报告|述职|\b(?:meeting|huddle|stand-?up|sync|check-?in|all-?hands|town\s+hall|"
                            r"update|briefing|review|retro(?:spective)?|kick-?off|assembly|report|readout|recap|demo)$)", re.IGNORECASE)


def topic_phrase(topic: str) -> str:
    """The subject as a noun phrase to set inside a sentence: "疫苗是怎么起作用" → "疫苗起作用的原理", "为什么天空是蓝色"
    → "天空是蓝色的原因", "怎么保护眼睛" → "保护眼睛的方法", "how vaccines work" → "vaccines", "how to use WhatsApp" →
    "using WhatsApp", "Write better commit messages" → "writing better commit messages"; other subjects unchanged."""
    text = _WELCOME_TO.sub("", unasked(topic))  # "Welcome to the animal shelter" is about the animal shelter
    if language_of(text) == "zh":
        text = _COURSE_LABEL_ZH.sub("", text)  # "初中英语语法：被动语态" is a lesson on 被动语态
        if "：" in text:  # "光合作用：植物如何制造食物" is said by its subject: "…：…的基本概念" read two colons
            head, tail = (part.strip() for part in text.split("：", 1))
            if _OCCASION_HEAD.search(head):  # "部门周会：新报销流程" is about the tail
                return tail
            return head if 2 <= len(head) <= 8 and not _names_a_work(text) else text
        if "怎么样" in text:
            return text
        if match := _WHAT_ZH.match(text):
            return match.group("a") or match.group("b")
        if _DEFINITION_ZH.search(text):  # "光合作用的定义", "什么叫分数": the thing defined
            return _DEFINITION_ZH.sub("", text)
        if match := _WHY_ZH.match(text):
            # "为什么会有四季" asks where a thing comes from (四季的成因), "为什么会下雨" why it happens (下雨的原因):
            # "会有四季的原因" keeps the question's own verbs
            what = _WHY_ZH_VERBS.sub("", match.group("what")) if not match.group("who") else match.group("what")
            if not match.group("who") and _WHY_ZH_EXISTS.match(match.group("what")):
                return f"{what}的成因"
            return f"{match.group('who')}{what}的原因"
        if match := _HOW_ZH.match(text):
            who, what = match.group("who"), match.group("what")
            if not who or _doers_way_zh(match):
                return f"{what}的方法"
            # "我是怎么自学日语的" tells what the speaker did, not how a thing works ("我自学日语的原理"); what we did
            # ("我们是怎么做到零事故的") is experience to pass on
            if _DOERS_ZH.match(who) and match.group("is") and not _WORKINGS_ZH.search(what):
                return f"{who}{what}的{'经历' if who == '我' else '经验'}"
            if match.group("is") or _WORKINGS_ZH.search(what):
                return f"{who}{what}的原理"
            return f"{who}的{what}法" if len(what) == 1 else f"{who}{what}的方法"
        return _without_angle(text)
    if ":" in text:  # "Bees: why they matter" is said by its subject: "Bees: why they matter: key terms" read two colons
        head, tail = (part.strip() for part in text.split(":", 1))
        if _OCCASION_HEAD.search(head):  # "Team meeting: the new expense process" is about the tail
            return tail
        return head if 1 <= len(head.split()) <= 4 and not _names_a_work(text) and not about_a_work(text) else text
    if match := _HOW_TO_EN.match(text):
        return gerund_en(match.group("verb")) + _verbs_after_and_as_gerunds(match.group("rest"))
    if match := _WHAT_EN.match(text) or _WHAT_IT_IS_EN.match(text):
        return match.group("np")
    if _DEFINITION_EN.match(text):  # "the definition of energy": energy
        return _DEFINITION_EN.sub("", text)
    if match := _WH_EN.match(text):
        # "Why we wash our hands" has no thing to name ("we"): said as the question it is, mid-sentence
        return _clause_subject_en(match.group("clause")) or embedded_question(text) or text
    first, _, rest = text.partition(" ")
    if rest and first.lower() in _IMPERATIVE_VERBS_EN and not _names_a_work(text) and not _LEARNING_HEAD_EN.match(text):
        return f"{gerund_en(first)} {rest}"
    return _without_angle(text)


def subject_as_said(topic: str, request: str) -> str:
    """The subject as a sentence says it: a title drops the article the request gave a common noun ("Explain the water
    cycle" is titled "Water cycle"), a sentence keeps it ("today we learn about the water cycle", "the workings of the
    causes of …" is no English)."""
    if language_of(topic) == "zh":
        return topic
    topic = _without_title_capitals(topic)
    # "an example of Volcanoes", "what Fire safety requires": the capital was the request's first letter
    if opens_with_common_word(topic) and not about_a_work(topic) and not names_a_person(topic) or states_rules(topic):
        topic = mid_sentence(topic, request)
    if re.match(r"(?:the|an?)\s", topic, re.IGNORECASE):
        return topic
    if states_rules(topic):  # a place's own rules are the ones it has: "what is still unclear about the pool rules?"
        return f"the {topic}"
    said = re.search(rf"\b(?P<article>the|an?)\s+{re.escape(topic)}(?!\w)", request, re.IGNORECASE)
    return f"{said.group('article').lower()} {topic}" if said else topic


# Heads of a thing a lesson explains, written in title case as a heading would be ("The Water Cycle", "The Human
# Body", "Climate Change"): inside a sentence they are common nouns ("the core ideas of the water cycle").
_COMMON_THING_HEADS_EN = frozenset("""cycle system body cell table chain web market economy process effect change warming
    energy light sound electricity magnetism gravity climate weather volcano heart brain lungs skeleton planet atom
    reaction safety management skills health pollution recycling""".split())
# A word of a name keeps its capital inside such a heading: a possessive ("Newton's Laws"), an adjective made from a
# name ("The Pythagorean Theorem", "Victorian"), a word with capitals of its own ("DNA", "iPhone").
_NAME_WORD_EN = re.compile(r"^(?:[\w-]+['’]s|[A-Z][a-z]*(?:ian|ean)|\w*[A-Z]\w*[A-Z]\w*)$")


def _without_title_capitals(topic: str) -> str:
    """The subject as a sentence writes it: a leading "The" lower case ("an overview of the Renaissance"), and a
    heading's capitals off a common thing ("Teach The Water Cycle" → "the water cycle"); a work keeps its title as
    written ("an overview of The Great Gatsby")."""
    if about_a_work(topic):
        return topic
    topic = re.sub(r"^The(?=\s)", "the", topic)
    words = topic.split()
    head = re.sub(r"[^A-Za-z]", "", _PHRASE_BREAK_EN.split(topic, 1)[0].split()[-1]).lower()
    titled = all(w[:1].isupper() or w.lower() in _TITLE_SMALL_WORDS for w in words[1:] or words)
    if not titled or not (head in _COMMON_THING_HEADS_EN or head.rstrip("s") in _COMMON_THING_HEADS_EN):
        return topic
    return " ".join(w if _NAME_WORD_EN.match(w) else w.lower() for w in words)


# Words in -s that are one thing ("physics", "the news", "a crisis"): the -s rule would make them plural.
_SINGULAR_IN_S = re.compile(r"(?:ss|us|is|ics|news|series|species|means|ways|ows)$", re.IGNORECASE)
_PHRASE_BREAK_EN = re.compile(r"\s+(?:of|in|on|for|to|with|at|from|about|by|under|over|during|and|or)\s+", re.IGNORECASE)


_CLAUSE_OPENERS_EN = ("what", "where", "when", "how", "why", "whether", "who")


def plural_subject(phrase: str) -> bool:
    """Whether an English subject takes a plural verb ("vaccines are", "the Napoleonic Wars were", but "the water cycle
    is", "writing better commit messages is", "the history of cars is"): a gerund that opens it is one activity, else
    its head noun (the last word before "of", "in"… or the end) decides by its -s. A clause ("where it starts", "how it
    ends", "what it achieves") is one thing said, whatever its last word."""
    words = phrase.split()
    if not words or language_of(phrase) == "zh" or words[0].lower() in (*_GERUNDS_EN, *_CLAUSE_OPENERS_EN):
        return False
    head = re.sub(r"[^A-Za-z]", "", _PHRASE_BREAK_EN.split(phrase, 1)[0].split()[-1]) if _PHRASE_BREAK_EN.split(phrase, 1)[0].split() else ""
    return len(head) > 2 and head.lower().endswith("s") and not _SINGULAR_IN_S.search(head)


def agreeing_with(phrase: str) -> dict[str, str]:
    """Fields for a sentence template whose subject is the phrase: "{topic} {is}", "why {it} matter{s}", "touch{es}",
    and for one that names it again as an object ("where have you met {them}?")."""
    plural = plural_subject(phrase)
    return {"is": "are" if plural else "is", "it": "they" if plural else "it", "them": "them" if plural else "it",
            "s": "" if plural else "s", "es": "" if plural else "es"}


def deck_file_name(title: str, extension: str) -> str:
    """A file name any system accepts: the title without path or reserved characters, capped."""
    stem = fitted_title(_UNSAFE_IN_FILE_NAMES.sub("-", title).strip(" .-")).strip(" .-") or "deck"
    return f"{stem}.{extension}"


# A subject that compares two things ("有丝分裂与减数分裂的区别", "Mitosis vs meiosis", "the difference between weather and
# climate") asks to tell them apart; "Marie Curie", "宋朝的科技", "Romeo and Juliet" or "cause and effect" compare nothing.
_PAIRED_ZH = re.compile(r"^(?:区分|比较|对比)?(?P<a>[^与和及对比、，,的]{2,12})(?:(?:与|和|及)(?P<b>[^与和及对比、，,的]{2,12})"
                        r"的?(?:区别|异同|比较|对比|不同)|\s*(?:对比|VS|vs)\s*(?P<b2>[^与和及对比、，,的]{2,12}))$")
_PAIRED_EN = re.compile(r"^(?:(?:the\s+)?differences?\s+between\s+(?P<a>[\w' -]{2,40}?)\s+and\s+(?P<b>[\w' -]{2,40})"
                        r"|(?:comparing\s+)?(?P<a2>[\w' -]{2,40}?)\s+(?:vs\.?|versus|compared\s+(?:with|to))\s+(?P<b2>[\w' -]{2,40}))$",
                        re.IGNORECASE)


def compared_pair(topic: str) -> tuple[str, str] | None:
    """The two things a subject pairs, when it pairs two ("weather and climate" → ("weather", "climate"))."""
    match = (_PAIRED_ZH if language_of(topic) == "zh" else _PAIRED_EN).match(topic.strip())
    if not match:
        return None
    first, second = match.group("a") or match.groupdict().get("a2"), match.group("b") or match.group("b2")
    return first.strip(), second.strip()


def keywords_of(topic: str) -> list[str]:
    if language_of(topic) == "zh":
        parts = [p for p in re.split(r"[\s与和及、的]+", topic) if len(p) >= 2]
    else:
        parts = [p for p in re.split(r"[\s\-/]+", topic) if len(p) >= 3]
    seen: list[str] = []
    for part in parts or [topic]:
        if part not in seen:
            seen.append(part)
    return seen[:6]


# ------------------------------------------------------------ feedback routing


REVISE_PAGES = "revise_pages"  # not a pipeline stage: rewrites named pages of the finished deck


class FeedbackIntent(BaseModel):
    """How a message on a finished PPT thread is read (spec: Intent Classification Logic)."""

    intent: str = Field(description="INITIAL (a new deck on a new subject), REFINEMENT (change the current deck) or "
                                    "UNSUPPORTED (a change none of the stages can make)")
    targetStage: str | None = Field(default=None, description="For REFINEMENT: the first stage to re-run, or "
                                                              "revise_pages to rewrite only the pages named")
    pages: list[int] = Field(default_factory=list, description="For revise_pages and remove_slides: the 1-based pages "
                                                            "(-1 the last page, -2 the one before it…); for add_slides "
                                                            "the page the position names, if any")
    count: int = Field(default=1, ge=1, description="For add_slides: how many pages to add")
    subject: str | None = Field(default=None, description="For add_slides: what the new page is about, if named")
    afterPage: int | None = Field(default=None, description="For add_slides and move_slides: the page the new or moved "
                                                            "ones follow (0 = at the start, -1 = after the last); for "
                                                            "add_slides none = before the closing pages, for move_slides "
                                                            "none = swap the two pages named")
    language: Literal["zh", "en"] | None = Field(default=None, description="For change_language: the language asked for")
    reason: str = Field(default="", description="Why, in a few words")


# First matching rule wins; ordered from the most specific to the most general.
REFINEMENT_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("generate_presentation_theme", ("主题", "配色", "颜色", "色调", "字体", "风格", "theme", "colour", "color", "font", "palette")),
    ("generate_slide_scripts", ("口播", "讲稿", "旁白", "解说", "narration", "script", "speaker notes", "voice-over")),
    # and any ask for less (wants_simpler): a simpler deck starts from a simpler outline
    ("generate_video_outline", ("大纲", "内容", "结构", "知识点", "outline", "structure", "content")),
    # and any ask for a picture (asks_for_picture)
    ("generate_slides", ("视觉", "排版", "版式", "美化", "页面", "visual", "layout", "design", "slide")),
)
# Asking for less, in its usual word forms: "改简单一点", "太长了", "simpler", "shorten", "too wordy", "more concise".
SIMPLIFY_WORDS = re.compile(
    r"精简|简化|简洁|简短|简明|太多|太复杂|太长|太满|太挤|啰嗦|冗长|缩减|压缩|删减|少一点|少一些"
    # "simple" is asked for ("改简单一点", "make slide 2 simple"), not just present ("a simple example")
    r"|(?:更|改得?|弄得?|写得?)简单|简单(?:一?点|一?些)|\b(?:more|make\b[^,.;!?]{0,30})\s+simple\b"
    r"|\bsimpl(?:er|est|ify|ified|ification)\b|\bshort(?:er|en)\b|\bconcise|\bcondense|\bwordy\b|\bverbose\b"
    r"|\btoo (?:much|complex|complicated|long|dense|busy|crowded)\b|\bclutter|\bfewer\b|\btrim|\bcut\b[^,.;!?]{0,20}?\b(?:down|short|back)\b"
    r"|\bless (?:text|words|detail)",
    re.IGNORECASE)

# A new deck is asked for by a marker that says so outright, or by a generic one ("做一个") with a deck word.
NEW_SUBJECT_MARKERS = ("换个主题", "换一个主题", "新主题", "新的主题", "new deck", "new topic", "different topic")
NEW_TOPIC_MARKERS = ("做一个", "做一份", "做个", "新的", "另一个", "another", "make a", "create a")
DECK_WORDS = ("ppt", "课件", "幻灯片", "演示文稿", "简报", "deck", "slides", "presentation")
_MARKERS = re.compile("|".join(re.escape(m) for m in sorted(NEW_SUBJECT_MARKERS + NEW_TOPIC_MARKERS, key=len, reverse=True)),
                      re.IGNORECASE)


def asks_for_new_deck(text: str, topic: str) -> bool:
    """A message on a finished deck starts anew only when it plainly asks for another deck on a subject of
    its own: otherwise ("加一页课堂练习题") the sentence would become the next deck's title."""
    lowered = text.lower()
    asked = any(m in lowered for m in NEW_SUBJECT_MARKERS) or (
        any(m in lowered for m in NEW_TOPIC_MARKERS) and any(w in lowered for w in DECK_WORDS))
    if not asked or pages_named(text):  # a page of this deck is named: it is about this deck
        return False
    subject = _subject_of(_MARKERS.sub(" ", text))
    if len(CJK.findall(subject)) < 2 and len(re.findall(r"[A-Za-z]", subject)) < 3:
        return False
    same = subject.lower() == topic.lower() or (topic and (topic.lower() in subject.lower() or subject.lower() in topic.lower()))
    return not same

# "第3、4页", "第3到5页", and each page named whole: "第3页到第5页", "第3页和第5页".
_PAGES_ZH = re.compile(rf"第\s*({_ZH_NUMBER}(?:\s*(?:页|张)?\s*[、,，和与及至到~-]\s*第\s*{_ZH_NUMBER}|\s*[、,，和与及至到~-]\s*{_ZH_NUMBER})*)\s*(?:页|张|面)")
_PAGES_EN = re.compile(r"\b(?:pages?|slides?)\s+(\d+(?:\s*(?:,|and|&|to|-)\s*\d+)*)\b|\b(\d+)(?:st|nd|rd|th)\s+(?:page|slide)\b",
                       re.IGNORECASE)


def pages_named(text: str) -> list[int]:
    """The pages a message points at: 第三页, 第3、4页, page 3, slides 2 and 5, the 4th slide."""
    pages: list[int] = []
    for match in _PAGES_ZH.finditer(text):
        numbers = [_zh_number(n) for n in re.findall(_ZH_NUMBER, match.group(1))]
        if re.search(r"[至到~-]", match.group(1)) and len(numbers) == 2:
            numbers = list(range(numbers[0], numbers[1] + 1))
        pages += numbers
    for match in _PAGES_EN.finditer(text):
        if match.group(2):
            pages.append(int(match.group(2)))
            continue
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if re.search(r"to|-", match.group(1)) and len(numbers) == 2:
            numbers = list(range(numbers[0], numbers[1] + 1))
        pages += numbers
    return sorted({p for p in pages if p >= 1})


# A picture, however a message asks for one: 图片/配图/插图/照片, a bare 图 after a measure word or a verb
# ("加一张图", "配点图", "没有图"), or its English words; not a chart or diagram that ends in 图 (流程图, 柱状图,
# 思维导图) nor a word that begins with it (图表, 图书).
PICTURE = re.compile(r"图片|配图|插图|插画|图像|照片|相片|示意图|地图|(?:[张幅个些点]|加|放|配|添|插|要|换|有)\s*图(?![表书标形层例谱])"
                     r"|\b(?:images?|pictures?|pics?|photos?|photographs?|illustrations?|graphics?)\b", re.IGNORECASE)


# "删掉第3页的图片", "remove the picture from slide 3": a picture named to be taken away is not asked for.
_TAKES_AWAY = re.compile(r"删|去掉|去除|拿掉|不要|不需要|移除|\b(?:remove|delete|drop|without|get\s+rid)\b", re.IGNORECASE)


def asks_for_picture(text: str | None) -> bool:
    return PICTURE.search(text or "") is not None and _TAKES_AWAY.search(text or "") is None


# A layout a page is asked to take ("把第3页改成表格"); the revised page must have it, or the reply says not.
LAYOUT_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("comparison", ("表格", "列表格", "table")),
    ("process", ("流程图", "步骤图", "flow chart", "flowchart", "process diagram")),
)


def layout_asked(text: str | None) -> str | None:
    lowered = (text or "").lower()
    named = next((layout for layout, words in LAYOUT_WORDS if any(w in lowered for w in words)), None)
    return named or ("image_text" if asks_for_picture(text) else None)


# A length in feedback changes the deck's length only with a word that asks for it: "再做一个讲地震的，15分钟"
# names a length for another deck, which the model (or the new-deck rule) decides.
_CHANGES_LENGTH = re.compile(
    r"缩短|缩减|压缩|删减|延长|加长|拉长|改成|改为|改到|调成|调到|控制在|太长|太短|变短|变长|只要|只有|"
    r"\b(?:shorter|longer|shorten|lengthen|cut|trim|extend|reduce|make it|keep it|only|down to|up to|too long|too short)\b",
    re.IGNORECASE,
)


def wants_simpler(text: str | None) -> bool:
    return SIMPLIFY_WORDS.search(text or "") is not None


# ------------------------------------------------------------ slide edits: add, remove, change language


ADD_SLIDES, REMOVE_SLIDES, MOVE_SLIDES, CHANGE_LANGUAGE = "add_slides", "remove_slides", "move_slides", "change_language"
# Removing pages may leave fewer than MIN_SLIDES (the least a new deck gets), but never nothing.
MIN_SLIDES_LEFT = 1
_CLAUSE_END = r"(?=\s*(?:[了吧呢吗啊掉]\s*)*(?:[，,。.；;！!？?\n]|$))"

# One page of this deck as a message names it. Numbers are pages; a negative number counts from the end.
_REF_ZH = (rf"第\s*{_ZH_NUMBER}(?:\s*(?:页|张)?\s*[至到~-]\s*第\s*{_ZH_NUMBER}|\s*[、,，和与及至到~-]\s*第?\s*{_ZH_NUMBER})*\s*(?:页|张)|倒数第\s*{_ZH_NUMBER}\s*(?:页|张)"
           rf"|最后\s*(?:{_ZH_NUMBER})?\s*(?:页|张)|最后那页|末页|尾页|首页|封面页?")
_REFS_ZH = rf"(?:{_REF_ZH})(?:\s*(?:、|，|,|和|与|及|以及|还有)\s*(?:{_REF_ZH}))*"
_ORDINAL_EN = r"\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
_ORDINALS_EN = {w: i for i, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                                            "eighth", "ninth", "tenth"), 1)}
_REF_EN = (rf"(?:slides?|pages?)\s+\d+(?:\s*(?:,|and|&|to|-)\s*\d+)*"
           rf"|(?:{_ORDINAL_EN})\s+(?:to|from)\s+last\s+(?:slide|page)"
           rf"|(?:last|final)(?:\s+(?:{_EN_COUNT}|\d+))?\s+(?:slides?|pages?)|(?:{_ORDINAL_EN})\s+(?:slide|page)"
           rf"|cover(?:\s+(?:slide|page))?|title\s+(?:slide|page)")
_REFS_EN = rf"(?:the\s+)?(?:{_REF_EN})(?:\s*(?:,|and|&)\s*(?:the\s+)?(?:{_REF_EN}))*"


def _en_ordinal(word: str) -> int:
    return int(word[:-2]) if word[:1].isdigit() else _ORDINALS_EN[word]


def slide_refs(text: str) -> list[int]:
    """Every page a span names, in the message's own numbering: 第3、4页 → [3, 4], 最后两页 → [-2, -1],
    倒数第二页 → [-2], 封面 / the cover → [1], the second to last slide → [-2]."""
    refs = list(pages_named(re.sub(rf"倒数第\s*{_ZH_NUMBER}", " ", text)))
    for match in re.finditer(rf"倒数第\s*({_ZH_NUMBER})|(?:^|[^第])最后\s*({_ZH_NUMBER})?\s*(?:页|张)|最后那页|末页|尾页", text):
        if match.group(1):
            refs.append(-_zh_number(match.group(1)))
        else:
            refs += list(range(-(_zh_number(match.group(2)) if match.group(2) else 1), 0))
    if re.search(r"首页|封面|\bcover\b|\btitle\s+(?:slide|page)", text, re.IGNORECASE):
        refs.append(1)
    for match in re.finditer(rf"\b({_ORDINAL_EN})\s+(?:to|from)\s+last\b|\b(?:last|final)(?:\s+({_EN_COUNT}|\d+))?\s+(?:slides?|pages?)"
                             rf"|\b({_ORDINAL_EN})\s+(?:slide|page)", text, re.IGNORECASE):
        if match.group(1):
            refs.append(-_en_ordinal(match.group(1).lower()))
        elif match.group(3):
            word = match.group(3).lower()
            if not word[:1].isdigit():  # "4th slide" is already one of pages_named
                refs.append(_en_ordinal(word))
        else:
            refs += list(range(-round(_number(match.group(2))) if match.group(2) else -1, 0))
    return list(dict.fromkeys(refs))


_REMOVE_VERB_ZH = r"删除|删掉|删去|删了|删|去掉|去除|拿掉|移除|砍掉|剔除|不要了|不要|不需要|可以删|可以去掉"
_REMOVE_ZH = (rf"(?:{_REMOVE_VERB_ZH})\s*(?:这|那)?\s*(?P<a>{_REFS_ZH})(?!\s*(?:的|上|里|中|中间|里面|上面))"
              rf"|(?P<b>{_REFS_ZH})\s*(?:也|就|都)?\s*(?:给我|帮我)?\s*(?:{_REMOVE_VERB_ZH}){_CLAUSE_END}")
# "cut slide 4 down" / "cut slide 4 short" shortens it: not a removal.
_REMOVE_EN = (rf"\b(?:remove|delete|drop|cut|scrap|lose|get\s+rid\s+of|take\s+out)\s+(?P<a>{_REFS_EN})\b"
              rf"(?!\s*(?:'s|’s|down\b|short\b|back\b))"
              rf"|\b(?P<b>{_REFS_EN})\s+(?:can|should|must|could)\s+(?:go|be\s+(?:removed|deleted|dropped|cut))")


def slides_to_remove(text: str) -> list[int] | None:
    """The pages a message asks to drop ("删掉第4页", "去掉最后一页", "remove slide 2"), or None when it asks
    no such thing; a verb aimed at something on a page ("删掉第3页的图片") is page feedback, not this."""
    match = re.search(_REMOVE_ZH, text) or re.search(_REMOVE_EN, text, re.IGNORECASE)
    if match is None:
        return None
    refs = slide_refs(match.group("a") or match.group("b"))
    return refs or None


_ADD_VERB_ZH = r"增加|添加|新增|追加|补充|插入|加上|多加|再加|多出|加|添|补|插|多"
_PAGE_NOUN_ZH = r"幻灯片|页面|页(?!数)"
# "加一页", "再加两页", "加一个总结页", "插入一张幻灯片"; not "加一张图片" (a picture on a page) nor "第3页加个例子".
_ADD_ZH = re.compile(
    rf"(?:{_ADD_VERB_ZH})\s*(?:一下|上)?\s*(?P<count>{_ZH_NUMBER})?\s*"
    rf"(?:页(?!数)|(?:个|张)?\s*(?P<pre>[^，,。；;！!？?\s第到在\d{_ZH_NUMERAL}]{{0,10}}?)\s*(?:{_PAGE_NOUN_ZH}))(?!\s*\d)")
_ADD_EN = re.compile(
    rf"\b(?:add|insert|append|include|put\s+in|throw\s+in)\s+(?:in\s+)?(?:(?:an?|another)\s+(?=(?:{_EN_COUNT}|\d+)\s))?(?:(?P<count>an?|another|{_EN_COUNT}|\d+)\s+)?"
    rf"(?:(?:more|extra|new|additional)\s+)*(?P<pre>(?:[\w'-]+\s+){{0,3}}?)(?:slides?|pages?)\b(?!\s*\d)"
    rf"|\b(?P<count2>one|another|{_EN_COUNT}|\d+)\s+more\s+(?:slides?|pages?)\b(?!\s*\d)",
    re.IGNORECASE)
_EN_PREPOSITIONS = {"to", "on", "in", "at", "of", "into", "onto", "from", "for", "the", "this", "that", "each", "every"}

# Where the new page goes: 在第3页后面 / 第3页之前 / 第3和第4页之间 / 放在最后 / 在开头 / 作为第3页; after slide 3,
# before the last slide, between slides 3 and 4, at the end, at the start, as slide 3.
_SIDE_ZH = re.compile(rf"(?:在|放在|放到|插在|插到|加在|加到|插入到?)?\s*(?P<ref>{_REF_ZH})\s*(?:(?:和|与|跟)\s*(?P<ref2>{_REF_ZH})\s*"
                      rf"(?P<between>之间|中间)|的?\s*(?P<side>前面|前边|之前|以前|前|后面|后边|之后|以后|后))")
_END_ZH = re.compile(r"(?:放在|放到|加在|加到|插在|插到|移到|挪到|调到|搬到|在)\s*(?:最后面?|末尾|结尾|最末|后面)(?!\s*(?:一|那|两|几|\d))")
_START_ZH = re.compile(r"(?:放在|放到|加在|加到|插在|插到|移到|挪到|调到|搬到|在)\s*(?:开头|最前面?|最开始)")
_AS_ZH = re.compile(rf"(?:作为|当作|成为|放在|放到|插在|插到)\s*(?P<ref>第\s*{_ZH_NUMBER}\s*(?:页|张))")
_SIDE_EN = re.compile(rf"\b(?:(?P<side>after|before|following|ahead\s+of)\s+(?P<ref>{_REFS_EN})"
                      rf"|between\s+(?P<between>(?:slides?|pages?)\s+\d+\s*(?:and|&|,)\s*\d+))\b", re.IGNORECASE)
_END_EN = re.compile(r"\b(?:at|to)\s+the\s+(?:very\s+)?(?:end|back)\b|\bas\s+the\s+(?:last|final)\s+(?:slide|page)\b|\bappend\b", re.IGNORECASE)
_START_EN = re.compile(r"\b(?:at|to)\s+the\s+(?:very\s+)?(?:start|beginning|front)\b|\bas\s+the\s+first\s+(?:slide|page)\b", re.IGNORECASE)
_AS_EN = re.compile(r"\bas\s+(?:the\s+new\s+)?(?:slide|page)\s+(?P<n>\d+)\b", re.IGNORECASE)


def insert_position(text: str) -> tuple[int | None, list[int]]:
    """(the page the new one follows, the page named for it): 0 = at the start, -1 = after the last page,
    None = no position named. 第3页前面 → (2, [3]); after the last slide → (-1, [-1])."""
    side = _SIDE_ZH.search(text) or _SIDE_EN.search(text)
    if side is not None:
        groups = side.groupdict()
        if groups.get("between"):
            refs = slide_refs(side.group(0))
            return (min(refs), refs) if refs else (None, [])
        refs = slide_refs(groups["ref"])
        if not refs:
            return None, []
        before = groups["side"].lower() in ("前面", "前边", "之前", "以前", "前", "before", "ahead of")
        page = min(refs) if before else max(refs)
        return (page - 1 if before else page), [page]
    if _START_ZH.search(text) or _START_EN.search(text):
        return 0, []
    placed = _AS_ZH.search(text) or _AS_EN.search(text)
    if placed is not None:
        page = _zh_number(re.search(_ZH_NUMBER, placed.group("ref")).group()) if placed.groupdict().get("ref") \
            else int(placed.group("n"))
        return page - 1, [page]
    if _END_ZH.search(text) or _END_EN.search(text):
        return -1, []
    return None, []


_SUBJECT_LEAD_ZH = re.compile(r"^(?:(?:内容|主题|题目)(?:是|为|就是)|讲的是|关于|有关|用来|专门|来|再)\s*")
_SUBJECT_LEAD_EN = re.compile(r"^(?:(?:about|on|covering|explaining|to\s+explain|showing|for|with|that\s+(?:covers|explains|shows)"
                              r"|on\s+the\s+topic\s+of|regarding)\s+)?(?:the\s+)?", re.IGNORECASE)


def _added_subject(text: str, match: re.Match, english: bool) -> str | None:
    """What the new page is about: named after the page word ("加一页，讲讲XX的应用", "add a slide about X") or
    before it ("加一个总结页", "add a summary slide"); positions and asking words are not the subject."""
    rest = text[match.end():]
    for pattern in ((_SIDE_EN, _END_EN, _START_EN, _AS_EN) if english else (_SIDE_ZH, _END_ZH, _START_ZH, _AS_ZH)):
        rest = pattern.sub(" ", rest)
    for clause in _CLAUSE.split(rest):
        clause = clause.strip(" ：:-—")
        if english:
            clause = _SUBJECT_LEAD_EN.sub("", clause).strip(" -")
            clause = re.sub(r"\b(?:please|thanks|thank you)\b", "", clause, flags=re.IGNORECASE).strip()
        else:
            clause = _TELLING_ZH.sub("", _SUBJECT_LEAD_ZH.sub("", clause)).strip()
            clause = re.sub(r"^(?:讲|说|聊|谈)\s*|(?:的内容|的页面|方面的|的|吧|好吗|可以吗|谢谢)+$", "", clause).strip()
        if clause:
            return fitted_title(clause)
    pre = (match.groupdict().get("pre") or "").strip()
    if english:
        pre = " ".join(w for w in pre.split() if w.lower() not in ("more", "extra", "new", "additional"))
    else:
        pre = re.sub(r"^(?:新的?|关于|讲)|的$", "", pre).strip()
    return fitted_title(pre) or None


def slides_to_add(text: str) -> FeedbackIntent | None:
    """A request for one or more new pages: how many, about what and where, or None when none is asked."""
    match = _ADD_ZH.search(text)
    english = match is None
    if english:
        match = _ADD_EN.search(text)
        if match is None:
            return None
        if any(w.lower() in _EN_PREPOSITIONS for w in (match.group("pre") or "").split()):
            return None  # "add an image to slide 3": something added to a page, not a page
    word = match.group("count") or (match.groupdict().get("count2") if english else None)
    count = 1 if word is None or word.lower() in ("a", "an", "another") else max(1, round(_number(word)))
    after, pages = insert_position(text)
    return FeedbackIntent(intent="REFINEMENT", targetStage=ADD_SLIDES, count=count, subject=_added_subject(text, match, english),
                          afterPage=after, pages=pages, reason="asks for a new page")


# "第3页和第4页换个位置", "交换第3、4页", "swap slides 3 and 4"; "把第5页移到最后", "move slide 5 after slide 2".
_SWAP_ZH = re.compile(r"换个?位置|换一下位置|交换|互换|对调|调换")
_SWAP_EN = re.compile(r"\b(?:swap|switch|exchange|flip)\b", re.IGNORECASE)
_MOVE_ZH = re.compile(rf"(?:把|将)?\s*(?P<ref>{_REFS_ZH})\s*(?:移|挪|调|放|搬)(?:动)?(?:到|至|去)")
_MOVE_EN = re.compile(rf"\b(?:move|put|shift|place)\s+(?P<ref>{_REFS_EN})\s+(?=to\b|after\b|before\b|at\b|ahead\b|between\b)",
                      re.IGNORECASE)


def slides_to_move(text: str) -> FeedbackIntent | None:
    """A new order for pages: two pages swapped (pages [a, b], no afterPage) or pages moved to a place (pages, and
    afterPage: the page they follow, 0 = the start, -1 = after the last), else None."""
    moved = _MOVE_ZH.search(text) or _MOVE_EN.search(text)
    if moved is not None:
        after, _ = insert_position(text[moved.end("ref"):])
        refs = slide_refs(moved.group("ref"))
        if after is not None and refs:
            return FeedbackIntent(intent="REFINEMENT", targetStage=MOVE_SLIDES, pages=refs, afterPage=after,
                                  reason="asks to move pages")
    if _SWAP_ZH.search(text) or _SWAP_EN.search(text):
        refs = slide_refs(text)
        if len(refs) == 2:
            return FeedbackIntent(intent="REFINEMENT", targetStage=MOVE_SLIDES, pages=refs, reason="asks to swap pages")
    return None


_LANGUAGE_NAMES = {"中文": "zh", "汉语": "zh", "简体中文": "zh", "华文": "zh", "英文": "en", "英语": "en",
                   "english": "en", "chinese": "zh", "mandarin": "zh"}
_LANG = "|".join(sorted(_LANGUAGE_NAMES, key=len, reverse=True))
# A language name in a part of the deck ("英文字体", "English terms") is not the deck's language.
_NOT_THE_DECK = r"(?!\s*(?:字体|术语|单词|名称|名字|标注|注释|关键词|字幕|缩写|翻译|原文|font|terms?|words?|names?|labels?|captions?))"
_LANGUAGE_ZH = re.compile(
    rf"(?:改成|改为|改用|换成|换为|换用|转成|转为|转换成|翻译成|翻译为|翻成|译成|译为|写成|变成|切换到|切换成|切换为|做成|出|来)"
    rf"\s*(?:一个|一份|个|一版)?\s*(?P<a>{_LANG}){_NOT_THE_DECK}"
    rf"|用\s*(?P<b>{_LANG})\s*(?:重写|改写|重新|再写|写|重做|做|讲|生成|呈现|表达|来写|来做)"
    rf"|(?P<c>{_LANG})\s*(?:版本?|的版本)(?!\s*(?:的?(?:PPT|ppt|课件|幻灯片)\s*(?:关于|讲)))", re.IGNORECASE)
_LANGUAGE_EN = re.compile(
    rf"\b(?:translate|rewrite|re-write|redo|write|switch|change|convert|turn|make|put|do|present|give|have)\b[^.?!。？！]{{0,40}}?"
    rf"\b(?:in|into|to)\s+(?P<a>english|chinese|mandarin)\b{_NOT_THE_DECK}"
    rf"|\b(?:make|have|want|need)\s+(?:it|this|everything|the\s+(?:deck|slides|presentation|ppt))\s+(?:in\s+)?(?P<d>english|chinese)\b"
    rf"|\b(?P<c>english|chinese|mandarin)\s+version\b|^\s*(?:in|into)\s+(?P<b>english|chinese|mandarin)\b", re.IGNORECASE)
# "翻译一下", "把课件翻译一下", "translate it": the deck is to be translated; "这个术语的翻译不对" is not that.
_TRANSLATE = re.compile(rf"翻译\s*(?:一下|下)?(?:\s*(?:整个|全部)?\s*(?:课件|PPT|幻灯片|演示文稿))?{_CLAUSE_END}"
                        r"|\btranslate\s+(?:it|this|everything|the\s+(?:whole\s+)?(?:deck|slides|presentation|ppt))\b",
                        re.IGNORECASE)


def _without_language(text: str) -> str:
    """The message without the phrase that names a language, so a subject left in it stands out."""
    return _LANGUAGE_EN.sub(" ", _LANGUAGE_ZH.sub(" ", text))


def language_asked(text: str, current: str | None = None) -> str | None:
    """The language a message asks the whole deck to be in ("用英文重写", "改成中文", "translate the deck into
    English"); "翻译一下" / "translate it" with none named means the other one of zh and en."""
    match = _LANGUAGE_ZH.search(text) or _LANGUAGE_EN.search(text)
    if match is not None:
        name = next(g for g in match.groupdict().values() if g)
        return _LANGUAGE_NAMES[name.lower()]
    if current in ("zh", "en") and _TRANSLATE.search(text) and not re.search(_LANG, text, re.IGNORECASE):
        return "en" if current == "zh" else "zh"
    return None


def classify_by_rules(text: str, topic: str = "", language: str | None = None) -> FeedbackIntent | None:
    lowered = text.lower()
    # Deck edits come before a new deck: "add another two slides about X" names a subject but not a new deck.
    asked = language_asked(text, language)
    if asked is not None and not pages_named(text) and not asks_for_new_deck(_without_language(text), topic):
        return FeedbackIntent(intent="REFINEMENT", targetStage=CHANGE_LANGUAGE, language=asked, reason="names a language")
    moved = slides_to_move(text)
    if moved is not None:
        return moved
    removed = slides_to_remove(text)
    if removed is not None:
        return FeedbackIntent(intent="REFINEMENT", targetStage=REMOVE_SLIDES, pages=removed, reason="asks to drop pages")
    added = slides_to_add(text)
    if added is not None:
        return added
    if asks_for_new_deck(text, topic):
        return FeedbackIntent(intent="INITIAL", reason="asks for a new deck")
    if colour_named(text) is not None:
        return FeedbackIntent(intent="REFINEMENT", targetStage="generate_presentation_theme", reason="names a colour")
    pages = pages_named(text)
    if pages:
        return FeedbackIntent(intent="REFINEMENT", targetStage=REVISE_PAGES, pages=pages, reason="names pages")
    if duration_hint(text) is not None and _CHANGES_LENGTH.search(text):  # "缩短到10分钟", "make it a 5 minute talk"
        return FeedbackIntent(intent="REFINEMENT", targetStage="generate_course_config", reason="names a duration")
    for stage_name, words in REFINEMENT_RULES:
        if any(word in lowered for word in words) or (stage_name == "generate_video_outline" and wants_simpler(text)) \
                or (stage_name == "generate_slides" and asks_for_picture(text)):
            return FeedbackIntent(intent="REFINEMENT", targetStage=stage_name, reason="feedback keyword")
    return None


# ------------------------------------------------------------ colour words


class Colour(BaseModel):
    """A colour a user named: its catalogue key, hue (degrees) and how saturated and light its fill is."""

    name: str = Field(description="Catalogue key suffix, e.g. navy, red")
    hue: float = Field(ge=0, lt=360)
    saturation: float = Field(ge=0, le=1)
    lightness: float = Field(ge=0, le=1, description="Lightness of the theme's primary fill")


# name → (hue, saturation, lightness of the primary fill), and the words that name it; a primary dark
# enough to carry white text keeps the hue the user asked for (a yellow deck gets a dark gold primary).
COLOURS: dict[str, tuple[float, float, float, tuple[str, ...]]] = {
    "navy": (222, 0.65, 0.22, ("深蓝", "藏青", "藏蓝", "海军蓝", "宝蓝", "navy", "dark blue")),
    "light_blue": (200, 0.70, 0.36, ("天蓝", "浅蓝", "湖蓝", "sky blue", "light blue")),
    "blue": (212, 0.65, 0.34, ("蓝色", "蓝调", "蓝系", "blue")),
    "dark_red": (350, 0.60, 0.26, ("深红", "酒红", "暗红", "枣红", "maroon", "burgundy", "dark red")),
    "red": (0, 0.70, 0.36, ("红色", "红调", "红系", "中国红", "red")),
    "dark_green": (145, 0.55, 0.20, ("深绿", "墨绿", "dark green")),
    "green": (125, 0.50, 0.28, ("绿色", "绿调", "绿系", "green")),
    "teal": (180, 0.60, 0.24, ("青色", "蓝绿", "teal", "cyan", "turquoise")),
    "purple": (275, 0.50, 0.32, ("紫色", "紫调", "紫系", "purple", "violet")),
    "orange": (25, 0.80, 0.36, ("橙色", "橘色", "橙调", "orange")),
    "yellow": (45, 0.75, 0.30, ("黄色", "金色", "金黄", "yellow", "gold")),
    "brown": (25, 0.45, 0.24, ("棕色", "咖啡色", "褐色", "brown")),
    "pink": (335, 0.60, 0.40, ("粉色", "粉红", "玫红", "pink", "magenta")),
    "black": (0, 0.0, 0.12, ("黑色", "黑白", "black")),
    "grey": (0, 0.0, 0.34, ("灰色", "灰调", "grey", "gray")),
}
_COLOUR_WORDS = sorted(((word, name) for name, (*_, words) in COLOURS.items() for word in words),
                       key=lambda pair: -len(pair[0]))
_COLOUR_NAME_OF = dict(_COLOUR_WORDS)
# Longest words first, so 深蓝 wins over 蓝色 and "dark blue" over "blue"; Latin words whole only.
_COLOUR_PATTERN = re.compile("|".join(
    re.escape(word) if CJK.search(word) else rf"\b{re.escape(word)}\b" for word, _ in _COLOUR_WORDS), re.IGNORECASE)


def colour_named(text: str | None) -> Colour | None:
    """The colour a message asks for; with several, the last named wins (it is the latest wish)."""
    matches = list(_COLOUR_PATTERN.finditer(text or ""))
    if not matches:
        return None
    name = _COLOUR_NAME_OF[matches[-1].group(0).lower()]
    hue, saturation, lightness, _ = COLOURS[name]
    return Colour(name=name, hue=hue, saturation=saturation, lightness=lightness)


def _hls(hue: float, lightness: float, saturation: float) -> str:
    r, g, b = colorsys.hls_to_rgb(hue / 360, lightness, saturation)
    return "#" + "".join(f"{round(v * 255):02X}" for v in (r, g, b))


def hue_of(hex_color: str) -> float:
    """Hue in degrees of a #RRGGBB colour."""
    r, g, b = (int(hex_color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return colorsys.rgb_to_hls(r, g, b)[0] * 360


def palette_for(colour: Colour) -> ColorScheme:
    """A theme of the named colour: primary and secondary in its hue, a complementary accent, a tinted
    white background and near-black text, every text pair lifted to WCAG body contrast."""
    hue, sat, light = colour.hue, colour.saturation, colour.lightness
    background = _hls(hue, 0.985, min(sat, 0.4))
    accent_hue = (hue + 180) % 360 if sat else 200.0
    return ColorScheme(
        primary=ensure_contrast(_hls(hue, light, sat), background, BODY_CONTRAST),
        secondary=ensure_contrast(_hls(hue, min(light + 0.12, 0.5), sat), background, BODY_CONTRAST),
        accent=_hls(accent_hue, 0.5, 0.75),
        background=background,
        text=ensure_contrast(_hls(hue, 0.11, min(sat, 0.3)), background, BODY_CONTRAST),
    )
