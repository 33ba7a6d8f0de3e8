"""One test per journey a person takes through the product, in a real browser.

Each saves a screenshot of where it ends under test-artifacts/ for people to look at.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from conversations.models import ChatSession, Message
from conversations.services import chat, deletion
from memories.logic.extraction_schema import ExtractedItem
from memories.models import DeletionReceipt, Memory, MemoryStatus
from memories.services import extraction, revision
from tests.browser.conftest import ARTIFACTS
from tests.conftest import wait_until

pytestmark = pytest.mark.browser


def _send(page, text):
    page.get_by_role("textbox", name="Message").fill(text)
    page.get_by_role("button", name="Send").click()


def _last_reply(page):
    reply = page.locator("article.bubble--assistant").last
    expect(reply.locator("details.remembered")).to_be_attached(timeout=30_000)
    return reply


def test_sign_up_and_chat(page, site, screenshot):
    page.goto(f"{site}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("jiwoo")
    page.get_by_label("Password", exact=True).fill("a-long-password-5")
    page.get_by_label("Password confirmation").fill("a-long-password-5")
    page.get_by_role("button", name="Create account").click()
    # Straight into a new conversation, with a welcome that says what is remembered and where.
    expect(page.locator(".chat__welcome")).to_contain_text("I remember what matters")
    expect(page.locator(".chat__welcome").get_by_role("link", name="Memories")).to_be_visible()

    _send(page, "Hello! I am planning a trip to Jeju next month.")

    reply = _last_reply(page)
    expect(page.locator("article.bubble--user").last).to_contain_text("trip to Jeju")
    expect(reply.locator(".bubble__text")).not_to_be_empty()
    expect(page.get_by_role("textbox", name="Message")).to_be_empty()
    screenshot(page, "01-sign-up-and-chat", focus=reply)
    assert Message.objects.filter(session__user__username="jiwoo").count() == 2


@pytest.mark.worker
def test_the_remembered_panel_fills_on_a_later_session(
    page, site, user, log_in, screenshot, celery_worker_process
):
    log_in(page, user)
    page.get_by_role("button", name="New conversation").click()
    _send(page, "Remember that I prefer green tea.")
    _last_reply(page)
    # The worker extracts memories from the exchange after the reply.
    assert wait_until(
        lambda: Memory.objects.filter(user=user, status=MemoryStatus.ACTIVE).exists(), timeout=90
    ), "the worker made no memory from the first session"
    page.get_by_role("button", name="End conversation").click()
    expect(page.locator(".chat__meta .status")).not_to_have_text("Active")

    page.goto(f"{site}/")
    page.get_by_role("button", name="New conversation").click()
    _send(page, "Which tea do I like?")
    reply = _last_reply(page)
    reply.locator("details.remembered summary").click()

    panel = reply.locator("details.remembered")
    expect(panel).to_contain_text("green tea")
    memory = Memory.objects.get(user=user, status=MemoryStatus.ACTIVE)
    link = panel.get_by_role("link", name=re.compile(rf"Memory {memory.pk}, version \d"))
    expect(link).to_have_attribute("href", f"/memories/{memory.pk}/")
    expect(panel.get_by_role("button", name=re.compile("This is wrong"))).to_be_visible()
    screenshot(page, "02-remembered-panel-on-a-later-session", focus=link)


def test_approve_a_suggestion_from_the_chat(page, site, user, log_in, screenshot):
    log_in(page, user)
    page.get_by_role("button", name="New conversation").click()
    _send(page, "I have been drinking a lot of oolong lately.")
    _last_reply(page)
    message = Message.objects.get(session__user=user, role=Message.Role.USER)
    # What extraction would propose from this exchange: an inference, waiting for approval.
    proposed = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="preference", content="The user likes oolong tea",
                           stated_by_user=False),
        source_message_id=message.pk,
        source_session_id=message.session_id,
    ).memory  # fmt: skip

    suggestion = page.locator(f"#suggestion-{proposed.pk}")
    expect(suggestion).to_contain_text("The user likes oolong tea", timeout=30_000)
    suggestion.get_by_role("button", name=re.compile("^Approve")).click()

    expect(suggestion).to_contain_text("Approved: it will be remembered.")
    proposed.refresh_from_db()
    assert proposed.status == MemoryStatus.ACTIVE
    screenshot(page, "03-approve-a-suggestion", focus=suggestion)


def test_edit_a_memory_and_see_its_history(page, site, user, log_in, screenshot):
    revision.memory_create(user=user, type="fact", content="I live in Seoul")
    revision.memory_create(user=user, type="preference", content="I prefer short answers")
    log_in(page, user)

    page.get_by_role("link", name="Memories").click()
    page.get_by_label("Search your memories").fill("Seoul")
    expect(page.locator("#memory-results")).to_contain_text("1 memory matches")
    expect(page.locator("#memory-results")).not_to_contain_text("short answers")
    page.get_by_role("link", name="I live in Seoul", exact=True).click()

    page.get_by_text("Edit", exact=True).click()
    page.get_by_label("What should be remembered").fill("I live in Busan")
    page.get_by_role("button", name="Save as a new version").click()

    history = page.locator(".history")
    entries = history.locator(".history__entry")
    expect(entries).to_have_count(2)
    newest, oldest = entries.nth(0), entries.nth(1)
    expect(newest).to_contain_text("Version 2")
    expect(newest).to_contain_text("current")
    expect(newest).to_contain_text("Written by you")
    expect(newest).to_contain_text("edited by you")
    # The readable diff: what the edit removed and added, named for screen readers too.
    expect(newest.locator("del")).to_have_text("removed: Seoul")
    expect(newest.locator("ins")).to_have_text("added: Busan")
    expect(newest.locator(".diff")).to_contain_text("I live in")
    expect(oldest).to_contain_text("Version 1")
    expect(oldest.locator(".diff")).to_have_text("I live in Seoul")
    expect(page.locator(".memory__content")).to_have_text("I live in Busan")
    screenshot(page, "04-edit-a-memory-and-see-its-history")


def test_follow_a_memory_to_the_chat_message_it_came_from(page, site, user, log_in, screenshot):
    session = chat.chat_session_create(user=user)
    for n in range(12):  # enough exchanges before and after: the source is mid-page
        chat.chat_exchange(session=session, content=f"Small talk number {n}")
    source = chat.chat_exchange(session=session, content="I moved to Busan last spring")
    for n in range(12, 24):
        chat.chat_exchange(session=session, content=f"Small talk number {n}")
    memory = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="fact", content="The user moved to Busan last spring"),
        source_message_id=source.user_message.pk,
        source_session_id=session.pk,
    ).memory
    assert memory is not None
    log_in(page, user)

    page.goto(f"{site}/memories/{memory.pk}/")
    page.get_by_role("link", name="Your message in a chat").click()

    page.wait_for_url(f"{site}/sessions/{session.pk}/#message-{source.user_message.pk}")
    target = page.locator(f"#message-{source.user_message.pk}")
    expect(target).to_contain_text("I moved to Busan last spring")
    expect(target).to_be_in_viewport()
    # The anchor wins over the chat page's "show the newest messages" scroll.
    assert page.evaluate(
        "() => window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 400"
    )
    screenshot(page, "04b-a-memorys-source-in-its-chat", focus=target)

    deletion.message_delete(user=user, message=source.user_message)
    page.goto(f"{site}/memories/{memory.pk}/")
    expect(page.locator(".facts")).to_contain_text("A deleted message")
    expect(page.get_by_role("link", name="Your message in a chat")).to_have_count(0)


def test_delete_a_memory_and_see_the_receipt(page, site, user, log_in, screenshot):
    memory = revision.memory_create(user=user, type="fact", content="My locker code is at work")
    log_in(page, user)

    page.goto(f"{site}/memories/{memory.pk}/")
    page.get_by_role("link", name="Delete…").click()
    expect(page.get_by_role("heading", name="Delete this memory for good?")).to_be_visible()
    page.get_by_role("button", name="Delete for good").click()

    expect(page.get_by_role("heading", name="Deletion receipt")).to_be_visible()
    expect(page.get_by_text("The memory was deleted for good.")).to_be_visible()
    receipt = DeletionReceipt.objects.get(user=user)
    expect(page.locator("main")).to_contain_text(str(receipt.id))
    expect(page.locator("main")).not_to_contain_text("locker code")
    assert not Memory.objects.filter(pk=memory.pk).exists()
    screenshot(page, "05-delete-a-memory-and-see-the-receipt")


def test_export_all_my_data(page, site, user, log_in, screenshot):
    revision.memory_create(user=user, type="preference", content="I prefer green tea")
    session = chat.chat_session_create(user=user)
    chat.chat_exchange(session=session, content="요즘 녹차를 자주 마셔")
    log_in(page, user)

    page.get_by_role("link", name="Memories").click()
    page.get_by_role("link", name="Your data").click()
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download my data (JSON)").click()
    path = ARTIFACTS / "06-export.json"
    ARTIFACTS.mkdir(exist_ok=True)
    download_info.value.save_as(path)

    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["user"]["username"] == user.get_username()
    assert [m["content"] for m in data["memories"]] == ["I prefer green tea"]
    assert data["sessions"][0]["messages"][0]["content"] == "요즘 녹차를 자주 마셔"
    screenshot(page, "06-export-all-my-data")


def test_another_user_cannot_open_the_first_users_memory(
    page, site, user, other_user, log_in, screenshot
):
    memory = revision.memory_create(user=user, type="fact", content="My sister lives in Daegu")

    session = chat.chat_session_create(user=user)
    theirs = chat.chat_exchange(session=session, content="My sister moved to Daegu")
    log_in(page, other_user, password="a-long-password-2")

    for url in (
        f"{site}/memories/{memory.pk}/",
        f"{site}/memories/{memory.pk}/edit/",
        f"{site}/messages/{theirs.user_message.pk}/",
        f"{site}/sessions/{session.pk}/",
    ):
        response = page.goto(url)
        assert response is not None and response.status == 404, url
        expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
        expect(page.locator("body")).not_to_contain_text("Daegu")
    page.goto(f"{site}/memories/")
    expect(page.locator("#memory-results")).not_to_contain_text("Daegu")
    page.goto(f"{site}/memories/{memory.pk}/")
    screenshot(page, "07-another-user-gets-404")
    assert ChatSession.objects.filter(user=other_user).count() == 0


def test_the_pages_speak_korean_to_a_korean_browser(browser, site, user, log_in, screenshot):
    revision.memory_create(user=user, type="preference", content="나는 녹차를 좋아해")
    context = browser.new_context(locale="ko-KR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{site}/accounts/login/")
        expect(page.get_by_role("heading", name="로그인")).to_be_visible()
        log_in(page, user)

        page.get_by_role("link", name="기억", exact=True).click()
        expect(page.get_by_role("heading", name="내 기억")).to_be_visible()
        expect(page.get_by_label("기억 검색")).to_be_visible()
        page.get_by_role("link", name="나는 녹차를 좋아해", exact=True).click()
        expect(page.get_by_role("heading", name="기록")).to_be_visible()
        expect(page.get_by_role("button", name="틀렸어요")).to_be_visible()
        screenshot(page, "08-korean-memory-page-on-a-phone")
    finally:
        context.close()
