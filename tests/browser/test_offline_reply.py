"""The offline reply in a real browser, Korean and English (issue 14 line 9): it reads like an
answer, quotes what it recalls, and shows no internal marker, while streaming and after a
reload. Screenshots under test-artifacts/offline-reply-<language>.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from conversations.services import chat, indexing
from memories.services import revision

pytestmark = pytest.mark.browser

MARKERS = re.compile(
    r"\[(?:message|memory|session|topic)\b|\(nothing found\)|\[removed\]|\[redacted:|"
    r"\d{4}-\d\d-\d\dT\d\d:\d\d|ANTHROPIC_API_KEY|MEMORYHUB_[A-Z_]+"
)
CASES = {
    "ko": {
        "locale": "ko-KR",
        "earlier": "다음 주 금요일에 부산 출장 가기로 했어. 비번은 hunter2-Lake7이야",
        "memory": "금요일 부산 출장",
        "answer": "하기로 하신 일은 “금요일 부산 출장”라고 기억하고 있어요.",
        "question": "출장 뭐 하기로 했었지?",
        "quote": "“다음 주 금요일에 부산 출장 가기로 했어.",
        "offline": "언어 모델 없이",
        "new": "새 대화",
        "message": "메시지",
        "send": "보내기",
        "banner": "어시스턴트가 언어 모델 없이 동작하고 있어요.",
    },
    "en": {
        "locale": "en-US",
        "earlier": "I decided to fly to Busan for a business trip on Friday, password is "
        "hunter2-Lake7",
        "memory": "Business trip to Busan on Friday",
        "answer": "What you planned: “Business trip to Busan on Friday”.",
        "question": "what did I plan for the business trip?",
        "quote": "you said “I decided to fly to Busan for a business trip on Friday",
        "offline": "without a language model",
        "new": "New conversation",
        "message": "Message",
        "send": "Send",
        "banner": "The assistant runs without a language model.",
    },
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_offline_reply_reads_like_an_answer(browser, site, user, log_in, screenshot, language):
    case = CASES[language]
    earlier = chat.chat_session_create(user=user)
    source, _ = chat.message_add_user(session=earlier, content=case["earlier"])
    "".join(chat.reply_stream(message=source))
    indexing.messages_embed_pending(user_id=user.pk)
    revision.memory_create(user=user, type="episode", content=case["memory"],
                           expires_at=timezone.now() + timedelta(days=9))  # fmt: skip

    context = browser.new_context(locale=case["locale"], viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        log_in(page, user)
        banner = page.locator(".banner--offline")
        expect(banner).to_contain_text(case["banner"])
        assert "ANTHROPIC_API_KEY" not in banner.inner_text()

        page.get_by_role("button", name=case["new"]).click()
        page.get_by_role("textbox", name=case["message"]).fill(case["question"])
        page.get_by_role("button", name=case["send"]).click()
        reply = page.locator("article.bubble--assistant").last
        expect(reply.locator("details.remembered")).to_be_attached(timeout=60_000)
        text = reply.locator(".bubble__text")
        expect(text).to_contain_text(case["answer"])
        expect(text).to_contain_text(case["quote"])
        expect(text).to_contain_text(case["offline"])
        streamed = text.inner_text()
        assert not MARKERS.search(streamed), streamed
        assert "hunter2" not in streamed

        reply.locator("details.remembered summary").click()
        expect(reply.locator("details.remembered")).to_contain_text(case["memory"])
        screenshot(page, f"offline-reply-{language}", focus=reply)

        page.reload()
        reloaded = page.locator("article.bubble--assistant").last.locator(".bubble__text")
        expect(reloaded).to_contain_text(case["quote"])
        assert not MARKERS.search(page.locator("main").inner_text())
    finally:
        context.close()
