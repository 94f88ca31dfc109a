"""Read-only tools over a target repository, for the requirement flow's discovery step.

- `retrieve_knowledge`: BM25 over chunks of the repository's docs (README*, docs/, *.md); no model.
- `view_text_file`: a text file or a line range of it.
- `execute_shell_command`: ls, cat, grep, rg, find, head, tail, wc — parsed with shlex and run
  WITHOUT a shell, cwd = the repository, every path operand resolved (symlinks too) and required to
  stay inside, options checked against a per-command allowlist, a clean environment, a timeout and
  an output cap.
- `write_text_file`: refused unless authorised, and then only `IMPLEMENTATION_PLAN.md` at the root.

Anything outside that policy raises `ToolRefused(reason)` before a process is started.
"""

from __future__ import annotations

import math
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

PLAN_FILE_NAME = "IMPLEMENTATION_PLAN.md"

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MAX_OUTPUT_BYTES = 64_000
MAX_COMMAND_CHARS = 2_000
MAX_ARGS = 64
MAX_VIEW_LINES = 400
MAX_VIEW_BYTES = 512_000
MAX_WRITE_BYTES = 1_000_000

# Fixed, minimal environment for child processes: an inherited RIPGREP_CONFIG_PATH could inject
# `--pre`, GREP_OPTIONS could add options, PATH could point at look-alike binaries.
_SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
_CHILD_ENV = {"PATH": _SAFE_PATH, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}

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


class ToolRefused(Exception):
    """A tool call outside the read-only policy; nothing was executed or written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        # Shown to the user by the node hooks if it ever escapes a node.
        self.user_message = f"Refused by the read-only repository tools: {reason}"


# ---------------------------------------------------------------- paths


def resolve_repo(repo: str | os.PathLike[str]) -> Path:
    """The repository root, absolute with symlinks resolved; it must be an existing directory."""
    raw = os.fspath(repo)
    if not raw or "\x00" in raw:
        raise ToolRefused("no repository path given")
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise ToolRefused(f"repository path {raw!r} is not a directory")
    return path.resolve(strict=True)


def _inside(root: Path, candidate: Path) -> bool:
    return candidate == root or root in candidate.parents


def resolve_inside(root: Path, raw: str) -> Path:
    """Resolve `raw` (relative to the root, or absolute) following symlinks; refuse if it leaves the root."""
    if "\x00" in raw:
        raise ToolRefused("path contains a NUL byte")
    candidate = Path(raw)
    full = (candidate if candidate.is_absolute() else root / candidate).resolve(strict=False)
    if not _inside(root, full):
        raise ToolRefused(f"path {raw!r} is outside the repository")
    return full


def _relative(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() or "."


# ---------------------------------------------------------------- shell policy


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

    executable = shutil.which(program, path=_SAFE_PATH)
    if executable is None:
        raise ToolRefused(f"{program} is not installed on this machine")
    return ParsedCommand(program=program, argv=[executable, *extra, *args], paths=paths)


@dataclass
class ShellResult:
    command: str
    returncode: int | None
    stdout: str
    stderr: str
    truncated: bool = False
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def _run_capped(argv: list[str], cwd: Path, timeout_s: float, max_bytes: int) -> tuple[int | None, bytes, bytes, bool, bool]:
    """Run argv (no shell), read at most `max_bytes` per stream, kill the process group on timeout or overflow."""
    proc = subprocess.Popen(
        argv, cwd=cwd, env=_CHILD_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        close_fds=True, start_new_session=True,
    )
    buffers = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    truncated = timed_out = False
    deadline = time.monotonic() + timeout_s
    with selectors.DefaultSelector() as selector:
        for stream in buffers:
            selector.register(stream, selectors.EVENT_READ)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(remaining):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer = buffers[key.fileobj]
                buffer.extend(chunk)
                if len(buffer) > max_bytes:
                    del buffer[max_bytes:]
                    truncated = True
            if truncated:
                break
    if timed_out or truncated:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        returncode = proc.wait(timeout=2)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL above makes this unlikely
        proc.kill()
        returncode = proc.wait()
    for stream in buffers:
        stream.close()
    return (None if timed_out else returncode), bytes(buffers[proc.stdout]), bytes(buffers[proc.stderr]), truncated, timed_out


# ---------------------------------------------------------------- knowledge retrieval (BM25)

_DOC_EXTENSIONS = {".md", ".markdown", ".rst", ".txt", ".adoc"}
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "env", "__pycache__", "dist", "build",
              ".tox", ".mypy_cache", ".pytest_cache", "target", ".idea", ".vscode", "site-packages"}
_MAX_DOC_FILES = 400
_MAX_DOC_BYTES = 256_000
_CHUNK_LINES = 30
_WORD = re.compile(r"[a-z0-9_]+")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def tokenize(text: str) -> list[str]:
    """Lower-case ASCII words plus CJK character bigrams (a CJK run of one character is its own token)."""
    lowered = text.lower()
    tokens = [w for w in _WORD.findall(lowered) if len(w) > 1 or w.isdigit()]
    for run in _CJK_RUN.findall(lowered):
        if len(run) == 1:
            tokens.append(run)
        tokens.extend(run[k : k + 2] for k in range(len(run) - 1))
    return tokens


@dataclass(frozen=True)
class DocChunk:
    path: str
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True)
class KnowledgeHit:
    path: str
    start_line: int
    end_line: int
    score: float
    text: str

    @property
    def source(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "start_line": self.start_line, "end_line": self.end_line,
                "score": round(self.score, 4), "text": self.text, "source": self.source}


def _is_doc(rel: Path) -> bool:
    name = rel.name.lower()
    if name.startswith("readme"):
        return True
    if rel.suffix.lower() not in _DOC_EXTENSIONS:
        return False
    return rel.suffix.lower() in {".md", ".markdown"} or (rel.parts[0].lower() in {"docs", "doc"})


def _chunk_file(rel: str, text: str) -> list[DocChunk]:
    """Split at markdown headings and every _CHUNK_LINES lines; remember 1-based line numbers."""
    lines = text.splitlines()
    chunks: list[DocChunk] = []
    start = 0
    for index in range(len(lines) + 1):
        at_end = index == len(lines)
        heading = not at_end and lines[index].lstrip().startswith("#") and index > start
        if at_end or heading or index - start >= _CHUNK_LINES:
            body = "\n".join(lines[start:index]).strip()
            if body:
                chunks.append(DocChunk(rel, start + 1, index, body))
            start = index
    return chunks


class KnowledgeIndex:
    """BM25 (k1=1.5, b=0.75) over documentation chunks of one repository."""

    def __init__(self, chunks: list[DocChunk]) -> None:
        self.chunks = chunks
        self._tokens = [Counter(tokenize(f"{c.path}\n{c.text}")) for c in chunks]
        self._lengths = [sum(t.values()) for t in self._tokens]
        self._avg = (sum(self._lengths) / len(self._lengths)) if chunks else 0.0
        df: Counter[str] = Counter()
        for tokens in self._tokens:
            df.update(tokens.keys())
        n = len(chunks)
        self._idf = {term: math.log(1 + (n - d + 0.5) / (d + 0.5)) for term, d in df.items()}

    @classmethod
    def build(cls, root: Path) -> KnowledgeIndex:
        chunks: list[DocChunk] = []
        files = 0
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
            for filename in sorted(filenames):
                path = Path(dirpath) / filename
                rel = path.relative_to(root)
                if not _is_doc(rel):
                    continue
                real = path.resolve()
                # A symlinked doc is indexed only if it points inside the repository.
                if not _inside(root, real) or not real.is_file():
                    continue
                try:
                    with open(real, "rb") as handle:
                        data = handle.read(_MAX_DOC_BYTES)
                except OSError:
                    continue
                if b"\x00" in data[:4096]:
                    continue
                chunks.extend(_chunk_file(rel.as_posix(), data.decode("utf-8", errors="replace")))
                files += 1
                if files >= _MAX_DOC_FILES:
                    return cls(chunks)
        return cls(chunks)

    @property
    def files(self) -> list[str]:
        return sorted({c.path for c in self.chunks})

    def search(self, query: str, top_k: int = 5, exclude_paths: frozenset[str] = frozenset()) -> list[KnowledgeHit]:
        terms = set(tokenize(query))
        if not terms or not self.chunks:
            return []
        k1, b = 1.5, 0.75
        scored: list[tuple[float, int]] = []
        for index, tokens in enumerate(self._tokens):
            if self.chunks[index].path in exclude_paths:
                continue
            score = 0.0
            norm = k1 * (1 - b + b * self._lengths[index] / (self._avg or 1))
            for term in terms:
                tf = tokens.get(term)
                if tf:
                    score += self._idf[term] * tf * (k1 + 1) / (tf + norm)
            if score > 0:
                scored.append((score, index))
        scored.sort(key=lambda item: (-item[0], item[1]))
        hits = []
        for score, index in scored[: max(1, top_k)]:
            chunk = self.chunks[index]
            hits.append(KnowledgeHit(chunk.path, chunk.start_line, chunk.end_line, score, chunk.text[:1500]))
        return hits


# ---------------------------------------------------------------- the tools


@dataclass
class FileView:
    path: str
    start_line: int
    end_line: int
    total_lines: int
    text: str
    truncated: bool = False

    def numbered(self) -> str:
        return "\n".join(f"{self.start_line + k:>5}  {line}" for k, line in enumerate(self.text.splitlines()))


@dataclass
class ReadOnlyRepo:
    """The four tools bound to one repository; the knowledge index is built once, on first use."""

    repo: str | os.PathLike[str]
    allow_write: bool = False
    root: Path = field(init=False)
    _index: KnowledgeIndex | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.root = resolve_repo(self.repo)

    @property
    def index(self) -> KnowledgeIndex:
        if self._index is None:
            self._index = KnowledgeIndex.build(self.root)
        return self._index

    def retrieve_knowledge(self, query: str, top_k: int = 5, exclude_paths: Collection[str] = ()) -> list[KnowledgeHit]:
        """Docs passages (README*, docs/, *.md) that best match `query`, best first."""
        if not isinstance(query, str) or not query.strip():
            raise ToolRefused("empty query")
        return self.index.search(query[:2000], top_k=min(max(top_k, 1), 20), exclude_paths=frozenset(exclude_paths))

    def view_text_file(self, path: str, start_line: int = 1, end_line: int | None = None) -> FileView:
        """Lines `start_line..end_line` (1-based, inclusive) of a text file inside the repository."""
        if not isinstance(path, str) or not path:
            raise ToolRefused("no file path given")
        full = resolve_inside(self.root, path)
        if not full.is_file():
            raise ToolRefused(f"{path!r} is not a regular file in the repository")
        if start_line < 1 or (end_line is not None and end_line < start_line):
            raise ToolRefused(f"bad line range {start_line}..{end_line}")
        with open(full, "rb") as handle:
            data = handle.read(MAX_VIEW_BYTES + 1)
        if b"\x00" in data[:8192]:
            raise ToolRefused(f"{path!r} looks like a binary file")
        truncated = len(data) > MAX_VIEW_BYTES
        lines = data[:MAX_VIEW_BYTES].decode("utf-8", errors="replace").splitlines()
        last = len(lines) if end_line is None else min(end_line, len(lines))
        if last - start_line + 1 > MAX_VIEW_LINES:
            last = start_line + MAX_VIEW_LINES - 1
            truncated = True
        chosen = lines[start_line - 1 : last]
        return FileView(_relative(self.root, full), start_line, start_line + max(len(chosen), 1) - 1, len(lines),
                        "\n".join(chosen), truncated)

    def execute_shell_command(
        self, command: str, *, timeout_s: float = DEFAULT_TIMEOUT_S, max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    ) -> ShellResult:
        """Run one allowed read-only command without a shell, inside the repository."""
        parsed = parse_command(self.root, command)
        code, out, err, truncated, timed_out = _run_capped(parsed.argv, self.root, timeout_s, max_output_bytes)
        return ShellResult(command.strip(), code, out.decode("utf-8", errors="replace"),
                           err.decode("utf-8", errors="replace"), truncated, timed_out)

    def write_text_file(self, path: str, content: str) -> Path:
        """Write IMPLEMENTATION_PLAN.md at the repository root — only when authorised, and nothing else."""
        if not self.allow_write:
            raise ToolRefused("writing is disabled; it needs explicit authorisation (--write / options.write=true)")
        if not isinstance(content, str):
            raise ToolRefused("content must be text")
        encoded = content.encode("utf-8")
        if len(encoded) > MAX_WRITE_BYTES:
            raise ToolRefused(f"content larger than {MAX_WRITE_BYTES} bytes")
        if not isinstance(path, str) or not path:
            raise ToolRefused("no file path given")
        expected = self.root / PLAN_FILE_NAME
        lexical = Path(path) if Path(path).is_absolute() else self.root / path
        # Compare lexically first (so docs/IMPLEMENTATION_PLAN.md or ../ never qualify), then resolved
        # (so an IMPLEMENTATION_PLAN.md symlink pointing elsewhere does not either).
        if Path(os.path.normpath(lexical)) != expected:
            raise ToolRefused(f"only {PLAN_FILE_NAME} at the repository root may be written, not {path!r}")
        if expected.is_symlink() or resolve_inside(self.root, PLAN_FILE_NAME) != expected:
            raise ToolRefused(f"{PLAN_FILE_NAME} is a symlink; refusing to write through it")
        if expected.exists() and not expected.is_file():
            raise ToolRefused(f"{PLAN_FILE_NAME} exists and is not a regular file")
        # O_NOFOLLOW closes the gap between the check and the open.
        fd = os.open(expected, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(encoded)
        return expected


# Module-level forms (one call, one repository).


def retrieve_knowledge(
    repo: str | os.PathLike[str], query: str, top_k: int = 5, exclude_paths: Collection[str] = ()
) -> list[KnowledgeHit]:
    return ReadOnlyRepo(repo).retrieve_knowledge(query, top_k, exclude_paths)


def view_text_file(repo: str | os.PathLike[str], path: str, start_line: int = 1, end_line: int | None = None) -> FileView:
    return ReadOnlyRepo(repo).view_text_file(path, start_line, end_line)


def execute_shell_command(
    repo: str | os.PathLike[str], command: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
) -> ShellResult:
    return ReadOnlyRepo(repo).execute_shell_command(command, timeout_s=timeout_s, max_output_bytes=max_output_bytes)


def write_text_file(repo: str | os.PathLike[str], path: str, content: str, *, authorised: bool = False) -> Path:
    return ReadOnlyRepo(repo, allow_write=authorised).write_text_file(path, content)
