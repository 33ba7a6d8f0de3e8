"""Import chat history from a file:

    python manage.py import_history FILE [--user U] [--format memoryhub|chatgpt]

`memoryhub` is the body of `POST /api/v1/imports/`; `chatgpt` is `conversations.json` from a
ChatGPT data export. The file is checked whole first: a malformed file is an error naming the
place, and nothing is imported. Sessions then go through the same pipeline as live ones.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.services import imports


def _chatgpt_text(content: Any) -> str:
    if not isinstance(content, dict):
        return ""
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n".join(p for p in parts if isinstance(p, str)).strip()
    text = content.get("text")
    return text.strip() if isinstance(text, str) else ""


def _epoch(value: Any, fallback: float) -> str:
    seconds = value if isinstance(value, int | float) else fallback
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat()


def chatgpt_to_payload(data: Any) -> dict[str, Any]:
    """Convert ChatGPT's conversations.json (a list of conversation trees) to an import."""
    if not isinstance(data, list):
        raise imports.ImportInvalid({"(file)": "a ChatGPT export is a list of conversations"})
    sessions = []
    for i, conversation in enumerate(data):
        place = f"conversations[{i}]"
        if not isinstance(conversation, dict) or not isinstance(conversation.get("mapping"), dict):
            raise imports.ImportInvalid({place: "must be an object with a 'mapping'"})
        mapping: dict[str, Any] = conversation["mapping"]
        created = conversation.get("create_time")
        if not isinstance(created, int | float):
            raise imports.ImportInvalid({f"{place}.create_time": "must be a number"})
        node_id = conversation.get("current_node")
        chain = []
        seen: set[str] = set()
        while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
            seen.add(node_id)
            chain.append(node_id)
            node_id = (mapping[node_id] or {}).get("parent")
        messages = []
        for node in reversed(chain):
            message = (mapping[node] or {}).get("message") or {}
            role = (message.get("author") or {}).get("role")
            text = _chatgpt_text(message.get("content"))
            if role in ("user", "assistant") and text:
                messages.append({
                    "role": role, "content": text, "external_id": f"chatgpt:{node}",
                    "created_at": _epoch(message.get("create_time"), created),
                })  # fmt: skip
        if messages:
            sessions.append({"started_at": _epoch(created, created), "messages": messages})
    if not sessions:
        raise imports.ImportInvalid({"(file)": "no user or assistant messages found"})
    return {"sessions": sessions}


class Command(BaseCommand):
    help = "Import chat history (memoryhub import JSON or a ChatGPT conversations.json)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", default=None, help="username (created if missing)")
        parser.add_argument("--format", choices=["memoryhub", "chatgpt"], default="memoryhub")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}") from exc
        except ValueError as exc:
            raise CommandError(f"{path} is not valid JSON: {exc}") from exc
        try:
            payload = chatgpt_to_payload(data) if options["format"] == "chatgpt" else data
            imports.parse_payload(payload)
        except imports.ImportInvalid as exc:
            places = "; ".join(f"{k}: {v}" for k, v in list(exc.fields.items())[:10])
            raise CommandError(f"{path} cannot be imported (nothing was): {places}") from exc
        username = options["user"] or "admin"
        user, _ = get_user_model().objects.get_or_create(username=username)
        record = imports.history_import_create_inline(user=user, payload=payload,
                                                      progress=self._progress)  # fmt: skip
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
