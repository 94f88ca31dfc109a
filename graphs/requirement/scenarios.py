"""What each of a requirement's people does in the thing asked for, one scenario per act: the plan's build tasks and
acceptance criteria are written from them ("Let students reserve a mat in a class through the page"; "Given a
student, when they reserve a mat in a class, then …"), not as "implement the requirement".

Found from the sentence's shape — who opens a clause (roles.py), the modal after them, the acts joined by "and" —
never from words of a domain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.language import CJK, is_function_word, plural_en
from graphs.requirement.roles import WORK_DEPARTMENTS_EN, named_roles, opens_with_role, zh_tokens
from graphs.requirement.topics import scheduled_send

# What opens the part of an English thing that says what people do with it ("a booking page | so students can …").
_EN_DOES_WITH_IT = re.compile(r"\s+(?:so\s+that|so|where|in\s+which|which\s+lets|that\s+lets|to\s+let|letting|"
                              r"that|which)\s+(?=\S)", re.IGNORECASE)
# "for the on-call engineer to silence alerts", "our clinic wants patients to book online": whom it is for, then what
# they do.
_EN_FOR_WHOM_TO = re.compile(r"\s+(?:for|wants?|needs?|would\s+like|expects?)\s+(?P<who>(?:the\s+|our\s+|my\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+to\s+(?P<does>.+)$",
                             re.IGNORECASE)
_EN_LEAD = re.compile(r"^(?:(?:only|and|then|where|so|that|which|while|but|once|when)\s+)*(?:(?:the|our|my|each|every|all)\s+)?",
                      re.IGNORECASE)
_EN_MODAL = re.compile(r"^(?:can|could|will|should|must|may|need\s+to|needs\s+to|are\s+able\s+to|is\s+able\s+to|"
                       r"get\s+to|have\s+to|has\s+to|to)\s+", re.IGNORECASE)
# What a verb is followed by when it opens an act of its own after "and" ("… and get a reminder"), unlike a noun
# joined to the object ("routes and vans"): an object's determiner, a pronoun, a particle or a number.
_EN_OBJECT_OPENERS = {"a", "an", "the", "their", "his", "her", "its", "my", "our", "your", "them", "it", "each", "every",
                      "all", "any", "some", "one", "this", "that", "these", "those", "in", "out", "up", "off", "back",
                      "on", "me", "us", "him"}
_EN_AND = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)

# Acts of receiving or sending a message (a reminder, a notice), which a thing does by itself at a time.
_EN_RECEIVES = re.compile(r"^(?:get|gets|receive|receives)\s+(?P<what>.+)$", re.IGNORECASE)
_EN_SENDS = re.compile(r"^(?:remind|reminds|notify|notifies|alert|alerts|text|texts|email|emails|message|messages)\s+"
                       r"(?P<whom>.+)$", re.IGNORECASE)
# Being sent a message, said in the passive ("parents are notified when the teacher approves", "get reminded").
_EN_IS_SENT = re.compile(r"^(?:are|is|be|will\s+be|get|gets|getting)\s+(?P<verb>notified|reminded|alerted|texted|emailed|"
                         r"e-mailed|messaged)\b\s*(?P<rest>.*)$", re.IGNORECASE)
_EN_SENT_BASE = {"notified": "notify", "reminded": "remind", "alerted": "alert", "texted": "text", "emailed": "email",
                 "e-mailed": "email", "messaged": "message"}
_EN_ASKER_SENDS = re.compile(r"^(?:I|we)\s+(?:(?:will|can|then|just)\s+)?", re.IGNORECASE)
_EN_MESSAGES = re.compile(r"\b(?:reminders?|notifications?|notices?|alerts?|texts?|emails?|messages?|sms)\b", re.IGNORECASE)
# Acts of looking at what is kept ("see", "view", "check the totals", "查看", "核对"): their check is that what is
# shown is what is kept. Checking in, out or off a list writes a record, so it is no look.
_EN_VIEWS = re.compile(r"^(?:see|sees|view|views|look\s+up|looks\s+up|look\s+at|looks\s+at|browse|browses|find|finds|"
                       r"track|tracks|search|searches|monitor|monitors|watch|watches|read|reads|"
                       r"(?:double-)?checks?(?!\s+(?:in|out|off)\b))\b", re.IGNORECASE)

_ZH_MODAL = re.compile(r"^(?:都|也|还|就|再|只)?(?:可以|能够|能|会|要|需要|得以|负责|来|可)?")
_ZH_NEEDS_WHO = re.compile(r"^(?:需要|要|需|须|必须|由|让|请)")
_ZH_RECEIVES = re.compile(r"^(?P<when>.{0,8}?)(?:收到|接到|收取|得到)(?P<what>[\u4e00-\u9fff]{1,8})$")
_ZH_SENDS = re.compile(r"^(?P<when>.{0,12}?)(?:自动)?(?P<verb>提醒|通知|推送给?|发送给?|发给|短信通知)(?P<whom>.*)$")
_ZH_VIEWS = re.compile(r"^(?:每[^，。；在]{1,6}?)?(?:早上|早晨|上午|中午|下午|傍晚|晚上|随时|定期|月底|周末)?(?:在[^，。；]{1,8}?(?:里|上|中)?)?(?:查看|看到|看(?!板)|查询|浏览|搜索|核对|对账|查(?!收))")
# When a Chinese clause says it is done, as it opens ("课前", "每天晚上8点", "会议开始前15分钟").
_ZH_WHEN = re.compile(r"^(?:(?:每(?:天|日|晚|周[一二三四五六日天]?|星期[一二三四五六日天]|个?月)的?(?:早上|早晨|上午|中午|下午|傍晚|晚上)?"
                      r"(?:\d{1,2}\s*[点:：](?:\d{1,2}分?|半)?)?)|(?:提前|[\u4e00-\u9fff]{1,6}?前)(?:(?:一|两|三|半|\d+)"
                      r"(?:天|个?小时|分钟|周|个?星期))?)")
# An English time ahead of an event, said without how long ("before class", "before each lesson"); a time with one
# ("15 minutes before the meeting", "each evening") is topics.scheduled_send's.
_EN_BEFORE = re.compile(r"\b(?:before|ahead\s+of)\s+(?!(?:I|we|they|he|she|it|you)\b)(?:(?:the|each|every|their|its|a|an)\s+)?"
                        r"[a-z]+\b(?<!ing)", re.IGNORECASE)
# What a message is sent on, after it ("a text when it's ready", "an email once the order ships").
_EN_ON_EVENT = re.compile(r"\s+(?P<when>(?:when|once|as\s+soon\s+as|after|whenever|if)\s+.+)$", re.IGNORECASE)
# What happens before a Chinese message is received, by whom ("教练确认后会员收到通知").
_ZH_AFTER = re.compile(r"^(?P<first>[^，。；]{2,12}?)(?:之后|以后|后)(?P<rest>[^，。；]{2,})$")
# Something that has come, said as done before whoever acts on it ("包裹到了店员通知居民", "客人来了服务员带位"): the
# trigger of the next act, as a clause ending in 后 is.
_ZH_ARRIVED = re.compile(r"^(?P<first>[^，。；]{1,10}?(?:到了|来了|到达了?|到货了|送到了|送达了?))(?P<rest>[^，。；]{2,})$")
# What a verb of telling sends ("remind" → "a reminder"), to say what its people get.
_EN_MESSAGE_OF = {"remind": "a reminder", "notify": "a notification", "alert": "an alert", "text": "a text",
                  "email": "an email", "message": "a message"}


@dataclass(frozen=True)
class Scenario:
    who: str | None  # who acts, or receives what is sent ("students", "学员"); None: the plan's users
    does: str  # the act, in the base form ("reserve a mat in a class", "预约某节课的垫位")
    kind: str  # "acts" (records something), "views" (looks at what is kept) or "gets" (is sent a message)
    when: str | None = None  # for a message: when it goes ("课前", "each evening"), if said
    what: str | None = None  # for a message: what is sent ("a reminder", "提醒")
    on_event: bool = False  # `when` is what happens first ("when it's ready", "教练确认后"), not a time


def _base(verb_phrase: str) -> str:
    """An English act with its verb in the base form, as "when they …" needs ("approves each request" → "approve …")."""
    first, _, rest = verb_phrase.partition(" ")
    lower = first.lower()
    if lower.endswith("ss") or not lower.endswith("s") or len(lower) < 4 or is_function_word(lower):
        base = first
    elif lower.endswith("ies"):
        base = first[:-3] + "y"
    elif re.search(r"(?:sh|ch|x|z|ss)es$", lower):
        base = first[:-2]
    else:
        base = first[:-1]
    return f"{base} {rest}".strip()


base_en = _base  # for the title, which names a system by what its people do


def _en_acts(who: str | None, does: str, as_written: bool = False) -> list[tuple[str | None, str]]:
    """An English act split where "and" opens another ("reserve a mat in a class and get a reminder"), by the same
    person or by one it names ("caretakers fix them and landlords pay the invoices"). `as_written`: an act that
    names its own subject ("landlords pay the invoices", "we text them") keeps it, with None for who."""
    pieces = _EN_AND.split(does)
    acts = [(who, pieces[0])]
    for piece in pieces[1:]:
        words = piece.split()
        if opens_with_role(piece) and (other := _en_subject(piece)):
            acts.append((None, piece) if as_written else other)
        elif (they := re.match(r"(?:then\s+)?they\s+", piece, re.IGNORECASE)) and acts[-1][0] and not as_written:
            acts.append((acts[-1][0], piece[they.end():]))  # "…, and they get a reminder": the same people again
        elif _EN_IS_SENT.match(piece):  # "… and get reminded the day before": a message of its own
            acts.append((acts[-1][0], piece))
        elif (asker := _EN_ASKER_SENDS.match(piece)) and _EN_SENDS.match(piece[asker.end():]):
            # the asker telling the people just named ("… and we text them when it's ready"): a message to them
            acts.append((None, piece) if as_written else (acts[-1][0], piece[asker.end():]))
        elif (len(words) >= 2 and not is_function_word(words[0]) and words[0][:1].islower()
                and words[1].lower() in _EN_OBJECT_OPENERS):
            acts.append((acts[-1][0], piece))
        else:
            acts[-1] = (acts[-1][0], acts[-1][1] + " and " + piece)
    return acts


def _en_subject(clause: str) -> tuple[str | None, str] | None:
    """(who, what they do) of an English clause that opens with a role ("only the duty manager can give refunds")."""
    lead = _EN_LEAD.match(clause).end()
    for role in named_roles(clause):
        # what the team is like, before the initials that name it ("our internal IT team" is the IT team)
        like = re.match(r"(?:[a-z][a-z-]*\s+){1,2}(?=[A-Z]{2,}\b)", clause[lead:][:1].lower() + clause[lead + 1:]) \
            if role.split()[0].isupper() else None
        lead = lead + like.end() if like and clause[lead + like.end():].startswith(role) else lead
        if clause[lead:].lower().startswith(role.lower()):
            does = clause[lead + len(role):].strip()
            if not lead and names_a_kind(role, does):
                return None
            return role, _EN_MODAL.sub("", does)
    return None


def names_a_kind(role: str, does: str) -> bool:
    """Whether a bare singular role opening a clause only says what kind a thing is ("Volunteer shift scheduler",
    "Tenant portal"): one person as a subject takes "the" or a verb in -s ("the landlord fixes it", "Manager approves");
    a group needs neither ("staff log hours", "HR approves")."""
    head = role.split()[-1]
    if head.lower().endswith("s") or head.isupper() or head.lower() in {"staff", "personnel", "crew", "team",
                                                                        "faculty", "management", "security"}:
        return False
    verb = does.split()[0].lower() if does.split() else ""
    return bool(verb) and not verb.endswith("s") and not _EN_MODAL.match(does + " ")


def en_scope_items(item: str) -> list[str]:
    """An English thing to deliver as scope lists it, as Chinese clauses list themselves: the thing, then each act its
    people do with it, said as written ("A booking page for my studio so students can reserve a mat and get a
    reminder" → "A booking page for my studio", "students can reserve a mat", "students can get a reminder"); the
    item whole when it names no one who acts."""
    clause = item.strip().rstrip(".!?")
    head, tail = None, clause
    if not opens_with_role(clause):
        parts = _EN_DOES_WITH_IT.split(clause, maxsplit=1)
        if len(parts) < 2:
            return [item]
        head, tail = parts
    if (said := _en_subject(tail)) is None or not said[1]:
        return [item]
    who, does = said
    subject = tail[:len(tail) - len(does)].strip() if tail.endswith(does) else who
    acts = _en_acts(who, does, as_written=True)
    if head is None and len(acts) < 2:
        return [item]
    return ([head] if head else []) + [f"{subject} {act.strip()}" if by is not None else act.strip() for by, act in acts]


# A requirement said as an order to help people do a thing ("Help our librarians track overdue books", "Let tenants
# pay rent online"): who they are and what they do follow it.
_EN_HELP = re.compile(r"^(?:help|let|allow|enable)\s+(?P<rest>.+)$", re.IGNORECASE)


# An event said first, before whoever acts on it ("When the bus arrives, the driver texts the parents").
_EN_EVENT_FIRST = re.compile(r"^(?P<when>(?:when|once|as\s+soon\s+as|whenever)\s+\S+(?:\s+\S+)+?),?\s+(?P<rest>.+)$",
                             re.IGNORECASE)


def _en_event_last(clause: str) -> str:
    """A clause that opens with the event its act is done on, said with the act first ("the driver texts the parents
    when the bus arrives"), as its people and what is sent are read from there; the event ends where someone named
    comes next."""
    if not (said := _EN_EVENT_FIRST.match(clause)):
        return clause
    words = clause.split()
    for at in range(3, len(words)):
        when, rest = " ".join(words[:at]).rstrip(","), " ".join(words[at:])
        if named_roles(rest) and opens_with_role(rest) and _en_subject(rest):
            return f"{rest} {when[:1].lower()}{when[1:]}"
    return clause


def _en_scenarios(item: str) -> list[Scenario]:
    clause = _en_event_last(item.strip().rstrip(".!?"))
    if (helped := _EN_HELP.match(clause)) and opens_with_role(helped.group("rest")):
        tail = helped.group("rest")
    elif opens_with_role(clause) and _en_subject(clause):  # not "a volunteer rota where …", a thing named by them
        tail = clause
    elif said := _EN_FOR_WHOM_TO.search(clause):
        tail = f"{said.group('who')} {said.group('does')}"
        if not opens_with_role(tail):
            return []
    else:
        parts = _EN_DOES_WITH_IT.split(clause, maxsplit=1)
        if len(parts) < 2:
            return []
        tail = parts[1]
    who, tail = _en_subject(tail) or (None, tail)
    scenarios: list[Scenario] = []
    for who, act in _en_acts(who, tail):
        act = _base(act.strip())
        when = scheduled_send(act) or ((before := _EN_BEFORE.search(act)) and before.group(0)) or None
        if (got := _EN_RECEIVES.match(act)) and _EN_MESSAGES.search(got.group("what")):
            what = got.group("what")
            if event := _EN_ON_EVENT.search(what):  # "a text when it's ready": sent when that happens
                scenarios.append(Scenario(who, act, "gets", event.group("when"), what[:event.start()].strip(), True))
                continue
            if when:  # what follows the time is part of it ("the day before | their watering shift")
                at = what.find(when)
                what, when = (what[:at].strip(), what[at:].strip()) if at >= 0 else (what, when)
            scenarios.append(Scenario(who, act, "gets", when, what))
        elif told := _EN_IS_SENT.match(act):
            what = _EN_MESSAGE_OF[_EN_SENT_BASE[told.group("verb").lower()]]
            # its time, said of the message it is ("get reminded the day before": a reminder the day before)
            when = when or scheduled_send(f"{what} {told.group('rest')}")
            if event := _EN_ON_EVENT.search(" " + told.group("rest")):  # "are notified when the teacher approves"
                scenarios.append(Scenario(who, f"get {what} {event.group('when')}", "gets", event.group("when"), what,
                                          True))
            else:
                scenarios.append(Scenario(who, f"get {what} {when or ''}".strip(), "gets", when, what))
        elif sent := _EN_SENDS.match(act):
            whom = named_roles(sent.group("whom"))
            what = _EN_MESSAGE_OF[_base(act.split()[0]).lower()]
            # what it reminds them of goes with it ("a reminder to hand in their homework")
            about = re.search(r"\s(?P<about>(?:to|about|of|that)\s.+)$", sent.group("whom").replace(when or "\0", " "))
            what = f"{what} {about.group('about').strip()}" if about else what
            if not when and (event := _EN_ON_EVENT.search(act)):  # "text them when it's ready": on that event
                scenarios.append(Scenario(whom[0] if whom else who, f"get {what} {event.group('when')}", "gets",
                                          event.group("when"), what, True))
                continue
            scenarios.append(Scenario(whom[0] if whom else who, f"get {what} {when or ''}".strip(), "gets", when, what))
        elif who is None:
            continue  # what the thing does by itself ("a bot that posts the roster"): no one's act to let them do
        else:
            scenarios.append(Scenario(who, act, "views" if _EN_VIEWS.match(act) else "acts"))
    return [s for s in scenarios if len(s.does.split()) >= 2]


def _zh_scenario(clause: str, previous: str | None) -> list[Scenario]:
    clause = clause.strip().rstrip("。！？")
    roles = named_roles(clause)
    who, rest = None, clause
    if roles and clause.startswith(roles[0]):
        who, rest = roles[0], clause[len(roles[0]):]
    elif roles and (needs := _ZH_NEEDS_WHO.match(clause)) and clause[needs.end():].startswith(roles[0]):
        who, rest = roles[0], clause[needs.end() + len(roles[0]):]  # "需要财务总监审批"
    if who:
        rest = _ZH_MODAL.sub("", rest, count=1).strip()
    if len(CJK.findall(rest)) < 2:
        return []
    # one act, then another's message on it ("教练确认后会员收到通知"): the act, and the message it sends
    if (after := _ZH_AFTER.match(rest)) and (got := _zh_scenario(after.group("rest"), who or previous)) \
            and got[-1].kind == "gets" and not got[-1].when:
        # the first act is its doer's only when the clause names them ("教练确认后…"; not "到货后收到取货通知")
        first = [Scenario(who, after.group("first"), "acts")] if who else []
        return first + [Scenario(got[-1].who, got[-1].does, "gets", f"{who or ''}{after.group('first')}后",
                                 got[-1].what, True)]
    # one's act, then a message at a time of its own ("患者预约后，提前一天短信提醒"): the act, and the message
    if who and (after := _ZH_AFTER.match(rest)) and (got := _zh_scenario(after.group("rest"), who)) \
            and got[-1].kind == "gets" and got[-1].when:
        return [Scenario(who, after.group("first"), "acts")] + got
    # what someone does once a thing or one has come ("包裹到了店员通知居民", "客人来了服务员带位"): theirs, a message
    # sent on its coming
    if (came := _ZH_ARRIVED.match(clause)) and (roles := named_roles(came.group("rest"))) \
            and came.group("rest").startswith(roles[0]) and (then := _zh_scenario(came.group("rest"), None)):
        return [replace(act, when=came.group("first"), on_event=True) if act.kind == "gets" and not act.when else act
                for act in then]
    # what another does once something is done ("修好后业主可以评价"): theirs; and once one named does it ("师傅修好后
    # 业主评价"), the first act is that one's, the next the other's
    if (after := _ZH_AFTER.match(rest if who else clause)) and (then := _zh_scenario(after.group("rest"), None)) \
            and then[0].who and then[0].who != who and after.group("rest").startswith(then[0].who):
        return ([Scenario(who, after.group("first"), "acts")] if who else []) + then
    # a message received or sent at a time said before it, or at none ("课前收到提醒"); not "把收到的邮件分类"
    if (got := _ZH_RECEIVES.match(rest)) and (not got.group("when") or _ZH_WHEN.fullmatch(got.group("when"))):
        return [Scenario(who or previous, rest, "gets", got.group("when") or None, got.group("what"))]
    # received once something is done ("做好了收到短信", "审批通过后收到通知"): sent on that event
    if (got := _ZH_RECEIVES.match(rest)) and re.search(r"(?:了|后|之后|以后|时|的时候)$", got.group("when") or ""):
        return [Scenario(who or previous, rest, "gets", got.group("when"), got.group("what"), True)]
    if (sent := _ZH_SENDS.match(rest)) and (not sent.group("when") or scheduled_send(rest)
                                            or _ZH_WHEN.fullmatch(sent.group("when"))):
        when = scheduled_send(rest) or sent.group("when") or None
        whom = named_roles(sent.group("whom"))
        what = {"提醒": "提醒", "通知": "通知", "短信通知": "短信通知"}.get(sent.group("verb"), "消息")
        # whom it tells, as said ("没交的学生"), when it says which of them; what they are then to do is no part of
        # who they are ("通知员工下楼取餐", "提醒读者还书")
        said = sent.group("whom")
        told = said[:said.find(whom[0]) + len(whom[0])] if whom and whom[0] in said else None
        told = told if told and len(told) <= 10 else None
        # one who tells everyone ("团长通知大家取货") tells the others named before, not themselves
        others = previous if who and previous and previous != who else who or previous
        return [Scenario(told or (whom[0] if whom else others), f"{when or ''}收到{what}", "gets", when, what)]
    # a message the thing sends by itself once something happens ("逾期自动提醒", "到期前自动通知"): no one's act, but
    # what its people get then
    if (sent := _ZH_SENDS.match(rest)) and "自动" in rest and sent.group("when") and (previous or who):
        when = sent.group("when").removesuffix("自动")
        whom = named_roles(sent.group("whom"))
        what = {"提醒": "提醒", "通知": "通知", "短信通知": "短信通知"}.get(sent.group("verb"), "消息")
        return [Scenario(whom[0] if whom else who or previous, f"{when}收到{what}", "gets", when, what, True)]
    if who is None and previous is None:
        return []  # a clause no one does ("做一个约课页面"): the thing itself
    return [Scenario(who or previous, rest, "views" if _ZH_VIEWS.match(rest) else "acts")]


# What an act's object opens with that only points at it ("submit a leave request", "their homework"), and where its
# object ends: a preposition opens what says where or when ("reserve a mat | in a class").
_EN_POINTERS = re.compile(r"^(?:(?:a|an|the|their|his|her|its|our|my|your|each|every|all|any|some|new)\s+)+",
                          re.IGNORECASE)
_EN_OBJECT_ENDS = re.compile(r"\s+(?:in|on|at|for|from|to|into|through|by|with|via|before|after|when|once|if|"
                             r"and|or|so)\b.*$", re.IGNORECASE)
# Verbs with a particle whose act is named by them joined ("a sign-up", "the check-ins", "drop-offs").
_EN_ACTS_AS_NOUNS = {("sign", "up"), ("sign", "in"), ("sign", "out"), ("check", "in"), ("check", "out"), ("drop", "off"),
                     ("pick", "up"), ("book", "in"), ("log", "in"), ("log", "out")}
_ZH_PRONOUN = re.compile(r"它们|它|这些|其")


def _object(act: Scenario, zh: bool) -> str | None:
    """What an act is done to, without its pointers ("submit leave requests" → "leave requests", "提交请假申请" →
    "请假申请"); None when it names none, or only points back itself ("approve them")."""
    if zh:
        tokens = zh_tokens(act.does)
        verb = next((i for i, (_, tag) in enumerate(tokens) if tag.startswith("v")), None)
        thing = "".join(w for w, _ in tokens[verb + 1:]) if verb is not None else ""
        return thing if len(CJK.findall(thing)) >= 2 and not _ZH_PRONOUN.search(thing) else None
    verb, _, rest = act.does.partition(" ")
    # a verb whose particle comes after its object names the act itself ("sign kids up" → "sign-ups", "check guests
    # in" → "check-ins"): what is later confirmed or approved is that, not the people signed up
    if (split := re.match(r"(?!(?:up|in|out|off)\b)(?:[\w'-]+\s+){1,3}?(up|in|out|off)(?:$|\s+(?:for|to|with|on|at|online|"
                          r"and|before|after|by|when)\b)", rest, re.IGNORECASE)) \
            and (_base(verb).lower(), split.group(1).lower()) in _EN_ACTS_AS_NOUNS:
        return f"{_base(verb).lower()}-{split.group(1).lower()}s"
    # past a particle and what it takes ("sign up for shifts" → "shifts")
    rest = re.sub(r"^(?:up|out|off|back|down|in)\s+(?:for|to|with|on)?\s*", "", act.does.partition(" ")[2], flags=re.I)
    thing = _EN_POINTERS.sub("", _EN_OBJECT_ENDS.sub("", rest)).strip()
    return thing if thing and thing.split()[0].lower() not in _EN_OBJECT_OPENERS else None


def _pointed_at(act: Scenario, before: list[Scenario], zh: bool) -> Scenario:
    """An act whose object only points back ("managers approve them", "经理审批它们") said with what it points at: the
    thing the act before it was done to ("approve the leave requests", "审批请假申请"), so its task and its check
    say what is approved. "them" points at a thing in the plural, "it" at one."""
    earlier = next((_object(a, zh) for a in reversed(before) if a.kind != "gets" and _object(a, zh)), None)
    if act.kind == "gets" or earlier is None:
        return act
    if zh:
        verb, _, rest = (act.does[:m.start()], None, act.does[m.end():]) if (m := _ZH_PRONOUN.search(act.does)) \
            else ("", None, "")
        return replace(act, does=f"{verb}{earlier}{rest}") if m and verb and m.group(0) != "其" else act
    verb, _, rest = act.does.partition(" ")
    first, _, after = rest.partition(" ")
    if re.match(r"(?:up|in|out|off|back)\b", after, re.IGNORECASE):
        return act  # "check them in", "pay them back": people handled as the act before named them, not a thing it made
    # the noun of it, past a particle that ends it ("days off", "kids up"): its number
    noun = re.sub(r"(?:\s+(?:off|up|out|in|back|down|away|over))+$", "", earlier, flags=re.IGNORECASE)
    plural = noun.split()[-1].lower().endswith("s") and not noun.lower().endswith("ss")
    if first.lower() == ("them" if plural else "it"):
        return replace(act, does=f"{verb} the {earlier} {after}".strip())
    return act


def _what_it_points_at(act: Scenario, before: list[Scenario], zh: bool) -> str | None:
    """What an act's "them", "它们" stands for, said as the plan says it ("the leave requests", "请假申请"), when
    _pointed_at resolves it; else None."""
    if _pointed_at(act, before, zh) == act:
        return None
    earlier = next(_object(a, zh) for a in reversed(before) if a.kind != "gets" and _object(a, zh))
    return earlier if zh else f"the {earlier}"


def scope_items_said_whole(items: list[str], zh: bool) -> list[str]:
    """The things to deliver as scope lists them, each act that only points back ("经理审批它们", "HR approves them")
    said with what it points at, as its task and check say it ("经理审批请假申请"): a scope line stands alone."""
    said: list[str] = []
    found: list[Scenario] = []
    for item in items:
        acts = _zh_scenario(item, found[-1].who if found else None) if zh else _en_scenarios(item)
        for act in acts:
            if (what := _what_it_points_at(act, found, zh)) is not None:
                pronoun = _ZH_PRONOUN if zh else re.compile(r"\b(?:them|it)\b", re.IGNORECASE)
                item = pronoun.sub(what, item, count=1)
            found.append(act)
        said.append(item)
    return said


def _sent_on_the_act_before(act: Scenario, before: list[Scenario], zh: bool) -> Scenario:
    """A message that says no time ("managers get emailed", "经理会收到邮件"), after someone else's act ("employees
    submit leave requests"): sent when that act is done — what they are told of — not at a time still to agree."""
    if act.kind != "gets" or act.when or not act.who:
        return act
    other = next((a for a in reversed(before) if a.kind == "acts" and a.who and a.who != act.who), None)
    if other is None:
        return act
    if zh:
        return replace(act, when=f"{other.who}{other.does}后", on_event=True)
    if other.who.lower().endswith("s") and not other.who.lower().endswith("ss"):
        return replace(act, when=f"when {other.who} {other.does}", on_event=True)
    # one person or a team takes the verb with -s ("when the landlord fixes the repairs", "when housekeeping resolves …")
    verb, _, rest = other.does.partition(" ")
    said = _ONE_DOES.get(verb.lower()) or plural_en(verb)
    who = one_of(other.who, zh)
    return replace(act, when=f"when {who} {said} {rest}".strip(), on_event=True)


# Verbs whose form after one person is not the base with -s.
_ONE_DOES = {"have": "has", "do": "does", "go": "goes", "be": "is"}


def scenarios(items: list[str], zh: bool) -> list[Scenario]:
    """The scenarios of a requirement's things to deliver, in order; a Chinese clause that names no one ("课前收到提醒")
    is done by whoever the clause before it named."""
    found: list[Scenario] = []
    for item in items:
        if zh:
            found += _zh_scenario(item, found[-1].who if found else None)
        else:
            found += _en_scenarios(item)
    for i, act in enumerate(found):
        found[i] = _sent_on_the_act_before(_pointed_at(act, found[:i], zh), found[:i], zh)
    return found


# Teams named by their work that take no article, as departments do ("Given housekeeping", "Given reception").
_TEAMS_SAID_BARE = {"reception", "housekeeping", "maintenance", "security", "dispatch", "payroll"}


def one_of(role: str, zh: bool) -> str:
    """One of a role's people, as a Given names them ("students" → "a student"); a team or a singular role as the
    requirement writes it ("HR", "the duty manager")."""
    if zh:
        return role
    head = role.split()[-1]
    if not head.endswith("s") or head.endswith("ss") or head.isupper():
        # a department named by its work is said bare, as its initials are ("Given finance", "Given HR")
        bare = head.isupper() or (" " not in role and head.lower() in WORK_DEPARTMENTS_EN | _TEAMS_SAID_BARE)
        return role if bare or role.lower().startswith("the ") else f"the {role}"
    one = (role[:-3] + "y" if role.endswith("ies") else
           role[:-2] if re.search(r"(?:sses|ches|shes|xes)$", role) else role[:-1])
    return f"{'an' if one[:1].lower() in 'aeiou' else 'a'} {one}"
