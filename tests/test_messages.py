"""The message catalogue: every user-facing sentence exists in both languages with the same fields."""

import string

import pytest

from core.i18n import LOCALES, catalogue, normalize_locale, t


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
