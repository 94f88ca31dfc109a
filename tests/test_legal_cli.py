"""`ng legal` in a terminal: a drafted document saved as .docx after questions answered at the prompt."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docx import Document

from core.i18n import t

from tests.support.legal import legal_index  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[1]


def test_ng_legal_asks_for_missing_fields_and_saves_the_docx(tmp_path, legal_index):
    out = tmp_path / "loan.docx"
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "COLUMNS": "200",
           "CHINA_LAW_INDEX": str(legal_index)}
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "legal", "帮我起草一份借款合同，出借人张三，借款人李四", "--out", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, input="人民币五万元\n六个月\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "借款金额" in result.stdout and "借款期限" in result.stdout  # the questions asked
    routed = [line for line in result.stdout.splitlines() if line.startswith("→")]
    assert routed and t("legal.agent_document_draft") in routed[0] and "_" not in routed[0], routed  # names, not ids
    text = "\n".join(p.text for p in Document(str(out)).paragraphs)
    assert "人民币五万元" in text and "六个月" in text and "李四" in text


def _routing_line(locale: str) -> tuple[str, str]:
    """The line `ng legal` prints when a labour-law question is routed, and the field's name, in `locale`."""
    from app.cli_legal import agent_selected_line
    from core.i18n import current_locale, set_locale

    before = current_locale()
    set_locale(locale)
    try:
        line = agent_selected_line({"agent": "legal_research", "intent": "legal_consultation", "category": "labor_law",
                                    "confidence": 0.71})
        return line, t("legal.category_labor_law")
    finally:
        set_locale(before)


def test_the_routing_line_names_the_field_instead_of_its_id():
    line, field = _routing_line("zh")
    assert field in line and "labor_law" not in line, line


@pytest.mark.parametrize("locale, said", [("zh", "置信度 71%"), ("en", "confidence 71%")])
def test_the_routing_line_says_its_confidence_as_a_percentage_not_a_bare_fraction(locale, said):
    line, _field = _routing_line(locale)
    assert said in line and "0.71" not in line, line


def test_the_routing_line_of_an_english_user_holds_no_chinese_not_even_punctuation():
    from core.language import CJK

    line, field = _routing_line("en")
    assert field in line and "，" not in line and "、" not in line and not CJK.search(line), line


def test_ng_legal_with_its_input_at_an_end_asks_no_field_twice(tmp_path, legal_index):
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "COLUMNS": "200",
           "CHINA_LAW_INDEX": str(legal_index), "LOCALE": "en"}
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "legal", "Draft a lease for my flat, landlord Wang Wu"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, input="Zhou Qi\n")
    assert result.returncode == 0, result.stdout + result.stderr
    asked = [line for line in result.stdout.splitlines() if line.startswith("? ")]
    assert len(asked) == 2 and len(set(asked)) == 2, asked  # the one answered, the one the input ended at


def test_ng_legal_in_english_ends_with_a_capitalised_line_naming_its_thread(tmp_path, legal_index):
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "COLUMNS": "200",
           "CHINA_LAW_INDEX": str(legal_index), "LOCALE": "en"}
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "legal", "My employer has not paid my overtime for three months"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"Thread [0-9a-f]{32}", last), last


def test_a_document_drafted_without_out_says_how_to_save_it_and_never_points_at_the_canvas(tmp_path, legal_index):
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "LLM_PROVIDER": "offline", "COLUMNS": "200",
           "CHINA_LAW_INDEX": str(legal_index)}
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "legal", "帮我起草一份房屋租赁合同，出租人王五，承租人赵六"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout + result.stderr
    thread = re.search(r"[0-9a-f]{32}", result.stdout.splitlines()[-1]).group()
    assert f"ng export {thread} --out" in result.stdout, result.stdout
    assert "画布" not in result.stdout, result.stdout  # the terminal has no canvas to view it in
    exported = subprocess.run([sys.executable, "-m", "app.cli", "export", thread, "--out", str(tmp_path / "lease")],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert exported.returncode == 0 and (tmp_path / "lease.docx").exists(), exported.stdout + exported.stderr
