"""Isolation between users (issue 7, line 1).

The matrix walks the real URL resolver, so a new endpoint cannot escape it: every pattern's
ids are filled with another user's ids (and mixes of both users' ids), every method is tried,
and the answer must be a 404 (or 405 for a method the endpoint lacks) holding none of the
other user's data. The property test fills two users with random Korean and English data and
checks that lists, search, context and export never show one user the other's rows.
"""

from __future__ import annotations

import itertools
import random
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.views import APIView

from conversations.models import ChatSession, HistoryImport, Message, Topic
from conversations.services import chat, imports, indexing, sessions
from conversations.services.forgetting import memory_forget
from memories.logic.write_policy import Origin
from memories.models import Agent, DeletionReceipt, Memory, MemoryVersion
from memories.reasons import ChangeReason
from memories.services import revision
from memories.services.agents import agent_create
from memories.services.revision import MemoryRefused

METHODS = ("get", "post", "put", "patch", "delete")
ADMIN_PREFIX = "admin/"


def _bump_sequences() -> None:
    """Move every id sequence to a distinct, random nine-digit value.

    Rows created afterwards have ids no other number in a response could be mistaken for,
    so "B's id is not in A's response" is a meaningful check.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.oid::regclass::text FROM pg_class c WHERE c.relkind = 'S'")
        names = sorted(row[0] for row in cursor.fetchall())
        bases = random.sample(range(300, 1500), len(names))
        for name, base in zip(names, bases, strict=True):
            cursor.execute(
                "SELECT setval(%s::regclass, GREATEST(%s, (SELECT last_value FROM "
                f"{connection.ops.quote_name(name)}) + 1))",
                [name, base * 1_000_000 + random.randrange(100_000)],
            )


def _text_of(response: Any) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode(errors="replace")
    return response.content.decode(errors="replace")


@dataclass
class Owned:
    """One user's rows, by the URL parameter that names them."""

    user: Any
    marker: str
    ids: dict[str, str] = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)


def _converse(user: Any, texts: list[str]) -> ChatSession:
    session = chat.chat_session_create(user=user)
    for text in texts:
        message, _topic = chat.message_add_user(session=session, content=text)
        "".join(chat.reply_stream(message=message))
    indexing.messages_embed_pending(user_id=user.pk)
    sessions.session_end(session=session)
    sessions.session_finalize(session_id=session.pk)
    return session


def _fill_user(username: str, marker: str) -> Owned:
    user = get_user_model().objects.create_user(username=username, password="a-long-password-9")
    texts = [
        f"My project codename is {marker} and I prefer violin lessons on Tuesday.",
        f"{marker} 프로젝트 회의는 금요일 오후 세 시에 해요.",
    ]
    session = _converse(user, texts)
    kept = revision.memory_create(
        user=user, type="preference", content=f"Prefers the {marker} violin teacher."
    )
    revision.memory_revise(
        memory=kept,
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
        changes=revision.MemoryChanges(content=f"Prefers the {marker} violin teacher on Tuesdays."),
    )
    dropped = revision.memory_create(user=user, type="fact", content=f"{marker} lives in Busan.")
    receipt = memory_forget(user=user, memory=dropped)
    now = "2025-01-02T10:00:00+09:00"
    record = imports.history_import_create(
        user=user,
        payload={
            "sessions": [
                {
                    "started_at": now,
                    "messages": [
                        {"role": "user", "content": f"{marker} imported line", "created_at": now}
                    ],
                }
            ]
        },
    )
    message = Message.objects.filter(session=session, role=Message.Role.USER).first()
    assert message is not None
    agent, _token = agent_create(user=user, name=f"{marker} agent", scopes=["read", "write"])
    owned = Owned(user=user, marker=marker)
    owned.ids = {
        "session_id": str(session.pk),
        "message_id": str(message.pk),
        "memory_id": str(kept.pk),
        "receipt_id": str(receipt.pk),
        "import_id": str(record.pk),
        "agent_id": str(agent.pk),
    }
    row_ids = [
        *owned.ids.values(),
        *(str(pk) for pk in Message.objects.filter(user=user).values_list("pk", flat=True)),
        *(str(pk) for pk in Topic.objects.filter(user=user).values_list("pk", flat=True)),
        *(
            str(pk)
            for pk in MemoryVersion.objects.filter(memory__user=user).values_list("pk", flat=True)
        ),
    ]
    owned.secrets = [marker, username, *row_ids]
    return owned


@dataclass(frozen=True)
class Route:
    route: str
    pattern: URLPattern
    params: tuple[str, ...]

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")

    def url(self, values: dict[str, str]) -> str:
        url = self.route
        for name in self.params:
            url = re.sub(rf"<(?:\w+:)?{name}>", values[name], url)
        return "/" + url


_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[Route]:
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route == ADMIN_PREFIX:
                continue  # admin: see test_admin_is_staff_only
            yield from _routes(entry.url_patterns, route)
        else:
            assert not route.startswith("^"), f"regex route {route!r}: teach the matrix to fill it"
            yield Route(route, entry, tuple(_PARAM.findall(route)))


def all_routes() -> list[Route]:
    return list(_routes(get_resolver().url_patterns))


def _client_for(user: Any, *, api: bool) -> Client:
    if api:
        token, _ = Token.objects.get_or_create(user=user)
        api_client = APIClient()
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return api_client
    client = Client()
    client.force_login(user)
    return client


def _request(client: Client, method: str, url: str, body: dict[str, Any], *, api: bool) -> Any:
    call = getattr(client, method)
    if api:
        return call(url, body, format="json") if method != "get" else call(url, body)
    if method in ("get", "post"):
        return call(url, body)
    return call(url)


def _probe_body(other: Owned) -> dict[str, Any]:
    """Input naming the other user's rows, for views that take ids from the request."""
    return {
        "session_id": other.ids["session_id"],
        "message_id": other.ids["message_id"],
        "message": other.ids["message_id"],
        "memory_id": other.ids["memory_id"],
        "content": "hello",
        "query": "hello",
    }


@pytest.fixture
def two_users(db: None) -> tuple[Owned, Owned]:
    _bump_sequences()
    bob = _fill_user("bob-target", f"bob{secrets.token_hex(3)}7q")
    alice = _fill_user("alice-prober", f"alice{secrets.token_hex(3)}3k")
    return alice, bob


def _snapshot(owned: Owned) -> dict[str, Any]:
    user = owned.user
    return {
        "sessions": sorted(ChatSession.objects.filter(user=user).values_list("pk", "status")),
        "messages": sorted(Message.objects.filter(user=user).values_list("pk", "content")),
        "memories": sorted(
            Memory.objects.filter(user=user).values_list("pk", "status", "current_version_id")
        ),
        "versions": MemoryVersion.objects.filter(memory__user=user).count(),
        "receipts": DeletionReceipt.objects.filter(user=user).count(),
        "imports": sorted(HistoryImport.objects.filter(user=user).values_list("pk", "status")),
        "agents": sorted(
            Agent.objects.filter(user=user).values_list(
                "pk", "paused_at", "revoked_at", "trusted", "may_read_sensitive"
            )
        ),
    }


def test_every_route_with_ids_answers_another_users_ids_with_404_and_no_data(two_users):
    alice, bob = two_users
    before = _snapshot(bob)
    failures: list[str] = []
    routes = [r for r in all_routes() if r.params]
    assert routes, "the resolver walk found no routes with ids"
    for route in routes:
        unknown = [p for p in route.params if p not in bob.ids]
        assert not unknown, f"{route.route}: the matrix does not know how to fill {unknown}"
        # Every mix of the two users' ids in which at least one id is Bob's.
        for owners in itertools.product((alice, bob), repeat=len(route.params)):
            if bob not in owners:
                continue
            url = route.url({p: o.ids[p] for p, o in zip(route.params, owners, strict=True)})
            for method in METHODS:
                client = _client_for(alice.user, api=route.is_api)
                response = _request(client, method, url, _probe_body(bob), api=route.is_api)
                text = _text_of(response)
                if response.status_code not in (404, 405):
                    failures.append(f"{method.upper()} {url}: {response.status_code}")
                if response.status_code == 405 and _supports(route, method):
                    failures.append(f"{method.upper()} {url}: 405 for a supported method")
                leaked = [s for s in bob.secrets if s in text]
                if leaked:
                    failures.append(f"{method.upper()} {url}: shows {leaked}")
    assert failures == []
    assert _snapshot(bob) == before


def _supports(route: Route, method: str) -> bool:
    """Whether a DRF view implements `method` (function views answer 405 themselves)."""
    view_class = getattr(route.pattern.callback, "view_class", None) or getattr(
        route.pattern.callback, "cls", None
    )
    if view_class is None or not issubclass(view_class, APIView):
        return False
    return hasattr(view_class, method)


def test_the_owner_reaches_every_route_the_matrix_fills(two_users):
    """The ids the matrix uses are real: for their owner, no route answers 404."""
    _alice, bob = two_users
    failures = []
    for route in (r for r in all_routes() if r.params):
        url = route.url({p: bob.ids[p] for p in route.params})
        client = _client_for(bob.user, api=route.is_api)
        methods = [m for m in METHODS if _supports(route, m)] if route.is_api else ["get"]
        if route.is_api and "get" not in methods:
            continue  # POST-only actions change state; the 404 side is what matters
        response = _request(client, "get", url, {}, api=route.is_api)
        if response.status_code == 404:
            failures.append(url)
    assert failures == []


def test_routes_without_ids_never_show_another_users_data(two_users):
    alice, bob = two_users
    before = _snapshot(bob)
    failures: list[str] = []
    routes = [r for r in all_routes() if not r.params]
    # Erasing and logging out change Alice's own state: run them last.
    routes.sort(key=lambda r: any(w in r.route for w in ("erase", "me/data", "logout")))
    for route in routes:
        for method in METHODS:
            client = _client_for(alice.user, api=route.is_api)
            url = route.url({})
            response = _request(client, method, url, _probe_body(bob), api=route.is_api)
            leaked = [s for s in bob.secrets if s in _text_of(response)]
            if leaked:
                failures.append(f"{method.upper()} {url}: shows {leaked}")
            if response.status_code == 500:
                failures.append(f"{method.upper()} {url}: {response.status_code}")
    assert failures == []
    assert _snapshot(bob) == before


def test_the_data_check_sees_data_when_it_is_there(two_users):
    """Bob's own export holds his marker and ids: the absence checks above can fail."""
    _alice, bob = two_users
    text = _text_of(_client_for(bob.user, api=True).get("/api/v1/export/"))

    assert bob.marker in text
    assert bob.ids["memory_id"] in text


# --- admin ------------------------------------------------------------------------------------


def _admin_leaves(patterns: list[Any]) -> Iterator[URLPattern]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _admin_leaves(entry.url_patterns)
        else:
            yield entry


def _admin_kwargs(pattern: URLPattern, bob: Owned) -> dict[str, str] | None:
    from django.contrib.contenttypes.models import ContentType

    names = set(pattern.pattern.regex.groupindex)
    values: dict[str, str] = {}
    model = None
    for registered in admin.site._registry:
        meta = registered._meta
        if (pattern.name or "").startswith(f"{meta.app_label}_{meta.model_name}_"):
            model = registered
    for name in names:
        if name == "app_label":
            values[name] = "memories"
        elif name == "object_id":
            row = None
            if model is not None and any(f.name == "user" for f in model._meta.fields):
                row = model._default_manager.filter(user=bob.user).first()
            values[name] = str(row.pk if row is not None else bob.ids["memory_id"])
        elif name == "id":  # a user's password form
            values[name] = str(bob.user.pk)
        elif name == "content_type_id":
            values[name] = str(ContentType.objects.get_for_model(Memory).pk)
        elif name == "url":
            values[name] = f"memories/memory/{bob.ids['memory_id']}/change/"
        else:
            return None
    return values


def test_admin_is_staff_only(two_users):
    alice, bob = two_users
    admin_resolver = next(
        e for e in get_resolver().url_patterns if str(getattr(e, "pattern", "")) == ADMIN_PREFIX
    )
    login_url = reverse("admin:login")
    failures: list[str] = []
    checked = 0
    for pattern in _admin_leaves(admin_resolver.url_patterns):
        kwargs = _admin_kwargs(pattern, bob)
        assert kwargs is not None, f"admin pattern {pattern.pattern}: unknown parameters"
        if pattern.name:
            url = reverse(f"admin:{pattern.name}", kwargs=kwargs)
        else:
            url = f"/{ADMIN_PREFIX}{kwargs.get('url', '')}"
        for method in ("get", "post"):
            client = _client_for(alice.user, api=False)
            response = getattr(client, method)(url)
            checked += 1
            leaked = [s for s in bob.secrets if s in _text_of(response)]
            if leaked:
                failures.append(f"{method.upper()} {url}: shows {leaked}")
            if url == login_url:
                continue
            # To the admin login; admin's logout sends a non-staff user to the index first.
            redirected = response.status_code == 302 and (
                response["Location"].startswith(login_url)
                or response["Location"] == reverse("admin:index")
            )
            if not (redirected or response.status_code in (403, 404, 405)):
                failures.append(f"{method.upper()} {url}: {response.status_code}")
    assert checked > 20
    assert failures == []


def test_staff_do_see_the_data_in_admin(two_users):
    _alice, bob = two_users
    staff = get_user_model().objects.create_superuser(username="root", password="a-long-pw-77")
    client = Client()
    client.force_login(staff)

    response = client.get(
        reverse("admin:memories_memory_change", kwargs={"object_id": bob.ids["memory_id"]})
    )

    assert response.status_code == 200
    assert bob.marker in _text_of(response)


# --- property: lists, search, context and export ----------------------------------------------

_HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
_KOREAN_WORD = st.text(alphabet=_HANGUL, min_size=1, max_size=6)
_ENGLISH_WORD = st.from_regex(r"[a-z]{3,10}", fullmatch=True)
_SENTENCE = st.lists(st.one_of(_KOREAN_WORD, _ENGLISH_WORD), min_size=2, max_size=7).map(" ".join)


def _user_data() -> st.SearchStrategy[dict[str, list[str]]]:
    return st.fixed_dictionaries(
        {
            "messages": st.lists(_SENTENCE, min_size=1, max_size=2),
            "memories": st.lists(_SENTENCE, min_size=0, max_size=2),
        }
    )


class TestNoUserSeesAnothersRows(HypothesisTestCase):
    def _fill(self, username: str, marker: str, data: dict[str, list[str]]) -> Owned:
        user = get_user_model().objects.create_user(username=username, password="a-long-pw-5")
        owned = Owned(user=user, marker=marker)
        session = _converse(user, [f"{marker} {text}" for text in data["messages"]])
        memory_ids = []
        for text in data["memories"]:
            try:
                memory = revision.memory_create(user=user, type="fact", content=f"{marker} {text}")
            except MemoryRefused:
                continue
            memory_ids.append(str(memory.pk))
        rows = [
            str(session.pk),
            *memory_ids,
            *(str(pk) for pk in Message.objects.filter(user=user).values_list("pk", flat=True)),
            *(str(pk) for pk in Topic.objects.filter(user=user).values_list("pk", flat=True)),
        ]
        owned.secrets = [marker, username, *rows]
        return owned

    @settings(
        max_examples=15,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(a_data=_user_data(), b_data=_user_data())
    def test_lists_search_context_and_export_show_only_ones_own_rows(
        self, a_data: dict[str, list[str]], b_data: dict[str, list[str]]
    ) -> None:
        _bump_sequences()
        bob = self._fill("bob-random", "bob4z9", b_data)
        alice = self._fill("alice-random", "alice8x2", a_data)
        api = _client_for(alice.user, api=True)
        page = _client_for(alice.user, api=False)
        queries = [*b_data["messages"][:1], *b_data["memories"][:1], bob.marker]
        responses = [
            api.get("/api/v1/memories/?page_size=200"),
            api.get("/api/v1/receipts/"),
            api.get("/api/v1/audit-events/"),
            api.get("/api/v1/tags/"),
            api.get("/api/v1/export/"),
            page.get("/"),
            page.get("/tags/"),
            page.get("/memories/data/export/"),
        ]
        responses.append(api.get("/api/v1/memories/?status=pending"))
        for query in queries:
            responses += [
                api.post("/api/v1/search/", {"query": query, "k": 100}, format="json"),
                api.post("/api/v1/context/", {"message": query}, format="json"),
                api.get("/api/v1/memories/", {"q": query}),
            ]
            if query != bob.marker:  # the page shows the query back in its search box
                responses.append(page.get("/memories/", {"q": query}))
        for response in responses:
            assert response.status_code == 200, response
            text = _text_of(response)
            leaked = [s for s in bob.secrets if s in text]
            assert leaked == [], (response.request, leaked)
        # The check is live: Alice's own export does hold her rows.
        assert alice.marker in _text_of(api.get("/api/v1/export/"))
