"""Import chat history from a file:

    python manage.py import_history FILE [--user U] [--format memoryhub|chatgpt]

`memoryhub` is the body of `POST /api/v1/imports/`; `chatgpt` is `conversations.json` from a
ChatGPT data export. The file is checked whole first, by the serializers of
`conversations.serializers` that the API uses: a malformed file is an error naming the place,
and nothing is imported. Sessions then go through the same pipeline as live ones.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.exceptions import ValidationError

from conversations.serializers import ChatGPTExportInput, UnixTimeField, error_paths
from conversations.services import imports

# A file bigger than this is refused before it is read (the whole file is parsed in memory).
MAX_FILE_BYTES = 512 * 1024 * 1024


def _object(value: Any) -> dict[str, Any]:
    """`value` if it is a JSON object, else an empty one (an export's optional parts)."""
    return value if isinstance(value, dict) else {}


def _chatgpt_text(content: Any) -> str:
    content = _object(content)
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n".join(p for p in parts if isinstance(p, str)).strip()
    text = content.get("text")
    return text.strip() if isinstance(text, str) else ""


def _epoch(value: Any) -> str | None:
    """An ISO 8601 time from Unix seconds; None when `value` is not a usable number."""
    try:
        return UnixTimeField().to_internal_value(value).isoformat()
    except ValidationError:
        return None


def chatgpt_to_payload(data: Any) -> dict[str, Any]:
    """Convert ChatGPT's conversations.json (a list of conversation trees) to an import."""
    export = ChatGPTExportInput(data={"conversations": data})
    if not export.is_valid():
        raise imports.ImportInvalid({k: str(v) for k, v in error_paths(export.errors).items()})
    sessions = []
    for conversation in export.validated_data["conversations"]:
        mapping: dict[str, Any] = conversation["mapping"]
        created = conversation["create_time"].isoformat()
        node_id = conversation.get("current_node")
        chain = []
        seen: set[str] = set()
        while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
            seen.add(node_id)
            chain.append(node_id)
            node_id = _object(mapping[node_id]).get("parent")
        messages = []
        for node in reversed(chain):
            message = _object(_object(mapping[node]).get("message"))
            role = _object(message.get("author")).get("role")
            text = _chatgpt_text(message.get("content"))
            if role in ("user", "assistant") and text:
                messages.append(
                    {
                        "role": role,
                        "content": text,
                        "external_id": f"chatgpt:{node}",
                        "created_at": _epoch(message.get("create_time")) or created,
                    }
                )
        if messages:
            sessions.append({"started_at": created, "messages": messages})
    if not sessions:
        raise imports.ImportInvalid({"(file)": "no user or assistant messages found"})
    return {"sessions": sessions}


def _read_json(path: Path) -> Any:
    """The file's JSON, or a CommandError saying what is wrong with the file and where."""
    if path.is_dir():
        raise CommandError(f"{path} is a directory; give the export's JSON file")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise CommandError(
                f"{path} is {size // (1024 * 1024)} MB; at most "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB per import: split it"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path} is not UTF-8 text (at byte {exc.start})") from exc
    if not text.strip():
        raise CommandError(f"{path} is empty")
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise CommandError(f"{path} is not valid JSON: nested too deeply") from exc
    except ValueError as exc:  # the message names the line and column
        raise CommandError(f"{path} is not valid JSON: {exc}") from exc


class Command(BaseCommand):
    help = "Import chat history (memoryhub import JSON or a ChatGPT conversations.json)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", default=None, help="username (created if missing)")
        parser.add_argument("--format", choices=["memoryhub", "chatgpt"], default="memoryhub")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        data = _read_json(path)
        try:
            payload = chatgpt_to_payload(data) if options["format"] == "chatgpt" else data
            imports.parse_payload(payload)
        except imports.ImportInvalid as exc:
            places = "; ".join(f"{k}: {v}" for k, v in list(exc.fields.items())[:10])
            raise CommandError(f"{path} cannot be imported (nothing was): {places}") from exc
        username = options["user"] or "admin"
        user, _ = get_user_model().objects.get_or_create(username=username)
        try:
            record = imports.history_import_create_inline(
                user=user, payload=payload, progress=self._progress
            )
        except Exception as exc:  # the import is marked failed; say so, not a traceback
            raise CommandError(
                f"the import of {path} stopped on {type(exc).__name__} and is marked failed; "
                "the sessions stored before it remain (run again with --traceback for details)"
            ) from exc
        sys.stderr.write("\n")
        self.stdout.write(
            f"imported {record.total} messages into {len(record.sessions.all())} sessions "
            f"for {username} (import {record.pk})"
        )

    def _progress(self, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} messages")
        sys.stderr.flush()
