"""The chat's notices of what a turn remembered, their undo, and `memory_updates` in the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from conversations.services import chat
from conversations.tasks import exchange_extract
from conversations.views import NOTICE_POLL_TRIES
from memories.logic.extraction_schema import ExtractedItem
from memories.models import DeletionReceipt, ExtractionRun, Memory
from memories.services import extraction

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def session(user):
    return chat.chat_session_create(user=user)


@pytest.fixture
def say(django_capture_on_commit_callbacks, monkeypatch):
    """One exchange; `extract=False` leaves the extraction task unrun, as a busy worker would."""

    def exchange(session, text, *, extract=True):
        queued: list[dict] = []
        monkeypatch.setattr(exchange_extract, "delay", lambda **kw: queued.append(kw))
        message, _topic = chat.message_add_user(session=session, content=text)
        with django_capture_on_commit_callbacks(execute=True):
            "".join(chat.reply_stream(message=message))
        if extract:
            for kwargs in queued:
                exchange_extract(**kwargs)
        return message

    return exchange


def _html(response):
    return response.content.decode()


def _notices(client, message, *, language="en", **params):
    url = reverse("chat:message-memory-updates", args=[message.pk])
    return client.get(url, params, HTTP_ACCEPT_LANGUAGE=language, **HTMX)


def _undo(client, message, memory, **headers):
    url = reverse("chat:memory-update-undo", args=[message.pk, memory.pk])
    return client.post(url, **headers)


# The chat page and the poller


def test_the_chat_page_shows_what_each_turn_remembered_with_view_and_undo(logged_in, session, say):
    message = say(session, "Remember that I like green tea.")
    memory = Memory.objects.get(user=session.user)

    content = _html(logged_in.get(reverse("chat:session-detail", args=[session.pk])))

    assert "Remembered:" in content
    assert memory.current_version.content in content
    assert f'href="{reverse("memories:detail", args=[memory.pk])}"' in content
    assert reverse("chat:memory-update-undo", args=[message.pk, memory.pk]) in content
    # The notices replace the link that could open an empty suggestions page.
    assert reverse("memories:suggestions") not in content


def test_the_chat_page_speaks_korean_to_a_korean_browser(logged_in, session, say):
    say(session, "나 서울에 살아")
    say(session, "나 부산에 살아")

    content = _html(
        logged_in.get(reverse("chat:session-detail", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="ko")
    )

    assert "기억을 고쳤어요:" in content
    assert "되돌리기" in content and "보기" in content
    assert "Memory updated" not in content


def test_a_suggestion_shows_approve_and_reject_in_place(logged_in, user, session, say):
    message = say(session, "Oolong again today.")
    proposed = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(
            type="preference", content="The user likes oolong", stated_by_user=False
        ),
        source_message_id=message.pk,
        source_session_id=session.pk,
    ).memory

    content = _html(_notices(logged_in, message))

    assert f'id="suggestion-{proposed.pk}"' in content
    assert "The user likes oolong" in content
    assert f'hx-post="{reverse("memories:approve", args=[proposed.pk])}"' in content
    assert f'hx-post="{reverse("memories:reject", args=[proposed.pk])}"' in content
    assert 'name="fragment" value="suggestion"' in content
    assert "Undo" not in content


def test_the_reply_stream_ends_with_a_poller_for_the_turns_notices(logged_in, session):
    message, _topic = chat.message_add_user(session=session, content="I like hiking")

    response = logged_in.get(reverse("chat:message-reply", args=[session.pk, message.pk]))

    body = b"".join(response.streaming_content).decode()
    done = body[body.index("event: done\n") :]
    assert reverse("chat:message-memory-updates", args=[message.pk]) in done
    assert 'aria-live="polite"' in done


def test_the_poller_asks_again_until_extraction_has_run_then_shows_the_notice(
    logged_in, session, say
):
    message = say(session, "Remember that I like green tea.", extract=False)

    waiting = _html(_notices(logged_in, message))
    exchange_extract(message_id=message.pk)
    arrived = _html(_notices(logged_in, message, tries=1))

    assert 'hx-trigger="load delay:2s"' in waiting and "tries=1" in waiting
    assert "Remembered:" not in waiting
    assert "Remembered:" in arrived and "green tea" in arrived
    assert "hx-trigger" not in arrived.split("<form")[0]


def test_the_poller_stops_when_extraction_found_nothing_or_it_has_asked_enough(
    logged_in, session, say
):
    nothing = say(session, "What a nice day.")
    stuck = say(session, "Remember that I like green tea.", extract=False)

    finished = _html(_notices(logged_in, nothing))
    gave_up = _html(_notices(logged_in, stuck, tries=NOTICE_POLL_TRIES))

    assert ExtractionRun.objects.filter(source_message_id=nothing.pk).exists()
    assert finished.strip() == ""
    assert gave_up.strip() == ""


def test_the_chat_page_polls_only_for_the_newest_turn_still_being_extracted(
    logged_in, session, say
):
    done = say(session, "What a nice day.")
    newest = say(session, "Remember that I like green tea.", extract=False)

    content = _html(logged_in.get(reverse("chat:session-detail", args=[session.pk])))

    assert reverse("chat:message-memory-updates", args=[newest.pk]) in content
    assert reverse("chat:message-memory-updates", args=[done.pk]) not in content


def test_the_poller_without_javascript_goes_to_the_message_in_its_chat(logged_in, session, say):
    message = say(session, "Remember that I like green tea.")

    response = logged_in.get(reverse("chat:message-memory-updates", args=[message.pk]))

    assert response.status_code == 302
    assert response.url == reverse("chat:message-detail", args=[message.pk])


def test_notices_of_another_users_message_are_404(logged_in, other_user, say):
    theirs = chat.chat_session_create(user=other_user)
    message = say(theirs, "Remember that I like green tea.")
    memory = Memory.objects.get(user=other_user)

    assert _notices(logged_in, message).status_code == 404
    assert _undo(logged_in, message, memory, **HTMX).status_code == 404
    assert Memory.objects.filter(pk=memory.pk).exists()


def test_a_bad_tries_parameter_is_400(logged_in, session, say):
    message = say(session, "Remember that I like green tea.")

    assert _notices(logged_in, message, tries="²").status_code == 400


# Undo


def test_undo_with_htmx_deletes_the_memory_and_links_the_receipt(logged_in, session, say):
    message = say(session, "기억해줘: 나는 고양이를 좋아해")
    memory = Memory.objects.get(user=session.user)

    response = _undo(logged_in, message, memory, HTTP_ACCEPT_LANGUAGE="ko", **HTMX)

    content = _html(response)
    receipt = DeletionReceipt.objects.get(memory_id=str(memory.pk))
    assert response.status_code == 200
    assert content.lstrip().startswith('<li class="memory-notice memory-notice--undone"')
    assert f'id="memory-notice-{message.pk}-{memory.pk}"' in content
    assert reverse("memories:receipt", args=[receipt.id]) in content
    assert "되돌렸어요" in content
    assert not Memory.objects.filter(pk=memory.pk).exists()


def test_undo_without_javascript_goes_back_to_the_chat_with_a_message(logged_in, session, say):
    message = say(session, "I live in Seoul.")
    moved = say(session, "I live in Busan.")
    memory = Memory.objects.get(user=session.user)

    response = _undo(logged_in, moved, memory)
    page = _html(logged_in.get(reverse("chat:session-detail", args=[session.pk])))

    memory.refresh_from_db()
    assert response.status_code == 302
    assert response.url == reverse("chat:message-detail", args=[moved.pk])
    assert "Seoul" in memory.current_version.content
    assert "Undone: the memory is back to its previous version." in page
    assert reverse("chat:memory-update-undo", args=[message.pk, memory.pk]) in page


def test_undo_of_something_no_longer_standing_says_so(logged_in, session, say):
    first = say(session, "I live in Seoul.")
    say(session, "I live in Busan.")
    memory = Memory.objects.get(user=session.user)

    # The first turn's notice is still on a page that was not reloaded since the second.
    stale = _undo(logged_in, first, memory, **HTMX)

    memory.refresh_from_db()
    assert stale.status_code == 200
    assert "There is nothing to undo here any more." in _html(stale)
    assert 'role="alert"' in _html(stale)
    assert "Busan" in memory.current_version.content


def test_undo_of_another_users_memory_through_ones_own_message_is_404(
    logged_in, other_user, session, say
):
    message = say(session, "Remember that I like green tea.")
    theirs = chat.chat_session_create(user=other_user)
    say(theirs, "I prefer short meetings.")
    their_memory = Memory.objects.get(user=other_user)

    assert _undo(logged_in, message, their_memory, **HTMX).status_code == 404
    assert Memory.objects.filter(pk=their_memory.pk).exists()


def test_undo_only_answers_post(logged_in, session, say):
    message = say(session, "Remember that I like green tea.")
    memory = Memory.objects.get(user=session.user)

    response = logged_in.get(reverse("chat:memory-update-undo", args=[message.pk, memory.pk]))

    assert response.status_code == 405
    assert Memory.objects.filter(pk=memory.pk).exists()


# The API


def test_session_detail_api_lists_the_memory_updates_of_its_turns(api, user, session, say):
    tea = say(session, "Remember that I like green tea.")
    say(session, "I live in Seoul.")
    moved = say(session, "I live in Busan.")
    tea_memory = Memory.objects.get(user=user, current_version__source_message_id=tea.pk)
    home = Memory.objects.get(user=user, current_version__source_message_id=moved.pk)

    body = api.get(f"/api/v1/sessions/{session.pk}/").json()

    assert body["memory_updates"] == [
        {
            "memory_id": str(tea_memory.pk),
            "action": "created",
            "message_id": str(tea.pk),
            "content": tea_memory.current_version.content,
        },
        {
            "memory_id": str(home.pk),
            "action": "updated",
            "message_id": str(moved.pk),
            "content": home.current_version.content,
        },
    ]


def test_session_detail_api_lists_a_suggestion_as_pending(api, user, session, say):
    message = say(session, "Oolong again today.")
    proposed = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(
            type="preference", content="The user likes oolong", stated_by_user=False
        ),
        source_message_id=message.pk,
        source_session_id=session.pk,
    ).memory

    body = api.get(f"/api/v1/sessions/{session.pk}/").json()

    assert body["memory_updates"] == [
        {
            "memory_id": str(proposed.pk),
            "action": "pending",
            "message_id": str(message.pk),
            "content": "The user likes oolong",
        }
    ]


def test_session_detail_api_has_no_memory_updates_for_a_session_that_remembered_nothing(
    api, session, say
):
    say(session, "What a nice day.")

    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["memory_updates"] == []


def test_the_schema_documents_memory_updates(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()

    update = schema["components"]["schemas"]["MemoryUpdateOutput"]
    assert set(update["properties"]) == {"memory_id", "action", "message_id", "content"}
    action = update["properties"]["action"]
    if "$ref" in action:
        action = schema["components"]["schemas"][action["$ref"].rsplit("/", 1)[-1]]
    assert action["enum"] == ["created", "updated", "pending"]
    session = schema["components"]["schemas"]["SessionOutput"]
    assert "memory_updates" in session["properties"]
