"""The data page: export everything of the user's as JSON, or erase it all (the account
stays, with the receipt)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from conversations.models import ChatSession
from conversations.services import chat
from memories.models import DeletionReceipt, Memory
from memories.services import revision

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def exchange(user):
    """One chat exchange (offline reply): the session, the user's message and the reply."""
    session = chat.chat_session_create(user=user)
    result = chat.chat_exchange(session=session, content="요즘 차를 자주 마셔")
    return session, result.user_message, result.assistant_message


@pytest.fixture
def remember(user):
    """Write a memory as the user would (POST /memories/)."""

    def write(content, type="fact", *, owner=None, **fields):
        return revision.memory_create(user=owner or user, type=type, content=content, **fields)

    return write


def _content(response) -> str:
    return response.content.decode()


def test_export_downloads_all_my_data_as_json(logged_in, user, exchange, remember, other_user):
    remember("I prefer green tea", "preference")
    remember("Their hobby is chess", "fact", owner=other_user)

    response = logged_in.get(reverse("account:data-export"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="memoryhub-export-')
    data = json.loads(response.content)
    assert data["user"]["username"] == user.get_username()
    assert [m["content"] for m in data["memories"]] == ["I prefer green tea"]
    assert data["sessions"][0]["messages"][0]["content"] == "요즘 차를 자주 마셔"
    assert "chess" not in response.content.decode()


def test_erasing_all_data_needs_the_typed_confirmation(logged_in, user, remember):
    remember("I prefer green tea", "preference")

    response = logged_in.post(reverse("account:data-erase"), {"confirm": "yes"})

    assert response.status_code == 400
    assert "exactly" in _content(response)
    assert Memory.objects.filter(user=user).exists()


def test_erasing_all_data_with_the_username_deletes_it_and_shows_the_receipt(
    logged_in, user, exchange, remember
):
    remember("I prefer green tea", "preference")

    response = logged_in.post(
        reverse("account:data-erase"), {"confirm": user.get_username()}, follow=True
    )

    assert not Memory.objects.filter(user=user).exists()
    assert not ChatSession.objects.filter(user=user).exists()
    receipt = DeletionReceipt.objects.get(user=user, kind="all")
    assert response.redirect_chain[-1][0] == reverse("memories:receipt", args=[receipt.id])
    assert "All your data was deleted." in _content(response)


def test_erasing_all_data_disconnects_every_agent_so_its_token_reads_and_writes_nothing(
    logged_in, user
):
    from memories.selectors.agents import agent_authenticate
    from memories.services.agents import agent_create

    _agent, token = agent_create(user=user, name="Cursor", scopes=["read", "write"])

    logged_in.post(reverse("account:data-erase"), {"confirm": user.get_username()})

    assert agent_authenticate(token=token) is None
    receipt = DeletionReceipt.objects.get(user=user, kind="all")
    assert receipt.removed["agents"] == 1


def test_erasing_all_data_also_accepts_the_word_delete(logged_in, user, remember):
    remember("I prefer green tea", "preference")

    logged_in.post(reverse("account:data-erase"), {"confirm": "delete"})

    assert not Memory.objects.filter(user=user).exists()


def test_erasing_only_takes_post(logged_in, user, remember):
    remember("I prefer green tea", "preference")

    assert logged_in.get(reverse("account:data-erase")).status_code == 405
    assert Memory.objects.filter(user=user).exists()


def test_data_page_offers_the_export_and_a_labelled_confirmation(logged_in):
    content = _content(logged_in.get(reverse("account:data")))

    assert reverse("account:data-export") in content
    assert '<label for="id_confirm">' in content
