"""What the user said, as recall and the offline reply may tell it back. Pure.

A user's sentence is a statement when it says something (`summarize.says_something`: not a
question, not filler, no marker of something taken out) and asks nothing of the assistant
(`is_request`: "기억해 줘", "알려 주세요", "please remember", "can you ..."). Only statements
are quoted back as what the user said: never a question they asked, a request, or anything
the assistant said.

A message says nothing to recall when, short, it has no word but acknowledging, thanking,
laughing or greeting ("ㅇㅋ", "ㅋㅋㅋ", "thanks!", "👍", "네"): `small_talk` names its kind.
"""

from __future__ import annotations

import re
from enum import StrEnum

from conversations.logic import summarize
from memoryhub import text as text_analysis

_I = re.IGNORECASE

# A sentence that asks the assistant to do something: Korean request endings ("-해 줘",
# "-주세요", "-줄래?", "부탁해") and the bare imperative of keeping something ("기억해",
# "적어 둬"); English polite requests and imperatives at the start of the sentence.
_REQUEST_KO = re.compile(
    r"(?:줘|줘요|줘라|주세요|주셔요|줄래|줄래요|주실래요|주시겠어요|주십시오|주실\s*수|"
    r"부탁(?:해|해요|할게|할게요|드려요|드립니다|합니다)?|"
    r"기억\s*해|기억해\s*둬|적어\s*둬|메모해|저장해|알려\s*줘|하자|해\s*봐|봐\s*봐|"
    r"해라|하세요|하십시오)\s*[.!~…ㅎㅋ^]*\s*$"
)
_REQUEST_EN = re.compile(
    r"^\W*(?:please|pls|plz|kindly|can\s+you|could\s+you|would\s+you|will\s+you|"
    r"remember|memori[sz]e|note|jot|save|store|keep\s+in\s+mind|don'?t\s+forget|"
    r"do\s+not\s+forget|tell\s+me|remind\s+me|show\s+me|give\s+me|help\s+me|let'?s|"
    r"let\s+me\s+know|make\s+sure|write\s+(?:this|that|it)\s+down)\b"
    r"|\bplease\W*$",
    _I,
)
_CLAUSE_END = re.compile(r"(?<=[,;])\s+")


def is_request(sentence: str) -> bool:
    """Whether `sentence` asks the assistant to do something rather than says something."""
    said = sentence.strip()
    return bool(_REQUEST_KO.search(said) or _REQUEST_EN.search(said))


def is_statement(sentence: str) -> bool:
    """Whether `sentence` states something the user may be told they said."""
    return summarize.says_something(sentence) and not is_request(sentence)


def statements(text: str) -> list[str]:
    """The statements of `text`, in order. A sentence that carries a marker of something
    taken out keeps its clauses that carry none ("I fly to Busan on Friday, password is
    [redacted: password]" states "I fly to Busan on Friday")."""
    found: list[str] = []
    for sentence in summarize.split_sentences(text):
        if not text_analysis.carries_marker(sentence):
            parts = [sentence]
        else:
            parts = [c.rstrip(",; ") for c in _CLAUSE_END.split(sentence) if c.strip(",; ")]
        found += [part for part in parts if is_statement(part)]
    return found


def user_statement(*, role: str, text: str) -> str:
    """What of a message may be quoted back as what the user said: its statements, joined;
    "" for the assistant's messages and for messages that only ask."""
    if role != "user":
        return ""
    return " ".join(statements(text))


class SmallTalk(StrEnum):
    NONE = ""
    THANKS = "thanks"
    LAUGH = "laugh"
    GREETING = "greeting"
    WELLBEING = "wellbeing"
    BYE = "bye"
    ASK = "ask"
    ACK = "ack"


# Longer messages always carry something worth looking up.
SMALL_TALK_CHARS = 40
_SMALL_TALK_WORDS = frozenset(
    text_analysis.normalise(word)
    for word in """lol lmao rofl haha hahaha hehe wow omg yay cool nice yup yep nope ok okay
    bye goodbye night goodnight morning cheers welcome thx ty np 대박 헐 굿 굿굿 안녕 하이
    ㅎㅇ 오키 오케 넵 넹 웅 엉 아하 그렇구나 바이 수고 최고 짱 인정 ㅇㅋ
    화이팅 파이팅 자다 가다 지내다 sup""".split()  # noqa: SIM905
)
_THANKS = re.compile(r"고마|감사|ㄱㅅ|땡큐|thank|thx|\bty\b|🙏", _I)
_LAUGH = re.compile(r"[ㅋㅎ]{2,}|\b(?:lol|lmao|rofl|ha(?:ha)+|he(?:he)+)\b|[😂🤣😆😄😁😹]", _I)
_GREETING = re.compile(
    r"안녕(?!\s*히)|하이|ㅎㅇ|좋은\s*아침|\b(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))\b|👋",
    _I,
)
_WELLBEING = re.compile(
    r"잘\s*(?:지내|지냈|있었)|어떻게\s*지내|별일\s*없|"
    r"\bhow\s+(?:are|r)\s+(?:you|u|ya)\b|\bhow(?:'s|\s+is)\s+it\s+going\b|\bwhat'?s\s+up\b|"
    r"\bsup\b",
    _I,
)
_BYE = re.compile(
    r"잘\s*(?:자|있어|가)|안녕히|다음에\s*(?:봐|봬|보자)|바이|수고|"
    r"\b(?:bye|goodbye|good\s*night|see\s+you|later|cya)\b",
    _I,
)


def small_talk(text: str) -> SmallTalk:
    """The kind of a message that says nothing to recall, SmallTalk.NONE for any other.

    Such a message is short and has no content word but acknowledging, thanking, laughing
    or greeting; a question of that shape ("진짜?", "really?") asks for more, while one that
    asks what is remembered ("뭐 하기로 했지?", "what do you remember?") is no small talk.
    """
    said = text.strip()
    if not said or len(said) > SMALL_TALK_CHARS:
        return SmallTalk.NONE
    words = {text_analysis.normalise(t) for t in text_analysis.terms(said, predicates=True)}
    if any(not (summarize.is_filler_word(w) or w in _SMALL_TALK_WORDS) for w in words):
        return SmallTalk.NONE
    if _WELLBEING.search(said):
        return SmallTalk.WELLBEING
    if _QUESTION_WORD.search(said) and len(_WORD.findall(said)) > 1:
        return SmallTalk.NONE  # "우리 애 몇 살이더라 🤔": one-syllable nouns are no terms
    if summarize.is_question(said) or "?" in said or "？" in said:
        return SmallTalk.ASK if not words and not _ASKS_RECALL.search(said) else SmallTalk.NONE
    for kind, pattern in (
        (SmallTalk.THANKS, _THANKS),
        (SmallTalk.BYE, _BYE),
        (SmallTalk.GREETING, _GREETING),
        (SmallTalk.LAUGH, _LAUGH),
    ):
        if pattern.search(said):
            return kind
    return SmallTalk.ACK


# A question word with anything beside it asks about something ("몇 살이더라", "when is it");
# alone ("언제?", "what?") it asks for more. "뭐" is left out: "뭐해?" is chit-chat.
_QUESTION_WORD = re.compile(
    r"몇|언제|어디|누구|무슨|어떤|얼마|어떻게|"
    r"\b(?:what|when|where|who|whom|which|how\s+(?:many|much|old|long|often|far))\b",
    _I,
)
_WORD = re.compile(r"\w+")
# A short question that still asks what is remembered, though its words are all filler.
_ASKS_RECALL = re.compile(
    r"기억|했|였|었|았|더라|말했|하기로|remember|did\s+i|have\s+i|was\s+i|plan|decid", _I
)
