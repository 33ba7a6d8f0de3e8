import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from conversations.models import ChatSession, Message
from conversations.services import chat, deletion
from conversations.views import _sse_event
from memoryhub import llm

pytestmark = pytest.mark.django_db

CHUNKS = ["Hello", " <b>there</b>", "\nsecond line"]


class ScriptedProvider:
    """Streams fixed chunks, so tests can check exactly what reaches the browser."""

    name = "scripted"

    def __init__(self, chunks: list[str], *, offline: bool = True) -> None:
        self.chunks = chunks
        self.offline = offline
        self.calls = 0

    def stream_reply(self, request: llm.ReplyRequest) -> Iterator[str]:
        self.calls += 1
        yield from self.chunks

    def complete(
        self, *, task: str, prompt: str, system: str = "", max_tokens: int = 64,
        user_id: int | None = None,
    ) -> str:  # fmt: skip
        raise llm.LLMError("no light model in these tests")


@pytest.fixture(autouse=True)
def provider():
    """Replaces the suite's offline provider with one whose chunks the tests know."""
    scripted = ScriptedProvider(CHUNKS)
    llm.set_provider(scripted)
    yield scripted
    llm.set_provider(None)


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def session(user):
    return chat.chat_session_create(user=user)


def _stream(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


def test_session_list_requires_login(client):
    response = client.get(reverse("chat:session-list"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_session_list_only_shows_own_sessions(logged_in, user, other_user):
    mine = chat.chat_session_create(user=user)
    chat.message_add_user(session=mine, content="My trip to Busan")
    theirs = chat.chat_session_create(user=other_user)
    chat.message_add_user(session=theirs, content="Their secret plans")

    response = logged_in.get(reverse("chat:session-list"))

    content = response.content.decode()
    assert "Trip Busan" in content  # the titles: a few content words of the first message
    assert "Secret plans" not in content
    assert reverse("chat:session-detail", args=[theirs.pk]) not in content


def test_untitled_conversation_is_listed_as_untitled_with_tags_and_summary(logged_in, session):
    ChatSession.objects.filter(pk=session.pk).update(
        summary="Planned a hike.", tags=["hiking", "weekend"], last_message_at=session.started_at
    )

    content = logged_in.get(reverse("chat:session-list")).content.decode()

    assert "Untitled conversation" in content
    assert "Planned a hike." in content
    assert "hiking" in content
    assert "Active" in content


def test_new_session_button_creates_a_session_and_opens_it(logged_in, user):
    response = logged_in.post(reverse("chat:session-create"))

    session = ChatSession.objects.get(user=user)
    assert response.status_code == 302
    assert response.url == reverse("chat:session-detail", args=[session.pk])


def test_chat_page_shows_the_messages_and_a_labelled_textarea(logged_in, session):
    chat.chat_exchange(session=session, content="What did I say about kimchi?")

    response = logged_in.get(reverse("chat:session-detail", args=[session.pk]))

    content = response.content.decode()
    assert response.status_code == 200
    assert "What did I say about kimchi?" in content
    assert "Hello &lt;b&gt;there&lt;/b&gt;" in content
    assert '<label for="id_content">' in content
    assert "sse-connect" not in content


def test_other_users_chat_page_is_404(logged_in, other_user):
    theirs = chat.chat_session_create(user=other_user)

    response = logged_in.get(reverse("chat:session-detail", args=[theirs.pk]))

    assert response.status_code == 404


def test_message_link_opens_its_chat_page_at_the_message(logged_in, session):
    exchange = chat.chat_exchange(session=session, content="Where did I put the keys?")
    reply = exchange.assistant_message

    response = logged_in.get(reverse("chat:message-detail", args=[reply.pk]))

    assert response.status_code == 302
    assert (
        response.url == reverse("chat:session-detail", args=[session.pk]) + f"#message-{reply.pk}"
    )
    page = logged_in.get(response.url).content.decode()
    assert f'id="message-{reply.pk}"' in page
    assert f'id="message-{exchange.user_message.pk}"' in page


def test_message_link_of_another_users_message_is_404(logged_in, other_user):
    theirs = chat.chat_exchange(
        session=chat.chat_session_create(user=other_user), content="my private note"
    )

    response = logged_in.get(reverse("chat:message-detail", args=[theirs.user_message.pk]))

    assert response.status_code == 404
    assert "my private note" not in response.content.decode()


def test_message_link_of_a_deleted_message_is_404(logged_in, user, session):
    exchange = chat.chat_exchange(session=session, content="Forget this one")
    deletion.message_delete(user=user, message=exchange.user_message)

    response = logged_in.get(reverse("chat:message-detail", args=[exchange.assistant_message.pk]))

    assert response.status_code == 404


def test_message_link_requires_login(client, user, session):
    exchange = chat.chat_exchange(session=session, content="hello")

    response = client.get(reverse("chat:message-detail", args=[exchange.user_message.pk]))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_posting_to_another_users_session_is_404(logged_in, other_user):
    theirs = chat.chat_session_create(user=other_user)

    response = logged_in.post(
        reverse("chat:message-create", args=[theirs.pk]), {"content": "hello"}
    )

    assert response.status_code == 404
    assert not Message.objects.filter(session=theirs).exists()


def test_sent_message_without_htmx_stores_it_with_the_reply_and_redirects(logged_in, session):
    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]), {"content": "I like hiking"}
    )

    assert response.status_code == 302
    assert response.url == reverse("chat:session-detail", args=[session.pk])
    user_message, reply = Message.objects.filter(session=session).order_by("id")
    assert user_message.content == "I like hiking"
    assert reply.role == Message.Role.ASSISTANT
    assert reply.reply_to == user_message
    assert reply.content == "Hello <b>there</b>\nsecond line"


def test_sent_message_with_htmx_returns_the_exchange_with_its_stream_url(
    logged_in, session, provider
):
    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]),
        {"content": "I like hiking"},
        HTTP_HX_REQUEST="true",
    )

    content = response.content.decode()
    message = Message.objects.get(session=session)
    reply_url = reverse("chat:message-reply", args=[session.pk, message.pk])
    assert response.status_code == 200
    assert "<html" not in content
    assert "I like hiking" in content
    assert 'hx-ext="sse"' in content
    assert f'sse-connect="{reply_url}"' in content
    assert 'id="message-form"' in content and 'hx-swap-oob="true"' in content
    assert provider.calls == 0
    assert not Message.objects.filter(session=session, role=Message.Role.ASSISTANT).exists()


def test_the_first_message_with_htmx_names_the_page_heading_and_title_in_place(logged_in, session):
    url = reverse("chat:message-create", args=[session.pk])

    first = logged_in.post(
        url, {"content": "Help me plan a picnic by the river"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    second = logged_in.post(
        url, {"content": "What should I bring to eat?"}, HTTP_HX_REQUEST="true"
    ).content.decode()

    session.refresh_from_db()
    assert session.title
    heading = re.search(r'<h1 id="chat-title" hx-swap-oob="true">(.*?)</h1>', first, re.S)
    assert heading is not None and heading.group(1).strip() == session.title
    assert f"<title>{session.title} · memoryhub</title>" in first
    assert "chat-title" not in second and "<title>" not in second


def test_the_chat_page_heading_has_the_id_its_update_replaces(logged_in, session):
    page = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert re.search(r'<h1 id="chat-title">\s*New conversation\s*</h1>', page)


def test_chat_page_resumes_a_reply_that_was_never_streamed(logged_in, session):
    message, _topic = chat.message_add_user(session=session, content="Are you there?")

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert reverse("chat:message-reply", args=[session.pk, message.pk]) in content


def test_blank_message_shows_a_form_error(logged_in, session):
    response = logged_in.post(reverse("chat:message-create", args=[session.pk]), {"content": "  "})

    assert response.status_code == 400
    assert "Write a message first." in response.content.decode()
    assert not Message.objects.filter(session=session).exists()


def test_blank_message_with_htmx_replaces_the_form_with_its_error(logged_in, session):
    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]),
        {"content": ""},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#message-form"
    assert response["HX-Reswap"] == "outerHTML"
    assert "Write a message first." in response.content.decode()


def test_too_long_message_shows_a_form_error(logged_in, session, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 10

    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]), {"content": "x" * 11}
    )

    assert response.status_code == 400
    assert "at most 10 characters" in response.content.decode()


def test_message_with_a_nul_byte_shows_a_form_error(logged_in, session):
    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]), {"content": "a\x00b"}
    )

    assert response.status_code == 400
    assert 'class="field__error"' in response.content.decode()
    assert not Message.objects.filter(session=session).exists()


def test_message_to_an_ended_session_says_the_session_has_ended(logged_in, session):
    ChatSession.objects.filter(pk=session.pk).update(status=ChatSession.Status.ENDED)

    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]), {"content": "hello again"}
    )

    content = response.content.decode()
    assert response.status_code == 409
    assert "This conversation has ended" in content
    assert reverse("chat:session-create") in content
    assert not Message.objects.filter(session=session).exists()


def test_message_to_an_ended_session_with_htmx_says_the_session_has_ended(logged_in, session):
    ChatSession.objects.filter(pk=session.pk).update(status=ChatSession.Status.ENDED)

    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]),
        {"content": "hello again"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#message-form"
    assert "This conversation has ended" in response.content.decode()


def test_reply_stream_sends_escaped_chunks_then_a_done_event_with_the_panel(logged_in, session):
    message, _topic = chat.message_add_user(session=session, content="I like hiking")

    response = logged_in.get(reverse("chat:message-reply", args=[session.pk, message.pk]))

    body = _stream(response)
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Accel-Buffering"] == "no"
    assert "event: chunk\ndata: Hello\n\n" in body
    assert "event: chunk\ndata:  &lt;b&gt;there&lt;/b&gt;\n\n" in body
    assert "event: chunk\ndata: \ndata: second line\n\n" in body
    assert "<b>" not in body
    done = body[body.index("event: done\n") :]
    assert '<details class="remembered">' in done
    assert "Nothing from memory was used for this reply." in done
    assert all(line.startswith(("event:", "data:")) for line in done.splitlines() if line)
    reply = Message.objects.get(reply_to=message)
    assert reply.content == "Hello <b>there</b>\nsecond line"


def test_reconnecting_to_a_finished_reply_streams_it_again_without_a_second_reply(
    logged_in, session, provider
):
    message, _topic = chat.message_add_user(session=session, content="I like hiking")
    url = reverse("chat:message-reply", args=[session.pk, message.pk])

    _stream(logged_in.get(url))
    again = _stream(logged_in.get(url))

    assert provider.calls == 1
    assert "event: chunk\ndata: Hello &lt;b&gt;there&lt;/b&gt;\ndata: second line\n\n" in again
    assert "event: done\n" in again
    assert Message.objects.filter(reply_to=message).count() == 1


def test_other_users_reply_url_is_404(logged_in, other_user, provider):
    theirs = chat.chat_session_create(user=other_user)
    message, _topic = chat.message_add_user(session=theirs, content="private")

    response = logged_in.get(reverse("chat:message-reply", args=[theirs.pk, message.pk]))

    assert response.status_code == 404
    assert provider.calls == 0


def test_reply_url_with_a_message_from_another_session_is_404(logged_in, user, session):
    elsewhere = chat.chat_session_create(user=user)
    message, _topic = chat.message_add_user(session=elsewhere, content="elsewhere")

    response = logged_in.get(reverse("chat:message-reply", args=[session.pk, message.pk]))

    assert response.status_code == 404


def test_reply_url_for_an_assistant_message_is_404(logged_in, session):
    exchange = chat.chat_exchange(session=session, content="hello")

    response = logged_in.get(
        reverse("chat:message-reply", args=[session.pk, exchange.assistant_message.pk])
    )

    assert response.status_code == 404


def test_remembered_panel_lists_what_was_put_into_the_reply(logged_in, user, session):
    past = chat.chat_session_create(user=user)
    message, _topic = chat.message_add_user(session=session, content="등산 가고 싶어")
    Message.objects.create(
        session=session, user=user, role=Message.Role.ASSISTANT, content="좋아요!",
        reply_to=message,
        context={
            "session_recall": [
                {"session_id": str(past.pk), "summary": "Talked about Bukhansan.",
                 "tags": ["등산"], "started_at": "2025-03-01T09:00:00+00:00"},
            ],
            "topic_recall": [
                {"topic_id": "7", "keywords": ["북한산"],
                 "messages": [{"role": "user", "content": "지난주 북한산 갔어",
                               "created_at": "2025-03-01T09:05:00+00:00"}]},
            ],
            "memories": [
                {"id": "42", "version": 3, "type": "semantic",
                 "content": "Prefers morning hikes.", "score": 0.8},
            ],
            "tokens": 120,
        },
    )  # fmt: skip

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "Nothing from memory was used" not in content
    assert reverse("chat:session-detail", args=[past.pk]) in content
    assert "Talked about Bukhansan." in content
    assert "북한산" in content and "지난주 북한산 갔어" in content
    assert "Memory 42, version 3" in content
    assert "Prefers morning hikes." in content


def test_reply_without_context_says_nothing_from_memory_was_used(logged_in, session):
    chat.chat_exchange(session=session, content="hello")

    content = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "Nothing from memory was used for this reply." in content


def test_offline_banner_shows_on_every_page(client, logged_in, session):
    banner = "The assistant runs without a language model."
    for url in (reverse("chat:session-list"), reverse("chat:session-detail", args=[session.pk])):
        page = logged_in.get(url).content.decode()
        assert banner in page and "ANTHROPIC_API_KEY" not in page  # no setting for non-staff
    logged_in.logout()
    page = client.get(reverse("login")).content.decode()
    assert banner in page and "ANTHROPIC_API_KEY" not in page


def test_no_offline_banner_when_a_model_is_configured(logged_in):
    llm.set_provider(ScriptedProvider(CHUNKS, offline=False))

    content = logged_in.get(reverse("chat:session-list")).content.decode()

    assert "ANTHROPIC_API_KEY" not in content


def test_pages_load_htmx_from_static_and_send_the_csrf_token(logged_in):
    content = logged_in.get(reverse("chat:session-list")).content.decode()

    assert "/static/vendor/htmx.min.js" in content
    assert "/static/vendor/sse.js" in content
    assert "X-CSRFToken" in content
    assert "https://" not in content


def test_sse_event_puts_every_line_in_its_own_data_field():
    event = _sse_event("chunk", "a\r\nb\rc\nd")

    assert event == b"event: chunk\ndata: a\ndata: b\ndata: c\ndata: d\n\n"


def test_a_refused_message_is_explained_in_the_browsers_language(logged_in, session, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 10
    url = reverse("chat:message-create", args=[session.pk])

    blank = logged_in.post(url, {"content": " "}, HTTP_ACCEPT_LANGUAGE="ko")
    long = logged_in.post(url, {"content": "가" * 11}, HTTP_ACCEPT_LANGUAGE="ko")

    assert "먼저 메시지를 입력하세요." in blank.content.decode()
    assert "최대 10자까지" in long.content.decode()
    assert "must" not in blank.content.decode() + long.content.decode()


def _outline(html: str) -> str:
    found = re.search(r'<aside id="session-outline".*?</aside>', html, re.S)
    assert found is not None, html
    return found.group(0)


def test_a_sent_message_updates_the_topic_outline_in_place(logged_in, session):
    response = logged_in.post(
        reverse("chat:message-create", args=[session.pk]),
        {"content": "Help me plan a vegetable garden on the balcony"},
        HTTP_HX_REQUEST="true",
    )

    outline = _outline(response.content.decode())
    assert 'hx-swap-oob="true"' in outline.split(">", 1)[0]
    assert "1 topic" in outline and "0 topics" not in outline


def test_the_reply_updates_the_topic_outline_with_it(logged_in, session):
    message, _topic = chat.message_add_user(session=session, content="베란다 텃밭 가꾸는 법 알려줘")

    body = _stream(logged_in.get(reverse("chat:message-reply", args=[session.pk, message.pk])))

    done = body[body.index("event: done\n") :]
    outline = _outline("".join(line.removeprefix("data: ") for line in done.splitlines()))
    assert 'hx-swap-oob="true"' in outline.split(">", 1)[0]
    assert "2 messages" in outline and "0 topics" not in outline


def test_the_chat_page_outline_is_not_out_of_band(logged_in, session):
    chat.message_add_user(session=session, content="Help me plan a picnic")

    page = logged_in.get(reverse("chat:session-detail", args=[session.pk])).content.decode()

    assert "hx-swap-oob" not in _outline(page).split(">", 1)[0]
