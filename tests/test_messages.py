"""The message catalogue: every user-facing sentence exists in both languages with the same fields."""

import contextvars
import re
import string

import pytest

from core.i18n import LOCALES, catalogue, normalize_locale, set_surface, t


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(catalogue()))
def test_every_sentence_has_every_language_with_the_same_fields(key):
    texts = catalogue()[key]
    assert set(LOCALES) <= set(texts), f"{key} lacks {set(LOCALES) - set(texts)}"
    assert len({frozenset(_fields(texts[locale])) for locale in LOCALES}) == 1, key


def test_chinese_is_the_default_and_english_is_chosen_by_setting():
    assert t("runtime.cancelled") != t("runtime.cancelled", locale="en")
    assert "saved" in t("runtime.cancelled", locale="en")
    assert normalize_locale("en-US") == "en" and normalize_locale("fr") == "zh"


def test_an_unknown_key_is_a_programming_error():
    with pytest.raises(KeyError):
        t("runtime.no_such_sentence")


def test_the_terminal_calls_a_thread_by_one_word():
    # `ng` says 线程 (ng threads, ng resume <线程>, ng chat's goodbye and its --thread); the canvas says 会话 for the
    # same thing, in its own catalogue.
    said_by_ng = {key: texts for key, texts in catalogue().items()
                  if key.startswith("cli.") or key.split(".", 1)[1].startswith("cli_")}
    assert not [key for key, texts in said_by_ng.items() if "会话" in texts["zh"] or "session" in texts["en"].lower()]


def test_the_terminal_calls_an_artifact_by_one_word():
    # `ng threads delete` and `ng export` name the same thing: 产物, as the canvas does.
    said_by_ng = {key: texts["zh"] for key, texts in catalogue().items() if key.startswith("cli.")}
    assert not [key for key, text in said_by_ng.items() if "产出物" in text]


def test_a_sentence_both_surfaces_read_names_a_thread_by_the_readers_word():
    # ng's own (cli.*, *.cli_*) and the canvas's own (canvas.*, server.*) sentences keep their word; any other
    # reaches both, so it says {thread_noun} (novel's chat "session", 会话 in both, is another concept).
    def own(key: str) -> bool:
        domain, name = key.split(".", 1)
        return domain in {"cli", "canvas", "server"} or name.startswith(("cli_", "thread_noun_"))

    def words(text: str) -> str:
        return re.sub(r"\{\w+\}", "", text)  # "{thread}" is the id, not the word

    shared = {key: {locale: words(text) for locale, text in texts.items()}
              for key, texts in catalogue().items() if not own(key)}
    literal = [key for key, texts in shared.items()
               if re.search(r"\bthreads?\b", texts["en"], re.IGNORECASE) or "线程" in texts["zh"]
               or ("会话" in texts["zh"] and "session" not in texts["en"].lower())]
    assert literal == []


def test_the_canvas_reads_its_own_word_for_a_thread_where_ng_reads_its_own():
    def said_on(surface: str, locale: str) -> str:
        set_surface(surface)
        return t("runtime.already_running", locale=locale, thread="t1")

    assert contextvars.copy_context().run(said_on, "canvas", "zh") == "会话 t1 正在运行，请等待它结束或先停止它。"
    assert contextvars.copy_context().run(said_on, "cli", "zh") == "线程 t1 正在运行，请等待它结束或先停止它。"
    english = {contextvars.copy_context().run(said_on, surface, "en") for surface in ("cli", "canvas")}
    assert english == {"The thread t1 is running; wait for it or stop it first."}


def test_an_english_count_of_one_takes_the_singular_and_any_other_the_plural():
    # "5 question(s)" read as an unfinished sentence; the catalogue writes "(s)" and t() settles it.
    one = t("requirement.round_questions", locale="en", round=1, count=1, blocking=0, clarification=1, max_rounds=3)
    five = t("requirement.round_questions", locale="en", round=1, count=5, blocking=2, clarification=1, max_rounds=3)
    assert "1 question," in one and "5 questions," in five and "(s)" not in one + five


@pytest.mark.parametrize("key", sorted(catalogue()))
def test_no_chinese_sentence_leaves_a_space_after_a_full_width_stop_colon_or_comma(key):
    # Full-width marks carry their own space: "计划： 1." reads as a stray gap.
    assert not re.search(r"[：，、；。！？] ", catalogue()[key]["zh"]), key
