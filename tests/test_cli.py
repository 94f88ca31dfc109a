"""`ng` from a terminal: a deck from a topic, the thread list, resume refusals."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pptx import Presentation

from core.i18n import t

ROOT = Path(__file__).resolve().parents[1]


def ng(*args: str, data_dir: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path, Path]:
    """`ng ppt --out deck.pptx` run once: (its result, the data folder, the deck)."""
    folder = tmp_path_factory.mktemp("ng-ppt")
    out = folder / "deck.pptx"
    result = ng("ppt", "做一个关于化学反应速率的5分钟PPT", "--out", str(out), data_dir=folder / "data", cwd=ROOT)
    return result, folder / "data", out


def test_ng_ppt_writes_a_deck_and_lists_the_thread(made):
    result, data, out = made
    assert result.returncode == 0, result.stdout + result.stderr
    assert t("nodes.generate_slides") in result.stdout and "已保存" in result.stdout  # stages by their names
    assert len(Presentation(str(out)).slides) > 3

    listed = ng("threads", data_dir=data, cwd=ROOT)
    assert listed.returncode == 0 and t("flows.ppt_title") in listed.stdout and t("runtime.status_done") in listed.stdout


def test_ng_ppt_with_thread_takes_feedback_on_that_deck_says_what_changed_and_saves_it_again(made):
    result, data, out = made
    thread_id = re.search(r"[0-9a-f]{32}", result.stdout).group(0)
    pages = len(Presentation(str(out)).slides)

    edited = ng("ppt", "--thread", thread_id, "删掉最后一页", data_dir=data, cwd=ROOT)

    assert edited.returncode == 0, edited.stdout + edited.stderr
    assert f"已删除原第 {pages} 页" in edited.stdout, edited.stdout
    assert "质检仍有" not in edited.stdout, "the shorter deck passes its checks"
    assert len(Presentation(str(out)).slides) == pages - 1


def test_ng_ppt_with_an_unquoted_topic_of_several_words_makes_one_deck_on_all_of_them(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    out = tmp_path / "deck.pptx"
    assert main(["ppt", "beekeeping", "for", "city", "rooftops,", "5", "minutes", "--out", str(out)]) == 0
    assert len(Presentation(str(out)).slides) > 3
    assert "Beekeeping for city rooftops" in Presentation(str(out)).slides[0].shapes.title.text


def test_ng_ppt_with_out_naming_a_folder_says_so_before_making_a_deck(tmp_path):
    result = ng("ppt", "做一个关于摩擦力的5分钟PPT", "--out", str(tmp_path), data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "无法写入" in result.stdout and "文件夹" in result.stdout
    assert t("nodes.generate_slides") not in result.stdout, "no run was started"


def test_ng_ppt_with_out_and_no_topic_says_no_file_was_written_and_exits_1(tmp_path):
    out = tmp_path / "deck.pptx"
    result = ng("ppt", "你好", "--out", str(out), data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 1, result.stdout + result.stderr
    assert t("ppt.no_topic") in result.stdout
    assert "未写入" in result.stdout and "已完成" not in result.stdout
    assert not out.exists()


def test_ng_ppt_whose_deck_cannot_be_written_says_why_and_how_to_save_it(tmp_path):
    # `--out deck` is written as deck.pptx, which here is a folder: found only when the deck is saved.
    (tmp_path / "deck.pptx").mkdir()
    result = ng("ppt", "做一个关于摩擦力的5分钟PPT", "--out", str(tmp_path / "deck"), data_dir=tmp_path / "data",
                cwd=ROOT)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "无法写入" in result.stdout and "ng export" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_ng_resume_of_an_unknown_thread_says_so(tmp_path):
    result = ng("resume", "no-such-thread", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert "没有找到线程" in result.stdout


def seed_thread(data_dir: Path, thread_id: str, title: str) -> Path:
    """A finished thread with one event and one artifact file, as a run leaves it; returns the file."""
    import asyncio

    from app.store import Store
    from core.settings import Settings

    settings = Settings(_env_file=None, data_dir=data_dir)

    async def seed() -> Path:
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.create_thread(thread_id, "ppt", title, {})
            await store.append_event(thread_id, "r", "completion", {"success": True})
            await store.save_artifact(thread_id, {"id": f"{thread_id}-deck", "type": "pptx", "title": "deck", "content": {}},
                                      origin="task/pptx", file=b"pptx", file_name="deck.pptx")
            return (await store.artifact_file(f"{thread_id}-deck"))[0]
        finally:
            await store.close()

    return asyncio.run(seed())


def test_ng_threads_rename_gives_a_thread_a_new_title(tmp_path):
    seed_thread(tmp_path / "data", "t1", "旧标题")
    renamed = ng("threads", "rename", "t1", "光合作用复习", data_dir=tmp_path / "data", cwd=ROOT)
    assert renamed.returncode == 0, renamed.stdout + renamed.stderr
    assert t("cli.thread_renamed", thread="t1", title="光合作用复习") in renamed.stdout
    listed = ng("threads", data_dir=tmp_path / "data", cwd=ROOT)
    assert "光合作用复习" in listed.stdout and "旧标题" not in listed.stdout


def test_ng_threads_list_lists_the_threads_as_ng_threads_does(tmp_path):
    seed_thread(tmp_path / "data", "t1", "光合作用复习")
    listed = ng("threads", "list", data_dir=tmp_path / "data", cwd=ROOT)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "t1" in listed.stdout and "光合作用复习" in listed.stdout


def test_ng_export_takes_the_first_characters_of_the_id_the_deck_was_saved_under(tmp_path, monkeypatch, capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "53f7cd44a1b2c3d4e5f60718293a4b5c", "浮力")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")
    assert main(["export", "53f7cd44", "--out", str(tmp_path / "copy")]) == 0, capsys.readouterr().out
    assert (tmp_path / "copy.pptx").read_bytes() == b"pptx"


def test_ng_threads_delete_with_a_start_two_threads_share_names_both_and_deletes_nothing(tmp_path, monkeypatch, capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "abcd1111", "光合作用")
    seed_thread(tmp_path / "data", "abcd2222", "浮力")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")
    assert main(["threads", "delete", "abcd", "--yes"]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "abcd1111（光合作用）" in said and "abcd2222（浮力）" in said and "多写几位" in said
    assert main(["threads"]) == 0 and "abcd1111" in capsys.readouterr().out


@pytest.mark.parametrize("locale, named", [("zh", "小说生成"), ("en", "Novel generation")])
def test_ng_threads_names_each_flow_as_the_canvas_picker_does_not_by_its_id(tmp_path, monkeypatch, capsys, locale, named):
    import asyncio

    from app.cli import main
    from app.store import Store
    from core.settings import Settings

    settings = Settings(_env_file=None, data_dir=tmp_path / "data")

    async def seed() -> None:
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.create_thread("n1", "novel_workflow", "灯塔", {})
        finally:
            await store.close()

    asyncio.run(seed())
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", locale)
    assert main(["threads"]) == 0
    said = capsys.readouterr().out
    assert named in said and "novel_workflow" not in said, said


def test_ng_threads_delete_without_a_terminal_refuses_unless_told_yes(tmp_path):
    deck = seed_thread(tmp_path / "data", "t1", "要删的会话")
    refused = ng("threads", "delete", "t1", data_dir=tmp_path / "data", cwd=ROOT)
    assert refused.returncode == 2 and t("cli.delete_needs_yes", thread="t1") in refused.stdout
    assert deck.exists() and "t1" in ng("threads", data_dir=tmp_path / "data", cwd=ROOT).stdout

    deleted = ng("threads", "delete", "t1", "--yes", data_dir=tmp_path / "data", cwd=ROOT)
    assert deleted.returncode == 0, deleted.stdout + deleted.stderr
    assert not deck.exists() and "t1" not in ng("threads", data_dir=tmp_path / "data", cwd=ROOT).stdout


def test_ng_threads_delete_of_a_running_thread_calls_it_a_thread_as_ng_does(tmp_path, monkeypatch, capsys):
    # The refusal is the runtime's, shared with the canvas (which says 会话); `ng` says 线程 everywhere.
    import asyncio

    from app.cli import main
    from app.store import Store
    from core.settings import Settings
    from schemas.events import ThreadStatus

    seed_thread(tmp_path / "data", "t1", "光合作用复习")

    async def mark_running() -> None:
        settings = Settings(_env_file=None, data_dir=tmp_path / "data")
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.update_thread("t1", status=ThreadStatus.running)
        finally:
            await store.close()

    asyncio.run(mark_running())
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")

    assert main(["threads", "delete", "t1", "--yes"]) != 0
    said = " ".join(capsys.readouterr().out.split())
    assert "线程「光合作用复习」正在运行" in said and "会话" not in said


def test_ng_threads_rename_of_an_unknown_id_says_thread_as_ng_does(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")
    assert main(["threads", "rename", "no-such-id", "新标题"]) != 0
    said = " ".join(capsys.readouterr().out.split())
    assert "没有找到线程 no-such-id" in said and "会话" not in said


def test_ng_ppt_help_names_the_default_file_as_it_is_saved(monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("LOCALE", "en")
    with pytest.raises(SystemExit):
        main(["ppt", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    # A deck saved without --out is named after the thread id's first 8 characters (53f7cd44.pptx), not the whole id.
    assert "first 8 characters of the thread id" in said and "<thread>.pptx" not in said


def test_ng_resume_without_an_answer_of_a_thread_waiting_on_one_names_the_answer_option(tmp_path, monkeypatch, capsys):
    import asyncio

    from app.cli import main
    from app.store import Store
    from core.settings import Settings
    from schemas.events import ThreadStatus

    async def waiting_on_a_question() -> None:
        settings = Settings(_env_file=None, data_dir=tmp_path / "data")
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.create_thread("t1", "requirement", "借书小程序", {})
            question = {"interruptId": "i1", "kind": "clarification", "payload": {"questions": []}}
            await store.update_thread("t1", status=ThreadStatus.interrupted, pending_interrupt=question)
        finally:
            await store.close()

    asyncio.run(waiting_on_a_question())
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")

    assert main(["resume", "t1"]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "ng resume t1 --answer" in said and "作为 answer" not in said


def test_ng_export_to_a_folder_is_refused_not_written_beside_it(tmp_path, monkeypatch, capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "t1", "光合作用")
    folder = tmp_path / "decks"
    folder.mkdir()
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")

    assert main(["export", "t1", "--out", str(folder)]) == 1
    said = " ".join(capsys.readouterr().out.split())
    assert t("cli.out_is_folder") in said
    assert not (tmp_path / "decks.pptx").exists(), "no file appears next to the folder"


def test_ng_threads_rename_to_a_too_long_title_calls_it_a_thread_as_ng_does(tmp_path, monkeypatch, capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "t1", "光合作用")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")

    assert main(["threads", "rename", "t1", "光" * 90]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "线程名称有 90 个字符" in said and "会话" not in said


@pytest.mark.parametrize("command", ["ppt", "plan", "legal", "chat"])
def test_every_thread_option_shows_the_same_placeholder(command, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("LOCALE", "en")
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "--thread ID" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["ppt"], ["resume"], ["export"], ["legal"], ["novel", "export"]])
def test_every_out_option_shows_the_same_placeholder(command, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("LOCALE", "en")
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    assert "--out PATH" in capsys.readouterr().out


def chinese_help(command: list[str], monkeypatch, capsys) -> str:
    from app.cli import main

    monkeypatch.setenv("LOCALE", "zh")
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    return capsys.readouterr().out


def test_chinese_help_headings_end_with_a_chinese_colon(monkeypatch, capsys):
    said = chinese_help(["ppt"], monkeypatch, capsys)
    assert "位置参数：\n" in said and "选项：\n" in said
    assert "位置参数:" not in said and "选项:" not in said


def test_ng_novel_init_help_names_the_option_values_in_chinese(monkeypatch, capsys):
    said = chinese_help(["novel", "init"], monkeypatch, capsys)
    assert "--world 世界观" in said and "--author 作者" in said
    assert not re.search(r"WORLD|THEME|CHAPTERS|AUTHOR", said), said


@pytest.mark.parametrize("command", [["novel", "init"], ["ppt"], ["export"], ["plan"]])
def test_chinese_help_keeps_its_columns_in_an_80_column_terminal(command, monkeypatch, capsys):
    from rich.cells import cell_len

    said = chinese_help(command, monkeypatch, capsys)
    assert max(cell_len(line) for line in said.splitlines()) <= 80, said
    # Every option's sentence starts in the same column, whether its name is Chinese or not.
    names = re.findall(r"^(  (?:-h, --help|--\S+ \S+|[^\s-]\S*(?: ID)?) +)\S", said, flags=re.MULTILINE)
    assert len(names) >= 3 and len({cell_len(name) for name in names}) == 1, said


def test_ng_export_without_arguments_keeps_the_thread_placeholder_whole_in_chinese(monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("LOCALE", "zh")
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["export"])
    said = capsys.readouterr().err
    usage = said.split("ng export：错误")[0]
    assert "线程编号" in usage and not re.search(r"线程\s*$", usage, flags=re.MULTILINE), said
    assert said.strip().endswith("缺少必需的参数：线程编号、--out"), said


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_ng_serve_on_a_port_that_cannot_exist_is_a_usage_error(port, capsys):
    from app.cli import build_parser

    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["serve", "--port", port])
    said = capsys.readouterr().err
    assert stopped.value.code == 2 and t("cli.port_out_of_range", value=port) in said, said


def test_ng_threads_piped_at_80_columns_keeps_each_title_whole_on_its_thread_line(tmp_path, monkeypatch, capsys):
    from app.cli import main

    title = "给物流公司的新司机讲冷链运输中的温度记录与交接规范"
    seed_thread(tmp_path / "data", "5f1c0a9e2b7d4c3a8e6f9b0d1a2c3e4f", title)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["threads"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("5f1c0a9e2b7d4c3a8e6f9b0d1a2c3e4f" in line and title in line for line in lines), "\n".join(lines)


def test_ng_threads_on_a_new_data_dir_says_how_to_start_one(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")
    assert main(["threads"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "还没有线程" in said and "ng ppt" in said


def test_ng_ppt_without_a_topic_names_what_is_missing_in_chinese(tmp_path):
    result = ng("ppt", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert t("argparse.required") % t("cli.metavar_topic") in result.stderr
    assert "topic" not in result.stderr


def test_ng_with_a_wrong_action_names_the_slot_in_chinese_not_its_python_name(tmp_path):
    result = ng("threads", "remove", "t1", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2 and "'rename'、'delete'" in result.stderr
    assert "threads_command" not in result.stderr and t("cli.metavar_action") in result.stderr


def test_ng_novel_alone_lists_its_subcommands_instead_of_a_bare_error(tmp_path):
    result = ng("novel", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert t("novel.cli_run_help") in result.stderr and t("novel.cli_init_help") in result.stderr
    assert "novel_command" not in result.stderr


def test_ng_novel_run_of_a_project_that_does_not_exist_says_how_to_create_it(tmp_path):
    result = ng("novel", "run", "灯塔", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert t("cli.novel_init_hint", project="灯塔") in result.stdout


def test_ng_chat_on_a_project_that_does_not_exist_says_how_to_create_it(tmp_path):
    result = ng("chat", "灯塔", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert t("cli.novel_init_hint", project="灯塔") in result.stdout


def test_ng_export_of_an_artifact_the_thread_lacks_is_a_wrong_option_naming_the_ones_it_has(tmp_path, monkeypatch,
                                                                                              capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "t1", "一份幻灯片")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")

    assert main(["export", "t1", "--artifact", "docx", "--out", str(tmp_path / "x")]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert said == "Thread t1 has no artifact docx; its artifact types are pptx (pick one with --artifact).", said


def test_ng_export_of_a_version_that_does_not_exist_is_a_wrong_option_saying_which_exist(tmp_path, monkeypatch,
                                                                                         capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "t1", "一份幻灯片")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")

    assert main(["export", "t1", "--version", "3", "--out", str(tmp_path / "x")]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert said == "线程 t1 的产物 pptx 没有第 3 版，它只有第 1 版。", said
    assert not list(tmp_path.glob("x*")), "nothing is written"


def mark_done(data_dir: Path, thread_id: str) -> None:
    import asyncio

    from app.store import Store
    from core.settings import Settings
    from schemas.events import ThreadStatus

    settings = Settings(_env_file=None, data_dir=data_dir)

    async def mark() -> None:
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.update_thread(thread_id, status=ThreadStatus.done)
        finally:
            await store.close()

    asyncio.run(mark())


def test_ng_resume_that_is_refused_does_not_announce_the_offline_model_first(tmp_path):
    result = ng("resume", "no-such-thread", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert t("cli.offline_model") not in result.stdout + result.stderr


def test_ng_resume_of_a_finished_deck_says_how_to_change_or_save_it(tmp_path):
    seed_thread(tmp_path / "data", "t1", "一份幻灯片")
    mark_done(tmp_path / "data", "t1")
    result = ng("resume", "t1", data_dir=tmp_path / "data", cwd=ROOT)
    said = result.stdout.replace("\n", "")
    assert result.returncode == 2
    assert t("cli.resume_done_ppt", thread="t1") in said and t("cli.resume_done_export", thread="t1") in said


def test_ng_missing_two_arguments_lists_them_the_chinese_way(tmp_path):
    result = ng("novel", "init", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2 and f"{t('cli.metavar_project_id')}、--world" in result.stderr, result.stderr


def test_ng_with_a_mistyped_command_offers_the_commands_listed_the_chinese_way(tmp_path):
    result = ng("exprt", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2 and "'export'" in result.stderr and "'serve'、'ppt'" in result.stderr, result.stderr


def test_ng_with_a_number_option_given_words_says_so_in_chinese(tmp_path):
    result = ng("novel", "run", "demo", "--to", "三", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2 and "'三' 不是有效的整数" in result.stderr and "int" not in result.stderr


def test_a_stage_log_line_uses_the_terminal_width_and_wraps_under_its_own_start():
    from rich.console import Console

    from app.cli import StageDisplay

    display = StageDisplay()
    display.apply("tool:start", {"toolCallId": "a", "toolName": "analyze_topic"})
    display.apply("tool:log", {"toolCallId": "a", "level": "info",
                               "message": "No web search is configured (SEARCH_URL); continuing without it."})
    display.apply("tool:log", {"toolCallId": "a", "level": "info", "message": "一二三四五六七八九十" * 9})
    terminal = Console(width=80, record=True, color_system=None)
    terminal.print(display.render())
    lines = [line.rstrip() for line in terminal.export_text().splitlines()]

    assert "    No web search is configured (SEARCH_URL); continuing without it." in lines, lines
    long_lines = [line for line in lines if "一二三" in line or "十一" in line]
    assert len(long_lines) == 3 and all(line.startswith("    ") and not line.startswith("     ") for line in long_lines), lines


def test_one_stage_run_for_two_fields_of_law_shows_each_field_beside_its_name():
    from rich.console import Console

    from app.cli import StageDisplay
    from app.flows import node_label

    display = StageDisplay()
    for call, field in (("a", "劳动法"), ("b", "合同法")):
        display.apply("tool:start", {"toolCallId": call, "toolName": "legal_research", "input": {"about": field}})
    terminal = Console(width=80, record=True, color_system=None)
    terminal.print(display.render())
    text = terminal.export_text()

    assert f"{node_label('legal_research')} · 劳动法" in text and f"{node_label('legal_research')} · 合同法" in text, text


def _commands(parser, path=()):
    """Every `ng …` command with its parser, subcommands included."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name), child
                yield from _commands(child, (*path, name))


def test_every_ng_command_help_says_what_the_command_does():
    from app.cli import build_parser

    silent = [" ".join(path) for path, parser in _commands(build_parser()) if not parser.description]
    assert silent == [], f"`ng … --help` without a sentence saying what it does: {silent}"


def test_ng_ppt_help_in_chinese_says_the_feedback_in_chinese():
    result = ng("ppt", "--help", data_dir=Path("/nonexistent"), cwd=ROOT)
    assert result.returncode == 0
    assert "topic" not in result.stdout and '"' not in result.stdout, result.stdout


def test_ng_plan_in_english_opens_with_a_capitalised_line_naming_its_thread(tmp_path):
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "LOCALE": "en"}
    result = subprocess.run([sys.executable, "-m", "app.cli", "plan", "Let tenants book the laundry room online"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    first = (result.stdout + result.stderr).splitlines()[0]
    assert re.fullmatch(r"Plan thread [0-9a-f]{32}", first), first


async def test_ng_plan_in_chinese_names_its_artifacts_and_round_in_chinese(tmp_path):
    import argparse
    import io

    from rich.console import Console

    from app import cli_plan
    from core.llm.offline import OfflineLLM
    from core.settings import Settings

    parser = argparse.ArgumentParser()
    cli_plan.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["plan", "给驾校做个学员约车的小程序，教练能看到自己的排班"])
    screen = io.StringIO()

    def no_terminal(_prompt: str) -> str:
        raise EOFError

    code = await cli_plan.run(args, Settings(data_dir=tmp_path, _env_file=None), llm=OfflineLLM(),
                              input_fn=no_terminal, console=Console(file=screen, width=80, color_system=None))
    shown = screen.getvalue()
    assert code == 0
    assert "artifact" not in shown and "requirement_plan" not in shown, shown
    assert t("cli.questions_title", round=1, max_rounds=3) in shown, shown


def test_piped_ng_keeps_the_resume_command_and_its_thread_id_on_one_line(monkeypatch, capsys):
    # `ng ppt … | cat`: no terminal width to fit, so nothing may split `ng resume <id>` for a copy-paste.
    from app import cli
    from app.cli import StageDisplay, _report

    monkeypatch.setattr(cli.console, "width", 80)  # what rich assumes when stdout is not a terminal
    thread_id = "3f0c2a9be1d84c6f9a7e5b2d4c1f8e06"
    display = StageDisplay()
    display.apply("completion", {"success": False, "resumable": True,
                                 "error": "The model endpoint did not answer within 60 s (attempts: 3)."})

    assert _report(display, [], thread_id, None) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(f"ng resume {thread_id}" in line for line in lines), lines


def test_piped_ng_wraps_a_long_point_of_an_answer_rather_than_cutting_it(monkeypatch, capsys):
    # Only sentences are kept on one line: a Markdown list item still wraps, or its end would be lost.
    from rich.markdown import Markdown

    from app import cli_legal

    monkeypatch.setattr(cli_legal.console, "width", 60)
    point = "The landlord may keep the deposit only for damage beyond normal wear, and must say which damage."
    cli_legal.console.print(Markdown(f"- {point}"))
    said = " ".join(capsys.readouterr().out.replace("•", "").split())
    assert point in said, said


def test_at_a_terminal_a_sentence_naming_the_resume_command_is_not_broken_inside_it():
    # rich's own line breaks are newlines: copied from the terminal, `ng resume` and the id would part.
    import io

    from app.terminal import NgConsole

    screen = io.StringIO()
    terminal = NgConsole(file=screen, force_terminal=True, width=80, color_system=None)
    thread_id = "3f0c2a9be1d84c6f9a7e5b2d4c1f8e06"
    terminal.print(t("cli.interrupted", thread=thread_id, command=f"ng resume {thread_id}"), highlight=False)
    assert f"ng resume {thread_id}" in screen.getvalue().splitlines()[0], screen.getvalue()


def test_ng_threads_in_english_heads_its_columns_in_sentence_case(tmp_path, monkeypatch, capsys):
    from app.cli import main

    seed_thread(tmp_path / "data", "t1", "Why bread rises")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    assert main(["threads"]) == 0
    heading = next(line for line in capsys.readouterr().out.splitlines() if "┃" in line)
    assert [cell.strip() for cell in heading.strip("┃ ").split("┃")] == ["Thread", "Flow", "Status", "Title"], heading


def waiting_thread(data_dir: Path, flow: str, text: str, thread_id: str = "t1") -> None:
    """A thread whose run stopped at its first question, as `ng plan` or `ng legal` leaves it after Ctrl-C."""
    import asyncio

    from app.services import open_runtime
    from core.settings import Settings

    async def ask() -> None:
        async with open_runtime(Settings(_env_file=None, data_dir=data_dir), local_user=True) as runtime:
            await runtime.send_message(flow=flow, text=text, thread_id=thread_id, create=True)
            await runtime.wait(thread_id)

    asyncio.run(ask())


def typed_at_a_terminal(monkeypatch, *lines: str) -> list[str]:
    """stdin is a terminal where `lines` are typed in turn (then Ctrl-D); returns the prompts shown."""
    import app.cli
    import app.terminal

    typed = iter(lines)
    prompts: list[str] = []

    async def read_line(console, prompt: str) -> str | None:
        prompts.append(prompt)
        return next(typed, None)

    monkeypatch.setattr(app.terminal, "read_line", read_line)
    monkeypatch.setattr(app.cli.sys.stdin, "isatty", lambda: True)
    return prompts


def test_ng_threads_delete_answered_with_ctrl_d_keeps_the_thread_and_says_so(tmp_path, monkeypatch, capsys):
    from app.cli import main

    deck = seed_thread(tmp_path / "data", "t1", "合唱团排座位")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    prompts = typed_at_a_terminal(monkeypatch)  # nothing typed: Ctrl-D at the question

    assert main(["threads", "delete", "t1"]) == 1
    assert prompts and deck.exists()
    assert t("cli.delete_kept", thread="t1") in capsys.readouterr().out


def test_ng_threads_delete_answered_with_ctrl_c_keeps_the_thread_and_says_so(tmp_path, monkeypatch, capsys):
    import app.terminal
    from app.cli import main

    deck = seed_thread(tmp_path / "data", "t1", "合唱团排座位")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    typed_at_a_terminal(monkeypatch)

    async def ctrl_c(console, prompt: str) -> str | None:
        raise KeyboardInterrupt

    monkeypatch.setattr(app.terminal, "read_line", ctrl_c)
    assert main(["threads", "delete", "t1"]) == 1
    assert deck.exists() and t("cli.delete_kept", thread="t1") in capsys.readouterr().out


def test_ng_resume_at_a_terminal_asks_the_plan_question_and_finishes_the_plan(tmp_path, monkeypatch, capsys):
    from app.cli import main

    waiting_thread(tmp_path / "data", "requirement", "给家庭账本加一个按月导出表格的功能")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")
    prompts = typed_at_a_terminal(monkeypatch, "默认", "默认", "默认")

    assert main(["resume", "t1"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert prompts and "默认假设" in said, "the question is shown with its fallback, as ng plan shows it"
    assert "--answer" not in said and t("cli.done", thread="t1") in said


def test_ng_resume_at_a_terminal_asks_a_drafting_question_and_resumes_with_the_answer(tmp_path, monkeypatch, capsys):
    from app.cli import main

    waiting_thread(tmp_path / "data", "legal", "帮我起草一份房屋租赁合同，出租人赵六")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "zh")
    typed_at_a_terminal(monkeypatch, "钱七", "", "", "", "", "", "")

    assert main(["resume", "t1"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "承租人" in said, "the pending question is asked"
    assert "--answer" not in said and t("cli.done", thread="t1") in said


def test_ng_chat_with_an_unknown_thread_says_the_thread_is_missing_not_how_to_create_the_project(
        tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    assert main(["chat", "--thread", "nope", "lighthouse"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert t("runtime.no_thread", thread="nope") in out
    assert "ng novel init" not in out


def test_ng_chat_with_the_thread_of_another_flow_says_whose_it_is_and_continues_nothing(tmp_path, monkeypatch, capsys):
    from app.cli import main

    waiting_thread(tmp_path / "data", "requirement", "A sign-up sheet for the allotment's tool library")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    assert main(["chat", "--thread", "t1", "lighthouse"]) == 2
    assert "belongs to the" in " ".join(capsys.readouterr().out.split())


def test_ng_export_and_ng_resume_of_an_unknown_thread_exit_alike(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    assert main(["export", "nope", "--out", str(tmp_path / "x")]) == main(["resume", "nope"]) == 2


def test_ng_plan_with_an_unknown_thread_exits_as_ng_resume_does(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    assert main(["plan", "--thread", "nope"]) == main(["resume", "nope"]) == 2


def test_ng_threads_says_a_thread_waiting_for_an_answer_is_waiting_not_interrupted(tmp_path, monkeypatch, capsys):
    from app.cli import main

    waiting_thread(tmp_path / "data", "requirement", "Add a weekly watering rota to the garden club site")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    assert main(["threads"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "t1" in line)
    status = [cell.strip() for cell in row.strip("│ ").split("│")][2]
    assert status == "waiting for your answer", row


def test_ng_resume_that_finishes_a_plan_prints_the_plan_as_ng_plan_does(tmp_path, monkeypatch, capsys):
    import asyncio

    from app.cli import main
    from app.store import Store
    from core.settings import Settings

    waiting_thread(tmp_path / "data", "requirement", "Let members of a choir swap their seats for a concert")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALE", "en")
    typed_at_a_terminal(monkeypatch, "use defaults", "use defaults", "use defaults")

    assert main(["resume", "t1"]) == 0
    said = " ".join(capsys.readouterr().out.split())

    async def the_plan() -> dict:
        settings = Settings(_env_file=None, data_dir=tmp_path / "data")
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            return next(a["content"] for a in await store.latest_artifacts("t1") if a["type"] == "implementation_plan")
        finally:
            await store.close()

    plan = asyncio.run(the_plan())
    heading = plan["markdown"].splitlines()[0].lstrip("# ").strip()
    assert heading in said, "the plan itself is printed, as ng plan --thread prints it"
    assert t("cli.suggested_commit", locale="en", message=plan["commit_message_suggestion"]) in said


def test_a_mistyped_subcommand_names_the_one_meant(monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("LOCALE", "en")
    with pytest.raises(SystemExit) as stop:
        main(["exprot", "t1", "--out", "deck"])
    assert stop.value.code == 2
    assert "did you mean 'export'?" in capsys.readouterr().err


def test_ng_export_without_artifact_writes_the_deck_not_its_preview(tmp_path, monkeypatch, capsys):
    import asyncio

    from app.cli import main
    from app.store import Store
    from core.settings import Settings

    seed_thread(tmp_path / "data", "t1", "潮汐")

    async def preview_rendered_after_the_deck() -> None:
        settings = Settings(_env_file=None, data_dir=tmp_path / "data")
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.save_artifact("t1", {"id": "t1-pdf", "type": "pdf", "title": "潮汐.pdf", "content": {}},
                                      origin="task/preview", file=b"%PDF", file_name="deck.pdf")
            await store.update_thread("t1", final_artifact_id="t1-deck")
        finally:
            await store.close()

    asyncio.run(preview_rendered_after_the_deck())
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))

    assert main(["export", "t1", "--out", str(tmp_path / "deck")]) == 0
    assert (tmp_path / "deck.pptx").read_bytes() == b"pptx" and not (tmp_path / "deck.pdf").exists()


def test_debug_after_any_command_is_taken_as_before_it():
    from app.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["resume", "t1", "--debug"]).debug
    assert parser.parse_args(["threads", "rename", "t1", "New title", "--debug"]).debug
    assert parser.parse_args(["--debug", "legal", "房东不退押金"]).debug, "given before, a subcommand keeps it"
    assert not parser.parse_args(["resume", "t1"]).debug


def test_ng_novel_status_with_no_project_yet_says_there_is_none_not_a_dash(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("NOVEL_PROJECTS_DIR", str(tmp_path / "projects"))
    monkeypatch.setenv("LOCALE", "en")
    assert main(["novel", "status", "lighthouse"]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "There is no project called lighthouse; there are no projects yet." in said and "—" not in said, said


def test_ng_novel_status_of_a_new_project_says_what_to_run_instead_of_an_empty_table(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("NOVEL_PROJECTS_DIR", str(tmp_path / "projects"))
    monkeypatch.setenv("LOCALE", "zh")
    assert main(["novel", "init", "fogport", "--world", "雾港小镇，钟楼每到午夜会多敲一下"]) == 0
    capsys.readouterr()
    assert main(["novel", "status", "fogport"]) == 0
    said = capsys.readouterr().out
    assert t("novel.cli_next_run", project="fogport") in said
    assert t("novel.col_scenes") not in said and "┏" not in said, said


def test_ng_threads_help_calls_its_subcommands_by_the_slot_name_it_shows(monkeypatch, capsys):
    said = chinese_help(["threads"], monkeypatch, capsys)
    slot = t("cli.metavar_action", locale="zh")
    list_line = next(line for line in said.splitlines() if line.strip().startswith("list"))
    assert f"  {slot}\n" in said and f"不带{slot}" in list_line and "动作" not in said, said


def test_a_chinese_usage_too_wide_for_80_columns_fills_its_lines_as_the_english_one_does(monkeypatch, capsys):
    said = chinese_help(["novel", "init"], monkeypatch, capsys)
    usage = said.split("\n\n")[0].splitlines()
    assert len(usage) == 3 and usage[1].split() == ["[--author", "作者]", "[--debug]"], usage
    assert usage[2].strip() == t("cli.metavar_project_id", locale="zh"), usage


def test_ng_threads_show_replays_a_finished_deck_step_by_step_and_says_how_to_export_it(made):
    result, data, _out = made
    thread_id = re.search(r"[0-9a-f]{32}", result.stdout).group(0)

    shown = ng("threads", "show", thread_id[:8], data_dir=data, cwd=ROOT)

    assert shown.returncode == 0, shown.stdout + shown.stderr
    for stage in ("nodes.analyze_topic", "nodes.generate_slides", "nodes.check_deck"):
        assert t(stage) in shown.stdout, shown.stdout
    assert t("runtime.status_done") in shown.stdout.splitlines()[0], "the first line names the thread and its state"
    assert f"ng export {thread_id}" in shown.stdout
    assert "Traceback" not in shown.stdout + shown.stderr


def test_ng_threads_show_of_a_plan_whose_questions_were_answered_prints_the_plan_not_a_question(tmp_path):
    data = tmp_path / "data"
    planned = ng("plan", "Let tenants book the laundry room online", data_dir=data, cwd=ROOT)
    thread_id = re.search(r"[0-9a-f]{32}", planned.stdout).group(0)

    shown = ng("threads", "show", thread_id, data_dir=data, cwd=ROOT)

    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert t("cli.waiting_answer", thread=thread_id) not in shown.stdout, shown.stdout
    assert "laundry room" in shown.stdout.split(t("nodes.finalize"))[-1], "the plan itself follows its steps"


def test_ng_threads_show_of_an_unknown_thread_says_so_and_exits_2(tmp_path):
    shown = ng("threads", "show", "abcd1234", data_dir=tmp_path / "data", cwd=ROOT)
    assert shown.returncode == 2
    assert shown.stdout.strip() == t("runtime.no_thread", thread="abcd1234"), shown.stdout + shown.stderr


def test_ng_threads_show_of_a_run_stopped_by_ctrl_c_says_it_was_interrupted_and_how_to_resume(tmp_path):
    import asyncio

    from app.store import Store
    from core.settings import Settings
    from schemas.events import ThreadStatus

    settings = Settings(_env_file=None, data_dir=tmp_path / "data")

    async def seed() -> None:
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            await store.create_thread("t1", "ppt", "潮汐", {})
            await store.append_event("t1", "r", "tool:start", {"toolCallId": "c1", "toolName": "analyze_topic"})
            await store.update_thread("t1", status=ThreadStatus.interrupted)
        finally:
            await store.close()

    asyncio.run(seed())
    shown = ng("threads", "show", "t1", data_dir=tmp_path / "data", cwd=ROOT)

    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert t("cli.interrupted", thread="t1", command="ng resume t1") in shown.stdout, shown.stdout
    assert t("cli.not_finished") not in shown.stdout


def test_ng_help_names_every_action_of_ng_threads_show_too(monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("LOCALE", "en")
    with pytest.raises(SystemExit):
        main(["--help"])
    line = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("threads"))
    assert all(action in line for action in ("list", "show", "rename", "delete")), line


def test_ng_serve_on_port_0_names_the_port_the_system_picked_and_answers_there(tmp_path):
    import re
    import time
    import urllib.request

    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "LEGAL_WARM_AT_STARTUP": "false",
           "HOST": "127.0.0.1", "PORT": "0", "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while "http://" not in log.read_text(encoding="utf-8") and time.monotonic() < deadline:
            assert server.poll() is None, log.read_text(encoding="utf-8")
            time.sleep(0.1)
        banner = log.read_text(encoding="utf-8")
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)", banner).group(1))
        assert port != 0, banner
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            assert response.status == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_every_ng_option_with_a_default_names_it_in_its_help(monkeypatch):
    import argparse

    from app.cli import build_parser

    monkeypatch.setenv("LOCALE", "en")
    silent = []
    for path, parser in _commands(build_parser()):
        for action in parser._actions:
            if action.option_strings and action.default not in (None, False, "", argparse.SUPPRESS) \
                    and not isinstance(action, argparse._HelpAction):
                said = parser._get_formatter()._expand_help(action)
                if str(action.default) not in said:
                    silent.append(f"ng {' '.join(path)} {action.option_strings[0]}: {said}")
    assert silent == [], silent
