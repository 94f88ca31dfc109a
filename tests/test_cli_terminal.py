"""`ng` as a person at a terminal meets it: Ctrl-C, resume saving the deck, export, and one-sentence errors."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from core.i18n import t
from tests.test_cli import ROOT, ng

pexpect = pytest.importorskip("pexpect", reason="pexpect (a dev dependency) drives the pseudo-terminal")

REQUIREMENT = "给课程管理系统增加作业批改功能"


def spawn(*args: str, data_dir: Path, **env: str):
    environment = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "COLUMNS": "200", **env}
    return pexpect.spawn(sys.executable, ["-m", "app.cli", *args], cwd=str(ROOT), env=environment,
                         encoding="utf-8", timeout=60)


def interrupted_and_listed(child, says_how: str, data_dir: Path, listed_as: str = "runtime.status_interrupted") -> str:
    """Ctrl-C: `ng` names the command that goes on (`says_how`, the thread id in its group), exits 130 without a
    traceback, and the thread is listed as `listed_as` (interrupted; at a question, waiting for the answer)."""
    child.sendintr()
    child.expect(says_how)
    thread_id = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before
    listed = ng("threads", data_dir=data_dir, cwd=ROOT)
    assert thread_id in listed.stdout and t(listed_as) in listed.stdout
    return thread_id


def test_ctrl_c_at_a_question_names_the_thread_and_exits_130(tmp_path):
    child = spawn("plan", REQUIREMENT, data_dir=tmp_path / "data")
    child.expect_exact("> ")
    interrupted_and_listed(child, r"ng plan --thread (\w+)", tmp_path / "data", listed_as="cli.status_waiting")


def test_ctrl_c_during_a_deck_then_resume_saves_the_deck_where_ppt_was_told(tmp_path):
    out = tmp_path / "deck.pptx"
    child = spawn("ppt", "火山科普，给小学生", "--out", str(out), data_dir=tmp_path / "data", OFFLINE_LATENCY_S="0.3")
    child.expect("✔")  # the first stage finished: the run is under way
    child.sendintr()
    child.expect(r"ng resume (\w+)")
    thread_id = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and not out.exists()

    resumed = ng("resume", thread_id, data_dir=tmp_path / "data", cwd=ROOT)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert out.stat().st_size > 0 and "已保存" in resumed.stdout


def test_use_defaults_at_the_second_question_settles_the_round(tmp_path):
    child = spawn("plan", REQUIREMENT, "--max-rounds", "2", data_dir=tmp_path / "data")
    child.expect_exact("> ")
    child.sendline("老师和助教")
    child.expect_exact("> ")
    child.sendline("use defaults")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "IMPLEMENTATION_PLAN" in child.before or "阶段" in child.before


def test_export_writes_the_finished_plan_as_markdown(tmp_path):
    planned = ng("plan", REQUIREMENT, "--max-rounds", "1", data_dir=tmp_path / "data", cwd=ROOT)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    thread_id = re.search(r"[0-9a-f]{32}", ng("threads", data_dir=tmp_path / "data", cwd=ROOT).stdout).group(0)
    exported = ng("export", thread_id, "--out", str(tmp_path / "plan"), data_dir=tmp_path / "data", cwd=ROOT)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert (tmp_path / "plan.md").read_text(encoding="utf-8").startswith("#")


def test_a_bad_setting_is_one_sentence_without_a_traceback(tmp_path):
    env = {**os.environ, "DATA_DIR": str(tmp_path), "PORT": "not-a-port"}
    import subprocess

    result = subprocess.run([sys.executable, "-m", "app.cli", "threads"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert "PORT" in result.stderr and "Traceback" not in result.stderr + result.stdout


def test_a_port_in_use_is_one_sentence(tmp_path):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = str(holder.getsockname()[1])
    try:
        result = ng("serve", "--host", "127.0.0.1", "--port", port, data_dir=tmp_path, cwd=ROOT)
    finally:
        holder.close()
    assert result.returncode == 1
    assert port in result.stderr and "Traceback" not in result.stderr + result.stdout


def ng_with(env: dict[str, str], *args: str, data_dir: Path, timeout: float = 60):
    environment = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "COLUMNS": "200", **env}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def test_a_port_in_use_never_says_the_server_started_and_exits_while_the_statute_index_builds(tmp_path):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = str(holder.getsockname()[1])
    try:
        # The default start-up builds the statute index in the background (up to a minute): it must not hold the exit.
        result = ng_with({"LEGAL_WARM_AT_STARTUP": "true", "LOCALE": "en"}, "serve", "--port", port,
                         data_dir=tmp_path, timeout=30)
    finally:
        holder.close()
    assert result.returncode == 1
    assert "started" not in result.stdout + result.stderr, "a server that could not bind never says it started"


def test_openai_without_a_base_url_is_one_sentence_naming_the_setting(tmp_path):
    result = ng_with({"LLM_PROVIDER": "openai", "LLM_BASE_URL": ""}, "ppt", "潮汐是怎么形成的", data_dir=tmp_path)
    assert result.returncode == 2
    assert t("llm.needs_base_url") in result.stderr
    assert "ValueError" not in result.stdout + result.stderr


def test_debug_before_legal_shows_the_traceback_as_for_any_command(tmp_path):
    result = ng_with({"LLM_PROVIDER": "openai", "LLM_BASE_URL": ""}, "--debug", "legal", "房东不退押金怎么办",
                     data_dir=tmp_path)
    assert "Traceback" in result.stderr, "ng --debug legal: the subcommand's own --debug must not reset it"


def test_a_missing_repo_is_refused_before_a_thread_exists(tmp_path):
    result = ng("plan", REQUIREMENT, "--repo", str(tmp_path / "nowhere"), data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2 and "nowhere" in result.stdout
    assert "requirement" not in ng("threads", data_dir=tmp_path / "data", cwd=ROOT).stdout


def test_an_unknown_flag_shows_the_subcommands_usage(tmp_path):
    result = ng("ppt", "火山", "--colour", "red", data_dir=tmp_path, cwd=ROOT)
    assert result.returncode == 2 and t("argparse.usage") + "ng ppt" in result.stderr


def test_threads_says_which_data_dir_it_read(tmp_path):
    result = ng("threads", data_dir=tmp_path / "elsewhere", cwd=ROOT)
    assert str(tmp_path / "elsewhere") in result.stdout


def test_ng_threads_in_a_narrow_terminal_keeps_each_thread_on_one_line_with_its_whole_id(tmp_path):
    from tests.test_cli import seed_thread

    title = "We need a booking tool for a small dental clinic where patients book online and staff see the day"
    seed_thread(tmp_path / "data", "0123456789abcdef0123456789abcdef", title)
    child = spawn("threads", data_dir=tmp_path / "data", COLUMNS="80")
    child.expect(pexpect.EOF)
    child.close()
    [row] = [line for line in child.before.splitlines() if "0123456789abcdef0123456789abcdef" in line]
    assert "…" in row and title[:4] in row, row
    assert not any(title[-6:] in line for line in child.before.splitlines()), "the rest of the title is cut, not wrapped"


def test_ng_threads_delete_asks_first_and_no_keeps_the_thread(tmp_path):
    from tests.test_cli import seed_thread

    deck = seed_thread(tmp_path / "data", "t1", "会话一")
    child = spawn("threads", "delete", "t1", data_dir=tmp_path / "data")
    child.expect_exact("[y/N]")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and deck.exists()

    child = spawn("threads", "delete", "t1", data_dir=tmp_path / "data")
    child.expect_exact("[y/N]")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and not deck.exists()


def test_ctrl_c_during_a_legal_question_leaves_it_resumable_and_says_how(tmp_path):
    child = spawn("legal", "房东不退押金怎么办", data_dir=tmp_path / "data", OFFLINE_LATENCY_S="0.5",
                  LEGAL_WARM_AT_STARTUP="false")
    child.expect_exact(t("legal.cli_classifying"))  # the thread exists and its run is under way
    interrupted_and_listed(child, r"ng resume (\w+)", tmp_path / "data")


def test_ctrl_c_while_ng_is_still_loading_exits_130_without_a_traceback(tmp_path):
    import signal
    import subprocess
    import tomllib

    # The console script `ng` runs exactly this: the [project.scripts] target, imported then called.
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["ng"]
    module, function = target.split(":")
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline"}
    # -X importtime reports each module as its import ends: once app.cli_args is in, app.cli (LangGraph and
    # friends) is still loading for a good while. A fixed sleep raced a fast, idle machine, where
    # `ng threads` had already finished.
    child = subprocess.Popen([sys.executable, "-X", "importtime", "-c",
                              f"import sys; from {module} import {function}; sys.exit({function}())", "threads"],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in child.stderr:
        if line.rstrip().endswith("app.cli_args"):
            break
    child.send_signal(signal.SIGINT)
    output, errors = child.communicate(timeout=60)
    assert child.returncode == 130, output + errors[-2000:]
    assert "Traceback" not in output + errors and t("cli.stopped") in output
    assert t("cli.threads_none")[:5] not in output, "stopped while loading, before it listed anything"


@pytest.mark.parametrize("nth_call", [1, 14])  # the store's first statement; the checkpointer's set-up
def test_ctrl_c_while_the_database_is_being_opened_ends_with_a_sentence_not_a_thread_traceback(tmp_path, nth_call):
    environment = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline",
                   "FAULT": f"slow-sqlite:{nth_call}:1.5"}
    child = pexpect.spawn(sys.executable, ["-m", "tests.support.faulty_cli", "ppt", "潮汐的成因"], cwd=str(ROOT),
                          env=environment, encoding="utf-8", timeout=60)
    child.expect_exact("sqlite call held")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()

    assert child.exitstatus == 130
    assert "Traceback" not in child.before and "Event loop is closed" not in child.before, child.before
    assert t("cli.stopped") in child.before, child.before


def test_ctrl_c_at_the_question_ng_resume_asks_names_the_resume_command_and_exits_130(tmp_path):
    from tests.test_cli import waiting_thread

    waiting_thread(tmp_path / "data", "requirement", "给社区图书角做一个借还书登记表")
    child = spawn("resume", "t1", data_dir=tmp_path / "data")
    child.expect_exact("> ")  # the plan's first question is asked
    thread_id = interrupted_and_listed(child, r"ng resume (\w+)", tmp_path / "data", listed_as="cli.status_waiting")
    assert thread_id == "t1"


def test_ctrl_c_at_a_drafting_question_of_ng_legal_leaves_it_waiting_and_says_how_to_resume(tmp_path):
    child = spawn("legal", "帮我起草一份劳动合同，用人单位是星火书店", data_dir=tmp_path / "data", LEGAL_WARM_AT_STARTUP="false")
    child.expect_exact("> ")  # the first missing field is asked
    interrupted_and_listed(child, r"ng resume (\w+)", tmp_path / "data", listed_as="cli.status_waiting")
