"""The shell allow-list: which read-only commands and options a repository tool may run.

ls, cat, grep, rg, find, head, tail, wc — parsed with shlex (no shell ever runs), options checked
against a per-command getopt grammar, every path operand resolved (symlinks too) and required to stay
inside the repository. Anything outside the policy raises `ToolRefused` before a process starts.
"""

from __future__ import annotations

import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from core.tools.repo_paths import ToolRefused, resolve_inside

MAX_COMMAND_CHARS = 2_000
MAX_ARGS = 64

# Programs are looked up only here, never on the caller's PATH (which could hold look-alikes).
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"

# Shell syntax has no meaning without a shell, but a command that contains it was written for
# one (`; rm`, `$(…)`, backticks, pipes, redirects): refuse rather than run something else.
_SHELL_META = {
    ";": "command chaining (;)",
    "|": "pipes (|)",
    "&": "background/chaining (&)",
    "$": "variable or command substitution ($)",
    "`": "command substitution (backticks)",
    ">": "output redirection (>)",
    "<": "input redirection (<)",
    "\n": "multiple lines",
    "\r": "multiple lines",
    "\x00": "NUL bytes",
}



@dataclass(frozen=True)
class _Grammar:
    """getopt-style options a command may use. Anything not listed is refused."""

    flags: str = ""  # short options without a value
    valued: str = ""  # short options that take a value (never a path)
    long_flags: frozenset[str] = frozenset()
    long_valued: frozenset[str] = frozenset()
    pattern_first: bool = False  # grep/rg: first operand is the pattern unless -e/--regexp gave one
    pattern_options: frozenset[str] = frozenset({"e", "regexp"})
    numeric_shorthand: bool = False  # head -20, tail -5
    no_pattern_flags: frozenset[str] = frozenset()  # rg --files: all operands are paths
    extra_args: tuple[str, ...] = ()  # appended after argv[0], e.g. rg --no-config


_GRAMMARS: dict[str, _Grammar] = {
    # -L/--dereference would follow symlinks while recursing: not listed.
    "ls": _Grammar(
        flags="aAlhtrRS1dFpinsUXvcugoGQ",
        valued="wIT",
        long_flags=frozenset(
            {"all", "almost-all", "human-readable", "recursive", "reverse", "classify", "directory",
             "inode", "size", "numeric-uid-gid", "no-group", "quote-name", "si", "full-time", "group-directories-first"}
        ),
        long_valued=frozenset({"sort", "color", "colour", "time-style", "ignore", "hide", "width", "format", "time"}),
    ),
    "cat": _Grammar(
        flags="nbAsETvetu",
        long_flags=frozenset({"number", "number-nonblank", "show-all", "squeeze-blank", "show-ends", "show-tabs",
                              "show-nonprinting"}),
    ),
    "head": _Grammar(
        flags="qvz", valued="nc", long_flags=frozenset({"quiet", "silent", "verbose", "zero-terminated"}),
        long_valued=frozenset({"lines", "bytes"}), numeric_shorthand=True,
    ),
    # -f/-F/--follow/--retry/--pid never end: not listed.
    "tail": _Grammar(
        flags="qvz", valued="nc", long_flags=frozenset({"quiet", "silent", "verbose", "zero-terminated"}),
        long_valued=frozenset({"lines", "bytes"}), numeric_shorthand=True,
    ),
    # --files0-from reads a list of names from any file: not listed.
    "wc": _Grammar(flags="lwcmL", long_flags=frozenset({"lines", "words", "bytes", "chars", "max-line-length"})),
    # -R follows every symlink while recursing, -f/--exclude-from read arbitrary files, -d/-D
    # change how devices/dirs are read: not listed. Plain -r only follows command-line symlinks,
    # and those operands are resolved and checked below.
    "grep": _Grammar(
        flags="rnilLcwxvEFGPHhoqsIzZTUaby",
        valued="eABCm",
        long_flags=frozenset(
            {"recursive", "line-number", "ignore-case", "no-ignore-case", "files-with-matches",
             "files-without-match", "count", "word-regexp", "line-regexp", "invert-match", "extended-regexp",
             "fixed-strings", "basic-regexp", "perl-regexp", "with-filename", "no-filename", "only-matching",
             "quiet", "silent", "no-messages", "text", "null", "null-data", "byte-offset", "initial-tab"}
        ),
        long_valued=frozenset(
            {"regexp", "after-context", "before-context", "context", "max-count", "include", "exclude",
             "exclude-dir", "color", "colour", "binary-files"}
        ),
        pattern_first=True,
    ),
    # Not listed: --pre/--pre-glob (run a program per file), -z/--search-zip (spawn decompressors),
    # -L/--follow (follow symlinks out), --hostname-bin (runs a binary), -f/--file and --ignore-file
    # (read arbitrary files), -r/--replace. --no-config is forced so no config file adds options.
    "rg": _Grammar(
        flags="nNilcwxvFSsuUHIoqa0.P",
        valued="egtTABCmM",
        long_flags=frozenset(
            {"hidden", "no-ignore", "files", "count", "files-with-matches", "files-without-match", "ignore-case",
             "smart-case", "case-sensitive", "word-regexp", "line-regexp", "invert-match", "fixed-strings",
             "line-number", "no-line-number", "with-filename", "no-filename", "only-matching", "quiet", "text",
             "null", "no-heading", "heading", "column", "vimgrep", "json", "no-messages", "multiline", "pcre2",
             "type-list", "no-config", "count-matches", "stats"}
        ),
        long_valued=frozenset(
            {"regexp", "glob", "iglob", "type", "type-not", "after-context", "before-context", "context",
             "max-count", "max-columns", "sort", "sortr", "color", "colour", "max-depth", "max-filesize"}
        ),
        pattern_first=True,
        no_pattern_flags=frozenset({"files", "type-list"}),
        extra_args=("--no-config",),
    ),
}

# find: starting points, then an expression. Only tests and output-to-stdout actions are listed;
# -exec/-execdir/-ok/-okdir/-delete/-fprint*/-fls (run or write) and -L/-H/-follow (follow
# symlinks) are not. -newer & co. take a path to another file: not listed either.
_FIND_VALUED = frozenset(
    {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type",
     "-size", "-mtime", "-mmin", "-ctime", "-cmin", "-atime", "-amin", "-maxdepth", "-mindepth", "-perm"}
)
_FIND_FLAGS = frozenset(
    {"-print", "-print0", "-prune", "-empty", "-true", "-false", "-readable", "-executable", "-depth",
     "-quit", "-ls", "-not", "-a", "-and", "-o", "-or", "!", "(", ")", "-nowarn", "-mount", "-xdev"}
)
_FIND_LEADING = frozenset({"-P"})  # never follow symlinks (the default, stated explicitly is fine)
_FIND_REASONS = {
    "-exec": "find -exec runs commands", "-execdir": "find -execdir runs commands",
    "-ok": "find -ok runs commands", "-okdir": "find -okdir runs commands",
    "-delete": "find -delete deletes files",
    "-fprint": "find -fprint writes files", "-fprint0": "find -fprint0 writes files",
    "-fprintf": "find -fprintf writes files", "-fls": "find -fls writes files",
    "-L": "find -L follows symlinks", "-H": "find -H follows symlinks", "-follow": "find -follow follows symlinks",
}

ALLOWED_COMMANDS = tuple(sorted([*_GRAMMARS, "find"]))


@dataclass(frozen=True)
class ParsedCommand:
    program: str
    argv: list[str]  # as it will be executed (argv[0] is the absolute program path)
    paths: list[Path]  # resolved path operands, all inside the repository


def _check_raw(command: object) -> str:
    if not isinstance(command, str):
        raise ToolRefused("the command must be a string")
    text = command.strip()
    if not text:
        raise ToolRefused("empty command")
    if len(text) > MAX_COMMAND_CHARS:
        raise ToolRefused(f"command longer than {MAX_COMMAND_CHARS} characters")
    for char, what in _SHELL_META.items():
        if char in text:
            raise ToolRefused(f"shell syntax is not supported: {what}")
    return text


def _parse_getopt(program: str, args: list[str], grammar: _Grammar) -> tuple[list[str], bool]:
    """Walk options like GNU getopt (options may follow operands); returns (operands, pattern_given)."""
    operands: list[str] = []
    pattern_given = False
    no_pattern = False
    end_of_options = False
    i = 0
    while i < len(args):
        arg = args[i]
        if end_of_options or not arg.startswith("-") or arg == "-":
            if arg == "-":
                raise ToolRefused("reading standard input ('-') is not supported")
            operands.append(arg)
        elif arg == "--":
            end_of_options = True
        elif arg.startswith("--"):
            name, eq, _value = arg[2:].partition("=")
            if name in grammar.long_flags and not eq:
                no_pattern = no_pattern or name in grammar.no_pattern_flags
            elif name in grammar.long_valued:
                if not eq:
                    i += 1
                    if i >= len(args):
                        raise ToolRefused(f"option --{name} of {program} needs a value")
                pattern_given = pattern_given or name in grammar.pattern_options
            else:
                raise ToolRefused(f"option --{name} is not allowed for {program}")
        else:
            j = 1
            while j < len(arg):
                char = arg[j]
                if grammar.numeric_shorthand and j == 1 and arg[1:].isdigit():
                    break  # head -20
                if char in grammar.flags:
                    j += 1
                    continue
                if char in grammar.valued:
                    if j + 1 == len(arg):  # value is the next argument
                        i += 1
                        if i >= len(args):
                            raise ToolRefused(f"option -{char} of {program} needs a value")
                    pattern_given = pattern_given or char in grammar.pattern_options
                    break
                raise ToolRefused(f"option -{char} is not allowed for {program}")
        i += 1
    if no_pattern:
        return operands, True
    return operands, pattern_given


def _parse_find(args: list[str]) -> list[str]:
    """Returns the starting points; refuses any expression token not on the allowlist."""
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] not in _FIND_FLAGS | _FIND_VALUED:
        if args[i] not in _FIND_LEADING:
            raise ToolRefused(_FIND_REASONS.get(args[i], f"find option {args[i]} is not allowed"))
        i += 1
    starts: list[str] = []
    while i < len(args) and not args[i].startswith("-") and args[i] not in {"(", ")", "!"}:
        starts.append(args[i])
        i += 1
    while i < len(args):
        token = args[i]
        if token in _FIND_VALUED:
            i += 2
            if i > len(args):
                raise ToolRefused(f"find {token} needs a value")
            continue
        if token in _FIND_FLAGS:
            i += 1
            continue
        raise ToolRefused(_FIND_REASONS.get(token, f"find expression {token!r} is not allowed"))
    return starts


def parse_command(root: Path, command: str) -> ParsedCommand:
    """Check a command against the read-only policy and return what would run. Raises ToolRefused."""
    text = _check_raw(command)
    try:
        argv = shlex.split(text, posix=True)
    except ValueError as error:
        raise ToolRefused(f"cannot parse the command: {error}") from None
    if not argv:
        raise ToolRefused("empty command")
    if len(argv) > MAX_ARGS:
        raise ToolRefused(f"more than {MAX_ARGS} arguments")
    program, args = argv[0], argv[1:]
    if "/" in program or program not in ALLOWED_COMMANDS:
        raise ToolRefused(f"{program!r} is not an allowed command (allowed: {', '.join(ALLOWED_COMMANDS)})")

    if program == "find":
        operands = _parse_find(args)
        extra: tuple[str, ...] = ()
    else:
        grammar = _GRAMMARS[program]
        operands, pattern_given = _parse_getopt(program, args, grammar)
        if grammar.pattern_first and not pattern_given and operands:
            operands = operands[1:]  # the pattern is not a path
        extra = grammar.extra_args
    paths = [resolve_inside(root, operand) for operand in operands]

    executable = shutil.which(program, path=SAFE_PATH)
    if executable is None:
        raise ToolRefused(f"{program} is not installed on this machine")
    return ParsedCommand(program=program, argv=[executable, *extra, *args], paths=paths)
