"""The memory pages a person lives in (issue 19 lines 2, 3 and 6): a light list with one line
per memory, edit and delete in the row (an inline confirmation, never confirm()), the memory's
own words as its title, numbers folded into details, receipts in words, calm delete buttons."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from conversations.services import chat, forgetting
from memories.models import DeletionReceipt, Memory, MemoryUse, MemoryVersion
from memories.receipt_words import receipt_copy_sentences, receipt_count_sentences
from tests.memories.conftest import current, version_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def _content(response) -> str:
    return response.content.decode()


def _row(page: str, memory: Memory) -> str:
    start = page.index(f'id="memory-row-{memory.pk}"')
    return page[start : page.index("</li>", start)]


def _used(memory: Memory, times: int) -> None:
    for rank in range(times):
        MemoryUse.objects.create(
            user=memory.user, memory=memory, version=version_of(current(memory)),
            message_id=1000 + rank, rank=1, score=0.5,
        )  # fmt: skip


# Line 2: the list


def test_a_row_is_the_memorys_words_its_type_when_and_how_often_it_was_used(logged_in, remember):
    memory = remember("I take the 7:40 train to work", "fact")
    _used(memory, 3)

    row = _row(_content(logged_in.get(reverse("memories:list"), **EN)), memory)

    assert "I take the 7:40 train to work" in row
    assert "Fact" in row and "used 3 times" in row
    assert "<time" in row
    assert "version 1" not in row and "0.90" not in row
    assert "badge--active" not in row  # only a status worth noticing is shown


def test_a_row_says_how_often_it_was_used_in_korean(logged_in, remember):
    memory = remember("출근할 때 7시 40분 기차를 타", "fact")
    _used(memory, 2)

    row = _row(_content(logged_in.get(reverse("memories:list"), **KO)), memory)

    assert "2번 쓰임" in row and "사실" in row


def test_a_memory_never_used_shows_no_use_count(logged_in, remember):
    memory = remember("I keep a sourdough starter", "fact")

    row = _row(_content(logged_in.get(reverse("memories:list"), **EN)), memory)

    assert "used" not in row


def test_each_row_has_edit_and_delete_that_work_without_javascript(logged_in, remember):
    memory = remember("I keep a sourdough starter", "fact")

    row = _row(_content(logged_in.get(reverse("memories:list"))), memory)

    edit = reverse("memories:edit", args=[memory.pk])
    delete = reverse("account:memory-delete", args=[memory.pk])
    assert f'href="{edit}"' in row and f'href="{delete}"' in row
    assert logged_in.get(edit).status_code == 200
    assert "Delete this memory for good?" in _content(logged_in.get(delete))


def test_the_row_holds_its_own_confirmation_and_the_page_never_calls_confirm(logged_in, remember):
    memory = remember("I keep a sourdough starter", "fact")

    page = _content(logged_in.get(reverse("memories:list")))
    row = _row(page, memory)

    assert "data-row-confirm hidden" in row
    assert "Delete for good" in row and "Keep it" in row
    assert "confirm(" not in page
    script = reverse("memories:list").split("/memories/")[0] + "/static/js/memory_rows.js"
    assert script in page
    assert "<script>" not in page  # no inline script under the CSP


def test_the_row_script_asks_in_the_page_and_waits_before_deleting():
    from pathlib import Path

    from django.conf import settings

    source = (Path(settings.BASE_DIR) / "static" / "js" / "memory_rows.js").read_text()

    code = "\n".join(line for line in source.splitlines() if not line.strip().startswith("//"))
    assert "confirm(" not in code and "alert(" not in code
    assert "setTimeout" in source and "clearTimeout" in source


def test_deleting_from_the_row_with_htmx_answers_with_the_receipt_link_and_no_flash(
    logged_in, user, remember
):
    memory = remember("I keep a sourdough starter", "fact")

    response = logged_in.post(
        reverse("account:memory-delete", args=[memory.pk]), {"fragment": "row"}, **HTMX
    )

    receipt = DeletionReceipt.objects.get(user=user)
    content = _content(response)
    assert response.status_code == 200
    assert content.lstrip().startswith(
        f'<li class="memory-card memory-card--gone" id="memory-row-{memory.pk}"'
    )
    assert reverse("memories:receipt", args=[receipt.id]) in content
    assert "sourdough" not in content
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert "deleted for good" not in _content(logged_in.get(reverse("memories:list")))


def test_deleting_without_javascript_still_redirects_to_the_receipt(logged_in, user, remember):
    memory = remember("I keep a sourdough starter", "fact")

    response = logged_in.post(
        reverse("account:memory-delete", args=[memory.pk]), {"fragment": "row"}
    )

    receipt = DeletionReceipt.objects.get(user=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("memories:receipt", args=[receipt.id])


def test_editing_in_the_row_keeps_the_other_fields_and_answers_with_the_row(logged_in, remember):
    memory = remember("I keep a sourdough starter", "fact", sensitivity="high")
    page = _content(logged_in.get(reverse("memories:list")))
    row = _row(page, memory)
    hidden = dict(
        re.findall(
            r'<input type="hidden" name="(type|sensitivity|expires_at)" value="([^"]*)"', row
        )
    )

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"fragment": "row", "content": "I keep two sourdough starters", **hidden},
        **HTMX,
    )

    content = _content(response)
    assert content.lstrip().startswith(f'<li class="memory-card" id="memory-row-{memory.pk}"')
    assert "I keep two sourdough starters" in content and "Saved as a new version." in content
    version = current(memory).current_version
    assert version.version == 2 and version.sensitivity == "high" and version.type == "fact"
    assert MemoryVersion.objects.filter(memory=memory).count() == 2


def test_an_edit_refused_in_the_row_keeps_the_form_open_with_the_reason(logged_in, remember):
    memory = remember("I keep a sourdough starter", "fact")

    response = logged_in.post(
        reverse("memories:edit", args=[memory.pk]),
        {"fragment": "row", "content": "   ", "type": "fact", "sensitivity": "normal"},
        **HTMX,
    )

    content = _content(response)
    assert "data-row-edit-form hidden" not in content and "data-row-edit-form" in content
    assert 'role="alert"' in content and 'aria-invalid="true"' in content
    assert current(memory).current_version.version == 1


def test_the_filters_stay_folded_until_one_is_used(logged_in, remember):
    remember("I keep a sourdough starter", "fact")

    plain = _content(logged_in.get(reverse("memories:list")))
    used = _content(logged_in.get(reverse("memories:list") + "?type=fact&expiring=on"))

    assert '<details class="filters__more">' in plain
    assert '<details class="filters__more" open>' in used
    assert "Filters (2 on)" in used
    assert 'name="q"' in plain  # the search box stays open


def test_the_memory_page_is_titled_with_its_own_words(logged_in, remember):
    memory = remember("I prefer my coffee without sugar", "preference")

    page = _content(logged_in.get(reverse("memories:detail", args=[memory.pk]), **KO))

    assert "<title>I prefer my coffee without sugar · memoryhub</title>" in page
    assert re.search(r"<h1[^>]*>I prefer my coffee without sugar</h1>", page)
    assert f"기억 {memory.pk}" not in page and f"Memory {memory.pk}" not in page


def test_a_long_memory_is_shortened_in_its_title_and_quoted_in_full(logged_in, remember):
    words = "I am learning to play the cello " + "and practise scales every evening " * 5
    memory = remember(words.strip(), "fact")

    page = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))

    title = re.search(r"<title>(.*?) · memoryhub</title>", page).group(1)
    assert title.endswith("…") and len(title) <= 60
    assert '<blockquote class="memory__content">' + words.strip() in page


def test_numbers_a_person_does_not_need_are_only_in_the_details(logged_in, user, remember):
    memory = remember("I prefer my coffee without sugar", "preference")
    _used(memory, 1)

    page = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))

    details = page.index('<details class="memory__section memory__details">')
    for number in ("Confidence", "Rank", "Memory number"):
        assert page.index(number) > details, number
    assert "ranked" not in page


def test_a_memory_never_used_says_so_instead_of_in_0_replies(logged_in, user, remember):
    memory = remember("I water the plants on Sundays", "fact")
    url = reverse("memories:detail", args=[memory.pk])

    english = _content(logged_in.get(url, **EN))
    korean = _content(logged_in.get(url, **KO))
    _used(memory, 2)
    used = _content(logged_in.get(url, **EN))

    assert "not in any reply yet" in english and "in 0 replies" not in english
    assert "아직 답장에 쓰인 적 없음" in korean and "답장 0개" not in korean
    assert "in 2 replies" in used and "not in any reply yet" not in used


# Line 3: receipts


def _session(user, title: str):
    session = chat.chat_session_create(user=user)
    session.title = title
    session.save(update_fields=["title"])
    return session


def test_a_receipt_says_by_kind_in_words_what_was_removed_and_links_the_conversations(
    logged_in, user
):
    first = _session(user, "Weekend baking")
    second = _session(user, "Train times")
    receipt = DeletionReceipt.objects.create(
        user=user, kind="memory", memory_id="77",
        removed={"memories": 1, "versions": 2, "embeddings": 2, "keyword_indexes": 2,
                 "uses": 3, "conflict_links": 0, "cached_copies": 6},
        copies=[
            {"kind": "reply", "session_id": str(first.pk), "date": "2026-11-20", "count": 2},
            {"kind": "reply", "session_id": str(second.pk), "date": "2026-11-21", "count": 1},
            {"kind": "statement", "session_id": str(first.pk), "date": "2026-11-20"},
            {"kind": "summary", "session_id": "999999", "date": "2026-11-02"},
        ],
    )  # fmt: skip
    url = reverse("memories:receipt", args=[receipt.id])

    english = _content(logged_in.get(url, **EN))
    korean = _content(logged_in.get(url, **KO))

    assert "Removed the sentence from 3 replies in 2 conversations." in english
    assert "Removed the sentence from 1 of your messages in 1 conversation." in english
    assert (
        "1 memory was deleted." in english
        and "2 saved versions of the text were deleted." in english
    )
    assert "It was taken out of the “remembered” list of 1 reply." in english
    assert "link to a contradicting" not in english  # a zero says nothing
    assert "대화 2개의 답장 3곳에서 해당 문장을 지웠어요." in korean
    for session in (first, second):
        assert f'href="{reverse("chat:session-detail", args=[session.pk])}"' in english
    assert "Weekend baking" in english and "A conversation deleted since" in english
    assert reverse("chat:session-detail", args=[999999]) not in english


def test_a_real_deletion_counts_each_reply_it_changed_and_never_keeps_the_text(user):
    session = chat.chat_session_create(user=user)
    from conversations.models import Message

    for text in (
        "Noted: your sister Hana lives in Daejeon.",
        "Since Hana lives in Daejeon, visit her.",
    ):
        Message.objects.create(
            user=user, session=session, role=Message.Role.ASSISTANT, content=text
        )
    from memories.services import revision

    memory = revision.memory_create(
        user=user, type="fact", content="My sister Hana lives in Daejeon"
    )

    receipt = forgetting.memory_forget(user=user, memory=memory)

    replies = [c for c in receipt.copies if c["kind"] == "reply"]
    assert sum(c["count"] for c in replies) == 2
    assert "Daejeon" not in str(receipt.copies) and "Hana" not in str(receipt.removed)


@translation.override("en")
def test_receipt_sentences_use_plurals_in_english():
    assert receipt_copy_sentences([{"kind": "reply", "session_id": "1", "date": "2026-11-20"}]) == [
        "Removed the sentence from 1 reply in 1 conversation."
    ]
    assert receipt_count_sentences({"memories.memories": 2, "sessions": 1, "messages": 0}) == [
        "1 conversation was deleted.",
        "2 memories were deleted.",
    ]


@translation.override("en")
def test_a_receipt_of_unknown_keys_still_counts_them_without_naming_codes():
    sentences = receipt_count_sentences({"someday_new": 4})

    assert sentences == ["4 other records were deleted."]


def test_the_receipt_list_names_no_memory_number(logged_in, user, remember):
    memory = remember("I keep a sourdough starter", "fact")
    forgetting.memory_forget(user=user, memory=memory)

    page = _content(logged_in.get(reverse("memories:receipts")))

    assert f"memory {memory.pk}" not in page
    assert date.today().year and "One memory" in page


# Line 6: calm deletes


def test_delete_buttons_are_secondary_and_only_the_confirmation_step_is_strong(logged_in, remember):
    memory = remember("I keep a sourdough starter", "fact")

    listing = _content(logged_in.get(reverse("memories:list")))
    detail = _content(logged_in.get(reverse("memories:detail", args=[memory.pk])))
    confirm = _content(logged_in.get(reverse("account:memory-delete", args=[memory.pk])))

    assert "button--danger" not in detail
    row = _row(listing, memory)
    confirmation = row[row.index("data-row-confirm") :]
    assert row.count("button--danger") == 1 and "button--danger" in confirmation
    assert 'class="button button--danger">' in confirm


def test_a_receipt_with_counted_copies_still_fits_the_api_and_the_agents_record(user):
    from account.mcp.server import DeletionReceiptRecord
    from memories.serializers import DeletionReceiptSerializer

    receipt = DeletionReceipt.objects.create(
        user=user,
        kind="memory",
        removed={"memories": 1},
        copies=[{"kind": "reply", "session_id": "4", "date": "2026-11-20", "count": 2}],
    )

    record = DeletionReceiptRecord.model_validate(DeletionReceiptSerializer(receipt).data)

    assert record.copies == [{"kind": "reply", "session_id": "4", "date": "2026-11-20", "count": 2}]
