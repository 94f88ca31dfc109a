"""Every setting a deployer can set is in `.env.example` and in README's settings table."""

from __future__ import annotations

import re

import pytest

from core.settings import Settings
from tests.support.server import ROOT

SETTINGS = sorted(name.upper() for name in Settings.model_fields)


@pytest.mark.parametrize("variable", SETTINGS)
def test_every_setting_is_in_the_env_example(variable):
    env_example = (ROOT / ".env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", env_example, re.M))
    assert variable in named, f"{variable} is a setting but .env.example does not show it"


@pytest.mark.parametrize("variable", SETTINGS)
def test_every_setting_is_in_the_readme_table(variable):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| `{variable}`" in readme or f"`{variable}` /" in readme or f"/ `{variable}`" in readme, (
        f"README's settings table does not explain {variable}"
    )


def test_the_env_example_copied_as_is_is_a_valid_configuration(monkeypatch):
    for variable in SETTINGS:
        monkeypatch.delenv(variable, raising=False)
    settings = Settings(_env_file=ROOT / ".env.example")
    assert settings.llm_provider == "offline" and settings.locale == "zh"
