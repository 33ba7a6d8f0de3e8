"""A new conversation's heading and the window's title take its name as soon as the first
message names it, without a reload, in Korean and English (issue 19, the chat heading).
Screenshots: test-artifacts/chat-heading-<language>.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conversations.logic.titles import title_from_message
from conversations.services import chat
from memoryhub import embeddings, text

pytestmark = pytest.mark.browser

WORDS = {
    "ko": {
        "locale": "ko-KR",
        "new": "새 대화",
        "message": "메시지",
        "send": "보내기",
        "first": "다음 주 회의 발표 자료 목차 좀 정리해 줘",
        "second": "결론 부분은 짧게 해 줘",
    },
    "en": {
        "locale": "en-US",
        "new": "New conversation",
        "message": "Message",
        "send": "Send",
        "first": "Outline the slides for next week's budget meeting",
        "second": "Keep the summary slide short",
    },
}


@pytest.fixture(scope="module", autouse=True)
def _models_loaded():
    """The live server runs in this process: load Kiwi and the embedder once, before the
    first message."""
    text.warm_up()
    embeddings.embed_passages(["준비 ready"])


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_first_message_names_the_heading_and_the_window_title_in_place(
    browser, site, user, log_in, screenshot, language
):
    words = WORDS[language]
    title = title_from_message(words["first"])
    assert title and title != words["new"]
    conversation = chat.chat_session_create(user=user)
    context = browser.new_context(locale=words["locale"], viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        log_in(page, user)
        page.goto(f"{site}/sessions/{conversation.pk}/")
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_have_text(words["new"])
        expect(page).to_have_title(f"{words['new']} · memoryhub")

        box = page.get_by_role("textbox", name=words["message"])
        box.fill(words["first"])
        page.get_by_role("button", name=words["send"]).click()

        expect(heading).to_have_text(title)
        expect(page).to_have_title(f"{title} · memoryhub")
        expect(page.locator("h1")).to_have_count(1)
        expect(page.locator("article.bubble--assistant details.remembered")).to_be_attached(
            timeout=60_000
        )
        # A later message leaves the name as it is.
        box = page.get_by_role("textbox", name=words["message"])
        box.fill(words["second"])
        page.get_by_role("button", name=words["send"]).click()
        expect(page.locator("article.bubble--user")).to_have_count(2)
        expect(heading).to_have_text(title)
        expect(page).to_have_title(f"{title} · memoryhub")
        screenshot(page, f"chat-heading-{language}")

        page.reload()
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
    finally:
        context.close()
