"""Relative dates resolved against the message's day: pure, no database."""

from datetime import UTC, date, datetime

import pytest

from memories.logic import dates

# A Tuesday.
TODAY = date(2026, 12, 1)


def _days(text: str, *, future: bool = False) -> list[date]:
    return [m.day for m in dates.resolve_dates(text, today=TODAY, future=future)]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("다음 주 금요일에 부산 가", date(2026, 12, 11)),
        ("담주 월요일 회의", date(2026, 12, 7)),
        ("이번 주 목요일까지 내야 돼", date(2026, 12, 3)),
        ("모레 치과 가", date(2026, 12, 3)),
        ("내일 면접 있어", date(2026, 12, 2)),
        ("낼 병원 가", date(2026, 12, 2)),
        ("어제 운전면허 땄어", date(2026, 11, 30)),
        ("이번 주말에 캠핑 가", date(2026, 12, 5)),
        ("다음 주말에 이사해", date(2026, 12, 12)),
        ("3일 뒤에 출국해", date(2026, 12, 4)),
        ("2주 후에 복직해", date(2026, 12, 15)),
        ("다음 달 10일이 마감이야", date(2027, 1, 10)),
        ("금요일에 회식 있어", date(2026, 12, 4)),
        ("I'm flying out next Friday", date(2026, 12, 11)),
        ("the party is this Saturday", date(2026, 12, 5)),
        ("the exam is tomorrow", date(2026, 12, 2)),
        ("we move the day after tomorrow", date(2026, 12, 3)),
        ("I start in two weeks", date(2026, 12, 15)),
        ("in 10 days I leave", date(2026, 12, 11)),
        ("this weekend I'm hiking", date(2026, 12, 5)),
        ("the appointment is on the 14th", date(2026, 12, 14)),
        ("we meet on Thursday", date(2026, 12, 3)),
    ],
)
def test_a_relative_date_names_one_day_counted_from_the_message(text, day):
    assert _days(text) == [day]


def test_a_month_and_day_already_past_is_next_years_only_for_what_is_to_come():
    assert _days("3월 8일에 결혼식 해", future=True) == [date(2027, 3, 8)]
    assert _days("3월 8일에 결혼식 했어") == [date(2026, 3, 8)]
    assert _days("March 22 I fly to Lisbon", future=True) == [date(2027, 3, 22)]
    assert _days("I fly on 22 March", future=True) == [date(2027, 3, 22)]


def test_the_nth_weekday_of_a_month_is_counted_from_its_first_such_weekday():
    assert _days("1월 둘째 주 일요일로 잡았어", future=True) == [date(2027, 1, 10)]
    assert _days("1월 마지막 주 금요일", future=True) == [date(2027, 1, 29)]


def test_a_weekday_said_with_its_date_is_one_mention_not_two():
    assert _days("12월 19일 토요일에 만나", future=True) == [date(2026, 12, 19)]


def test_two_weekdays_named_bare_are_a_schedule_not_a_day():
    assert _days("분리수거는 화요일이랑 금요일") == []
    assert _days("I swim on Monday and on Thursday") == []


def test_words_that_only_contain_a_day_word_are_not_dates():
    assert _days("오늘따라 우울하네") == []
    assert _days("매주 금요일마다 수영해") == []
    assert _days("I run on Sunday mornings") == []


def test_the_text_gets_the_absolute_day_in_place_of_the_relative_one():
    korean = dates.with_absolute_dates("다음 주 금요일에 부산 출장", today=TODAY, korean=True)
    english = dates.with_absolute_dates("Flying to Tokyo next Friday", today=TODAY, korean=False)

    assert korean == "2026-12-11(금)에 부산 출장"
    assert english == "Flying to Tokyo on 2026-12-11 (Fri)"
    assert dates.with_absolute_dates("Meeting on the 14th", today=TODAY, korean=False) == (
        "Meeting on 2026-12-14 (Mon)"
    )


def test_an_event_expires_a_few_days_after_its_day_is_over():
    expiry = dates.event_expiry(date(2026, 12, 11), tz=UTC)

    assert expiry == datetime(2026, 12, 12, tzinfo=UTC) + dates.EVENT_GRACE
    assert expiry > datetime(2026, 12, 11, 23, 59, tzinfo=UTC)


def test_a_span_of_time_named_without_a_day_is_its_first_and_last_day():
    wednesday = date(2026, 12, 2)
    next_week = (date(2026, 12, 7), date(2026, 12, 13))

    assert dates.periods("what are my plans next week?", today=wednesday) == [next_week]
    assert dates.periods("다음 주 계획 뭐였지?", today=wednesday) == [next_week]
    assert dates.periods("담주에 이사해", today=wednesday) == [next_week]
    assert dates.periods("다음 달에 뭐 하지?", today=wednesday) == [
        (date(2027, 1, 1), date(2027, 1, 31))
    ]
    assert dates.periods("this weekend", today=wednesday) == [
        (date(2026, 12, 5), date(2026, 12, 6))
    ]


def test_a_day_named_inside_a_week_is_that_day_not_the_week():
    assert dates.periods("다음 주 금요일에 출장", today=date(2026, 12, 2)) == [
        (date(2026, 12, 11), date(2026, 12, 11))
    ]
