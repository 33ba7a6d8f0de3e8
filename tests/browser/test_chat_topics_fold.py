"""A live conversation's topics on a phone come folded, so its messages are not pushed below
the first screen; a wide screen shows them open beside the messages (issue 19 line 5)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conversations.services import chat
from memoryhub import embeddings, text

pytestmark = pytest.mark.browser

SAID = {
    "ko": ["이번 주말에 베란다 화분 분갈이를 하려고 해", "흙은 어떤 걸 사야 할까?"],
    "en": ["I am repotting the balcony plants this weekend", "Which soil should I buy?"],
}


@pytest.fixture(scope="module", autouse=True)
def _models_loaded():
    text.warm_up()
    embeddings.embed_passages(["준비 ready"])


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_live_conversations_topics_are_folded_on_a_phone_and_open_when_wide(
    browser, site, user, log_in, screenshot, language
):
    conversation = chat.chat_session_create(user=user)
    for said in SAID[language]:
        message, _topic = chat.message_add_user(session=conversation, content=said)
        "".join(chat.reply_stream(message=message))
    shown = {}
    for device, viewport in (
        ("phone", {"width": 390, "height": 844}),
        ("desktop", {"width": 1280, "height": 900}),
    ):
        phone = device == "phone"
        context = browser.new_context(
            locale="ko-KR" if language == "ko" else "en-US",
            viewport=viewport,
            has_touch=phone,
            is_mobile=phone,
        )
        page = context.new_page()
        try:
            log_in(page, user)
            page.goto(f"{site}/sessions/{conversation.pk}/")
            first = page.locator("article.bubble--user").first
            expect(first).to_contain_text(SAID[language][0])
            topics = page.locator("details.outline__topics")
            shown[device] = topics.evaluate("details => details.open")
            if phone:
                page.evaluate("window.scrollTo(0, 0)")
                box = first.bounding_box()
                assert box is not None and box["y"] + box["height"] < viewport["height"]
            screenshot(page, f"chat-topics-{language}-{device}", focus=first)
        finally:
            context.close()

    assert shown == {"phone": False, "desktop": True}
