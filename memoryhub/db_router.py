"""Read replicas: read-only work of a web request goes to a replica, everything else to the primary.

A read of user data goes to a replica named in `DATABASE_REPLICA_URLS` only when all of these hold:

- it is made while serving a web request (Celery tasks and commands stay on the primary),
  and that request is read-only: a GET/HEAD/OPTIONS, or a POST to a view in
  `READ_ONLY_POST_VIEWS` (search and context read, whatever their method);
- the request has written nothing yet (a write pins the rest of it to the primary);
- no transaction is open on the primary (a transaction, and with it `select_for_update`,
  reads what it will write);
- the person made no write of their own in the last `MEMORYHUB_READ_YOUR_WRITES_SECONDS`
  (read-your-writes): a request that is not read-only marks its user in the cache, which
  every web worker shares (a cookie would miss API clients, which send a token and keep no
  cookies; a process-local mark would miss the other workers);
- the replica answers, and replays within `MEMORYHUB_REPLICA_MAX_LAG_SECONDS` of the
  primary; both are checked at most every `MEMORYHUB_REPLICA_CHECK_SECONDS` per process,
  and a replica that fails either is skipped, without an error, until the next check.

Who is asking (users, tokens, sessions) is always read from the primary: those rows are
written just before the reads that need them (sign-up, login) and are one-row lookups.
Writes always go to the primary, including saves of rows that were read from a replica.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from django.http import HttpRequest, HttpResponse

from memoryhub.logs import current_user_id, request_var

logger = logging.getLogger(__name__)

# Apps whose reads always go to the primary: who is asking, and the scheduler's own tables.
PRIMARY_ONLY_APPS = frozenset(
    {
        "admin",
        "auth",
        "authtoken",
        "contenttypes",
        "sessions",
        "django_celery_beat",
        "django_celery_results",
    }
)
# Views that only read although they take a POST (their input is too large for a URL).
READ_ONLY_POST_VIEWS = frozenset({"api-search", "api-context"})
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

# The replica's delay behind the primary in seconds: 0 when it has replayed all it
# received (an idle primary sends nothing, and the age of the last replayed transaction
# would grow without any lag), else the age of the last transaction it replayed.
LAG_SQL = (
    "SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0 "
    "WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
    "ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 'Infinity') "
    "END::float8"
)

# Attributes of the request being served.
_ALIAS = "_memoryhub_read_alias"  # the replica chosen for its reads, or DEFAULT_DB_ALIAS
_WROTE = "_memoryhub_wrote"  # a write was routed: later reads see it only on the primary
_MARKED = "_memoryhub_marked_writer"  # its user is marked for read-your-writes


def replica_aliases() -> list[str]:
    return list(getattr(settings, "MEMORYHUB_REPLICAS", []))


def _writer_key(user_id: str) -> str:
    return f"read-your-writes:{user_id}"


def writer_mark(*, user_id: str) -> None:
    """The person just wrote: their reads go to the primary for the read-your-writes window."""
    try:
        cache.set(_writer_key(user_id), 1, timeout=settings.MEMORYHUB_READ_YOUR_WRITES_SECONDS)
    except Exception:  # the cache is down: nothing reads the mark either (see below)
        logger.warning("could not mark user %s for read-your-writes", user_id, exc_info=True)


def writer_is_recent(*, user_id: str) -> bool:
    try:
        return cache.get(_writer_key(user_id)) is not None
    except Exception:  # the cache is down: the mark may exist, so read from the primary
        return True


@dataclass
class _Health:
    checked_at: float
    usable: bool


# Per process: each replica's last check (threads of one process share it).
_health: dict[str, _Health] = {}


def health_forget() -> None:
    """Forget every check, so the next read checks again (tests; a changed configuration)."""
    _health.clear()


def _close_quietly(conn: BaseDatabaseWrapper) -> None:
    with contextlib.suppress(DatabaseError):
        conn.close()


def replica_lag_seconds(alias: str) -> float:
    """The replica's replay delay behind the primary; raises DatabaseError if it cannot answer."""
    with connections[alias].cursor() as cursor:
        cursor.execute(LAG_SQL)
        row = cursor.fetchone()
    return float(row[0])


def replica_usable(alias: str) -> bool:
    """Whether `alias` answers and replays within the bound; checked at most every
    `MEMORYHUB_REPLICA_CHECK_SECONDS` in this process."""
    now = time.monotonic()
    known = _health.get(alias)
    if known is not None and now - known.checked_at < settings.MEMORYHUB_REPLICA_CHECK_SECONDS:
        return known.usable
    try:
        lag = replica_lag_seconds(alias)
    except DatabaseError as exc:
        _close_quietly(connections[alias])
        logger.warning("replica %s skipped: %s", alias, str(exc).strip())
        usable = False
    else:
        usable = lag <= settings.MEMORYHUB_REPLICA_MAX_LAG_SECONDS
        if not usable:
            logger.warning("replica %s skipped: %.1f s behind the primary", alias, lag)
    _health[alias] = _Health(checked_at=now, usable=usable)
    return usable


def _connects(alias: str) -> bool:
    """Whether this thread's connection to `alias` works, checked once per request that
    reads from it; a failure marks the replica down until its next check."""
    conn = connections[alias]
    try:
        # A kept-open connection to a replica that has since stopped looks connected.
        if conn.connection is not None and not conn.is_usable():
            conn.close()
        conn.ensure_connection()
    except DatabaseError as exc:
        _close_quietly(connections[alias])
        logger.warning("replica %s skipped: %s", alias, str(exc).strip())
        _health[alias] = _Health(checked_at=time.monotonic(), usable=False)
        return False
    return True


def request_is_read_only(request: HttpRequest) -> bool:
    if request.method in _SAFE_METHODS:
        return True
    match = getattr(request, "resolver_match", None)
    return match is not None and match.view_name in READ_ONLY_POST_VIEWS


def _choose_for_request(request: HttpRequest) -> str:
    if getattr(request, _WROTE, False) or not request_is_read_only(request):
        return DEFAULT_DB_ALIAS
    user_id = current_user_id()
    if user_id is not None and writer_is_recent(user_id=user_id):
        return DEFAULT_DB_ALIAS
    candidates = replica_aliases()
    random.shuffle(candidates)
    for alias in candidates:
        if replica_usable(alias) and _connects(alias):
            return alias
    return DEFAULT_DB_ALIAS


def read_alias() -> str:
    """The database the current read of user data goes to (for raw SQL; models are routed)."""
    if not replica_aliases() or connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return DEFAULT_DB_ALIAS
    request = request_var.get()
    if request is None:
        return DEFAULT_DB_ALIAS
    if getattr(request, _WROTE, False):
        return DEFAULT_DB_ALIAS
    chosen: str | None = request.__dict__.get(_ALIAS)
    if chosen is None:
        chosen = _choose_for_request(request)
        # Kept for the rest of the request once the person is known, so one page reads one
        # replica (and one snapshot of the cache mark).
        if current_user_id() is not None or not request_is_read_only(request):
            setattr(request, _ALIAS, chosen)
    return chosen


class ReplicaRouter:
    """Django's router over `read_alias()`; a no-op when no replica is configured."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        if not replica_aliases() or model._meta.app_label in PRIMARY_ONLY_APPS:
            return DEFAULT_DB_ALIAS if replica_aliases() else None
        return read_alias()

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        if not replica_aliases():
            return None
        request = request_var.get()
        if request is not None and not getattr(request, _WROTE, False):
            setattr(request, _WROTE, True)
            if not request_is_read_only(request):
                _mark_request_user(request)
        # Explicit: left to Django, a row read from a replica would be saved back to it.
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool | None:
        same = {DEFAULT_DB_ALIAS, *replica_aliases()}
        if obj1._state.db in same and obj2._state.db in same:
            return True
        return None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return False if db in replica_aliases() else None


def _mark_request_user(request: HttpRequest) -> None:
    user_id = current_user_id()
    if user_id is not None and not getattr(request, _MARKED, False):
        setattr(request, _MARKED, True)
        writer_mark(user_id=user_id)


class ReplicaMiddleware:
    """The per-request side of the router; a no-op without replicas.

    - Marks the user of every request that is not read-only for read-your-writes (the router
      marks at the first write it routes; this also covers raw SQL writes, and a user known
      only once the view authenticated, as with API tokens).
    - A GET or HEAD whose replica stopped answering after the request's check (it failed with
      a server error and the replica no longer connects) runs once more on the primary, so
      the person sees the page, not the error; the replica is skipped until its next check.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not replica_aliases():
            return response
        used = request.__dict__.get(_ALIAS)
        if (
            request.method in ("GET", "HEAD")
            and used not in (None, DEFAULT_DB_ALIAS)
            and response.status_code >= 500
            and not _connects(used)
        ):
            logger.warning("replica %s failed during the request: answered from the primary", used)
            setattr(request, _ALIAS, DEFAULT_DB_ALIAS)
            response = self.get_response(request)
        if not request_is_read_only(request):
            _mark_request_user(request)
        return response
