"""Feedback on a finished deck does what was asked: colours, single pages, earlier wishes kept, and the
assistant says what it changed."""

from __future__ import annotations

import colorsys

import pytest

from core.i18n import t
from graphs.ppt.planning import COLOURS, colour_named, palette_for, pages_named
from graphs.ppt.render.theme import checked_theme
from schemas.ppt import ColorScheme, FontConfig, MasterSlide, PresentationTheme
from tests.test_ppt_socket import run_ppt


def hue_and_saturation(hex_color: str) -> tuple[float, float]:
    r, g, b = (int(hex_color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    h, _, s = colorsys.rgb_to_hls(r, g, b)
    return h * 360, s


def hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


def of_run(client, thread_id: str, run_id: str, event: str | None = None):
    return [d for n, d in client.of(thread_id) if d["runId"] == run_id and (event is None or n == event)]


def latest(client, thread_id: str, run_id: str, kind: str) -> dict:
    return [d["artifact"] for d in of_run(client, thread_id, run_id, "tool:artifact") if d["artifact"]["type"] == kind][-1]


async def refine(client, thread_id: str, text: str) -> str:
    ack = await client.call("chat:message", {"flow": "ppt", "threadId": thread_id, "text": text})
    assert ack["ok"], ack
    completion = await client.wait_for("completion", lambda d: d["runId"] == ack["runId"], timeout=90)
    assert completion["success"], completion
    return ack["runId"]


def page_text(slide: dict) -> str:
    parts = [slide["title"], *slide["bullets"], *(i for c in slide["columns"] for i in c["items"]),
             *(f"{s['label']}{s['detail']}" for s in slide["steps"])]
    if slide.get("table"):
        parts += [cell for row in slide["table"]["rows"] for cell in row]
    return "".join(parts)


async def test_colour_feedback_gives_the_named_colour_and_says_so(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于浮力的5分钟PPT")

    run_id = await refine(client, thread_id, "把主题颜色换成深蓝色")
    hue, saturation = hue_and_saturation(latest(client, thread_id, run_id, "presentation_theme")["content"]["colorScheme"]["primary"])
    assert hue_distance(hue, 220) <= 15 and saturation > 0.3, (hue, saturation)
    said = [d["content"] for d in of_run(client, thread_id, run_id, "message") if d["final"]]
    assert t("ppt.changed_theme_colour", colour=t("ppt.colour_navy")) in said
    assert "深蓝色" in said[0]

    run_id = await refine(client, thread_id, "红色")
    hue, saturation = hue_and_saturation(latest(client, thread_id, run_id, "dsl")["content"]["theme"]["colorScheme"]["primary"])
    assert hue_distance(hue, 0) <= 15 and saturation > 0.3, (hue, saturation)


@pytest.mark.parametrize("topic", ["给初中生讲浮力，5分钟", "做一个关于光合作用的5分钟PPT", "介绍勾股定理，5分钟"])
async def test_asking_for_other_colours_without_naming_one_changes_the_colours(live_server, connect, topic):
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, topic)
    before = latest(client, thread_id, completion["runId"], "presentation_theme")["content"]["colorScheme"]
    run_id = await refine(client, thread_id, "换一套配色，颜色更活泼一些")
    after = latest(client, thread_id, run_id, "presentation_theme")["content"]["colorScheme"]
    assert after != before


async def test_english_colour_words_pick_their_colour(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "A 5 minute deck about volcanoes")
    run_id = await refine(client, thread_id, "make the theme green please")
    hue, _ = hue_and_saturation(latest(client, thread_id, run_id, "presentation_theme")["content"]["colorScheme"]["primary"])
    assert hue_distance(hue, 125) <= 20, hue


async def test_page_feedback_rewrites_only_that_page_and_keeps_the_colour_chosen_before(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于细胞结构的6分钟PPT")
    colour_run = await refine(client, thread_id, "把主题颜色换成深蓝色")
    before = latest(client, thread_id, colour_run, "dsl")["content"]

    page_run = await refine(client, thread_id, "第三页内容太多了，精简一下")

    rerun = [d["toolName"] for d in of_run(client, thread_id, page_run, "tool:start")]
    assert rerun == ["revise_pages", "check_deck", "preview_deck"], "no outline, scripts, theme or slides re-run"
    after = latest(client, thread_id, page_run, "dsl")["content"]
    assert after["theme"] == before["theme"], "the navy theme chosen earlier stays"
    assert len(after["slides"]) == len(before["slides"])
    for old, new in zip(before["slides"], after["slides"]):
        if old["index"] != 3:
            assert new == old, f"page {old['index']} changed"
    assert len(page_text(after["slides"][2])) < len(page_text(before["slides"][2])), "page 3 is shorter"
    said = [d["content"] for d in of_run(client, thread_id, page_run, "message") if d["final"]]
    assert t("ppt.changed_pages_simplified", pages="3") in said


async def test_outline_feedback_after_a_colour_keeps_the_colour(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于月相的5分钟PPT")
    await refine(client, thread_id, "换成紫色")
    run_id = await refine(client, thread_id, "大纲太复杂，精简一下")
    # The deck the outline run made (its theme is not re-run: it does not depend on the outline).
    hue, _ = hue_and_saturation(latest(client, thread_id, run_id, "dsl")["content"]["theme"]["colorScheme"]["primary"])
    assert hue_distance(hue, 275) <= 15, hue


class GreenThemeLLM:
    """The server's model, except that every theme it designs is green, whatever was asked."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def structured(self, schema, **kwargs):
        result = await self.inner.structured(schema, **kwargs)
        if schema is PresentationTheme:
            green = ColorScheme(primary="#385723", secondary="#70AD47", accent="#FFC000", background="#FBFCF8", text="#1F2A17")
            result = result.model_copy(update={"colorScheme": green})
        return result


async def test_a_model_that_ignores_the_colour_asked_for_is_overruled(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于声音的5分钟PPT")
    live_server.runtime.llm = GreenThemeLLM(live_server.runtime.llm)
    run_id = await refine(client, thread_id, "主题颜色换成红色")
    hue, _ = hue_and_saturation(latest(client, thread_id, run_id, "dsl")["content"]["theme"]["colorScheme"]["primary"])
    assert hue_distance(hue, 0) <= 15, hue


@pytest.mark.parametrize("feedback", ["加一页课堂练习题", "用英文重写整个PPT"])
async def test_feedback_no_stage_can_apply_keeps_the_deck_and_says_what_can_be_changed(live_server, connect, feedback):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于光合作用的5分钟PPT")

    run_id = await refine(client, thread_id, feedback)

    assert "analyze_topic" not in [d["toolName"] for d in of_run(client, thread_id, run_id, "tool:start")]
    assert of_run(client, thread_id, run_id, "tool:artifact") == [], "no new deck"
    said = [d["content"] for d in of_run(client, thread_id, run_id, "message") if d["final"]]
    assert said == [t("ppt.feedback_not_applied")]
    run_id = await refine(client, thread_id, "换成紫色")  # the deck is still there to refine, and still on photosynthesis
    assert latest(client, thread_id, run_id, "dsl")["content"]["title"] == "光合作用"


async def test_a_new_deck_on_another_subject_still_starts_anew(live_server, connect):
    client = await connect(live_server.url)
    thread_id, _ = await run_ppt(client, "做一个关于光合作用的5分钟PPT")
    run_id = await refine(client, thread_id, "再做一个关于火山的PPT")
    assert latest(client, thread_id, run_id, "dsl")["content"]["title"] == "火山"


async def test_a_page_asked_to_become_a_table_is_a_table_and_the_reply_says_so(live_server, connect):
    client = await connect(live_server.url)
    thread_id, first = await run_ppt(client, "做一个关于光合作用的10分钟PPT，面向初中生")
    before = latest(client, thread_id, first["runId"], "dsl")["content"]
    assert before["slides"][2]["layout"] != "comparison"

    run_id = await refine(client, thread_id, "把第3页改成表格")

    after = latest(client, thread_id, run_id, "dsl")["content"]
    table = after["slides"][2]["table"]
    assert after["slides"][2]["layout"] == "comparison" and len(table["rows"]) >= 2
    cells = [cell for row in table["rows"] for cell in row]
    assert all(point.split("：")[0] in cells for point in before["slides"][2]["bullets"]), "the page's points are kept"
    said = [d["content"] for d in of_run(client, thread_id, run_id, "message") if d["final"]]
    assert t("ppt.changed_pages_layout", pages="3", layout=t("ppt.layout_comparison")) in said


async def test_a_page_that_cannot_become_a_table_stays_and_the_reply_says_it_could_not(live_server, connect):
    client = await connect(live_server.url)
    thread_id, first = await run_ppt(client, "做一个关于光合作用的10分钟PPT，面向初中生")
    before = latest(client, thread_id, first["runId"], "dsl")["content"]
    single = next(s for s in before["slides"] if s["layout"] == "big_number")  # one statement: no rows to tabulate

    run_id = await refine(client, thread_id, f"把第{single['index']}页改成表格")

    after = latest(client, thread_id, run_id, "dsl")["content"]
    assert after["slides"][single["index"] - 1]["layout"] == "big_number"
    said = [d["content"] for d in of_run(client, thread_id, run_id, "message") if d["final"]]
    assert t("ppt.pages_not_changed_layout", pages=str(single["index"]), layout=t("ppt.layout_comparison")) in said
    assert t("ppt.changed_pages", pages=str(single["index"])) not in said


# ------------------------------------------------------------ the rules behind it


@pytest.mark.parametrize("word", [w for *_, words in COLOURS.values() for w in words[:2]])
def test_each_colour_word_gives_a_palette_of_its_hue_that_needs_no_contrast_repair(word):
    colour = colour_named(f"把主题换成{word}")
    scheme = palette_for(colour)
    hue, saturation = hue_and_saturation(scheme.primary)
    assert hue_distance(hue, colour.hue) <= 5 or colour.saturation == 0, (word, scheme.primary)
    assert (saturation > 0.3) == (colour.saturation > 0), (word, scheme.primary)
    _, _, adjustments = checked_theme(PresentationTheme(
        themeName=word, colorScheme=scheme, fontConfig=FontConfig(titleFont="Arial", bodyFont="Arial",
        eastAsianFont="Noto Sans CJK SC", titleSize=40, bodySize=24), masterSlides=[MasterSlide(name="c", layout="cover")]))
    assert adjustments == [], adjustments


@pytest.mark.parametrize(("text", "pages"), [
    ("第三页内容太多了，精简一下", [3]), ("第3、4页换成图片", [3, 4]), ("第二到第四页太挤", [2, 3, 4]),
    ("第十二页有错字", [12]), ("page 3 has too much text", [3]), ("slides 2 and 5 are dense", [2, 5]),
    ("the 4th slide is too long", [4]),
])
def test_page_references_name_the_pages(text, pages):
    assert pages_named(text) == pages
