"""The chat API's bodies come from its output serializers and keep the JSON they had when they
were built by hand: times in `isoformat()`'s form, scores rounded, optional keys left out."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import timezone

from conversations.logic.prompt_context import ChatContext
from conversations.models import HistoryImport, Message

pytestmark = pytest.mark.django_db


def _import(api) -> dict:
    payload = {
        "sessions": [
            {
                "started_at": "2026-02-01T08:00:00+00:00",
                "messages": [
                    {
                        "role": "user",
                        "content": "퇴근길에 팟캐스트를 들어요.",
                        "created_at": "2026-02-01T08:00:00+00:00",
                    }
                ],
            }
        ]
    }
    response = api.post("/api/v1/imports/", payload, format="json")
    assert response.status_code == 202
    return response.json()


def test_a_chat_turn_writes_its_times_as_isoformat_and_its_context_whole(api):
    session_id = api.post("/api/v1/sessions/").json()["id"]

    body = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "I cycle to work."}, format="json"
    ).json()

    stored = Message.objects.get(pk=body["user_message"]["id"])
    assert body["user_message"]["created_at"] == stored.created_at.isoformat()
    assert set(body["context"]) == {"session_recall", "topic_recall", "memories", "tokens"}
    assert ChatContext.from_dict(body["context"]).as_dict() == body["context"]


def test_an_import_that_did_not_fail_has_no_error_keys_and_a_failed_one_has_both(api):
    created = _import(api)
    assert set(created) == {"id", "status"}

    running = api.get(f"/api/v1/imports/{created['id']}/").json()
    HistoryImport.objects.filter(pk=created["id"]).update(status="failed", error="worker_lost")
    failed = api.get(f"/api/v1/imports/{created['id']}/").json()

    assert "error" not in running and "error_message" not in running
    assert running["progress"] == {"done": 0, "total": 1}
    assert failed["error"] == "worker_lost" and failed["error_message"]


def test_tag_weights_are_rounded_and_their_times_keep_the_offset_form(api, user):
    from conversations.services import tag_weights

    tag_weights.tag_weights_add(
        user_id=user.pk, tags=["자전거"], amount=0.123456789, at=timezone.now()
    )

    (row,) = api.get("/api/v1/tags/").json()["results"]

    assert row["weight"] == 0.1235
    assert datetime.fromisoformat(row["updated_at"]).utcoffset() is not None
    assert not row["updated_at"].endswith("Z")


def test_search_scores_keep_six_decimals_and_context_preview_adds_took_ms(api):
    session_id = api.post("/api/v1/sessions/").json()["id"]
    api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "My cat Nabi likes tuna."},
        format="json",
    )

    hits = api.post("/api/v1/search/", {"query": "Nabi tuna"}, format="json").json()
    preview = api.post("/api/v1/context/", {"message": "What does Nabi like?"}, format="json")

    assert hits["results"]
    assert all(hit["score"] == round(hit["score"], 6) for hit in hits["results"])
    assert set(preview.json()) == {
        "session_recall",
        "topic_recall",
        "memories",
        "tokens",
        "took_ms",
    }
