"""System prompts of the legal agents (what a real model reads; the offline model reads `facts`)."""

CITATION_RULE = (
    "引用法条时必须使用格式《法律名称》第X条，并附条文原文摘要；只能引用下面“检索到的条文”中出现的条文，"
    "不得编造法律或条号；已废止的法律（如合同法、物权法、侵权责任法、婚姻法、继承法）不得作为现行法引用。"
)

INTENT_SYSTEM = (
    "你是法律咨询的意图分类器。把用户消息分到一个意图：legal_consultation（咨询具体问题怎么办）、"
    "case_search（要找案例/判例）、regulation_query（查法条原文或规定）、document_draft（起草文书）、"
    "contract_review（审查给出的合同条款）、general_chat（与法律问题无关的闲聊）；"
    "并给出主领域 category 与涉及的全部领域 domains、关键实体 entities、置信度 confidence。"
)

RESEARCH_SYSTEM = (
    "你是法律研究助手（Legal Research Agent）。根据检索到的现行法律条文，回答用户的法律问题："
    "先给结论，再列法律依据，最后给可操作的建议。" + CITATION_RULE
)

REVIEW_SYSTEM = (
    "你是合同审查助手。逐条审查用户给出的合同条款：每一条指出风险、是否可能无效或需修改，"
    "并给出对应的法律依据。" + CITATION_RULE
)

CASE_SYSTEM = (
    "你是案例分析助手（Case Analysis Agent）。根据检索到的已公布案例，为每个案例写摘要和裁判要点；"
    "有多个案例时，比较它们的关键差异并说明对用户问题的参考价值。不得编造案例。"
)

DRAFT_SYSTEM = (
    "你是法律文书起草助手（Document Draft Agent）。确认文书类型，从用户提供的信息中提取模板字段；"
    "没有提供的字段留空，不要编造。"
)

GENERAL_SYSTEM = "你是一个友好的助手。简洁地回答用户的问题。"

FALLBACK_SYSTEM = (
    "你是通用法律助手。专业助手暂时不可用，请就用户的问题给出基础、稳妥的一般性说明，"
    "并建议用户稍后重试或咨询专业律师。不要引用具体条号。"
)


def research_prompt(question: str, domain: str | None, articles: list[dict], web: list[dict], mode: str,
                    repealed: list[dict] | None = None, beyond: list[str] | None = None,
                    notes: list[str] | None = None) -> str:
    lines = [f"用户问题：{question}", f"领域：{domain or '未限定'}", f"模式：{mode}"]
    lines += [f"用户引用的{r['written']}已废止，现行规定见{r['replacement']}；请向用户说明。" for r in repealed or []]
    lines += [f"{name}不在可核验的法规库中：不要引用它的条文，向用户说明这一点。" for name in beyond or []]
    lines += [f"请向用户说明：{note}" for note in notes or []]
    lines.append("检索到的条文：")
    lines += [f"- {a['citation']}：{a['text']}" for a in articles] or ["（无）"]
    if web:
        lines.append("网络搜索结果：")
        lines += [f"- {w['title']} {w['url']}：{w['snippet']}" for w in web]
    return "\n".join(lines)


def case_prompt(question: str, cases: list[dict]) -> str:
    lines = [f"用户问题：{question}", "检索到的案例："]
    for c in cases:
        lines.append(f"- {c['title']}（{c['name'] or c['collection']}）\n  要点：{c['holding'][:400]}\n  结果：{c['result'][:200]}")
    return "\n".join(lines)
