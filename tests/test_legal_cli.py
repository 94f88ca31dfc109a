"""`ng legal` in a terminal: a drafted document saved as .docx after questions answered at the prompt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from docx import Document

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
    text = "\n".join(p.text for p in Document(str(out)).paragraphs)
    assert "人民币五万元" in text and "六个月" in text and "李四" in text


def test_the_routing_line_of_an_english_user_has_no_chinese_punctuation():
    from app.cli_legal import agent_selected_line
    from core.i18n import current_locale, set_locale
    from core.language import CJK

    before = current_locale()
    set_locale("en")
    try:
        line = agent_selected_line({"agent": "general", "intent": "legal_consultation", "category": "contract_law",
                                    "confidence": 0.71})
    finally:
        set_locale(before)
    assert "contract law" in line.lower() and "，" not in line and not CJK.search(line), line
