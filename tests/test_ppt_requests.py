"""Requests as teachers write them: long, detailed, or empty — every accepted request finishes."""

from __future__ import annotations

import io

from pptx import Presentation

from core.i18n import t
from graphs.ppt.planning import deck_file_name, short_title
from tests.test_cli import ROOT, ng
from tests.test_ppt_socket import fetch_bytes, fetch_json, run_ppt

# A realistic request (332 characters): the subject is named once, among many wishes.
LONG_REQUEST = (
    "我是一名初二物理老师，下周要给两个班上一节关于浮力的公开课，时间大约15分钟。希望课件能从生活中的现象引入，"
    "比如轮船为什么能浮在水面上、潜水艇是怎样上浮和下沉的、热气球为什么能升空，然后讲清楚浮力产生的原因，"
    "再讲解阿基米德原理的内容和公式，配合一两个简单的课堂实验演示，例如用弹簧测力计测量物体在水中受到的浮力，"
    "以及用溢水杯比较排开液体的重力。请注意我们班学生基础一般，语言尽量通俗易懂，每页文字不要太多，多用图示和对比，"
    "重点和难点要突出。最后留三道由浅入深的课堂练习题，并做一个简短的小结，帮助学生回顾本节课的主要内容。"
    "如果可以的话，再加一页介绍浮力在生活和科技中的应用，比如救生衣、密度计和盐水选种。"
)


async def test_a_long_teacher_request_finishes_with_a_short_title_and_file_name(live_server, connect):
    assert len(LONG_REQUEST) > 300
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, LONG_REQUEST)
    assert completion["success"], completion

    artifacts = {d["artifact"]["type"]: d["artifact"] for _, d in client.of(thread_id, "tool:artifact")}
    pptx = artifacts["pptx"]
    assert "浮力" in pptx["title"] and len(pptx["title"]) <= 40 + len(".pptx")
    final = await fetch_json(f"{live_server.url}/artifacts/{completion['finalArtifactId']}")
    deck = Presentation(io.BytesIO(await fetch_bytes(live_server.url + final["url"])))
    assert "浮力" in deck.core_properties.title and len(deck.core_properties.title) <= 40
    assert artifacts["course_config"]["content"]["request"] == LONG_REQUEST, "the request itself is kept"
    assert artifacts["course_config"]["content"]["duration"] == 15


async def test_a_five_thousand_character_request_finishes(live_server, connect):
    client = await connect(live_server.url)
    text = "请做一个关于光的折射的课件。" + "学生需要通过生活中的例子理解折射现象，并能画出光路图。" * 180
    thread_id, completion = await run_ppt(client, text[:5000])
    assert completion["success"], completion
    pptx = next(d["artifact"] for _, d in client.of(thread_id, "tool:artifact") if d["artifact"]["type"] == "pptx")
    assert "折射" in pptx["title"] and len(pptx["title"]) <= 40 + len(".pptx")


def test_ng_ppt_with_an_empty_topic_says_what_to_give_and_exits_non_zero(tmp_path):
    result = ng("ppt", "  ", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert t("ppt.empty_topic") in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


async def test_a_deck_that_cannot_render_fails_with_a_sentence_asking_for_a_new_request(live_server, connect, monkeypatch):
    from graphs.ppt import render_pool

    def broken_render(deck, minutes):
        raise ValueError("All strings must be XML compatible")

    monkeypatch.setattr(render_pool, "gate", broken_render)  # the QA gate on a thread (RENDER_PROCESSES=0)
    client = await connect(live_server.url)
    thread_id, completion = await run_ppt(client, "做一个关于地震的5分钟PPT")
    assert completion["success"] is False
    assert completion["error"] == t("ppt.render_failed", reason="ValueError")


def test_a_long_english_request_is_titled_by_its_subject():
    request = ("I teach year 8 science. Next week I would like a lesson about volcanoes for my class, with plenty of "
               "pictures, a short quiz at the end, a few diagrams of the layers of the earth and how magma rises to "
               "the surface, and a page on famous eruptions such as Vesuvius and Krakatoa.")
    assert short_title(request) == "volcanoes"
    assert deck_file_name('Volcanoes: "why" / how?', "pptx") == "Volcanoes-why-how.pptx"


def test_an_audience_named_with_a_grade_number_is_not_part_of_the_title():
    from graphs.ppt.planning import audience_hint

    assert short_title("Photosynthesis for 7th graders, 10 minutes") == "Photosynthesis"
    assert audience_hint("Photosynthesis for 7th graders, 10 minutes") == "7th graders"
