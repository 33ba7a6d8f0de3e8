"""Ready to shard by user (issue 20, line 3): every query of user data names its user.

A distributed PostgreSQL such as Citus shards each table of user data by `user_id`; a query
that names the user runs on one shard, one that does not is sent to every shard. This test
drives one person through every call of the REST contract (API.md) and the main pages, records
each SQL statement (with its parameters) that reaches the database, and fails on any statement
that touches a table of user data without a `user_id` predicate.

The rule, per statement:

- Tables of user data are the tables of this project's apps (`memories`, `conversations`,
  `memoryhub`, and any app added beside them); the rest must belong to the reference apps of
  `memoryhub.sharding` (users, tokens, sessions, Django's and Celery's own tables), else the
  test fails asking for the new table to be classified.
- An INSERT into a table of user data must give `user_id` a value (its column list names it).
- Every other statement is run through `EXPLAIN (VERBOSE, FORMAT JSON)` with its own
  parameters, so PostgreSQL's parser finds the tables (FROM, JOIN, subqueries, CTEs, the
  target of UPDATE and DELETE), and each scan of a table of user data must be *scoped*:
  - directly, by a condition `<that scan>.user_id = <value>` or `= ANY(<values>)` in its
    Filter, Index Cond or Recheck Cond (or its bitmap index scans'); the planner also puts
    such a condition on a table joined by `a.user_id = b.user_id` to one filtered by value,
    so the common join is scoped this way too;
  - or through a join: a condition `<that scan>.user_id = <other>.user_id` anywhere in the
    plan, where the other scan is scoped (a join on the distribution column is co-located,
    so it stays on the person's shard). A join on any other column (`memory.id =
    version.memory_id`) does not count.

Every query of the walk names the user: `save()` updates by owner and id
(`memoryhub.models.UserOwnedModel`), the deletion services delete children first by owner
instead of Django's cascade by id, keys between tables of user data join and look up through
the owner too (`memoryhub.relations`), and the selectors and services filter the related side
by user. docs/deploy.md (the Citus path) says how.
"""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from celery import Task, current_app
from django.conf import settings
from django.db import connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from memoryhub.sharding import project_app_configs, reference_tables, user_data_tables

_SCAN_CONDITIONS = ("Filter", "Index Cond", "Recheck Cond", "TID Cond")
_ALL_CONDITIONS = (*_SCAN_CONDITIONS, "Join Filter", "Hash Cond", "Merge Cond")
_STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)
_INSERT = re.compile(r'^\s*INSERT\s+INTO\s+"?(\w+)"?\s*\(([^)]*)\)', re.IGNORECASE)
_JOIN_ON_USER = re.compile(r"\b(\w+)\.user_id\s*=\s*(\w+)\.user_id\b")


@dataclass
class Statement:
    request: str
    sql: str
    params: Any
    origin: str = ""


_ROOT = Path(settings.BASE_DIR).resolve()


def _origin() -> str:
    """The innermost frames of this project's code (not the tests) that issued a statement."""
    frames = []
    for frame in reversed(traceback.extract_stack()):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(_ROOT) and not path.is_relative_to(_ROOT / "tests"):
            if ".venv" in path.parts:
                continue
            frames.append(f"{path.relative_to(_ROOT)}:{frame.lineno} {frame.name}")
            if len(frames) == 2:
                break
    return " < ".join(frames)


@dataclass
class Recorder:
    label: str = "setup"
    statements: list[Statement] = field(default_factory=list)

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not many:
            self.statements.append(Statement(self.label, sql, params, _origin()))
        return execute(sql, params, many, context)


def _walk(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _walk(child)


def _conditions(node: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [str(node[key]) for key in keys if key in node]


def _scan_conditions(node: dict[str, Any]) -> str:
    """The scan's own conditions and those of its bitmap index scans."""
    found = _conditions(node, _SCAN_CONDITIONS)
    for child in node.get("Plans", []):
        if child.get("Node Type", "").startswith("Bitmap"):
            found.append(_scan_conditions(child))
    return " ".join(found)


def _scoped_directly(alias: str, conditions: str) -> bool:
    for match in re.finditer(rf"\b{re.escape(alias)}\.user_id\s*=\s*(\S+)", conditions):
        if not re.match(r"\(?\w+\.user_id\b", match.group(1)):
            return True
    return False


def unscoped_tables(plan: dict[str, Any], user_tables: set[str]) -> list[str]:
    """Tables of user data this plan scans without a user_id predicate (see the module doc)."""
    scans = {
        node["Alias"]: node["Relation Name"]
        for node in _walk(plan)
        if "Relation Name" in node and node.get("Node Type") != "ModifyTable"
    }
    edges: list[tuple[str, str]] = []
    for node in _walk(plan):
        for text in _conditions(node, _ALL_CONDITIONS):
            edges.extend(_JOIN_ON_USER.findall(text))
    scoped = {
        node["Alias"]
        for node in _walk(plan)
        if "Relation Name" in node and _scoped_directly(node["Alias"], _scan_conditions(node))
    }
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            for one, other in ((a, b), (b, a)):
                if other in scoped and one not in scoped:
                    scoped.add(one)
                    changed = True
    return sorted(
        table for alias, table in scans.items() if table in user_tables and alias not in scoped
    )


def _explain(statement: Statement) -> dict[str, Any]:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("EXPLAIN (VERBOSE, FORMAT JSON) " + statement.sql, statement.params)
        raw = cursor.fetchone()[0]
    document = json.loads(raw) if isinstance(raw, str) else raw
    return document[0]["Plan"]


def violations(statements: list[Statement]) -> list[tuple[str, str]]:
    """(table, what and where) for each breach of the rule in `statements`."""
    user_tables = user_data_tables()
    known = user_tables | reference_tables()
    found: list[tuple[str, str]] = []
    for statement in statements:
        if not _STATEMENT.match(statement.sql):
            continue  # SAVEPOINT, SET LOCAL, ...
        where = f"{statement.request} ({statement.origin}): {statement.sql[:300]}"
        insert = _INSERT.match(statement.sql)
        if insert and insert.group(1) in user_tables and '"user_id"' not in insert.group(2):
            found.append((insert.group(1), f"INSERT without user_id in {where}"))
        plan = _explain(statement)
        tables = {n["Relation Name"] for n in _walk(plan) if "Relation Name" in n}
        for table in sorted(tables - known):
            found.append((table, f"neither user data nor reference data, in {where}"))
        for table in unscoped_tables(plan, user_tables):
            found.append((table, f"no user_id predicate in {where}"))
    return found


# --- the rule itself, on statements written for it -------------------------------------------


@pytest.mark.django_db
def test_the_rule_accepts_a_user_filter_and_a_join_on_user_id_and_nothing_else(
    user: Any,
) -> None:
    tables = user_data_tables()

    def check(sql: str, params: list[Any]) -> list[str]:
        return unscoped_tables(_explain(Statement("rule", sql, params)), tables)

    assert check("SELECT * FROM memories_memory WHERE user_id = %s", [user.pk]) == []
    assert check("SELECT * FROM memories_memory WHERE user_id = ANY(%s)", [[user.pk]]) == []
    assert check("SELECT * FROM memories_memory WHERE id = %s", [1]) == ["memories_memory"]
    joined_on_user = (
        "SELECT v.id FROM memories_memory m JOIN memories_memoryversion v "
        "ON v.memory_id = m.id AND v.user_id = m.user_id WHERE m.user_id = ANY(%s)"
    )
    assert check(joined_on_user, [[user.pk]]) == []
    joined_on_id = (
        "SELECT v.id FROM memories_memory m JOIN memories_memoryversion v "
        "ON v.memory_id = m.id WHERE m.user_id = ANY(%s)"
    )
    assert check(joined_on_id, [[user.pk]]) == ["memories_memoryversion"]
    in_subquery = (
        "SELECT id FROM conversations_message WHERE user_id = %s AND session_id IN "
        "(SELECT session_id FROM conversations_message WHERE id = %s)"
    )
    assert check(in_subquery, [user.pk, 1]) == ["conversations_message"]
    assert check("DELETE FROM memories_memory WHERE id = %s", [1]) == ["memories_memory"]
    assert check("UPDATE memories_memory SET wrong_count = 0 WHERE user_id = %s", [user.pk]) == []


def test_every_table_of_user_data_carries_user_id() -> None:
    missing = [
        model._meta.db_table
        for app in project_app_configs()
        for model in app.get_models(include_auto_created=True)
        if "user_id" not in {f.column for f in model._meta.concrete_fields}
    ]
    assert missing == []


# --- one person through the whole product -------------------------------------------------------


def _ok(response: Any) -> Any:
    assert response.status_code < 400, (response.status_code, response.content[:500])
    return response


@pytest.mark.django_db
def test_every_api_call_and_page_names_the_user_in_each_query_of_user_data(
    user: Any, api: APIClient
) -> None:
    page = Client()
    page.force_login(user)
    recorder = Recorder()

    def step(label: str) -> Recorder:
        recorder.label = label
        return recorder

    with connection.execute_wrapper(recorder):
        step("POST /api/v1/sessions/")
        session_id = _ok(api.post("/api/v1/sessions/", format="json")).json()["id"]
        turns = []
        for text in (
            "나는 부산에 살아. 바다가 가까워서 좋아.",
            "I prefer green tea in the morning.",
        ):
            step("POST /api/v1/sessions/{id}/messages/")
            turns.append(
                _ok(
                    api.post(
                        f"/api/v1/sessions/{session_id}/messages/",
                        {"content": text},
                        format="json",
                    )
                ).json()
            )
        message_id = turns[0]["user_message"]["id"]
        step("GET /api/v1/sessions/{id}/")
        _ok(api.get(f"/api/v1/sessions/{session_id}/"))

        step("POST /api/v1/memories/")
        first = _ok(
            api.post(
                "/api/v1/memories/",
                {"type": "fact", "content": "I live in Daejeon."},
                format="json",
            )
        ).json()
        second = _ok(
            api.post(
                "/api/v1/memories/",
                {"type": "fact", "content": "I live in Gwangju."},
                format="json",
            )
        ).json()
        step("GET /api/v1/memories/")
        _ok(api.get("/api/v1/memories/"))
        _ok(api.get("/api/v1/memories/?status=active&type=fact&q=Gwangju"))
        step("GET /api/v1/memories/{id}/")
        _ok(api.get(f"/api/v1/memories/{first['id']}/"))
        step("PATCH /api/v1/memories/{id}/")
        _ok(
            api.patch(
                f"/api/v1/memories/{first['id']}/",
                {"content": "I live in Daejeon, near the river."},
                format="json",
            )
        )
        step("GET /api/v1/memories/{id}/versions/")
        _ok(api.get(f"/api/v1/memories/{first['id']}/versions/"))
        step("POST /api/v1/memories/{id}/reject/")
        _ok(api.post(f"/api/v1/memories/{second['id']}/reject/", format="json"))
        step("POST /api/v1/memories/{id}/approve/")
        api.post(f"/api/v1/memories/{second['id']}/approve/", format="json")
        step("DELETE /api/v1/memories/{id}/")
        _ok(api.delete(f"/api/v1/memories/{second['id']}/"))
        step("GET /api/v1/receipts/")
        _ok(api.get("/api/v1/receipts/"))
        step("GET /api/v1/audit-events/")
        _ok(api.get("/api/v1/audit-events/"))

        step("POST /api/v1/search/")
        _ok(api.post("/api/v1/search/", {"query": "부산 바다"}, format="json"))
        _ok(api.post("/api/v1/search/", {"query": "green tea", "k": 5}, format="json"))
        step("POST /api/v1/context/")
        _ok(
            api.post(
                "/api/v1/context/",
                {"message": "what do I drink?", "session_id": session_id},
                format="json",
            )
        )
        step("GET /api/v1/tags/")
        _ok(api.get("/api/v1/tags/"))

        step("POST /api/v1/agents/")
        agent = _ok(
            api.post("/api/v1/agents/", {"name": "notes", "scopes": ["read"]}, format="json")
        ).json()
        step("GET /api/v1/agents/")
        _ok(api.get("/api/v1/agents/"))
        step("DELETE /api/v1/agents/{id}/")
        _ok(api.delete(f"/api/v1/agents/{agent['id']}/"))

        step("POST /api/v1/imports/")
        imported = _ok(
            api.post(
                "/api/v1/imports/",
                {
                    "sessions": [
                        {
                            "started_at": "2026-11-01T09:00:00+09:00",
                            "messages": [
                                {
                                    "role": "user",
                                    "content": "주말에 등산을 갔어.",
                                    "created_at": "2026-11-01T09:00:00+09:00",
                                    "external_id": "hike-1",
                                }
                            ],
                        }
                    ]
                },
                format="json",
            )
        ).json()
        step("GET /api/v1/imports/{id}/")
        _ok(api.get(f"/api/v1/imports/{imported['id']}/"))
        step("POST /api/v1/sessions/{id}/end/")
        _ok(api.post(f"/api/v1/sessions/{session_id}/end/", format="json"))
        step("GET /api/v1/export/")
        _ok(api.get("/api/v1/export/"))

        for path in (
            "/",
            f"/sessions/{session_id}/",
            f"/messages/{message_id}/",
            f"/messages/{message_id}/memories/",
            "/tags/",
            "/memories/",
            f"/memories/{first['id']}/",
            "/memories/suggestions/",
            "/memories/receipts/",
            "/memories/access/",
            "/memories/data/",
            "/memories/agents/",
        ):
            step(f"GET {path}")
            _ok(page.get(path))
        step("POST /sessions/new/")
        new_session = _ok(page.post("/sessions/new/"))
        step("POST /sessions/{id}/messages/ (page)")
        chat_path = new_session.url if new_session.status_code == 302 else "/"
        if chat_path.startswith("/sessions/"):
            _ok(page.post(f"{chat_path}messages/", {"content": "내일은 비가 온대."}))

        step("DELETE /api/v1/me/data/")
        _ok(api.delete("/api/v1/me/data/"))

    checked = [s for s in recorder.statements if _STATEMENT.match(s.sql)]
    assert len(checked) > 200, "the walk made suspiciously few queries"
    found = violations(recorder.statements)
    assert found == [], "\n".join(f"{table}: {what}" for table, what in found)


@pytest.mark.django_db
def test_every_page_that_changes_something_names_the_user_in_each_query_of_user_data(
    user: Any, api: APIClient
) -> None:
    page = Client()
    page.force_login(user)
    session_id = _ok(api.post("/api/v1/sessions/", format="json")).json()["id"]
    for text in ("나는 매일 아침 조깅을 해.", "My sister lives in Jeonju."):
        _ok(api.post(f"/api/v1/sessions/{session_id}/messages/", {"content": text}, "json"))
    other_session = _ok(api.post("/api/v1/sessions/", format="json")).json()["id"]
    _ok(api.post(f"/api/v1/sessions/{other_session}/messages/", {"content": "안녕"}, "json"))
    memory = _ok(
        api.post("/api/v1/memories/", {"type": "fact", "content": "I run at 6am."}, "json")
    ).json()["id"]
    pending = _ok(
        api.post("/api/v1/memories/", {"type": "preference", "content": "I like jazz."}, "json")
    ).json()["id"]
    agent = _ok(api.post("/api/v1/agents/", {"name": "diary", "scopes": ["read"]}, "json"))
    recorder = Recorder()

    with connection.execute_wrapper(recorder):
        posts: list[tuple[str, dict[str, str]]] = [
            (f"/memories/{memory}/wrong/", {}),
            (f"/memories/{memory}/wrong/undo/", {}),
            (
                f"/memories/{memory}/edit/",
                {"content": "I run at 7am.", "type": "fact", "sensitivity": "normal"},
            ),
            (f"/memories/{pending}/reject/", {}),
            (f"/memories/{pending}/approve/", {}),
            (f"/memories/agents/{agent.json()['id']}/change/", {"action": "pause"}),
            (f"/memories/agents/{agent.json()['id']}/change/", {"action": "trust"}),
            (f"/memories/{pending}/delete/", {}),
            (f"/sessions/{session_id}/end/", {}),
            (f"/sessions/{other_session}/delete/", {}),
        ]
        for path, data in posts:
            recorder.label = f"POST {path}"
            response = page.post(path, data)
            assert response.status_code < 500, (path, response.status_code)
        recorder.label = "GET /memories/data/export/"
        _ok(page.get("/memories/data/export/"))
        recorder.label = "POST /memories/data/erase/"
        page.post("/memories/data/erase/", {"confirm": "yes"})

    found = violations(recorder.statements)
    assert found == [], "\n".join(f"{table}: {what}" for table, what in found)


@pytest.mark.django_db
def test_every_task_a_persons_chat_and_import_queue_names_the_user_in_each_query_of_user_data(
    user: Any,
    api: APIClient,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The tasks run with the arguments the product queued them with (a queue of our own),
    as a worker would run them, until none is left."""
    sent: list[tuple[str, dict[str, Any]]] = []

    def apply_async(self: Task, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        sent.append((self.name, dict(kwargs or {})))

    monkeypatch.setattr(Task, "apply_async", apply_async)
    with django_capture_on_commit_callbacks(execute=True):
        session_id = _ok(api.post("/api/v1/sessions/", format="json")).json()["id"]
    for text in (
        "나는 대전에 살고 고양이를 키워.",
        "I usually cycle to work.",
        "점심은 보통 김밥이야.",
    ):
        with django_capture_on_commit_callbacks(execute=True):
            _ok(api.post(f"/api/v1/sessions/{session_id}/messages/", {"content": text}, "json"))
    payload = {
        "sessions": [
            {
                "started_at": "2026-10-03T10:00:00+09:00",
                "messages": [
                    {
                        "role": role,
                        "content": content,
                        "created_at": "2026-10-03T10:00:00+09:00",
                        "external_id": external_id,
                    }
                    for role, content, external_id in (
                        ("user", "My brother moved to Ulsan.", "u1"),
                        ("assistant", "That is a big move.", "a1"),
                    )
                ],
            }
        ]
    }
    with django_capture_on_commit_callbacks(execute=True):
        _ok(api.post("/api/v1/imports/", payload, format="json"))
        _ok(api.post(f"/api/v1/sessions/{session_id}/end/", format="json"))
    recorder = Recorder()
    ran: set[str] = set()

    with connection.execute_wrapper(recorder):
        while sent:
            assert len(recorder.statements) < 20_000, "the tasks never stop queueing"
            name, kwargs = sent.pop(0)
            recorder.label = f"task {name}"
            ran.add(name.rsplit(".", 1)[-1])
            with django_capture_on_commit_callbacks(execute=True):
                current_app.tasks[name](**kwargs)

    assert {"exchange_extract", "history_import_run", "session_finalize"} <= ran, ran
    found = violations(recorder.statements)
    assert found == [], "\n".join(f"{table}: {what}" for table, what in found)
