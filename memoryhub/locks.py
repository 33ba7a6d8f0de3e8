"""PostgreSQL advisory locks: one beat job or one import step at a time, across workers."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import DatabaseError, connection


@contextlib.contextmanager
def exclusive(name: str) -> Iterator[bool]:
    """A PostgreSQL advisory lock on `name` for the duration; yields whether it was taken.

    Held by the database session, so a killed worker's lock goes with its connection.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [name])
        row = cursor.fetchone()
    taken = bool(row and row[0])
    try:
        yield taken
    finally:
        if taken:
            with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [name])


def lock_held(name: str) -> bool:
    """Whether any database session holds the advisory lock `exclusive(name)` takes.

    Read from `pg_locks` rather than by trying the lock: a try that wins holds it for a
    moment, and a task starting in that moment would take it for taken and stop.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND objsubid = 1"  # the one-bigint-key form
            " AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(%s, 0))",
            [name],
        )
        row = cursor.fetchone()
    return bool(row and row[0])
