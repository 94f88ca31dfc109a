"""argparse in the user's language.

argparse looks up its own sentences ("usage: ", "%(prog)s: error: …", "the following arguments are
required: %s", the help headings) through gettext, by calling its module-level `_` and `ngettext` each
time. Pointing those two names at the catalogue (`core/messages/argparse.toml`, whose `en` texts are
argparse's own) makes `ng --help` and every usage error follow LOCALE like the rest of the CLI.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import sys

from core.i18n import catalogue, join_items, t


@functools.cache
def _keys_by_english() -> dict[str, str]:
    return {texts["en"]: key for key, texts in catalogue().items() if key.startswith("argparse.")}


# Sentences argparse fills with a list it joined with ", " itself (the missing arguments, the choices):
# the key → the placeholder holding that list (None: the sentence's only `%s`).
_FILLED_WITH_A_LIST = {"argparse.required": None, "argparse.invalid_choice": "choices",
                       "argparse.unknown_parser": "choices", "argparse.ambiguous": "matches"}


class _ListSentence(str):
    """A translated sentence that, once argparse fills it, joins its list as the locale does ("甲、乙")."""

    placeholder: str | None = None

    def __mod__(self, values: object) -> str:
        if self.placeholder is None and isinstance(values, str):
            values = _rejoined(values)
        elif isinstance(values, dict) and isinstance(values.get(self.placeholder), str):
            values = {**values, self.placeholder: _rejoined(values[self.placeholder])}
        return str.__mod__(self, values)


def _rejoined(listed: str) -> str:
    return join_items(listed.split(", "))


def argparse_text(message: str) -> str:
    """argparse's sentence in the current locale; a sentence the catalogue lacks stays as argparse wrote it."""
    key = _keys_by_english().get(message)
    if key is None:
        return message
    if key not in _FILLED_WITH_A_LIST:
        return t(key)
    sentence = _ListSentence(t(key))
    sentence.placeholder = _FILLED_WITH_A_LIST[key]
    return sentence


def argparse_plural(singular: str, plural: str, count: int) -> str:
    return argparse_text(singular if count == 1 else plural)


def add_subcommands(parser: argparse.ArgumentParser, dest: str, *, required: bool = True,
                    name_key: str = "cli.metavar_action") -> argparse._SubParsersAction:
    """A subcommand slot named in the user's language. A required one left out is reported by
    `help_for_missing_subcommand` with the parser's help, which lists the subcommands; argparse's own
    error would only name the slot."""
    slot = parser.add_subparsers(dest=dest, metavar=t(name_key))
    slot.needs_choice = required  # type: ignore[attr-defined]
    return slot


def _slot(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    actions = parser._subparsers._group_actions if parser._subparsers else []  # noqa: SLF001
    return next((a for a in actions if isinstance(a, argparse._SubParsersAction)), None)  # noqa: SLF001


def innermost_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the subcommand the user chose (`ng novel run` → novel run's), for its usage and help."""
    slot = _slot(parser)
    while slot is not None and getattr(args, slot.dest, None) is not None:
        parser = slot.choices[getattr(args, slot.dest)]
        slot = _slot(parser)
    return parser


def help_for_missing_subcommand(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`ng` or `ng novel` alone: print that command's help (its subcommands, in words) and exit 2."""
    chosen = innermost_parser(parser, args)
    slot = _slot(chosen)
    if slot is not None and getattr(slot, "needs_choice", False) and getattr(args, slot.dest, None) is None:
        chosen.print_help(sys.stderr)
        raise SystemExit(2)


class NgArgumentParser(argparse.ArgumentParser):
    """argparse, and a mistyped subcommand or choice (`ng exprt`) names the one meant (what Python 3.14's
    `suggest_on_error` does; the subcommands' parsers are of this class too)."""

    def _check_value(self, action: argparse.Action, value: object) -> None:
        choices = action.choices
        if choices is not None and value not in choices and isinstance(value, str):
            match = difflib.get_close_matches(value, [str(choice) for choice in choices], n=1)
            if match:
                listed = join_items(repr(choice) for choice in choices)
                raise argparse.ArgumentError(action, t("cli.invalid_choice_close", value=value, match=match[0],
                                                       choices=listed))
        super()._check_value(action, value)


def debug_after_any_command(parser: argparse.ArgumentParser, help_text: str) -> None:
    """`ng resume <id> --debug` as `ng --debug resume <id>`: every subcommand takes the flag too. SUPPRESS: a
    subcommand's default would reset the flag given before it to False."""
    slot = _slot(parser)
    for child in (slot.choices.values() if slot is not None else ()):
        child.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=help_text)
        debug_after_any_command(child, help_text)


def speak_the_catalogue() -> None:
    argparse._ = argparse_text  # type: ignore[attr-defined]
    argparse.ngettext = argparse_plural  # type: ignore[attr-defined]
