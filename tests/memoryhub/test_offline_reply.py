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
                                      answers=True)])  # fmt: skip
    en = _reply("en", items=[Recalled("message", "I fly to Busan next Friday", at=said,
                                      answers=True)])  # fmt: skip

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
    reply = _reply("en", question=False, items=[
        Recalled("memory", "Lives in Gangnam, Seoul", related=True),
    ])  # fmt: skip

    assert "Here is what I recall about it. I remember “Lives in Gangnam, Seoul”." in reply


def test_later_memories_are_added_without_repeating_the_lead():
    reply = _reply("ko", kind="current", items=[
        Recalled("memory", "부산 해운대에 삶", answers=True),
        Recalled("memory", "고양이를 키움", related=True),
    ])  # fmt: skip

    assert "지금은 “부산 해운대에 삶”라고 기억하고 있어요." in reply
    assert "“고양이를 키움”라는 것도 기억하고 있어요." in reply
    assert reply.count("지금은") == 2  # the lead, and the closing "지금은 언어 모델 없이"


def test_a_related_memory_that_does_not_answer_gets_no_lead_of_the_kind():
    reply = _reply("en", kind="plans", items=[Recalled("memory", "Likes jazz", related=True)])

    assert reply.startswith("I don't have anything remembered about this yet.")
    assert "I remember “Likes jazz”." in reply and "What you planned" not in reply


def test_at_most_a_few_things_are_quoted_the_rest_stays_in_the_panel():
    items = [Recalled("memory", f"fact number {i}", answers=True) for i in range(MAX_ITEMS + 3)]

    reply = _reply("en", items=items)

    assert reply.count("“") == MAX_ITEMS


def test_a_summary_is_told_apart_from_what_the_user_said():
    reply = _reply("ko", items=[
        Recalled("summary", "이사 준비와 짐 정리", at=datetime(2026, 11, 30), answers=True),
        Recalled("message", "포장 이사로 하기로 했어", at=datetime(2026, 11, 30), answers=True),
    ])  # fmt: skip

    assert "어제 나눈 대화는 “이사 준비와 짐 정리”라는 내용이었어요." in reply
    assert "어제 “포장 이사로 하기로 했어”라고 하셨어요." in reply


def test_quotes_lose_internal_labels_and_long_text_is_cut_at_a_word():
    assert quote("[message 5, 2026-12-01] 부산 출장") == "부산 출장"
    assert quote("[memory 3 v1, fact] Lives in Busan") == "Lives in Busan"
    long = " ".join(["word"] * 60)
    cut = quote(long)
    assert len(cut) <= 121 and cut.endswith("word…")


def test_an_item_with_no_text_left_is_not_quoted():
    reply = _reply("en", items=[Recalled("message", "[message 9, 2026-01-01]  ", answers=True)])

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
    recalled = [Recalled(kind="message", text="[removed].", answers=True)]

    reply = compose(
        language="en", question=True, kind="", recalled=recalled, today=date(2026, 12, 2)
    )

    assert reply.startswith("I don't have anything remembered about this yet.")


# --- nothing recalled answers: say so, never list what is unrelated (issue 14 line 8) ------


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("kind", ["", "plans", "preference", "past", "current"])
def test_recalled_things_that_neither_answer_nor_relate_are_never_quoted(language, kind):
    unrelated = [
        Recalled("memory", "고양이를 키움"),
        Recalled("message", "I moved to Busan last spring", at=datetime(2026, 11, 2)),
        Recalled("summary", "회사 워크숍 준비", at=datetime(2026, 10, 9)),
    ]

    reply = _reply(language, kind=kind, items=unrelated)

    assert "“" not in reply
    nothing = {"ko": "기억하고 있는 내용은 아직 없어요", "en": "I don't have anything remembered"}
    assert nothing[language] in reply


def test_when_nothing_answers_the_reply_says_so_before_what_is_related():
    ko = _reply("ko", kind="plans", items=[
        Recalled("memory", "여행 갈 때 창가 자리를 좋아함", related=True),
    ])  # fmt: skip
    en = _reply("en", kind="past", items=[
        Recalled("message", "my sister's wedding was lovely", at=datetime(2026, 11, 29),
                 related=True),
    ])  # fmt: skip

    assert ko.startswith("이 질문과 관련해 기억하고 있는 내용은 아직 없어요. 관련해서 기억나는")
    assert "“여행 갈 때 창가 자리를 좋아함”" in ko
    assert en.startswith("I don't have anything remembered about this yet. Here is what I do")
    assert "2 days ago you said “my sister's wedding was lovely”." in en


def test_answers_come_before_what_is_only_related_whatever_the_order_given():
    reply = _reply("en", kind="preference", items=[
        Recalled("memory", "Visited a jazz bar in Seoul", related=True),
        Recalled("memory", "Loves jazz piano trios", answers=True),
    ])  # fmt: skip

    assert reply.startswith("What you like: “Loves jazz piano trios”.")
    assert reply.index("piano") < reply.index("jazz bar")


# --- a message with nothing to recall gets a few words ----------------------------------------


@pytest.mark.parametrize(
    ("small_talk", "ko", "en"),
    [
        ("thanks", "천만에요", "You're welcome"),
        ("laugh", "ㅎㅎ", "Haha"),
        ("ack", "알겠어요", "Okay"),
        ("greeting", "안녕하세요", "Hi"),
        ("wellbeing", "잘 지내고 있어요", "doing well"),
        ("bye", "다음에", "later"),
        ("ask", "말씀해 주시겠어요", "tell me a bit more"),
    ],
)
def test_small_talk_gets_a_short_reply_without_recall_or_notice(small_talk, ko, en):
    items = [Recalled("memory", "Loves jazz", answers=True)]
    replies = {
        language: compose(language=language, question=False, kind="", recalled=items,
                          today=TODAY, small_talk=small_talk)
        for language in ("ko", "en")
    }  # fmt: skip

    assert ko in replies["ko"] and en in replies["en"]
    for reply in replies.values():
        assert len(reply) <= 60 and "“" not in reply and "language model" not in reply


# --- internal markers never reach the reply; dates as a person writes them ------------------


@pytest.mark.parametrize(
    ("text", "ko", "en"),
    [
        ("회의 2026-12-11T15:30:00+09:00", "회의 12월 11일 오후 3시 30분",
         "회의 December 11, 3:30 PM"),
        ("dentist on 2025-03-04", "dentist on 2025년 3월 4일", "dentist on March 4, 2025"),
        ("[message 5, 2026-12-01] 부산 출장", "부산 출장", "부산 출장"),
        ("(nothing found) 제주 여행", "제주 여행", "제주 여행"),
        ("set MEMORYHUB_CONTEXT_TOKEN_BUDGET to 900 tokens", "set to 900 tokens",
         "set to 900 tokens"),
        ("ANTHROPIC_API_KEY 없이도 된다고 했지", "없이도 된다고 했지", "없이도 된다고 했지"),
        ("비번은 [redacted: password]이고, 와이파이는 2층 공유기야", "와이파이는 2층 공유기야",
         "와이파이는 2층 공유기야"),
        ("I fly to Busan Friday, password is [redacted: password]", "I fly to Busan Friday",
         "I fly to Busan Friday"),
    ],
)  # fmt: skip
def test_a_quote_shows_no_machinery_and_dates_as_a_person_writes_them(text, ko, en):
    assert quote(text, language="ko", today=TODAY) == ko
    assert quote(text, language="en", today=TODAY) == en


@pytest.mark.parametrize("language", ["ko", "en"])
def test_no_marker_reaches_a_reply_built_from_marked_texts(language):
    items = [
        Recalled("memory", "[memory 3 v1, fact] 2026-12-11 부산 출장 (nothing found)",
                 answers=True),
        Recalled("message", "[message 5, 2026-12-01T09:00:00Z] MEMORYHUB_OFFLINE 켜 둠, "
                 "pin [redacted: pin]", at=datetime(2026, 11, 30), answers=True),
        Recalled("summary", "[session 4] 출장 준비 [removed]", at=None, related=True),
    ]  # fmt: skip

    reply = _reply(language, kind="plans", items=items)

    assert not MARKERS.search(reply), reply
    assert not re.search(r"\d{4}-\d\d-\d\d|[A-Z]+_[A-Z]+", reply), reply
