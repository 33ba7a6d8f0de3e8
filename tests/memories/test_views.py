"""The "my memories" pages: ownership, each action's effect, htmx fragments and no-JS paths."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from conversations.models import Message
from conversations.services import chat
from memories.logic.extraction_schema import ExtractedItem
from memories.models import (
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryStatus,
    MemoryUse,
)
from memories.services import agents, extraction, memory_tool
from memories.views import SUGGESTION_POLL_TRIES
from tests.memories.conftest import current, version_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def suggest(user):
    """A memory the assistant proposed from one exchange: pending until the user decides."""

    def propose(content, *, message_id=None, session_id=None, owner=None, type="preference"):
        outcome = extraction.memory_store_candidate(
            user_id=(owner or user).pk,
            item=ExtractedItem(type=type, content=content, stated_by_user=False, confidence=0.9),
            source_message_id=message_id,
            source_session_id=session_id,
        )
        assert outcome.memory is not None and outcome.memory.status == MemoryStatus.PENDING
        return outcome.memory

    return propose


@pytest.fixture
def exchange(user):
    """One chat exchange (offline reply): the session, the user's message and the reply."""
    session = chat.chat_session_create(user=user)
    result = chat.chat_exchange(session=session, content="요즘 차를 자주 마셔")
    return session, result.user_message, result.assistant_message


def _content(response) -> str:
    return response.content.decode()


# The list


def test_memory_list_needs_login(client):
    response = client.get(reverse("memories:list"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_memory_list_shows_only_the_users_own_memories(logged_in, remember, other_user):
    mine = remember("I prefer short answers", "preference")
    remember("Their secret hobby is chess", "fact", owner=other_user)

    content = _content(logged_in.get(reverse("memories:list")))

    assert "I prefer short answers" in content
    assert reverse("memories:detail", args=[mine.pk]) in content
    assert "chess" not in content


def test_memory_list_filters_by_type_status_and_sensitivity(logged_in, remember, suggest):
    remember("I prefer green tea", "preference")
    remember("My blood type is A", "fact", sensitivity="high")
    suggest("The user may like hiking")

    by_type = _content(logged_in.get(reverse("memories:list"), {"type": "fact"}))
    by_status = _content(logged_in.get(reverse("memories:list"), {"status": "pending"}))
    by_sensitivity = _content(logged_in.get(reverse("memories:list"), {"sensitivity": "high"}))

    assert "blood type" in by_type and "green tea" not in by_type
    assert "hiking" in by_status and "green tea" not in by_status
    assert "blood type" in by_sensitivity and "green tea" not in by_sensitivity


def test_memory_list_expiring_soon_shows_only_memories_expiring_within_a_week(logged_in, remember):
    now = timezone.now()
    remember("The office is closed on Friday", "fact", expires_at=now + timedelta(days=3))
    remember("My passport expires next year", "fact", expires_at=now + timedelta(days=300))
    remember("I live in Busan", "fact")

    content = _content(logged_in.get(reverse("memories:list"), {"expiring": "on"}))

    assert "office is closed" in content
    assert "passport" not in content
    assert "Busan" not in content


def test_memory_list_search_finds_memories_by_their_words(logged_in, remember):
    remember("I prefer green tea in the morning", "preference")
    remember("My sister lives in Daegu", "fact")

    content = _content(logged_in.get(reverse("memories:list"), {"q": "tea"}))

    assert "green tea" in content
    assert "Daegu" not in content
    assert "1 memory matches" in content


def test_memory_list_search_also_finds_memories_by_meaning(logged_in, remember):
    remember("My sister lives in Daegu", "fact")
    remember("I prefer green tea in the morning", "preference")

    content = _content(logged_in.get(reverse("memories:list"), {"q": "where does my family live"}))

    assert "Daegu" in content
    assert "green tea" not in content


def test_memory_list_search_combines_with_filters(logged_in, remember, suggest):
    remember("I prefer green tea", "preference")
    suggest("The user may prefer oolong tea")

    content = _content(logged_in.get(reverse("memories:list"), {"q": "tea", "status": "pending"}))

    assert "oolong" in content
    assert "green tea" not in content


def test_memory_list_counts_the_suggestions_waiting_for_approval(logged_in, suggest):
    suggest("The user may like hiking")
    suggest("The user may work at night", type="fact")

    content = _content(logged_in.get(reverse("memories:list")))

    assert "2 suggestions wait for your approval" in content
    assert f"{reverse('memories:list')}?status=pending" in content


def test_memory_list_paginates(logged_in, remember):
    for number in range(22):
        remember(f"Fact number {number} about me", "fact")

    first = _content(logged_in.get(reverse("memories:list")))
    second = _content(logged_in.get(reverse("memories:list"), {"page": "2"}))

    assert "Page 1 of 2" in first
    assert first.count('class="memory-card"') == 20
    assert second.count('class="memory-card"') == 2
    assert 'rel="next"' in first and 'hx-get="?page=2"' in first


def test_memory_list_with_htmx_returns_only_the_results(logged_in, remember):
    remember("I prefer green tea", "preference")

    response = logged_in.get(reverse("memories:list"), {"q": "tea"}, **HTMX)

    content = _content(response)
    assert content.lstrip().startswith('<section id="memory-results"')
    assert "green tea" in content
    assert "<html" not in content
    assert response["Vary"] and "HX-Request" in response["Vary"]


def test_memory_list_history_restore_gets_the_whole_page(logged_in):
    response = logged_in.get(
        reverse("memories:list"), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX
    )

    assert "<html" in _content(response)


def test_memory_list_search_form_works_without_javascript(logged_in):
    content = _content(logged_in.get(reverse("memories:list")))

    assert f'method="get" action="{reverse("memories:list")}"' in content
    assert '<label for="id_q" class="visually-hidden">' in content
    assert '<label for="id_type">' in content and '<label for="id_expiring">' in content
    assert 'type="submit"' in content


def test_memory_list_ignores_invalid_filter_values(logged_in, remember):
    remember("I prefer green tea", "preference")

    response = logged_in.get(reverse("memories:list"), {"type": "nonsense", "page": "x"})

    assert response.status_code == 200
    assert "green tea" in _content(response)


# A memory's page


def test_memory_page_shows_content_source_expiry_history_and_uses(
    logged_in, user, exchange, remember
):
    session, message, reply = exchange
    expires = timezone.now() + timedelta(days=30)
    memory = remember("I prefer green tea", "preference", expires_at=expires)
    # Stated in the chat: the source is the user's message.
    outcome = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="fact", content="I drink tea every day"),
        source_message_id=message.pk,
        source_session_id=session.pk,
    )
    from_chat = outcome.memory
    assert from_chat is not None
    MemoryUse.objects.create(
        user=user, memory=from_chat, version=version_of(current(from_chat)),
        message_id=reply.pk, rank=1, score=0.8,
    )  # fmt: skip

    page = _content(logged_in.get(reverse("memories:detail", args=[from_chat.pk])))
    other = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))

    assert "I drink tea every day" in page
    source = reverse("chat:message-detail", args=[message.pk])
    assert f'href="{source}"' in page
    assert "Version 1" in page and "Written by you" in page
    assert "in a reply in your chat" in page
    assert f"<td>{reply.pk}</td>" in page  # the reply's number only in the details
    assert f'href="{reverse("chat:message-detail", args=[reply.pk])}"' in page
    assert "Written through the REST API" in other or "Written directly" in other
    assert "Never: kept until you delete it." not in other


def _from_message(content, *, user, session, message):
    outcome = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="fact", content=content),
        source_message_id=message.pk,
        source_session_id=session.pk,
    )
    assert outcome.memory is not None
    return current(outcome.memory)


def test_memory_page_links_lead_into_the_chat_at_the_message(logged_in, user, exchange):
    session, message, reply = exchange
    memory = _from_message("I drink tea every day", user=user, session=session, message=message)
    MemoryUse.objects.create(
        user=user, memory=memory, version=version_of(memory), message_id=reply.pk, rank=1,
        score=0.8,
    )  # fmt: skip

    page = logged_in.get(reverse("memories:detail", args=[memory.pk]))
    followed = logged_in.get(reverse("chat:message-detail", args=[reply.pk]))

    assert f'href="{reverse("chat:message-detail", args=[message.pk])}"' in _content(page)
    assert followed.status_code == 302
    assert (
        followed.url == reverse("chat:session-detail", args=[session.pk]) + f"#message-{reply.pk}"
    )


@pytest.mark.parametrize(
    ("said", "edited"),
    [
        ("매일 차를 마심", "매일 아침 녹차를 마심"),
        ("Drinks tea every day", "Drinks green tea every morning"),
    ],
)
def test_an_edited_memory_still_links_its_message_and_says_you_edited_it(
    logged_in, user, exchange, said, edited
):
    session, message, _reply = exchange
    memory = _from_message(said, user=user, session=session, message=message)

    logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": edited, "type": "fact", "sensitivity": "normal"},
    )
    page = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))

    source = page[page.index("<dt>Source</dt>") : page.index("<dt>Expires</dt>")]
    assert f'href="{reverse("chat:message-detail", args=[message.pk])}"' in source
    assert "Your message in a chat" in source and f"session {session.pk}" not in source
    assert "edited by you" in source
    assert "Written directly" not in source


def test_memory_page_shows_a_deleted_message_without_a_link(logged_in, user, exchange, other_user):
    session, message, reply = exchange
    memory = _from_message("I drink tea every day", user=user, session=session, message=message)
    theirs = chat.chat_exchange(
        session=chat.chat_session_create(user=other_user), content="someone else's chat"
    )
    for message_id in (reply.pk, theirs.assistant_message.pk):
        MemoryUse.objects.create(
            user=user, memory=memory, version=version_of(memory), message_id=message_id,
            rank=1, score=0.8,
        )  # fmt: skip
    deleted = logged_in.delete(f"/api/v1/messages/{message.pk}/")
    assert deleted.status_code == 200, deleted.content
    assert not Message.objects.filter(pk__in=[message.pk, reply.pk]).exists()

    page = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))

    assert "A deleted message" in page
    assert page.count("in a reply that was deleted since") == 2
    assert reverse("chat:message-detail", args=[message.pk]) not in page
    assert reverse("chat:message-detail", args=[reply.pk]) not in page
    assert reverse("chat:message-detail", args=[theirs.assistant_message.pk]) not in page


def test_memory_page_shows_who_approved_each_version(logged_in, user, suggest):
    memory = suggest("The user may like hiking")
    logged_in.post(reverse("memories:approve", args=[memory.pk]))

    content = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))

    assert "Proposed by the assistant" in content
    assert f"approved by {user.get_username()}" in content


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("memories:detail", "get"),
        ("memories:edit", "get"),
        ("memories:edit", "post"),
        ("memories:approve", "post"),
        ("memories:reject", "post"),
        ("memories:wrong", "post"),
        ("memories:wrong-undo", "post"),
        ("account:memory-delete", "get"),
        ("account:memory-delete", "post"),
    ],
)
def test_other_users_memory_pages_and_actions_are_404(
    logged_in, remember, other_user, name, method
):
    theirs = remember("Their secret hobby is chess", "fact", owner=other_user)

    response = getattr(logged_in, method)(reverse(name, args=[theirs.pk]))

    assert response.status_code == 404
    assert "chess" not in _content(response)
    stored = current(theirs)
    assert stored.status == MemoryStatus.ACTIVE and stored.current_version.version == 1


def test_a_missing_memory_is_404(logged_in):
    assert logged_in.get(reverse("memories:detail", args=[999999])).status_code == 404


def test_memory_page_with_htmx_returns_the_body_fragment(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    content = _content(logged_in.get(reverse("memories:detail", args=[memory.pk]), **HTMX))

    assert content.lstrip().startswith('<article id="memory-body"')
    assert "<html" not in content


# Editing


def test_editing_a_memory_adds_a_version_and_shows_the_change_in_history(logged_in, remember):
    memory = remember("I live in Seoul", "fact")

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "I live in Busan", "type": "fact", "sensitivity": "normal"},
    )

    assert response.status_code == 302
    assert response.url == reverse("memories:detail", args=[memory.pk])
    stored = current(memory)
    assert stored.current_version.version == 2
    assert stored.current_version.content == "I live in Busan"
    assert stored.versions.get(version=1).content == "I live in Seoul"
    page = _content(logged_in.get(response.url))
    assert "Version 2" in page and "Version 1" in page
    assert "Seoul</del>" in page and "Busan</ins>" in page
    assert "edited by you" in page


def test_editing_only_the_sensitivity_keeps_the_content_and_its_author(logged_in, suggest):
    memory = suggest("The user may like hiking")
    version = version_of(current(memory))

    logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": version.content, "type": version.type, "sensitivity": "high"},
    )

    stored = current(memory)
    assert stored.current_version.version == 2
    assert stored.current_version.sensitivity == "high"
    assert stored.current_version.created_by == "assistant"
    assert stored.status == MemoryStatus.PENDING


def test_editing_the_expiry_sets_it(logged_in, remember):
    memory = remember("I am in Jeju this week", "episode")

    logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {
            "content": "I am in Jeju this week",
            "type": "episode",
            "sensitivity": "normal",
            "expires_at": "2030-01-02T03:04",
        },
    )

    expires = current(memory).current_version.expires_at
    assert expires is not None and (expires.year, expires.month, expires.day) == (2030, 1, 2)


def test_saving_without_changes_adds_no_version(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "I prefer green tea", "type": "preference", "sensitivity": "normal"},
    )

    assert current(memory).current_version.version == 1


def test_saving_the_same_values_says_nothing_changed_and_a_real_change_still_saves(
    logged_in, remember
):
    memory = remember("Evening runs along the Han river", "preference")
    form = {"content": "Evening runs along the Han river", "type": "preference"}

    unchanged = logged_in.post(
        reverse("memories:edit", args=[memory.pk]), {**form, "sensitivity": "normal"}, follow=True
    )
    changed = logged_in.post(
        reverse("memories:edit", args=[memory.pk]), {**form, "sensitivity": "low"}, follow=True
    )

    assert "Nothing was changed." in _content(unchanged)
    assert "Saved as a new version." in _content(changed)
    assert current(memory).current_version.version == 2


def test_editing_to_a_secret_is_refused_with_a_form_error(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {
            "content": "my password is hunter2-Secret-99",
            "type": "fact",
            "sensitivity": "normal",
        },
    )

    assert response.status_code == 400
    assert "Secrets are never stored" in _content(response)
    assert current(memory).current_version.version == 1


def test_blank_edit_is_a_form_error(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "   ", "type": "preference", "sensitivity": "normal"},
    )

    assert response.status_code == 400
    assert 'class="field__error"' in _content(response)


def test_editing_with_htmx_returns_the_updated_body(logged_in, remember):
    memory = remember("I live in Seoul", "fact")

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "I live in Busan", "type": "fact", "sensitivity": "normal"},
        **HTMX,
    )

    content = _content(response)
    assert response.status_code == 200
    assert content.lstrip().startswith('<article id="memory-body"')
    assert "Busan</ins>" in content


def test_edit_page_without_javascript_opens_the_form(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    content = _content(logged_in.get(reverse("memories:edit", args=[memory.pk])))

    assert '<details class="memory__edit" open>' in content
    assert '<label for="id_content">' in content


# Approve, reject, mark wrong


def test_approving_a_suggestion_makes_it_active_and_goes_back_to_next(logged_in, suggest):
    memory = suggest("The user may like hiking")

    response = logged_in.post(
        reverse("memories:approve", args=[memory.pk]), {"next": "/memories/?status=pending"}
    )

    assert response.status_code == 302
    assert response.url == "/memories/?status=pending"
    assert current(memory).status == MemoryStatus.ACTIVE
    assert AuditEvent.objects.filter(action="approve", target_id=str(memory.pk)).exists()


def test_a_next_url_on_another_site_is_ignored(logged_in, suggest):
    memory = suggest("The user may like hiking")

    response = logged_in.post(
        reverse("memories:approve", args=[memory.pk]), {"next": "https://evil.example/"}
    )

    assert response.url == reverse("memories:detail", args=[memory.pk])


def test_approving_from_the_list_with_htmx_returns_the_row(logged_in, suggest):
    memory = suggest("The user may like hiking")

    response = logged_in.post(
        reverse("memories:approve", args=[memory.pk]), {"fragment": "row"}, **HTMX
    )

    content = _content(response)
    assert content.lstrip().startswith(f'<li class="memory-card" id="memory-row-{memory.pk}"')
    assert "Approved: it will be remembered." in content
    assert reverse("memories:approve", args=[memory.pk]) not in content


def test_rejecting_a_suggestion_means_it_is_never_used(logged_in, suggest):
    memory = suggest("The user may like hiking")

    response = logged_in.post(reverse("memories:reject", args=[memory.pk]))

    assert response.status_code == 302
    assert current(memory).status == MemoryStatus.REJECTED


def test_approving_a_rejected_memory_says_it_cannot(logged_in, suggest):
    memory = suggest("The user may like hiking")
    logged_in.post(reverse("memories:reject", args=[memory.pk]))

    response = logged_in.post(reverse("memories:approve", args=[memory.pk]), follow=True)

    assert "Only a memory waiting for approval can be approved." in _content(response)
    assert current(memory).status == MemoryStatus.REJECTED


def test_actions_only_take_post(logged_in, suggest):
    memory = suggest("The user may like hiking")

    for name in ("memories:approve", "memories:reject", "memories:wrong", "memories:wrong-undo"):
        assert logged_in.get(reverse(name, args=[memory.pk])).status_code == 405
    assert current(memory).status == MemoryStatus.PENDING


def test_marking_wrong_takes_the_memory_out_of_use_and_records_the_reply(
    logged_in, remember, exchange
):
    _session, _message, reply = exchange
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(
        reverse("memories:wrong", args=[memory.pk]), {"message_id": str(reply.pk)}
    )

    assert response.status_code == 302
    stored = current(memory)
    assert stored.status == MemoryStatus.DISPUTED
    assert stored.wrong_count == 1
    assert stored.current_version.version == 1
    event = AuditEvent.objects.get(action="mark_wrong")
    assert event.detail["message_id"] == reply.pk


def test_marking_wrong_from_the_chat_panel_with_htmx_offers_undo_and_correct_it(
    logged_in, remember
):
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(
        reverse("memories:wrong", args=[memory.pk]), {"fragment": "panel", "next": "/"}, **HTMX
    )

    content = _content(response)
    assert content.lstrip().startswith('<div class="panel-memory__wrong action-note"')
    assert "no longer uses it" in content
    assert f'hx-post="{reverse("memories:wrong-undo", args=[memory.pk])}"' in content
    assert f'href="{reverse("memories:edit", args=[memory.pk])}"' in content


def test_undo_from_the_chat_panel_puts_the_memory_back_and_the_button_again(logged_in, remember):
    memory = remember("I prefer green tea", "preference")
    logged_in.post(reverse("memories:wrong", args=[memory.pk]))

    response = logged_in.post(
        reverse("memories:wrong-undo", args=[memory.pk]),
        {"fragment": "panel-undone", "next": "/"},
        **HTMX,
    )

    content = _content(response)
    assert current(memory).status == MemoryStatus.ACTIVE
    assert "Undone" in content
    assert f'hx-post="{reverse("memories:wrong", args=[memory.pk])}"' in content
    assert "I prefer green tea" in content  # the button's accessible name


def test_marking_wrong_on_the_memory_page_with_htmx_shows_undo_and_correct_it(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    content = _content(
        logged_in.post(reverse("memories:wrong", args=[memory.pk]), {"fragment": "detail"}, **HTMX)
    )

    assert content.lstrip().startswith('<article id="memory-body"')
    assert 'badge--disputed">Marked wrong<' in content
    assert "the assistant no longer uses it" in content
    assert f'action="{reverse("memories:wrong-undo", args=[memory.pk])}"' in content
    assert f'href="{reverse("memories:edit", args=[memory.pk])}"' in content
    assert f'action="{reverse("memories:wrong", args=[memory.pk])}"' not in content


def test_undo_without_javascript_goes_back_to_the_memory(logged_in, remember):
    memory = remember("I prefer green tea", "preference")
    logged_in.post(reverse("memories:wrong", args=[memory.pk]))

    response = logged_in.post(reverse("memories:wrong-undo", args=[memory.pk]), follow=True)

    assert current(memory).status == MemoryStatus.ACTIVE
    assert "Undone: the memory is as it was." in _content(response)


def test_undo_of_a_memory_not_marked_wrong_says_so(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(reverse("memories:wrong-undo", args=[memory.pk]), follow=True)

    assert "This memory is not marked wrong." in _content(response)
    assert current(memory).status == MemoryStatus.ACTIVE


def test_correct_it_opens_the_edit_form_with_the_text_ready(logged_in, remember):
    memory = remember("I live in Seoul", "fact")
    logged_in.post(reverse("memories:wrong", args=[memory.pk]))

    content = _content(logged_in.get(reverse("memories:edit", args=[memory.pk])))

    assert '<details class="memory__edit" open>' in content
    assert "autofocus" in content[content.index('id="id_content"') - 200 :][:400]


def test_saving_a_correction_puts_the_memory_back_in_use(logged_in, remember):
    memory = remember("I live in Seoul", "fact")
    logged_in.post(reverse("memories:wrong", args=[memory.pk]))

    logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "I live in Busan", "type": "fact", "sensitivity": "normal"},
    )

    stored = current(memory)
    assert stored.status == MemoryStatus.ACTIVE
    assert stored.current_version.content == "I live in Busan"


def test_memory_list_filters_the_memories_marked_wrong_and_labels_them(logged_in, remember):
    wrong = remember("I live in Seoul", "fact")
    remember("I prefer green tea", "preference")
    logged_in.post(reverse("memories:wrong", args=[wrong.pk]))

    everything = _content(logged_in.get(reverse("memories:list")))
    only_wrong = _content(logged_in.get(reverse("memories:list"), {"status": "disputed"}))

    assert 'badge--disputed">Marked wrong<' in everything
    assert '<option value="disputed">Marked wrong</option>' in everything
    assert "I live in Seoul" in only_wrong and "green tea" not in only_wrong
    assert f'action="{reverse("memories:wrong-undo", args=[wrong.pk])}"' in only_wrong
    assert f'href="{reverse("memories:edit", args=[wrong.pk])}"' in only_wrong


def test_undo_from_the_list_with_htmx_returns_the_row(logged_in, remember):
    memory = remember("I live in Seoul", "fact")
    logged_in.post(reverse("memories:wrong", args=[memory.pk]))

    content = _content(
        logged_in.post(
            reverse("memories:wrong-undo", args=[memory.pk]), {"fragment": "row"}, **HTMX
        )
    )

    assert content.lstrip().startswith(f'<li class="memory-card" id="memory-row-{memory.pk}"')
    assert "badge--disputed" not in content


# Deleting and receipts


def test_delete_asks_for_confirmation_first(logged_in, remember):
    memory = remember("I prefer green tea", "preference")

    response = logged_in.get(reverse("account:memory-delete", args=[memory.pk]))

    assert response.status_code == 200
    assert "Delete this memory for good?" in _content(response)
    assert Memory.objects.filter(pk=memory.pk).exists()


def test_deleting_removes_the_memory_and_shows_the_receipt(logged_in, user, remember):
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(reverse("account:memory-delete", args=[memory.pk]), follow=True)

    assert not Memory.objects.filter(pk=memory.pk).exists()
    receipt = DeletionReceipt.objects.get(user=user)
    assert response.redirect_chain[-1][0] == reverse("memories:receipt", args=[receipt.id])
    content = _content(response)
    assert "The memory was deleted for good." in content
    assert str(receipt.id) in content
    assert "1 saved version of the text was deleted." in content
    assert "green tea" not in content


def test_receipts_page_lists_only_the_users_receipts(logged_in, user, other_user, remember):
    mine = remember("I prefer green tea", "preference")
    theirs = remember("Their hobby is chess", "fact", owner=other_user)
    logged_in.post(reverse("account:memory-delete", args=[mine.pk]))
    from memories.services.deletion import memory_delete
    from memories.services.receipts import NO_COPIES

    their_receipt = memory_delete(user=other_user, memory=theirs, copies=NO_COPIES)

    content = _content(logged_in.get(reverse("memories:receipts")))

    assert reverse("memories:receipt", args=[DeletionReceipt.objects.get(user=user).id]) in content
    assert str(their_receipt.id) not in content


def test_other_users_receipt_is_404(logged_in, other_user, remember):
    from memories.services.deletion import memory_delete
    from memories.services.receipts import NO_COPIES

    theirs = remember("Their hobby is chess", "fact", owner=other_user)
    receipt = memory_delete(user=other_user, memory=theirs, copies=NO_COPIES)

    assert logged_in.get(reverse("memories:receipt", args=[receipt.id])).status_code == 404


# Suggestions in the chat panel


def test_suggestions_fragment_lists_what_was_proposed_from_the_exchange(
    logged_in, exchange, suggest
):
    session, message, _reply = exchange
    suggest("The user may like tea", message_id=message.pk, session_id=session.pk)
    suggest("Unrelated suggestion from elsewhere")

    response = logged_in.get(reverse("memories:suggestions"), {"message": message.pk}, **HTMX)

    content = _content(response)
    assert content.lstrip().startswith('<section class="suggestions"')
    assert "The user may like tea" in content
    assert "Unrelated suggestion" not in content
    assert 'name="fragment" value="suggestion"' in content


def test_suggestions_fragment_asks_again_until_extraction_has_run(logged_in, exchange):
    _session, message, _reply = exchange
    ExtractionRun.objects.filter(source_message_id=message.pk).delete()

    waiting = _content(
        logged_in.get(reverse("memories:suggestions"), {"message": message.pk}, **HTMX)
    )
    ExtractionRun.objects.create(
        user_id=message.user_id, source_message_id=message.pk, provider="offline", status="done"
    )
    finished = _content(
        logged_in.get(reverse("memories:suggestions"), {"message": message.pk}, **HTMX)
    )
    gave_up = _content(
        logged_in.get(
            reverse("memories:suggestions"),
            {"message": message.pk + 1, "tries": SUGGESTION_POLL_TRIES},
            **HTMX,
        )
    )

    assert 'hx-trigger="load delay:2s"' in waiting and "tries=1" in waiting
    assert finished.strip() == ""
    assert gave_up.strip() == ""


def test_approving_a_suggestion_from_the_panel_with_htmx_returns_it_approved(
    logged_in, exchange, suggest
):
    session, message, _reply = exchange
    memory = suggest("The user may like tea", message_id=message.pk, session_id=session.pk)

    response = logged_in.post(
        reverse("memories:approve", args=[memory.pk]), {"fragment": "suggestion"}, **HTMX
    )

    content = _content(response)
    assert content.lstrip().startswith(f'<li class="suggestion" id="suggestion-{memory.pk}"')
    assert "Approved: it will be remembered." in content
    assert current(memory).status == MemoryStatus.ACTIVE


def test_suggestions_page_without_javascript_lists_them_with_a_way_back(
    logged_in, exchange, suggest
):
    session, message, _reply = exchange
    suggest("The user may like tea", message_id=message.pk, session_id=session.pk)
    back = reverse("chat:session-detail", args=[session.pk])

    content = _content(
        logged_in.get(reverse("memories:suggestions"), {"message": message.pk, "next": back})
    )

    assert "<html" in content
    assert "The user may like tea" in content
    assert f'href="{back}"' in content


def test_suggestions_of_another_users_message_are_not_shown(logged_in, other_user, suggest):
    theirs = chat.chat_session_create(user=other_user)
    message, _topic = chat.message_add_user(session=theirs, content="private")
    suggest("Their private suggestion", message_id=message.pk, owner=other_user)

    content = _content(
        logged_in.get(reverse("memories:suggestions"), {"message": message.pk}, **HTMX)
    )

    assert "Their private suggestion" not in content


def test_chat_panel_links_each_memory_and_offers_this_is_wrong(logged_in, user, remember):
    memory = remember("I prefer green tea", "preference")
    session = chat.chat_session_create(user=user)
    message, _topic = chat.message_add_user(session=session, content="what do I drink?")
    reply = Message.objects.create(
        session=session, user=user, role=Message.Role.ASSISTANT, content="Green tea.",
        reply_to=message,
        context={"memories": [{"id": str(memory.pk), "version": 1, "type": "preference",
                               "content": "I prefer green tea", "score": 0.9}]},
    )  # fmt: skip

    content = _content(logged_in.get(reverse("chat:session-detail", args=[session.pk])))

    assert f'href="{reverse("memories:detail", args=[memory.pk])}"' in content
    assert f"Memory {memory.pk}, version 1" in content
    assert f'action="{reverse("memories:wrong", args=[memory.pk])}"' in content
    assert f'name="message_id" value="{reply.pk}"' in content
    # What the turn remembers shows under the reply (conversations' memory notices).
    assert reverse("chat:message-memory-updates", args=[message.pk]) in content


def test_reply_stream_panel_carries_the_memory_notices(logged_in, user):
    session = chat.chat_session_create(user=user)
    message, _topic = chat.message_add_user(session=session, content="I like hiking")

    response = logged_in.get(reverse("chat:message-reply", args=[session.pk, message.pk]))

    body = b"".join(response.streaming_content).decode()
    done = body[body.index("event: done\n") :]
    assert reverse("chat:message-memory-updates", args=[message.pk]) in done


# The access log


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="root", password="a-long-password-9")


def test_access_log_shows_staff_views_and_changes_with_who_and_when(
    client, logged_in, user, staff, remember
):
    memory = remember("I prefer green tea", "preference")
    staff_client = client.__class__()
    staff_client.force_login(staff)
    staff_client.get(f"/admin/memories/memory/{memory.pk}/change/")

    content = _content(logged_in.get(reverse("memories:access-log")))

    assert "Viewed by staff" in content
    assert "root" in content
    assert reverse("memories:detail", args=[memory.pk]) in content
    event = AuditEvent.objects.get(action="staff_view")
    assert f'<time datetime="{timezone.localtime(event.created_at).isoformat()}' in content


def test_access_log_leaves_out_the_users_own_actions(logged_in, suggest):
    memory = suggest("The user may like hiking")
    logged_in.post(reverse("memories:approve", args=[memory.pk]))

    content = _content(logged_in.get(reverse("memories:access-log")))

    assert "No staff member has opened or changed your memories or chats." in content


# All of one's data


def test_every_page_needs_login(client, remember):
    memory = remember("I prefer green tea", "preference")
    for url in (
        reverse("memories:list"),
        reverse("memories:detail", args=[memory.pk]),
        reverse("memories:receipts"),
        reverse("memories:access-log"),
        reverse("account:data"),
        reverse("account:data-export"),
        reverse("memories:suggestions"),
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login"))


def test_nav_links_to_my_memories(logged_in):
    content = _content(logged_in.get(reverse("chat:session-list")))

    assert f'href="{reverse("memories:list")}"' in content


def test_pages_are_in_korean_for_a_korean_browser(logged_in, remember):
    memory = remember("나는 녹차를 좋아해", "preference")

    listing = _content(logged_in.get(reverse("memories:list"), HTTP_ACCEPT_LANGUAGE="ko"))
    detail = _content(
        logged_in.get(reverse("memories:detail", args=[memory.pk]), HTTP_ACCEPT_LANGUAGE="ko")
    )

    assert '<html lang="ko">' in listing
    assert "내 기억" in listing
    assert "기록" in detail


def test_a_refused_edit_says_why_in_the_pages_language(logged_in, remember, settings):
    settings.MEMORYHUB_VOLATILE_EXPIRY_HOURS = 0  # volatile facts are not stored at all
    memory = remember("I prefer green tea", "preference")

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "오늘 날씨는 맑음", "type": "fact", "sensitivity": "normal"},
        HTTP_ACCEPT_LANGUAGE="ko",
    )

    assert response.status_code == 400
    assert "너무 자주 바뀌는 정보라 기억하지 않습니다" in _content(response)
    assert current(memory).current_version.version == 1


def _source_line(client, memory_id):
    page = _content(client.get(reverse("memories:detail", args=[memory_id])))
    return page[page.index("<dt>Source</dt>") : page.index("<dt>Expires</dt>")]


def test_a_memory_written_through_the_api_says_so_not_that_you_wrote_it_here(logged_in, api):
    made = api.post("/api/v1/memories/", {"type": "fact", "content": "Keeps bees"}, format="json")

    source = _source_line(logged_in, made.json()["id"])

    assert "REST API with your API key" in source
    assert "on this site" not in source


def test_a_memory_an_agent_wrote_names_the_agent(logged_in, user):
    agent, _token = agents.agent_create(user=user, name="Garden planner", scopes=["read", "write"])
    memory = agents.agent_memory_add(agent=agent, content="Grows tomatoes on the balcony")

    source = _source_line(logged_in, memory.pk)

    assert "connected agent" in source
    assert f'href="{reverse("account:agent", args=[agent.pk])}">Garden planner</a>' in source
    assert "Written directly" not in source


def test_a_memory_the_assistant_wrote_with_its_tool_says_the_assistant_wrote_it(logged_in, user):
    memory_tool.memory_tool_execute(
        user=user,
        command={"command": "create", "path": "/memories/bees.md", "file_text": "Keeps bees"},
    )
    memory = Memory.objects.get(user=user)

    source = _source_line(logged_in, memory.pk)

    assert "assistant" in source and "Written directly" not in source


def test_an_api_edit_of_an_agents_memory_says_both_writers(logged_in, user, api):
    agent, _token = agents.agent_create(user=user, name="Garden planner", scopes=["read", "write"])
    memory = agents.agent_memory_add(agent=agent, content="Grows tomatoes on the balcony")
    api.patch(f"/api/v1/memories/{memory.pk}/", {"content": "Grows basil"}, format="json")

    source = _source_line(logged_in, memory.pk)

    assert ">Garden planner</a>" in source
    assert "edited through the REST API with your API key" in source


def test_the_page_names_the_writer_in_korean_too(client, user, api):
    client.force_login(user)
    made = api.post("/api/v1/memories/", {"type": "fact", "content": "벌을 키움"}, format="json")

    page = _content(
        client.get(reverse("memories:detail", args=[made.json()["id"]]), HTTP_ACCEPT_LANGUAGE="ko")
    )

    assert "내 API 키로 REST API를 통해" in page
