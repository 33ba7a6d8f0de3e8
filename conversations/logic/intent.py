"""What kind of thing a message asks to recall, from the shape of the question. Pure.

Four kinds, Korean and English, each recognised by the words that make a question of its
kind rather than by whole sentences:
- `plans`: what the user planned or decided ("뭐 하기로 했지?", "what am I supposed to do
  next week?");
- `current`: the present value of one slot of the user's profile, where they live, their job,
  their name ("요즘 어디 살지?", "where am I living now?"); past questions about the slot
  ("예전에 어디 살았지?") are `past`, since they ask for an older value;
- `preference`: what the user likes or prefers ("내가 좋아하는 음식이 뭐였지?");
- `past`: something that happened ("지난주에 어디 갔었지?", "what did I do yesterday?").
A message of none of these has kind "" and changes no order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from memoryhub import text as text_analysis


class Kind(StrEnum):
    NONE = ""
    PLANS = "plans"
    CURRENT = "current"
    PREFERENCE = "preference"
    PAST = "past"


@dataclass(frozen=True)
class Intent:
    kind: Kind = Kind.NONE
    # For `current` (and `past` about a slot): which slot, as the memories app names it.
    slot: str = ""
    question: bool = False

    def memory_types(self) -> tuple[str, ...]:
        """The memory types that answer a question of this kind, best first."""
        if self.kind == Kind.PLANS:
            return ("decision", "episode")
        if self.kind == Kind.CURRENT:
            return (SLOT_TYPES.get(self.slot, "fact"),)
        if self.kind == Kind.PREFERENCE:
            return ("preference",)
        if self.kind == Kind.PAST:
            return ("episode",)
        return ()

    def answer_slots(self) -> tuple[str, ...]:
        """The memory slots whose current value answers a question about `slot` (none for a
        question about no slot)."""
        return ANSWER_SLOTS.get(self.slot, (self.slot,)) if self.slot else ()

    def asks_current_value(self) -> bool:
        """Whether the question asks for the present value of a slot ("지금 어디 살아?"),
        which the current version of a memory filling one of `answer_slots` answers."""
        return self.kind == Kind.CURRENT and bool(self.slot)


# The memory type a slot's memories have (memories.logic.extraction_schema.SLOT_NAMES).
SLOT_TYPES = {
    "residence": "fact",
    "job": "fact",
    "name": "fact",
    "language": "preference",
    "answer_style": "preference",
}
# The memory slots (memories.logic.slots) that answer a question about each slot above: an
# employer answers "what is my job now?" as a job title does ("workplace" and "job" stay two
# slots there, as both can be true at once), and how to answer is four slots.
ANSWER_SLOTS = {
    "job": ("job", "workplace"),
    "answer_style": ("answer_formality", "answer_format", "answer_length", "answer_language"),
}

_I = re.IGNORECASE

_QUESTION_KO = re.compile(
    r"(?:뭐|뭘|무엇|어디|언제|누구|왜|몇|어떻게|어떤|무슨|어느)"
    r"|(?:지|니|냐|나요|까|까요|죠|지요|더라|던가|던데|는지|은지|ㄴ지|래)\s*[?？.!~]*\s*$"
    r"|(?:알려\s*줘|알려\s*주세요|말해\s*줘|말해\s*주세요|기억\s*나)",
)
_QUESTION_EN = re.compile(
    r"^\s*(?:what|where|when|who|whom|which|why|how|do|does|did|am|is|are|was|were|have|has|"
    r"had|can|could|will|would|should|tell\s+me|remind\s+me)\b|\bdo\s+you\s+(?:remember|know)\b",
    _I,
)

_PLANS = re.compile(
    # Korean: "-기로 하다/정하다" (decided to), "-려고 하다" (meant to), plan nouns, and
    # the future of an appointment ("할 거", "할 예정").
    r"기로\s*(?:했|하|한|정했|정한|결정)|[려러]고\s*(?:했|하던|한)|(?:ㄹ|할|갈|볼|올)\s*(?:거|예정)|"
    r"계획|예정|일정|약속|결정|정했|할\s*일|해야\s*(?:하|할|돼|되)|"
    r"\bplan(?:s|ned|ning)?\b|\bdecid(?:e|ed|ing)\b|\bdecision\b|\bgoing\s+to\b|"
    r"\bsupposed\s+to\b|\bschedul(?:e|ed)\b|\bagreed?\s+to\b|\bappointments?\b|\bto-?dos?\b|"
    r"\bmeant\s+to\b|\bintend(?:ed)?\s+to\b|\bwhat(?:'s|\s+is)\s+next\b|\bneed\s+to\s+do\b",
    _I,
)
_SLOT_CUES: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"어디\s*(?:에서|에|서)?\s*(?:살|산다|산대|삽니|사[는니냐나세시]|거주)|사는\s*(?:곳|데|동네)|"
        r"(?:집|거주지|주소)\s*(?:이|가|는)?\s*어디|어느\s*(?:동네|도시)|"
        r"\bwhere\s+(?:do|did|am)\s+i\s+(?:live|living|stay|staying)\b|\bwhere\s+i\s+live\b|"
        r"\bmy\s+(?:address|home\s+town|hometown|city)\b|\bwhere(?:'s|\s+is)\s+my\s+home\b",
        _I,
    ),
    "job": re.compile(
        r"직업|직장|회사|무슨\s*일\s*(?:을\s*)?(?:해|하)|하는\s*일|어디서\s*일|어디\s*다녀|"
        r"\bmy\s+(?:job|work|occupation|profession|employer|company)\b|"
        r"\bwhere\b.*\bi\s+work\b|\bwhat\s+do\s+i\s+do\s+for\s+(?:a\s+)?(?:living|work)\b",
        _I,
    ),
    "name": re.compile(
        r"(?:내|제)\s*이름|성함|뭐라고\s*불러|\bmy\s+name\b|\bwhat\s+am\s+i\s+called\b|"
        r"\bwho\s+am\s+i\b",
        _I,
    ),
    "answer_style": re.compile(
        r"말투|존댓말|반말|답변\s*(?:스타일|방식|형식)|어떻게\s*(?:답|대답)|"
        r"\bhow\s+(?:should|do)\s+you\s+(?:answer|respond|reply|talk)\b|\banswer\s+style\b",
        _I,
    ),
}
_PREFERENCE = re.compile(
    # Korean verbs fuse their endings into the stem's last syllable: 좋아한다, 좋아함, 좋아합니다.
    r"좋아[하한함합했해]|싫어[하한함합했해]|선호|취향|즐겨|입맛|최애|"
    r"\b(?:like|likes|liked|love|loved|prefer|prefers|preferred|enjoy|enjoyed|hate|hated|"
    r"dislike|disliked)\b|\bfavou?rites?\b|\btaste\s+in\b",
    _I,
)
_PAST = re.compile(
    r"었|았|했|갔|왔|봤|셨|지난|저번|어제|그저께|그제|예전|전에|원래|"
    r"\b(?:did|was|were|had|went|saw|used\s+to|before|previously|yesterday|last|ago|earlier)\b",
    _I,
)
# Words that put a slot question in the present even when an ending looks past.
_NOW = re.compile(r"지금|요즘|현재|이제|최근|\bnow\b|\bcurrently\b|\bthese\s+days\b|\btoday\b", _I)
# "예전에 어디 살았지?" asks for an older value, not the current one.
_FORMERLY = re.compile(
    r"예전|원래|전에는|그\s*전에|이사\s*(?:가기\s*)?전|\bused\s+to\b|\bbefore\b|\bpreviously\b|"
    r"\bformer(?:ly)?\b|\bold\b",
    _I,
)


def is_question(text: str) -> bool:
    stripped = text.strip()
    if not stripped:
        return False
    if "?" in stripped or "？" in stripped:
        return True
    return bool(_QUESTION_KO.search(stripped) or _QUESTION_EN.search(stripped))


def classify(text: str) -> Intent:
    """The kind of recall `text` asks for; kind "" when it asks none of the four."""
    question = is_question(text)
    if not question:
        return Intent(question=False)
    slot = next((name for name, cue in _SLOT_CUES.items() if cue.search(text)), "")
    if _PLANS.search(text):
        return Intent(Kind.PLANS, slot, question)
    if slot:
        formerly = _FORMERLY.search(text) and not _NOW.search(text)
        return Intent(Kind.PAST if formerly else Kind.CURRENT, slot, question)
    if _PREFERENCE.search(text):
        return Intent(Kind.PREFERENCE, "", question)
    if _PAST.search(text):
        return Intent(Kind.PAST, "", question)
    return Intent(question=question)


def answer_rank(
    intent: Intent, *, memory_type: str, slot: str, is_plan: bool, in_period: bool | None = None
) -> int:
    """0 for a memory that answers the question, 1 for one of the kind that may, 2 (or more)
    for the rest; sorting by it (stably) puts answers first and keeps the score order within
    each.

    A plan is an episode still ahead (it expires once its date has passed) or a decision.
    `in_period` is None when the question names no time, else whether the memory is about the
    time it names ("다음 주 계획", "plans for next week"): then a plan of that time answers, and
    the other plans come after it.
    """
    if intent.kind == Kind.PLANS:
        plan = memory_type == "decision" or (memory_type == "episode" and is_plan)
        if in_period is not None:
            if in_period and (plan or memory_type == "episode"):
                return 0
            return 1 if plan else (2 if memory_type == "episode" else 3)
        if plan:
            return 0
        return 1 if memory_type == "episode" else 2
    if intent.kind == Kind.CURRENT:
        if slot and slot in intent.answer_slots():
            return 0
        return 1 if memory_type in intent.memory_types() else 2
    if intent.kind == Kind.PREFERENCE:
        return 0 if memory_type == "preference" else 2
    if intent.kind == Kind.PAST:
        if slot and slot in intent.answer_slots():
            return 0
        if memory_type == "episode":
            return 1 if is_plan else 0
        return 2
    return 2


def text_answers(intent: Intent, text: str, *, in_period: bool | None = None) -> bool:
    """Whether a past message reads like an answer of the question's kind (a plan stated in
    it for a question about plans, a liking for one about preferences). `in_period` as for
    `answer_rank`: a question naming a time is answered by what is said of that time."""
    if intent.kind == Kind.PLANS:
        if in_period is not None:
            return in_period
        return bool(_PLANS.search(text))
    if intent.kind == Kind.PREFERENCE:
        return bool(_PREFERENCE.search(text))
    if intent.kind == Kind.PAST:
        return bool(_PAST.search(text)) if in_period is None else in_period
    return False


# Words that say what kind of thing a question asks for, or when, rather than what it is
# about: no topic of their own ("뭐 하기로 했지? 계획" asks for plans about nothing named).
_KIND_WORDS = frozenset(
    text_analysis.normalise(word)
    for word in """계획 예정 일정 약속 결정 직업 직장 회사 이름 성함 취향 최애 말투 존댓말 반말
    답변 대답 기억 얘기 이야기 대화 질문 내용 전 예전 원래 최근 현재 다음 지난 이번 지난주 다음주
    이번주 주말 작년 올해 내년 지난달 다음달 이번달 주 달 년 월 일 오전 오후 아침 저녁 밤 요일
    plan plans planned decide decided decision schedule appointment todo job work occupation
    profession employer company name live living address home hometown town city favorite
    favourite taste like liked love loved prefer preferred enjoy enjoyed hate hated dislike
    remember recall tell told say talk talked mention mentioned ask asked happen happened
    yesterday last ago earlier previously currently lately recently day week weekend month year
    today tomorrow morning afternoon evening night time""".split()  # noqa: SIM905
)


def topic_terms(text: str) -> frozenset[str]:
    """What a question is about: its content words (nouns for Korean), normalised as the index
    normalises them, without the words that only say what kind of thing or what time it asks
    for. Empty for a question that names no subject ("뭐 하기로 했지?", "what did I plan?")."""
    found = {text_analysis.normalise(term) for term in text_analysis.terms(text)}
    return frozenset(term for term in found if term not in _KIND_WORDS and not term.isdigit())
