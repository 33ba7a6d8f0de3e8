"""Offline session tags and extractive summaries (seed Algorithm 1), as plain functions.

A session summary has one line per topic of the session, in order, and no sentence twice. It
says what was said, so only sentences that say something are summary sentences
(`says_something`): not one that carries a marker of something taken out (redacted, removed,
withheld, in any form), not a question, and not filler (a bare "기억해줘", "알겠어요",
"remember this", "got it"), whose words only ask or acknowledge.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memoryhub import text as text_analysis

_SENTENCE_END = re.compile(r"(?<=[.!?。？！])\s+|\n+")


def tag_form(term: str) -> str:
    """The stored form of a tag: Latin lower-cased, Hangul as is."""
    return term.lower()


def rank_tags(
    terms: Sequence[str],
    *,
    document_frequency: dict[str, int],
    documents: int,
    generic: Iterable[str],
    limit: int = 5,
) -> list[str]:
    """The session's most telling single-word tags.

    Score = frequency in the session x inverse frequency across the user's earlier sessions,
    so a word that is in every session says nothing. Generic words are never tags.
    """
    banned = {tag_form(g) for g in generic}
    counts = Counter(tag_form(t) for t in terms if len(t) >= 2 and " " not in t)
    scored: list[tuple[float, int, str]] = []
    for tag, count in counts.items():
        if tag in banned or tag.isdigit():
            continue
        df = document_frequency.get(tag, 0)
        idf = math.log((1 + documents) / (1 + df)) + 1.0
        scored.append((count * idf, -len(scored), tag))
    scored.sort(reverse=True)
    return [tag for _score, _order, tag in scored[:limit]]


def split_sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


@dataclass(frozen=True)
class Sentence:
    text: str
    terms: frozenset[str]


# Two sentences whose character bigrams overlap this much (Dice) say the same thing: a
# sentence repeated with a word changed or a particle dropped is still a repeat.
NEAR_DUPLICATE = 0.8
MAX_LINE_CHARS = 160
_NOT_WORD = re.compile(r"[\W_]+")


def _comparable(text: str) -> str:
    return _NOT_WORD.sub("", text.lower())


def _bigrams(text: str) -> Counter[str]:
    return Counter(text[i : i + 2] for i in range(len(text) - 1))


def near_duplicate(first: str, second: str) -> bool:
    """True when two sentences are the same but for case, spacing and punctuation, or differ
    by a word or two (Dice overlap of their character bigrams, which needs no word split and
    so holds for Korean as for English)."""
    a, b = _comparable(first), _comparable(second)
    if not a or not b:
        return a == b
    if a == b:
        return True
    grams_a, grams_b = _bigrams(a), _bigrams(b)
    total = sum(grams_a.values()) + sum(grams_b.values())
    return total > 0 and 2 * sum((grams_a & grams_b).values()) / total >= NEAR_DUPLICATE


def distinct_lines(lines: Iterable[str]) -> list[str]:
    """`lines` without empty ones and without any that repeats an earlier one (exactly or
    nearly), in order."""
    kept: list[str] = []
    for line in lines:
        line = line.strip()
        if line and not any(near_duplicate(line, earlier) for earlier in kept):
            kept.append(line)
    return kept


def shorten_line(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """`text` on one line (runs of whitespace made one space), cut to `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _line_score(sentence: Sentence, weight: dict[str, float], max_line_chars: int) -> float:
    """The weight of the topic's words a sentence carries; one too long for a line is
    discounted by how much of it would be cut."""
    carried = sum(weight.get(term, 0.0) for term in {tag_form(t) for t in sentence.terms})
    return carried * min(1.0, max_line_chars / max(1, len(sentence.text)))


# A topic's line also takes its further sentences that carry one of its few main words.
MAIN_WORDS = 3


def topic_lines(
    topics: Sequence[Sequence[Sentence]], max_line_chars: int = MAX_LINE_CHARS
) -> list[str]:
    """One line per topic, in order: the topic's sentence that carries the most of the words
    of that topic (its own frequent words, discounted by how many other topics use them),
    with, while the line stays within `max_line_chars`, its other sentences that carry one of
    the topic's main words, in the order they were said.

    No sentence is said twice: one that repeats a sentence already used (exactly or nearly)
    is passed over, and a topic whose every sentence repeats earlier ones adds no line."""
    counts = [Counter(tag_form(t) for s in sentences for t in s.terms) for sentences in topics]
    spread = Counter(term for count in counts for term in count)
    used: list[str] = []
    lines: list[str] = []
    for sentences, count in zip(topics, counts, strict=True):
        weight = {
            term: n * (math.log((1 + len(topics)) / (1 + spread[term])) + 1.0)
            for term, n in count.items()
        }
        main = {term for term, _n in Counter(weight).most_common(MAIN_WORDS)}
        ranked = sorted(
            range(len(sentences)),
            key=lambda i: (-_line_score(sentences[i], weight, max_line_chars), i),
        )
        chosen: list[int] = []
        length = 0
        for index in ranked:
            text = " ".join(sentences[index].text.split())
            if any(near_duplicate(text, earlier) for earlier in used):
                continue
            if chosen:
                carries_main = main & {tag_form(t) for t in sentences[index].terms}
                if not carries_main or length + 1 + len(text) > max_line_chars:
                    continue
            chosen.append(index)
            used.append(text)
            length += len(text) + (1 if length else 0)
        if chosen:
            said = " ".join(" ".join(sentences[i].text.split()) for i in sorted(chosen))
            lines.append(shorten_line(said, max_line_chars))
    return lines


# Words that only ask to keep something or acknowledge it, nouns and predicate lemmas as
# `memoryhub.text.terms` gives them (English stemmed as `normalise` does): a sentence of these
# alone says nothing about the conversation's subject.
_FILLER_WORDS = frozenset(
    text_analysis.normalise(word)
    for word in """기억 기억나다 메모 저장 참고 명심 부탁 감사 고맙다 알다 모르다 좋다 싫다
    괜찮다 확인 잊다 말 말하다 답변 대답 네 예 응 오케이 물론 그럼 알림
    remember note noted memorize memorise save keep mind forget thank thanks sure great cool
    alright understood understand sound good nice perfect awesome fine right gotcha roger
    absolutely definitely noting remembered saved""".split()  # noqa: SIM905
)
# A sentence that ends as a question: a question mark, or (as people type without one) a
# question word with an asking ending in Korean, or an English question word or inverted
# auxiliary at its start, without a closing full stop.
_QUESTION_MARK = re.compile(r"[?？]\W*$")
_KOREAN_QUESTION = re.compile(
    r"(?:뭐|뭘|무엇|어디|언제|누구|왜|몇|어떻게|어떤|무슨|어느)"
    r".*(?:지|니|냐|나요|까|까요|죠|지요|더라|던가|래|냐고|는지|은지)\s*[~…]*$"
)
_ENGLISH_QUESTION = re.compile(
    r"^\s*(?:what|where|when|who|whom|which|why|how|"
    r"(?:do|does|did|am|is|are|was|were|have|has|had|can|could|will|would|should|shall)"
    r"\s+(?:i|you|we|he|she|they|it|my|your|our|the|this|that|there))\b",
    re.IGNORECASE,
)


def is_question(sentence: str) -> bool:
    """Whether `sentence` asks rather than says."""
    said = sentence.strip()
    if _QUESTION_MARK.search(said):
        return True
    if said.endswith((".", "!", "。", "！")):
        return False
    return bool(_KOREAN_QUESTION.search(said) or _ENGLISH_QUESTION.search(said))


def is_filler_word(term: str) -> bool:
    """Whether `term` only asks to keep something or acknowledges it ("기억", "noted"): no
    tag or summary word."""
    return text_analysis.normalise(term) in _FILLER_WORDS


def is_filler(sentence: str) -> bool:
    """Whether `sentence` has no word but asking to keep something or acknowledging it."""
    words = {text_analysis.normalise(t) for t in text_analysis.terms(sentence, predicates=True)}
    return not words - _FILLER_WORDS


def says_something(sentence: str) -> bool:
    """Whether `sentence` may be a line of a summary (see the module's docstring)."""
    return not (
        text_analysis.carries_marker(sentence) or is_question(sentence) or is_filler(sentence)
    )


def summary_sentences(text: str) -> list[str]:
    """The sentences of `text` that may be said in a summary, in order."""
    return [sentence for sentence in split_sentences(text) if says_something(sentence)]
