"""Structured logs: one JSON object per line, each carrying the request id and the user id.

The request id lives in a context variable set by `memoryhub.middleware.RequestIdMiddleware`
for a web request, and by the Celery signal handlers below for a task enqueued during one.
"""

from __future__ import annotations

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TypeGuard

from celery import signals
from django.utils.functional import empty

request_id_var: ContextVar[str | None] = ContextVar("memoryhub_request_id", default=None)
# The Django request being served, so log lines can name its user once it is known.
request_var: ContextVar[Any] = ContextVar("memoryhub_request", default=None)

REQUEST_ID_HEADER = "memoryhub_request_id"
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}$")


def is_sane_request_id(value: object) -> TypeGuard[str]:
    """A request id from outside is kept only if it is short and plain (no log injection)."""
    return isinstance(value, str) and bool(_SANE_REQUEST_ID.match(value))


def current_user_id() -> str | None:
    """The id of the current request's user if authentication already ran, else None.

    Never triggers authentication itself: a log line must not cause a database query.
    """
    request = request_var.get()
    if request is None:
        return None
    user = request.__dict__.get("user")
    wrapped = getattr(user, "_wrapped", user)
    if wrapped is None or wrapped is empty:
        return None
    if not getattr(wrapped, "is_authenticated", False):
        return None
    return str(wrapped.pk)


class RequestContextFilter(logging.Filter):
    """Adds `request_id` and `user_id` to every record (None outside a request or task)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        record.user_id = current_user_id()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id, user_id."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "user_id": getattr(record, "user_id", None),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


@signals.before_task_publish.connect
def _task_carries_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """A task enqueued while serving a request carries that request's id in its headers."""
    request_id = request_id_var.get()
    if request_id is not None and headers is not None:
        headers.setdefault(REQUEST_ID_HEADER, request_id)


@signals.task_prerun.connect
def _task_adopts_request_id(task: Any = None, **_: Any) -> None:
    incoming = getattr(getattr(task, "request", None), REQUEST_ID_HEADER, None)
    request_id_var.set(incoming if is_sane_request_id(incoming) else None)


@signals.task_postrun.connect
def _task_forgets_request_id(**_: Any) -> None:
    request_id_var.set(None)
