"""Drafting templates: each declares its required fields; `render` fills the Markdown body.

Field keys double as clarification question ids. What the user reads of a template (its name, its fields'
labels) is in the catalogue (`legal.template_<id>`, `legal.field_<id>_<key>`), in their language; the document
itself, its `title` and body, is Chinese whatever the locale: it is signed and filed in China. Missing optional fields print as 【待补充】, except
those that apply only to some cases (`only_if_given`): their lines are left out. `{key_name}` is the
field's first part, the name of a party given with identity details ("王小明，男，1990年生" → 王小明).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.i18n import t
from core.language import CJK, KIN_ZH, chinese_number

PLACEHOLDER = "【待补充】"
# The fields a user tells in their own words (the story, the claims, the demands), not a name, a sum or a date. Told
# in another language, such a field goes into the Chinese document as written, marked as untranslated: offline no
# model translates it, and a letter that switched language without a word read as if it were drafted that way.
TOLD_IN_OWN_WORDS = frozenset({"facts", "claims", "demands", "evidence", "employment", "cause", "purpose"})
UNTRANSLATED = "“{text}”（当事人原文，未译成中文）"


@dataclass(frozen=True)
class TemplateField:
    key: str
    required: bool = True
    only_if_given: bool = False  # e.g. the labour sections of a civil complaint about a loan


@dataclass(frozen=True)
class Template:
    id: str
    title: str
    keywords: tuple[str, ...]
    fields: tuple[TemplateField, ...]
    body: str
    # Words of another kind of document that shares a keyword (融资租赁合同, 汽车租赁合同 are no home's lease).
    excludes: tuple[str, ...] = ()
    # Who speaks in the document: the given values → the values in that voice, plus the body's own keys
    # (a letter's opening and signature). The user tells the story as 我 and the other side as 他.
    voice: Callable[[dict[str, str]], dict[str, str]] | None = None

    @property
    def required(self) -> list[str]:
        return [f.key for f in self.fields if f.required]

    @property
    def name(self) -> str:
        """The document's name in the user's language (房屋租赁合同 / residential lease)."""
        return t(f"legal.template_{self.id}")

    def label(self, key: str) -> str:
        """A field as the user is asked for it, in their language ("出借人（甲方）" / "lender (Party A)")."""
        return t(f"legal.field_{self.id}_{key}")

    def missing(self, values: dict[str, str]) -> list[str]:
        return [key for key in self.required if not (values.get(key) or "").strip()]

    def placeholders(self, values: dict[str, str]) -> list[str]:
        """The fields `render` marks 【待补充】: required or not, all but those left out when not given."""
        return [f.key for f in self.fields if not (values.get(f.key) or "").strip() and not f.only_if_given]

    def untranslated(self, values: dict[str, str]) -> list[str]:
        """The fields told in the user's own words in another language than the document's (Chinese)."""
        return [f.key for f in self.fields
                if f.key in TOLD_IN_OWN_WORDS and (values.get(f.key) or "").strip() and not CJK.search(values[f.key])]

    def document_name(self, values: dict[str, str], locale: str | None = None) -> str:
        """The document's name as its heading calls it (a 律师函 without a firm is a 催告函), in the user's language
        or `locale`'s."""
        given = {f.key: (values.get(f.key) or "").strip() for f in self.fields}
        kind = (self.voice(given).get("kind") if self.voice else None) or self.id
        return t(f"legal.template_{kind}", locale=locale)

    def render(self, values: dict[str, str]) -> str:
        given = {f.key: (values.get(f.key) or "").strip() for f in self.fields}
        body = self.body
        for field in self.fields:
            if field.only_if_given and not given[field.key]:
                body = "\n".join(line for line in body.split("\n") if "{" + field.key + "}" not in line)
        spoken = self.voice(given) if self.voice else {}
        filled = {key: given[key] and spoken.get(key, given[key]) or PLACEHOLDER for key in given}
        filled |= {key: UNTRANSLATED.format(text=filled[key]) for key in self.untranslated(given)}
        names = {f"{key}_name": re.split(r"[，,]", value, maxsplit=1)[0].strip() or PLACEHOLDER
                 for key, value in filled.items()}
        rendered = body.format(**{**spoken, **filled, **names}).strip()
        return re.sub(r"\n{3,}", "\n\n", rendered) + "\n"


F = TemplateField

# The other side as the user names it in the story: he, she, they, the other party (not 其他, 他人).
_OTHER_SIDE = r"(?<![其吉])(?:对方|他们|她们|他|她)(?!人)"
_FIRST_PERSON = r"我们|我方|我"
# What follows who someone is to the user when no name does ("房东一直不退", "老板拖欠我工资").
_NOT_A_NAME = "一直|还|至今|不|没|未|拖|扣|欠|借|拒|也|就|又|说|把|将|给|跟|向|和|在|的|家|让|叫|要|去年|今年|前年|上个?月|昨天|前天"
# Who the other side may be to the user, said before its name ("房东张伟", "我朋友王强"): the name with them is 贵方.
_RECIPIENT_ROLES = "房东|业主|老板娘|老板|卖家|商家|店家|包工头|中介|物业|朋友|同事|同学|邻居|前夫|前妻|亲戚"
# The story's other people, by who they are to someone, with the pronoun that can be them: a 他 / 她 after one of
# them may be that person, not the one the letter goes to ("是我朋友李明介绍的，他说…"; "我老婆去找他，他骂了她").
# A cousin or an in-law before the plain word (表哥 before 哥哥): the longer name is the person.
# 爸 and 妈 alone are how a user says them ("我爸借给他…").
_MEN = "|".join(sorted([word for word, gender in KIN_ZH.items() if gender == "男"] + ["爸"], key=len, reverse=True))
_WOMEN = "|".join(sorted([word for word, gender in KIN_ZH.items() if gender == "女"] + ["妈"], key=len, reverse=True))
_PEOPLE = "朋友|同事|同学|亲戚|邻居|介绍人|中介|担保人|保证人|律师|警察|民警|法官|孩子"
# What the other side did to the user, said right after one of those words: that person is the other side
# ("我朋友借了我5万", "邻居欠我2000元"); a borrowing is read as 向我借 by then (_BORROWED_FROM_ME).
_DEBTORS_ACT = re.compile(r"^[\u4e00-\u9fff]{0,3}?(?:一直|还|至今)?(?:借了?我|(?:向|跟|找)我借|欠了?我|拖欠|扣了?我|不退|不还|拒不)")
# The user lent to that person, said right before one of those words ("我借给我表哥5万元"): he is the other side.
_LENT_TO = re.compile(r"借给$")
# 借 is to lend and to borrow alike; with the user after it and a sum or money next, the one before borrowed from
# the user ("朋友借了我5万", "表哥借了我的5万块钱", "他借了我一笔钱"): said as 向我借, whose roles are plain.
# What a person, or a thing or an animal of theirs, did to the user's body or belongings.
_HARMS = "咬|抓伤|撞|砸|踢|打伤|弄坏|摔坏|损坏|划坏|刮花|弄伤|漏水|渗水|淹|泡坏"
_BORROWED_FROM_ME = re.compile(r"借了?我的?(?=[\d一二三四五六七八九十两百千万]|钱|一笔|些)")


def _to_the_recipient(text: str, recipient: str) -> str:
    """`text` with the one the letter goes to as 贵方: the recipient's name (with who they are to the user), 对方,
    and each 他 / 她 whose nearest earlier person it can be (a 他 is no woman) is the recipient, or no one."""
    named = rf"(?:我的?)?(?:{_RECIPIENT_ROLES})?{re.escape(recipient)}|" if recipient else ""
    mentions = re.compile(rf"(?P<recipient>{named}对方)|(?P<role>(?:我的?)?(?:{_RECIPIENT_ROLES}))|(?P<pronoun>{_OTHER_SIDE})"
                          rf"|(?P<m>(?:我的?)?(?:{_MEN}))|(?P<f>(?:我的?)?(?:{_WOMEN}))|(?P<someone>(?:我的?)?(?:{_PEOPLE}))")
    people: list[tuple[bool, str | None]] = []  # (is the recipient, "m" / "f" / None), in the order they come

    def spoken(match: re.Match[str]) -> str:
        word, kind = match.group(0), match.lastgroup
        if kind == "recipient":
            people.append((True, None))
            return "贵方"
        if kind != "pronoun" and (_DEBTORS_ACT.match(text[match.end():]) or _LENT_TO.search(text[:match.start()])):
            # Who the other side is to the user, doing what the letter is about ("老板拖欠我工资", "我朋友借了我5万",
            # "我借给我表哥5万元"): that is 贵方.
            people.append((True, None if kind in ("someone", "role") else kind))
            return "贵方"
        if kind != "pronoun":
            people.append((False, None if kind in ("someone", "role") else kind))
            return word
        gender = "f" if word.startswith("她") else "m"
        earlier = next((is_recipient for is_recipient, known in reversed(people) if known in (None, gender)), True)
        people.append((earlier, gender))
        return "贵方" if earlier else word

    return mentions.sub(spoken, text)


def _letter_voice(values: dict[str, str]) -> dict[str, str]:
    """A demand letter reads from the claimant to the debtor throughout: the story's 我 is the claimant (本人 in
    the claimant's own letter, the client's name in a law firm's), its 他 / 对方 and the debtor's name are 贵方,
    and each demand is put to 贵方. Told as the user tells it, the letter mixed 我 with 委托人 and 他 with 贵方."""
    firm, client, recipient = (values.get(key, "") for key in ("law_firm", "client", "recipient"))
    claimant = (client or PLACEHOLDER) if firm else "本人"
    known = recipient if recipient != PLACEHOLDER else ""

    def spoken(text: str) -> str:
        if not CJK.search(text):  # told in English: the letter keeps the user's words as they are
            return text
        text = _BORROWED_FROM_ME.sub("向我借", text)
        return re.sub(_FIRST_PERSON, claimant, _to_the_recipient(text, known))

    demands = re.sub(rf"^(?:请|要求)?(?:贵方|{_OTHER_SIDE})?\s*", "", spoken(values.get("demands", "")))
    # A demand told in English stays as told: "请贵方" before it would start a sentence in one language and end it in another.
    demands = "请贵方" + demands if CJK.search(demands) else demands
    opening = (f"{firm}受{client or PLACEHOLDER}的委托，就以下事项致函贵方：" if firm
               else f"{client or PLACEHOLDER}（以下简称“本人”）就以下事项致函贵方：")
    return {"facts": spoken(values.get("facts", "")), "demands": demands,
            "heading": "律师函" if firm else "催告函", "kind": "lawyer_letter" if firm else "demand_letter",
            "opening": opening,
            "claimant": "委托人" if firm else "本人", "sender": firm or client or PLACEHOLDER}

TEMPLATES: dict[str, Template] = {t.id: t for t in (
    Template(
        id="civil_complaint", title="民事起诉状", keywords=("起诉状", "起诉书", "民事起诉", "起诉", "civil complaint", "statement of claim"),
        fields=(F("plaintiff"), F("defendant"),
                F("claims"), F("facts"), F("court"),
                F("employment", False, only_if_given=True),
                F("arbitration", False, only_if_given=True),
                F("evidence", False), F("date", False)),
        body="""# 民事起诉状

**原告：** {plaintiff}

**被告：** {defendant}

## 诉讼请求

{claims}

## 事实与理由

{facts}

**劳动关系情况：** {employment}

**劳动仲裁情况：** {arbitration}

## 证据

{evidence}

此致

{court}

起诉人：{plaintiff_name}

{date}
"""),
    Template(
        id="labor_arbitration", title="劳动仲裁申请书", keywords=("仲裁申请", "劳动仲裁", "仲裁", "arbitration application", "labor arbitration", "labour arbitration"),
        fields=(F("applicant"), F("respondent"),
                F("claims"), F("facts"),
                F("employment"),
                F("commission", False), F("date", False)),
        body="""# 劳动仲裁申请书

**申请人：** {applicant}

**被申请人：** {respondent}

## 仲裁请求

{claims}

## 事实与理由

劳动关系情况：{employment}

{facts}

此致

{commission}

申请人：{applicant_name}

{date}
"""),
    Template(
        id="lawyer_letter", title="律师函", keywords=("律师函", "警告函", "催告函", "催款函", "lawyer's letter", "lawyer letter", "demand letter",
                                                             "cease and desist"),
        fields=(F("recipient"), F("client"), F("facts"),
                F("demands"), F("law_firm", False, only_if_given=True),
                F("date", False)),
        voice=_letter_voice,
        body="""# {heading}

致：{recipient}

{opening}

## 事实

{facts}

## 要求

{demands}

如贵方逾期未履行，{claimant}将依法采取包括诉讼在内的措施维护合法权益，由此产生的一切后果由贵方承担。

{sender}

{date}
"""),
    Template(
        id="loan_contract", title="借款合同", keywords=("借款合同", "借款协议", "借款", "loan agreement", "loan contract"),
        fields=(F("lender"), F("borrower"), F("amount"),
                F("term"), F("interest", False),
                F("repayment", False), F("date", False)),
        body="""# 借款合同

**出借人（甲方）：** {lender}

**借款人（乙方）：** {borrower}

第一条 借款金额：{amount}。

第二条 借款期限：{term}。

第三条 借款利率：{interest}（约定利率不得超过合同成立时一年期贷款市场报价利率的四倍）。

第四条 还款方式：{repayment}。

第五条 乙方未按期还款的，应当按照约定或者国家有关规定支付逾期利息。

第六条 因本合同发生争议，双方协商解决；协商不成的，向有管辖权的人民法院起诉。

甲方（签字）：{lender_name}　　乙方（签字）：{borrower_name}

{date}
"""),
    # A note a person signs alone (借条, 欠条, 收条) is a document of its own, a few lines long: asked for
    # one, the user does not want a contract with articles and two signatures.
    Template(
        id="iou", title="借条", keywords=("借条", "借据", "IOU"),
        fields=(F("lender"), F("borrower"), F("amount"),
                F("term"), F("interest", False, only_if_given=True),
                F("date", False)),
        body="""# 借条

今借到{lender}人民币{amount}，还款期限：{term}。

借款年利率：{interest}。

借款人（签名并按手印）：{borrower}

{date}
"""),
    Template(
        id="debt_note", title="欠条", keywords=("欠条", "欠据", "debt note", "acknowledgment of debt", "acknowledgement of debt"),
        fields=(F("creditor"), F("debtor"), F("amount"),
                F("cause", False), F("term", False),
                F("date", False)),
        body="""# 欠条

今欠{creditor}人民币{amount}，系{cause}。

还款期限：{term}。

欠款人（签名并按手印）：{debtor}

{date}
"""),
    Template(
        id="receipt", title="收条", keywords=("收条", "收据", "receipt"),
        fields=(F("payer"), F("payee"), F("amount"),
                F("purpose", False), F("date", False)),
        body="""# 收条

今收到{payer}交来人民币{amount}，系{purpose}。

收款人（签名）：{payee}

{date}
"""),
    Template(
        id="labor_contract", title="劳动合同", keywords=("劳动合同", "employment contract", "labor contract", "labour contract"),
        fields=(F("employer"), F("employee"), F("position"),
                F("term"), F("salary"), F("probation", False),
                F("workplace", False), F("date", False)),
        body="""# 劳动合同

**用人单位（甲方）：** {employer}

**劳动者（乙方）：** {employee}

第一条 合同期限：{term}；试用期：{probation}（试用期应符合法定上限）。

第二条 工作内容和工作地点：乙方从事{position}工作，工作地点为{workplace}。

第三条 劳动报酬：乙方月工资为{salary}，甲方按月以货币形式足额支付，不得克扣或者无故拖欠。

第四条 工作时间和休息休假：执行国家规定的工时制度；甲方安排加班的，依法支付加班费。

第五条 社会保险：甲乙双方依法参加社会保险，缴纳社会保险费。

第六条 劳动合同的解除和终止依照《中华人民共和国劳动合同法》的规定执行。

甲方（盖章）：{employer}　　乙方（签字）：{employee_name}

{date}
"""),
    # The clauses follow the lease chapter of the 民法典 (703-734): its contents (704), the twenty-year cap (705),
    # handing over and keeping the home fit for use (708), repairs (712, 713), alterations and subletting with
    # consent (715, 716), rent paid late (722), a sale that does not end the lease (725, 726), returning the home
    # and renewing it first (733, 734).
    Template(
        id="lease_contract", title="房屋租赁合同",
        keywords=("房屋租赁合同", "房屋租赁", "租赁合同", "租赁协议", "租房合同", "租房协议", "房屋出租", "出租合同",
                  "lease", "rental agreement", "tenancy agreement"),
        fields=(F("lessor"), F("lessee"), F("address"),
                F("term"), F("rent"),
                F("payment", False), F("deposit", False),
                F("use", False), F("date", False)),
        body="""# 房屋租赁合同

**出租人（甲方）：** {lessor}

**承租人（乙方）：** {lessee}

第一条 租赁房屋：甲方将位于{address}的房屋出租给乙方，用途为{use}。

第二条 租赁期限：{term}（租赁期限不得超过二十年，超过部分无效）。

第三条 租金及支付：月租金为{rent}，支付方式：{payment}。乙方无正当理由未支付或者迟延支付租金的，甲方可以请求乙方在合理期限内支付；乙方逾期仍不支付的，甲方可以解除合同。

第四条 押金：{deposit}。租赁期满或者合同解除，乙方返还房屋并结清租金、水电等费用后，甲方应当将押金无息退还乙方。

第五条 交付与维修：甲方应当按照约定将房屋交付乙方，并在租赁期限内保持房屋符合约定的用途；房屋及其附属设施需要维修的，由甲方在合理期限内维修，但因乙方过错造成的除外。

第六条 使用：乙方应当按照约定的方法合理使用房屋；未经甲方同意，乙方不得对房屋进行改善或者增设他物，不得将房屋转租给第三人。

第七条 房屋出卖：租赁期间甲方出卖房屋的，应当在出卖之前的合理期限内通知乙方，乙方享有以同等条件优先购买的权利；房屋所有权变动不影响本合同的效力。

第八条 返还与续租：租赁期满，乙方应当返还房屋，返还的房屋应当符合正常使用后的状态；乙方在同等条件下享有优先承租的权利。

第九条 因本合同发生争议，双方协商解决；协商不成的，向房屋所在地人民法院起诉。

甲方（签字）：{lessor_name}　　乙方（签字）：{lessee_name}

{date}
""", excludes=("融资租赁", "车", "设备", "机械", "土地", "船")),
)}


def template_for(text: str) -> Template | None:
    """The template the text names; None when it names none (the agent then asks).

    The document asked for ("写一张借条") decides before any other word of the request: a 借条 about a
    借款 is still a 借条, not the 借款合同 that keyword would pick."""
    wanted = named_document(text)
    if wanted and wanted != text:
        chosen = template_for(wanted)
        if chosen is not None:
            return chosen
    best: tuple[int, Template] | None = None
    for template in TEMPLATES.values():
        if any(word in text for word in template.excludes):
            continue
        for keyword in template.keywords:
            if _mentions(text, keyword):
                # Longer, more specific keywords win over generic ones (起诉状 over 起诉).
                rank = len(keyword)
                if best is None or rank > best[0]:
                    best = (rank, template)
    return best[1] if best else None


def _mentions(text: str, keyword: str) -> bool:
    """Whether the text names `keyword`; an English one as a whole word, any case ("lease", not "please")."""
    if keyword.isascii():
        return re.search(rf"(?<![A-Za-z]){re.escape(keyword)}(?![A-Za-z])", text, re.IGNORECASE) is not None
    return keyword in text


# "起草一份房屋租赁合同": a document the user names, template or not.
_NAMED_DOCUMENT = re.compile(
    r"(?:起草|写|拟|拟定|做|出)(?:一份|一张|一个|一封|份|张|个|封)?([\u4e00-\u9fff]{0,10}?"
    r"(?:合同|协议|起诉状|起诉书|申请书|答辩状|上诉状|函|声明|遗嘱|借条|欠条|收据|委托书|承诺书))"
)


def named_document(text: str) -> str | None:
    """The kind of document the text asks to be written ("房屋租赁合同"), whether or not we have its template."""
    match = _NAMED_DOCUMENT.search(text)
    return match.group(1) if match else None


_DATE = (r"(?:(?:[\d〇零一二三四五六七八九]{4}|今|明|后)\s*年\s*)?[\d一二三四五六七八九十]{1,3}\s*月\s*"
         r"[\d一二三四五六七八九十]{1,3}\s*[日号]")
_AMOUNT = r"(?:人民币)?\s*[\d,.]+\s*(?:万元|元|万|块钱|块)|[一二三四五六七八九十两百千]+万(?:元)?|[一二三四五六七八九十两百千]+[千百](?:元|块钱|块)"
# What a sum owed or received is for, as people name it (3000元货款, 交来房租).
_PAYMENT_KINDS = "货款|工程款|借款|租金|房租|押金|定金|订金|工资|劳务费|服务费|装修款|材料款|学费|赔偿款|转让款"
_REPAY = r"(?:归还|还清|还款|偿还|还)"
# A party's name said straight after 原告/被告: a person's (two to four characters) or an organisation's, then a pause.
_PARTY_NAME = (r"((?![\u4e00-\u9fff]*?(?:原告|被告))[\u4e00-\u9fff（）()]{2,30}?(?:公司|厂|中心|单位|医院|学校)"
               r"|(?![\u4e00-\u9fff]*?(?:原告|被告))[\u4e00-\u9fff]{2,4})(?=[，,。；;\s]|$)")
# The same fields said in English ("I lent Zhang San 5000 yuan, to be repaid by March 15, 2027"): a name is
# capitalised words, a sum in yuan becomes 元 and a date or a length its Chinese form (`in_document_form`).
_EN_NAME = r"([A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})"
_EN_RELATION = r"(?:(?i:my|our)\s+(?i:friend|colleague|brother|sister|cousin|neighbou?r|boss|classmate)\s+)?"
_EN_SUM = r"(?:(?i:RMB|CNY)\s?|[¥￥]\s?)[\d,]+(?:\.\d+)?|[\d,]+(?:\.\d+)?\s?(?i:yuan|RMB|CNY|kuai)\b"
_EN_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_EN_DATE = (rf"(?:{_EN_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_EN_MONTHS}),?\s+\d{{4}}"
            r"|\d{4}-\d{1,2}-\d{1,2}")
# "a year" is one year: the article is the number ("for a year", "within a month").
_EN_LENGTH = r"(?:\d+|(?i:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))\s+(?i:years?|months?|weeks?|days?)"
_EN_DUE = rf"(?i:by|before|due(?:\s+on)?|until|on|repaid\s+on)\s+({_EN_DATE})|(?i:within|in|for|after)\s+({_EN_LENGTH})"
# Where a home is, said in English ("the flat at Room 301, 12 Jianguo Road, Beijing"): its commas are the
# address's own, so it runs on until the next field of the request (rent, deposit, from…) or the sentence's end.
_EN_NEXT_FIELD = (r"(?i:rent|monthly|deposit|from|starting|beginning|commencing|for|tenant|landlord|lessor|lessee"
                  r"|paid|payable|to\s+be|use[ds]?|signed)")
_EN_ADDRESS = (r"(?i:address(?:\s+is)?\s*:?|located\s+at|(?:flat|apartment|house|home|property|unit|room|place|premises)"
               rf"\s+(?:at|in|on))\s+(\S.{{3,80}}?)(?=,?\s+(?:(?i:the)\s+)?{_EN_NEXT_FIELD}\b|\s*[;\n]|\.(?:\s+[A-Z]|\s*$)|\s*$)")

# Who did what to the user, in English: a name, someone by who they are to the user (my landlord, my former employer
# Wang Co.), or a pronoun; then a deed of a debtor or of one who wronged the user.
_EN_SUBJECT = (rf"{_EN_NAME}|(?i:my|our)\s+(?:(?i:former|ex)[- ]?)?[a-z]+(?:\s+{_EN_NAME})?|(?i:he|she|they)")
_EN_ACT = (r"(?:(?i:has|have|had|still|never|also)\s+)*(?i:owes?|owed|kept|keeps|withheld|withholds|refused|refuses|"
           r"won't|hasn't|haven't|didn't|borrowed|fired|dismissed|damaged|broke|took|deducted|sold|cheated|stopped)")

FIELD_PATTERNS: dict[str, list[str]] = {
    # "借给张三五万元": a name of two or more characters first, so 三 stays with 张 and the amount is 五万元.
    "amount": [rf"借给[\u4e00-\u9fff]{{2,4}}?\s*({_AMOUNT})",
               rf"(?:借款金额|欠款金额|金额|借款|借给[^，,。]*?|借了?我?)\s*[:：为是]?\s*({_AMOUNT})",
               # 向李四借了5万元, 张三借李四5万元: the sum after the other party's name.
               rf"借了?[\u4e00-\u9fff]{{2,4}}?\s*({_AMOUNT})",
               # 欠赵六3000元, 收到王五交来租金2000元
               rf"(?:欠|收到|交来|付给?)[^，,。]*?({_AMOUNT})",
             rf"({_EN_SUM})"],
    # A due date is the term too ("2026年12月31日前归还", "还款日期：明年6月30日"); before 期: 2027年 alone is no term.
    "term": [r"(?:租期|租赁期限?)\s*[:：为是]?\s*({_DATE}\s*(?:至|到|-)\s*{_DATE}|[一二三四五六七八九十两\d]+\s*(?:年|个月)|半年)".replace("{_DATE}", _DATE),
             rf"(?:还款日期|还款日|到期日|到期时间|期限|借期)\s*[:：为是]?\s*((?:至|到)?{_DATE}(?:\s*(?:至|到|-)\s*{_DATE})?)",
             r"(?:期限|借期|合同期|为期|期)\s*[:：为是]?\s*([一二三四五六七八九十两\d]+\s*(?:年|个月|天))",
             # 三个月后归还, 半年内还清: the length of the loan, as the user counts it.
             rf"((?:[一二三四五六七八九十两\d]+\s*(?:年|个月|周|天)|半年))(?:后|以后|之后|内|以内)?\s*{_REPAY}",
             rf"((?:至|到)?{_DATE}(?:前|之前|以前)?)\s*{_REPAY}",
             # 从2027年1月1日到2027年12月31日: the period itself, said without a word for it
             rf"(?:从|自)?({_DATE}\s*(?:起)?\s*(?:至|到|-)\s*{_DATE})",
             _EN_DUE],
    "interest": [r"(?:年利率|利率|利息)\s*[:：为是]?\s*((?:百分之[一二三四五六七八九十点\d]+)|[\d.]+\s*%)"],
    "salary": [rf"(?:月薪|月工资|工资)\s*[:：为是]?\s*({_AMOUNT}|[\d,]+)",
             rf"(?i:salary|wage|wages|pay)\s*(?:(?i:of|is)\s+)?[:：]?\s*({_EN_SUM})"],
    "position": [r"(?:岗位|职位)\s*[:：为是]?\s*([\u4e00-\u9fffA-Za-z]{2,12})", r"招(?:一个|一名)?([\u4e00-\u9fff]{2,6})"],
    "probation": [r"试用期\s*[:：为是]?\s*([一二三四五六七八九十两\d]+\s*(?:个月|天))"],
    "lender": [r"(?:出借人|甲方|债权人)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20})",
               # "张三借给李四五万元": the name that opens a sentence, not the request's words before it.
               r"(?:^|[，,。：:；;\s])([\u4e00-\u9fff]{2,4}?)借给",
               # "张三向李四借了5万元": the one borrowed from.
               r"(?:向|跟|找)((?!我)[\u4e00-\u9fff]{2,4}?)借",
             rf"(?i:lender)\s*[:：]?\s*(?:(?i:is)\s+)?{_EN_NAME}",
             rf"{_EN_NAME}\s+(?i:lent|loaned)",
             rf"(?i:borrowed)\s+.{{0,30}}?(?i:from)\s+{_EN_RELATION}{_EN_NAME}"],
    "creditor": [r"(?:债权人|被欠款人|出借人)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=[，,。\s]|$)",
                 r"欠([\u4e00-\u9fff]{2,4}?)(?=[\d一二三四五六七八九十两]|人民币)",
             rf"(?i:owes?)\s+{_EN_RELATION}{_EN_NAME}"],
    "debtor": [r"(?:债务人|欠款人)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=[，,。\s]|$)",
               r"(?:^|[，,。：:；;\s])([\u4e00-\u9fff]{2,4}?)欠[\u4e00-\u9fff]{2,4}?[\d一二三四五六七八九十两]",
               # "张三欠我3000元": the one who owes the user.
               r"(?:^|[，,。：:；;\s])((?!我)[\u4e00-\u9fff]{2,4}?)欠了?我(?!们)",
             rf"{_EN_NAME}\s+(?i:owes)"],
    "payer": [r"(?:交款人|付款人)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=[，,。\s]|$)",
              r"收到([\u4e00-\u9fff]{2,4}?)(?:交来|支付|付的|给的|的)",
             rf"(?i:received)\s+.{{0,30}}?(?i:from)\s+{_EN_RELATION}{_EN_NAME}"],
    "payee": [r"收款人\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=[，,。\s]|$)"],
    "cause": [r"(?:欠款原因|原因|系)\s*[:：为是]?\s*([^，,。\n]{2,30})",
              rf"(?:{_AMOUNT})\s*(?:的)?({_PAYMENT_KINDS})", rf"欠[^，,。]*?({_PAYMENT_KINDS})"],
    "purpose": [r"(?:款项用途|用途|事由)\s*[:：为是]?\s*([^，,。\n]{2,30})",
                rf"(?:交来|支付|付|收到)[^，,。]*?({_PAYMENT_KINDS})"],
    "borrower": [r"(?:借款人|乙方|债务人)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=向|借|[，,。\s]|$)",
                 r"借给([\u4e00-\u9fff]{2,3}?)(?=[\d一二三四五六七八九十两]|人民币)",
                 # "张三向李四借了5万元". Not "张三借李四5万元": 借 is to lend and to borrow alike, so who owes
                 # whom is asked, not guessed.
                 r"(?:^|[，,。：:；;\s])((?!我)[\u4e00-\u9fff]{2,4}?)(?:向|跟|找)[\u4e00-\u9fff]{2,4}?借",
                 # "李四借我2万": the one who borrowed from the user.
                 r"(?:^|[，,。：:；;\s])([\u4e00-\u9fff]{2,4}?)(?:向我|跟我|找我)?借了?我",
             rf"(?i:borrower)\s*[:：]?\s*(?:(?i:is)\s+)?{_EN_NAME}",
             rf"(?i:lent|loaned|lend)\s+{_EN_RELATION}{_EN_NAME}",
             rf"{_EN_NAME}\s+(?i:borrowed)"],
    # A lease as people put it: 房东王五，租客李四，月租3000，押金6000，押一付三，租期一年.
    "lessor": [r"(?:出租人|甲方|房东|业主)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=[，,。；;\s]|$)",
               r"(?:^|[，,。：:；;\s])([\u4e00-\u9fff]{2,4}?)(?:把|将)?(?:房子|房屋)?(?:出)?租给",
             rf"(?i:landlord|lessor)\s*[:：]?\s*(?:(?i:is)\s+)?{_EN_NAME}"],
    "lessee": [r"(?:承租人|乙方|租客|租户|房客)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20}?)(?=[，,。；;\s]|$)",
               r"租给([\u4e00-\u9fff]{2,3}?)(?=[，,。；;\s]|$)",
             rf"(?i:tenant|lessee)\s*[:：]?\s*(?:(?i:is)\s+)?{_EN_NAME}"],
    "address": [r"(?:房屋地址|房屋坐落|地址|位于|坐落于?)\s*[:：为是在]?\s*([^，,。；;\n]{4,40})",
                r"(?:把|将)([^，,。；;\n]{4,40}?)的?(?:房子|房屋|住房|公寓)(?:出)?租给", _EN_ADDRESS],
    "rent": [rf"(?:月租金|月租|租金|房租)\s*(?:每月)?\s*[:：为是]?\s*({_AMOUNT}|[\d,]+)(?:\s*/\s*月|每月|一个月)?",
             rf"(?i:rent)\s*(?:(?i:of|is|at)\s+)?[:：]?\s*({_EN_SUM})",
             # A sum by the month is the rent, with or without the word ("3000 yuan a month", 每月3000元).
             rf"({_EN_SUM})\s*(?:(?i:a|per|each|every)\s+|/\s*)(?i:month)\b", rf"每(?:个)?月\s*({_AMOUNT})"],
    "deposit": [rf"押金\s*[:：为是]?\s*({_AMOUNT}|[\d,]+|[一二两三]个月(?:的)?(?:房租|租金))",
             rf"(?i:deposit)\s*(?:(?i:of|is)\s+)?[:：]?\s*({_EN_SUM})"],
    "payment": [r"(押[一二两三\d]付[一二三四五六十二\d]+)", r"(?:支付方式|付款方式|付租方式)\s*[:：为是]?\s*([^，,。；;\n]{2,30})",
                r"((?:按月|按季度?|按半年|按年|每月\d{1,2}\s*[日号]前?)(?:支付|付|交)(?:租金|房租)?)"],
    "use": [r"(?:用途|用于)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,10}?)(?=[，,。；;\s]|$)"],
    "applicant": [r"申请人\s*[:：为是]?\s*([\u4e00-\u9fff]{2,8})"],
    "respondent": [r"被申请人\s*[:：为是]?\s*([\u4e00-\u9fff（）()]{2,30}?(?:公司|厂|中心|单位))"],
    # A party labelled (原告：张三, 被告为某公司), or a name standing alone after the word (原告张三，被告李四);
    # not the story that follows it ("被告开车撞伤原告" names no defendant).
    "plaintiff": [r"原告\s*(?:[:：]|为|是)\s*([\u4e00-\u9fff]{2,8})",
                  rf"原告{_PARTY_NAME}"],
    "defendant": [r"被告\s*(?:[:：]|为|是)\s*([\u4e00-\u9fff（）()]{2,30})",
                  rf"被告{_PARTY_NAME}"],
    "employer": [r"(?:用人单位|甲方|公司名称)\s*[:：为是]?\s*([\u4e00-\u9fff（）()]{2,30}?(?:公司|厂|中心))"],
    "employee": [r"(?:劳动者|乙方|员工)\s*[:：为是]?\s*([\u4e00-\u9fff]{2,8})",
             rf"(?i:employee|hire|hiring)\s*[:：]?\s*(?:(?i:is)\s+)?{_EN_NAME}"],
    "recipient": [r"(?:收函方|致|给)\s*[:：]?\s*([\u4e00-\u9fff（）()]{2,30}?(?:公司|厂|中心))",
                  # A letter demanding a debt goes to the one who owes it ("王五欠我2万元", "Wang Wu owes me").
                  # Or borrowed it, a date between ("王强2024年3月借我5万元").
                  # Named: "我朋友借我…" asks whom the letter goes to. Who they are to the user may come first, and the month
                  # in Chinese numerals ("朋友李明三月借了我五千元").
                  r"(?:^|[，,。：:；;\s])" rf"(?:(?:我的?)?(?:{_RECIPIENT_ROLES}))?"
                  r"([\u4e00-\u9fff（）()]{2,30}?(?:公司|厂|中心)|(?!我)[\u4e00-\u9fff]{2,3}?)(?:\d{4}\s*年|去年|前年|今年|上个?月)?(?:[\d一二三四五六七八九十]{1,2}\s*月)?"
                  r"(?:\d{1,2}\s*[日号])?(?:份)?(?:一直|还|至今)?(?:拖?欠了?我(?!们)|(?:向我|跟我|找我)借|借了?我的?(?=[\d一二三四五六七八九十两百千万]|钱|一笔|些))",
                  rf"{_EN_NAME}\s+(?i:owes|owed)\s+(?i:me)\b",
                  # Named after who they are to the user, then what they did ("房东张伟扣了我的押金").
                  rf"(?:{_RECIPIENT_ROLES})(?!{_NOT_A_NAME})([\u4e00-\u9fff]{{2,3}}?)(?={_NOT_A_NAME})",
                  # Whose dog, car or pipe did the harm, said as a name with 的 ("王强的狗咬伤了我女儿", "李华家的猫抓伤了…"):
                  # the owner answers for it and is the one the letter goes to.
                  rf"(?:^|[，,。：:；;\s])(?!我|对方|他|她)([\u4e00-\u9fff]{{2,3}}?)家?的[\u4e00-\u9fff]{{1,4}}?(?:{_HARMS})",
                  # "a demand letter to my landlord Wang Wu", "to Zhang San"
                  rf"(?i:to|against)\s+(?:(?i:my|our|the)\s+(?:(?i:former|ex)[- ]?)?[a-z]+\s+)?{_EN_NAME}",
                  rf"(?i:my|our)\s+(?:(?i:former|ex)[- ]?)?[a-z]+\s+{_EN_NAME}(?=,?\s+(?:(?i:who|that)\s+)?(?:{_EN_ACT})\b)"],
    "client": [r"委托人\s*[:：为是]?\s*([\u4e00-\u9fff]{2,20})"],
    # The firm the letter comes from ("我委托了北京某某律师事务所"): a letter by the claimant else.
    "law_firm": [r"(?:委托了?|请了?|找了?)\s*([\u4e00-\u9fff（）()]{2,20}?律师事务所)",
                 r"(?:^|[，,。：:；;\s])([\u4e00-\u9fff（）()]{2,20}?律师事务所)"],
    "claims": [r"(?:请求|要求)\s*[:：]?\s*([^。\n]{4,120})"],
    # What happened, labelled, or told in the request itself ("王强2023年借我3万元至今未还，要求归还"): the
    # clause that says what the other side did, up to the demand that follows it.
    "facts": [r"(?:事实与理由|事实和理由|事实|经过)\s*[:：]\s*([^\n]{4,300}?)(?=[，,。；;]?\s*(?:诉讼请求|请求|要求)|\n|$)",
              rf"(?:^|[，,。；;:：？?！!])\s*([^，,。；;:：？?！!]*?(?:借|欠|拖欠|未还|没还|不还|未付|没付|不给|不退|扣了|扣留|辞退|开除|违约|拒绝|把我|{_HARMS})"
              r"[^。；;？?！!\n]{2,160}?)(?:该?怎么办|怎么处理)?(?=[，,。；;]\s*(?:现|故|因此|所以)?\s*(?:要求|请求|诉请|想要|希望)|[。；;？?！!\n]|$"
              # Not the request for the document that follows the story ("…拖欠我工资，帮我写催告函").
              r"|[，,]\s*(?:请|麻烦你?)?\s*(?:帮我|帮忙|给我|替我)\s*(?:写|起草|拟|出))",
              # Told in English: what the other side did, from who did it ("my landlord who kept my deposit", "my friend
              # Li Ming, who borrowed 5000 yuan",
              # "Zhang San owes me 3000 yuan", "he refuses to pay") to the sentence's end.
              rf"(?:^|[.;:!?,]\s*|(?i:to|against)\s+)((?:{_EN_SUBJECT}),?\s+(?:(?i:who|that)\s+)?(?:{_EN_ACT})\b[^.;!?\n]{{2,200}})"],
    # Up to the sentence's end, or to the user's own name told after it ("要求他赔偿8000元，我叫王五").
    "demands": [r"要求(?:对方|他们|她们|他|她|其)?\s*[:：]?\s*([^。\n]{4,120}?)(?=[，,；;]\s*(?:我叫|我名叫|我的名字|本人)|[。\n]|$)",
                # "asking him to return the deposit within 7 days", "I want them to pay me back": the sentence that
                # asks first, not the story's "he refuses to return it".
                r"(?i:want|need|would\s+like|ask|asking|demand|demanding|request|requesting)\b[^.;!?\n]{0,30}?\b(?i:to)\s+"
                r"((?i:return|refund|repay|pay|give\s+back|compensate|apologi[sz]e|stop)\b[^.;!?\n]{2,120})",
                r"(?i:to)\s+((?i:return|refund|repay|pay|give\s+back|compensate|apologi[sz]e|stop)\b[^.;!?\n]{2,120})"],
}


_MONEY_FIELDS = {"amount", "rent", "deposit", "salary"}


def _english_sentence(told: str) -> str:
    """A story or a demand told in English as a sentence of its own: "my landlord who kept my deposit" → "My landlord
    kept my deposit.", "pay me back within 10 days" → "Pay me back within 10 days."."""
    told = re.sub(r"^((?i:my|our)\s+\S+(?:\s+[A-Z][\w.]*)*),?\s+(?i:who|that)\s+", r"\1 ", told.strip())
    return told[:1].upper() + told[1:] + ("" if told.endswith((".", "!", "?")) else ".")
_EN_NUMBERS = {word: str(n) for n, word in enumerate(
    "one two three four five six seven eight nine ten eleven twelve".split(), start=1)} | {"a": "1", "an": "1"}
_EN_UNITS = {"year": "年", "month": "个月", "week": "周", "day": "天"}


def in_document_form(key: str, value: str, text: str = "", today: date | None = None) -> str:
    """A value as the Chinese document writes it: a sum in 元 (3000, 5,000 yuan, RMB 5000 → 5000元), an English
    date or length in Chinese (March 15, 2027 → 2027年3月15日; by that date → …前; 3 months → 3个月), a date
    said relative to today as the date it means (说好明年三月还 → 说好2027年3月还)."""
    today = today or date.today()
    if key in TOLD_IN_OWN_WORDS and not CJK.search(value):
        return _english_sentence(value)
    if key in _MONEY_FIELDS:
        sum_in_yuan = re.fullmatch(r"(?i:RMB|CNY|[¥￥])?\s*([\d,]+(?:\.\d+)?)\s*(?i:yuan|RMB|CNY|kuai)?", value)
        if sum_in_yuan:  # 月租3000: a sum said without its unit is in yuan too
            return sum_in_yuan.group(1).replace(",", "") + "元"
    if key == "term":
        length = re.fullmatch(r"(\w+)\s+(year|month|week|day)s?", value, re.IGNORECASE)
        if length:
            number = _EN_NUMBERS.get(length.group(1).lower(), length.group(1))
            return number + _EN_UNITS[length.group(2).lower()]
        due = _english_date(value)
        if due:
            before = re.search(rf"(?i:by|before)\s+{re.escape(value)}", text)
            return f"{due.year}年{due.month}月{due.day}日" + ("前" if before else "")
        # An answer to the question for the term ("from 1 March for a year", "next Monday") is reckoned as a request's is.
        return english_period(value, today) or relative_due_date(in_chinese_dates(value), today) or value
    return absolute_dates(value, today)


def _english_date(value: str) -> date | None:
    for form in ("%B %d %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(re.sub(r"(?<=\d)(st|nd|rd|th)|,", "", value), form).date()
        except ValueError:
            continue
    return None


# Which party the one asking is, by how the request says it ("我借给王五", "I lent Wang Wei", "李四欠我"): that
# party's name is the user's own, asked for as such ("your name, as the lender"), or read from "我叫李明".
_USER_IS: dict[str, str] = {
    "lender": r"我(?:把钱)?借给|(?:借|欠)了?我(?!们)|(?:向|跟|找)我借|(?<![A-Za-z])I\s+(?:lent|loaned)\b|\b(?:borrowed|owes?)\b.{0,40}\bfrom\s+me\b",
    "borrower": r"我(?:向|跟|找)[\u4e00-\u9fff]{2,4}?借|(?<![A-Za-z])I\s+borrowed\b",
    "creditor": r"欠了?我(?!们)|\bowes?\s+me\b",
    # A demand letter's sender is the one the money is owed to.
    # Or any letter whose request names no one else it is written for (委托人, 我的当事人): the one asking sends it.
    "client": r"^(?![\s\S]*(?:委托人|当事人|客户|(?i:my\s+client)))|欠了?我(?!们)|借了?我(?=[\d一二三四五六七八九十两百千万])|(?:向|跟|找)我借|\bowes?\s+me\b"
              r"|\b(?i:to|against)\s+my\s+[a-z]+|\b(?:kept|withheld|took|owes?)\s+(?:me|my)\b",
    "debtor": r"我欠|(?<![A-Za-z])I\s+owe\b",
    "payee": r"我收到|(?<![A-Za-z])I\s+received\b",
    "payer": r"我(?:交|付)给|(?<![A-Za-z])I\s+paid\b",
    "plaintiff": r"我要?(?:起诉|告(?!诉))|(?<![A-Za-z])I\s+(?:want\s+to\s+)?sue\b",
    "applicant": r"我要?申请",
}
_OWN_NAME = re.compile(r"我(?:叫|的名字是|名叫)\s*([\u4e00-\u9fff]{2,4}?)(?=[，,。；;\s]|$)|本人\s*([\u4e00-\u9fff]{2,4}?)(?=[，,。；;\s]|$)"
                       rf"|(?i:my\s+name\s+is|I\s+am|I'm)\s+{_EN_NAME}")


def user_parties(template: Template, text: str) -> list[str]:
    """The fields of `template` that are the one asking ("我借给王五…": the lender)."""
    keys = {f.key for f in template.fields}
    return [key for key, said in _USER_IS.items() if key in keys and re.search(said, text or "")]


# A role said where a name should be (老板, 我房东, 公司): no party a document can name.
_ROLE_ONLY = re.compile(rf"(?:我的?|我们的?)?(?:{_RECIPIENT_ROLES}|{_PEOPLE}|{_MEN}|{_WOMEN}|公司|单位|用人单位|厂里|领导)")
# A role said before a party's name (表哥王磊, 我同学张敏): the document names the person, not who they are to the user.
_ROLE_BEFORE_NAME = re.compile(rf"^(?:我的?)?(?:{_RECIPIENT_ROLES}|{_PEOPLE}|{_MEN}|{_WOMEN})(?=[\u4e00-\u9fff]{{2,4}}$)")
_PARTY_FIELDS = {"lender", "borrower", "creditor", "debtor", "payer", "payee", "lessor", "lessee", "recipient",
                 "plaintiff", "defendant", "applicant", "respondent", "employee", "client"}


def extract_fields(template: Template, text: str, today: date | None = None) -> dict[str, str]:
    """Fields the user's own words already give, by labelled patterns (`申请人：王五`, `月薪五千`…);
    a due date said relative to today (下个月底前还, 年底还清) is written as the date it means."""
    values: dict[str, str] = {}
    keys = {f.key for f in template.fields}
    for key, patterns in FIELD_PATTERNS.items():
        if key not in keys:
            continue
        for pattern in patterns:
            match = re.search(pattern, text)
            found = next((group for group in match.groups() if group and group.strip()), "") if match else ""
            if found and _ROLE_ONLY.fullmatch(found.strip()):
                continue  # "老板拖欠我工资": who someone is to the user names no one; the flow asks for the name
            if found and key in _PARTY_FIELDS:
                found = _ROLE_BEFORE_NAME.sub("", found.strip())
            if found:
                # 人民币 is the documents' own word before the sum: written once, not twice.
                values[key] = in_document_form(key, found.strip(" ，,。").removeprefix("人民币").strip(), text, today)
                break
    own = _OWN_NAME.search(text)
    if own:  # "我叫李明，我借给王五两万元": the user's own party is named by the user's name
        for key in user_parties(template, text):
            values.setdefault(key, next(group for group in own.groups() if group))
    if "term" in keys:
        today = today or date.today()
        # A start and a length ("from 1 March for a year") are the period itself: its two dates, not "1年" alone.
        period = english_period(text, today)
        due = None if period or "term" in values else relative_due_date(in_chinese_dates(text), today)
        if period or due:
            values["term"] = period or due
    return values


# Days and months said relative to today in English, as the Chinese words `relative_due_date` reads
# ("by next Monday" → 下周一前, "at the end of next month" → 下个月底): one reckoning of dates for both languages.
_EN_WEEKDAYS = {day: "一二三四五六日"[n] for n, day in
                enumerate("monday tuesday wednesday thursday friday saturday sunday".split())}
_EN_RELATIVE = re.compile(
    r"(?i:(?P<before>by|before|no\s+later\s+than)\s+|on\s+|until\s+)?(?:(?i:the)\s+)?(?:"
    r"(?P<week>(?i:next|this))\s+(?P<weekday>(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday))"
    r"|(?i:end\s+of\s+(?:the\s+)?)(?P<period>(?i:next\s+month|this\s+month|month|next\s+year|this\s+year|year)))\b")
_EN_PERIOD_ENDS = {"next month": "下个月底", "this month": "月底", "month": "月底", "next year": "明年年底",
                   "this year": "年底", "year": "年底"}


def in_chinese_dates(text: str) -> str:
    """`text` with each English relative date as the Chinese words for it and a word for paying back, so
    `relative_due_date` reckons it ("repay me by next Monday" → "repay me 下周一前还")."""
    def chinese(match: re.Match[str]) -> str:
        found = match.groupdict()
        if found["weekday"]:
            day = ("下周" if found["week"].lower() == "next" else "本周") + _EN_WEEKDAYS[found["weekday"].lower()]
        else:
            day = _EN_PERIOD_ENDS[" ".join(found["period"].lower().split())]
        return f"{day}{'前' if found['before'] else ''}还"

    return _EN_RELATIVE.sub(chinese, text)


_EN_START = (r"(?i:from|starting(?:\s+on|\s+from)?|beginning(?:\s+on)?|commencing(?:\s+on)?)\s+(?:(?i:the)\s+)?"
             rf"(\d{{1,2}}(?:st|nd|rd|th)?(?:\s+(?i:of))?\s+(?:{_EN_MONTHS})|(?:{_EN_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?)"
             r"(?:,?\s+(\d{4}))?")
_EN_SPAN = rf"(?i:for)\s+({_EN_LENGTH})|\b(\d+|(?i:one|two|three|four|five|six|twelve))-(?i:(year|month))\b"


def english_period(text: str, today: date) -> str | None:
    """"from 1 March for a year", said on 2026-11-27 → "2027年3月1日至2028年2月29日": a start without its year
    is the next such day; None unless both the start and the length are said."""
    start, span = re.search(_EN_START, text), re.search(_EN_SPAN, text)
    if not start or not span:
        return None
    day_month = re.sub(r"(?<=\d)(st|nd|rd|th)|\s+of\b", "", start.group(1), flags=re.IGNORECASE)
    year = int(start.group(2) or today.year)
    first = _english_date(f"{day_month} {year}")
    if first is None:
        return None
    if first < today and not start.group(2):  # 1 March said in November: the coming one
        first = _months_later(first, 12)
    count, unit = (span.group(1) or f"{span.group(2)} {span.group(3)}").lower().split()
    unit = unit.rstrip("s")
    if unit not in ("year", "month"):  # a lease of weeks or days: its length alone is the term
        return None
    months = int(_EN_NUMBERS.get(count, count)) * (12 if unit == "year" else 1)
    last = _months_later(first, months) - timedelta(days=1)
    return f"{first.year}年{first.month}月{first.day}日至{last.year}年{last.month}月{last.day}日"


def _months_later(start: date, months: int) -> date:
    """The same day `months` later (the month's last day when it has no such day: 31 January + 1 month)."""
    year, month = divmod(start.month - 1 + months, 12)
    year, month = start.year + year, month + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


# A date said relative to today: 月底 / 下个月底 / 年底 / 明年年底 / 下个月15号 / 下周五; `day_optional`: a month
# alone too (明年三月), as a story says it.
def _relative_when(day_optional: str = "") -> str:
    return (r"(?P<when>(?P<year>(?:今年|明年)年?|年)?(?P<month>(?:下下|下)个?月|本月|这个?月|(?P<number>[\d一二三四五六七八九十]{1,2})\s*月|月)?"
            r"(?:(?P<end>底|末)|(?P<day>[\d一二三四五六七八九十]{1,3})\s*[日号])" + day_optional +
            r"|(?P<week>下下|下|本|这)?(?:个)?(?:周|星期|礼拜)(?P<weekday>[一二三四五六日天]))")


# A due date: the date, then 前 (or not) and a word for paying back.
_RELATIVE_DUE = re.compile(_relative_when() + r"\s*(?P<before>前|之前|以前)?\s*(?:要|就|再|会|必须|一定)?" + _REPAY)
# In a story (说好明年三月还, 下个月底交房): a date that starts with a word relative to today, not a year's digits.
_RELATIVE_DATE = re.compile(r"(?<![\d一二三四五六七八九十〇零])(?=今年|明年|年[底末]|下下?个?月|本月|这个?月|下下?个?(?:周|星期|礼拜)|本周|这周)"
                            + _relative_when("?"))


def _reckon(found: dict[str, str | None], today: date) -> tuple[date, bool] | None:
    """The date a `_relative_when` match means, said on `today`, and whether it names the day (明年三月 does not:
    its first day stands in). None when the match names no date, or an impossible one (2月30号)."""
    if found["weekday"]:
        weeks = {"下下": 2, "下": 1}.get(found["week"] or "", 0)
        weekday = "一二三四五六日天".index(found["weekday"]) % 7 if found["weekday"] != "天" else 6
        due = today + timedelta(days=weekday - today.weekday() + 7 * weeks)
        if due < today and not found["week"]:  # 周三还, said on a Friday: the coming one
            due += timedelta(days=7)
        return due, True
    if not (found["year"] or found["month"]) and found["end"] is None:
        return None  # "15号还" alone: which month is a guess
    if found["year"] and found["month"] is None and found["day"]:
        return None
    year = today.year + (found["year"] or "").startswith("明年")
    ahead = {"下下": 2, "下": 1}
    month_word = found["month"] or ""
    months = next((n for word, n in ahead.items() if month_word.startswith(word)), 0)
    if found["year"] and not month_word:  # 年底, 明年年底: the year's last month
        month = 12
    elif found["number"]:  # 3月底: that month, this year unless it is past and no year was said
        month = chinese_number(found["number"]) or 0
        if not 1 <= month <= 12:
            return None
        year += not found["year"] and month < today.month
    else:
        month = today.month + months
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    last = calendar.monthrange(year, month)[1]
    day = last if found["end"] else chinese_number(found["day"] or "")
    if not day:
        return date(year, month, 1), False
    return (date(year, month, day), True) if day <= last else None


def relative_due_date(text: str, today: date) -> str | None:
    """"下个月底前还" said on 2026-11-27 → "2026年12月31日前": a note read later must not depend on the day it
    was written. None when the text names no such date (or an impossible one, 2月30号)."""
    for match in _RELATIVE_DUE.finditer(text):
        found = match.groupdict()
        reckoned = _reckon(found, today)
        if reckoned is None or not reckoned[1] or reckoned[0] < today:
            continue
        due = reckoned[0]
        return f"{due.year}年{due.month}月{due.day}日" + ("前" if found["before"] else "")
    return None


def absolute_dates(text: str, today: date) -> str:
    """`text` with each date said relative to the day it was written as the date it means ("说好明年三月还",
    said in 2026 → "说好2027年3月还"): a document is read long after, when 明年 is another year."""
    def dated(match: re.Match[str]) -> str:
        reckoned = _reckon(match.groupdict(), today) if match.group(0) else None
        if reckoned is None:
            return match.group(0)
        when, has_day = reckoned
        return f"{when.year}年{when.month}月" + (f"{when.day}日" if has_day else "")

    return _RELATIVE_DATE.sub(dated, text)
