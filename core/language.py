"""Which language a text is written in, for content that follows the user's own words (decks, novels)."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff]")


_TO_SIMPLIFIED = None


def understood(text: str) -> str:
    """`text` as the offline rules read it: Traditional Chinese (Taiwan, Hong Kong) in Simplified characters,
    since every word list, jieba's dictionary, the glossary and the statutes are Simplified. For understanding
    only: what the user typed stays what is stored and shown.

    Text with no Han character (English) returns at once; Simplified text comes back unchanged (t2s keeps it
    as it is, where a phrase converter like tw2sp would turn "文件" into "文档")."""
    global _TO_SIMPLIFIED
    if not text or not CJK.search(text):
        return text
    if _TO_SIMPLIFIED is None:  # loaded on first Chinese text: an English-only process never pays for it
        import opencc

        _TO_SIMPLIFIED = opencc.OpenCC("t2s")
    return _TO_SIMPLIFIED.convert(text)


def as_written(original: str, part: str) -> str:
    """`part`, read from `understood(original)`, in the characters the user wrote it in ("台湾夜市小吃" from
    "台灣夜市小吃的簡報" → "台灣夜市小吃"), for what names their own words back to them (a thread's title);
    as it is when it is not a span of the understood text, or the conversion changed the text's length."""
    read = understood(original)
    if read == original or len(read) != len(original) or not part or (start := read.find(part)) < 0:
        return part
    return original[start:start + len(part)]


def language_of(text: str) -> str:
    """"zh" when the text has Chinese characters, else "en": a Chinese brief may quote English names,
    an English one has no Chinese at all."""
    return "zh" if CJK.search(text or "") else "en"


_CLAUSE_MARK = re.compile(r"[，、；：,;:]")


_CHINESE_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def chinese_number(text: str) -> int | None:
    """A number as written in digits or Chinese numerals ("12", "十二", "二十三", "一百零五"); None when it is neither."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    for ch in text:
        if ch in _CHINESE_DIGITS:
            current = _CHINESE_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
        else:
            return None
    return total + current or None


def clip(text: str, limit: int, mark: str = "") -> str:
    """At most `limit` characters of `text`. Chinese may stop at any character; other text stops at the
    last whole word that fits, so no word is left cut ("What t").

    With a `mark` ("…") the cut shows and falls between phrases: Chinese at the last clause mark in the
    second half, English not after a word that leads into the next ("…can find an" → "…can find…")."""
    text = text.strip()
    if len(text) <= limit:
        return text
    limit -= len(mark)
    if CJK.search(text[:limit]):
        head = text[:limit]
        # a Latin word or number inside Chinese is a word too: it goes whole ("导出成Excel", not "导出成Exce")
        if re.match(r"[A-Za-z0-9]", text[limit]) and (run := re.search(r"[A-Za-z0-9][\w.+#-]*$", head)) and run.start():
            head = head[:run.start()]
        if mark and (marks := [m.start() for m in _CLAUSE_MARK.finditer(head) if m.start() >= limit // 2]):
            head = head[:marks[-1]]
        return head.rstrip("，、；：,;: ") + mark
    head = text[:limit]
    if not text[limit].isspace() and re.search(r"\s", head):
        head = re.split(r"\s+(?=\S*$)", head)[0]  # the word the limit fell in goes whole
    head = head.rstrip(" ,;:—-")
    if mark:
        words = head.split()
        while len(words) > 1 and is_function_word(words[-1].strip(",;:")):
            words.pop()
        head = " ".join(words).rstrip(" ,;:—-")
    return head + mark



# Where a clause or a sentence ends: a Chinese or English mark (a full stop only before a space or the end, so
# "Mr. Darcy" and "3.5" stay whole) and the closing quotes after it.
_CLAUSE_END = re.compile(r"(?:[。！？!?；;，,：:、]|(?<!Mr)(?<!Mrs)(?<!Ms)(?<!Dr)(?<!St)\.(?=\s|$))[”’」』\"')）]*")


def whole_clauses(text: str, limit: int) -> str:
    """`text` shortened to about `limit` characters at the end of a sentence or a clause, never inside one
    (a summary stopping at "…the protagonist stands for" or "心里记挂着" reads as garbage). The first clause
    stays whole even when it is longer, a long clause reading better than a cut one; the comma or colon that
    ended the last clause kept is dropped, a sentence's own stop stays."""
    text = text.strip()
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _CLAUSE_END.finditer(text)]
    end = max((e for e in ends if e <= limit), default=ends[0] if ends else len(text))
    return text[:end].rstrip().rstrip("，、；：,;:").rstrip()


_SENTENCE_STOP = re.compile(r"[.!?。！？]+$")
_FIRST_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def mid_sentence(text: str, context: str = "") -> str:
    """Text set inside a sentence (a quoted title, an answer woven in): without the stop that ended it,
    and with its first letter lowered, that capital being the sentence's own ("Add a CSV export." →
    "add a CSV export"). Never a name's or an acronym's the user wrote: a word with capitals of its own
    ("iOS", "HR"), "I", and a word `context` writes with a capital mid-sentence ("… post it to Slack")."""
    text = text.strip()
    if not text.endswith(("...", "…")):  # an ellipsis shows a cut, it stays
        text = _SENTENCE_STOP.sub("", text).rstrip()
    first = _FIRST_WORD.match(text)
    if language_of(text) == "zh" or first is None or first.group(0) == "I" or first.group(0)[1:] != first.group(0)[1:].lower():
        return text
    for named in re.finditer(rf"(?<![A-Za-z]){re.escape(first.group(0))}(?![A-Za-z])", context or ""):
        if not re.search(r"(?:^|[.!?:;\n\"“(]\s*)$", context[:named.start()]):
            return text  # written with a capital where no sentence starts: a name
    return text[:1].lower() + text[1:]


# English words of the closed classes (auxiliaries and modals, pronouns, determiners, prepositions,
# conjunctions, question words) and the commonest adverbs: words a sentence is built with rather than
# words it is about. A name spelt like one ("Will", "May") is only a name where it is written as one.
ENGLISH_FUNCTION_WORDS = frozenset("""
a about above after again against ago all also although am an and any anyone anything are around as at back be
because been before being below between both but by can could did do does doing done down during each either else
ever every few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just
last later least less let like many may me might mine more most much must my myself near neither never next no
none nor not now of off often on once one only or other our ours ourselves out over own perhaps quite rather
really same shall she should since so some someone something soon still such than that the their theirs them
themselves then there these they this those though through thus till to too under unless until up upon us very
was we well were what whatever when where whether which while who whom whose why will with within without would yet you
your yours yourself yourselves
""".split())


def is_function_word(word: str) -> bool:
    return word.casefold() in ENGLISH_FUNCTION_WORDS


# English words for people by their ending ("sailors", "electricians", "trainees", "volunteers", "fishermen"), for a
# rule that cannot list every trade: "for <people>" names who listens. Words with those endings that are things,
# animals, times, comparatives or verbs ("for computers", "for errors", "prepare for disasters", "faster", "staff enter
# orders") are never people, in any flow.
_NOT_PEOPLE_EN = """number computer container folder filter layer paper letter character vector sensor monitor error
color colour factor indicator counter marker tracker reminder register trigger answer power water weather offer matter
chapter quarter center centre poster banner cover calendar adapter connector generator player recorder sticker voucher
other disaster flower burger dinner summer winter border barrier shelter theater theatre newsletter flyer corner
tiger spider otter lobster hamster oyster panther beaver river tower meter metre liter litre dollar sweater mirror floor
door motor tractor processor elevator escalator radiator refrigerator freezer heater cooler blender mixer toaster
charger speaker headphone printer scanner browser server router cluster parameter header footer timer buffer
median boolean fee free tree three agree degree guarantee coffee binder locker ledger calculator
list checklist playlist wishlist blacklist whitelist allowlist denylist
january february march april may june july august september october november december
better faster easier larger smaller bigger newer older simpler cheaper quicker longer shorter higher lower greater
fewer wider deeper clearer safer stronger earlier later other either never ever over under after together whether
per rather whoever whomever however whenever whatever wherever forever another moreover
enter deliver gather consider remember discover recover transfer prefer refer defer render wander wonder suffer differ
""".split()
NOT_PEOPLE_EN = frozenset(_NOT_PEOPLE_EN)
# Jobs whose names have no person's ending (-er, -or, -ist, -ian, -ee, -man), in the singular: a deck's listeners
# ("for new baristas"), a requirement's roles ("nurses confirm each booking") and a book's callings ("the pilot Sam
# Ortiz") are read through them.
JOBS_EN = frozenset("""barista chef cook pilot cadet clerk nanny mechanic paramedic medic surgeon midwife maid nurse
apprentice monk nun priest imam rabbi diplomat umpire steward stewardess waitress hostess caddie jockey firefighter
chaplain florist artisan janitor paralegal caregiver vet cop marshal sheriff judge coach guard accountant assistant
consultant attendant merchant servant intern dean principal captain referee treasurer secretary chairperson
warden curator""".split())
# Jobs said in Chinese whose word tells no other thing ("给夜班的护士讲…", "诊所护士"); jobs named by -师 or -员
# ("咖啡师", "收银员") are read by that ending.
JOBS_ZH = ("护士", "医生", "医护", "工人", "职工", "员工", "保安", "司机", "厨师", "店员", "服务员", "保洁", "快递员", "外卖员",
           "环卫", "消防员", "民警", "客服", "会计", "工程师", "程序员", "技术员", "销售")
# Words ending in 员 or 师 that name no trade: learners, members, teachers (who hear a talk as colleagues), masters.
_NOT_JOBS_ZH = ("学员", "会员", "队员", "成员", "党员", "团员", "社员", "委员", "动员", "官员", "老师", "教师", "导师", "大师",
                "祖师", "宗师", "恩师", "名师", "班主任")


def names_a_job_zh(text: str) -> bool:
    """Whether Chinese listeners are named by their job: one of JOBS_ZH, or a word ending in 员 or 师 ("收银员", "咖啡师",
    "药剂师", "新来的理货员") that is not a learner, member or teacher ("学员", "会员", "老师")."""
    if any(word in text for word in JOBS_ZH):
        return True
    for match in re.finditer(r"[员师]", text):
        end = match.end()
        if not any(text[max(0, end - n):end] in _NOT_JOBS_ZH for n in (2, 3)) and end >= 2 and CJK.match(text[end - 2]):
            return True
    return False


# Chinese words for kin and partners, with the gender each tells ("表哥王强", "我老婆", "孙女陈念安"): a novel's cast and a
# demand letter's 他 / 她 are read through them.
KIN_ZH = {
    "父亲": "男", "爸爸": "男", "母亲": "女", "妈妈": "女", "儿子": "男", "女儿": "女", "哥哥": "男", "弟弟": "男",
    "姐姐": "女", "妹妹": "女", "爷爷": "男", "奶奶": "女", "外公": "男", "外婆": "女", "姥爷": "男", "姥姥": "女",
    "表哥": "男", "表弟": "男", "表姐": "女", "表妹": "女", "堂哥": "男", "堂弟": "男", "堂姐": "女", "堂妹": "女",
    "丈夫": "男", "老公": "男", "妻子": "女", "老婆": "女", "媳妇": "女", "未婚夫": "男", "未婚妻": "女",
    "男友": "男", "女友": "女", "男朋友": "男", "女朋友": "女",
    "孙子": "男", "孙女": "女", "外孙": "男", "外孙女": "女", "大儿子": "男", "二儿子": "男", "小儿子": "男",
    "大女儿": "女", "二女儿": "女", "小女儿": "女", "侄子": "男", "侄女": "女",
    "叔叔": "男", "伯伯": "男", "舅舅": "男", "姑父": "男", "姨父": "男", "姑姑": "女", "阿姨": "女", "婶婶": "女",
    "舅妈": "女", "姨妈": "女", "儿媳": "女", "女婿": "男", "嫂子": "女", "弟媳": "女", "姐夫": "男", "妹夫": "男",
    "继父": "男", "继母": "女", "养父": "男", "养母": "女",
}
_IRREGULAR_PLURALS_EN = {"child": "children", "person": "people", "thief": "thieves", "wife": "wives", "midwife": "midwives",
                         "housewife": "housewives", "chief": "chiefs", "staff": "staff", "crew": "crew"}
_IRREGULAR_SINGULARS_EN = {plural: word for word, plural in _IRREGULAR_PLURALS_EN.items()}


def plural_en(word: str) -> str:
    """The plural of an English noun of a person, its first letter as written ("nanny" → "nannies", "waitress" →
    "waitresses", "fireman" → "firemen", "Child" → "Children")."""
    lower = word.lower()
    if lower in _IRREGULAR_PLURALS_EN:
        return word[:1] + _IRREGULAR_PLURALS_EN[lower][1:]
    if lower.endswith("man"):
        return word[:-3] + "men"
    if re.search(r"[^aeiou]y$", lower):
        return word[:-1] + "ies"
    return word + "es" if re.search(r"(?:s|x|ch|sh)$", lower) else word + "s"


def singular_en(word: str) -> str:
    """The singular of an English plural noun of a person, the word itself when it is none ("nannies" → "nanny")."""
    lower = word.lower()
    if lower in _IRREGULAR_SINGULARS_EN:
        return _IRREGULAR_SINGULARS_EN[lower]
    if lower.endswith("men") and len(lower) > 4:
        return lower[:-3] + "man"
    if lower.endswith("ies") and len(lower) > 4:
        return lower[:-3] + "y"
    if re.search(r"(?:ss|x|ch|sh)es$", lower):
        return lower[:-2]
    return lower[:-1] if lower.endswith("s") and not lower.endswith("ss") else lower


def gerund_en(verb: str) -> str:
    """"write" → "writing", "run" → "running", "die" → "dying", "see" → "seeing"."""
    verb = verb.lower()
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):  # one short syllable: run, plan, set
        return verb + verb[-1] + "ing"
    return verb + "ing"


# Kinds of people a deck is heard by that no ending tells, beside the jobs ("for cub scouts", "for hosts").
_LISTENER_KINDS_EN = ("guides", "hosts", "scouts", "cowboys", "cowgirls")
PEOPLE_PLURAL_EN = (r"\b(?:(?!(?:" + "|".join(_NOT_PEOPLE_EN) + r")s\b)[a-z'-]{3,}(?:er|or|ist|ian|ee|eer)s|[a-z'-]{2,}(?:wo)?men|"
                    # guards of any kind ("lifeguards", "coastguards") but the things that guard ("safeguards")
                    r"(?!(?:safe|mud|shin|fire|fender)guards)[a-z'-]*guards|"
                    + "|".join(sorted({plural_en(job) for job in JOBS_EN} | set(_LISTENER_KINDS_EN), key=len, reverse=True)) + ")"
                    r"(?![\w'-])")  # a whole word: "indoor f|lowers" is no "lowers"


# Common English words a lesson's subject often opens with ("Volcanoes", "Fire safety", "Daily life in ancient Rome",
# "Healthy eating"): their capital there is the request's own, not a name's. A short list of the commonest, not a
# dictionary; a word off it keeps its capital, as a name would ("Python basics", "English grammar", "Excel tips").
COMMON_WORDS_EN = frozenset("""
    air animal animals ancient art basic bird birds blood body bone bones brain business car cars cell cells city climate
    cloud clouds coding colour color colours colors common computer computers cooking country daily data desert digital
    dinosaur dinosaurs disease diseases early earth earthquake earthquakes ecosystem ecosystems electric electricity
    energy environment everyday family farm farming fire first fish food forest forests fraction fractions fruit game
    games global good great green growing habitat habitats health healthy heart heat history home house human humans
    ice insect insects internet island islands kitchen land language life light living local magnet magnets map maps
    market math maths medieval mental modern money moon mountain mountains music natural nature ocean oceans online
    personal plant plants plastic pollution public rain recycling renewable river rivers road rock rocks safe safety
    school science sea seasons simple skin sleep small social soil solar sound space sport sports spring star stars
    storm storms sugar summer sun teeth time tooth traffic travel tree trees volcano volcanoes water weather wild
    wildlife wind winter world writing young
    hand eye eyes neck back posture desk screen phone password bike bus train street garden hospital work team customer
    child baby pet pets dog dogs cat cats bee bees snow flood floods noise waste stress drug drugs alcohol diet exercise
    night autumn cold hot dry wet clean manual
""".split())
# Names with those endings: in -s ("Mars", "Athens", "the Olympics", a people: "the Vikings") and the periods named by a
# noun ("the Reformation").
_NAMES_LIKE_COMMON = frozenset("mars venus athens wales hastings texas paris brussels netherlands philippines andes alps "
                               "himalayas olympics james charles jesus marx reformation enlightenment restoration "
                               "renaissance christianity beijing nanjing kunming liaoning wyoming vikings aztecs incas "
                               "romans tudors stuarts normans saxons celts spartans mongols ottomans victorians".split())
# What a discovery named after its finder is called ("Pythagoras theorem", "Archimedes principle", "Charles law"): the
# capitalised word before it is the finder's name, whatever its ending.
_NAMED_AFTER_ITS_FINDER = frozenset("""theorem theorems law laws principle principles equation equations effect constant
    paradox conjecture formula rule rules identity triangle sequence series""".split())
_PLURAL_OR_NOUN_ENDING = re.compile(r"(?:[^siu']s|tion|sion|ment|ness|ity|ology|ics|osis|thesis|ysis|\w{2}[^jqx]ing)$")


def opens_with_common_word(text: str) -> bool:
    """Whether an English text opens with a common word written with a capital only because it opens the text:
    a word of COMMON_WORDS_EN, or a plural, a noun or a gerund by its ending ("Fractions", "Pollution", "Gravity",
    "Photosynthesis", "Adding"); never a word with capitals of its own ("DNA", "iPhone"), a name so ending ("Mars") nor the
    name a discovery is called by ("Pythagoras theorem")."""
    first = _FIRST_WORD.match(text.strip())
    if first is None or language_of(text) == "zh":
        return False
    word = first.group(0)
    if word[1:] != word[1:].lower() or len(word) < 3:
        return False
    following = text.strip()[first.end():].split(maxsplit=1)
    if following and following[0].lower().strip(",.;:") in _NAMED_AFTER_ITS_FINDER:
        return False
    lowered = word.lower()
    return lowered in COMMON_WORDS_EN or (bool(_PLURAL_OR_NOUN_ENDING.search(lowered)) and lowered not in _NAMES_LIKE_COMMON)


# What is typed to try a box rather than to name anything: a run along one keyboard row ("asdf", "qwerty", "hjkl"),
# one Latin letter alone ("x"; not "π"), one letter over and over ("aaaa"), a Chinese interjection ("啊", "嗯") or one character
# said three times or more ("哈哈哈"). A short word of capitals ("AI", "DNA") and a doubled character ("星星") are words.
_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_INTERJECTIONS_ZH = frozenset("啊哦噢嗯哈呃额唉哎嘿喂呀吧呢吗嘛咦哇")


def _along_a_key_row(word: str) -> bool:
    rows = [next((row for row in _KEY_ROWS if letter in row), None) for letter in word]
    return len(word) >= 3 and all(
        row is not None and row == rows[k + 1] and abs(row.index(word[k]) - row.index(word[k + 1])) == 1
        for k, row in enumerate(rows[:-1]))


def is_keyboard_noise(word: str) -> bool:
    """Whether a word (letters only, no spaces) names nothing: see above."""
    lowered = word.casefold()
    if CJK.search(word):
        return word in _INTERJECTIONS_ZH or (len(word) >= 3 and len(set(word)) == 1)
    return (len(word) == 1 and word.isascii()) or (len(word) >= 3 and len(set(lowered)) == 1) or _along_a_key_row(lowered)


# What is said to greet the box or to try it, not to name a subject: a greeting ("hi there", "你好呀", "在吗") or a word
# for trying ("test", "testing 123", "测试一下"). Only a request made of nothing else names nothing: "软件测试", "unit
# testing" and "Hello World programs" name a subject.
_SMALL_TALK_EN = frozenset("""hi hello hey hiya howdy yo there everyone everybody all guys folks ping test tests testing
    tester try trying trial demo sample dummy foo bar baz please thanks thank you ok okay""".split())
_SMALL_TALK_ZH = re.compile(r"你们?好|您好|大家好|哈喽|嗨|在吗|在不在|有人吗|测试|试试?|试一[下试]|一下|随便|看看|谢谢|早上好|"
                            r"上午好|下午好|晚上好|早安|晚安|[" + "".join(_INTERJECTIONS_ZH) + "]")


def is_small_talk(word: str) -> bool:
    """Whether a word (letters only, no spaces) is only a greeting or a word for trying the box: see above."""
    if CJK.search(word):
        return not _SMALL_TALK_ZH.sub("", word)
    return word.casefold() in _SMALL_TALK_EN

