"""The offline reply reads like an answer (issue 14 line 9). No database."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from memoryhub.offline_reply import MAX_ITEMS, Recalled, compose, quote, when_phrase

TODAY = date(2026, 12, 1)
# Internal markers that must never be in a reply a person reads.
MARKERS = re.compile(
    r"\[(?:message|memory|session|topic)\b|\(nothing found\)|\[removed\]|\[redacted:|"
    r"\d{4}-\d\d-\d\dT|ANTHROPIC_API_KEY|MEMORYHUB_"
)


def _reply(language, *, question=True, kind="", items=()):
    return compose(language=language, question=question, kind=kind, recalled=items, today=TODAY)


def test_a_korean_plan_question_is_answered_with_the_plan_in_korean():
    reply = _reply("ko", kind="plans", items=[
        Recalled("memory", "12월 11일 부산 출장", answers=True),
    ])  # fmt: skip

    assert reply.startswith("하기로 하신 일은 “12월 11일 부산 출장”라고 기억하고 있어요.")
    assert "언어 모델 없이" in reply
    assert not MARKERS.search(reply)


def test_an_english_plan_question_is_answered_with_the_plan_in_english():
    reply = _reply("en", kind="plans", items=[
        Recalled("memory", "Business trip to Busan on December 11", answers=True),
    ])  # fmt: skip

    assert reply.startswith("What you planned: “Business trip to Busan on December 11”.")
    assert "without a language model" in reply


def test_a_message_is_quoted_with_when_it_was_said_as_a_person_says_it():
    said = datetime(2026, 11, 28, 9, 30)
    ko = _reply("ko", items=[Recalled("message", "다음 주 금요일에 부산 출장 가", at=said,
                                      said_by="user")])  # fmt: skip
    en = _reply("en", items=[Recalled("message", "I fly to Busan next Friday", at=said,
                                      said_by="user")])  # fmt: skip

    assert "3일 전에 “다음 주 금요일에 부산 출장 가”라고 하셨어요." in ko
    assert "3 days ago you said “I fly to Busan next Friday”." in en


@pytest.mark.parametrize(
    ("at", "ko", "en"),
    [
        (None, "지난번에", "Earlier"),
        (datetime(2026, 12, 1, 8), "오늘", "Earlier today"),
        (datetime(2026, 11, 30, 23), "어제", "Yesterday"),
        (datetime(2026, 11, 26), "5일 전에", "5 days ago"),
        (datetime(2026, 3, 4), "3월 4일에", "On March 4"),
        (datetime(2025, 7, 9), "2025년 7월 9일에", "On July 9, 2025"),
    ],
)
def test_times_read_as_words_never_as_iso(at, ko, en):
    assert when_phrase(at, today=TODAY, language="ko") == ko
    assert when_phrase(at, today=TODAY, language="en") == en


def test_an_empty_memory_says_so_plainly_in_each_language():
    ko = _reply("ko")
    en = _reply("en")

    assert ko.startswith("이 질문과 관련해 기억하고 있는 내용은 아직 없어요.")
    assert en.startswith("I don't have anything remembered about this yet.")
    assert not MARKERS.search(ko) and not MARKERS.search(en)


def test_a_statement_is_acknowledged_not_answered_as_a_question():
    ko = _reply("ko", question=False)
    en = _reply("en", question=False)

    assert ko.startswith("말씀하신 내용 잘 들었어요.") and "아직 없어요" not in ko
    assert en.startswith("Got it") and "don't have anything" not in en


def test_a_statement_with_something_related_says_what_it_recalls():
    reply = _reply("en", question=False, items=[Recalled("memory", "Lives in Gangnam, Seoul")])

    assert "Here is what I recall about it. I remember “Lives in Gangnam, Seoul”." in reply


def test_later_memories_are_added_without_repeating_the_lead():
    reply = _reply("ko", kind="current", items=[
        Recalled("memory", "부산 해운대에 삶", answers=True),
        Recalled("memory", "고양이를 키움"),
    ])  # fmt: skip

    assert "지금은 “부산 해운대에 삶”라고 기억하고 있어요." in reply
    assert "“고양이를 키움”라는 것도 기억하고 있어요." in reply
    assert reply.count("지금은") == 2  # the lead, and the closing "지금은 언어 모델 없이"


def test_a_memory_that_does_not_answer_gets_no_lead_of_the_kind():
    reply = _reply("en", kind="plans", items=[Recalled("memory", "Likes jazz")])

    assert reply.startswith("I remember “Likes jazz”.")


def test_at_most_a_few_things_are_quoted_the_rest_stays_in_the_panel():
    items = [Recalled("memory", f"fact number {i}") for i in range(MAX_ITEMS + 3)]

    reply = _reply("en", items=items)

    assert reply.count("“") == MAX_ITEMS


def test_a_summary_and_an_assistant_reply_are_told_apart_from_what_the_user_said():
    reply = _reply("ko", items=[
        Recalled("summary", "이사 준비와 짐 정리", at=datetime(2026, 11, 30)),
        Recalled("message", "포장 이사를 추천드려요", at=datetime(2026, 11, 30),
                 said_by="assistant"),
    ])  # fmt: skip

    assert "어제 나눈 대화는 “이사 준비와 짐 정리”라는 내용이었어요." in reply
    assert "어제 제가 “포장 이사를 추천드려요”라고 답했어요." in reply


def test_quotes_lose_internal_labels_and_long_text_is_cut_at_a_word():
    assert quote("[message 5, 2026-12-01] 부산 출장") == "부산 출장"
    assert quote("[memory 3 v1, fact] Lives in Busan") == "Lives in Busan"
    long = " ".join(["word"] * 60)
    cut = quote(long)
    assert len(cut) <= 121 and cut.endswith("word…")


def test_an_item_with_no_text_left_is_not_quoted():
    reply = _reply("en", items=[Recalled("message", "[message 9, 2026-01-01]  ")])

    assert "“" not in reply and reply.startswith("I don't have anything")


def test_a_quote_keeps_no_removal_marker_and_no_unpaired_bracket():
    for text, expected in [
        ("I quit my job at the bank [removed]).", "I quit my job at the bank."),
        ("나 은행 그만두고 [removed]).", "나 은행 그만두고."),
        ("a walk (with [removed]) after lunch", "a walk (with) after lunch"),
        ("“[removed]”", ""),
        ("[removed].", ""),
    ]:
        assert quote(text) == expected


def test_a_text_left_with_no_words_after_a_deletion_is_not_quoted():
    recalled = [Recalled(kind="message", text="[removed].", said_by="user")]

    reply = compose(
        language="en", question=True, kind="", recalled=recalled, today=date(2026, 12, 2)
    )

    assert reply.startswith("I don't have anything remembered about this yet.")
