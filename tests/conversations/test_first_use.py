"""First use: sign-up lands in a conversation with a welcome; pages say "conversation" (대화),
never "session" (세션); addresses a person might type reach the page."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse

from conversations.models import ChatSession
from conversations.services import chat

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
WELCOME_EN = "I remember what matters from our conversations"
WELCOME_KO = "중요한 내용을 기억해 두고"


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def _sign_up(client, **headers):
    return client.post(
        reverse("signup"),
        {"username": "haneul", "password1": "a-long-password-9", "password2": "a-long-password-9"},
        follow=True,
        **headers,
    )


def test_sign_up_opens_a_new_conversation_with_the_welcome(client):
    response = _sign_up(client)

    conversation = ChatSession.objects.get(user__username="haneul")
    assert response.redirect_chain[-1][0] == reverse("chat:session-detail", args=[conversation.pk])
    page = response.content.decode()
    assert WELCOME_EN in page
    assert f'href="{reverse("memories:list")}">Memories</a>' in page
    assert 'name="content"' in page  # the composer is there: no extra click to start


def test_the_welcome_is_in_korean_for_a_korean_reader(client):
    page = _sign_up(client, **KO).content.decode()

    assert WELCOME_KO in page
    assert f'href="{reverse("memories:list")}">기억</a>' in page


def test_the_welcome_is_gone_once_the_person_has_written(logged_in, user):
    first = chat.chat_session_create(user=user)
    chat.message_add_user(session=first, content="I am learning to bake bread")
    second = chat.chat_session_create(user=user)

    page = logged_in.get(reverse("chat:session-detail", args=[second.pk])).content.decode()

    assert WELCOME_EN not in page
    assert "No messages yet" in page


def test_a_failed_sign_up_creates_no_conversation(client):
    client.post(reverse("signup"), {"username": "haneul", "password1": "x", "password2": "y"})

    assert not User.objects.filter(username="haneul").exists()
    assert not ChatSession.objects.exists()


def test_the_page_title_is_the_short_title_not_the_message(logged_in, user):
    conversation = chat.chat_session_create(user=user)
    chat.message_add_user(
        session=conversation,
        content="Could you help me plan a weekend trip to Busan with my parents?",
    )

    page = logged_in.get(reverse("chat:session-detail", args=[conversation.pk])).content.decode()
    listing = logged_in.get(reverse("chat:session-list")).content.decode()

    assert "<title>Plan weekend trip Busan · memoryhub</title>" in page
    assert ">Plan weekend trip Busan</a>" in listing


def test_a_conversation_without_a_title_is_new_or_untitled_in_the_readers_language(logged_in, user):
    fresh = chat.chat_session_create(user=user)
    greeted = chat.chat_session_create(user=user)
    chat.message_add_user(session=greeted, content="안녕하세요!")

    fresh_page = logged_in.get(reverse("chat:session-detail", args=[fresh.pk]), **KO)
    greeted_page = logged_in.get(reverse("chat:session-detail", args=[greeted.pk]), **KO)

    assert "<title>새 대화 · memoryhub</title>" in fresh_page.content.decode()
    assert "<title>제목 없는 대화 · memoryhub</title>" in greeted_page.content.decode()


# --- addresses a person might type --------------------------------------------------------


def _typed_addresses(user):
    conversation = chat.chat_session_create(user=user)
    memory_list = reverse("memories:list")
    return conversation, [
        ("/sessions/", "/"),
        (f"/sessions/{conversation.pk}", f"/sessions/{conversation.pk}/"),
        ("/conversations/", "/"),
        (f"/conversations/{conversation.pk}/", f"/sessions/{conversation.pk}/"),
        ("/chat/", "/"),
        ("/chat", "/"),
        (f"/chat/{conversation.pk}/", f"/sessions/{conversation.pk}/"),
        ("/memory/", memory_list),
        ("/memory", memory_list),
        ("/memories", memory_list),
        ("/tags", reverse("chat:tags")),
        ("/receipts/", reverse("memories:receipts")),
        ("/account/", reverse("account:data")),
        ("/accounts/", reverse("account:data")),
        ("/settings", reverse("account:data")),
    ]


def test_every_address_a_person_might_type_reaches_its_page(logged_in, user):
    _conversation, addresses = _typed_addresses(user)

    for typed, page in addresses:
        response = logged_in.get(typed, follow=True)
        assert response.status_code == 200, typed
        assert response.redirect_chain, typed
        assert response.redirect_chain[-1][0] == page, typed


def test_a_typed_address_keeps_its_query_string(logged_in):
    response = logged_in.get("/memory/?q=tea")

    assert response.status_code == 302
    assert response.url == reverse("memories:list") + "?q=tea"


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("/login", "login"),
        ("/login/", "login"),
        ("/signin", "login"),
        ("/signup", "signup"),
        ("/register/", "signup"),
    ],
)
def test_the_account_addresses_work_without_the_accounts_prefix(client, typed, name):
    response = client.get(typed, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse(name)


def test_a_typed_address_of_someone_elses_conversation_is_404(logged_in, other_user):
    theirs = chat.chat_session_create(user=other_user)

    response = logged_in.get(f"/conversations/{theirs.pk}/", follow=True)

    assert response.status_code == 404


def test_a_real_page_wins_over_a_typed_address(logged_in):
    assert logged_in.get("/memories/").status_code == 200
    assert logged_in.get(reverse("chat:tags")).status_code == 200


# --- "conversation", never "session" ------------------------------------------------------


def test_no_page_about_conversations_says_session_in_either_language(logged_in, user):
    active = chat.chat_session_create(user=user)
    chat.message_add_user(session=active, content="주말에 등산 가려고 하는데 코스 추천해 줘")
    ended = chat.chat_session_create(user=user)
    chat.message_add_user(session=ended, content="고양이 사료를 바꿔야 할까?")
    ChatSession.objects.filter(pk=ended.pk).update(
        status=ChatSession.Status.ENDED, summary="고양이 사료 이야기", tags=["고양이"]
    )
    untitled = chat.chat_session_create(user=user)
    pages = [
        reverse("chat:session-list"),
        reverse("chat:session-detail", args=[active.pk]),
        reverse("chat:session-detail", args=[ended.pk]),
        reverse("chat:session-detail", args=[untitled.pk]),
        reverse("chat:session-delete", args=[active.pk]),
        reverse("chat:tags"),
    ]

    for url in pages:
        korean = logged_in.get(url, **KO)
        english = logged_in.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert korean.status_code == english.status_code == 200, url
        assert "세션" not in korean.content.decode(), url
        assert not re.search(r"\bsessions?\b", _visible_text(english), re.I), url


def test_the_sign_up_and_login_pages_in_korean_never_say_session(client):
    for url in (reverse("signup"), reverse("login")):
        assert "세션" not in client.get(url, **KO).content.decode()


def test_no_translation_template_or_script_says_session_in_korean():
    base = Path(settings.BASE_DIR)
    po = (base / "locale" / "ko" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    msgstrs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po, re.MULTILINE)
    files = [*(base / "templates").rglob("*.html"), *(base / "static" / "js").rglob("*.js")]

    assert msgstrs
    assert [s for s in msgstrs if "세션" in s] == []
    assert [str(f) for f in files if "세션" in f.read_text(encoding="utf-8")] == []


def _visible_text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return " ".join(html.split())
