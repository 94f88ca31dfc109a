"""Offline composers for the PPT stages: deterministic content built from the request's facts.

They read only what the graph passes as `facts` (topic, keywords, duration, outline, feedback…),
so two different topics give two different decks and the same topic always gives the same one.
"""

from __future__ import annotations

import re
from itertools import accumulate

from core.llm.offline import OfflineRequest, offline_composer, stable_choice, stable_int
from graphs.ppt.design import as_image_text, as_process, as_table, deck_part_named, design_slide
from core.i18n import LOCALES, t
from core.language import CJK, is_function_word, language_of, mid_sentence
from graphs.ppt.planning import (
    FeedbackIntent,
    about_a_poem,
    about_a_work,
    about_history,
    about_maths,
    agreeing_with,
    asks_how_it_works,
    audience_hint,
    embedded_question,
    asks_what_it_is,
    asks_how_to,
    asks_for_picture,
    capitalised,
    colour_named,
    compared_pair,
    focus_of,
    heard_at_work,
    a_sharing,
    told_of_ones_own_life,
    states_rules,
    gives_a_tour,
    welcomes_newcomers,
    welcome_kind,
    orientation_title,
    launches_a_product,
    a_ceremony_speech,
    raises_a_toast,
    tells_of_a_change,
    unasked,
    held_in_public,
    history_kind,
    keywords_of,
    layout_asked,
    narration_length,
    our_way_of_doing_en,
    actions_named,
    taken_up_for_its_own_sake,
    palette_for,
    person_name,
    person_named_first,
    subject_as_said,
    tells_a_things_story,
    topic_phrase,
    trained_at_home,
    wants_simpler,
    whole_language_named,
    pre_readers,
    young_children,
    about_nature,
    alive_in_nature,
    about_teaching,
    teachers_as_colleagues,
)
from schemas.ppt import (
    ColorScheme,
    CourseConfig,
    FontConfig,
    KnowledgeUnit,
    MasterSlide,
    SLIDE_LAYOUTS,
    PresentationTheme,
    SlideScript,
    SlideScripts,
    SlideSpec,
    TopicAnalysis,
    VideoOutline,
)

# By key: a theme's name is the catalogue's (`ppt.theme_<key>`), in the reader's language.
PALETTES = (
    ("ocean_classroom", ColorScheme(primary="#1F4E79", secondary="#2E75B6", accent="#F4B183", background="#FFFFFF", text="#1E1E1E")),
    ("forest_notes", ColorScheme(primary="#385723", secondary="#70AD47", accent="#FFC000", background="#FBFCF8", text="#1F2A17")),
    ("sunset_lecture", ColorScheme(primary="#843C0C", secondary="#C55A11", accent="#2F5597", background="#FFFAF5", text="#2B1B12")),
    ("graphite_lab", ColorScheme(primary="#262626", secondary="#595959", accent="#00B0F0", background="#F7F7F7", text="#141414")),
    ("plum_seminar", ColorScheme(primary="#4B1F6F", secondary="#7030A0", accent="#00B050", background="#FCFAFE", text="#1D1424")),
)

STYLES_ZH = ("问题驱动，由浅入深", "案例引入，层层递进", "故事化讲解，联系生活", "对比分析，归纳总结")
STYLES_EN = ("Problem-driven, from simple to deep", "Case-led and progressive", "Story-based with everyday examples", "Compare, contrast, then summarise")
# A lesson ends in practice, not in trends: "一元二次方程的发展趋势" or "what comes next for the past simple tense" is no
# part a teacher teaches.
ASPECTS_ZH = ("基本概念", "核心原理", "关键过程", "典型应用", "常见误区", "练习与巩固")
# What each part of a lesson does, as the catalogue says it (`ppt.deck_lesson_part_<part>`): said in its outline and on
# its pages.
_LESSON_PART_KEYS = ("basics", "workings", "process", "uses", "pitfalls", "practice")
LESSON_PARTS_SAID_ZH = {a: t(f"ppt.deck_lesson_part_{k}", locale="zh") for a, k in zip(ASPECTS_ZH, _LESSON_PART_KEYS)}
# An English aspect does not read as "<aspect> of <topic>" ("How it works of volcanoes"): each has its own phrase.
ASPECT_PHRASES_EN = {"Core ideas": "the core ideas of {topic}", "How it works": "the workings of {topic}",
                     "Key processes": "the key processes in {topic}", "Applications": "the applications of {topic}",
                     "Common pitfalls": "common pitfalls in {topic}", "Practice and review": "practice with {topic}"}
ASPECTS_EN = tuple(ASPECT_PHRASES_EN)
LESSON_PARTS_SAID_EN = {a: t(f"ppt.deck_lesson_part_{k}", locale="en")
                        for a, k in zip(ASPECTS_EN, _LESSON_PART_KEYS)}
# Each aspect's three points by a short name of their own (unique in the deck, so no two pages share a title):
# a page is titled by its point, and "a key idea in what comes next for Q3 results review" is no title.
ASPECT_POINTS_ZH = {"基本概念": ("核心术语", "基本定义", "主要类别"), "核心原理": ("作用机制", "因果关系", "关键条件"),
                    "关键过程": ("主要阶段", "先后顺序", "关键环节"), "典型应用": ("应用场景", "应用方法", "应用效果"),
                    "常见误区": ("易混概念", "典型错误", "错误根源"), "练习与巩固": ("基础练习", "变式练习", "拓展提升")}
ASPECT_POINTS_EN = {"Core ideas": ("key terms", "basic definitions", "main types"),
                    "How it works": ("the mechanism", "cause and effect", "key conditions"),
                    "Key processes": ("the main stages", "the order of steps", "the critical step"),
                    "Applications": ("where it is used", "how it is applied", "what it achieves"),
                    "Common pitfalls": ("confusable terms", "typical errors", "where errors start"),
                    "Practice and review": ("a warm-up exercise", "a harder exercise", "a stretch task")}
# A lesson's two-column page sets a point against what it is not, as its part does: a point of the basics, the workings,
# a process or a use is seen before and after the lesson; a pitfall as wrong against right; an exercise as a weak answer
# against a strong one. "Main types: myth and fact" ("Myth: knowing the outcome of main types is enough") said nothing.
def _contrast_said(key: str, language: str) -> dict:
    """A two-column page's title and lines as the catalogue says them (`ppt.deck_contrast_<key>`): the title on its first
    line, then two lines for each side; the fields ({name}, {topic}, {unit}) are filled page by page."""
    title, *lines = t(f"ppt.deck_contrast_{key}", locale=language).split("\n")
    return {"contrast_title": title, "contrast": tuple(lines)}


def _contrast_pair(key: str, language: str) -> tuple[str, tuple[str, ...]]:
    said = _contrast_said(key, language)
    return said["contrast_title"], said["contrast"]


def _steps_said(key: str, language: str) -> tuple[tuple[str, str], ...]:
    """A step-by-step page's (step, what is done) pairs as the catalogue says them (`ppt.deck_steps_<key>`), one a line."""
    return tuple(tuple(re.split(r"[:：]\s*", line, maxsplit=1))
                 for line in t(f"ppt.deck_steps_{key}", locale=language).split("\n"))


def _lines_said(key: str, language: str) -> tuple[str, ...]:
    """A page's lines as the catalogue says them (`ppt.<key>`), one a line; the fields are filled page by page."""
    return tuple(t(f"ppt.{key}", locale=language).split("\n"))


# Each point of a lesson's basics has its own concept page: its words, its definition, its kinds.
LESSON_CONCEPTS_ZH = dict(zip(ASPECT_POINTS_ZH["基本概念"], (_lines_said(f"deck_lesson_concept_{key}", "zh")
                                                           for key in ("terms", "definitions", "types"))))
LESSON_CONCEPTS_EN = dict(zip(ASPECT_POINTS_EN["Core ideas"], (_lines_said(f"deck_lesson_concept_{key}", "en")
                                                             for key in ("terms", "definitions", "types"))))
LESSON_STEPS_ZH = {"基本概念": _steps_said("basics", "zh"), "常见误区": _steps_said("pitfalls", "zh")}
LESSON_STEPS_EN = {"Core ideas": _steps_said("basics", "en"), "Common pitfalls": _steps_said("pitfalls", "en")}
LESSON_CONTRASTS_ZH = {"常见误区": _contrast_pair("wrong_right", "zh"), "练习与巩固": _contrast_pair("weak_strong", "zh")}
LESSON_CONTRASTS_EN = {"Common pitfalls": _contrast_pair("wrong_right", "en"), "Practice and review": _contrast_pair("weak_strong", "en")}

# A talk at work or in public is told in the parts of a report (why, where things stand, issues, next steps),
# not a lesson's (core ideas, how it works): its parts need no topic in their names, the whole talk is about it.
TALK_ASPECT_POINTS_ZH = {"背景与目标": ("背景", "目标", "相关方"), "整体情况": ("已完成工作", "当前阶段", "关键数字"),
                         "关键要点": ("首要事项", "注意事项", "常见疑问"), "问题与挑战": ("主要问题", "潜在风险", "所需支持"),
                         "经验与做法": ("有效做法", "改进空间", "可复用经验"), "下一步计划": ("近期安排", "分工与时间", "待定事项")}
TALK_ASPECT_POINTS_EN = {"Background and goals": ("the background", "the goals", "who is involved"),
                         "Where things stand": ("the work done so far", "the current stage", "the key figures"),
                         "Key points": ("the main point", "things to watch", "common questions"),
                         "Issues and challenges": ("the main issues", "the risks", "the support needed"),
                         "What worked": ("what went well", "what to improve", "what to repeat"),
                         "Next steps": ("the near-term plan", "owners and dates", "the decisions needed")}
TALK_ASPECT_PHRASES_EN = {"Background and goals": "the background and goals of {topic}",
                          "Where things stand": "where things stand with {topic}", "Key points": "the key points of {topic}",
                          "Issues and challenges": "the issues and challenges in {topic}",
                          "What worked": "what worked in {topic}", "Next steps": "the next steps for {topic}"}

# A training session teaches how to do something at work: why it matters, the rules, the steps, a worked case, the
# mistakes people make, then practice; like a talk's, its parts need no topic in their names.
TRAINING_ASPECT_POINTS_ZH = {"为何重要": ("风险与后果", "对岗位的要求", "做好的好处"),
                             "基本规则": ("必守规定", "禁止行为", "责任分工"),
                             "操作步骤": ("准备工作", "操作流程", "完成后检查"),
                             "实际案例": ("正面案例", "反面案例", "案例启示"),
                             "常见错误": ("易犯错误", "错误代价", "纠正方法"),
                             "练习与检查": ("现场演练", "自查清单", "考核要求")}
TRAINING_ASPECT_POINTS_EN = {"Why it matters": ("the stakes", "the standard expected", "the payoff"),
                             "The rules": ("the must-dos", "the never-dos", "roles and responsibilities"),
                             "The steps": ("getting ready", "the procedure", "checking the result"),
                             "A worked case": ("a good example", "a bad example", "the takeaways"),
                             "Common mistakes": ("typical mistakes", "the cost of mistakes", "prevention"),
                             "Practice and check": ("a practice run", "a self-check list", "the assessment")}
# Objectives and part descriptions said per part: "掌握为何重要" or "Understand the steps of X" does not read.
TRAINING_ASPECT_PHRASES_ZH = {"为何重要": "明白{topic}为何重要", "基本规则": "记住{topic}的基本规则",
                              "操作步骤": "掌握{topic}的操作步骤", "实际案例": "从实际案例中看{topic}怎么做",
                              "常见错误": "避开{topic}中的常见错误", "练习与检查": "通过练习检查自己对{topic}的掌握"}
TRAINING_ASPECT_PHRASES_EN = {"Why it matters": "see what is at stake in {topic}", "The rules": "know the rules of {topic}",
                              "The steps": "follow the steps of {topic}", "A worked case": "learn from a worked case of {topic}",
                              "Common mistakes": "avoid the common mistakes in {topic}",
                              "Practice and check": "practise {topic} and check the result"}

# A lesson about a work (planning.about_a_work) is told in a literature teacher's parts: who wrote it and when, what it
# says or what happens, its characters (a story's) or its images (a poem's), how it is written, what it means, and a
# discussion; never a phenomenon's mechanism or trends.
WORK_ASPECT_POINTS_ZH = {"作者与背景": ("作者生平", "创作背景", "时代环境"), "内容与结构": ("内容概括", "结构层次", "行文线索"),
                         "人物形象": ("主要人物", "人物关系", "细节描写"), "意象与意境": ("主要意象", "画面与意境", "情景交融"),
                         "语言与手法": ("语言特色", "修辞手法", "表现手法"), "主题与意义": ("中心思想", "作者情感", "现实意义"),
                         "讨论与拓展": ("问题讨论", "比较阅读", "读写练习")}
WORK_ASPECT_POINTS_EN = {"Author and background": ("the author", "when and why it was written", "the world it came from"),
                         "What it tells": ("the gist", "its structure", "the key passages"),
                         "Characters": ("the main characters", "how they relate", "telling details"),
                         "Imagery and mood": ("the key images", "the scene it paints", "feeling and scene"),
                         "Language and technique": ("word choice", "figures of speech", "the writer's techniques"),
                         "Themes and meaning": ("the central theme", "the writer's feelings", "why it still matters"),
                         "Discussion": ("questions to discuss", "comparing texts", "a writing task")}
WORK_ASPECT_TITLES_EN = {"Author and background": "the author and background of {topic}", "What it tells": "what {topic} tells",
                         "Characters": "the characters in {topic}", "Imagery and mood": "the imagery and mood of {topic}",
                         "Language and technique": "the language and techniques of {topic}",
                         "Themes and meaning": "the themes of {topic}", "Discussion": "discussing {topic}"}
# Objectives and part descriptions, said per part: "理解《背影》的讨论与拓展" does not read.
WORK_ASPECT_PHRASES_ZH = {"作者与背景": "了解{topic}的作者与创作背景", "内容与结构": "梳理{topic}的内容与结构",
                          "人物形象": "分析{topic}中的人物形象", "意象与意境": "体会{topic}的意象与意境",
                          "语言与手法": "品味{topic}的语言与写作手法", "主题与意义": "理解{topic}的主题与意义",
                          "讨论与拓展": "围绕{topic}展开讨论与拓展"}
WORK_ASPECT_PHRASES_EN = {"Author and background": "see who wrote {topic}, and when and why",
                          "What it tells": "follow what {topic} tells, part by part",
                          "Characters": "get to know the characters in {topic}",
                          "Imagery and mood": "picture the images and mood of {topic}",
                          "Language and technique": "notice the language and techniques of {topic}",
                          "Themes and meaning": "understand the themes of {topic}",
                          "Discussion": "discuss {topic} and write about it"}

# A lesson about a historical event, period or person (planning.about_history) is told in a history teacher's parts:
# its background and causes, the course of events, the people in it, what came of it, the sources and the views
# historians hold, and a discussion; never a phenomenon's mechanism, applications or "everyday life".
HISTORY_ASPECT_POINTS_ZH = {"背景与原因": ("时代背景", "根本原因", "直接起因"), "经过与时间线": ("起止时间", "主要经过", "关键转折"),
                            "关键人物": ("主要人物", "人物作为", "人物评价"), "结果与影响": ("直接结果", "深远影响", "历史意义"),
                            "史料与观点": ("原始史料", "不同观点", "史料辨析"), "讨论与启示": ("问题讨论", "古今对照", "历史启示")}
HISTORY_ASPECT_POINTS_EN = {"Background and causes": ("the background", "the long-term causes", "the trigger"),
                            "Course of events": ("the dates", "the main events", "the turning points"),
                            "Key people": ("the main figures", "what they did", "how they are judged"),
                            "Consequences": ("the immediate results", "the lasting effects", "why it matters today"),
                            "Sources and views": ("primary sources", "historians' views", "weighing the evidence"),
                            "Discussion": ("questions to discuss", "then and now", "lessons from the past")}
HISTORY_ASPECT_TITLES_EN = {"Background and causes": "the background and causes of {topic}",
                            "Course of events": "the course of {topic}", "Key people": "the key people in {topic}",
                            "Consequences": "the consequences of {topic}", "Sources and views": "sources and views on {topic}",
                            "Discussion": "discussing {topic}"}
HISTORY_ASPECT_PHRASES_ZH = {"背景与原因": "了解{topic}的时代背景与原因", "经过与时间线": "按时间线梳理{topic}的经过",
                             "关键人物": "认识{topic}中的关键人物", "结果与影响": "理解{topic}的结果与影响",
                             "史料与观点": "阅读史料，比较关于{topic}的不同观点", "讨论与启示": "围绕{topic}展开讨论，总结启示"}
HISTORY_ASPECT_PHRASES_EN = {"Background and causes": "see the background and causes of {topic}",
                             "Course of events": "follow the course of {topic} on a timeline",
                             "Key people": "meet the key people in {topic}", "Consequences": "weigh the consequences of {topic}",
                             "Sources and views": "read sources on {topic} and compare views",
                             "Discussion": "discuss {topic} and what it teaches us"}

# A period (唐朝, "the Renaissance") has no causes, course and consequences of its own: it is told by what it was like
# (its society, culture, achievements) and what it left; a person ("李白", "Napoleon") by their times, life, deeds, how
# history judges them and their legacy (planning.history_kind). Sources and discussion are every history lesson's.
_HISTORY_SHARED_ZH = {a: HISTORY_ASPECT_POINTS_ZH[a] for a in ("史料与观点", "讨论与启示")}
_HISTORY_SHARED_EN = {a: HISTORY_ASPECT_POINTS_EN[a] for a in ("Sources and views", "Discussion")}
PERIOD_ASPECT_POINTS_ZH = {"时代概况": ("起止时间", "疆域与政权", "兴衰脉络"), "政治与社会": ("政治制度", "社会生活", "经济发展"),
                           "思想与文化": ("思想学术", "文学艺术", "对外交流"), "成就与代表人物": ("科技成就", "代表人物", "标志性事件"),
                           "地位与影响": ("历史地位", "深远影响", "留存至今的遗产"), **_HISTORY_SHARED_ZH}
PERIOD_ASPECT_PHRASES_ZH = {"时代概况": "了解{topic}的起止、疆域与兴衰", "政治与社会": "认识{topic}的政治制度与社会生活",
                            "思想与文化": "感受{topic}的思想与文化", "成就与代表人物": "认识{topic}的主要成就与代表人物",
                            "地位与影响": "理解{topic}的历史地位与影响", **{a: HISTORY_ASPECT_PHRASES_ZH[a] for a in _HISTORY_SHARED_ZH}}
PERIOD_ASPECT_POINTS_EN = {"Overview": ("when it began and ended", "the lands and rulers", "rise and decline"),
                           "Society and economy": ("how it was governed", "daily life", "trade and wealth"),
                           "Culture and ideas": ("beliefs and ideas", "art and literature", "contact with others"),
                           "Achievements and figures": ("the achievements", "the leading figures", "the landmark events"),
                           "Legacy": ("its place in history", "the lasting influence", "what survives today"), **_HISTORY_SHARED_EN}
PERIOD_ASPECT_TITLES_EN = {"Overview": "an overview of {topic}", "Society and economy": "society and economy in {topic}",
                           "Culture and ideas": "the culture and ideas of {topic}",
                           "Achievements and figures": "the achievements and figures of {topic}", "Legacy": "the legacy of {topic}",
                           **{a: HISTORY_ASPECT_TITLES_EN[a] for a in _HISTORY_SHARED_EN}}
PERIOD_ASPECT_PHRASES_EN = {"Overview": "see when and where {topic} took place",
                            "Society and economy": "picture how people lived and worked in {topic}",
                            "Culture and ideas": "explore the culture and ideas of {topic}",
                            "Achievements and figures": "meet the achievements and leading figures of {topic}",
                            "Legacy": "weigh the legacy of {topic}", **{a: HISTORY_ASPECT_PHRASES_EN[a] for a in _HISTORY_SHARED_EN}}
PERSON_ASPECT_POINTS_ZH = {"时代背景": ("所处时代", "成长环境", "时代机遇"), "生平经历": ("早年经历", "人生转折", "晚年归宿"),
                           "主要事迹与成就": ("主要事迹", "代表成就", "关键抉择"), "历史评价": ("同时代的评价", "后世评价", "功过得失"),
                           "历史影响": ("对当时的影响", "对后世的影响", "留下的遗产"), **_HISTORY_SHARED_ZH}
PERSON_ASPECT_PHRASES_ZH = {"时代背景": "了解{topic}所处的时代", "生平经历": "梳理{topic}的生平经历",
                            "主要事迹与成就": "认识{topic}的主要事迹与成就", "历史评价": "学会客观评价{topic}",
                            "历史影响": "理解{topic}的历史影响", **{a: HISTORY_ASPECT_PHRASES_ZH[a] for a in _HISTORY_SHARED_ZH}}
PERSON_ASPECT_POINTS_EN = {"The times": ("the world they were born into", "the early years", "the chances of the age"),
                           "Life story": ("the path to power or fame", "the turning points", "the later years"),
                           "Deeds and achievements": ("the main deeds", "the great achievements", "the key decisions"),
                           "How history judges them": ("views at the time", "later views", "strengths and failings"),
                           "Legacy": ("influence in their day", "influence since", "what they left behind"), **_HISTORY_SHARED_EN}
PERSON_ASPECT_TITLES_EN = {"The times": "the times of {topic}", "Life story": "the life of {topic}",
                           "Deeds and achievements": "the deeds and achievements of {topic}",
                           "How history judges them": "how history judges {topic}", "Legacy": "the legacy of {topic}",
                           **{a: HISTORY_ASPECT_TITLES_EN[a] for a in _HISTORY_SHARED_EN}}
PERSON_ASPECT_PHRASES_EN = {"The times": "see the times {topic} lived in", "Life story": "follow the life of {topic}",
                            "Deeds and achievements": "know what {topic} did and achieved",
                            "How history judges them": "judge {topic} fairly, by the evidence", "Legacy": "weigh the legacy of {topic}",
                            **{a: HISTORY_ASPECT_PHRASES_EN[a] for a in _HISTORY_SHARED_EN}}
# One side of a period ("宋朝的科技", "daily life in ancient Rome") is told by its times, its features, its figures, how it
# developed and what it left: "宋朝科技的经过与时间线" or "the causes of daily life in ancient Rome" do not read.
THEME_ASPECT_POINTS_ZH = {"时代背景": ("所处时代", "社会条件", "发展契机"), "主要成就与特点": ("主要成就", "突出特点", "典型实例"),
                          "代表人物": ("代表人物", "人物贡献", "人物故事"), "发展脉络": ("起步阶段", "兴盛阶段", "后续演变"),
                          "地位与影响": PERIOD_ASPECT_POINTS_ZH["地位与影响"], **_HISTORY_SHARED_ZH}
THEME_ASPECT_PHRASES_ZH = {"时代背景": "了解{topic}的时代背景", "主要成就与特点": "认识{topic}的主要成就与特点",
                           "代表人物": "认识{topic}的代表人物", "发展脉络": "梳理{topic}的发展脉络",
                           "地位与影响": "理解{topic}的历史地位与影响", **{a: HISTORY_ASPECT_PHRASES_ZH[a] for a in _HISTORY_SHARED_ZH}}
THEME_ASPECT_POINTS_EN = {"The times": ("the age it belongs to", "the conditions of the day", "what made it possible"),
                          "Main features": ("the main achievements", "what set it apart", "telling examples"),
                          "Leading figures": ("the leading figures", "what they contributed", "their stories"),
                          "How it developed": ("the beginnings", "the high point", "what came after"),
                          "Legacy": PERIOD_ASPECT_POINTS_EN["Legacy"], **_HISTORY_SHARED_EN}
THEME_ASPECT_TITLES_EN = {"The times": "the times behind {topic}", "Main features": "the main features of {topic}",
                          "Leading figures": "the leading figures of {topic}", "How it developed": "how {topic} developed",
                          "Legacy": "the legacy of {topic}", **{a: HISTORY_ASPECT_TITLES_EN[a] for a in _HISTORY_SHARED_EN}}
THEME_ASPECT_PHRASES_EN = {"The times": "see the times behind {topic}", "Main features": "know the main features of {topic}",
                           "Leading figures": "meet the leading figures of {topic}", "How it developed": "follow how {topic} developed",
                           "Legacy": "weigh the legacy of {topic}", **{a: HISTORY_ASPECT_PHRASES_EN[a] for a in _HISTORY_SHARED_EN}}
# Each kind's parts, the ones a short lesson keeps, the one said first when the subject names its outcome ("唐朝的历史
# 地位", "李白的影响") and the stages its timeline runs through.
HISTORY_KIND_WORDING = {
    ("period", "zh"): {"aspects": {a: ("{topic}的" + a, points) for a, points in PERIOD_ASPECT_POINTS_ZH.items()},
                       "phrases": PERIOD_ASPECT_PHRASES_ZH, "core": ("时代概况", "思想与文化", "地位与影响"),
                       "consequences": "地位与影响", "fits": {"process": ("政治与社会", "思想与文化", "成就与代表人物")},
                       "stages": (("兴起", "{topic}兴起时的{name}"), ("繁荣", "鼎盛时期的{name}"), ("转折", "{name}由盛转衰的关键"), ("衰落", "{topic}走向终结时的{name}"))},
    ("person", "zh"): {"aspects": {a: ("{topic}的" + a, points) for a, points in PERSON_ASPECT_POINTS_ZH.items()},
                       "phrases": PERSON_ASPECT_PHRASES_ZH, "core": ("生平经历", "主要事迹与成就", "历史评价"), "times": "时代背景",
                       "fits": {"process": ("主要事迹与成就",)},
                       "consequences": "历史影响", "stages": (("早年", "{topic}早年时的{name}"), ("崛起", "崭露头角时的{name}"), ("高峰", "{name}在人生高峰时的表现"), ("晚年", "晚年回看{name}")),
                       # a person is no event: "说清李白的来龙去脉" does not read
                       "notes_cover": ("这{n}个部分分别是：{units}。", "请大家准备好笔记本，把重要的时间、人物和事件记下来。",
                                       "学完这节课，希望大家能说清{topic}的生平、作为和历史地位。",
                                       "开始之前，请大家想一想：关于{topic}，你已经知道些什么？", "课上有任何问题，都可以随时举手提出来。"),
                       "concept": ("{name}：{description}", "它回答的问题：人物为什么会这样选择", "记住关键词：{unit}")},
    ("theme", "zh"): {"aspects": {a: ("{topic}的" + a, points) for a, points in THEME_ASPECT_POINTS_ZH.items()},
                      "phrases": THEME_ASPECT_PHRASES_ZH, "core": ("时代背景", "主要成就与特点", "地位与影响"),
                      "consequences": "地位与影响", "fits": {"process": ("主要成就与特点", "代表人物")},
                      "stages": (("起步", "{topic}起步时的{name}"), ("兴盛", "兴盛时期的{name}"), ("转折", "{name}发生了什么转折"),
                                 ("影响", "{name}留下了什么"))},
    ("theme", "en"): {"aspects": {a: (THEME_ASPECT_TITLES_EN[a], points) for a, points in THEME_ASPECT_POINTS_EN.items()},
                      "phrases": THEME_ASPECT_PHRASES_EN, "core": ("The times", "Main features", "Legacy"), "consequences": "Legacy",
                      "fits": {"process": ("Main features", "Leading figures")},
                      "stages": (("Beginnings", "{name} as {topic} began"), ("High point", "{name} at the height of {topic}"),
                                 ("Turning point", "what changed {name}"), ("Legacy", "what {name} left behind"))},
    # the history of a thing or a place (planning.history_kind "story") is a theme told in time order: its times, how it
    # developed, what it left, in that order whatever the deck's length
    ("story", "zh"): {"aspects": {a: ("{topic}的" + a, points) for a, points in THEME_ASPECT_POINTS_ZH.items()},
                      "phrases": THEME_ASPECT_PHRASES_ZH, "core": ("时代背景", "发展脉络", "地位与影响"),
                      "consequences": "地位与影响", "fits": {"process": ("发展脉络", "主要成就与特点")},
                      "stages": (("起步", "{topic}是怎样起步的"), ("兴盛", "{topic}最兴盛的时候"), ("转折", "是什么改变了{topic}"),
                                 ("今天", "{topic}今天留下了什么"))},
    ("story", "en"): {"aspects": {a: (THEME_ASPECT_TITLES_EN[a], points) for a, points in THEME_ASPECT_POINTS_EN.items()},
                      "phrases": THEME_ASPECT_PHRASES_EN, "core": ("The times", "How it developed", "Legacy"),
                      "consequences": "Legacy", "fits": {"process": ("How it developed", "Main features")},
                      "stages": (("Beginnings", "how {topic} began"), ("High point", "{topic} at its height"),
                                 ("Turning point", "what changed {topic}"), ("Today", "what is left of {topic} today"))},
    ("period", "en"): {"aspects": {a: (PERIOD_ASPECT_TITLES_EN[a], points) for a, points in PERIOD_ASPECT_POINTS_EN.items()},
                       "phrases": PERIOD_ASPECT_PHRASES_EN, "core": ("Overview", "Culture and ideas", "Legacy"),
                       "consequences": "Legacy", "fits": {"process": ("Society and economy", "Culture and ideas", "Achievements and figures")},
                       "stages": (("Rise", "{name} as {topic} began"), ("Height", "{name} at the peak of {topic}"), ("Turning point", "what changed {name}"), ("Decline", "{name} as {topic} came to an end"))},
    ("person", "en"): {"aspects": {a: (PERSON_ASPECT_TITLES_EN[a], points) for a, points in PERSON_ASPECT_POINTS_EN.items()},
                       "phrases": PERSON_ASPECT_PHRASES_EN, "core": ("Life story", "Deeds and achievements", "How history judges them"),
                       "times": "The times", "fits": {"process": ("Deeds and achievements",)},
                       "consequences": "Legacy", "stages": (("Early years", "{name} in the early years of {topic}"), ("Rise", "{name} as {topic} rose"), ("Height", "{name} at the height of {topic}'s life"), ("Later years", "{name}, looking back from the last years")),
                       # a person is no "it": "explain Abraham Lincoln with its dates" does not read
                       "notes_cover": ("The parts are: {units}.", "Have your notebook ready for the dates, people and events that matter.",
                                       "By the end you should be able to tell the life of {topic}, with dates and evidence.",
                                       "Before we start, think of what you already know about {topic}.",
                                       "Raise your hand at any time if you have a question."),
                       "concept": ("{name}: {description}", "The question it answers: why they chose as they did", "Keyword: {unit}")},
}

# A language lesson (planning.about_a_language: a tense, a word class, vocabulary, pinyin, 文言文虚词, French basics) is
# told in a language teacher's parts: the form, its meaning and use, examples in context, the mistakes learners make,
# practice, and a task to speak or write; never a phenomenon's "observe, ask, explain" nor "the workings of" a tense.
LANGUAGE_ASPECT_POINTS_ZH = {"形式与结构": ("基本构成", "变化形式", "特殊情况"), "意义与用法": ("基本含义", "使用场合", "标志词"),
                             "语境中的例句": ("典型例句", "对话情境", "语篇中的用法"), "常见错误": ("典型错误", "易混辨析", "纠错方法"),
                             "课堂练习": ("基础练习", "情境练习", "拓展运用"), "口语与写作任务": ("口语任务", "写作任务", "同伴互评")}
LANGUAGE_ASPECT_TITLES_ZH = {"形式与结构": "{topic}的形式与结构", "意义与用法": "{topic}的意义与用法",
                             "语境中的例句": "语境中的{topic}", "常见错误": "{topic}的常见错误", "课堂练习": "{topic}课堂练习",
                             "口语与写作任务": "用{topic}说和写"}
LANGUAGE_ASPECT_PHRASES_ZH = {"形式与结构": "掌握{topic}的形式与结构", "意义与用法": "理解{topic}的意义与用法",
                              "语境中的例句": "在真实语境中识别{topic}", "常见错误": "避开{topic}的常见错误",
                              "课堂练习": "通过练习熟练运用{topic}", "口语与写作任务": "在说和写中运用{topic}"}
LANGUAGE_ASPECT_POINTS_EN = {"Form": ("the basic pattern", "the changing forms", "the exceptions"),
                             "Meaning and use": ("the core meaning", "the situations for it", "signal words"),
                             "Examples in context": ("model sentences", "a short dialogue", "in a real text"),
                             "Common mistakes": ("typical errors", "easily confused forms", "corrections"),
                             "Practice": ("controlled practice", "practice in context", "freer practice"),
                             "Speaking and writing": ("a speaking task", "a writing task", "peer feedback")}
# Each point of a language lesson's form has its own concept page: its pattern, how it changes, its exceptions.
LANGUAGE_CONCEPTS = {language: dict(zip(points["形式与结构" if language == "zh" else "Form"],
                                        (_lines_said(f"deck_language_concept_{key}", language)
                                         for key in ("pattern", "changes", "exceptions"))))
                     for language, points in (("zh", LANGUAGE_ASPECT_POINTS_ZH), ("en", LANGUAGE_ASPECT_POINTS_EN))}
LANGUAGE_ASPECT_TITLES_EN = {"Form": "the form of {topic}", "Meaning and use": "the meaning and use of {topic}",
                             "Examples in context": "{topic} in context", "Common mistakes": "common mistakes with {topic}",
                             "Practice": "practice with {topic}", "Speaking and writing": "speaking and writing with {topic}"}
LANGUAGE_ASPECT_PHRASES_EN = {"Form": "build {topic} correctly", "Meaning and use": "know when and why to use {topic}",
                              "Examples in context": "recognise {topic} in real sentences",
                              "Common mistakes": "avoid the common mistakes with {topic}",
                              "Practice": "practise {topic} from guided to free use",
                              "Speaking and writing": "use {topic} in your own speaking and writing"}

# A first course in a whole language (planning.whole_language_named: "Spanish for beginners", "西班牙语入门") is taught by
# its sounds, greetings, everyday words and first sentences, heard and said aloud; its sentences name the language
# itself ("greetings in Spanish"), never "the form of Spanish" nor "西班牙语入门的意义与用法".
FIRST_COURSE_POINTS_ZH = {"问候与自我介绍": ("问候与道别", "自我介绍", "礼貌用语"), "发音与字母": ("字母表", "重点发音", "重音与语调"),
                          "日常词汇": ("数字", "颜色与星期", "课堂用语"), "简单句子": ("基本语序", "怎样提问", "怎样说“不”"),
                          "课堂练习": LANGUAGE_ASPECT_POINTS_ZH["课堂练习"], "口语与写作任务": LANGUAGE_ASPECT_POINTS_ZH["口语与写作任务"]}
FIRST_COURSE_TITLES_ZH = {"问候与自我介绍": "{topic}的问候与自我介绍", "发音与字母": "{topic}的发音与字母",
                          "日常词汇": "{topic}的日常词汇", "简单句子": "用{topic}说简单的句子",
                          "课堂练习": "{topic}课堂练习", "口语与写作任务": "用{topic}说和写"}
FIRST_COURSE_PHRASES_ZH = {"问候与自我介绍": "用{topic}打招呼、介绍自己", "发音与字母": "认识字母，读准{topic}的发音",
                           "日常词汇": "学会{topic}里最常用的词", "简单句子": "用{topic}说出简单的句子",
                           "课堂练习": "通过练习熟练运用{topic}", "口语与写作任务": "在说和写中运用{topic}"}
FIRST_COURSE_POINTS_EN = {"Greetings": ("hello and goodbye", "introductions", "polite words"),
                          "Sounds and letters": ("the alphabet", "the key sounds", "stress and accents"),
                          "Everyday words": ("numbers", "colours and days", "classroom words"),
                          "First sentences": ("word order", "asking questions", "saying no"),
                          "Practice": LANGUAGE_ASPECT_POINTS_EN["Practice"],
                          "Speaking and writing": LANGUAGE_ASPECT_POINTS_EN["Speaking and writing"]}
FIRST_COURSE_TITLES_EN = {"Greetings": "greetings in {topic}", "Sounds and letters": "the sounds and letters of {topic}",
                          "Everyday words": "everyday words in {topic}", "First sentences": "first sentences in {topic}",
                          "Practice": "practice in {topic}", "Speaking and writing": "speaking and writing in {topic}"}
FIRST_COURSE_PHRASES_EN = {"Greetings": "greet people and introduce yourself in {topic}",
                           "Sounds and letters": "say the sounds of {topic} clearly",
                           "Everyday words": "know the words of {topic} you need every day",
                           "First sentences": "make simple sentences in {topic}",
                           "Practice": "practise {topic} from guided to free use",
                           "Speaking and writing": "use {topic} in your own speaking and writing"}
FIRST_COURSE_WORDING = {
    "zh": {"aspects": {a: (FIRST_COURSE_TITLES_ZH[a], points) for a, points in FIRST_COURSE_POINTS_ZH.items()},
           "phrases": FIRST_COURSE_PHRASES_ZH, "core": ("问候与自我介绍", "发音与字母", "日常词汇"),
           "concept": ("{name}：{description}", "它回答的问题：这句话用{topic}怎么说", "记住关键词：{unit}"),
           "process_title": "一步步学会{name}",
           "stages": (("听一听", "听老师用{topic}说{name}"), ("跟着说", "大声跟读{name}"), ("练一练", "和同桌练习{name}"),
                      ("用起来", "在情景对话中运用{name}")),
           "contrast": ("错误：只看词表背{name}", "错误：用母语的发音去读{name}",
                        "正确：多听多说，大声练习{name}", "正确：把{name}和{unit}联系起来用"),
           "example_items": ("听一段含有{name}的对话", "和同桌分角色演一演", "换一个细节，再演一遍"),
           "exercise_items": ("用{topic}说一说{first}", "听录音，把听到的{topic}单词写下来", "{first}和{last}有什么不同？"),
           "asks": ("你能用{topic}向同桌介绍自己吗？", "{unit}里，哪一点你还拿不准？", "下节课你最想用{topic}学会说什么？"),
           "notes_cover": ("这{n}个部分分别是：{units}。", "请大家准备好笔记本，把新学的词和句子记下来。",
                           "学完这节课，希望大家能用{topic}打招呼、介绍自己。",
                           "开始之前，请大家想一想：你已经知道哪些{topic}的词？", "课上有任何问题，都可以随时举手提出来。")},
    "en": {"aspects": {a: (FIRST_COURSE_TITLES_EN[a], points) for a, points in FIRST_COURSE_POINTS_EN.items()},
           "phrases": FIRST_COURSE_PHRASES_EN, "core": ("Greetings", "Sounds and letters", "Everyday words"),
           "concept": ("{name}: {description}", "The question it answers: how do we say this in {topic}", "Keyword: {unit}"),
           "stages": (("Listen", "listen for {name} in {topic}"), ("Repeat", "say {name} aloud together"),
                      ("Practise", "try {name} with a partner"), ("Use it", "use {name} in a short role-play")),
           "contrast": ("Wrong: learning {name} only from a word list", "Wrong: saying {name} with the sounds of your own language",
                        "Right: {name} heard and said aloud", "Right: {name} used together with {unit}"),
           "example_items": ("Listen to a short dialogue with {name}", "Act it out with a partner", "Change one detail and act it again"),
           "exercise_items": ("Say {first} in {topic}", "Listen and write down the {topic} words you hear", "How do {first} and {last} differ?"),
           "asks": ("Can you introduce yourself to a partner in {topic}?", "Which point in {unit} are you still unsure of?",
                    "What would you most like to say in {topic} next time?"),
           "notes_cover": ("The parts are: {units}.", "Have your notebook ready for the new words and sentences.",
                           "By the end you should be able to greet people and introduce yourself in {topic}.",
                           "Before we start, think of a {topic} word you already know.",
                           "Raise your hand at any time if you have a question.")},
}


# A maths lesson (planning.about_maths) is taught by definitions, rules and worked examples, and solved step by step:
# read, set up, solve, check; not a phenomenon's "observe, ask why" nor "找一个与基本定义有关的现象". It is a lesson in all else.
MATHS_ASPECT_POINTS_ZH = {"概念与定义": ("相关概念", "定义与符号", "识别方法"), "法则与性质": ("基本法则", "重要性质", "公式由来"),
                          "典型例题": ("基础题型", "变式题型", "综合题型"), "解题步骤": ("审题", "列式与求解", "检验与作答"),
                          "常见错误": ("典型错误", "错因分析", "纠错方法"), "练习与巩固": ASPECT_POINTS_ZH["练习与巩固"]}
MATHS_ASPECT_PHRASES_ZH = {"概念与定义": "弄清{topic}的概念和定义", "法则与性质": "掌握{topic}的法则与性质",
                           "典型例题": "通过例题学会用{topic}解题", "解题步骤": "按步骤解决与{topic}有关的问题",
                           "常见错误": "避开{topic}中的常见错误", "练习与巩固": "通过练习巩固{topic}"}
MATHS_ASPECT_POINTS_EN = {"Definitions": ("the key terms", "definitions and notation", "the tell-tale signs"),
                          "Rules and properties": ("the rules", "the key properties", "where the formula comes from"),
                          "Worked examples": ("basic problems", "variations", "harder problems"),
                          "Solving step by step": ("reading the problem", "setting up and solving", "checking the answer"),
                          "Common mistakes": ("typical errors", "why they happen", "how to fix them"),
                          "Practice and review": ASPECT_POINTS_EN["Practice and review"]}
MATHS_ASPECT_TITLES_EN = {"Definitions": "the definitions behind {topic}", "Rules and properties": "the rules of {topic}",
                          "Worked examples": "worked examples of {topic}", "Solving step by step": "solving {topic} step by step",
                          "Common mistakes": "common mistakes with {topic}", "Practice and review": "practice with {topic}"}
MATHS_ASPECT_PHRASES_EN = {"Definitions": "know the terms and definitions of {topic}", "Rules and properties": "use the rules of {topic}",
                           "Worked examples": "solve problems on {topic} by following worked examples",
                           "Solving step by step": "solve problems on {topic} step by step",
                           "Common mistakes": "avoid the common mistakes with {topic}", "Practice and review": "practise {topic} and check your answers"}
# Each point of a maths lesson's definitions has its own concept page: what it builds on, how it is written, when it is used.
MATHS_CONCEPTS = {language: tuple(_lines_said(f"deck_maths_concept_{key}", language) for key in ("terms", "notation", "signs"))
                  for language in ("zh", "en")}
MATHS_WORDING = {
    "zh": {"aspects": {a: ("{topic}的" + a, points) for a, points in MATHS_ASPECT_POINTS_ZH.items()}, "phrases": MATHS_ASPECT_PHRASES_ZH,
           "objective": "{phrase}", "description": "{phrase}", "core": ("概念与定义", "典型例题", "法则与性质"),
           # a problem is solved, and gone wrong, with a rule or an example in hand, not a definition; the solving steps
           # are not solved in steps again ("审题" → "读题：圈出已知和所求")
           "fits": {"process": ("法则与性质", "典型例题", "练习与巩固"),
                    "contrast": ("法则与性质", "典型例题", "解题步骤", "常见错误", "练习与巩固")},
           "mechanism": None, "method": "解题步骤", "teaching": (),
           # every point is worked as a sum is: wrong ways and right ones, whatever the point ("判断方法：学习前后" said nothing)
           **_contrast_said("maths", "zh"),
           "contrasts": {"练习与巩固": LESSON_CONTRASTS_ZH["练习与巩固"]},
           "concept": ("{name}：{description}", "它回答的问题：这一步为什么成立", "记住关键词：{unit}"),
           "concepts": dict(zip(MATHS_ASPECT_POINTS_ZH["概念与定义"], MATHS_CONCEPTS["zh"])),
           "process_title": "一步步掌握{name}",
           # a problem's steps, the same whatever the point: "用基础例题写出算式或方程" put the point in the sum
           "stages": (("读题", "圈出已知和所求"), ("想思路", "怎样用{name}的思路解这道题"), ("求解", "写出算式，一步一步算出结果"),
                      ("检验", "把结果代回去检查")),
           "activities": ("例题讲解", "小组讨论", "板演练习", "画图分析", "错题订正"),
           # each try names its own point: a long deck has one for each, and the same three lines read as one page again
           "example": "{name}：练一练", "example_items": ("找一道考查{name}的题，圈出已知和所求", "按步骤解出来，写出过程",
                                                      "和同桌核对解题过程"),
           "example_visual": "例题板书",
           "exercise_items": ("说一说{first}是什么", "做一道与{topic}有关的题目，写出每一步", "{first}和{last}有什么联系？"),
           "asks": ("你能用自己的话说说{unit}吗？", "做题时，哪一步你最容易出错？", "今天哪一类题你还想再练一练？"),
           "fillers": ("我们先来看这一点。", "请大家在草稿纸上算一算。", "这一点在练习中还会用到。", "掌握了这里，后面的题就容易了。"),
           "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家先在草稿纸上试一试，再看讲解。",
                          "我们用一道例题来理解{name}。", "讲{name}时，要把它放回{topic}的整体里看。",
                          "弄清了{name}，接下来的{next}就好理解了。", "请把{name}和一道例题一起记在笔记里。",
                          "如果对{name}还有疑问，先记下来，练习环节我们一起解决。",
                          "请大家留意{name}和{unit}里其他要点的关系。", "下课前，试着向同桌讲一讲{name}。"),
           "notes_again": ("我们再回到{name}，这次换一道题来看。", "前面讲过{name}，现在请大家自己动手算一算。",
                           "请大家对照前面的例题，看看自己能不能独立完成{name}。", "这一次，请大家先说说思路，再听我讲。"),
           "notes_cover": ("这{n}个部分分别是：{units}。", "请大家准备好草稿纸和笔记本，课上会边讲边练。",
                           "学完这节课，希望大家能说清{topic}是什么，并能用它解题。",
                           "开始之前，请大家想一想：以前学过的哪些知识和{topic}有关？", "课上有任何问题，都可以随时举手提出来。")},
    "en": {"aspects": {a: (MATHS_ASPECT_TITLES_EN[a], points) for a, points in MATHS_ASPECT_POINTS_EN.items()},
           "phrases": MATHS_ASPECT_PHRASES_EN, "objective": "{phrase}", "description": "{phrase}",
           "core": ("Definitions", "Worked examples", "Rules and properties"), "mechanism": None, "method": "Solving step by step",
           "fits": {"process": ("Rules and properties", "Worked examples", "Practice and review"),
                    "contrast": ("Rules and properties", "Worked examples", "Solving step by step", "Common mistakes",
                                 "Practice and review")},
           "teaching": (),
           **_contrast_said("maths", "en"),
           "contrasts": {"Practice and review": LESSON_CONTRASTS_EN["Practice and review"]},
           "concept": ("{name}: {description}", "The question it answers: why does this step work", "Keyword: {unit}"),
           "concepts": dict(zip(MATHS_ASPECT_POINTS_EN["Definitions"], MATHS_CONCEPTS["en"])),
           "stages": (("Read", "mark what is given and what is asked"), ("Plan", "link the problem to {name}"),
                      ("Solve", "set it up and work it out step by step"), ("Check", "put the answer back in to check it")),
           "activities": ("Worked example", "Group discussion", "Board practice", "Draw a diagram", "Error correction"),
           "example": "{name}: try one",
           "example_items": ("Take a problem on {name} and mark what is given", "Solve it step by step, showing your working",
                             "Check your working with a partner"),
           "example_visual": "Worked example on the board",
           "exercise_items": ("Explain {first} in your own words", "Solve a problem on {topic}, showing every step",
                              "How do {first} and {last} connect?"),
           "asks": ("Can you explain {unit} in your own words?", "Which step do you most often get wrong?",
                    "Which kind of problem would you like to practise more?"),
           "fillers": ("Let us look at this closely.", "Try it on scrap paper first.", "We will use this again in the practice.",
                       "With this in place the next problems follow."),
           "notes_page": ("This slide is about {name}, part of {unit}.", "Try it on scrap paper before we go through it.",
                          "A worked example can make {name} easier to see.", "Keep {name} in mind as part of {topic} as a whole.",
                          "With {name} clear, {next} will be easier to follow.", "Write {name} in your notes with an example of your own.",
                          "If anything about {name} is unclear, note it down and we will sort it out in the practice.",
                          "Notice how {name} link{s} to the other points in {unit}.",
                          "Before the end of class, explain {name} to a partner in one sentence.",
                          "We will meet {name} again in the exercises, so make sure {it} {is} clear now."),
           "notes_again": ("We come back to {name}, this time with a new problem.", "We met {name} earlier; now try {them} on your own.",
                           "Compare this with the example before: can you do {name} without help now?",
                           "This time, tell me your first step before I explain."),
           "notes_cover": ("The parts are: {units}.", "Have scrap paper and your notebook ready; we will work problems as we go.",
                           "By the end you should be able to say what {topic} {is} and solve problems with {them}.",
                           "Before we start, think of what you already know that connects to {topic}.",
                           "Raise your hand at any time if you have a question.")},
}


def _naming(wording, name: str):
    """A wording whose {topic} is said as the given name ("Spanish", not "Spanish basics")."""
    if isinstance(wording, str):
        return wording.replace("{topic}", name)
    if isinstance(wording, tuple):
        return tuple(_naming(item, name) for item in wording)
    if isinstance(wording, dict):
        return {key: _naming(value, name) for key, value in wording.items()}
    return wording


# The words a deck is told in follow its setting (planning.deck_setting): a lesson speaks of the class and
# its activities, a talk at work or in public of the agenda, cases and what they mean for the listeners.
WORDING = {
    ("lesson", "zh"): {
        "notes_flow": "讲到{unit}时，请大家重点关注{points}。",
        # Speaker notes say the page's own points: each item led in turn, then lines about the point it shows.
        "item_leads": ("先看第一点，", "第二点，", "第三点，", "第四点，", "最后一点，"),
        "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家先想一想：说到{name}，你会想到什么？",
                       "我们可以找一个生活中的例子来理解{name}。", "讲{name}时，要把它放回{topic}的整体里看。",
                       "弄清了{name}，接下来的{next}就好理解了。", "请把{name}记在笔记里，课后复习时会用到。",
                       "如果对{name}还有疑问，先记下来，课后我们再讨论。",
                       "请大家留意{name}和{unit}里其他要点的关系。", "下课前，试着用一句话向同桌说明{name}。",
                       "想一想：如果少了{name}，后面的内容还讲得通吗？", "花一点时间，把{name}和你已经知道的东西联系起来。",
                       "后面的练习还会用到{name}，所以现在要把它弄清楚。", "能不能把{name}讲给别人听，是检验自己懂没懂的好办法。"),
        "notes_again": ("我们再回到{name}，这次换一个角度来看。", "前面讲过{name}，现在把它和实际联系起来。",
                        "请大家对照前面的内容，看看对{name}的理解有没有变化。", "这一次，请大家自己先说一说{name}，再听我讲。"),
        "notes_plan": ("这个安排只是参考，我们会根据大家的掌握情况调整。", "每一部分结束时，我们都会停下来确认一下大家是否跟上了。",
                       "请大家按这个节奏跟上，遇到困难及时提出。"),
        "notes_cover": ("这{n}个部分分别是：{units}。", "{topic}和我们的日常生活联系很紧密。",
                        "请大家准备好笔记本，重要的地方我会提醒大家记下来。", "学完这节课，希望大家能说清{topic}是什么、为什么重要。",
                        "开始之前，请大家想一想：你在哪里见过或听说过{topic}？", "课上有任何问题，都可以随时举手提出来。"),
        "notes_part": "第{nth}部分是{unit}，讲{points}。", "notes_minutes": "每个部分大约{m}分钟，最后留出时间总结和提问。",
        "notes_recap": "关于{unit}，我们讲了{points}。",
        "notes_summary": ("请大家用自己的话把这几点复述一遍。", "回去后可以对照这几点复习{topic}。"),
        "notes_qa": ("大家可以先和同桌讨论一两分钟，再举手发言。", "这些问题没有唯一的标准答案，说出你的理由就好。", "今天的课就到这里，谢谢大家！"),
        "aspects": {a: ("{topic}的" + a, ASPECT_POINTS_ZH[a]) for a in ASPECTS_ZH}, "objective": "理解{topic}的{aspect}",
        # A lesson starts from its basics; one on how or why a thing works explains its mechanism, one on how to do it its process.
        "core": ASPECTS_ZH[:1], "mechanism": ASPECTS_ZH[1], "method": ASPECTS_ZH[2], "teaching": ASPECTS_ZH[1:4],
        "uses": ASPECTS_ZH[3],
        "description": "{phrase}", "phrases": LESSON_PARTS_SAID_ZH,
        "concept": ("{name}：{description}", "它回答的问题：{topic}为什么会这样", "记住关键词：{unit}"),
        "concepts": LESSON_CONCEPTS_ZH,
        "process_title": "一步步理解{name}", **_contrast_said("before_after", "zh"),
        "contrasts": LESSON_CONTRASTS_ZH, "processes": LESSON_STEPS_ZH,
        "statement": _lines_said("deck_lesson_statement", "zh"), "table_questions": _lines_said("deck_lesson_table_questions", "zh"),
        "exercise_items": ("用自己的话解释{first}", "举一个生活中与{topic}有关的例子", "{first}和{last}有什么联系？"),
        "parts": "本课共 {n} 个部分", "hello": "大家好，今天我们一起学习{topic}。", "has_parts": "本节课分为{n}个部分。",
        "agenda": "本课内容", "questions": "思考与提问", "time_plan": "本课时间分配", "flow": "课堂流程",
        "asks": ("你能用自己的话解释{unit}吗？", "{topic}在生活中还有哪些例子？", "今天哪一点你还想深入了解？"),
        "fillers": ("我们先来看这一点。", "请大家结合生活中的例子想一想。", "这一点在后面还会用到。", "理解了这里，后面的内容就容易了。"),
        "stages": (("观察现象", "找一个与{name}有关的现象"), ("提出问题", "{name}为什么是这样？"), ("分析原理", "把{name}放回{unit}里解释"), ("得出结论", "用一句话说清{name}")), "table": "{unit}：学习路线",
        "table_head": "知识点｜要解决的问题｜课堂活动", "activities": ("观察与记录", "小组讨论", "动手实验", "画图归纳", "联系生活"),
        "example": "{name}：身边的例子",
        "example_items": ("在生活中找一找与{name}有关的现象", "用{unit}解释这个现象", "和同桌交流你的发现"),
        "example_visual": "生活场景配图", "exercise": "课堂练习",
    },
    ("work_lesson", "zh"): {
        "notes_flow": "读到{unit}时，请大家重点关注{points}。",
        "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家回到原文，找一找与{name}有关的语句。",
                       "读到这里，请想一想：作者为什么这样写？", "讲{name}时，要把它放回{topic}的整体里看。",
                       "弄清了{name}，接下来的{next}就好理解了。", "请把{name}的要点和相关语句记在笔记里。",
                       "如果对{name}有不同的理解，先记下来，讨论环节我们再交流。",
                       "请大家留意{name}和{unit}里其他要点的关系。", "下课前，试着用一句话向同桌说说你对{name}的理解。"),
        "notes_again": ("我们再回到{name}，这次换一个角度来读。", "前面讲过{name}，现在结合原文再读一读。",
                        "请大家对照前面的内容，看看对{name}的理解有没有变化。", "这一次，请大家自己先说一说{name}，再听我讲。"),
        "notes_plan": ("这个安排只是参考，我们会根据大家的阅读情况调整。", "每一部分结束时，我们都会停下来确认一下大家是否读懂了。",
                       "请大家把原文放在手边，课上会不断回到原文。"),
        "notes_cover": ("这{n}个部分分别是：{units}。", "请大家把{topic}放在手边，课上我们会不断回到原文。",
                        "请大家准备好笔记本，重要的语句我会提醒大家圈画下来。", "学完这节课，希望大家能说清{topic}写了什么、表达了什么。",
                        "开始之前，请大家想一想：读{topic}时，哪一处给你留下的印象最深？", "课上有任何问题，都可以随时举手提出来。"),
        "notes_minutes": "每个部分大约{m}分钟，最后留出时间总结和讨论。",
        "notes_summary": ("请大家用自己的话把这几点复述一遍。", "回去后可以重读{topic}，对照这几点复习。"),
        "notes_qa": ("大家可以先和同桌讨论一两分钟，再举手发言。", "这些问题没有唯一的标准答案，言之有据就好。", "今天的课就到这里，谢谢大家！"),
        "aspects": {a: ("{topic}的" + a, points) for a, points in WORK_ASPECT_POINTS_ZH.items()}, "phrases": WORK_ASPECT_PHRASES_ZH,
        "objective": "{phrase}", "description": "{phrase}",
        # A short lesson on a work still reads what it tells and what it means; a story has characters, a poem images.
        "core": ("内容与结构", "主题与意义", "作者与背景"), "narrative": "人物形象", "verse": "意象与意境",
        "concept": ("{name}：{description}", "它回答的问题：作者为什么这样写", "记住关键词：{unit}"),
        "process_title": "一步步读懂{name}", "contrast_title": "{name}：误读与正解",
        "contrast": ("误读：{name}只要记住结论就够了", "误读：{name}可以脱离原文来谈",
                     "正解：要从原文语句中读出{name}", "正解：{name}要和{unit}联系起来理解"),
        "exercise_items": ("用自己的话说一说{first}", "从{topic}中找出一处你最喜欢的语句，说说理由", "{first}和{last}有什么联系？"),
        "questions": "思考与讨论",
        "asks": ("你能用自己的话说说{unit}吗？", "{topic}中哪一处最打动你？为什么？", "读完{topic}，你还有哪些疑问？"),
        "fillers": ("我们先来看这一点。", "请大家回到原文找一找依据。", "这一点在后面还会用到。", "读懂了这里，后面的内容就容易了。"),
        "stages": (("初读感知", "通读{topic}，圈出与{name}有关的语句"), ("细读品味", "逐句品读圈出的语句"), ("分析探究", "想一想作者为什么这样写"), ("总结提升", "用一句话概括{name}")),
        "activities": ("朗读品味", "小组讨论", "圈点批注", "比较阅读", "联系自身经历"),
        "example": "{name}：原文中的例子",
        "example_items": ("在原文中找出体现{name}的语句", "用{unit}分析这处语句", "和同桌交流你的发现"),
        "example_visual": "原文片段配图",
    },
    ("history_lesson", "zh"): {
        "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家想一想：{name}放在当时的时代背景下该怎么看？",
                       "我们可以结合史料来理解{name}。", "讲{name}时，要把它放回{topic}的整体里看。",
                       "弄清了{name}，接下来的{next}就好理解了。", "请把{name}和相关的时间、人物记在笔记里。",
                       "如果对{name}有不同看法，先记下来，讨论环节我们再交流。",
                       "请大家留意{name}和{unit}里其他要点的因果联系。", "下课前，试着用一句话向同桌说明{name}。"),
        "notes_again": ("我们再回到{name}，这次换一个角度来看。", "前面讲过{name}，现在结合史料再看一看。",
                        "请大家对照前面的内容，看看对{name}的认识有没有变化。", "这一次，请大家自己先说一说{name}，再听我讲。"),
        "notes_plan": ("这个安排只是参考，我们会根据大家的掌握情况调整。", "每一部分结束时，我们都会停下来确认一下大家是否跟上了。",
                       "请大家把时间轴画在笔记本上，边听边补充。"),
        "notes_cover": ("这{n}个部分分别是：{units}。", "请大家准备好笔记本，把重要的时间、人物和事件记下来。",
                        "学完这节课，希望大家能说清{topic}的来龙去脉和它的影响。",
                        "开始之前，请大家想一想：关于{topic}，你已经知道些什么？", "课上有任何问题，都可以随时举手提出来。"),
        "notes_minutes": "每个部分大约{m}分钟，最后留出时间总结和讨论。",
        "notes_summary": ("请大家用自己的话把这几点复述一遍。", "回去后可以对照时间轴复习{topic}。"),
        "notes_qa": ("大家可以先和同桌讨论一两分钟，再举手发言。", "历史问题往往没有唯一答案，言之有据就好。", "今天的课就到这里，谢谢大家！"),
        "aspects": {a: ("{topic}的" + a, points) for a, points in HISTORY_ASPECT_POINTS_ZH.items()},
        "phrases": HISTORY_ASPECT_PHRASES_ZH, "objective": "{phrase}", "description": "{phrase}",
        # A short history lesson still tells why it happened, how it went and what came of it.
        "core": ("背景与原因", "经过与时间线", "结果与影响"), "consequences": "结果与影响",
        # a timeline runs through what happened and what came of it: "背景起因：根本原因从何而来" said a cause twice
        "fits": {"process": ("主要经过", "关键转折", "结果与影响")},
        "concept": ("{name}：{description}", "它回答的问题：当时为什么会这样", "记住关键词：{unit}"),
        "process_title": "按时间线看{name}", **_contrast_said("history", "zh"),
        "exercise_items": ("用自己的话说说{first}", "把{topic}的主要事件按时间先后排一排", "{first}和{last}有什么联系？"),
        "questions": "思考与讨论",
        "asks": ("你能用自己的话说说{unit}吗？", "如果你生活在那个时代，你会怎么看{topic}？", "关于{topic}，你还想查阅哪些史料？"),
        "fillers": ("我们先来看这一点。", "请大家结合当时的背景想一想。", "这一点在后面还会用到。", "理解了这里，后面的内容就容易了。"),
        "stages": (("背景起因", "{name}从何而来"), ("事件经过", "按时间先后梳理{name}"), ("结果影响", "{name}带来了哪些变化"), ("评价反思", "今天怎样看待{name}")),
        "activities": ("史料阅读", "小组讨论", "绘制时间轴", "角色扮演", "观点辩论"),
        "example": "{name}：史料中的证据",
        "example_items": ("读一段与{name}有关的史料", "用{unit}分析这段史料", "和同桌交流你的看法"),
        "example_visual": "历史图片或史料原件",
    },
    ("language_lesson", "zh"): {
        "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家先读一读例句，找一找{name}体现在哪里。",
                       "我们把{name}放进一个真实的句子里来看。", "学{name}时，要把它放回{topic}的整体里看。",
                       "弄清了{name}，接下来的{next}就好理解了。", "请把{name}和一个你自己造的例句记在笔记里。",
                       "如果对{name}还有疑问，先记下来，练习环节我们一起解决。",
                       "请大家留意{name}和{unit}里其他要点的关系。", "下课前，试着用{name}说一句话给同桌听。"),
        "notes_again": ("我们再回到{name}，这次放在新的句子里看。", "前面讲过{name}，现在请大家自己造句用一用。",
                        "请大家对照前面的例句，看看自己能不能说对{name}。", "这一次，请大家先试着说出{name}，再听我讲。"),
        "notes_plan": ("这个安排只是参考，我们会根据大家的掌握情况调整。", "每一部分结束时，我们都会做一两道小练习确认大家掌握了。",
                       "请大家边听边记例句，练习时会用到。"),
        "notes_cover": ("这{n}个部分分别是：{units}。", "请大家准备好笔记本，把规则和例句一起记下来。",
                        "学完这节课，希望大家能正确地说出、写出{topic}。",
                        "开始之前，请大家想一想：你在哪些句子里见过{topic}？", "课上有任何问题，都可以随时举手提出来。"),
        "notes_minutes": "每个部分大约{m}分钟，最后留出时间练习和提问。",
        "notes_summary": ("请大家用自己的例句把这几点说一遍。", "回去后可以对照这几点复习{topic}，再做几道练习。"),
        "notes_qa": ("大家可以先和同桌用今天学的内容对话一两分钟，再举手发言。", "说错了没关系，多开口才能学好。", "今天的课就到这里，谢谢大家！"),
        "aspects": {a: (LANGUAGE_ASPECT_TITLES_ZH[a], points) for a, points in LANGUAGE_ASPECT_POINTS_ZH.items()},
        "concepts": LANGUAGE_CONCEPTS["zh"],
        "phrases": LANGUAGE_ASPECT_PHRASES_ZH, "objective": "{phrase}", "description": "{phrase}",
        # A short language lesson still shows what it means, how it is formed and where it goes wrong.
        "core": ("意义与用法", "形式与结构", "常见错误"),
        "concept": ("{name}：{description}", "它回答的问题：什么时候这样说、这样写", "记住关键词：{unit}"),
        "process_title": "一步步学会{name}", "contrast_title": "{name}：错误与正确",
        "contrast": ("错误：只背规则，不看例句", "错误：把{name}和相近的形式混用",
                     "正确：在句子里理解{name}", "正确：把{name}和{unit}联系起来用"),
        "exercise_items": ("用{first}造一个句子", "找出下面句子中{topic}的错误并改正", "{first}和{last}有什么不同？"),
        "questions": "练一练，说一说",
        "asks": ("你能用今天学的{topic}造一个句子吗？", "{unit}里，哪一点你还拿不准？", "今天哪一点你最容易说错？"),
        "fillers": ("我们先来看这一点。", "请大家大声读一读这个例句。", "这一点在练习中还会用到。", "掌握了这里，后面的内容就容易了。"),
        "stages": (("看例句", "在例句中找出{name}"), ("找规律", "从例句中归纳{name}"), ("练一练", "在填空句中练习{name}"), ("用起来", "在自己的句子里运用{name}")),
        "activities": ("朗读例句", "同伴对话", "句型操练", "改错练习", "情境写作"),
        "example": "{name}：语境中的例子",
        "example_items": ("读一段含有{name}的对话", "用{unit}说明这段话里的用法", "和同桌用它编一段对话"),
        "example_visual": "对话情境配图",
    },
    ("language_lesson", "en"): {
        "notes_page": ("This slide is about {name}, part of {unit}.", "Read the example sentences first: where do you see {name}?",
                       "Let us put {name} into a real sentence.", "Keep {name} in mind as part of {topic} as a whole.",
                       "With {name} clear, {next} will be easier to follow.", "Write {name} in your notes with an example sentence of your own.",
                       "If anything about {name} is unclear, note it down and we will sort it out in the practice.",
                       "Notice how {name} link{s} to the other points in {unit}.", "Before the end of class, say a sentence with {name} to a partner.",
                       "Say the examples aloud; your ear learns {name} as well as your eyes.", "Take a moment to compare {name} with how your own language does it.",
                       "We will use {name} again in the practice, so make sure {it} {is} clear now.", "A good test of knowing {name} is whether you can use {them} without thinking."),
        "notes_again": ("We come back to {name}, this time in new sentences.", "We met {name} earlier; now you try {them} in sentences of your own.",
                        "Compare this with the examples before: can you get {name} right now?", "This time, say a sentence with {name} before I explain.",
                        "Listen for {name} in the dialogue.", "Think about how {name} fit{s} together with everything we have covered so far on {topic}."),
        "notes_plan": ("This plan is a guide; we will adjust it to how the class is doing.", "At the end of each part we will do a quick exercise to check.",
                       "Write down the example sentences as we go; you will need them in the practice."),
        "notes_cover": ("The parts are: {units}.", "Have your notebook ready for the rules and, above all, the examples.",
                        "By the end you should be able to use {topic} correctly when you speak and write.",
                        "Before we start, think of a sentence you know that uses {topic}.", "Raise your hand at any time if you have a question."),
        "notes_minutes": "Each part takes about {m} minutes, with time at the end for practice and questions.",
        "notes_summary": ("Try to give an example sentence for each of these.", "Use these points to review {topic}, then do a few exercises."),
        "notes_qa": ("Take a minute to try it out with a partner, then share your sentences.", "Mistakes are part of learning a language; have a go.", "That is all for today. Thank you!"),
        "aspects": {a: (LANGUAGE_ASPECT_TITLES_EN[a], points) for a, points in LANGUAGE_ASPECT_POINTS_EN.items()},
        "concepts": LANGUAGE_CONCEPTS["en"],
        "phrases": LANGUAGE_ASPECT_PHRASES_EN, "objective": "{phrase}", "description": "{phrase}",
        "core": ("Meaning and use", "Form", "Common mistakes"),
        "concept": ("{name}: {description}", "The question it answers: when do we say it this way", "Keyword: {unit}"),
        "process_title": "{name}, step by step", "contrast_title": "{name}: wrong and right",
        "contrast": ("Wrong: learning the rule for {name} without examples", "Wrong: mixing up {name} with a similar form",
                     "Right: {name} learned in whole sentences", "Right: {name} used together with {unit}"),
        "exercise_items": ("Write a sentence with {first}", "Find and correct the mistakes with {topic}",
                           "How do {first} and {last} differ?"),
        "questions": "Try it out",
        "asks": ("Can you make a sentence of your own with {topic}?", "Which point in {unit} are you still unsure of?", "Which mistake do you most want to avoid?"),
        "fillers": ("Let us look at this closely.", "Read this example aloud.", "We will use this again in the practice.", "With this in place the rest follows."),
        "stages": (("Notice", "spot {name} in example sentences"), ("Find the rule", "work out {name} from the examples"),
                   ("Practise", "try {name} in gap-fill sentences"), ("Use it", "apply {name} in sentences of your own")),
        "activities": ("Read aloud", "Pair dialogue", "Pattern drill", "Error correction", "Short writing"),
        "example": "{name}: in context",
        "example_items": ("Read a short dialogue that uses {name}", "Explain the use with {unit}", "Make up a dialogue with a partner"),
        "example_visual": "Dialogue scene picture",
    },
    ("talk", "zh"): {
        "notes_flow": "谈到{unit}时，请大家重点关注{points}。",
        "item_leads": ("先看第一点，", "第二点，", "第三点，", "第四点，", "最后一点，"),
        "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家对照自己的工作想一想：{name}在你那里是什么情况？",
                       "关于{name}，我们可以看一个实际案例。", "看{name}时，要把它放回{topic}的整体里看。",
                       "明确了{name}，接下来的{next}就清楚了。", "关于{name}，会后我会把相关材料发给大家。",
                       "如果对{name}有不同看法，欢迎在讨论环节提出来。",
                       "请大家留意{name}和{unit}里其他要点的关系。", "会后请大家想一想：在{name}上，我们下一步可以做什么？",
                       "不妨设想一下：如果没有{name}，{topic}会有什么不同？", "关于{name}的详细数据，放在附录里，供大家会后查阅。"),
        "notes_again": ("我们再回到{name}，这次换一个角度来看。", "前面谈过{name}，现在结合实际情况再看一看。",
                        "请大家对照前面的内容，看看对{name}有没有新的认识。", "关于{name}，也欢迎大家分享自己的做法。", "请大家想一想最近遇到的哪件事和{name}有关。"),
        "notes_plan": ("这个安排只是参考，我们会根据讨论情况灵活调整。", "每一部分结束时，我会留一点时间回答问题。",
                       "如果时间不够，我们会优先保证讨论环节。"),
        "notes_cover": ("这{n}个部分分别是：{units}。", "{topic}和我们每个人的工作都有关系。",
                        "今天的材料会后会发给大家，不必逐字记录。", "今天的目标，是让大家对{topic}有一个清晰、一致的认识。",
                        "开始之前，请大家想一想：{topic}和你手头的工作有什么关系？", "过程中有问题可以随时提出，最后也会留出讨论时间。"),
        "notes_part": "第{nth}部分是{unit}，讲{points}。", "notes_minutes": "每个部分大约{m}分钟，最后留出时间总结和讨论。",
        "notes_recap": "关于{unit}，我们谈了{points}。",
        "notes_summary": ("这些要点，大家可以带回自己的工作中去对照。", "会后我会把今天的材料发给大家，方便回顾{topic}。"),
        "notes_qa": ("欢迎大家提问，也欢迎分享你的经验。", "今天没来得及讨论的问题，会后可以单独找我。", "感谢大家的时间！"),
        "aspects": {a: (a, points) for a, points in TALK_ASPECT_POINTS_ZH.items()}, "objective": "了解{topic}的{aspect}",
        "description": "说明{topic}的{aspect}",
        "concept": _lines_said("deck_talk_concept", "zh"),
        "process_title": "{name}：逐步梳理", **_contrast_said("talk", "zh"),
        "statement": _lines_said("deck_talk_statement", "zh"), "table_questions": _lines_said("deck_talk_table_questions", "zh"),
        "exercise_items": ("用一句话说明{first}", "结合你的工作，举一个与{topic}有关的实例", "“{first}”与“{last}”有什么联系？"),
        "parts": "本次分享共 {n} 个部分", "hello": "大家好，今天由我来和大家谈谈{topic}。", "has_parts": "今天的内容分为{n}个部分。",
        "agenda": "今日议程", "questions": "提问与讨论", "time_plan": "时间分配", "flow": "流程安排",
        "asks": ("{topic}对我们意味着什么？", "接下来我们可以怎么做？", "还有哪些问题需要进一步讨论？"),
        "fillers": ("我们先来看这一点。", "请大家结合自己的实际情况想一想。", "这一点在后面还会用到。", "明确了这一点，后面的内容就清楚了。"),
        "stages": (("回顾现状", "{name}目前的情况"), ("找出问题", "{name}还有哪些不足"), ("分析原因", "问题出在哪里"), ("确定行动", "下一步由谁、何时做什么")), "table": "{unit}：一览",
        "table_head": "要点｜要回答的问题｜呈现方式", "activities": ("数据回顾", "案例分析", "现场讨论", "图表说明", "经验分享"),
        "example": "{name}：实际案例",
        "example_items": ("一个与{name}有关的实际案例", "用{unit}分析这个案例", "讨论：它对我们有什么启示"),
        "example_visual": "案例配图", "exercise": "练习",
    },
    ("training", "zh"): {
        "notes_flow": "讲到{unit}时，请大家重点关注{points}。",
        "item_leads": ("先看第一点，", "第二点，", "第三点，", "第四点，", "最后一点，"),
        "notes_page": ("这一页的重点是{name}，它属于{unit}这一部分。", "请大家对照自己的岗位想一想：工作中什么时候会用到{name}？",
                       "关于{name}，我们来看一个工作中的实际例子。", "讲{name}时，要把它放回{topic}的整体要求里看。",
                       "掌握了{name}，接下来的{next}就容易上手了。", "{name}是培训后考核的重点，请大家记下来。",
                       "如果对{name}还有疑问，先记下来，练习环节我们一起解决。",
                       "请大家留意{name}和{unit}里其他要点的关系。", "培训结束前，请试着用一句话向身边的同事说明{name}。",
                       "不妨设想一下：如果忽略了{name}，工作中可能会出什么问题？", "关于{name}的详细规定，会后发给大家的材料里都有。"),
        "notes_again": ("我们再回到{name}，这次看看实际操作中怎么做。", "前面讲过{name}，现在结合岗位上的情况再练一练。",
                        "请大家对照前面的内容，检查自己是否已经掌握了{name}。", "这一次，请大家先说说自己会怎么处理{name}，再听我讲。",
                        "请大家想一想最近工作中哪件事和{name}有关。"),
        "notes_plan": ("这个安排只是参考，我们会根据大家的掌握情况调整。", "每一部分结束时，我们都会停下来确认大家是否掌握了。",
                       "如果时间不够，我们会优先保证练习环节。"),
        "notes_cover": ("这{n}个部分分别是：{units}。", "{topic}和每个人的日常工作都直接相关。",
                        "培训材料会后会发给大家，重要的地方我会提醒大家记下来。", "培训结束时，希望大家知道该怎么做、为什么要这样做。",
                        "开始之前，请大家想一想：你的工作中哪些地方会用到{topic}？", "过程中有问题可以随时提出，最后也会留出练习和答疑的时间。"),
        "notes_part": "第{nth}部分是{unit}，讲{points}。", "notes_minutes": "每个部分大约{m}分钟，最后留出时间练习和答疑。",
        "notes_recap": "关于{unit}，我们讲了{points}。",
        "notes_summary": ("请大家把这几点带回岗位，对照着做。", "会后请对照培训材料，把{topic}的要点再过一遍。"),
        "notes_qa": ("有问题请现在提出，也欢迎分享你在工作中遇到的情况。", "没来得及解答的问题，会后可以单独找我。", "今天的培训就到这里，谢谢大家！"),
        "aspects": {a: (a, points) for a, points in TRAINING_ASPECT_POINTS_ZH.items()}, "phrases": TRAINING_ASPECT_PHRASES_ZH,
        "objective": "{phrase}", "description": "{phrase}",
        # The parts a training always has, most needed first: a short one still shows the steps and the rules.
        "core": ("操作步骤", "基本规则", "常见错误"),
        # only a procedure is done step by step: "为禁止行为备好所需的东西" read as an order to break a rule
        # a wrong and a right way are of a rule or a routine, not of a mistake ("易犯错误" done "大概知道就行")
        "fits": {"process": ("操作步骤", "练习与检查"),
                 "contrast": ("对岗位的要求", "必守规定", "责任分工", "准备工作", "操作流程", "完成后检查", "纠正方法", "自查清单")},
        "concept": ("{name}：{description}", "要回答的问题：在{name}上具体该怎么做", "实际中：什么时候会用到{name}"),
        "process_title": "{name}：一步一步来", "contrast_title": "{name}：错误做法与正确做法",
        "contrast": ("错误做法：{name}大概知道就行", "错误做法：{name}是别人的事",
                     "正确做法：{name}要逐条落实到位", "正确做法：每次都对照{name}检查一遍"),
        "statement": _lines_said("deck_training_statement", "zh"),
        "exercise_items": ("用一句话说明{first}", "结合你的岗位，说一说{topic}中最容易出错的地方", "“{first}”与“{last}”有什么联系？"),
        "parts": "本次培训共 {n} 个部分", "hello": "大家好，今天的培训内容是{topic}。", "has_parts": "今天的培训分为{n}个部分。",
        "agenda": "今日议程", "questions": "提问与答疑", "time_plan": "时间分配", "flow": "流程安排",
        "asks": ("回到岗位后，你最先要做到的是哪一点？", "{unit}里还有哪一点你没有把握？", "工作中遇到拿不准的情况，应该找谁确认？"),
        "fillers": ("我们先来看这一点。", "请大家结合自己的岗位想一想。", "这一点在练习环节还会用到。", "做好了这一点，后面的步骤就顺了。"),
        "stages": (("明确要求", "弄清{name}的要求"), ("做好准备", "为{name}备好所需的东西"), ("按步骤操作", "照流程落实{name}"), ("检查确认", "对照清单复查{name}")), "table": "{unit}：一览",
        "table_head": "要点｜要回答的问题｜培训方式", "activities": ("讲解示范", "案例分析", "分组演练", "现场操作", "自查打分"),
        "example": "{name}：工作中的例子",
        "example_items": ("一个与{name}有关的工作实例", "用{unit}的要求分析这个实例", "讨论：换作是你，会怎么做"),
        "example_visual": "工作场景配图", "exercise": "练习",
    },
    ("lesson", "en"): {
        "notes_flow": "When we reach {unit}, watch for {points}.",
        "item_leads": ("First, ", "Next, ", "Then, ", "Also, ", "Finally, "),
        "notes_page": ("This slide is about {name}, part of {unit}.", "Before we go on, think about {name}: where have you met {them}?",
                       "An everyday example can make {name} easier to see.", "Keep {name} in mind as part of {topic} as a whole.",
                       "With {name} clear, {next} will be easier to follow.", "Write {name} in your notes; we will come back to {them} when we review.",
                       "If anything about {name} is unclear, note it down and we will discuss it after class.",
                       "Notice how {name} link{s} to the other points in {unit}.", "Before the end of class, explain {name} to a partner in one sentence.",
                       "Ask yourself what would change in {topic} without {name}.", "Take a moment to connect {name} with something you already know.",
                       "We will meet {name} again in the exercises, so make sure {it} {is} clear now.", "A good test of understanding {name} is whether you could teach {them} to someone else."),
        "notes_again": ("We come back to {name}, this time from another angle.", "We met {name} earlier; now we connect {them} to real life.",
                        "Compare this with what we said before: has your picture of {name} changed?", "This time, say what you know about {name} before I explain.", "Look for {name} in an example you can see or touch.",
                        "Think about how to fit {name} together with everything we have covered so far on {topic}."),
        "notes_plan": ("This plan is a guide; we will adjust it to how the class is doing.", "At the end of each part we will stop to check that everyone is with us.",
                       "Keep to this pace, and tell me early if something is hard to follow."),
        "notes_cover": ("The parts are: {units}.", "You will find {topic} closer to everyday life than you might think.",
                        "Have your notebook ready; I will point out what to write down.", "By the end you should be able to say what {topic} {is} about and why {it} matter{s}.",
                        "Before we start, think of where you have seen or heard of {topic}.", "Raise your hand at any time if you have a question."),
        "notes_part": "Part {nth} covers {unit}: {points}.", "notes_minutes": "Each part takes about {m} minutes, with time at the end for a summary and questions.",
        "notes_recap": "In {unit}, we covered {points}.",
        "notes_summary": ("Try to say each of these in your own words.", "Use these points to review {topic} later."),
        "notes_qa": ("Take a minute to talk it over with a partner, then share your ideas.", "There is no single right answer; give your reasons.", "That is all for today. Thank you!"),
        "aspects": {a: (ASPECT_PHRASES_EN[a], ASPECT_POINTS_EN[a]) for a in ASPECTS_EN}, "phrases": ASPECT_PHRASES_EN,
        "core": ASPECTS_EN[:1], "mechanism": ASPECTS_EN[1], "method": ASPECTS_EN[2], "teaching": ASPECTS_EN[1:4],
        "uses": ASPECTS_EN[3],
        "objective": "Understand {phrase}", "description": "{what}", "descriptions": LESSON_PARTS_SAID_EN,
        "concept": ("{name}: {description}", "The question it answers: what makes {topic} work this way", "Keyword: {unit}"),
        "concepts": LESSON_CONCEPTS_EN,
        "process_title": "{name}, step by step", **_contrast_said("before_after", "en"),
        "contrasts": LESSON_CONTRASTS_EN, "processes": LESSON_STEPS_EN,
        "statement": _lines_said("deck_lesson_statement", "en"), "table_questions": _lines_said("deck_lesson_table_questions", "en"),
        "exercise_items": ("Explain {first} in your own words", "Give an everyday example of {topic}",
                           "How do {first} and {last} connect?"),
        "parts": "{n} parts in this lesson", "hello": "Hello, today we learn about {topic}.", "has_parts": "The lesson has {n} parts.",
        "agenda": "Today's plan", "questions": "Questions", "time_plan": "How the lesson time is spent", "flow": "Lesson flow",
        "asks": ("Can you explain {unit} in your own words?", "Where else do you meet {topic}?", "What would you like to explore further?"),
        "fillers": ("Let us look at this closely.", "Think of an everyday example.", "We will use this again later.", "With this in place the rest follows."),
        "stages": (("Observe", "find {name} in an example of {topic}"), ("Ask", "why {name} matter{s}"), ("Explain", "link {name} to {unit}"), ("Conclude", "sum up {name} in one sentence")), "table": "{unit} at a glance",
        "table_head": "Point | Question | Activity",
        "activities": ("Observe and record", "Group discussion", "Hands-on activity", "Draw and summarise", "Everyday link"),
        "example": "{name}: an everyday example",
        "example_items": ("Find something around you that shows {name}", "Explain it with {unit}", "Compare notes with a partner"),
        "example_visual": "Everyday scene picture", "exercise": "Exercises",
    },
    ("work_lesson", "en"): {
        "notes_page": ("This slide is about {name}, part of {unit}.", "Go back to the text: which lines help with {name}?",
                       "As you read, ask yourself why the writer chose to do it this way.", "Keep {name} in mind as part of {topic} as a whole.",
                       "With {name} clear, {next} will be easier to follow.", "Write {name} in your notes, with a line from the text; we will come back to {them} when we review.",
                       "If you read {name} differently, note it down and we will discuss it.",
                       "Notice how {name} link{s} to the other points in {unit}.", "Before the end of class, explain {name} to a partner in one sentence.",
                       "Mark the passage where {name} stands out most for you.", "Take a moment to connect {name} with something else you have read.",
                       "We will meet {name} again in the discussion, so make sure {it} {is} clear now.", "A good test of reading {name} well is whether you can back your view with a quotation."),
        "notes_again": ("We come back to {name}, this time from another angle.", "We met {name} earlier; now we read the text for {them} again.",
                        "Compare this with what we said before: has your reading of {name} changed?", "This time, say what you see in {name} before I explain.",
                        "Find {name} in a passage we have not read together yet.",
                        "Think about how {name} fit{s} together with everything we have covered so far on {topic}."),
        "notes_plan": ("This plan is a guide; we will adjust it to how the class is reading.", "At the end of each part we will stop to check that everyone is with us.",
                       "Keep the text open; we will go back to it again and again."),
        "notes_cover": ("The parts are: {units}.", "Keep {topic} open in front of you; we will keep going back to the text.",
                        "Have your notebook ready; I will point out the lines worth marking.", "By the end you should be able to say what {topic} {is} about and what {it} mean{s} to you.",
                        "Before we start, think of the moment in {topic} that stayed with you most.", "Raise your hand at any time if you have a question."),
        "notes_minutes": "Each part takes about {m} minutes, with time at the end for a summary and discussion.",
        "notes_summary": ("Try to say each of these in your own words.", "Reread {topic} with these points in mind."),
        "notes_qa": ("Take a minute to talk it over with a partner, then share your ideas.", "There is no single right reading; back yours with the text.", "That is all for today. Thank you!"),
        "aspects": {a: (WORK_ASPECT_TITLES_EN[a], points) for a, points in WORK_ASPECT_POINTS_EN.items()}, "phrases": WORK_ASPECT_PHRASES_EN,
        "core": ("What it tells", "Themes and meaning", "Author and background"), "narrative": "Characters", "verse": "Imagery and mood",
        "objective": "{phrase}", "description": "{phrase}",
        "concept": ("{name}: {description}", "The question it answers: why the writer wrote it this way", "Keyword: {unit}"),
        "process_title": "Reading {name}, step by step", "contrast_title": "{name}: misreading and reading",
        "contrast": ("Misreading: a summary of the text is enough to understand {name}", "Misreading: {name} can be discussed without the text",
                     "Reading: {name} must be drawn from the words on the page", "Reading: {name} must be read together with {unit}"),
        "exercise_items": ("Explain {first} in your own words", "Pick a line from {topic} you like and say why",
                           "How do {first} and {last} connect?"),
        "hello": "Hello, today we read {topic} together.",
        "questions": "Questions for discussion",
        "asks": ("Can you explain {unit} in your own words?", "Which moment in {topic} moved you most, and why?", "What questions does {topic} leave you with?"),
        "fillers": ("Let us look at this closely.", "Find the evidence in the text.", "We will use this again later.", "With this in place the rest follows."),
        "stages": (("First reading", "read {topic} and mark the lines on {name}"), ("Close reading", "reread the marked lines slowly"), ("Analyse", "ask why the writer wrote them so"), ("Sum up", "put {name} in one sentence")),
        "activities": ("Read aloud", "Group discussion", "Annotate the text", "Compare texts", "Personal response"),
        "example": "{name}: in the text",
        "example_items": ("Find a passage that shows {name}", "Read it in the light of {unit}", "Compare notes with a partner"),
        "example_visual": "Passage from the text",
    },
    ("history_lesson", "en"): {
        "notes_page": ("This slide is about {name}, part of {unit}.", "Think about {name} as people saw {them} at the time.",
                       "A source from the period can make {name} easier to see.", "Keep {name} in mind as part of {topic} as a whole.",
                       "With {name} clear, {next} will be easier to follow.", "Write {name} in your notes, with the dates and names that go with {them}.",
                       "If you see {name} differently, note it down and we will discuss it.",
                       "Notice how {name} links, as cause or effect, to the other points in {unit}.", "Before the end of class, explain {name} to a partner in one sentence.",
                       "Ask yourself what would have changed without {name}.", "Place {name} on your timeline before we move on.",
                       "We will meet {name} again in the discussion, so make sure {it} {is} clear now.", "A good test of understanding {name} is whether you can back your view with evidence."),
        "notes_again": ("We come back to {name}, this time from another angle.", "We met {name} earlier; now we look at {them} through a source.",
                        "Compare this with what we said before: has your picture of {name} changed?", "This time, say what you know about {name} before I explain.",
                        "Look for {name} in a source we have not read yet.",
                        "Think about how {name} fit{s} together with everything we have covered so far on {topic}."),
        "notes_plan": ("This plan is a guide; we will adjust it to how the class is doing.", "At the end of each part we will stop to check that everyone is with us.",
                       "Keep a timeline in your notebook and add to it as we go."),
        "notes_cover": ("The parts are: {units}.", "Have your notebook ready for the dates, people and events that matter.",
                        "By the end you should be able to explain {topic} with its dates, people and evidence.",
                        "Before we start, think of what you already know about {topic}.", "Raise your hand at any time if you have a question."),
        "notes_minutes": "Each part takes about {m} minutes, with time at the end for a summary and discussion.",
        "notes_summary": ("Try to say each of these in your own words.", "Use your timeline to review {topic} later."),
        "notes_qa": ("Take a minute to talk it over with a partner, then share your ideas.", "Historians disagree too; back your view with evidence.", "That is all for today. Thank you!"),
        "aspects": {a: (HISTORY_ASPECT_TITLES_EN[a], points) for a, points in HISTORY_ASPECT_POINTS_EN.items()},
        "phrases": HISTORY_ASPECT_PHRASES_EN, "objective": "{phrase}", "description": "{phrase}",
        "core": ("Background and causes", "Course of events", "Consequences"), "consequences": "Consequences",
        "fits": {"process": ("the main events", "the turning points", "Consequences")},
        "concept": ("{name}: {description}", "The question it answers: why did it happen this way then", "Keyword: {unit}"),
        "process_title": "{name} on a timeline", **_contrast_said("history", "en"),
        "exercise_items": ("Explain {first} in your own words", "Put the main events of {topic} in order on a timeline",
                           "How do {first} and {last} connect?"),
        "questions": "Questions for discussion",
        "asks": ("Can you explain {unit} in your own words?", "Had you lived then, how would you have seen {topic}?",
                 "Which sources on {topic} would you like to read next?"),
        "fillers": ("Let us look at this closely.", "Think about how it looked at the time.", "We will use this again later.", "With this in place the rest follows."),
        "stages": (("Background", "what led to {name}"), ("Events", "how {name} unfolded, in order"), ("Results", "what {name} changed"), ("Judgement", "how we see {name} today")),
        "activities": ("Source reading", "Group discussion", "Timeline drawing", "Role play", "Debate"),
        "example": "{name}: evidence from the sources",
        "example_items": ("Read a source that shows {name}", "Analyse it in the light of {unit}", "Compare your reading with a partner"),
        "example_visual": "Historical picture or source",
    },
    ("talk", "en"): {
        "notes_flow": "When we reach {unit}, look out for {points}.",
        "item_leads": ("First, ", "Next, ", "Then, ", "Also, ", "Finally, "),
        "notes_page": ("This slide is about {name}, part of {unit}.", "Think about {name} in your own work: where do you stand?",
                       "A real case can make {name} easier to see.", "Keep {name} in mind as part of {topic} as a whole.",
                       "With {name} clear, {next} will be easier to follow.", "I will share the material on {name} after the session.",
                       "If you see {name} differently, please bring it up in the discussion.",
                       "Notice how {name} link{s} to the other points in {unit}.", "After the session, think about one next step on {name} for your team.",
                       "Ask yourself what would change for us without {name}.", "Take a moment to connect {name} with a decision you face this month.",
                       "We will come back to {name} in the discussion, so note any questions now.", "The numbers behind {name} are in the appendix for anyone who wants the detail."),
        "notes_again": ("We come back to {name}, this time from another angle.", "We looked at {name} earlier; now we look at {them} in practice.",
                        "Compare this with what we said before: has your view of {name} changed?", "Please share how you handle {name} in your own work.", "Look for {name} in a recent case from your own team.",
                        "Think about how to fit {name} together with everything we have covered so far on {topic}."),
        "notes_plan": ("This plan is a guide; we will adjust it to the discussion.", "At the end of each part I will leave a moment for questions.",
                       "If time runs short, the discussion comes first."),
        "notes_cover": ("The parts are: {units}.", "{topic} touch{es} everyone's work in some way.",
                        "You will get the slides afterwards, so there is no need to take down every word.", "The aim today is a clear, shared picture of {topic}.",
                        "Before we start, think about how {topic} touch{es} your own work.", "Feel free to ask questions as we go; there is time for discussion at the end."),
        "notes_part": "Part {nth} covers {unit}: {points}.", "notes_minutes": "Each part takes about {m} minutes, with time at the end for a summary and discussion.",
        "notes_recap": "On {unit}, we covered {points}.",
        "notes_summary": ("Take these points back to your own work.", "I will share today's material so you can look back at {topic}."),
        "notes_qa": ("Questions are welcome, and so are your own experiences.", "Anything we do not get to, please find me afterwards.", "Thank you for your time!"),
        "aspects": {a: (a, points) for a, points in TALK_ASPECT_POINTS_EN.items()}, "phrases": TALK_ASPECT_PHRASES_EN,
        "objective": "Understand {phrase}", "description": "Covers {aspect} for {topic}",
        "concept": _lines_said("deck_talk_concept", "en"),
        "process_title": "{name}, step by step", **_contrast_said("talk", "en"),
        "statement": _lines_said("deck_talk_statement", "en"), "table_questions": _lines_said("deck_talk_table_questions", "en"),
        "exercise_items": ("Sum up {first} in one sentence", "Give an example of {topic} from your own work",
                           "How do {first} and {last} connect?"),
        "parts": "{n} parts in this talk", "hello": "Hello, and thank you for coming. Today's topic: {topic}.", "has_parts": "The talk has {n} parts.",
        "agenda": "Agenda", "questions": "Questions and discussion", "time_plan": "How the time is spent", "flow": "Running order",
        "asks": ("What should we take away from {topic}?", "What should we do next?", "What needs more discussion?"),
        "fillers": ("Let us look at this closely.", "Think of a case from your own experience.", "We will come back to this later.", "With this in place the rest follows."),
        "stages": (("Review", "take stock of {name}"), ("Spot the issue", "what is not yet working"), ("Analyse", "why it happens"), ("Act", "who does what, by when")), "table": "{unit} at a glance",
        "table_head": "Point | Question | How we cover it",
        "activities": ("Data review", "Case study", "Open discussion", "Chart walk-through", "Takeaways"),
        "example": "{name}: a real case",
        "example_items": ("A real case that shows {name}", "Look at it in the light of {unit}", "Discuss: what it means for us"),
        "example_visual": "Case picture", "exercise": "Exercises",
    },
    ("training", "en"): {
        "notes_flow": "When we reach {unit}, look out for {points}.",
        "item_leads": ("First, ", "Next, ", "Then, ", "Also, ", "Finally, "),
        "notes_page": ("This slide is about {name}, part of {unit}.", "Think about your own job: when will you need {name}?",
                       "A real example from work can make {name} easier to see.", "Keep {name} in mind as part of {topic} as a whole.",
                       "With {name} clear, {next} will be easier to put into practice.", "We will check {name} at the end, so note {them} down.",
                       "If anything about {name} is unclear, note it down and we will sort it out in the practice.",
                       "Notice how {name} link{s} to the other points in {unit}.", "Before we finish, explain {name} to a colleague in one sentence.",
                       "Ask yourself what could go wrong at work if {name} were skipped.", "Take a moment to picture {name} in your next working day.",
                       "We will practise {name} later, so make sure {it} {is} clear now.", "The full rules behind {name} are in the handout."),
        "notes_again": ("We come back to {name}, this time as you would do {them} on the job.", "We met {name} earlier; now we practise {them}.",
                        "Compare this with what we said before: could you do {name} on your own now?", "This time, say how you would handle {name} before I explain.",
                        "Think of a recent day at work where {name} came up.",
                        "Think about how {name} fit{s} together with everything we have covered so far on {topic}."),
        "notes_plan": ("This plan is a guide; we will adjust it to how the group is doing.", "At the end of each part we will stop to check that everyone can do it.",
                       "If time runs short, the practice comes first."),
        "notes_cover": ("The parts are: {units}.", "What we cover today is part of everyone's daily work here.",
                        "You will get the handout afterwards; I will point out what to note down.", "By the end you should know what to do, and why.",
                        "Before we start, think of where {topic} comes up in your own job.", "Ask questions as we go; there is time for practice and questions at the end."),
        "notes_part": "Part {nth} covers {unit}: {points}.", "notes_minutes": "Each part takes about {m} minutes, with time at the end for practice and questions.",
        "notes_recap": "On {unit}, we covered {points}.",
        "notes_summary": ("Take these points back to your job and check your work against them.", "Use the handout to go over {topic} again next week."),
        "notes_qa": ("Questions are welcome, and so are cases from your own work.", "Anything we do not get to, please find me afterwards.", "That is all for today's training. Thank you!"),
        "aspects": {a: (a, points) for a, points in TRAINING_ASPECT_POINTS_EN.items()}, "phrases": TRAINING_ASPECT_PHRASES_EN,
        # a point's page opens on what its part is for ("The must-dos: know the rules of fire safety"), not "Covers the
        # rules for fire safety"; it ends on when the point is needed, not "Keyword: The rules"
        "objective": "{phrase}", "description": "{phrase}",
        "core": ("The steps", "The rules", "Common mistakes"),
        "fits": {"process": ("The steps", "Practice and check"),
                 "contrast": ("the standard expected", "the must-dos", "roles and responsibilities", "getting ready",
                              "the procedure", "checking the result", "prevention", "a self-check list")},
        "concept": ("{name}: {description}", "The question it answers: what to do about {name}", "In practice: when you will need {name}"),
        "process_title": "{name}, step by step", "contrast_title": "{name}: wrong way and right way",
        "contrast": ("Wrong way: a rough idea of {name} will do", "Wrong way: {name} left to someone else",
                     "Right way: {name} deserve{s} full attention, every time", "Right way: {name} checked every time, not just today"),
        "statement": _lines_said("deck_training_statement", "en"),
        "exercise_items": ("Sum up {first} in one sentence", "Name the step in {topic} where people in your job most often slip",
                           "How do {first} and {last} connect?"),
        "parts": "{n} parts in this training", "hello": "Hello, and welcome. Today's training: {topic}.", "has_parts": "The training has {n} parts.",
        "agenda": "Agenda", "questions": "Questions and practice", "time_plan": "How the time is spent", "flow": "Running order",
        "asks": ("Back at work, what will you do first?", "Which point in {unit} are you still unsure of?", "Who do you ask when you are not sure?"),
        "fillers": ("Let us look at this closely.", "Think of how this works in your own job.", "We will practise this later.", "Get this right and the next steps follow."),
        "stages": (("Know the rule", "what {name} require{s}"), ("Get ready", "what you need for {name}"), ("Do each step", "work through {name} in order"), ("Check the result", "check {name} against the list")), "table": "{unit} at a glance",
        "table_head": "Point | Question | How we train it",
        "activities": ("Walk-through", "Case study", "Group drill", "Hands-on try", "Self-check"),
        "example": "{name}: an example from work",
        "example_items": ("A case from work that shows {name}", "Look at it in the light of {unit}", "Discuss: what would you have done?"),
        "example_visual": "Workplace picture", "exercise": "Exercises",
    },
}
# A class reading a work, on a period or on a language is still a class: how it opens, counts its parts and plans its time is a
# lesson's, unless it says so in its own words. (Not a lesson's parts, "mechanism" or "method", which it has not.)
_CLASS_WORDING = ("hello", "parts", "has_parts", "agenda", "time_plan", "flow", "item_leads", "notes_flow", "notes_part",
                  "notes_recap", "statement", "table", "table_head", "table_questions", "exercise")
for _setting in ("work_lesson", "history_lesson", "language_lesson"):
    for _language in ("zh", "en"):
        _lesson = WORDING[("lesson", _language)]
        WORDING[(_setting, _language)] = {**{key: _lesson[key] for key in _CLASS_WORDING},
                                          **WORDING[(_setting, _language)]}


# A public talk (planning.deck_setting "public_talk": "给社区居民讲讲垃圾分类", "A webinar for parents on screen time") is
# told as a speaker tells it: a question to open, why it matters to these listeners, a few key points each with an
# example, what they can do from tomorrow, then their questions; its words come from the catalogue
# (`ppt.deck_public_talk_*`). A talk's running order and page heads that name no work are kept.
# Heard at work (planning.heard_at_work) the lines that take the talk home take it to the job instead.
_HOME_BOUND = ("parts", "notes_page", "notes_again", "notes_cover", "notes_summary", "asks", "fillers", "contrast", "example")


def _public_talk_wording(language: str, place: str = "") -> dict:
    def said(key: str) -> str:
        return t(f"ppt.deck_public_talk_{key}", locale=language)

    def lines(key: str) -> tuple[str, ...]:
        return _lines_said(f"deck_public_talk{place if key in _HOME_BOUND else ''}_{key}", language)

    parts = [line.split("|") for line in lines("parts")]
    aspects = {name: (name, tuple(points)) for name, *points, _ in parts}
    hook, why, key_points, _, at_home = aspects
    parts_said, hello, has_parts, agenda, questions = lines("opening")
    example, *example_items, example_visual, exercise = lines("example")
    return {
        **WORDING[("talk", language)],
        "aspects": aspects, "phrases": {name: phrase for name, *_, phrase in parts},
        # a short talk still gives its key points and what to do at home; a longer one why they matter, then its hook
        "core": (key_points, at_home, why, hook),
        "objective": "{phrase}", "description": "{phrase}",
        **{key: lines(key) for key in ("notes_page", "notes_again", "notes_plan", "notes_cover", "notes_summary", "notes_qa",
                                       "concept", "contrast", "exercise_items", "asks", "fillers", "activities")},
        **{key: said(key) for key in ("notes_minutes", "contrast_title", "table_head")}, "statement": lines("statement"),
        "table_questions": lines("table_questions"),
        "stages": _steps_said(f"public_talk{place}", language),
        "parts": parts_said, "hello": hello, "has_parts": has_parts, "agenda": agenda, "questions": questions,
        "example": example, "example_items": tuple(example_items), "example_visual": example_visual, "exercise": exercise,
    }


for _language in ("zh", "en"):
    WORDING[("public_talk", _language)] = _public_talk_wording(_language)
PUBLIC_TALK_AT_WORK_WORDING = {language: _public_talk_wording(language, "_at_work") for language in ("zh", "en")}


# The room's words of a public talk (how it opens, counts its parts and closes), kept when it is about a work.
_TALK_ROOM_WORDING = ("hello", "parts", "has_parts", "agenda", "questions", "notes_plan", "notes_minutes", "notes_qa",
                      "item_leads", "notes_part", "notes_recap", "time_plan", "flow")


def _public_how_to_wording(language: str, place: str = "") -> dict:
    """A public talk on how to do something: its key points give way to the steps, shown step by step and said first.
    Heard at work (place "_at_work") it is built on the talk at work, and its steps ask a colleague, not the family."""
    public = PUBLIC_TALK_AT_WORK_WORDING[language] if place else WORDING[("public_talk", language)]
    hook, why, key_points, example, at_home = public["aspects"]
    steps, *points, phrase = t("ppt.deck_public_howto_part", locale=language).split("|")
    parts = [(steps if part == key_points else part) for part in public["aspects"]]
    aspects = {part: (part, tuple(points)) if part == steps else public["aspects"][part] for part in parts}
    # a skill or a hobby is tried, not an issue that touches every family ("手冲咖啡和我们每个家庭都有关系")
    own = {key: _lines_said(f"deck_public_howto_{key}", language) for key in ("concept", "contrast")}
    own["contrast"] = _lines_said(f"deck_public_howto{place}_contrast", language)
    if not place:
        own["notes_cover"] = _lines_said("deck_public_howto_notes_cover", language)
    return {**public, **own, "aspects": aspects, "phrases": {**public["phrases"], steps: phrase},
            "core": (steps, at_home, why, hook), "processes": {steps: _steps_said(f"public_howto{place}", language)},
            # the steps are shown once, on the page of going through them in order; no other point is a procedure
            "fits": {"process": (points[1],)}}


def _actions_as_parts(words: dict, actions: list[str], language: str) -> dict:
    """A how-to or a training that names two or three things to do (planning.actions_named) goes through each as a part
    of its own, in place of its one part of steps (the first of its core): "Sorting donations", "Keeping food safe", each with its steps, its slips and what to
    do when unsure."""
    steps = words["core"][0]
    parts, processes, phrases, steps_fit = {}, {}, {}, []
    for action in actions:
        *points, phrase = t("ppt.deck_public_howto_action", locale=language, action=action).split("|")
        title = capitalised(action) if language == "en" else action
        parts[title] = (title, tuple(points))
        processes[title] = words.get("processes", {}).get(steps) or words["stages"]  # a training's steps are its stages
        phrases[title] = phrase
        steps_fit.append(points[0])
    aspects = {}
    for aspect, told in words["aspects"].items():
        aspects.update(parts if aspect == steps else {aspect: told})
    core = [*parts, *(aspect for aspect in words["core"] if aspect != steps)]
    # a wrong way and a right way are of a routine ("a rough idea of the routine for making espresso will do"), not of
    # its slips ("a rough idea of common slips in making espresso will do") nor of what to do when unsure
    others = tuple(aspect for aspect in aspects if aspect not in parts)
    return {**words, "aspects": aspects, "phrases": {**words["phrases"], **phrases}, "core": tuple(core), "actions": tuple(parts),
            "processes": processes, "fits": {"process": tuple(steps_fit), "contrast": (*steps_fit, *others)}}


PUBLIC_HOW_TO_WORDING = {language: _public_how_to_wording(language) for language in ("zh", "en")}


def _public_briefing_wording(language: str, kind: str = "briefing") -> dict:
    """A public talk that tells of a change ("the new school bus routes" to parents): what changes and when, what it
    means for the family, what to do, where to ask; none of a public issue's "every family meets it". Of kind "rules"
    it tells the rules of a place to those they bind ("给会员讲讲积分规则"): what they are, why, what to do."""
    public = WORDING[("public_talk", language)]
    parts = [line.split("|") for line in _lines_said(f"deck_public_{kind}_parts", language)]
    aspects = {name: (name, tuple(points)) for name, *points, _ in parts}
    change, why, meaning, _, to_do = aspects
    return {**public, "aspects": aspects, "phrases": {name: phrase for name, *_, phrase in parts},
            "core": (change, to_do, meaning, why),
            **{key: _lines_said(f"deck_public_{kind}_{key}", language)
               for key in ("notes_cover", "concept", "contrast", "notes_summary", "asks",
                           "notes_page", "notes_again")},
            "contrast_title": t(f"ppt.deck_public_{kind}_contrast_title", locale=language),
            "stages": _steps_said(f"public_{kind}", language)}


def _personal_talk_wording(language: str) -> dict:
    """A speech or a sharing about one's own life (planning.told_of_ones_own_life): the story first, then what it means
    to me, then a closing line to the room; short, it still tells the story and its meaning."""
    words = _public_talk_wording(language, "_personal")
    hook, story, meaning, _, closing = words["aspects"]
    # a speech has no at-a-glance table of stock questions ("what does it look like", "Show of hands")
    return {**words, "core": (story, meaning, closing, hook), "fits": {"table": ()},
            "statement": _lines_said("deck_public_personal_statement", language),
            "concept": _lines_said("deck_public_personal_concept", language),
            "contrast_title": t("ppt.deck_public_personal_contrast_title", locale=language)}


PERSONAL_TALK_WORDING = {language: _personal_talk_wording(language) for language in ("zh", "en")}
PUBLIC_BRIEFING_WORDING = {language: _public_briefing_wording(language) for language in ("zh", "en")}
PUBLIC_RULES_WORDING = {language: _public_briefing_wording(language, "rules") for language in ("zh", "en")}


def _public_occasion_wording(language: str, kind: str) -> dict:
    """A guided tour (planning.gives_a_tour): the route and its stops first, then the practical tips, then why the place
    is worth it. A product launch (planning.launches_a_product): the problem, what it does, the price and where to get
    it, then why now. Said as a briefing is (what to see, where to ask), each with its own words, opening and examples."""
    words = _public_briefing_wording(language, kind)
    first, why, middle, _, last = words["aspects"]
    example, *example_items, example_visual, exercise = _lines_said(f"deck_public_{kind}_example", language)
    parts_said, hello, has_parts, agenda, questions = _lines_said(f"deck_public_{kind}_opening", language)
    # a short one still ends on its practical part (a tour's tips, a launch's price, a welcome's rules and whom to ask)
    # no at-a-glance table: its rows asked every point "what does it look like" and "why does it matter to you", to be
    # covered by "Show of hands", however the tour or the welcome went
    return {**words, "core": (first, middle, last, why), "essential": (first, middle, last), "fits": {"table": ()},
            "statement": _lines_said(f"deck_public_{kind}_statement", language),
            "example": example, "example_items": tuple(example_items), "example_visual": example_visual, "exercise": exercise,
            "parts": parts_said, "hello": hello, "has_parts": has_parts, "agenda": agenda, "questions": questions}


PUBLIC_TOUR_WORDING = {language: _public_occasion_wording(language, "tour") for language in ("zh", "en")}
PUBLIC_LAUNCH_WORDING = {language: _public_occasion_wording(language, "launch") for language in ("zh", "en")}
PUBLIC_ORIENTATION_WORDING = {language: _public_occasion_wording(language, "orientation") for language in ("zh", "en")}
PUBLIC_WELCOME_WORDING = {language: _public_occasion_wording(language, "welcome") for language in ("zh", "en")}
PUBLIC_HOW_TO_AT_WORK_WORDING = {language: _public_how_to_wording(language, "_at_work") for language in ("zh", "en")}


def _public_reading_wording(language: str) -> dict:
    """A public talk about a work: the work lesson's parts, told to a reading group of adults (planning.about_a_work)."""
    public = WORDING[("public_talk", language)]
    return {**WORDING[("work_lesson", language)], **{key: public[key] for key in _TALK_ROOM_WORDING},
            **{key: _lines_said(f"deck_public_reading_{key}", language)
               for key in ("notes_page", "notes_again", "notes_cover", "notes_summary", "asks", "example_items")}}


PUBLIC_READING_WORDING = {language: _public_reading_wording(language) for language in ("zh", "en")}


def _public_history_wording(language: str) -> dict:
    """A public talk about history (planning.about_history): a history lesson's parts in time order, told to adults."""
    public = WORDING[("public_talk", language)]
    return {**WORDING[("history_lesson", language)],
            **{key: public[key] for key in (*_TALK_ROOM_WORDING, "table", "table_head", "activities")},
            **{key: _lines_said(f"deck_public_history_{key}", language)
               for key in ("notes_page", "notes_again", "notes_cover", "notes_summary", "asks", "example_items")}}


PUBLIC_HISTORY_WORDING = {language: _public_history_wording(language) for language in ("zh", "en")}


def _public_training_wording(language: str) -> dict:
    """A training for the public (residents, parents): a training's parts, practised for home, not for the job."""
    example, *example_items = _lines_said("deck_public_training_example", language)
    return {**WORDING[("training", language)], "example": example, "example_items": tuple(example_items),
            **{key: _lines_said(f"deck_public_training_{key}", language)
               for key in ("notes_page", "notes_again", "notes_cover", "notes_summary", "notes_qa", "asks", "fillers")}}


PUBLIC_TRAINING_WORDING = {language: _public_training_wording(language) for language in ("zh", "en")}


def _tells_history(request: OfflineRequest) -> bool:
    """A history lesson, or a public talk about history ("for the local history society"): told by its history's parts."""
    setting, topic = request.fact("setting"), request.fact("topic") or ""
    return setting == "history_lesson" or setting == "public_talk" and about_history(topic) and not about_a_work(topic)


# A lesson that defines its subject ("什么是区块链", "What is inflation?", planning.asks_what_it_is) builds the definition
# a teacher would: its basics are a one-line definition, the key features (essential or incidental), and examples
# against non-examples, each page with its own scaffold ("定义句式：区块链是一种……，它……"), not one vague line for
# 核心术语 and 基本定义 alike; its second part is where the thing is met. A definition is built step by step; features
# and examples are not.
def _definition_wording(language: str) -> dict:
    lesson, aspects = WORDING[("lesson", language)], ASPECTS_ZH if language == "zh" else ASPECTS_EN
    basics, uses, others = aspects[0], aspects[3], aspects[1:]
    definition, features, examples = points = _lines_said("deck_definition_points", language)
    return {
        "aspects": {**lesson["aspects"], basics: (lesson["aspects"][basics][0], points)},
        "core": (basics, uses),
        "concepts": {point: _lines_said(f"deck_definition_concept_{key}", language)
                     for point, key in zip(points, ("definition", "features", "examples"))},
        "processes": {**lesson["processes"], definition: _steps_said("definition", language)},
        "contrasts": {**lesson["contrasts"], definition: _contrast_pair("definition_said", language),
                      features: _contrast_pair("features", language), examples: _contrast_pair("examples", language)},
        # a part's overview table and its one-line statement are the other parts': the definition's points have pages
        "fits": {"process": (definition, *others), "example": others, "table": others, "statement": others},
        "asks": _lines_said("deck_definition_asks", language),
    }


DEFINITION_WORDING = {language: _definition_wording(language) for language in ("zh", "en")}


# A lesson on how to do something (planning.asks_how_to) opens with what doing it well looks like (the standard, a
# model, what is needed first), not with "key terms" and "main types", whose pages asked to "read the definition in
# the textbook" of writing a paragraph; its steps are modelled, done together, done alone and checked; its closing
# questions ask for the steps and where to try them.
def _how_to_wording(language: str) -> dict:
    lesson, aspects = WORDING[("lesson", language)], ASPECTS_ZH if language == "zh" else ASPECTS_EN
    basics, process, pitfalls, others = aspects[0], aspects[2], aspects[4], aspects[1:]  # process: the how-to's steps
    standard, model, prep = points = _lines_said("deck_howto_points", language)
    return {
        "aspects": {**lesson["aspects"], basics: (t("ppt.deck_howto_basics_title", locale=language), points)},
        "core": (basics, pitfalls),  # its steps (the lesson's "method") come between them, as for any how-to subject
        "concepts": {point: _lines_said(f"deck_howto_concept_{key}", language)
                     for point, key in ((standard, "standard"), (model, "model"), (prep, "prep"))},
        "processes": {**lesson["processes"], process: _steps_said("howto", language)},
        "contrasts": {**lesson["contrasts"], model: _contrast_pair("howto", language)},
        "fits": {"process": others, "example": others},
        "asks": _lines_said("deck_howto_asks", language),
    }


HOW_TO_WORDING = {language: _how_to_wording(language) for language in ("zh", "en")}


# A lesson on a why or how question (planning.embedded_question: "为什么要刷牙", "How bees make honey") answers it: its
# parts are titled by the question, its basics are what we notice, our guesses and the words we need, its workings the
# short answer, the reasons behind it and the evidence; each page keeps the question, not "刷牙原因的核心原理" nor a textbook's
# definitions. A part's overview table and one-line statement set its title (already "question: part") in another
# title, so they are kept for the parts after these two.
def _told_in_points_wording(language: str, kind: str, pages: tuple[str, ...], shared: str | None = None,
                            own_points: tuple[str, ...] = ()) -> dict:
    """The wording of a lesson whose first two parts have pages of their own (`ppt.deck_<kind>_…` in the catalogue):
    a question's (what we notice … the evidence) or a thing's story (its hero … how it ends). Its steps, contrast and
    closing questions are `shared`'s when two kinds tell them alike; the parts in `own_points` (by their catalogue
    name: "process", "pitfalls", "practice") have points of their own (`deck_<shared>_points_<part>`), not a lesson's."""
    lesson, aspects = WORDING[("lesson", language)], ASPECTS_ZH if language == "zh" else ASPECTS_EN
    basics, workings, others = aspects[0], aspects[1], aspects[2:]
    shared = shared or kind
    points = {basics: _lines_said(f"deck_{kind}_points_basics", language),
              workings: _lines_said(f"deck_{kind}_points_workings", language),
              **{aspect: _lines_said(f"deck_{shared}_points_{part}", language)
                 for aspect, part in zip(aspects, _LESSON_PART_KEYS) if part in own_points}}
    steps, contrast = _steps_said(shared, language), _contrast_pair(shared, language)
    return {
        "aspects": {aspect: (title, points.get(aspect, lesson["aspects"][aspect][1]))
                    for aspect, title in zip(aspects, _lines_said(f"deck_{kind}_titles", language))},
        "objective": "{phrase}", "description": "{phrase}",
        "phrases": dict(zip(aspects, _lines_said(f"deck_{kind}_phrases", language))),
        "concept_title": t("ppt.deck_question_concept_title", locale=language),
        "concepts": dict(zip((*points[basics], *points[workings]),
                             (_lines_said(f"deck_{kind}_concept_{page}", language) for page in pages))),
        "processes": {**lesson["processes"], workings: steps},
        "contrasts": {**lesson["contrasts"], basics: contrast, workings: contrast},
        # the steps are the second point's of the workings (the reasons, the changes on the way: not "一步步理解我们的
        # 猜想"); an everyday example is of an answer, not of "what we notice"; the contrast (the guess against the
        # answer, the start against the end) comes once the answer is given or the story has ended
        "fits": {"table": others, "statement": others, "example": others, "process": (points[workings][1], *others),
                 "contrast": (points[workings][0 if kind == "question" else 2], *others)},
        "own_page_first": True,  # each point's page (notice, guess, words, answer…) before a view of it
        "asks": _lines_said(f"deck_{shared}_asks", language),
    }


def _question_wording(language: str) -> dict:
    return {**_told_in_points_wording(language, "question", ("notice", "guess", "words", "answer", "reasons", "evidence")),
            "example_items": _lines_said("deck_question_example_items", language),
            "notes_cover": _lines_said("deck_question_notes_cover", language)}


QUESTION_WORDING = {language: _question_wording(language) for language in ("zh", "en")}
# A thing's story ("一滴水的旅行", "The story of a raindrop") is followed from its start to its end.
STORY_WORDING = {language: _told_in_points_wording(language, "story", ("hero", "start", "off", "first", "changes", "end"))
                 for language in ("zh", "en")}


# A lesson on a thing of nature (planning.about_nature: 恐龙, bees, volcanoes) tells what it is like, how it lives (a
# living thing) or forms and changes (the earth and the sky), how we know, the myths about it and a go at it: not
# "恐龙的核心原理", "恐龙的关键过程" nor "恐龙在生活中还有哪些例子？".
def _nature_wording(language: str, living: bool) -> dict:
    kind, pages = (("living", ("looks", "kinds", "home", "food", "moves", "young")) if living
                   else ("earth", ("looks", "kinds", "where", "forms", "changes", "effects")))
    told = _told_in_points_wording(language, kind, pages, shared="nature", own_points=("process", "pitfalls", "practice"))
    aspects = list(told["aspects"])
    basics, workings, how_we_know, _uses, myths, a_go = aspects
    later_pages = {how_we_know: ("watching", "evidence", "scientists"), myths: ("myths", "mixups", "tell"),
                   a_go: ("spot", "say", "draw")}
    # how we know is shown step by step, from a thing seen to what it tells us, and so is how a living thing grows up or
    # how a thing of the earth forms; what it is like is not
    steps, grows = _steps_said("nature", language), told["aspects"][workings][1][2 if living else 0]
    return {**told, "core": (basics, workings), "process_title": t("ppt.deck_nature_process_title", locale=language),
            "concepts": {**told["concepts"], **{point: _lines_said(f"deck_nature_concept_{page}", language)
                                                for aspect, pages in later_pages.items()
                                                for point, page in zip(told["aspects"][aspect][1], pages)}},
            "processes": {**{aspect: steps for aspect in aspects[2:]}, grows: _steps_said(f"{kind}_grows", language)},
            "contrasts": {aspect: told["contrasts"][basics] for aspect in aspects},
            # any point is looked for in a picture; a part's table and one-line page would title it twice
            "fits": {key: fit for key, fit in told["fits"].items() if key != "example"} | {"process": (grows, *aspects[2:])},
            "example": t("ppt.deck_nature_example", locale=language),
            "example_items": _lines_said("deck_nature_example_items", language),
            "example_visual": t("ppt.deck_nature_example_visual", locale=language)}


NATURE_WORDING = {(language, living): _nature_wording(language, living) for language in ("zh", "en") for living in (True, False)}


# A subject that already names its causes or principles ("the causes of World War I", "the principles of flight") is
# not said as "the workings of the causes of …": its mechanism part says how they fit together.
_NAMES_ITS_WORKINGS_EN = re.compile(r"^(?:the\s+)?(?:causes|reasons|origins|principles|mechanisms?|workings)\b", re.IGNORECASE)
HOW_THEY_FIT_EN = "how {topic} fit together"


# Teachers trained in a way of teaching (planning.about_teaching) hear why it matters in class and its key moves, not a
# workplace's "对岗位的要求" and "禁止行为"; they take it back to their classes, not "回到岗位后".
def _teachers_trained(words: dict, language: str) -> dict:
    why, rules = list(words["aspects"])[:2]
    (why_title, *why_points), (rules_title, *rules_points) = (line.split("|") for line in _lines_said("deck_teachers_training_parts", language))
    why_said, rules_said = _lines_said("deck_teachers_training_phrases", language)
    return {**words, "aspects": {**words["aspects"], why: (why_title, tuple(why_points)), rules: (rules_title, tuple(rules_points))},
            "phrases": {**words["phrases"], why: why_said, rules: rules_said},
            "asks": _lines_said("deck_teachers_training_asks", language),
            "notes_summary": _lines_said("deck_teachers_training_summary", language)}


def _heard_at_work(request: OfflineRequest) -> bool:
    """Listeners named by their job ("诊所护士"), or peers at a sharing ("五分钟分享：…"): what they take goes to the job."""
    said = request.fact("request") or ""
    # a sharing about one's own life ("分享：我的云南之旅") is told among colleagues but not taken to the job
    return heard_at_work(audience_hint(said)) or a_sharing(said) and not told_of_ones_own_life(said)


def _wording(request: OfflineRequest) -> dict:
    setting = request.fact("setting") if request.fact("setting") in (
        "work_lesson", "history_lesson", "language_lesson", "talk", "training", "public_talk") else "lesson"
    words = WORDING[(setting, "zh" if _zh(request) else "en")]
    if setting == "public_talk" and about_a_work(request.fact("topic") or ""):  # a book club reads its book
        words = PUBLIC_READING_WORDING["zh" if _zh(request) else "en"]
    elif setting == "public_talk" and _tells_history(request):  # the history society hears its story in time order
        words = PUBLIC_HISTORY_WORDING["zh" if _zh(request) else "en"]
    elif setting == "public_talk" and (asks_how_to(request.fact("topic") or "")  # the steps, not "the main idea"
                                       or our_way_of_doing_en(request.fact("topic") or "")
                                       # a hobby for beginners ("手冲咖啡入门") is taken up step by step too
                                       or taken_up_for_its_own_sake(request.fact("topic") or "", request.fact("request") or "")):
        at_work = _heard_at_work(request)  # nurses at a clinic take them to the job
        words = (PUBLIC_HOW_TO_AT_WORK_WORDING if at_work else PUBLIC_HOW_TO_WORDING)["zh" if _zh(request) else "en"]
        if actions := actions_named(_phrase(request)):  # "sorting donations and keeping food safe": a part each
            words = _actions_as_parts(words, actions, "zh" if _zh(request) else "en")
    elif setting == "public_talk" and welcomes_newcomers(request.fact("request") or ""):  # who we are, your role, whom to ask
        words = (PUBLIC_ORIENTATION_WORDING if welcome_kind(request.fact("request") or "")[0] == "orientation"
                 else PUBLIC_WELCOME_WORDING)["zh" if _zh(request) else "en"]
    elif setting == "public_talk" and gives_a_tour(request.fact("request") or ""):  # 给游客介绍故宫: the route, the stops
        words = PUBLIC_TOUR_WORDING["zh" if _zh(request) else "en"]
    elif setting == "public_talk" and launches_a_product(request.fact("request") or ""):  # the problem, the product, the price
        words = PUBLIC_LAUNCH_WORDING["zh" if _zh(request) else "en"]
    # the points scheme, to members; new rules ("新的停车收费规定") are a change, told as one
    elif (setting == "public_talk" and states_rules(request.fact("topic") or "")
          and not tells_of_a_change(request.fact("request") or "")):
        words = PUBLIC_RULES_WORDING["zh" if _zh(request) else "en"]
    elif setting == "public_talk" and told_of_ones_own_life(request.fact("request") or ""):  # "三分钟演讲：我的梦想"
        words = PERSONAL_TALK_WORDING["zh" if _zh(request) else "en"]
        if a_ceremony_speech(request.fact("request") or ""):  # a toast ends with glasses raised, not with questions
            title, *asks, notes_closing = _lines_said("deck_toast_closing" if raises_a_toast(request.fact("request") or "")
                                                      else "deck_ceremony_closing", "zh" if _zh(request) else "en")
            words = {**words, "questions": title, "asks": tuple(asks[:3]), "questions_opening": asks[3], "notes_qa": (notes_closing,)}
    elif setting == "public_talk" and tells_of_a_change(request.fact("request") or ""):  # the new bus routes, to parents
        words = PUBLIC_BRIEFING_WORDING["zh" if _zh(request) else "en"]
    elif setting == "public_talk" and _heard_at_work(request):
        words = PUBLIC_TALK_AT_WORK_WORDING["zh" if _zh(request) else "en"]
    elif setting == "training" and (trained_at_home(audience_hint(request.fact("request") or ""))
                                    or held_in_public(request.fact("request") or "", audience_hint(request.fact("request") or ""))):
        words = PUBLIC_TRAINING_WORDING["zh" if _zh(request) else "en"]
    elif (setting == "training" and teachers_as_colleagues(audience_hint(request.fact("request") or ""))
          and about_teaching(request.fact("topic") or "")):
        words = _teachers_trained(words, "zh" if _zh(request) else "en")
    if setting == "training" and (actions := actions_named(_phrase(request))):  # its steps, a part for each thing to do
        words = _actions_as_parts(words, actions, "zh" if _zh(request) else "en")
    if _tells_history(request):
        kind = HISTORY_KIND_WORDING.get((history_kind(request.fact("topic")), "zh" if _zh(request) else "en"), {})
        # a kind's words to a class (a person's cover asks for notebooks) are not said to the public
        words = {**words, **{key: said for key, said in kind.items() if setting == "history_lesson" or key != "notes_cover"}}
    if setting == "lesson" and about_maths(request.fact("topic") or ""):
        words = {**words, **MATHS_WORDING["zh" if _zh(request) else "en"]}
    elif setting == "lesson" and asks_what_it_is(request.fact("topic") or ""):
        words = {**words, **DEFINITION_WORDING["zh" if _zh(request) else "en"]}
    elif setting == "lesson" and asks_how_to(request.fact("topic") or ""):
        words = {**words, **HOW_TO_WORDING["zh" if _zh(request) else "en"]}
    elif setting == "lesson" and embedded_question(request.fact("topic") or ""):
        words = {**words, **QUESTION_WORDING["zh" if _zh(request) else "en"]}
    elif setting == "lesson" and tells_a_things_story(request.fact("topic") or ""):
        words = {**words, **STORY_WORDING["zh" if _zh(request) else "en"]}
    elif setting == "lesson" and about_nature(_phrase(request)):
        words = {**words, **NATURE_WORDING[("zh" if _zh(request) else "en", alive_in_nature(_phrase(request)))]}
    language = whole_language_named(request.fact("topic") or "") if setting == "language_lesson" else None
    if language:
        words = {**words, **_naming(FIRST_COURSE_WORDING["zh" if _zh(request) else "en"], language)}
    # a class of infants, not their parents at a talk ("幼儿园家长")
    audience = audience_hint(request.fact("request") or "")
    if setting not in ("talk", "training", "public_talk") and young_children(audience):
        words = _for_young_children(words, "zh" if _zh(request) else "en")
        if pre_readers(audience):
            words = _for_pre_readers(words, "zh" if _zh(request) else "en")
    mechanism = words.get("mechanism")
    if mechanism and not _zh(request) and _NAMES_ITS_WORKINGS_EN.match(_phrase(request)):
        words = {**words, "aspects": {**words["aspects"], mechanism: (HOW_THEY_FIT_EN, words["aspects"][mechanism][1])},
                 "phrases": {**words["phrases"], mechanism: HOW_THEY_FIT_EN}}
    return words


# A line that asks the room to write ("请大家准备好笔记本", "写下反复出现的词", "Write {name} in your notes", "note it down").
_ASKS_TO_WRITE = re.compile(r"笔记|草稿纸|记下来|记在|写下|圈画|notebook|\bnotes\b|scrap paper|write (?:it )?down|note it down|jot",
                            re.IGNORECASE)
# The tables of slide lines (not notes) a class reads off its pages.
_SLIDE_LINES = ("concept", "concepts", "stages", "processes", "contrast", "contrasts", "example_items", "exercise_items")


# A line that sends the class off to revise ("回去后可以对照这几点复习…", "Use these points to review … later"): children
# this young do not revise from notes; they tell their family what they learned.
_ASKS_TO_REVISE = re.compile(r"复习|再过一遍|\b(?:review|revise|reread)\b|\bgo\s+over\b.*\bagain\b", re.IGNORECASE)


def _for_young_children(words: dict, language: str) -> dict:
    """A class too young to take notes: the lines that ask them to write give way to ones they can join in with."""
    def kept(key: str) -> tuple[str, ...]:
        return tuple(line for line in words.get(key, ()) if not _ASKS_TO_WRITE.search(line) and not _ASKS_TO_REVISE.search(line))

    said_instead = t("ppt.deck_young_class_slide_line", locale=language)
    concepts = {**words.get("concepts", {}), **{point: _lines_said("deck_young_class_concept_terms", language)
                                               for point in _TERMS_POINTS if point in words.get("concepts", {})}}
    return {**words, **{key: kept(key) for key in ("notes_again", "notes_plan", "notes_qa") if key in words},
            **{key: _said_not_written(words[key], said_instead) for key in _SLIDE_LINES if key in words},
            "concepts": _said_not_written(concepts, said_instead),
            "notes_cover": (*kept("notes_cover"), *_lines_said("deck_young_class_notes_cover", language)),
            "notes_summary": (*kept("notes_summary"), *_lines_said("deck_young_class_notes_summary", language)),
            "notes_page": (*kept("notes_page"), *_lines_said("deck_young_class_notes_page", language))}


# A line that asks the room to read or mark a text ("读出课本中…的说法", "圈出其中的关键词", "Mark: underline the key words"),
# or to turn to a desk-mate, which children who cannot read yet (planning.pre_readers) do not have.
_ASKS_TO_READ = re.compile(r"课本|读一读|读出|圈一圈|圈出|划出|同桌|textbook|underline|\bread\b|\bmark\b|circle|partner",
                           re.IGNORECASE)


def _for_pre_readers(words: dict, language: str) -> dict:
    """A class who cannot read yet: a step-by-step page that reads or marks a text is looked at, pointed to and acted
    out instead; another line that asks them to read or mark points at the picture."""
    steps = _steps_said("little_ones", language)
    said_instead = t("ppt.deck_little_ones_slide_line", locale=language)
    return {**words, **{key: tuple(line for line in words[key] if not _ASKS_TO_READ.search(line))
                        for key in ("notes_page", "notes_again", "notes_summary", "notes_qa", "notes_cover") if key in words},
            **{key: _said_not_written(words[key], said_instead, _ASKS_TO_READ, steps)
               for key in (*_SLIDE_LINES, "concepts") if key in words}}


# A lesson's point on its words, whose page is a word list ("核心术语", "Key terms").
_TERMS_POINTS = (ASPECT_POINTS_ZH["基本概念"][0], ASPECT_POINTS_EN["Core ideas"][0])


def _said_not_written(lines, said_instead: str, asks: re.Pattern = _ASKS_TO_WRITE, steps_instead: tuple = ()):
    """Slide lines with each that asks to write (or what `asks` matches) said aloud instead: a line gives way to
    said_instead, a step of a step-by-step page ("记一记：把易错点记在笔记里") is left out, as the page's other steps are
    done without it; given steps_instead, such a page is those steps instead."""
    if isinstance(lines, str):
        return said_instead if asks.search(lines) else lines
    if isinstance(lines, dict):
        return {key: _said_not_written(value, said_instead, asks, steps_instead) for key, value in lines.items()}
    if isinstance(lines, tuple) and all(isinstance(line, tuple) and len(line) == 2 and all(isinstance(x, str) for x in line)
                                        for line in lines):
        kept = tuple(step for step in lines if not any(asks.search(part) for part in step))
        return steps_instead if steps_instead and kept != lines else kept
    if isinstance(lines, tuple):
        return tuple(_said_not_written(line, said_instead, asks, steps_instead) for line in lines)
    return lines


# A ceremony speech named as such ("婚礼上的祝酒词", "a toast to the class of 2026", "a eulogy for my grandfather") is
# about whom or what it celebrates: the speech's own name goes.
_SPEECH_NAMED_ZH = re.compile(r"(?<=\w{2})(?:上|时|中)?的?(?:祝酒词|敬酒词|致辞|答谢词|贺词|悼词|演讲稿?|讲话)$")
_SPEECH_NAMED_EN = re.compile(r"^(?:(?:a|an|the|my|our)\s+)?(?:toast|eulogy|speech|tribute)\s+(?:to|for|at|about)\s+(?=\w)",
                              re.IGNORECASE)


def _phrase(request: OfflineRequest) -> str:
    """The deck's subject as its sentences say it: with the article its title dropped ("the water cycle")."""
    if welcome_kind(request.fact("request") or ""):  # a welcome is about the place ("Onboarding for new engineers": the team)
        return topic_phrase(orientation_title(request.fact("request") or ""))
    said = subject_as_said(request.fact("topic"), request.fact("request") or "")
    if a_ceremony_speech(request.fact("request") or ""):  # the toast's story is the wedding's, not "the story behind 婚礼上的祝酒词"
        said = _SPEECH_NAMED_ZH.sub("", said) if _zh(request) else _SPEECH_NAMED_EN.sub("", said)
    # "how we handle refunds" is a way of working at work, and told to the public a way of doing ("how we sort
    # donations and keep food safe" to volunteers); only in a class is "how we digest food" how a body works
    at_work = request.fact("setting") in ("training", "talk", "public_talk")
    return (at_work and our_way_of_doing_en(said)) or topic_phrase(said)


# A history lesson's parts are its event's ("the background and causes of World War I", "辛亥革命的结果与影响"): a subject
# that names one angle on the event ("the causes of World War I", "辛亥革命的历史意义") is said by the event in them, or
# its titles read "the background and causes of the causes of …".
_EVENT_ANGLE_EN = re.compile(r"^(?:the\s+)?(?:causes|reasons|origins|roots|consequences|effects|impact|significance|legacy|"
                             r"life(?:\s+and\s+times)?|biography|history|story)\s+(?:of|for|behind)\s+(?=\S)", re.IGNORECASE)
_EVENT_ANGLE_ZH = re.compile(r"(?<=\w{2})的?(?:历史意义|意义|影响|原因|起因|经过|背景|由来|始末|过程|一生|生平(?:事迹)?|传记|历史)$")
_EVENT_OUTCOME = re.compile(r"(?:意义|影响|后果|结果)$|^(?:the\s+)?(?:consequences|effects|impact|significance|legacy)\b",
                            re.IGNORECASE)


_HOW_TO_PHRASE_ZH = re.compile(r"(?<=\w{2})的(?:方法|做法|技巧)$")


def _parts_phrase(request: OfflineRequest) -> str:
    """The subject as the deck's parts and objectives name it: the event itself in a history lesson."""
    phrase = _phrase(request)
    question = embedded_question(request.fact("topic") or "") if request.fact("setting") == "lesson" else None
    if question:  # "为什么要刷牙：现象与猜想", not "刷牙原因的基本概念"
        return question
    if request.fact("setting") == "lesson" and _zh(request) and asks_how_to(request.fact("topic") or ""):
        # "做好时间管理的标准与范例", not "做好时间管理方法的标准与范例" nor "做好时间管理方法的关键过程"
        return _HOW_TO_PHRASE_ZH.sub("", phrase)
    if not _tells_history(request):
        return phrase
    # "Charles Dickens and Victorian London": the parts are the person's life in those times ("the life of Charles Dickens")
    person = person_named_first(phrase)
    if person:
        return person
    if history_kind(phrase) == "person":  # "爱国诗人屈原": its parts are 屈原's life, deeds and legacy
        return person_name(phrase)
    return _EVENT_ANGLE_ZH.sub("", phrase) if _zh(request) else _EVENT_ANGLE_EN.sub("", phrase)


# "疫苗起作用的原理的基本概念": a subject that already ends in a 的-phrase stacks a second 的 when a phrase is built on it;
# the inner one goes ("疫苗起作用原理的基本概念", "保护眼睛方法的要点").
_DE_TAIL = re.compile(r"的(?P<noun>[^的\s，。：]{1,4})$")


_DOUBLED_DE = re.compile(r"的的(?!确)")


def _without_stacked_de(text: str, phrase: str) -> str:
    tail = _DE_TAIL.search(phrase)
    return text.replace(phrase + "的", phrase[:tail.start()] + tail.group("noun") + "的") if tail and CJK.search(phrase) else text


def _zh(request: OfflineRequest) -> bool:
    return request.fact("language", "zh") == "zh"


def _wants_simpler(request: OfflineRequest) -> bool:
    return wants_simpler(request.fact("feedback"))


@offline_composer(TopicAnalysis)
def analyze(request: OfflineRequest) -> TopicAnalysis:
    topic = request.fact("topic")
    return TopicAnalysis(
        topic=topic,
        language=request.fact("language"),
        keywords=keywords_of(topic),
        audienceHint=request.fact("audienceHint"),
        durationMinutesHint=request.fact("durationHint"),
        slideCountHint=request.fact("slideCountHint"),
    )


def _default_audience(request: OfflineRequest) -> str:
    """Whom a deck is for when the request names no one: students in a lesson, colleagues in a training, listeners in a
    talk."""
    setting = request.fact("setting") or "lesson"
    kind = setting if setting in ("training", "talk", "public_talk") else "lesson"
    if a_sharing(request.fact("request") or ""):  # told among peers, not to strangers
        kind = "sharing"
    elif gives_a_tour(request.fact("request") or ""):  # whoever has come to see the place
        kind = "tour"
    elif welcomes_newcomers(request.fact("request") or ""):
        kind = "orientation"
    elif a_ceremony_speech(request.fact("request") or ""):  # the guests, not whom the speech thanks or toasts
        kind = "ceremony"
    elif kind == "training" and held_in_public(request.fact("request") or "", None):  # whoever comes to the library
        kind = "public_talk"
    return t(f"ppt.default_audience_{kind}", locale="zh" if _zh(request) else "en")


@offline_composer(CourseConfig)
def course_config(request: OfflineRequest) -> CourseConfig:
    topic, zh, words = request.fact("topic"), _zh(request), _wording(request)
    phrase = _parts_phrase(request)
    audience = request.fact("audienceHint") or _default_audience(request)
    duration = request.fact("durationMinutesHint") or 10
    style = stable_choice(STYLES_ZH if zh else STYLES_EN, topic, "style")
    objectives = [_without_stacked_de(capitalised(words["objective"].format(
                      topic=phrase, aspect=aspect, phrase=words.get("phrases", {}).get(aspect, "").format(topic=phrase))), phrase)
                  for aspect in list(words["aspects"])[:3]]
    if pair := compared_pair(topic):  # "Tell Marie from Curie" split a name, not two things
        objectives.append(f"能够区分{pair[0]}与{pair[1]}" if zh else f"Tell {pair[0]} from {pair[1]}")
    return CourseConfig(narrativeStyle=style, targetAudience=audience, duration=duration, objectives=objectives)


@offline_composer(VideoOutline)
def video_outline(request: OfflineRequest) -> VideoOutline:
    topic, zh, words = request.fact("topic"), _zh(request), _wording(request)
    duration = request.fact("duration", 10)
    # about a part per four minutes, or per four content pages when more pages are asked for than minutes
    content_pages = (request.fact("slideCount") or 0) - 2
    unit_count = max(2, min(6, round(max(duration, content_pages) / 4)))
    points_per_unit = 3
    if _wants_simpler(request):
        unit_count, points_per_unit = max(2, unit_count - 1), 2
    # each thing named to do is a part of its own: "store raw meat, label leftovers and clean the grill" in ten minutes
    # kept two of the three
    unit_count = min(6, max(unit_count, len(words.get("actions", ()))))
    # a tour, a launch or a welcome ends on its practical part (the tips, the price, whom to ask): ten minutes give all
    # three of its essential parts; five minutes have pages for two only (the agenda listed three, the pages told one)
    essential = words.get("essential", ())
    if essential and duration >= 8:
        unit_count = max(unit_count, len(essential))
    # The aspects are listed in the order a deck tells them (a lesson: basics, principles, processes, applications,
    # then trends; a report: background first, next steps last): whichever a deck covers run in that order, and a
    # lesson always starts from its basics (it opened with trends, before the concepts they build on).
    # The parts a deck of its setting always has come first (a lesson its basics, a training its steps and rules), and
    # a lesson on how or why something works its mechanism (it had core ideas, applications, pitfalls and trends but
    # never said how vaccines work), one on how to do something its process; the others take turns by topic.
    aspects = list(words["aspects"])
    if words.get("uses") in aspects and about_nature(_phrase(request)):  # "恐龙的典型应用": a dinosaur is not for use
        aspects.remove(words["uses"])
    if words.get("verse"):  # a poem is read for its images, a story or an essay for its characters
        aspects.remove(words["narrative"] if about_a_poem(topic) else words["verse"])
    core = list(words.get("core", ()))
    if words.get("consequences") and _EVENT_OUTCOME.search(_phrase(request)):  # "辛亥革命的历史意义": its outcome first
        core.remove(words["consequences"])
        core.insert(1, words["consequences"])
    if words.get("times") and person_named_first(_phrase(request)):  # "Charles Dickens and Victorian London"
        core.insert(0, words["times"])
    if words.get("mechanism") and asks_how_it_works(topic):
        core.insert(1, words["mechanism"])
    elif words.get("method") and asks_how_to(topic):
        core.insert(1, words["method"])
    # The parts the request asks to stress ("focusing on the characters", "重点讲人物形象") come first.
    focused = [aspect for aspect in aspects if _stresses(focus_of(request.fact("request") or ""), aspect, words, zh)]
    core = (focused + [aspect for aspect in core if aspect not in focused])[:unit_count]
    # After its core a lesson teaches (how it works, its process, its uses) before it warns and drills: a two-part
    # lesson on the water cycle was its core ideas and "common pitfalls in the water cycle".
    teaching = [aspect for aspect in words.get("teaching", ()) if aspect not in core and aspect in aspects]
    others = [aspect for aspect in aspects if aspect not in core and aspect not in teaching]
    offset = stable_int(topic, "outline")
    rest = [*_rotated(teaching, offset), *_rotated(others, offset)]
    chosen = core + rest[:unit_count - len(core)]
    chosen.sort(key=aspects.index)
    phrase = _parts_phrase(request)  # unit titles set the subject inside a phrase ("…的基本概念", "the applications of …")
    units = []
    for aspect in chosen:
        # A point is named within its unit: units sharing point names give pages and tables that repeat.
        title, names = words["aspects"][aspect]
        title = _without_stacked_de(title.format(topic=phrase), phrase) if zh else capitalised(title.format(topic=phrase))
        points = [(f"{aspect}要点{p + 1}：{names[p]}" if zh else f"{aspect} point {p + 1}: {names[p]}")
                  for p in range(points_per_unit)]
        description = words["description"].format(topic=phrase, aspect=aspect if zh else aspect.lower(),
                                                  phrase=words.get("phrases", {}).get(aspect, "").format(topic=phrase),
                                                  what=words.get("descriptions", {}).get(aspect, "").format(topic=phrase))
        units.append(KnowledgeUnit(title=title, description=description, knowledgePoints=points))
    return VideoOutline(theme=topic, knowledgeUnits=units)


def _rotated(items: list, offset: int) -> list:
    """The items in turn from a stable place, so two topics open on different ones."""
    return [items[(offset + k) % len(items)] for k in range(len(items))]


def _stresses(focus: str, aspect: str, words: dict, zh: bool) -> bool:
    """Whether a focus the request names is this part's: a word of it (a Chinese pair of characters, an English word
    of four letters or more) is in the part's name, title or points ("the characters" → Characters, "父亲的形象" → 人物形象)."""
    title, points = words["aspects"][aspect]
    said = " ".join([aspect, title, *points]).lower()
    if zh:
        return any(focus[i:i + 2] in said for i in range(len(focus) - 1) if CJK.match(focus[i]) and CJK.match(focus[i + 1]))
    return any(re.search(rf"\b{re.escape(word)}", said) for word in re.findall(r"[a-z]{4,}", focus.lower())
               if not is_function_word(word))


def _sentence(text: str, zh: bool) -> str:
    """A title or a point said aloud as a sentence: its own ？ or ! ends it, else a full stop does."""
    return text if text.endswith(("。", "？", "！", ".", "?", "!")) else text + ("。" if zh else ".")


def _narration(seed_sentences: list[str], budget: int, zh: bool, lines: list[str], fillers: tuple[str, ...],
               first_filler: int = 0) -> tuple[str, int]:
    """(the narration, how many fillers it used): sentences from the slide's content, extended with the page's own
    lines (its points, what to ask about them) while a line brings it nearer the time budget, and with connective
    fillers (from `first_filler` on, so pages take turns) only once those run out: stopping only once past it made
    every page, and so the deck, run long."""
    language = "zh" if zh else "en"
    if not zh:  # a line that opens with the subject ("{topic} touches everyone's work") opens a sentence all the same
        seed_sentences, lines = [capitalised(s) for s in seed_sentences], [capitalised(line) for line in lines]
    text = "".join(seed_sentences) if zh else " ".join(seed_sentences)
    more = [*lines, *(fillers[(first_filler + i) % len(fillers)] for i in range(max(0, 4 * budget) if fillers else 0))]
    for used, line in enumerate(more):
        longer = text + line if zh else f"{text} {line}"
        if abs(narration_length(longer, language) - budget) >= abs(narration_length(text, language) - budget):
            return text, max(0, used - len(lines))
        text = longer
    return text, max(0, len(more) - len(lines))


def _shares(total: int, capacities: list[int]) -> list[float]:
    """The deck's narration shared among its pages: evenly, but a page whose own lines run out sooner keeps what
    they say and the rest goes to the pages with more to say; only what no page can say is shared evenly again
    (and said in fillers)."""
    shares, left, open_pages = [0.0] * len(capacities), float(total), list(range(len(capacities)))
    while open_pages and left > 0:
        even = left / len(open_pages)
        full = [i for i in open_pages if capacities[i] - shares[i] <= even]
        if not full:
            for i in open_pages:
                shares[i] += even
            return shares
        for i in full:
            left -= capacities[i] - shares[i]
            shares[i] = float(capacities[i])
            open_pages.remove(i)
    return [share + max(0.0, left) / len(shares) for share in shares]


# A step's number as a page shows it ("第一步：", "Step 1: "): said aloud, the lead before it ("First, ") tells the order.
_STEP_NUMBER = re.compile(r"^(?:第[一二三四五六七八九十]+步|Step \d+)[:：]\s*")


def _spoken(item: str, zh: bool) -> str:
    """A page's point as said aloud: a table row's cells in one clause, not read out with their bars; a step
    without its number ("First, step 1: Observe: …" read the order twice)."""
    return _STEP_NUMBER.sub("", re.sub(r"\s*[｜|]\s*", "，" if zh else ", ", item).strip())


# A part titled after the subject ("Volcanoes: a first look", "地震：是什么样的") is said in a sentence by its own words:
# a frame that has a colon of its own ("Part 1 covers {unit}: {points}", "分别是：{units}") read two in one line.
_UNIT_HEAD = re.compile(r"^(?P<head>[^:：]+?)\s*[:：]\s*(?P<tail>\S.*)$")
_PREDICATE_OPENS_ZH = re.compile(r"^(?:是|怎|为什么|如何|长|有|会|能|在)")


def _unit_in_sentence(units: list[str], names: tuple[str, ...], zh: bool):
    """How a part's title is said in a sentence: its head goes when it is the subject's name (the head all the parts
    share, or the deck's subject as titled or said)."""
    heads = {named.group("head").strip().casefold() for named in map(_UNIT_HEAD.match, units) if named}
    subject = {(name or "").casefold() for name in names}
    if len(units) > 1 and len(heads) == 1 and all(_UNIT_HEAD.match(unit) for unit in units):
        subject |= heads

    def said(unit: str) -> str:
        named = _UNIT_HEAD.match(unit)
        if not named or named.group("head").strip().casefold() not in subject:
            return unit if zh else mid_sentence(unit)
        tail = named.group("tail").strip()
        if zh:  # "地震是什么样的" says its subject as a sentence does; a part named by a noun is quoted
            return named.group("head").strip() + tail if _PREDICATE_OPENS_ZH.match(tail) else f"“{tail}”"
        return mid_sentence(tail)
    return said


def _joined(items: list[str], zh: bool) -> str:
    if zh:
        return "、".join(items)
    if len(items) == 1:
        return items[0]
    # an item with an "and" of its own ("the reasons and the evidence") is not joined by another: the last one's "and"
    # ends the list ("what we notice, the reasons and the evidence"), or a comma sets the last item apart
    if " and " in items[-1]:
        return ", ".join(items)
    return ", ".join(items[:-1]) + (", and " if any(" and " in item for item in items[:-1]) else " and ") + items[-1]


# Each outline point is shown from one angle; pages cycle through angles so a point met twice is
# shown differently. The views of the whole lesson (time plan, lesson flow) are not a point's: they follow the
# agenda, once, in a deck long enough to spare them (in the middle of the deck they broke its thread).
ANGLES = ("concept", "process", "contrast", "table", "statement", "example")
PLAN_ANGLES = ("plan_chart", "flow_timeline")
MIN_CONTENT_PAGES_FOR_PLAN = 12  # a short deck spends its pages on the subject


def _split_minutes(duration: int, parts: int) -> list[int]:
    """The lesson's minutes shared among its parts in whole minutes that add up to the duration (15 over 4
    → 4, 4, 4, 3), never more than was asked."""
    base, extra = divmod(duration, max(1, parts))
    return [base + (1 if i < extra else 0) for i in range(parts)]


def _point_name(point: str) -> str:
    """"关键过程要点1：光合作用中的关键步骤" → the part after the colon; a part named with a colon of its own
    ("开场：一个问题要点1：身边的一幕", "Opening: a question point 1: a familiar scene") → the part after its number."""
    if named := _POINT_OF_PART.match(point):
        return point[named.end():].strip()
    for mark in ("：", ": "):
        if mark in point:
            return point.split(mark, 1)[1].strip()
    return point


_POINT_OF_PART = re.compile(r"^(?P<aspect>.+?)(?:要点| point )\d+[:：]")


def _point_aspect(point: str) -> str | None:
    """"Common pitfalls point 2: typical errors" → "Common pitfalls": the part an outline point was made for."""
    named = _POINT_OF_PART.match(point)
    return named.group("aspect") if named else None


def _table_questions(words: dict, zh: bool, count: int) -> list[str]:
    """The question each row of an at-a-glance table answers, in turn: a column of "what and why" told nothing; a
    talk asks its own (where it stands, what it means for us)."""
    questions = words.get("table_questions") or _lines_said("deck_table_questions", "zh" if zh else "en")
    return [questions[i % len(questions)] for i in range(count)]


def _for_point(words: dict, key: str, point: str):
    """A wording table's entry for a point by its own name, else by its part: a definition has its own steps, while
    the points of a part of pitfalls share theirs; None when it has neither."""
    table = words.get(key, {})
    return table.get(_point_name(point), table.get(_point_aspect(point)))


def _fits(angle: str, point: str, words: dict) -> bool:
    """Whether a point can be seen from this angle: a wording's "fits" names the parts (or points) an angle suits
    (steps for a procedure or a course in time, not for "禁止行为" nor for "早年经历" again); others suit every point."""
    suited = words.get("fits", {}).get(angle)
    return suited is None or _point_aspect(point) in suited or _point_name(point) in suited


_NOT_A_NOUN_ZH = re.compile(r"哪|什么|怎|如何|为什么|[吗呢]$|^(?:按|先|再)|来$")


def _angle_page(angle: str, topic: str, unit: KnowledgeUnit, point: str, outline: VideoOutline, duration: int,
                zh: bool, words: dict, statements_before: int = 0) -> tuple[str, list[str], list[str]]:
    """(title, contentDesign, visualSuggestions) of one point seen from one angle, in the deck's wording;
    shaped so design.py reads it. statements_before: the one-line pages the deck has so far, each of which took the
    next of the wording's statements."""
    name = _point_name(point)
    points = [_point_name(p) for p in unit.knowledgePoints]
    units = outline.knowledgeUnits
    unit_in = unit.title if zh else mid_sentence(unit.title)
    language = "zh" if zh else "en"
    if angle == "concept":
        # "家庭急救的身边的一幕": a point that has a 的 of its own is set apart from the subject, not joined by another
        # nor is a point said as a question or a doing ("先看哪里", "拿不准时怎么办", "按顺序来"): "…的先看哪里" reads as no title
        apart = "_apart" if zh and ("的" in name or _NOT_A_NOUN_ZH.search(name)) else ""
        title = (words.get("concept_title") or t(f"ppt.deck_concept_title{apart}", locale=language)).format(topic=topic, name=name)
        if unit.title.casefold() in name.casefold():  # "分拣捐赠物的流程" names its part: not "…的方法：分拣捐赠物的流程"
            title = name if zh else capitalised(name)
        return (title,
                [line.format(name=name, description=unit.description, topic=topic, unit=unit.title)
                 for line in _for_point(words, "concepts", point) or words["concept"]],
                [t("ppt.deck_visual_diagram", locale=language, name=name)])
    if angle == "process":
        return (words["process_title"].format(name=name),
                # each step says what it does with this point: a stage alone ("Observe") drew an empty box
                [t("ppt.deck_step", locale=language, nth="一二三四"[i] if zh else i + 1, stage=stage)
                 + detail.format(name=name, topic=topic, unit=unit.title if zh else unit_in, **agreeing_with(name))
                 for i, (stage, detail) in enumerate(_for_point(words, "processes", point) or words["stages"])],
                [t("ppt.deck_visual_flow", locale=language)])
    if angle == "contrast":
        title, lines = _for_point(words, "contrasts", point) or (words["contrast_title"], words["contrast"])
        return (title.format(name=name, topic=topic),
                [line.format(name=name, topic=topic, unit=unit_in, **agreeing_with(name)) for line in lines],
                [t("ppt.deck_visual_contrast", locale=language)])
    if angle == "table":
        activities = words["activities"]
        return (words["table"].format(unit=unit.title),
                [words["table_head"]] + [(f"{p}：{asked}｜{activities[(i + len(p)) % len(activities)]}" if zh else
                  f"{p}: {asked} | {activities[(i + len(p)) % len(activities)]}")
                 for i, (p, asked) in enumerate(zip(points, _table_questions(words, zh, len(points))))],
                [t("ppt.deck_visual_table", locale=language)])
    if angle == "statement":
        return (t("ppt.deck_statement_title", locale=language, unit=unit_in),
                [_in_turn(words["statement"], statements_before).format(name=name, unit=unit_in)],
                [t("ppt.deck_visual_statement", locale=language)])
    if angle == "plan_chart":
        return (words["time_plan"],
                [t("ppt.deck_part_minutes", locale=language, unit=u.title, m=m)
                 for u, m in zip(units, _split_minutes(duration, len(units)))],
                [t("ppt.deck_visual_chart", locale=language)])
    if angle == "flow_timeline":
        ends = list(accumulate(_split_minutes(duration, len(units))))
        return (words["flow"],
                [t("ppt.deck_minutes_span", locale=language, start=end - m, end=end, unit=u.title)
                 for u, m, end in zip(units, _split_minutes(duration, len(units)), ends)],
                [t("ppt.deck_visual_timeline", locale=language)])
    # example
    return (words["example"].format(name=name),
            [item.format(name=name, unit=unit_in) for item in words["example_items"]],
            [words["example_visual"]])


def _in_turn(said: str | tuple[str, ...], nth: int) -> str:
    """The nth of a wording's sentences, round again when they run out (a single sentence is always itself)."""
    return said if isinstance(said, str) else said[nth % len(said)]


def _views(turn: list[str], topic: str, unit: KnowledgeUnit, point: str, outline: VideoOutline, duration: int,
           zh: bool, words: dict, statements_before: int = 0) -> list[tuple[str, tuple[str, list[str], list[str]]]]:
    """(angle, page) of each angle in turn that suits the point."""
    return [(angle, _angle_page(angle, topic, unit, point, outline, duration, zh, words, statements_before))
            for angle in turn if _fits(angle, point, words)]


@offline_composer(SlideScripts)
def slide_scripts(request: OfflineRequest) -> SlideScripts:
    zh = _zh(request)
    # Inside sentences the subject is said as a noun phrase; the cover keeps it as the user wrote it.
    topic, part_topic = _phrase(request), _parts_phrase(request)
    total = request.fact("slideCount")
    budget = request.fact("narrationBudget")
    duration = request.fact("duration") or max(1, total - 2)
    outline = VideoOutline.model_validate(request.fact("outline"))
    points = [(unit, point) for unit in outline.knowledgeUnits for point in unit.knowledgePoints]
    units = [unit.title for unit in outline.knowledgeUnits]
    closing = 2 if total >= 6 else 1
    agenda = total >= 5
    words = _wording(request)
    language = "zh" if zh else "en"
    mid = _unit_in_sentence(units, (request.fact("topic"), topic, part_topic), zh)
    ordinals = "一二三四五六七八九十"
    unit_points = {unit.title: [_point_name(p) for p in unit.knowledgePoints] for unit in outline.knowledgeUnits}
    pages = []  # (title, content, visuals, seed, the page's own lines to narrate)
    shown: set[str] = set()  # titles as set on the pages so far
    shown_points: set[tuple[str, ...]] = set()  # the points of each page so far
    said: set[str] = set()  # lines some page already has: a presenter reads none twice
    met: set[str] = set()  # outline points some page has shown
    content_index = 0
    statements = 0  # one-line pages so far: each says its point in the next of the wording's sentences
    waiting: list[str] = []  # angles passed over because the point then shown did not suit them
    last_taken = None
    plan_pages = PLAN_ANGLES if agenda and total - 2 - closing >= MIN_CONTENT_PAGES_FOR_PLAN else ()
    for index in range(1, total + 1):
        frames: list = []  # the sentence frame of each line about a point (none for the pages' own points)
        if index == 1:
            title = request.fact("topic") if zh else capitalised(request.fact("topic"))
            content = [words["parts"].format(n=len(units))]
            visuals = [t("ppt.deck_cover_visual", locale=language)]
            # "today we learn about how plants grow": the lesson opens on the question asked, not on its "plants"
            asked = None if zh else embedded_question(request.fact("topic"))
            seed = [words["hello"].format(topic=asked or topic), words["has_parts"].format(n=len(units))]
            lines = [line.format(n=len(units), units=_joined([mid(u) for u in units], zh), topic=topic,
                                 question=asked or unasked(request.fact("topic")),
                                 **agreeing_with(topic))
                     for line in words["notes_cover"]]
        elif index == 2 and agenda:
            title = words["agenda"]
            content = units[:8]
            visuals = []
            seed = [t("ppt.deck_agenda_opening", locale=language, n=len(units))]
            lines = [words["notes_part"].format(nth=ordinals[i] if zh else i + 1, unit=mid(unit.title), points=_joined(
                         unit_points[unit.title], zh), description=unit.description)
                     for i, unit in enumerate(outline.knowledgeUnits[:8])]
            lines.append(words["notes_minutes"].format(m=max(1, round(duration / max(1, len(units))))))
        elif index == total and closing == 2:
            title = words["questions"]
            content = [ask.format(unit=units[0] if zh else mid_sentence(units[0]), topic=topic) for ask in words["asks"]]
            visuals = []
            seed = [words.get("questions_opening") or t("ppt.deck_questions_opening", locale=language)]
            lines = [*(_sentence(ask, zh) for ask in content), *words["notes_qa"]]
        elif index == total - closing + 1:
            title = t("ppt.deck_summary_title", locale=language)
            content = units[:6]
            visuals = [t("ppt.deck_summary_visual", locale=language)]
            seed = [f"我们回顾一下{topic}的要点。"] if zh else ["Let us go over the key points once more."]
            lines = [*(words["notes_recap"].format(unit=mid(unit), points=_joined(unit_points[unit], zh)) for unit in units[:6]),
                     *(line.format(topic=topic) for line in words["notes_summary"])]
        elif 3 <= index < 3 + len(plan_pages):
            title, content, visuals = _angle_page(plan_pages[index - 3], topic, outline.knowledgeUnits[0],
                                                  points[0][1], outline, duration, zh, words)
            seed = None
            lines = list(words["notes_plan"])
            if title == words["flow"]:  # the running order: what to watch for in each part, in turn
                lines = [words["notes_flow"].format(unit=mid(u), points=_joined(unit_points[u], zh)) for u in units]
        else:
            unit, point = points[content_index % len(points)]
            rounds = content_index // len(ANGLES)
            angles = ANGLES
            first = (content_index + rounds) % len(angles)
            content_index += 1
            # A long deck meets each point more than once: the first angle that gives a page it does not have yet.
            # An angle the point does not suit waits for the next point that does, so the deck still has its steps
            # and two pages alike do not follow each other.
            # a point's page names its subject as the parts do (a history lesson: the event itself)
            turn = [*waiting, *(a for a in (angles[(first + k) % len(angles)] for k in range(len(angles))) if a not in waiting)]
            if waiting:  # the angle the page before took comes last, when pages were passed over
                turn = sorted(turn, key=lambda a: a == last_taken)
            if words.get("own_page_first") and point not in met:  # its own page (the guess, the evidence) first
                # a point with steps of its own ("怎样长大", "how it forms") is its steps
                own = "process" if _point_name(point) in words.get("processes", {}) else "concept"
                turn = sorted(turn, key=lambda a: a != own)
            views = _views(turn, part_topic, unit, point, outline, duration, zh, words, statements)
            # a page new to the deck has a title and points of its own: a contrast that reads the same whatever its
            # point ("学之前：凭感觉猜…") is shown once, not under each point's name; a point that has nothing new
            # left gives its page to the next one that has
            def new(view) -> bool:
                return tuple(view[1][1]) not in shown_points and capitalised(view[1][0]) not in shown
            if not any(new(v) for v in views):
                for later_unit, later_point in points[content_index:] + points[:content_index]:
                    later_views = _views(turn, part_topic, later_unit, later_point, outline, duration, zh, words, statements)
                    if any(new(v) for v in later_views):
                        unit, point, views = later_unit, later_point, later_views
                        break
            fresh = [v for v in views if tuple(v[1][1]) not in shown_points] or views
            taken, (title, content, visuals) = next((v for v in fresh if capitalised(v[1][0]) not in shown), fresh[0])
            waiting = [a for a in [*waiting, angles[first]] if a != taken and a in turn[:turn.index(taken)]]
            last_taken = taken
            statements += taken == "statement"
            seed = None  # a content page is narrated from its own title and points (set below, once capitalised)
            name, following = _point_name(point), _point_name(points[content_index % len(points)][1])
            # A point met again is spoken of as met again.
            # "key terms … where have you met them?": a point named in the plural is not "it"
            frames = words["notes_again"] if point in met else words["notes_page"]
            lines = [line.format(name=name, unit=mid(unit.title), topic=part_topic, next=following, **agreeing_with(name))
                     for line in frames]
            met.add(point)
        if not zh:  # sentence case: titles built from a lower-case topic start with a capital
            title = capitalised(title)
            content = [capitalised(item) for item in content]
        if seed is None:
            # Each point on the page led in turn ("先看第一点，…", "Next, …"); a table's header row is not read out.
            items = [_spoken(item, zh) for item in content if item != words["table_head"]]
            led = _led_in_turn(items, words["item_leads"], zh)
            # a point read out on an earlier page is not read again, and those left are led afresh: "第二点" without
            # its "先看第一点" reads as a slip
            while any(line in said for line in led):
                items = [item for item, line in zip(items, led) if line not in said]
                led = _led_in_turn(items, words["item_leads"], zh)
            seed, lines, frames = [_sentence(title, zh)], [*led, *lines], [*(None for _ in led), *frames]
        if zh:
            for said_as in {topic, part_topic}:
                title, content = _without_stacked_de(title, said_as), [_without_stacked_de(c, said_as) for c in content]
                seed, lines = [_without_stacked_de(c, said_as) for c in seed], [_without_stacked_de(c, said_as) for c in lines]
            # a subject that ends in 的 ("为什么天空是蓝色的") before "的整体" read "蓝色的的整体"
            seed, lines = [_DOUBLED_DE.sub("的", c) for c in seed], [_DOUBLED_DE.sub("的", c) for c in lines]
        shown.add(title)
        shown_points.add(tuple(content))
        frames = frames if len(frames) == len(lines) else [None] * len(lines)
        lines, frames = [line for line in lines if line not in said], [f for line, f in zip(lines, frames) if line not in said]
        said.update(lines)
        pages.append((title, content, visuals, seed, lines, frames))
    # The deck's narration is budgeted as a whole: a page says what it has to say, what one page runs over or
    # under the pages after it make up, and a page with little of its own leaves its share to pages with more.
    joiner = "" if zh else " "
    # A page with little of its own still speaks for half its even share: a page is talked over, not flicked past.
    capacities = [max(budget // 2, narration_length(joiner.join([*seed, *lines]), language)) for *_, seed, lines, _ in pages]
    shares = _shares(budget * total, capacities)
    scripts, planned, spoken, fillers_used = [], 0.0, 0, 0
    goodbye = words["notes_qa"][-1]
    frames_said: dict[str, int] = {}  # how many pages have said each sentence frame of a point's page so far
    for index, ((title, content, visuals, seed, lines, frames), share) in enumerate(zip(pages, shares), start=1):
        planned += share
        lines, frames = _least_said_first(lines, frames, frames_said)
        # The agenda says the parts and their time, then moves on: "Let us look at this closely." after it points at nothing,
        # and so it does after the summary and after the goodbye ("谢谢大家的时间！我们先来看这一点。").
        fillers = () if agenda and index == 2 or index > total - closing else words["fillers"]
        narration, used = _narration(seed, round(planned - spoken), zh, lines, fillers, fillers_used)
        fillers_used += used
        for line, frame in zip(lines, frames):  # the frames this page said are said once more
            if frame is not None and (line if zh else capitalised(line)) in narration:
                frames_said[frame] = frames_said.get(frame, 0) + 1
        if index == total and closing == 2 and goodbye not in narration:  # a talk ends with its thanks, however short
            narration = joiner.join([narration, goodbye])
        spoken += narration_length(narration, language)
        scripts.append(SlideScript(slideIndex=index, title=title, contentDesign=content, visualSuggestions=visuals,
                                   narrationScript=narration))
    return SlideScripts(scripts=scripts)


def _least_said_first(lines: list[str], frames: list, frames_said: dict[str, int]) -> tuple[list[str], list]:
    """A point's page says its own points first, then its frames ("请大家先想一想：说到{name}…") least said so far
    first: a page's narration ends where its time does, so the frames it leaves out are not the same on every page.
    The frame that opens a point ("这一页的重点是…", "We come back to …") opens it or is left to the last."""
    framed = [i for i, frame in enumerate(frames) if frame is not None]
    if not framed:
        return lines, frames
    opening, said = framed[0], (lambda i: frames_said.get(frames[i], 0))
    opens = said(opening) <= min(map(said, framed))
    order = sorted(range(len(lines)), key=lambda i: (frames[i] is not None, i != opening if opens else i == opening,
                                                     said(i) if frames[i] is not None else 0, i))
    return [lines[i] for i in order], [frames[i] for i in order]


def _led_in_turn(items: list[str], leads: tuple[str, ...], zh: bool) -> list[str]:
    """The page's points as sentences, each led in turn ("先看第一点，…", "Next, …", "Finally, …")."""
    if len(items) == 1:
        return [_sentence(items[0], zh)]
    mid = (lambda text: text) if zh else mid_sentence
    return [_sentence((leads[-1] if k == len(items) - 1 and k >= 2 else leads[min(k, len(leads) - 2)]) + mid(item), zh)
            for k, item in enumerate(items)]


EXERCISE_WORDS = ("练习", "习题", "作业", "测验", "小测", "exercise", "quiz", "homework", "practice")


# A page the user asks for by its kind, titled in the deck's language whatever language the request used.
KIND_TITLES = {"summary": ("总结", "Summary")}


def _page_kind(subject: str) -> str | None:
    # "历史回顾" is a page about history, not the deck's recap: only the recap or agenda alone is one.
    return deck_part_named(subject) or ("exercise" if any(word in subject.lower() for word in EXERCISE_WORDS) else None)


def _subject_page(subject: str, nth: int, topic: str, outline: VideoOutline, zh: bool,
                  words: dict) -> tuple[str, list[str], list[str]]:
    """(title, contentDesign, visualSuggestions) of a page added about a subject the user named: a recap, an
    agenda or exercises when the subject says so, else the subject's points tied back to the deck's topic."""
    units = [unit.title for unit in outline.knowledgeUnits]
    title = subject if zh else capitalised(subject)
    kind = _page_kind(subject)
    if kind and (language_of(subject) == "zh") != zh:  # "add a summary slide" on a Chinese deck: a page titled 总结
        title = KIND_TITLES[kind][0 if zh else 1] if kind in KIND_TITLES else words[kind]
    if nth:
        title = f"{title}（{nth + 1}）" if zh else f"{title} ({nth + 1})"
    lowered = subject.lower()
    if kind in ("summary", "agenda"):
        return title, units[:6], []
    if kind == "exercise":
        # An exercise follows the deck's setting: a talk's asks about the listeners' work, not everyday life.
        first, last = (units[0], units[-1]) if zh else (mid_sentence(units[0]), mid_sentence(units[-1]))
        return title, [item.format(first=first, last=last, topic=topic) for item in words["exercise_items"]], []
    tie = f"联系{units[nth % len(units)]}" if topic in subject else f"{subject}与{topic}的关系"
    tie_en = f"Linked to {mid_sentence(units[nth % len(units)])}" if topic.lower() in lowered else f"How {subject} relates to {topic}"
    return title, ([f"{subject}：核心要点", tie, f"{subject}的一个实例"] if zh else
                   [f"{title}: the key points", tie_en, f"An example of {subject}"]), [t("ppt.deck_visual_diagram", locale="zh" if zh else "en", name=subject)]


@offline_composer(SlideScript)
def added_slide_script(request: OfflineRequest) -> SlideScript:
    """A page added to a finished deck: about the subject asked for, else the first angle on an outline point
    whose page the deck does not have yet (so it never repeats a page)."""
    topic, zh, nth = _phrase(request), _zh(request), request.fact("nth", 0)
    words = _wording(request)
    outline = VideoOutline.model_validate(request.fact("outline"))
    subject = request.fact("subject")
    if subject:
        title, content, visuals = _subject_page(subject, nth, topic, outline, zh, words)
    else:
        taken = set(request.fact("titles") or [])
        candidates = [_angle_page(angle, topic, unit, point, outline, 10, zh, words, nth) for angle in ANGLES[::-1]
                      for unit in outline.knowledgeUnits for point in unit.knowledgePoints if _fits(angle, point, words)]
        fresh = [c for c in candidates if capitalised(c[0]) not in taken and c[0] not in taken]
        title, content, visuals = (fresh or candidates)[nth % len(fresh or candidates)]
        if not zh:
            title, content = capitalised(title), [capitalised(item) for item in content]
    seed = [f"{title}。", *(f"{_spoken(c, True)}。" for c in content[:2])] if zh else \
        [f"{title}.", *(f"{_spoken(c, False)}." for c in content[:2])]
    lines = [_sentence(_spoken(c, zh), zh) for c in content[2:]]
    if zh:
        title, content = _without_stacked_de(title, topic), [_without_stacked_de(c, topic) for c in content]
        seed, lines = [_without_stacked_de(c, topic) for c in seed], [_without_stacked_de(c, topic) for c in lines]
    return SlideScript(slideIndex=request.fact("index"), title=title, contentDesign=content, visualSuggestions=visuals,
                       narrationScript=_narration(seed, request.fact("narrationBudget"), zh, lines, words["fillers"])[0])


@offline_composer(PresentationTheme)
def presentation_theme(request: OfflineRequest) -> PresentationTheme:
    topic, feedback = request.fact("topic"), request.fact("feedback") or ""
    colour = colour_named(feedback)
    if colour is not None:  # the colour the user asked for, not one picked for the topic
        name, colors = t("ppt.colour_theme", colour=t(f"ppt.colour_{colour.name}")), palette_for(colour)
    else:
        current = request.fact("currentTheme")
        others = [(key, colors) for key, colors in PALETTES
                  if current not in {t(f"ppt.theme_{key}", locale=locale) for locale in LOCALES}]
        key, colors = stable_choice(others, topic, feedback)
        name = t(f"ppt.theme_{key}")
    return PresentationTheme(
        themeName=name,
        colorScheme=colors,
        fontConfig=FontConfig(
            titleFont="Arial",
            bodyFont="Arial",
            eastAsianFont="Microsoft YaHei",  # every deck needs a CJK-capable East Asian font
            titleSize=40,
            bodySize=24,
        ),
        masterSlides=[MasterSlide(name=layout.replace("_", " ").title(), layout=layout) for layout in SLIDE_LAYOUTS],
    )


VISUAL_WORDS = ("视觉", "visual")


def _asks_for_visuals(feedback: str) -> bool:
    return asks_for_picture(feedback) or any(word in feedback for word in VISUAL_WORDS)


def _first_clause(text: str) -> str:
    """"观察现象：看看身边的例子，再想原因" → "观察现象：看看身边的例子": the point without its elaboration."""
    for mark in ("，", "；", ", ", "; "):
        head = text.split(mark, 1)[0]
        if len(head) >= 4:
            text = head
    return text


def _fewer(items: list, keep_at_least: int) -> list:
    return items[: max(keep_at_least, (len(items) + 1) // 2)]


_CONNECTIVES = re.compile(r"^(?:的|与|和|及|之)+|(?:的|与|和|及|之)+$|^(?:(?:of|for|in|on|to|with|the|a|an|and)\b\s*)+"
                          r"|(?:\s*\b(?:of|for|in|on|to|with|the|a|an|and))+$", re.IGNORECASE)


def _shared_cut(items: list[str]) -> list[str]:
    """Items without the wording they all share ("光合作用的基本概念", "光合作用的核心原理" → "基本概念", "核心原理";
    "The core ideas of X", "Practice with X" → "The core ideas", "Practice"); unchanged when
    they share none or it would leave an item empty."""
    if len(items) < 2:
        return items
    zh = any(CJK.search(i) for i in items)
    split = (lambda text: list(text)) if zh else (lambda text: text.split(" "))
    parts = [split(i) for i in items]
    head = 0
    while all(len(p) > head and p[head] == parts[0][head] for p in parts):
        head += 1
    tail = 0
    while all(len(p) > head + tail and p[-1 - tail] == parts[0][-1 - tail] for p in parts):
        tail += 1
    cut = [("" if zh else " ").join(p[head:len(p) - tail]) for p in parts]
    cut = [_CONNECTIVES.sub("", c).strip() for c in cut]
    if (head == 0 and tail == 0) or not all(cut):
        return items
    return cut if zh else [capitalised(c) for c in cut]


def _simpler_page(page: SlideSpec) -> SlideSpec:
    """The same page with about half its points, each cut to its first clause; an agenda or a recap keeps
    every part (each is a unit of the deck) in fewer words."""
    if page.layout in ("agenda", "summary"):
        return page.model_copy(update={"bullets": _shared_cut([_first_clause(b) for b in page.bullets])})
    return page.model_copy(update={
        "bullets": [_first_clause(b) for b in _fewer(page.bullets, 1)],
        "columns": [c.model_copy(update={"items": [_first_clause(i) for i in _fewer(c.items, 1)]}) for c in page.columns],
        "steps": [s.model_copy(update={"detail": _first_clause(s.detail)}) for s in _fewer(page.steps, 2)],
        "table": page.table.model_copy(update={"rows": _fewer(page.table.rows, 1)}) if page.table else None,
    })


def _revised_page(request: OfflineRequest) -> SlideSpec:
    """Page feedback on a finished deck: simpler when asked, a table or steps when asked, an image-led page
    when visuals are asked; a page whose points cannot take the layout asked for stays as it was."""
    page = SlideSpec.model_validate(request.fact("current"))
    feedback = (request.fact("feedback") or "").lower()
    if wants_simpler(feedback):
        page = _simpler_page(page)
    layout = layout_asked(feedback)
    if layout == "comparison":
        page = as_table(page, request.fact("language", "zh")) or page
    elif layout == "process":
        page = as_process(page) or page
    elif layout == "image_text":
        page = as_image_text(page) or page
    elif _asks_for_visuals(feedback) and page.layout == "bullets":
        page = page.model_copy(update={"layout": "image_text"})
    return page


@offline_composer(SlideSpec)
def slide_spec(request: OfflineRequest) -> SlideSpec:
    """The page as design.py reads the script's shape; visual feedback adds an icon-led page."""
    if request.fact("current") is not None:
        return _revised_page(request)
    script = SlideScript.model_validate(request.fact("script"))
    if request.fact("added"):  # a page added to a finished deck: its content, not its place, sets its layout
        spec = design_slide(script.model_copy(update={"slideIndex": 2}), request.fact("total") + 2, None)
        spec = spec.model_copy(update={"index": script.slideIndex})
    else:
        spec = design_slide(script, request.fact("total"), request.fact("subtitle") if script.slideIndex == 1 else None)
    feedback = (request.fact("feedback") or "").lower()
    if _asks_for_visuals(feedback) and spec.layout == "bullets":
        spec = spec.model_copy(update={"layout": "image_text"})
    return spec


@offline_composer(FeedbackIntent)
def feedback_intent(request: OfflineRequest) -> FeedbackIntent:
    # Reached only when no rule matched: no stage is named and no new subject is asked for, so offline
    # nothing can be applied; the deck is kept and the user told what can be changed.
    return FeedbackIntent(intent="UNSUPPORTED", reason="no refinement keyword")
