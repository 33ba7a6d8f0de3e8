"""The admin's memory page and dashboard as staff see them, in Korean and English (issue 19
line 7): content and versions first, the technical fields folded last, model names in the
reader's language, and the offline provider's tokens labelled as local, with no cost chart."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from memories.services import revision
from memoryhub.models import LLMCall

pytestmark = pytest.mark.browser

STAFF_PASSWORD = "a-long-password-7"


@pytest.mark.parametrize(
    ("locale", "content", "versions", "technical", "local"),
    [
        ("ko-KR", "내용", "기억 버전", "기술 정보", "로컬 토큰 (오프라인 모드, 비용 없음)"),
        (
            "en-US",
            "Content",
            "Memory versions",
            "Technical",
            "Local tokens (offline mode, no cost)",
        ),
    ],
)
def test_the_memory_change_page_and_dashboard_read_well(
    browser, site, user, django_user_model, screenshot, locale, content, versions, technical, local
):
    staff = django_user_model.objects.create_superuser(username="root", password=STAFF_PASSWORD)
    memory = revision.memory_create(user=user, type="fact", content="I swim on Wednesday nights")
    LLMCall.objects.create(
        user=user, task="reply", provider="offline", model="offline", input_tokens=30,
        output_tokens=70,
    )  # fmt: skip
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{site}/admin/login/")
        page.fill("input[name=username]", staff.get_username())
        page.fill("input[name=password]", STAFF_PASSWORD)
        page.locator("input[type=submit]").click()
        page.wait_for_url(f"{site}/admin/")
        dashboard = page.locator(".memory-dashboard")
        expect(dashboard).to_contain_text(local)
        expect(dashboard).not_to_contain_text("USD")
        screenshot(page, f"p19b-admin-index-{locale}")

        page.goto(f"{site}/admin/memories/memory/{memory.pk}/change/")
        # Text, not innerText: the admin's CSS shows inline headings in capitals.
        headings = page.locator("#content-main h2").all_text_contents()
        names = [h.strip() for h in headings]
        assert names.index(content) < names.index(versions) < names.index(technical), names
        expect(page.locator("#content-main")).to_contain_text("I swim on Wednesday nights")
        screenshot(page, f"p19b-admin-memory-{locale}")
    finally:
        context.close()
