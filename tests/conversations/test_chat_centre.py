"""The chat centre per language: the mean of the deployment's recent messages of all users,
averaged by a beat job into the cache and used once there are enough messages and a threshold
was measured for it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from django.conf import settings as django_settings
from django.core.cache import cache

from conversations import tasks
from conversations.logic import segmentation
from conversations.models import Message
from conversations.services import centre, chat

pytestmark = pytest.mark.django_db

DIM = 384


def _axis(index: int) -> list[float]:
    vector = [0.0] * DIM
    vector[index] = 1.0
    return vector


def _message(user: Any, content: str, vector: list[float] | None, searchable: bool = True) -> None:
    session = chat.chat_session_create(user=user)
    Message.objects.create(session=session, user=user, role="user", content=content,
                           embedding=vector, searchable=searchable)  # fmt: skip


def _vector(found: segmentation.Centre) -> np.ndarray:
    assert found.vector is not None
    return found.vector


@pytest.fixture(autouse=True)
def two_are_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segmentation, "MIN_DEPLOYMENT_MESSAGES", 2)


def test_a_languages_centre_is_the_mean_of_its_recent_searchable_messages_of_all_users(
    user: Any, other_user: Any
) -> None:
    _message(user, "the stock went up", _axis(1))
    _message(other_user, "the migration is done", _axis(2))
    _message(user, "빌드 에러는 해결했어", _axis(3))
    _message(user, "not embedded yet", None)
    _message(user, "a redacted turn", _axis(4), searchable=False)

    counts = tasks.chat_centre_refresh()
    english = centre.chat_centre("en")

    assert counts == {"en": 2, "ko": 1}
    assert english.source == "deployment"
    assert _vector(english)[:5] == pytest.approx([0.0, 0.5, 0.5, 0.0, 0.0])


def test_too_few_messages_in_a_language_leave_its_embeddings_raw(user: Any) -> None:
    _message(user, "the stock went up", _axis(1))
    _message(user, "빌드 에러는 해결했어", _axis(2))

    centre.chat_centre_refresh()

    assert centre.chat_centre("en") is segmentation.RAW


def test_a_language_without_a_measured_threshold_stays_raw_however_many_messages(
    user: Any,
) -> None:
    _message(user, "주가가 올랐어", _axis(1))
    _message(user, "마이그레이션 끝", _axis(2))

    centre.chat_centre_refresh()

    assert ("e5", "ko", "deployment") not in segmentation.THRESHOLDS
    assert centre.chat_centre("ko") is segmentation.RAW


def test_the_centre_averages_only_the_most_recent_messages(user: Any, settings: Any) -> None:
    settings.MEMORYHUB_CHAT_CENTRE_MESSAGES = 2
    for index, text in enumerate(["first", "second", "third"], start=1):
        _message(user, text, _axis(index))

    centre.chat_centre_refresh()

    assert _vector(centre.chat_centre("en"))[:4] == pytest.approx([0.0, 0.0, 0.5, 0.5])


def test_until_the_job_has_run_or_with_the_sample_off_embeddings_stay_raw(
    user: Any, settings: Any
) -> None:
    _message(user, "first", _axis(1))
    _message(user, "second", _axis(2))
    assert centre.chat_centre("en") is segmentation.RAW  # no average yet: nothing waits for one

    settings.MEMORYHUB_CHAT_CENTRE_MESSAGES = 0
    centre.chat_centre_refresh()
    assert centre.chat_centre("en") is segmentation.RAW


def test_the_centre_expires_when_the_job_stops_renewing_it(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _message(user, "first", _axis(1))
    _message(user, "second", _axis(2))
    timeouts = []
    real_set = centre.cache.set

    def remember(key: str, value: Any, timeout: Any = None) -> None:
        timeouts.append(timeout)
        real_set(key, value, timeout=timeout)

    monkeypatch.setattr(centre.cache, "set", remember)
    centre.chat_centre_refresh()

    assert timeouts == [centre.CENTRE_TTL_SECONDS]
    cache.delete(centre._key())  # what the timeout does an hour later
    assert centre.chat_centre("en") is segmentation.RAW


def test_an_unavailable_cache_means_raw_comparison_not_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(key: str) -> None:
        raise ConnectionError("valkey is down")

    monkeypatch.setattr(centre.cache, "get", broken)

    assert centre.chat_centre("en") is segmentation.RAW


def test_the_job_is_on_the_beat_schedule() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["refresh-chat-centre"]

    assert entry["task"] == "conversations.tasks.chat_centre_refresh"
    assert entry["schedule"] == 900.0


def test_a_message_is_measured_with_the_threshold_of_its_language_and_centre(
    user: Any, settings: Any
) -> None:
    from conversations.services import topics

    _message(user, "the stock went up", _axis(1))
    _message(user, "the migration is done", _axis(2))
    centre.chat_centre_refresh()
    backend = settings.MEMORYHUB_EMBEDDING_BACKEND

    threshold, english = topics.shift_measure("How is the stock market doing today?")
    assert english.source == "deployment"
    assert threshold == segmentation.THRESHOLDS[(backend, "en", "deployment")]

    threshold, korean = topics.shift_measure("삼성전자 주가 어때?")
    assert korean is segmentation.RAW
    assert threshold == segmentation.THRESHOLDS[(backend, "ko", "raw")]

    settings.MEMORYHUB_TOPIC_SHIFT_THRESHOLD = 0.5
    assert topics.shift_measure("How is the stock market doing today?")[0] == 0.5


def test_a_loop_over_many_messages_reads_each_languages_centre_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from conversations.services import topics

    reads: list[str] = []

    def counted(language: str) -> segmentation.Centre:
        reads.append(language)
        return segmentation.RAW

    monkeypatch.setattr(topics, "chat_centre", counted)
    centres: dict[str, segmentation.Centre] = {}
    for text in ["the stock went up", "빌드 에러는 해결했어", "the build passes", "주가 어때?"]:
        topics.shift_measure(text, centres)

    assert reads == ["en", "ko"]
