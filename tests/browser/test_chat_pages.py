"""The chat pages a person lives in, in a real browser, Korean and English, desktop and phone
(issue 19 lines 1, 4, 5): sign-up lands in a conversation with a welcome; on a 390x844 phone
the header and the offline notice take at most 120 px, the "Enter sends" hint is gone on a
touch screen, and an ended conversation shows its messages before its folded summary; the
tags page's charts have labelled axes. Screenshots: test-artifacts/chat-*.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from conversations.models import ChatSession, TagWeight, TagWeightHistory
from conversations.services import chat
from memoryhub import embeddings, text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LOCALES = {"ko": "ko-KR", "en": "en-US"}
WORDS = {
    "ko": {
        "username": "사용자 이름",
        "create": "계정 만들기",
        "welcome": "중요한 내용을 기억해 두고",
        "memories": "기억",
        "message": "메시지",
        "send": "보내기",
        "summary": "요약",
    },
    "en": {
        "username": "Username",
        "create": "Create account",
        "welcome": "I remember what matters",
        "memories": "Memories",
        "message": "Message",
        "send": "Send",
        "summary": "Summary",
    },
}


@pytest.fixture(scope="module", autouse=True)
def _models_loaded():
    """The live server runs in this process: load Kiwi and the embedder once, before the
    first message, so the first reply is not timed with the models' loading."""
    text.warm_up()
    embeddings.embed_passages(["준비 ready"])


def _context(browser, language, viewport, *, touch=False):
    return browser.new_context(
        locale=LOCALES[language], viewport=viewport, has_touch=touch, is_mobile=touch
    )


def _ended_conversation(user, language):
    texts = {
        "ko": ["주말에 북한산 등산 가려고 해. 초보자 코스 알려줘", "김밥이랑 물은 얼마나 챙길까?"],
        "en": [
            "I want to hike Bukhansan this weekend, which trail suits a beginner?",
            "How much water and food should I pack?",
        ],
    }[language]
    conversation = chat.chat_session_create(user=user)
    for said in texts:
        message, _topic = chat.message_add_user(session=conversation, content=said)
        "".join(chat.reply_stream(message=message))
    summary = {
        "ko": "주말 북한산 초보자 등산 코스와 준비물을 이야기했다.",
        "en": "Talked about a beginner's hike up Bukhansan this weekend and what to pack.",
    }[language]
    ChatSession.objects.filter(pk=conversation.pk).update(
        status=ChatSession.Status.ENDED,
        ended_at=timezone.now(),
        summary=summary,
        tags=["등산" if language == "ko" else "hiking"],
    )
    return conversation


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_sign_up_lands_in_a_conversation_with_the_welcome(
    browser, site, screenshot, language, device
):
    words = WORDS[language]
    context = _context(
        browser, language, PHONE if device == "phone" else DESKTOP, touch=device == "phone"
    )
    page = context.new_page()
    try:
        page.goto(f"{site}/accounts/signup/")
        page.get_by_label(words["username"]).fill(f"new-{language}-{device}")
        page.locator("input[name=password1]").fill("a-long-password-7")
        page.locator("input[name=password2]").fill("a-long-password-7")
        page.get_by_role("button", name=words["create"]).click()

        page.wait_for_url(re.compile(r"/sessions/\d+/$"))
        welcome = page.locator(".chat__welcome")
        expect(welcome).to_contain_text(words["welcome"])
        expect(welcome.get_by_role("link", name=words["memories"])).to_be_visible()
        expect(page.get_by_role("textbox", name=words["message"])).to_be_visible()
        assert "세션" not in page.content()
        screenshot(page, f"chat-welcome-{language}-{device}")

        page.get_by_role("textbox", name=words["message"]).fill(
            "제주도 가족 여행 일정 짜 줘" if language == "ko" else "Plan a family trip to Jeju"
        )
        page.get_by_role("button", name=words["send"]).click()
        expect(page.locator("article.bubble--assistant details.remembered")).to_be_attached(
            timeout=60_000
        )
        page.reload()
        expected = "제주도 가족 여행 일정" if language == "ko" else "Plan family trip Jeju"
        expect(page.locator("h1")).to_have_text(expected)
        expect(page.locator(".chat__welcome")).to_have_count(0)
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_on_a_phone_the_header_and_offline_notice_take_at_most_120px(
    browser, site, user, log_in, screenshot, language
):
    conversation = chat.chat_session_create(user=user)
    first = {
        "ko": "다음 달 도쿄 출장 호텔 알아봐 줘",
        "en": "Find me a hotel for a work trip to Tokyo",
    }
    chat.message_add_user(session=conversation, content=first[language])
    context = _context(browser, language, PHONE, touch=True)
    page = context.new_page()
    try:
        log_in(page, user)
        screenshot(page, f"chat-list-{language}-phone")
        for path in ("/", f"/sessions/{conversation.pk}/", "/tags/", "/memories/"):
            page.goto(f"{site}{path}")
            banner = page.locator(".banner--offline")
            expect(banner).to_be_visible()
            header = page.locator(".site-header").bounding_box()
            notice = banner.bounding_box()
            assert header is not None and notice is not None
            assert header["y"] == 0
            assert notice["y"] + notice["height"] <= 120, (path, header, notice)
            # Every page of the nav and logging out are still on screen.
            for link in page.locator(".site-nav a, .site-nav button").all():
                box = link.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        page.goto(f"{site}/sessions/{conversation.pk}/")
        screenshot(page, f"chat-phone-header-{language}")
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_topic_outline_counts_the_first_topic_without_a_reload(
    browser, site, user, log_in, language
):
    words = WORDS[language]
    conversation = chat.chat_session_create(user=user)
    context = _context(browser, language, DESKTOP)
    page = context.new_page()
    try:
        log_in(page, user)
        page.goto(f"{site}/sessions/{conversation.pk}/")
        outline = page.locator("#session-outline .outline__topics summary")
        expect(outline).to_contain_text("0")
        page.get_by_role("textbox", name=words["message"]).fill(
            "베란다에서 방울토마토 키우는 법 알려줘"
            if language == "ko"
            else "How do I grow cherry tomatoes on a balcony?"
        )
        page.get_by_role("button", name=words["send"]).click()
        expect(page.locator("article.bubble--assistant details.remembered")).to_be_attached(
            timeout=60_000
        )
        expect(outline).to_have_text("주제 1개" if language == "ko" else "1 topic")
        expect(page.locator("#session-outline .topic")).to_have_count(1)
        # Open on a wide screen before the message, still open after the outline came again.
        expect(page.locator("#session-outline details.outline__topics")).to_have_attribute(
            "open", ""
        )
    finally:
        context.close()


SMALL_PHONE = {"width": 375, "height": 667}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_on_a_small_phone_the_offline_notice_wraps_and_is_read_whole(
    browser, site, user, log_in, screenshot, language
):
    context = _context(browser, language, SMALL_PHONE, touch=True)
    page = context.new_page()
    try:
        log_in(page, user)
        for path in ("/", "/memories/"):
            page.goto(f"{site}{path}")
            banner = page.locator(".banner--offline")
            expect(banner).to_be_visible()
            fits = banner.evaluate(
                """element => {
                    const style = getComputedStyle(element);
                    const text = document.createRange();
                    text.selectNodeContents(element);
                    const box = text.getBoundingClientRect();
                    return {
                        cut: style.textOverflow === "ellipsis" || style.whiteSpace === "nowrap",
                        overflows: element.scrollWidth > element.clientWidth
                            || element.scrollHeight > element.clientHeight,
                        right: box.right,
                    };
                }"""
            )
            assert not fits["cut"] and not fits["overflows"], (path, fits)
            assert fits["right"] <= SMALL_PHONE["width"], (path, fits)
        screenshot(page, f"offline-notice-{language}-375")
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_enter_hint_is_hidden_on_a_touch_screen_and_shown_with_a_mouse(
    browser, site, user, log_in, language
):
    conversation = chat.chat_session_create(user=user)
    shown = {}
    for touch in (True, False):
        context = _context(browser, language, PHONE if touch else DESKTOP, touch=touch)
        page = context.new_page()
        try:
            log_in(page, user)
            page.goto(f"{site}/sessions/{conversation.pk}/")
            box = page.get_by_role("textbox", name=WORDS[language]["message"])
            expect(box).to_be_visible()
            shown[touch] = page.locator("#composer-hint").is_visible()
            described = box.get_attribute("aria-describedby")
            if touch:
                # Enter starts a new line on a touch keyboard; the Send button sends.
                box.fill("첫 줄" if language == "ko" else "first line")
                box.press("Enter")
                assert "\n" in box.input_value()
                assert described is None
            else:
                assert described == "composer-hint"
        finally:
            context.close()

    assert shown == {True: False, False: True}


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_an_ended_conversation_shows_its_messages_first_and_its_summary_folded(
    browser, site, user, log_in, screenshot, language, device
):
    conversation = _ended_conversation(user, language)
    phone = device == "phone"
    context = _context(browser, language, PHONE if phone else DESKTOP, touch=phone)
    page = context.new_page()
    try:
        log_in(page, user)
        page.goto(f"{site}/sessions/{conversation.pk}/")
        page.evaluate("window.scrollTo(0, 0)")
        first_message = page.locator("article.bubble--user").first.bounding_box()
        fold = page.locator("details.outline__fold")
        summary_box = fold.bounding_box()
        assert first_message is not None and summary_box is not None
        if phone:
            # Folded, and below the messages.
            assert fold.get_attribute("open") is None
            assert first_message["y"] < summary_box["y"]
            assert first_message["y"] < 844
            expect(page.locator(".outline__summary")).not_to_be_visible()
            fold.locator("summary").click()
            expect(page.locator(".outline__summary")).to_be_visible()
        else:
            # Beside the messages there is room: the side panel shows it open.
            expect(page.locator(".outline__summary")).to_be_visible()
            assert summary_box["x"] > first_message["x"]
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"chat-ended-{language}-{device}", focus=page.locator("h1"))
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_tags_page_charts_have_labelled_axes_in_the_readers_language(
    browser, site, user, log_in, screenshot, language, device
):
    today = timezone.localdate()
    tags = {"ko": ["등산", "김치찌개"], "en": ["hiking", "sourdough"]}[language]
    for tag, peak in zip(tags, (2.4, 1.3), strict=True):
        TagWeight.objects.create(user=user, tag=tag, weight=peak * 0.8, updated_at=timezone.now())
        for days_ago in range(40, 0, -1):
            fade = 0.95 ** (days_ago % 12)
            TagWeightHistory.objects.create(
                user=user, tag=tag, day=today - timedelta(days=days_ago), weight=peak * fade
            )
    context = _context(
        browser, language, PHONE if device == "phone" else DESKTOP, touch=device == "phone"
    )
    page = context.new_page()
    try:
        log_in(page, user)
        page.goto(f"{site}/tags/")
        chart = page.locator("svg.spark").first
        expect(chart).to_be_visible()
        labels = chart.locator("text").all_text_contents()
        axis = {"ko": ("가중치", "날짜"), "en": ("Weight", "Date")}[language]
        assert axis[0] in labels and axis[1] in labels
        day_label = f"{today.month}월 {today.day}일" if language == "ko" else today.strftime("%B ")
        assert any(label.startswith(day_label.strip()) for label in labels), labels
        # Every label is inside the chart (none is cut off at an edge).
        frame = chart.bounding_box()
        for label in chart.locator("text").all():
            box = label.bounding_box()
            assert box is not None and frame is not None
            assert (
                frame["x"] - 1 <= box["x"]
                and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
            )
        expect(page.locator("details.tag-help")).not_to_have_attribute("open", "")
        screenshot(page, f"chat-tags-{language}-{device}")
    finally:
        context.close()
