"""A conversation's title: a few content words of its first message, never the message itself."""

import pytest

from conversations.logic.titles import TITLE_CHARS, title_from_message, title_from_messages
from conversations.services import chat


@pytest.mark.parametrize(
    ("message", "title"),
    [
        (
            "Could you help me plan a weekend trip to Busan with my parents?",
            "Plan weekend trip Busan",
        ),
        ("다음 주에 부모님이랑 부산 여행 계획 좀 도와줄래?", "부모님 부산 여행 계획"),
        ("Remember that I am allergic to peanuts.", "Allergic peanuts"),
        ("사무실 의자 때문에 허리가 아파요", "사무실 의자 허리"),
    ],
)
def test_a_title_is_the_first_content_words_in_the_order_said(message, title):
    assert title_from_message(message) == title


@pytest.mark.parametrize(
    "message",
    [
        "I have been reading about sourdough bread and wondering why my starter smells sharp "
        "after two days in the fridge, is that normal?",
        "주말마다 동네 도서관에서 빌린 추리 소설을 읽는데 요즘은 일본 작가의 작품이 특히 좋아요",
    ],
)
def test_a_long_message_makes_a_short_title_not_itself(message):
    title = title_from_message(message)

    assert title
    assert title != message
    assert len(title) <= TITLE_CHARS
    assert len(title.split()) <= 4


def test_korean_compound_nouns_keep_their_spelling():
    assert title_from_message("새 노트북 비밀번호를 바꿨어") == "노트북 비밀번호"


def test_a_redaction_marker_is_never_a_word_of_the_title():
    title = title_from_message("공유기 비밀번호는 [redacted: password] 이야")

    assert title == "공유기 비밀번호"
    assert "redacted" not in title.lower()
    assert title_from_message("[redacted: api key]") == ""


@pytest.mark.parametrize("message", ["hi", "hello there!", "안녕하세요", "ok thanks", "응 고마워"])
def test_a_greeting_makes_no_title(message):
    assert title_from_message(message) == ""


def test_the_first_message_with_content_words_names_the_conversation():
    assert (
        title_from_messages(["안녕!", "고양이 사료 추천해 줘", "강아지 간식"]) == "고양이 사료 추천"
    )
    assert title_from_messages(["hi", "ok"]) == ""


@pytest.mark.django_db
def test_a_conversation_is_named_by_a_later_message_when_the_first_is_a_greeting(user):
    session = chat.chat_session_create(user=user)

    chat.message_add_user(session=session, content="Hello!")
    session.refresh_from_db()
    assert session.title == ""

    chat.message_add_user(session=session, content="I need a packing list for a ski trip")
    chat.message_add_user(session=session, content="Also a sourdough recipe")
    session.refresh_from_db()
    assert session.title == "Packing list ski trip"


@pytest.mark.django_db
def test_a_secret_in_the_first_message_never_reaches_the_title(user):
    session = chat.chat_session_create(user=user)

    chat.message_add_user(session=session, content="My bank password is Tr0ub4dor&3xyz, keep it")
    session.refresh_from_db()

    assert "Tr0ub4dor" not in session.title
    assert session.title


def test_a_negation_stays_in_the_title_so_it_does_not_say_the_opposite():
    assert title_from_message("no emojis pls") == "No emojis pls"
    assert title_from_message("never use tables please").startswith("Never use")


def test_a_short_question_of_no_content_words_is_its_own_title_but_a_greeting_is_none():
    assert title_from_messages(["what do you know about me"]) == "What do you know about me"
    assert title_from_messages(["안녕!"]) == ""


def test_a_title_is_not_made_of_a_question_about_earlier_chats_filler_or_a_marker_fragment():
    korean = ["저번에 내가 뭐 하기로 했더라?", "꼭 기억해 둬.", "[removed] 근처로 옮겼어.",
              "요즘 주말마다 도자기 공방에 다녀."]  # fmt: skip
    english = ["What did I tell you about my trip?", "Remember that.",
               "I moved near (deleted).", "I take pottery classes on weekends."]  # fmt: skip

    assert "도자기" in title_from_messages(korean)
    assert "pottery" in title_from_messages(english).lower()


def test_a_question_that_names_a_subject_still_titles_the_conversation():
    assert "Python" in title_from_messages(["How do I sort a list in Python?", "Thanks!"])
    assert title_from_messages(["지난번에 뭐 하기로 했지?"]) != ""
