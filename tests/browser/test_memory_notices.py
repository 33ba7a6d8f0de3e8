"""The chat says what it remembered: a notice under the reply, without a reload, with undo.

Extraction runs in the test process instead of a worker: the reply's task is run a moment
after it was queued, on a thread of its own, as a worker would pick it up (issue 14 line 4).
"""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from playwright.sync_api import expect

from conversations.tasks import exchange_extract
from memories.models import DeletionReceipt, Memory

pytestmark = pytest.mark.browser

WORKER_DELAY_SECONDS = 1.0


@pytest.fixture
def extraction_after_the_reply(monkeypatch):
    """Run each queued extraction on a thread shortly after the reply, like a worker."""
    threads: list[threading.Thread] = []

    def run(**kwargs):
        def work():
            try:
                exchange_extract.apply(kwargs=kwargs)
            finally:
                connection.close()

        thread = threading.Timer(WORKER_DELAY_SECONDS, work)
        threads.append(thread)
        thread.start()

    monkeypatch.setattr(exchange_extract, "delay", run)
    yield
    for thread in threads:
        thread.join(timeout=30)


def _remember_and_undo(
    page, *, statement, send, message_box, remembered, undo, undone, seen=lambda notice: None
):
    """Send `statement`, see its notice arrive on the same page (`seen` is called with it),
    press Undo; returns the notice and its text before the undo."""
    page.get_by_role("textbox", name=message_box).fill(statement)
    page.get_by_role("button", name=send).click()
    # A mark on the window survives only if the page is never reloaded.
    page.evaluate("window.stillTheSamePage = true")

    notice = page.locator("article.bubble--assistant").last.locator(".memory-notice").first
    expect(notice).to_contain_text(remembered, timeout=30_000)
    assert page.evaluate("window.stillTheSamePage === true")
    text = notice.inner_text()
    seen(notice)

    notice.get_by_role("button", name=re.compile(f"^{undo}")).click()
    expect(notice).to_contain_text(undone)
    assert page.evaluate("window.stillTheSamePage === true")
    return notice, text


def test_an_english_statement_is_remembered_live_and_undo_forgets_it(
    page, site, user, log_in, screenshot, extraction_after_the_reply
):
    log_in(page, user)
    page.get_by_role("button", name="New conversation").click()

    notice_before = page.locator(".memory-notice")
    expect(notice_before).to_have_count(0)
    page.get_by_role("textbox", name="Message").fill("I like green tea")
    page.get_by_role("button", name="Send").click()
    page.evaluate("window.stillTheSamePage = true")
    notice = page.locator("article.bubble--assistant").last.locator(".memory-notice").first
    expect(notice).to_contain_text("Remembered:", timeout=30_000)
    expect(notice).to_contain_text("green tea")
    expect(notice.get_by_role("link", name=re.compile("^View"))).to_be_visible()
    assert page.evaluate("window.stillTheSamePage === true")
    memory = Memory.objects.get(user=user)
    screenshot(page, "20-memory-notice-en", focus=notice)

    notice.get_by_role("button", name=re.compile("^Undo")).click()
    expect(notice).to_contain_text("Undone: the memory was deleted.")
    expect(notice.get_by_role("link", name="See the receipt")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage === true")
    screenshot(page, "21-memory-notice-undone-en", focus=notice)

    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert DeletionReceipt.objects.filter(user=user, memory_id=str(memory.pk)).exists()
    page.get_by_role("link", name="Memories", exact=True).click()
    expect(page.locator("main")).not_to_contain_text("green tea")


def test_a_korean_statement_is_remembered_live_and_undo_forgets_it(
    browser, site, user, log_in, screenshot, extraction_after_the_reply
):
    context = browser.new_context(locale="ko-KR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        log_in(page, user)
        page.get_by_role("button", name="새 대화").click()
        notice, text = _remember_and_undo(
            page,
            statement="나는 고양이를 좋아해. 기억해줘.",
            send="보내기",
            message_box="메시지",
            remembered="기억했어요:",
            undo="되돌리기",
            undone="되돌렸어요: 기억을 삭제했어요.",
            seen=lambda notice: screenshot(page, "22-memory-notice-ko", focus=notice),
        )
        assert "고양이" in text and "보기" in text
        screenshot(page, "23-memory-notice-undone-ko", focus=notice)

        assert not Memory.objects.filter(user=user).exists()
        page.get_by_role("link", name="기억", exact=True).click()
        expect(page.get_by_role("heading", name="내 기억")).to_be_visible()
        expect(page.locator("main")).not_to_contain_text("고양이")
    finally:
        context.close()


def test_a_changed_fact_says_memory_updated_and_undo_brings_the_old_one_back(
    page, site, user, log_in, screenshot, extraction_after_the_reply
):
    log_in(page, user)
    page.get_by_role("button", name="New conversation").click()
    page.get_by_role("textbox", name="Message").fill("I live in Seoul.")
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".memory-notice").first).to_contain_text("Remembered:", timeout=30_000)

    notice, _text = _remember_and_undo(
        page,
        statement="I live in Busan.",
        send="Send",
        message_box="Message",
        remembered="Memory updated:",
        undo="Undo",
        undone="Undone: the memory is back to its previous version.",
    )
    screenshot(page, "24-memory-updated-undone-en", focus=notice)

    memory = Memory.objects.get(user=user)
    assert "Seoul" in memory.current_version.content
