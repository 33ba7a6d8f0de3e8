"""Offline extraction rules, slots and paraphrase checks: pure functions, no Django.

Without a language model, explicit statements still become memories: "기억해줘", "나는 ...를
좋아해", "앞으로 ...해줘", "내 이름은 ...", "나 ...에 살아", "I prefer ...", "I like/hate ...",
"remember that ...", "from now on ...", "my name is ...", "I live in ...". Each statement's
slot is the question about the user it answers (`slots.question_of`): a later statement for
the same slot corrects the earlier one instead of sitting beside it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date

from memories.logic import dates, statements
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.slots import question_of
from memories.logic.slots.change import given_up
from memories.logic.slots.vocab import RELATION_OF
from memories.logic.statements import names
from memoryhub.text import REDACTION_MARKER, _analyser, has_hangul, stem_english

# --- normalisation ------------------------------------------------------------------------


def normalise_text(text: str) -> str:
    """Case, width, punctuation and spacing folded: equal for trivially different texts."""
    folded = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    folded = re.sub(r"[^\w\s']", " ", folded)
    return re.sub(r"\s+", " ", folded).strip()


def fingerprint(text: str) -> str:
    return hashlib.sha256(normalise_text(text).encode()).hexdigest()


# --- statements ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Match:
    type: str
    slot: str
    importance: float
    content: str


_END = r"\s*[.!~…]*\s*$"
_KO_SUBJECT = (
    r"(?:(?:그리고|근데|참|아|음|사실|그런데)\s*,?\s*)?"
    # The assistant's notes speak of the user in the third person ("사용자는 ...").
    r"(?:(?:나는|난|저는|전|내가|제가|나|저|사용자는|사용자가|유저는|유저가)\s+)?"
)
# "I", or "the user" in the assistant's notes.
_EN_SUBJECT = r"(?:I|the\s+user)"
_QUESTION_WORDS = re.compile(
    r"뭐|뭘|무엇|누구|어디|언제|왜|어떻게|몇|어느|무슨|\b(?:what|where|who)\b"
)
_EN_QUESTION = re.compile(
    r"^(?:do|does|did|what|where|who|whom|how|why|when|which|can|could|would|will|should|"
    r"is|are|am|was|were)\b(?!['’]t)|"
    # "have you ...?" asks; "have two cats", "have twin daughters" is said, the "I" left out
    r"^(?:have|has)\s+(?:you|u|ya|we|they|he|she|i|it|anyone|anybody|someone|somebody|the|your|"
    r"my|there|any|ever|never)\b",
    re.IGNORECASE,
)
# "have a nice day", "have fun at the party": a wish for the listener, not a fact.
_EN_WELL_WISH = re.compile(
    r"^(?:have|enjoy)\s+(?:a\s+|an\s+)?(?:\w+\s+)?(?:day|one|weekend|night|time|trip|evening|"
    r"morning|fun|flight|holiday|vacation|week)\b",
    re.IGNORECASE,
)
_KO_REQUEST = (
    r"(?:해\s*줘|해\s*주세요|해줘요|해\s*줄래|해\s*주라|해라|해|줘|주세요|줘요|줄래|부탁해|부탁해요|"
    r"하지\s*마|하지\s*말아\s*줘|하지\s*마세요|말아\s*줘|말아\s*주세요)"
)

_ANSWER_CUES = re.compile(
    r"답변|답장|대답|응답|답을|답은|말투|존댓말|반말|짧게|길게|간단히|간결|자세히|상세|요약|목록|표로|이모지|"
    r"이모티콘|농담|유머|딱딱|처럼\s*(?:말|얘기|대답)|글머리|본론|요점|호칭|"
    r"\b(?:answers?|responses?|replies|reply|respond|format(?:ting)?|bullets?|bullet\s+points|"
    r"concise|brief|short|detailed|verbose|emojis?|tone|formal|casual|explanations?|jokes?|"
    r"humou?r)\b",
    re.IGNORECASE,
)
_LANGUAGE_CUES = re.compile(
    r"(?:한국어|영어|일본어|중국어|한글|스페인어|프랑스어|독일어)\s*(?:로|으로)|"
    r"\bin\s+(?:english|korean|japanese|chinese|spanish|french|german)\b",
    re.IGNORECASE,
)
_EPISODE_CUES = re.compile(
    r"어제|그제|지난\s*주|지난주|지난\s*달|지난달|작년|저번에|지난번|"
    r"\b(?:yesterday|last\s+(?:week|month|year|time)|earlier\s+today)\b",
    re.IGNORECASE,
)
# Allergies and diets count as preferences: like tastes, they shape every suggestion.
_PREFERENCE_CUES = re.compile(
    r"좋아|싫어|선호|알레르기|알러지|채식|비건|\b(?:prefer|like|love|hate|dislike|enjoy|allergic|"
    r"allergy|vegetarian|vegan)\b",
    re.IGNORECASE,
)
_PROCEDURE_CUES = re.compile(
    r"^(?:앞으로|항상|매번|이제부터|지금부터)|"
    + _KO_REQUEST
    + r"\s*$|^(?:always|never|from\s+now\s+on)\b",
    re.IGNORECASE,
)
_DECISION_CUES = re.compile(r"결정|정했|\bdecided\b", re.IGNORECASE)

_KO_PARTICLES = (
    "으로는",
    "에서는",
    "이라는",
    "이라고",
    "으로",
    "에서",
    "에게",
    "한테",
    "까지",
    "부터",
    "이랑",
    "처럼",
    "보다",
    "라는",
    "라고",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "에",
    "로",
    "와",
    "과",
    "도",
    "만",
    "의",
    "랑",
)


def _strip_particle(word: str) -> str:
    for particle in _KO_PARTICLES:
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)]
    return word


def _subject_key(text: str, *, ordered: bool = False) -> str:
    """A short, stable key for what a like/dislike is about: "커피를" and "커피" agree, and so
    do "고양이보다 개" and "개보다 고양이" (the words are sorted unless `ordered`)."""
    text = re.split(
        r"[,;]|\s(?:because|but|when|since|and|over|more\s+than|rather\s+than|a\s+lot|"
        r"very\s+much|so\s+much)\b",
        text.strip(),
        maxsplit=1,
        flags=re.IGNORECASE,
    )[0]
    words = []
    for word in normalise_text(text).split():
        if word in ("the", "a", "an", "my", "your", "나는", "난", "저는", "전", "내가", "제가"):
            continue
        # Twice for Korean: "고양이보다" and "고양이(를)" both come to "고양".
        words.append(
            stem_english(word) if word.isascii() else _strip_particle(_strip_particle(word))
        )
    return " ".join(words if ordered else sorted(words))[:60]


def _style_slot(text: str) -> str:
    if _LANGUAGE_CUES.search(text):
        return "language"
    if _ANSWER_CUES.search(text):
        return "answer_style"
    return ""


def _likes(subject: str, content: str, *, importance: float = 0.6) -> _Match | None:
    if _QUESTION_WORDS.search(subject):
        return None
    style = _style_slot(subject)
    key = _subject_key(subject)
    if not style and not key:
        return None
    slot = style or f"likes:{key}"
    return _Match("preference", slot, importance, content)


def guess_type(text: str) -> str:
    """The type of a free-form statement ("기억해줘: ...") that no specific rule matched."""
    if _DECISION_CUES.search(text):
        return "decision"
    if _PROCEDURE_CUES.search(text.strip()):
        return "procedure"
    if _PREFERENCE_CUES.search(text):
        return "preference"
    if _EPISODE_CUES.search(text):
        return "episode"
    return "fact"


_RuleFn = Callable[[re.Match[str], str], _Match | None]
_RULES: list[tuple[re.Pattern[str], _RuleFn]] = []


def _rule(pattern: str, flags: int = 0) -> Callable[[_RuleFn], _RuleFn]:
    def register(fn: _RuleFn) -> _RuleFn:
        _RULES.append((re.compile(pattern, flags), fn))
        return fn

    return register


_I = re.IGNORECASE


@_rule(
    r"(?:내|제|나의|저의)\s*이름(?:은|는|이)\s*(?P<v>[^\s,.!?]+?)"
    r"(?:이야|야|이에요|예요|에요|입니다|이다|임|이라고\s*해|라고\s*해|이라고\s*합니다|라고\s*합니다)?"
    + _END
)
@_rule(
    r"^(?:나를|날|저를|나|저|나는|저는)?\s*(?P<v>[^\s,.!?]+?)(?:이)?라고\s*(?:불러|부르)\s*"
    r"(?:줘|주세요|줘요|주면\s*좋겠어|주면\s*좋겠어요|줬으면\s*좋겠어|주라)?" + _END
)
@_rule(r"\bmy\s+name\s+is\s+(?P<v>[^\s,.!?][^,.!?]{0,40}?)" + _END, _I)
@_rule(
    r"(?:^|,\s*|\bso\s+|;\s*)(?:please\s+|just\s+)?call\s+me\s+(?P<v>[^\s,.!?]{1,30})(?:,?\s+(?:not|instead\s+of|"
    r"rather\s+than)\s+[^\s,.!?]{1,30})?(?:,?\s+(?:please|from\s+now\s+on|going\s+forward|"
    r"(?:from\s+)?here\s+on|in\s+(?:the\s+)?future))*" + _END,
    _I,
)
def _name(match: re.Match[str], sentence: str) -> _Match | None:
    if _QUESTION_WORDS.search(match.group("v")):
        return None
    return _Match("fact", "name", 0.9, sentence)


@_rule(
    r"^" + _KO_SUBJECT + r"(?:지금\s*|현재\s*|요즘\s*)?(?P<v>[^?]+?)(?:에|에서)\s*"
    r"(?:살아|살고\s*있어|살고\s*있어요|살아요|삽니다|산다|살고\s*있습니다|살고\s*있다|거주해|"
    r"거주하고\s*있어|거주\s*중이야|거주\s*중이에요|살거든)" + _END
)
@_rule(
    r"^"
    + _KO_SUBJECT
    + r"(?:얼마\s*전에\s*|최근에\s*|이번에\s*|지난\s*\S+\s*)?(?P<v>[^?]+?)(?:으로|로)\s*"
    r"이사\s*(?:했어|했어요|했다|했습니다|왔어|왔어요|갔어|함|를\s*왔어|를\s*했어|를\s*갔어)" + _END
)
@_rule(
    r"\b(?:I\s*(?:now\s+|currently\s+)?(?:live|am\s+living|'m\s+living|reside|am\s+based|"
    r"'m\s+based)|the\s+user\s+(?:now\s+|currently\s+)?(?:lives|is\s+living|resides|is\s+based))"
    r"\s+in\s+(?P<v>[^?]+?)" + _END,
    _I,
)
@_rule(
    r"\bI\s*(?:just\s+|recently\s+|have\s+|'ve\s+|have\s+just\s+)?(?:moved|relocated)\s+to\s+"
    r"(?P<v>[^?]+?)" + _END,
    _I,
)
def _residence(match: re.Match[str], sentence: str) -> _Match | None:
    if _QUESTION_WORDS.search(match.group("v")):
        return None
    return _Match("fact", "residence", 0.8, sentence)


_KO_JOBS = (
    r"개발자|엔지니어|디자이너|기획자|학생|대학생|대학원생|교사|선생님|의사|간호사|변호사|회계사|"
    r"연구원|기자|작가|마케터|프로그래머|데이터\s*사이언티스트|PM|CTO|CEO|공무원|회사원|프리랜서"
)
_EN_JOBS = (
    r"developer|engineer|designer|student|teacher|doctor|nurse|lawyer|accountant|researcher|"
    r"writer|manager|scientist|analyst|programmer|consultant|architect|founder|cto|ceo|pm"
)


@_rule(
    r"(?:내|제)\s*직업(?:은|는|이)\s*(?P<v>[^?]+?)(?:이야|야|이에요|예요|입니다|이다|임)?" + _END
)
@_rule(
    r"^"
    + _KO_SUBJECT
    + r"(?P<v>[^?]+?)(?:으로|로)\s*(?:일해|일하고\s*있어|일하고\s*있어요|일합니다|근무해|"
    r"근무하고\s*있어|근무\s*중이야|일하는\s*중이야)" + _END
)
@_rule(
    r"^(?:나는|난|저는|전)\s+(?P<v>[^?]{0,30}?(?:"
    + _KO_JOBS
    + r"))(?:이야|야|예요|이에요|입니다|이다|임)"
    + _END
)
@_rule(r"\bI\s+work\s+as\s+(?:an?\s+)?(?P<v>[^?]+?)" + _END, _I)
@_rule(r"\bmy\s+(?:job|profession|occupation)\s+is\s+(?P<v>[^?]+?)" + _END, _I)
@_rule(r"^I\s*(?:'m|am)\s+(?:an?\s+)(?P<v>[\w\- ]{0,40}?(?:" + _EN_JOBS + r"))\b[^?]*$", _I)
def _job(match: re.Match[str], sentence: str) -> _Match | None:
    if _QUESTION_WORDS.search(match.group("v")):
        return None
    return _Match("fact", "job", 0.8, sentence)


@_rule(
    r"^"
    + _KO_SUBJECT
    + r"(?P<s>[^?]+?)(?:을|를|이|가|도)?\s*(?:정말|진짜|너무|아주|엄청|완전|제일|가장|특히)?\s*"
    r"(?:좋아(?:해|함|한다|합니다|해요|하거든|하는\s*편이야|하는\s*편이에요)|"
    r"선호(?:해|함|한다|합니다|해요))" + _END
)
@_rule(
    r"^" + _KO_SUBJECT + r"(?P<s>[^?]+?)(?:을|를|이|가|은|는|도)?\s*"
    r"(?:정말|진짜|너무|아주|엄청|완전|별로|제일|가장)?\s*"
    r"(?:안\s*좋아(?:해|함|한다|합니다|해요)|싫어(?:해|함|한다|합니다|해요|하거든)|"
    r"좋아하지\s*않(?:아|는다|습니다|아요))" + _END
)
@_rule(
    r"^(?:(?:and|also|oh|btw|by\s+the\s+way),?\s+)?"
    + _EN_SUBJECT
    + r"\s+(?:really\s+|absolutely\s+|just\s+|also\s+|truly\s+|kind\s+of\s+|generally\s+|"
    r"usually\s+|strongly\s+)?"
    r"(?P<verb>(?:like|love|enjoy|adore|dislike|hate|detest|prefer)s?|can't\s+stand|cannot\s+stand|"
    r"(?:don't|doesn't|do\s+not|does\s+not)\s+(?:like|enjoy))\s+(?P<s>[^?]+?)" + _END,
    _I,
)
def _preference(match: re.Match[str], sentence: str) -> _Match | None:
    found = _likes(match.group("s"), sentence)
    verb = match.groupdict().get("verb") or ""
    if (
        found
        and found.slot.startswith("likes:")
        and (verb.lower().startswith("prefer") or "선호" in sentence)
    ):
        # "prefer morning meetings" / "evening meetings": one choice among alternatives of
        # the same thing, so the thing (the last word) is the slot and the choice its value.
        words = _subject_key(match.group("s"), ordered=True).split()
        if len(words) > 1:
            return replace(found, slot=f"prefers:{words[-1]}")
    return found


@_rule(
    r"^(?:그리고\s*)?(?:앞으로(?:는)?|이제부터(?:는)?|지금부터(?:는)?|항상|매번|언제나)\s+(?P<b>.+?)\s*"
    + _KO_REQUEST
    + _END
)
@_rule(r"^(?:답변|대답|응답)(?:은|는)\s+(?P<b>.+?)\s*" + _KO_REQUEST + _END)
@_rule(
    r"^(?:ok(?:ay)?,?\s+|and\s+|also\s+)?(?:from\s+now\s+on|going\s+forward|in\s+the\s+future|"
    r"henceforth)[,:]?\s+(?P<b>.+?)" + _END,
    _I,
)
@_rule(
    r"^(?:please\s+)?(?:always|never)\s+(?P<b>(?:answer|respond|reply|use|write|format|keep|give|"
    r"include|speak|talk|call|address|explain|add|start|end)\b.+?)" + _END,
    _I,
)
def _procedure(match: re.Match[str], sentence: str) -> _Match | None:
    return _Match("procedure", _style_slot(sentence), 0.75, sentence)


@_rule(
    r"^(?P<b>.+?)(?:하기로|기로|으로|로)\s*(?:결정했어|결정했다|결정했습니다|결정했어요|정했어|정했다|"
    r"정했어요|결정함)" + _END
)
@_rule(r"\b(?:I|we)\s+(?:have\s+|'ve\s+|just\s+|finally\s+)?decided\s+(?P<b>[^?]+?)" + _END, _I)
@_rule(r"\bwe(?:'re|\s+are)\s+going\s+with\s+(?P<b>[^?]+?)" + _END, _I)
def _decision(match: re.Match[str], sentence: str) -> _Match | None:
    return _Match("decision", "", 0.8, sentence)


# --- standing requests about answers --------------------------------------------------------
# "단위는 미터법으로 써줘", "답할 때 내 이름 부르지 마", "Use bullet points when listing steps":
# a request to the assistant that holds for later answers, by what it is about (tone, length,
# format, language, units, sources, topics to avoid, what to store). A one-off request about
# something at hand ("이거 요약해줘", "Write a haiku") is not a memory.

_KO_ASKS = re.compile(
    r"(?:해\s*줘|해\s*주세요|해\s*줘요|해\s*주라|줘요|줘|주세요|주라|해라|하라|해요|하세요|"
    # the older forms: "답해주시오", "하지 마라", "보내지 말라"
    r"주시오|하시오|주오|마시오|마오|마라|말라|말게|"
    # the formal and the blunt: "주십시오", "주시기 바랍니다", "불러라", "써라"
    r"주십시오|하십시오|주시기\s*바랍니다|주시길\s*바랍니다|주시기\s*바래요|불러라|써라|말해라|"
    r"부탁(?:해|해요|드려요|합니다)|말아\s*(?:줘|주세요|줘요)|마세요|마|좋겠어요|좋겠어|좋겠다|"
    r"좋겠습니다|원해|바래|바라요|할\s*것|해|(?:해|써|불러|말해)도\s*(?:돼|돼요|괜찮아|좋아)|"
    r"말자|하자|드려요|드립니다|불러|줄\s*수\s*(?:있어|있을까|있나|있어요|있나요)\s*[?？]*|"
    # asked as a question or a wish: "친구처럼 말해주면 안돼?", "그거 좀 안 했으면"
    r"주면\s*안\s*(?:돼|될까|되나|되니|돼요|될까요)\??|(?:했|했으|줬|줬으|하지\s*않았)으?면|"
    # "표로 보여주는 게 좋아", "알려주시면 좋겠어요": what the user likes the assistant to do
    r"주는\s*(?:게|것이|거)\s*(?:좋아|좋아요|좋음|좋겠|편해|편해요|나아|나아요|나음)|주시면\s*좋겠\S*|"
    # "목록으로 정리해주면 읽기 편하더라": what has worked for the user before
    r"주(?:시)?면\s*(?:[가-힣]+\s*)?(?:편하|좋|낫)(?:더라고?요?|던데요?|아요?|음|네요?|습니다)|"
    r"(?:어|아|해|워)도\s*(?:돼|돼요|됨|괜찮아|괜찮아요|괜찮음|좋아|좋아요))"
    r"(?=[\s.!~,ㅎㅋㅠ^?]|$)"
)
# Said of answers in general: a topic-marked property of answers, a condition, a habit.
_KO_STANDING = re.compile(
    r"(?:답변|답장|답글|대답|응답|설명|말투|톤|어조|단위|날짜|시간|금액|숫자|코드|주석|예시|예제|링크|출처|목록|"
    r"정리|번역|추천|요약|농담|호칭|이름|형식|표기|용어|영어\s*단어)(?:[가-힣]{0,3}?\s*(?:은|는|할|할\s*때|"
    r"때|땐|에|마다|끝|마지막|맨)|\s+[가-힣]{1,3}(?:엔|에는|은|는)\s)|"
    # the length of every answer: "핵심만 세 줄로", "결론만"
    r"(?:핵심|요점|결론)만|[0-9한두세네]\s*줄\s*(?:로|이내|이하|만|씩|정도)|"
    r"[가-힣]\s*(?:때|땐)(?:는|에는|마다|도)?(?=\s|$)|"
    r"[가-힣](?:으면|면|거든)\s|(?:전에는|전엔|전까지)|마다|"
    r"(?:얘기|이야기|주제|질문|말)(?:은|는|엔|에는|할\s*땐|할\s*때는)\s|꺼내지|언급하지|물어보지|"
    r"(?:얘기|이야기)\s*(?:말고|빼고|대신)|(?:기간|동안)(?:에는|엔|에|은|는)\s|"
    r"호칭|이름으로|라고\s*(?:불러|부르)|"
    # a kind of thing opening a request as its topic, "엔" being "에는" run together ("파이썬
    # 코드엔 ... 넣어줘"); "저녁엔 운동해요" tells a habit, "-해요" being a statement too
    r"^(?:[A-Za-z0-9+#.]+\s+)?[가-힣]+(?:\s+[가-힣]+)?엔\s.*(?:줘|줘요|주세요|주라)[\s.!~]*$|"
    r"(?:해도|어도|아도|내도|봐도|써도|해도)\s|"
    r"(?:^|\s)(?:앞으로|앞으론|이제부턴|지금부턴|항상|매번|늘|언제나|계속|가끔|평소에?|기본적으로|"
    r"기본으로|무조건)(?:\s|$)|"
    r"(?:나|저)(?:한테|에게)(?:는|만)?\s|(?:는|은)\s*건\s|"
    r"반말|존댓말|높임말|말투|이모지|이모티콘|딱딱|글머리|불릿|문장으로|본론|"
    # the words and marks answers are written with: "한자어 많이 쓰지 마", "★ 같은 특수기호는
    # 쓰지 말아주세요", "전문 용어 섞지 말아줘"
    r"한자어|외래어|전문\s*용어|어려운\s*(?:말|단어|표현|용어)|줄임말|신조어|비속어|은어|사투리|"
    r"특수\s*(?:기호|문자)|기호|느낌표|물음표|괄호|말줄임표|따옴표|"
    r"(?:같은|이런|그런)\s*[가-힣]+(?:은|는)\s|"
    r"(?:쓰지|사용하지|섞지)\s*(?:마(?:세요|라|요)?|말아\s*(?:줘|주세요|줘요))(?=[\s.!~,]|$)|"
    # the manner of speaking: "친구처럼 말해줘", "편하게 얘기해줘"
    r"처럼\s*(?:말|얘기|이야기|대답|답|대해|설명)|"
    r"(?:한국어|영어|일본어|중국어|한글)(?:로|으로)\s*(?:답|대답|말|써|설명|달아)|"
    r"저장하지|기억하지|저장\s*안|기록하지|"
    # "답변 길게 자세히 해줘", "그냥 짧게 답해줘": the manner of answers
    r"(?:답변|대답|답장|설명|(?<![가-힣])답)\s*(?:좀\s*)?[가-힣]+(?:게|히)(?=\s|$)|"
    r"[가-힣]+(?:게|히)\s*(?:답|대답|답변)\s*해"
)
_KO_ONE_OFF = re.compile(
    r"(?:^|\s)(?:이거|이걸|이것|이건|그거|그걸|저거|요거|요것|방금|오늘|내일|이번|지금\s*이)"
    r"|(?:^|\s)(?:이|그|저)\s+[가-힣]+(?:을|를|좀)\s"
    r"|(?:위|밑|아래)에?\s*(?:꺼|거|것|글|내용)|(?:^|\s)(?:이|그|요)\s+(?:글|기사|메일|이메일|문장|"
    r"코드|내용|문서|자료|보고서|논문|영상|사진|파일|링크|답변|대화|책|노래|부분|문단|단락|슬라이드|"
    r"자소서|표|목록|리스트|단어|표현|기호|이모지|문구|용어)"
)
_EN_ASKS = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+|(?:would|is)\s+it\s+(?:be\s+)?(?:ok|okay|fine|possible)\s+"
    r"(?:to|if\s+you)\s+|do\s+you\s+mind\s+)?(?:please\s+|pls\s+|also\s+|and\s+|oh,?\s+and\s+)?"
    r"(?:(?:actually|ok|okay|so|hey|oh|but|yeah|also)[,\s]+)*(?:always\s+|never\s+|just\s+|not\s+)?"
    r"(?:use|answer|reply|respond|write|keep|give|explain|format|add|include|show|don't|"
    r"do\s+not|dont|avoid|ignore|be|make|put|start|end|stick|prefer|stop|skip|limit|cite|mention|"
    r"save|store|remember|record|forget|bring\s+up|ask|remind|get|sign|list|quote|check|"
    r"link|refer|point|label|mark|highlight|bold|italici[sz]e|switch|"
    r"talk|speak|address|translate|break|number|spell|round|default|tone\s+down|go\s+easy)\b|"
    r"^(?:please\s+)?(?:when(?:ever)?|if|unless|any\s*time|each\s+time|every\s+time|for|in)\b[^,]{2,80},"
    r"\s*(?:please\s+)?(?:always\s+|just\s+)?\w+|"
    # "when i ask for recipes give grams not cups": the condition without its comma
    r"^(?:when(?:ever)?|if)\s+i\s+[^,?]{2,60}?\s+(?:please\s+)?(?:give|use|put|show|list|add|include|"
    r"write|answer|reply|keep|make|convert|say|tell|start|end|skip|mark)\b|"
    # "if you're not sure just say so": a condition on the assistant's own state
    r"^(?:when(?:ever)?|if|unless)\s+you(?:'re|\s+are|\s+aren't|\s+are\s+not|\s+don't|\s+do\s+not|"
    r"\s+can't|\s+cannot|'re\s+not)\s+[^,?]{2,40}?\s+(?:please\s+)?(?:just\s+)?(?:say|tell|ask|admit|"
    r"answer|reply|write|give|use|let)\b|"
    # leave to the assistant: "you can talk casually to me now"
    r"^you\s+(?:can|could|may)\s+(?:talk|speak|drop|use|be|skip|call|answer|reply|write|"
    r"stop|keep|go)\b|"
    r"^(?:I'd|I\s+would)\s+(?:like|prefer|love|rather)\b|^I\s+want\s+(?:you|your|answers|replies|"
    r"responses|shorter|longer)\b",
    re.IGNORECASE,
)
_EN_STANDING = re.compile(
    r"\b(?:always|never|from\s+now\s+on|going\s+forward|by\s+default|when(?:ever)?|if|unless|"
    r"every\s+time|each\s+time|even\s+when|in\s+general|generally|answers?|replies|responses?|"
    r"things|everything|explanations?|code|examples?|comments?|units|metric|imperial|celsius|"
    r"fahrenheit|kilomet(?:er|re)s?|miles|dates?|times|time\s*zones?|numbers|emojis?|bullet|"
    r"bullets|lists?|disclaimers?|typos|grammar|spelling|mistakes|feedback|jargon|tone|sources?|"
    r"links?|summary|tl;?dr|store|save|remember|record|using|punctuation|exclamation|caps|"
    r"capitals?|headings?|headers?|markdown|tables?|slang|abbreviations?|formatting|style|"
    r"spelling|prices|amounts|money|currency|euros?|dollars?|won|yen|pounds|my\s+messages|"
    r"what\s+i\s+write|(?:to|get\s+to)\s+the\s+point|straight|options|words|paragraphs?|"
    r"sentences?|questions?|anything\s+about|unless|time|hours?|clock|notes|track|casual|"
    r"formal|formally|casually|friendly|polite|professional|warm|blunt|gentle|simple|brief|"
    # the language of every answer ("reply in English"), not of one translation ("into French")
    r"short|concise|in\s+(?:english|korean|japanese|chinese|spanish|french|german)|"
    # the level of every explanation: "explain like I'm 12"
    r"call(?:ing)?\s+me\b|like\s+(?:i'?m|im|i\s+am)\s+(?:\d+|five|ten|twelve|a\s+(?:kid|child|beginner)|"
    r"in\s+(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth)\s+grade)|grams|cups|ounces|"
    r"detailed|serious|funny|playful|apologi\w+|sorry|disclaimers?|caveats?|filler|headers|"
    # measures named by their symbols or as a kind: "temps in °C and °F", "weights in kg"
    r"temps?|temperatures?|measurements?|kg|lbs?|mph|kph|"
    # commands shown for the user to run, one to a line
    r"commands?|(?:separate|own|new|single)\s+lines?|one\s+per\s+line)\b|"
    r"(?:°\s*[cf]|℃|℉)(?![a-z])|"
    # Verbs that are about manner whatever follows them.
    r"^(?:please\s+)?(?:always\s+|never\s+|just\s+)?(?:use|avoid|skip|talk|speak|address)\b|"
    r"\b(?:don't|do\s+not|stop)\s+(?:use|using|keep|keeping|call|calling)\b",
    re.IGNORECASE,
)
_EN_ONE_OFF = re.compile(
    r"\b(?:this|these|those|the\s+following|here|above|below|today|tonight|tomorrow|"
    r"right\s+now)\b|"
    # "a short summary of the French revolution": one thing made about one subject.
    r"\b(?:a|an)\s+(?:[\w-]+\s+){0,2}(?:summary|translation|poem|story|essay|overview|"
    r"example|explanation|outline|draft)\s+(?:of|about|on)\b|"
    # a task on a thing of the speaker's at hand: "check my code", "fix my essay"
    r"^(?:please\s+|pls\s+)?(?:check|fix|review|proofread|edit|debug|read|look\s+at|"
    r"go\s+over|rewrite)\s+my\b|"
    # one thing made for the speaker: "write me a regex that ...", "make me a playlist"
    r"^(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?(?:write|make|give|draft|create|"
    r"generate|build|come\s+up\s+with)\s+(?:me|us)\s+(?:a|an|some|one|two|three|\d+)\b",
    re.IGNORECASE,
)
_CONDITION = re.compile(
    r"^(?:please\s+)?(?:when(?:ever)?|if|unless)\b|(?:할|될|볼|줄|쓸|짤|풀|나올|있을)\s*(?:때|땐)|"
    r"[가-힣](?:으면|면)\s|마다",
    re.IGNORECASE,
)
_ANSWER_LANGUAGE = re.compile(
    r"(?:한국어|영어|일본어|중국어|한글)(?:로|으로)\s*(?:답|대답|말)|"
    r"\b(?:answer|reply|respond|speak|talk|write)\b[^.]{0,30}\bin\s+(?:english|korean|"
    r"japanese|chinese|spanish|french|german)\b",
    re.IGNORECASE,
)
_CODE_WORDS = re.compile(r"코드|주석|\b(?:code|comments?)\b", re.IGNORECASE)


# --- a preference about answers said without a verb -----------------------------------------
# "답변은 짧게. 핵심만", "no emojis pls", "tables > paragraphs for comparisons", "celsius and km
# please": a fragment that names a form of answers and a choice. Whether something at hand is
# meant ("위에꺼 표로") is judged as for requests.
_KO_FORM = re.compile(
    r"답변|답장|답글|대답|응답|(?<![가-힣])답(?:은|는|이)?(?=\s+[가-힣]+(?:게|히)\b)|"
    r"(?<![가-힣])답(?:은|는|이)(?=\s)|말투|어투|존댓말|반말|높임말|이모지|이모티콘|"
    r"글머리|불릿|요점|핵심|본론|형식|포맷|"
    r"결론\s*(?:부터|먼저|만)|[0-9한두세네]\s*줄|줄\s*(?:이내|이하)|단위|섭씨|화씨|미터법|"
    r"(?<![가-힣])표(?:로|가|는)|설명(?:은|이|을|도)(?=\s)|(?:한국어|영어|한글|일본어|중국어)(?:로|으로)|"
    # "설명 자세한 게 좋아", "답 짧은 편이 나아": a kind of answer liked
    r"(?:설명|답변|대답|답장)\s*[가-힣]+(?:한|은|운|인|는)\s*(?:게|거|편)"
)
_KO_FRAGMENT_END = re.compile(
    r"(?:게|히|만|로|으로|이내로|이하로|위주로|먼저|부터|좋음|괜찮음|ㄱ|그만|좋아|좋아요|괜찮아|괜찮아요|"
    r"[0-9한두세네]\s*줄|같이|함께)"
    r"\s*요?[\s.!~ㅎㅋㅠㅜ^]*$"
)
_MEASURES = (
    r"(?:grams|ounces|cups|tablespoons|teaspoons|pounds|lbs|kilograms|kilos|liters|litres|"
    r"milliliters|millilitres|inches|centimet(?:er|re)s|feet|met(?:er|re)s|celsius|fahrenheit)\b"
)
_EN_FORM = re.compile(
    r"\b(?:answers?|replies|responses?|tone|emojis?|emoticons?|tables?|bullets?|bullet\s+points?|"
    r"prose|paragraphs?|spelling|units?|celsius|fahrenheit|metric|imperial|km|kilomet(?:er|re)s?|"
    r"miles|indent\w*|semicolons?|tabs|tl;?dr|markdown|headings?|jargon|formal|casual|swearing|"
    r"cursing|slang|apologi\w+|disclaimers?|caveats?|filler|fluff|pleasantries|small\s+talk|"
    r"wall\s+of\s+text|verbose|concise|brief|shorter|longer|(?:british|american)\s+spelling|"
    r"oxford\s+comma|exclamation\s+(?:marks?|points?)|all\s+caps|examples?|type\s+hints|"
    r"docstrings|comments|(?:time|date)\s+format|24h|24[\s-]hour|prices|currency|"
    r"pep\s+talks?|motivational\s+\w+|cheerleading|lectures?|moralizing|moralising|"
    r"sugarcoating|hedging)\b|"
    # a unit of measure chosen: "in grams", "grams not cups" (not "2 cups of flour")
    rf"\bin\s+{_MEASURES}|{_MEASURES}\s*(?:,\s*)?(?:not|over|instead\s+of|rather\s+than)\s+{_MEASURES}",
    re.IGNORECASE,
)
_EN_CHOICE = re.compile(
    r"\b(?:please|pls|plz)\b|\s>\s|^no\s+(?:more\s+)?\w+|,\s*no\s+\w+|"
    r"\b(?:is|are)\s+(?:fine|ok|okay|better|best|preferred|good)\b|\binstead\s+of\b|"
    r"\bover\s+\w+|\botherwise\b|\bnext\s+time\b|\b(?:at|on)\s+the\s+(?:top|bottom|end|start)\b|"
    r",\s*not\s+\w+|\bwhen\s+\w+ing\b|\bif\s+possible\b|"
    # "tone: warm but professional": a setting of answers named before its value
    r"^(?:tone|format|formatting|length|style|language|units?|answers?|replies|emojis?|voice|"
    r"spelling|code\s+style)\s*:\s*\w",
    re.IGNORECASE,
)
_EN_NOT_FRAGMENT = re.compile(
    r"^(?:i|i'm|im|my|we|our|he|she|they|it|there|that|this)\b|\b(?:my|our|his|her|their|this|"
    r"that|these|those)\s+(?:\w+\s+)?(?:answers?|tables?|code|replies|responses?|units?|tone|"
    r"paragraphs?|lists?|spelling)\b|\b(?:was|were|did|had|got)\b",
    re.IGNORECASE,
)


def fragment_preference(sentence: str) -> bool:
    """True when `sentence` is a verbless choice about the form of answers ("답변은 짧게",
    "no emojis pls"), not about something at hand."""
    text = sentence.strip()
    if not text or len(text) > 120 or text.endswith("?"):
        return False
    if has_hangul(text):
        # "영어 단어 나오면 뜻도 같이": what to add to answers when something comes up
        included = re.search(r"[가-힣](?:으면|면)\s.*(?:같이|함께)\W*$", text)
        return (
            bool((_KO_FORM.search(text) or included) and _KO_FRAGMENT_END.search(text))
            and not _KO_ONE_OFF.search(text)
            and not _KO_WISH.search(text)
        )
    return (
        bool(_EN_FORM.search(text) and _EN_CHOICE.search(text))
        and not _EN_ONE_OFF.search(text)
        and not _EN_NOT_FRAGMENT.search(text)
    )


# "-면 좋겠다" without "주-": a wish about one's own life; "해주면 좋겠어" asks the assistant.
_KO_WISH = re.compile(r"(?<!주)(?<!줬)(?<!줄)(?<!주시)(?:으면|면|었으면|았으면)\s*좋겠")


# A reason said first ("눈이 어두우니 답은 짧게 ...", "나이가 많아서 ..."): the request after it
# opens where the sentence would have, and its topic marks it standing as it would there. Only
# an ending that can only ask: "당뇨가 있어서 단 음식은 조심해야 해요" tells the user's own rule.
_KO_REASON_FIRST = re.compile(
    r"^[^,.!?]{1,40}?(?:으니까|니까|니깐|으니|[가-힣]우니|하니|이니|아서|어서|해서|라서|이라서|므로|"
    r"길래)\s*,?\s+"
)
_KO_MANNER_NOT_REASON = re.compile(
    r"(?:게|히|(?:으)?로)\s+[가-힣]+(?:아서|어서|해서|여서)\s*,?\s*$"
)
_KO_ONLY_ASKS = re.compile(
    r"(?:줘|줘요|주세요|주시오|주오|주게|주라|주십시오|하시오|하세요|해라|하라|마시오|마세요|마라)[\s.!~]*$"
)


# The topic may be named by a few words ("매운 음식 레시피는 ..."): a kind of answer.
_KO_TOPIC_OPENING = re.compile(r"^[가-힣]+(?:\s+[가-힣]+){0,3}")
_KO_TOPIC_WORD = re.compile(r"[가-힣]*[은는](?=\s)")


def _ko_topic_opening(text: str) -> bool:
    """A request opened by a topic ("답변은 ...", "코드 예시는 ...", "매운 음식 레시피는 ..."):
    one of its first words ends in the topic particle "은/는" (Kiwi's JX), not a modifier's
    ending ("재밌는 얘기 해줘", "좋은 책 골라줘": one thing asked for now)."""
    opening = _KO_TOPIC_OPENING.match(text)
    if not opening:
        return False
    # the "은/는" of each of the opening words, where the next word follows
    particles = {
        m.end() - 1 for m in _KO_TOPIC_WORD.finditer(text, 0, min(len(text), opening.end() + 1))
    }
    if not particles:
        return False
    return any(
        token.start in particles and str(token.tag) == "JX" for token in _analyser().tokenize(text)
    )


# The forms an answer is laid out in ("목록으로", "표로", "번호 매겨서").
_KO_FORMAT_NOUNS = frozenset(
    """목록 리스트 표 불릿 글머리 글머리표 번호 개조식 마크다운 항목 단계 체크리스트""".split()  # noqa: SIM905
)
# Words that point at one answer: "다시 표로", "이것도 목록으로".
_KO_AGAIN = frozenset("""다시 또 한번 이것 그것 이거 그거 방금 위""".split())  # noqa: SIM905


# A thing at hand pointed at ("이 회의 시간", "그 일정"): the request is about it alone.
_KO_THIS_ONE = re.compile(r"(?:^|\s)(?:이|그|저|요)\s+[가-힣]")


def _ko_bare_format(text: str) -> bool:
    """A request naming only the layout of answers, with nothing at hand to lay out ("목록으로
    정리해서 보여줘", "번호 매겨서 써줘"): how answers are wanted. "이 데이터 표로 정리해줘",
    "회의록을 표로 만들어줘" or "다시 목록으로" lay out one thing now."""
    tokens = list(_analyser().tokenize(text))
    nouns = []
    for index, token in enumerate(tokens):
        tag = str(token.tag)
        following = str(tokens[index + 1].tag) if index + 1 < len(tokens) else ""
        if tag == "JKO" or token.form in _KO_AGAIN or tag in ("MM", "NP", "SL", "SN"):
            return False
        if tag.startswith("NN") and following not in ("XSV", "XSA"):
            nouns.append((token.form, following))
    return (
        bool(nouns)
        and all(form in _KO_FORMAT_NOUNS for form, _ in nouns)
        and any(following == "JKB" for _, following in nouns)
    )


# A complaint about how the answers are written: too long, too short, too stiff.
_KO_ANSWERS_WANTING = re.compile(r"너무\s*(?:길|짧|딱딱|장황|어렵|어려|복잡|길어|짧아|무겁|가볍)")


def standing_request(sentence: str) -> bool:
    """True when `sentence` asks the assistant for something that holds for later answers."""
    text = sentence.strip()
    if len(text) > 160 or _is_question(text):
        return False
    if _KO_WISH.search(text):
        return False  # "세컨하우스 있으면 좋겠다": the speaker's own wish, nothing asked
    if fragment_preference(text):
        return True
    if _KO_ASKS.search(text):
        reason = _KO_REASON_FIRST.match(text) if _KO_ONLY_ASKS.search(text) else None
        # "나트륨 적게 잡아서 알려줘": a manner ("-게/-로 ...아서") is part of the request
        if reason and _KO_MANNER_NOT_REASON.search(reason.group(0)):
            reason = None
        asked = text[reason.end() :] if reason else text
        standing = bool(
            _KO_STANDING.search(text)
            or _KO_STANDING.search(asked)
            or _ko_topic_opening(asked)
            or _ko_bare_format(text)
            # "이제 동부시간 기준으로 알려줘": the clock every answer is given in
            or (question_of(text) == "timezone" and not _KO_THIS_ONE.search(text))
            # "아 너무 딱딱하다 편하게 말해줘": the answers so far found wanting, and the
            # way every answer is to be written instead
            or (
                _KO_ANSWERS_WANTING.search(text)
                and _KO_ONLY_ASKS.search(text)
                and question_of(asked) in _ANSWER_SLOTS
            )
        )
        one_off = _KO_ONE_OFF.search(text)
    elif _EN_ASKS.search(text) or any(_EN_ASKS.search(c.strip()) for c in text.split(",")[1:]):
        # "my name's Priya, use that instead of 'user'": the request follows a statement
        standing, one_off = bool(_EN_STANDING.search(text)), _EN_ONE_OFF.search(text)
    else:
        return False
    return standing and (not one_off or bool(_CONDITION.search(text)))


_EN_FACET_CUT = re.compile(
    r"\s*[,;]\s*(?:and\s+|plus\s+)?|\s+(?:and|with|plus|&)\s+|\s+(?=in\s)", re.IGNORECASE
)
_KO_FACET_CUT = re.compile(r"\s*[,;]\s*(?:그리고\s+)?|\s+그리고\s+|\s+")
# How answers are to be written: the questions a compound request about answers may ask.
_ANSWER_SLOTS = frozenset(
    {"answer_formality", "answer_format", "answer_length", "answer_language", "units", "emoji"}
)


def facet_parts(request: str) -> list[tuple[str, str]]:
    """A request about answers that asks two questions at once ("short answers with bullet
    points please", "짧게, 불릿으로 답해줘", "존댓말로 짧게 답해줘") as one request per question,
    each with its slot; [] when it asks one question or cannot be cut cleanly."""
    text = request.strip().rstrip(" .!~")
    if has_hangul(text):
        words = [w for w in _KO_FACET_CUT.split(text) if w]
        if len(words) < 2:
            return []
        # the last word asks ("답해줘", "해주세요"); the words before it say how
        predicate = words[-1] if not question_of(words[-1]) else ""
        manners = words[:-1] if predicate else words
        # what stands before the first manner holds for each ("앞으로", "답변은")
        first = next((i for i, w in enumerate(manners) if question_of(w)), 0)
        prefix = " ".join(manners[:first])
        parts = [f"{prefix} {w} {predicate}".strip() for w in manners[first:] if question_of(w)]
    else:
        parts = [
            p
            for p in _EN_FACET_CUT.split(text)
            if p and p.strip() and not re.fullmatch(r"\s*(?:please|pls|plz|thanks)\s*", p, re.I)
        ]
    slotted = [(part, question_of(part)) for part in parts]
    slots = [slot for _, slot in slotted]
    if (
        len(slotted) < 2
        or not all(slot in _ANSWER_SLOTS for slot in slots)
        or len(set(slots)) != len(slots)
    ):
        return []
    return slotted


def _request_slot(sentence: str) -> str:
    if _ANSWER_LANGUAGE.search(sentence) and not _CODE_WORDS.search(sentence):
        return "language"
    return ""


@_rule(r"^(?P<b>.+)$")
def _standing(match: re.Match[str], sentence: str) -> _Match | None:
    if not standing_request(sentence):
        return None
    return _Match("procedure", _request_slot(sentence), 0.75, sentence)


_RECURRING = re.compile(
    r"매일|매주|매달|매년|마다|평일|주말마다|\b(?:every|daily|weekly|monthly|each)\b", re.IGNORECASE
)


@_rule(
    r"(?:(?:하|으|이)?라고|하도록|잊지\s*않게)\s*(?:알려|말해)\s*(?:줘|주세요|줘요|주라|줄래)|"
    r"리마인드\s*(?:해\s*줘|해\s*주세요|해줘요|부탁)|알림\s*(?:해\s*줘|줘|설정해\s*줘)|"
    r"상기시켜\s*(?:줘|주세요)"
)
@_rule(
    r"^(?:please\s+|pls\s+|also\s+)?(?:remind|ping|nudge)\s+me\s+(?:to|about|that|of|on|every)\b",
    _I,
)
def _reminder(match: re.Match[str], sentence: str) -> _Match | None:
    kind = "procedure" if _RECURRING.search(sentence) else "episode"
    return _Match(kind, "", 0.7, sentence)


_REMEMBER_KO_TRAILING = re.compile(
    r"^(?P<b>.+?)\s*[,.]?\s*(?:이거\s*|이것\s*|그거\s*|이\s*점\s*)?(?:꼭\s*|잘\s*)?"
    r"기억해\s*(?:줘|줄래|둬|두고|놔|놓아|라|주세요|줘요|둬요|두세요|주라|놔\s*줘)?" + _END
)
_REMEMBER_KO_LEADING = re.compile(
    r"^(?:꼭\s*)?기억해\s*(?:줘|둬|주세요|둬요)?\s*[:,]\s*(?P<b>.+?)" + _END
)
_REMEMBER_EN = re.compile(
    r"^(?:please\s+|pls\s+|also\s+|and\s+)?(?:always\s+)?(?:remember|keep\s+in\s+mind|"
    r"don't\s+forget|do\s+not\s+forget)(?:\s+that|:|,)?\s+(?P<b>[^?]+?)(?:,?\s+please)?" + _END,
    re.IGNORECASE,
)
_KO_BODY_TAIL = re.compile(
    r"\s*(?:(?:이)?라는\s*(?:거|것|걸|점)|(?:이)?라고|(?:는|은)\s*(?:거|것|걸|점)|거|것|걸)\s*(?:을|를)?$"
)


def _remembered(sentence: str) -> str | None:
    for pattern in (_REMEMBER_KO_LEADING, _REMEMBER_KO_TRAILING, _REMEMBER_EN):
        match = pattern.search(sentence)
        if match:
            body = _KO_BODY_TAIL.sub("", match.group("b").strip(" ,.:")).strip()
            return body or None
    return None


_TRAILING_NOISE = re.compile(
    r"(?:\s*(?:[ㅋㅎㅠㅜ]{2,}|\^\^|[\U0001F300-\U0001FAFF\u2600-\u27BF]+))+\s*[.!~]*$"
)


def split_sentences(text: str) -> list[str]:
    """Sentences, ended by punctuation, a line break, or (in chat) by laughter or crying
    written in jamo ("이사감ㅋㅋ 회사랑 가까워져서 ...")."""
    parts = re.split(
        # not after an abbreviation ("St. Mary's", "Dr. Kim", "e.g. tea")
        r"(?<![Ss]t\.)(?<![Dd]r\.)(?<![Mm]r\.)(?<![Mm]s\.)(?<!Mrs\.)(?<!e\.g\.)(?<!i\.e\.)(?<!vs\.)"
        r"(?<=[.!?。])\s+|\n+|(?<=[가-힣][ㅋㅎㅠㅜ])\s+|(?<=[ㅋㅎㅠㅜ]{2})\s+",
        text.replace("’", "'"),
    )
    cleaned = [_TRAILING_NOISE.sub("", p.strip()).strip() for p in parts]
    out: list[str] = []
    for part in (p for p in cleaned if p):
        naming = _EN_NAMING.match(part)
        if out and naming and not _EN_NAMING_FINITE.search(part[naming.end() :]):
            # "we got a puppy! a beagle named Mochi": the phrase names what was just told
            out[-1] = f"{out[-1].rstrip(' .!')}, {part[:1].lower()}{part[1:]}"
        else:
            out.append(part)
    return out


# A phrase that only names the thing of the sentence before it: "a tabby named Miso", "her
# name's Bella", "called Rex".
_EN_NAMING = re.compile(
    r"^(?:(?i:(?:an?|the)\s+(?:[\w-]+\s+){0,3}?(?:named|called))\s+[A-Z]|"
    r"(?i:(?:his|her|its|their)\s+name(?:'s|\s+is))\s+[A-Z]|(?i:named|called)\s+[A-Z])"
)
_EN_NAMING_FINITE = re.compile(
    r"\b(?:I|you|we|is|are|was|were|will|has|have|had|did|does|do)\b", re.IGNORECASE
)


# "When you cite facts, include the source" opens like a question but asks for something.
_EN_CONDITIONAL_REQUEST = re.compile(
    r"^(?:when(?:ever)?|if)\b[^,?]{2,80},\s*\w|^(?:when(?:ever)?|if)\s+i\s+[^,?]{2,60}?\s+(?:please\s+)?"
    r"(?:give|use|put|show|list|add|include|write|answer|reply|keep|make|convert|say|tell|start|end|"
    r"skip|mark)\b[^?]*$",
    re.IGNORECASE,
)


# "친구처럼 말해주면 안 돼?", "could you always answer in Korean?": a request put as a question.
_REQUEST_QUESTION = re.compile(
    r"주면\s*안\s*(?:돼|될까|되나|되니|돼요|될까요|되겠니|되나요)\s*[?？]+$|"
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:always|never|start|stop|keep|try\s+to|not)\b|"
    r"^(?:would|is)\s+it\s+(?:be\s+)?(?:ok|okay|fine|possible)\s+(?:to|if)\b|^do\s+you\s+mind\b|"
    r"줄\s*수\s*(?:있어|있을까|있나|있어요|있나요)\s*[?？]+$",
    re.IGNORECASE,
)


def _is_question(sentence: str) -> bool:
    text = sentence.strip()
    if _REQUEST_QUESTION.search(text):
        return False
    if text.endswith("?"):
        return True
    return bool(_EN_QUESTION.match(text)) and not _EN_CONDITIONAL_REQUEST.match(text)


_REQUEST_RULES = ("_standing", "_procedure", "_reminder")


def _match_rule(sentence: str) -> tuple[_Match, str] | None:
    for pattern, fn in _RULES:
        found = pattern.search(sentence)
        if found:
            result = fn(found, sentence)
            if result is not None:
                return result, fn.__name__
    return None


_MATERIAL = re.compile(r"^(?P<ask>[^:]{2,80}?):\s*\S")


def _statement_not_request(sentence: str) -> bool:
    """A sentence the standing-request reading took for a request that is a wish or a plain
    statement about oneself ("회사에서는 주로 파이썬으로 개발해요": "-해요" is both a
    statement and a polite request; nothing in it is about answers)."""
    if statements.is_hypothetical(sentence):
        return True
    if _ANSWER_CUES.search(sentence) or _LANGUAGE_CUES.search(sentence):
        return False
    analysed = statements.analyse(sentence)
    return bool(analysed) and all(
        s.memorable and s.clause.subject in ("speaker", "circle") and s.clause.lang == "ko"
        for s in analysed
    )


def _sentences(text: str) -> list[str]:
    """Sentences, Korean ones also where no punctuation ends them (Kiwi's splitter). What
    follows a task's colon ("이 메일 좀 다듬어줘: ...", "Translate this: ...") is the task's
    material, not something the user says about themselves."""
    out: list[str] = []
    for sentence in split_sentences(text):
        material = _MATERIAL.match(sentence)
        if material and statements.remember_cue(material.group("ask"))[1]:
            material = None  # "기억해줘: ..." asks to keep what follows
        if material and any(
            s.clause.mood == "request" for s in statements.analyse(material.group("ask"))
        ):
            out.append(material.group("ask"))
            continue
        if has_hangul(sentence) and len(sentence) > 12:
            out.extend(p for p in statements.korean_sentences(sentence) if p.strip())
        else:
            out.append(sentence)
    return out


_EN_ASK_THEN_STATEMENT = re.compile(
    r"^(?P<ask>[^,]{3,80}?)\s*,\s*(?P<rest>(?:I|I'm|I've|I'll|we|we're|we've|my|our)\b.+)$",
    re.IGNORECASE,
)
# A request after its reason: "I'm in Tokyo for a month, so use JST", "이사 왔으니까 ...".
_EN_SO_THEN_ASK = re.compile(r"^.*?,?\s+so\s+(?:please\s+)?(?P<ask>.+)$", re.IGNORECASE)


def _request_question(request: str) -> str:
    """The question a request about answers asks, read from the request itself when a reason
    stands beside it: "keep it short, I'm on my phone" asks the length, not the phone; "I'm in
    Lisbon for now, so use Lisbon time" asks the time zone."""
    text = request.strip()
    ask_first = _EN_ASK_THEN_STATEMENT.match(text)
    if ask_first and standing_request(ask_first.group("ask")):
        return question_of(ask_first.group("ask"))
    after = _EN_SO_THEN_ASK.match(text)
    return question_of(text) or (question_of(after.group("ask")) if after else "")


def _item(
    statement: statements.Statement, *, slot: str, kind: str, importance: float, confidence: float
) -> ExtractedItem:
    return ExtractedItem(
        type=kind,
        content=statement.content,
        importance=importance,
        stated_by_user=True,
        confidence=confidence,
        slot=slot,
        happens_on=statement.happens_on,
    )


def _statement_items(
    sentence: str, *, today: date | None, forced: bool, message: str, task: bool
) -> list[ExtractedItem]:
    """Items from one sentence that is not a request: the analyser's clean facts, typed and
    slotted as the rules type and slot the sentence (name, residence, job, likes)."""
    if REDACTION_MARKER.search(sentence):
        # A statement around a redacted secret ("내 비밀번호는 [redacted: password]야") is
        # passed on as it is, for the write policy to refuse: it is never rebuilt without it.
        return [ExtractedItem(type="fact", content=sentence, stated_by_user=True, confidence=0.9)]
    rule = _match_rule(sentence)
    found = rule[0] if rule else None
    analysed = statements.analyse(sentence, today=today)
    if forced:
        analysed = [statements.force(s) for s in analysed]
    kept = [s for s in analysed if s.memorable]
    if statements.serves_a_task(message) and not forced:
        kept = [
            s for s in kept if not s.clause.negated and not statements.serves_a_task(s.clause.text)
        ]
    if task and not forced:
        # Next to a task ("목차 좀 짜줘"), a bare phrase is the task's material.
        kept = [s for s in kept if not s.clause.verbless]
    sarcastic = statements.is_sarcasm(sentence) or statements.is_sarcasm(message)
    if sarcastic and not forced:
        return []  # "i love working 90 hour weeks /s": not even an explicit rule's reading
    if not kept and found is not None and analysed and not forced:
        # An explicit statement the rules know ("나 부산으로 이사했어") is kept even when the
        # clause reading doubts it, unless it is a question, hypothetical or quotation.
        first = analysed[0]
        # a name to be called by is quoted ("나를 '언니'라고 불러줘"), not someone's words
        moods = (
            ("statement", "request", "exclamation", "quotation")
            if rule and rule[1] == "_name"
            else (
                "statement",
                "request",
                "exclamation",
            )
        )
        # "와이프 친구가 판교로 이사했어": another person's move is no rule's reading of the user
        if first.clause.mood in moods and first.clause.content and first.clause.subject != "other":
            kept = [statements.force(first, passing=True)]
    sentence_slot = question_of(sentence)
    if not kept and sentence_slot in _MEASURE_SLOTS and analysed and not forced:
        # "다이어트 성공해서 지금 66키로!", "down to 68kg after the race": the user's own
        # measure, said in passing, answers the question a memory holds
        first = analysed[0]
        # "down to 68kg ...": no subject named is the speaker's; "this bag weighs ..." is not
        named = first.clause.subject != "speaker" and _EN_NAMED_SUBJECT.match(sentence.strip())
        if first.clause.mood in ("statement", "exclamation") and not named:
            kept = [statements.force(first, passing=True)]
    if not kept and sentence_slot in _CURRENT_SLOTS and analysed and not forced:
        # "Upgraded to a Pixel this morning", "doing paleo right now": a thing the user has one
        # of at a time, told with when it began, is the current answer, not a passing moment
        first = analysed[0]
        if first.reason == "momentary" and first.clause.subject == "speaker":
            kept = [statements.force(first, passing=True)]
    items = []
    for statement in kept:
        slot = (
            question_of(statement.content)
            or question_of(statement.clause.plain)
            or question_of(statement.clause.text)
        )
        if not slot and len(kept) == 1 and sentence_slot in _CURRENT_SLOTS:
            slot = sentence_slot  # "Quit vegan, doing paleo now": the change names the question
        if not slot and sentence_slot in _MEASURE_SLOTS and re.search(r"\d", statement.content):
            slot = sentence_slot  # "68 나옴" after "좀 빠져서": the number is the measure
        kind = statement.type
        importance = 0.6
        if found is not None and len(kept) == 1:
            if statement.happens_on is None:
                kind = found.type
            importance = found.importance
        if forced:
            importance = max(importance, 0.7)
            if kind == "fact":
                kind = guess_type(statement.clause.text)
        items.append(_item(statement, slot=slot, kind=kind, importance=importance, confidence=0.9))
    return items


_EN_NAMED_SUBJECT = re.compile(
    r"(?:this|that|these|those|the|my|our|his|her|their|a|an|it|he|she|they|you)\b",
    re.IGNORECASE,
)
# Questions about the user's own measures, answered by a number.
_MEASURE_SLOTS = frozenset({"weight"})
# Questions with one current answer, which a change told with its day answers.
_CURRENT_SLOTS = frozenset({"diet", "phone", "car", "timezone", "work_shift"})
_AFTERTHOUGHT_WORDS = 2
_AFTERTHOUGHT_MAX_WORDS = 4


def _afterthought(sentence: str) -> bool:
    """A few words without a verb, a question or a request ("대구 수성구", "간헐적단식 중")."""
    if _is_question(sentence) or len(sentence.split()) > _AFTERTHOUGHT_MAX_WORDS:
        return False
    analysed = statements.analyse(sentence)
    return bool(analysed) and all(
        s.clause.verbless
        and s.clause.mood == "statement"
        and s.clause.subject in ("speaker", "circle")
        for s in analysed
    )


def _only_a_reason(body: str) -> bool:
    """What stands beside a remember cue is only why to remember ("잊으면 큰일나니까",
    "so I don't forget"): a condition or a reason, nothing stated."""
    if re.search(
        r"(?:니까|니깐|거든|라서|어서|아서)\s*$|\bso\s+(?:i|you)\s+don'?t\s+forget\b", body
    ):
        analysed = statements.analyse(body)
        return not any(s.memorable for s in analysed)
    return False


def _parting(sentence: str) -> bool:
    """Every clause parts with a when only ("내일 봐요", "talk to you on monday"): no rule
    reads a habit or a request into it."""
    analysed = statements.analyse(sentence)
    return bool(analysed) and all(s.clause.mood == "greeting" for s in analysed)


def _passing_state(sentence: str) -> bool:
    """Every clause of the sentence tells a passing state ("지금 너무 졸려", "I'm so tired rn")
    or cries out at what just happened ("와 방금 끝내기 홈런")."""
    analysed = statements.analyse(sentence)
    return bool(analysed) and all(s.reason in ("momentary", "exclamation") for s in analysed)


def _tells_news(sentence: str) -> bool:
    """A short sentence that tells the speaker's news whatever came before it: it names the
    speaker ("나 합격함") or tells what was done or is planned ("붙었어")."""
    return any(
        s.memorable
        and (
            s.clause.tense != "present"
            or re.search(r"(?:^|\s)(?:나|저|내가|제가|I)\b", s.clause.text)
        )
        for s in statements.analyse(sentence)
    )


# Pasted code: a call glued to its name ("print(i)", "df.head()"), a statement ending in ";",
# braces, or a line opened by a keyword of a programming language.
_CODE = re.compile(
    # (";;" at the end is a chat sweat-drop, "냄새만 맡아도 토할거같음;;", not a statement's end)
    r"(?<![\w.])[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*\((?!s\))[^()]*\)|(?:[{}]|(?<!;);)\s*$|"
    r"^\s*(?:def|class|import|return|const|let|var|function|public|private|#include)\s+\w|"
    r"^\s*from\s+[\w.]+\s+import\b|==|!=|&&|\|\||</?[a-z]+(?:\s[^>]*)?>|"
    # an assignment by an operator ("i += 1"), a loop or a test over a variable
    r"\b[a-z_]\w*\s*(?:\+=|-=|\*=|/=|%=)|"
    r"^\s*(?:for|while|if)\s+[a-z_]\w*\s+(?:in|<|>|<=|>=)\s+\S+.*[:(){}\[\]]",
    re.IGNORECASE,
)


def _with_answers(sentences: list[str]) -> list[str]:
    """A question the speaker asks and answers at once ("Favorite food? Ramen, easily.",
    "최애 음식? 라면") is one statement: "Favorite food: Ramen, easily."."""
    out: list[str] = []
    index = 0
    while index < len(sentences):
        sentence = sentences[index]
        if index + 1 < len(sentences) and _topic_question(sentence):
            out.append(f"{sentence.rstrip(' ?？')}: {sentences[index + 1]}")
            index += 2
            continue
        if (
            index + 1 < len(sentences)
            and _KO_ANSWERS_WANTING.search(sentence)
            and _KO_ONLY_ASKS.search(sentences[index + 1])
        ):
            # "아 너무 길다. 짧게 해줘": the complaint is the reason of the request after it
            out.append(f"{sentence.rstrip()} {sentences[index + 1]}")
            index += 2
            continue
        out.append(sentence)
        index += 1
    return out


_SELF_QUESTION_WORDS = 4


def _topic_question(sentence: str) -> bool:
    """A few words asked without a verb and without "you" ("Favorite food?", "최애 음식?")."""
    text = sentence.strip()
    if not text.endswith(("?", "？")) or len(text.split()) > _SELF_QUESTION_WORDS:
        return False
    bare = text.rstrip(" ?？")
    if re.search(r"\b(?:you|your|u|ur|what|who|where|when|why|how|which)\b", bare, re.I):
        return False
    if _QUESTION_WORDS.search(bare) or _EN_QUESTION.match(bare):
        return False
    if has_hangul(bare):
        analysed = statements.analyse(bare)
        return bool(analysed) and all(s.clause.verbless for s in analysed)
    return not re.search(
        r"\b(?:is|are|was|were|am|do|does|did|have|has|had|can|could|will|would|should)\b|"
        r"\b\w+(?:ed|ing)\b",
        bare,
        re.I,
    )


# What the learned gate never vetoes, because its embedding reads short statements badly and
# these are kept whatever their length: a lasting condition of health, diet or language, a
# routine, and a plan on a named day ("저 당뇨 있어요", "yoga on sundays", "다음달 제주 여행감").
_CONDITION_WORDS = re.compile(
    r"알레르기|알러지|당뇨|고혈압|저혈압|천식|비염|아토피|채식|비건|색맹|색약|난독증|adhd|공황장애|"
    r"우울증|갑상선|디스크|편두통|불면증|글루텐|유당\s*불내증|임신|"
    # what the body does each time ("땅콩 먹으면 두드러기 나", "배 타면 멀미해")
    r"두드러기|멀미|배탈|재채기|"
    r"\b(?:allerg\w*|diabet\w*|asthma\w*|vegetarian|vegan|pescatarian|celiac|coeliac|"
    r"colou?r[\s-]?blind|dyslexi\w*|adhd|migraines?|insomnia|intoleran\w*|pregnan\w*|"
    r"speaks?|fluent|native\s+speaker|hives|motion[\s-]sick\w*)\b",
    re.IGNORECASE,
)


def _beyond_the_gate(sentence: str) -> bool:
    if _CONDITION_WORDS.search(sentence):
        return True
    if statements.habitual(sentence) or question_of(sentence):
        return True  # a routine, or an answer to a question the slots know ("favorite band is")
    if _DECIDED.search(sentence):
        return True  # a decision said as one ("FastAPI로 가기로 했어", "decided to sell the car")
    if _JOINED.search(sentence):
        return True  # "컴공 새내기 됨", "와이프가 디자이너로 네이버 들어갔어요": a new place
    if _CIRCLE_ATTRIBUTE.search(sentence):
        return True  # "와이프 차는 레이야", "my son's school is Hanbit": one's people's facts
    change = given_up(sentence)
    if change.named or change.slots:
        return True  # "인터넷 KT로 갈아탐": a change answers the question an old memory holds
    return bool(
        _AHEAD.search(sentence)
        or dates.resolve_dates(sentence, today=date(2000, 1, 1), future=True)
    )


_RELATIVES_KO = "|".join(sorted((w for w in RELATION_OF if has_hangul(w)), key=len, reverse=True))
_RELATIVES_EN = "|".join(
    sorted((w for w in RELATION_OF if not has_hangul(w)), key=len, reverse=True)
)
# A person or animal of the speaker's, one of their things and what it is: "와이프 차는 레이야",
# "아들 학교는 한빛초", "my wife's car is a Ray".
_CIRCLE_ATTRIBUTE = re.compile(
    rf"(?:^|\s)(?:{_RELATIVES_KO})(?:의)?\s*[가-힣]{{1,6}}(?:은|는)\s+\S+|"
    rf"\b(?:{_RELATIVES_EN})'s\s+(?:[a-z-]+\s+)?[a-z-]+\s+(?:is|are)\s+\S+",
    re.IGNORECASE,
)
# Joining a school or a workplace, the speaker's or one's family's: a standing that lasts.
_JOINED = re.compile(
    r"새내기|신입생|신입\s*사원|입사|입학|취직|"
    r"(?:으로|로)\s+(?:\S+\s+){0,2}들어(?:갔|감|왔|옴)|"
    r"\b(?:joined|started\s+(?:at|working\s+at)|got\s+into|hired\s+(?:at|by)|enrolled\s+(?:at|in))\b",
    re.IGNORECASE,
)
_DECIDED = re.compile(
    r"기로\s*(?:했|함|결정|정했|정함)|(?:으로|로)\s*(?:결정|확정)(?:했|함)|"
    r"\b(?:decided\s+(?:to|on|against)|settled\s+on|made\s+up\s+my\s+mind|i'?m\s+going\s+with)\b",
    re.IGNORECASE,
)
_AHEAD = re.compile(
    r"다음\s*(?:주|달|해)|이번\s*(?:주말|달)|내년|모레|\d+\s*월|"
    r"\b(?:next\s+(?:week|month|year|spring|summer|fall|autumn|winter)|this\s+(?:weekend|month)|"
    r"in\s+(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)|on\s+the\s+\d{1,2}(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)


# "... 내가 맡음 ㅠ 살려줘", "... send help": a cry after the news, no task for the assistant.
_CRY_FOR_HELP = re.compile(
    r"[\s,.!~ㅠㅜ]*(?:살려\s*(?:줘|주세요|줘요|주라)|send\s+help)"
    r"[\s!.~ㅠㅜㅋ]*$",
    re.IGNORECASE,
)
# "todo: ...", "할 일: 리본 주문, ...": a list of tasks to do, not facts about the user.
_TASK_LIST = re.compile(
    r"^\s*(?:[-*•]\s*)?(?:to[\s\-]?dos?|할\s*일|할\s*거|해야\s*할\s*(?:일|것|거)|오늘\s*할\s*(?:일|거)|"
    r"체크\s*리스트|check\s*list|shopping\s+list|grocery\s+list|errands|장\s*(?:볼|보기)\s*(?:거|것)?)"
    r"\s*(?:목록|리스트|list)?\s*[:：]",
    re.IGNORECASE,
)


def extract_statements(
    text: str, *, today: date | None = None, statements_allowed: bool = True
) -> list[ExtractedItem]:
    """What the user stated about themselves in `text`: one clean item per fact.

    Requests that hold for later answers ("앞으로 존댓말로 해줘", "use bullet points") are kept
    as said; statements are read clause by clause (`statements.analyse`) and rewritten as
    clean phrases, relative dates resolved against `today` (the message's date). A request to
    remember ("기억해줘", "remember that") makes the statement it is attached to memorable; a
    cue standing alone does so for the other sentences of the message.

    `statements_allowed=False` (the learned gate judged the message not worth keeping,
    `memories.services.gate`) drops the statements that no remember cue asks to keep and no
    explicit rule reads (name, residence, job, likes, decisions); requests for later answers
    are still read.
    """
    if _TASK_LIST.match(text):
        statements_allowed = False
    text = _CRY_FOR_HELP.sub("", text) or text
    # "I live in Seoul. Scratch that, I live in Busan": only what the correction says stands
    text = statements.corrected(text)
    # "바꿨어 갤럭시로": the change in the usual order, for the slots and the change's reading
    sentences = [statements.in_usual_order(s) for s in _sentences(statements.in_usual_order(text))]
    cued_alone = False
    parts: list[tuple[str, bool]] = []
    # "남편 생일 3월 9일 잊으면 큰일 나. 기억해줘": what forgetting would cost is the reason
    # for the request, wherever the request stands
    asked = any(statements.remember_cue(s)[1] or _remembered(s) for s in sentences)
    for sentence in _with_answers(sentences):
        body, cued = statements.remember_cue(sentence)
        old = _remembered(sentence) if body else None
        if old is not None:
            body, cued = old, True
        if asked:
            body = statements.without_forget_warning(body)
        if cued and (not body or _only_a_reason(body)):
            # "까먹으면 큰일나니까 꼭 기억해둬": the cue is for the rest of the message
            cued_alone = True
            continue
        parts.append((body, cued))
    aside = statements.is_aside(text)
    task = any(
        s.clause.mood == "request" for sentence, _ in parts for s in statements.analyse(sentence)
    ) or _is_question(text)
    items: list[ExtractedItem] = []
    requests: set[int] = set()  # indices of items that are requests about later answers
    passing = False
    for sentence, cued in parts:
        added = len(items)
        after_passing, passing = passing, _passing_state(sentence)
        if (
            after_passing
            and not cued
            and len(sentence.split()) <= _AFTERTHOUGHT_WORDS
            and not _tells_news(sentence)
            and not standing_request(sentence)  # "...편하네요. 반말로 해줘": the ask stands
        ):
            # "지금 버스 안이야. 자리 없음", "와 방금 끝내기 홈런. 소리질러": a remark on the
            # passing state or the cry before it
            continue
        if (
            _is_question(sentence)
            or _EN_WELL_WISH.match(sentence)
            or len(sentence) > 300
            or _parting(sentence)
        ):
            continue
        introduced = names.self_introduction(sentence)
        if introduced is not None:
            # "I'm Sam Carter", "나 김민지야": the name slot, never a fact "Is Sam Carter"
            note, rest = introduced
            items.append(
                ExtractedItem(
                    type="fact",
                    content=note,
                    importance=0.9,
                    stated_by_user=True,
                    confidence=0.9,
                    slot="name",
                )
            )
            if not rest:
                continue
            sentence = rest  # "I'm Sam Carter, a nurse from Ohio": the rest is read below
        rule = _match_rule(sentence)
        ask_first = _EN_ASK_THEN_STATEMENT.match(sentence)
        if (
            (rule is None or rule[1] not in _REQUEST_RULES)
            and ask_first
            and standing_request(ask_first.group("ask"))
        ):
            # "switch to celsius please, I live in Berlin now": a request, then its reason
            rule = (_Match("procedure", _request_slot(sentence), 0.75, sentence), "_standing")
        if cued and rule is not None and rule[1] not in _REQUEST_RULES:
            rule = None  # "기억해줘: ..." before a statement: the statement is read below
        if rule is not None and rule[1] == "_standing" and _statement_not_request(sentence):
            rule = None
        if rule is not None and rule[1] in _REQUEST_RULES:
            found = rule[0]
            slot = _request_question(found.content)
            previous = items[-1] if items and len(items) - 1 in requests else None
            if previous is not None and rule[1] == "_standing" and slot in ("", previous.slot):
                # "답변은 짧게. 핵심만": a fragment of the same request completes the one before
                items[-1] = replace(previous, content=f"{previous.content} {found.content.strip()}")
                continue
            # "short answers with bullet points", "짧게, 불릿으로": one memory per question
            # asked, so a later "bullet points please" replaces the format and keeps "short"
            for content, part_slot in facet_parts(found.content) or [(found.content, slot)]:
                requests.add(len(items))
                items.append(
                    ExtractedItem(
                        type=found.type,
                        content=content.strip(),
                        importance=max(found.importance, 0.7) if cued else found.importance,
                        stated_by_user=True,
                        confidence=0.9,
                        slot=part_slot,
                    )
                )
            continue
        if aside and not cued:
            continue
        if (
            not statements_allowed
            and not (cued or cued_alone)
            and rule is None
            and not _beyond_the_gate(sentence)
        ):
            continue  # a statement a known rule reads ("I live in ...") is not vetoed
        if _CODE.search(sentence) and not cued:
            continue  # pasted code ("for i in range(10) print(i)") is material, not a statement
        items.extend(
            _statement_items(
                sentence, today=today, forced=cued or cued_alone, message=text, task=task
            )
        )
        if added == len(items) and items and _afterthought(sentence):
            # "부모님이랑 같이 살아요 대구 수성구": a bare phrase after a statement completes it
            items[-1] = replace(
                items[-1], content=f"{items[-1].content} ({sentence.strip(' .!~')})"
            )
    unique: dict[str, ExtractedItem] = {}
    for item in items:
        unique.setdefault(normalise_text(item.content), item)
    return [item for key, item in unique.items() if key]


def slot_of(text: str) -> str:
    """The slot a free-form memory fills ("" if none), for memories typed in by hand."""
    return question_of(text)


# --- paraphrases --------------------------------------------------------------------------

_NEGATIVE = re.compile(
    r"싫어|싫다|안\s*좋아|좋아하지\s*않|별로|\b(?:(?:hate|dislike|detest)s?|"
    r"(?:don't|doesn't|do\s+not|does\s+not)\s+(?:like|enjoy)|can't\s+stand|cannot\s+stand|"
    r"not\s+a\s+fan)\b",
    re.IGNORECASE,
)
_POSITIVE = re.compile(
    r"좋아|선호|\b(?:(?:like|love|enjoy|prefer|adore)(?:s|d|ed)?|fan\s+of)\b", re.IGNORECASE
)
_FILLER = frozenset(
    """나 나는 난 저 저는 전 내가 제가 내 제 나의 저의 진짜 정말 너무 아주 완전 엄청 꼭 좀
    그냥 지금 요즘 현재 그리고 근데 참 사실 이거 그거 것 거 기억해 기억해줘 해줘 줘 주세요 해
    하는 편이야 i i'm im me my mine myself am is are was were be been being the a an to of in
    on at for and or but that this it really very so just please also do does would you your
    i'd i've lot much 한다 합니다 해요 했어 사용자 사용자는 사용자가 유저 user""".split()  # noqa: SIM905
)


def polarity(text: str) -> int:
    """-1 for a dislike, +1 for a like or preference, 0 for neither."""
    if _NEGATIVE.search(text):
        return -1
    return 1 if _POSITIVE.search(text) else 0


def content_words(text: str) -> frozenset[str]:
    """The words that carry meaning, stemmed; fillers and like/dislike verbs left out."""
    stripped = _POSITIVE.sub(" ", _NEGATIVE.sub(" ", text))
    words = set()
    for word in normalise_text(stripped).split():
        if word in _FILLER:
            continue
        stem = stem_english(word) if word.isascii() else _strip_particle(word)
        if stem and stem not in _FILLER:
            words.add(stem)
    return frozenset(words)


def _same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    minimum = 3 if short.isascii() else 2
    return len(short) >= minimum and long_.startswith(short)


# A comparison names the lesser and the greater thing: "고양이보다 개를", "dogs more than
# cats", "prefer dogs to cats"; turned around it says the opposite.
_KO_COMPARISON = re.compile(r"(\S+?)보다\s+(\S+)")
_EN_GREATER_FIRST = re.compile(
    r"\b(\w+)\s+(?:more\s+than|rather\s+than|over)\s+(\w+)|\bprefer\w*\s+(\w+)\s+to\s+(\w+)",
    re.IGNORECASE,
)


def comparison(text: str) -> tuple[str, str] | None:
    """(lesser, greater) of a comparison in the text, stemmed, or None."""
    found = _KO_COMPARISON.search(text)
    if found:
        lesser, greater = found.group(1), found.group(2)
        return _strip_particle(_strip_particle(lesser)), _strip_particle(_strip_particle(greater))
    found = _EN_GREATER_FIRST.search(text)
    if found:
        greater, lesser = (g for g in found.groups() if g)
        return stem_english(lesser.lower()), stem_english(greater.lower())
    return None


def adds_nothing(a: str, b: str) -> bool:
    """True when one text says nothing the other does not: same polarity, no new content word.

    Embeddings put "나는 커피를 좋아해" and "나는 차를 좋아해" as close as true paraphrases;
    this is the lexical check that tells them apart.
    """
    if polarity(a) != polarity(b):
        return False
    compared_a, compared_b = comparison(a), comparison(b)
    if compared_a and compared_b and compared_a != compared_b:
        return False  # "고양이보다 개" against "개보다 고양이"
    words_a, words_b = content_words(a), content_words(b)
    if not words_a or not words_b:
        return normalise_text(a) == normalise_text(b)
    small, big = sorted((words_a, words_b), key=len)
    return all(any(_same_word(w, v) for v in big) for w in small)
