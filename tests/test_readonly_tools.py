"""The read-only repository tools: what they allow works, everything else is refused before it runs,
and nothing on disk changes — inside the repository or outside it."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from core.tools.readonly_repo import (
    PLAN_FILE_NAME,
    ReadOnlyRepo,
    ToolRefused,
    execute_shell_command,
    retrieve_knowledge,
    view_text_file,
    write_text_file,
)
from core.tools.shell_policy import parse_command


@pytest.fixture()
def world(tmp_path: Path) -> dict[str, Path]:
    """A repository with docs and symlinks that leave it, next to an outside directory with a sentinel."""
    outside = tmp_path / "outside"
    outside.mkdir()
    sentinel = outside / "sentinel.txt"
    sentinel.write_text("secret outside the repository\n")
    (outside / "notes.md").write_text("# Outside\nThe outside database is MongoDB.\n")

    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "src").mkdir()
    (repo / "README.md").write_text("# Shop\n\nOrders are stored in PostgreSQL.\n\n## Usage\nRun make test.\n")
    (repo / "docs" / "design.md").write_text("# Design\n\n订单导出使用 CSV 格式。\n\nExports run nightly.\n")
    (repo / "src" / "app.py").write_text("".join(f"line {n}\n" for n in range(1, 51)))
    (repo / "Makefile").write_text("test:\n\tpytest\n")
    (repo / "escape").symlink_to(outside, target_is_directory=True)
    (repo / "link_file").symlink_to(sentinel)
    (repo / "outside_docs").symlink_to(outside, target_is_directory=True)
    return {"root": tmp_path, "repo": repo, "outside": outside, "sentinel": sentinel}


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under root (symlinks not followed): type, size, mtime, content hash or link target."""
    state: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            st = path.lstat()
            if path.is_symlink():
                state[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                state[rel] = ("dir", st.st_mode)
            else:
                state[rel] = ("file", st.st_size, st.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
    return state


# ---------------------------------------------------------------- allowed commands run


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls", "README.md"),
        ("ls -la docs", "design.md"),
        ("cat README.md", "PostgreSQL"),
        ("cat -n src/app.py", "line 50"),
        ("head -n 2 src/app.py", "line 2"),
        ("head -3 src/app.py", "line 3"),
        ("tail -n 1 src/app.py", "line 50"),
        ("wc -l src/app.py", "50"),
        ("grep -rn PostgreSQL .", "README.md:3"),
        ("grep -e Orders README.md", "Orders"),
        ('grep -E "^[a-z]+:" Makefile', "test:"),
        ('find . -name "*.md" -type f', "design.md"),
        ("find docs -maxdepth 1 -not -name x -print", "design.md"),
    ],
)
def test_allowed_read_only_commands_run(world, command, expected):
    result = execute_shell_command(world["repo"], command)
    assert result.ok, result.stderr
    assert expected in result.stdout


def test_recursive_search_does_not_follow_symlinks_out(world):
    # grep -r and find do not follow symlinks met while walking, so the sentinel never shows up.
    for command in ("grep -rn secret .", "find . -name sentinel.txt"):
        result = execute_shell_command(world["repo"], command)
        assert "sentinel" not in result.stdout and "secret" not in result.stdout


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")
def test_rg_runs_when_installed(world):
    result = execute_shell_command(world["repo"], "rg -n PostgreSQL")
    assert "README.md" in result.stdout


# ---------------------------------------------------------------- the refusal corpus

REFUSED = [
    # shell syntax
    "cat README.md; rm -rf .",
    "ls ; rm README.md",
    "cat README.md && rm README.md",
    "cat README.md || touch x",
    "ls & touch x",
    "cat $(echo README.md)",
    "cat ${HOME}/.bashrc",
    "ls $HOME",
    "cat `echo README.md`",
    "cat README.md | sh",
    "grep -r foo . | tee out.txt",
    "ls > listing.txt",
    "ls >> listing.txt",
    "ls 2> err.txt",
    "cat < /etc/passwd",
    "ls\nrm -rf .",
    "cat 'unterminated",
    "",
    # not on the allowlist
    "rm -rf .",
    "touch x",
    "cp README.md x",
    "mv README.md x",
    "tee x",
    "sed -i s/a/b/ README.md",
    "python -c print(1)",
    "sh -c ls",
    "bash",
    "/bin/ls",
    "./ls",
    "env ls",
    # find that runs, deletes, writes or follows
    "find . -exec rm {} +",
    "find . -name x -o -exec rm {} +",
    "find . -execdir rm {} +",
    "find . -ok rm {} +",
    "find . -delete",
    "find . -name README.md -delete",
    "find . -fprint out.txt",
    "find . -fprint0 out.txt",
    "find . -fprintf out.txt %p",
    "find . -fls out.txt",
    "find -L . -name sentinel.txt",
    "find . -follow",
    "find . -newer ../outside/sentinel.txt",
    "find / -name passwd",
    "find escape",
    # grep / rg options that read elsewhere, follow links or run programs
    "grep -R secret .",
    "grep -f ../outside/sentinel.txt README.md",
    "grep --exclude-from=../outside/sentinel.txt x .",
    "grep -r root /etc",
    "grep -e x ../outside/sentinel.txt",
    "grep -d recurse x .",
    "rg --pre cat foo",
    "rg --pre=cat foo .",
    "rg --pre-glob '*' --pre cat foo",
    "rg -L secret",
    "rg --follow secret",
    "rg -z foo",
    "rg --search-zip foo",
    "rg --hostname-bin /bin/sh foo",
    "rg --ignore-file ../outside/sentinel.txt foo",
    "rg foo /etc",
    # other options that follow, wait or read lists of files
    "ls -L escape",
    "tail -f README.md",
    "tail --follow=name README.md",
    "wc --files0-from=../outside/sentinel.txt",
    "cat -",
    # paths outside the repository
    "cat /etc/passwd",
    "cat ../outside/sentinel.txt",
    "head -n 1 ../outside/sentinel.txt",
    "ls ..",
    "ls ../",
    "ls -la /",
    "cat escape/sentinel.txt",
    "cat link_file",
    "wc -l escape/sentinel.txt",
    "grep -r secret escape/",
    "cat docs/../../outside/sentinel.txt",
]


def test_refusal_corpus_refuses_everything_and_changes_nothing(world):
    before = snapshot(world["root"])
    tools = ReadOnlyRepo(world["repo"])
    for command in REFUSED:
        with pytest.raises(ToolRefused) as refused:
            tools.execute_shell_command(command)
        assert refused.value.reason, command  # a clear sentence, not an empty refusal
    assert snapshot(world["root"]) == before
    assert world["sentinel"].read_text() == "secret outside the repository\n"


def test_refusal_names_the_problem(world):
    root = world["repo"].resolve()
    expectations = {
        "cat README.md; rm -rf .": ";",
        "cat $(whoami)": "substitution",
        "cat `whoami`": "backticks",
        "ls | sh": "pipes",
        "ls > x": "redirection",
        "find . -exec rm {} +": "-exec",
        "find . -delete": "-delete",
        "find . -fprint x": "-fprint",
        "rg --pre cat foo": "--pre",
        "cat ../outside/sentinel.txt": "outside the repository",
        "cat link_file": "outside the repository",
        "rm -rf .": "not an allowed command",
    }
    for command, fragment in expectations.items():
        with pytest.raises(ToolRefused) as refused:
            parse_command(root, command)
        assert fragment in refused.value.reason, (command, refused.value.reason)


def test_refusals_for_odd_input(world):
    tools = ReadOnlyRepo(world["repo"])
    for bad in (None, 42, "x" * 5000, "ls " + " ".join(["a"] * 100)):
        with pytest.raises(ToolRefused):
            tools.execute_shell_command(bad)  # type: ignore[arg-type]
    with pytest.raises(ToolRefused):
        ReadOnlyRepo(world["root"] / "missing")


def test_timeout_kills_a_blocked_command(world):
    fifo = world["repo"] / "pipe"
    os.mkfifo(fifo)  # cat on a FIFO with no writer blocks forever
    result = execute_shell_command(world["repo"], "cat pipe", timeout_s=0.5)
    assert result.timed_out and not result.ok


def test_output_is_capped(world):
    (world["repo"] / "big.txt").write_text("x" * 200_000)
    result = execute_shell_command(world["repo"], "cat big.txt", max_output_bytes=1000)
    assert result.truncated and len(result.stdout) == 1000


def test_child_environment_is_clean(world, monkeypatch):
    # A config file named by the environment could inject `rg --pre`; children never see it.
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", str(world["sentinel"]))
    monkeypatch.setenv("GREP_OPTIONS", "--recursive")
    parsed = parse_command(world["repo"].resolve(), "grep -n Orders README.md")
    assert parsed.argv[0].startswith("/")
    result = execute_shell_command(world["repo"], "grep -n Orders README.md")
    assert result.ok


# ---------------------------------------------------------------- view_text_file


def test_view_text_file_range(world):
    view = view_text_file(world["repo"], "src/app.py", 10, 12)
    assert view.text.splitlines() == ["line 10", "line 11", "line 12"]
    assert (view.start_line, view.end_line, view.total_lines) == (10, 12, 50)
    assert view.numbered().splitlines()[0].strip().startswith("10")


@pytest.mark.parametrize(
    "path", ["../outside/sentinel.txt", "link_file", "escape/sentinel.txt", "/etc/passwd", "docs", "missing.md", ""]
)
def test_view_text_file_refuses(world, path):
    with pytest.raises(ToolRefused):
        view_text_file(world["repo"], path)


def test_view_text_file_refuses_binary(world):
    (world["repo"] / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    with pytest.raises(ToolRefused):
        view_text_file(world["repo"], "blob.bin")


# ---------------------------------------------------------------- write_text_file


def test_write_refused_without_authorisation(world):
    before = snapshot(world["root"])
    with pytest.raises(ToolRefused) as refused:
        write_text_file(world["repo"], PLAN_FILE_NAME, "# plan\n")
    assert "authoris" in refused.value.reason
    assert snapshot(world["root"]) == before


def test_write_only_the_plan_file_at_the_root(world):
    before = snapshot(world["root"])
    for path in ("README.md", "docs/IMPLEMENTATION_PLAN.md", "../IMPLEMENTATION_PLAN.md", "/tmp/IMPLEMENTATION_PLAN.md",
                 "escape/IMPLEMENTATION_PLAN.md", "src/../../IMPLEMENTATION_PLAN.md", "plan.md"):
        with pytest.raises(ToolRefused):
            write_text_file(world["repo"], path, "# plan\n", authorised=True)
    assert snapshot(world["root"]) == before

    written = write_text_file(world["repo"], PLAN_FILE_NAME, "# plan\n", authorised=True)
    assert written == world["repo"].resolve() / PLAN_FILE_NAME
    after = snapshot(world["root"])
    assert set(after) - set(before) == {f"repo/{PLAN_FILE_NAME}"}
    assert {k: v for k, v in after.items() if k in before} == before


def test_write_refuses_a_symlinked_plan_file(world):
    (world["repo"] / PLAN_FILE_NAME).symlink_to(world["sentinel"])
    before = snapshot(world["root"])
    with pytest.raises(ToolRefused):
        write_text_file(world["repo"], PLAN_FILE_NAME, "overwritten\n", authorised=True)
    assert world["sentinel"].read_text() == "secret outside the repository\n"
    assert snapshot(world["root"]) == before


# ---------------------------------------------------------------- retrieve_knowledge


def test_retrieve_knowledge_ranks_doc_passages(world):
    hits = retrieve_knowledge(world["repo"], "where are orders stored database")
    assert hits and hits[0].path == "README.md"
    assert hits[0].start_line >= 1 and hits[0].end_line >= hits[0].start_line
    assert "PostgreSQL" in hits[0].text


def test_retrieve_knowledge_handles_chinese(world):
    hits = retrieve_knowledge(world["repo"], "订单导出")
    assert hits and hits[0].path == "docs/design.md"


def test_retrieve_knowledge_stays_inside(world):
    # outside_docs/ and escape/ point outside: their notes.md (MongoDB) must never be indexed.
    tools = ReadOnlyRepo(world["repo"])
    assert all(not path.startswith(("outside_docs", "escape")) for path in tools.index.files)
    assert not [hit for hit in tools.retrieve_knowledge("MongoDB outside database") if "MongoDB" in hit.text]
    with pytest.raises(ToolRefused):
        tools.retrieve_knowledge("   ")
