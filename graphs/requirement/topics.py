"""What a requirement commonly leaves open. One catalogue serves three places: the discovery
queries (search the repo docs per topic), the prompt's checklist for a real model, and the offline
composer's keyword detection. Question ids are the topic ids, so they are stable across rounds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.i18n import catalogue
from core.language import CJK, language_of


def is_chinese(text: str) -> bool:
    return language_of(text) == "zh"


@dataclass(frozen=True)
class Topic:
    id: str
    label: tuple[str, str]  # (en, zh)
    blocking: bool
    priority: int
    keywords: tuple[str, ...]  # settle the topic when found in the requirement or the answers
    doc_keywords: tuple[str, ...]  # stricter: settle it when found in the repository's docs
    query: str  # retrieval query over the docs
    question: tuple[str, str]
    why: tuple[str, str]
    impact: tuple[str, str]
    fallback: tuple[str, str]
    # Without a repository there is no "existing" storage, interface or user base to fall back on.
    fallback_new: tuple[str, str] | None = None
    # A job that runs by itself (a scheduled report, an ETL) has no one who signs in: its own fallback, if it needs one.
    fallback_unattended: tuple[str, str] | None = None
    # The question put to a job that runs by itself, when the usual one speaks of people using it.
    question_unattended: tuple[str, str] | None = None
    # The question put to a script its asker runs on their own files, and its fallback, when the usual ones speak of
    # users and requests ("How many files does one run handle?").
    question_script: tuple[str, str] | None = None
    fallback_script: tuple[str, str] | None = None
    # The question and fallback for a thing for the asker's own use (a script, a family sheet), handed over rather
    # than released ("By when do you need it?", not "Is there a release window?").
    question_own: tuple[str, str] | None = None
    fallback_own: tuple[str, str] | None = None
    # The fallback for a thing a few people share at home ("for me and my wife"), who need no account each.
    fallback_shared: tuple[str, str] | None = None
    # Whether a shape found says its rule with all the rest of its clause (an access rule's object: "只有店长能看每天的报表").
    rule_to_its_end: bool = False
    # A topic only some requirements raise (how long a backup's copies are kept): whether this one does.
    asked_of: Callable[[str], bool] | None = None
    # The keywords are themselves the answer ("业主", "小程序", "MySQL"): the plan names the ones the
    # requirement uses. Not so for words that only show a topic is addressed ("验收", "deadline").
    keywords_name_it: bool = False
    # How the plan's sentences put a named word (en, zh): "the website", not "use website".
    named_as: tuple[str, str] = ("{}", "{}")
    # Words that settle the topic by saying where, not naming the thing ("book online", 网上预约): the thing the plan
    # names instead, as (word, (en, zh)) — "through the web page", never "through the online".
    said_of: tuple[tuple[str, tuple[str, str]], ...] = ()
    # Shapes of an answer no word list holds ("by the end of March", "下周五之前", "50 shops", "3个人"):
    # found in the requirement or the answers, they settle the topic as a keyword does.
    patterns: tuple[re.Pattern[str], ...] = ()
    # Whether "none" answers the question ("files, none" for the data store: nothing is kept); else a bare no
    # ("no", "没有") only declines it, and the question keeps its fallback.
    none_is_an_answer: bool = False
    # Shapes in which the same words say something else ("show orders before March" picks which orders,
    # "3月前的订单" too): what they cover settles nothing.
    not_in: tuple[re.Pattern[str], ...] = ()
    # Words that say no to this topic and no other ("no rush", "不着急" of the deadline): typed beside another answer
    # ("no rush, we use Postgres"), they are this topic's, which then keeps its fallback.
    said_no_by: re.Pattern[str] | None = None

    def said_no_to(self, text: str) -> bool:
        """Whether `text` only says no to this topic, in words of its own ("no rush", "时间不急")."""
        said = re.sub(r"^[\s,.;:!?，。；：！？]+|[\s,.;:!?，。；：！？~～]+$", "", text or "")
        return self.said_no_by is not None and self.said_no_by.fullmatch(said) is not None

    def unmasked(self, text: str) -> str:
        """`text` with what `not_in` covers blanked out, keeping every other character where it was."""
        text = text or ""
        for pattern in self.not_in:
            text = pattern.sub(lambda m: " " * len(m.group(0)), text)
        return text

    def keywords_in(self, text: str) -> list[str]:
        """The topic's keywords `text` names, as written, outside what `not_in` covers."""
        return find_keywords(self.unmasked(text), self.keywords)

    def settled_by(self, text: str) -> bool:
        text = self.unmasked(text)
        return find_keyword(text, self.keywords) is not None or any(p.search(text) for p in self.patterns)

    def _longest(self, text: str) -> re.Match[str] | None:
        """The longest shape found in `text`, which says it most fully ("by the end of March", not "be live")."""
        found = [m for p in self.patterns for m in p.finditer(self.unmasked(text))]
        return max(found, key=lambda m: len(m.group(0))) if found else None

    def stated_in(self, text: str) -> str | None:
        """The words of `text` that state the answer by one of the shapes ("by the end of March", "3个人"),
        with the few words that finish its clause."""
        return _to_clause_end(text, found, to_its_end=self.rule_to_its_end) if (found := self._longest(text)) else None

    def stated_whole_in(self, text: str) -> str | None:
        """As `stated_in`, with the shape's leading words too ("验收标准是…", "we run 12 cafes")."""
        return _to_clause_end(text, found, whole=True) if (found := self._longest(text)) else None

    def shape_in(self, text: str) -> str | None:
        """Only the words of the shape itself ("about 50 stores"), without the rest of their clause."""
        return (found.groupdict().get("said") or found.group(0)) if (found := self._longest(text)) else None

    def text(self, pair: tuple[str, str], zh: bool) -> str:
        return pair[1] if zh else pair[0]

    def names_a_product(self, word: str) -> bool:
        """Whether `word` is one of the topic's things that the catalogue writes as a product's name ("Slack",
        "Postgres"), whose capital an answer keeps; "Website" typed as an answer is a common noun's sentence capital."""
        return any(keyword.lower() == word.lower() and keyword != keyword.lower() for keyword in self.keywords)

    def thing_named(self, word: str, zh: bool) -> str | None:
        """The thing a word of `said_of` stands for ("online" → "web page"), else None: the word names it itself."""
        return next((self.text(thing, zh) for said, thing in self.said_of if said == word.lower()), None)

    def question_text(self, zh: bool, unattended: bool = False, script: bool = False, own_use: bool = False) -> str:
        if script and self.question_script is not None:
            return self.text(self.question_script, zh)
        if own_use and self.question_own is not None:
            return self.text(self.question_own, zh)
        return self.text(self.question_unattended if unattended and self.question_unattended else self.question, zh)

    def raised_by(self, requirement: str) -> bool:
        """Whether the requirement raises this topic at all (most topics: every requirement does)."""
        return self.asked_of is None or self.asked_of(requirement)

    def fallback_text(self, zh: bool, has_repository: bool, unattended: bool = False, script: bool = False,
                      shared: bool = False, own_use: bool = False) -> str:
        if script and self.fallback_script is not None:
            return self.text(self.fallback_script, zh)
        if own_use and self.fallback_own is not None:
            return self.text(self.fallback_own, zh)
        if shared and not has_repository and self.fallback_shared is not None:
            return self.text(self.fallback_shared, zh)
        if unattended and self.fallback_unattended is not None:
            return self.text(self.fallback_unattended, zh)
        return self.text(self.fallback if has_repository or self.fallback_new is None else self.fallback_new, zh)


_CLAUSE_REST = re.compile(r"[^,.;:!?，。；：！？、\n]*")


def _to_clause_end(text: str, match: re.Match[str], whole: bool = False, to_its_end: bool = False) -> str:
    """The match with the few words that finish its clause ("Only HR staff may see" + "salaries",
    "下周五之前" + "做完"); a longer rest is another thought, left out, unless `to_its_end`: what an access rule keeps
    to some is its object, however long ("只有店长能看" + "每天的报表")."""
    rest = _CLAUSE_REST.match(text, match.end()).group(0)
    short = to_its_end or (len(rest.split()) <= 3 if not is_chinese(rest) else len(rest.strip()) <= 4)
    # a shape may name the part that says it ("run 12 cafes"), unless `whole`
    said = match.group(0) if whole else match.groupdict().get("said") or match.group(0)
    return (said + rest if short else said).strip()


_MONTHS = ("jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
           "oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend"
_COUNT_EN = r"(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a few|a couple of|several)"
_COUNT_ZH = r"(?:\d+|[一二两三四五六七八九十半]+)"
_DEADLINE_PATTERNS = (
    # "by the end of March", "before Friday", "until next week", "by 2025-06-30", "no later than Q3"
    re.compile(rf"\b(?:by|before|until|till|no later than|due)\s+(?:the\s+)?(?:end of\s+)?(?:(?:next|this)\s+)?"
               # a named day, in capitals ("Valentine's Day", "Black Friday" is one too): not "the first day"
               rf"(?:{_MONTHS}|{_DAYS}|week|month|quarter|year|q[1-4]|christmas|new year|easter|thanksgiving|"
               rf"(?-i:(?:[A-Z][\w']*\s+){{1,3}}Day)|"
               rf"(?:summer|winter|spring|easter|christmas|school|the)\s+(?:holidays?|break|vacation)|"
               # a season ("before the summer", "by autumn")
               rf"summer|winter|autumn|fall|spring|"
               rf"(?:the\s+)?(?:new|next|autumn|fall|spring)\s+(?:school\s+)?(?:term|semester|school\s+year)|\d{{1,4}}(?:[-/.]\d{{1,2}}){{1,2}})\b",
               re.IGNORECASE),
    re.compile(rf"\b(?:in|within)\s+{_COUNT_EN}\s+(?:days?|weeks?|months?)\b", re.IGNORECASE),  # "in two weeks"
    re.compile(r"\b(?:go|goes|going|be|is)\s+live\b", re.IGNORECASE),
    # "ship it next month", "done this week", "we need it next quarter": a time right after finishing or having it
    re.compile(r"\b(?:ship|launch|release|deliver|finish|done|ready|live|need\s+it|have\s+it|use\s+it)(?:s|ed|d)?\s+"
               r"(?:it\s+)?(?:by\s+|in\s+|before\s+)?(?:the\s+)?(?:end\s+of\s+)?(?:next|this)\s+"
               r"(?:week|month|quarter|year|term|semester)\b", re.IGNORECASE),
    # "The deadline is end of Q2": the end of a period said to be when it is due, not when something is done
    re.compile(rf"(?<=\bis\s)(?:the\s+)?end\s+of\s+(?:the\s+)?(?:(?:next|this)\s+)?(?:{_MONTHS}|week|month|quarter|year|"
               rf"q[1-4])\b", re.IGNORECASE),
    # "3月15日前", "下周五之前", "本月底", "下个月", "两周内", "年底", "月底前", "春节前"
    # ("本月的订单", "三年前的数据" are what to show, not when to ship: a relative time needs a "by" after it)
    re.compile(rf"{_COUNT_ZH}月{_COUNT_ZH}?[日号]?\s*(?:之前|以前|前|底|内)|(?:(?:下|本|这)个?月)?\s*{_COUNT_ZH}\s*[日号]\s*"
               rf"(?:之前|以前|前)|(?:下|本|这)个?(?:周|星期|月|季度)"
               rf"[一二三四五六日天]?(?:之前|以前|前|底|末|内|上线|完成|交付|发布|做完|能用)|"
               rf"{_COUNT_ZH}\s*(?:天|周|个?星期|个?月)(?:之内|以内|内)|(?:年|月|季度)(?:底|末)(?:之前|以前|前)?|节前|"
               # a holiday or the school year ("国庆前", "暑假之前", "开学前", "过年以前")
               rf"(?:{_COUNT_ZH}月份?)?(?:国庆|春节|元旦|五一|十一|中秋|端午|清明|寒假|暑假|放假|开学|期中|期末|年前|过年|双十一|618)(?:节)?(?:之前|以前|前)"),
)
# A team's size is its load, not a role: "a three-person team", "a team of 5", "the 4 of us". Not "a member" alone,
# one of the records ("look up a member's points").
_SIZE_EN = _COUNT_EN.replace("|a|", "|", 1)
TEAM_SIZE = re.compile(rf"\b{_SIZE_EN}[- ](?:person|people|member|man|user)\b(?:\s+(?:team|office|shop|company|business|group))?|"
                       rf"\bteam\s+of\s+{_COUNT_EN}\b(?:\s+(?:people|persons))?|\b(?:the\s+)?{_COUNT_EN}\s+of\s+us\b",
                       re.IGNORECASE)
# A time that picks which records, not when to ship: after a verb of showing or finding them ("show orders
# before March", "export the invoices until Friday") or a word of when a record was made ("orders placed
# before May"); in Chinese a time that qualifies a noun ("3月前的订单", "本月底的账单").
_RECORD_TIMES = (
    re.compile(r"\b(?:show|list|display|view|see|filter|find|search|look up|export|import|count|sum|total|delete|"
               r"archive|hide|include|exclude|sort|print|fetch|query|download|compare)(?:s|es|ed|ing)?\b"
               r"(?:\s+(?!(?:by|before|until|till|after|since)\b)[\w'-]+){0,5}\s+(?:before|until|till|after|since)\s+\S+|"
               r"\b(?:placed|created|made|dated|submitted|posted|sent|received|paid|booked|opened|closed|logged|"
               r"recorded|entered|added|issued|signed|uploaded|published)\s+(?:before|until|till|after|since|by)\s+\S+",
               re.IGNORECASE),
    re.compile(rf"(?:{_DEADLINE_PATTERNS[-1].pattern})的"),
    # How soon someone must act on a thing, a rule of the work ("pays them within 30 days", "replies to each
    # ticket in 2 days"): the verb of the work stands before it, not one of finishing the project ("live in 2 weeks").
    re.compile(rf"\b(?:pay|paid|reply|replies|replied|respond|answer|approve|review|process|refund|resolve|confirm|"
               rf"acknowledge|handle|fix|return|reimburse|contact|call|grade|mark|assess|evaluate|score|inspect|"
               rf"deliver|dispatch|collect|visit|repair|clean|treat|ship|send|sign|check)(?:s|es|ed|d|ing)?\b"
               rf"(?:\s+(?!(?:in|within|and|but|then|so|must|should|will|be|go|live|ready|done)\b)[\w'-]+){{0,4}}\s+"
               rf"(?:in|within)\s+{_COUNT_EN}\s+(?:business\s+|working\s+)?(?:days?|weeks?|months?|hours?)\b",
               re.IGNORECASE),
    # When something is done, not when it is due: a time that recurs ("每个月底看一次汇总") or one followed at once
    # by what is done then ("店长月底看汇总", "月底导出工资表"); "月底前上线", "月底要用上" stay deadlines.
    re.compile(r"每(?:个|周|月|天|年)?\s*(?:月底|月初|月中|周末|周[一二三四五六日天]|季度末|年底|早上|晚上|下班前|上班前)|"
               r"(?:月底|月初|月中|周末|季度末|年底)(?=看|查|导出|汇总|统计|对账|发|开会|盘点|结算|复盘|整理)"),
)
# A span of time after a count is a deadline or a duration ("in 2 weeks"), not how many use it.
_TIME_UNITS_EN = r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|times?)\b"
_NUMBER_EN = r"\d[\d,.]*\+?\s*[km]?"
_PER_EN = r"(?:a|an|per|each|every)\s+(?:second|minute|hour|day|week|month|year)\b"
# How many of anything, said roughly ("about 50 of them", "大约300单", "200多名员工") or as a rate ("300 bookings
# a week", "每月300单"): the count is the load whatever it counts, so no list of nouns can hold them all.
_ROUGHLY_EN = r"(?:about|around|roughly|approximately|nearly|almost|over|more than|up to|some|maybe|perhaps|probably|~)"
_ROUGHLY_ZH = r"(?:大约|大概|差不多|将近|超过|不到|约有|约为|(?<![预签合节公邀制])约)"
# Not a lone 一 ("每周一份周报", "大约一个月" say how often or how long) nor a span of time after the classifier.
_MANY_ZH = r"(?:\d[\d,]*|[两三四五六七八九十百千][一二两三四五六七八九十百千]*|一[十百千万][一二两三四五六七八九十百千]*)"
_CLASSIFIERS_ZH = r"(?:个|名|位|家|条|单|笔|件|台|间|所|户|份|辆|人)(?!月|星期|小时|钟头|工作日|周|季度)"
# Digits with whatever counts them ("50桌", "300杯"): after a word of roughly or of a rate, any classifier will do,
# but for a time of day or a date ("每天8点", "每月15号").
_COUNTED_ZH = (rf"(?:{_MANY_ZH}\s*[万千百]?\s*[多余来]?\s*{_CLASSIFIERS_ZH}|"
               rf"\d[\d,.]*\s*[万千百]?\s*[多余]?\s*(?![天日号周月年点时分秒]|个?(?:月|星期|小时|钟头))[\u4e00-\u9fff])")
# The kinds of software a request makes, which the words before them qualify ("员工考勤系统").
SOFTWARE_ZH = r"系统|小程序|程序|平台|工具|应用|网站|软件|后台|看板|App|APP|app"
_SCALE_PATTERNS = (
    TEAM_SIZE,
    # "50 shops", "10 GB of logs", "2,000 users", "within 2 seconds"
    re.compile(r"\b\d[\d,.]*\s*[km]?\s*(?:users|people|persons|shops|stores|branches|customers|requests|orders|records|"
               r"rows|items|products|employees|students|visitors|devices|transactions|messages|files|gb|tb|mb)\b|"
               r"\b(?:within|under|below|in)\s+\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?)\b", re.IGNORECASE),
    # "about 50 of them", "around 120 volunteers", "300 bookings a week"
    # and what the asker has or serves ("we run 12 cafes", "our clinic serves 300 patients"): the count is what is
    # said. The asker's only: "students have 2 attempts per quiz" is a rule, not a load.
    re.compile(rf"\b(?:(?:we|I)\s+(?:have|run|own|operate|manage|serve|employ)|"
               rf"our\s+(?:[\w-]+\s+){{1,2}}?(?:has|runs|owns|operates|manages|serves|employs))\s+"
               rf"(?P<said>{_NUMBER_EN}\s+(?!{_TIME_UNITS_EN})[a-z][\w-]*)", re.IGNORECASE),
    re.compile(rf"\b{_ROUGHLY_EN}\s+{_NUMBER_EN}\s+(?!{_TIME_UNITS_EN})(?:of\s+(?:them|us)\b|[a-z][\w-]*)(?:\s+{_PER_EN})?|"
               rf"\b{_NUMBER_EN}\s+(?!{_TIME_UNITS_EN})[a-z][\w-]*s\s+{_PER_EN}", re.IGNORECASE),
    # How many places or things it serves, whatever they are: "a dashboard for 3 warehouses", "across our five
    # clinics", "covering 12 classes"; not a span of time ("for 2 weeks").
    re.compile(rf"\b(?:for|across|serving|covering|spanning|used\s+(?:by|in|at))\s+(?:(?:all|each|the|our|my|its|their)\s+)?"
               rf"(?P<said>(?:\d[\d,]*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|dozens\s+of|"
               # a plural, or a group noun that is one without an s ("for our 40 staff")
               rf"hundreds\s+of|several)\s+(?!{_TIME_UNITS_EN})(?:[a-z][\w-]*s|staff|people|personnel|children|crew))\b",
               re.IGNORECASE),
    # The Chinese of it: "覆盖3个仓库", "给5个门店用的", and what the asker has ("我们有三个仓库").
    re.compile(rf"(?:给|供|覆盖|服务|管理|连接|对接|面向|(?:我们|咱们|我|公司|学校)(?:一共|总共|共)?有)\s*"
               rf"(?P<said>{_MANY_ZH}\s*[万千百]?\s*[多余]?\s*{_CLASSIFIERS_ZH}[\u4e00-\u9fff]{{1,4}}?)"
               rf"(?=的|用|使用|[，。；,;.和及与、\s]|$)"),
    # "只有3个人用", "200个员工", "1万条订单", "10GB日志", "2秒内"; not the kind of a thing to make ("一个员工考勤系统",
    # "一套门店管理系统": one system, about staff).
    re.compile(rf"{_COUNT_ZH}\s*[万千百]?\s*[多余]?\s*(?:个|名|位|家|条)?\s*(?:人|用户|员工|学生|门店|店|商品|订单|记录|设备|"
               rf"GB|TB|MB|G\b|T\b)(?![\u4e00-\u9fff]{{0,6}}?(?:{SOFTWARE_ZH}))|{_COUNT_ZH}\s*秒(?:之内|以内|内)", re.IGNORECASE),
    # "每月大约300单", "大概每天10万条", "大概40台设备", "200多名", "50家左右"
    re.compile(rf"(?:{_ROUGHLY_ZH}\s*)?每\s*(?:个)?(?:天|日|周|星期|月|季度?|年|小时)\s*{_ROUGHLY_ZH}?\s*有?\s*{_COUNTED_ZH}|"
               rf"{_ROUGHLY_ZH}\s*有?\s*{_COUNTED_ZH}|"
               rf"{_MANY_ZH}\s*[万千百]?\s*[多余]\s*{_CLASSIFIERS_ZH}|"
               rf"{_COUNTED_ZH}\s*左右"),
)

# A clause that is only a count of who or what it serves ("…, 2 teachers", "2 dentists, 1 receptionist", "，3个老师"):
# said as an aside, it is the load, whatever it counts. A word count needs a plural ("two teachers"; "One booking
# page." names the thing), a Chinese numeral its classifier ("三个老师"; "三级审批" is a rule, not a load).
_COUNT_ALONE_EN = (rf"(?:\d[\d,]*\s+(?!{_TIME_UNITS_EN})[a-z][\w-]*|(?:two|three|four|five|six|seven|eight|nine|ten|"
                   rf"twelve|twenty|a few|several)\s+(?!{_TIME_UNITS_EN})[a-z][\w-]*s)")
_COUNT_ALONE_ZH = (rf"(?:{_MANY_ZH}\s*[万千百]?\s*[多余]?\s*{_CLASSIFIERS_ZH}|\d[\d,]*\s*[万千百]?\s*[多余]?\s*"
                   rf"(?![天日号周月年点时分秒]|个?(?:月|星期|小时|钟头)))(?:[\u4e00-\u9fff]{{1,6}}|[A-Za-z][\w-]*)")
_SCALE_PATTERNS += (
    re.compile(rf"(?:^|(?<=[,;:(，；：（。！？])|(?<=[.!?]\s))\s*(?:(?:just|only|about|around|roughly)\s+|只有|就|共|一共|总共|大概|大约)?"
               rf"(?P<said>(?:{_COUNT_ALONE_EN}|{_COUNT_ALONE_ZH})(?:\s*(?:,|and|&|、|和|大概|大约|差不多|一共|总共|共)\s*(?:{_COUNT_ALONE_EN}|{_COUNT_ALONE_ZH}))*"
               rf"(?:\s+(?:per|a|an|each|every)\s+[a-z]+)?)"
               rf"\s*(?=$|[,;.!?)，；。！？）])", re.IGNORECASE | re.MULTILINE),
)

# A count that picks which records to show, not how many there are ("the last 3 orders", "top 10 products",
# "最近5条订单", "前10名"): what it covers settles no load.
# A limit the work keeps, which is a rule, not its load ("每个时段满10人自动关闭", "最多借3本", "at most 3 books per member",
# "capped at 20 sign-ups").
_LIMITS = (
    re.compile(rf"(?:满|最多|至多|不超过|不能超过|不得超过|上限|限额?|限报)\s*{_COUNT_ZH}\s*(?:个|名|位|人|次|件|本|单|张|份)"),
    re.compile(r"\b(?:at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|max(?:imum)?\s+of|capped\s+at|"
               r"limited\s+to|a\s+limit\s+of)\s+\d[\d,]*(?:\s+[a-z][\w-]*)?", re.IGNORECASE),
)
_RECORD_COUNTS = (
    re.compile(r"\b(?:last|latest|first|top|bottom|next|previous|past|recent|newest|oldest)\s+\d[\d,]*\s+[a-z][\w-]*",
               re.IGNORECASE),
    re.compile(rf"(?:最近|最新|最后|前|后|近)\s*{_COUNT_ZH}\s*(?:条|个|笔|单|名|位|次|件|张)[\u4e00-\u9fff]{{0,4}}"),
)

# A law or standard it must meet is an access rule: "must comply with HIPAA", "GDPR-compliant", "需要符合等保三级要求".
# Unlike who may do what, it is nothing to build by itself: a clause saying only this is no scope item.
COMPLIANCE_PATTERNS = (
    re.compile(r"\b(?:comply|complies|complying|compliant|compliance)\s+with\s+(?:the\s+)?[\w-]+|"
               r"\b[A-Z][\w-]*[- ]compliant\b|\b(?:SOC\s?2|HIPAA|GDPR|PCI(?:[- ]DSS)?|ISO\s?27001|SOX)\b"),
    re.compile(r"(?:符合|满足|遵守|通过)[^，。；,;]{0,8}?(?:等保|合规|隐私|法规|规定|标准|认证)"),
)
_ACCESS_PATTERNS = (
    # Who alone may see or change it is an access rule: "only HR staff may see salaries", "只有店长能修改价格".
    # Any act kept to some ("only the front desk can cancel a booking"), not using it at all ("only 3 people can use
    # it" is the team's size).
    # Whatever the act ("only the manager can unfreeze it"), but using it, being or having (a count of who uses it).
    re.compile(r"\bonly\s+(?!\d)(?:[\w-]+\s+){1,3}(?:may|can|should|could|are allowed to|is allowed to)\s+"
               r"(?!(?:use|be|have|get|log\s+in|sign\s+in|see\s+it|access\s+it)\b)[a-z]+", re.IGNORECASE),
    *COMPLIANCE_PATTERNS,
    # signing in through an account elsewhere ("staff sign in with Google", "log in via SSO"): not a visitor who
    # signs in at a kiosk, which is a record of the visit
    re.compile(r"\b(?:sign|log)(?:s|ged|ging)?[\s-]*(?:in|on)\s+(?:with|using|via|through)\s+\S+", re.IGNORECASE),
    re.compile(r"(?:只有|只能由|仅限?)[^，。；,;]{1,12}?(?:才)?(?:能|可以|可)(?:查看|看到|访问|修改|编辑|审批|审核|删除|取消|撤销|退款|导出|下载|发布|关闭|分配|确认|驳回|打折|改价|授权|作废|开票|"
               r"调整|看|见|改|删|退)"),  # the longer verb first
)

# A thing anyone may use without an account ("anyone may sign up, no accounts needed", "无需登录，谁都能报名"): its
# access rule is said, and no sign-in is planned.
_OPEN_TO_ANYONE = re.compile(
    r"\b(?:anyone|anybody|everyone|the\s+public)\s+(?:can|may|could|is\s+able\s+to)\b|"
    r"\bno\s+(?:user\s+)?(?:accounts?|log-?ins?|sign-?ins?|registration)\s*(?:needed|required|necessary)?\b|"
    r"\bwithout\s+(?:an?\s+|any\s+)?(?:(?:user\s+)?accounts?|log-?ins?|logging\s+in|sign-?ins?|signing\s+in|registering)\b|"
    r"(?:无需|不需要|不用|不必|免)(?:登录|登陆|注册|账号|帐号)|(?:任何人|谁)都(?:能|可以)", re.IGNORECASE)


def open_to_anyone(requirement: str) -> bool:
    """Whether the requirement says anyone may use it, with no account ("no login needed", "无需注册")."""
    return _OPEN_TO_ANYONE.search(requirement or "") is not None


# A product's name is written here with its capitals, a common noun in small letters ("website"): how an answer
# that opens with a capital is set in the plan ("through Slack", "through the website") — see Topic.names_a_product.
# What done means, said in the requirement ("done when every week exports to a CSV", "验收标准是十个人同时预约不冲突"):
# the plan's success measure, in its words.
_SUCCESS_PATTERNS = (
    re.compile(r"\b(?:(?:it\s+is\s+|it's\s+)?done\s+when|success\s+(?:means|is\s+when)|acceptance\s+criteri(?:a|on)\s*"
               r"(?:is|are|:))\s+(?P<said>[^.;!?]+)", re.IGNORECASE),
    re.compile(r"(?:验收标准|成功标准|完成标准)(?:是|为|：|:)\s*(?P<said>[^，。；！？]+)"),
)

# How long copies are kept, said with a span or a count ("keep 14 days of backups", "keep the last 10", "delete them
# after a year", "保留30天", "保留最近7份", "只留一个月", "超过90天的删掉").
_RETENTION_PATTERNS = (
    re.compile(rf"\b(?:keep|keeps|kept|keeping|retain|retains|retained|hold|store|stored)\b(?:\s+[\w']+){{0,3}}?\s+"
               rf"(?:for\s+)?(?:the\s+)?(?:last\s+|latest\s+|past\s+)?{_COUNT_EN}\s+(?:days?|weeks?|months?|years?|copies|"
               rf"backups?|versions?|snapshots?|files?|exports?)\b(?:\s+of\s+\w+)?|"
               rf"\b(?:delete|remove|purge|drop|prune|rotate)\w*\b(?:\s+[\w']+){{0,3}}?\s+(?:after|older\s+than)\s+"
               rf"(?:a|an|one|{_COUNT_EN})\s+(?:days?|weeks?|months?|years?)\b|\bforever\b", re.IGNORECASE),
    re.compile(rf"(?:保留|保存|留存|只留|留)\s*(?:最近|最新)?\s*{_COUNT_ZH}\s*(?:天|日|周|个?星期|个?月|年|份|个|次|版)|"
               rf"(?:超过|超出|早于)\s*{_COUNT_ZH}\s*(?:天|周|个?星期|个?月|年)[^，。；！？]{{0,6}}?(?:删|清理|清除)|永久保留|一直保留"),
    # how many copies, said alone ("7 copies", "10份", "最近5个备份"): only a retention counts copies
    re.compile(rf"\b{_COUNT_EN}\s+(?:daily\s+|weekly\s+|monthly\s+)?(?:copies|backups|versions|snapshots)\b|"
               rf"(?:最近|最新)?\s*{_COUNT_ZH}\s*(?:份|个备份|个版本)", re.IGNORECASE),
)

# No time pressure, said of the deadline alone ("no rush", "there's no hurry really", "时间上不着急", "慢慢来").
_NO_DEADLINE = re.compile(
    r"(?:(?:there(?:'s|\s+is)|it's|it\s+is|we're|we\s+are)\s+)?(?:(?:really|honestly)\s+)?"
    r"(?:no\s+(?:rush|hurry|(?:fixed\s+|hard\s+|real\s+|set\s+)?deadline|time\s+pressure|urgency)|not\s+urgent|"
    r"not\s+(?:in\s+a\s+)?(?:rush|hurry)|whenever|any\s*time|take\s+your\s+time)(?:\s+(?:at\s+all|really|though))?|"
    r"(?:时间上?|工期上?|上线)?(?:真的|也|并|都)?(?:不急|不着急|不赶|不赶时间|没有?(?:截止(?:时间|日期)?|deadline|期限|时间要求))"
    r"(?:的|啦|哈|吧|呢)?|慢慢来|慢慢做", re.IGNORECASE)

# Words that say a job runs on a schedule or sends its result, and the thing that delivers it then.
_DELIVERED_BY_A_JOB = {"nightly": "scheduled_job", "every night": "scheduled_job", "every morning": "scheduled_job",
                       "cron": "scheduled_job", "每天凌晨": "scheduled_job", "每晚": "scheduled_job", "定时": "scheduled_job",
                       "emails": "email", "emailed": "email", "mails": "email", "发邮件": "email"}

# What a job hands its result over by, which no one signs in to.
_JOB_OUTPUTS = ("email", "e-mail", "scheduled job", "cron job", "batch job", "text message", "SMS", "report file",
                "PDF report", "Excel report", "CSV file", "定时任务", "定时脚本", "邮件", "邮箱", "短信", "报表文件")
# Sheets people open themselves: the thing they use when the requirement names no app or page beside one.
SHEETS = ("spreadsheet", "sheet", "Google Sheets", "Google Sheet")


def only_sends_or_schedules(word: str) -> bool:
    """Whether an interface word says how a result is sent or when a job runs ("短信", "email", "nightly"), not what
    a person opens to use it: beside an app ("小程序", "web page"), the app is the entry point, these its reminders."""
    return word.lower() in {w.lower() for w in (*_DELIVERED_BY_A_JOB, *_JOB_OUTPUTS)}


# A job that runs by itself: a data job by name ("a nightly ETL", "a sync pipeline", "定时任务", "跑批"), or a thing made
# on a schedule ("a weekly report", "every Monday … email the summary", "每周一自动生成报表").
_RUNS_BY_ITSELF = (
    re.compile(r"\b(?:etl|elt|(?:data\s+)?pipeline|cron|nightly|scheduled|batch\s+job|"
               r"(?:hourly|daily|weekly|monthly|quarterly|nightly)\s+(?:[\w-]+\s+){0,3}?"
               r"(?:reports?|digests?|summar(?:y|ies)|exports?|backups?|syncs?|imports?|emails?|extracts?|roll-?ups?)|"
               rf"every\s+(?:night|morning|evening|day|week|month|hour|{_DAYS})|"
               # a run every so often ("every 15 minutes", "every few hours")
               r"every\s+(?:\d+|few|couple\s+of)\s+(?:minutes|hours)|"
               # a reminder sent a while before what it reminds of ("an SMS reminder the day before their appointment")
               r"remind(?:ers?|s|ed)?\b[^.;]{0,60}?\b(?:the\s+day|(?:an?|one|\d+|two|three)\s+(?:hours?|days?|weeks?))\s+"
               r"(?:before|ahead\s+of|prior\s+to)\b)\b", re.IGNORECASE),
    re.compile(r"定时|跑批|凌晨|数据同步|每晚|每夜|"
               # a day and a time of it ("每天早上8点", "每周五下午"): when it runs, so it runs by itself
               r"每(?:天|日|晚|周[一二三四五六日天]?|星期[一二三四五六日天]|个?月\d*号?)(?:的)?(?:早上|早晨|上午|中午|下午|傍晚|晚上|"
               r"\d{1,2}\s*[点:：])|"
               # a day of the month ("每月5号", "每个月1日", "每月初"): when it runs, as a time of day is
               r"每个?月\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*[号日]|每个?月(?:初|底|末)(?=[^，。；！？]{0,12}?(?:发|推送|导出|生成|汇总|同步|备份))|"
               r"提前(?:一|两|三|半|\d+)(?:天|个?小时|分钟)[^，。；！？]{0,12}?(?:提醒|通知)|每(?:个|周|月|天|日|晚|小时)?[一二三四五六日天]?[^，。；！？]{0,16}?"
               r"(?:自动|(?:同步|备份|导出|导入)(?:到|至)|(?:发|发送|推送)[^，。；！？]{0,6}?(?:到|至)[^，。；！？]{0,6}?群)|"
               r"每(?:个|周|月|天|日|晚)[一二三四五六日天]?[^，。；！？]{0,8}?(?:生成|汇总|导出|同步|备份)[^，。；！？]{0,8}?"
               r"(?:报表|报告|汇总|数据|表)"),
)

# Mail that comes in, which a tool reads or sorts: its input, not how anyone uses it ("sort support emails", "tag
# incoming e-mails", "emails from customers", "整理客户邮件", "把收到的邮件分类").
_MAIL_COMING_IN = (
    re.compile(r"\b(?:sort|triage|read|parse|classify|categori[sz]e|tag|label|route|filter|scan|process|import|"
               r"archive|summari[sz]e|answer|reply\s+to|respond\s+to|go\s+through|clean\s+up|organi[sz]e|prioriti[sz]e|"
               r"extract\s+\w+\s+from)(?:s|es|ed|d|ing)?\s+(?:(?:the|our|my|all|each|every|new)\s+)?"
               r"(?:[\w'-]+\s+){0,2}?e-?mails?\b|"
               r"\b(?:incoming|inbound|support|customer|client|unread|received|spam)\s+e-?mails?\b|"
               r"\be-?mails?\s+(?:from|(?:that\s+)?(?:we|I)\s+(?:get|receive)|(?:that\s+)?(?:come|comes|coming|arrive|arriving)"
               r"|(?:in|into)\s+(?:the|our|my|a)\s+(?:shared\s+)?inbox)\b|\binbox(?:es)?\b", re.IGNORECASE),
    re.compile(r"(?:收到|进来|客户|客服|顾客|用户|投诉|未读)的?(?:邮件|邮箱)|(?:整理|分类|分拣|归类|筛选|处理|读取|回复|标记)"
               r"[^，。；！？]{0,6}?邮件|邮件[^，。；！？]{0,4}?(?:分类|归类|分拣|整理|筛选)|收件箱"),
)

# What is being replaced is no part of the plan ("an inventory spreadsheet replacement", "replace our Excel timesheets
# with a web page", "用小程序代替现在的Excel排班表"): the store named there is the old one, not where the data will live.
_REPLACED = (
    # the words before the noun ("an inventory spreadsheet replacement"), leaving it for "replacement for …" below
    re.compile(r"\b[\w-]+(?:\s+[\w-]+){0,2}(?=\s+(?:replacement|substitute|alternative)\b)", re.IGNORECASE),
    re.compile(r"\b(?:replac(?:e|es|ed|ing)|replacement\s+for|instead\s+of|rather\s+than|get(?:ting)?\s+rid\s+of|"
               r"(?:move|moving|migrat\w*|switch\w*)\s+(?:away\s+)?(?:off|from)|retir(?:e|es|ed|ing)|ditch\w*|"
               r"alternative\s+to|substitute\s+for|no\s+more)"
               r"(?:\s+(?!(?:with|by|to|into|for|so|and|that|which|where)\b)[\w'-]+){1,4}", re.IGNORECASE),
    re.compile(r"(?:代替|取代|替代|替换|换掉|告别|不再用|淘汰)[^，。；,;、]{0,12}|把[^，。；,;]{1,12}?(?=换成|替换成|改成|迁移到|迁到|搬到)"),
)

# A file a result is exported to is what the job hands over, not where the data lives ("export the orders to Excel",
# "导出成Excel发给人事"): the store is still to be named.
_EXPORTED_TO = (
    re.compile(r"\bexport(?:s|ed|ing)?\b(?:\s+(?!(?:to|as|into)\b)[\w'-]+){0,6}\s+(?:to|as|into)\s+(?:an?\s+|the\s+)?"
               r"(?:Excel|CSV|spreadsheet|xlsx)\b", re.IGNORECASE),
    re.compile(r"(?:导出|生成|做成|转成|输出)(?:成|为|到)?\s*(?:一[个份张])?\s*(?:Excel|excel|EXCEL|CSV|csv|表格)"),
)

_DB = ("Postgres", "PostgreSQL", "MySQL", "MariaDB", "SQLite", "MongoDB", "Mongo", "Redis", "DynamoDB",
       "Elasticsearch", "Cassandra", "ClickHouse", "Oracle", "SQL Server", "BigQuery", "Qdrant", "Snowflake", "Redshift")

# A thing wanted that names nothing it does ("做个东西", "做一个小程序", "need something for invoices"): a placeholder
# noun or a bare kind of software, with at most a word of what it is about, and no clause of what it must do
# ("to track …", "用来…"); "做一个记账小程序" says what it is for.
_VAGUE_EN = re.compile(r"^(?:(?:hi|hello|hey|please|pls)\b[\s,!]*)*(?:(?:I|we)\s+(?:really\s+)?)?"
                       r"(?:need|want|would like|'d like|make|build|create|do|get)?\s*(?:me\s+|us\s+)?(?:some|a|an)?\s*"
                       r"(?:(?:useful|good|nice|simple|handy|better|cool|great|smart)\s+)?"  # praise says nothing it does
                       # a placeholder, or a kind of software that says no more ("need an app for invoices")
                       r"(?:something|anything|thing|stuff|app|application|tool|system|website|site|program|software|"
                       r"platform|dashboard|portal|bot|chatbot)(?:\s+(?:useful|nice|good|cool|handy))?(?:\s+(?:for|about|with|around|on|related to)\s+"
                       r"(?:the\s+|my\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?"
                       # or only a wish that things go better ("to make our work easier", "that saves us time")
                       r"|\s+(?:to|that(?:\s+will)?)\s+(?:make|makes|help|helps|save|saves)\s+(?:(?:our|my|the|your|their)\s+)?"
                       r"(?:(?:work|life|lives|jobs?|days?|things|everything|us|me|everyone)\s+)?"
                       r"(?:easier|better|simpler|faster|smoother|more\s+efficient|time|out))?\s*(?:please)?[.!?]*$",
                       re.IGNORECASE)
_VAGUE_ZH = re.compile(r"^(?:你好|您好)?[，,\s]*(?:请|麻烦)?(?:帮我|帮忙|给我)?(?:我们?|咱们?)?(?:想要?|要|需要)?"
                       r"(?:做|弄|搞|写|整|开发)?(?:一?个|一?些|点)?(?:(?P<about>[^，。！？\s]{1,8}?)(?:的|相关的|方面的))?"
                       r"(?:东西|玩意儿?|系统|小程序|程序|软件|工具|小工具|应用|APP|App|app|网站|网页|平台)"
                       r"(?:吧|呗|啊)?[。！？!?.]*$")


def names_no_purpose(text: str) -> bool:
    """Whether a requirement wants a thing without a word of what it is for or must do ("做个东西",
    "need something for invoices"): then nothing else can be planned before that is asked. A thing that does
    something to something says what it is for ("一个统计接龙订单的小工具"), however short."""
    if not is_chinese(text):
        return bool(_VAGUE_EN.match((text or "").strip()))
    vague = _VAGUE_ZH.match((text or "").strip())
    # the act may open with what reads as asking ("请假的系统": not 请 + 假)
    act = re.search(r"([\u4e00-\u9fff]{2})(?:的|相关的|方面的)[^的]{1,4}$", (text or "").strip())
    return vague is not None and not (vague.group("about") and (zh_verb_object(vague.group("about"), one_character=True)
                                                                 or zh_one_act(vague.group("about"))
                                                                 or act is not None and zh_one_act(act.group(1))))


def zh_one_act(word: str) -> bool:
    """Whether a Chinese word is one act said in a single verb, as "排课", "报修", "请假" are ("一个排课的系统" says what it
    is for); not a verb so general it says nothing ("管理", "使用")."""
    import jieba.posseg  # here: its tables take half a second to load

    words = jieba.posseg.lcut(word.strip())
    return len(words) == 1 and len(word.strip()) == 2 and words[0].flag == "v" and word.strip() not in _ZH_FRAME_ACTS


# Verbs that say only that a thing is used or worked with, not what it does.
_ZH_FRAME_ACTS = {"使用", "管理", "处理", "工作", "操作", "办理", "进行", "需要", "希望", "帮助", "支持", "实现"}


# Verbs of keeping track of things, which jieba often tags as nouns read alone ("记录", "记账"): a thing that does one
# to an object says what it is for.
ZH_TRACKING_VERBS = {"记录", "登记", "统计", "管理", "预约", "预订", "查询", "追踪", "跟踪", "提醒", "计算", "核对", "盘点",
                      "收集", "整理", "汇总", "打印", "导出", "导入", "录入", "生成", "排班", "报名", "审批", "记账"}
# Words that point at whose the object is ("自己", "我的", "每天"): no part of its name.
_ZH_POINTERS = re.compile(r"(?:自己|我们?|咱们?|他们?|每天|每周|每月|所有|全部|各种)的?")


# How a thing is done, which jieba may tag a verb ("自动发邮件", "在线预约"): no act of its own.
_ZH_MANNERS = {"自动", "在线", "定时", "实时", "批量", "手动", "及时", "随时", "统一", "集中", "远程"}


# One-character verbs of the request's frame, which say nothing the thing does ("做个", "有关", "用来").
_ZH_FRAME_VERBS = {"做", "弄", "搞", "整", "有", "是", "用", "要", "让", "给", "帮", "在", "会", "能", "想", "跟", "和"}


def zh_verb_object(phrase: str, one_character: bool = False) -> tuple[str, str] | None:
    """A Chinese phrase of doing something to something, as (verb, object) ("统计接龙订单" → ("统计", "接龙订单"),
    "记录自己读书笔记" → ("记录", "读书笔记")); None when it is not one ("跟钱有关", "好用", "管理")."""
    import jieba.posseg  # here: its tables take half a second to load, which most requirements never need

    phrase = phrase.strip()
    words = jieba.posseg.lcut(phrase)
    if len(words) < 2:
        return None
    verb = words[0]
    # a one-character verb ("收班费", "记账") says what a thing does, though a name made of it reads badly ("班费收…")
    if one_character and len(verb.word) == 1 and verb.flag == "v" and verb.word not in _ZH_FRAME_VERBS:
        pass
    elif len(verb.word) != 2 or not (verb.word in ZH_TRACKING_VERBS or verb.flag in {"v", "vn"}) or verb.word in _ZH_MANNERS:
        return None
    rest = _ZH_POINTERS.sub("", phrase[len(verb.word):])
    # an object, not a second act or a whole clause ("帮家长在线预约课程", "提醒没交作业的学生"): a few characters,
    # Chinese only, with no 的 of a clause that qualifies it
    if not 2 <= len(rest) <= 8 or not all(CJK.match(ch) for ch in rest) or "的" in rest:
        return None
    return verb.word, rest


def _said(key: str) -> tuple[str, str]:
    """A topic's sentence from the catalogue (core/messages/requirement_topics.toml) as (en, zh): the plan is
    written in its requirement's language, whatever the reader's locale."""
    texts = catalogue()[f"requirement_topics.{key}"]
    return texts["en"], texts["zh"]


TOPICS: tuple[Topic, ...] = (
    Topic(
        id="q_purpose",
        label=_said("q_purpose_label"),
        blocking=True,
        priority=1,  # first among equals: it comes first in the catalogue and the sort is stable
        # Settled unless the requirement names nothing it must do (names_no_purpose), or by an answer;
        # never by the repository's docs, which do not know what the new thing is for.
        keywords=(),
        doc_keywords=(),
        query="",
        question=_said("q_purpose_question"),
        why=_said("q_purpose_why"),
        impact=_said("q_purpose_impact"),
        fallback=_said("q_purpose_fallback"),
    ),
    Topic(
        id="q_target_users",
        label=_said("q_target_users_label"),
        blocking=True,
        priority=1,
        keywords=("customer", "customers", "admin", "admins", "administrator", "administrators", "operator",
                  "operators", "staff", "employee", "employees", "student", "students", "teacher", "teachers",
                  "merchant", "merchants", "seller", "sellers", "buyer", "buyers", "developers", "analysts",
                  # Roles only: not "driver", "manager" or "reader", which are also software ("device driver").
                  "resident", "residents", "tenant", "tenants", "landlord", "landlords", "homeowner", "homeowners",
                  "patient", "patients", "doctor", "doctors", "nurse", "nurses", "parent", "parents", "rider",
                  "riders", "passenger", "passengers", "visitor", "visitors", "guest", "guests", "volunteer",
                  "volunteers", "technician", "technicians", "courier", "couriers", "shopper", "shoppers",
                  "subscriber", "subscribers", "auditor", "auditors", "neighbours", "neighbors",
                  "audience", "persona", "end users", "target users", "internal team",
                  "客户", "管理员", "运营", "员工", "学生", "老师", "教师", "商家", "卖家", "买家", "开发者",
                  "分析师", "业主", "居民", "住户", "租户", "房东", "顾客", "会员", "患者", "病人", "医生",
                  "护士", "家长", "司机", "乘客", "骑手", "师傅", "维修工", "读者", "作者", "访客", "游客",
                  "志愿者", "店员", "店长", "审核员", "客服", "邻居", "街坊",
                  # posts named by what they keep, whose last character ends no other person ("宿管每天查寝")
                  "宿管", "仓管", "库管",
                  "目标用户", "用户群", "面向"),
        doc_keywords=("target users", "intended for", "designed for", "audience", "persona", "目标用户",
                      "用户群", "面向"),
        query="target users audience persona intended for 目标用户 面向",
        question=_said("q_target_users_question"),
        why=_said("q_target_users_why"),
        impact=_said("q_target_users_impact"),
        fallback=_said("q_target_users_fallback"),
        fallback_new=_said("q_target_users_fallback_new"),
        question_unattended=_said("q_target_users_question_unattended"),
        fallback_unattended=_said("q_target_users_fallback_unattended"),
        keywords_name_it=True,
    ),
    Topic(
        id="q_success_metric",
        label=_said("q_success_metric_label"),
        blocking=True,
        priority=1,
        keywords=("success", "metric", "metrics", "kpi", "acceptance", "done when", "measurable", "measure",
                  "sla", "slo", "指标", "验收", "成功标准", "衡量", "目标值"),
        doc_keywords=("acceptance criteria", "success metric", "success metrics", "kpi", "sla", "slo",
                      "验收标准", "成功标准", "指标"),
        query="acceptance criteria success metric kpi sla 验收标准 指标",
        patterns=_SUCCESS_PATTERNS,
        question=_said("q_success_metric_question"),
        why=_said("q_success_metric_why"),
        impact=_said("q_success_metric_impact"),
        fallback=_said("q_success_metric_fallback"),
        question_unattended=_said("q_success_metric_question_unattended"),
        fallback_unattended=_said("q_success_metric_fallback_unattended"),
    ),
    Topic(
        id="q_retention",
        label=_said("q_retention_label"),
        blocking=True,  # removing copies too soon loses data nobody can get back
        priority=2,
        keywords=("retention", "retain", "retained", "保留期", "保存期", "留存"),
        doc_keywords=("retention", "保留期", "保留策略"),
        query="backup retention keep days 备份 保留",
        patterns=_RETENTION_PATTERNS,
        question=_said("q_retention_question"),
        why=_said("q_retention_why"),
        impact=_said("q_retention_impact"),
        fallback=_said("q_retention_fallback"),
        asked_of=lambda requirement: keeps_copies(requirement),  # defined below, with the jobs
    ),
    Topic(
        id="q_data_store",
        label=_said("q_data_store_label"),
        blocking=True,
        priority=2,
        keywords=(*_DB, "database", "data warehouse", "数据仓库", "数仓", "object storage", "对象存储", "S3", "OSS", "COS", "GCS",
                  "Azure Blob", "Backblaze", "NAS", "网盘", "in-memory",
                  "no persistence", "flat file", "Excel",
                  "spreadsheet", "sheet", "Google Sheets", "Google Sheet", "Airtable", "飞书表格", "飞书多维表格", "多维表格",
                  "数据库", "存储", "持久化", "缓存"),
        doc_keywords=(*_DB, "database", "数据库", "持久化"),
        query="database storage persistence " + " ".join(_DB) + " 数据库 存储 持久化",
        question=_said("q_data_store_question"),
        why=_said("q_data_store_why"),
        impact=_said("q_data_store_impact"),
        fallback=_said("q_data_store_fallback"),
        fallback_new=_said("q_data_store_fallback_new"),
        keywords_name_it=True,
        named_as=_said("q_data_store_named_as"),
        none_is_an_answer=True,
        not_in=(*_REPLACED, *_EXPORTED_TO),
    ),
    Topic(
        id="q_interface",
        label=_said("q_interface_label"),
        blocking=False,
        priority=2,
        keywords=("api", "rest", "graphql", "grpc", "endpoint", "ui", "web", "page", "screen", "cli", "command",
                  "command-line tool", "command line tool", "command line",
                  "button", "form", "mobile app", "app", "website", "dashboard", "Android", "iOS", "desktop app",
                  "chatbot", "bot", "mini program", "WeChat", "phone", "phones", "smartphone", "smartphones", "tablet",
                  "tablets", "iPad", "iPads", "kiosk", "kiosks", "touchscreen", "Slack", "WhatsApp", "Telegram", "Discord",
                  "接口", "页面", "界面", "命令行", "按钮", "表单", "小程序", "公众号", "网站", "网页", "后台",
                  "移动端", "安卓", "桌面端", "聊天机器人", "手机", "平板", "自助机", "自助终端", "一体机", "触摸屏", "大屏", "钉钉", "企业微信", "飞书", "微信", "电脑",
                  "电脑端", "PC端",
                  # a thing the asker names as where people go ("a shared board", "our intranet"); a bare
                  # "tool" is not: how a tool is used (a page, a command, a job) is still to ask; a board alone may be
                  # people ("the board approves"), so only one that is a thing is named
                  "shared board", "online board", "notice board", "noticeboard", "message board", "task board",
                  "kanban board", "sign-up board", "signup board", "whiteboard", "portal", "intranet",
                  # used on the web without naming the page ("patients book online", "网上预约")
                  "online", "在线", "线上", "网上",
                  # a sheet people open and fill in ("a shared budget sheet"): where they use it, when nothing else is
                  *SHEETS,
                  # how a data job is delivered: it runs on a schedule and sends what it made ("a nightly pipeline
                  # that emails a summary", "每天定时把报表发到邮箱")
                  *_DELIVERED_BY_A_JOB, *_JOB_OUTPUTS),
        doc_keywords=("rest api", "http api", "graphql", "grpc", "web ui", "command line", "cli", "接口文档"),
        query="api endpoint web ui cli command line interface 接口 页面 命令行",
        question=_said("q_interface_question"),
        why=_said("q_interface_why"),
        impact=_said("q_interface_impact"),
        fallback=_said("q_interface_fallback"),
        fallback_new=_said("q_interface_fallback_new"),
        fallback_unattended=_said("q_interface_fallback_unattended"),
        keywords_name_it=True,
        named_as=_said("q_interface_named_as"),
        said_of=(*((word, _said("web_page")) for word in ("online", "在线", "线上", "网上")),
                 *((word, _said(thing)) for word, thing in _DELIVERED_BY_A_JOB.items())),
        # a call, not a phone app: "receptionists confirm by phone", "over the phone", "a phone call"; and mail that
        # comes in is what the tool works on, not how it is used ("a tool to sort support emails")
        not_in=(re.compile(r"\b(?:by|over\s+the)\s+(?:tele)?phones?\b|\b(?:tele)?phone\s+calls?\b", re.IGNORECASE),
                *_MAIL_COMING_IN,
                # a sheet kept in a chat suite is where the data lives, not how it is used ("同步到飞书多维表格")
                re.compile(r"(?:飞书|钉钉|企业微信|腾讯)(?:多维)?(?:表格|文档)"),
                # a sheet being replaced or exported to is not how the new thing is used
                *_REPLACED, *_EXPORTED_TO),
    ),
    Topic(
        id="q_deadline",
        label=_said("q_deadline_label"),
        blocking=False,
        priority=3,
        # Not "week" or "month" alone: "booked up to 2 weeks ahead", "a month of history" say no deadline; the
        # patterns read "in two weeks", "by next month".
        keywords=("deadline", "due", "by end of", "sprint", "quarter",
                  "milestone", "asap", "urgent", "截止", "上线", "工期", "月底", "季度", "里程碑", "尽快"),
        doc_keywords=("roadmap", "milestone", "deadline", "里程碑", "路线图", "截止"),
        query="roadmap milestone deadline release schedule 里程碑 路线图 截止",
        patterns=_DEADLINE_PATTERNS,
        not_in=_RECORD_TIMES,
        said_no_by=_NO_DEADLINE,
        question=_said("q_deadline_question"),
        why=_said("q_deadline_why"),
        impact=_said("q_deadline_impact"),
        fallback=_said("q_deadline_fallback"),
        question_own=_said("q_deadline_question_own"),
        fallback_own=_said("q_deadline_fallback_own"),
    ),
    Topic(
        id="q_scale",
        label=_said("q_scale_label"),
        blocking=False,
        priority=3,
        keywords=("qps", "rps", "tps", "concurrent", "concurrency", "traffic", "load", "throughput", "latency",
                  "requests per", "million", "millions", "thousands", "scale", "并发", "流量", "负载", "吞吐",
                  "延迟", "日活", "规模"),
        doc_keywords=("qps", "throughput", "concurrent users", "requests per second", "并发", "吞吐",
                      "性能指标"),
        query="performance throughput latency concurrent load qps 并发 吞吐 性能",
        patterns=_SCALE_PATTERNS,
        not_in=(*_RECORD_COUNTS, *_LIMITS),
        question=_said("q_scale_question"),
        why=_said("q_scale_why"),
        impact=_said("q_scale_impact"),
        fallback=_said("q_scale_fallback"),
        question_script=_said("q_scale_question_script"),
        fallback_script=_said("q_scale_fallback_script"),
    ),
    Topic(
        id="q_security",
        label=_said("q_security_label"),
        blocking=False,
        priority=4,
        keywords=("auth", "authentication", "authorization", "login", "permission", "permissions", "rbac",
                  "oauth", "sso", "token", "gdpr", "privacy", "compliance", "encrypt", "encryption",
                  "权限", "认证", "鉴权", "登录", "合规", "隐私", "加密", "安全"),
        doc_keywords=("authentication", "authorization", "oauth", "rbac", "sso", "鉴权", "认证", "权限"),
        query="authentication authorization permissions security oauth rbac 鉴权 认证 权限 安全",
        patterns=_ACCESS_PATTERNS,
        rule_to_its_end=True,
        question=_said("q_security_question"),
        why=_said("q_security_why"),
        impact=_said("q_security_impact"),
        fallback=_said("q_security_fallback"),
        fallback_new=_said("q_security_fallback_new"),
        fallback_unattended=_said("q_security_fallback_unattended"),
        fallback_shared=_said("q_security_fallback_shared"),
    ),
)

TOPICS_BY_ID = {t.id: t for t in TOPICS}

# A bare no, said to a catalogue question ("Is there a deadline?" — "no"); punctuation and case aside.
_BARE_NO = {"no", "nope", "none", "nothing", "na", "nah", "notreally", "noneyet",
            "没有", "无", "没", "不", "否", "暂无", "暂时没有", "没有要求", "无要求", "不需要", "不用"}


def declines(topic_id: str, answer: str) -> bool:
    """Whether `answer` only says no to a catalogue topic whose fallback is what no means ("no" to the deadline:
    no fixed deadline), rather than a thing the plan could name ("none" to the data store: nothing is kept)."""
    topic = TOPICS_BY_ID.get(topic_id)
    return topic is not None and (topic.said_no_to(answer) or (
        not topic.none_is_an_answer and re.sub(r"[\W_]+", "", (answer or "").lower()) in _BARE_NO))  # "n/a" → "na"


# A date or a day said alone ("March 15", "15th of May", "2026-03-15", "next Friday", "3月15日", "下周五"): the answer
# to when, whichever question it was typed into.
_DAY_EN = rf"(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})"
_DATE_ALONE = re.compile(
    rf"(?:(?:by|before|on|until|till|due|no later than)\s+)?(?:the\s+)?(?:end\s+of\s+)?"
    rf"(?:{_DAY_EN}|(?:{_MONTHS})|\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|"
    rf"(?:(?:next|this)\s+)?(?:{_DAYS}|week|month|quarter|year|summer|winter|autumn|fall|spring)|q[1-4]|tomorrow)"
    rf"(?:,?\s+\d{{4}})?|"
    rf"(?:\d{{4}}\s*年\s*)?{_COUNT_ZH}\s*月(?:\s*{_COUNT_ZH}\s*[日号])?(?:份|底|初|中)?|(?:下|本|这)个?(?:周|星期)[一二三四五六日天]|"
    rf"(?:下|本|这)个?(?:周|星期|月|季度)(?:底|末)?|(?:下|本|这)个?月\s*{_COUNT_ZH}\s*[日号]|(?:年|月|季度)(?:底|末)|明天|后天",
    re.IGNORECASE)


# A chat group or channel a job posts its result to ("发到钉钉群", "post it to the #sales Slack channel"), or the system
# it syncs into ("同步到商城后台").
_POSTED_TO_A_CHAT = re.compile(
    # a bot that posts to a chat ("a Telegram bot that posts the weather to our group"): the chat is where it delivers
    r"\b(?:Slack|Telegram|Discord|WhatsApp|Teams)\s+bot\b[^.;,]{0,12}?\b(?:post|posts|send|sends|push|pushes)\b"
    r"[^.;,]{0,40}?\b(?:to|in|into)\s+(?:the\s+|our\s+|a\s+|my\s+)?(?:#?[\w-]+\s+)?(?:channel|group|chat)\b|"
    r"(?:钉钉|飞书|企业微信|微信|QQ)?(?:群)?机器人[^，。；！？]{0,12}?(?:发|发送|推送|推)(?:到|至)?[^，。；！？]{0,4}?群|"
    r"(?:发|发送|推送|推)(?:到|至)[^，。；！？]{0,4}?群[^，。；！？]{0,4}?的(?:钉钉|飞书|企业微信|微信|QQ)?(?:群)?机器人|"
    r"(?:发|发送|推送|推)(?:到|至)\s*(?:钉钉|飞书|企业微信|微信)?[^，。；！？]{0,4}?群|"
    r"(?:同步|导入|推送|上传)(?:到|至)[^，。；！？]{0,8}?(?:后台|系统)|"
    r"\b(?:post|posts|posted|posting|send|sends|sent|push|pushes|pushed)\b[^.;,]{0,40}?\b(?:to|in|into)\s+(?:the\s+|our\s+|a\s+)?"
    r"(?:#[\w-]+\s+)?(?:Slack|Telegram|Discord|WhatsApp|Teams)(?:\s+(?:channel|group|chat))?",
    re.IGNORECASE)


_INTO_A_SHEET = re.compile(r"\b(?:to|into|onto)\s+(?:(?:an?|the|our|my)\s+)?(?:[\w-]+\s+)?(?:spreadsheet|sheet|Google\s+Sheets?)\b",
                           re.IGNORECASE)


def runs_unattended(requirement: str) -> bool:
    """Whether a requirement is a job that runs by itself ("a nightly ETL from MySQL to BigQuery", "finance needs a
    weekly report emailed as a PDF", "每周一自动生成销售报表发到邮箱"): on a schedule, and used through nothing a
    person opens; its result is sent or stored. "Staff check in every morning in the app" is used through the app."""
    if not any(p.search(requirement or "") for p in _RUNS_BY_ITSELF):
        return False
    interface = TOPICS_BY_ID["q_interface"]
    unattended = {w.lower() for w in (*_DELIVERED_BY_A_JOB, *_JOB_OUTPUTS)}
    # a chat group it posts to is where its result goes, not something a person opens to use it
    said = _POSTED_TO_A_CHAT.sub(" ", requirement)
    # so is a sheet it writes into ("a nightly sync … to a Google Sheet"); one people fill in every day is used
    said = _INTO_A_SHEET.sub(" ", said)
    return all(word.lower() in unattended for word in interface.keywords_in(said))


# Something an app or a bot sends by itself at a time ("a WeChat bot that reminds students each evening", "每天晚上8点
# 提醒没交的学生"): a scheduled part inside a thing people use, which needs a line of its own in the plan. Only what it
# sends: "staff check in every morning in the app" is what people do.
_EVERY_EN = (r"(?:each|every)\s+(?:night|morning|evening|afternoon|day|weekday|week|month|hour|"
             r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:\s+at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?)?|"
             # a while ahead of what it is about ("an email the day before", "a text 2 hours before")
             # with what it is ahead of, when said ("15 minutes before each meeting", "the night before each match")
             r"(?:the\s+(?:day|night|evening|morning)\s+before|"
             r"(?:an?|one|two|three|five|ten|fifteen|thirty|\d+)\s+(?:minutes?|mins?|hours?|days?|weeks?)\s+"
             r"(?:before|ahead(?:\s+of)?))(?:\s+(?:the|each|every|their|its|a|an)\s+[a-z]+)?")
_SENDS_EN = r"remind|reminds|reminders?|sms|notif(?:y|ies)|send|sends|posts?|emails?|texts?|messages|pings?|nudges?|alerts?"
_SCHEDULED_SEND = (
    re.compile(rf"\b(?:{_SENDS_EN})\b[^.;!?]{{0,30}}?\b(?P<when>{_EVERY_EN})\b", re.IGNORECASE),
    re.compile(rf"\b(?P<when>{_EVERY_EN})\b[^.;!?]{{0,20}}?\b(?:{_SENDS_EN})\b", re.IGNORECASE),
    re.compile(r"(?P<when>每(?:天|日|晚|周[一二三四五六日天]?|星期[一二三四五六日天]|个?月\d*[号日]?)(?:的)?"
               r"(?:早上|早晨|上午|中午|下午|傍晚|晚上)?(?:\d{1,2}\s*[点:：](?:\d{1,2}分?|半)?)?|定时|"
               # ahead of an event, by how long ("提前一天"), or named ("会议开始前15分钟", "上课前10分钟"): the event
               # is kept when it opens the clause
               r"(?:提前|(?:(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{1,6}?|开始|到期|截止|出发|开课|上课|开场|开考|发车|起飞|入住)前)"
               r"(?:一|两|三|半|\d+)(?:天|个?小时|分钟|周|个?星期))"
               r"[^，。；！？]{0,12}?(?:提醒|通知|推送|发送|发给|发到|催)"),
)


# Reminders a page lists are what it shows, not what it sends: a verb of showing before them in their clause ("a page
# that lists each day's reminders", "每天的提醒都列出来"), or a time that owns them ("each day's", "每天的").
_SHOWS = re.compile(r"\b(?:lists?|listing|shows?|showing|displays?|displaying|sees?|views?|browse|sort(?:s|ed)?)\b|"
                    r"列出|列表|显示|展示|查看|看到|看|浏览|一览|页面", re.IGNORECASE)
_OWNED_BY_A_TIME = re.compile(r"'s?\b|的")
_KIND_OF_RECORD = re.compile(r"事项|列表|记录|清单")
_CLAUSE_MARKS = re.compile(r"[.;!?，。；！？]")


def _only_shown(requirement: str, found: re.Match[str]) -> bool:
    """Whether what a match takes for sending is reminders a page shows, not sends."""
    start = max((m.end() for m in _CLAUSE_MARKS.finditer(requirement, 0, found.start())), default=0)
    end = next((m.start() for m in _CLAUSE_MARKS.finditer(requirement, found.end())), len(requirement))
    clause = requirement[start:end]
    when = found.group("when")
    owned = (when.endswith("的") or _OWNED_BY_A_TIME.match(requirement, found.end("when"))
             or _KIND_OF_RECORD.match(requirement, found.end()))
    return bool(owned) or bool(_SHOWS.search(clause)) and not re.search(
        r"\b(?:send|sends|remind|reminds|notif(?:y|ies)|texts|emails|pings|nudges)\b|发送|推送|发给|发到|提醒(?!事项|列表|记录|清单)[\u4e00-\u9fff]",
        clause.replace(when, " "), re.IGNORECASE)


def scheduled_send(requirement: str) -> str | None:
    """When a thing people use sends something by itself ("each evening", "每天晚上8点"), else None."""
    found = next((m for p in _SCHEDULED_SEND for m in p.finditer(requirement or "") if not _only_shown(requirement, m)),
                 None)
    return found.group("when").strip() if found else None


# A job that only keeps copies of data ("back up our WordPress site to S3 every night", "每晚把数据库备份到OSS"): it
# serves no one; what matters is where the copies go, how long they are kept and that one can be restored.
_KEEPS_COPIES = re.compile(r"\b(?:back(?:s|ed|ing)?\s+(?:(?:up|it|them|everything)\b)|backups?\b|snapshots?\b)|备份",
                           re.IGNORECASE)


def only_keeps_copies(requirement: str) -> bool:
    """Whether a requirement is a scheduled backup: a job that runs by itself and keeps copies of data."""
    return runs_unattended(requirement) and _KEEPS_COPIES.search(requirement or "") is not None


# A job that also keeps files it makes somewhere ("export the day's orders as CSV to our NAS", "每晚把订单导出成CSV存到网盘"):
# like a backup, its copies pile up there.
_EXPORTS_TO_A_STORE = (
    re.compile(r"\b(?:export|dump|archive|save|copy)(?:s|es|ed|ing)?\b[^.;]{0,60}?\b(?:to|into|onto|on|in)\s+"
               r"(?:(?:our|the|a|an|my)\s+)?(?:shared\s+)?(?:NAS|S3|OSS|bucket|folder|drive|disk|Dropbox|Google\s+Drive|OneDrive|"
               r"file\s+share|network\s+share|SFTP|FTP)\b", re.IGNORECASE),
    re.compile(r"(?:导出|归档|转存|保存)[^，。；！？]{0,20}?(?:存到|存入|保存到|放到|存在|上传到|传到|归档到)|"
               r"(?:导出|归档)(?:到|至)\s*(?:NAS|OSS|S3|网盘|共享盘|共享文件夹|文件夹|服务器)"),
)


def keeps_copies(requirement: str) -> bool:
    """Whether a job keeps copies that pile up where it puts them (a backup, an export saved to a drive): how long
    they are kept is then its own question."""
    return only_keeps_copies(requirement) or (
        runs_unattended(requirement) and any(p.search(requirement or "") for p in _EXPORTS_TO_A_STORE))


# What a job must remember between runs, which only a store of its own keeps ("only tickets not posted before",
# "since the last run", "只推送上次之后的新订单", "去重").
_KEEPS_STATE = (
    re.compile(r"\b(?:since\s+(?:the\s+)?(?:last|previous)\s+(?:run|time|post|sync)|not\s+(?:already|yet)\s+"
               r"(?:posted|sent|synced|seen)|(?:already|previously)\s+(?:posted|sent|synced|seen)|de-?dup\w*|"
               r"remember\w*|keep\s+(?:a\s+)?(?:history|track)|history\s+of)\b", re.IGNORECASE),
    re.compile(r"上次(?:之后|以来|以后)|自上次|没(?:有)?发过|未发(?:送)?过|已(?:经)?发(?:送)?过|去重|记住|记录(?:下|已)|历史记录"),
)


# A system's name as a requirement writes it: its capitals ("Shopify", "Google Calendar"), never a sentence's first word.
_SYSTEM_NAME = r"(?-i:[A-Z][\w-]*(?:\.[\w-]+)*)(?:\s+(?-i:[A-Z][\w-]*(?:\.[\w-]+)*))?"
# Chinese writes a system's name with no capitals to tell it ("有赞", "金蝶"), and jieba reads most of them as words of
# another sense (有/赞, 钉/钉): the business systems and office suites shops and offices keep their data in, by name.
# The office suites are also chats people use (interface): named as where data is kept or read from, they are systems.
SYSTEMS_ZH = ("有赞", "微盟", "金蝶", "用友", "管家婆", "畅捷通", "聚水潭", "旺店通", "万里牛", "客如云", "二维火", "银豹",
              "美团", "饿了么", "淘宝", "天猫", "京东", "拼多多", "抖店", "抖音小店", "小红书", "快手小店", "简道云", "明道云",
              "宜搭", "纷享销客", "销售易", "北森", "泛微", "致远", "蓝凌", "金数据", "问卷星", "腾讯文档", "石墨文档",
              "企业微信", "企微", "钉钉", "飞书")
_SYSTEM_ZH = "|".join(sorted(SYSTEMS_ZH, key=len, reverse=True))

# The system a job reads from, named after "from" or 从 ("from our Shopify store", "from the ticket system",
# "从收银系统同步", "把ERP里的库存同步到…"), or before what it moves ("load our Stripe payouts into Postgres"): a name
# keeps its capitals, a common noun ends in a kind of system.
_READS_FROM = (
    re.compile(rf"\bfrom\s+(?:(?:our|the|my|their|a)\s+)?(?P<src>{_SYSTEM_NAME}|"
               r"[\w-]+(?:\s+[\w-]+)?\s+(?:system|database|app|API|CRM|ERP|POS|platform|portal|tool))\b", re.IGNORECASE),
    re.compile(rf"\b(?:load|sync|copy|import|pull|export|move|mirror|push|send|dump)(?:s|es|ed|ing)?\s+"
               rf"(?:(?:our|the|my|their|all|every|each|new|today's|yesterday's)\s+)*(?P<src>{_SYSTEM_NAME})\s+(?-i:[a-z])",
               re.IGNORECASE),
    re.compile(r"从\s*(?P<src>[^，。；！？从把]{1,10}?)(?:里|中|上|那边)?(?:同步|导出|导入|迁移|迁|搬|拉取|拉|读取|取出|取|获取|抓取|汇总|统计|把)|"
               rf"把\s*(?P<named>[A-Za-z][A-Za-z0-9_-]*(?=(?:里|中|上)?的)|(?:{_SYSTEM_ZH})(?=(?:里|中|上)?的?)|"
               r"[^，。；！？]{1,6}?系统(?=(?:里|中|上)的))"),
)


def job_source(requirement: str) -> str | None:
    """The system a job reads its data from, as the requirement names it ("Shopify", "ticket system", "收银系统",
    "Stripe"), or None."""
    for pattern in _READS_FROM:
        if found := pattern.search(requirement or ""):
            source = (found.groupdict().get("src") or found.groupdict().get("named") or "").strip()
            # a store it reads is its source too ("from the old Access database"); a chat is where it posts
            if source and (source in SYSTEMS_ZH or not TOPICS_BY_ID["q_interface"].keywords_in(source)):
                return source
    return None


# A system the asker already keeps the data in, named by the asker ("we use Cliniko for bookings", "our orders live in
# Shopify", "appointments from Cliniko", "我们用有赞管理订单", "预约都在 Cliniko 里"): what is built reads it there
# through its API, so it is the data's source, not a store the plan chooses.
_KEPT_IN_A_SYSTEM = (
    re.compile(rf"\b(?:we|I)\s+(?:already\s+)?(?:use|are\s+using|am\s+using|run|are\s+on|am\s+on|work\s+in|book\s+in|"
               rf"keep\s+(?:[\w'-]+\s+){{0,3}}?in)\s+(?P<sys>{_SYSTEM_NAME})(?=\s+(?:for|to|as)\b|\s*[,.;!?]|\s*$)|"
               # records said to be there ("our bookings are in Cliniko"), not a thing said to be so ("the page is in English")
               rf"\b(?:(?-i:[a-z]+s)\s+(?:are|live|sit|stay)(?:\s+all)?|kept|stored|held)\s+in\s+(?P<in>{_SYSTEM_NAME})\b|"
               rf"\bfrom\s+(?:our\s+|the\s+)?(?P<src>{_SYSTEM_NAME})\b|\b(?P<api>{_SYSTEM_NAME})(?:'s)?\s+API\b", re.IGNORECASE),
    re.compile(r"(?:我们|我|店里|公司)?(?:一直|现在|目前)?(?:用|使用|在用)\s*(?P<sys>[A-Za-z][A-Za-z0-9_.-]*)\s*(?:管理|管|做|记|来|处理|登记|排|接)|"
               r"(?:都|全)?(?:在|存在|记在|放在)\s*(?P<in>[A-Za-z][A-Za-z0-9_.-]*)\s*(?:里|上)|从\s*(?P<src>[A-Za-z][A-Za-z0-9_.-]*)"),
    # a system named in Chinese, where its data is kept ("我们用有赞管理订单", "考勤都在钉钉上", "从金蝶导出"): a suite
    # that is also a chat only by a verb of keeping data, not "用钉钉来审批" (how it is used)
    re.compile(rf"(?:用|使用|在用)\s*(?P<sys>{_SYSTEM_ZH})\s*(?:管理|管|记|记录|登记|存|排班|排|卖|开店|开了?店|收银|收款|打卡|做账|记账|接单)|"
               rf"(?:都|全)?(?:在|存在|记在|放在)\s*(?P<in>{_SYSTEM_ZH})\s*(?:里|上)|从\s*(?P<src>{_SYSTEM_ZH})"),
)


_A_SYSTEM_FIRST = re.compile(rf"\s*(?:(?:our|the|my|their)\s+|{'|'.join(('我们的?', '咱们的?'))})?(?P<name>{_SYSTEM_ZH}|{_SYSTEM_NAME})")


def system_named_first(text: str) -> str | None:
    """The system `text` opens with, by its name ("our Shopify store" → "Shopify", "用友"), or None; a store or a chat
    named so ("Postgres", "Slack") is no system."""
    found = _A_SYSTEM_FIRST.match(text or "")
    name = found.group("name") if found else None
    return name if name and (name in SYSTEMS_ZH or not _a_store_or_a_chat(name)) else None


def kept_in_a_system(text: str) -> str | None:
    """The system the asker already keeps the data in, by its name alone ("Cliniko"), or None; a database or a sheet
    ("we use Postgres") is a store, and a chat app ("we use WhatsApp") how it is used."""
    for pattern in _KEPT_IN_A_SYSTEM:
        for found in pattern.finditer(text or ""):
            name = next(v for v in found.groupdict().values() if v)
            if name in SYSTEMS_ZH or not _a_store_or_a_chat(name):
                return name
    return None


def only_names_its_system(clause: str) -> bool:
    """Whether a clause only says which system the asker keeps the data in ("we use Cliniko for bookings", "预约都在
    Cliniko 里"): the stages read from it, nobody builds it."""
    system = kept_in_a_system(clause)
    if not system or (is_chinese(clause) and job_source(clause)):
        return False  # none named, or read to do a thing there ("每晚从金蝶导出凭证"): a thing to deliver
    rest = clause.replace(system, " ")
    return len(CJK.findall(rest)) <= 8 if is_chinese(clause) else (
        len(rest.split()) <= 5 and re.match(r"\s*(?:we|I|our|my)\b", rest, re.IGNORECASE) is not None)


def _a_store_or_a_chat(name: str) -> bool:
    return bool(TOPICS_BY_ID["q_data_store"].keywords_in(name) or TOPICS_BY_ID["q_interface"].keywords_in(name))


# A bot people talk to ("a Telegram bot that answers customers' questions", "一个回答顾客咨询的微信机器人"): it is used by
# messaging it, so whoever messages it uses it, through the chat, and nobody signs in. One posting on a schedule is a job.
_CHAT_BOT = re.compile(r"\b(?:chat\s?bots?|bots?)\b|聊天机器人|(?:微信|企业微信|钉钉|飞书|QQ|客服)机器人", re.IGNORECASE)
_TALKED_TO = re.compile(r"\b(?:answer|answers|answering|reply|replies|replying|respond|responds|responding|chat|chats|"
                        r"questions?|ask|asks|asking|message|messages|messaging|talk|talks)\b|回答|回复|答复|咨询|问|聊天|对话",
                        re.IGNORECASE)


def talked_to_in_a_chat(requirement: str) -> bool:
    """Whether a requirement is a bot people message to be answered, rather than one that posts by itself."""
    text = requirement or ""
    return bool(_CHAT_BOT.search(text) and _TALKED_TO.search(text)) and not runs_unattended(text)


# A script the asker runs on their own files ("写个脚本把扫描的发票按日期重命名", "a Python script to merge these PDFs"):
# they are its one user, it runs on their computer, and nothing signs in. Not one that runs by itself on a schedule,
# nor one others open in a page or an app.
# A script, or a run done once by hand that moves or cleans data ("a one-off migration of our old orders into
# PostgreSQL", "一次性把旧会员导入到有赞"): its asker runs it, nobody uses it afterwards.
_SCRIPT = re.compile(r"\bscripts?\b|脚本|批处理|"
                     r"\bone[- ](?:off|time)\s+(?:[\w-]+\s+){0,2}?(?:migration|import|export|load|job|task|run|conversion|"
                     r"clean-?up|transfer|copy)\b|"
                     r"一次性[^，。；！？]{0,4}?(?:迁移|导入|导出|转换|清洗|整理|搬|把)", re.IGNORECASE)
_RUN_BY_HAND = {"cli", "command", "command line", "command-line tool", "command line tool", "命令行", "电脑", "电脑端",
                "pc端", "桌面端"}


def run_on_own_files(requirement: str) -> bool:
    """Whether a requirement is a one-off script its asker runs themselves: used through nothing but running it."""
    text = requirement or ""
    if not _SCRIPT.search(text) or runs_unattended(text):
        return False
    return all(word.lower() in _RUN_BY_HAND for word in TOPICS_BY_ID["q_interface"].keywords_in(text))


def keeps_own_state(requirement: str) -> bool:
    """Whether a job must remember something between runs, and so keeps a store of its own."""
    return any(p.search(requirement or "") for p in _KEEPS_STATE)


# The group chat or channel a job posts to ("发到飞书群", "推送到群里", "post it to the #sales channel", "to our
# group"): whoever is in it receives the result, so it is the job's audience.
_CHAT_DESTINATION = (
    re.compile(r"(?:发|发送|推送|推|同步)(?:到|至|进)\s*(?P<where>(?:钉钉|飞书|企业微信|微信|QQ)?[^，。；！？到至]{0,6}?群)"),
    re.compile(r"\b(?:post|posts|posted|posting|send|sends|sent|push|pushes|pushed|share|shares|drop|drops)\b[^.;]{0,60}?"
               r"\b(?:to|in|into)\s+(?P<where>(?:(?:the|our|a|my)\s+)?(?:#?[\w-]+\s+){0,2}?(?:channel|group\s+chat|group|chat)\b"
               r"|#[\w-]+)", re.IGNORECASE),
)
_CHAT_APPS = re.compile(r"钉钉|飞书|企业微信|微信|QQ")


def chat_audience(requirement: str) -> str | None:
    """The group chat or channel a job posts its result to, as the requirement names it ("飞书群", "the #sales
    channel"); a bare "群" takes the chat app named elsewhere ("企业微信机器人…推送到群里" → "企业微信群"). Else None."""
    for pattern in _CHAT_DESTINATION:
        if (found := pattern.search(requirement or "")) is None:
            continue
        where = found.group("where").strip()
        the = TOPICS_BY_ID["q_interface"].named_as[0]  # "the {}": set inside the plan's English sentences
        if where.startswith("#"):
            return the.format(f"{where} channel")
        if re.match(r"(?:our|my|a|the)\s", where, re.IGNORECASE):
            return the.format(where.split(None, 1)[1])
        if where == "群" and (app := _CHAT_APPS.search(requirement)):
            return app.group(0) + where
        return where
    return None


def only_a_date(answer: str) -> bool:
    """Whether an answer says only a date or a day ("March 15", "by next Friday", "3月15日前"), and so when it is due."""
    said = re.sub(r"[\s。！!.,，]+$", "", (answer or "").strip())
    said = re.sub(r"(?:之前|以前|前|截止|上线|完成|交付)$", "", said).strip()
    return bool(said) and _DATE_ALONE.fullmatch(said) is not None


def only_a_load(answer: str) -> bool:
    """Whether an answer says only how many ("about 200 users", "每天大概200个预约"), and so the load."""
    said = (answer or "").strip().rstrip("。！!.")
    shape = TOPICS_BY_ID["q_scale"].shape_in(said)
    if not shape:
        return False
    rest = said.replace(shape, " ")
    return len(CJK.findall(rest)) <= 3 if is_chinese(said) else len(re.findall(r"[A-Za-z]+", rest)) <= 2


# The words that only put a thing where it lives or is used ("接到飞书", "放在公众号里", "it should run in Slack",
# "we use Postgres", "存到Excel里").
_NAMING_LINKS_ZH = re.compile(r"(?:数据|资料|我们|我|咱们|就|都|要|需要|最好|也|还|并|能|可以|直接|接到|接入|对接|集成到?|放到|放在|嵌入到?|"
                              r"嵌到|做成|做在|存到|存在|存|保存到?|记在|用|使用|通过|在|上|里|中|端|的|和|与|、|吧|\s)*")
_NAMING_LINKS_EN = set("""
it this that should must needs need to has have be is are also and or available accessible integrate integrated integrates
integration connect connected connects hook hooked up plug plugged run runs live lives work works into in on via through
inside with from the our a an we i use uses using store stored keep kept save saved just already data stay stays
read reads reading pull pulls pulled comes come sit sits everything all
""".split())


def only_names(topic: Topic, text: str) -> bool:
    """Whether `text` says no more than the things of `topic` it names ("接到飞书", "it should run in Slack",
    "we use Postgres"): its other words only put the thing in its place."""
    named = find_keywords(text, topic.keywords)
    if not named:
        return False
    rest = text
    for word in named:
        rest = rest.replace(word, " ")
    rest = re.sub(r"[,.;:!?，。；：！？]", " ", rest)
    if is_chinese(text):
        return _NAMING_LINKS_ZH.fullmatch(rest) is not None
    return all(word.lower() in _NAMING_LINKS_EN for word in re.findall(r"[A-Za-z']+", rest))


def only_a_store(answer: str) -> bool:
    """Whether an answer only names where the data lives ("we use Postgres", "存到Excel里")."""
    return only_names(TOPICS_BY_ID["q_data_store"], answer)


def only_an_entry_point(answer: str) -> bool:
    """Whether an answer only names where it is used ("微信小程序", "in Slack")."""
    return only_names(TOPICS_BY_ID["q_interface"], answer)


def only_an_access_rule(answer: str) -> bool:
    """Whether an answer says only who alone may do what, or a rule it must comply with ("only the office manager
    can cancel bookings", "只有店长能改价格", "must comply with GDPR"), and so the access rules."""
    said = re.sub(r"[\s。！!.,，]+$", "", (answer or "").strip())
    security = TOPICS_BY_ID["q_security"]
    # a count beside the rule is the load's ("staff sign in with Google, about 50 of them"): not only a rule
    if (found := security._longest(said)) is None or TOPICS_BY_ID["q_scale"].shape_in(said):
        return False
    rest = said.replace(_to_clause_end(said, found, whole=True, to_its_end=True), " ")
    return len(CJK.findall(rest)) <= 3 if is_chinese(said) else len(re.findall(r"[A-Za-z]+", rest)) <= 2


# Where an answer typed into another question belongs: a date is when it is due, a count the load, a store named
# alone where the data lives, an entry point how it is used. A count said as who uses it or what done means
# ("200 staff", "handles 500 orders a day") or as how many copies are kept ("7 copies") answers those questions too, and signing in through a chat app ("用钉钉")
# answers the access rules.
_MISPLACED = (("q_deadline", only_a_date, ()),
              # a count typed as how long copies are kept is how many are kept ("7 copies", "保留10份")
              ("q_scale", only_a_load, ("q_target_users", "q_success_metric", "q_retention")),
              ("q_data_store", only_a_store, ()), ("q_interface", only_an_entry_point, ("q_security",)),
              # who alone may do what, typed as the load ("only the office manager can cancel bookings")
              ("q_security", only_an_access_rule, ()),
              # the system the data already lives in ("we use Mindbody for everything"), typed into another question
              ("q_data_store", only_names_its_system, ()))


# The questions an answer that belongs to a topic answers as well (a load: who uses it, what done means).
_ANSWERED_TOO = {other: also for other, _, also in _MISPLACED}


def belongs_to(topic_id: str, answer: str) -> str | None:
    """The other catalogue topic an answer to `topic_id` answers instead ("March 15" to the access rules: the
    deadline), else None."""
    return next((other for other, says_only, also_answers in _MISPLACED
                 if other != topic_id and topic_id not in also_answers and says_only(answer)), None)


# Where one answer's thoughts part: a stop or comma, or a word that joins two of them ("no rush, but we use Postgres",
# "下个月上线，另外数据存MySQL").
_ANSWER_CLAUSES = re.compile(r"\s*(?:[,;.!?，。；！？\n]+|\s(?:but|and also|also|plus)\s|(?:但是|不过|另外|还有|然后))\s*",
                             re.IGNORECASE)
# Who uses it is read from the sentence's structure, not from a word ("staff need it by June" says when).
_NOT_READ_FROM_A_CLAUSE = {"q_purpose", "q_target_users"}


def what_it_says_of(topic: Topic, clause: str) -> str:
    """What a clause says of `topic`, as an answer to its question would: the things it names ("we use Postgres":
    "Postgres"; "the page should load fast": "page"), or the words of a shape ("we need it by June": "by June");
    else the clause."""
    if topic.keywords_name_it and (named := topic.keywords_in(clause)):
        return ("、" if is_chinese(clause) else ", ").join(named)
    return topic.stated_in(clause) or clause


def said_of_other_topics(topic_id: str, answer: str, open_ids: Iterable[str]) -> tuple[str, dict[str, str]]:
    """An answer read for every topic it speaks to, as a requirement is: (what is left for `topic_id`, open topic id
    → what the answer says of it). A clause goes to another open topic when it settles that one and not its own
    ("no rush, we use Postgres" to the deadline: "we use Postgres" answers where the data lives)."""
    own = TOPICS_BY_ID.get(topic_id)
    others = [TOPICS_BY_ID[i] for i in open_ids if i in TOPICS_BY_ID and i != topic_id
              and i not in _NOT_READ_FROM_A_CLAUSE]
    kept: list[str] = []
    moved: dict[str, str] = {}
    clauses = list(filter(None, _ANSWER_CLAUSES.split(answer or "")))
    for clause in clauses:
        if own is not None and own.id not in _NOT_READ_FROM_A_CLAUSE and own.settled_by(clause):
            kept.append(clause)
            continue
        # "no rush" beside the store's name is the deadline's no, whether or not the deadline is asked now: never
        # the store's words ("Data store: no rush, we use Postgres")
        if (declined := next((t for t in TOPICS if t is not own and t.said_no_to(clause)), None)) is not None:
            if declined in others:
                moved.setdefault(declined.id, clause)
            continue
        speaks_to = [other for other in others if other.settled_by(clause)]
        for other in speaks_to:
            moved.setdefault(other.id, what_it_says_of(other, clause))
        # a load said as what done means ("能在手机上30秒内记完一单") is the measure too, as belongs_to has it
        if not speaks_to or (own is not None and any(own.id in _ANSWERED_TOO.get(o.id, ()) for o in speaks_to)):
            kept.append(clause)
    if len(kept) == len(clauses):
        return answer, moved
    rest = ("，" if is_chinese(answer) else ", ").join(kept)
    # what is left only names its own topic's thing ("we use Postgres"): put as the moved ones are ("Postgres"); a
    # word of its own stays ("云数据库", not "数据库")
    return (what_it_says_of(own, rest) if own is not None and only_names(own, rest) else rest), moved


def _pattern(keyword: str) -> re.Pattern[str]:
    if is_chinese(keyword):
        return re.compile(re.escape(keyword))
    # Whole words only: "ui" must not match "build", "latency" not "OFFLINE_LATENCY_S".
    return re.compile(r"(?<![a-z0-9_])" + re.escape(keyword.lower()) + r"(?![a-z0-9_])")


_PATTERNS: dict[str, re.Pattern[str]] = {}


_JOINS_WORDS = re.compile(r"[ \t-]*")
_HYPHENATED = re.compile(r"-[A-Za-z]+")


def find_keywords(text: str, keywords: Iterable[str]) -> list[str]:
    """Every keyword in `text` as the text writes it, in reading order, without one inside another ("维修师傅", not also "师傅").

    Keywords written side by side are one name ("REST API endpoint", "学生家长"), and a hyphenated word
    is whole ("command-line", not "command")."""
    text = text or ""
    spans: list[tuple[int, int]] = []
    for keyword in keywords:
        # On the text as written (not lowered, which may change its length): the words come back as the user wrote them.
        spans += [match.span() for match in re.finditer(_pattern(keyword).pattern, text, re.IGNORECASE)]
    merged: list[list[int]] = []
    for start, stop in sorted(spans, key=lambda span: (span[0], -span[1])):
        if merged and start < merged[-1][1]:
            continue  # inside the one before
        if merged and _JOINS_WORDS.fullmatch(text, merged[-1][1], start):
            merged[-1][1] = stop
        else:
            merged.append([start, stop])
    found: list[str] = []
    for start, stop in merged:
        if hyphenated := _HYPHENATED.match(text, stop):
            stop = hyphenated.end()
        word = text[start:stop]
        if word.lower() not in {f.lower() for f in found}:
            found.append(word)
    return found


def find_keyword(text: str, keywords: Iterable[str]) -> str | None:
    """The first keyword that occurs in `text` (case-insensitive, whole words for ASCII), else None."""
    lowered = (text or "").lower()
    for keyword in keywords:
        pattern = _PATTERNS.get(keyword)
        if pattern is None:
            pattern = _PATTERNS[keyword] = _pattern(keyword)
        if pattern.search(lowered):
            return keyword
    return None
