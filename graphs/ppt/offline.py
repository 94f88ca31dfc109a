"""Offline composers for the PPT stages: deterministic content built from the request's facts.

They read only what the graph passes as `facts` (topic, keywords, duration, outline, feedback…),
so two different topics give two different decks and the same topic always gives the same one.
"""

from __future__ import annotations

from core.llm.offline import OfflineRequest, offline_composer, stable_choice, stable_int
from graphs.ppt.planning import (
    FeedbackIntent,
    keywords_of,
    narration_length,
)
from schemas.ppt import (
    ColorScheme,
    CourseConfig,
    FontConfig,
    KnowledgeUnit,
    MasterSlide,
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
ASPECTS_EN = ("Core ideas", "How it works", "Key processes", "Applications", "Common pitfalls", "What comes next")
SIMPLIFY = ("精简", "太复杂", "缩减", "简化", "simplify", "too complex", "shorter", "fewer")


def _zh(request: OfflineRequest) -> bool:
    return request.fact("language", "zh") == "zh"


def _wants_simpler(request: OfflineRequest) -> bool:
    feedback = (request.fact("feedback") or "").lower()
    return any(word in feedback for word in SIMPLIFY)


@offline_composer(TopicAnalysis)
def analyze(request: OfflineRequest) -> TopicAnalysis:
    topic = request.fact("topic")
    return TopicAnalysis(
        topic=topic,
        language=request.fact("language"),
        keywords=keywords_of(topic),
        audienceHint=request.fact("audienceHint"),
        durationMinutesHint=request.fact("durationHint"),
    )


@offline_composer(CourseConfig)
def course_config(request: OfflineRequest) -> CourseConfig:
    topic, zh = request.fact("topic"), _zh(request)
    keywords = request.fact("keywords") or [topic]
    audience = request.fact("audienceHint") or ("对该主题感兴趣的初学者" if zh else "Curious beginners")
    duration = request.fact("durationMinutesHint") or 10
    style = stable_choice(STYLES_ZH if zh else STYLES_EN, topic, "style")
    aspects = ASPECTS_ZH if zh else ASPECTS_EN
    objectives = [
        (f"理解{topic}的{aspect}" if zh else f"Understand {aspect.lower()} of {topic}")
        for aspect in aspects[:3]
    ]
    if len(keywords) > 1:
        objectives.append(f"能够区分{keywords[0]}与{keywords[1]}" if zh else f"Tell {keywords[0]} from {keywords[1]}")
    return CourseConfig(narrativeStyle=style, targetAudience=audience, duration=duration, objectives=objectives)


@offline_composer(VideoOutline)
def video_outline(request: OfflineRequest) -> VideoOutline:
    topic, zh = request.fact("topic"), _zh(request)
    duration = request.fact("duration", 10)
    unit_count = max(2, min(6, round(duration / 4)))
    points_per_unit = 3
    if _wants_simpler(request):
        unit_count, points_per_unit = max(2, unit_count - 1), 2
    aspects = ASPECTS_ZH if zh else ASPECTS_EN
    offset = stable_int(topic, "outline") % len(aspects)
    units = []
    for u in range(unit_count):
        aspect = aspects[(offset + u) % len(aspects)]
        title = f"{topic}的{aspect}" if zh else f"{aspect} of {topic}"
        points = [
            (f"{aspect}要点{p + 1}：{topic}中的关键{('概念', '步骤', '例子')[p % 3]}" if zh
             else f"{aspect} point {p + 1}: a key {('idea', 'step', 'example')[p % 3]} in {topic}")
            for p in range(points_per_unit)
        ]
        description = f"从{aspect}的角度讲解{topic}" if zh else f"Explains {topic} from the angle of {aspect.lower()}"
        units.append(KnowledgeUnit(title=title, description=description, knowledgePoints=points))
    return VideoOutline(theme=topic, knowledgeUnits=units)


def _narration(seed_sentences: list[str], budget: int, zh: bool) -> str:
    """Sentences from the slide's content, extended with connective lines until the time budget is met."""
    fillers_zh = ("我们先来看这一点。", "请大家结合生活中的例子想一想。", "这一点在后面还会用到。", "理解了这里，后面的内容就容易了。")
    fillers_en = ("Let us look at this closely.", "Think of an everyday example.", "We will use this again later.", "With this in place the rest follows.")
    text = "".join(seed_sentences) if zh else " ".join(seed_sentences)
    index = 0
    while narration_length(text, "zh" if zh else "en") < budget:
        filler = (fillers_zh if zh else fillers_en)[index % 4]
        text = text + filler if zh else f"{text} {filler}"
        index += 1
    return text


@offline_composer(SlideScripts)
def slide_scripts(request: OfflineRequest) -> SlideScripts:
    topic, zh = request.fact("topic"), _zh(request)
    total = request.fact("slideCount")
    budget = request.fact("narrationBudget")
    outline = VideoOutline.model_validate(request.fact("outline"))
    points = [(unit, point) for unit in outline.knowledgeUnits for point in unit.knowledgePoints]
    scripts = []
    for index in range(1, total + 1):
        if index == 1:
            title = topic
            content = [unit.title for unit in outline.knowledgeUnits][:5]
            visuals = ["封面主视觉：与主题相关的插画" if zh else "Cover illustration of the topic"]
            seed = [f"大家好，今天我们一起学习{topic}。", f"本节课分为{len(outline.knowledgeUnits)}个部分。"] if zh else [
                f"Hello, today we learn about {topic}.", f"The lesson has {len(outline.knowledgeUnits)} parts."]
        elif index == total:
            title = "总结与回顾" if zh else "Summary"
            content = [unit.title for unit in outline.knowledgeUnits][:5]
            visuals = ["要点回顾清单" if zh else "Checklist of key points"]
            seed = [f"最后我们回顾一下{topic}的要点。"] if zh else [f"Let us review the key points of {topic}."]
        else:
            unit, point = points[(index - 2) % len(points)]
            title = unit.title
            content = [point, unit.description]
            visuals = [("示意图：" if zh else "Diagram: ") + point[:24], ("对比表格" if zh else "Comparison table")]
            seed = [f"{unit.title}。", f"{point}。"] if zh else [f"{unit.title}.", f"{point}."]
        scripts.append(
            SlideScript(
                slideIndex=index,
                title=title,
                contentDesign=content,
                visualSuggestions=visuals,
                narrationScript=_narration(seed, budget, zh),
            )
        )
    return SlideScripts(scripts=scripts)


@offline_composer(PresentationTheme)
def presentation_theme(request: OfflineRequest) -> PresentationTheme:
    topic, zh = request.fact("topic"), _zh(request)
    name, colors = stable_choice(PALETTES, topic, request.fact("feedback") or "")
    return PresentationTheme(
        themeName=name,
        colorScheme=colors,
        fontConfig=FontConfig(
            titleFont="Arial",
            bodyFont="Arial",
            eastAsianFont="Microsoft YaHei" if zh else "Arial",
            titleSize=36,
            bodySize=20,
        ),
        masterSlides=[
            MasterSlide(name="Title", layout="title", description="Cover page"),
            MasterSlide(name="Section", layout="section", description="Opens a knowledge unit"),
            MasterSlide(name="Content", layout="bullets", description="Title with points"),
            MasterSlide(name="Content + visuals", layout="two_column", description="Points beside visual suggestions"),
            MasterSlide(name="Closing", layout="closing", description="Summary page"),
        ],
    )


@offline_composer(SlideSpec)
def slide_spec(request: OfflineRequest) -> SlideSpec:
    script = SlideScript.model_validate(request.fact("script"))
    total = request.fact("total")
    feedback = (request.fact("feedback") or "").lower()
    more_visuals = any(word in feedback for word in ("配图", "图片", "视觉", "visual", "image", "picture"))
    visuals = list(script.visualSuggestions)
    if more_visuals:
        visuals.append("配图：" + script.title if _zh(request) else f"Picture: {script.title}")
    if script.slideIndex == 1:
        layout = "title"
    elif script.slideIndex == total:
        layout = "closing"
    else:
        layout = "two_column" if visuals else "bullets"
    return SlideSpec(
        index=script.slideIndex,
        layout=layout,
        title=script.title,
        subtitle=request.fact("subtitle") if script.slideIndex == 1 else None,
        bullets=script.contentDesign,
        visuals=visuals,
        notes=script.narrationScript,
    )


@offline_composer(FeedbackIntent)
def feedback_intent(request: OfflineRequest) -> FeedbackIntent:
    # Reached only when no rule matched: an unrelated message is read as a new topic (spec: INITIAL).
    return FeedbackIntent(intent="INITIAL", reason="no refinement keyword")
