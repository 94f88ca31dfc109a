"""Offline composers for the PPT stages: deterministic content built from the request's facts.

They read only what the graph passes as `facts` (topic, keywords, duration, outline, feedback…),
so two different topics give two different decks and the same topic always gives the same one.
"""

from __future__ import annotations

import re
from itertools import accumulate

from core.llm.offline import OfflineRequest, offline_composer, stable_choice, stable_int
from graphs.ppt.design import as_image_text, as_process, as_table, deck_part_named, design_slide
from core.i18n import t
from core.language import CJK, language_of, mid_sentence
from graphs.ppt.planning import (
    FeedbackIntent,
    asks_for_picture,
    capitalised,
    colour_named,
    keywords_of,
    layout_asked,
    narration_length,
    palette_for,
    wants_simpler,
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

PALETTES = (
    ("Ocean Classroom", ColorScheme(primary="#1F4E79", secondary="#2E75B6", accent="#F4B183", background="#FFFFFF", text="#1E1E1E")),
    ("Forest Notes", ColorScheme(primary="#385723", secondary="#70AD47", accent="#FFC000", background="#FBFCF8", text="#1F2A17")),
    ("Sunset Lecture", ColorScheme(primary="#843C0C", secondary="#C55A11", accent="#2F5597", background="#FFFAF5", text="#2B1B12")),
    ("Graphite Lab", ColorScheme(primary="#262626", secondary="#595959", accent="#00B0F0", background="#F7F7F7", text="#141414")),
    ("Plum Seminar", ColorScheme(primary="#4B1F6F", secondary="#7030A0", accent="#00B050", background="#FCFAFE", text="#1D1424")),
)

STYLES_ZH = ("问题驱动，由浅入深", "案例引入，层层递进", "故事化讲解，联系生活", "对比分析，归纳总结")
STYLES_EN = ("Problem-driven, from simple to deep", "Case-led and progressive", "Story-based with everyday examples", "Compare, contrast, then summarise")
ASPECTS_ZH = ("基本概念", "核心原理", "关键过程", "典型应用", "常见误区", "发展趋势")
# An English aspect does not read as "<aspect> of <topic>" ("How it works of volcanoes"): each has its own phrase.
ASPECT_PHRASES_EN = {"Core ideas": "the core ideas of {topic}", "How it works": "the workings of {topic}",
                     "Key processes": "the key processes in {topic}", "Applications": "the applications of {topic}",
                     "Common pitfalls": "common pitfalls in {topic}", "What comes next": "what comes next for {topic}"}
ASPECTS_EN = tuple(ASPECT_PHRASES_EN)
# Each aspect's three points by a short name of their own (unique in the deck, so no two pages share a title):
# a page is titled by its point, and "a key idea in what comes next for Q3 results review" is no title.
ASPECT_POINTS_ZH = {"基本概念": ("核心术语", "基本定义", "主要类别"), "核心原理": ("作用机制", "因果关系", "关键条件"),
                    "关键过程": ("主要阶段", "先后顺序", "关键环节"), "典型应用": ("应用场景", "应用方法", "应用效果"),
                    "常见误区": ("易混概念", "典型错误", "错误根源"), "发展趋势": ("当前进展", "新兴方向", "未来挑战")}
ASPECT_POINTS_EN = {"Core ideas": ("key terms", "basic definitions", "main types"),
                    "How it works": ("the mechanism", "cause and effect", "key conditions"),
                    "Key processes": ("the main stages", "the order of steps", "the critical step"),
                    "Applications": ("where it is used", "how it is applied", "what it achieves"),
                    "Common pitfalls": ("confusable terms", "typical errors", "where errors start"),
                    "What comes next": ("recent progress", "new directions", "future challenges")}
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

# The words a deck is told in follow its setting (planning.deck_setting): a lesson speaks of the class and
# its activities, a talk at work or in public of the agenda, cases and what they mean for the listeners.
WORDING = {
    ("lesson", "zh"): {
        "aspects": {a: ("{topic}的" + a, ASPECT_POINTS_ZH[a]) for a in ASPECTS_ZH}, "objective": "理解{topic}的{aspect}",
        "description": "从{aspect}的角度讲解{topic}",
        "concept": ("{name}：{description}", "它回答的问题：{topic}为什么会这样", "记住关键词：{unit}"),
        "process_title": "一步步理解{name}", "contrast_title": "{name}：误区与正解",
        "contrast": ("误区：只要知道{name}的结论就够了", "误区：{name}与{topic}的其他部分无关",
                     "正解：要理解{name}背后的原因", "正解：{name}与{unit}紧密相连"),
        "statement": "{name}：理解{unit}的钥匙",
        "exercise_items": ("用自己的话解释{first}", "举一个生活中与{topic}有关的例子", "{first}和{last}有什么联系？"),
        "parts": "本课共 {n} 个部分", "hello": "大家好，今天我们一起学习{topic}。", "has_parts": "本节课分为{n}个部分。",
        "agenda": "本课内容", "questions": "思考与提问", "time_plan": "本课时间分配", "flow": "课堂流程",
        "asks": ("你能用自己的话解释{unit}吗？", "{topic}在生活中还有哪些例子？", "今天哪一点你还想深入了解？"),
        "fillers": ("我们先来看这一点。", "请大家结合生活中的例子想一想。", "这一点在后面还会用到。", "理解了这里，后面的内容就容易了。"),
        "stages": ("观察现象", "提出问题", "分析原理", "得出结论"), "table": "{unit}：学习路线",
        "table_head": "知识点｜要解决的问题｜课堂活动", "activities": ("观察与记录", "小组讨论", "动手实验", "画图归纳", "联系生活"),
        "example": "{name}：身边的例子",
        "example_items": ("在生活中找一找与{name}有关的现象", "用{unit}解释这个现象", "和同桌交流你的发现"),
        "example_visual": "生活场景配图", "exercise": "课堂练习",
    },
    ("talk", "zh"): {
        "aspects": {a: (a, points) for a, points in TALK_ASPECT_POINTS_ZH.items()}, "objective": "了解{topic}的{aspect}",
        "description": "说明{topic}的{aspect}",
        "concept": ("{name}：{description}", "要回答的问题：从{name}能看出什么", "关键词：{unit}"),
        "process_title": "{name}：逐步梳理", "contrast_title": "{name}：常见看法与实际情况",
        "contrast": ("常见看法：{name}简单看看就行", "常见看法：{name}与{topic}的其他部分无关",
                     "实际情况：{name}值得仔细看", "实际情况：{name}要和{unit}放在一起看"),
        "statement": "{name}：理解{unit}的切入点",
        "exercise_items": ("用一句话说明{first}", "结合你的工作，举一个与{topic}有关的实例", "“{first}”与“{last}”有什么联系？"),
        "parts": "本次分享共 {n} 个部分", "hello": "大家好，今天由我来和大家谈谈{topic}。", "has_parts": "今天的内容分为{n}个部分。",
        "agenda": "今日议程", "questions": "提问与讨论", "time_plan": "时间分配", "flow": "流程安排",
        "asks": ("{topic}对我们意味着什么？", "接下来我们可以怎么做？", "还有哪些问题需要进一步讨论？"),
        "fillers": ("我们先来看这一点。", "请大家结合自己的实际情况想一想。", "这一点在后面还会用到。", "明确了这一点，后面的内容就清楚了。"),
        "stages": ("回顾现状", "找出问题", "分析原因", "确定行动"), "table": "{unit}：一览",
        "table_head": "要点｜要回答的问题｜呈现方式", "activities": ("数据回顾", "案例分析", "现场讨论", "图表说明", "经验分享"),
        "example": "{name}：实际案例",
        "example_items": ("一个与{name}有关的实际案例", "用{unit}分析这个案例", "讨论：它对我们有什么启示"),
        "example_visual": "案例配图", "exercise": "练习",
    },
    ("lesson", "en"): {
        "aspects": {a: (ASPECT_PHRASES_EN[a], ASPECT_POINTS_EN[a]) for a in ASPECTS_EN}, "phrases": ASPECT_PHRASES_EN,
        "objective": "Understand {phrase}", "description": "Explains {topic} from the angle of {aspect}",
        "concept": ("{name}: {description}", "The question it answers: what makes {topic} work this way", "Keyword: {unit}"),
        "process_title": "{name}, step by step", "contrast_title": "{name}: myth and fact",
        # Modal verbs and plural subjects: a point named in the plural ("future challenges") reads right too.
        "contrast": ("Myth: knowing the outcome of {name} is enough", "Myth: {name} can be studied apart from {topic}",
                     "Fact: the reasons behind {name} matter", "Fact: {name} must be understood together with {unit}"),
        "statement": "{name}: the key to {unit}",
        "exercise_items": ("Explain {first} in your own words", "Give an everyday example of {topic}",
                           "How do {first} and {last} connect?"),
        "parts": "{n} parts in this lesson", "hello": "Hello, today we learn about {topic}.", "has_parts": "The lesson has {n} parts.",
        "agenda": "Today's plan", "questions": "Questions", "time_plan": "How the lesson time is spent", "flow": "Lesson flow",
        "asks": ("Can you explain {unit} in your own words?", "Where else do you meet {topic}?", "What would you like to explore further?"),
        "fillers": ("Let us look at this closely.", "Think of an everyday example.", "We will use this again later.", "With this in place the rest follows."),
        "stages": ("Observe", "Ask", "Explain", "Conclude"), "table": "{unit} at a glance",
        "table_head": "Point | Question | Activity",
        "activities": ("Observe and record", "Group discussion", "Hands-on activity", "Draw and summarise", "Everyday link"),
        "example": "{name}: an everyday example",
        "example_items": ("Find something around you that shows {name}", "Explain it with {unit}", "Compare notes with a partner"),
        "example_visual": "Everyday scene picture", "exercise": "Exercises",
    },
    ("talk", "en"): {
        "aspects": {a: (a, points) for a, points in TALK_ASPECT_POINTS_EN.items()}, "phrases": TALK_ASPECT_PHRASES_EN,
        "objective": "Understand {phrase}", "description": "Covers {aspect} for {topic}",
        "concept": ("{name}: {description}", "The question it answers: what to take from {name}", "Keyword: {unit}"),
        "process_title": "{name}, step by step", "contrast_title": "{name}: assumption and reality",
        "contrast": ("Assumption: a quick look at {name} is enough", "Assumption: {name} can be set apart from {topic}",
                     "Reality: a closer look at {name} pays off", "Reality: {name} must be read together with {unit}"),
        "statement": "{name}: the key to {unit}",
        "exercise_items": ("Sum up {first} in one sentence", "Give an example of {topic} from your own work",
                           "How do {first} and {last} connect?"),
        "parts": "{n} parts in this talk", "hello": "Hello, and thank you for coming. Today's topic: {topic}.", "has_parts": "The talk has {n} parts.",
        "agenda": "Agenda", "questions": "Questions and discussion", "time_plan": "How the time is spent", "flow": "Running order",
        "asks": ("What should we take away from {topic}?", "What should we do next?", "What needs more discussion?"),
        "fillers": ("Let us look at this closely.", "Think of a case from your own experience.", "We will come back to this later.", "With this in place the rest follows."),
        "stages": ("Review", "Spot the issue", "Analyse", "Act"), "table": "{unit} at a glance",
        "table_head": "Point | Question | How we cover it",
        "activities": ("Data review", "Case study", "Open discussion", "Chart walk-through", "Takeaways"),
        "example": "{name}: a real case",
        "example_items": ("A real case that shows {name}", "Look at it in the light of {unit}", "Discuss: what it means for us"),
        "example_visual": "Case picture", "exercise": "Exercises",
    },
}


def _wording(request: OfflineRequest) -> dict:
    return WORDING[("talk" if request.fact("setting") == "talk" else "lesson", "zh" if _zh(request) else "en")]


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


@offline_composer(CourseConfig)
def course_config(request: OfflineRequest) -> CourseConfig:
    topic, zh, words = request.fact("topic"), _zh(request), _wording(request)
    keywords = request.fact("keywords") or [topic]
    audience = request.fact("audienceHint") or ("对该主题感兴趣的初学者" if zh else "Curious beginners")
    duration = request.fact("durationMinutesHint") or 10
    style = stable_choice(STYLES_ZH if zh else STYLES_EN, topic, "style")
    objectives = [words["objective"].format(topic=topic, aspect=aspect, phrase=words.get("phrases", {}).get(aspect, "").format(topic=topic))
                  for aspect in list(words["aspects"])[:3]]
    if len(keywords) > 1:
        objectives.append(f"能够区分{keywords[0]}与{keywords[1]}" if zh else f"Tell {keywords[0]} from {keywords[1]}")
    return CourseConfig(narrativeStyle=style, targetAudience=audience, duration=duration, objectives=objectives)


@offline_composer(VideoOutline)
def video_outline(request: OfflineRequest) -> VideoOutline:
    topic, zh, words = request.fact("topic"), _zh(request), _wording(request)
    duration = request.fact("duration", 10)
    unit_count = max(2, min(6, round(duration / 4)))
    points_per_unit = 3
    if _wants_simpler(request):
        unit_count, points_per_unit = max(2, unit_count - 1), 2
    aspects = list(words["aspects"])
    offset = stable_int(topic, "outline") % len(aspects)
    chosen = [aspects[(offset + u) % len(aspects)] for u in range(unit_count)]
    if request.fact("setting") == "talk":  # a report runs background first and next steps last, whichever it covers
        chosen.sort(key=aspects.index)
    units = []
    for aspect in chosen:
        # A point is named within its unit: units sharing point names give pages and tables that repeat.
        title, names = words["aspects"][aspect]
        title = title.format(topic=topic) if zh else capitalised(title.format(topic=topic))
        points = [(f"{aspect}要点{p + 1}：{names[p]}" if zh else f"{aspect} point {p + 1}: {names[p]}")
                  for p in range(points_per_unit)]
        description = words["description"].format(topic=topic, aspect=aspect if zh else aspect.lower())
        units.append(KnowledgeUnit(title=title, description=description, knowledgePoints=points))
    return VideoOutline(theme=topic, knowledgeUnits=units)


def _sentence(text: str, zh: bool) -> str:
    """A title or a point said aloud as a sentence: its own ？ or ! ends it, else a full stop does."""
    return text if text.endswith(("。", "？", "！", ".", "?", "!")) else text + ("。" if zh else ".")


def _narration(seed_sentences: list[str], budget: int, zh: bool, fillers: tuple[str, ...]) -> str:
    """Sentences from the slide's content, extended with connective lines while a line brings it nearer the
    time budget: stopping only once past it made every page, and so the deck, run long."""
    language = "zh" if zh else "en"
    text = "".join(seed_sentences) if zh else " ".join(seed_sentences)
    index = 0
    while True:
        longer = text + fillers[index % len(fillers)] if zh else f"{text} {fillers[index % len(fillers)]}"
        if abs(narration_length(longer, language) - budget) >= abs(narration_length(text, language) - budget):
            return text
        text, index = longer, index + 1


# Each outline point is shown from one angle; pages cycle through angles so a point met twice is
# shown differently, and lesson-level views (time plan, lesson flow) appear once.
ANGLES = ("concept", "process", "contrast", "table", "statement", "plan_chart", "example", "flow_timeline")
REPEAT_ANGLES = ("concept", "process", "contrast", "table", "statement", "example")


def _split_minutes(duration: int, parts: int) -> list[int]:
    """The lesson's minutes shared among its parts in whole minutes that add up to the duration (15 over 4
    → 4, 4, 4, 3), never more than was asked."""
    base, extra = divmod(duration, max(1, parts))
    return [base + (1 if i < extra else 0) for i in range(parts)]


def _point_name(point: str) -> str:
    """"关键过程要点1：光合作用中的关键步骤" → the part after the colon."""
    for mark in ("：", ": "):
        if mark in point:
            return point.split(mark, 1)[1].strip()
    return point


def _angle_page(angle: str, topic: str, unit: KnowledgeUnit, point: str, outline: VideoOutline, duration: int,
                zh: bool, words: dict) -> tuple[str, list[str], list[str]]:
    """(title, contentDesign, visualSuggestions) of one point seen from one angle, in the deck's wording;
    shaped so design.py reads it."""
    name = _point_name(point)
    points = [_point_name(p) for p in unit.knowledgePoints]
    units = outline.knowledgeUnits
    unit_in = unit.title if zh else mid_sentence(unit.title)
    if angle == "concept":
        return ((f"{topic}的{name}" if zh else f"{topic}: {name}"),
                [line.format(name=name, description=unit.description, topic=topic, unit=unit.title) for line in words["concept"]],
                ["示意图：" + name if zh else "Diagram: " + name])
    if angle == "process":
        return (words["process_title"].format(name=name),
                [f"第{'一二三四'[i]}步：{stage}" if zh else f"Step {i + 1}: {stage}" for i, stage in enumerate(words["stages"])],
                ["流程图" if zh else "Flow chart"])
    if angle == "contrast":
        return (words["contrast_title"].format(name=name),
                [line.format(name=name, topic=topic, unit=unit_in) for line in words["contrast"]],
                ["左右对比" if zh else "Side-by-side contrast"])
    if angle == "table":
        activities = words["activities"]
        return (words["table"].format(unit=unit.title),
                [words["table_head"]] + [(f"{p}：它是什么、为什么｜{activities[(i + len(p)) % len(activities)]}" if zh else
                  f"{p}: what and why | {activities[(i + len(p)) % len(activities)]}") for i, p in enumerate(points)],
                ["对比表格" if zh else "Comparison table"])
    if angle == "statement":
        return ((f"一句话说清{unit.title}" if zh else f"In one line: {unit_in}"),
                [words["statement"].format(name=name, unit=unit_in)],
                ["大字强调" if zh else "Big statement"])
    if angle == "plan_chart":
        return (words["time_plan"],
                [f"{u.title}：{m}分钟" if zh else f"{u.title}: {m} min" for u, m in zip(units, _split_minutes(duration, len(units)))],
                ["柱状图" if zh else "Column chart"])
    if angle == "flow_timeline":
        ends = list(accumulate(_split_minutes(duration, len(units))))
        return (words["flow"],
                [(f"{end - m}-{end}分钟：{u.title}" if zh else f"{end - m}-{end} min: {u.title}")
                 for u, m, end in zip(units, _split_minutes(duration, len(units)), ends)],
                ["时间轴" if zh else "Timeline"])
    # example
    return (words["example"].format(name=name),
            [item.format(name=name, unit=unit_in) for item in words["example_items"]],
            [words["example_visual"]])


@offline_composer(SlideScripts)
def slide_scripts(request: OfflineRequest) -> SlideScripts:
    topic, zh = request.fact("topic"), _zh(request)
    total = request.fact("slideCount")
    budget = request.fact("narrationBudget")
    duration = request.fact("duration") or max(1, total - 2)
    outline = VideoOutline.model_validate(request.fact("outline"))
    points = [(unit, point) for unit in outline.knowledgeUnits for point in unit.knowledgePoints]
    units = [unit.title for unit in outline.knowledgeUnits]
    closing = 2 if total >= 6 else 1
    agenda = total >= 5
    words = _wording(request)
    # The deck's narration is budgeted as a whole: what one page runs over or under, the pages after it make up.
    remaining = budget * total
    scripts = []
    shown: set[str] = set()  # titles as set on the pages so far
    content_index = 0
    for index in range(1, total + 1):
        if index == 1:
            title = topic if zh else capitalised(topic)
            content = [words["parts"].format(n=len(units))]
            visuals = ["封面主视觉：与主题相关的插画" if zh else "Cover illustration of the topic"]
            seed = [words["hello"].format(topic=topic), words["has_parts"].format(n=len(units))]
        elif index == 2 and agenda:
            title = words["agenda"]
            content = units[:8]
            visuals = []
            seed = [f"我们按这{len(units)}个部分展开。"] if zh else [f"We will go through these {len(units)} parts."]
        elif index == total and closing == 2:
            title = words["questions"]
            content = [ask.format(unit=units[0] if zh else mid_sentence(units[0]), topic=topic) for ask in words["asks"]]
            visuals = []
            seed = ["最后留几个问题给大家思考。"] if zh else ["To finish, a few questions to think about."]
        elif index == total - closing + 1:
            title = "总结与回顾" if zh else "Summary"
            content = units[:6]
            visuals = ["要点回顾清单" if zh else "Checklist of key points"]
            seed = [f"我们回顾一下{topic}的要点。"] if zh else ["Let us go over the key points once more."]
        else:
            unit, point = points[content_index % len(points)]
            rounds = content_index // len(ANGLES)
            angles = ANGLES if rounds == 0 else REPEAT_ANGLES
            first = (content_index + rounds) % len(angles)
            content_index += 1
            # A long deck meets each point more than once: the first angle that gives a page it does not have yet.
            pages = [_angle_page(angles[(first + k) % len(angles)], topic, unit, point, outline, duration, zh, words)
                     for k in range(len(angles))]
            title, content, visuals = next((p for p in pages if capitalised(p[0]) not in shown), pages[0])
            seed = None  # a content page is narrated from its own title and points (set below, once capitalised)
        if not zh:  # sentence case: titles built from a lower-case topic start with a capital
            title = capitalised(title)
            content = [capitalised(item) for item in content]
        if seed is None:
            seed = [_sentence(text, zh) for text in [title, *content[:2]]]
        shown.add(title)
        narration = _narration(seed, round(remaining / (total - index + 1)), zh, words["fillers"])
        remaining -= narration_length(narration, "zh" if zh else "en")
        scripts.append(
            SlideScript(
                slideIndex=index,
                title=title,
                contentDesign=content,
                visualSuggestions=visuals,
                narrationScript=narration,
            )
        )
    return SlideScripts(scripts=scripts)


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
                   [f"{title}: the key points", tie_en, f"An example of {subject}"]), ["示意图：" + subject if zh else "Diagram: " + subject]


@offline_composer(SlideScript)
def added_slide_script(request: OfflineRequest) -> SlideScript:
    """A page added to a finished deck: about the subject asked for, else the first angle on an outline point
    whose page the deck does not have yet (so it never repeats a page)."""
    topic, zh, nth = request.fact("topic"), _zh(request), request.fact("nth", 0)
    words = _wording(request)
    outline = VideoOutline.model_validate(request.fact("outline"))
    subject = request.fact("subject")
    if subject:
        title, content, visuals = _subject_page(subject, nth, topic, outline, zh, words)
    else:
        taken = set(request.fact("titles") or [])
        candidates = [_angle_page(angle, topic, unit, point, outline, 10, zh, words) for angle in REPEAT_ANGLES[::-1]
                      for unit in outline.knowledgeUnits for point in unit.knowledgePoints]
        fresh = [c for c in candidates if capitalised(c[0]) not in taken and c[0] not in taken]
        title, content, visuals = (fresh or candidates)[nth % len(fresh or candidates)]
        if not zh:
            title, content = capitalised(title), [capitalised(item) for item in content]
    seed = [f"{title}。", *(f"{c}。" for c in content[:2])] if zh else [f"{title}.", *(f"{c}." for c in content[:2])]
    return SlideScript(slideIndex=request.fact("index"), title=title, contentDesign=content, visualSuggestions=visuals,
                       narrationScript=_narration(seed, request.fact("narrationBudget"), zh, words["fillers"]))


@offline_composer(PresentationTheme)
def presentation_theme(request: OfflineRequest) -> PresentationTheme:
    topic, feedback = request.fact("topic"), request.fact("feedback") or ""
    colour = colour_named(feedback)
    if colour is not None:  # the colour the user asked for, not one picked for the topic
        name, colors = t("ppt.colour_theme", colour=t(f"ppt.colour_{colour.name}")), palette_for(colour)
    else:
        others = [palette for palette in PALETTES if palette[0] != request.fact("currentTheme")]
        name, colors = stable_choice(others, topic, feedback)
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


_CONNECTIVES = re.compile(r"^(?:的|与|和|及|之)+|(?:的|与|和|及|之)+$|^(?:(?:of|for|in|on|to|the|a|an|and)\b\s*)+"
                          r"|(?:\s*\b(?:of|for|in|on|to|the|a|an|and))+$", re.IGNORECASE)


def _shared_cut(items: list[str]) -> list[str]:
    """Items without the wording they all share ("光合作用的基本概念", "光合作用的核心原理" → "基本概念", "核心原理";
    "The core ideas of X", "What comes next for X" → "The core ideas", "What comes next"); unchanged when
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
