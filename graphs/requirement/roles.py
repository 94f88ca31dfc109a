"""The roles a requirement names, found from where they stand in the sentence, not from a word list.

A role is whoever acts or is served: the subject of 可以/能/需要 ("仓库管理员可以扫码入库"), the person
after 让/给/供/面向 ("让调度员派单"), the subject that opens a clause ("维修师傅接单后上门"); in English
the subject of can/should/need to ("so that dispatchers can assign drivers"), the person after
for/let/allow/help ("for warehouse staff"). What stands there must look like a person ("…员", "…师傅",
"…er(s)"), so "系统可以发送提醒" or "orders can be exported" name no role. The catalogue's role words
(topics.py) remain the fallback for a role written anywhere else ("客户导出功能").
"""

from __future__ import annotations

import functools
import logging
import re

import jieba

from core.language import CJK, JOBS_EN, NOT_PEOPLE_EN, is_function_word, plural_en, singular_en
from graphs.requirement.topics import SOFTWARE_ZH, TEAM_SIZE, TOPICS_BY_ID, ZH_TRACKING_VERBS, find_keywords, is_chinese

jieba.setLogLevel(logging.WARNING)

_KNOWN = TOPICS_BY_ID["q_target_users"].keywords
# Catalogue words that show the users are addressed but name nobody ("面向", "target users").
_POINTERS = {"面向", "目标用户", "用户群", "audience", "persona", "target users"}
# Words that say someone uses it without saying who: they leave the question open.
_GENERIC = {"用户", "使用者", "大家", "人人", "每人", "每个人", "个人", "他人", "别人", "本人", "有人", "人们", "我们", "他们", "你们",
            "users", "user", "people", "person", "everyone", "everybody", "anyone", "anybody", "someone", "somebody",
            "folks", "humans", "end user"}

# ---------------------------------------------------------------- Chinese

# How a Chinese word for a person ends: 管理员, 师傅, 工程师, 业主, 顾客, 家长, 审批人, 部门经理 …
_ZH_ENDINGS = ("员", "师", "师傅", "工", "者", "户", "生", "长", "主", "客", "手", "家", "士", "民", "官", "匠", "人", "友", "医",
               "任", "经理", "主管", "总监", "老板", "领导", "司机", "同学", "财务", "会计", "出纳", "前台", "保安",
               "保洁", "秘书", "助理", "病人", "患者", "孩子", "粉丝", "会员", "乘客", "骑手", "甲方", "乙方", "教练",
               # kin, and a team named by where it works ("子女在线预约", "后厨在平板上看订单")
               "子女", "儿女", "父母", "爸妈", "爸爸", "妈妈", "家属", "亲属", "后厨",
               # a worker called as people call them ("保洁阿姨", "快递小哥", "门卫大爷")
               "阿姨", "小哥", "大爷", "大姐", "叔叔")
# Words with those endings that are not people (a verb, a thing, a place).
_ZH_NOT_ROLES = {"发生", "产生", "出生", "增长", "成长", "延长", "时长", "较长", "过长", "太长", "擅长", "加工", "手工",
                 "施工", "开工", "完工", "停工", "账户", "门户", "窗户", "开户", "入户", "落户", "过户", "博客", "国家",
                 "在家", "回家", "自主", "为主", "民主", "到手", "上手", "动手", "入手", "机器人", "客户端", "巴士",
                 "人民", "卫生", "人工",
                 # how many people a thing has, or moving them ("满员后自动候补", "裁员"): a state or an act
                 "满员", "超员", "缺员", "减员", "裁员", "动员", "交友", "友",
                 # a field of medicine or seeing a doctor, not a doctor ("中医", "就医")
                 "中医", "西医", "就医", "求医", "看医", "学医", "行医"}
# Words after which the person served or allowed follows: 让/给/供 X …
_ZH_BEFORE = {"让", "给", "供", "为", "面向", "针对", "方便", "帮助", "帮", "允许", "使", "由", "请", "叫", "交给", "提供给"}
# Words after the subject: X 可以/能/需要 …
# Words after which a person does what follows: 让/允许 X 扫码 ("让店员扫码入库"), not 给 X 订单, whose X owns a thing.
# Words after which comes whom a thing is handed to ("派单给维修师傅", "转给客服"), who then acts on it.
_ZH_HANDED_TO = {"给", "交给", "派给", "分给", "转给", "提供给"}
_ZH_LETS = {"让", "允许", "方便", "帮助", "帮", "使", "叫", "请"}
_ZH_MODALS = {"可以", "可", "能", "能够", "需要", "要", "会", "得以", "应", "应该", "必须", "希望", "想", "想要", "负责",
              "都", "也", "均", "还", "就", "只", "随时", "直接", "每天", "每周", "每月"}
# Words that put how or where before the verb, after the subject as a modal does ("采购根据看板下单", "行政在网页上审批").
_ZH_MANNER = {"根据", "按照", "按", "依据", "在", "从", "通过", "用", "使用", "把", "将", "对", "向", "凭"}
# Words after which the one who must act follows, as their object: 需要/还要 X 审批 ("需要财务总监审批").
_ZH_NEEDS = {"需要", "要", "还要", "也要", "都要", "需", "须", "必须", "得"}
_ZH_AND = {"和", "与", "及", "以及", "或", "或者", "、", "跟", "同"}
# Words that open a clause before its subject: 然后/同时/如果 …
_ZH_OPENERS = {"然后", "再", "并且", "并", "同时", "另外", "而", "当", "如果", "以及", "还有", "最后", "首先", "其次", "此外",
               "接着", "之后", "且",
               # cause, result and concession: "因为客服…", "所以…", "虽然店员…但是店长…"
               "因为", "由于", "鉴于", "所以", "因此", "因而", "于是", "虽然", "尽管", "但是", "但", "可是", "不过", "只要",
               "只有", "除非", "即使", "既然"}
# Words that end a clause of when without a comma: its subject comes after them ("报修人填写地址后维修工上门").
_ZH_AFTERWARDS = {"后", "之后", "以后", "完后", "时", "的时候"}
_ZH_CLAUSE = re.compile(r"[，,。.；;：:！!？?\n（）()“”\"]+")
_ZH_MAX_WORDS = 2  # a head word and one word qualifying it ("仓库 管理员", "值班 工程师", "审批 人")


def _zh_role(word: str) -> bool:
    if word in _GENERIC or word in _ZH_NOT_ROLES or len(word) < 2:
        return False
    return word in _KNOWN or word.endswith(_ZH_ENDINGS)


# Departments act as people where they are the subject ("行政可以查看…", "市场部每周看报表"), but the same
# words also name a kind of work or data ("销售数据", "人事变动"): so only right before a modal.
# Not "产品", "设计", "技术", "市场", "物流": "产品需要支持导出" is about the product, not its team.
_ZH_DEPARTMENTS = {"行政", "人事", "财务", "销售", "客服", "运营", "采购", "法务", "后勤", "出纳", "会计", "前台",
                   "质检", "仓储", "审计", "风控", "物业", "教务", "人力"}
_ZH_UNIT = ("部门", "部", "组", "科", "处")  # "行政部", "技术组", "财务科": a unit of two characters or more
_ZH_TEAM_UNITS = ("部门", "部", "组", "小组", "团队")  # a word of its own after the people it is a team of


def _zh_department(word: str) -> bool:
    if word in _ZH_DEPARTMENTS or _zh_english_role(word):
        return True
    unit = next((u for u in _ZH_UNIT if word.endswith(u)), None)
    return unit is not None and len(CJK.findall(word[:-len(unit)])) >= 2


def _zh_english_role(word: str) -> bool:
    """Whether an English word in a Chinese requirement is a team's or a post's initials, as Chinese offices write them
    ("HR", "IT", "PM", "QA"): they act as 人事 does."""
    return _an_acronym(word) and _en_role(word)


_ZH_COUNT = re.compile(r"[一二两三四五六七八九十几每某这那各该此][个位名家台套种条份]?")


# Verbs whose object is a person told or reached: never part of that person's name.
_ZH_TELLS = {"提醒", "通知", "告知", "告诉", "联系", "提示", "催促", "催", "回复", "回答", "答复", "解答", "邀请", "推送给", "发给", "转给", "短信",
             "打电话给", "呼叫", "叫号",
             # sending a result on to them ("报表发到老板邮箱"): 老板 receives it
             "发到", "发送到", "发送给", "推送到", "转发给", "抄送", "抄送给", "送到", "发至"}


@functools.cache
def _zh_tag(word: str) -> str:
    """jieba's part of speech of a word read alone: the dictionary's, as it gives a known word in a sentence."""
    import jieba.posseg  # here, not at the top: its import loads tables for half a second in every process

    tagged = jieba.posseg.lcut(word)
    return tagged[0].flag if len(tagged) == 1 else "x"


def _zh_verb(word: str) -> bool:
    """Whether jieba reads a word alone as a verb ("登记", "接送"), not a noun of the act ("审批" in "审批人" is one too)."""
    return _zh_tag(word) == "v"


def _zh_from(tokens: list[str], start: int, departments: bool = False) -> tuple[str, int] | None:
    """The role that begins at tokens[start] ("维修 师傅", "审批 人", "学生 家长"), and where it ends; else None.

    The shortest run of words that ends like a person is the role ("老师", not "老师查看学生"); a person
    word right after it qualifies it further ("学生 家长"). `departments`: a department will do too."""
    for end in range(start + 1, min(start + _ZH_MAX_WORDS, len(tokens)) + 1):
        words = tokens[start:end]
        if any(word in _ZH_AND or word in _ZH_BEFORE or word in _ZH_MODALS or word in _ZH_OPENERS or word == "的"
               for word in words):
            return None
        # A one-character word before the head is a particle or a place word ("后", "在"), never a qualifier;
        # nor is a verb of telling, whose object the person is ("确认后提醒主人": 主人 is told, not 提醒主人).
        # Nor is a count ("每个医生": every doctor is a doctor).
        # Initials qualify a post as a Chinese word does ("HR专员", "IT运维").
        # Nor is the asker ("我们公司员工": the company's staff, not "我们公司员工").
        if any(len(word) < 2 or not (CJK.search(word) or _an_acronym(word)) or word in _ZH_TELLS
               or _ZH_COUNT.fullmatch(word) or word in _GENERIC or re.fullmatch(SPEAKER_ZH, word)
               for word in words[:-1]):
            return None
        head, phrase = words[-1], "".join(words)
        if len(words) > 1 and len(head) > 1 and words[0] in _ZH_RECORDS | _ZH_DONE_TO_RECORDS:
            return None  # what is done with the person's records ("记录会员信息"), not a kind of them
        if len(words) > 1 and len(head) > 1 and end == len(tokens) and _zh_verb(words[0]) and not (
                start > 0 and tokens[start - 1] in _ZH_HANDED_TO):
            # a verb and the person it acts on, ending the clause ("需要登记访客"): not "登记访客", who acts; after 给
            # the person is whom a thing is handed to, named by their trade ("派单给维修师傅")
            return None
        # The head is a person word, or a one-character ending of a longer one ("审批" + "人").
        if (_zh_role(head) or (departments and _zh_department(head))
                or (len(head) == 1 and len(words) > 1 and _zh_role(phrase))
                or (departments and head in _ZH_TEAM_UNITS and len(words) > 1 and _zh_department(phrase))):
            # a person word after it qualifies it further ("学生家长"); a unit after it names their team ("IT部门",
            # "护士组", which jieba cuts 护士/组)
            while end < len(tokens) and (_zh_role(tokens[end]) or tokens[end] in _ZH_TEAM_UNITS):
                end += 1
            return "".join(tokens[start:end]), end
    return None


def _zh_acts(word: str) -> bool:
    """Whether a word is a verb: one jieba knows, or a verb and its object it does not ("派单", "派工"), which a
    department does ("物业派单给维修师傅")."""
    return _zh_verb(word) or (len(word) == 2 and _zh_tag(word) == "x" and _zh_verb(word[0]))


def _zh_before_modal(tokens: list[str], modal: int) -> tuple[str, int] | None:
    """The subject that ends right before tokens[modal] ("仓库管理员" 可以), and where it starts."""
    for start in range(max(0, modal - _ZH_MAX_WORDS), modal):
        found = _zh_from(tokens, start, departments=True)
        if found and found[1] == modal:
            return found[0], start
    return None


# One-character endings of a person that jieba's guesser may glue to the word after them: "借书人扫码" is cut
# 借书/人扫码, a word no dictionary holds, where 借书人 scans.
_ZH_GLUED_ENDINGS = ("人", "员", "者")
# Single characters a requirement uses as a word of its frame (要, 给, 在 …): jieba's guesser glues them to the word
# beside them ("每天/要发/offer", "要查/寝", "QA/组在/Jira"), a word no dictionary holds; they stand alone.
_ZH_FRAME_CHARS = frozenset(w for w in _ZH_MODALS | _ZH_NEEDS | _ZH_MANNER | _ZH_BEFORE if len(w) == 1)
# A word jieba hardly knows ("货员" in 拣/货员): its pieces were guessed, not read from the dictionary.
_ZH_RARE = 10


@functools.cache
def _zh_kept_whole() -> tuple[str, ...]:
    """The people and departments a requirement names, longest first: the words a reading of it must not cut."""
    words = {w for w in _KNOWN if CJK.search(w)} | {w for w in _ZH_DEPARTMENTS if CJK.search(w)}
    return tuple(sorted(words, key=len, reverse=True))


def _zh_tagged(text: str) -> list[tuple[str, str]]:
    return [(word, _zh_tag(word)) for word in jieba.cut(text)]


def _zh_rare(word: str) -> bool:
    return (jieba.get_FREQ(word) or 0) < _ZH_RARE


def _zh_person_then_verb(word: str, after: str) -> str | None:
    """The person or department that `word` begins and jieba's next word `after` ends, when what is left of `after`
    is a verb: jieba weighs 人/事发 above 人事/发 by the characters alone, where a requirement reads a person and what
    they do ("人事发offer", "IT开账号")."""
    joined = word + after
    kept = next((w for w in _zh_kept_whole() if joined.startswith(w) and len(word) < len(w) < len(joined)), None)
    return kept if kept is not None and _zh_verb(joined[len(kept):]) else None


def zh_tokens(text: str) -> list[tuple[str, str]]:
    """jieba's words of `text` with their tags, read again where jieba reads past what a person reads: a person
    before their verb ("人/事发" → 人事/发), a word of the frame glued to a verb ("要发" → 要/发), a worker named
    by their task ("拣/货员" → 拣货员) and a person's ending glued to the next word ("借书/人扫码" → 借书/人/扫码,
    "主/人选" → 主人/选). ASCII runs stay whole words of their own ("offer", "HR")."""
    tokens: list[tuple[str, str]] = []
    pending = [t for t in _zh_tagged(text) if t[0].strip() or "\n" in t[0]]  # a line break ends a clause
    while pending:
        word, flag = pending.pop(0)
        if pending and (kept := _zh_person_then_verb(word, pending[0][0])):
            rest = (word + pending.pop(0)[0])[len(kept):]
            tokens.append((kept, "n"))
            pending[:0] = _zh_tagged(rest)
        elif len(word) == 2 and set(word) & _ZH_FRAME_CHARS and CJK.search(word[0]) and CJK.search(word[1]) \
                and jieba.get_FREQ(word) is None:
            tokens += [(char, _zh_tag(char)) for char in word]
        elif (tokens and len(tokens[-1][0]) == 1 and CJK.search(tokens[-1][0]) and len(word) == 2
              and word.endswith(_ZH_GLUED_ENDINGS) and _zh_rare(word) and tokens[-1][0] not in _ZH_FRAME_CHARS
              and _zh_verb(tokens[-1][0])):
            tokens[-1] = (tokens[-1][0] + word, "n")  # 拣/货员, 派/单员: one worker
        elif (len(word) >= 2 and word.startswith(_ZH_GLUED_ENDINGS) and tokens and CJK.search(tokens[-1][0])
              and CJK.search(word[1:]) and jieba.get_FREQ(word) is None):
            tokens += [(word[0], "n"), *_zh_tagged(word[1:])]
        elif (len(word) >= 2 and word.startswith(_ZH_GLUED_ENDINGS) and tokens and len(tokens[-1][0]) == 1
              and CJK.search(tokens[-1][0]) and jieba.get_FREQ(tokens[-1][0] + word[0]) and CJK.search(word[1:])
              and word not in _zh_kept_whole()):
            # a word of its own jieba read as another ("主/人选/时间段"): 主人 chooses; not a person jieba read
            # right ("我们店/员工", not 店员/工)
            tokens[-1] = (tokens[-1][0] + word[0], "n")
            tokens += _zh_tagged(word[1:])
        elif (len(word) == 1 and flag in _ZH_BOUND_FLAGS and pending and len(pending[0][0]) >= 2
              and _zh_role(pending[0][0])):
            tokens.append((word + pending.pop(0)[0], "n"))  # 车/队长, 副/店长: a part that names which one (车队长)
        else:
            tokens.append((word, flag))
    return tokens


# jieba's tags of a character that is no word alone (车 "zg", 副 "b"): before a person it is part of their name.
_ZH_BOUND_FLAGS = {"zg", "b", "ng"}


def _zh_words(clause: str) -> list[str]:
    """The words of a clause, as `zh_tokens` reads them."""
    return [word for word, _ in zh_tokens(clause) if word.strip()]


def _zh_past_the_asker(tokens: list[str], start: int) -> int:
    """Where a person begins after the asker who owns them ("我们 员工", "咱们 店 员工", "我们 仓库 管理员"): past the
    asker and the one-character place of theirs that jieba cuts alone ("店", "厂", "班")."""
    if start >= len(tokens) or not re.fullmatch(SPEAKER_ZH, tokens[start]):
        return start
    start += 1
    if start + 1 < len(tokens) and len(tokens[start]) == 1 and CJK.search(tokens[start]) \
            and _zh_from(tokens, start + 1) is not None:
        start += 1
    return start


# What a person is given to use, rather than had done for them ("给老人用", "给家长看").
_ZH_USES = {"用", "使用", "看", "查看", "查", "查询", "看到", "填", "填写", "扫码", "预约", "下单"}


def _zh_done_for(tokens: list[str], start: int, end: int) -> bool:
    """Whether the person at tokens[start:end] is whom someone else does a thing for, after 给 with the doer just
    before it ("店员给会员加积分"): the record of them changes, they do not use it. Not "给老人用", given to use."""
    if start < 2 or tokens[start - 1] != "给" or end >= len(tokens) or tokens[end] in _ZH_USES:
        return False
    doer = _zh_from(tokens, start - 2, departments=True) or _zh_before_modal(tokens, start - 1)
    return doer is not None and _zh_verb(tokens[end])


def _zh_only_done_for(word: str, text: str) -> bool:
    """Whether a person word stands in `text` only where others do things for them ("店员给会员加积分")."""
    tokens = _zh_words(text)
    places = [at for at, token in enumerate(tokens) if token == word]
    return bool(places) and all(_zh_done_for(tokens, at, at + 1) or _zh_qualifies(zh_tokens(text), at)
                                for at in places)


def _zh_roles(text: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    offset = 0  # words before this clause: the spans of every clause on one scale
    marks = _ZH_CLAUSE.findall(text)  # what ends each clause: a colon after one says it is a heading
    for at, clause in enumerate(_ZH_CLAUSE.split(text)):
        tokens = _zh_words(clause)
        first = 0  # the clause's own subject comes after the words that open it ("然后", "如果")
        while first < len(tokens) and tokens[first] in _ZH_OPENERS:
            first += 1
        starts = [first] + [i + 1 for i, token in enumerate(tokens)
                            if token in _ZH_BEFORE or token in _ZH_AND or token in _ZH_NEEDS or token in _ZH_AFTERWARDS]
        # whom it tells is served, a department too ("出错了发邮件通知IT", "提醒店长补货")
        for told in [i + 1 for i, token in enumerate(tokens) if token in _ZH_TELLS]:
            if told < len(tokens) and (role := _zh_from(tokens, told, departments=True)):
                found.append((offset + told, offset + role[1], role[0]))
        for start in starts:
            # A count is no part of a person's name ("需要两名护士长审批", "需要一个访客登记系统")
            while start < len(tokens) and _ZH_COUNT.fullmatch(tokens[start]):
                start += 1
            start = _zh_past_the_asker(tokens, start)
            if start < len(tokens) and (role := _zh_from(tokens, start)) and not _zh_done_for(tokens, start, role[1]):
                found.append((offset + start, offset + role[1], role[0]))
        for i, token in enumerate(tokens):
            if (token in _ZH_MODALS or token in _ZH_MANNER) and (role := _zh_before_modal(tokens, i)):
                found.append((offset + role[1], offset + i, role[0]))
        # A department that opens its clause with a verb right after it acts ("人事发offer", "IT开账号"); before a
        # noun it names a kind of thing ("销售数据").
        # So does one before 给 and whom it does a thing for ("物业给业主发通知").
        # Not before a piece of software, which the verb names with it ("物业报修系统", "人事审批系统": a thing).
        names_software = first + 2 < len(tokens) and re.fullmatch(SOFTWARE_ZH, tokens[first + 2]) is not None
        # Nor in a heading of a department and a verb alone ("物业报修：…", "人事审批：…"): the topic the text is on
        names_software |= first + 2 == len(tokens) and at < len(marks) and bool(re.search("[：:]", marks[at]))
        if first + 1 < len(tokens) and _zh_department(tokens[first]) and not names_software and (
                _zh_acts(tokens[first + 1]) or tokens[first + 1] == "给"):
            found.append((offset + first, offset + first + 1, tokens[first]))
        offset += len(tokens) + 1
    return found


# ---------------------------------------------------------------- English

# A number is a word of its own, and one joined to a word too ("5-person"): never a piece of a role's name.
_EN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*|[.,;:!?()\"\n]")
# A stem of three letters at least: "see", "per", "ian" end so without being people.
_EN_PERSON = re.compile(r"^[a-z'-]{3,}(?:er|or|ist|ian|ee|eer|man|men)s?$")
# People whose word ends otherwise, beside the jobs ("-ant", "-ent" end adjectives as often: "concurrent", "relevant").
_EN_PEOPLE = JOBS_EN | set("""
agent client recipient respondent student parent resident patient president applicant participant tenant person staff
colleague classmate flatmate housemate roommate teammate
team department crew personnel folk admin lead head squad rep kid child children teen
hr qa it ceo cfo cto coo vp pm ta ra sre dba gm finance accounting legal ops marketing procurement
""".split())
# People named by an adjective in the plural ("regulars preorder bread", "for locals"): the singular is a quality
# ("a regular schedule"), so only the plural is a person.
_EN_PLURAL_PEOPLE = {"regulars", "locals", "adults", "minors", "juniors", "singles", "newlyweds",
                     "elders", "natives", "professionals", "individuals"}
# Prefixes that make a verb of a verb ("preorder", "reorder", "reenter"): such a word is a person no more than the verb
# without it is ("order" is a thing, so "preorder" is not a person).
_EN_VERB_PREFIXES = ("pre", "re", "un", "over", "under", "co")
# Words with those endings that are never people, and the tools software names so ("a scheduler", "the editor"); a
# system's speakers are its conference's people ("speakers upload their slides"), not a device.
_EN_NOT_ROLES = NOT_PEOPLE_EN - {"speaker"} | set("""
order editor handler controller scheduler parser logger exporter importer uploader loader viewer renderer listener
worker selector wrapper iterator validator formatter interpreter compiler debugger installer launcher
planner organizer organiser builder finder checker picker converter simulator
""".split())
# Words of those that name a worker as often as a tool ("warehouse pickers", "a date picker"; "workers", "a background
# worker"): people where they act, as a plural subject of a verb or a modal or after a bare "for".
_EN_EITHER = {"picker", "worker", "planner", "organizer", "organiser", "builder", "checker", "player"}
_EN_BEFORE = {"for", "let", "lets", "letting", "allow", "allows", "allowing", "enable", "enables", "enabling", "help",
              "helps", "helping", "where", "by", "so", "that", "when", "whenever", "once", "if", "until", "while"}
# Verbs of telling, whose object is a person reached, served as one served by "for" is ("emails the finance team a
# summary", "notifies tenants"), as Chinese 通知/提醒 (_ZH_TELLS).
_EN_TELLS = {"notify", "notifies", "email", "emails", "alert", "alerts", "remind", "reminds", "message", "messages",
             "text", "texts", "ping", "pings", "tell", "tells", "inform", "informs", "warn", "warns"}
# Verbs of handing a thing to someone named right after them ("send our players a text", "give tenants a receipt").
_EN_GIVES = {"send", "sends", "give", "gives", "hand", "hands", "show", "shows", "offer", "offers"}
_EN_ARTICLES = {"a", "an", "the", "their", "his", "her", "its", "our", "your", "each", "every"}


def _gets_a_thing(words: list[str], start: int) -> bool:
    """Whether words[start:] are one or two words then an article ("players a text"): the first names whom it goes to."""
    return any(start + n < len(words) and words[start + n].lower() in _EN_ARTICLES
               and all(_content(w) for w in words[start:start + n]) for n in (1, 2))


# Verbs of sending a result, after which "to" names whom it is for ("send the summary to finance").
_EN_SENDS = {"send", "sends", "sent", "sending", "email", "emails", "emailed", "mail", "mails", "mailed", "deliver",
             "delivers", "delivered", "forward", "forwards", "forwarded", "post", "posts", "posted", "push", "pushes",
             "pushed", "share", "shares", "shared", "report", "reports", "go", "goes", "hand", "hands", "handed"}
_EN_MODALS = {"can", "could", "should", "must", "will", "would", "may", "might", "need", "needs", "want", "wants",
              "get", "gets", "shall"}
_EN_AND = {"and", "or", "&"}
_EN_WANTS = {"want", "wants", "need", "needs", "require", "requires", "expect", "expects", "ask", "asks", "remind",
             "reminds", "invite", "invites"}
# Who may follow a bare "for" though singular: a group or a department ("for warehouse staff", "for HR").
_EN_GROUPS = {"staff", "team", "department", "crew", "squad", "personnel", "hr", "qa", "it", "finance", "accounting", "legal", "ops",
               "marketing", "procurement"}

# A team named by where or what it works, acting as one person as 前台 and 后厨 do ("the front desk checks guests
# in", "so that housekeeping can see …", "for reception"): a singular that needs no plural after a bare "for".
_EN_TEAMS = {"reception", "housekeeping", "kitchen", "front desk", "help desk", "helpdesk", "service desk",
             "front office", "back office", "concierge"}


# Bodies named by a word that is also a thing ("the board approves grants" / "a shift board"), and the acts of judging
# that only people do after it, as it is then a team.
_EN_BODIES = {"board", "panel", "jury"}
_EN_JUDGES = {form for verb in ("approve", "review", "decide", "vote", "reject", "award", "sign", "agree", "judge",
                                 "select", "choose", "rule", "vet", "assess", "grant", "deny", "rank", "score",
                                 "interview", "discuss") for form in (verb, plural_en(verb))}

# Places named for the people who work in them, a team when a verb follows ("the office", "the front office" is a
# team anyway).
_EN_OFFICES = {"office", "offices"}
# Plurals after "office" that are its things, not its verb ("office supplies", "office hours").
_EN_OFFICE_THINGS = re.compile(r"(?:supplies|hours|chairs|desks|spaces|workers|ies|ions|ments|ers|ors)$")
_EN_OBJECTS = {"them", "it", "us", "him", "her", "everyone", "all"}
# What a team's name qualifies when it comes before it: a thing made for the team ("Hotel front desk tool: …").
_EN_TEAM_THINGS = {"tool", "tools", "system", "systems", "software", "display", "displays", "board", "terminal",
                   "desk", "log", "schedule", "queue", "module", "portal"}


def _en_team(words: list[str], start: int, end: int) -> bool:
    """Whether words[start:end] ends with a team's name ("the front desk", "reception"); not after "a", nor before
    a thing, which name a thing of the team's ("a kitchen display", "the front desk tool", "reception app")."""
    if start > 0 and words[start - 1].lower() in {"a", "an"}:
        return False
    if end < len(words) and (words[end].lower() in _EN_TEAM_THINGS
                             or find_keywords(words[end], TOPICS_BY_ID["q_interface"].keywords)):
        return False
    # a place whose people act as one ("the office marks them returned", "the school office can approve …"); before
    # anything but its verb it is the place ("the office printer", "office supplies", "in the office")
    if words[end - 1].lower() in _EN_OFFICES:
        if end < len(words) and words[end].lower() in _EN_MODALS - _EN_WANTS:
            return True
        verb, then = (" ".join(words[end:end + 2]).lower().split() + ["", ""])[:2]
        # one that wants a thing is the firm asking for it ("our dental office needs a booking page")
        return (verb.endswith("s") and not verb.endswith("ss") and not _EN_OFFICE_THINGS.search(verb)
                and verb not in _EN_WANTS
                and (then in _EN_OBJECTS or then in _EN_DETERMINERS))
    if end - start == 1 and words[start].lower() in _EN_BODIES:
        verb = end + (end < len(words) and words[end].lower() in _EN_MODALS)
        return verb < len(words) and words[verb].lower() in _EN_JUDGES
    return any(" ".join(words[end - n:end]).lower() in _EN_TEAMS for n in (1, 2) if end - n >= start)


def _en_role(word: str) -> bool:
    lower = word.lower()
    if lower in _GENERIC or _function_word(word):
        return False
    singular = singular_en(lower)
    if lower in _EN_NOT_ROLES or singular in _EN_NOT_ROLES or any(
            singular.startswith(prefix) and singular[len(prefix):].lstrip("-") in _EN_NOT_ROLES
            for prefix in _EN_VERB_PREFIXES):
        return False
    return (bool(find_keywords(lower, _KNOWN)) or singular in _EN_PEOPLE or lower in _EN_PLURAL_PEOPLE
            or bool(_EN_PERSON.search(lower)))


def _en_either_acts(words: list[str], end: int, after_for: bool) -> bool:
    """Whether words[end - 1], a worker's or a tool's name ("pickers"), is people here: a plural that a bare "for"
    serves, or that its verb, a modal or "who" follows ("pickers scan each item", "workers can log shifts")."""
    head = words[end - 1].lower()
    if not (_plural(head) and head[:-1] in _EN_EITHER):
        return False
    after = words[end] if end < len(words) else ""
    return after_for or after.lower() in _EN_MODALS | {"who"} or (
        bool(after) and after[0].islower() and _content(after) and not _en_role(after))


def _en_pair(role: str) -> list[str]:
    """The people of a hyphenated pair ("parent-teacher" → parents, teachers; "doctor-patient"), said in the plural:
    a pair names two kinds of people together, never one; [] for any other role."""
    parts = role.split("-")
    if len(parts) < 2 or " " in role or not all(_en_role(part) for part in parts):
        return []
    return [_plural_of(part) for part in parts]


def _plural_of(role: str) -> str:
    """A role in the plural ("teacher" → "teachers", "shift lead" → "shift leads"); a plural or a group stays."""
    if _plural(role.split()[-1]) or role.split()[-1].lower() in _EN_GROUPS | _EN_TEAMS:
        return role
    last = role.split()[-1]
    return role[:len(role) - len(last)] + plural_en(last)


def _singular(role: str) -> str:
    """A role's name in the singular, lower-cased, to tell one named twice ("visitors", "visitor")."""
    lower = role.lower()
    return lower[:-1] if lower.split() and _plural(lower.split()[-1]) else lower


def _plural(word: str) -> bool:
    lower = word.lower()
    return lower.endswith("s") and not lower.endswith("ss") and lower not in _EN_GROUPS


def _an_acronym(word: str) -> bool:
    """Whether a word is written in capitals, as a team's or a thing's initials are ("IT", "QA", "US"): then it is
    that name, never the function word it spells ("The IT team" is not "the it team")."""
    return len(word) >= 2 and word.isalpha() and word.isupper()


def _function_word(word: str) -> bool:
    return is_function_word(word) and not _an_acronym(word)


def _content(word: str) -> bool:
    return word[0].isalpha() and not _function_word(word)


_EN_MAX_WORDS = 3  # a head word and up to two words qualifying it ("warehouse staff", "customer support agents")


# Departments named by their work, which also name a kind of firm or thing: "accounting firm", "legal team" is
# people, "finance report" is not.
_EN_WORK_DEPARTMENTS = {"hr", "qa", "it", "finance", "accounting", "legal", "ops", "marketing", "procurement"}
WORK_DEPARTMENTS_EN = frozenset(_EN_WORK_DEPARTMENTS)
# What such a word qualifies when it names a kind of business: "a small accounting firm", "our legal practice".
_EN_BUSINESSES = {"firm", "firms", "company", "companies", "agency", "agencies", "practice", "practices", "business",
                  "businesses", "office", "offices", "startup", "studio", "consultancy", "partnership"}


# Places named by the people who work there ("a vet clinic", "a barber shop", "a tutor centre").
_EN_PLACES = {"clinic", "clinics", "hospital", "shop", "shops", "store", "stores", "salon", "salons", "center", "centre",
              "school", "schools"}


# What a department's work makes, which its name qualifies ("a weekly finance report", "the HR data").
_EN_WORK_PRODUCTS = {"report", "reports", "dashboard", "dashboards", "summary", "summaries", "digest", "digests", "export",
                     "exports", "data", "numbers", "figures", "spreadsheet", "spreadsheets", "sheet", "records", "files", "emails",
                     "campaign", "campaigns", "materials", "budget", "budgets", "plan", "plans"}


# Groups said with a plural verb ("staff log hours", "the crew clock in"), as a plural is.
_EN_PLURAL_GROUPS = {"staff", "personnel", "crew", "faculty", "police"}


def _names_a_kind(words: list[str], end: int) -> bool:
    """Whether the person word words[end - 1] qualifies the business or thing after it ("accounting firm", "finance
    dashboard", "vet clinic", "finance report"): then it names a kind of that, not people who use it; so does a
    singular before a record kept of such people ("the patient file", "a customer list"), which a verb after a
    singular subject never is (it ends in -s: "the manager logs hours")."""
    after = words[end].lower() if end < len(words) else ""
    # a group whose verb takes no -s, bare before a record's word and what is kept, does that ("Staff log hours",
    # "crew record their shifts"); "the staff log", "Staff log:" name a record
    acts = (words[end - 1].lower() in _EN_PLURAL_GROUPS and (end < 2 or words[end - 2].lower() not in _EN_DETERMINERS)
            and end + 1 < len(words) and words[end + 1][:1].isalnum())
    if not _plural(words[end - 1]) and after in _EN_RECORDS and not after.endswith("s") and not acts:
        return True
    # before an office that acts it names which office ("the school office confirms …"), the team's own name
    return (after in _EN_BUSINESSES | _EN_PLACES and not (after in _EN_OFFICES and _en_team(words, end, end + 1)) or
            words[end - 1].lower() in _EN_WORK_DEPARTMENTS and after in _EN_TEAM_THINGS | _EN_WORK_PRODUCTS)


def _en_from(words: list[str], start: int, plural: bool) -> tuple[str, int] | None:
    """The role that begins at words[start] ("warehouse staff", "dispatchers"), and where it ends;
    `plural`: only a plural or a role word of the catalogue will do."""
    for end in range(start + 1, min(start + _EN_MAX_WORDS, len(words)) + 1):
        # A verb ends the run: what follows it is its object ("bakery wants customers", "the bot notifies tenants").
        # So does "per", which counts out what comes before it ("3 books per member").
        if not _content(words[end - 1]) or words[end - 1].lower() in _EN_MODALS | _EN_BEFORE | _EN_TELLS | {"per"}:
            return None
        head = words[end - 1].lower()
        if _names_a_kind(words, end):
            return None
        if _en_team(words, start, end) or _en_either_acts(words, end, plural) or (
                _en_role(words[end - 1]) and (not plural or head.endswith("s") or head in _EN_GROUPS
                                              or find_keywords(head, _KNOWN))):
            # A plural ends the name: the role word after it is its verb ("clerks enter invoices").
            while (end < len(words) and _content(words[end]) and _en_role(words[end])
                   and not _plural(words[end - 1])):
                end += 1
            return " ".join(words[start:end]), end
    return None


_EN_NUMBERS = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty",
               "dozen", "dozens", "hundred", "hundreds", "several", "both"}
# Times that open a clause before its subject ("Each morning", "Every Friday", "At night").
_EN_TIMES = {"morning", "mornings", "evening", "evenings", "night", "nights", "afternoon", "afternoons", "day", "days",
             "week", "weeks", "month", "months", "weekend", "weekends", "monday", "mondays", "tuesday", "tuesdays",
             "wednesday", "wednesdays", "thursday", "thursdays", "friday", "fridays", "saturday", "saturdays", "sunday",
             "sundays", "today", "tonight", "daily", "weekly", "nightly", "monthly"}
_EN_SUBJECTS = {"i", "we", "you", "they", "he", "she"}
# Verbs a requirement opens with as an order, whose object follows ("Track employee vacation days", "Manage tenant
# leases"): never a qualifier of a person's name.
_EN_ORDERS = {"track", "manage", "build", "create", "add", "make", "show", "list", "record", "log", "store", "collect",
              "send", "notify", "remind", "schedule", "count", "monitor", "support", "handle", "organise", "organize"}
_EN_RELATIVES = {"that", "which", "who"}


def _verb_of_relative_clause(words: list[str], at: int, start: int, end: int) -> bool:
    """Whether a run of words after a relative "that" opens with its verb and goes on to its object ("a bot that
    answers HR questions", "that notifies staff"): a qualifier of a person's name is a singular noun, so a first
    word ending in -s there is the verb, not part of a role ("a page that managers use" has no such qualifier)."""
    if words[at].lower() not in _EN_RELATIVES or (at > 0 and words[at - 1].lower() == "so") or end - start < 2:
        return False
    return _plural(words[start])


def _en_team_at(words: list[str], start: int) -> tuple[int, int, str] | None:
    """The team named after "at", past one word that says which place ("our gym front desk"): its name alone."""
    for end in range(start + 1, min(start + _EN_MAX_WORDS, len(words)) + 1):
        if not _content(words[end - 1]):
            return None
        if _en_team(words, start, end):
            size = 2 if end - start >= 2 and " ".join(words[end - 2:end]).lower() in _EN_TEAMS else 1
            return end - size, end, " ".join(words[end - size:end])
    return None


def _from_the_initials(words: list[str], start: int, end: int, role: str) -> tuple[int, int, str]:
    """A department named by its initials begins with them: lower-case words before them say what the thing is like
    ("an internal IT ticket tool", "a simple HR leave tracker"), never which people ("IT", "HR")."""
    at = next((at for at in range(start, end) if _an_acronym(words[at])), None)
    opens = start == 0 or not words[start - 1][0].isalnum()  # a sentence's first word takes a capital all the same
    if at is None or at == start or not all(words[w][:1].islower() or w == start and opens and words[w][1:].islower()
                                            for w in range(start, at)):
        return start, end, role
    return start, end, " ".join(words[at:end])  # (where the subject starts, as the sentence has it)


def _en_roles(text: str) -> list[tuple[int, int, str]]:
    words = _EN_WORD.findall(text)
    found: list[tuple[int, int, str]] = []

    def past_pointers(i: int) -> int:  # past the words that only point at the noun: "the", "our", "all", "5-person",
        while i < len(words) and (words[i][0].isdigit() or words[i].lower() in _EN_NUMBERS  # "my two staff" …
                                  or words[i][0].isalpha() and _function_word(words[i])
                                  # whose they are ("our church's volunteers"): an owner, no part of their name
                                  or words[i].lower().endswith("'s") and i + 1 < len(words) and _content(words[i + 1])):
            i += 1
        return i

    for i, word in enumerate(words):
        lower = word.lower()
        opens = i == 0 or not word[0].isalnum()  # the start of the text or of a clause
        # "for each customer", "for every order" say how it is counted out, not whom it is for
        if lower == "for" and i + 1 < len(words) and words[i + 1].lower() in {"each", "every", "per"}:
            continue
        # "deals by rep", "sales by store": a bare singular after "by" is what things are grouped by, not who acts
        if lower == "by" and i + 1 < len(words) and words[i + 1].islower() and not _plural(words[i + 1]) \
                and words[i + 1] not in _EN_GROUPS | _EN_TEAMS and (i + 2 == len(words) or not _content(words[i + 2])):
            continue
        # whom a thing is sent or given, said before it ("send our players a text", "give tenants a receipt"): told
        gives = lower in _EN_GIVES and _gets_a_thing(words, past_pointers(i + 1))
        if opens or lower in _EN_BEFORE or lower in _EN_AND or lower in _EN_TELLS or gives:
            # the person comes after the word that leads to them, the text's first word too ("Help our engineers …")
            start = past_pointers(i + 1 if i > 0 or lower in _EN_BEFORE | _EN_AND | _EN_TELLS or gives else i)
            if opens and start < len(words) and words[start].lower() in _EN_TIMES:
                start = past_pointers(start + 1)  # a time before the subject: "Each morning the shift lead assigns …"
            # After a bare "for" only a plural is a person ("for teachers"; "for Docker" is not); after
            # "for the", "for an" a lower-case singular is too ("for the on-call engineer").
            # ("… an app for it": nothing after the pointers, no person either)
            plural = lower == "for" and (start == i + 1 or start < len(words) and not words[start][:1].islower())
            # one told or given something is reached, so a worker's or a tool's name there is people ("remind
            # players"; no one texts a media player)
            plural = plural or lower in _EN_TELLS or gives
            # After a subject pronoun comes its verb, not a person: "I coach a club", "we nurse …"; and an order
            # that opens a clause acts on what follows it ("Track employee vacation days").
            after_subject = start > 0 and words[start - 1].lower() in _EN_SUBJECTS or (
                opens and not gives and start < len(words) and words[start].lower() in _EN_ORDERS)
            if (start < len(words) and not after_subject and (role := _en_from(words, start, plural=plural))
                    and not _verb_of_relative_clause(words, i, start, role[1])):
                found.append((start, role[1], role[0]))
        # Whom a result is sent to is served by it ("email the weekly report to finance", "sent to the owner").
        if lower == "to" and any(w.lower() in _EN_SENDS for w in words[max(0, i - 6):i]) and \
                (start := past_pointers(i + 1)) < len(words) and (role := _en_from(words, start, False)):
            found.append((start, role[1], role[0]))
        # The team at the place a thing stands works it ("a check-in screen at our gym front desk", "at reception").
        if lower == "at" and (team := _en_team_at(words, past_pointers(i + 1))):
            found.append(team)
        # Whom someone wants to do a thing does it ("Our gym wants members to freeze …", "needs drivers to log …").
        if lower in _EN_WANTS and (start := past_pointers(i + 1)) < len(words) and (role := _en_from(words, start, False)):
            if role[1] < len(words) and words[role[1]].lower() == "to":
                found.append((start, role[1], role[0]))
        # The subject of a modal is every content word before it ("customer support agents can …"),
        # unless the modal is passive ("orders can be exported": the orders do nothing).
        if lower in _EN_MODALS and i + 1 < len(words) and words[i + 1].lower() not in {"be", "been", "not"}:
            start = i
            while start > max(0, i - _EN_MAX_WORDS) and _content(words[start - 1]):
                start -= 1
            if start < i and (_en_role(words[i - 1]) or _en_team(words, start, i) or _en_either_acts(words, i, False)):
                found.append((start, i, " ".join(words[start:i])))
    found = [_from_the_initials(words, start, end, role) for start, end, role in found]
    # A capital that only opens a sentence is not part of the name ("Teachers post …" → "teachers"; "HR staff" stays).
    return [(start, end, role[0].lower() + role[1:] if (start == 0 or not words[start - 1][0].isalnum())
             and role[1:2].islower() else role) for start, end, role in found]


# ---------------------------------------------------------------- both


_ZH_GROUPS = ("团队", "部门", "人员", "同事", "组")


def _same_people(part: str, whole: str) -> bool:
    if whole.endswith(part):
        return True
    rest = whole[len(part):].strip() if whole.startswith(part) else ""
    return rest in _EN_GROUPS or rest in _ZH_GROUPS


# Nouns of access: a role word right before one names a permission, not a person who uses it
# ("需要管理员权限才能修改", "requires admin rights").
_ACCESS_NOUNS = ("权限", "身份", "级别", "permission", "permissions", "rights", "privilege", "privileges", "access",
                 "role", "level")
_ACCESS = re.compile(r"\s*(?:" + "|".join(_ACCESS_NOUNS) + r")(?![A-Za-z])", re.IGNORECASE)


# What says a counted group is whom it is for ("a portal for 600 students", "给300个学生用"), not only how many.
_FOR_WHOM = re.compile(r"(?:\b(?:for|serving|used\s+by)\s+(?:(?:all|each|the|our|my|its|their)\s+)?|"
                       r"(?:给|供|面向|服务于?|为)\s*)$", re.IGNORECASE)
_FOR_WHOM_OPENING = re.compile(r"\s*(?:for|serving|used\s+by|给|供|面向|服务|为)", re.IGNORECASE)
# Where a count said as an aside ends: its clause ends there ("a school app, about 600 students."); a verb after
# it ("about 600 students use it") makes them who act.
_ASIDE_ENDS = re.compile(r"\s*(?:$|[,;.!?)，；。！？）]|(?:per|a|an|each|every)\s+[a-z]+\s*(?:$|[,;.!?]))", re.IGNORECASE)


def _only_counted(role: str, text: str) -> bool:
    """Whether `role` is written only in counts said as an aside ("…, about 600 students", "，大约600名学生"): how
    many there are is the load, not who uses it."""
    counts = [said.span() for pattern in TOPICS_BY_ID["q_scale"].patterns for said in pattern.finditer(text)
              if not _FOR_WHOM_OPENING.match(said.group(0)) and not _FOR_WHOM.search(text[:said.start()])
              and _ASIDE_ENDS.match(text, said.end())]
    places = [m.span() for m in re.finditer(re.escape(role), text, re.IGNORECASE)]
    return bool(places) and all(any(start <= at and end <= stop for start, stop in counts) for at, end in places)


def _not_a_user(role: str, text: str) -> bool:
    """Whether `role` is written only as a team's size ("three-person team"), as a count said by the way ("about 600
    students") or as a permission ("管理员权限", "admin rights"): then nobody is named who uses it."""
    if any(role.lower() in said.group(0).lower()
           for said in [*TEAM_SIZE.finditer(text), *_ASKER_GROUP_EN.finditer(text)]):
        return True  # a team's size, or the asker's own group ("we are a small team"): the asker, not a role
    if _only_counted(role, text):
        return True
    places = [m.end() for m in re.finditer(re.escape(role), text, re.IGNORECASE)]
    return bool(places) and all(_ACCESS.match(text, end) for end in places)


_EN_DETERMINERS = {"a", "an", "the", "each", "every", "any", "one", "this", "that", "my", "our", "your", "their",
                   "his", "her", "its", "no", "some", "another"}


# Nouns that name a record kept of something done: a person before "拜访记录", "请假单" is whom it is about.
_ZH_RECORDS = {"记录", "档案", "台账", "清单", "列表", "报表", "日志", "明细", "单", "表", "登记", "统计"}


# Verbs of what is done to records and documents ("订单导出", "工资发放", "房卡丢失"): the noun before one is the thing.
_ZH_DONE_TO_RECORDS = {"导出", "导入", "打印", "备份", "同步", "归档", "汇总", "统计", "生成", "下载", "上传", "删除", "丢失",
                       "发放", "推送", "展示", "显示", "存档", "过期", "到期", "作废", "补办", "更新", "录入"}


def _zh_opens_clause(tokens: list[tuple[str, str]], at: int) -> bool:
    """Whether tokens[at] is the first word of its clause, past the words that open one ("然后", "如果")."""
    before = at - 1
    # the asker who owns them, and their place, are no words of the clause before them ("让我们店/员工扫码")
    if before >= 1 and len(tokens[before][0]) == 1 and re.fullmatch(SPEAKER_ZH, tokens[before - 1][0]):
        before -= 1
    while before >= 0 and re.fullmatch(SPEAKER_ZH, tokens[before][0]):
        before -= 1
    while before >= 0 and tokens[before][0] in _ZH_OPENERS:
        before -= 1
    return (before < 0 or _ZH_CLAUSE.fullmatch(tokens[before][0]) is not None or tokens[before][0] in _ZH_AFTERWARDS
            or tokens[before][0] in _ZH_LETS)


# Verbs of reading or filling in a record, which take it as their object ("店长看统计", "老师填写登记表"): a person before
# one acts, where before another verb they may name the record's kind ("员工请假记录"). Not 浏览, 查询, 下载: "浏览记录",
# "查询记录" and "下载记录" are records of their own.
_ZH_READS = {"看", "查看", "看到", "翻看", "查", "填", "填写"}


# Acts jieba tags as nouns that name no thing a person could qualify: a person before one does it ("居民扫码就能查到…").
_ZH_ACTS_READ_AS_NOUNS = {"扫码", "扫一扫", "打卡", "签到", "刷卡", "刷脸", "上门", "留言"}


def _zh_qualifies(tokens: list[tuple[str, str]], at: int) -> bool:
    """Whether the person word tokens[at] qualifies the noun after it ("客户订单", "员工的请假记录", "客户拜访记录")."""
    if at + 1 >= len(tokens) or (at > 0 and tokens[at - 1][0] in _ZH_TELLS):
        return False  # whom a thing is sent to, at their address too ("发到老板邮箱"), is served
    (after, tag), then = tokens[at + 1], tokens[at + 2][0] if at + 2 < len(tokens) else ""
    # a record of what is done with the person ("员工请假记录"); not "前台需要登记访客", where the person needs to act,
    # nor "店长看统计", where they read or fill one in
    if after == "的" or (tag.startswith("v") and after not in _ZH_MODALS | _ZH_READS and then in _ZH_RECORDS):
        return True
    # a thing named by its record ("访客登记工具"), not a person the record is of ("老师登记学生": the teacher acts)
    if after in _ZH_RECORDS and then and tokens[at + 2][1].startswith("n") and not _zh_role(then):
        # opening its clause, before a verb and what it acts on, it is who does it ("物业登记车辆"): only a form or a
        # piece of software after the record names a thing ("访客登记表", "访客登记系统")
        if not (_zh_opens_clause(tokens, at) and tag == "v") or re.fullmatch(
                rf"(?:{SOFTWARE_ZH})|{'|'.join(_ZH_RECORDS)}", then):
            return True
    # jieba's dictionary tags some kinds of a person's data as words of manner ("积分" ad, "等级" b): nouns here
    if not (tag.startswith("n") or tag in {"ad", "b"}) or _zh_role(after) or after in _ZH_ACTS_READ_AS_NOUNS:
        return False
    if not _zh_opens_clause(tokens, at):
        return True  # "查看客户订单": an object's qualifier
    # The clause's subject: jieba tags many verbs as nouns ("老师 布置 作业", "店员 盘点 库存", "维修工 上门"),
    # so the noun after it is a thing only when a modal follows the two, a record's name, or a verb of what is done
    # to records, which a person does not undergo ("客户订单可以导出", "客户订单列表", "客户订单导出成Excel").
    # (a one-character modal before a noun is a verb jieba split off its object: "学生借书还书" is 还 书, return books)
    modal = then in _ZH_MODALS and not (len(then) == 1 and at + 3 < len(tokens) and tokens[at + 3][1].startswith("n"))
    return modal or then in _ZH_RECORDS or then in _ZH_DONE_TO_RECORDS or _zh_names_a_feature(tokens, at + 2)


# What is done to a kind of data as a whole, ending a feature's name ("会员等级管理", "客户信息查询").
_ZH_FEATURE_ENDS = {"管理", "查询", "设置", "维护", "配置", "调整", "修改", "变更"}


def _zh_names_a_feature(tokens: list[tuple[str, str]], at: int) -> bool:
    """Whether tokens[at] ends a clause that names a feature by its data and what is done to it ("会员等级管理"): the
    person before the data qualifies it, doing nothing."""
    ends_clause = at + 1 >= len(tokens) or _ZH_CLAUSE.fullmatch(tokens[at + 1][0]) is not None
    return at < len(tokens) and tokens[at][0] in _ZH_FEATURE_ENDS and ends_clause


def _zh_inside_words(word: str, text: str) -> bool:
    """Whether a Chinese word stands in `text` only across or inside the words jieba reads there ("店员" in
    "我们店/员工", "库管" in "仓库/管理员"), never as words of its own."""
    bounds, at = {0}, 0
    for token in _zh_words(text):
        found = text.find(token, at)
        if found < 0:
            return False  # the words do not line up with the text: read it as written
        at = found + len(token)
        bounds |= {found, at}
    places = [m.start() for m in re.finditer(re.escape(word), text)]
    return bool(places) and all(p not in bounds or p + len(word) not in bounds for p in places)


# Nouns of a record kept of people, which a person word before them names the kind of ("guest list", "patient file").
_EN_RECORDS = {"list", "lists", "book", "log", "logs", "record", "records", "register", "file", "files", "database",
               "data", "details", "info", "profile", "profiles", "account", "accounts", "names", "directory", "roster"}


def _modifies_noun(word: str, text: str) -> bool:
    """Whether `word` stands everywhere in `text` as a noun qualifying another ("customer orders", "customer's
    orders", "所有员工的请假记录", "客户订单"): it says whose or what kind, not who uses it."""
    if is_chinese(text):
        tokens = zh_tokens(text)
        places = [i for i, (token, _) in enumerate(tokens) if token == word]
        return bool(places) and all(_zh_qualifies(tokens, i) for i in places)
    places = list(re.finditer(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text, re.IGNORECASE))

    def qualifies(place: re.Match[str]) -> bool:
        rest = text[place.end():]
        if re.match(r"'s?(?![A-Za-z])", rest):  # a possessive: "customer's orders", "students' grades"
            return True
        before = re.findall(r"[A-Za-z']+", text[:place.start()])
        after = re.match(r"\s+([A-Za-z][A-Za-z'-]*)", rest)
        # A person in the singular needs a determiner ("a customer orders …"); bare before a noun, it qualifies it,
        # and so it does before a record kept of them whatever stands before it ("the guest list", "each patient file").
        if not _plural(word) and after is not None and after.group(1).lower() in _EN_RECORDS:
            return True
        return (not _plural(word) and not (before and before[-1].lower() in _EN_DETERMINERS) and after is not None
                and _content(after.group(1)) and after.group(1).lower() not in _EN_MODALS)
    return bool(places) and all(qualifies(place) for place in places)


# A thing that exists and is changed ("给会员积分小程序加个导出功能", "帮客户管理系统增加短信提醒"): the person word in its
# name says what it is about; who uses what is added is not said.
_ZH_THING_CHANGED = (r"(?:给|帮|为|在)\s*{}[\u4e00-\u9fff]{{0,6}}?(?:" + SOFTWARE_ZH + r")(?:里|上|中)?\s*"
                     r"(?:加|增加|添加|新增|增|补|做|改|优化|上线)")


def _zh_names_a_thing_changed(word: str, text: str) -> bool:
    places = len(re.findall(re.escape(word), text))
    return places > 0 and len(re.findall(_ZH_THING_CHANGED.format(re.escape(word)), text)) == places


def _zh_acted_on(word: str, text: str) -> bool:
    """Whether a Chinese person word stands everywhere as the object that ends a clause, right after its verb
    ("前台登记访客", "家长接送孩子"), or as a qualifier of a thing ("访客登记系统"): handled, not a user. Not after a verb
    of telling ("提醒老板": told, so served), nor before a verb of their own ("安排司机送货": the driver acts)."""
    tokens = zh_tokens(text)

    def ends_its_clause(at: int) -> bool:
        return at + 1 == len(tokens) or _ZH_CLAUSE.fullmatch(tokens[at + 1][0]) is not None

    def object_of_a_verb(at: int) -> bool:
        verb = tokens[at - 1][0] if at > 0 else ""
        return (ends_its_clause(at) and _zh_verb(verb)
                and verb not in _ZH_TELLS | _ZH_BEFORE | _ZH_MODALS | _ZH_NEEDS)

    places = [at for at, (token, _) in enumerate(tokens) if token == word]
    return (any(object_of_a_verb(at) for at in places)
            and all(object_of_a_verb(at) or _zh_qualifies(tokens, at) for at in places))


def _acted_on(word: str, text: str) -> bool:
    """Whether an English role word stands everywhere as what a verb acts on ("check guests in", "register the
    visitors") or what is counted out ("for each customer"): the verb's word, lower-case and no word of the sentence's frame, comes right before it or its
    determiner. Those people are what the tool handles, not who uses it; "for guests", "to customers" serve them."""
    if is_chinese(text):
        return _zh_acted_on(word, text)
    places = list(re.finditer(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text, re.IGNORECASE))

    def after_a_verb(place: re.Match[str]) -> bool:
        before = re.findall(r"[A-Za-z0-9'-]+|[^\sA-Za-z0-9'-]", text[:place.start()])
        pointers = []
        while before and (before[-1][0].isdigit() or before[-1].lower() in _EN_DETERMINERS | _EN_NUMBERS | {"all"}):
            pointers.append(before.pop().lower())
        verb = before[-1] if before else ""
        if verb.lower() == "per" or (verb.lower() == "for" and {"each", "every"} & set(pointers)):
            return True  # counted out ("the last orders for each customer", "per customer"), not served
        # The people handled as a group ("check guests in"); one picked by "a" may yet act ("pick a doctor").
        return (_plural(word) and verb[:1].islower() and _content(verb) and not _en_role(verb)
                and verb.lower() not in _EN_MODALS | _EN_BEFORE | _EN_AND)
    return bool(places) and all(after_a_verb(place) for place in places)


def with_its_article(role: str, text: str) -> str:
    """An English role in the singular as a sentence of the plan names it: with the "the" the requirement gives it
    ("for the front desk", "for the HR team"), which a bare singular lacks ("for front desk"); a plural or a role
    written without one ("for HR") stays as it is."""
    if is_chinese(text) or _plural(role.split()[-1]):
        return role
    # one qualifier may stand between ("our 12-person engineering team")
    written = re.search(rf"\b(the|this|our|my)\s+(?:[\w-]+\s+)?{re.escape(role)}(?![\w-])", text, re.IGNORECASE)
    if written:
        return f"the {role}"
    # a kind of person, written singular as it qualifies a thing ("a volunteer signup sheet"): its people ("for
    # volunteers", not "for volunteer"); a team ("for reception") or initials ("for HR") stay as written
    head = role.split()[-1]
    return role if _an_acronym(head) or head.lower() in _EN_WORK_DEPARTMENTS else _plural_of(role)


# Words that make a clause passive: what opens it is done to by whom follows ("孩子由家长接走", "订单被店员确认").
_ZH_PASSIVE = {"由", "被"}


def _zh_done_to(word: str, text: str) -> bool:
    """Whether a Chinese person word stands only as what a passive clause opens with ("孩子放学后由家长接走", "病人被护士
    叫号"): someone else acts on them, who is the user; they are not."""
    passives = 0
    for clause in _ZH_CLAUSE.split(text):
        tagged = zh_tokens(clause)
        tokens = [token for token, _ in tagged]
        for at in (i for i, token in enumerate(tokens) if token == word):
            # opening its clause, with 由/被 and its doer later in it; not when another noun stands right before 由/被,
            # which is what is done to ("老师确认孩子被接走": the teacher confirms, the child is picked up)
            passive = next((i for i in range(at + 1, len(tokens)) if tokens[i] in _ZH_PASSIVE), None)
            if passive is not None and passive - 1 > at and (tagged[passive - 1][1].startswith("n")
                                                             or _zh_role(tokens[passive - 1])):
                passive = None
            if _zh_opens_clause([(t, "") for t in tokens], at) and passive is not None and passive + 1 < len(tokens):
                passives += 1
            # elsewhere only as what a verb acts on ("家长接孩子放学"), not whom one tells or lets act
            elif not (at > 0 and _zh_verb(tokens[at - 1])
                      and tokens[at - 1] not in _ZH_TELLS | _ZH_BEFORE | _ZH_MODALS | _ZH_NEEDS | _ZH_LETS):
                return False
    return passives > 0


def named_roles(text: str) -> list[str]:
    """The roles `text` names, in reading order, each once and as written, with its qualifier
    ("仓库管理员", not "管理员"); the catalogue's role words found elsewhere in the text follow."""
    found = [(start, end, role) for start, end, role in (_zh_roles(text) if is_chinese(text) else _en_roles(text))
             if not _not_a_user(role, text) and not (is_chinese(text) and (
                 _modifies_noun(role, text) or _zh_names_a_thing_changed(role, text) or _zh_done_to(role, text)))]
    # One of many is all of them ("each teacher opens slots": for teachers).
    if not is_chinese(text):
        words = _EN_WORD.findall(text)
        found = [(start, end, _plural_of(role) if start > 0 and words[start - 1].lower() in {"each", "every"} else role)
                 for start, end, role in found]
    # A pair of people is each of them ("parent-teacher messaging" is for parents and teachers).
    found = [(start, end, one) for start, end, role in found for one in (_en_pair(role) or [role])]
    # A role found inside a longer one found at the same place ("customer" in "customer support agents") is that one.
    found = [(start, end, role) for start, end, role in found
             if not any(s <= start and end <= e and (s, e) != (start, end) for s, e, _ in found)]
    roles: list[str] = []
    for _, _, role in sorted(found):
        # One role named in the singular and the plural ("a visitor badge … visitors sign in") is one, said as a group.
        same = next((at for at, seen in enumerate(roles) if _singular(role) == _singular(seen)), None)
        if same is None:
            roles.append(role)
        elif _singular(role) != role.lower() and _singular(roles[same]) == roles[same].lower():
            roles[same] = role
    # A role named again in part elsewhere is the same one: its head ("shop clerk" … "each clerk") or the group
    # its people are of ("HR staff" … "HR exports"); not a person who only qualifies another ("学生家长", "学生").
    roles = [role for role in roles if not any(role != other and _same_people(role.lower(), other.lower())
                                               for other in roles)]
    for word in find_keywords(text, _KNOWN):  # the fallback: a role word written anywhere else
        if is_chinese(text) and _zh_inside_words(word, text):
            continue  # "店员" in 我们店/员工, "库管" in 仓库/管理员: characters of other words
        if pair := [one for one in _en_pair(word) if _singular(one) not in {_singular(role) for role in roles}]:
            roles += pair
        elif (not _en_pair(word) and word.lower() not in _GENERIC | _POINTERS and not any(word.lower() in role.lower() for role in roles)
                and not _not_a_user(word, text) and not _modifies_noun(word, text) and not _acted_on(word, text)
                and not (is_chinese(text) and (_zh_names_a_thing_changed(word, text) or _zh_only_done_for(word, text)
                                               or _zh_done_to(word, text)))):
            roles.append(word)
    # A person who only names the software it is ("会员小程序", "学生管理系统") says what it is about: beside the people
    # the text says act in it, they are not a user of their own.
    if is_chinese(text) and len(roles) > 1:
        roles = [role for role in roles if not _zh_only_names_software(role, text)] or roles
    return roles


def _zh_only_names_software(word: str, text: str) -> bool:
    """Whether a person word stands in `text` only at the head of a piece of software's name ("会员小程序",
    "会员积分系统"), never as someone who acts ("采购根据看板下单", "业主在小程序报修")."""
    tokens = zh_tokens(text)
    places = [at for at, (token, _) in enumerate(tokens) if token == word]

    def names_it(at: int) -> bool:
        for step in range(at + 1, min(at + 4, len(tokens))):  # the kind, or a noun or two of what it keeps first
            if re.match(rf"(?:{SOFTWARE_ZH})", "".join(t for t, _ in tokens[step:step + 2])):
                return True
            token, tag = tokens[step]
            if not (tag.startswith("n") or tag == "vn") or _zh_role(token):
                return False
        return False
    return bool(places) and all(names_it(at) for at in places)


# ---------------------------------------------------------------- the asker as the user

# The person asking, speaking of themselves ("我", "我们学校", "咱们公司").
SPEAKER_ZH = r"(?:我们?|咱们?|本人)"
# The asker uses it: as the subject of using or being able to ("我们可以在手机上查", "我平时用"), or as
# who it is for ("自己用", "给我们用", "内部使用"). Wishes ("我想", "我们需要") say who asks, not who uses.
_WITH_WHOM_ZH = r"(?:和|跟|与)"
_WITH_ZH = rf"我{_WITH_WHOM_ZH}"
_ASKER_ZH = re.compile(rf"{SPEAKER_ZH}(?:自己|平时|每天|都|也|就)?(?:来|会)?(?:用|使用|可以|能够?)"
                       # the asker's own group ("我们是一个三人团队"), not a shop that serves others
                       rf"|{SPEAKER_ZH}是[^，。；！？]{{0,8}}?(?:团队|小组|部门|科室|工作室|家庭|班级|实验室)"
                       rf"|(?:给|供|方便){SPEAKER_ZH}(?:自己)?(?:用|使用)|自己(?:来)?(?:用|使用)|自用|内部(?:用|使用)"
                       # a thing that helps the asker do a task ("帮我记账"), not one they ask to have made ("帮我做个…")
                       rf"|(?:帮|帮助|方便){SPEAKER_ZH}(?!做|开发|写|弄|搞|整|建|设计|想|看看|找)[\u4e00-\u9fff]"
                       # the asker and who they name ("我和老婆两个人用", "我跟室友一起用")
                       rf"|{_WITH_ZH}[^，。；！？]{{1,4}}?(?:一起|两个人|俩|[两三四五\d]+个?人)?(?:都|也)?(?:用|使用|可以|能够?)"
                       # the asker alone ("就我一个人用", "我一个人开店"), or named alone as the answer to who ("就我")
                       rf"|{SPEAKER_ZH}(?:自己)?(?:一个人|一人|独自)|^\s*(?:就|只有|只是|只)?{SPEAKER_ZH}(?:自己|{_WITH_WHOM_ZH}[^，。；！？]{{1,4}})?\s*[。！!.]?\s*$")
# The asker tells of their own group, for which an internal tool is wanted ("We are a three-person team and
# need …"): that group uses it. Not a shop or a company, which serve others.
_ASKER_GROUP_EN = re.compile(r"\b(?:we\s+are|we're|I\s+am\s+in|I'm\s+in)\s+(?:a|an|the)?\s*(?:[\w-]+\s+){0,2}"
                             r"(?:team|group|department|office|family|household|club|class|crew|lab)\b|"
                             # a group the asker counts in people, whatever it is ("we're a 6-person design studio")
                             r"\b(?:we\s+are|we're)\s+(?:just\s+)?(?:a|an)\s+(?:small\s+|tiny\s+)?"
                             r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ](?:person|people)\b",
                             re.IGNORECASE)
_ASKER_EN = re.compile(r"\b(?:for|to)\s+(?:my|our)\s+own\s+use\b|\bfor\s+(?:personal|internal)\s+use\b|"
                       r"\bfor\s+(?:myself|ourselves|me|us)\b|"
                       # the asker named alone as the answer to who uses it ("just me", "only us", "myself")
                       r"^\s*(?:(?:just|only)\s+)?(?:me|myself|us|ourselves)(?:\s+only)?\s*[.!]?\s*$|"
                       # the asker's own group ("for our three-person team", "for my family")
                       r"\bfor\s+(?:my|our)\s+(?:[\w-]+\s+){0,2}(?:team|office|shop|store|company|business|group|"
                       r"family|household|club|class)\b|"
                       r"\b(?:I|we)\s+(?:(?:can|could)\s+(?!be\b)[a-z]+|(?:will\s+|'ll\s+)?use\b)|"
                       # the asker wants to do it themselves ("I want to track my reading"), not to have it made
                       r"\b(?:I|we)\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+"
                       r"(?!(?:build|make|create|have|get|develop|add|set\s+up|write)\b)[a-z]+|"
                       # a thing wished for to do something with the asker's own ("an app to track which of my plants …")
                       r"\b(?:I|we)\s+(?:need|want|would\s+like|'d\s+like)\b[^.;!?]*?\bto\s+[a-z]+(?:\s+[a-z]+){0,3}?"
                       r"\s+(?:my|our)\s|"
                       + _ASKER_GROUP_EN.pattern, re.IGNORECASE)
_MANY = re.compile(rf"我们|咱们|内部|{_WITH_ZH}|\b(?:we|us|our|ourselves|internal|team|family|household|group|club|class|office|"
                   r"company|business|shop|store)\b", re.IGNORECASE)


# The asker's own group whose members use what is made for it ("for our book club", "给我们读书会做一个…"): a club or
# a class, not a shop or a company, which serve others, nor a team the asker works in (the requesters themselves).
_MEMBERS_EN = r"club|class|choir|band|society|league|association"
_MEMBERS_ZH = r"读书会|俱乐部|社团|班级|车队|合唱团|球队|乐队|协会"
_ASKER_GROUP = (re.compile(rf"\bfor\s+(?:my|our)\s+(?P<group>(?:[\w-]+\s+){{0,2}}(?:{_MEMBERS_EN}))\b", re.IGNORECASE),
                re.compile(rf"(?:给|为|供){SPEAKER_ZH}的?(?P<group>[\u4e00-\u9fff]{{0,4}}?(?:{_MEMBERS_ZH}))"))


def asker_group(text: str) -> str | None:
    """The asker's own group a thing is made for, whose members use it ("book club", "读书会"); else None."""
    found = (_ASKER_GROUP[1] if is_chinese(text) else _ASKER_GROUP[0]).search(text or "")
    return found.group("group") if found else None


# A thing the asker wishes for, to keep track of their own ("我想做一个记录自己读书笔记的小工具", "我想要个工具统计我的开支"), as
# "an app to track my houseplants" is in English: theirs, unless it names others who do so.
# What keeps one person's own records: what it is made for is whom it keeps them for.
_OWN_RECORDS_ZH = r"(?:记账|账本|手账|日记|待办|备忘|打卡|习惯|记事|背单词|记单词|读书笔记|健身记录|体重记录)"
_OWN_RECORDS_EN = (r"(?:(?:expense|expenses|budget|spending|habit|mood|reading|workout|weight)\s+(?:tracker|log|journal)|"
                   r"journal|diary|to-?do\s+list)\b")
_ASKER_OWN_ZH = re.compile(rf"{SPEAKER_ZH}(?:想要?|要|需要|希望|打算)[^，。；！？]*?"
                           rf"(?:{'|'.join(sorted(ZH_TRACKING_VERBS, key=len, reverse=True))}|看|查)(?:自己|我们?)的?"
                           r"[\u4e00-\u9fff]"
                           # or one that reminds the asker ("每天提醒我喝水"): whom it tells is whom it serves
                           rf"|(?:提醒|通知|告诉|催){SPEAKER_ZH}"
                           # or one the asker has made to keep their own records ("帮我做记账小程序"): a ledger, a
                           # diary, a habit log is kept by the one it is made for
                           rf"|(?:帮|给|替){SPEAKER_ZH}(?:做|开发|写|弄|搞|整)[^，。；！？]{{0,4}}?{_OWN_RECORDS_ZH}")
_ASKER_TOLD_EN = re.compile(r"\b(?:remind|reminds|notify|notifies|tell|tells|alert|alerts|ping|pings|nudge|nudges)\s+"
                            r"(?:me|us)\b|"
                            rf"\b(?:build|make|create|write|code)\s+me\s+(?:a|an)\s+(?:[\w-]+\s+){{0,2}}?{_OWN_RECORDS_EN}",
                            re.IGNORECASE)


def asker_uses(text: str) -> str | None:
    """"me" or "us" when the requirement says the asker is the one who uses it ("想做个记账工具自己用",
    "a tool for my own use"), else None."""
    found = (_ASKER_ZH if is_chinese(text) else _ASKER_EN).search(text or "")
    if found is None and (own := (_ASKER_OWN_ZH if is_chinese(text) else _ASKER_TOLD_EN).search(text or "")) \
            and not named_roles(text):
        found = own  # only when it names no one else who uses it ("顾客预约后提醒我": the customers do)
    if found is None:
        # the asker and whom they name, doing a thing together ("my wife and I share a grocery list"), or their group
        return "us" if asker_companion(text) or asker_group(text) else None
    # The asker is "we" when the words that say so, or the requirement's first word for the asker, are plural.
    speaker = re.search(rf"{SPEAKER_ZH}|\b(?:I|me|my|myself|we|us|our|ourselves)\b", text)
    said = found.group(0) if _MANY.search(found.group(0)) or speaker is None else speaker.group(0)
    return "us" if _MANY.search(said) else "me"


# Whom the asker names as using it with them ("我和老婆两个人用", "for me and my wife", "my partner and I will use it").
_COMPANION_ZH = re.compile(rf"{_WITH_ZH}(?P<who>[\u4e00-\u9fff]{{1,4}}?)(?:一起|共同|共|两个人|俩|[两三四五\d]+个?人|都|也|用|使用|可以|能)")
_COMPANION_EN = re.compile(r"\b(?:me|I)\s+and\s+my\s+(?P<who>[a-z]+)\b|\b[Mm]y\s+(?P<other>[a-z]+)\s+and\s+(?:I|me)\b")


def asker_companion(text: str) -> str | None:
    """The one the asker names as using it with them ("老婆", "wife"), when the requirement names one; else None."""
    found = (_COMPANION_ZH if is_chinese(text) else _COMPANION_EN).search(text or "")
    if found is None:
        return None
    who = found.group("who") or (found.groupdict().get("other") or "")
    return who if who and not _GENERIC & {who, who.lower()} else None


# A home's own people ("for my family", "家里记账用", "a household chores chart"): a few who trust one another.
# The asker's own ("my family", "our household"), not a product's many ("an app for families").
_HOUSEHOLD = re.compile(r"\b(?:my|our)\s+(?:\w+\s+)?(?:family|household|housemates?|flatmates?|roommates?)\b|"
                        r"(?:我|我们|咱|咱们)(?:家|全家|家里|家人|室友)|全家人?(?:一起|都|共用)", re.IGNORECASE)


def shared_by_a_few(text: str) -> bool:
    """Whether a requirement is for the asker and the few they live or share it with ("for me and my wife", "家里
    两个人一起记账"): they see the same data, with no account of their own each."""
    return asker_companion(text) is not None or _HOUSEHOLD.search(text or "") is not None


def opens_with_role(clause: str) -> bool:
    """Whether an English clause opens with a role as its subject ("managers approve them", "the clerk
    prints it"), so it says a new thing someone does rather than continuing a phrase."""
    words = _EN_WORD.findall(clause)
    lead = 0
    while lead < len(words) and words[lead][0].isalpha() and _function_word(words[lead]):
        lead += 1
    return any(start == lead for start, _, _ in _en_roles(clause))


# Someone of the asker's, who runs a place and wishes for a thing ("My mum runs a small tailoring shop and needs …"):
# the asker asks for them, and they use it.
_FOR_KIN_EN = re.compile(r"^\s*(?:my|our)\s+(?P<who>[a-z]+)\s+(?:runs?|owns?|manages?|has|opened|started)\s+"
                         r"(?:a|an|the|her|his|their)\s+[^,;.]*?\s+and\s+(?:needs?|wants?|would\s+like|is\s+looking\s+for)\s+",
                         re.IGNORECASE)


def asked_for_kin(text: str) -> tuple[str, int] | None:
    """(who, where their wish begins) when the asker asks for someone of theirs who runs a place ("mum"); else None."""
    found = _FOR_KIN_EN.match(text or "")
    return (found.group("who"), found.end()) if found else None


# ---------------------------------------------------------------- who uses the asker's place

# The asker's place, named as theirs or as what the thing is for ("我们宠物店", "给健身房做", "小区想做", "for our dog
# grooming salon", "We run a yoga studio"), by the kind of people a place of that kind serves and is run by: a shop
# its customers and staff, a residence its residents and managers, a school its students and teachers, a clinic its
# patients and staff. A guess the plan says as one, for a requirement that names no one.
_ZH_PLACE_KINDS = (
    ("residence", r"小区|公寓|宿舍|社区|楼盘|大厦"),
    ("school", r"学校|幼儿园|培训班|培训机构|补习班|小学|中学|大学|学院"),
    # a clinic for animals serves their owners, not patients ("给宠物医院做…")
    ("vet", r"宠物医院|宠物诊所|动物医院|动物诊所|兽医院|兽医站|兽医诊所|宠物门诊"),
    ("clinic", r"医院|诊所|门诊|卫生院|牙科"),
    ("business", r"[\u4e00-\u9fff]{0,4}?(?:店|馆|厅|工作室|超市|健身房|美容院|会所|酒店|民宿|球场|影院)"),
)
# what qualifies the place's name ("宠物", "咖啡"): no word that asks, makes or points ("做一个酒店比价网站" names no place)
_ZH_PLACE_WORD = r"(?:(?!做|要|想|让|用|给|为|帮|我|们|开|一家|一个|个|的)[\u4e00-\u9fff])"
_ZH_PLACE = re.compile(r"(?:^|我们|我家|我的|咱们|给|为|帮|开了?一?家)(?:的|一家|家|个)?(?P<place>"
                       + "|".join(f"(?:{words})" for _, words in _ZH_PLACE_KINDS).replace(r"[\u4e00-\u9fff]", _ZH_PLACE_WORD)
                       + ")")
_EN_PLACE_KINDS = (
    ("residence", r"building|apartments?|apartment\s+block|complex|estate|condo|dorm|dormitory|block\s+of\s+flats"),
    ("school", r"school|kindergarten|nursery|preschool|academy|college|tutoring\s+centre|tutoring\s+center"),
    ("vet", r"(?:vet|vets|veterinary|animal|pet)\s+(?:clinic|surgery|practice|hospital)"),
    ("clinic", r"clinic|surgery|practice|hospital|dental\s+office"),
    ("business", r"salon|shop|store|studio|gym|cafe|café|restaurant|bakery|bar|spa|hotel|hostel|boutique|"
                 r"garage|pharmacy|club"),
)
_EN_PLACE = re.compile(r"\b(?:our|my|(?:run|own|have|manage)s?\s+an?)\s+(?P<place>(?:(?!(?:and|or|a|an|the|to|for|with|"
                       r"where|that|so|which|who)\b)[a-z-]+\s+){0,3}(?P<head>"
                       + "|".join(words for _, words in _EN_PLACE_KINDS) + r"))\b", re.IGNORECASE)


def place_served(text: str) -> tuple[str, str] | None:
    """(kind, place) of the asker's place a thing is made for ("business", "宠物店"; "business", "dog grooming
    salon"), when the text names one; else None."""
    if is_chinese(text):
        found = _ZH_PLACE.search(text)
        kinds, place = _ZH_PLACE_KINDS, found and found.group("place")
    else:
        found = _EN_PLACE.search(text)
        kinds, place = _EN_PLACE_KINDS, found and found.group("head")
    if not found:
        return None
    # by the whole place, whose qualifier may say its kind ("vet clinic": its owners come, not patients)
    kind = next(kind for kind, words in kinds if re.search(rf"(?:{words})$", found.group("place").strip(), re.IGNORECASE))
    return kind, found.group("place").strip() if is_chinese(text) else found.group("place").strip().lower()
