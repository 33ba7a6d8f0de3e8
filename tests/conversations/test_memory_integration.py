"""Long-term memories in the chat flow: redaction, extraction, recall, usage, deletion."""

from __future__ import annotations

import json

import pytest

from conversations.models import ChatSession, Message
from conversations.services import chat, sessions
from conversations.tasks import exchange_extract
from memories.models import Memory, MemoryUse, MemoryVersion

pytestmark = pytest.mark.django_db


def _say(user, session, text, django_capture_on_commit_callbacks, monkeypatch):
    """One exchange, running the extraction task body that the reply enqueues."""
    queued: list[dict] = []
    monkeypatch.setattr(exchange_extract, "delay", lambda **kw: queued.append(kw))
    message, _ = chat.message_add_user(session=session, content=text)
    with django_capture_on_commit_callbacks(execute=True):
        "".join(chat.reply_stream(message=message))
    for kwargs in queued:
        exchange_extract(**kwargs)
    return message


def test_a_stated_preference_becomes_a_memory_and_is_recalled_later(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    first = chat.chat_session_create(user=user)
    _say(user, first, "기억해줘: 나는 매운 음식을 좋아해.", django_capture_on_commit_callbacks,
         monkeypatch)  # fmt: skip
    memory = Memory.objects.get(user=user)
    assert memory.status == "active"

    later = chat.chat_session_create(user=user)
    message = _say(user, later, "저녁 메뉴 추천해줘. 매운 음식 괜찮아?",
                   django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip

    reply = Message.objects.get(reply_to=message)
    used = reply.context["memories"]
    assert [m["id"] for m in used] == [str(memory.pk)]
    assert "매운" in used[0]["content"]
    assert "매운" in reply.content  # the offline reply shows what it remembered
    assert MemoryUse.objects.filter(message_id=reply.pk).count() == 1


def test_a_secret_in_a_chat_message_is_stored_redacted_and_never_becomes_a_memory(
    api, user, django_capture_on_commit_callbacks, monkeypatch
):
    session = chat.chat_session_create(user=user)
    secret = "sk-ant-api03-" + "A" * 40

    message = _say(user, session, f"기억해줘: 내 API 키는 {secret} 야",
                   django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip

    assert secret not in Message.objects.get(pk=message.pk).content
    assert "redacted" in Message.objects.get(pk=message.pk).content
    versions = MemoryVersion.objects.filter(memory__user=user)
    assert not any(secret in v.content for v in versions)
    assert secret not in json.dumps(api.get("/api/v1/export/").json(), ensure_ascii=False)


def test_deleting_a_memory_removes_it_from_saved_reply_context_and_the_export(
    api, user, django_capture_on_commit_callbacks, monkeypatch
):
    canary = "카나리아7731"
    session = chat.chat_session_create(user=user)
    _say(user, session, f"기억해줘: 내 비밀 별명은 {canary} 이야.",
         django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip
    memory = Memory.objects.get(user=user)
    later = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=later, content=f"내 별명 {canary} 기억나?")
    "".join(chat.reply_stream(message=message))
    ChatSession.objects.filter(messages__content__contains=canary).delete()  # and the chats
    assert memory.pk  # used in a reply's context before deletion

    response = api.delete(f"/api/v1/memories/{memory.pk}/")

    assert response.status_code == 200
    assert canary not in json.dumps(response.json(), ensure_ascii=False)
    export = json.dumps(api.get("/api/v1/export/").json(), ensure_ascii=False)
    i = export.find(canary)
    assert canary not in export, export[max(0, i - 600) : i + 100]
    search = api.post("/api/v1/search/", {"query": canary}, format="json").json()
    assert canary not in json.dumps(search, ensure_ascii=False)
    context = api.post("/api/v1/context/", {"message": canary}, format="json").json()
    assert canary not in json.dumps(context, ensure_ascii=False)


def test_deleting_all_my_data_leaves_nothing_and_returns_a_receipt(
    api, user, other_api, django_capture_on_commit_callbacks, monkeypatch
):
    session = chat.chat_session_create(user=user)
    _say(user, session, "기억해줘: 나는 부산에 살아.", django_capture_on_commit_callbacks,
         monkeypatch)  # fmt: skip
    other_session = other_api.post("/api/v1/sessions/").json()["id"]
    other_api.post(f"/api/v1/sessions/{other_session}/messages/", {"content": "hi"}, format="json")

    response = api.delete("/api/v1/me/data/")

    assert response.status_code == 200
    receipt = response.json()["receipt"]
    assert receipt["removed"]["messages"] == 2 and receipt["removed"]["sessions"] == 1
    export = api.get("/api/v1/export/").json()
    assert export["sessions"] == [] and export["memories"] == []
    assert Message.objects.filter(user=user).count() == 0
    assert Message.objects.exclude(user=user).count() == 2  # the other user's data stays


def test_export_holds_my_sessions_and_memories_and_nothing_of_another_user(
    api, user, other_api, django_capture_on_commit_callbacks, monkeypatch
):
    session = chat.chat_session_create(user=user)
    _say(user, session, "I prefer short answers.", django_capture_on_commit_callbacks, monkeypatch)
    other_session = other_api.post("/api/v1/sessions/").json()["id"]
    other_api.post(f"/api/v1/sessions/{other_session}/messages/",
                   {"content": "their secret plan"}, format="json")  # fmt: skip

    export = api.get("/api/v1/export/")

    assert export.status_code == 200
    text = json.dumps(export.json())
    assert "I prefer short answers." in text
    assert "their secret plan" not in text
    assert len(export.json()["memories"]) == 1


def test_a_deleted_memory_stated_in_chat_does_not_come_back_through_any_door(
    api, user, django_capture_on_commit_callbacks, monkeypatch
):
    canary = "코끼리밥솥7731"
    first = chat.chat_session_create(user=user)
    _say(user, first, f"기억해줘: 우리 집 밥솥 이름은 {canary} 이야.",
         django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip
    _say(user, first, f"{canary} 밥솥으로 현미밥 했어.", django_capture_on_commit_callbacks,
         monkeypatch)  # fmt: skip
    sessions.session_end(session=first)
    sessions.session_finalize(session_id=first.pk)
    # Both messages are statements about the user: each may be a memory holding the canary.
    holding = list(Memory.objects.filter(user=user, current_version__content__contains=canary))
    assert holding
    # The statement itself, and a later mention, are deleted with the memory's source.
    Message.objects.filter(content__contains="현미밥").delete()

    responses = [api.delete(f"/api/v1/memories/{memory.pk}/") for memory in holding]

    assert {response.status_code for response in responses} == {200}
    everywhere = json.dumps(
        [
            api.get("/api/v1/export/").json(),
            api.post("/api/v1/search/", {"query": canary}, format="json").json(),
            api.post("/api/v1/context/", {"message": f"{canary} 기억나?"}, format="json").json(),
            api.get("/api/v1/tags/").json(),
            api.get(f"/api/v1/sessions/{first.pk}/").json(),
        ],
        ensure_ascii=False,
    )
    assert canary not in everywhere
    assert "밥솥" not in ChatSession.objects.get(pk=first.pk).title


def test_a_deleted_memory_is_gone_from_later_replies_saved_recall_too(
    api, user, django_capture_on_commit_callbacks, monkeypatch
):
    canary = "나비고양이4412"
    first = chat.chat_session_create(user=user)
    _say(user, first, f"기억해줘: 우리 고양이 이름은 {canary}야.",
         django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip
    sessions.session_end(session=first)
    sessions.session_finalize(session_id=first.pk)
    second = chat.chat_session_create(user=user)
    _say(user, second, "우리 고양이 이름 기억나?", django_capture_on_commit_callbacks, monkeypatch)
    sessions.session_end(session=second)
    sessions.session_finalize(session_id=second.pk)
    assert canary in json.dumps(api.get("/api/v1/export/").json(), ensure_ascii=False)
    memory = Memory.objects.get(user=user)

    api.delete(f"/api/v1/memories/{memory.pk}/")

    export = json.dumps(api.get("/api/v1/export/").json(), ensure_ascii=False)
    assert canary not in export
    later = api.post("/api/v1/context/", {"message": "우리 고양이 이름이 뭐였지?"}, format="json")
    assert canary not in json.dumps(later.json(), ensure_ascii=False)


def test_a_deleted_memorys_unique_words_leave_past_replies_but_shared_words_stay(
    api, user, django_capture_on_commit_callbacks, monkeypatch
):
    canary = "Zorblax-91"
    first = chat.chat_session_create(user=user)
    _say(user, first, f"Remember that my cat's name is {canary}.",
         django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip
    sessions.session_end(session=first)
    sessions.session_finalize(session_id=first.pk)
    second = chat.chat_session_create(user=user)
    asked = _say(user, second, "Do you remember my cat's name?",
                 django_capture_on_commit_callbacks, monkeypatch)  # fmt: skip
    sessions.session_end(session=second)
    sessions.session_finalize(session_id=second.pk)
    reply = Message.objects.get(reply_to=asked)
    assert canary in reply.content  # quoted, and listed among a topic's keywords

    api.delete(f"/api/v1/memories/{Memory.objects.get(user=user).pk}/")

    export = json.dumps(api.get("/api/v1/export/").json(), ensure_ascii=False)
    assert canary.lower() not in export.lower()
    assert "Do you remember my cat's name?" in export  # the user's own later question stays


def test_a_message_deleted_before_its_extraction_ran_never_becomes_a_memory(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    from conversations.services import deletion

    queued: list[dict] = []
    monkeypatch.setattr(exchange_extract, "delay", lambda **kw: queued.append(kw))
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="기억해줘: 나는 고수를 싫어해.")
    with django_capture_on_commit_callbacks(execute=True):
        "".join(chat.reply_stream(message=message))
    with django_capture_on_commit_callbacks(execute=True):
        deletion.message_delete(user=user, message=Message.objects.get(pk=message.pk))

    results = [exchange_extract(**kwargs) for kwargs in queued]

    assert [r["status"] for r in results] == ["source_deleted"]
    assert not Memory.objects.filter(user=user).exists()


def test_a_message_that_still_exists_is_extracted_as_before(
    user, django_capture_on_commit_callbacks, monkeypatch
):
    session = chat.chat_session_create(user=user)

    _say(user, session, "기억해줘: 나는 고수를 싫어해.", django_capture_on_commit_callbacks,
         monkeypatch)  # fmt: skip

    assert Memory.objects.filter(user=user).count() == 1
