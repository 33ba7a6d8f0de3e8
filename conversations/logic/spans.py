"""Which spans of a text carry a fact, so that forgetting the fact redacts them and nothing else.

"Carries the content" is measured on content words (Kiwi lemmas and stemmed English words, as
the keyword index has them), sentence by sentence:
- a statement carries a fact when it holds at least `CARRY_SHARE` of the fact's words and at
  least two of them (all of them when the fact has fewer);
- a question carries it only when it holds every word of it: "what is my cat's name?" asks
  about the fact, "is it still pour-over coffee every morning?" restates it;
- sharing a word or two is not carrying: a line about a meeting in a coffee shop does not carry
  "drinks pour-over coffee every morning";
- a sentence that holds one of the fact's names (a proper noun, a capitalised or code-like
  word of the fact) and another of its words carries it: "Biscuit, my dog, turned five" carries
  "my dog's name is Biscuit"; a name alone ("Biscuit chewed my shoes") is another statement.
  A Korean word that starts with a name is that name with a particle Kiwi kept ("까망이가");
- in text the user did not write (replies, summaries, recalled context), a sentence also
  carries the fact when it holds one of the fact's *distinctive* words (words the user only
  ever said in the fact's own statements: a name, a code, "핸드드립") and a second word of the
  fact (or half of a short fact's words: "the cello" for "plays the cello"), or a distinctive
  word that is a name or code-like (with a digit, "-", "_" or "."): the assistant can only
  have had it from the fact ("Your cat is called Zorblax-91!", "강남 쪽에 사시니까").
Inside a carrying sentence only the clauses that hold the fact's words are taken: the clause
holding most of them first, then each clause that adds a word not covered yet. A clause about
something else ("and on weekends I go hiking") stays, byte for byte, as does every other
sentence and line. The functions are plain: the caller passes the tokenizer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

Tokens = Callable[[str], frozenset[str]]

CARRY_SHARE = 0.7

# A sentence ends at . ! ? (and their full-width forms) followed by a space, or at a line end.
_SENTENCE_END = re.compile(r"(?<=[.!?。？！])\s+")
# Clause boundaries: a comma or semicolon, an English conjunction, a Korean connective ending
# ("마시고", "좋아하지만", "가는데", "하면서") or conjunction ("그리고") before a space.
_KOREAN_CONNECTIVES = "고 며 지만 는데 은데 인데 던데 한데 면서 니까 어서 아서 해서".split()  # noqa: SIM905
_CLAUSE_BREAK = re.compile(
    r"[,;，]\s+"
    r"|\s+(?=(?:and|but|while|whereas|so|because|although|though|yet)\s)"
    + "|(?:"
    + "|".join(f"(?<=[\uac00-\ud7a3]{ending})" for ending in _KOREAN_CONNECTIVES)
    + r")\s+"
    r"|\s+(?=(?:그리고|그런데|근데|하지만|그래서|그러나|또)\s)",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[?？]\s*$")
# Kept outside a redacted clause: list markers and quotes before it, punctuation after it.
_LEAD = re.compile(r"^(?:[-*•]\s+|\d+[.)]\s+|[\"'“‘(]+)+")
_TRAIL = re.compile(r"[\"'”’)\].,!?;:。？！]+$")


@dataclass(frozen=True)
class Span:
    """`text[start:end]`, the part of a text that carries a fact."""

    start: int
    end: int


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def sentences(text: str) -> list[Span]:
    """Each sentence of `text`, line by line, without surrounding spaces."""
    found = []
    offset = 0
    for line in text.split("\n"):
        start = 0
        for match in [*_SENTENCE_END.finditer(line), None]:
            end = match.start() if match else len(line)
            s, e = _trimmed(line, start, end)
            if e > s:
                found.append(Span(offset + s, offset + e))
            if match:
                start = match.end()
        offset += len(line) + 1
    return found


def clauses(text: str, sentence: Span) -> list[Span]:
    """The clauses of one sentence of `text`, without the breaks between them."""
    body = text[sentence.start : sentence.end]
    found = []
    start = 0
    for match in [*_CLAUSE_BREAK.finditer(body), None]:
        end = match.start() if match else len(body)
        s, e = _trimmed(body, start, end)
        if e > s:
            found.append(Span(sentence.start + s, sentence.start + e))
        if match:
            start = match.end()
    return found


_CODE_LIKE = re.compile(r"\d|[-_.]")


def match_form(token: str) -> str:
    """An index token as matched here: a final English "e" dropped, since the light stemmer
    gives "commute" for "commutes" but "commut" for "commuting", "live" and "liv"."""
    if token.isascii() and token.isalpha() and len(token) > 4 and token.endswith("e"):
        return token[:-1]
    return token


def with_names(words: frozenset[str], names: frozenset[str]) -> frozenset[str]:
    """`words`, where a Hangul word that starts with a name ("까망이" for "까망") counts as it."""
    found = set(words)
    for word in words:
        for name in names:
            if len(name) >= 2 and word != name and word.startswith(name) and word[0] >= "\uac00":
                found.add(name)
    return frozenset(found)


def carries(
    words: frozenset[str],
    fact: frozenset[str],
    *,
    question: bool = False,
    names: frozenset[str] = frozenset(),
    distinctive: frozenset[str] = frozenset(),
) -> bool:
    """Whether a sentence with these content words carries the fact (the rule above)."""
    if not fact:
        return False
    words = with_names(words, names & fact)
    shared = len(words & fact)
    if shared >= 2 and words & fact & names:
        return True
    rare = words & fact & distinctive
    named = any(_CODE_LIKE.search(word) or word in names for word in rare)
    if rare and (shared >= 2 or 2 * shared >= len(fact) or named):
        return True
    if question:
        return shared == len(fact)
    return shared >= min(2, len(fact)) and shared >= CARRY_SHARE * len(fact)


def _best(words: frozenset[str], facts: Sequence[frozenset[str]]) -> frozenset[str]:
    return max(facts, key=lambda fact: len(words & fact) / max(len(fact), 1))


def _cover(text: str, sentence: Span, fact: frozenset[str], tokens: Tokens) -> list[Span]:
    """The clauses of a carrying sentence that hold its fact words, greedily."""
    parts = [
        (clause, tokens(text[clause.start : clause.end]) & fact)
        for clause in clauses(text, sentence)
    ]
    wanted = frozenset().union(*(held for _clause, held in parts))
    chosen: list[Span] = []
    covered: set[str] = set()
    while covered != wanted:
        clause, held = max(parts, key=lambda part: len(part[1] - covered))
        chosen.append(clause)
        covered |= held
    return sorted(chosen, key=lambda span: span.start)


def _tight(text: str, span: Span) -> Span:
    """`span` without a leading list marker or quote and trailing punctuation."""
    body = text[span.start : span.end]
    lead = _LEAD.match(body)
    trail = _TRAIL.search(body)
    start = span.start + (lead.end() if lead else 0)
    end = span.end - (len(trail.group(0)) if trail else 0)
    return Span(start, end) if end > start else span


_CLOSERS = {"(": ")", "[": "]", "{": "}", "“": "”", "「": "」", "『": "』", "（": "）"}
_OPENERS = {closer: opener for opener, closer in _CLOSERS.items()}


def _balanced(text: str, span: Span) -> Span:
    """`span` grown so that no bracket or quote pair is cut in two: a span that opens "(" and
    ends before its ")" takes the ")" too, and one that closes a pair opened just before it
    takes the opener, so redacting it never leaves half a pair ("... bank [removed]).")."""
    start, end = span.start, span.end
    for opener, closer in _CLOSERS.items():
        body = text[start:end]
        unclosed = body.count(opener) - body.count(closer)
        while unclosed > 0 and (found := text.find(closer, end)) != -1:
            end, unclosed = found + 1, unclosed - 1
        body = text[start:end]
        unopened = body.count(closer) - body.count(opener)
        while unopened > 0 and (found := text.rfind(opener, 0, start)) != -1:
            start, unopened = found, unopened - 1
    return Span(start, end)


def _merged(text: str, spans: Iterable[Span]) -> list[Span]:
    """Spans in order, neighbours joined when only breaks (spaces, commas, "and") lie between."""
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: s.start):
        if merged and (
            span.start <= merged[-1].end
            or _CLAUSE_BREAK.fullmatch(text[merged[-1].end : span.start])
        ):
            merged[-1] = Span(merged[-1].start, max(merged[-1].end, span.end))
        else:
            merged.append(span)
    return merged


def carrying_spans(
    text: str,
    facts: Sequence[frozenset[str]],
    tokens: Tokens,
    *,
    source: bool = False,
    names: frozenset[str] = frozenset(),
    distinctive: frozenset[str] = frozenset(),
) -> list[Span]:
    """The spans of `text` that carry any of `facts` (each a set of content words).

    `source`: `text` is the statement the fact was taken from, so its best-matching sentence
    carries the fact even below the share (the fact may be worded differently).
    `names`: the facts' names; `distinctive`: the facts' words the user said nowhere else
    (empty for the user's own text).
    """
    facts = [fact for fact in facts if fact]
    if not facts or not text:
        return []
    found: list[Span] = []
    best: tuple[float, Span, frozenset[str]] | None = None
    for sentence in sentences(text):
        words = tokens(text[sentence.start : sentence.end])
        question = bool(_QUESTION.search(text[sentence.start : sentence.end]))
        words = with_names(words, names)
        held = [
            fact
            for fact in facts
            if carries(words, fact, question=question, names=names, distinctive=distinctive)
        ]
        if held:
            found += _cover(
                text, sentence, _best(words, held), lambda t: with_names(tokens(t), names)
            )
            continue
        fact = _best(words, facts)
        share = len(words & fact) / len(fact)
        if share and (best is None or share > best[0]):
            best = (share, sentence, fact)
    if source and not found and best is not None:
        found = _cover(text, best[1], best[2], tokens)
    return _merged(text, (_balanced(text, _tight(text, span)) for span in found))


def redact(text: str, spans: Sequence[Span], marker: str) -> str:
    """`text` with each span replaced by `marker`; everything else stays as it was."""
    parts = []
    at = 0
    for span in sorted(spans, key=lambda s: s.start):
        parts += [text[at : span.start], marker]
        at = span.end
    parts.append(text[at:])
    return "".join(parts)
