"""Every citation in an answer is checked before the answer is shown (the flow's headline).

Verified citations stay; a repealed law stays named as repealed with its replacement; anything
else (an invented law, a wrong article number) is taken out of the text and listed as removed.
"""

from __future__ import annotations

from core.i18n import t
from core.legal.statutes import CITATION_RE, CitationCheck, StatuteSource, article_label, check_citations, cited_article
from schemas.legal import Citation


def to_citation(check: CitationCheck) -> Citation:
    return Citation(law=check.law, article=check.article, excerpt=check.excerpt if check.verified else "",
                    verified=check.verified, status=check.status, replacement=check.replacement,
                    asWritten=check.as_written)


def apply_checks(text: str, source: StatuteSource) -> tuple[str, list[Citation], list[Citation]]:
    """(answer with failing citations removed or marked, citations kept, citations removed)."""
    checks = {(c.as_written_law, c.as_written_no): c for c in _checks(text, source)}
    kept: dict[tuple[str, str], Citation] = {}
    removed: dict[tuple[str, str], Citation] = {}

    def rewrite(match) -> str:
        check = checks[(match.group(1), cited_article(match))]
        citation = to_citation(check.check)
        key = (check.check.law, check.check.article)
        if check.check.verified:
            kept.setdefault(key, citation)
            return f"《{check.check.law}》{article_label(check.check.article)}"
        if check.check.status == "repealed":
            kept.setdefault(key, citation)
            return match.group(0) + t("legal.repealed_inline", replacement=check.check.replacement)
        removed.setdefault(key, citation)
        return t("legal.removed_inline")

    return CITATION_RE.sub(rewrite, text), list(kept.values()), list(removed.values())


class _Written:
    def __init__(self, law: str, number: str, check: CitationCheck) -> None:
        self.as_written_law, self.as_written_no, self.check = law, number, check


def _checks(text: str, source: StatuteSource) -> list[_Written]:
    pairs = list(dict.fromkeys((m.group(1), cited_article(m)) for m in CITATION_RE.finditer(text or "")))
    checked = check_citations(source, text)  # same order as the unique pairs
    return [_Written(law, number, check) for (law, number), check in zip(pairs, checked)]


def basis_section(citations: list[Citation], removed: list[Citation], answer: str = "") -> str:
    """The checked legal basis under the answer: each citation with its excerpt and status.

    An article the answer already quotes is listed by its name alone: its words a second time, a few
    lines below the first, only lengthen what the user reads.
    """
    if not citations and not removed:
        return ""
    quoted = " ".join(answer.split())
    lines = [t("legal.basis_heading")]
    for c in citations:
        if c.verified:
            excerpt = c.excerpt.rstrip("…")
            already = bool(excerpt) and excerpt[:40] in quoted
            lines.append(f"- 《{c.law}》{article_label(c.article)}" + ("" if already else f" — {c.excerpt}"))
        else:
            lines.append(f"- {c.asWritten} — " + t("legal.repealed_note", replacement=c.replacement or ""))
    for c in removed:
        lines.append(f"- ~~{c.asWritten}~~ — " + t("legal.removed_note"))
    return "\n".join(lines)
