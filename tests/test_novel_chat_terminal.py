"""`ng chat` in a pseudo-terminal: the start-up summary, a slash command, /quit and Ctrl-C."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "mentor_rift"


def spawn_chat(tmp_path: Path, project_id: str = PROJECT) -> pexpect.spawn:
    projects = tmp_path / "projects"
    if not (projects / PROJECT).exists():
        shutil.copytree(ROOT / "tests" / "data" / "novel" / PROJECT, projects / PROJECT)
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "NOVEL_PROJECTS_DIR": str(projects),
           "LLM_PROVIDER": "offline", "LOCALE": "zh", "COLUMNS": "200"}
    return pexpect.spawn(sys.executable, ["-m", "app.cli", "chat", project_id], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=60, dimensions=(40, 200))


def test_ng_chat_shows_the_summary_then_answers_a_slash_command(tmp_path):
    chat = spawn_chat(tmp_path)
    try:
        chat.expect("已生成 3/4 章")
        chat.expect("对话要简短有力")  # the top preference, before the first prompt
        chat.expect("你>")
        chat.sendline("/prefs")
        chat.expect(r"\[文风\] 对话要简短有力")  # NovelGen's type, named in Chinese
        chat.expect("你>")
        chat.sendline("/quit")
        chat.expect(r"ng chat mentor_rift --thread \w+")
        chat.expect(pexpect.EOF)
    finally:
        chat.close(force=True)
    assert chat.exitstatus == 0


def test_ctrl_c_leaves_cleanly_and_names_the_thread(tmp_path):
    chat = spawn_chat(tmp_path)
    try:
        chat.expect("你>")
        chat.sendintr()
        chat.expect(r"已中断。线程 (\w+) 已保存")
        thread = chat.match.group(1)
        chat.expect(pexpect.EOF)
        assert "Traceback" not in chat.before
    finally:
        chat.close(force=True)
    assert len(thread) >= 8


def test_ng_chat_on_an_unknown_project_names_the_existing_ones(tmp_path):
    other = spawn_chat(tmp_path, "nope")
    other.expect(PROJECT)
    other.expect(pexpect.EOF)
    other.close()
    assert other.exitstatus == 2 and "Traceback" not in other.before


def test_quit_at_a_which_character_question_leaves_with_the_question_kept(tmp_path):
    chat = spawn_chat(tmp_path)
    try:
        chat.expect("你>")
        chat.sendline("他和师父的关系什么时候变了？")
        chat.expect("林远")  # the candidates are listed under the question
        chat.expect("  > ")
        chat.sendline("/quit")
        chat.expect(r"ng chat mentor_rift --thread (\w+)")
        chat.expect(pexpect.EOF)
    finally:
        chat.close(force=True)
    assert chat.exitstatus == 0 and "Traceback" not in chat.before


def redirected_chat(tmp_path: Path, lines: str) -> str:
    """`ng chat` with its input from a file: what it printed."""
    projects = tmp_path / "projects"
    shutil.copytree(ROOT / "tests" / "data" / "novel" / PROJECT, projects / PROJECT)
    questions = tmp_path / "questions.txt"
    questions.write_text(lines, encoding="utf-8")
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "NOVEL_PROJECTS_DIR": str(projects),
           "LLM_PROVIDER": "offline", "LOCALE": "zh", "COLUMNS": "200"}
    with questions.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "app.cli", "chat", PROJECT], cwd=str(ROOT), env=env, stdin=stdin,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_questions_in_a_file_redirected_to_ng_chat_are_each_answered(tmp_path):
    printed = redirected_chat(tmp_path, "/prefs\n/quit\n")
    assert "[文风] 对话要简短有力" in printed and "ng chat mentor_rift --thread" in printed


def test_asking_how_far_the_book_is_written_is_answered_with_its_progress(tmp_path):
    printed = redirected_chat(tmp_path, "现在写到第几章了\n/quit\n")
    assert "要生成到第几章" not in printed and printed.count("项目 mentor_rift：") == 2, printed


def test_asked_whether_someone_knows_a_thing_no_chapter_mentions_the_answer_is_not_yet(tmp_path):
    # "林远知道苏微的身世了吗" was answered with the relation sheet and chapter events, never saying yes or no.
    printed = redirected_chat(tmp_path, "林远知道苏微的身世了吗\n/quit\n")
    assert "已写的 3 章里还没有写到林远知道“苏微的身世”" in printed, printed


def test_asked_whether_someone_knows_a_thing_a_chapter_tells_the_answer_quotes_it(tmp_path):
    printed = redirected_chat(tmp_path, "林远知道父亲的遗书了吗\n/quit\n")
    assert "「林远在藏经阁的暗格里找到了父亲的遗书" in printed and "还没有写到" not in printed, printed


def test_a_plan_to_confirm_is_shown_once_then_asked_with_y_or_n(tmp_path):
    chat = spawn_chat(tmp_path)
    try:
        chat.expect("你>")
        chat.sendline("/rollback 3")
        chat.expect("确认吗？")
        shown = chat.before
        chat.expect("（y/N）")
        chat.sendline("n")
        chat.expect("已取消，没有做任何修改。")
        chat.expect("你>")
        chat.sendline("/quit")
        chat.expect(pexpect.EOF)
    finally:
        chat.close(force=True)
    assert shown.count("回滚到第 3 章之前") == 1, shown
    assert "计划：" not in shown


def test_a_generation_outcome_is_printed_once(tmp_path):
    printed = redirected_chat(tmp_path, "/auto on\n/run 4\n/quit\n")
    assert printed.count("生成完成：第 4 章") == 1, printed


def test_a_command_typed_at_y_or_n_cancels_the_plan_and_is_run(tmp_path):
    printed = redirected_chat(tmp_path, "/rollback 2\n/prefs\n/quit\n")
    assert "已取消待确认的计划" in printed and "[文风] 对话要简短有力" in printed, printed


async def test_the_end_of_redirected_input_closes_the_prompt_line_before_the_goodbye(monkeypatch):
    import io

    from rich.console import Console

    from app.terminal import read_line

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=80)
    assert await read_line(console, "you> ") is None
    console.print("Bye.")
    assert out.getvalue().splitlines() == ["you> ", "Bye."]


async def test_a_chinese_answer_longer_than_the_line_starts_beside_the_speaker_label():
    # "沈墨是谁" printed "助手：" over an empty line: rich breaks only at spaces and moved the whole answer down.
    import io

    from rich.console import Console

    from app.cli_chat import ChatTerminal
    from core.i18n import t

    out = io.StringIO()
    terminal = ChatTerminal(Console(file=out, width=40, color_system=None), "thread")
    answer = "人物设定：沈墨，书中定位：主角；人物关系：楚辰（师父）、顾舟（挚友）、韩瑶（宿敌）。"
    await terminal.on_event("thread", "message", {"content": answer, "final": True})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(t("novel.cli_chat_assistant") + " 人物设定")
    assert "".join(line.strip() for line in lines) == t("novel.cli_chat_assistant") + " " + answer  # nothing lost
