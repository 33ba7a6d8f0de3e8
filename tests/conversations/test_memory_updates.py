"""What a session's turns made of memory (the selector) and undoing it (the service)."""

from __future__ import annotations

import pytest

from conversations import selectors
from conversations.services import chat
from conversations.services.memory_updates import NothingToUndo, memory_update_undo
from conversations.tasks import exchange_extract
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.write_policy import Origin
from memories.models import DeletionReceipt, Memory, MemoryStatus
from memories.reasons import ChangeReason
from memories.services import extraction, revision

pytestmark = pytest.mark.django_db


@pytest.fixture
def say(user, django_capture_on_commit_callbacks, monkeypatch):
    """One exchange in `session`, running the extraction task the reply enqueues."""

    def exchange(session, text):
        queued: list[dict] = []
        monkeypatch.setattr(exchange_extract, "delay", lambda **kw: queued.append(kw))
        message, _topic = chat.message_add_user(session=session, content=text)
        with django_capture_on_commit_callbacks(execute=True):
            "".join(chat.reply_stream(message=message))
        for kwargs in queued:
            exchange_extract(**kwargs)
        return message

    return exchange


@pytest.fixture
def session(user):
    return chat.chat_session_create(user=user)


def _suggest(user, message, content):
    """What a model would infer from the exchange: it waits for the user's approval."""
    return extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="preference", content=content, stated_by_user=False),
        source_message_id=message.pk,
        source_session_id=message.session_id,
    ).memory


def _actions(session):
    return [
        (u.message_id, u.memory_id, u.action)
        for u in selectors.session_memory_updates(session=session)
    ]


# The selector


def test_a_statement_remembered_offline_is_created_by_its_message(say, session):
    message = say(session, "기억해줘: 나는 고양이를 좋아해")

    updates = selectors.session_memory_updates(session=session)

    memory = Memory.objects.get(user=session.user)
    assert [(u.message_id, u.memory_id, u.action) for u in updates] == [
        (message.pk, memory.pk, "created")
    ]
    assert "고양이" in updates[0].content
    assert updates[0].content == memory.current_version.content


def test_a_later_statement_of_the_same_fact_is_an_update_of_the_later_message(say, session):
    first = say(session, "I live in Seoul.")
    second = say(session, "I live in Busan.")

    memory = Memory.objects.get(user=session.user)
    assert _actions(session) == [(second.pk, memory.pk, "updated")]
    assert first.pk not in [u.message_id for u in selectors.session_memory_updates(session=session)]
    assert "Busan" in selectors.session_memory_updates(session=session)[0].content


def test_an_update_from_another_session_is_listed_there_not_in_the_first(say, user, session):
    say(session, "나 서울에 살아")
    later = chat.chat_session_create(user=user)
    moved = say(later, "나 부산에 살아")

    memory = Memory.objects.get(user=user)
    assert _actions(session) == []
    assert _actions(later) == [(moved.pk, memory.pk, "updated")]


def test_an_inference_waiting_for_approval_is_pending_then_created_once_approved(user, session):
    message, _topic = chat.message_add_user(session=session, content="Oolong again today.")
    proposed = _suggest(user, message, "The user likes oolong tea")

    assert _actions(session) == [(message.pk, proposed.pk, "pending")]

    revision.memory_approve(user=user, memory=proposed)

    assert _actions(session) == [(message.pk, proposed.pk, "created")]


def test_rejected_and_deleted_memories_are_no_longer_a_turns_update(user, session):
    message, _topic = chat.message_add_user(session=session, content="Tea and chess.")
    rejected = _suggest(user, message, "The user likes tea")
    deleted = _suggest(user, message, "The user plays chess")

    revision.memory_reject(user=user, memory=rejected)
    from conversations.services.forgetting import memory_forget

    memory_forget(user=user, memory=deleted)

    assert _actions(session) == []


def test_only_the_given_messages_and_only_the_sessions_own_are_listed(say, user, session):
    tea = say(session, "Remember that I like green tea.")
    cats = say(session, "기억해줘: 나는 고양이를 좋아해")
    elsewhere = chat.chat_session_create(user=user)
    say(elsewhere, "I prefer short meetings.")

    only_cats = selectors.session_memory_updates(session=session, message_ids=[cats.pk])

    assert [u.message_id for u in selectors.session_memory_updates(session=session)] == [
        tea.pk,
        cats.pk,
    ]
    assert [u.message_id for u in only_cats] == [cats.pk]


def test_a_memory_the_user_edited_since_counts_as_created_with_its_new_content(say, session):
    message = say(session, "Remember that I like green tea.")
    memory = Memory.objects.get(user=session.user)
    # An edit that keeps the lineage's source message (issue 14 line 6).
    revision.memory_revise(
        memory=memory,
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
        changes=revision.MemoryChanges(content="I like green tea without sugar"),
        source_message_id=message.pk,
        source_session_id=session.pk,
    )

    updates = selectors.session_memory_updates(session=session)

    assert [(u.message_id, u.action, u.content) for u in updates] == [
        (message.pk, "created", "I like green tea without sugar")
    ]


# Undo


def test_undoing_a_created_memory_deletes_it_with_a_receipt(say, user, session):
    message = say(session, "기억해줘: 나는 고양이를 좋아해")
    memory = Memory.objects.get(user=user)

    undone = memory_update_undo(user=user, message=message, memory=memory)

    assert undone.action == "deleted"
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert undone.receipt == DeletionReceipt.objects.get(user=user, memory_id=str(memory.pk))
    assert _actions(session) == []


def test_undoing_an_update_brings_back_the_previous_version(say, user, session):
    first = say(session, "I live in Seoul.")
    second = say(session, "I live in Busan.")
    memory = Memory.objects.get(user=user)
    before = memory.current_version.version

    undone = memory_update_undo(user=user, message=second, memory=memory)

    memory.refresh_from_db()
    assert undone.action == "restored"
    assert memory.status == MemoryStatus.ACTIVE
    assert "Seoul" in memory.current_version.content
    assert memory.current_version.version == before + 1 == undone.version
    assert memory.current_version.source_message_id == first.pk
    # The first message's creation stands again; the undone update is no longer listed.
    assert _actions(session) == [(first.pk, memory.pk, "created")]


def test_undoing_twice_finds_nothing_the_second_time(say, user, session):
    message = say(session, "Remember that I like green tea.")
    memory = Memory.objects.get(user=user)
    memory_update_undo(user=user, message=message, memory=memory)

    with pytest.raises(NothingToUndo):
        memory_update_undo(user=user, message=message, memory=memory)


def test_a_memory_cannot_be_undone_through_a_message_that_did_not_make_it(say, user, session):
    tea = say(session, "Remember that I like green tea.")
    other = say(session, "What a nice day.")
    memory = Memory.objects.get(user=user, current_version__source_message_id=tea.pk)

    with pytest.raises(NothingToUndo):
        memory_update_undo(user=user, message=other, memory=memory)

    assert Memory.objects.filter(pk=memory.pk, status=MemoryStatus.ACTIVE).exists()


def test_another_users_memory_cannot_be_undone(say, user, other_user, session):
    message = say(session, "Remember that I like green tea.")
    memory = Memory.objects.get(user=user)

    with pytest.raises(NothingToUndo):
        memory_update_undo(user=other_user, message=message, memory=memory)

    assert Memory.objects.filter(pk=memory.pk).exists()
