"""The offline statement analyser on kinds of chat a tester's blind set showed misread: other
people's news, quoted wisdom, questions and partings without a question mark, and the user's own
facts said in chat shapes. No database.

Every sentence here was written for these tests (none is a corpus line).
"""

from datetime import date

import pytest

from memories.logic import rules
from memories.logic.extraction_schema import ExtractedItem

# A Tuesday.
TODAY = date(2026, 12, 1)


def _items(text: str) -> list[ExtractedItem]:
    return rules.extract_statements(text, today=TODAY)


def _notes(text: str) -> list[str]:
    return [item.content for item in _items(text)]


# --- a neighbour, a boss: their habits are theirs -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "윗집 아줌마는 매일 아침 피아노를 침",
        "옆집 할머니가 매일 텃밭을 가꾸셔",
        "우리 팀장님은 주말마다 골프 치심",
        "우리 사장님은 회의 때마다 같은 농담 하심",
        "Our landlord repaints the hallway every spring.",
        "The lady next door walks three dogs at dawn",
        "My supervisor always eats lunch at her desk",
    ],
)
def test_a_neighbours_or_a_bosss_habit_is_not_the_users(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("저 중학교 수학 선생님이에요", "수학 선생님"),
        ("제가 이 학원 원장님이에요", "원장님"),
        ("저 초등학교 교장선생님입니다", "교장선생님"),
        ("I'm a high school chemistry teacher", "chemistry teacher"),
    ],
)
def test_the_users_own_job_named_with_an_honorific_is_still_theirs(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


# --- someone's words passed on, a proverb, a motto ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "아빠가 주말에 집에 오라고 전화함",
        "언니가 같이 여행 가자고 카톡함",
        "이모가 언제 결혼하냐고 또 물어봄",
        "My mom texted asking if I'd eaten",
        "Dad called to tell me to come home this weekend",
        "my sister messaged me saying she got a new car",
    ],
)
def test_a_message_someone_sent_the_user_is_their_words_not_a_fact(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "할머니가 늘 말씀하셨듯이 건강이 최고야",
        "삼촌이 늘 말했듯이 돈은 모으는 게 아니라 불리는 거래",
        "엄마가 항상 하는 말이 밥이 보약이다",
        "속담에 가는 말이 고와야 오는 말이 곱다고 하잖아",
        "Like my aunt always says, never go to bed angry.",
        "As my old coach would say, pain is temporary.",
        "As the saying goes, the early bird catches the worm",
    ],
)
def test_a_saying_attributed_to_someone_is_quoted_wisdom_not_a_fact(text):
    assert _notes(text) == []


def test_the_users_own_words_said_again_still_stand():
    assert any("갑각류" in note for note in _notes("전에 말했듯이 나 갑각류 알레르기 있어"))


# --- questions and partings without a question mark ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "이 노트북 얼마임",
        "다음 공휴일 언제야",
        "서울에서 부산까지 거리 얼마예요",
        "how many calories in a banana",
        "how much is a ticket to osaka",
    ],
)
def test_a_question_word_as_the_predicate_asks_without_a_question_mark(text):
    assert _notes(text) == []


def test_a_question_word_before_a_noun_asks_nothing():
    assert any("이사" in note for note in _notes("얼마 전에 이사했어"))


@pytest.mark.parametrize(
    "text",
    [
        "내일 다시 봐요",
        "다음에 또 만나요",
        "이따 얘기해",
        "낼 보자",
        "See you tomorrow!",
        "talk to you on monday",
        "catch you later tonight",
    ],
)
def test_a_parting_that_names_only_when_is_small_talk(text):
    assert _notes(text) == []


def test_a_meeting_that_names_whom_is_still_a_plan():
    assert any("친구 만남" in note for note in _notes("내일 친구 만나"))


# --- the user's facts in chat shapes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("저는 채식주의자라 고기 들어가면 못 먹어요", "채식주의자"),
        ("나 완전 아침형 인간이라 7시 넘으면 졸려", "아침형"),
        ("ENFP라 혼자 오래 있으면 우울해짐", "ENFP"),
    ],
)
def test_a_condition_after_a_stated_reason_is_a_standing_trait(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("오이 진짜 싫어함 냄새만 맡아도 토할거같음;;", "오이"),
        ("땅콩 알레르기 있음;; 조금만 먹어도 두드러기 남", "땅콩"),
        ("고수 못먹음 비누맛남", "고수"),
    ],
)
def test_a_nominal_ending_ends_a_chat_sentence_and_a_sweat_drop_is_no_code(text, word):
    assert any(word in note for note in _notes(text)), _notes(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("여름보다 겨울이 더 좋음", "겨울"),
        ("커피보다 차가 더 좋아", "차가"),
        ("회의는 오전이 좋아요", "오전"),
        ("여행은 혼자가 좋음", "혼자"),
    ],
)
def test_a_comparison_or_a_choice_for_a_topic_is_a_lasting_taste(text, word):
    items = _items(text)

    assert [(item.type, word in item.content) for item in items] == [("preference", True)]


@pytest.mark.parametrize("text", ["오늘은 날씨가 좋아", "요즘은 컨디션이 좋아", "기분이 좋아"])
def test_how_things_are_today_is_still_passing(text):
    assert _notes(text) == []


@pytest.mark.parametrize(
    "text", ["담주 토욜에 이사 도와줘야 됨", "금욜에 치과 가야됨", "담달 첫째 주에 시험 봐야 됨"]
)
def test_a_duty_on_a_day_in_chat_spelling_is_a_plan_not_a_wish(text):
    assert _notes(text) != []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("강아지 이름 봄이야", "봄이"),
        ("햄스터 이름 까망이임", "까망이"),
        ("우리 고양이 이름은 보리예요", "보리"),
    ],
)
def test_a_pets_name_is_kept_as_written(text, name):
    notes = _notes(text)

    assert any(note.endswith(name) for note in notes), notes


# --- a day fixed for something to come --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("3월 14일로 라식 수술 예약했어", "3월 14일", date(2027, 3, 14)),
        ("5월 2일로 이사 날짜 잡았어", "5월 2일", date(2027, 5, 2)),
        ("I booked the dentist for February 3", "February 3", date(2027, 2, 3)),
        ("We scheduled the move for March 9", "March 9", date(2027, 3, 9)),
    ],
)
def test_a_day_booked_in_the_past_is_ahead_and_keeps_the_words_as_said(text, said, day):
    items = _items(text)

    assert [(said in item.content, item.happens_on) for item in items] == [(True, day)], items


def test_a_relative_day_is_still_written_as_the_date_it_names():
    assert _notes("다음 주 금요일에 부산 출장 가") == ["2026-12-11(금)에 부산 출장 감"]
