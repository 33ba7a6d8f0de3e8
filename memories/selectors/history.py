"""A memory's history as people read it: each version with a word diff against the one before.

`text_diff` is plain Python (difflib), tested without a database.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.db.models import QuerySet

from memories.models import Memory, MemoryUse, MemoryVersion

# Words and the spaces between them, so a diff re-joins into the original text exactly.
_TOKENS = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class DiffPart:
    """A run of text that is `equal` in both versions, `removed` from the old or `added`.

    `spaced`: an added run that directly follows a removed one with no space between them;
    shown with a gap, or the two read as one word ("서울에부산에")."""

    op: str
    text: str
    spaced: bool = False


def text_diff(old: str, new: str) -> list[DiffPart]:
    """Word-level differences from `old` to `new`; joining the `equal` and `added` parts
    gives `new`, the `equal` and `removed` parts give `old`.

    Words are runs between spaces (a Korean eojeol with its particles is one word). A changed
    phrase is one removal and one addition, even when the old and new phrase happen to share
    the spaces between their words."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    parts: list[DiffPart] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(DiffPart("equal", "".join(a[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            parts.append(DiffPart("removed", "".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            parts.append(DiffPart("added", "".join(b[j1:j2])))
    return _spaced(_merge(_phrases(_merge(parts))))


def _phrases(parts: list[DiffPart]) -> list[DiffPart]:
    """Changes separated only by spaces become one removed and one added phrase
    ("커피를 매일" -> "차를 가끔", not "커피를" -> "차를", " ", "매일" -> "가끔")."""
    result: list[DiffPart] = []
    group: list[DiffPart] = []

    def flush() -> None:
        while group and group[-1].op == "equal":
            trailing = group.pop()
            _emit(result, group)
            group.clear()
            result.append(trailing)
            return
        _emit(result, group)
        group.clear()

    for part in parts:
        if part.op != "equal":
            group.append(part)
        elif group and not part.text.strip():
            group.append(part)  # spaces between two changes, if another change follows
        else:
            flush()
            result.append(part)
    flush()
    return result


def _emit(result: list[DiffPart], group: list[DiffPart]) -> None:
    ops = {part.op for part in group}
    if not {"removed", "added"} <= ops:
        result.extend(group)  # only removals or only additions: nothing to pair
        return
    removed = "".join(p.text for p in group if p.op != "added")
    added = "".join(p.text for p in group if p.op != "removed")
    result += [DiffPart("removed", removed), DiffPart("added", added)]


def _spaced(parts: list[DiffPart]) -> list[DiffPart]:
    spaced = []
    for index, part in enumerate(parts):
        before = parts[index - 1] if index else None
        if (
            part.op == "added"
            and before is not None
            and before.op == "removed"
            and not before.text[-1:].isspace()
            and not part.text[:1].isspace()
        ):
            part = DiffPart(part.op, part.text, spaced=True)
        spaced.append(part)
    return spaced


def _merge(parts: list[DiffPart]) -> list[DiffPart]:
    merged: list[DiffPart] = []
    for part in parts:
        if not part.text:
            continue
        if merged and merged[-1].op == part.op:
            merged[-1] = DiffPart(part.op, merged[-1].text + part.text)
        else:
            merged.append(part)
    return merged


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: object
    new: object


# Fields besides the content whose change a person wants to see in the history.
_COMPARED = ("type", "sensitivity", "confidence", "importance", "expires_at", "scope")


@dataclass(frozen=True)
class HistoryEntry:
    version: MemoryVersion
    is_current: bool
    diff: list[DiffPart]
    changes: list[FieldChange]

    @property
    def content_changed(self) -> bool:
        return any(part.op != "equal" for part in self.diff)


def _changes(old: MemoryVersion, new: MemoryVersion) -> list[FieldChange]:
    found = []
    for name in _COMPARED:
        before, after = getattr(old, name), getattr(new, name)
        if before != after:
            found.append(FieldChange(name, before, after))
    return found


def memory_history(*, memory: Memory) -> list[HistoryEntry]:
    """Every version of the memory, newest first, each compared with the one before it."""
    versions = list(
        memory.versions.select_related("approved_by", "created_by_agent").order_by("version")
    )
    entries = []
    previous: MemoryVersion | None = None
    for version in versions:
        if previous is None:
            diff = [DiffPart("equal", version.content)]
            changes: list[FieldChange] = []
        else:
            diff = text_diff(previous.content, version.content)
            changes = _changes(previous, version)
        entries.append(
            HistoryEntry(
                version=version,
                is_current=version.pk == memory.current_version_id,
                diff=diff,
                changes=changes,
            )
        )
        previous = version
    entries.reverse()
    return entries


def memory_uses(*, memory: Memory) -> QuerySet[MemoryUse]:
    """The replies the memory went into, newest first (the usage log)."""
    return memory.uses.select_related("version").order_by("-used_at", "rank")


@dataclass(frozen=True)
class Provenance:
    """Where a memory's current content comes from: the chat turn (or URI) its lineage was
    made from and, when the text was changed since without a new source, who changed it
    (`edited_by`: a `CreatedBy` value, or "" when it reads as it was said).

    Who wrote it: `written_by` (a `CreatedBy` value) of the version that said it, with the
    connected agent's name when an agent did (`agent_id`, `agent_name`) and the way it came
    (`via`: `WrittenVia.API` for the REST API with the user's key, "" when not recorded);
    `edited_agent_name` and `edited_via` likewise for the edit."""

    source_message_id: int | None
    source_session_id: int | None
    source_uri: str
    edited_by: str
    written_by: str = ""
    agent_id: int | None = None
    agent_name: str = ""
    via: str = ""
    edited_agent_name: str = ""
    edited_via: str = ""


def _via(version: MemoryVersion) -> str:
    params = version.change_params if isinstance(version.change_params, dict) else {}
    return str(params.get("via", ""))


def _agent_name(version: MemoryVersion) -> str:
    agent = version.created_by_agent
    return agent.name if agent is not None else ""


def memory_provenance(*, history: list[HistoryEntry]) -> Provenance:
    """The provenance of the current version, from `memory_history`'s entries.

    The source is the latest one stated in the lineage, so a version edited before edits
    kept their source (it has none of its own) still shows the message the memory came from."""
    message_id: int | None = None
    session_id: int | None = None
    uri = ""
    edited: MemoryVersion | None = None
    author: MemoryVersion | None = None
    for entry in reversed(history):
        version = entry.version
        stated = (version.source_message_id, version.source_session_id, version.source_uri)
        if author is None or (any(stated) and stated != (message_id, session_id, uri)):
            message_id, session_id, uri = stated
            author, edited = version, None
        elif entry.content_changed:
            edited = version
        if entry.is_current:
            break
    return Provenance(
        source_message_id=message_id,
        source_session_id=session_id,
        source_uri=uri,
        edited_by=edited.created_by if edited is not None else "",
        written_by=author.created_by if author is not None else "",
        agent_id=author.created_by_agent_id if author is not None else None,
        agent_name=_agent_name(author) if author is not None else "",
        via=_via(author) if author is not None else "",
        edited_agent_name=_agent_name(edited) if edited is not None else "",
        edited_via=_via(edited) if edited is not None else "",
    )
