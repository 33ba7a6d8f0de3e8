"""A statement analysed once: folded text, tokens (Kiwi for Korean), clauses."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from memories.logic.slots.vocab import (
    ADJECTIVE_SENSES,
    EN_CONJUNCTIONS,
    EN_FILLER,
    KO_CLAUSE_ENDINGS,
    KO_FILLER,
    canon,
)
from memoryhub.text import _analyser, has_hangul

# "Is a nurse", "Does not like horror movies" are subject-less facts; "is my ...", "do I ..."
# ask. A hypothetical ("if I moved ...") answers nothing either.
QUESTION_START = re.compile(
    r"^(?:what|where|who|whom|how|why|which|whether|suppose|if)\b|^(?:만약|만일|혹시)|"
    r"^(?:do|does|did|can|could|would|will|should|is|are|am|was|were|have|has|when)\s+"
    r"(?:i|you|he|she|it|we|they|my|your|the|this|that|there|any|anyone|user)\b",
    re.IGNORECASE,
)

KO_QUESTION_WORD = re.compile(r"뭐|뭘|무엇|누구|어디|언제|왜|어떻게|어느|무슨")

KO_QUESTION_END = re.compile(r"(?:지|까|니|냐|나요|가요|까요|는지|던가|려나)\s*[.!~]*$")

CONDITIONAL_REQUEST = re.compile(r"^(?:when(?:ever)?|if)\b[^,?]{2,80},\s*\w", re.IGNORECASE)

KO_CONTENT_TAGS = frozenset({"NNG", "NNP", "XR", "SL", "NR"})

KO_PREDICATE_TAGS = frozenset({"VA", "VA-I", "VA-R", "VV", "VV-I", "VV-R"})


@dataclass(frozen=True)
class Token:
    form: str  # canonical word: "coffee", "meeting", or a Korean lemma/noun, or an English stem
    tag: str  # Kiwi's tag, or "EN" for an English word
    raw: str
    start: int = 0  # where the token starts and ends in the folded text
    end: int = 0


@dataclass(frozen=True)
class Statement:
    text: str  # folded: NFKC, lower case, straight quotes, single spaces
    tokens: tuple[Token, ...]

    def content_tokens(self) -> list[Token]:
        """The tokens that carry meaning: nouns, roots, adjectives, English content words and
        Korean verbs made nouns ("달리기": its form is the activity's word)."""
        found = []
        for index, token in enumerate(self.tokens):
            following = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
            if (
                token.tag.startswith("VV")
                and following
                and (following.tag, following.raw) == ("ETN", "기")
                and token.raw not in KO_FILLER
            ):
                activity = canon(token.raw.removesuffix("다") + "기")
                found.append(Token(activity, token.tag, token.raw, token.start, token.end))
            elif token.tag == "EN":
                if (
                    token.raw not in EN_FILLER
                    and token.form not in EN_FILLER
                    and not all(w in EN_FILLER for w in expanded(token.raw))
                ):
                    found.append(token)
            elif (token.tag in KO_CONTENT_TAGS or token.tag.startswith("VA")) and not (
                token.form in KO_FILLER or token.raw in KO_FILLER
            ):
                found.append(token)
        return found

    def words(self) -> list[str]:
        """Subject words in order, in the vocabulary's words ("mint chocolate" is two)."""
        return [part for token in self.content_tokens() for part in token.form.split()]


# A contraction reads as the words it stands for, so "I'd rather" and "I would rather",
# "I've been loving" and "I have been loving" give one key.
_CONTRACTED = {"m": "am", "re": "are", "ve": "have", "d": "would", "ll": "will", "s": "is"}
_NEGATED_BASE = {"won": "will", "ca": "can", "sha": "shall", "ai": "is"}


def expanded(word: str) -> list[str]:
    """ "i'd" -> ["i", "would"], "won't" -> ["will", "not"]; other words as they are."""
    if word.endswith("n't"):
        base = word[:-3]
        return [_NEGATED_BASE.get(base, base), "not"]
    head, apostrophe, tail = word.partition("'")
    if apostrophe and tail in _CONTRACTED:
        return [head, _CONTRACTED[tail]]
    return [word]


def fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'")
    return re.sub(r"\s+", " ", folded).strip()


EN_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")


@lru_cache(maxsize=2048)
def analyse(text: str) -> Statement:
    folded = fold(text)
    tokens: list[Token] = []
    if has_hangul(folded):
        for token in _analyser().tokenize(folded):
            raw = token.form
            if token.tag in KO_PREDICATE_TAGS:
                raw = raw + "다"
            if token.tag.startswith("VA") and raw in ADJECTIVE_SENSES:
                raw = ADJECTIVE_SENSES[raw]  # "쓴 커피" is bitter; "쓰다" the verb is write
            end = token.start + token.len
            if token.tag == "SL":
                tokens.append(Token(canon(raw), "EN", raw.lower(), token.start, end))
            else:
                tokens.append(Token(canon(raw), token.tag, raw, token.start, end))
    else:
        for match in EN_WORD.finditer(folded):
            raw = match.group(0).strip("'-")
            if raw.endswith("'s"):
                raw = raw[:-2]
            tokens.append(Token(canon(raw), "EN", raw, match.start(), match.end()))
    return Statement(text=folded, tokens=tuple(tokens))


def clauses(statement: Statement) -> list[Statement]:
    """The statement cut into clauses: "I can't stand cilantro, it tastes like soap" gives
    the clause about cilantro and the one about soap."""
    tokens = statement.tokens
    clauses: list[list[Token]] = [[]]
    for index, token in enumerate(tokens):
        if token.tag == "EN" and token.raw in EN_CONJUNCTIONS:
            clauses.append([])
            continue
        clauses[-1].append(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None:
            break
        gap = statement.text[token.end : following.start]
        ends_clause = bool(re.search(r"[,;:.!?—–]|\s-\s", gap))
        if token.tag in ("EF", "SF"):
            ends_clause = True
        if token.tag == "EC" and token.raw in KO_CLAUSE_ENDINGS and following.tag != "VX":
            ends_clause = True
        if ends_clause:
            clauses.append([])
    return [
        Statement(text=statement.text[part[0].start : part[-1].end], tokens=tuple(part))
        for part in clauses
        if part
    ]


def clause_with(statement: Statement, cue: re.Pattern[str]) -> Statement:
    """The first clause that holds `cue`, or the whole statement."""
    return next((c for c in clauses(statement) if cue.search(c.text)), statement)


def is_question(statement: Statement) -> bool:
    text = statement.text.rstrip(" .!~")
    if text.endswith("?") or "?" in text[-3:]:
        return True
    if QUESTION_START.search(text) and not CONDITIONAL_REQUEST.match(text):
        return True
    return bool(KO_QUESTION_WORD.search(text) and KO_QUESTION_END.search(text))
