"""The offline reply answers the question asked (issue 14 lines 8-9), through the real chat
flow and database, Korean and English: it says plainly when nothing remembered answers,
tells back only the user's statements, answers small talk without recall, and shows no
internal marker."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from conversations.models import Message
from conversations.services import chat, indexing
from memories.services import revision

pytestmark = pytest.mark.django_db

MARKERS = re.compile(
    r"\[(?:message|memory|session|topic)\b|\(nothing found\)|\[removed\]|\[redacted:|"
    r"\d{4}-\d\d-\d\d|ANTHROPIC_API_KEY|MEMORYHUB_[A-Z_]+"
)
NOTHING = {"ko": "이 질문과 관련해 기억하고 있는 내용은 아직 없어요.",
           "en": "I don't have anything remembered about this yet."}  # fmt: skip


def _exchange(user, session, text):
    message, _ = chat.message_add_user(session=session, content=text)
    "".join(chat.reply_stream(message=message))
    indexing.messages_embed_pending(user_id=user.pk)
    return Message.objects.get(reply_to=message)


def _reply_to(user, text):
    return _exchange(user, chat.chat_session_create(user=user), text)


UNRELATED = [
    ("ko", ["고양이를 두 마리 키움", "회사는 판교에 있음", "매운 음식을 좋아함"],
     ["지난주에 제주도 다녀왔어", "요즘 필라테스 다니는 중"],
     ["내 생일 언제였지?", "우리 강아지 이름 뭐였더라", "운전면허 언제 땄지?"]),
    ("en", ["Has two cats", "Works in Pangyo", "Likes spicy food"],
     ["I went to Jeju last week", "I've been doing pilates lately"],
     ["when is my birthday?", "what's my dog's name again", "what car do I drive?"]),
]  # fmt: skip


@pytest.mark.parametrize(("language", "memories", "said", "questions"), UNRELATED)
def test_a_question_nothing_remembered_answers_is_told_so_plainly(
    user, language, memories, said, questions
):
    for content in memories:
        revision.memory_create(user=user, type="fact", content=content, importance=0.9)
    for text in said:
        _reply_to(user, text)

    for question in questions:
        reply = _reply_to(user, question).content

        assert reply.startswith(NOTHING[language]), (question, reply)
        assert "“" not in reply, (question, reply)


@pytest.mark.parametrize(
    ("earlier", "question", "told"),
    [
        ("나 다음달에 이사 가는 거 알지? 부산으로 가기로 했어", "이사 어디로 가기로 했지?",
         "부산으로 가기로 했어"),
        ("Did I mention the move? We decided to move to Busan in March.",
         "where did we decide to move?", "We decided to move to Busan in March."),
    ],
)  # fmt: skip
def test_only_the_users_statements_are_told_back_never_their_question(user, earlier, question,
                                                                     told):  # fmt: skip
    _reply_to(user, earlier)

    reply = _reply_to(user, question).content

    assert f"“{told}”" in reply, reply
    assert "?" not in reply.split("“", 1)[1], reply


@pytest.mark.parametrize(
    ("asked", "question"),
    [
        ("지난번 부산 출장 숙소 어디였는지 알려줘", "부산 출장 숙소 어디였지?"),
        ("please remind me where the Busan hotel was", "where was the Busan hotel?"),
        ("부산출장숙소 어디였더라??", "부산 출장 숙소 어디였지?"),
    ],
)
def test_an_earlier_question_or_request_is_never_quoted_as_what_the_user_said(
    user, asked, question
):
    _reply_to(user, asked)

    reply = _reply_to(user, question).content

    assert asked not in reply and "“" not in reply, reply


def test_the_assistants_earlier_reply_is_never_quoted(user):
    session = chat.chat_session_create(user=user)
    first = _exchange(user, session, "The spare key is under the green flowerpot")
    Message.objects.filter(pk=first.pk).update(
        content="The green flowerpot is by the front door, I think.", searchable=True
    )
    indexing.messages_embed_pending(user_id=user.pk)

    reply = _reply_to(user, "where is the green flowerpot?").content

    assert "by the front door" not in reply, reply
    assert "I replied" not in reply and "제가" not in reply


SMALL_TALK = [
    ("ㅇㅋ", "ko"), ("ㅋㅋㅋ", "ko"), ("네", "ko"), ("고마워요!", "ko"), ("👍", "ko"),
    ("thanks!", "en"), ("lol", "en"), ("ok cool", "en"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "language"), SMALL_TALK)
def test_small_talk_gets_a_short_reply_and_triggers_no_recall(user, said, language):
    revision.memory_create(user=user, type="fact", content="Has two cats", importance=0.9)
    revision.memory_create(user=user, type="fact", content="고양이를 두 마리 키움")
    session = chat.chat_session_create(user=user)
    _exchange(user, session, "오늘 회의 자료 정리했어" if language == "ko" else "I tidied my desk")

    reply = _exchange(user, session, said)

    assert len(reply.content) <= 40 and "“" not in reply.content, reply.content
    assert not reply.context["memories"] and not reply.context["session_recall"]
    assert bool(re.search(r"[가-힣]", reply.content)) == (language == "ko"), reply.content


@pytest.mark.parametrize(
    ("content", "question", "written"),
    [
        ("2026-12-11T15:00:00+09:00 치과 예약", "치과 예약 언제 하기로 했지?",
         "12월 11일 오후 3시"),
        ("Dentist appointment at 2026-12-11T15:00:00+09:00", "when is my dentist appointment?",
         "December 11, 3:00 PM"),
    ],
)  # fmt: skip
def test_a_recalled_date_is_written_as_a_person_writes_it(user, content, question, written):
    revision.memory_create(user=user, type="episode", content=content,
                           expires_at=timezone.now() + timedelta(days=30))  # fmt: skip

    reply = _reply_to(user, question).content

    assert written in reply, reply
    assert not MARKERS.search(reply), reply


# A memory that answers without sharing a word with the question (close by meaning,
# context.ANSWER_SIMILARITY), beside memories about other things.
BY_MEANING = [
    ("ko", "fact", "매일 아침 핸드드립 커피를 마심", "나 아침에 뭐 마시더라?"),
    ("ko", "fact", "푸들 한 마리 키우는데 이름이 코코야", "우리 강아지 이름 뭐였지??"),
    ("ko", "preference", "떡볶이를 세상에서 제일 좋아함", "내가좋아하는음식 뭐였어"),
    ("ko", "fact", "요즘 기타 레슨 받는 중 🎸", "나 요즘 무슨 악기 배우더라?"),
    ("en", "fact", "Has a poodle named Coco", "what's my dog called?"),
    ("en", "fact", "Works as a nurse at Severance", "where do I work?"),
    ("en", "fact", "Drives a 2021 Hyundai Avante", "What car do I have?"),
    ("en", "fact", "Allergic to peanuts", "what am i alergic to"),
]
OTHER_MEMORIES = {
    "ko": ["회사는 판교에 있음", "작년에 운전면허 땄음"],
    "en": ["Graduated from Korea University", "Keeps a monstera on the balcony"],
}


@pytest.mark.parametrize(("language", "kind", "memory", "question"), BY_MEANING)
def test_a_memory_that_answers_without_a_shared_word_is_quoted(
    user, language, kind, memory, question
):
    revision.memory_create(user=user, type=kind, content=memory, importance=0.9)
    for content in OTHER_MEMORIES[language]:
        revision.memory_create(user=user, type="fact", content=content, importance=0.9)

    reply = _reply_to(user, question).content

    assert not reply.startswith(NOTHING[language]), reply
    assert f"“{memory}”" in reply, reply
    for other in OTHER_MEMORIES[language]:
        assert f"“{other}" not in reply, reply


@pytest.mark.parametrize(
    ("language", "earlier", "question", "told"),
    [
        ("ko", "나 요즘 매일 아침에 핸드드립 커피 내려 마셔", "나 아침에 뭐 마시더라?",
         "핸드드립"),
        ("en", "I have a poodle, her name is Coco", "what's my dog called?", "Coco"),
    ],
)  # fmt: skip
def test_an_earlier_statement_that_answers_without_a_shared_word_is_told_back(
    user, language, earlier, question, told
):
    _reply_to(user, earlier)

    reply = _reply_to(user, question).content

    assert not reply.startswith(NOTHING[language]), reply
    assert told in reply, reply


# Memories about other things, each asked about by a question that shares no word with them.
NOT_BY_MEANING = [
    ("ko", ["세브란스 병원 간호사로 근무 중", "지하철 2호선 타고 출근함"],
     ["나 아침에 뭐 마시더라?", "우리 강아지 이름 뭐였지?", "제가 좋아하는 음식이 뭐였죠?"]),
    ("en", ["Works as a nurse at Severance", "Commutes on subway line 2"],
     ["what's my dog called?", "When's my birthday?", "what plant do i have 🌱"]),
]  # fmt: skip


@pytest.mark.parametrize(("language", "memories", "questions"), NOT_BY_MEANING)
def test_a_memory_far_by_meaning_is_not_quoted_as_the_answer(user, language, memories, questions):
    for content in memories:
        revision.memory_create(user=user, type="fact", content=content, importance=0.9)

    for question in questions:
        reply = _reply_to(user, question).content

        assert reply.startswith(NOTHING[language]), (question, reply)
        assert "“" not in reply, (question, reply)
