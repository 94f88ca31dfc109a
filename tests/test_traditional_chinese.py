"""Traditional Chinese (Taiwan, Hong Kong) is read as Simplified by the offline rules; nothing else changes."""

from __future__ import annotations

import pytest

from core.language import understood


@pytest.mark.parametrize("text", [
    "把合同文件发给我，乾隆年间的著名画家",  # Simplified keeps 文件, 乾隆, 著名 (a phrase converter would not)
    "A lighthouse keeper on a remote island",
    "Make a deck about Taipei 101, 10 minutes",
])
def test_simplified_or_english_text_is_read_as_it_is(text):
    assert understood(text) == text


def test_traditional_text_is_read_in_simplified_characters():
    assert understood("房東不退押金怎麼辦") == "房东不退押金怎么办"
