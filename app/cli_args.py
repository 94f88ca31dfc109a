"""argparse in the user's language.

argparse looks up its own sentences ("usage: ", "%(prog)s: error: …", "the following arguments are
required: %s", the help headings) through gettext, by calling its module-level `_` and `ngettext` each
time. Pointing those two names at the catalogue (`core/messages/argparse.toml`, whose `en` texts are
argparse's own) makes `ng --help` and every usage error follow LOCALE like the rest of the CLI.
"""

from __future__ import annotations

import argparse
import functools

from core.i18n import catalogue, t


@functools.cache
def _keys_by_english() -> dict[str, str]:
    return {texts["en"]: key for key, texts in catalogue().items() if key.startswith("argparse.")}


def argparse_text(message: str) -> str:
    """argparse's sentence in the current locale; a sentence the catalogue lacks stays as argparse wrote it."""
    key = _keys_by_english().get(message)
    return t(key) if key else message


def argparse_plural(singular: str, plural: str, count: int) -> str:
    return argparse_text(singular if count == 1 else plural)


def speak_the_catalogue() -> None:
    argparse._ = argparse_text  # type: ignore[attr-defined]
    argparse.ngettext = argparse_plural  # type: ignore[attr-defined]
