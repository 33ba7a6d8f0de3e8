import json
from datetime import date

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from conversations.models import (
    ChatSession,
    HistoryImport,
    Message,
    TagWeight,
    TagWeightHistory,
    Topic,
)
from conversations.services import chat
from memories.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("boss", "b@example.com", "pw-123456789")


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def _chat(user, text="Next.js App Router 설정했어."):
    """A session of `user` with one message, a topic, a tag, its history and an import."""
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content=text)
    topic = Topic.objects.create(session=session, user=user, keywords=["App Router"])
    return {
        "session": session,
        "message": message,
        "topic": topic,
        "tag": TagWeight.objects.create(user=user, tag="nextjs", weight=1.0),
        "tag_history": TagWeightHistory.objects.create(
            user=user, tag="nextjs", day=date(2026, 11, 30), weight=1.0
        ),
        "import": HistoryImport.objects.create(user=user),
    }


ADMIN_PATHS = {
    "session": "chatsession",
    "message": "message",
    "topic": "topic",
    "tag": "tagweight",
    "tag_history": "tagweighthistory",
    "import": "historyimport",
}


def _reads(**filters):
    return list(AuditEvent.objects.filter(action="staff_view", **filters).order_by("id"))


def test_every_conversations_model_is_registered_in_admin():
    for model in (ChatSession, Message, Topic, TagWeight, TagWeightHistory, HistoryImport):
        assert admin.site.is_registered(model)


def test_staff_can_browse_sessions_and_messages_in_admin(staff_client, user):
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="Next.js App Router 설정했어.")

    assert staff_client.get("/admin/conversations/chatsession/").status_code == 200
    page = staff_client.get(f"/admin/conversations/message/{message.pk}/change/")
    assert page.status_code == 200
    assert "App Router" in page.content.decode()
    assert staff_client.get("/admin/conversations/topic/").status_code == 200


@pytest.mark.parametrize("kind", list(ADMIN_PATHS))
def test_opening_a_chat_record_in_admin_is_recorded_for_its_user(staff_client, staff, user, kind):
    record = _chat(user)[kind]

    page = staff_client.get(f"/admin/conversations/{ADMIN_PATHS[kind]}/{record.pk}/change/")

    assert page.status_code == 200
    [event] = _reads()
    assert (event.user_id, event.actor_id) == (user.pk, staff.pk)
    assert (event.target_type, event.target_id) == (kind, str(record.pk))


def test_the_history_and_delete_pages_of_a_message_are_reads_too(staff_client, user):
    message = _chat(user)["message"]
    base = f"/admin/conversations/message/{message.pk}"

    pages = [staff_client.get(f"{base}/{page}/").status_code for page in ("history", "delete")]

    assert pages == [200, 200]
    assert [(e.user_id, e.target_type, e.target_id) for e in _reads()] == [
        (user.pk, "message", str(message.pk))
    ] * 2


@pytest.mark.parametrize("kind", list(ADMIN_PATHS))
def test_a_chat_list_page_in_admin_records_one_read_per_user_on_it(
    staff_client, staff, user, other_user, django_user_model, kind
):
    mine, theirs = _chat(user), _chat(other_user, "I moved to Busan.")
    django_user_model.objects.create_user(username="absent", password="a-long-password-3")

    page = staff_client.get(f"/admin/conversations/{ADMIN_PATHS[kind]}/")

    assert page.status_code == 200
    events = {event.user_id: event for event in _reads(target_type=kind)}
    assert set(events) == {user.pk, other_user.pk}
    assert all(event.actor_id == staff.pk and event.target_id == "" for event in events.values())
    model = type(mine[kind])
    for owner in (user, other_user):
        rows = {str(pk) for pk in model.objects.filter(user=owner).values_list("pk", flat=True)}
        detail = events[owner.pk].detail
        assert (set(detail["ids"]), detail["listed"], detail["searched"]) == (
            rows,
            len(rows),
            False,
        )
    assert str(mine[kind].pk) in events[user.pk].detail["ids"]
    assert str(theirs[kind].pk) in events[other_user.pk].detail["ids"]


def test_a_search_records_only_the_users_found_and_not_the_search_term(
    staff_client, user, other_user
):
    _chat(user, "비밀 프로젝트 블루버드 일정 정리해줘")
    _chat(other_user, "I moved to Busan.")

    page = staff_client.get("/admin/conversations/message/", {"q": "블루버드"})

    assert page.status_code == 200
    [event] = _reads()
    assert event.user_id == user.pk
    assert event.detail["searched"] is True
    stored = json.dumps(list(AuditEvent.objects.values()), default=str, ensure_ascii=False)
    assert "블루버드" not in stored


def test_a_list_page_with_no_rows_records_nothing(staff_client, user):
    assert staff_client.get("/admin/conversations/message/").status_code == 200

    assert _reads() == []


def test_the_user_sees_staff_reads_of_their_chats_in_their_access_log(staff_client, user):
    message = _chat(user)["message"]
    staff_client.get(f"/admin/conversations/message/{message.pk}/change/")
    staff_client.get("/admin/conversations/chatsession/", {"q": "minji"})
    owner = Client()
    owner.force_login(user)

    english = owner.get(
        reverse("memories:access-log"), headers={"accept-language": "en"}
    ).content.decode()
    korean = owner.get(
        reverse("memories:access-log"), headers={"accept-language": "ko"}
    ).content.decode()

    assert f"Chat message {message.pk}" in english
    assert "1 chat session in a list (found by a search)" in english
    assert "boss" in english
    assert f"대화 메시지 {message.pk}" in korean
    assert "목록에 보인 대화 1개 (검색으로 찾음)" in korean
    assert "Chat message" not in korean and "in a list" not in korean


def test_the_audit_events_api_names_the_kind_of_chat_record_read(staff_client, api, user):
    topic = _chat(user)["topic"]
    staff_client.get(f"/admin/conversations/topic/{topic.pk}/change/")

    [seen] = api.get("/api/v1/audit-events/").json()["results"]

    assert (seen["action"], seen["target_type"], seen["target_id"]) == (
        "staff_view",
        "topic",
        str(topic.pk),
    )
    assert seen["actor"]["staff"] is True


def test_the_memory_auditor_group_has_no_permission_on_chats():
    group = Group.objects.get(name="memory auditor")

    chat_permissions = Permission.objects.filter(content_type__app_label="conversations")

    assert chat_permissions.exists()
    assert not group.permissions.filter(pk__in=chat_permissions).exists()


def test_a_memory_auditor_cannot_open_chats_in_admin(client, django_user_model, user):
    auditor = django_user_model.objects.create_user(
        username="auditor", password="a-long-password-8", is_staff=True
    )
    auditor.groups.add(Group.objects.get(name="memory auditor"))
    client.force_login(auditor)
    records = _chat(user)

    index = client.get("/admin/").content.decode()
    pages = [
        client.get(f"/admin/conversations/{path}/").status_code for path in ADMIN_PATHS.values()
    ] + [
        client.get(
            f"/admin/conversations/{ADMIN_PATHS[kind]}/{records[kind].pk}/change/"
        ).status_code
        for kind in ADMIN_PATHS
    ]

    assert "/admin/conversations/" not in index
    assert set(pages) == {403}
    assert _reads() == []
