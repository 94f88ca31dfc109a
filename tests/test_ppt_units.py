"""PPT rules that need no server: slide budget, feedback routing, text fitting, rendering, web search, offline model."""

from __future__ import annotations

import io
import re

import pytest
from aiohttp import web
from pptx import Presentation
from pydantic import ValidationError

from core.i18n import t
from core.llm.offline import OfflineLLM
from app.store import Store
from core.tools.web_search import SearchError, SearxngSearch
from graphs.ppt import classify_feedback
from graphs.ppt.planning import (
    core_topic,
    duration_hint,
    narration_budget,
    narration_length,
    slide_count_for,
)
from graphs.ppt.render import render_pptx
from tests.support.ppt_graph import finished_deck
from schemas.ppt import ColorScheme, SlideDeck, SlideScripts


def test_slide_count_follows_course_duration():
    assert slide_count_for(5) < slide_count_for(10) < slide_count_for(20)
    assert slide_count_for(1) >= 4 and slide_count_for(500) <= 40


def test_narration_fills_the_duration_at_speaking_pace():
    slides = slide_count_for(10)
    assert narration_budget(10, slides, "zh") * slides == pytest.approx(2000, rel=0.05)
    assert narration_budget(10, slides, "en") * slides == pytest.approx(1500, rel=0.05)


@pytest.mark.parametrize(
    ("request_text", "topic", "minutes"),
    [
        ("做一个关于光合作用的10分钟PPT", "光合作用", 10),
        ("请帮我制作一份面向高中生的牛顿第二定律课件", "牛顿第二定律", None),
        ("给高中生讲解光合作用，20 分钟", "光合作用", 20),
        ("给初中生介绍一下牛顿第一定律", "牛顿第一定律", None),
        ("Make a 15 minute deck about black holes for high school students", "black holes", 15),
        # whom it is for as a clause of its own, after the length: neither is in the title
        ("讲城市垃圾分类的8分钟课件，给小学五年级", "城市垃圾分类", 8),
        ("光合作用10分钟PPT，给初二学生", "光合作用", 10),
        ("A lesson on fractions for 8 year olds", "fractions", None),  # an age written in words is listeners too
    ],
)
def test_request_parsing_finds_topic_and_duration(request_text, topic, minutes):
    assert core_topic(request_text) == topic
    assert duration_hint(request_text) == minutes


@pytest.mark.parametrize(
    ("feedback", "stage"),
    [
        ("增加配图", "generate_slides"),
        ("视觉优化一下", "generate_slides"),
        ("大纲太复杂，精简一下", "generate_video_outline"),
        ("内容缩减一些", "generate_video_outline"),
        ("换一个配色方案", "generate_presentation_theme"),
        ("口播稿写得更口语化", "generate_slide_scripts"),
    ],
)
async def test_feedback_is_routed_to_the_stage_it_targets(feedback, stage):
    intent = await classify_feedback(feedback, "光合作用", OfflineLLM())
    assert intent.intent == "REFINEMENT" and intent.targetStage == stage


async def test_a_new_topic_request_is_initial():
    intent = await classify_feedback("做一个关于二次函数的PPT", "光合作用", OfflineLLM())
    assert intent.intent == "INITIAL"


def test_colour_scheme_refuses_non_hex_colours():
    with pytest.raises(ValidationError):
        ColorScheme(primary="blue", secondary="#000000", accent="#000000", background="#FFFFFF", text="#000000")


def test_slide_scripts_must_be_numbered_in_order():
    script = {"title": "t", "contentDesign": ["a"], "narrationScript": "n"}
    with pytest.raises(ValidationError):
        SlideScripts(scripts=[{**script, "slideIndex": 2}, {**script, "slideIndex": 1}])


async def _deck_for(topic: str) -> SlideDeck:
    return SlideDeck.model_validate((await finished_deck(topic))["deck"])


async def test_graph_runs_headless_and_narration_matches_the_duration():
    deck = await _deck_for("做一个关于植物蒸腾作用的10分钟PPT")
    assert len(deck.slides) == slide_count_for(10)
    spoken = sum(narration_length(s.notes, "zh") for s in deck.slides)
    assert 0.9 * 2000 <= spoken <= 1.3 * 2000


async def test_rendered_pptx_uses_the_theme_colours_and_fonts():
    deck = await _deck_for("做一个关于化学键的5分钟PPT")
    prs = Presentation(io.BytesIO(render_pptx(deck)))
    theme_xml = prs.slide_master.part.part_related_by(
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme"
    ).blob.decode()
    assert deck.theme.colorScheme.primary.lstrip("#") in theme_xml
    assert f'typeface="{deck.theme.fontConfig.eastAsianFont}"' in theme_xml
    for slide, spec in zip(prs.slides, deck.slides):
        assert slide.shapes.title.text_frame.text == spec.title, "every page shows its title"
        for shape in slide.placeholders:
            assert shape.height > 0 and shape.top >= 0
            assert 0 <= shape.left and shape.left + shape.width <= prs.slide_width, "placeholders stay on the 16:9 slide"
        for shape in slide.shapes:
            if shape.has_text_frame:
                for paragraph in shape.text_frame.paragraphs:
                    for run in paragraph.runs:
                        assert run._r.rPr.find("{http://schemas.openxmlformats.org/drawingml/2006/main}ea") is not None
                        assert shape.left + shape.width <= prs.slide_width


async def test_store_keeps_one_version_per_producing_task(tmp_path):
    store = await Store(tmp_path / "s.sqlite", tmp_path / "files").open()
    try:
        await store.create_thread("t", "ppt", "title", {})
        artifact = {"id": "a1", "type": "dsl", "title": "x", "content": {"n": 1}}
        first = await store.save_artifact("t", artifact, origin="task-1/dsl")
        again = await store.save_artifact("t", {**artifact, "content": {"n": 2}}, origin="task-1/dsl")
        later = await store.save_artifact("t", artifact, origin="task-2/dsl")
        assert (first["version"], again["version"], later["version"]) == (1, 1, 2)
        assert (await store.get_artifact("a1", 1))["content"] == {"n": 2}
        assert (await store.get_artifact("a1"))["versions"] == [1, 2]
    finally:
        await store.close()


# ------------------------------------------------------------------ web search


@pytest.fixture
async def searxng(aiohttp_unused_port=None):
    """A local stand-in for a SearXNG instance speaking its JSON API."""
    received: list[str] = []

    async def search(request: web.Request) -> web.Response:
        received.append(request.query["q"])
        if request.query["q"] == "boom":
            return web.Response(status=502)
        return web.json_response({"results": [
            {"title": f"{request.query['q']} — encyclopedia", "url": "https://example.org/a", "content": "first"},
            {"title": "no url, dropped"},
            {"title": "Second", "url": "https://example.org/b", "content": "second"},
        ]})

    app = web.Application()
    app.router.add_get("/search", search)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", received
    await runner.cleanup()


async def test_search_returns_the_engines_results_only(searxng):
    url, received = searxng
    results = await SearxngSearch(url).search("光合作用")
    assert received == ["光合作用"]
    assert [r.url for r in results.results] == ["https://example.org/a", "https://example.org/b"]
    with pytest.raises(SearchError):
        await SearxngSearch(url).search("boom")


async def test_analyze_topic_pushes_real_search_results_when_search_is_configured(searxng, start_server, connect):
    url, received = searxng
    server = await start_server(search_url=url)
    client = await connect(server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于光合作用的5分钟PPT"})
    await client.wait_for("completion", lambda d: d["threadId"] == ack["threadId"], timeout=60)
    found = [d["artifact"] for _, d in client.of(ack["threadId"], "tool:artifact") if d["artifact"]["type"] == "search_results"]
    assert received == ["光合作用"]
    assert len(found) == 1 and [r["url"] for r in found[0]["content"]["results"]] == ["https://example.org/a", "https://example.org/b"]


async def test_without_search_the_run_says_so_and_invents_nothing(live_server, connect):
    client = await connect(live_server.url)
    ack = await client.call("chat:message", {"flow": "ppt", "text": "做一个关于光合作用的5分钟PPT"})
    await client.wait_for("completion", lambda d: d["threadId"] == ack["threadId"], timeout=60)
    types = [d["artifact"]["type"] for _, d in client.of(ack["threadId"], "tool:artifact")]
    assert "search_results" not in types
    logs = [d["message"] for _, d in client.of(ack["threadId"], "tool:log")]
    assert t("ppt.search_off") in logs


def test_an_english_offline_outline_names_its_units_in_english_word_order():
    from core.llm.offline import OfflineRequest
    from graphs.ppt.offline import ASPECTS_EN, video_outline

    outline = video_outline(OfflineRequest(role="ppt", system="", prompt="", facts={
        "topic": "magnets", "language": "en", "duration": 24}))
    titles = [unit.title for unit in outline.knowledgeUnits]
    assert len(titles) == len(ASPECTS_EN)
    assert not [title for title in titles if title.split()[0] in ("How", "What") and title.endswith(" of magnets")], titles
    assert "The workings of magnets" in titles and "Practice with magnets" in titles, titles


# ------------------------------------------------------------ layouts from an English script's shape


def _designed(title: str, items: list[str]):
    from graphs.ppt.design import design_slide
    from schemas.ppt import SlideScript

    script = SlideScript(slideIndex=4, title=title, contentDesign=items, narrationScript="Narration.")
    return design_slide(script, 10, None)


def test_an_english_aspect_by_aspect_script_with_long_aspect_names_becomes_a_table():
    page = _designed("Screen time and sleep: what we compare", [
        "How long children look at screens before bed: weekdays | weekends",
        "How long it takes them to fall asleep afterwards: longer | shorter",
        "What parents can change in the evening routine: devices out | lights low",
    ])
    assert page.layout == "comparison" and len(page.table.rows) == 3, page


def test_english_figures_with_long_labels_become_a_chart():
    page = _designed("How the evening is spent", [
        "Homework and reading at the kitchen table: 40 min",
        "Watching videos on a tablet in the bedroom: 55 min",
        "Talking with the family over dinner and after: 25 min",
    ])
    assert page.layout == "chart" and page.chart.series[0].values == [40, 55, 25], page



def test_a_number_inside_a_name_is_not_shown_as_the_pages_big_figure():
    page = _designed("In one line: the themes", ["The writer's feelings: the key to the themes of Hamlet Act 3"])
    assert page.stat.value != "3", page
    assert _designed("Sunlight", ["Only 1% of sunlight becomes sugar"]).stat.value == "1%"


@pytest.mark.parametrize(("topic", "language"), [("光合作用", "zh"), ("information security", "en")])
def test_a_long_offline_deck_repeats_no_page_and_no_table(topic, language):
    from core.llm.offline import OfflineRequest
    from graphs.ppt.design import design_slide
    from graphs.ppt.offline import slide_scripts, video_outline

    def ask(**facts):
        return OfflineRequest(role="ppt", system="", prompt="", facts={"topic": topic, "language": language, **facts})

    outline = video_outline(ask(duration=30))
    scripts = slide_scripts(ask(duration=30, slideCount=32, narrationBudget=20, outline=outline.model_dump())).scripts
    pages = [design_slide(script, 32, None) for script in scripts]
    tables = [tuple(map(tuple, page.table.rows)) for page in pages if page.table]
    assert len(tables) >= 3 and len(set(tables)) == len(tables), tables
    assert len({page.title for page in pages}) == len(pages), [page.title for page in pages]


def _offline_scripts(topic: str, language: str, minutes: int, slides: int, **given):
    from core.llm.offline import OfflineRequest
    from graphs.ppt.offline import slide_scripts, video_outline
    from graphs.ppt.planning import narration_budget

    def ask(**facts):
        return OfflineRequest(role="ppt", system="", prompt="", facts={"topic": topic, "language": language, **given, **facts})

    outline = video_outline(ask(duration=minutes))
    return slide_scripts(ask(duration=minutes, slideCount=slides, outline=outline.model_dump(),
                             narrationBudget=narration_budget(minutes, slides, language))).scripts


@pytest.mark.parametrize("topic", ["quarterly churn analysis", "the water cycle"])
def test_english_offline_page_titles_are_short_and_name_the_topic_at_most_once(topic):
    titles = [script.title for script in _offline_scripts(topic, "en", 30, 32)]
    long = [title for title in titles if len(title) > len(topic) + 35 or title.lower().count(topic) > 1]
    assert not long, long


@pytest.mark.parametrize(("topic", "language", "minutes"), [("城市垃圾分类", "zh", 10), ("cloud cost control", "en", 10),
                                                            ("城市垃圾分类", "zh", 25), ("cloud cost control", "en", 25)])
def test_an_offline_deck_s_narration_lasts_the_minutes_asked_for(topic, language, minutes):
    from graphs.ppt.planning import narration_length, slide_count_for

    scripts = _offline_scripts(topic, language, minutes, slide_count_for(minutes))
    spoken = sum(narration_length(s.narrationScript, language) for s in scripts) / (200 if language == "zh" else 150)
    assert minutes * 0.98 <= spoken <= minutes * 1.02, spoken


@pytest.mark.parametrize(("topic", "language", "feedback"), [("城市垃圾分类", "zh", "第2页太啰嗦了"),
                                                             ("cloud cost control", "en", "make slide 2 shorter")])
def test_an_agenda_made_shorter_keeps_every_part_in_fewer_words(topic, language, feedback):
    from core.llm.offline import OfflineRequest
    from graphs.ppt.design import design_slide
    from graphs.ppt.offline import slide_spec

    agenda = design_slide(_offline_scripts(topic, language, 20, 22)[1], 22, None)
    assert agenda.layout == "agenda" and len(agenda.bullets) >= 4
    shorter = slide_spec(OfflineRequest(role="ppt", system="", prompt="", facts={
        "current": agenda.model_dump(), "feedback": feedback, "language": language, "total": 22}))
    assert len(shorter.bullets) == len(agenda.bullets), shorter.bullets
    assert all(len(new) < len(old) for new, old in zip(shorter.bullets, agenda.bullets)), shorter.bullets


@pytest.mark.parametrize("title", ["历史回顾", "A recap of the 1990s", "行业发展回顾"])
def test_a_content_page_reviewing_a_subject_is_not_drawn_as_the_summary(title):
    page = _designed(title, ["1949年：新中国成立", "改革开放以来的变化", "今天的新问题"])
    assert page.layout != "summary", page.layout


@pytest.mark.parametrize("title", ["Overview of the immune system", "Contents of a first-aid kit", "免疫系统概览的目录结构"])
def test_a_content_page_whose_title_merely_contains_an_agenda_word_is_not_drawn_as_the_agenda(title):
    page = _designed(title, ["Innate immunity", "Adaptive immunity", "Vaccines"])
    assert page.layout != "agenda", page



@pytest.mark.parametrize(("topic", "language"), [("课堂提问技巧", "zh"), ("Unanswered questions in cosmology", "en")])
def test_a_subject_about_questions_gets_content_pages_not_a_q_and_a_on_each(topic, language):
    # The subject's own word for questions ("提问", "questions") makes no content page the deck's question time.
    from graphs.ppt.design import design_slide

    pages = [design_slide(script, 12, None) for script in _offline_scripts(topic, language, 10, 12)]
    assert [page.layout for page in pages].count("qa") == 1, [(page.title, page.layout) for page in pages]
    assert pages[-1].layout == "qa"


@pytest.mark.parametrize(("topic", "language", "minutes"), [("城市垃圾分类", "zh", 10), ("cloud cost control", "en", 10),
                                                            ("the water cycle", "en", 20)])
def test_offline_speaker_notes_read_no_sentence_on_two_pages(topic, language, minutes):
    # A presenter reading the notes hears each page's own points, not the same lines padded onto every page
    # (the deck still lasts its minutes: test_an_offline_deck_s_narration_lasts_the_minutes_asked_for).
    import re
    from collections import Counter

    from graphs.ppt.planning import slide_count_for

    scripts = _offline_scripts(topic, language, minutes, slide_count_for(minutes))
    pages_saying = Counter(sentence for s in scripts
                           for sentence in set(re.findall(r"[^。？！.?!]+[。？！.?!]", s.narrationScript)))
    repeated = [sentence for sentence, pages in pages_saying.items() if pages > 1]
    assert not repeated, repeated


def test_a_page_whose_first_point_was_read_before_still_leads_its_points_from_the_first():
    # a bullet read out on an earlier page is not read again, and the rest are counted from one, not from "第二点"
    from graphs.ppt.planning import slide_count_for

    scripts = _offline_scripts("现在完成时", "zh", 10, slide_count_for(10), setting="language_lesson")
    slips = [s.title for s in scripts if "第二点" in s.narrationScript and "先看第一点" not in s.narrationScript]
    assert not slips, slips


def test_a_chinese_readers_theme_is_named_in_chinese_and_an_english_readers_in_english():
    from core.i18n import set_locale
    from core.llm.offline import OfflineRequest
    from graphs.ppt.offline import presentation_theme

    request = OfflineRequest(role="theme", system="", prompt="", facts={"topic": "光合作用", "language": "zh"})
    set_locale("zh")
    try:
        assert not re.search(r"[A-Za-z]", presentation_theme(request).themeName)  # not 主题「Ocean Classroom」
        set_locale("en")
        assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", presentation_theme(request).themeName)
    finally:
        set_locale("zh")


def test_an_english_lessons_first_point_is_glossed_mid_line_not_by_a_capitalised_verb():
    # "Key terms: Explains the solar system from the angle of core ideas" reads as a slip on the page
    from graphs.ppt.planning import slide_count_for

    scripts = _offline_scripts("the solar system", "en", 10, slide_count_for(10))
    glosses = [item.split(": ", 1)[1] for s in scripts if s.title.endswith("key terms") for item in s.contentDesign]
    assert glosses and all(gloss[0].islower() for gloss in glosses), glosses


@pytest.mark.parametrize(("audience", "said"), [
    ("high school students", "课程：10 分钟，面向 high school students。"),
    ("初二学生", "课程：10 分钟，面向初二学生。"),
])
def test_an_english_audience_in_a_chinese_sentence_is_set_off_by_a_space(audience, said):
    assert t("ppt.course_logged", locale="zh", minutes=10, audience=audience) == said


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_the_closing_sentence_lists_each_qa_issue_as_a_sentence_without_doubled_marks(locale):
    # "…相差超过 10%。；整套幻灯片…": the issues, each a whole sentence, were joined as clauses.
    from core.i18n import set_locale
    from graphs.ppt.qa import qa_summary
    from schemas.ppt import QaIssue, QaReport

    set_locale(locale)
    try:
        issues = [QaIssue(check="density", slide=3, message=t("ppt.qa_density", slide=3, count=9)),
                  QaIssue(check="aspect_ratio", message=t("ppt.qa_aspect_ratio", ratio="1.33"))]
        said = qa_summary(QaReport(passed=False, checks=["density", "aspect_ratio"], issues=issues), "deck.pptx", 12)
    finally:
        set_locale("zh")
    assert not re.search(r"[。.][；;]", said), said
    assert all(issue.message in said for issue in issues), said


def test_pages_whose_titles_match_no_icon_keyword_do_not_all_show_the_same_light_bulb():
    from graphs.ppt.render.icons import icon_for

    titles = ["Opening", "Three things to remember", "What happens next", "Before you go", "A closer look", "开场白"]
    assert len({icon_for(None, title) for title in titles}) >= 3


@pytest.mark.parametrize(("title", "icon"), [
    ("Pool rules", "solid/clipboard-list"), ("欢迎各位来宾", "solid/handshake"), ("Where to get help", "solid/headset"),
    ("参观路线", "solid/route"), ("A toast to the couple", "solid/hand-holding-heart"), ("Quarterly sales", "solid/chart-line"),
])
def test_an_occasions_page_gets_an_icon_that_fits_its_title(title, icon):
    from graphs.ppt.render.icons import icon_for

    assert icon_for(None, title) == icon
