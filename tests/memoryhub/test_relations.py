"""Keys between two tables of one person's data name the owner in every query they make."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.db.models import Prefetch
from django.test.utils import CaptureQueriesContext

from conversations.models import ChatSession, Message, Topic
from memories.models import Memory

_OWNER_JOIN = re.compile(r'"(\w+)"\."user_id" = \("?(\w+)"?\."user_id"\)')


def _chat(user: Any) -> tuple[ChatSession, Message, Message]:
    session = ChatSession.objects.create(user=user, title="주말 계획")
    question = Message.objects.create(
        session=session, user=user, role=Message.Role.USER, content="토요일에 뭐 할까?"
    )
    reply = Message.objects.create(
        session=session,
        user=user,
        role=Message.Role.ASSISTANT,
        content="Maybe a walk by the river.",
        reply_to=question,
    )
    return session, question, reply


def _sql(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.django_db
def test_a_join_through_a_user_key_joins_on_the_owner_too(user: Any) -> None:
    session, question, _reply = _chat(user)

    found = Message.objects.filter(session__title="주말 계획", role=Message.Role.USER)
    reverse = ChatSession.objects.filter(messages__content__contains="토요일")

    assert list(found) == [question]
    assert list(reverse) == [session]
    for query in (found.query, reverse.query):
        join = _OWNER_JOIN.search(str(query))
        assert join is not None
        assert set(join.groups()) == {"conversations_message", "conversations_chatsession"}


@pytest.mark.django_db
def test_a_select_related_join_names_the_owner_and_a_missing_row_stays_none(user: Any) -> None:
    session, question, _reply = _chat(user)
    Topic.objects.create(session=session, user=user, keywords=["주말"])

    rows = list(Message.objects.filter(user_id=user.pk).select_related("topic", "session"))

    assert {m.pk: m.topic for m in rows} == {question.pk: None, _reply.pk: None}
    assert all(m.session == session for m in rows)
    assert _OWNER_JOIN.search(str(Message.objects.select_related("session").query))


@pytest.mark.django_db
def test_following_a_key_loads_the_row_by_owner_and_id(user: Any) -> None:
    session, question, reply = _chat(user)
    fresh = Message.objects.get(pk=reply.pk)

    with CaptureQueriesContext(connection) as queries:
        assert fresh.session == session
        assert fresh.reply_to == question
    assert all('"user_id" = ' in sql for sql in _sql(queries))


@pytest.mark.django_db
def test_a_reverse_manager_and_a_reverse_one_to_one_filter_by_owner(user: Any) -> None:
    session, question, reply = _chat(user)
    fresh = Message.objects.get(pk=question.pk)

    with CaptureQueriesContext(connection) as queries:
        assert list(session.messages.order_by("id")) == [question, reply]
        assert fresh.reply == reply
    assert len(queries) == 2
    assert all('"conversations_message"."user_id" = ' in sql for sql in _sql(queries))


@pytest.mark.django_db
def test_prefetches_both_ways_name_the_owners(user: Any, other_user: Any) -> None:
    mine, question, reply = _chat(user)
    theirs, *_ = _chat(other_user)

    with CaptureQueriesContext(connection) as queries:
        sessions = list(
            ChatSession.objects.filter(pk__in=[mine.pk, theirs.pk])
            .order_by("id")
            .prefetch_related(Prefetch("messages", Message.objects.order_by("id")))
        )
        messages = list(Message.objects.filter(user_id=user.pk).prefetch_related("session"))

    assert [list(s.messages.all()) for s in sessions][0] == [question, reply]
    assert len(sessions[1].messages.all()) == 2
    assert {m.session for m in messages} == {mine}
    prefetches = _sql(queries)[1::2]
    assert len(prefetches) == 2
    assert all(re.search(r'"user_id" IN \(|"user_id" = ', sql) for sql in prefetches)


@pytest.mark.django_db
def test_another_users_row_is_not_reached_through_a_key(user: Any, other_user: Any) -> None:
    session, _question, _reply = _chat(user)
    stray = Message(session_id=session.pk, user_id=other_user.pk, role="user", content="x")

    with pytest.raises(ChatSession.DoesNotExist):
        _ = stray.session


def test_the_keys_deconstruct_as_djangos_own_so_migrations_never_name_them() -> None:
    assert Message._meta.get_field("session").deconstruct()[1] == "django.db.models.ForeignKey"
    assert Message._meta.get_field("reply_to").deconstruct()[1] == "django.db.models.OneToOneField"
    assert Memory._meta.get_field("current_version").deconstruct()[1] == (
        "django.db.models.ForeignKey"
    )


@pytest.mark.django_db
def test_reloading_a_row_reads_it_by_owner_and_id(user: Any) -> None:
    session, *_ = _chat(user)

    with CaptureQueriesContext(connection) as queries:
        session.refresh_from_db(fields=["title"])
        deferred = ChatSession.objects.defer("summary").get(pk=session.pk, user_id=user.pk)
        _ = deferred.summary

    reload, _get, deferred_load = _sql(queries)
    assert '"user_id" = ' in reload and '"user_id" = ' in deferred_load
