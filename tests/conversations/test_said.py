"""What the user said, as recall and the offline reply tell it back, and which messages say
nothing to recall (issue 14 lines 8-9). Korean and English, no database."""

from __future__ import annotations

import pytest

from conversations.logic.said import SmallTalk, is_statement, small_talk, user_statement

STATEMENTS = [
    "다음 주 금요일에 부산 출장 가기로 했어",
    "나 요즘 필라테스 다녀요",
    "우리집강아지이름은콩이야ㅋㅋ",
    "어제 엄마랑 통화했는데 김장 다음주래",
    "저는 매운 음식을 잘 못 먹어요.",
    "I moved to Busan last spring",
    "my sister's wedding is on the 14th 🎉",
    "i dont really like coffee tbh",
    "We decided to take the train.",
]
QUESTIONS = [
    "출장 뭐 하기로 했었지?",
    "내 생일 언제였더라",
    "강아지 이름 뭐였지",
    "where do I live now?",
    "what did I plan for the trip",
    "did I tell you about my sister?",
]
REQUESTS = [
    "이거 기억해 줘",
    "내일 9시 회의 있다고 메모해줘",
    "부산 출장 일정 알려주세요",
    "비행기표 좀 찾아줄래",
    "please remember that I'm allergic to peanuts",
    "Remember my locker is 42",
    "can you note that the meeting moved to Friday",
    "Let's plan the trip tomorrow",
]


@pytest.mark.parametrize("sentence", STATEMENTS)
def test_a_statement_is_told_back_as_what_the_user_said(sentence):
    assert is_statement(sentence)
    assert user_statement(role="user", text=sentence) == sentence


@pytest.mark.parametrize("sentence", QUESTIONS + REQUESTS)
def test_a_question_or_a_request_is_never_told_back_as_said(sentence):
    assert not is_statement(sentence)
    assert user_statement(role="user", text=sentence) == ""


@pytest.mark.parametrize("sentence", STATEMENTS)
def test_the_assistants_own_words_are_never_what_the_user_said(sentence):
    assert user_statement(role="assistant", text=sentence) == ""


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("부산 출장 가기로 했어. 기억해줘!", "부산 출장 가기로 했어."),
        ("내 생일 언제였지? 아 맞다 생일파티 토요일에 해.", "아 맞다 생일파티 토요일에 해."),
        ("I fly to Busan on Friday, password is [redacted: password]",
         "I fly to Busan on Friday"),
        ("비번은 [redacted: password]이야", ""),
        ("Got it, thanks! My new desk is on the 5th floor.", "My new desk is on the 5th floor."),
    ],
)  # fmt: skip
def test_of_a_message_only_its_statements_are_kept(text, kept):
    assert user_statement(role="user", text=text) == kept


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("ㅇㅋ", SmallTalk.ACK),
        ("네", SmallTalk.ACK),
        ("넵!", SmallTalk.ACK),
        ("👍", SmallTalk.ACK),
        ("okay", SmallTalk.ACK),
        ("알겠어요~", SmallTalk.ACK),
        ("ㅋㅋㅋ", SmallTalk.LAUGH),
        ("ㅎㅎㅎㅎ", SmallTalk.LAUGH),
        ("lol", SmallTalk.LAUGH),
        ("hahaha 😂", SmallTalk.LAUGH),
        ("thanks!", SmallTalk.THANKS),
        ("Thank you so much!!", SmallTalk.THANKS),
        ("고마워~", SmallTalk.THANKS),
        ("감사합니닿ㅎ", SmallTalk.THANKS),
        ("🙏", SmallTalk.THANKS),
        ("안녕!", SmallTalk.GREETING),
        ("hey there", SmallTalk.GREETING),
        ("잘 자", SmallTalk.BYE),
        ("bye~", SmallTalk.BYE),
        ("How are you?", SmallTalk.WELLBEING),
        ("잘지냈어??", SmallTalk.WELLBEING),
        ("how's it going", SmallTalk.WELLBEING),
        ("진짜?", SmallTalk.ASK),
        ("really?", SmallTalk.ASK),
        ("언제?", SmallTalk.ASK),
        ("what?", SmallTalk.ASK),
        ("뭐해?", SmallTalk.ASK),
    ],
)
def test_a_message_with_nothing_to_recall_is_small_talk_of_its_kind(text, kind):
    assert small_talk(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "뭐 하기로 했지?",
        "내가 뭐라고 했었지?",
        "what do you remember about me?",
        "what did I plan?",
        "배고파",
        "고마워, 근데 내 강아지 이름 기억해?",
        "thanks, I moved to Busan",
        "ㅋㅋㅋ 오늘 팀장님이 회식 취소함",
        "맞아요 그리고 다음주 화요일에 병원 예약 있어요",
        "우리 애 몇 살이더라 🤔",
        "우리 애 몇 살이더라?",
        "울 딸 생일 언제더라",
        "내 차 어디 세웠더라?",
        "누구였지",
        "뭐더라",
        "how old is my son",
        "when is it?",
        "which gym do I go to 🤔",
    ],
)
def test_a_message_with_something_to_recall_or_that_asks_what_is_remembered_is_not_small_talk(
    text,
):
    assert small_talk(text) == SmallTalk.NONE
