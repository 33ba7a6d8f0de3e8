from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from conversations import tasks
from conversations.models import ChatSession, Message
from conversations.services import chat, compaction, sessions, shortterm

pytestmark = pytest.mark.django_db


def _chat(user, texts):
    session = chat.chat_session_create(user=user)
    for text in texts:
        message, _ = chat.message_add_user(session=session, content=text)
        "".join(chat.reply_stream(message=message))
    return session


def test_recent_summaries_are_served_from_the_cache_and_refreshed_when_a_session_ends(
    user, django_capture_on_commit_callbacks
):
    first = _chat(user, ["바이올린 레슨 다시 시작했어."])
    sessions.session_end(session=first)
    sessions.session_finalize(session_id=first.pk)
    cached = shortterm.recent_summaries(user_id=user.pk)
    ChatSession.objects.filter(pk=first.pk).update(summary="changed behind the cache's back")

    assert shortterm.recent_summaries(user_id=user.pk) == cached  # read from the cache

    second = _chat(user, ["다음 주 제주도 여행 계획 세우자."])
    sessions.session_end(session=second)
    with django_capture_on_commit_callbacks(execute=True):
        sessions.session_finalize(session_id=second.pk)  # a new summary drops the key

    fresh = shortterm.recent_summaries(user_id=user.pk)
    assert [row["session_id"] for row in fresh] == [second.pk, first.pk]
    assert fresh[1]["summary"] == "changed behind the cache's back"


def test_session_state_cache_is_dropped_when_compaction_writes(
    user, settings, django_capture_on_commit_callbacks
):
    settings.MEMORYHUB_HISTORY_TOKEN_BUDGET = 60
    session = _chat(user, [
        "React 프로젝트를 Next.js로 마이그레이션하려고 해. " * 2,
        "App Router를 쓰기로 했어. app/page.tsx 만들었어. " * 2,
        "빌드 에러가 나. 내일 다시 볼게. " * 2,
        "지금 상황 정리해줘",
    ])  # fmt: skip
    assert shortterm.session_state(session=session) == {}

    with django_capture_on_commit_callbacks(execute=True):
        compaction.session_compact(session_id=session.pk)  # the task body

    state = shortterm.session_state(session=session)
    assert "마이그레이션" in state["goal"]
    assert "app/page.tsx" in state["identifiers"]
    assert state["covers_until"] > 0
    assert Message.objects.filter(session=session).count() == 8  # turns are never dropped


def test_prompt_uses_the_session_state_instead_of_the_folded_turns(
    user, settings, django_capture_on_commit_callbacks
):
    settings.MEMORYHUB_HISTORY_TOKEN_BUDGET = 60
    session = _chat(user, [
        "React 프로젝트를 Next.js로 마이그레이션하려고 해. " * 2,
        "App Router를 쓰기로 했어. app/page.tsx 만들었어. " * 2,
    ])  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        compaction.session_compact(session_id=session.pk)
    message, _ = chat.message_add_user(session=session, content="다음 단계는?")

    request = chat._reply_request(message=message, assembled=chat.Assembled(chat.ChatContext()))

    assert "<session_state>" in request.system
    assert "app/page.tsx" in request.system
    assert sum(len(t.content) for t in request.turns) < 400


def test_history_over_budget_enqueues_compaction_after_commit(
    user, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.MEMORYHUB_HISTORY_TOKEN_BUDGET = 30
    session = _chat(user, ["하나 둘 셋 넷 다섯 여섯 일곱 " * 3, "여덟 아홉 열 " * 3])
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(
        tasks.session_compact,
        "delay",
        lambda session_id, user_id: queued.append((session_id, user_id)),
    )
    message, _ = chat.message_add_user(session=session, content="계속")

    with django_capture_on_commit_callbacks(execute=True):
        chat._history_turns(session=session, before=message)

    assert queued == [(session.pk, user.pk)]


def test_idle_sessions_are_ended_by_beat_and_fresh_ones_are_not(user, monkeypatch):
    idle = _chat(user, ["오래된 대화"])
    fresh = _chat(user, ["방금 대화"])
    ChatSession.objects.filter(pk=idle.pk).update(
        last_message_at=timezone.now() - timedelta(minutes=31)
    )

    ended = sessions.sessions_end_idle()

    assert ended == 1
    assert ChatSession.objects.get(pk=idle.pk).status == "ending"
    assert ChatSession.objects.get(pk=fresh.pk).status == "active"


def test_ending_a_session_enqueues_its_finalisation_after_commit(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    session = _chat(user, ["hello"])
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(
        tasks.session_finalize,
        "delay",
        lambda session_id, user_id: queued.append((session_id, user_id)),
    )

    with django_capture_on_commit_callbacks(execute=True):
        sessions.session_end(session=session)

    assert queued == [(session.pk, user.pk)]
