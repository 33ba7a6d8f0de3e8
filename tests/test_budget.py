"""The per-user daily LLM token budget (issue 7, line 2)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from conversations.models import Message
from conversations.services import chat
from memories.models import ExtractionRun, Memory
from memories.services import extraction
from memoryhub import budget, llm
from memoryhub.models import LLMCall
from tests.anthropic_fake import FakeAnthropic, completed, streamed

pytestmark = pytest.mark.django_db


def _spend(user: Any, tokens: int, *, provider: str = "anthropic", at: datetime | None = None):
    call = LLMCall.objects.create(
        user=user,
        task="chat_reply",
        provider=provider,
        model="claude-sonnet-4-6" if provider == "anthropic" else llm.OFFLINE_MODEL,
        input_tokens=tokens - tokens // 4,
        output_tokens=tokens // 4,
    )
    if at is not None:
        LLMCall.objects.filter(pk=call.pk).update(created_at=at)
    return call


def _claude(responses: list[Any]) -> FakeAnthropic:
    fake = FakeAnthropic(responses)
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    return fake


def _session(api: Any) -> str:
    return str(api.post("/api/v1/sessions/").json()["id"])


def test_only_todays_paid_calls_of_the_user_count(user, other_user):
    _spend(user, 1000)
    _spend(user, 400)
    _spend(user, 5000, provider="offline")
    _spend(other_user, 9000)
    _spend(user, 7000, at=budget.budget_day().start - timedelta(seconds=1))

    assert budget.tokens_used_today(user_id=user.pk) == 1400


def test_the_budget_day_is_the_calendar_day_of_the_time_zone(settings):
    settings.TIME_ZONE = "Asia/Seoul"
    # 23:30 UTC on 1 March is 08:30 on 2 March in Seoul.
    day = budget.budget_day(datetime(2026, 3, 1, 23, 30, tzinfo=UTC))

    assert day.start == datetime(2026, 3, 1, 15, 0, tzinfo=UTC)
    assert day.end == datetime(2026, 3, 2, 15, 0, tzinfo=UTC)


def test_a_call_before_local_midnight_does_not_count_today(user, settings):
    settings.TIME_ZONE = "Asia/Seoul"
    _spend(user, 500, at=budget.budget_day().start - timedelta(minutes=1))
    _spend(user, 300, at=budget.budget_day().start + timedelta(minutes=1))

    assert budget.tokens_used_today(user_id=user.pk) == 300


def test_a_spent_budget_makes_a_chat_message_429_and_writes_nothing(api, user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1000
    fake = _claude([streamed(text="never sent")])
    session_id = _session(api)
    _spend(user, 1000)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "오늘 저녁 메뉴 뭐 먹기로 했지?"},
        format="json",
    )

    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "token_budget_exhausted"
    assert "1,000 tokens" in error["message"]
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 24 * 60 * 60 + 1
    assert Message.objects.count() == 0
    assert fake.requests == []


def test_under_budget_the_reply_is_sent_and_the_next_one_refused(api, user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 100
    _claude([streamed(text="네, 알겠어요.", input_tokens=90, output_tokens=20)])
    session_id = _session(api)
    url = f"/api/v1/sessions/{session_id}/messages/"

    first = api.post(url, {"content": "I prefer green tea."}, format="json")
    second = api.post(url, {"content": "And coffee?"}, format="json")

    assert first.status_code == 201
    assert first.json()["assistant_message"]["content"] == "네, 알겠어요."
    assert second.status_code == 429
    assert second.json()["error"]["code"] == "token_budget_exhausted"


def test_the_offline_provider_is_never_blocked(api, user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 10
    _spend(user, 50_000)
    session_id = _session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "오늘 저녁 메뉴 뭐 먹기로 했지?"},
        format="json",
    )

    assert response.status_code == 201
    assert "언어 모델 없이" in response.json()["assistant_message"]["content"]


def test_a_budget_of_zero_is_no_limit(api, user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 0
    _claude([streamed(text="ok")])
    _spend(user, 10_000_000)
    session_id = _session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "hello"}, format="json"
    )

    assert response.status_code == 201


def test_the_budget_is_per_user(api, other_user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1000
    _claude([streamed(text="ok")])
    _spend(other_user, 5000)
    session_id = _session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "hello"}, format="json"
    )

    assert response.status_code == 201


def test_the_chat_page_shows_the_spent_budget_as_the_reply(client, user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1000
    fake = _claude([])
    session = chat.chat_session_create(user=user)
    _spend(user, 2000)
    client.force_login(user)

    response = client.post(
        reverse("chat:message-create", kwargs={"session_id": session.pk}),
        {"content": "오늘 일정 알려줘"},
        follow=True,
    )

    assert response.status_code == 200
    assert "budget of 1,000 tokens is spent" in response.content.decode()
    reply = Message.objects.get(role=Message.Role.ASSISTANT)
    assert reply.searchable is False
    assert fake.requests == []


def test_light_model_calls_are_refused_without_a_request_once_spent(user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1000
    fake = FakeAnthropic([completed("N")])
    _spend(user, 1000)

    with pytest.raises(budget.TokenBudgetExhausted) as refused:
        llm.AnthropicProvider(client=fake.client()).complete(
            task="topic_shift", prompt="same topic?", user_id=user.pk
        )

    assert isinstance(refused.value, llm.LLMError)  # callers fall back to their offline path
    assert fake.requests == []


def test_calls_for_no_user_are_not_budgeted(settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1
    fake = FakeAnthropic([completed("Y")])

    answer = llm.AnthropicProvider(client=fake.client()).complete(task="t", prompt="p")

    assert answer == "Y"


def test_extraction_falls_back_to_the_offline_rules_when_the_budget_is_spent(user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1000
    fake = _claude([])
    _spend(user, 1000)

    result = extraction.memory_extract_from_exchange(
        user_id=user.pk,
        user_text="I prefer dark mode.",
        assistant_text="",
        source_message_id=None,
        source_session_id=None,
        observed_at=timezone.now(),
    )

    assert fake.requests == []
    assert result.memory_ids
    assert Memory.objects.filter(user=user).exists()
    assert ExtractionRun.objects.get(user=user).provider == "offline"


def test_extraction_uses_claude_while_budget_remains(user, settings):
    settings.MEMORYHUB_DAILY_TOKEN_BUDGET = 1000
    fake = _claude([completed('{"memories": []}')])

    extraction.memory_extract_from_exchange(
        user_id=user.pk,
        user_text="I prefer dark mode.",
        assistant_text="",
        source_message_id=None,
        source_session_id=None,
    )

    assert len(fake.requests) == 1
    assert ExtractionRun.objects.get(user=user).provider == "anthropic"
