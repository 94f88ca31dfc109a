"""The canvas speaks from the catalogue: every sentence static/ shows is a `canvas` key in both languages,
and no Chinese is written into static/ by hand (the next hand-written string fails here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.i18n import LOCALES, catalogue, domain_messages, set_locale, t
from tests.support.server import ROOT

STATIC = ROOT / "static"
PAGE_FILES = sorted([*STATIC.glob("*.js"), *STATIC.glob("views/*.js"), STATIC / "index.html"])
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# tr("key") and tr("key", {…}) in the modules; {{key}} slots in index.html; {key} inside a page sentence.
TR_CALL = re.compile(r"\btr\(\s*([\"'])([^\"']*)\1")
PAGE_SLOT = re.compile(r"\{\{(\w+)\}\}")
PAGE_FIELD = re.compile(r"\{(\w+)\}")
SERVER_SLOTS = {"lang", "messages"}


def canvas_keys() -> set[str]:
    return {key.removeprefix("canvas.") for key in catalogue() if key.startswith("canvas.")}


def used_keys() -> dict[str, Path]:
    used: dict[str, Path] = {}
    for path in PAGE_FILES:
        text = path.read_text(encoding="utf-8")
        for _, key in TR_CALL.findall(text):
            used[key] = path
        for key in PAGE_SLOT.findall(text):
            if key not in SERVER_SLOTS:
                used[key] = path
                for locale in LOCALES:
                    for field in PAGE_FIELD.findall(catalogue()[f"canvas.{key}"][locale]):
                        used[field] = path
    return used


def test_static_modules_call_tr_with_literal_keys_only():
    dynamic = [f"{path.name}: {m.group(0)}" for path in PAGE_FILES
               for m in re.finditer(r"(?<!function )\btr\(\s*[^\"'\s)]", path.read_text(encoding="utf-8"))]
    assert not dynamic, f"tr() takes a literal key so this test can check it: {dynamic}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_key_the_canvas_uses_exists_in_each_language(locale: str):
    missing = {key: path.name for key, path in used_keys().items()
               if locale not in catalogue().get(f"canvas.{key}", {})}
    assert not missing, f"keys absent from core/messages/canvas.toml ({locale}): {missing}"


def test_every_canvas_key_is_used_by_the_page():
    unused = canvas_keys() - set(used_keys())
    assert not unused, f"canvas keys no page file uses: {sorted(unused)}"


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: str(p.relative_to(STATIC)))
def test_no_chinese_is_written_into_the_page_by_hand(path: Path):
    lines = [f"{n}: {line.strip()}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if CJK.search(line)]
    assert not lines, f"{path.name} has text outside the catalogue (use tr(key) and core/messages/canvas.toml): {lines}"


def test_the_served_page_carries_the_sentences_of_the_locale_and_cannot_be_closed_by_one():
    from app.server import render_page

    template = '<html lang="{{lang}}"><script type="application/json">{{messages}}</script><p>{{page_signin_hint}}</p>'
    try:
        set_locale("en")
        page = render_page(template)
    finally:
        set_locale("zh")
    assert page.startswith('<html lang="en">')
    embedded = re.search(r'json">(.*)</script>', page).group(1)
    assert "</" not in embedded  # a sentence holding "</script>" could not end the element early
    assert json.loads(embedded) == domain_messages("canvas", "en")
    assert "<code>ng users add NAME</code>" in page


@pytest.mark.parametrize("locale", LOCALES)
def test_a_step_named_in_the_view_button_label_reads_as_a_name_not_mid_sentence_words(locale):
    # A step's name is an imperative with its own capital ("Analyse the topic"): set in a sentence, it is quoted as a
    # name, as the sentence of a failed step quotes it (runtime.step_failed), not run on ("…artifact of Analyse the topic").
    step = t("nodes.analyze_topic", locale=locale)
    label = t("canvas.view_artifact_of", locale=locale, name=step)
    assert (f"「{step}」" if locale == "zh" else f"'{step}'") in label, label


@pytest.mark.parametrize("locale", LOCALES)
def test_the_defaults_button_of_a_question_form_is_the_one_the_planner_tells_the_user_to_pick(locale):
    # "…answer them in the question form, or keep every default." — a button by another name is not found.
    said = t("requirement.questions_waiting", locale=locale, count=3)
    button = t("canvas.use_defaults_button", locale=locale)
    assert button.lower() in said.lower(), (button, said)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_blocking_question_is_marked_in_the_plan_with_the_words_of_the_planners_log(locale):
    # zh "阻断" read as "cut off"; the run's log says these questions "must be answered".
    said = t("requirement.round_questions", locale=locale, round=1, count=5, blocking=3, clarification=1, max_rounds=3)
    assert t("canvas.plan_blocking", locale=locale).lower() in said.lower(), said


def _canvas_tr(key: str, fields: dict, locale: str = "zh") -> str:
    """static/i18n.js `tr` run by node, on the page's catalogue as the server embeds it."""
    import shutil
    import subprocess

    if shutil.which("node") is None:
        pytest.skip("node runs the canvas's own i18n.js")
    page = {"messages": domain_messages("canvas", locale)}
    script = (f"const page = {json.dumps(page, ensure_ascii=False)};"
              "globalThis.document = {getElementById: () => ({textContent: JSON.stringify(page.messages)}),"
              " documentElement: {lang: 'zh-CN'}};"
              f"const {{ tr }} = await import({json.dumps((ROOT / 'static' / 'i18n.js').as_uri())});"
              f"process.stdout.write(tr({json.dumps(key)}, {json.dumps(fields, ensure_ascii=False)}));")
    return subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                          check=True, timeout=30).stdout


def test_a_latin_word_filled_into_a_chinese_sentence_of_the_canvas_is_spaced_from_the_chinese():
    assert _canvas_tr("open_artifact", {"type": t("canvas.type_pptx", locale="zh")}) == "打开 PPTX 文件"
    assert _canvas_tr("open_artifact", {"type": "大纲"}) == "打开大纲"
