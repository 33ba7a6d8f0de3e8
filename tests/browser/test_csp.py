"""The pages work under the Content-Security-Policy: no violation while chatting (htmx + SSE)
and in Django admin."""

from __future__ import annotations

from playwright.sync_api import expect


def _collect_csp_violations(page):
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return violations


def test_chatting_raises_no_csp_violation(page, site, user, log_in):
    violations = _collect_csp_violations(page)
    log_in(page, user)

    page.get_by_role("button", name="New conversation").click()
    page.get_by_role("textbox", name="Message").fill("Hello! I like green tea.")
    page.get_by_role("button", name="Send").click()
    reply = page.locator("article.bubble--assistant").last
    expect(reply.locator(".bubble__text")).not_to_be_empty()
    page.goto(f"{site}/memories/")
    expect(page.locator("main")).to_be_visible()

    assert violations == []


def test_django_admin_raises_no_csp_violation(page, site, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", "a-long-password-9")
    violations = _collect_csp_violations(page)

    page.goto(f"{site}/admin/login/")
    page.fill("input[name=username]", "root")
    page.fill("input[name=password]", "a-long-password-9")
    page.locator("input[type=submit]").click()
    expect(page.locator("#content")).to_be_visible()
    page.goto(f"{site}/admin/memories/memory/")
    expect(page.locator("#content")).to_be_visible()

    assert violations == []
