"""The "this is wrong" button in a real browser, in Korean and English (issue 14 line 5):
the memory leaves the assistant's context at once (the context preview API) and shows on the
memories page as marked wrong, Undo brings it back, and "Correct it" opens the edit form whose
saved text is used again."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect
from rest_framework.authtoken.models import Token

from conversations.services import chat
from memories.models import Memory, MemoryStatus
from memories.services import revision

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Language:
    locale: str
    memory: str
    question: str
    correction: str
    wrong: str
    undo: str
    correct: str
    marked: str
    undone: str
    save: str
    label: str
    status: str


LANGUAGES = [
    Language(
        locale="ko-KR",
        memory="나는 매주 토요일 아침에 테니스를 쳐",
        question="이번 주 토요일 테니스 약속 잡아줘",
        correction="나는 매주 일요일 아침에 테니스를 쳐",
        wrong="틀렸어요",
        undo="되돌리기",
        correct="바로잡기",
        marked="어시스턴트가 이 기억을 쓰지 않아요",
        undone="원래대로 돌아왔어요",
        save="새 버전으로 저장",
        label="틀렸다고 표시됨",
        status="상태",
    ),
    Language(
        locale="en-US",
        memory="I play tennis every Saturday morning",
        question="book my Saturday tennis",
        correction="I play tennis every Sunday morning",
        wrong="This is wrong",
        undo="Undo",
        correct="Correct it",
        marked="the assistant no longer uses it",
        undone="the memory is as it was",
        save="Save as a new version",
        label="Marked wrong",
        status="Status",
    ),
]


def _recalled(page, site: str, token: str, question: str) -> list[str]:
    """The memories the assistant would get for `question` (the context preview API)."""
    context = page.request.post(
        f"{site}/api/v1/context/",
        data={"message": question},
        headers={"Authorization": f"Token {token}"},
    )
    assert context.ok
    return [m["content"] for m in context.json()["memories"]]


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.locale for lang in LANGUAGES])
def test_this_is_wrong_takes_a_memory_out_of_use_with_undo_and_correct_it(
    browser, site, user, log_in, screenshot, lang
):
    memory = revision.memory_create(user=user, type="fact", content=lang.memory)
    session = chat.chat_session_create(user=user)
    exchange = chat.chat_exchange(session=session, content=lang.question)
    assert [m["content"] for m in exchange.assistant_message.context["memories"]] == [lang.memory]
    token = Token.objects.create(user=user).key

    context = browser.new_context(locale=lang.locale, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        log_in(page, user)
        assert _recalled(page, site, token, lang.question) == [lang.memory]
        page.goto(f"{site}/sessions/{session.pk}/")
        reply = page.locator(f"#message-{exchange.assistant_message.pk}")
        reply.locator("details.remembered summary").click()
        panel = reply.locator("details.remembered")
        expect(panel).to_contain_text(lang.memory)

        # "This is wrong": out of the context at once.
        panel.get_by_role("button", name=re.compile(f"^{lang.wrong}")).click()
        note = panel.locator(".panel-memory__wrong")
        expect(note).to_contain_text(lang.marked)
        assert Memory.objects.get(pk=memory.pk).status == MemoryStatus.DISPUTED
        assert _recalled(page, site, token, lang.question) == []
        screenshot(page, f"wrong-1-marked-{lang.locale}", focus=note)
        listing = context.new_page()
        listing.goto(f"{site}/memories/")
        listing.locator("details.filters__more > summary").click()  # the filters are folded
        listing.get_by_label(lang.status).select_option(MemoryStatus.DISPUTED.value)
        row = listing.locator(f"#memory-row-{memory.pk}")
        expect(row.locator(".badge--disputed")).to_have_text(lang.label)
        expect(row.get_by_role("link", name=re.compile(f"^{lang.correct}"))).to_be_visible()
        screenshot(listing, f"wrong-1b-listed-{lang.locale}")
        listing.close()

        # Undo: back in use.
        note.get_by_role("button", name=lang.undo).click()
        expect(panel).to_contain_text(lang.undone)
        assert Memory.objects.get(pk=memory.pk).status == MemoryStatus.ACTIVE
        assert _recalled(page, site, token, lang.question) == [lang.memory]
        screenshot(page, f"wrong-2-undone-{lang.locale}", focus=panel)

        # Wrong again, then "Correct it": the edit form, ready to type in.
        panel.get_by_role("button", name=re.compile(f"^{lang.wrong}")).click()
        panel.get_by_role("link", name=lang.correct).click()
        page.wait_for_url(f"{site}/memories/{memory.pk}/edit/")
        expect(page.locator("details.memory__edit")).to_have_attribute("open", "")
        content = page.locator("#id_content")
        expect(content).to_be_focused()
        expect(page.locator(f".badge--{MemoryStatus.DISPUTED}")).to_have_text(lang.label)
        screenshot(page, f"wrong-3-correct-it-{lang.locale}")

        content.fill(lang.correction)
        page.get_by_role("button", name=lang.save).click()
        expect(page.locator(".memory__content")).to_have_text(lang.correction)
        assert Memory.objects.get(pk=memory.pk).status == MemoryStatus.ACTIVE
        assert _recalled(page, site, token, lang.question) == [lang.correction]
        screenshot(page, f"wrong-4-corrected-{lang.locale}")
    finally:
        context.close()
