"""`ng` from a terminal: a deck from a topic, the thread list, resume refusals."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pptx import Presentation

from core.i18n import t

ROOT = Path(__file__).resolve().parents[1]


def ng(*args: str, data_dir: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_ng_ppt_writes_a_deck_and_lists_the_thread(tmp_path):
    out = tmp_path / "deck.pptx"
    result = ng("ppt", "做一个关于化学反应速率的5分钟PPT", "--out", str(out), data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert t("nodes.generate_slides") in result.stdout and "已保存" in result.stdout  # stages by their names
    assert len(Presentation(str(out)).slides) > 3

    listed = ng("threads", data_dir=tmp_path / "data", cwd=ROOT)
    assert listed.returncode == 0 and "ppt" in listed.stdout and t("runtime.status_done") in listed.stdout


def test_ng_resume_of_an_unknown_thread_says_so(tmp_path):
    result = ng("resume", "no-such-thread", data_dir=tmp_path / "data", cwd=ROOT)
    assert result.returncode == 2
    assert "没有找到线程" in result.stdout
