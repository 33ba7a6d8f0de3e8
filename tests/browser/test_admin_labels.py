"""Every list and change page of the project's models in the admin, as staff see them in Korean
and English (issue 19 line 7): column headers, filters, field labels and help read in the
reader's language. Screenshots: test-artifacts/admin-<model>-<list|change>-<language>.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib import admin
from django.utils import timezone
from playwright.sync_api import expect

from conversations.models import HistoryImport
from conversations.services import chat, forgetting, tag_weights
from memories.models import ExtractionRun, MemoryUse
from memories.services import agents, revision
from memoryhub import embeddings, text
from memoryhub.models import LLMCall

pytestmark = pytest.mark.browser

STAFF_PASSWORD = "a-long-password-7"
PROJECT_APPS = ("conversations", "memories", "memoryhub")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Labels that read the same in both languages.
SHARED = {"ID", "LLM"}


@pytest.fixture(scope="module", autouse=True)
def _models_loaded():
    """The live server runs in this process: load Kiwi and the embedder before the first
    message is stored."""
    text.warm_up()
    embeddings.embed_passages(["준비 ready"])


def _one_of_each(user):
    """A row of every project model the admin lists, written the way the product writes them."""
    conversation = chat.chat_session_create(user=user)
    message, _topic = chat.message_add_user(
        session=conversation, content="I keep my bike in the hallway at night"
    )
    reply = "".join(chat.reply_stream(message=message))
    assert reply
    kept = revision.memory_create(user=user, type="fact", content="I ride a green bike")
    forgotten = revision.memory_create(user=user, type="fact", content="I park on level two")
    forgetting.memory_forget(user=user, memory=forgotten)
    assert kept.current_version is not None
    if not MemoryUse.objects.exists():
        MemoryUse.objects.create(
            user=user,
            memory=kept,
            version=kept.current_version,
            message_id=message.pk + 1,
            rank=1,
            score=0.8,
        )
    ExtractionRun.objects.create(
        user=user, source_message_id=message.pk, provider="offline", status="done"
    )
    tag_weights.tag_weights_add(
        user_id=user.pk, tags=["bike"], amount=1.0, at=timezone.now() - timedelta(days=1)
    )
    HistoryImport.objects.create(user=user, status="done", total=2, done=2, sessions_done=1)
    agents.agent_create(user=user, name="Notes app", scopes=["read", "write"])
    LLMCall.objects.create(user=user, task="reply", provider="offline", model="offline")


def _admin_models():
    return sorted(
        (m for m in admin.site._registry if m._meta.app_label in PROJECT_APPS),
        key=lambda m: (m._meta.app_label, m._meta.model_name),
    )


def _labels(page):
    """Every label of the page's own: column headers, filter titles, field labels, help."""
    texts = page.locator(
        "#result_list thead th .text, #changelist-filter details summary,"
        " #content-main fieldset label, #content-main .help, .inline-group thead th"
    ).all_inner_texts()
    return [t.strip().rstrip(":").strip() for t in texts if t.strip()]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_every_admin_page_of_a_project_model_reads_in_the_readers_language(
    browser, site, user, django_user_model, screenshot, language
):
    staff = django_user_model.objects.create_superuser(username="root", password=STAFF_PASSWORD)
    _one_of_each(user)
    context = browser.new_context(
        locale="ko-KR" if language == "ko" else "en-US", viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    wrong: dict[str, list[str]] = {}
    seen = 0
    try:
        page.goto(f"{site}/admin/login/")
        page.fill("input[name=username]", staff.get_username())
        page.fill("input[name=password]", STAFF_PASSWORD)
        page.locator("input[type=submit]").click()
        page.wait_for_url(f"{site}/admin/")
        for model in _admin_models():
            meta = model._meta
            first = model._default_manager.order_by("pk").first()
            assert first is not None, f"no {meta.model_name} to show"
            base = f"{site}/admin/{meta.app_label}/{meta.model_name}/"
            for kind, url in (("list", base), ("change", f"{base}{first.pk}/change/")):
                page.goto(url)
                expect(page.locator("#content-main")).to_be_visible()
                # Folded groups (technical fields, filters) open, so their labels show.
                page.evaluate(
                    "document.querySelectorAll('#content-main details')"
                    ".forEach(details => { details.open = true; })"
                )
                labels = _labels(page)
                assert labels, url
                seen += len(labels)
                if language == "ko":
                    bad = [t for t in labels if not HANGUL.search(t) and t not in SHARED]
                else:
                    bad = [t for t in labels if HANGUL.search(t)]
                if bad:
                    wrong[f"{meta.model_name} {kind}"] = bad
                screenshot(page, f"admin-{meta.model_name}-{kind}-{language}")
    finally:
        context.close()

    assert seen > 200
    assert wrong == {}
