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
import re
import sys

from rich.cells import cell_len

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


# Where a help line may break: after a CJK character (Chinese has no spaces) or at a space.
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
# The parts of a usage line argparse keeps whole: "[--out 路径]", "(a | b)", a word.
_USAGE_PARTS = re.compile(r"\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+")
_WRAP_PIECES = re.compile(rf"[{_CJK}][，。；：、）」』》”’！？]*|[^\s{_CJK}]+|\s+")


def wrap_cells(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` terminal columns: a Chinese character takes two, and a Chinese
    sentence breaks between characters (never before its closing punctuation), English between words."""
    lines, line = [], ""
    for piece in _WRAP_PIECES.findall(" ".join(text.split())):
        if line and not piece.isspace() and cell_len(line.rstrip() + piece) > width:
            lines.append(line.rstrip())
            line = ""
        if not (piece.isspace() and not line):
            line += piece
    return [*lines, line.rstrip()] if line.strip() else lines


class NgHelpFormatter(argparse.HelpFormatter):
    """argparse's help laid out by terminal columns, not characters, so Chinese names and sentences line
    up and wrap like English ones; a heading ends with the locale's colon ("选项：", "options:")."""

    class _Section(argparse.HelpFormatter._Section):  # noqa: SLF001 (argparse writes the colon here)
        def format_help(self) -> str:
            text = super().format_help()
            if self.heading in (None, argparse.SUPPRESS):
                return text
            return text.replace(f"{self.heading}:\n", t("cli.help_heading", heading=self.heading) + "\n", 1)

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:  # argparse measured the names with len()
            widest = max(cell_len(self._format_action_invocation(a)) for a in [action, *action_children(action)])
            self._action_max_length = max(self._action_max_length, widest + self._current_indent)

    def _format_action(self, action: argparse.Action) -> str:
        text = super()._format_action(action)
        name = self._format_action_invocation(action)
        extra = cell_len(name) - len(name)
        start = " " * self._current_indent + name + " " * (extra + 2)
        if extra and action.help and text.startswith(start):  # argparse padded the name by characters
            text = text[:len(start) - extra] + text[len(start):]
        return text

    def _format_usage(self, usage, actions, groups, prefix) -> str:  # type: ignore[no-untyped-def]
        text = super()._format_usage(usage, actions, groups, prefix)
        prefix = argparse._("usage: ") if prefix is None else prefix  # type: ignore[attr-defined]
        head = prefix + self._prog
        lines = text.rstrip("\n").split("\n")
        if usage is not None or (len(lines) == 1 and cell_len(lines[0]) <= self._width):
            return text
        # argparse wrapped by characters: wrapped again by columns the way argparse does it (the options after
        # the command, the positionals on lines of their own), each line under the first option.
        options = _USAGE_PARTS.findall(self._format_actions_usage([a for a in actions if a.option_strings], groups))
        positionals = _USAGE_PARTS.findall(self._format_actions_usage([a for a in actions if not a.option_strings],
                                                                      groups))
        indent = " " * (cell_len(head) + 1)
        return "\n".join([*self._packed([head], options, indent), *self._packed([], positionals, indent)]) + "\n\n"

    def _packed(self, lines: list[str], parts: list[str], indent: str) -> list[str]:
        """`lines` with `parts` added on as few lines as fit the terminal's columns, a new line indented."""
        for part in parts:
            if lines and cell_len(f"{lines[-1]} {part}") <= self._width:
                lines[-1] += f" {part}"
            else:
                lines.append(indent + part)
        return lines

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_cells(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap_cells(text, width - len(indent)))


def action_children(action: argparse.Action) -> list[argparse.Action]:
    get_children = getattr(action, "_get_subactions", None)
    return list(get_children()) if get_children else []


class NgArgumentParser(argparse.ArgumentParser):
    """argparse, and a mistyped subcommand or choice (`ng exprt`) names the one meant (what Python 3.14's
    `suggest_on_error` does; the subcommands' parsers are of this class too). Help is laid out by
    `NgHelpFormatter`."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("formatter_class", NgHelpFormatter)
        super().__init__(*args, **kwargs)

    def _check_value(self, action: argparse.Action, value: object) -> None:
        choices = action.choices
        if choices is not None and value not in choices and isinstance(value, str):
            match = difflib.get_close_matches(value, [str(choice) for choice in choices], n=1)
            if match:
                listed = join_items(repr(choice) for choice in choices)
                raise argparse.ArgumentError(action, t("cli.invalid_choice_close", value=value, match=match[0],
                                                       choices=listed))
        super()._check_value(action, value)


def port_number(text: str) -> int:
    """`--port`'s value: one the operating system can bind, else a usage error naming the range (a port
    above 65535 reached the socket and failed as an unexpected OverflowError)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(t("cli.port_out_of_range", value=text))
    return port


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
