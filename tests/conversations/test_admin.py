import pytest
from django.contrib import admin

from conversations.models import (
    ChatSession,
    HistoryImport,
    Message,
    TagWeight,
    TagWeightHistory,
    Topic,
)
from conversations.services import chat

pytestmark = pytest.mark.django_db


def test_every_conversations_model_is_registered_in_admin():
    for model in (ChatSession, Message, Topic, TagWeight, TagWeightHistory, HistoryImport):
        assert admin.site.is_registered(model)


def test_staff_can_browse_sessions_and_messages_in_admin(client, django_user_model, user):
    staff = django_user_model.objects.create_superuser("boss", "b@example.com", "pw-123456789")
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="Next.js App Router 설정했어.")
    client.force_login(staff)

    assert client.get("/admin/conversations/chatsession/").status_code == 200
    page = client.get(f"/admin/conversations/message/{message.pk}/change/")
    assert page.status_code == 200
    assert "App Router" in page.content.decode()
    assert client.get("/admin/conversations/topic/").status_code == 200
