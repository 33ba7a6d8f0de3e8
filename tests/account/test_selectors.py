"""The export of everything (`account.selectors.user_data_export`): its conversations part as
the output serializers write it, and the queries it takes."""

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from account.selectors import user_data_export
from conversations.models import ChatSession, HistoryImport, Message, TagWeight, Topic
from memoryhub.models import LLMCall

pytestmark = pytest.mark.django_db

MORNING = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
NOON = datetime(2026, 3, 1, 12, 0, 5, 250000, tzinfo=UTC)


def _session_with_a_topic(user: Any, *, title: str = "") -> ChatSession:
    session = ChatSession.objects.create(user=user, title=title, started_at=MORNING)
    topic = Topic.objects.create(user=user, session=session, keywords=["산책"], started_at=MORNING)
    Message.objects.create(
        user=user, session=session, role="user", content="저녁마다 공원을 걸어", topic=topic
    )
    Message.objects.create(user=user, session=session, role="assistant", content="좋은 습관이네요")
    return session


def _queries_of_the_export(user: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        user_data_export(user=user)
    return len(captured.captured_queries)


def test_the_export_takes_as_many_queries_for_five_sessions_as_for_one(user):
    _session_with_a_topic(user)
    with_one = _queries_of_the_export(user)
    for n in range(4):
        _session_with_a_topic(user, title=f"walk {n}")

    assert _queries_of_the_export(user) == with_one


def test_the_export_writes_sessions_topics_and_messages_in_utc_whatever_the_zone(
    user, other_user, settings
):
    settings.TIME_ZONE = "Asia/Seoul"
    ChatSession.objects.create(user=other_user, title="not mine")
    session = ChatSession.objects.create(
        user=user,
        title="Evening walks",
        status="ended",
        started_at=MORNING,
        ended_at=NOON,
        summary="Talked about walking.",
        tags=["산책", "walking"],
        state={"goal": "walk daily"},
    )
    topic = Topic.objects.create(
        user=user,
        session=session,
        keywords=["산책", "walk"],
        started_at=MORNING,
        ended_at=NOON,
        message_count=1,
    )
    said = Message.objects.create(
        user=user,
        session=session,
        role="user",
        content="I walk in the park every evening",
        speaker="Mina",
        created_at=MORNING,
        external_id="chat-7",
        topic=topic,
    )
    reply = Message.objects.create(
        user=user,
        session=session,
        role="assistant",
        content="A good habit.",
        created_at=NOON,
        context={"memories": []},
    )

    [exported] = user_data_export(user=user)["sessions"]

    assert exported == {
        "id": str(session.pk),
        "title": "Evening walks",
        "status": "ended",
        "source": "live",
        "started_at": "2026-03-01T09:30:00+00:00",
        "ended_at": "2026-03-01T12:00:05.250000+00:00",
        "summary": "Talked about walking.",
        "tags": ["산책", "walking"],
        "state": {"goal": "walk daily"},
        "topics": [
            {
                "id": str(topic.pk),
                "keywords": ["산책", "walk"],
                "started_at": "2026-03-01T09:30:00+00:00",
                "ended_at": "2026-03-01T12:00:05.250000+00:00",
                "message_count": 1,
            }
        ],
        "messages": [
            {
                "id": str(said.pk),
                "role": "user",
                "content": "I walk in the park every evening",
                "speaker": "Mina",
                "created_at": "2026-03-01T09:30:00+00:00",
                "external_id": "chat-7",
                "topic_id": str(topic.pk),
                "context": {},
            },
            {
                "id": str(reply.pk),
                "role": "assistant",
                "content": "A good habit.",
                "speaker": "",
                "created_at": "2026-03-01T12:00:05.250000+00:00",
                "external_id": None,
                "topic_id": None,
                "context": {"memories": []},
            },
        ],
    }
    assert list(exported) == [
        *("id", "title", "status", "source", "started_at", "ended_at", "summary", "tags"),
        *("state", "topics", "messages"),
    ]
    assert list(exported["messages"][0]) == [
        *("id", "role", "content", "speaker", "created_at", "external_id", "topic_id"),
        "context",
    ]


def test_a_session_without_topics_or_messages_exports_empty_lists_and_nulls(user):
    ChatSession.objects.create(user=user, started_at=MORNING)

    [exported] = user_data_export(user=user)["sessions"]

    assert (exported["title"], exported["summary"], exported["tags"]) == ("", "", [])
    assert (exported["ended_at"], exported["topics"], exported["messages"]) == (None, [], [])
    assert exported["state"] == {}


def test_the_export_writes_tag_weights_imports_and_llm_calls_as_text_and_numbers(user, other_user):
    TagWeight.objects.create(user=user, tag="산책", weight=1.234567)
    TagWeight.objects.create(user=other_user, tag="chess", weight=3.0)
    record = HistoryImport.objects.create(user=user, status="done", total=3, created_at=MORNING)
    LLMCall.objects.create(
        user=user,
        task="summary",
        provider="anthropic",
        model="claude",
        input_tokens=120,
        output_tokens=40,
        cost_usd=Decimal("0.00125"),
    )
    LLMCall.objects.create(user=other_user, task="reply", provider="offline", model="offline")
    LLMCall.objects.filter(user_id=user.pk).update(created_at=NOON)

    data = user_data_export(user=user)

    [tag] = data["tags"]
    assert (tag["tag"], tag["weight"]) == ("산책", 1.2346)
    assert isinstance(tag["updated_at"], str) and tag["updated_at"].endswith("+00:00")
    assert data["imports"] == [
        {
            "id": str(record.pk),
            "status": "done",
            "total": 3,
            "created_at": "2026-03-01T09:30:00+00:00",
        }
    ]
    assert data["llm_usage"] == [
        {
            "task": "summary",
            "model": "claude",
            "input_tokens": 120,
            "output_tokens": 40,
            "cost_usd": "0.001250",
            "created_at": "2026-03-01T12:00:05.250000+00:00",
        }
    ]
