"""Secret redaction through the real pipeline, scored on a corpus of labelled lines:

    python manage.py score_secrets ../shared/corpora/secrets.jsonl

Each line (`{"id", "text", "secrets": [...], "keep": [...]}`) enters three ways, each for a
throwaway user of its own: as one user message in a fresh session through the chat service
(offline provider; then a later session that recalls it), as one message of an import
through the service `POST /api/v1/imports/` uses, and as a memory through the service
`POST /api/v1/memories/` uses. The work a worker would do (embedding, extraction, topic and
session finalizing with summary, tags and topic keywords) runs here, synchronously, from the
tasks that were queued. Then every stored text is searched for the line's secrets: every
text, string, array and JSON column of every model (introspected, so new columns are
covered) in the rows of the line's users or created while the line ran, what was written to
the cache, the task messages that would have gone to the broker, and the log records
emitted. The throwaway users and their rows are deleted at the end.

Printed: lines, secrets listed, leaks (line id and place, never the secret), the share of
`keep` substrings intact in the stored messages (all lines and benign lines), and how many
lines the memory path stored.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from celery.app.task import Task
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.postgres.fields import ArrayField
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import models
from django.utils import timezone

from conversations.models import Message
from conversations.services import chat, imports, sessions
from memories.models import Memory
from memories.services import revision
from memories.services.intake import text_intake
from memoryhub import llm

_TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField, ArrayField)
_CACHE_WRITES = ("set", "add", "set_many", "get_or_set")
_PATHS = ("chat", "import", "memory")
FOLLOW_UP = "지난번에 얘기한 거 이어서 하자"


@dataclass(frozen=True)
class Line:
    id: str
    text: str
    secrets: list[str]
    keep: list[str]


def load_lines(path: Path) -> list[Line]:
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
            lines.append(
                Line(
                    id=str(item["id"]),
                    text=str(item["text"]),
                    secrets=[str(s) for s in item.get("secrets", [])],
                    keep=[str(k) for k in item.get("keep", [])],
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise CommandError(f"{path}:{number}: not a corpus line ({exc})") from exc
    return lines


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a stored value (JSON, arrays), keys included; numbers are not text."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, bytes):
        yield value.decode("utf-8", errors="replace")


def secret_pattern(secret: str) -> re.Pattern[str]:
    """A secret as it would show in stored text; an all-digit one (a PIN, a CVC) only as a
    whole number, not inside a number, a timestamp's microseconds or a hex id (a task's
    "…e319a…")."""
    escaped = re.escape(secret)
    if secret.isdigit():
        return re.compile(rf"(?<![0-9A-Za-z]){escaped}(?![0-9A-Za-z])")
    return re.compile(escaped)


@dataclass
class Recorder:
    """What left the process during a run: task messages, cache writes, log records."""

    queued: list[tuple[Task[Any, Any], tuple[Any, ...], dict[str, Any]]] = field(
        default_factory=list
    )
    texts: list[tuple[str, str]] = field(default_factory=list)  # (place, text)

    def record(self, place: str, value: Any) -> None:
        self.texts.extend((place, text) for text in strings_in(value))


class _LogCapture(logging.Handler):
    def __init__(self, recorder: Recorder) -> None:
        super().__init__(level=logging.NOTSET)
        self.recorder = recorder

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.recorder.record("log", text)


@contextmanager
def recording(recorder: Recorder) -> Iterator[None]:
    """Task messages are recorded instead of published; cache writes and logs are recorded
    as they happen."""

    def apply_async(task: Task[Any, Any], args: Any = None, kwargs: Any = None, **_: Any) -> Any:
        args, kwargs = tuple(args or ()), dict(kwargs or {})
        recorder.record(f"broker:{task.name}", [list(args), kwargs])
        recorder.queued.append((task, args, kwargs))
        return mock.Mock(id=str(uuid.uuid4()))

    def cache_writer(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        del name

        def write(cache: Any, *args: Any, **kwargs: Any) -> Any:
            recorder.record("cache", [list(args), kwargs])
            return original(cache, *args, **kwargs)

        return write

    handler = _LogCapture(recorder)
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(Task, "apply_async", apply_async))
        for backend in {type(caches[alias]) for alias in settings.CACHES}:
            for name in _CACHE_WRITES:
                patched = cache_writer(name, getattr(backend, name))
                stack.enter_context(mock.patch.object(backend, name, patched))
        logging.getLogger().addHandler(handler)
        stack.callback(logging.getLogger().removeHandler, handler)
        yield


def drain(recorder: Recorder) -> int:
    """Run every queued task here, as a worker would, until none is left."""
    ran = 0
    while recorder.queued:
        task, args, kwargs = recorder.queued.pop(0)
        task.apply(args=args, kwargs=kwargs, throw=True)
        ran += 1
    return ran


def _user_field(model: type[models.Model]) -> str | None:
    user_model = get_user_model()
    if model is user_model:
        return "pk"
    for f in model._meta.concrete_fields:
        if isinstance(f, models.ForeignKey) and f.related_model is user_model:
            return f.name
    return None


def _integer_pk(model: type[models.Model]) -> bool:
    return isinstance(model._meta.pk, models.AutoField | models.BigAutoField)


def _scanned_models() -> list[tuple[type[models.Model], list[str]]]:
    found = []
    for model in apps.get_models():
        if model._meta.proxy or not model._meta.managed:
            continue
        names = [f.name for f in model._meta.concrete_fields if isinstance(f, _TEXT_FIELDS)]
        if names:
            found.append((model, names))
    return found


def baseline() -> dict[type[models.Model], int]:
    """The highest id of each table without a user column, to scan only rows made after."""
    marks = {}
    for model, _names in _scanned_models():
        if _user_field(model) is None and _integer_pk(model):
            top = model._default_manager.order_by("-pk").values_list("pk", flat=True).first()
            marks[model] = int(top or 0)
    return marks


def stored_texts(
    *, user_ids: list[int], since: dict[type[models.Model], int]
) -> Iterator[tuple[str, str]]:
    """(table.column, text) for every text the users own, and for every row of a table
    without a user column made since `since`."""
    for model, names in _scanned_models():
        user_field = _user_field(model)
        manager = model._default_manager
        if user_field is not None:
            rows = manager.filter(**{f"{user_field}__in": user_ids})
        elif model in since:
            rows = manager.filter(pk__gt=since[model])
        else:
            continue  # no user and no ordered id: not attributable to this run
        for values in rows.values_list(*names):
            for name, value in zip(names, values, strict=True):
                for text in strings_in(value):
                    yield f"{model._meta.db_table}.{name}", text


@dataclass
class LineResult:
    line: Line
    leaks: list[str]  # places
    # The secret is still in the text after the redaction entry: redact() does not know it,
    # and every path stores it. A leak on a line without this is a path that skips the entry.
    missed_by_redaction: bool
    keep_intact: int
    keep_total: int
    memory_stored: bool


def _chat(user: Any, line: Line) -> None:
    session = chat.chat_session_create(user=user)
    chat.chat_exchange(session=session, content=line.text)
    sessions.session_end(session=session)


def _chat_later(user: Any, line: Line) -> None:
    """A later session that recalls the first one: its summary goes through the cache of
    recent summaries and into the next prompt and reply."""
    del line
    session = chat.chat_session_create(user=user)
    chat.chat_exchange(session=session, content=FOLLOW_UP)


def _import(user: Any, line: Line) -> None:
    now = timezone.now().isoformat()
    payload = {
        "sessions": [
            {
                "started_at": now,
                "messages": [
                    {
                        "role": "user",
                        "content": line.text,
                        "created_at": now,
                        "external_id": line.id,
                    }
                ],
            }
        ]
    }
    imports.history_import_create(user=user, payload=payload)


def _memory(user: Any, line: Line) -> None:
    with suppress(revision.MemoryRefused):
        revision.memory_create(user=user, type="fact", content=line.text)


_RUN: dict[str, Callable[[Any, Line], None]] = {"chat": _chat, "import": _import, "memory": _memory}


def score_line(line: Line, *, run: str) -> LineResult:
    users = {
        path: get_user_model().objects.create_user(username=f"score-secrets-{run}-{line.id}-{path}")
        for path in _PATHS
    }
    since = baseline()
    recorder = Recorder()
    try:
        with recording(recorder):
            for path, user in users.items():
                _RUN[path](user, line)
                drain(recorder)
            _chat_later(users["chat"], line)
            drain(recorder)
        texts = [
            *stored_texts(user_ids=[u.pk for u in users.values()], since=since),
            *recorder.texts,
        ]
        leaks = []
        for secret in line.secrets:
            pattern = secret_pattern(secret)
            leaks += [place for place, text in texts if pattern.search(text)]
        stored = [
            Message.objects.filter(user=users[path], role=Message.Role.USER)
            .order_by("created_at", "id")
            .values_list("content", flat=True)
            .first()
            or ""
            for path in ("chat", "import")
        ]
        keep_total = len(line.keep) * 2
        keep_intact = sum(1 for keep in line.keep for content in stored if keep in content)
        memory_stored = Memory.objects.filter(user=users["memory"]).exists()
    finally:
        for user in users.values():
            user.delete()
    return LineResult(
        line=line,
        leaks=sorted(set(leaks)),
        missed_by_redaction=any(s in text_intake(line.text).text for s in line.secrets),
        keep_intact=keep_intact,
        keep_total=keep_total,
        memory_stored=memory_stored,
    )


class Command(BaseCommand):
    help = "Score secret redaction through the real pipeline on a JSONL corpus."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("corpus", type=Path)
        parser.add_argument("--limit", type=int, default=0, help="score only the first N lines")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["corpus"]
        if not path.is_file():
            raise CommandError(f"{path} is not a file")
        lines = load_lines(path)
        if options["limit"]:
            lines = lines[: options["limit"]]
        run = uuid.uuid4().hex[:8]
        previous = llm.get_provider()
        llm.set_provider(llm.OfflineProvider())
        try:
            results = [score_line(line, run=run) for line in lines]
        finally:
            llm.set_provider(previous)
        self._report(results)

    def _report(self, results: list[LineResult]) -> None:
        out = self.stdout.write
        secret_lines = [r for r in results if r.line.secrets]
        benign = [r for r in results if not r.line.secrets]
        leaked = [r for r in results if r.leaks]
        out(f"lines: {len(results)} ({len(secret_lines)} with secrets, {len(benign)} benign)")
        out(f"secrets listed: {sum(len(r.line.secrets) for r in results)}")
        out(f"lines leaking a secret: {len(leaked)} (target 0)")
        missed = [r for r in leaked if r.missed_by_redaction]
        out(f"  of which redact() missed the secret (stored by every path): {len(missed)}")
        out(f"  of which a path stored a secret redact() catches: {len(leaked) - len(missed)}")
        for r in leaked:
            why = "missed by redact()" if r.missed_by_redaction else "PATH"
            out(f"  {r.line.id} ({why}): {', '.join(r.leaks)}")
        out("keep substrings intact in stored messages (chat and import):")
        for label, group in (("all lines", results), ("benign lines", benign)):
            intact = sum(r.keep_intact for r in group)
            total = sum(r.keep_total for r in group)
            rate = intact / total if total else 1.0
            out(f"  {label}: {intact}/{total} = {rate:.1%} (target >= 98%)")
        stored_benign = sum(r.memory_stored for r in benign)
        refused = sum(not r.memory_stored for r in secret_lines)
        out(
            f"memories: {refused}/{len(secret_lines)} lines with secrets refused, "
            f"{stored_benign}/{len(benign)} benign lines stored"
        )
