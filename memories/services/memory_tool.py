"""Claude's client-side memory tool (`memory_20250818`) served from the user's records.

The virtual tree is `/memories/<type>/<id>.md`, one file per live (active or pending) memory of
the user, whose text is the memory's current content. Reads see only the caller's memories.
Writes are the assistant's: they go through the write policy and versioning like any other
(a new file is a pending memory until the user approves it; an edit adds a version; a delete
rejects the memory; a rename to another type folder changes its type). Paths are checked by
`tool_paths.parse_path` before anything is looked up.

`memory_tool_execute` returns the tool result text; a refused command raises
`MemoryToolError` (a ValueError), which the tool loop reports to the model as an error.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from memories.logic import rules
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.tool_paths import ROOT, PathRefused, ToolPath, parse_path
from memories.logic.write_policy import Decision, Origin
from memories.models import LIVE_STATUSES, Memory, MemoryStatus, MemoryType, Reader
from memories.reasons import ChangeReason, StatusReason
from memories.selectors.retrieval import readable_by
from memories.services import extraction, revision
from memories.services.revision import InvalidTransition, MemoryRefused
from memoryhub.validation import visible_text

COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")
TYPES = tuple(MemoryType.values)
_LINE_NUMBER_WIDTH = 6
_MAX_FILE_CHARS = 2000
_MAX_LIST = 200
_EDIT = ChangeReason.EDITED_BY_ASSISTANT


# How the tool is declared to the Messages API (a built-in client tool, beta API); the model
# then sends the commands below as tool_use input.
ANTHROPIC_TOOL_PARAM: dict[str, str] = {"type": "memory_20250818", "name": "memory"}
# The same commands as a custom tool's input schema, for a tool loop that only declares custom
# tools (name "memory", this schema).
INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": list(COMMANDS)},
        "path": {"type": "string", "description": "A path under /memories"},
        "view_range": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
        "file_text": {"type": "string"},
        "old_str": {"type": "string"},
        "new_str": {"type": "string"},
        "insert_line": {"type": "integer"},
        "insert_text": {"type": "string"},
        "old_path": {"type": "string"},
        "new_path": {"type": "string"},
    },
    "required": ["command"],
}
DESCRIPTION = (
    "The user's long-term memory as files: /memories/<type>/<id>.md for the types "
    "preference, decision, procedure, fact and episode. View before writing; what you write "
    "waits for the user's approval, and secrets are never stored."
)


class MemoryToolError(ValueError):
    """A memory tool command that was refused; the message is shown to the model."""


def memory_tool_execute(*, user: AbstractBaseUser, command: dict[str, Any]) -> str:
    """Run one memory tool command for `user` and return the tool result text."""
    if not isinstance(command, dict):
        raise MemoryToolError("The command must be a JSON object.")
    name = command.get("command")
    if name not in COMMANDS:
        raise MemoryToolError(f"Unknown command {name!r}; use one of {', '.join(COMMANDS)}.")
    try:
        if name == "rename":
            return _rename(user, parse_path(command.get("old_path")), command)
        path = parse_path(command.get("path"))
        if name == "view":
            return _view(user, path, command.get("view_range"))
        if name == "create":
            return _create(user, path, command.get("file_text"))
        if name == "str_replace":
            return _str_replace(user, path, command)
        if name == "insert":
            return _insert(user, path, command)
        return _delete(user, path)
    except PathRefused as exc:
        raise MemoryToolError(str(exc)) from exc
    except MemoryRefused as exc:
        raise MemoryToolError(f"Not stored: {exc.result.reason}.") from exc
    except InvalidTransition as exc:
        raise MemoryToolError(str(exc)) from exc


# --- the tree -------------------------------------------------------------------------------


def _live(user: AbstractBaseUser) -> QuerySet[Memory]:
    """The user's live memories the assistant may read: one the user kept from the assistant
    (`allowed_readers`) is not in its tree, to view or to edit."""
    return (
        Memory.objects.filter(
            user_id=user.pk, status__in=LIVE_STATUSES, current_version__isnull=False
        )
        .filter(readable_by(Reader.ASSISTANT, field="current_version__allowed_readers"))
        .select_related("current_version")
    )


def _file_name(memory: Memory) -> str:
    return f"{memory.pk}.md"


def _file_path(memory: Memory) -> str:
    return f"{ROOT}/{memory.type}/{_file_name(memory)}"


def _content(memory: Memory) -> str:
    assert memory.current_version is not None
    return memory.current_version.content


def _size(text: str) -> str:
    size = len(text.encode())
    return f"{size}B" if size < 1024 else f"{size / 1024:.1f}K"


def _file(user: AbstractBaseUser, path: ToolPath) -> Memory:
    """The live memory a file path names; another user's id is simply not there."""
    if len(path.parts) != 2 or path.parts[0] not in TYPES:
        raise MemoryToolError(f"The path {path.text} does not exist. Please provide a valid path.")
    stem, _, suffix = path.parts[1].rpartition(".")
    if suffix != "md" or not stem.isdigit():
        raise MemoryToolError(f"The path {path.text} does not exist. Please provide a valid path.")
    memory = _live(user).filter(pk=int(stem), type=path.parts[0]).first()
    if memory is None:
        raise MemoryToolError(f"The path {path.text} does not exist. Please provide a valid path.")
    return memory


def _view(user: AbstractBaseUser, path: ToolPath, view_range: Any) -> str:
    if len(path.parts) == 2:
        return _view_file(_file(user, path), path, view_range)
    if path.parts and path.parts[0] not in TYPES:
        raise MemoryToolError(f"The path {path.text} does not exist. Please provide a valid path.")
    folders = path.parts or TYPES
    memories = list(_live(user).filter(type__in=folders).order_by("type", "id")[:_MAX_LIST])
    lines = [f"{_size(''.join(_content(m) for m in memories))}\t{path.text}"]
    for folder in folders:
        in_folder = [m for m in memories if m.type == folder]
        if not path.parts:
            size = _size("".join(_content(m) for m in in_folder))
            lines.append(f"{size}\t{ROOT}/{folder}/")
        for memory in in_folder:
            note = " (pending the user's approval)" if memory.status == MemoryStatus.PENDING else ""
            lines.append(f"{_size(_content(memory))}\t{_file_path(memory)}{note}")
    header = (
        f"Here're the files and directories up to 2 levels deep in {path.text}, "
        "excluding hidden items:"
    )
    return header + "\n" + "\n".join(lines)


def _numbered(lines: list[str], start: int) -> str:
    return "\n".join(
        f"{str(number).rjust(_LINE_NUMBER_WIDTH)}\t{line}"
        for number, line in enumerate(lines, start=start)
    )


def _view_file(memory: Memory, path: ToolPath, view_range: Any) -> str:
    lines = _content(memory).split("\n")
    start = 1
    if view_range is not None:
        if (
            not isinstance(view_range, list | tuple)
            or len(view_range) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in view_range)
        ):
            raise MemoryToolError("view_range must be two line numbers, [start, end].")
        first, last = view_range
        start = max(1, first)
        end = len(lines) if last == -1 else last
        lines = lines[start - 1 : end]
    return f"Here's the content of {path.text} with line numbers:\n" + _numbered(lines, start)


# --- writes ---------------------------------------------------------------------------------


def _text(value: Any, name: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise MemoryToolError(f"{name} must be a string.")
    if "\x00" in value:
        raise MemoryToolError(f"{name} must not contain NUL characters.")
    value = visible_text(value)  # what the user will approve is what is stored
    if not allow_empty and not value.strip():
        raise MemoryToolError(f"{name} must not be empty.")
    if len(value) > _MAX_FILE_CHARS:
        raise MemoryToolError(f"{name} is longer than {_MAX_FILE_CHARS} characters.")
    return value


def _create(user: AbstractBaseUser, path: ToolPath, file_text: Any) -> str:
    text = _text(file_text, "file_text").strip()
    if not path.parts or (len(path.parts) == 1 and path.parts[0] in TYPES):
        raise MemoryToolError(
            f"{path.text} is a directory; create a file such as {ROOT}/fact/new.md"
        )
    folder = path.parts[0] if len(path.parts) == 2 else ""
    if folder and folder not in TYPES:
        raise MemoryToolError(f"Folders under {ROOT} are the memory types: {', '.join(TYPES)}.")
    stem = path.parts[-1].removesuffix(".md")
    if len(path.parts) == 2 and stem.isdigit() and _live(user).filter(pk=int(stem)).exists():
        raise MemoryToolError(f"File {path.text} already exists")
    item = ExtractedItem(
        type=folder or rules.guess_type(text),
        content=text,
        importance=0.5,
        stated_by_user=False,
        confidence=0.8,
        slot=rules.slot_of(text),
    )
    stored = extraction.memory_store_candidate(user_id=user.pk, item=item)
    memory = stored.memory
    if memory is None:
        raise MemoryToolError(f"Not stored: {stored.policy.reason}.")
    where = _file_path(memory)
    if stored.policy.decision is Decision.QUARANTINE:
        return f"Not stored as a memory: {stored.policy.reason}. It was set aside for review."
    if stored.outcome in ("duplicate", "confirmed"):
        return f"This is already remembered at: {where}"
    pending = " It is pending until the user approves it." if memory.status == "pending" else ""
    return f"File created successfully at: {where}.{pending}"


def _revise_text(memory: Memory, content: str) -> Memory:
    return revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(content=content),
        origin=Origin.ASSISTANT,
        change_reason=_EDIT,
    )


def _str_replace(user: AbstractBaseUser, path: ToolPath, command: dict[str, Any]) -> str:
    memory = _file(user, path)
    old = _text(command.get("old_str"), "old_str")
    new = _text(command.get("new_str"), "new_str", allow_empty=True)
    content = _content(memory)
    count = content.count(old)
    if count == 0:
        raise MemoryToolError(
            f"No replacement was performed, old_str `{old}` did not appear verbatim in {path.text}."
        )
    if count > 1:
        raise MemoryToolError(
            f"No replacement was performed. Multiple occurrences of old_str `{old}`. "
            "Please ensure it is unique"
        )
    updated = content.replace(old, new)
    if not updated.strip():
        raise MemoryToolError("The edit would leave the memory empty; delete it instead.")
    memory = _revise_text(memory, updated)
    line = content[: content.find(old)].count("\n")
    lines = updated.split("\n")
    first = max(0, line - 2)
    snippet = _numbered(lines[first : line + 3], first + 1)
    return (
        "The memory file has been edited. Here is the snippet showing the change "
        f"(with line numbers):\n{snippet}{_status_note(memory)}"
    )


def _insert(user: AbstractBaseUser, path: ToolPath, command: dict[str, Any]) -> str:
    memory = _file(user, path)
    text = _text(command.get("insert_text"), "insert_text")
    line = command.get("insert_line")
    lines = _content(memory).split("\n")
    if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line <= len(lines):
        raise MemoryToolError(
            f"Invalid `insert_line` parameter: {line}. It should be within the range "
            f"[0, {len(lines)}]."
        )
    lines.insert(line, text.rstrip("\n"))
    memory = _revise_text(memory, "\n".join(lines))
    return f"The file {path.text} has been edited.{_status_note(memory)}"


def _status_note(memory: Memory) -> str:
    if memory.status == MemoryStatus.PENDING:
        return "\nThe change is pending until the user approves it."
    if memory.status == MemoryStatus.QUARANTINED:
        return f"\nThe memory was set aside for review: {memory.status_reason_sentence}."
    return ""


def _delete(user: AbstractBaseUser, path: ToolPath) -> str:
    if len(path.parts) < 2:
        raise MemoryToolError(f"Cannot delete the directory {path.text}; delete files one by one.")
    memory = _file(user, path)
    revision.memory_reject(user=user, memory=memory, reason=StatusReason.REMOVED_BY_ASSISTANT)
    return f"Successfully deleted {path.text}"


def _rename(user: AbstractBaseUser, old: ToolPath, command: dict[str, Any]) -> str:
    new = parse_path(command.get("new_path"))
    memory = _file(user, old)
    if len(new.parts) != 2 or new.parts[0] not in TYPES:
        raise MemoryToolError(
            f"Files can only move between the type folders: {ROOT}/<{'|'.join(TYPES)}>/<id>.md"
        )
    if new.parts[0] == memory.type:
        raise MemoryToolError("File names are memory ids and cannot change; move between types.")
    memory = revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(type=new.parts[0]),
        origin=Origin.ASSISTANT,
        change_reason=_EDIT,
    )
    return f"Successfully renamed {old.text} to {_file_path(memory)}{_status_note(memory)}"
