"""Decks a teacher would present: stress content through the QA gate, the offline deck's variety,
real LibreOffice renders (text inside its boxes), and the pieces the gate relies on."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pptx import Presentation
from pptx.enum.text import MSO_ANCHOR
from pptx.oxml.ns import qn
from pptx.util import Emu

from core.i18n import t
from tests.support.ppt_graph import finished_deck
from graphs.ppt.qa import gate
from graphs.ppt.render.metrics import Fonts, line_height_pt, text_width_pt, wrap
from graphs.ppt.render.prepare import halve_text, visible_items
from graphs.ppt.render.text import plain
from graphs.ppt.render.theme import contrast
from schemas.ppt import (
    ChartSeries, ChartSpec, ColorScheme, Column, FontConfig, MasterSlide, PresentationTheme, Quote, SlideDeck,
    SlideSpec, Stat, Step, Table,
)

NARRATION = "We look at this idea and connect it to what we already know. "


def theme(**colors) -> PresentationTheme:
    scheme = {"primary": "#1F4E79", "secondary": "#2E75B6", "accent": "#F4B183", "background": "#FFFFFF",
              "text": "#1E1E1E", **colors}
    return PresentationTheme(themeName="t", colorScheme=ColorScheme(**scheme), masterSlides=[MasterSlide(name="c", layout="cover")],
                             fontConfig=FontConfig(titleFont="Arial", bodyFont="Arial", eastAsianFont="Arial", titleSize=40, bodySize=24))


def deck_of(*slides: SlideSpec, language: str = "en", **colors) -> SlideDeck:
    numbered = [s.model_copy(update={"index": i}) for i, s in enumerate(slides, start=1)]
    return SlideDeck(title="Stress deck", language=language, theme=theme(**colors), slides=numbered)


def page(layout: str = "bullets", title: str = "A page", notes: str = NARRATION * 3, **fields) -> SlideSpec:
    return SlideSpec(index=1, layout=layout, title=title, notes=notes, **fields)


LONG_TITLE = "Photosynthesis turns light into sugar inside every green leaf"  # 60 characters
BULLET_80 = "Chlorophyll absorbs red and blue light, reflects green, and powers the light reactions"[:80]

STRESS = {
    "long_titles": deck_of(page(title=LONG_TITLE, bullets=["One point", "Two points"]),
                           page(title="光合作用是绿色植物利用光能把二氧化碳和水转化为储存能量的有机物并释放氧气的过程这是一个很长的标题啊",
                                bullets=["叶绿体", "光反应"], notes="我们来看这个过程。" * 12), language="zh"),
    "twelve_long_bullets": deck_of(page(title="Twelve long points", bullets=[f"{i}. {BULLET_80}" for i in range(12)])),
    "long_narration": deck_of(page(title="Long narration", bullets=["Light", "Water", "Carbon dioxide", "Sugar"],
                                   notes=("Light energy is captured by chlorophyll in the thylakoid membranes. " * 30)[:2000])),
    "mixed_scripts": deck_of(page(title="光合作용 Photosynthesis 광합성", bullets=[
        "叶绿体 chloroplast 엽록체 captures light", "빛 에너지를 화학 에너지로 바꿉니다", "二氧化碳 + 水 → 葡萄糖 + 氧气"],
        notes="光合作用 photosynthesis 광합성。" * 6), language="zh"),
    "emoji_and_markdown": deck_of(page(title="## 🌱 **Key** ideas", bullets=[
        "**Light** reactions happen in the `thylakoid`", "- Calvin cycle 😀 builds *sugar*", "Line one\nLine two",
        "[Read more](http://example.org) about it", "示意图：a leaf cross-section"])),
    "empty_fields": deck_of(page(title="Cover", layout="cover", subtitle=""), page(title="", bullets=["", "  "], notes="Only words."),
                            page(title="Nothing but a title", bullets=[]), page(layout="chart", title="Chart with no data"),
                            page(layout="two_column", title="One column", columns=[Column(heading="Only", items=["a", ""])])),
    "white_on_yellow": deck_of(page(layout="cover", title="Sunny"), page(title="Bright", bullets=["Readable?"]),
                               background="#FFFF00", text="#FFFFFF", primary="#FFD700", secondary="#FFFFAA"),
    "navy_on_black": deck_of(page(layout="section", title="Night"), page(title="Dark", bullets=["Readable?"]),
                             background="#111111", text="#1F2A44", primary="#1B2A4A", secondary="#22304A"),
    "typed_layouts": deck_of(
        page(layout="comparison", title="Light vs dark reactions", table=Table(
            header=["Aspect", "Light", "Dark"], rows=[[f"Row {i}", "In the thylakoid membrane", "In the stroma"] for i in range(9)])),
        page(layout="process", title="Steps", steps=[Step(label=f"Step {i}", detail="Something happens here") for i in range(6)]),
        page(layout="chart", title="Where the energy goes", chart=ChartSpec(kind="pie", categories=["Heat", "Sugar", "Reflected"],
                                                                               series=[ChartSeries(name="Share", values=[45, 5, 50])], unit="%")),
        page(layout="timeline", title="Discoveries", steps=[Step(label="1771", detail="Priestley: plants restore air"),
                                                             Step(label="1779", detail="Ingenhousz: light is needed"),
                                                             Step(label="1864", detail="Sachs: leaves make starch")]),
        page(layout="big_number", title="Efficiency", stat=Stat(value="1%", label="of sunlight becomes sugar"),
             bullets=["Most light is reflected or lost as heat"]),
        page(layout="quote", title="In their words", quote=Quote(text="Plants are the lungs of the Earth.", source="a saying"))),
}


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", plain(text)).lower()


def _deck_text(pptx: bytes) -> str:
    prs = Presentation(io.BytesIO(pptx))
    parts = []
    for slide in prs.slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                parts.append(shape.text_frame.text)
            if shape.has_table:
                parts += [cell.text for row in shape.table.rows for cell in row.cells]
            if shape.has_chart:
                parts += [str(c) for c in shape.chart.plots[0].categories]
        parts.append(slide.notes_slide.notes_text_frame.text)
    return _norm(" ".join(parts))


@pytest.mark.parametrize("name", sorted(STRESS))
def test_stress_deck_passes_the_gate_after_repair_with_no_content_lost(name):
    deck = STRESS[name]
    outcome = gate(deck, None)
    assert outcome.report.passed, [i.message for i in outcome.report.issues]
    text = _deck_text(outcome.pptx)
    for spec in deck.slides:
        for item in visible_items(spec):
            halves = [_norm(h) for h in halve_text(plain(item))]
            assert _norm(item) in text or all(h in text for h in halves), f"lost: {item!r}"


@pytest.mark.parametrize(("language", "header", "rows"), [
    ("en", ["Point", "Question", "How we train it"], [["The must-dos", "what it is", "Group drill"],
                                                     ["Roles and responsibilities", "what it links to", "Hands-on try"]]),
    ("zh", ["要点", "要回答的问题", "怎么讲"], [["今天就能迈出的一小步", "在身边是什么样子", "讲个故事"],
                                         ["求助渠道", "您可以做什么", "现场提问"]]),
])
def test_a_table_gives_its_long_names_the_room_so_no_row_wraps_beside_short_cells(language, header, rows):
    # a fixed narrow first column wrapped "Roles and responsibilities" onto two lines while the others had room to spare
    deck = deck_of(page(layout="comparison", title="At a glance", table=Table(header=header, rows=rows)), language=language)
    prs = Presentation(io.BytesIO(gate(deck, None).pptx))
    table = next(shape.table for slide in prs.slides for shape in slide.shapes if shape.has_table)
    heights = [row.height for row in table.rows]
    # body rows open up alike over the page (the header keeps its own height): one height means one line each
    assert len(set(heights[1:])) == 1 and heights[0] <= heights[1], heights


def test_long_titles_and_many_bullets_are_split_not_shrunk_below_the_floor():
    outcome = gate(STRESS["twelve_long_bullets"], None)
    prs = Presentation(io.BytesIO(outcome.pptx))
    assert len(prs.slides) >= 2, "twelve 80-character bullets need a continuation slide"
    sizes = {run.font.size.pt for slide in prs.slides for shape in slide.shapes if shape.has_text_frame
             and not shape.name.startswith("footer") for p in shape.text_frame.paragraphs for run in p.runs}
    assert min(sizes) >= 18
    assert "(cont.)" in prs.slides[1].shapes.title.text_frame.text


def test_low_contrast_themes_are_adjusted_and_the_change_is_reported():
    outcome = gate(STRESS["white_on_yellow"], None)
    assert outcome.report.passed
    assert any("#FFFFFF" in repair for repair in outcome.report.repairs), outcome.report.repairs
    fixed = outcome.deck.theme.colorScheme
    assert contrast(fixed.text, fixed.background) >= 4.5


def test_markup_emoji_and_instructions_never_reach_the_slide():
    outcome = gate(STRESS["emoji_and_markdown"], None)
    prs = Presentation(io.BytesIO(outcome.pptx))
    shown = " ".join(shape.text_frame.text for slide in prs.slides for shape in slide.shapes if shape.has_text_frame)
    assert not re.search(r"\*\*|`|##|\]\(|😀|🌱|示意图", shown), shown
    bold = [run.text for slide in prs.slides for shape in slide.shapes if shape.has_text_frame
            for p in shape.text_frame.paragraphs for run in p.runs if run.font.bold and "Light" in run.text]
    assert bold, "**Light** becomes a bold run"
    notes = " ".join(slide.notes_slide.notes_text_frame.text for slide in prs.slides)
    assert "a leaf cross-section" in notes, "the design suggestion moved to the notes"


def test_chinese_runs_carry_their_language_and_an_east_asian_font_even_in_an_english_theme():
    outcome = gate(STRESS["mixed_scripts"], None)
    prs = Presentation(io.BytesIO(outcome.pptx))
    runs = [run for slide in prs.slides for shape in slide.shapes if shape.has_text_frame
            for p in shape.text_frame.paragraphs for run in p.runs]
    ns = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
    chinese = [r for r in runs if re.search(r"[\u4e00-\u9fff]", r.text)]
    korean = [r for r in runs if re.search(r"[\uac00-\ud7af]", r.text)]
    assert chinese and all(r._r.rPr.get("lang") == "zh-CN" for r in chinese)
    assert korean and all(r._r.rPr.get("lang") == "ko-KR" for r in korean)
    assert all(r._r.rPr.find(f"{ns}ea").get("typeface") == "Microsoft YaHei" for r in runs)


def test_empty_fields_give_no_empty_slides_or_placeholders():
    outcome = gate(STRESS["empty_fields"], None)
    prs = Presentation(io.BytesIO(outcome.pptx))
    for slide in prs.slides:
        assert all(shape.text_frame.text.strip() for shape in slide.placeholders)
        assert any(shape.has_text_frame and shape.text_frame.text.strip() for shape in slide.shapes)
    assert len(prs.slides) == 4, "the untitled, empty page's notes joined the page before it"


def test_a_very_long_chinese_narration_is_split_across_pages_under_three_minutes():
    long_talk = "光能被叶绿素吸收，推动水的分解和氧气的释放。" * 45  # ~900 characters: ~4.5 minutes
    deck = deck_of(page(title="光反应", bullets=["吸收光能", "水的光解", "生成ATP", "释放氧气"], notes=long_talk), language="zh")
    outcome = gate(deck, None)
    assert outcome.report.passed, [i.message for i in outcome.report.issues]
    assert len(outcome.deck.slides) >= 2


def test_the_gate_reports_what_it_cannot_repair():
    deck = deck_of(page(title="Short talk", bullets=["One"], notes="Hi."), page(title="Other", bullets=["Two"]))
    outcome = gate(deck, 10)
    checks = {issue.check for issue in outcome.report.issues}
    assert not outcome.report.passed and {"slide_narration", "duration"} <= checks


def test_measured_wrapping_breaks_chinese_anywhere_and_english_between_words():
    fonts = Fonts("Arial", "Microsoft YaHei")
    english = wrap("The quick brown fox jumps over the lazy dog", 200, 20, fonts)
    assert len(english) >= 2 and all(not line.startswith(" ") for line in english)
    assert " ".join(english) == "The quick brown fox jumps over the lazy dog"
    chinese = wrap("光合作用是植物利用光能制造有机物的过程" * 3, 200, 20, fonts)
    assert "".join(chinese) == "光合作用是植物利用光能制造有机物的过程" * 3 and len(chinese) >= 5


async def _offline_deck(request: str) -> SlideDeck:
    return SlideDeck.model_validate((await finished_deck(request))["deck"])


@pytest.mark.parametrize("request_text", ["做一个关于光合作用的10分钟PPT，面向初中生",
                                          "Make a 10 minute presentation about black holes"])
async def test_offline_twelve_slide_deck_is_varied_visual_and_passes_the_gate(request_text):
    deck = await _offline_deck(request_text)
    assert len(deck.slides) == 12
    assert len({s.layout for s in deck.slides}) >= 6
    content = [s for s in deck.slides if s.layout not in ("cover", "section", "agenda", "summary", "qa")]
    outcome = gate(deck, 10)
    assert outcome.report.passed, [i.message for i in outcome.report.issues]
    prs = Presentation(io.BytesIO(outcome.pptx))
    with_visual = [n for n, slide in enumerate(prs.slides, 1)
                   if slide._element.cSld.get("name") not in ("cover", "section", "agenda", "summary", "qa")
                   and any(shape.name.startswith("visual") for shape in slide.shapes)]
    assert 2 * len(with_visual) >= len(content)
    texts = [re.sub(r"\d+$", "", " ".join(sh.text_frame.text for sh in slide.shapes if sh.has_text_frame)) for slide in prs.slides]
    assert len(set(texts)) == len(texts), "no two slides alike"
    notes = prs.slides[-1].notes_slide.notes_text_frame.text
    assert "Font Awesome" in notes and "CC BY 4.0" in notes


@pytest.mark.parametrize("request_text", ["Volcanoes for 8th graders, 10 minutes", "Joan of Arc for 7th graders, 10 minutes",
                                          "给初一讲明朝，10分钟", "给仓库新员工做叉车安全培训，10分钟"])
async def test_every_step_on_a_process_or_timeline_page_says_what_happens_in_it(request_text):
    deck = await _offline_deck(request_text)
    stepped = [s for s in deck.slides if s.steps and s.layout in ("process", "timeline")]
    assert stepped, [s.layout for s in deck.slides]
    blank = [(s.title, step.label) for s in stepped for step in s.steps if not step.detail.strip()]
    assert not blank, blank


# ------------------------------------------------------------------ real renders (LibreOffice)

needs_office = pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                                  reason="LibreOffice (libreoffice-impress) and poppler-utils are not installed")


def _words_with_boxes(pdf: Path) -> list[list[tuple[str, float, float, float, float]]]:
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page_html in html.split("<page ")[1:]:
        pages.append([(m.group(5), float(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)))
                      for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page_html)])
    return pages


@needs_office
def test_rendered_pdf_keeps_every_word_inside_a_text_box(tmp_path):
    from core.tools.office_preview import pptx_to_pdf

    deck = deck_of(*STRESS["long_titles"].slides, *STRESS["twelve_long_bullets"].slides, *STRESS["mixed_scripts"].slides,
                   *STRESS["typed_layouts"].slides, language="zh")
    outcome = gate(deck, None)
    pdf = tmp_path / "deck.pdf"
    pdf.write_bytes(pptx_to_pdf(outcome.pptx, tmp_path))
    prs = Presentation(io.BytesIO(outcome.pptx))
    pages = _words_with_boxes(pdf)
    assert len(pages) == len(prs.slides)
    tolerance = 3.0
    for number, (slide, words) in enumerate(zip(prs.slides, pages), start=1):
        boxes = [(Emu(s.left).pt, Emu(s.top).pt, Emu(s.left + s.width).pt, Emu(s.top + s.height).pt)
                 for s in slide.shapes if s.has_text_frame or s.has_table or s.has_chart]
        assert words, f"slide {number} rendered no text"
        for word, x0, y0, x1, y1 in words:
            inside = any(bx0 - tolerance <= x0 and x1 <= bx1 + tolerance and by0 - tolerance <= y0 and y1 <= by1 + tolerance
                         for bx0, by0, bx1, by1 in boxes)
            assert inside, f"slide {number}: {word!r} at {(x0, y0, x1, y1)} lies outside every text box"


@needs_office
def test_preview_renders_a_pdf_and_one_thumbnail_per_slide():
    from core.tools.office_preview import render_preview

    outcome = gate(STRESS["typed_layouts"], None)
    preview = render_preview(outcome.pptx)
    assert preview.pdf.startswith(b"%PDF")
    assert len(preview.thumbnails) == len(outcome.deck.slides)
    assert all(image.startswith(b"\xff\xd8") for image in preview.thumbnails)


# ------------------------------------------------------------------ the pipeline: gate node, report, preview


async def _run(client, text: str) -> tuple[str, dict]:
    ack = await client.call("chat:message", {"flow": "ppt", "text": text})
    assert ack["ok"], ack
    completion = await client.wait_for("completion", lambda d: d["threadId"] == ack["threadId"], timeout=120)
    return ack["threadId"], completion


async def test_run_ends_with_a_qa_report_and_says_what_it_found(live_server, connect):
    from core.i18n import t

    client = await connect(live_server.url)
    thread_id, completion = await _run(client, "做一个关于杠杆原理的6分钟PPT")
    artifacts = {d["artifact"]["type"]: d["artifact"] for _, d in client.of(thread_id, "tool:artifact")}
    report = artifacts["qa_report"]["content"]
    assert report["passed"] and len(report["checks"]) == 19
    assert artifacts["pptx"]["content"]["qaPassed"] is True
    final = [d["content"] for _, d in client.of(thread_id, "message") if d.get("final")]
    assert final and "质检" in final[-1]
    logs = [d["message"] for _, d in client.of(thread_id, "tool:log")]
    assert t("ppt.preview_unavailable") in logs, "without the preview tool the run says there is no real preview"
    assert completion["finalArtifactId"] == artifacts["pptx"]["id"]


@needs_office
async def test_with_libreoffice_the_run_offers_a_pdf_and_real_thumbnails_after_the_pptx(start_server, connect):
    server = await start_server(office_preview=True)
    client = await connect(server.url)
    thread_id, completion = await _run(client, "Make a 4 minute presentation about magnets")
    order = [d["artifact"]["type"] for _, d in client.of(thread_id, "tool:artifact")]
    assert order.index("pptx") < order.index("pdf"), "the .pptx is delivered before the slower preview"
    pdf = next(d["artifact"] for _, d in client.of(thread_id, "tool:artifact") if d["artifact"]["type"] == "pdf")
    pptx = next(d["artifact"] for _, d in client.of(thread_id, "tool:artifact") if d["artifact"]["type"] == "pptx")
    assert len(pdf["content"]["thumbnails"]) == pptx["content"]["slideCount"]
    assert all(u.startswith("data:image/jpeg;base64,") for u in pdf["content"]["thumbnails"])
    import aiohttp

    async with aiohttp.ClientSession() as session, session.get(f"{server.url}/artifacts/{pdf['id']}/download") as response:
        assert response.status == 200 and (await response.read()).startswith(b"%PDF")
    assert completion["finalArtifactId"] == pptx["id"]


# ------------------------------------------------------------------ the QA gate on a process pool (RENDER_PROCESSES)


def _slide_parts(pptx: bytes) -> dict[str, bytes]:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(pptx)) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name.startswith("ppt/slides/")
                or name.startswith("ppt/notesSlides/")}


async def test_the_gate_on_a_process_pool_makes_the_same_slides_and_report_as_on_a_thread():
    from graphs.ppt.render_pool import gate_deck

    deck = STRESS["long_narration"]  # its East Asian font is replaced: a change the report carries back
    on_thread = await gate_deck(deck, None, processes=0)
    on_pool = await gate_deck(deck, None, processes=1)
    assert on_pool.report == on_thread.report and on_pool.report.repairs
    assert on_pool.deck == on_thread.deck
    assert _slide_parts(on_pool.pptx) == _slide_parts(on_thread.pptx)


async def test_changes_made_on_the_process_pool_are_told_in_the_run_language():
    from core.i18n import current_locale, set_locale
    from graphs.ppt.render.prepare import CJK_FONT_DEFAULT
    from graphs.ppt.render_pool import gate_deck

    before = current_locale()
    set_locale("en" if before != "en" else "zh")
    try:
        outcome = await gate_deck(STRESS["long_narration"], None, processes=1)
        expected = t("ppt.font_east_asian", old="Arial", new=CJK_FONT_DEFAULT)
    finally:
        set_locale(before)
    assert expected in outcome.report.repairs


async def test_an_english_deck_s_scripts_use_english_punctuation_not_chinese():
    scripts = (await finished_deck("Make a 10 minute presentation about black holes"))["slide_scripts"]["scripts"]
    written = [text for s in scripts for text in [s["title"], *s["contentDesign"], *s["visualSuggestions"]]]
    assert not [text for text in written if re.search(r"[：｜；，。、]", text)], written


@pytest.mark.parametrize(("request_text", "greeting"), [("做一个关于光合作用的10分钟PPT，面向初中生", "大家好"),
                                                        ("Make a 10 minute presentation about black holes", "Hello")])
async def test_each_page_of_an_offline_deck_has_speaker_notes_of_its_own_and_the_cover_greets(request_text, greeting):
    slides = (await _offline_deck(request_text)).slides
    openings = [s.notes[:24] for s in slides]
    assert len(set(openings)) == len(openings), openings
    assert slides[0].notes.startswith(greeting), slides[0].notes[:60]


@pytest.mark.parametrize("request_text", ["给高一讲牛顿第一定律，40页", "给初一学生讲一元一次方程，30分钟",
                                          "Fractions for Year 6, 40 slides"])
async def test_a_long_deck_has_no_two_pages_alike(request_text):
    deck = await _offline_deck(request_text)
    pages = [(s.title, tuple(visible_items(s))) for s in deck.slides]
    repeated = {page for page in pages if pages.count(page) > 1}
    assert not repeated, repeated


@pytest.mark.parametrize(("request_text", "practice"), [("给初一学生讲一元一次方程，30分钟", "：练一练"),
                                                        ("Fractions for Year 6, 30 minutes", ": try one")])
async def test_each_maths_practice_page_says_what_its_problem_practises(request_text, practice):
    deck = await _offline_deck(request_text)
    tries = [tuple(s.bullets) for s in deck.slides if s.title.endswith(practice)]
    assert len(tries) >= 2 and len(set(tries)) == len(tries), tries


@pytest.mark.parametrize(("request_text", "frame"), [("给三年级学生讲讲恐龙，10分钟", "请大家先想一想：说到"),
                                                     ("Volcanoes for Year 5, 10 minutes", "Before we go on, think about")])
async def test_a_point_s_page_does_not_open_its_talk_with_the_same_question_on_every_page(request_text, frame):
    # "请大家先想一想：说到核心术语…", "…说到基本定义…" on every point's page, word for word but the name
    slides = (await _offline_deck(request_text)).slides
    asking = [s.index for s in slides if frame in s.notes]
    assert asking and len(asking) <= (len(slides) - 4) * 2 // 3, asking


@pytest.mark.parametrize("request_text", ["给一年级小朋友讲讲恐龙，10分钟", "Volcanoes for Year 1", "给二年级的孩子们讲蚂蚁怎么搬家"])
async def test_a_class_too_young_to_take_notes_is_not_told_to_get_notebooks_ready(request_text):
    said = " ".join(s.notes for s in (await _offline_deck(request_text)).slides)
    asked = re.findall(r"[^。.]*(?:笔记|草稿纸|记下来|notebook|in your notes|note it down)[^。.]*", said)
    assert not asked, asked


@pytest.mark.parametrize("request_text", ["给2-3岁幼儿讲认识颜色，10分钟", "给3岁宝宝讲四季，10分钟", "Farm animals for toddlers, 10 minutes"])
async def test_children_who_cannot_read_yet_are_not_asked_to_read_or_circle_words(request_text):
    # "读一读：读出课本中基本定义的说法", "圈一圈：圈出其中的关键词" were a toddler's steps
    deck = await _offline_deck(request_text)
    shown = " ".join(text for s in deck.slides for text in visible_items(s))
    asked = re.findall(r"[^ ]*(?:读一读|读出|课本|圈一圈|圈出|同桌|textbook|underline|Read:|Mark:|partner)[^ ]*", shown)
    assert not asked, asked


@pytest.mark.parametrize("request_text", ["给小学二年级讲恐龙的PPT，10分钟", "给初二学生讲讲地震，30分钟", "给三年级讲蜜蜂，30分钟",
                                          "Volcanoes for Year 5, 30 minutes", "Dinosaurs for Year 2, 30 minutes"])
async def test_a_thing_of_nature_has_no_page_on_its_applications(request_text):
    # "恐龙的典型应用：应用场景、应用方法" and "the applications of volcanoes": a dinosaur is not put to use
    deck = await _offline_deck(request_text)
    shown = " ".join(text for s in deck.slides for text in visible_items(s))
    uses = re.findall(r"[^ ]*(?:典型应用|应用场景|应用方法|applications|how it is applied)[^ ]*", shown, re.IGNORECASE)
    assert not uses, uses


@pytest.mark.parametrize("request_text", ["给社区居民讲讲家庭急救常识，15分钟", "Home first aid for our residents' association, 15 minutes"])
async def test_a_public_talk_s_pages_name_their_point_without_the_outline_s_numbering(request_text):
    # the opening part "开场：一个问题" split at its own colon: "家庭急救的一个问题要点1：身边的一幕" was a page title
    deck = await _offline_deck(request_text)
    said = [text for s in deck.slides for text in (*visible_items(s), s.notes)]
    numbered = [text for text in said if re.search(r"要点\d|\bpoint \d", text)]
    assert not numbered, numbered[:3]


async def test_a_pair_compared_is_said_as_the_pair_inside_sentences():
    # "The core ideas of photosynthesis and cellular respiration compared" on the agenda, in titles and in the notes
    deck = await _offline_deck("Photosynthesis and cellular respiration compared, for Year 9, 20 minutes")
    said = [text for s in deck.slides[1:] for text in (*visible_items(s), s.notes)]
    assert not [text for text in said if "respiration compared" in text.lower()], said[:3]
    assert any("photosynthesis and cellular respiration" in text.lower() for text in said)


@pytest.mark.parametrize(("request_text", "remembered"), [("给初二学生讲讲电磁感应，20分钟", "这一部分最该记住的一点"),
                                                         ("Electricity for Year 8, 20 minutes", "the one thing to remember from this part")])
async def test_a_lesson_s_one_line_page_says_what_to_remember_not_the_key_to_its_part(request_text, remembered):
    # "因果关系：理解地震的核心原理的钥匙" made one point the key to the part it belongs to
    shown = " ".join(text for s in (await _offline_deck(request_text)).slides for text in visible_items(s))
    assert remembered in shown
    assert "钥匙" not in shown and "the key to" not in shown


@pytest.mark.parametrize("request_text", ["A 20 minute training for new warehouse staff on forklift safety",
                                          "给仓库新员工做叉车安全培训，20分钟", "Electricity for Year 8, 20 minutes"])
async def test_a_deck_s_one_line_pages_each_say_their_point_in_their_own_words(request_text):
    # every part's one-line page said "<point>: the key to getting <part> right" ("易犯错误：做对常见错误的关键")
    deck = await _offline_deck(request_text)
    said = [visible_items(s)[-1].split(":")[-1].split("：")[-1].strip() for s in deck.slides if s.layout == "big_number"]
    assert len(said) >= 2, said
    assert len(set(said)) == len(said), said
    assert not [line for line in said if "the key to" in line or "关键" in line], said


@pytest.mark.parametrize(("request_text", "example"), [("给初二学生讲讲电磁感应，20分钟", "举一个例子"),
                                                      ("Electricity for Year 8, 20 minutes", "an example of it")])
async def test_a_lesson_s_table_asks_for_an_example_not_why_each_point_matters(request_text, example):
    shown = " ".join(text for s in (await _offline_deck(request_text)).slides for text in visible_items(s))
    assert example in shown
    assert "为什么重要" not in shown and "why it matters" not in shown


@pytest.mark.parametrize("request_text", ["给一年级小朋友讲讲四季的变化，10分钟",
                                          "Why do leaves change colour in autumn? A lesson for Year 2"])
async def test_a_class_too_young_to_write_is_not_asked_to_write_on_its_slides(request_text):
    # "术语表：写下四季的变化里反复出现的词", "Keep it: write it down to check at the end" on a page for six-year-olds
    shown = [text for s in (await _offline_deck(request_text)).slides for text in visible_items(s)]
    asked = [text for text in shown if re.search(r"写下|记下来|笔记|write (?:it )?down|notebook", text, re.IGNORECASE)]
    assert not asked, asked


@pytest.mark.parametrize(("request_text", "parts"), [
    ("给小学三年级讲恐龙，10分钟", ["恐龙：长什么样", "恐龙：怎样生活"]),
    ("认识火山，面向初一，10分钟", ["火山：是什么样的", "火山：怎样形成和变化"]),
    ("Bees for Year 3, 10 minutes", ["Bees: what they are like", "Bees: how they live"])])
async def test_a_lesson_on_a_thing_of_nature_is_told_by_what_it_is_like_and_how_it_lives_or_forms(request_text, parts):
    # "恐龙的核心原理", "恐龙的关键过程" and "恐龙在生活中还有哪些例子？" said nothing of a dinosaur
    deck = await _offline_deck(request_text)
    assert deck.slides[1].bullets == parts
    shown = " ".join(text for s in deck.slides for text in (*visible_items(s), s.notes))
    abstract = re.findall(r"核心原理|关键过程|核心术语|基本定义|在生活中还有哪些例子|the workings of|key terms|basic definitions",
                          shown, re.IGNORECASE)
    assert not abstract, abstract


@pytest.mark.parametrize(("request_text", "steps"), [("给小学二年级讲恐龙的PPT，10分钟", "怎样长大：一步一步看"),
                                                    ("Make a 10 minute presentation about black holes", "Formation, step by step")])
async def test_how_a_living_thing_grows_up_or_a_thing_of_the_sky_forms_is_shown_step_by_step(request_text, steps):
    deck = await _offline_deck(request_text)
    assert [s.layout for s in deck.slides if s.title == steps] == ["process"]


async def test_a_little_animal_for_toddlers_is_no_person_with_a_life_story():
    # jieba read "小兔子" as a name: "小兔子的生平经历", "小兔子的早年经历" for three-year-olds
    deck = await _offline_deck("给3岁幼儿讲小兔子，10分钟")
    shown = " ".join(text for s in deck.slides for text in visible_items(s))
    assert "小兔子：长什么样" in shown
    assert not re.findall(r"生平|早年|史料|人物", shown)


@pytest.mark.parametrize("request_text", ["给社区居民讲讲家庭急救，15分钟", "给家长讲讲儿童用药安全，15分钟"])
async def test_a_point_with_a_de_of_its_own_is_not_joined_to_the_subject_by_another(request_text):
    # "家庭急救的身边的一幕" on a page title
    titles = [s.title for s in (await _offline_deck(request_text)).slides]
    doubled = [title for title in titles if re.search(r"的[^的：:]{1,4}的", title)]
    assert not doubled, doubled


@pytest.mark.parametrize("request_text", ["给老师们讲如何在课堂上用提问引导学生思考，15分钟",
                                          "A 15 minute training for teachers on how to use questioning in lessons"])
async def test_teachers_trained_in_a_way_of_teaching_hear_its_key_moves_not_a_workplace_s_rules(request_text):
    # "对岗位的要求", "禁止行为" and "回到岗位后，你最先要做到的是哪一点？" for a method of asking questions in class
    deck = await _offline_deck(request_text)
    shown = " ".join(text for s in deck.slides for text in visible_items(s))
    workplace = re.findall(r"对岗位的要求|禁止行为|回到岗位|the never-dos|the standard expected|Back at work", shown)
    assert not workplace, workplace
    assert re.search(r"方法要领|The key moves", shown)


def _title_lines(shape) -> list[str]:
    """A title box's lines as the renderer breaks them at the box's own width (the project's font metrics)."""
    frame = shape.text_frame
    run = frame.paragraphs[0].runs[0]
    rpr = run._r.rPr
    fonts = Fonts(rpr.find(qn("a:latin")).get("typeface"), rpr.find(qn("a:ea")).get("typeface"))
    width = Emu(shape.width).pt - Emu(frame.margin_left).pt - Emu(frame.margin_right).pt
    return wrap(frame.text, width, run.font.size.pt, fonts, bool(run.font.bold))


def test_a_chinese_title_that_wraps_leaves_no_character_alone_on_its_last_line():
    # Titles from one to two lines long: whichever just overflows a line must not strand its last characters.
    sentence = "新员工信息安全培训里密码钓鱼邮件与数据保护的必守规定和每天上岗前要做的检查"
    titles = [sentence[:n] for n in range(16, len(sentence) + 1)]
    deck = deck_of(*(page(title=title, bullets=["要点一", "要点二"], notes="我们来看这一页。" * 12) for title in titles),
                   language="zh")
    prs = Presentation(io.BytesIO(gate(deck, None).pptx))
    wrapped = 0
    for slide in prs.slides:
        lines = _title_lines(slide.shapes.title)
        if len(lines) > 1:
            wrapped += 1
            assert len(lines[-1]) >= len(lines[0]) // 2, lines
    assert wrapped >= 5


def _ink_box(slide) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of what the page's body shows: its cards, badges and icons, and its words as
    far as they run (not the empty end of their boxes); the title, its rule and the page number aside."""
    left = top = float("inf")
    right = bottom = 0.0
    for shape in slide.shapes:
        kind = shape.name.split(":")[0]
        x, y, w, h = (Emu(v).pt for v in (shape.left, shape.top, shape.width, shape.height))
        if kind == "visual" or shape.shape_type == 13:  # cards, badges, icon pictures
            left, top, right, bottom = min(left, x), min(top, y), max(right, x + w), max(bottom, y + h)
        elif kind == "text" and shape.text_frame.text.strip():
            run = shape.text_frame.paragraphs[0].runs[0]
            rpr = run._r.rPr
            fonts = Fonts(rpr.find(qn("a:latin")).get("typeface"), rpr.find(qn("a:ea")).get("typeface"))
            size, bold = run.font.size.pt, bool(run.font.bold)
            ink = min(w, max(text_width_pt(p.text, size, fonts, bold) for p in shape.text_frame.paragraphs) + 14.4)
            lines = sum(len(wrap(p.text, w - 14.4 - (1.1 * size if p._p.pPr.get("marL") else 0), size, fonts, bold))
                        for p in shape.text_frame.paragraphs)
            tall = 7.2 + lines * line_height_pt(shape.text_frame.text, size, fonts, bold)
            if shape.text_frame.vertical_anchor == MSO_ANCHOR.MIDDLE:
                y += (h - tall) / 2
            left, top, right, bottom = min(left, x), min(top, y), max(right, x + ink), max(bottom, y + tall)
    return left, top, right, bottom


@pytest.mark.parametrize(("language", "agenda", "parts"), [
    ("en", "Agenda", ["The rules", "The steps"]),
    ("zh", "本课内容", ["基本规则", "操作步骤", "常见错误"]),
    ("en", "Summary", ["Why sleep matters", "What to change tonight", "Who to ask", "What to try next"]),
])
def test_a_short_agenda_or_recap_spreads_across_the_page_not_into_its_corner(language, agenda, parts):
    layout = "summary" if agenda == "Summary" else "agenda"
    deck = deck_of(page(title="Cover", layout="cover"), page(layout=layout, title=agenda, bullets=parts),
                   page(title="A point", bullets=["One", "Two"]), language=language)
    prs = Presentation(io.BytesIO(gate(deck, None).pptx))
    slide = prs.slides[1]
    left, top, right, bottom = _ink_box(slide)
    width = Emu(prs.slide_width).pt
    assert right - left >= 0.8 * (width - 2 * 48), (left, right)
    assert bottom - top >= 0.35 * Emu(prs.slide_height).pt, (top, bottom)


def _picture_side(slide, width: float) -> str:
    """Which half of the page the page's picture stands in."""
    pictures = [s for s in slide.shapes if s.shape_type == 13]
    centre = Emu(pictures[0].left + pictures[0].width // 2).pt
    return "left" if centre < width / 2 else "right"


def test_picture_pages_in_a_row_do_not_repeat_one_arrangement():
    pages = [page(layout="image_text", title=f"Part {n}: what we notice", bullets=["Look around", "Say what you see"])
             for n in range(1, 5)]
    deck = deck_of(page(title="Cover", layout="cover"), *pages, page(title="A point", bullets=["One", "Two"]))
    prs = Presentation(io.BytesIO(gate(deck, None).pptx))
    width = Emu(prs.slide_width).pt
    sides = [_picture_side(slide, width) for slide in list(prs.slides)[1:5]]
    assert all(a != b for a, b in zip(sides, sides[1:])), sides


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_short_table_opens_up_over_the_page_instead_of_leaving_its_lower_half_empty(language):
    rows = ([["The must-dos", "what it is", "Group drill"], ["The never-dos", "why it matters", "Self-check"],
             ["Roles", "what it links to", "Hands-on try"]] if language == "en" else
            [["相关概念", "它是什么", "错题订正"], ["定义与符号", "举一个例子", "小组讨论"]])
    deck = deck_of(page(title="Cover", layout="cover"),
                   page(layout="comparison", title="At a glance", table=Table(header=["Point", "Question", "Activity"], rows=rows)),
                   page(title="A point", bullets=["One", "Two"]), language=language)
    outcome = gate(deck, None)
    assert outcome.report.passed, [i.message for i in outcome.report.issues]
    slide = Presentation(io.BytesIO(outcome.pptx)).slides[1]
    frame = next(s for s in slide.shapes if s.has_table)
    shown = sum(Emu(row.height).pt for row in frame.table.rows)
    body = 540 - 40 - Emu(frame.top).pt  # from the table's top down to the page number
    assert shown >= 0.45 * body, (shown, body)
    assert shown <= body


@pytest.mark.parametrize(("categories", "horizontal"), [
    (["中国古代四大发明的背景与原因", "中国古代四大发明的经过与时间线", "中国古代四大发明的关键人物", "中国古代四大发明的结果与影响"], True),
    (["Households borrowing beyond their means", "Banks selling on bundled mortgages", "Ratings agencies looking away"], True),
    (["Heat", "Sugar", "Light"], False),
])
def test_a_chart_whose_names_are_long_lays_its_bars_level_so_the_names_read_straight(categories, horizontal):
    chart = ChartSpec(kind="column", categories=categories, series=[ChartSeries(name="Minutes", values=[5, 8, 3, 6][:len(categories)])],
                      unit="min")
    deck = deck_of(page(title="Cover", layout="cover"), page(layout="chart", title="Where the time goes", chart=chart),
                   page(title="A point", bullets=["One", "Two"]))
    outcome = gate(deck, None)
    assert outcome.report.passed, [i.message for i in outcome.report.issues]
    slide = Presentation(io.BytesIO(outcome.pptx)).slides[1]
    graphic = next(s for s in slide.shapes if s.has_chart).chart
    assert (graphic.plots[0]._element.find(qn("c:barDir")).get("val") == "bar") is horizontal
    assert list(graphic.plots[0].categories) == categories
    if horizontal:  # the first name on top, as the page lists them
        assert graphic.category_axis.reverse_order


@pytest.mark.parametrize(("language", "title", "questions"), [
    ("en", "Questions and practice", ["Back at work, what will you do first?", "Who do you ask when you are not sure?"]),
    ("zh", "思考与提问", ["你能用自己的话说说今天学的内容吗？", "做题时，哪一步你最容易出错？", "今天哪一类题你还想再练一练？"]),
])
def test_the_closing_questions_stand_in_the_middle_of_the_last_page_not_at_its_top(language, title, questions):
    deck = deck_of(page(title="Cover", layout="cover"), page(title="A point", bullets=["One", "Two"]),
                   page(layout="qa", title=title, bullets=questions), language=language)
    prs = Presentation(io.BytesIO(gate(deck, None).pptx))
    _, top, _, bottom = _ink_box(prs.slides[-1])
    body_middle = (540 - 40) / 2  # above the page number
    assert abs((top + bottom) / 2 - body_middle) <= 0.1 * 540, (top, bottom)


@pytest.mark.parametrize("layout", ["bullets", "image_text"])
async def test_two_short_points_sit_level_with_the_pages_picture_not_in_its_top_corner(layout):
    from graphs.ppt.render import layouts
    from graphs.ppt.render.prepare import style_for

    deck = await _offline_deck("Volcanoes for year 5")
    _, style = style_for(deck, [])
    spec = SlideSpec(index=2, layout=layout, title="What we will cover", bullets=["What volcanoes are", "Why they erupt"])
    body = next(block for block in getattr(layouts, layout)(spec, style).blocks if block.bullets)
    assert body.anchor == "middle" and body.needed_height(style.fonts) < body.h / 2
