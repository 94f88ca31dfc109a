"""Every setting a deployer can set is in `.env.example` and in README's settings table."""

from __future__ import annotations

import re

from core.settings import Settings
from tests.support.server import ROOT

SETTINGS = sorted(name.upper() for name in Settings.model_fields)


def test_every_setting_is_in_the_env_example():
    env_example = (ROOT / ".env.example").read_text(encoding="utf-8")
    shown = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", env_example, re.M))
    assert [variable for variable in SETTINGS if variable not in shown] == []


def test_every_setting_is_in_the_readme_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| `")]
    explained = {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split(" | ")[0])}
    assert [variable for variable in SETTINGS if variable not in explained] == []


def test_the_env_example_copied_as_is_is_a_valid_configuration(monkeypatch):
    for variable in SETTINGS:
        monkeypatch.delenv(variable, raising=False)
    settings = Settings(_env_file=ROOT / ".env.example")
    assert settings.llm_provider == "offline" and settings.locale == "zh"


def test_a_locale_naming_a_language_ng_does_not_speak_is_refused_and_a_regional_one_is_read_as_its_language():
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError):  # LOCALE=fr used to be read as Chinese without a word
        Settings(_env_file=None, locale="fr")
    assert [Settings(_env_file=None, locale=value).locale for value in ("en_US.UTF-8", "zh-CN", "EN", "")] == \
        ["en", "zh", "en", "zh"]
