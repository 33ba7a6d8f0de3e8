"""Deleting a chat session or one exchange: the API, the page, and every copy of the text."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from conversations.models import ChatSession, Message, TagWeight, TagWeightHistory, Topic
from conversations.services import deletion, shortterm
from memories.models import DeletionReceipt, MemoryVersion

pytestmark = pytest.mark.django_db


def _send(api: Any, session_id: int, content: str) -> dict[str, Any]:
    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": content}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def _new_session(api: Any) -> int:
    return int(api.post("/api/v1/sessions/", format="json").json()["id"])


def test_deleting_a_session_returns_a_receipt_without_content_and_then_it_is_404(api, user):
    session_id = _new_session(api)
    _send(api, session_id, "My sourdough starter is called Bubbles.")

    response = api.delete(f"/api/v1/sessions/{session_id}/")

    assert response.status_code == 200
    receipt = response.json()["receipt"]
    assert receipt["kind"] == "session"
    assert receipt["removed"]["sessions"] == 1 and receipt["removed"]["messages"] == 2
    assert "Bubbles" not in response.content.decode()
    assert DeletionReceipt.objects.filter(pk=receipt["id"], user=user).exists()
    assert api.get(f"/api/v1/sessions/{session_id}/").status_code == 404
    assert not Message.objects.filter(session_id=session_id).exists()
    assert not Topic.objects.filter(session_id=session_id).exists()


def test_another_users_session_and_message_are_404_and_stay(api, other_api):
    session_id = _new_session(other_api)
    sent = _send(other_api, session_id, "Only mine.")

    gone_session = api.delete(f"/api/v1/sessions/{session_id}/")
    gone_message = api.delete(f"/api/v1/messages/{sent['user_message']['id']}/")

    assert gone_session.status_code == 404 and gone_message.status_code == 404
    assert gone_message.json()["error"]["code"] == "not_found"
    assert ChatSession.objects.filter(pk=session_id).exists()
    assert Message.objects.filter(pk=sent["user_message"]["id"]).exists()


@pytest.mark.parametrize("bad_id", ["abc", "0", "99999999"])
def test_a_bad_message_id_is_404_in_the_error_shape(api, bad_id):
    response = api.delete(f"/api/v1/messages/{bad_id}/")

    assert response.status_code == 404
    assert set(response.json()["error"]) == {"code", "message", "fields"}


def test_deleting_an_exchange_derives_title_and_topic_keywords_again(api):
    session_id = _new_session(api)
    first = _send(api, session_id, "Quokka photography tips for the island trip.")
    _send(api, session_id, "Quokka lenses and island light in the morning.")

    response = api.delete(f"/api/v1/messages/{first['user_message']['id']}/")

    assert response.status_code == 200
    assert response.json()["receipt"]["removed"]["messages"] == 2  # the reply went with it
    session = ChatSession.objects.get(pk=session_id)
    assert session.title.startswith("Quokka lenses")
    remaining = list(Message.objects.filter(session=session))
    assert len(remaining) == 2
    assert all("photography" not in m.content for m in remaining)
    for topic in Topic.objects.filter(session=session):
        assert topic.message_count == 2
        assert "photography" not in " ".join(topic.keywords + topic.terms).lower()


def test_deleting_a_reply_alone_keeps_the_users_message(api):
    session_id = _new_session(api)
    sent = _send(api, session_id, "Tell me about tide pools.")

    api.delete(f"/api/v1/messages/{sent['assistant_message']['id']}/")

    assert list(Message.objects.filter(session_id=session_id).values_list("pk", flat=True)) == [
        int(sent["user_message"]["id"])
    ]


def test_other_replies_lose_what_they_recalled_found_or_quoted_from_the_session(api, user):
    deleted_id = _new_session(api)
    gone = _send(api, deleted_id, "My locker combination hint is the blue heron.")
    deleted = ChatSession.objects.get(pk=deleted_id)
    deleted.summary = "Locker hint: the blue heron."
    deleted.save(update_fields=["summary"])
    topic_id = str(Topic.objects.filter(session=deleted).get().pk)
    kept_session = ChatSession.objects.create(user=user)
    question = Message.objects.create(
        session=kept_session, user=user, role="user", content="What is my locker hint?"
    )
    context = {
        "session_recall": [{"session_id": str(deleted_id), "summary": deleted.summary,
                            "tags": [], "started_at": ""}],
        "topic_recall": [{"topic_id": topic_id, "keywords": ["locker", "heron"], "messages": [
            {"role": "user", "content": gone["user_message"]["content"], "created_at": "2026"}]}],
        "memories": [], "tokens": 10,
    }  # fmt: skip
    reply = Message.objects.create(
        session=kept_session, user=user, role="assistant", reply_to=question, context=context,
        content=(
            "Offline.\n\nWhat I remember that relates to this:\n"
            f"- [session {deleted_id}] Locker hint: the blue heron.\n"
            "- [topic: locker, heron] My locker combination hint is the blue heron.\n\n"
            "Earlier conversation found by search:\n"
            f"- [message {gone['user_message']['id']}, 2026-01-01] My locker combination hint"
            " is the blue heron.\n\n"
            "You said: My locker combination hint is the blue heron. Anything else?"
        ),
    )  # fmt: skip

    receipt = api.delete(f"/api/v1/sessions/{deleted_id}/").json()["receipt"]

    reply.refresh_from_db()
    assert "heron" not in reply.content.lower()
    assert reply.content.startswith("Offline.")
    assert "Anything else?" in reply.content
    assert reply.context["session_recall"] == [] and reply.context["topic_recall"] == []
    assert receipt["removed"]["copies_in_other_replies"] == 1
    question.refresh_from_db()
    assert question.content == "What is my locker hint?"


def test_tags_only_the_deleted_session_held_are_forgotten(api, user):
    session_id = _new_session(api)
    _send(api, session_id, "Violin practice.")
    ChatSession.objects.filter(pk=session_id).update(status="ended", tags=["violin", "music"])
    ChatSession.objects.create(user=user, status="ended", tags=["music"])
    for tag in ("violin", "music"):
        TagWeight.objects.create(user=user, tag=tag, weight=1.0)
        TagWeightHistory.objects.create(user=user, tag=tag, day="2026-01-01", weight=1.0)

    receipt = api.delete(f"/api/v1/sessions/{session_id}/").json()["receipt"]

    assert set(TagWeight.objects.filter(user=user).values_list("tag", flat=True)) == {"music"}
    assert not TagWeightHistory.objects.filter(user=user, tag="violin").exists()
    assert receipt["removed"]["tags_forgotten"] == 1


def test_a_memory_made_from_a_deleted_message_stays_with_only_its_id(api, user):
    session_id = _new_session(api)
    sent = _send(api, session_id, "Remember that my cat is named Mochi.")
    from memories.services.extraction import memory_extract_from_exchange

    memory_extract_from_exchange(
        user_id=user.pk, user_text=sent["user_message"]["content"], assistant_text="",
        source_message_id=int(sent["user_message"]["id"]), source_session_id=int(session_id),
    )  # fmt: skip
    assert MemoryVersion.objects.filter(user=user, content__contains="Mochi").exists()

    api.delete(f"/api/v1/sessions/{session_id}/")

    version = MemoryVersion.objects.get(user=user, content__contains="Mochi")
    assert version.source_message_id == int(sent["user_message"]["id"])


def test_deleting_drops_the_cached_session_state_and_summaries(
    api, user, django_capture_on_commit_callbacks
):
    session_id = _new_session(api)
    _send(api, session_id, "Cache me.")
    session = ChatSession.objects.get(pk=session_id)
    ChatSession.objects.filter(pk=session_id).update(state={"goal": "secret plan"})
    shortterm.session_state(session=session)
    shortterm.recent_summaries(user_id=user.pk)
    assert cache.get(f"session-state:{session_id}") is not None

    with django_capture_on_commit_callbacks(execute=True):
        deletion.chat_session_delete(user=user, session=session)

    assert cache.get(f"session-state:{session_id}") is None
    assert cache.get(f"recent-summaries:{user.pk}") is None


def test_the_session_list_asks_before_deleting_and_htmx_swaps_in_the_receipt(client, user):
    session = ChatSession.objects.create(user=user, title="Garden plans")
    client.force_login(user)
    url = reverse("chat:session-delete", args=[session.pk])

    listing = client.get(reverse("chat:session-list")).content.decode()
    assert f'hx-post="{url}"' in listing and "hx-confirm=" in listing
    confirm = client.get(url)
    assert confirm.status_code == 200 and "Garden plans" in confirm.content.decode()
    assert ChatSession.objects.filter(pk=session.pk).exists()

    swapped = client.post(url, HTTP_HX_REQUEST="true")

    assert swapped.status_code == 200
    receipt = DeletionReceipt.objects.get(user=user, kind="session")
    assert str(receipt.pk) in swapped.content.decode()
    assert not ChatSession.objects.filter(pk=session.pk).exists()


def test_the_delete_page_without_javascript_redirects_to_the_receipt(client, user):
    session = ChatSession.objects.create(user=user)
    client.force_login(user)

    response = client.post(reverse("chat:session-delete", args=[session.pk]))

    receipt = DeletionReceipt.objects.get(user=user, kind="session")
    assert response.status_code == 302
    assert response["Location"] == reverse("memories:receipt", args=[receipt.pk])


def test_the_delete_page_needs_csrf(user):
    from django.test import Client

    session = ChatSession.objects.create(user=user)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)

    response = strict.post(reverse("chat:session-delete", args=[session.pk]))

    assert response.status_code == 403
    assert ChatSession.objects.filter(pk=session.pk).exists()


def test_another_users_session_delete_page_is_404(client, user, other_user):
    session = ChatSession.objects.create(user=other_user)
    client.force_login(user)

    assert client.get(reverse("chat:session-delete", args=[session.pk])).status_code == 404
    assert client.post(reverse("chat:session-delete", args=[session.pk])).status_code == 404
    assert ChatSession.objects.filter(pk=session.pk).exists()
