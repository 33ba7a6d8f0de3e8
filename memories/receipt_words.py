"""A deletion receipt in words: what was removed, by kind, in the reader's language.

A receipt stores counts (`DeletionReceipt.removed`, keys as the deleting services write them,
an erase-all prefixing the memories' with "memories.") and the copies changed in chats
(`DeletionReceipt.copies`: kind, session id, date and how many, never text). This turns both
into sentences ("Removed the sentence from 3 replies in 2 conversations.") and lists the
conversations that changed. Nothing here can show deleted content: a receipt holds none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils.translation import ngettext

# One sentence per count, in the order a person reads them (the biggest thing first).
_COUNT_SENTENCES: dict[str, Callable[[int], str]] = {
    "sessions": lambda n: ngettext(
        "%(count)d conversation was deleted.", "%(count)d conversations were deleted.", n
    ),
    "messages": lambda n: ngettext(
        "%(count)d chat message was deleted.", "%(count)d chat messages were deleted.", n
    ),
    "memories": lambda n: ngettext(
        "%(count)d memory was deleted.", "%(count)d memories were deleted.", n
    ),
    "versions": lambda n: ngettext(
        "%(count)d saved version of the text was deleted.",
        "%(count)d saved versions of the text were deleted.",
        n,
    ),
    "topics": lambda n: ngettext(
        "%(count)d topic was removed.", "%(count)d topics were removed.", n
    ),
    "summaries": lambda n: ngettext(
        "%(count)d conversation summary was deleted.",
        "%(count)d conversation summaries were deleted.",
        n,
    ),
    "session_states": lambda n: ngettext(
        "The notes the assistant kept on %(count)d conversation were deleted.",
        "The notes the assistant kept on %(count)d conversations were deleted.",
        n,
    ),
    "copies_in_other_replies": lambda n: ngettext(
        "The text was removed from %(count)d copy in other replies.",
        "The text was removed from %(count)d copies in other replies.",
        n,
    ),
    "embeddings": lambda n: ngettext(
        "%(count)d search vector was removed.", "%(count)d search vectors were removed.", n
    ),
    "keyword_indexes": lambda n: ngettext(
        "%(count)d keyword index entry was removed.",
        "%(count)d keyword index entries were removed.",
        n,
    ),
    "uses": lambda n: ngettext(
        "The record of %(count)d use in a reply was removed.",
        "The records of %(count)d uses in replies were removed.",
        n,
    ),
    "conflict_links": lambda n: ngettext(
        "%(count)d link to a contradicting memory was removed.",
        "%(count)d links to contradicting memories were removed.",
        n,
    ),
    "extraction_runs": lambda n: ngettext(
        "%(count)d record of memories taken from a chat was deleted.",
        "%(count)d records of memories taken from chats were deleted.",
        n,
    ),
    "tags_forgotten": lambda n: ngettext(
        "%(count)d tag no one else used was forgotten.",
        "%(count)d tags no one else used were forgotten.",
        n,
    ),
    "tag_weights": lambda n: ngettext(
        "%(count)d tag was deleted.", "%(count)d tags were deleted.", n
    ),
    "tag_history": lambda n: ngettext(
        "%(count)d entry of tag history was deleted.",
        "%(count)d entries of tag history were deleted.",
        n,
    ),
    "imports": lambda n: ngettext(
        "%(count)d history import was deleted.", "%(count)d history imports were deleted.", n
    ),
    "llm_calls": lambda n: ngettext(
        "%(count)d record of a language model call was deleted.",
        "%(count)d records of language model calls were deleted.",
        n,
    ),
    "agents": lambda n: ngettext(
        "%(count)d connected agent was removed.", "%(count)d connected agents were removed.", n
    ),
}

# What was done to each kind of copy in chats; `count` copies in `conversations` ("2
# conversations", from `_conversations`). The kinds are
# `memories.services.receipts.ContentCopy.kind`.
_COPY_SENTENCES: dict[str, Callable[[int], str]] = {
    "statement": lambda n: ngettext(
        "Removed the sentence from %(count)d of your messages in %(conversations)s.",
        "Removed the sentence from %(count)d of your messages in %(conversations)s.",
        n,
    ),
    "reply": lambda n: ngettext(
        "Removed the sentence from %(count)d reply in %(conversations)s.",
        "Removed the sentence from %(count)d replies in %(conversations)s.",
        n,
    ),
    "title": lambda n: ngettext(
        "Removed it from the title of %(conversations)s.",
        "Removed it from the titles of %(conversations)s.",
        n,
    ),
    "summary": lambda n: ngettext(
        "Wrote the summary of %(conversations)s again without it.",
        "Wrote the summaries of %(conversations)s again without it.",
        n,
    ),
    "tags": lambda n: ngettext(
        "Chose the tags of %(conversations)s again without it.",
        "Chose the tags of %(conversations)s again without it.",
        n,
    ),
    "topic_keywords": lambda n: ngettext(
        "Made the topic keywords of %(conversations)s again without it.",
        "Made the topic keywords of %(conversations)s again without it.",
        n,
    ),
    "recalled": lambda n: ngettext(
        "Removed it from what %(count)d later reply recalled, in %(conversations)s.",
        "Removed it from what %(count)d later replies recalled, in %(conversations)s.",
        n,
    ),
}


def _conversations(n: int) -> str:
    return ngettext("%(count)d conversation", "%(count)d conversations", n) % {"count": n}


@dataclass(frozen=True)
class ChangedConversation:
    """A conversation a deletion changed: its id, its date, and the kinds of copy in it."""

    session_id: int
    date: date | None
    kinds: tuple[str, ...]


def copy_count(copy: Mapping[str, Any]) -> int:
    """How many copies one receipt entry stands for (entries before counts were kept: 1)."""
    count = copy.get("count", 1)
    return count if isinstance(count, int) and count > 0 else 1


def receipt_copy_sentences(copies: Iterable[Mapping[str, Any]]) -> list[str]:
    """One sentence per kind of copy changed, with how many and in how many conversations."""
    counts: dict[str, int] = {}
    sessions: dict[str, set[str]] = {}
    for copy in copies:
        kind = str(copy.get("kind", ""))
        counts[kind] = counts.get(kind, 0) + copy_count(copy)
        sessions.setdefault(kind, set()).add(str(copy.get("session_id", "")))
    sentences = []
    for kind, sentence in _COPY_SENTENCES.items():
        if kind in counts:
            n = counts[kind]
            where = _conversations(len(sessions[kind]))
            sentences.append(sentence(n) % {"count": n, "conversations": where})
    unknown = sorted(set(counts) - set(_COPY_SENTENCES))
    if unknown:
        n = sum(counts[kind] for kind in unknown)
        sentences.append(
            ngettext(
                "%(count)d other copy in your chats was changed.",
                "%(count)d other copies in your chats were changed.",
                n,
            )
            % {"count": n}
        )
    return sentences


def receipt_count_sentences(removed: Mapping[str, Any], *, copies_named: int = 0) -> list[str]:
    """One sentence per nonzero count. `copies_named` is how many of `cached_copies` the
    copy sentences already told; the rest were entries in the "remembered" list of replies."""
    counts: dict[str, int] = {}
    for key, value in removed.items():
        if isinstance(value, int) and not isinstance(value, bool):
            name = key.removeprefix("memories.")
            counts[name] = counts.get(name, 0) + value
    sentences = [
        sentence(counts[key]) % {"count": counts[key]}
        for key, sentence in _COUNT_SENTENCES.items()
        if counts.get(key, 0) > 0
    ]
    remembered = counts.get("cached_copies", 0) - copies_named
    if remembered > 0:
        sentences.append(
            ngettext(
                "It was taken out of the “remembered” list of %(count)d reply.",
                "It was taken out of the “remembered” lists of %(count)d replies.",
                remembered,
            )
            % {"count": remembered}
        )
    others = sorted(set(counts) - set(_COUNT_SENTENCES) - {"cached_copies"})
    n = sum(counts[key] for key in others)
    if n > 0:
        sentences.append(
            ngettext(
                "%(count)d other record was deleted.", "%(count)d other records were deleted.", n
            )
            % {"count": n}
        )
    return sentences


def receipt_changed_conversations(copies: Iterable[Mapping[str, Any]]) -> list[ChangedConversation]:
    """The conversations the copies were in, each once, newest first."""
    by_session: dict[int, tuple[str, list[str]]] = {}
    for copy in copies:
        try:
            session_id = int(str(copy.get("session_id")))
        except ValueError:
            continue
        day, kinds = by_session.get(session_id, ("", []))
        kind = str(copy.get("kind", ""))
        if kind not in kinds:
            kinds.append(kind)
        by_session[session_id] = (max(day, str(copy.get("date", ""))), kinds)
    changed = [
        ChangedConversation(session_id=pk, date=_day(day), kinds=tuple(kinds))
        for pk, (day, kinds) in by_session.items()
    ]
    return sorted(changed, key=lambda c: (c.date or date.min, c.session_id), reverse=True)


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None
