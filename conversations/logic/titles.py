"""A conversation's title: a few content words of a message, in the order they were said.

The words come from the stored message, which is redacted already; redaction markers and
forgetting's "[removed]" are never words (`memoryhub.text.terms`). Korean compounds keep their
spelling: the nouns of one word-chunk ("비밀번호는" -> "비밀번호") are joined again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from conversations.logic import intent, summarize
from memoryhub import text

# At most this many words, within this many characters.
TITLE_WORDS = 4
TITLE_CHARS = 40
# Words looked at: the opening of a long message says what it is about.
_CHUNKS_READ = 40

# Words that say how a request is put, not what it is about ("help me plan a trip",
# "다음 달 여행 계획 좀 도와줘"), on top of the keyword stopwords of `memoryhub.text`.
_NOT_A_SUBJECT = frozenset(
    """best help helps helping tell explain show give gives wondering wonder question questions
    quick remember next last today tomorrow yesterday tonight day days week weeks month months
    year years time idea ideas lately recently""".split()  # noqa: SIM905
) | frozenset("다음 지난 부탁 질문 도움 안녕 감사 생각 이야기 얘기".split())  # noqa: SIM905

_PUNCTUATION = ".,!?~…·'\"()[]“”‘’"
# Words that turn what follows around: a title without them says the opposite.
_NEGATIONS = frozenset({"no", "not", "never", "without", "non", "안", "못", "노"})
# Suffixes that make a noun of a noun ("공유기", "부모님", "아이들", "여행자"); nothing else
# after the nouns of a chunk is kept ("추천해" is a verb: "추천").
_NOUN_SUFFIXES = frozenset({"기", "님", "들", "적", "용", "인", "자"})
# Particles a Korean noun takes at its end, longest first ("도서관에서", "부모님이랑").
_PARTICLE = re.compile(
    r"(?:이랑|에서|에게|한테|으로|까지|부터|처럼|보다|하고|이나|이에요|예요|이야|은|는|이|가|을|를|에|로"
    r"|와|과|랑|의|도|만|야)$"
)


def _korean_word(chunk: str, nouns: list[str]) -> str:
    """The nouns of one Korean chunk as written: with a noun-making suffix the analyser split
    off ("공유" + "기" -> "공유기", "부모" + "님"), without the particle after them."""
    joined = "".join(nouns)
    stem = _PARTICLE.sub("", chunk.strip(_PUNCTUATION))
    if stem.startswith(joined) and stem[len(joined) :] in _NOUN_SUFFIXES:
        return stem
    return joined


def title_from_message(message: str) -> str:
    """A short title made of the first content words of `message`; "" when it has none
    (a greeting, a bare secret), so a later message can name the conversation."""
    words: list[str] = []
    seen: set[str] = set()
    # Markers go first: split at spaces, "[redacted: password]" would read as two words.
    plain = text.without_markers(message).replace(text.REMOVED_MARKER, " ")
    negation = ""
    for chunk in plain.split()[:_CHUNKS_READ]:
        found = [t for t in text.terms(chunk) if t.lower() not in _NOT_A_SUBJECT]
        if not found:
            bare = chunk.strip(_PUNCTUATION).lower()
            negation = bare if bare in _NEGATIONS else ""
            continue
        # One chunk of Korean is one word however many nouns it holds ("김치찌개" may come
        # back as "김치", "찌개"); Latin words in one chunk ("Next.js/React") stay apart.
        word = _korean_word(chunk, found) if text.has_hangul(chunk) else " ".join(found)
        key = text.normalise(word).lower()
        if key in seen:
            continue
        if words and len(" ".join([*words, word])) > TITLE_CHARS:
            break
        seen.add(key)
        if negation:
            word = f"{negation} {word}"  # "no emojis pls": the title keeps the "no"
            negation = ""
        words.append(word)
        if len(words) == TITLE_WORDS:
            break
    title = " ".join(words)[:TITLE_CHARS].strip()
    return title[:1].upper() + title[1:]


def _names_a_subject(sentence: str) -> bool:
    """Whether a title may come from `sentence`: not one that carries a marker of something
    taken out (what is left around it is a fragment), not filler ("기억해줘", "got it"), and
    not a question about earlier conversations ("지난번에 뭐 하기로 했지?"), which names
    no subject of this one."""
    if text.carries_marker(sentence) or summarize.is_filler(sentence):
        return False
    return not (summarize.is_question(sentence) and intent.classify(sentence).kind)


def title_from_messages(messages: Iterable[str]) -> str:
    """The title of the first of `messages`, in order, whose sentences that name a subject
    (`_names_a_subject`) have content words; else that of the first with content words at
    all; else a short question or remark said in words of no content ("what do you know about
    me") as it was said; "" if none."""
    messages = list(messages)
    for message in messages:
        subject = " ".join(s for s in summarize.split_sentences(message) if _names_a_subject(s))
        title = title_from_message(subject)
        if title:
            return title
    short = ""
    for message in messages:
        title = title_from_message(message)
        if title:
            return title
        plain = " ".join(text.without_markers(message).replace(text.REMOVED_MARKER, " ").split())
        if not short and len(plain) <= TITLE_CHARS and len(plain.split()) >= 3:
            short = plain[:1].upper() + plain[1:]
    return short
