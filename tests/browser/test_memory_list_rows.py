"""The light memory list in a real browser (issue 19 lines 2, 3 and 6), Korean and English, on
a desktop and a phone: delete asks in the row (never a confirm() dialog), Undo in the few
seconds after keeps the memory for good, a delete that runs its course leaves a receipt that
says in words what was removed, and edit works in the row."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from conversations.models import Message
from conversations.services import chat
from memories.models import DeletionReceipt, Memory, MemoryUse
from memories.services import revision

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 390, "height": 844}
# memory_rows.js waits this long before it sends a delete; a test waits past it.
UNDO_SECONDS = 6


@dataclass(frozen=True)
class Language:
    locale: str
    kept: str
    gone: str
    edited: str
    other: str
    delete: str
    confirm: str
    keep: str
    undo: str
    edit: str
    save: str
    deleted: str
    receipt: str
    used: str
    reply: str
    title: str
    removed: str


LANGUAGES = [
    Language(
        locale="ko-KR",
        kept="나는 토요일마다 한강에서 자전거를 타",
        gone="나는 매운 음식을 잘 못 먹어",
        edited="나는 일요일마다 한강에서 자전거를 타",
        other="내 고양이 이름은 보리야",
        delete="삭제",
        confirm="영구 삭제",
        keep="그대로 두기",
        undo="되돌리기",
        edit="수정",
        save="저장",
        deleted="영구 삭제했어요.",
        receipt="확인서 보기",
        used="3번 쓰임",
        reply="기억할게요. 매운 음식을 잘 못 드시니까 순한 메뉴로 골라 볼게요.",
        title="저녁 메뉴 고르기",
        removed="대화 1개의 답장 1곳에서 해당 문장을 지웠어요.",
    ),
    Language(
        locale="en-US",
        kept="I cycle along the river every Saturday",
        gone="I cannot eat very spicy food",
        edited="I cycle along the river every Sunday",
        other="My cat is called Bori",
        delete="Delete",
        confirm="Delete for good",
        keep="Keep it",
        undo="Undo",
        edit="Edit",
        save="Save",
        deleted="Deleted for good.",
        receipt="See the receipt",
        used="used 3 times",
        reply="Noted: you cannot eat very spicy food, so I will pick mild dishes.",
        title="Choosing dinner",
        removed="Removed the sentence from 1 reply in 1 conversation.",
    ),
]
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def _name(label: str) -> Any:
    """A row button's accessible name: its label, then ": " and the memory's words."""
    return re.compile(f"^{re.escape(label)}\\s*:")


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.locale for lang in LANGUAGES])
def test_delete_in_the_row_asks_there_undo_keeps_it_and_the_receipt_says_what_went(
    browser, site, user, log_in, screenshot, lang, size
):
    other = revision.memory_create(user=user, type="fact", content=lang.other)
    gone = revision.memory_create(user=user, type="preference", content=lang.gone)
    kept = revision.memory_create(user=user, type="fact", content=lang.kept)
    assert kept.current_version is not None
    for rank in range(3):
        MemoryUse.objects.create(
            user=user, memory=kept, version=kept.current_version, message_id=500 + rank,
            rank=1, score=0.5,
        )  # fmt: skip
    session = chat.chat_session_create(user=user)
    session.title = lang.title
    session.save(update_fields=["title"])
    Message.objects.create(
        user=user, session=session, role=Message.Role.ASSISTANT, content=lang.reply
    )
    phone = size == "phone"
    context = browser.new_context(
        locale=lang.locale, viewport=SIZES[size], is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    tag = f"{lang.locale}-{size}"
    try:
        log_in(page, user)
        page.goto(f"{site}/memories/")
        row = page.locator(f"#memory-row-{kept.pk}")
        expect(row).to_contain_text(lang.used)
        expect(page.locator("details.filters__more")).not_to_have_attribute("open", "")
        screenshot(page, f"p19b-list-{tag}")

        # Delete asks in the row; the strong button is only there.
        row.get_by_role("link", name=_name(lang.delete)).click()
        confirm = row.locator("[data-row-confirm]")
        expect(confirm).to_be_visible()
        expect(confirm.get_by_role("button", name=lang.keep)).to_be_focused()
        screenshot(page, f"p19b-confirm-{tag}", focus=row)

        # Confirmed, then undone within the wait: nothing is sent, the memory stays.
        confirm.get_by_role("button", name=lang.confirm).click()
        undo = row.get_by_role("button", name=_name(lang.undo))
        expect(undo).to_be_focused()
        screenshot(page, f"p19b-undo-{tag}", focus=row)
        undo.click()
        expect(row.get_by_role("link", name=_name(lang.delete))).to_be_focused()
        if size == "desktop":
            page.wait_for_timeout((UNDO_SECONDS + 1) * 1000)
        assert Memory.objects.filter(pk=kept.pk).exists()
        assert not DeletionReceipt.objects.filter(user=user).exists()

        # A delete that runs its course: the row says so and links the receipt.
        gone_row = page.locator(f"#memory-row-{gone.pk}")
        gone_row.get_by_role("link", name=_name(lang.delete)).click()
        gone_row.get_by_role("button", name=lang.confirm).click()
        note = page.locator(f"#memory-row-{gone.pk} [data-row-gone]")
        expect(note).to_contain_text(lang.deleted, timeout=(UNDO_SECONDS + 10) * 1000)
        expect(note).to_be_focused()
        assert not Memory.objects.filter(pk=gone.pk).exists()
        receipt = DeletionReceipt.objects.get(user=user)
        screenshot(page, f"p19b-deleted-{tag}", focus=note)

        # Edit in the row: the text ready to change, saved as a new version in place.
        other_row = page.locator(f"#memory-row-{other.pk}")
        row.get_by_role("link", name=_name(lang.edit)).click()
        box = row.locator("textarea")
        expect(box).to_be_focused()
        box.fill(lang.edited)
        screenshot(page, f"p19b-edit-{tag}", focus=row)
        row.get_by_role("button", name=lang.save).click()
        expect(row.locator(".memory-card__content")).to_have_text(lang.edited)
        expect(other_row).to_contain_text(lang.other)
        version = Memory.objects.get(pk=kept.pk).current_version
        assert version is not None and version.version == 2 and version.content == lang.edited

        note.get_by_role("link", name=lang.receipt).click()
        page.wait_for_url(f"{site}/memories/receipts/{receipt.id}/")
        main = page.locator("main")
        expect(main).to_contain_text(lang.removed)
        expect(main.get_by_role("link", name=lang.title)).to_have_attribute(
            "href", reverse("chat:session-detail", args=[session.pk])
        )
        expect(main).not_to_contain_text(lang.gone)
        screenshot(page, f"p19b-receipt-{tag}")

        page.goto(f"{site}/memories/{kept.pk}/")
        expect(page.locator("h1")).to_have_text(lang.edited)
        expect(page).to_have_title(re.compile(f"^{re.escape(lang.edited)}"))
        screenshot(page, f"p19b-detail-{tag}")
        assert dialogs == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.locale for lang in LANGUAGES])
def test_without_javascript_delete_goes_through_the_confirmation_page(
    browser, site, user, log_in, lang
):
    memory = revision.memory_create(user=user, type="fact", content=lang.gone)
    context = browser.new_context(locale=lang.locale, java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, user)
        page.goto(f"{site}/memories/")
        row = page.locator(f"#memory-row-{memory.pk}")
        expect(row.locator("[data-row-confirm]")).to_be_hidden()
        row.get_by_role("link", name=_name(lang.delete)).click()
        page.wait_for_url(f"{site}/memories/{memory.pk}/delete/")
        page.get_by_role("button", name=lang.confirm).click()
        receipt = DeletionReceipt.objects.get(user=user)
        page.wait_for_url(f"{site}/memories/receipts/{receipt.id}/")
        assert not Memory.objects.filter(pk=memory.pk).exists()
    finally:
        context.close()
