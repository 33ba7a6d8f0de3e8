"""Offline analysis of what a user says about themselves: pure functions over Kiwi tokens.

Each sentence is cut into clauses (Korean at a coordinating "-고"/"-며", English at "and"
before a new verb or "I"), and each clause is read for its subject (the speaker, someone of the
speaker's circle, somebody else, or the assistant), predicate, tense (past, present, future,
plan), negation and kind of sentence (statement, question, hypothetical, quotation, request,
exclamation), whether it tells a passing state ("배고파", "I'm tired right now") and whether it
is an aside or a retraction ("농담이야", "asking for a friend"). A clause about the speaker that
states something lasting is memorable, typed (fact, preference, episode, procedure, decision)
and rewritten as a clean phrase in the user's language: Korean as a nominalised phrase without
the pronoun ("서울 강남에 삶"), English without the subject, in the third person ("Lives in
Gangnam, Seoul"), relative dates made absolute against the message's date.

No templates of whole sentences: the decisions come from the grammar of the clause (Kiwi's EF
endings, EC connectives, EP tense, VV/VA predicates, NP pronouns, JKS/JX particles) and, in
English, from a small clause reading (pronouns, auxiliaries, verb forms).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from memories.logic import dates
from memories.logic.statements import english, korean
from memories.logic.statements.clause import (
    _ASIDE,
    _NOISE,
    Clause,
    Statement,
    is_hypothetical,
)
from memoryhub.text import REDACTION_MARKER, _analyser, has_hangul

__all__ = [
    "Clause",
    "Statement",
    "analyse",
    "clean",
    "corrected",
    "force",
    "is_aside",
    "is_hypothetical",
    "habitual",
    "in_usual_order",
    "is_sarcasm",
    "korean_sentences",
    "remember_cue",
    "serves_a_task",
    "without_forget_warning",
]


_MIN_CONTENT = 2
# A date that comes back every year or week is no one day: birthdays, anniversaries, habits,
# lunar dates.
_RECURRING_DATE = re.compile(
    r"생일|생신|기념일|음력|매년|매주|매달|마다|매일|\b(?:birthday|anniversary|every|each|"
    r"annual|yearly|weekly|monthly)\b",
    re.IGNORECASE,
)


# A day fixed for something to come, told in the past ("4월 20일로 날 잡았어", "booked it for
# March 3"): the booking is past, the day is ahead.
_ARRANGED = re.compile(
    r"날\s*(?:을\s*)?잡|날짜\s*(?:를\s*)?(?:잡|정)|예약|예매|확정|"
    r"\b(?:booked|scheduled|reserved|set\s+(?:it\s+)?for)\b",
    re.IGNORECASE,
)


def _judge(clause: Clause, *, today: date | None, tokens: Sequence[Any] | None) -> Statement:
    if clause.mood != "statement":
        return Statement(clause, False, clause.mood)
    if clause.subject in ("other", "assistant"):
        return Statement(clause, False, f"about {clause.subject}")
    if clause.momentary:
        return Statement(clause, False, "momentary")
    if len(clause.content) < _MIN_CONTENT:
        return Statement(clause, False, "empty")
    day = None
    content = clause.content
    habitual = korean.HABIT.search(clause.text) or english.HABIT.search(clause.text)
    if today is not None and not _RECURRING_DATE.search(clause.text) and not habitual:
        future = clause.tense != "past" or bool(_ARRANGED.search(clause.text))
        mentions = dates.resolve_dates(clause.text, today=today, future=future)
        if mentions:
            day = mentions[0].day
            content = dates.with_absolute_dates(
                content, today=today, korean=clause.lang == "ko", future=future
            )
    if clause.lang == "ko":
        assert tokens is not None
        kind = korean.clause_type(list(tokens), clause.text, clause.predicate, clause.tense, day)
        if kind == "episode" and clause.tense in ("plan", "future") and "예정" not in content:
            content = f"{content} (예정)"
    else:
        kind = english.clause_type(clause, day)
    if day is not None and kind == "procedure":
        day = None  # a habit's weekday is not one day
    return Statement(clause, True, "", type=kind, content=content, happens_on=day)


# Words that announce what follows rather than say anything ("참고로", "혹시 몰라서
# 말해두는데", "말하자면"): left out before the sentence is read.
_KO_PREFACE = re.compile(
    r"(?:^|(?<=\s))(?:참고로|혹시\s*몰라서|말해\s*두(?:는데|지만|자면)|말하자면|다름이\s*아니라|"
    r"있잖아(?:요)?|그리고|근데|아\s*맞다|"
    # "아 근데 사실 ...": the "아" that opens a correction or an afterthought
    r"^(?:아|앗|어)(?=\s+(?:근데|그리고|그런데|사실|참|실은)(?:\s|,))|"
    # a cry that opens the news ("대박 나 다음 달에 결혼함"): Kiwi may read "대박 나" as 대박나다
    r"^(?:대박|헐|세상에|아싸|야호|어머|아이고))(?=\s|[,.!]|$)[,.!]?"
)


# A correction of what one said before: what was said is quoted and left out, what follows
# "actually"/"사실" stands ("I said 33 earlier but actually I'm 34", "아까 서울 산다고 했는데
# 사실 부산 살아요", "... 전에 서울이라고 했는데").
_EN_CORRECTED = re.compile(
    r"^.*?\b(?:i\s+(?:said|told\s+you|mentioned|wrote|thought)|earlier|before)\b.*?"
    r"[,;]?\s*\b(?:but|though)\s+(?:actually|in\s+fact|really)\b\s*,?\s*(?=\S)",
    re.IGNORECASE,
)
_KO_SAID_BEFORE = (
    r"(?:다고|라고|다구|라구|댔|랬)\s*(?:했|말했|그랬|얘기했|적었)?(?:는데|지만|었는데|던데)"
)
_KO_CORRECTED = re.compile(
    rf"^.*?{_KO_SAID_BEFORE}\s*,?\s*(?:(?:사실(?:은)?|실은|근데|아니|아니고)\s*,?\s*)+(?=\S)"
)
_KO_SAID_BEFORE_AFTER = re.compile(
    rf"[,\s]+(?:아까|전에|저번에|예전에)\s+\S.{{0,30}}?{_KO_SAID_BEFORE}\s*[.!~]*$"
)


# Chat puts the verb of a change first and what it became after it ("바꿨어 갤럭시로", "번호
# 바꿨어 010-...로"): read in the usual order, "갤럭시로 바꿨어".
_KO_CHANGED_FIRST = re.compile(
    r"^(?P<topic>(?:\S+\s+){0,2}?)(?P<verb>(?:바꿨|옮겼|갈아\s*탔)(?:어요|어|음|다|네)?|바꿈|옮김|"
    r"갈아\s*탐)\s*[,~]?\s+(?P<new>[^.!?~]+?(?:으로|로))\s*(?P<end>[.!~]*)$"
)


def in_usual_order(sentence: str) -> str:
    """A change told verb first, in the usual order: "바꿨어 갤럭시로" -> "갤럭시로 바꿨어"."""
    return _KO_CHANGED_FIRST.sub(r"\g<topic>\g<new> \g<verb>\g<end>", sentence.strip())


# "Actually, scratch that, I'm 34": the retraction is of what came before, and what follows
# it stands.
_EN_RETRACTED = re.compile(
    r"^.*?\b(?:scratch\s+that|i\s+misspoke|let\s+me\s+correct\s+(?:that|myself)|correction)\b"
    r"[\s,.:;!—-]*(?=\S)",
    re.IGNORECASE,
)


def corrected(sentence: str) -> str:
    """What a correction says now, without what it corrects."""
    text = _KO_SAID_BEFORE_AFTER.sub("", _KO_CORRECTED.sub("", sentence))
    return _EN_RETRACTED.sub("", _EN_CORRECTED.sub("", text)) or sentence


_KO_OPENING_RUN_ON = re.compile(r"^(아|앗|어)(?=(?:근데|그리고|그런데)\s)")


def clean(sentence: str) -> str:
    """The sentence without laughter, emoji, prefaces and redaction markers (never rebuilt)."""
    text = REDACTION_MARKER.sub(" ", sentence)
    text = _NOISE.sub(" ", text)
    text = in_usual_order(corrected(text))
    text = _KO_OPENING_RUN_ON.sub(r"\1 ", text.strip())  # "아근데 사실 ..."
    # twice: "아 근데" leaves "근데" first once the "아" is gone
    text = _KO_PREFACE.sub(" ", _KO_PREFACE.sub(" ", text).strip())
    return re.sub(r"\s+", " ", text).strip()


def is_aside(text: str) -> bool:
    """A joke, a retraction or a question asked for someone else: nothing to remember."""
    return bool(_ASIDE.search(text))


def analyse(sentence: str, *, today: date | None = None) -> list[Statement]:
    """Every clause of one sentence with its verdict (memorable or why not)."""
    text = clean(sentence)
    if not text:
        return []
    if has_hangul(text):
        out: list[Statement] = []
        read = korean.read(text)
        for index, (clause, tokens) in enumerate(read):
            statement = _judge(clause, today=today, tokens=tokens)
            if statement.memorable and korean.fragment(clause, tokens):
                statement = replace(statement, memorable=False, reason="fragment")
            out.append(statement)
            if index and out[-1].memorable and out[-2].memorable:
                before, before_tokens = read[index - 1]
                if korean.change_then_value(before_tokens, tokens):
                    # "러닝 요일 바꿨어 | 이제 일요일 아침에 뛰어": what changed, then its value
                    out[-2:] = [_joined(out[-2], out[-1])]
        return out
    return [_judge(clause, today=today, tokens=None) for clause in english.read(text)]


def _joined(change: Statement, value: Statement) -> Statement:
    """One statement of a change and the value it gave, typed as the value."""
    clause = replace(
        value.clause,
        text=f"{change.clause.text} {value.clause.text}",
        plain=f"{change.clause.plain} {value.clause.plain}",
        content=f"{change.clause.content}, {value.clause.content}",
    )
    return replace(value, clause=clause, content=f"{change.content}, {value.content}")


def korean_sentences(text: str) -> list[str]:
    """Korean sentences, also where no punctuation ends them ("...했어요 이름은 ...", and
    after a formal ending Kiwi runs on from: "이사 왔습니다 마당이 넓어요")."""
    parts = [
        part
        for s in _analyser().split_into_sents(text)
        for part in _AFTER_FORMAL_ENDING.split(s.text)
        if part
    ]
    out: list[str] = []
    for part in parts:
        if out and korean.change_then_value(korean.tokens_of(out[-1]), korean.tokens_of(part)):
            out[-1] = f"{out[-1]} {part}"  # "러닝 요일 바꿨어 이제 일요일에 뛰어": one fact
        else:
            out.append(part)
    return out


_AFTER_FORMAL_ENDING = re.compile(r"(?<=[가-힣]니다)\s+(?=[가-힣])")


# How one feels for a while: a moment told as a note stays a moment ("오늘 산 우산은
# 파란색이야" is a fact of today, kept when asked).
_PASSING_FEELING = re.compile(
    r"피곤|졸려|졸림|졸리|배고|배고픔|배불|심심|짜증|귀찮|머리\s*아|\b(?:tired|sleepy|hungry|starving|"
    r"exhausted|bored|sick|sore|stressed|thirsty|grumpy|cranky|off|meh|wiped|drained)\b",
    re.IGNORECASE,
)


def force(statement: Statement, *, passing: bool = False) -> Statement:
    """A statement the user asked to remember ("... 기억해줘"): kept unless it is a question,
    a hypothetical, about the assistant or (unless `passing`) a passing feeling."""
    clause = statement.clause
    if statement.memorable or clause.mood in ("question", "hypothetical"):
        return statement
    if statement.reason in ("fragment", "empty") and len(clause.content.split()) < 2:
        return statement  # "평생 기억해": nothing left to remember
    if clause.subject == "assistant" or not clause.content:
        return statement
    momentary = statement.reason == "momentary" or clause.momentary
    if momentary and not passing and _PASSING_FEELING.search(clause.text):
        return statement  # "note: tired today", "기억해줘 나 지금 배고파": a feeling that passes
    day = None
    kind = "fact"
    return replace(
        statement, memorable=True, reason="", type=kind, content=clause.content, happens_on=day
    )


# --- remember cues ----------------------------------------------------------------------

_KO_REMEMBER = re.compile(
    r"(?:(?:^|\s)앞으로(?:는)?\s*)?(?:이거|이것|그거|이건|이\s*점|이것도|이거는)?\s*(?:꼭\s*|잘\s*)?"
    r"(?:기억\s*(?:좀\s*)?해\s*(?:줘|줄래|둬|두고|놔|라|주세요|줘요|둬요|두세요|주라|놔\s*줘|줘라|\s*주세요)?|"
    r"잊지\s*(?:마|마세요|말아\s*줘|말아\s*주세요|말아요|마라))(?=[\s.,:!~]|$)\s*[:,.!~]*"
)
_EN_REMEMBER_LEADING = re.compile(
    r"^(?:please\s+|pls\s+|also\s+|and\s+|oh,?\s+)?(?:remember|don't\s+forget|do\s+not\s+forget|"
    r"keep\s+in\s+mind|note\s+to\s+self|note|fyi|for\s+future\s+reference)(?:\s+(?:that|this))?\s*[:,—-]?\s+(?=\w)",
    re.IGNORECASE,
)
_EN_REMEMBER_TRAILING = re.compile(
    r"\s*[,;—-]*\s*(?:(?:please|so|and|pls)\s+)?(?:remember\s+(?:that|this|it)|"
    r"don't\s+forget(?:\s+(?:that|it|this))?|keep\s+(?:that|it|this)\s+in\s+mind|note\s+that)"
    r"(?:,?\s+please)?\s*[.!]*$",
    re.IGNORECASE,
)


# A note kept for later tasks: "..., for future recipes", "just saying, for next time".
_EN_FOR_LATER = re.compile(
    r"(?:^|[,;.—-]\s*|\bjust\s+saying,?\s*)(?<![\w'])(?:for\s+future\s+(?:reference|[a-z]+)|"
    r"for\s+next\s+time|for\s+the\s+future)\s*[.!]*$",
    re.IGNORECASE,
)
_EN_FOR_LATER_OPENING = re.compile(
    r"^\s*(?:just\s+saying|for\s+future|for\s+next|for\s+the)\b", re.I
)
# "까먹으면 나 죽는다", "잊으면 큰일 나": what forgetting would cost, beside a request to
# remember: a reason, not a fact.
_KO_FORGET_WARNING = re.compile(
    r"(?:^|\s)(?:이거\s*|이걸\s*|그거\s*)?(?:까먹|잊어\s*버리|잊)(?:으면|으면은|음|으면\s*안)"
    r"(?=\s|$).*$|\s*,?\s*\b(?:if\s+you\s+forget|or\s+i'?m\s+(?:dead|toast|in\s+trouble))\b.*$",
    re.IGNORECASE,
)


def without_forget_warning(text: str) -> str:
    """`text` without what forgetting it would cost ("까먹으면 나 진짜 죽는다")."""
    stripped = _KO_FORGET_WARNING.sub("", text)
    return stripped.strip(" ,.") if stripped != text else text


_EN_REMEMBER_ALONE = re.compile(
    r"(?:please\s+)?(?:remember|don't\s+forget|keep\s+in\s+mind)(?:\s+(?:that|this|it))?"
    r"(?:,?\s+please)?\s*[.!]*",
    re.IGNORECASE,
)


def remember_cue(sentence: str) -> tuple[str, bool]:
    """The sentence without a request to remember it, and whether there was one:
    "...수영해. 기억해줘" / "기억해줘: ..." / "... — remember that" / "Remember that ..."."""
    text = sentence.strip()
    if _EN_REMEMBER_ALONE.fullmatch(text):
        return "", True
    stripped = _EN_REMEMBER_TRAILING.sub("", text)
    if _EN_FOR_LATER.search(stripped) and (
        _EN_FOR_LATER_OPENING.match(stripped) or not _EN_FOR_LATER.match(stripped)
    ):
        stripped = _EN_FOR_LATER.sub("", stripped)
    stripped = _EN_REMEMBER_LEADING.sub("", stripped)
    stripped = _KO_REMEMBER.sub(" ", stripped) if has_hangul(stripped) else stripped
    stripped = re.sub(r"\s+", " ", stripped).strip(" ,.:;—-")
    if stripped == text.strip(" ,.:;—-"):
        return text, False
    return stripped, True


# A negated fact given as the reason for a task ("결혼 안 했어요, 예시가 필요해서요",
# "I'm not vegan, I just need a recipe for a guest") is context, not news about oneself.
_FOR_A_TASK = re.compile(
    r"필요해서|필요하거든|때문에\s*물어|\bjust\s+need\b|\bneed\s+(?:it|one|this)\s+for\b",
    re.IGNORECASE,
)


def serves_a_task(text: str) -> bool:
    """A message giving a reason for a task ("필요해서", "I just need ...")."""
    return bool(_FOR_A_TASK.search(text))


# A sarcastic exclamation: praise that opens with an interjection ("와 월요일 너무 좋다",
# "Oh great, I just LOVE it when ...", "It's raining again. Fantastic.").
_EN_SARCASM = re.compile(
    r"^(?:oh\s+)?(?:great|fantastic|wonderful|perfect|lovely|awesome|brilliant)\b[,.!]|"
    r"\b(?:just|really)\s+love\s+it\s+when\b|"
    # the marks chat puts on sarcasm: "/s", "(not)", "said no one ever"
    r"(?:^|\s)/s\b|\(not\)|\bsaid\s+no\s+one\s+ever\b|"
    # a shrug at a mishap of the moment: "such is life", "cool cool", "just my luck"
    r"\bsuch\s+is\s+(?:the\s+)?life\b|\bcool\s+cool\b|\bjust\s+my\s+luck\b|\bfml\b|"
    r"\bc'?est\s+la\s+vie\b|\b(?:that'?s|thats)\s+life\b|\bstory\s+of\s+my\s+life\b",
    re.IGNORECASE,
)


def habitual(text: str) -> bool:
    """A routine or frequency is said ("매주 토요일", "on sundays", "every morning")."""
    return bool(
        korean.HABIT.search(text)
        or korean.PART_OF_DAY_TOPIC.search(text)
        or english.HABIT.search(text)
    )


def is_sarcasm(text: str) -> bool:
    return bool(_EN_SARCASM.search(text.strip()))
