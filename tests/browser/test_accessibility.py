"""The pages people use, checked in a real browser for what issue 6 line 10 promises: labels on
every control, a visible focus indicator, use by keyboard alone, and readable on a phone.

Each check walks every page a signed-in user reaches (and the sign-up and login pages) and
reports the offending elements by their HTML, so a failure says what to fix.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import expect

from conversations.services import chat
from conversations.services.forgetting import memory_forget
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.write_policy import Origin
from memories.models import AuditEvent, Memory
from memories.reasons import ChangeReason
from memories.services import audit, extraction, revision
from tests.browser.conftest import PASSWORD

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# More than the first 15 stops: a memory's edit form puts its date field (the one control whose
# focus ring once went missing) around the 30th.
FOCUS_LIMIT = 60

# Every visible input, select, textarea and button, and its accessible name from what the
# accessibility tree uses: aria-labelledby, aria-label, its <label>s (for= or wrapping), or a
# button's own text. Returns the ones without a name.
UNNAMED_CONTROLS_JS = """
() => {
  const text = (node) => (node ? (node.innerText || node.textContent || "").trim() : "");
  const visible = (el) => {
    const style = getComputedStyle(el);
    return el.getClientRects().length > 0 && style.visibility !== "hidden"
      && style.display !== "none";
  };
  const nameOf = (el) => {
    const labelledby = (el.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean);
    const fromIds = labelledby.map((id) => text(document.getElementById(id))).join(" ").trim();
    if (fromIds) return fromIds;
    const aria = (el.getAttribute("aria-label") || "").trim();
    if (aria) return aria;
    const labels = Array.from(el.labels || []).map(text).join(" ").trim();
    if (labels) return labels;
    if (el.tagName === "BUTTON") return text(el);
    if (el.tagName === "INPUT" && ["submit", "button", "reset"].includes(el.type)) {
      return (el.value || "").trim();
    }
    return "";
  };
  return Array.from(document.querySelectorAll("input, select, textarea, button"))
    .filter((el) => !(el.tagName === "INPUT" && el.type === "hidden"))
    .filter(visible)
    .filter((el) => !nameOf(el))
    .map((el) => el.outerHTML);
}
"""

# The element that has focus now, and whether the eye can see it: an outline that is drawn
# (style not none, width above zero) or a box shadow.
FOCUSED_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow && style.boxShadow !== "none";
  return {html: el.outerHTML.slice(0, 300), visible: Boolean(outline || shadow)};
}
"""

# Text set smaller than 12px: every rendered element with a text node of its own.
SMALL_TEXT_JS = """
() => Array.from(document.querySelectorAll("body *"))
  .filter((el) => el.getClientRects().length > 0)
  .filter((el) => Array.from(el.childNodes).some(
    (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim()))
  .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 12)
  .map((el) => `${getComputedStyle(el).fontSize}: ${el.outerHTML.slice(0, 200)}`)
"""

# Elements wider than the window, the usual cause of a sideways scroll on a phone.
OVERFLOW_JS = """
() => {
  const root = document.scrollingElement;
  const width = root.clientWidth;
  const wide = Array.from(document.querySelectorAll("body *"))
    .filter((el) => el.getBoundingClientRect().right > width + 1)
    .map((el) => el.outerHTML.slice(0, 200));
  return {scrollWidth: root.scrollWidth, clientWidth: width, wide: wide.slice(0, 8)};
}
"""


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    signed_in: bool = True
    # What must be on the page before it is checked (parts htmx loads after the page).
    ready: str = "main"


@pytest.fixture
def pages(user: Any, other_user: Any) -> list[Page]:
    """One of every page a person reaches, each with something on it to show."""
    memory = revision.memory_create(user=user, type="fact", content="I live in Seoul")
    revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(content="I live in Busan"),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
    )
    forgotten = revision.memory_create(
        user=user, type="fact", content="My gym bag stays in locker 44"
    )
    receipt = memory_forget(user=user, memory=forgotten)
    audit.audit_event_record(
        user_id=user.pk,
        action=AuditEvent.Action.STAFF_VIEW,
        actor=other_user,
        target_id=str(memory.pk),
    )
    session = chat.chat_session_create(user=user)
    exchange = chat.chat_exchange(session=session, content="I have been drinking oolong lately")
    extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(
            type="preference", content="The user likes oolong tea", stated_by_user=False
        ),
        source_message_id=exchange.user_message.pk,
        source_session_id=session.pk,
    )
    assert Memory.objects.filter(user=user, status="pending").exists()
    return [
        Page("sign-up", "/accounts/signup/", signed_in=False),
        Page("login", "/accounts/login/", signed_in=False),
        Page("chat list", "/"),
        Page(
            "chat session with a reply", f"/sessions/{session.pk}/", ready=".memory-notice--pending"
        ),
        Page("my memories", "/memories/"),
        Page("a memory", f"/memories/{memory.pk}/"),
        Page("a memory's edit form", f"/memories/{memory.pk}/edit/"),
        Page("delete a memory", f"/memories/{memory.pk}/delete/"),
        Page("receipts", "/memories/receipts/"),
        Page("a receipt", f"/memories/receipts/{receipt.id}/"),
        Page("access log", "/memories/access/"),
        Page("export and delete all", "/memories/data/"),
        Page("tags", "/tags/"),
    ]


def _visit_each(
    page: Any, site: str, user: Any, pages: list[Page], log_in: Callable[..., None]
) -> Any:
    """Yield each page loaded, signed out for the account pages and signed in for the rest."""
    for entry in [p for p in pages if not p.signed_in]:
        page.goto(f"{site}{entry.path}")
        yield entry
    log_in(page, user)
    for entry in [p for p in pages if p.signed_in]:
        response = page.goto(f"{site}{entry.path}")
        assert response is not None and response.ok, f"{entry.name}: {response and response.status}"
        expect(page.locator(entry.ready).first).to_be_visible()
        yield entry


def test_every_control_on_every_page_has_an_accessible_name(page, site, user, pages, log_in):
    unnamed: dict[str, list[str]] = {}
    for entry in _visit_each(page, site, user, pages, log_in):
        # Open the folded parts (the remembered panel, the edit form) so their controls count.
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        found = page.evaluate(UNNAMED_CONTROLS_JS)
        if entry.name == "chat list":
            # One "Delete" per session: each says which session it deletes.
            expect(
                page.get_by_role("button", name=re.compile(r"^Delete\s*: Drinking oolong"))
            ).to_be_visible()
        if found:
            unnamed[entry.name] = found
    assert not unnamed, f"controls without an accessible name: {unnamed}"


def test_every_focused_element_shows_a_visible_focus_indicator(page, site, user, pages, log_in):
    invisible: dict[str, list[str]] = {}
    reached: dict[str, int] = {}
    for entry in _visit_each(page, site, user, pages, log_in):
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        seen: list[str] = []
        for _ in range(FOCUS_LIMIT):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUSED_JS)
            if focused is None:
                break
            seen.append(focused["html"])
            if not focused["visible"]:
                invisible.setdefault(entry.name, []).append(focused["html"])
        reached[entry.name] = len(seen)
    assert not invisible, f"focused without a visible indicator: {invisible}"
    # Tabbing went somewhere on every page: the sample is not vacuous.
    assert all(count >= 3 for count in reached.values()), reached


def _tab_to(page: Any, accessible: Callable[[dict[str, str]], bool], limit: int = 60) -> list:
    """Press Tab until the focused element matches; return what was focused on the way."""
    trail: list[dict[str, str]] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => {
              const el = document.activeElement;
              return {tag: el.tagName.toLowerCase(), name: el.getAttribute("name") || "",
                      text: (el.innerText || el.value || "").trim(),
                      label: Array.from(el.labels || []).map(l => l.innerText.trim()).join(" ")};
            }"""
        )
        trail.append(focused)
        if accessible(focused):
            return trail
    raise AssertionError(f"Tab never reached the control; focus went through {trail}")


def test_a_person_signs_in_chats_and_opens_their_memories_by_keyboard_alone(
    page, site, user, screenshot
):
    revision.memory_create(user=user, type="preference", content="I prefer green tea")
    page.goto(f"{site}/accounts/login/")

    # The login form starts in the username field; without autofocus Tab would reach it.
    if page.evaluate("() => document.activeElement.name") != "username":
        _tab_to(page, lambda el: el["name"] == "username")
    page.keyboard.type(user.get_username())
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.name") == "password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{site}/")
    expect(page.get_by_role("heading", name="Your conversations")).to_be_visible()

    trail = _tab_to(page, lambda el: el["tag"] == "button" and el["text"] == "New conversation")
    # The skip link comes first, then the main navigation, then the page's own controls.
    texts = [el["text"] for el in trail]
    assert texts[0] == "Skip to content", texts
    assert 0 < texts.index("Memories") < texts.index("New conversation"), texts
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/sessions/\d+/$"))

    _tab_to(page, lambda el: el["tag"] == "textarea" and el["label"] == "Message")
    page.keyboard.type("Hello! I am planning a trip to Jeju next month.")
    _tab_to(page, lambda el: el["tag"] == "button" and el["text"] == "Send", limit=3)
    page.keyboard.press("Enter")

    reply = page.locator("article.bubble--assistant").last
    expect(reply.locator("details.remembered")).to_be_attached(timeout=30_000)
    expect(reply.locator(".bubble__text")).not_to_be_empty()
    expect(page.locator("article.bubble--user").last).to_contain_text("trip to Jeju")

    # Back to the top of the page, then through the navigation to "my memories".
    page.keyboard.press("Control+Home")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    _tab_to(page, lambda el: el["tag"] == "a" and el["text"] == "Memories")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Your memories")).to_be_visible()
    # From the list, the search box and then a memory are reached in order.
    trail = _tab_to(page, lambda el: el["tag"] == "a" and el["text"] == "I prefer green tea")
    labels = [el["label"] for el in trail]
    assert "Search your memories" in labels, labels
    page.keyboard.press("Enter")
    expect(page.locator(".memory__content")).to_have_text("I prefer green tea")


def test_the_checks_catch_an_unlabelled_control_an_unseen_focus_tiny_text_and_a_wide_element(
    page, site
):
    """The checks above can fail: on a page broken on purpose each finds what was broken."""
    page.goto(f"{site}/accounts/login/")
    page.evaluate(
        """() => {
          const main = document.querySelector("main");
          main.insertAdjacentHTML("beforeend",
            '<input id="bare"><button id="empty"></button><select id="choice"></select>'
            + '<label>Wrapped <input id="wrapped"></label>'
            + '<p id="tiny">tiny</p><div id="wide">wide</div>');
          document.getElementById("tiny").style.fontSize = "10px";
          document.getElementById("wide").style.width = "2000px";
          const bare = document.getElementById("bare");
          bare.style.outline = "none";
          bare.style.boxShadow = "none";
          bare.focus();
        }"""
    )
    unnamed = page.evaluate(UNNAMED_CONTROLS_JS)
    assert [re.findall(r'id="(\w+)"', html) for html in unnamed] == [
        ["bare"],
        ["empty"],
        ["choice"],
    ]
    focused = page.evaluate(FOCUSED_JS)
    assert focused["visible"] is False and 'id="bare"' in focused["html"]
    assert any('id="tiny"' in found for found in page.evaluate(SMALL_TEXT_JS))
    width = page.evaluate(OVERFLOW_JS)
    assert width["scrollWidth"] > width["clientWidth"] + 1
    assert any('id="wide"' in html for html in width["wide"])


def test_every_page_fits_a_phone_without_sideways_scroll_or_tiny_text(
    browser, site, user, pages, log_in, screenshot
):
    context = browser.new_context(locale="en-US", viewport=PHONE)
    page = context.new_page()
    overflowing: dict[str, Any] = {}
    tiny: dict[str, list[str]] = {}
    try:
        for entry in _visit_each(page, site, user, pages, log_in):
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            width = page.evaluate(OVERFLOW_JS)
            if width["scrollWidth"] > width["clientWidth"] + 1:
                overflowing[entry.name] = width
            small = page.evaluate(SMALL_TEXT_JS)
            if small:
                tiny[entry.name] = small
            if entry.name == "chat session with a reply":
                screenshot(page, "09-chat-session-on-a-phone")
    finally:
        context.close()
    assert not overflowing, f"pages that scroll sideways at 390px: {overflowing}"
    assert not tiny, f"text under 12px: {tiny}"


def test_enter_sends_a_message_and_shift_enter_starts_a_new_line(page, site, user, log_in):
    log_in(page, user)
    page.goto(f"{site}/")
    page.get_by_role("button", name="New conversation").click()
    box = page.get_by_role("textbox", name="Message")
    expect(box).to_have_attribute("aria-describedby", "composer-hint")

    box.click()
    page.keyboard.type("First line")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("second line")
    expect(page.locator("article.bubble--user")).to_have_count(0)  # nothing sent yet
    page.keyboard.press("Enter")

    sent = page.locator("article.bubble--user")
    expect(sent).to_have_count(1)
    expect(sent.first).to_contain_text("First line")
    expect(sent.first).to_contain_text("second line")
    expect(page.locator("article.bubble--assistant .bubble__text").last).not_to_be_empty(
        timeout=30_000
    )
    posts: list[str] = []
    page.on(
        "request", lambda request: posts.append(request.url) if request.method == "POST" else None
    )
    box.press("Enter")  # an empty box is not sent
    page.wait_for_timeout(500)
    assert posts == []
    expect(box).to_have_value("")
