"""The legal specialists as units: name, model role, system prompt, tools, shared context.

Each agent's `run(question, context, ctx)` returns an `AgentOutcome` and never raises for a tool
problem: a tool that fails is retried once, then skipped, and the answer says so. The graph runs
the agents (in parallel for several fields of law) with a time limit each.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from core.i18n import t
from core.language import CJK
from core.legal import LegalKnowledge
from core.legal.intent import has_pasted_terms
from core.legal.statutes import named_articles, question_words
from core.legal.terms import expand, named_words
from core.retrieval.bm25 import bounded_query
from graphs.hooks import NodeContext
from graphs.legal import prompts


@dataclass
class SharedContext:
    """What every agent sees: the question, the user's background, the facts gathered so far."""

    question: str
    intent: str
    category: str
    domains: list[str]
    entities: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)  # e.g. verified citations from research, for drafting

    def as_dict(self) -> dict[str, Any]:
        return {"question": self.question, "intent": self.intent, "category": self.category,
                "domains": list(self.domains), "entities": list(self.entities), "facts": list(self.facts)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SharedContext:
        return cls(**{k: data.get(k) for k in ("question", "intent", "category", "domains")},
                   entities=list(data.get("entities") or []), facts=list(data.get("facts") or []))


@dataclass
class AgentOutcome:
    text: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    skipped_tools: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)


class ToolRunner:
    """Calls one agent's tools: retry once, then skip; every call recorded for the trace."""

    def __init__(self, ctx: NodeContext | None) -> None:
        self.ctx = ctx
        self.calls: list[dict[str, Any]] = []
        self.skipped: list[str] = []

    async def call(self, name: str, fn: Callable[..., Any], *args: Any, summary: Callable[[Any], str] = str) -> Any:
        if name in self.skipped:  # already failed twice in this answer: a third try would only add waiting
            return None
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                result = fn(*args)
                if inspect.isawaitable(result):
                    result = await result
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.calls.append({"name": name, "input": _short(args), "status": "failed", "attempt": attempt,
                                   "output": type(error).__name__, "durationMs": _ms(started)})
                continue
            self.calls.append({"name": name, "input": _short(args), "status": "ok", "attempt": attempt,
                               "output": summary(result), "durationMs": _ms(started)})
            return result
        self.skipped.append(name)
        if self.ctx is not None:
            self.ctx.log(t("legal.tool_skipped", tool=t(f"legal.tool_{name}")), level="warning")
        return None

    async def call_blocking(self, name: str, fn: Callable[..., Any], *args: Any,
                            summary: Callable[[Any], str] = str) -> Any:
        """A synchronous tool (index lookups) in a worker thread, so the agent's time limit can cut it."""
        return await self.call(name, lambda *a: asyncio.to_thread(fn, *a), *args, summary=summary)


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _short(args: tuple[Any, ...]) -> str:
    """What a tool was asked, for the trace: its text arguments (the query), not the index object, depth or filters
    (a statute index's repr named a file on the server)."""
    return " | ".join(a[:120] for a in args if isinstance(a, str))


def skipped_note(skipped: list[str]) -> str:
    return "\n".join(t("legal.tool_skipped_note", tool=t(f"legal.tool_{name}")) for name in skipped)


DOMAIN_QUERY_HINTS = {
    "labor_law": "劳动", "contract_law": "合同", "consumer_rights": "消费者", "civil_law": "民事",
    "tort_law": "侵权 损害赔偿", "marriage_family": "婚姻 家庭", "company_law": "公司", "intellectual_property": "知识产权",
    "criminal_law": "刑法", "administrative_law": "行政", "other": "",
}


def focus_for(question: str, domain: str | None) -> str:
    """The sentences of a several-field question that belong to `domain` (all of it when none do)."""
    from core.legal.intent import category_scores

    if not domain:
        return question
    # An English sentence ends at a full stop too ("I got hurt delivering food. The platform says ...").
    pieces = [p for p in re.split(r"[，,。；;！!？?\n]|(?<=[A-Za-z])\.(?=\s)|而且|另外|还有", question) if p.strip()]
    mine = [p for p in pieces if domain in category_scores(p)]
    return "，".join(mine) if mine and len(mine) < len(pieces) else question


# Laws that usually govern each field: retrieved articles from them rank first (a 违约金 clause of a
# loan belongs to the 民法典, not to the 铁路法 whose wording happens to match).
DOMAIN_LAWS = {
    "labor_law": ("劳动合同法", "劳动法", "劳动争议调解仲裁法", "社会保险法", "就业促进法"),
    "contract_law": ("民法典",),
    "consumer_rights": ("消费者权益保护法", "民法典", "食品安全法", "产品质量法", "电子商务法"),
    "civil_law": ("民法典", "民事诉讼法"),
    # Not the 个人信息保护法: its art. 69 speaks of 损害赔偿 and would answer every injury. A question about
    # personal data gets that law from the glossary (`also` below), which names it for such words only.
    "tort_law": ("民法典", "道路交通安全法"),
    "marriage_family": ("民法典",),
    "company_law": ("公司法", "合伙企业法", "民法典"),
    "intellectual_property": ("著作权法", "商标法", "专利法", "反不正当竞争法"),
    "criminal_law": ("刑法", "刑事诉讼法", "治安管理处罚法"),
    "administrative_law": ("行政处罚法", "行政复议法", "行政诉讼法", "行政许可法", "国有土地上房屋征收与补偿条例"),
}


def of_domain_laws(articles: list[Any], domain: str | None, also: tuple[str, ...] = ()) -> list[Any]:
    """The articles from the laws of the field, or `also` (the laws the glossary names for this question);
    all of them when the field names no laws."""
    preferred = DOMAIN_LAWS.get(domain or "", ()) + tuple(also)
    return [a for a in articles if not preferred or any(a.law.endswith(name) for name in preferred)]


def prefer_domain_laws(articles: list[Any], domain: str | None, top_k: int, also: tuple[str, ...] = ()) -> list[Any]:
    first = of_domain_laws(articles, domain, also)
    return (first + [a for a in articles if a not in first])[:top_k]


# A worker (by his trade) striking, breaking or hurting someone or something, not being struck (被): 骑手把我撞伤了,
# 保姆把孩子弄伤了, the courier knocked me down.
WORKER_HARMS_OTHERS = (r"(员工|职工|工作人员|保姆|雇的|帮工|骑手|外卖(小哥|员)?|快递(小哥|员)?|配送员|司机|店员|服务员|工人)"
                       r"[^被，,。；？?！!]{0,12}(撞|打|砸|弄坏|损坏|弄伤|碰|咬)"
                       r"|(撞|打|砸|弄)(伤|倒|坏)了?(人|别人|他人|行人|路人|顾客|客人|我|孩子|小孩|老人)|造成.{0,4}(他人|别人)"
                       r"|(employee|worker|staff|driver|rider|courier|nanny|delivery (man|guy)).{0,40}"
                       r"(hit|ran into|ran over|knocked|damaged|smashed|injured (someone|a |an |my |me))(?!\s+(down\s+|over\s+)?by)")


# Bought at a distance: online, on an app, by mail or by phone, or delivered.
_BOUGHT_AT_A_DISTANCE = (r"网|线上|淘宝|京东|拼多多|闲鱼|直播|抖音|快手|小红书|微商|平台|小程序|电视|电话|邮购|快递|包裹|到货|收到货|发货|物流|"
                         r"签收|\b(online|internet|website|app|apps|platform|TV|phone|mail|mail-order|delivered|delivery|parcel|"
                         r"package|shipped|shipping|Taobao|JD|Pinduoduo|Amazon|eBay)\b")

# Articles on a narrow circumstance, by the words they name it with, and how a question names it: such an article
# answers a question that names the circumstance (or, for a field's own subject, a question of that field) only.
# Shared words brought them into answers about something else: 民法典 1185 (punitive damages for an intellectual-
# property right) into a beating's 惩罚性赔偿, 1215 (a stolen car's accident) into every collision.
# Someone travelling as a passenger, by the trip or the luggage.
# A suitcase the airline lost is a passenger's luggage too, told without the word (民法典 824 was set aside for it).
_A_PASSENGER = (r"旅客|乘客|行李|坐车|乘车|搭车|打车|航班|航空公司|机场|飞机|火车|高铁|动车|大巴|公交|地铁|船|passenger|luggage|baggage|"
                r"\b(suitcases?|airlines?|airports?|plane|planes|airplane|aeroplane|coach|cruise)\b|"
                r"\b(flight|train|bus|taxi|ferry)s?\b")

NARROW_SUBJECTS: tuple[tuple[str, str, str | None], ...] = (
    ("侵害他人知识产权", r"知识产权|专利|商标|著作权|版权|抄袭|盗版|patent|trademark|copyright", "intellectual_property"),
    ("盗窃、抢劫或者抢夺的机动车", r"偷|盗|抢|stolen|theft|thief|robbed|carjack", None),
    ("动物园", r"动物园|zoo", None),
    # 消防法 20: a large public event's fire safety, not a stairwell blocked with a neighbour's boxes.
    ("大型群众性活动", r"活动|演唱会|音乐节|展会|展览|庙会|集会|赛事|比赛|晚会|event|concert|festival|fair|exhibition|rally|match", None),
    # 民法典 1081: a serving soldier's spouse asking for divorce, not every divorce (a child of eighteen choosing a parent).
    ("现役军人的配偶", r"军人|军队|部队|现役|军婚|服役|soldier|military|army|servicem[ae]n", None),
    # 1212: a car driven off without its owner's leave, not every collision.
    ("未经允许驾驶他人机动车", r"未经|没经|没有?经过|偷开|私自|偷偷开|没有?(问|告诉)|without .{0,20}(permission|consent)",
     None),
    # 1209, 1210: a car lent, rented or sold, whose driver is not its owner (a 出租车 is no rented car), or said by who
    # drove it (朋友开我的车出了车祸, my son drove my car): the owner answers for his own fault only.
    ("机动车所有人、管理人与使用人不是同一人", r"借|(?<!出)租|出租(?!车)|挂靠|开了?我(家|们家)?的|lent|borrow|rented|hired|leased|"
     r"(drove|driving|drives|drive|took|used) (my|our) (car|vehicle|truck|van)", None),
    ("转让并交付机动车", r"买|卖|过户|转让|二手|sold|bought|second-hand|used car", None),
    # 1211, 1214: a car run under another's licence, a car assembled or due for scrapping.
    ("以挂靠形式", r"挂靠|affiliat", None),
    ("拼装或者已经达到报废标准", r"拼装|报废|scrap|junk", None),
    # 1216, 1217: a driver who fled, a passenger given a free ride. 1216 is also the relief fund that pays for a car
    # without the compulsory insurance (没买保险的车撞了我).
    ("发生交通事故后逃逸", r"逃逸|逃跑|跑了|溜了|开走了|hit-and-run|hit and run|fled|drove off|ran away|"
                           rf"{named_words('uninsured')}", None),
    ("无偿搭乘人", r"搭|蹭车|顺风车|捎|免费坐|free ride|lift|hitchhik|carpool", None),
    # 1191: a worker who harms someone, not a worker who is hurt (a rider's fall is his own injury).
    ("工作人员因执行工作任务造成他人损害", WORKER_HARMS_OTHERS, None),
    # 道路交通安全法 91, 99-101: a driver's crime and licence taken away, not who pays for a collision.
    ("吊销机动车驾驶证", r"驾驶证|驾照|吊销|犯罪|刑事|坐牢|判刑|拘留|酒驾|醉驾|酒后|醉酒|逃逸|逃跑|跑了|撞死|死亡|"
                         r"licen[cs]e|crime|criminal|jail|prison|drunk|DUI|fled|hit-and-run|hit and run|killed|died", None),
    # 1245-1250: the harm an animal does, not every injury (动物 alone is in food rules too: 食品安全法 34).
    ("饲养人", r"狗|猫|宠物|动物|犬|咬|\b(dogs?|cats?|pets?|animals?|bit|bitten|bite)\b", None),
    # 1249: an animal abandoned or run away, not a neighbour's dog that bit (it came fourth in every dog bite).
    ("遗弃、逃逸的动物", r"流浪|遗弃|丢弃|弃养|逃逸|走丢|跑丢|跑出来|跑出去|逃出|脱逃|没人要|\b(stray|abandoned|escaped|ran away|got out|got loose|runaway|lost dog|lost cat)\b", None),
    # 1250: a third person's fault that set the animal on (someone teased or let loose the dog), not every bite: it came
    # fourth in the plain ones.
    ("因第三人的过错致使动物", r"第三人|(别人|他人|路人|陌生人|有人|另一个人|其他人|外人)[^，,。；？?]{0,8}(逗|惹|激怒|挑逗|踢|打|扔|砸|吓|放开|松开|解开|放出)|"
     r"\b(someone else|another person|a third party|a stranger|a passer-?by)\b.{0,30}\b(teas|provok|kick|hit|threw|let|unleash|untied|startl)", None),
    # 刑法 224: a fraud in signing or performing a contract, not every fraud: a hacked account borrowing from its friends
    # was cited it as fourth.
    ("在签订、履行合同过程中", r"合同|协议|签约|订单|货款|工程款|contract|agreement", None),
    # 1154: a will that fails in part (an heir who renounces or dies first, a void clause), not an estate left
    # without one: 没留遗嘱 names a will too, so the words for its failing are what count.
    ("遗嘱继承人放弃继承", r"放弃|丧失|先于|遗嘱.{0,8}(无效|没写|没提|没分|漏|未处分|只写了|没有写)|遗赠|"
                           r"renounc|gave up|invalid will|void will|not in the will|predeceas|died before", None),
    # 1155: a child not yet born when the estate is divided.
    ("保留胎儿的继承份额", r"胎儿|怀孕|怀着|孕|遗腹|未出生|pregnan|unborn", None),
    # 1188, 1189: harm done by a child or one without capacity, which his guardian answers for.
    ("由监护人承担", r"孩子|小孩|儿子|女儿|未成年|监护|精神|智力|\b(child|children|kids?|son|daughter|minor|guardian)\b",
     None),
    # 1238: an aircraft's harm; the rules for food (食品安全法 and any article on 食品), not a phone or a handbag that is
    # a fake: the online food platform's duties (食品安全法 131) came third in the answer on a fake bag from a livestream.
    ("民用航空器", r"飞机|航空|航班|无人机|\b(aircraft|plane|drone|flight)s?\b", None),
    ("食品", r"食|吃|喝|饮料|奶|外卖|餐|菜|饭|酒|茅台|蜂蜜|燕窝|保健品|\b(food|eat|ate|eating|drink|meal|milk|snack|takeaway|takeout|"
            r"formula|liquor|baijiu|wine|whisk(e)?y|honey|supplement)s?\b",
     None),
    # 消费者权益保护法 25: the seven-day return without a reason is for goods bought at a distance, not a gym's
    # membership or a shop counter's purchase (a prepayment's 53, faulty goods' 24).
    # Nor a course or a membership bought online (报了个线上网课): a service paid ahead, not goods (53).
    ("网络、电视、电话、邮购等方式销售商品", rf"(?s)^(?!.*({named_words('prepaid_service')})).*({_BOUGHT_AT_A_DISTANCE}|无理由|七天|7天)"
     r"|无理由|七天|7天|no.reason|(7|seven).day", None),
    # The 电子商务法 is for what is sold online (电子商务经营者, 电子商务平台): a supermarket's counter is no shop of it, yet
    # its words (销售的商品, 消费者) brought its articles (17, 85) into the answer about a purchase there.
    ("电子商务", _BOUGHT_AT_A_DISTANCE, None),
    # 民法典 1071: children born out of wedlock, not every custody question.
    ("非婚生子女享有与婚生子女同等的权利", r"非婚生|私生|未婚|没结婚|没有结婚|没领证|没有领证|同居|out of wedlock|unmarried|not married|never married|"
     r"illegitimate|cohabit", None),
    # 劳动合同法 21: dismissal on probation, not every dismissal (a pregnant worker's).
    ("在试用期中", r"试用期|试用|probation", None),
    # 1192: help hired by a private person, hurt or hurting while at it, not every collision (an uninsured driver's).
    ("个人之间形成劳务关系", r"骑手|外卖|快递|配送|保姆|钟点工|家政|帮工|包工头|工头|雇|劳务|干活|打工|工人|装修|师傅|员工|工作|"
     r"rider|courier|platform|nanny|helper|hired|worker|handyman|cleaner|employee|housekeeper|working|delivering", None),
    # 823, 824: a passenger's own injury or luggage, not a parcel the carrier lost (832, 833). (旅客 alone is in the
    # drunk-driving crime too: 刑法 133之一 names 旅客运输.)
    ("旅客随身携带物品", _A_PASSENGER, None),
    # 民法典 838-842: goods carried by several modes under one contract, not every parcel: 842 shares 货物的毁损、灭失 and
    # 赔偿责任 with the carrier's liability (832) and came third in the answer about a parcel the courier lost. Nor 835,
    # the freight refunded for goods lost to force majeure, which no one asking about a lost parcel has named.
    ("多式联运", r"多式联运|联运|海运|铁路|航空|空运|multimodal|combined transport|intermodal", None),
    ("因不可抗力灭失", r"不可抗力|地震|洪水|台风|天灾|火灾|force majeure|earthquake|flood|typhoon|act of god", None),
    # 823 is a passenger's injury or death, not every trip: a cancelled flight was answered with it.
    ("旅客的伤亡", r"伤|死|亡|摔|撞|流血|骨折|晕倒|injur|hurt|died|killed|death|fell|bleed", None),
    # 劳动合同法 50: the certificate, the file and the handover when a contract ends, not whether compensation is
    # owed: its 社会保险 and 经济补偿 put it ahead of 46 in an answer about quitting over unpaid social insurance.
    ("出具解除或者终止劳动合同的证明", r"证明|档案|交接|转移|手续|certificate|paperwork|records|handover|hand over", None),
    # 1166: liability without fault where a law says so, a pointer to those laws, not the rule of a leak or a scratch:
    # it shares every word of the fault rule (1165) and came beside it in every answer on damage.
    ("不论行为人有无过错", r"过错|有没有错|不是故意|无心|意外|无过失|no.fault|without fault|strict liabilit|not (my|his|her|their) fault|accident", None),
    # 民法典 1253: what falls from a building or what hangs on it, not a tree blown down (1257), which led that answer.
    ("其搁置物、悬挂物发生脱落", r"楼|建筑|房屋|墙|屋顶|屋檐|阳台|窗|广告牌|招牌|空调|外机|花盆|搁置|悬挂|挂着|天花板|吊灯|瓷砖|工地|脚手架|施工|塔吊|"
     r"building|balcony|window|roof|wall|sign|billboard|ceiling|air.?con|flower.?pot|hanging|tiles?\b|construction|scaffold", None),
    # 民法典 527-529: a party who suspends his own performance because the other may not perform (its business failing,
    # its assets moved), not every party who does not perform: 528 shares 不履行主要债务 and 解除合同 with rescission
    # (563) and came fourth in the answer about a renovation contractor who vanished with the money.
    ("中止履行", r"中止|暂停|先不(付|给|交|发)|停止(付款|支付|供货|发货|履行)|不敢(付|给|交|发)|担保|恶化|转移财产|抽逃|"
                r"丧失.{0,4}信誉|资金链|快(要)?倒闭|suspend|withhold|hold off|stop (paying|payment|delivery)|security|"
                r"guarantee|going bust|insolven", None),
    # 民法典 919-936: a contract to act for another (an agent, a broker, a lawyer, a tour operator's local agency), not every
    # service: 933 (either side may end an agency at any time) shares 解除合同 and 合同履行后可以获得的利益 with the rules on
    # breach and came third in the answer about a wedding banquet the restaurant cancelled.
    ("委托合同", r"委托|受托|代理|代办|代购|代买|代卖|代收|托人|托朋友|中介|律师|会计师|监理|评估|旅行社|旅游|旅行团|跟团|地接|"
                r"个人信息|外包|帮(我|忙)(办|买|卖|处理|打理|管理|跑)|\b(agents?|agency|broker|brokers|on (my|our|his|her|their) behalf|"
                r"lawyers?|attorneys?|accountants?|proxy|tour|tours|travel agency|outsourc\w*|personal (data|information))\b", None),
    # 1145-1149: who administers an estate, asked by that name.
    ("遗产管理人", r"管理人|遗嘱执行人|执行遗嘱|管理遗产|清点|executor|administrator", None),
    # The 刑法's crimes against property share 公私财物 and 数额较大: a fraud's answer was filled with insurance and
    # bill fraud (198, 194), wilful damage (275) and bribery (389). Each is cited when the question names its act.
    ("保险诈骗", r"保险|insurance", None),
    ("金融票据诈骗", r"票据|汇票|本票|支票|cheque|bill of exchange", None),
    ("非法集资", r"集资|理财|投资|fundrais|invest", None),
    ("故意毁坏公私财物", r"毁|砸|弄坏|损坏|破坏|划|damag|destroy|smash|vandal", None),
    ("聚众哄抢", r"哄抢|抢|loot", None),
    ("敲诈勒索", r"敲诈|勒索|威胁|要挟|blackmail|extort|threat", None),
    ("给予国家工作人员以财物", r"行贿|送礼|红包|贿赂|官员|bribe", None),
    ("盗窃公私财物", r"偷|盗|扒|窃|steal|stole|stolen|theft|thief|pickpocket", None),
    ("抢夺公私财物", r"抢|snatch|grab", None),
    # 刑法 68, 78: an offender's lighter sentence for leads he gave (立功), not a victim whose police found leads.
    ("立功表现", r"立功|揭发|检举|举报|自首|坦白|减刑|从轻|减轻|戴罪|informant|inform on|turned (myself|himself|herself) in|"
                r"confess|lenien|reduced sentence|commutation", None),
)


# Chapters of contracts that only a question naming them is about, and how a question names them. Their articles share
# the everyday contract's words: a flatmate who left the asker with the whole rent was cited 民法典 758 (a finance lease's
# lessee who does not pay), a suitcase the airline lost 897 (a custodian's 保管物毁损、灭失) beside the carrier's own.
NARROW_CHAPTERS: tuple[tuple[str, str], ...] = (
    ("融资租赁合同", r"融资|租赁公司|以租代购|售后回租|\b(finance|financial|financing) leas\w*|leasing compan\w*|lease-to-own|rent-to-own"),
    # Whoever keeps what is left with him (物业, 驿站, a cloakroom, a coat check), as the glossary names him.
    # A car park names the chapter only when it keeps the car (paid, attended): a free mall car park lends a space.
    ("保管合同", rf"保管|寄存|寄放|存放|存包|存车|衣帽间|储物柜|{named_words('parcel_keeper')}|{named_words('kept_parking')}|"
                r"\b(cloakroom|locker|left luggage|deposit(ed)?|storage|stored?|valet)\b|left (it|them|my \w+) with"),
    ("仓储合同", r"仓储|仓库|入库|\b(warehouse|warehousing|storage)\b"),
)


def of_the_questions_subjects(articles: list[Any], question: str, fields: list[str]) -> list[Any]:
    """`articles` without those on a narrow circumstance the question does not name, nor those of a narrow chapter
    (`NARROW_CHAPTERS`) it does not name."""
    def elsewhere(article: Any) -> bool:
        return any(words in article.text and field not in fields and not re.search(named, question, re.IGNORECASE)
                   for words, named, field in NARROW_SUBJECTS) or any(
            _chapter_subject(getattr(article, "chapter", "") or "") == chapter
            and not re.search(named, question, re.IGNORECASE) for chapter, named in NARROW_CHAPTERS)

    return [a for a in articles if not elsewhere(a)]


def plainer_chapters_first(articles: list[Any], question: str) -> list[Any]:
    """Articles of a chapter that narrows another chapter among them (融资租赁合同 beside 租赁合同) go last,
    unless the question says what narrows it (融资): a landlord's deposit is a lease, not a finance lease."""
    subjects = {a.law: set() for a in articles}
    for a in articles:
        subjects[a.law].add(_chapter_subject(a.chapter))

    def narrowed(article: Any) -> bool:
        subject = _chapter_subject(article.chapter)
        return any(other and other != subject and other in subject
                   and not any(part and part in question for part in subject.split(other))
                   for other in subjects[article.law])

    return sorted(articles, key=narrowed)  # stable: the order within each group stays


def _chapter_subject(chapter: str) -> str:
    """"第十五章 融资租赁合同" → "融资租赁合同"."""
    return chapter.split(" ", 1)[-1].strip() if chapter else ""


def contract_kind(articles: list[Any], text: str) -> str:
    """The typical contract (a 民法典 chapter: 租赁合同, 借款合同) the articles found for a whole contract point
    to most, the better ranked weighing more; "" when none does. A narrower chapter (融资租赁合同) counts
    last unless the text says what narrows it."""
    subjects = [_chapter_subject(a.chapter) for a in articles if a.law.endswith("民法典")]
    named = [subject for subject in subjects if subject.endswith("合同") and subject in text]
    if named:  # the text names its kind itself (这份买卖合同): no vote among the articles' chapters overrides that
        return max(named, key=len)
    votes: dict[str, float] = {}
    for rank, article in enumerate(plainer_chapters_first(articles, text)):
        # Another law's articles vote for that law: a labour contract is the 劳动合同法's, no 民法典 chapter's.
        subject = _chapter_subject(article.chapter) if article.law.endswith("民法典") else article.law
        # The general part's chapters (违约责任, 合同的订立) are no kind: a sale with a 定金 clause found
        # 定金 articles first, and the vote left it kindless.
        if article.law.endswith("民法典") and not subject.endswith("合同"):
            continue
        votes[subject] = votes.get(subject, 0.0) + 1 / (rank + 1)
    best = max(votes, key=lambda subject: votes[subject]) if votes else ""
    return best if best.endswith("合同") else ""


@dataclass(frozen=True)
class ClauseTopic:
    """What a clause does, read from its wording, and the articles that govern it."""

    clause: str  # the clause's wording (a pattern)
    article: str  # what an article on it says (a pattern)
    words: str = ""  # the statutes' words for it, searched with the clause


# In the order they win when a clause does several ("逾期付款的，每天罚款200元" is a penalty first).
CLAUSE_TOPICS = (
    # Remedies every contract shares, governed by the general part (民法典 562-566, 585-588) whatever the kind.
    # A contract cannot fine anyone: its 罚款 or 滞纳金 for being late is a penalty clause (585). So is a deposit
    # kept whatever the loss (押金不予退还, 没收押金): the court may cut it as it cuts any penalty, not the lease's
    # rule on handing the flat back (733).
    ClauseTopic(r"违约金|罚款|罚金|滞纳金|(押金|保证金).{0,8}(不予?退|不返还|归.方所有)|(没收|扣除|扣留|不退还?).{0,4}(押金|保证金)",
                r"违约金", "违约金"),
    ClauseTopic(r"定金", r"定金"),
    # 概不负责 excludes liability: void for harm or in an unfair standard term (506, 497), not for a seller's
    # hidden defects (618); none of it is the kind's rule on what the clause happens to name (delivery, 601).
    ClauseTopic(r"概不负责|不(负|承担)(任何)?.{0,4}责任|免责|免除.{0,6}责任", r"免除|免责",
                "免责条款 不合理地免除或者减轻其责任"),
    # A cap on what one side pays for its breach (只赔偿500元, 最多赔偿货款的10%) limits its liability: the agreed
    # measure of damages (585) against the loss (584), void as an unfair standard term (497) or for harm (506).
    ClauseTopic(r"(只|仅|最多|最高|至多|顶多|不超过).{0,4}(赔|补偿|退还|承担)|赔偿.{0,10}(为限|封顶|上限)",
                r"减轻其责任|损失赔偿额|免责条款",
                "损失赔偿额 不合理地免除或者减轻其责任 免责条款无效"),
    ClauseTopic(r"解除", r"解除"),
    # Paying is the kind's own payment article (承揽 782, 买卖 626, 租赁 721), not its definition, which
    # names the payment too (770: 定作人支付报酬的合同).
    ClauseTopic(r"付款|支付|付清|结清|分.{0,2}期|预付|首付|尾款", r"应当按照约定的.{0,8}支付", "按照约定的期限支付"),
    # The price itself (总价5万元, 单价) is the agreed amount (626) and the rule for a price left unclear (510, 511),
    # not the kind's definition, which names the price too (595: 买受人支付价款的合同).
    ClauseTopic(r"总价|单价|价款|价格|售价|货款|总金额|合同金额", r"价款的数额|价款或者报酬不明确|数额和支付方式",
                "价款的数额 价款或者报酬不明确 按照约定的数额和支付方式支付价款"),
    # Handing over the goods or the work is the kind's delivery article (601, 603, 708), not its definition.
    ClauseTopic(r"交货|交付|发货|送货|供货|交房|提货", r"按照约定的?.{0,6}(时间|期限|地点|将.{0,4})交付",
                "按照约定的时间交付标的物 交付期限 交付地点"),
)


def clause_topics(clause: str) -> list[ClauseTopic]:
    return [topic for topic in CLAUSE_TOPICS if re.search(topic.clause, clause)]


def of_kind_first(articles: list[Any], kind: str, text: str, clause: str = "") -> list[Any]:
    """The articles on what the clause does (its topics, in their order) first, then the contract's own chapter,
    then the rest (narrower chapters last): a loan's 逾期违约金 is a penalty clause (585), not the definition
    of a loan (667). Another kind's chapter is never on topic: a sale's price is not a lease's rent."""
    ordered = plainer_chapters_first(articles, text)
    topics = clause_topics(clause)

    def rank(article: Any) -> int:
        subject = _chapter_subject(article.chapter)
        of_kind = not kind or subject == kind
        # Of a contract whose kind is unknown, every typical contract's chapter is another kind's.
        other_kind = article.law.endswith("民法典") and subject.endswith("合同") and subject != kind
        for number, topic in enumerate(topics):
            if not other_kind and re.search(topic.article, article.text):
                return number
        return len(topics) + (0 if of_kind else 1)

    return sorted(ordered, key=rank)


LAWS_SEARCHED = 2  # laws the glossary names that get a search of their own (each is a pass over the corpus)
# How deep a named law's own search looks. The law only weighs its articles up, it does not filter: six deep,
# the 民法典 had two articles on 名誉权 among them, and an article of the 军人地位和权益保障法 took the third place.
LAW_SEARCH_DEPTH = 12


def _take_turns(lists: list[list[Any]]) -> list[Any]:
    """The first of each list, then the second of each, ...; an article already taken is skipped."""
    taken: list[Any] = []
    for rank in range(max((len(items) for items in lists), default=0)):
        for items in lists:
            if rank < len(items) and items[rank].citation not in {a.citation for a in taken}:
                taken.append(items[rank])
    return taken


# Beyond the first, an article is cited only if each search that found it scored it near that search's best: the
# last slots took whatever came next (民法典 1071 on children born out of wedlock beside custody, 劳动合同法 74 on
# labour inspection beside unpaid wages, 1192 on hired help beside a car crash). Fewer, relevant citations read better.
ALWAYS_CITED = 1
FILLER_RATIO = 0.7
# Another law than the field's is cited beyond the first only as some search's best: the 道路交通安全法's penalty for
# drunk driving (91) beside the crime (刑法 133之一), not a soldier's reputation (军人地位和权益保障法 65) beside defamation.
OTHER_LAWS_RATIO = 0.95


def relative_strengths(searches: list[list[Any]], candidates: list[Any]) -> dict[str, float]:
    """Each candidate's score as a share of its search's best candidate, the lowest over the searches that found it
    (an article set aside as off the subject sets no bar). An article without a lexical score was found by meaning
    alone: it is strong only as the best of the search by meaning (`meaning_strength`)."""
    strengths: dict[str, float] = {}
    kept = {a.citation for a in candidates}
    for found in ([a for a in search if a.citation in kept] for search in searches):
        top = max((a.score for a in found), default=0.0)
        for article in found:
            strength = article.score / top if article.score > 0 and top > 0 else meaning_strength(article)
            if strength is not None:
                strengths[article.citation] = min(strengths.get(article.citation, 1.0), strength)
    return strengths


def meaning_strength(article: Any) -> float | None:
    """How strong an article found by meaning alone is: the search by meaning's best is as strong as a lexical
    search's best, the rest are filler. Its similarities say no more: they lie within a few hundredths of each other
    (0.87 for the first, 0.866 for the eighth), so a question padded with greetings had four such articles cited, on
    labour inspection and union rights, beside the one on its subject. None: not searched by meaning (BM25 alone)."""
    rank = getattr(article, "meaning_rank", None)
    return None if rank is None else (1.0 if rank == 0 else 0.0)


def without_filler(articles: list[Any], strengths: dict[str, float], of_the_field: list[Any],
                   leaders: list[Any], asked: set[str] | None = None) -> list[Any]:
    """The first and the `leaders` (each named law's best), then those near their searches' best; from a law other
    than the field's (`of_the_field`), only a search's best that shares a word the question `asked` (its own or its
    glossary terms'), even in the first place: another law's article that merely shares the field's words (侵权,
    损害赔偿) is what filled the gaps (个人信息保护法 69 beside a smashed car window), or led an answer whose field had no
    law among the hits (the Basic Law of Macao)."""
    fields_own = {a.citation for a in of_the_field}
    leading = {a.citation for a in leaders}

    def foreign_but_unasked(article: Any) -> bool:
        return (asked is not None and article.citation not in fields_own and bool(of_the_field)
                and not any(word in article.text for word in asked))

    def strong(article: Any) -> bool:
        bar = FILLER_RATIO if article.citation in fields_own else OTHER_LAWS_RATIO
        return strengths.get(article.citation, 1.0) >= bar

    # Nor, of any law, a lexical hit that shares no word with the question or its glossary terms: only the field's hint
    # (刑法) found it, as 刑法 16 for "警察找到了线索". An article found by meaning shares no word by nature.
    def unasked(article: Any) -> bool:
        return (asked is not None and getattr(article, "meaning_rank", None) is None
                and not any(word in article.text for word in asked))

    return [a for rank, a in enumerate(articles) if not foreign_but_unasked(a) and not unasked(a)
            and (rank < ALWAYS_CITED or a.citation in leading or strong(a))]


def _article_dict(article: Any) -> dict[str, Any]:
    return {"citation": article.citation, "law": article.law, "article": article.article_no_arabic,
            "text": " ".join(article.text.split())}


CLAUSE_DEPTH = 12  # one search per clause: deep enough that its kind's articles are among the hits to reorder


def clause_words(clause: str) -> str:
    """The clause without its number: "第二条" searched as words finds every law's article 2 cross-reference."""
    return re.sub(r"^(第[一二三四五六七八九十\d]+条|[一二三四五六七八九十]+、|\d+[.、])\s*", "", clause)


# Who a sentence of a contract binds: a comma before one of them starts the next obligation.
PARTIES = ("甲方", "乙方", "丙方", "双方", "出租人", "承租人", "出卖人", "买受人", "买方", "卖方", "借款人", "贷款人",
           "出借人", "用人单位", "劳动者", "承包人", "发包人", "定作人", "承揽人")
_PARTY_AFTER_COMMA = re.compile(rf"(?<=[，,])\s*(?=(?:{'|'.join(PARTIES)}))")
_CLAUSE_MARK = re.compile(r"第[一二三四五六七八九十\d]+条|[一二三四五六七八九十]、|\d+[.、]")  # 第X条 / 一、 / 1.
# A sentence that only sets a condition (乙方逾期的，…; 如甲方…，…) belongs with the obligation after it.
# A subject may come first ("沙发如有破损，乙方…"): the condition word is then a few characters in.
_CONDITION = re.compile(r"(的|时|后)$|^[^，,]{0,4}?(如|若|如果|倘若|假如|因|由于)")


def _obligations(sentence: str) -> list[str]:
    """One unmarked sentence → the obligations it states, one per party named after a comma
    ("甲方可随时收回房屋，乙方每月支付租金" is two)."""
    pieces: list[str] = []
    for piece in _PARTY_AFTER_COMMA.split(sentence):
        if pieces and _CONDITION.search(pieces[-1].rstrip("，, ")):
            pieces[-1] += piece
        else:
            pieces.append(piece)
    return pieces


def split_clauses(text: str) -> list[str]:
    """A pasted contract → its clauses (第X条 / 一、 / 1. / ；-separated, else one per obligation), at most 8."""
    # The request before the colon ("帮我看看这份合同：", "Please review this lease:") is no clause; a colon of a
    # time (10:30) is not one that ends a request.
    lead = re.match(r"^[^：:]{0,40}?(：|(?<!\d):(?!\d))", text)
    body = text[lead.end():] if lead else text
    parts = re.split(rf"(?={_CLAUSE_MARK.pattern})|(?<=[；;。])", body)
    # A numbered clause is one unit as its drafter wrote it; only unmarked text is cut at its parties.
    parts = [piece for part in parts for piece in ([part] if _CLAUSE_MARK.match(part.strip()) else _obligations(part))]
    clauses = [p.strip(" ；;。，,\n") for p in parts if len(p.strip(" ；;。，,\n")) >= 4]
    return clauses[:8] or [text.strip()]


# The request points at a contract ("这份合同", "this NDA") it has not sent: there is nothing to review yet.
_POINTS_AT_CONTRACT = re.compile(r"(?:这|该|此|我的|下面的?|以下的?)[份个张些]?.{0,8}(?:合同|协议|条款|借条)"
                                 r"|\b(?:this|my|the)\b.{0,20}\b(?:agreement|contract|nda|lease|clauses?)\b", re.I)


def lacks_terms(text: str) -> bool:
    """A review request with no contract text in it: one sentence, nothing after a colon, no numbered clauses."""
    return (bool(_POINTS_AT_CONTRACT.search(text)) and not has_pasted_terms(text)
            and not re.search(r"[：:]\s*\S{4,}", text) and len(split_clauses(text)) == 1)


@dataclass(frozen=True)
class LegalAgent:
    name: str  # legal_research, case_analysis, document_draft, general
    role: str  # model role: LLM_MODEL_<ROLE> picks its model
    system: str
    tools: tuple[str, ...]
    run: Callable[..., Awaitable[AgentOutcome]]


async def _generate(ctx: NodeContext, role: str, system: str, prompt: str, facts: dict[str, Any]) -> str:
    """The agent's text; the graph streams it to the user only after its citations are checked."""
    parts: list[str] = []
    async for piece in ctx.llm.stream(role=role, system=system, prompt=prompt, facts=facts):
        parts.append(piece)
    return "".join(parts).strip()


async def run_research(shared: SharedContext, ctx: NodeContext, knowledge: LegalKnowledge, *, domain: str | None,
                       mode: str = "answer") -> AgentOutcome:
    tools = ToolRunner(ctx)
    hint = DOMAIN_QUERY_HINTS.get(domain or "", "")
    found = lambda items: t("legal.trace_articles_found", count=len(items or []))  # noqa: E731
    clauses: list[dict[str, Any]] = []
    articles: list[dict[str, Any]] = []
    repealed: list[dict[str, str]] = []
    beyond: list[str] = []
    notes: list[str] = []
    if mode == "review" and lacks_terms(shared.question):
        # Reviewing the request itself as a clause cited whatever shared its words (a 技术转让 article for "有没有坑").
        return AgentOutcome(text=t("legal.review_needs_terms"))
    if mode == "review":
        # What kind of contract it is (租赁合同), from the whole text: a clause alone ("甲方可随时收回房屋")
        # shares its words with articles of any chapter (a usufruct's 收回), the lease's own rules among them.
        whole = (f"{await asyncio.to_thread(bounded_query, shared.question)} "
                 f"{(await asyncio.to_thread(expand, shared.question)).terms}").strip()
        kind = contract_kind(await tools.call_blocking("statute_search", knowledge.statutes.search, whole, 10,
                                                       None, whole, summary=found) or [], shared.question)
        for clause in split_clauses(shared.question):
            words = clause_words(clause)
            # The glossary reads the clause with the contract's kind beside it: "乙方负责维修" is a tenant's repair
            # in a lease, and the kind's own name is the search's pointer to its chapter, all in one search.
            # What the clause does, in the statutes' words (罚款 → 违约金), reaches the articles on it.
            # A clause in English shows what it does through its glossary translation (non-refundable → 违约金):
            # the topics' patterns are the statutes' Chinese words.
            read_as = words if CJK.search(words) else f"{words} {(await asyncio.to_thread(expand, words)).terms}"
            topic_words = " ".join(topic.words for topic in clause_topics(read_as) if topic.words)
            expansion = await asyncio.to_thread(expand, f"{words} {topic_words} {kind}")
            query = f"{await asyncio.to_thread(bounded_query, words)} {hint} {topic_words} {expansion.terms} {kind}".strip()
            meaning = f"{words} {topic_words} {expansion.terms}".strip()
            hits = await tools.call_blocking("statute_search", knowledge.statutes.search, query, CLAUSE_DEPTH, None,
                                             meaning, summary=found) or []
            ranked = of_kind_first(prefer_domain_laws(hits, domain, len(hits)), kind, shared.question, read_as)
            clauses.append({"clause": clause, "articles": [_article_dict(a) for a in ranked[:2]]})
            articles += clauses[-1]["articles"]
    else:
        # Articles the user names (民法典第1087条, 《劳动合同法》第39条) are fetched directly; a repealed
        # law the user still cites (合同法第52条) is named with what replaced it.
        named = await tools.call_blocking("get_article", named_articles, knowledge.statutes, shared.question,
                                          summary=lambda items: [n.as_written for n in items or []])
        for item in named or []:
            if item.article is not None:
                articles.append({**_article_dict(item.article), "named": True})
            elif item.replacement:
                repealed.append({"written": item.as_written, "replacement": item.replacement})
                # The articles that now say what the repealed one said are what the user is after.
                articles += [_article_dict(a) for a in item.successors]
        # A lookup of the articles it names wants those, not four more that merely share words.
        wanted = 4 if not articles else (0 if shared.intent == "regulation_query" else 2)
        hits = []
        if wanted:
            focus = await asyncio.to_thread(focus_for, shared.question, domain if len(shared.domains) > 1 else None)
            # Everyday words (借条, 打赏, 抄袭) are added in the statutes' own words, and the law that
            # governs them is searched first: a lexical search alone returns whatever shares a word.
            # Off the event loop, as every glossary read: ~120 patterns over a long story are tens of milliseconds
            # that every other client of the server would wait for.
            expansion = await asyncio.to_thread(expand, focus)
            # Regulations the topic needs that the corpus lacks (工伤保险条例): named as not cited, never cited unchecked.
            beyond = [t(f"legal.beyond_{key}") for key in expansion.beyond]
            # What a word of the question may mean that the law treats apart (deposit: 定金 or 押金), said plainly.
            notes = [t(f"legal.note_{key}") for key in expansion.notes]
            # A long story is searched by its key words: every query word costs a pass over the corpus.
            key_words = await asyncio.to_thread(bounded_query, focus)
            query = f"{key_words} {hint} {expansion.terms}".strip()
            # The search by meaning reads the question with the glossary's statute words, not the field
            # hint: a bare 合同 or 侵权 pulls it towards any article about contracts or torts.
            meaning = f"{focus} {expansion.terms}".strip()
            # The laws the glossary names are searched first, each on its own, and take turns leading: a
            # story of overtime and a lay-off wants both the 劳动法 and the 劳动合同法, not six of one.
            # Each with its own entries' words: a fake sold online searched in the consumer law with the
            # platform's words too found the platform article (44) ahead of the triple refund (55).
            per_law = []
            for law in expansion.laws[:LAWS_SEARCHED]:
                own_terms = expansion.terms_for(law)
                boosted = await tools.call_blocking("statute_search", knowledge.statutes.search,
                                                    f"{key_words} {hint} {own_terms}".strip(), LAW_SEARCH_DEPTH, law,
                                                    f"{focus} {own_terms}".strip(), summary=found)
                per_law.append([a for a in boosted or [] if a.law.endswith(law)])
            # Each named law's best article leads; its further ones compete with the whole search's: the 道交法's
            # own list went on to drunk driving (91) ahead of the 民法典's articles on a collision's damages.
            first = _take_turns([items[:1] for items in per_law])
            later = _take_turns([items[1:] for items in per_law])
            hits = await tools.call_blocking("statute_search", knowledge.statutes.search, query, 10, None,
                                             meaning, summary=found)
            searched_own: list[Any] = []
            latest = focus.rsplit("\n", 1)[-1].strip()
            if latest and latest != focus.strip():
                # A follow-up read with the question before it ("那押金能要双倍吗"): what it asks itself leads,
                # or the earlier question's articles come back unchanged.
                own = f"{latest} {(await asyncio.to_thread(expand, latest)).terms}".strip()
                # Its own two best lead even when the thread's search found them too: dropping those left
                # its weaker hits (an unrelated law's article) in front.
                # Only from the thread's field: its words alone ("能要求赔偿多少") match any law's damages
                # (消费者权益保护法 after a loan question); none there, the thread's articles stay in front.
                searched_own = await tools.call_blocking("statute_search", knowledge.statutes.search, own, 4, None, own,
                                                         summary=found) or []
                leading = of_domain_laws(searched_own, domain)[:2]
                first = leading + [f for f in first if f.citation not in {a.citation for a in leading}]
            preferred = of_domain_laws(hits or [], domain, expansion.laws)
            ranked = preferred + later + [a for a in hits or [] if a not in preferred]
            rest = [a for a in _take_turns([ranked]) if a.citation not in {f.citation for f in first}]
            fields = [*shared.domains, shared.category]
            ordered = plainer_chapters_first(of_the_questions_subjects(first + rest, shared.question, fields),
                                             shared.question)
            asked = await asyncio.to_thread(question_words, f"{focus} {expansion.terms}")
            hits = without_filler(ordered, relative_strengths([*per_law, hits or [], searched_own], ordered),
                                  of_domain_laws(ordered, domain, expansion.laws), first, asked)[:wanted]
        articles += [a for a in (_article_dict(h) for h in hits or []) if a["citation"] not in
                     {x["citation"] for x in articles}]
    web: list[dict[str, Any]] = []
    searcher = ctx.flow.tools.get("web_search")
    if searcher is not None:
        results = await tools.call("web_search", searcher.search, shared.question,
                                   summary=lambda r: t("legal.trace_results_found", count=len(r.results)))
        web = [r.model_dump() for r in results.results[:3]] if results else []
    system = prompts.REVIEW_SYSTEM if mode == "review" else prompts.RESEARCH_SYSTEM
    facts = {**shared.as_dict(), "domain": domain, "mode": mode, "articles": articles, "clauses": clauses, "web": web,
             "repealed": repealed, "beyond_corpus": beyond, "notes": notes,
             "statutes_unavailable": "statute_search" in tools.skipped}
    text = await _generate(ctx, "legal_research", system,
                           prompts.research_prompt(shared.question, domain, articles, web, mode, repealed, beyond, notes), facts)
    return AgentOutcome(text=text, tool_calls=tools.calls, skipped_tools=tools.skipped,
                        facts=[f"{a['citation']}：{a['text'][:80]}" for a in articles[:4]])


async def run_cases(shared: SharedContext, ctx: NodeContext, knowledge: LegalKnowledge, *, domain: str | None,
                    mode: str = "answer") -> AgentOutcome:
    tools = ToolRunner(ctx)
    if not knowledge.cases.configured:
        # No corpus: say so plainly, and answer from the statutes instead.
        from_statutes = await run_research(shared, ctx, knowledge, domain=domain)
        from_statutes.text = t("legal.no_case_corpus") + "\n\n" + from_statutes.text
        return from_statutes
    hint = DOMAIN_QUERY_HINTS.get(domain or "", "")
    focus = focus_for(shared.question, domain if len(shared.domains) > 1 else None)
    query = f"{await asyncio.to_thread(bounded_query, focus)} {hint}"
    found = await tools.call_blocking("case_search", knowledge.cases.search, query, 3,
                                      summary=lambda items: t("legal.trace_cases_found", count=len(items or [])))
    cases = [{"title": c.title, "name": c.name, "collection": c.collection, "holding": c.holding, "facts": c.facts,
              "result": c.result, "case_id": c.case_id} for c in found or []]
    facts = {**shared.as_dict(), "domain": domain, "cases": cases}
    text = await _generate(ctx, "case_analysis", prompts.CASE_SYSTEM, prompts.case_prompt(shared.question, cases),
                           facts)
    return AgentOutcome(text=text, tool_calls=tools.calls, skipped_tools=tools.skipped,
                        facts=[c["title"] for c in cases])


async def run_general(shared: SharedContext, ctx: NodeContext, knowledge: LegalKnowledge | None = None, *,
                      domain: str | None = None, mode: str = "chat") -> AgentOutcome:
    system = prompts.FALLBACK_SYSTEM if mode == "fallback" else prompts.GENERAL_SYSTEM
    facts = {**shared.as_dict(), "mode": mode}
    text = await _generate(ctx, "legal_general", system, shared.question, facts)
    return AgentOutcome(text=text)


AGENTS: dict[str, LegalAgent] = {
    "legal_research": LegalAgent("legal_research", "legal_research", prompts.RESEARCH_SYSTEM,
                                 ("statute_search", "web_search"), run_research),
    "case_analysis": LegalAgent("case_analysis", "case_analysis", prompts.CASE_SYSTEM, ("case_search",), run_cases),
    "document_draft": LegalAgent("document_draft", "legal_draft", prompts.DRAFT_SYSTEM, ("create_document",),
                                 run_general),  # drafting runs as its own graph nodes (interrupts)
    "general": LegalAgent("general", "legal_general", prompts.GENERAL_SYSTEM, (), run_general),
}
