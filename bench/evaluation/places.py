"""Where a string (a deletion canary) still shows up: in a context, an export. Pure.

A place is a short label such as `context.session_recall`, `search:message/user` or
`export:sessions.messages.content/assistant`. Places that hold the user's own words (their
message, the session title made from it) end in OWN_WORDS_SUFFIX: a chat history keeps
those with or without long-term memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from conversations.logic.prompt_context import ChatContext

OWN_WORDS_SUFFIX = "/user"
# The part of the product a place belongs to, for the table's one-line failure.
_SURFACES = (
    ("context", "context"),
    ("preview", "context"),
    ("retrieval", "retrieval"),
    ("search:", "search"),
    ("export:", "export"),
    ("reply", "reply"),
)


def contains(text: str, trace: str) -> bool:
    return trace.casefold() in text.casefold()


def surface(place: str) -> str:
    """`context`, `retrieval`, `search`, `export` or `reply`."""
    for prefix, name in _SURFACES:
        if place.startswith(prefix):
            return name
    return place


def context_places(prefix: str, context: ChatContext, trace: str) -> list[str]:
    parts = {
        "memories": [m.content for m in context.memories],
        "session_recall": [s.summary for s in context.session_recall],
        "topic_recall": [m.content for t in context.topic_recall for m in t.messages],
    }
    found = [name for name, texts in parts.items() if any(contains(t, trace) for t in texts)]
    return [f"{prefix}.{name}" for name in found]


def _json_places(value: Any, trace: str, path: str) -> Iterator[str]:
    """Dotted paths (list indexes dropped) of the strings in `value` that hold `trace`."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _json_places(item, trace, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for item in value:
            yield from _json_places(item, trace, path)
    elif isinstance(value, str) and contains(value, trace):
        yield path


def export_places(export: dict[str, Any], trace: str) -> list[str]:
    """Where `trace` occurs in a user data export (`user_data_export`), deduplicated."""
    data = json.loads(json.dumps(export, default=str))
    places: list[str] = []
    for session in data.pop("sessions", []):
        for message in session.pop("messages", []):
            role = message.get("role", "")
            for path in _json_places(message, trace, "sessions.messages"):
                own = role == "user" and path == "sessions.messages.content"
                places.append(path + (OWN_WORDS_SUFFIX if own else f"/{role}"))
        if contains(str(session.pop("title", "")), trace):
            places.append("sessions.title" + OWN_WORDS_SUFFIX)
        places += _json_places(session, trace, "sessions")
    places += _json_places(data, trace, "")
    return list(dict.fromkeys(f"export:{place}" for place in places))
