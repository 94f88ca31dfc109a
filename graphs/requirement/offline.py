"""Offline composer for RequirementPlan: deterministic, built only from the request facts.

It asks about the catalogue topics (topics.py) that nothing settles — not the requirement text,
not an answer, not an assumed fallback, not a passage of the repository docs found by retrieval —
and otherwise plans from what it has: answers are woven into scope, stages and a decisions section,
doc findings become cited low-risk assumptions. A stand-in for a model, never a source of truth.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from core.language import CJK, clip, gerund_en, is_function_word, mid_sentence, singular_en
from core.llm.offline import OfflineRequest, offline_composer
from graphs.requirement.render import plan_title, render_markdown, word
from graphs.requirement.scenarios import (Scenario, base_en as _base, en_scope_items, names_a_kind, one_of,
                                          scope_items_said_whole,
                                          scenarios as find_scenarios)
from graphs.requirement.roles import (SPEAKER_ZH, asked_for_kin, asker_companion, asker_group, asker_uses, named_roles, opens_with_role,
                                      place_served, shared_by_a_few,
                                      with_its_article, zh_tokens)
from graphs.requirement.topics import (COMPLIANCE_PATTERNS, SHEETS, SOFTWARE_ZH, SYSTEMS_ZH, TOPICS, TOPICS_BY_ID, Topic, find_keyword, find_keywords,
                                       chat_audience, is_chinese, job_source, keeps_own_state, kept_in_a_system,
                                       names_no_purpose, only_keeps_copies, open_to_anyone, scheduled_send, only_names, only_names_its_system, only_sends_or_schedules, run_on_own_files, system_named_first,
                                       runs_unattended, talked_to_in_a_chat, zh_one_act, zh_verb_object)
from schemas.requirement import MAX_QUESTIONS_PER_ROUND, RequirementPlan

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*|\n+")


def _summary(requirement: str) -> str:
    sentences = [s.strip() for s in _SENTENCE_END.split(requirement.strip()) if s and s.strip()]
    text = " ".join(sentences[:2]) if sentences else requirement.strip()
    return text if len(text) <= 240 else text[:237].rstrip() + "…"


_CLAUSE_END = re.compile(r"[，；。！？\n]+")
# English: sentences and semicolons end a clause; a comma only where a new subject follows (below).
_EN_CLAUSE_END = re.compile(r"(?<=[.!?])\s+|\s*;\s*|\n+")
_EN_COMMA = re.compile(r"[,:]\s+(?:(?:and|while|but|then|so)\s+)?")  # a colon that a role follows too ("…: patients book online")


_SPEAKER_EN = re.compile(r"(?:I|we)\s+(?!(?:and|or)\b)[a-z']+", re.IGNORECASE)


# An event that opens a clause and ends at its comma ("…: when the bus arrives, …", "Once a repair is done, …").
_EN_EVENT_BEFORE = re.compile(r"(?:^|(?<=[:;])\s*)(?P<when>(?:when|once|as\s+soon\s+as|whenever)\s[^,:;]+)$",
                              re.IGNORECASE)


def _en_clauses(text: str) -> list[str]:
    """An English requirement's clauses: its sentences, split again at a comma that a role opens
    ("…, and managers approve them") or that sets off only when or how many ("…, about 40 of them"),
    not at one that sets off a phrase ("with export, and search")."""
    clauses: list[str] = []
    for sentence in _EN_CLAUSE_END.split(text):
        # the asker's own place, told first, ends where its people act ("We run a yoga studio | and students book …")
        told, joined, rest = sentence.partition(" and ")
        if joined and _EN_BACKGROUND.match(told) and opens_with_role(rest):
            clauses.append(told.strip())
            sentence = rest
        pieces = _EN_COMMA.split(sentence)
        kept = [pieces[0]]
        for piece, comma in zip(pieces[1:], _EN_COMMA.findall(sentence)):
            # the asker, speaking again, says a new thing too ("…, and I want to see who used which one")
            if (opens_with_role(piece) or _only_states_a_constraint(piece) or _states_a_rule(piece)
                    or _SPEAKER_EN.match(piece)):
                # the event it is done on, said before it, goes with it ("when the bus arrives, the driver texts …")
                if event := _EN_EVENT_BEFORE.search(kept[-1]):
                    kept[-1] = kept[-1][:event.start()].rstrip(" :;")
                    piece = f"{event.group('when')}{comma}{piece}"
                kept.append(piece)
            else:
                kept[-1] += comma + piece
        clauses += [duty for c in kept if c.strip() for duty in _each_duty(c.strip().rstrip(".!?").strip())]
    return [c for c in clauses if c]


# A role, a colon and the things they do, listed ("HR: approve the request, notify payroll"): each is a thing to
# deliver, and keeps who does it.
_EN_DUTIES = re.compile(r"^(?P<who>[^:]{1,40}):\s+(?P<duties>.+)$")
_EN_LISTED = re.compile(r"\s*,\s*(?:(?:and|then)\s+)*")


def _each_duty(clause: str) -> list[str]:
    said = _EN_DUTIES.match(clause)
    if said is None or len(said.group("who").split()) > 3 or not opens_with_role(said.group("who")):
        return [clause]
    duties = _EN_LISTED.split(said.group("duties"))
    # things done, each a verb and its object ("notify payroll"); not a list of fields ("Staff: name, email")
    if len(duties) < 2 or any(len(duty.split()) < 2 or not duty[:1].islower() for duty in duties):
        return [clause]
    return [f"{said.group('who')}: {duty}" for duty in duties]


# Why it is wanted, before what is wanted: "Because clerks export orders by hand, we need …", and the word
# that then leads on to the want ("所以", "so").
_EN_CAUSE = re.compile(r"^(?:because|since|as|given that|now that)\b[^,;]*,\s*(?:so\s+)?", re.IGNORECASE)
_ZH_RESULT = re.compile(r"^(?:所以|因此|因而|于是|那么|故)\s*")


def _clauses(requirement: str, zh: bool) -> list[str]:
    return ([_ZH_RESULT.sub("", piece.strip()) for c in _CLAUSE_END.split(requirement) if c.strip()
             for piece in _zh_at_colon(c.strip())] if zh else
            [_EN_CAUSE.sub("", c) for c in _en_clauses(requirement)])


def _zh_at_colon(clause: str) -> list[str]:
    """A Chinese clause cut at a colon that a role follows ("做一个请假小程序：学生提交请假"), as English ones are: the
    thing, then what someone does with it; a colon after a role keeps what they do with them ("人事：审批")."""
    said = re.match(r"(?P<head>[^:：]+)[:：](?P<rest>.+)$", clause)
    if said is None:
        return [clause]
    head, rest = said.group("head").strip(), said.group("rest").strip()
    roles = named_roles(rest)
    # or after a thing named by its kind ("学校图书馆借书系统：学生借书还书"): the name, then what it is for
    named = re.search(rf"(?:{_ZH_KINDS.pattern})$", head) is not None and len(CJK.findall(rest)) >= 2
    return [head, rest] if roles and rest.startswith(roles[0]) or named else [clause]


def _a_heading(item: str, requirement: str, zh: bool) -> bool:
    """Whether a thing to deliver is only the name the requirement gives it before a colon that its people's acts
    follow ("员工报销：员工上传发票…", "Staff expenses: staff upload receipts"): what it is about, no act of its own."""
    for after in re.finditer(re.escape(item) + r"\s*[:：]\s*", requirement):
        rest = requirement[after.end():]
        roles = named_roles(re.split(r"[，；。！？,;.!?\n]", rest, maxsplit=1)[0]) if zh else []
        if (roles and rest.startswith(roles[0])) if zh else opens_with_role(rest):
            return True
    return False


# A rule the work follows, which the built thing must keep rather than a thing to build: how many levels sign off
# ("三级审批", "two-level approval"), a limit ("每人最多借3本", "at most 3 books"), or what a threshold calls for
# ("超过一千元要总经理签字", "claims over $500 need the director's approval").
_ZH_NUMBER = r"[\d一二两三四五六七八九十百千万]+"
_RULES = (
    re.compile(rf"(?:{_ZH_NUMBER}|多)\s*(?:级|层|道|步)\s*(?:审批|审核|签字|签批|复核|确认|验收)|"
               rf"(?:最多|至多|最少|至少|不超过|不少于|不能超过|不得超过|上限|下限)\s*[\u4e00-\u9fff]{{0,2}}?\s*{_ZH_NUMBER}|"
               rf"(?:超过|高于|低于|大于|小于|满|达到|不足)\s*{_ZH_NUMBER}\s*[\u4e00-\u9fff]{{0,3}}?\s*(?:的|时|以上|以下)?"
               rf"(?:要|需要|需|须|必须|才能|才可以|就|则|由|自动|会)|"
               # a count and what it earns or costs ("消费满10元积1分", "迟到三次扣钱", "逾期3天罚款")
               rf"{_ZH_NUMBER}\s*(?:元|块|次|天|小时|分钟|本|件|单)\s*(?:以上|以下)?(?:就|则|要|会)?\s*"
               rf"(?:积|送|减|扣|罚|返|停|封|冻结|警告)"),
    re.compile(r"\b(?:\d+|two|three|four|five|multi|double|dual)[- ](?:level|step|stage|tier|person)\s+"
               r"(?:approvals?|reviews?|sign-?offs?|checks?)\b|"
               r"\b(?:at most|at least|no more than|not more than|a maximum of|a minimum of|max(?:imum)?|min(?:imum)?)\s+"
               r"[$€£¥]?\d|"
               r"\b(?:over|above|more than|exceeding|under|below|less than)\s+[$€£¥]?\d[\d,.]*\s*[a-z]*\s+"
               r"(?:need|needs|require|requires|must|should|get|gets|go|goes)\b", re.IGNORECASE),
)


def _states_a_rule(clause: str) -> bool:
    return any(rule.search(clause) for rule in _RULES)


# A clause that names a thing to make keeps it a thing to deliver, whatever rule it has ("做一个支持三级审批的报销系统",
# "Build an expense app with two-level approval").
_MAKES_A_THING = re.compile(r"(?:做|开发|建|搞|弄|整)(?:一个|一套|一款|个|套|款)|(?:一个|一套|一款)[^，。；]*(?:系统|小程序|平台|工具|"
                            r"网站|应用|程序|软件|表)|^\s*(?:build|make|create|add|develop|set up)\b|"
                            r"\b(?:an?|the)\s+(?:[\w-]+\s+){0,2}(?:app|system|tool|page|site|website|portal|platform|"
                            r"dashboard|form|bot|tracker|spreadsheet)\b", re.IGNORECASE)


def _rules(requirement: str, zh: bool) -> list[str]:
    """The clauses that state a rule of the work ("三级审批", "claims over $500 need two-level approval"): the
    implementation must keep them, so they are its acceptance criteria, not things to deliver."""
    return [clause for clause in _clauses(requirement, zh) if _states_a_rule(clause) and not _MAKES_A_THING.search(clause)]


def _deliverables(requirement: str, zh: bool, with_its_form: bool = False) -> list[str]:
    """The requirement's clauses, each a thing to deliver ("做一个报修小程序", "业主可以拍照报修";
    "Build a booking page", "nurses confirm each booking"); else the summary whole. `with_its_form`: keep a clause
    that only names the kind of software ("做一个小程序"), which a title opens with."""
    summary = _summary(requirement)
    clauses = _clauses(requirement, zh)
    # A clause of a few characters is a fragment ("e.g", "etc"), not a capability: keep the summary whole then.
    # (two Chinese characters are a word: "请假：学生提交请假…" names its topic, no fragment)
    if len(clauses) < 2 or any((len(CJK.findall(c)) < 2 if zh else len(c) < 4) and not _only_states_a_constraint(c)
                               for c in clauses):
        # without the stop that ends it, as the items cut at clauses are ("Deliver: a booking page", not "… page.")
        summary = summary.rstrip(".!?。！？ ")
        whole = summary if zh else _EN_CAUSE.sub("", summary) or summary
        return [_without_asking(_without_load(_wished(whole, zh) or whole, zh), zh)]
    items, rules = [], _rules(requirement, zh)
    for clause in clauses:
        if _only_states_a_constraint(clause):
            continue  # a constraint the release and verification stages carry ("It must be live by March", "只有3个人用")
        if clause in rules:
            continue  # a rule the implementation keeps, one of its success criteria ("三级审批")
        if thing := _wished(clause, zh):
            items.append(_without_load(thing, zh))  # "我们学校想做一个作业小程序" delivers "做一个作业小程序"
        elif not (_BACKGROUND if zh else _EN_BACKGROUND).search(clause) or _asker_s_people_act(clause, zh):
            items.append(_without_load(clause, zh))
        # else background for the summary, nothing to deliver: the speaker tells of themselves ("我开了一家小超市")
        # or of how things are today ("请假现在靠纸质单")
    items = [_without_asking(item, zh) for item in items]
    if zh:  # a clause that only says after what ("患者预约后，提前一天短信提醒") is when the next one is done: one item
        for at in range(len(items) - 2, -1, -1):
            if _ZH_ONLY_AFTER.search(items[at]):
                items[at:at + 2] = [items[at] + items[at + 1]]
    if not with_its_form:
        # "做一个小程序" beside what its people do with it says only what form it takes, which Stage 1 decides as
        # its entry point: no thing to deliver of its own
        items = [item for item in items if not _only_names_its_form(item)] or items
    return items or [summary]


# What ends a Chinese clause that only says once what the next one is done ("患者预约后", "订单发货之后").
_ZH_ONLY_AFTER = re.compile(r"(?:之后|以后|后|的时候)$")


# What opens a wish before the thing made: for whom or where it is made ("给我们小区的驿站", "为诊所"), up to the verb.
_ZH_MADE_FOR = re.compile(r"^(?:给|为|帮|替)[^，。；]{1,12}?(?=(?:做|开发|弄|搞|写|整|建)(?:一个|一套|一款|个|套|款))")


def _only_names_its_form(item: str) -> bool:
    """Whether a thing to deliver names only a kind of software, for whom or where at most ("做一个小程序",
    "给我们小区的驿站做一个小程序", "an app for our parcel station")."""
    return names_no_purpose(item) or names_no_purpose(_ZH_MADE_FOR.sub("", item.strip()))


# A standard to comply with, read as the access topic reads it: the plan verifies it, nobody builds it.
_COMPLIANCE = replace(TOPICS_BY_ID["q_security"], patterns=COMPLIANCE_PATTERNS)


def _only_states_a_constraint(clause: str) -> bool:
    """Whether a clause says no more than when it is due, how many use it, what standard it meets, what done means
    or where it lives ("It must be live by March", "Must comply with HIPAA", "接到飞书"): the stages carry those, so
    little is left without their words."""
    if _without_load(clause, is_chinese(clause)) != clause:
        return False  # a thing and the load it carries ("Inventory app for 50 stores"): the thing is still delivered
    for topic in (TOPICS_BY_ID["q_deadline"], TOPICS_BY_ID["q_scale"], _COMPLIANCE, TOPICS_BY_ID["q_success_metric"]):
        if phrase := topic.stated_whole_in(clause):
            rest = clause.replace(phrase, " ")
            if (len(CJK.findall(rest)) <= 4) if is_chinese(clause) else (
                    len(rest.split()) <= 4 or _only_says_it_is_ready(rest)):
                return True
    # someone doing a thing in the system is a thing to deliver ("员工在企业微信里订会议室"), not where data lives
    return _only_names_entry_point(clause) or only_names(TOPICS_BY_ID["q_data_store"], clause) or \
        _only_says_who_uses_it(clause) or (only_names_its_system(clause)
                                           and not _opens_with_a_role(clause, is_chinese(clause)))


# A Chinese clause that only says who uses it ("老人用", "主要给前台用", "只有店员使用"): the stages name who.
_ZH_USED_BY = re.compile(r"(?:主要|只|只有|仅|都|是)?(?:给|供|让|由)?(?P<who>[\u4e00-\u9fff]{1,8}?)(?:来|在)?(?:用|使用)的?")


def _only_says_who_uses_it(clause: str) -> bool:
    said = _ZH_USED_BY.fullmatch(clause.strip())
    if said is not None and bool(named_roles(said.group("who"))):
        return True
    # the asker and whom they name, using it ("就我和老婆两个人用", "我们自己用"): the stages name the asker
    return is_chinese(clause) and bool(asker_uses(clause)) and re.search(r"(?:用|使用)的?$", clause.strip()) is not None


_READY_EN = {"ready", "done", "live", "finished", "complete", "completed", "available", "launched", "shipped",
             "delivered", "usable", "working", "running", "up", "built", "need", "needs", "has", "have", "got", "needed"}


def _only_says_it_is_ready(rest: str) -> bool:
    """Whether the words around a deadline only say it is to be ready then ("It has to be ready", "We need it
    done and working"): a longer way to say what "must be live by" says."""
    return all(is_function_word(w) or w.lower() in _READY_EN for w in re.findall(r"[A-Za-z']+", rest))


def _only_names_entry_point(clause: str) -> bool:
    return only_names(TOPICS_BY_ID["q_interface"], clause)


# Where a count stands after the thing it is the load of: "an inventory app for about 50 stores",
# "做一个给50家门店用的库存系统". Before {} the count, after it what ends the phrase.
_LOAD_PHRASE_EN = (r"(?:\s*,\s*|\s+(?:for|across|serving|covering|spanning|at|in|with|used by)\s+)"
                   # the count ends the phrase: in "for our 12-person engineering team" it qualifies the team, kept
                   r"(?:(?:all|each|the|our|my|its|their)\s+)?{}(?=$|[,;:.!?]|\s+(?:and|or|that|which|who|where|"
                   r"to|so|with|in|at|on|by|from|across|every|each)\b)")
_LOAD_PHRASE_ZH = r"(?:[，,]\s*)?(?:给|供|面向|针对|服务|覆盖)\s*{}\s*(?:用|使用)?的?"


def _without_load(item: str, zh: bool) -> str:
    """A thing to deliver without the count it carries: the count is the scale, verified in its own stage."""
    count = TOPICS_BY_ID["q_scale"].shape_in(item)
    if not count or count == item:
        return item
    phrase = re.compile((_LOAD_PHRASE_ZH if zh else _LOAD_PHRASE_EN).format(re.escape(count)), re.IGNORECASE)
    return phrase.sub("", item, count=1).strip() or item


# The person asking, speaking of themselves, and what they wish for.
_SPEAKER_WISHES = re.compile(rf"^(?:{SPEAKER_ZH}(?P<owner>[^，；。！？]{{0,6}}?))?(?:想要|想|希望|需要|打算|计划|准备|要)(?:能|可以)?"
                             rf"(?P<thing>.{{2,}})$")
# A place or body that asks without "we" ("诊所想做个预约小程序", "酒店需要一套入住系统"): the thing it wants opens with
# making it or with how many, unlike what a system must do ("系统需要支持导出").
# So does one that only says it makes one ("社区食堂做一个订餐系统", "健身房要一个约课系统"); one it is made for
# ("给社区食堂做一个…") is no asker.
_ZH_ORG_WISHES = re.compile(r"^(?!给|为|帮|替)(?P<owner>(?:[\u4e00-\u9fff]{1,8}?的)?[\u4e00-\u9fff]{2,6}?)(?:想要|想|希望|需要|打算|计划|准备|要|"
                            r"(?=(?:做|开发|搞|建)(?:一个|一套|一款|个|套|款)))"
                            r"(?P<thing>(?:做|开发|搞|弄|建|上|整|有)?(?:一个|一套|一款|个|套|款).{2,})$")
_BACKGROUND = re.compile(rf"^{SPEAKER_ZH}|^.{{0,6}}(?:现在|目前|如今|以前|之前|原来|过去)|^(?:因为|由于|鉴于|既然)")
# English: "We are a three-person team and need a tool to …", "I'd like to have a page that …".
_EN_WISHES = re.compile(r"^(?:I|we)\b[^,;]*?\b(?:need|want|would like|'d like|(?:am|are) looking for|require)\s+"
                        r"(?:to\s+(?:have|get|build|make|create)\s+)?(?:to\s+)?(?P<thing>.{4,})$"
                        # "Our clinic needs an online form …", "Our dental practice needs online booking": the asker's
                        # own group wishes for a thing (see _wished for "our customers need to see …").
                        r"|^(?:our|my)\s+(?P<owner>(?:[\w'-]+\s+){1,3}?)(?:needs?|wants?|requires?|(?:is|are) looking for)\s+"
                        r"(?:to\s+(?:have|get|build|make|create)\s+)?(?P<owned>.{4,})$"
                        # "A small vet clinic wants an app where …": a place or body, asking, wishes for a thing it names
                        r"|^(?:an?|the)\s+(?P<body>(?:[\w'-]+\s+){1,3}?)(?:needs?|wants?|requires?|(?:is|are) looking for)\s+"
                        r"(?P<wanted>(?:an?|some)\s.{4,})$", re.IGNORECASE)
_EN_ARTICLE = re.compile(r"(?:a|an|some|the|one)\s", re.IGNORECASE)
_EN_BACKGROUND = re.compile(r"^(?:(?:I|we)(?:'m|'re|\s+am|\s+are|\s+have|\s+run|\s+own|\s+manage|\s+operate|\s+work)\b|"
                            r"(?:currently|today|right now|at the moment|at present)\b)", re.IGNORECASE)


# A role that wishes for a thing ("The front desk needs a tool to check guests in"): the thing, for them.
_EN_ROLE_WISHES = re.compile(r"^(?P<who>(?:the\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:needs?|wants?|requires?|would like)\s+"
                             r"(?P<thing>(?:a|an|some|one)\s+.{3,})$", re.IGNORECASE)
# Where a thing's name ends and what it is for begins ("a tool | to check guests in").
_EN_PURPOSE = re.compile(r"\s+(?=(?:to|that|which|where|so)\s)", re.IGNORECASE)


def _for_role(clause: str) -> str | None:
    """A thing a role wishes for, as the thing made for them: "The front desk needs a tool to check guests in" →
    "a tool for the front desk to check guests in"; else None."""
    wish = _EN_ROLE_WISHES.match(clause.strip())
    if wish is None or not opens_with_role(wish.group("who")):
        return None
    who, thing = mid_sentence(wish.group("who"), clause), wish.group("thing")
    name, *purpose = _EN_PURPOSE.split(thing, maxsplit=1)
    if re.search(r"\sfor\s", name, re.IGNORECASE):
        return thing  # the thing already says whom it is for ("a way for employees to …"): a second "for" garbles it
    return " ".join([name, "for", who, *purpose])


# The thing a role wishes for, in Chinese: how many, what it is, and what it is for, in one of three shapes —
# "一个工具来登记访客", "一个能打印报表的功能", "一套排班系统" (a verb of making before it is dropped: "做一个…").
_ZH_MADE = r"^(?:做|开发|搞|弄|建|上|整|有)?(?P<count>一个|一套|一款|一份|个|套|款)"
_ZH_THING_FOR = re.compile(_ZH_MADE + r"(?P<name>[^的，。；]{1,8}?)(?:来|用来|用于|以便|去)(?P<purpose>[^，。；]{2,})$")
_ZH_THING_THAT = re.compile(_ZH_MADE + r"(?:能够|能|可以|用来|用于)?(?P<purpose>[^，。；]{2,})的(?P<name>[^的，。；]{1,8})$")
_ZH_THING = re.compile(_ZH_MADE + r"(?P<name>[^的，。；]{2,8})$")


def _zh_for_role(clause: str) -> str | None:
    """The Chinese of _for_role: "酒店前台需要一个工具来登记访客" → "一个供酒店前台登记访客的工具", "前台想要一套排班系统" →
    "一套供前台使用的排班系统"; else None (a role that wishes others do a thing: "前台希望病人可以在线挂号")."""
    wish = _ZH_ORG_WISHES.match(clause.strip())
    if wish is None or not named_roles(wish.group("owner")):
        return None
    who, thing = wish.group("owner"), wish.group("thing")
    if shaped := _ZH_THING_FOR.match(thing) or _ZH_THING_THAT.match(thing):
        return f"{shaped.group('count')}供{who}{shaped.group('purpose')}的{shaped.group('name')}"
    if shaped := _ZH_THING.match(thing):
        return f"{shaped.group('count')}供{who}使用的{shaped.group('name')}"
    return None


def _asker_s_people_act(clause: str, zh: bool) -> bool:
    """Whether a Chinese clause that opens with the asker tells what the asker's people are to do ("我们店员工每天要
    登记库存"): a thing to deliver, as written, not background told of the asker."""
    wish = _SPEAKER_WISHES.match(clause.strip()) if zh else None
    return wish is not None and _zh_people(wish.group("owner") or "")


# What a group of people is called, after the people it gathers ("业主群", "家长委员会", "车友会"): one asker.
_ZH_GATHERING = re.compile(r"(?:群|微信群|协会|俱乐部|社团|委员会|联盟|商会|车友会|会)$")


def _zh_people(owner: str) -> bool:
    """Whether the asker's words before their wish name people of theirs who act ("我们店员工每天要登记库存"), not the
    group they gather in ("我们小区业主群想做一个拼车小程序", which wishes for a thing as one asker)."""
    owner = owner.lstrip("的是")
    return bool(named_roles(owner)) and not _ZH_GATHERING.search(owner)


def _wished(clause: str, zh: bool) -> str | None:
    """What the asker, speaking of themselves, wishes for: the thing to deliver, without who wishes it."""
    if not zh and (kin := asked_for_kin(clause)):  # "My mum runs a small shop and needs to track …": for her
        return re.sub(r"^(?:to\s+(?:have|get|build|make|create)\s+)?(?:to\s+)?", "", clause.strip()[kin[1]:]) or None
    if for_role := (_zh_for_role(clause) if zh else _for_role(clause)):
        return for_role
    wish = (_SPEAKER_WISHES if zh else _EN_WISHES).match(clause.strip())
    if wish is None and zh and (org := _ZH_ORG_WISHES.match(clause.strip())) and not named_roles(org.group("owner")):
        wish = org
    if wish is None:
        return None
    thing = (wish.group("thing") or (wish.groupdict().get("wanted") or "")).strip()
    if zh and (owner := (wish.group("owner") or "").lstrip("的是")):
        if _zh_people(owner):  # "我们幼儿园的家长需要看到…": what the group's people do, as written
            return None
        return _zh_for_whom(thing, owner)
    if not zh and (owned := wish.group("owned")):
        # "Our customers need to see …" is what the group's people do, and stays as written: a group of people
        # wishes for a thing only when an article names it ("Our team needs a dashboard").
        if opens_with_role(wish.group("owner").split()[-1]) and not _EN_ARTICLE.match(owned):
            return None
        thing = _for_whom(re.sub(r"^to\s+", "", owned.strip()), wish.group("owner").strip())
    return (_role_does(thing) if not zh else thing) or None


def _for_whom(thing: str, owner: str) -> str:
    """A bare thing wished for, with the group it is for ("online booking" → "online booking for a dental
    practice"): without it the title would not say whose; a longer thing says enough by itself."""
    words = thing.split()
    if len(words) > 3 or any(w.lower() in _EN_LINKS for w in words) or _EN_ARTICLE.match(thing):
        return thing
    return f"{thing} for {'an' if owner[:1].lower() in 'aeiou' else 'a'} {owner}"


# A thing that opens with making it ("做一个报修小程序") or goes on past a clause says what it is by itself.
_ZH_MAKES = re.compile(r"^(?:做|开发|搞|弄|建|写|上|整|开|有|让|给|把|能|可以|一个|一套|个)")


def _zh_for_whom(thing: str, owner: str) -> str:
    """The Chinese of _for_whom: a bare thing wished for, with whose it is ("线上预约" → "牙科诊所的线上预约")."""
    if len(CJK.findall(owner)) < 2 or len(CJK.findall(thing)) > 6 or _ZH_MAKES.match(thing) or not CJK.match(thing):
        return thing
    return f"{owner}的{thing}"


# Words that go on from a thing to what it does or is for: a thing with one says more than its name.
_EN_LINKS = {"for", "to", "so", "that", "which", "where", "when", "with", "of", "by", "on", "in"}


def _role_does(thing: str) -> str:
    """A wish that someone do a thing, as what they do: "customers to preorder cakes" → "customers preorder cakes"."""
    who, to, does = thing.partition(" to ")
    return f"{who} {does}" if to and len(who.split()) <= 4 and opens_with_role(who) and does else thing


# What a job does at its time, or what someone gets from it ("店长每天早上收到报表", "managers get a summary each
# morning"): a clause that says one is the job's, whoever opens it.
_A_JOB_S_CLAUSE = re.compile(r"收到|接收|收取|发送?|推送|提醒|通知|报表|报告|汇总|同步|备份|导出|自动|定时|"
                             r"\b(?:gets?|receives?|sen[dt]s?|emails?|e-mailed|posts?|reminds?|notif(?:y|ies)|alerts?|"
                             r"reports?|summar(?:y|ies)|digests?|exports?|syncs?|backs?\s+up|automatically)\b",
                             re.IGNORECASE)


# A thing people open to record things in ("a tool to log billable hours", "a form where staff enter …"): whatever it
# sums up on a schedule, people use it.
_PEOPLE_RECORD_IN_IT = re.compile(r"\b(?:app|tool|page|form|portal|site|website|tracker)\s+(?:to|where|for|that\s+lets)\b"
                                  r"[^.;]{0,40}?\b(?:log|record|enter|fill\s+in|submit|book|sign\s+in|check\s+in)\b",
                                  re.IGNORECASE)


# The asker, beside the people a requirement names, saying what they do in it themselves: "… and I see the week's
# schedule", "…，我来审核".
_ASKER_ACTS = re.compile(r"\b(?:and|while|then|so)\s+(?:I|we)\s+(?:can\s+)?(?:see|check|view|approve|review|confirm|"
                         r"manage|track|get|edit|update)\b|"
                         r"[，,；]\s*(?:我|我们)(?:来|可以|能|就|再|负责)?(?:看|查看|审核|审批|确认|管理|统计|修改)")


def _people_do_it_then(requirement: str, zh: bool) -> bool:
    """Whether the time a requirement names is when its people do a task in it ("保健医每天早上给孩子量体温并登记",
    "every morning the nurse logs each child's temperature"): a clause with that time opens with who does it and says
    nothing a job does; then nothing runs by itself."""
    if not zh and _PEOPLE_RECORD_IN_IT.search(requirement):
        return True  # "a tool to log billable hours … and export a monthly summary": people log, then it sums up
    timed = [c for c in _clauses(requirement, zh) if runs_unattended(c)]
    return bool(timed) and all(_opens_with_a_role(re.sub(r"^(?:every|each)\s+\w+\s*,?\s*", "", c, flags=re.I), zh)
                               and not _A_JOB_S_CLAUSE.search(c) for c in timed)


def _people_act_in_it(requirement: str, zh: bool) -> bool:
    """Whether its people record something in it ("volunteers sign up for Sunday slots and get reminded the day
    before"): then what it sends at a time is a part of a thing they use, not a job that runs by itself."""
    return any(s.kind == "acts" and s.who for s in find_scenarios(_deliverables(requirement, zh), zh))


def _only_says_how_it_tells(requirement: str) -> bool:
    """Whether the only entry points a requirement names are ways a message is sent ("managers get emailed", "短信通知"):
    of a thing people act in, that is how they are told, and where they act is still to choose."""
    words = TOPICS_BY_ID["q_interface"].keywords_in(requirement)
    return bool(words) and all(only_sends_or_schedules(w) for w in words)


def _opens_with_a_role(clause: str, zh: bool) -> bool:
    """Whether a clause opens with who does something ("学生提前一天预约", "managers approve them")."""
    if not zh:
        return opens_with_role(clause)
    roles = named_roles(clause)
    return bool(roles) and clause.strip().startswith(roles[0])


def _title(requirement: str, zh: bool) -> str:
    """What the plan is called: from what it delivers first, not from the background told before it
    ("因为客服每天要手工导出…，所以需要一个自动报表" → "一个自动报表")."""
    summary = _summary(requirement)
    first = _deliverables(requirement, zh, with_its_form=True)[0]
    start = summary.find(first)
    wanted = _without_load(summary[start:] if start > 0 else summary if start == 0 else first, zh)
    if start >= 0 and re.match(r"\s*[:：]", summary[start + len(first):]):
        wanted = _without_load(first, zh)  # what the colon leads on to is how it is used, not its name
    # It stops at what is wanted: a clause that only says when or for how many follows it, not the title
    # ("一个请假审批系统，下周五之前要用上" → "一个请假审批系统"), nor does one that says what someone does with it
    # ("一个座位预约系统，学生提前一天预约").
    pieces = re.split(r"([，；。！？,;.!?:：]\s*)", wanted)
    for at in range(2, len(pieces), 2):
        if pieces[at - 1].strip() in ":：" and len("".join(pieces[:at - 1]).split()) < 2 and not zh:
            continue  # "HR: employees request time off": a name before a colon is no title by itself
        # a thing that names nothing it does ("做一个小程序") keeps the clause of what its people do with it
        what_it_does = _opens_with_a_role(pieces[at], zh) and not names_no_purpose("".join(pieces[:at - 1]))
        # nor one that says what it sends by itself at a time ("…，会议开始前15分钟提醒参会人")
        if (_only_states_a_constraint(pieces[at]) or what_it_does or _states_a_rule(pieces[at])
                or scheduled_send(pieces[at])
                or not zh and _SPEAKER_EN.match(re.sub(r"^(?:and|but|so|then)\s+", "", pieces[at]))):
            head = "".join(pieces[:at - 1])
            # a bare kind ("做个小工具") named by what the clause after it does ("每天提醒我喝水" → "喝水提醒小工具")
            if zh and names_no_purpose(head) and not _only_states_a_constraint(pieces[at]):
                kind = _ZH_KINDS.findall(head)
                named = _zh_system_name(kind[-1] + _ZH_WHEN.sub("", pieces[at])) if kind else head
                if kind and named != kind[-1] + _ZH_WHEN.sub("", pieces[at]):
                    return plan_title(named)
                continue  # else the clause says what it is for: the title keeps it
            wanted = head
            break
    wanted = _named_thing(wanted, zh)
    if not zh:
        # what its people do with a named thing goes on after it ("a booking page for my yoga studio | so students can
        # book …"): a title too long to say it whole names the thing, as a Chinese one does, rather than stop
        # mid-clause; a bare thing ("a page where …") keeps it
        head, *rest = _EN_WHAT_PEOPLE_DO.split(wanted, maxsplit=1)
        if rest and plan_title(wanted) != wanted and len(head.split()) >= 3 and (
                opens_with_role(rest[0]) or _SPEAKER_EN.match(rest[0])):
            wanted = head
        wanted = _en_act_as_a_thing(wanted, requirement) or wanted
    return plan_title(wanted[:1].upper() + wanted[1:])


# A title that would be what someone does with the system ("customers book a repair slot online") names the system by
# that act instead ("online repair slot booking"): a role, its verb and a short object, then where it stops.
_EN_ROLE_ACT = re.compile(r"^(?P<who>(?:the\s+|our\s+|my\s+)?[\w'-]+(?:\s+[\w'-]+)??)\s+(?:can\s+|could\s+|will\s+)?"
                          r"(?P<verb>[a-z]+)\s+(?:(?:a|an|the|their|our|his|her|its|some)\s+)?"
                          r"(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)(?P<online>\s+online)?"
                          r"(?=\s*$|\s*[,;.:…]|\s+(?:and|so|when|where|with|from|each|every|before|after|by)\b)",
                          re.IGNORECASE)
# Verbs of having or looking, whose gerund names no system ("customers see their orders" is no "order seeing").
_NO_SYSTEM_OF = {"see", "sees", "get", "gets", "receive", "receives", "have", "has", "need", "needs", "want", "wants",
                 "use", "uses", "like", "likes", "know", "knows", "go", "goes", "come", "comes", "are", "is"}
# Acts whose noun is not their gerund ("plot reservation", not "plot reserving").
_EN_ACT_NOUNS = {"reserve": "reservation", "register": "registration", "approve": "approval", "renew": "renewal",
                 "submit": "submission", "deliver": "delivery", "pay": "payment", "rent": "rental", "enrol": "enrolment",
                 "enroll": "enrollment", "apply": "application", "refund": "refund", "return": "return",
                 "subscribe": "subscription", "donate": "donation", "sign up": "sign-up"}
# The asker's place, told before what they want ("We run a bike repair shop; …", "Our bakery wants …").
_EN_ASKER_PLACE = re.compile(r"\b(?:we|i)\s+(?:run|own|manage|operate)\s+(?:a|an)\s+(?P<place>[\w' -]+?)"
                             r"(?=\s*[;,.:]|\s+(?:and|where|that|with|so)\b)|"
                             r"^(?:our|my)\s+(?P<ours>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:wants?|needs?)\b", re.IGNORECASE)


def _en_act_as_a_thing(wanted: str, requirement: str) -> str | None:
    """What someone does, named as the thing that lets them ("customers book a repair slot online" → "online repair
    slot booking for a bike repair shop"); None when the act does not read as a thing's name."""
    act = _EN_ROLE_ACT.match(wanted.strip())
    if act is None or not opens_with_role(wanted) or not named_roles(act.group("who")):
        return None
    if not re.match(r"(?:the|our|my)\s", act.group("who"), re.IGNORECASE) \
            and names_a_kind(act.group("who"), wanted.strip()[act.end("who"):].strip()):
        return None  # "Volunteer shift scheduler" names a scheduler, not what a volunteer does
    verb, what = _base(act.group("verb")), act.group("what").split()
    if (act.group("verb").lower() in _NO_SYSTEM_OF or is_function_word(verb)
            or any(is_function_word(w) or named_roles(w) and w == what[-1] for w in what)):
        return None
    named = " ".join([*what[:-1], singular_en(what[-1]), _EN_ACT_NOUNS.get(verb.lower()) or gerund_en(verb)])
    if act.group("online"):
        named = f"online {named}"
    place = _EN_ASKER_PLACE.search(requirement)
    if place and (where := (place.group("place") or place.group("ours")).strip()) and where.lower() not in named.lower():
        whose = f"{named} for {'an' if where[:1].lower() in 'aeiou' else 'a'} {where}"
        named = whose if plan_title(whose) == whose else named  # a place cut in half says less than none
    return named


_EN_WHAT_PEOPLE_DO = re.compile(r"\s+(?:so\s+that|so|where|in\s+which|that\s+lets|which\s+lets)\s+", re.IGNORECASE)


# How a request is put to whoever builds it, before the thing it names: asking ("帮我", "能不能", "Can you",
# "Please") and making it ("做一个", "build a"). A title names the thing ("小区物业报修系统", "A shift swap page").
_ZH_ASKING = re.compile(r"^(?:请|麻烦)?(?:你们?|您)?(?:帮我们?|帮忙|替我们?|给我(?=做|开发|写|弄|搞))?(?:能不能|能否|可不可以|可否|可以)?"
                        r"(?:帮我们?|帮忙)?")
_ZH_MAKING = re.compile(r"^(?:做|开发|搞|弄|建|写|整|设计|实现)?(?:一下)?(?:一个|一套|一款|一份|个|套|款)")
_EN_ASKING = re.compile(r"^(?:(?:can|could|would|will)\s+(?:you|we|someone)\s+(?:please\s+)?|please\s+|"
                        r"help\s+(?:me|us)\s+(?:to\s+)?|i\s+want\s+you\s+to\s+)", re.IGNORECASE)
_EN_MAKING = re.compile(r"^(?:build|make|create|develop|set\s+up|write|code)\s+(?:(?:me|us)\s+)?(?=(?:a|an|some)\s)",
                        re.IGNORECASE)
_ASKED = re.compile(r"\s*(?:吗|呢|吧)?[?？]+$")


def _without_asking(item: str, zh: bool) -> str:
    """A thing to deliver without the words that ask for it ("能不能做一个积分小程序" → "做一个积分小程序")."""
    item = item.strip()
    if zh and item.startswith("请") and zh_tokens(item[:6])[0][0] != "请":
        # 请 of a word of its own ("请假", "请客") is no "please": only what follows it may ask
        return "请" + _without_asking(item[1:], zh) if len(item) > 1 and not _ZH_ASKING.match(item[1:]).end() else item
    bare = (_ZH_ASKING if zh else _EN_ASKING).sub("", item, count=1)
    return bare if len(CJK.findall(bare) if zh else bare.split()) >= 2 else item


def _named_thing(wanted: str, zh: bool, as_system: bool = True) -> str:
    """The thing a title names, without how it was asked for: "帮我做一个小区物业报修系统" → "小区物业报修系统",
    "Can you build a chore list?" → "a chore list". A bare form ("做一个小程序，居民扫码…") keeps its verb, which the
    clause after it goes on from."""
    asked = _ASKED.sub("", wanted.strip())
    bare = _without_asking(asked, zh)
    # for whom it is made comes before the thing, as a name does ("给我们驾校做一个约车小程序" → "驾校约车小程序")
    made_for = _ZH_MADE_FOR.match(bare) if zh else None
    owner = re.sub(rf"^{SPEAKER_ZH}(?:的)?|的$", "", made_for.group(0)[1:]) if made_for else ""
    made = (_ZH_MAKING if zh else _EN_MAKING).sub("", bare[made_for.end():] if made_for else bare, count=1)
    made = _zh_past_a_bare_verb(made) if zh else made
    if made_for and (len(CJK.findall(owner)) < 2 or "的" in owner or made == bare[made_for.end():]):
        return bare  # a place said at length ("我们小区的驿站") or a thing not made: as written
    made = owner + made
    named = re.split(r"[，；,;:：]", made, maxsplit=1)[0]
    if len(CJK.findall(named) if zh else named.split()) < 2 or names_no_purpose(named) or names_no_purpose(bare):
        return bare if len(CJK.findall(bare) if zh else bare.split()) >= 2 else asked
    return _zh_system_name(made) if zh and as_system else made


def _zh_past_a_bare_verb(thing: str) -> str:
    """A thing to make said with its verb and no measure word ("做记账小程序" → "记账小程序"): the verb is a word of its
    own there, unlike one that is part of the name ("做饭提醒小程序", "写作打卡小程序")."""
    tokens = zh_tokens(thing)
    if len(tokens) >= 2 and tokens[0][0] in _ZH_MAKING_VERBS and _ZH_KINDS.search(thing):
        return thing[len(tokens[0][0]):]
    return thing


_ZH_MAKING_VERBS = {"做", "开发", "搞", "弄", "建", "写", "整", "设计", "实现"}


# A thing described by what it does ("供团长统计接龙订单的小工具", "能打印报表的功能"): whom it is for, what it does, 的,
# and its kind.
_ZH_DOES_THEN_KIND = re.compile(r"^(?P<does>[^，。；]{3,24})的(?P<kind>[^的，。；]{1,6})$")
# or its kind first, then what it is to do ("工具来管理我们的库存", "小程序统计每天的销售额")
_ZH_KINDS = re.compile(SOFTWARE_ZH + r"|小工具|功能|表格?|看板|机器人")
_ZH_KIND_THEN_DOES = re.compile(rf"^(?P<kind>小工具|{_ZH_KINDS.pattern})(?:来|用来|用于|去)?(?P<does>[^，。；]{{3,16}})$")


# When a clause says it is done, before what is done ("每天", "每周五晚上8点"): no part of a thing's name.
_ZH_WHEN = re.compile(r"^(?:每(?:天|日|晚|周[一二三四五六日天]?|星期[一二三四五六日天]|个?月)|早上|晚上|上午|下午|中午|"
                      r"\d{1,2}\s*[点:：]\d{0,2}|定时|按时)+")


def _zh_system_name(thing: str) -> str:
    """A Chinese thing named as a system is, by its object, its act and its kind ("统计接龙订单的小工具" → "接龙订单统计小
    工具", "供前台登记访客的工具" → "访客登记工具"); whom it is for is said in the plan's goals. Else as it is."""
    # whom it is for may itself hold 的 ("供我们店的店员使用的排班系统"): the name is after the last 使用的
    if used := re.fullmatch(r"供[^，。；]{1,14}(?:使用|用)的(?P<name>[^，。；的]{2,12})", thing.strip()):
        return used.group("name")  # "供财务使用的自动对账工具": its name says what it is
    if (one := re.fullmatch(r"(?P<act>[\u4e00-\u9fff]{2})的(?P<kind>[^的，。；]{1,6})", thing.strip())) \
            and _ZH_KINDS.fullmatch(one.group("kind")) and zh_one_act(one.group("act")):
        return one.group("act") + one.group("kind")  # "排课的系统" → "排课系统"
    said = next((m for m in (_ZH_DOES_THEN_KIND.match(thing.strip()), _ZH_KIND_THEN_DOES.match(thing.strip()))
                 if m and _ZH_KINDS.fullmatch(m.group("kind"))), None)
    if said is None:
        return thing
    does = re.sub(r"^(?:能够|能|可以|用来|用于)", "", said.group("does"))
    # whom it is for, up to what it does ("供社区团购群的团长" 统计接龙订单): the shortest that leaves an act on a thing
    starts = [0] if not does.startswith("供") else range(2, len(does) - 3)
    for start in starts:
        if acted := zh_verb_object(re.sub(r"^(?:能够|能|可以|用来|用于)", "", does[start:])):
            return f"{acted[1]}{acted[0]}{said.group('kind')}"
    return thing


def _zh_scope_item(item: str) -> str:
    """A Chinese thing to deliver as scope says it: without the words that ask for it or make it ("做一个预约挂号小程序" →
    "预约挂号小程序"), and a thing said kind first by its name ("工具管理我们的库存" → "库存管理工具"), which reads as a
    sentence whose subject is the tool; what it does said before its kind stays ("统计接龙订单的小工具")."""
    thing = _named_thing(item, True, as_system=False)
    return _zh_system_name(thing) if _ZH_KIND_THEN_DOES.match(thing) else thing


def _a_name(word: str, text: str) -> bool:
    """Whether `text` writes `word` as a product's name ("Slack", "WhatsApp"), which takes no article as "the website"
    does: a capital it keeps mid-sentence, then small letters (not an acronym such as "REST API")."""
    # every word of it: "Google Sheets" is a name, "Slack bot" a bot named by one ("the Slack bot")
    return (all(w[:1].isupper() for w in word.split()) and word[1:2].islower()
            and mid_sentence(word, text) == word)


def _a_product(topic: Topic, word: str) -> bool:
    """Whether `word` is a product the catalogue names with its capitals ("SQLite", "iOS", "SMS"), which takes no
    article however the requirement writes it; "PDF report" is a kind of report ("the PDF report")."""
    return topic.names_a_product(word) and not any(part.islower() for part in word.split())


def _listed(items: Sequence[str], zh: bool) -> str:
    """Things named inside a sentence of the plan, listed as a reader writes them: "老人、子女"; "employees and
    managers", "HR, employees and managers" (a bare comma list reads as unfinished in English)."""
    if zh or len(items) < 2:
        return "、".join(items) if zh else "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


# Git's convention for a subject line: longer ones are cut off in logs and reviews.
_COMMIT_SUBJECT = 72
# Verbs a request opens with when it asks for a change ("Add CSV export …", "Let parents book …"): a title that opens
# with one is already an act, so the commit subject says how to do it rather than "add plan for add …". Verbs
# that open a title as often as a noun ("Email digest …", "Support ticket triage", "Log search …") are not listed.
_EN_CHANGE_VERBS = frozenset("""add build make create develop write let allow enable send export import show move
replace migrate fix improve integrate connect automate remind notify generate sync remove rename convert extend hide
save collect give stop""".split())


# A shell line of a usage example ("$ make test", ".venv/bin/ng ppt ... --out x"): what it says is an
# argument, not what the project documents.
_COMMAND_LINE = re.compile(r"^\s*(?:\$\s|>>>|\.{0,2}/|[\w.-]+/bin/|(?:python3?|pip|make|npm|npx|yarn|uv|docker|curl|git|ng)\s)")


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """(offset, line) of a doc passage outside fenced code blocks and command lines."""
    lines, fenced = [], False
    for offset, line in enumerate(text.splitlines()):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and not _COMMAND_LINE.match(line):
            lines.append((offset, line))
    return lines


_STARTS_BLOCK = re.compile(r"^\s*(?:#|[-*+>|]\s|\d+[.)]\s)")  # a heading, list item, quote or table row
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"(])|(?<=[。！？；])")


def _sentence_around(lines: list[tuple[int, str]], index: int, topic: Topic) -> str:
    """The sentence of the paragraph around lines[index] that settles the topic: docs wrap their lines,
    and one wrapped line is a fragment ("ng users remove NAME revokes it at once. With")."""
    first = last = index
    while (first > 0 and lines[first - 1][0] == lines[first][0] - 1 and lines[first - 1][1].strip()
           and not _STARTS_BLOCK.match(lines[first][1])):
        first -= 1
    while (last + 1 < len(lines) and lines[last + 1][0] == lines[last][0] + 1 and lines[last + 1][1].strip()
           and not _STARTS_BLOCK.match(lines[last + 1][1])):
        last += 1
    paragraph = " ".join(line.strip().lstrip("#-*+>| ").strip() for _, line in lines[first:last + 1]).replace("**", "")
    sentences = [s.strip() for s in _SENTENCE_BREAK.split(paragraph) if s.strip()]
    sentence = next((s for s in sentences if find_keyword(s, topic.doc_keywords)), paragraph)
    return sentence if len(sentence) <= 200 else sentence[:199].rstrip() + "…"


def _doc_finding(topic: Topic, knowledge: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """(sentence, path:line) of the first doc passage that settles the topic, in its prose (not in an example)."""
    for item in knowledge:
        lines = _prose_lines(str(item.get("text", "")))
        for index, (offset, line) in enumerate(lines):
            if find_keyword(line, topic.doc_keywords):
                return _sentence_around(lines, index, topic), f"{item.get('path')}:{int(item.get('start_line', 1)) + offset}"
    return None


def _question(topic: Topic, zh: bool, has_repository: bool, unattended: bool, script: bool,
              shared: bool = False, own_use: bool = False) -> dict[str, Any]:
    return {
        "id": topic.id,
        "question": topic.question_text(zh, unattended, script, own_use),
        "why_needed": topic.text(topic.why, zh),
        "impact_if_unknown": topic.text(topic.impact, zh),
        "fallback_assumption": topic.fallback_text(zh, has_repository, unattended, script, shared, own_use),
        "blocking": topic.blocking,
        "priority": topic.priority,
    }


# The verb an answer about a store or an entry point may open with; the plan's sentences supply their own.
# Not the 用 of 用户 ("用户表"), 用途 or 用法, nor of a name ("用友").
_USING = re.compile(r"^\s*(?:(?:we\s+)?(?:use|using|via|through|with)\s+|(?:使用|采用|选用|就用|通过|"
                    rf"用(?![户途法])(?!{'|'.join(n[1:] for n in SYSTEMS_ZH if n.startswith('用'))}))\s*)",
                    re.IGNORECASE)
# How an answer may end by saying it will do ("用Excel就行", "a spreadsheet is fine"): the plan's sentences name the
# thing only ("基于Excel设计数据模型", not "基于Excel就行设计数据模型").
_WILL_DO = re.compile(r"\s*(?:就行了?|就可以了?|即可|就好了?|就够了?|也行|行了|吧|啦|[,，]?\s*(?:is|are|would be|should be|will be)"
                      r"\s+(?:fine|enough|ok(?:ay)?|good)|[,，]?\s*(?:will|would)\s+do|[,，]?\s*I\s+guess|[,，]?\s*please)"
                      r"[\s。！!.…]*$", re.IGNORECASE)


# Devices a person carries, named in the plural (each uses their own: "with their phones") or the singular (one they
# share: "the iPad", which as a name alone would read "when they use iPad").
_CARRIED_DEVICES = {"phones": True, "smartphones": True, "tablets": True, "ipads": True,
                    "phone": False, "smartphone": False, "tablet": False, "ipad": False}


_CARRIED_DEVICES_ZH = {"手机", "平板", "电脑"}


# Ways of sending, said without an article as "by phone" is ("through email", not "through the email").
_MEDIA = {"email", "e-mail", "text message", "text messages"}


def _things_named(topic: Topic, requirement: str, zh: bool) -> list[str]:
    """The topic's things the requirement names, as the plan's sentences put them ("the website", "Slack", "the web
    page" for "online"); words that only say where or when count when nothing else names the thing ("book online in the
    app"; "a nightly job that emails it": the scheduled job and the email)."""
    words = topic.keywords_in(requirement)
    if topic.id == "q_interface":  # the app people open, not the SMS it reminds them by ("小程序…短信提醒")
        words = [w for w in words if not only_sends_or_schedules(w)] or words
        # nor the sheet a page reads its data from ("a web page that shows our stock from a Google Sheet")
        words = [w for w in words if w.lower() not in {s.lower() for s in SHEETS}] or words
        # nor the device the app runs on ("业主用手机在小程序上报修": the entry point is the 小程序)
        words = [w for w in words if w.lower() not in _CARRIED_DEVICES and w not in _CARRIED_DEVICES_ZH] or words
    named = [w for w in words if topic.thing_named(w, zh) is None] or words
    things: list[str] = []
    for keyword in named:
        if keyword.lower() in _CARRIED_DEVICES:  # each uses their own ("their phones"), or one they share ("the iPad")
            said = keyword if zh else word("their_devices" if _CARRIED_DEVICES[keyword.lower()] else "shared_device",
                                           zh, device=keyword)
        elif _a_name(keyword, requirement) or _a_product(topic, keyword):
            said = keyword
        elif (thing := topic.thing_named(keyword, zh) or keyword).lower() in _MEDIA:
            said = mid_sentence(thing, requirement)  # a way of sending takes no article: "through email"
        else:
            said = topic.text(topic.named_as, zh).format(mid_sentence(thing, requirement))
        if said not in things:
            things.append(said)
    return things


# Where a backup sends its copies: what follows "到", "to" ("备份到阿里云OSS", "back up the database to S3").
# What follows stops where another place does ("to migrate … from the old database into PostgreSQL": not the old one).
_SENT_TO = re.compile(r"(?P<by>到|至|\b(?:to|into|onto)\b)\s*(?P<where>(?:(?!\b(?:to|into|onto|from)\b|从)[^,.;，。；])+)",
                      re.IGNORECASE)


def _destination(requirement: str, zh: bool) -> str | None:
    """The store a job puts its copies or its data in, named after where it sends them ("备份到阿里云OSS", "load our
    payouts into Postgres"); else None."""
    # not a file it exports to ("export the orders to Excel"), which is what it hands over
    for sent in _SENT_TO.finditer(TOPICS_BY_ID["q_data_store"].unmasked(requirement)):
        if named := _things_named(TOPICS_BY_ID["q_data_store"], sent.group("where"), zh):
            return named[0]
        # a system of record it is loaded into ("导入到用友", "sync … into our Shopify store"): where the data lands, by
        # its name; not whom a thing is sent to ("email it to the CEO")
        if (zh or sent.group("by").lower() != "to") and (system := system_named_first(sent.group("where"))):
            return system
    return None


def _opens_with_a_name(topic: Topic | None, answer: str) -> bool:
    """Whether an answer opens with one of the things the topic names, written with a capital ("Postgres", "Slack",
    "Excel"): a name's capital, which the plan keeps though the answer's first word has it too."""
    if topic is None or not topic.keywords_name_it:
        return False
    first = re.match(r"\s*([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)", _USING.sub("", answer))
    return (first is not None and first.group(1)[:1].isupper()
            and any(find_keywords(word, topic.keywords) == [word] and topic.names_a_product(word)
                    for word in (first.group(1), first.group(1).split()[0])))


def _answer_as_named(topic: Topic, answer: str, zh: bool) -> str | None:
    """An answer that only names one of the topic's things, typed in lower case ("web page", "a mobile app"), put as
    the plan's sentences put that thing when the requirement names it ("through the web page", not "through web
    page"); else None. A capital it opens with may be a name's ("Slack"): such an answer is left as it is."""
    bare = re.sub(r"^(?:a|an|the)\s+", "", _USING.sub("", answer).strip().rstrip(".!"), flags=re.IGNORECASE)
    named = find_keywords(bare, topic.keywords)
    if not named or named[0] != bare or topic.names_a_product(bare):
        return None
    return topic.text(topic.named_as, zh).format(topic.thing_named(bare, zh) or mid_sentence(bare))


def _who_answered(answer: str, zh: bool) -> str | None:
    """Who an answer to "who uses it" names when it names no one by their work: the asker ("就我一个人", "just me"),
    or only how many ("一个人", "5 people"), which is the load: the plan then says the intended users. Else None."""
    if named_roles(answer):
        return None
    if asker := asker_uses(answer):
        return _the_asker(asker, answer, zh)
    return word("intended_users", zh) if _only_counts(answer) else None


def _the_asker(asker: str, text: str, zh: bool) -> str:
    """The asker as the plan names them among its users: alone, their group, or with whom they name ("我和老婆")."""
    if companion := asker_companion(text):
        return word("the_requester_and", zh, who=companion)
    if asker == "us" and (group := asker_group(text)):
        return word("group_members", zh, group=group)
    return word("the_requester" if asker == "me" else "the_requesters", zh)


def _holders_not_in(users: str, *texts: str, zh: bool) -> list[str]:
    """The people the access rules of `texts` name ("只有站长能看报表", "only the office manager can export") who are
    not among `users` already (not "居民" beside "小区居民"): they use it, for what the rule keeps to them."""
    security = TOPICS_BY_ID["q_security"]
    holders: list[str] = []
    for text in texts:
        for rule in (m.group(0) for p in security.patterns for m in p.finditer(text or "")):
            for role in named_roles(rule):
                said = with_its_article(role, text)
                if role.lower() not in users.lower() and all(role.lower() not in h.lower() for h in holders):
                    holders.append(said)
    return holders


def _only_counts(answer: str) -> bool:
    """Whether an answer says how many and nothing of who ("一个人", "只有5个人", "about 20 people"); not "Store
    managers, about 50 of them", which names them too."""
    count = TOPICS_BY_ID["q_scale"].shape_in(answer)
    if not count:
        return False
    rest = answer.replace(count, " ")
    return len(CJK.findall(rest)) <= 2 and all(is_function_word(w) for w in re.findall(r"[A-Za-z']+", rest))


def _settled_by_its_kind(requirement: str, zh: bool, *, chat_bot: bool, own_script: bool,
                         moves_data: bool = False, alone: bool = False) -> dict[str, str]:
    """Topic id → what the kind of thing settles by itself: a bot people message is used, in the chat, by whoever
    messages it (the people the requirement names: "answers customers' questions"), with no sign-in; a script its asker
    runs is theirs, run on their computer over their own files, with no sign-in; one that moves data into a store
    (`moves_data`) works on the stores the requirement names, not on files. A tool its asker uses `alone` ("an app to
    track my houseplants") carries one person's load and needs no sign-in or permission rules."""
    if chat_bot:
        people_topic = TOPICS_BY_ID["q_target_users"]
        generic = {w.lower() for w in people_topic.doc_keywords}
        people = [w for w in people_topic.keywords_in(requirement) if w.lower() not in generic]
        return {"q_target_users": _listed(people, zh) or word("bot_users", zh), "q_security": word("chat_access", zh)}
    if own_script and moves_data:
        return {"q_target_users": word("the_requester", zh), "q_interface": word("local_script", zh),
                "q_security": word("local_data_access", zh)}
    if own_script:
        return {"q_target_users": word("the_requester", zh), "q_interface": word("local_script", zh),
                "q_security": word("local_access", zh), "q_data_store": word("local_files", zh)}
    if alone:
        return {"q_scale": word("own_load", zh), "q_security": word("own_access", zh)}
    return {}


def _job_source(requirement: str, store_answer: str, zh: bool) -> str:
    """Where a job reads its data, as the plan's sentences name it: the system the requirement names ("Stripe", "the
    ticket system", "收银系统") or an answer does ("we use Mindbody"), else the system that holds the data now."""
    source = job_source(requirement) or kept_in_a_system(requirement) or kept_in_a_system(store_answer)
    if not source:
        return word("source_system", zh)
    store_topic = TOPICS_BY_ID["q_data_store"]
    return source if zh or source[:1].isupper() else store_topic.text(store_topic.named_as, zh).format(source)


def _tryout_stage(say: Any, *, metric: str, users: str, security: str, checks: list[str],
                  acceptance: str | None = None) -> dict[str, Any]:
    """The check of a tool for its asker or their home (a shared chore list): each use tried once as they will use
    it, not load tests, a CI gate and a feature flag, which a thing a few people share does not have."""
    return {
        "name": say("tryout_name"),
        "goal": say("tryout_goal", metric=metric, users=users),
        "success_criteria": [acceptance or say("acceptance_pass", metric=metric), say("access_respected", security=security)],
        "tasks": [say("tryout_each_use", users=users), say("review_access", security=security)],
        "validation": checks,
        "risks": [say("tryout_risk")],
        "owner_hint": say("developer"),
    }


def _handover_stage(say: Any, *, users: str, deadline: str | None, script: bool) -> dict[str, Any]:
    """The last stage of a thing for its asker's own use (a script they run, a sheet for their family): handed over
    with a how-to and a way back, not released with a changelog and a smoke test."""
    return {
        "name": say("handover_name"),
        "goal": say("handover_goal_by", deadline=deadline) if deadline else say("handover_goal"),
        "success_criteria": [*([say("handed_over_by", deadline=deadline)] if deadline else []),
                             say("how_to_written"), say("way_back_tried")],
        "tasks": [say("write_how_to"), say("script_handover") if script else say("set_up_for", users=users)],
        "validation": [say("first_use_checked", users=users)],
        "risks": [say("script_release_risk" if script else "first_use_risk")],
        "owner_hint": say("developer"),
    }


def _scenario_lines(say: Any, acts: Sequence[Scenario], *, described: str, users: str, interface: str,
                    zh: bool) -> dict[str, Any]:
    """The plan's lines for what each of its people does: a build task and a testable criterion per act (through the
    entry point, unless the act says where it is done), a scheduled task and a check of when for what is sent, a
    design task to fix when that is where the requirement does not say, and the acceptance line listing them all."""
    entry_points = TOPICS_BY_ID["q_interface"]
    lines: dict[str, Any] = {"tasks": [], "criteria": [], "design": [], "sends": False, "acceptance": ""}
    listed = []
    # Several entry points ("小程序、后台"): an act that names none is done through the one its person names elsewhere
    # ("老师在后台查看"), else through the one no one else names (家长 → 小程序), else through none said
    # each as the plan spells it ("App", not "app")
    named = [(said.group(0) if (said := re.search(re.escape(p), interface, re.I)) else p)
             for p in _things_named(entry_points, interface, zh)]
    claimed: dict[str | None, list[str]] = {}
    for act in acts if len(named) > 1 else ():
        claimed.setdefault(act.who, []).extend(p for p in named if p not in claimed.get(act.who, [])
                                               and p.lower() in map(str.lower, _things_named(entry_points, act.does, zh)))
    others = [p for p in named if not any(p in used for used in claimed.values())]
    for act in acts:
        who = with_its_article(act.who, described) if act.who else users  # "the supervisor", "pickers"
        one = one_of(act.who, zh) if act.who else users
        listed.append(say("scenario_listed", who=who, does=act.does))
        if act.kind == "gets":
            lines["sends"] = True
            what = act.what or say("its_message")
            lines["tasks"].append(say("scenario_send_task", who=who, what=what, when=act.when or say("time_agreed")))
            lines["criteria"].append(say("scenario_sent_on" if act.on_event else "scenario_sent", one=one, what=what,
                                         when=act.when or say("time_agreed_at")))
            if not act.when:
                lines["design"].append(say("decide_send_time", what=what))
            continue
        # the act says where it is done, through the plan's entry point ("book online", "在微信上预约"): said once
        there = (bool(_things_named(entry_points, act.does, zh)) or interface in act.does
                 or zh and re.search(r"(?:^|^每[^，。；在]{1,6}?)(?:在|通过|用)[^，。；]{1,8}?(?:里|上|中)", act.does) is not None)
        its_way = interface
        if len(named) > 1 and not there:
            its_way = _listed(claimed.get(act.who) or (others if len(others) == 1 else []), zh)
            there = not its_way
        suffix = "_there" if there else ""
        lines["tasks"].append(say("scenario_task" + suffix, who=who, does=act.does, interface=its_way))
        lines["criteria"].append(say(("scenario_seen" if act.kind == "views" else "scenario_done") + suffix,
                                     one=one, does=act.does, interface=its_way))
    lines["acceptance"] = say("acceptance_each", scenarios=("；" if zh else "; ").join(listed))
    return lines


@offline_composer(RequirementPlan)
def compose_requirement_plan(request: OfflineRequest) -> dict[str, Any]:
    facts = request.facts
    requirement: str = facts["requirement"]
    zh = is_chinese(requirement)

    def say(key: str, **fields: Any) -> str:  # the plan is written in its requirement's language
        return word(key, zh, **fields)

    answers: dict[str, str] = {str(k): str(v) for k, v in (facts.get("answers") or {}).items()}
    assumed: list[dict[str, Any]] = list(facts.get("assumed") or [])
    assumed_by_id = {a["id"]: a for a in assumed}
    knowledge: list[Mapping[str, Any]] = list(facts.get("knowledge") or [])
    repository: Mapping[str, Any] = facts.get("repository") or {}
    force = bool(facts.get("force_plan"))
    said = requirement + "\n" + "\n".join(answers.values())

    decisions: list[tuple[str, str]] = []
    answered_value: dict[str, str] = {}  # topic id -> the human's words, woven into the stages
    stated_value: dict[str, str] = {}  # topic id -> what the requirement itself names ("业主、维修师傅", "小程序")
    documented: dict[str, str] = {}  # topic id -> where the docs settle it
    doc_assumptions: list[dict[str, Any]] = []
    cited: list[str] = []
    open_topics: list[Topic] = []
    # A requirement that named nothing it must do ("做个东西") is described by the answer saying what it is for.
    described = answers.get("q_purpose") or requirement
    roles = named_roles(described if described == requirement else f"{requirement}\n{described}")
    # whom the asker names as using it with them is theirs, said with them ("for me and my partner")
    roles = [role for role in roles if role != asker_companion(requirement)]
    backup = only_keeps_copies(described)  # serves no one: it keeps copies safe, so nobody is asked who uses it
    # a scheduled report or an ETL: no one signs in to it; not a task people do at a time ("保健医每天早上…登记")
    unattended = runs_unattended(described) and not _people_do_it_then(described, zh) and not _people_act_in_it(described, zh)
    # the group chat a job posts to: whoever is in it receives the result
    audience = chat_audience(described) if unattended and not backup else None
    # a job reads what another system holds: it keeps no store of its own unless it must remember between runs
    reads_only = unattended and not backup and not keeps_own_state(described)
    # the store a data job writes into ("load our Stripe payouts into Postgres every hour"): what it delivers to
    chat_bot, own_script = talked_to_in_a_chat(described), run_on_own_files(described)
    # (a script run by hand may load one too: "a one-off script to migrate … into PostgreSQL")
    loads_into = _destination(described, zh) if (unattended or own_script) and not backup and not audience else None
    # the system the asker already keeps the data in ("we use Cliniko for bookings"), said in the requirement or as
    # where the data lives: an app reads it there; a store named in that answer ("Postgres") is a store still
    store_answer = answers.get("q_data_store", "")
    # (not of a run that loads data elsewhere: the system it reads is its source, not its store)
    system = None if unattended or loads_into or TOPICS_BY_ID["q_data_store"].settled_by(store_answer) else \
        kept_in_a_system(described) or kept_in_a_system(store_answer)
    # what the kind of thing settles by itself: a bot people message is used in the chat by whoever messages it, with
    # no sign-in; a script its asker runs is theirs, on their computer and their files
    # a tool its asker alone uses: no load or sign-in to ask about (not one a few at home share: "for me and my wife")
    alone = not unattended and not shared_by_a_few(described) and asker_uses(described) == "me"
    kind_says = _settled_by_its_kind(described, zh, chat_bot=chat_bot, own_script=own_script, moves_data=bool(loads_into),
                                     alone=alone)
    # a job told where its data lives ("we use Mindbody for everything") reads it there, read-only
    keeps_no_store = reads_only and bool(store_answer) and only_names_its_system(store_answer)
    # (found from the sentence's structure, the catalogue's words as fallback)
    for topic in TOPICS:
        label = topic.text(topic.label, zh)
        if topic.id not in answers and not topic.raised_by(described):
            continue  # not a question of this requirement (how long copies are kept, of an app)
        if topic.id in answers:
            answered_value[topic.id] = answers[topic.id]
            decisions.append((label, answers[topic.id]))
        elif topic.id in assumed_by_id:
            continue  # settled by an assumption (listed)
        elif topic.id == "q_purpose":
            if names_no_purpose(requirement):
                open_topics.append(topic)
            continue  # else the requirement says what it must do
        elif topic.id == "q_target_users" and backup and not roles:
            continue
        elif topic.id == "q_target_users" and roles:  # the requirement names who acts or is served
            # and the asker, where they say they act in it too ("… and I see the week's schedule")
            stated_value[topic.id] = _listed([with_its_article(role, described) for role in roles]
                                             + ([word("the_requesters" if re.search(r"\bwe\b|我们", acts.group(0), re.I)
                                                      else "the_requester", zh)]
                                                if (acts := _ASKER_ACTS.search(described)) else [])
                                             # and whoever of the asker's runs the place and wants it: they use it too
                                             # ("My dad owns a garage and wants a page where customers book")
                                             + ([say("the_requesters_kin", who=kin[0])]
                                                if (kin := asked_for_kin(requirement)) else []), zh)
            continue
        elif topic.id == "q_target_users" and audience:  # the group it posts to
            stated_value[topic.id] = audience
            continue
        elif topic.id == "q_target_users" and loads_into and not own_script:  # the store it loads: no person receives it
            stated_value[topic.id] = loads_into
            continue
        elif topic.id == "q_target_users" and (kin := asked_for_kin(requirement)):  # "My mum runs a shop and needs …"
            stated_value[topic.id] = say("the_requesters_kin", who=kin[0])
            continue
        elif topic.id == "q_target_users" and (asker := asker_uses(requirement)):  # "自己用", "for my own use"
            stated_value[topic.id] = _the_asker(asker, requirement, zh)
            continue
        elif topic.id in kind_says and (topic.id == "q_target_users" or not topic.settled_by(said)):
            stated_value[topic.id] = kind_says[topic.id]
            continue
        elif topic.id == "q_security" and open_to_anyone(described):  # "anyone may sign up, no accounts needed"
            stated_value[topic.id] = say("open_access")
            continue
        elif topic.id == "q_interface" and not unattended and _only_says_how_it_tells(described) \
                and _people_act_in_it(described, zh):
            open_topics.append(topic)  # "managers get emailed": how people are told, not where they submit or approve
            continue
        # Who uses it is settled above or not at all: its words alone may name a permission ("管理员权限").
        elif topic.id != "q_target_users" and topic.settled_by(said):  # settled by the requirement or the answers
            # named in the requirement, else in an answer to another question ("no rush, we use Postgres")
            if topic.keywords_name_it and (named := _things_named(topic, requirement, zh)
                                           or _things_named(topic, "\n".join(answers.values()), zh)):
                stated_value[topic.id] = _listed(named, zh)
            elif phrase := topic.stated_in(said):  # "by the end of March", "3个人", "only HR staff may see salaries"
                stated_value[topic.id] = mid_sentence(phrase, said)  # "About 600 students." opened a sentence
            continue
        elif topic.id == "q_interface" and audience:  # it delivers by posting to that group
            stated_value[topic.id] = audience
            continue
        elif topic.id == "q_interface" and loads_into:  # it delivers by writing into that store
            stated_value[topic.id] = loads_into
            continue
        elif topic.id == "q_data_store" and reads_only:  # it reads the data where it is; no store is chosen
            keeps_no_store = True
            continue
        elif topic.id == "q_data_store" and system:  # the data is where the asker keeps it already
            continue
        elif (finding := _doc_finding(topic, knowledge)) is not None:
            line, where = finding
            documented[topic.id] = where
            cited.append(where)
            doc_assumptions.append({
                "text": say("documented", label=label, line=line, where=where),
                "risk_level": "low",
                "rollback_hint": say("documented_rollback", where=where),
            })
        else:
            open_topics.append(topic)
    if loads_into and not own_script and "q_interface" not in answers:
        stated_value["q_interface"] = loads_into  # a job loading a store delivers there, however often it runs
    # a system it loads ("导入到用友", "同步到有赞商城"), not a store: written through its API, with no model of ours
    loads_a_system = bool(loads_into) and not TOPICS_BY_ID["q_data_store"].settled_by(loads_into)
    if loads_into and keeps_no_store:
        keeps_no_store = False  # no store of the catalogue's is named, but a system it loads ("导入到用友") holds its data
    for qid, text in answers.items():
        if qid not in TOPICS_BY_ID:  # answers to questions a real model or a person phrased
            decisions.append((qid, text))

    open_topics.sort(key=lambda tp: (not tp.blocking, tp.priority))
    ask = not force and any(tp.blocking for tp in open_topics)
    has_repository = bool(repository.get("root"))
    if any(tp.id == "q_purpose" for tp in open_topics):
        # Before what it is for is known, the store, the entry point or the load are guesses: the round asks what
        # it is for (and who it is for); the rest waits for the next round.
        asking = [tp for tp in open_topics if tp.id in ("q_purpose", "q_target_users")]
    else:
        asking = open_topics
    # a few at home who share it ("for me and my wife") need no account each
    shared = shared_by_a_few(described)
    # what a thing people use sends by itself at a time ("reminds students each evening"); a job is all schedule
    sends_when = None if unattended else scheduled_send(described)
    # a script its asker runs, a tool for them or their home: handed over to them, not released
    own_use = not unattended and (own_script or shared or asker_uses(described) == "me")
    # who the asker's place plausibly serves, when no one is named ("我们宠物店…" → its customers and staff): the
    # question offers that guess as its default and the plan says it, not "the intended users"
    place = place_served(described) or place_served(requirement) if not unattended and not own_use else None
    place_users = say(f"place_users_{place[0]}", place=place[1]) if place else None
    questions = [_question(tp, zh, has_repository, unattended, own_script, shared, own_use)
                 | ({"fallback_assumption": say("place_users_assumed", users=place_users)}
                    if tp.id == "q_target_users" and place_users else {})
                 for tp in asking[:MAX_QUESTIONS_PER_ROUND]] if ask else []

    assumptions = [{k: a[k] for k in ("text", "risk_level", "rollback_hint")} for a in assumed] + doc_assumptions
    if keeps_no_store and not ask:
        assumptions.append({"text": say("keeps_no_store"), "risk_level": "low", "rollback_hint": say("keeps_no_store_rollback")})
    if not ask:
        for topic in open_topics:  # nothing blocking left: the rest is planned on its fallback
            fallback = topic.fallback_text(zh, has_repository, unattended, own_script, shared, own_use)
            if topic.id == "q_target_users" and place_users:
                fallback = say("place_users_assumed", users=place_users)
            assumptions.append({
                "text": fallback,
                "risk_level": "medium" if topic.blocking else "low",
                "rollback_hint": say("revisit", question=topic.question_text(zh, unattended, own_script, own_use)),
            })

    summary = _summary(requirement if described == requirement else
                       say("summary_with_purpose", requirement=requirement.rstrip(".!?。！？ "), purpose=described))
    short = _title(described, zh)
    quoted = mid_sentence(short, requirement)  # the title inside a sentence ("Agree the design of "add a …"")

    def value(topic_id: str, default: str) -> str:
        # The human's words when there are some; otherwise a neutral phrase (the assumption or
        # doc finding behind it is listed in the assumptions, with its source).
        if topic_id in answered_value:  # set inside the plan's sentences: no stop, no sentence-start capital
            answer = answered_value[topic_id]
            if _opens_with_a_name(TOPICS_BY_ID.get(topic_id), answer):
                return answer.strip().rstrip(".!?。！？")  # "Postgres, I guess": its capital is the name's
            return mid_sentence(answer, said)
        if topic_id in stated_value:
            return stated_value[topic_id]
        phrase = say(default) if default else ""
        return f"{phrase} ({documented[topic_id]})" if topic_id in documented else phrase

    # An answer may open with the word the sentence puts before it ("面向小区居民" → "面向面向小区居民").
    users = re.sub(r"^\s*(?:面向|针对|for)\s*", "", value("q_target_users", "recipients" if unattended else "intended_users"),
                   flags=re.I)
    if "q_target_users" in answered_value:
        users = _who_answered(answered_value["q_target_users"], zh) or users
    elif "q_target_users" not in stated_value and place_users:
        users = place_users
    if not unattended and not own_use and "q_security" in answered_value or "q_target_users" in answered_value:
        # whoever an access rule keeps a power for uses it too ("只有物业能下架车位"), though the requirement or the
        # answer named others
        users = _listed([users, *_holders_not_in(users, answered_value.get("q_security", ""), described, zh=zh)], zh)
    metric = value("q_success_metric", "run_delivered" if unattended else "described_behaviour")
    if has_repository:
        store = value("q_data_store", "existing_store")
        interface = value("q_interface", "existing_interface")
    else:
        store = value("q_data_store", "new_store")
        interface = value("q_interface", "new_interface")
    # where a job reads, named in the requirement when it is ("from our Shopify store", "load our Stripe payouts")
    source = _job_source(described, store_answer, zh) if (unattended or loads_into) and not backup else None
    if keeps_no_store:
        store = say("source_named", source=source)
    # So may a store or an entry point, with its verb: "用MySQL", "via Slack" ("通过用MySQL持久化", "through via Slack").
    store, interface = (_WILL_DO.sub("", _USING.sub("", store)) or store,
                        _WILL_DO.sub("", _USING.sub("", interface)) or interface)
    if "q_interface" in answered_value:
        interface = _answer_as_named(TOPICS_BY_ID["q_interface"], answered_value["q_interface"], zh) or interface
    # A store said in a sentence that only places it ("it pulls everything from MySQL"): the plan names the store.
    if "q_data_store" in answered_value and only_names(store_topic := TOPICS_BY_ID["q_data_store"],
                                                       answered_value["q_data_store"]):
        store = _listed(_things_named(store_topic, answered_value["q_data_store"], zh), zh) or store
    if backup and "q_data_store" not in answered_value:  # what a backup copies is not where it keeps the copies
        store = _destination(described, zh) or say("new_store")  # not named: chosen in Stage 1
    if system:  # by its name alone: "Cliniko", not "Cliniko for bookings"
        store = system
    elif loads_into and "q_data_store" not in answered_value:
        store = loads_into  # what a loading job writes into is its store ("用友"), named or chosen
    # What the requirement or an answer says of the time and the load is the plan's, not a generic window.
    known_deadline = "q_deadline" in answered_value or "q_deadline" in stated_value
    known_scale = "q_scale" in answered_value or "q_scale" in stated_value
    deadline = value("q_deadline", "release_window")
    scale = value("q_scale", "script_batch" if own_script else "expected_load")
    security = value("q_security", "job_access" if unattended else "existing_access" if has_repository else
                     "shared_access" if shared else "new_access")
    security = _WILL_DO.sub("", security) or security  # "用微信登录就行": the rule, not how the asker said it will do
    # how long copies are kept, when said; else the build decides it
    retention = value("q_retention", "") if "q_retention" in answered_value or "q_retention" in stated_value else None

    checks = list(repository.get("validation_commands") or [])
    run_checks = [say("run_check", command=c) for c in checks] or [say("no_checks")]
    doc_refs = ", ".join(cited) or ", ".join((repository.get("doc_files") or [])[:3])

    delivered = _deliverables(described, zh)
    # what each of its people does in a thing they use, one build task and one testable criterion each; a job, a
    # backup, a script or a bot keeps its own stage wording
    acts = [] if unattended or backup or own_script or chat_bot or loads_into else \
        find_scenarios([item for item in delivered if not _a_heading(item, described, zh)], zh)
    default_metric = metric == say("described_behaviour")
    asked = metric  # what an acceptance check is for
    if default_metric and not acts:  # kept by default, the measure is still what was asked, by name
        asked = short if zh else quoted
        metric = say("asked_behaviour", what=asked)
    scenario_lines = _scenario_lines(say, acts, described=described, users=users, interface=interface, zh=zh)
    # the thing itself, as "Deliver:" already says it is made ("Deliver: a loyalty app", not "Deliver: build a …";
    # "交付：预约挂号小程序", not "交付：做一个预约挂号小程序")
    # an English thing and what its people do with it are listed each on its own, as Chinese clauses are
    scope = [say("deliver", item=part) for part in scope_items_said_whole(
        [part for item in delivered
         for part in ([_zh_scope_item(item)] if zh else en_scope_items(_EN_MAKING.sub("", item, count=1)))], zh)]
    # An answer the deliverables already say (what it is for, when the requirement named nothing) is not said twice.
    scope += [say("decision", label=label, text=text) for label, text in decisions
              if text.strip().rstrip(".!?。！？ ") not in delivered]
    out_of_scope = [say("out_unrelated"), say("out_infrastructure"), say("out_code")]
    dependencies = [say("target_repository", root=repository["root"]) if repository.get("root") else say("no_repository"),
                    # a job loading one system's data into a store reads the one and writes the other
                    *([say("data_source", store=say("source_named", source=source))] if loads_into and source else []),
                    say("data_source" if keeps_no_store or system else "data_store", store=store)]
    dependencies += [say("existing_check", command=c) for c in checks]
    deliverables = [say("deliverable_code"), say("deliverable_tests"), say("deliverable_docs"), "IMPLEMENTATION_PLAN.md"]

    stages = [
        {
            "name": say("design_name"),
            "goal": say("design_goal_backup", title=short if zh else quoted) if backup else
            say("design_goal_load", title=short if zh else quoted, store=store) if loads_into and users == loads_into else
            say("design_goal_in_repository" if has_repository else "design_goal", title=short if zh else quoted,
                users=users),
            "success_criteria": [say("design_reviewed"), say("source_recorded" if keeps_no_store or system else
                                                             "storage_recorded", store=store)],
            "tasks": [
                say("read_modules_in", docs=doc_refs) if doc_refs else say("read_modules"),
                *([say("read_source_once" if own_script else "read_source", store=source)]
                  if (keeps_no_store or loads_into) and source else []),
                *([] if own_script and not loads_into else  # a script's files are its data; they need no model
                  [say("backup_layout", store=store)] if backup else [] if keeps_no_store else
                  [say("write_into_system", store=store)] if loads_a_system else
                  [say("read_system", store=store)] if system else [say("sketch_data_model", store=store)]),
                # a job writing into a store has no entry point but the store, whose data model is sketched above
                *([] if loads_into and interface == loads_into else [say("decide_entry_point", interface=interface)]),
                *scenario_lines["design"],
            ],
            "validation": [say("design_note_approved")],
            "risks": [say("design_risk")],
            "owner_hint": say("tech_lead"),
        },
        {
            "name": say("build_name"),
            # a job loading a store serves whom it tells when it names them ("出错了要发邮件通知IT"), else the store
            "goal": say("build_goal_backup", store=store) if backup else
            say("build_goal_load_once", store=store) if own_script and loads_into else
            say("build_goal_load", store=store) if loads_into and users == loads_into else
            # what it delivers when its tasks let each person do their act, not "implement the requirement"
            say("build_goal_scenarios" if len({act.who for act in acts}) > 1 or re.search(r"、|,| and ", users) else
                "build_goal_scenario", users=users, interface=interface)
            if any(act.kind != "gets" for act in acts) else say("build_goal", users=users),
            "success_criteria": [*scenario_lines["criteria"], *([] if acts and default_metric else [
                say("backup_lands", store=store) if backup else
                say("script_loaded_into", store=store) if own_script and loads_into else
                say("loaded_into" if loads_into and interface == loads_into else
                    # not "reaches X through X", nor "通过飞书送达飞书群"
                    "posted_in_the_group" if unattended and (interface == users or audience and interface in audience) else
                    "works_end_to_end_unattended" if unattended else "script_on_files" if own_script else
                    "works_in_the_chat" if chat_bot else "works_end_to_end", users=users, interface=interface,
                    what=short if zh else quoted),
                # the default measure is the line above; a measure of the asker's own is a line of its own
                *([] if default_metric else [say("measure_met", metric=metric)])]),
                *([say("sent_on_schedule", when=sends_when)] if sends_when and not scenario_lines["sends"] else []),
                *([say("run_failure_alerts")] if unattended else []),  # a job that fails quietly is never noticed
                *[say("rule_holds", rule=rule) for rule in _rules(described, zh)],
            ],
            "tasks": [
                *(scenario_lines["tasks"] or [say("smallest_change")]),
                # a backup's copy in the store is its build goal; a job that only reads keeps nothing
                *([] if backup or keeps_no_store or own_script else
                  [say("through_system", store=store)] if system else
                  [say("write_through_system", store=store)] if loads_a_system else [say("persist", store=store)]),
                # persisting there is a loading job's delivery; running it is a script's
                # each scenario's task says its entry point
                *([] if backup or own_script or (loads_into and interface == loads_into) or acts else
                  [say("expose_unattended" if unattended else "expose", interface=interface)]),
                *([say("schedule_sending", when=sends_when)] if sends_when and not scenario_lines["sends"] else []),
                *([say("apply_retention", retention=retention) if retention else say("decide_retention")]
                  if backup or TOPICS_BY_ID["q_retention"].raised_by(described) else []),
                say("unit_tests"),
            ],
            "validation": run_checks,
            "risks": [say("build_risk")],
            "owner_hint": say("developer"),
        },
        _tryout_stage(say, metric=metric, users=users, security=security, checks=run_checks,
                      acceptance=scenario_lines["acceptance"] if acts and default_metric else
                      say("acceptance_pass", metric=asked))
        if own_use and not own_script else {
            "name": say("verify_name"),
            "goal": say(("verify_goal_scenarios_at_scale" if known_scale else "verify_goal_scenarios")
                        if acts and default_metric else
                        "verify_goal_at_scale" if known_scale else "verify_goal_script" if own_script else "verify_goal",
                        metric=metric, scale=scale),
            "success_criteria": [
                scenario_lines["acceptance"] if acts and default_metric else say("acceptance_pass", metric=asked),
                say("run_fits_at_scale" if unattended and known_scale else "run_fits" if unattended else
                    # a script's load is a batch of files, each of which must come out right
                    "script_batch_handled" if own_script else "holds_at_scale" if known_scale else "holds_under",
                    scale=scale),
                say("access_respected", security=security),
                *([say("backup_restored")] if backup else []),
            ],
            "tasks": [
                say("write_scenario_tests" if acts else "write_acceptance_tests"),
                *([say("restore_check", store=store)] if backup else []),
                say("script_trial" if own_script else "check_performance", scale=scale),
                say("review_access", security=security),
            ],
            # a script its one user runs has no pipeline of its own to pass
            "validation": run_checks + ([] if own_script else [say("acceptance_in_ci")]),
            "risks": [say("verify_risk")],
            "owner_hint": say("qa_developer"),
        },
        _handover_stage(say, users=users, deadline=deadline if known_deadline else None, script=own_script)
        if own_use else {
            "name": say("release_name"),
            "goal": say("release_goal_by" if known_deadline else "release_goal", deadline=deadline),
            "success_criteria": [
                *([say("released_by", deadline=deadline)] if known_deadline else []),
                say("changelog"),
                say("rollback_tried"),
            ],
            # a script is handed to its one user, not deployed
            "tasks": [say("update_docs"), say("release_notes"), say("script_handover" if own_script else "release_smoke")],
            "validation": [say("smoke_test")],
            "risks": [say("script_release_risk" if own_script else "release_risk")],
            "owner_hint": say("maintainer"),
        },
    ]

    plan: dict[str, Any] = {
        "version": "1.0",
        "status": "clarification_needed" if ask else "plan_ready",
        "requirement_summary": summary,
        "scope": scope,
        "out_of_scope": out_of_scope,
        "assumptions": assumptions,
        "questions": questions,
        "dependencies": dependencies,
        "stages": [] if ask else stages,
        "deliverables": deliverables,
        "plan_markdown": "",
        "commit_message_suggestion": "",
    }
    subject = ("commit_subject_act" if not zh and quoted.split(" ", 1)[0].lower() in _EN_CHANGE_VERBS
               else "commit_subject")
    plan["commit_message_suggestion"] = say(subject, title=clip(
        short if zh else quoted, _COMMIT_SUBJECT - len(say(subject, title="")), "…"))
    sources = [str(k.get("source")) for k in knowledge if k.get("source")]
    plan["plan_markdown"] = render_markdown(plan, decisions=decisions, sources=sources, open_questions=questions, zh=zh,
                                            title=short)
    return plan
