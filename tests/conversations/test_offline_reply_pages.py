"""No internal marker reaches a person's page (issue 14 line 9): every page that shows reply
text, after offline exchanges in Korean and English that recall, find and quote stored text."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from conversations.models import Message
from conversations.services import chat, indexing
from memories.models import Memory, MemoryVersion
from memories.services import revision

pytestmark = pytest.mark.django_db

MARKERS = re.compile(
    r"\[(?:message|memory|session|topic)\b|\(nothing found\)|\[removed\]|\[redacted:|"
    r"\[withheld:|\d{4}-\d\d-\d\dT\d\d:\d\d|ANTHROPIC_API_KEY|MEMORYHUB_[A-Z_]+"
)
_TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.DOTALL)


def _visible(html: str) -> str:
    """The page's text as a person reads it (attributes and scripts are not read)."""
    return unescape(_TAG.sub(" ", html))


def _exchange(user, session, text):
    message, _ = chat.message_add_user(session=session, content=text)
    "".join(chat.reply_stream(message=message))
    indexing.messages_embed_pending(user_id=user.pk)
    return message


SCENARIOS = {
    "ko": ["나 다음 주 금요일에 부산 출장 가기로 했어. 비번은 hunter2-Lake7이야",
           "출장 뭐 하기로 했었지?", "지금 어디 살지?", "오늘 기분 어때?"],
    "en": ["I'm flying to Busan for a business trip next Friday, password is hunter2-Lake7",
           "what did I plan for the trip?", "where do I live now?", "how is the weather?"],
}  # fmt: skip
RESIDENCE = {"ko": "부산 해운대에 삶", "en": "Lives in Haeundae, Busan"}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_no_internal_marker_reaches_a_page_that_shows_reply_text(client, user, language):
    statement, *questions = SCENARIOS[language]
    earlier = chat.chat_session_create(user=user)
    source = _exchange(user, earlier, statement)
    memory = revision.memory_create(user=user, type="fact", content=RESIDENCE[language])
    MemoryVersion.objects.filter(memory=memory).update(slot="residence",
                                                       source_message_id=source.pk)  # fmt: skip
    Memory.objects.filter(pk=memory.pk).update(slot="residence")
    session = chat.chat_session_create(user=user)
    for question in questions:
        _exchange(user, session, question)
    replies = Message.objects.filter(session=session, role=Message.Role.ASSISTANT)
    assert replies.count() == len(questions)
    client.force_login(user)
    header = {"HTTP_ACCEPT_LANGUAGE": language}

    pages = {
        "chat": reverse("chat:session-detail", args=[session.pk]),
        "earlier chat": reverse("chat:session-detail", args=[earlier.pk]),
        "sessions": reverse("chat:session-list"),
        "memories": reverse("memories:list"),
        "memory search": reverse("memories:list") + "?q=" + RESIDENCE[language].split()[0],
        "memory and its source": reverse("memories:detail", args=[memory.pk]),
    }
    for name, url in pages.items():
        response = client.get(url, follow=True, **header)
        assert response.status_code == 200, name
        found = MARKERS.findall(_visible(response.content.decode()))
        assert not found, (name, found)


def test_the_offline_banner_tells_a_person_only_that_there_is_no_language_model(
    client, user, admin_user
):
    client.force_login(user)
    page = _visible(client.get(reverse("chat:session-list"), HTTP_ACCEPT_LANGUAGE="en")
                    .content.decode())  # fmt: skip
    korean = _visible(client.get(reverse("chat:session-list"), HTTP_ACCEPT_LANGUAGE="ko")
                      .content.decode())  # fmt: skip
    client.force_login(admin_user)
    staff = _visible(client.get(reverse("chat:session-list"), HTTP_ACCEPT_LANGUAGE="en")
                     .content.decode())  # fmt: skip

    assert "The assistant runs without a language model." in page
    assert "언어 모델 없이" in korean
    assert "ANTHROPIC_API_KEY" not in page and "ANTHROPIC_API_KEY" not in korean
    assert "ANTHROPIC_API_KEY" in staff  # staff may see how to connect one


def test_a_streamed_reply_shows_a_marker_split_over_chunks_in_words():
    from django.utils import translation

    from conversations.views import _shown

    chunks = ["비번은", " “[redacted:", " password]야”라고", " 하셨어요. [removed]", " 끝"]
    with translation.override("ko"):
        shown = "".join(_shown(chunks))

    assert shown == "비번은 “(비밀번호 가림)야”라고 하셨어요. (삭제됨) 끝"


def test_a_lone_bracket_in_a_streamed_reply_is_not_held_back_forever():
    from conversations.views import _shown

    chunks = ["a [", *(" word" for _ in range(40)), " end"]

    shown = list(_shown(chunks))

    assert "".join(shown) == "a [" + " word" * 40 + " end"
    assert len(shown) > 2
