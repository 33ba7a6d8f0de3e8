"""Every way a memory is deleted removes its copies in conversations and names them on the
receipt (issue 16 line 1): the memory page, the API, undo in the chat, staff in admin and the
retention purge. (A connected agent over MCP: tests/account/test_mcp_forgetting.py.)"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from conversations import tasks
from conversations.models import ChatSession, Message
from conversations.services import chat, sessions
from conversations.services.memory_updates import memory_update_undo
from memories.models import AuditEvent, DeletionReceipt, Memory, MemoryStatus
from memoryhub import text as text_analysis

pytestmark = pytest.mark.django_db

# (what the user says, what they ask later, the word only the fact holds)
SCENARIOS = [
    ("기억해줘: 나는 주말마다 볼더링을 해.", "이번 주말에 뭐 하면 좋을까? 볼더링 어때?", "볼더링"),
    (
        "Remember that I go bouldering every Saturday.",
        "Any plans you'd suggest for Saturday? Maybe bouldering?",
        "bouldering",
    ),
]


@dataclass
class Remembered:
    memory: Memory
    statement: Message
    first: ChatSession
    recalled_by: Message
    word: str


def _say(session: ChatSession, text: str, capture: Any, monkeypatch: Any) -> Message:
    """One exchange, running the extraction task body the reply enqueues."""
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.exchange_extract, "delay", lambda **kw: queued.append(kw))
    message, _topic = chat.message_add_user(session=session, content=text)
    with capture(execute=True):
        "".join(chat.reply_stream(message=message))
    for kwargs in queued:
        tasks.exchange_extract(**kwargs)
    return message


@pytest.fixture(params=SCENARIOS, ids=["ko", "en"])
def remembered(request, user, django_capture_on_commit_callbacks, monkeypatch) -> Remembered:
    """A stated fact became a memory; a later reply in another session recalled it."""
    said, asked, word = request.param
    for task in (tasks.messages_embed, tasks.messages_backfill):
        monkeypatch.setattr(task, "delay", lambda **kw: None)
    first = chat.chat_session_create(user=user)
    statement = _say(first, said, django_capture_on_commit_callbacks, monkeypatch)
    memory = Memory.objects.get(user=user)
    later = chat.chat_session_create(user=user)
    question = _say(later, asked, django_capture_on_commit_callbacks, monkeypatch)
    reply = Message.objects.get(reply_to=question)
    assert [m["id"] for m in reply.context["memories"]] == [str(memory.pk)]  # the premise
    return Remembered(memory, statement, first, reply, word)


def _assert_forgotten(case: Remembered, receipt: DeletionReceipt) -> None:
    assert not Memory.objects.filter(pk=case.memory.pk).exists()
    statement = Message.objects.get(pk=case.statement.pk)
    assert case.word.lower() not in statement.content.lower()
    reply = Message.objects.get(pk=case.recalled_by.pk)
    assert reply.context["memories"] == []
    assert receipt.memory_id == str(case.memory.pk)
    assert {"kind": "statement", "session_id": str(case.first.pk)} in [
        {"kind": c["kind"], "session_id": c["session_id"]} for c in receipt.copies
    ]
    # the saved context's entry is counted, as is each copy named
    assert receipt.removed["cached_copies"] >= len(receipt.copies) + 1
    assert case.word.lower() not in str(receipt.copies).lower()


def test_the_memory_page_removes_the_copies_and_names_them(client, user, remembered):
    client.force_login(user)

    page = client.get(reverse("account:memory-delete", args=[remembered.memory.pk]))
    client.post(reverse("account:memory-delete", args=[remembered.memory.pk]))

    assert remembered.word in page.content.decode()  # the confirmation previews the span
    _assert_forgotten(remembered, DeletionReceipt.objects.get(kind="memory"))


def test_the_api_removes_the_copies_and_names_them(api, remembered):
    response = api.delete(f"/api/v1/memories/{remembered.memory.pk}/")

    assert response.status_code == 200
    body = response.json()["receipt"]
    receipt = DeletionReceipt.objects.get(pk=body["id"])
    assert body["copies"] == receipt.copies
    _assert_forgotten(remembered, receipt)


def test_undo_in_the_chat_removes_the_copies_and_names_them(user, remembered):
    statement = Message.objects.get(pk=remembered.statement.pk)

    undone = memory_update_undo(user=user, message=statement, memory=remembered.memory)

    assert undone.action == "deleted" and undone.receipt is not None
    _assert_forgotten(remembered, undone.receipt)


def test_staff_purging_in_admin_removes_the_copies_and_names_them(
    client, django_user_model, user, remembered
):
    staff = django_user_model.objects.create_superuser(username="root", password="a-long-pw-9")
    client.force_login(staff)

    response = client.post(
        "/admin/memories/memory/",
        {
            "action": "purge_selected",
            "_selected_action": [str(remembered.memory.pk)],
            "post": "yes",
        },
    )

    assert response.status_code == 302
    receipt = DeletionReceipt.objects.get(user=user)
    _assert_forgotten(remembered, receipt)
    assert AuditEvent.objects.get(action="purge").actor_id == staff.pk


def test_staff_deleting_one_memory_in_admin_is_the_same_purge(
    client, django_user_model, remembered
):
    staff = django_user_model.objects.create_superuser(username="root", password="a-long-pw-9")
    client.force_login(staff)

    client.post(f"/admin/memories/memory/{remembered.memory.pk}/delete/", {"post": "yes"})

    _assert_forgotten(remembered, DeletionReceipt.objects.get(kind="memory"))


@pytest.mark.parametrize(
    "purge",
    [tasks.memories_purge_retained, tasks.memories_purge_retained_queued_before_the_move],
    ids=["task", "task-under-its-old-name"],
)
def test_the_retention_purge_removes_the_copies_and_names_them(remembered, purge):
    long_ago = timezone.now() - timedelta(days=settings.MEMORYHUB_MEMORY_RETENTION_DAYS + 1)
    Memory.objects.filter(pk=remembered.memory.pk).update(
        status=MemoryStatus.REJECTED, updated_at=long_ago
    )

    assert purge() == 1

    _assert_forgotten(remembered, DeletionReceipt.objects.get(kind="retention"))
    assert purge() == 0


def test_the_retention_purge_is_on_beat_under_the_conversations_task():
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    assert tasks.memories_purge_retained.name in scheduled
    assert "memories.tasks.memories_purge_retained" not in scheduled
    assert "memories.tasks.memories_expire_due" in scheduled


# --- a session still open when the memory goes, ended afterwards (issue 13 lines 3 and 5) ----

# (a question about earlier sessions, a statement on another subject, its word)
LATER_IN_THE_SAME_SESSION = {
    "볼더링": ("지난번에 내가 뭐 사기로 했었지?", "요즘 퇴근하고 우쿨렐레를 연습해.", "우쿨렐레"),
    "bouldering": (
        "What did I say I would buy last time?",
        "I practise the ukulele after work these days.",
        "ukulele",
    ),
}


def _end_by_the_button(api, session: ChatSession) -> None:
    response = api.post(f"/api/v1/sessions/{session.pk}/end/")
    assert response.status_code == 202, response.content


def _end_by_expiry(api, session: ChatSession) -> None:
    idle = timezone.now() + timedelta(minutes=settings.MEMORYHUB_SESSION_IDLE_MINUTES + 5)
    assert sessions.sessions_end_idle(now=idle) >= 1


@pytest.mark.parametrize("end", [_end_by_the_button, _end_by_expiry], ids=["button", "expiry"])
def test_a_session_ended_after_a_deletion_is_summarised_and_titled_from_what_is_left(
    api, remembered, end, django_capture_on_commit_callbacks, monkeypatch
):
    asked, stated, word = LATER_IN_THE_SAME_SESSION[remembered.word]
    for text in (asked, stated):
        _say(remembered.first, text, django_capture_on_commit_callbacks, monkeypatch)
    monkeypatch.setattr(tasks.session_finalize, "delay", tasks.session_finalize)

    assert api.delete(f"/api/v1/memories/{remembered.memory.pk}/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        end(api, ChatSession.objects.get(pk=remembered.first.pk))

    session = ChatSession.objects.get(pk=remembered.first.pk)
    assert session.status == ChatSession.Status.ENDED
    derived = " ".join([session.title, session.summary, *session.tags]).lower()
    assert remembered.word not in derived
    assert not text_analysis.carries_marker(derived) and "removed" not in derived
    assert asked.lower() not in derived and "?" not in session.summary
    assert "기억" not in derived and "remember" not in derived
    assert word in session.summary.lower() and word in session.title.lower()
