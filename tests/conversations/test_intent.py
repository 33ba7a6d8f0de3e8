"""The kind of recall a question asks for, Korean and English (issue 14 line 8). No database."""

from __future__ import annotations

import pytest

from conversations.logic import intent
from conversations.logic.intent import Intent, Kind, answer_rank, classify, is_question


@pytest.mark.parametrize(
    "text",
    [
        "지난번에 뭐 하기로 했었지?",
        "이번 주말에 내가 뭘 하려고 했더라",
        "다음 달 일정 좀 알려줘",
        "우리 무슨 결정 내렸었지?",
        "what did I plan?",
        "What was I supposed to do on Monday?",
        "Remind me what we decided about the trip",
        "what am I going to do next week",
        "Do I have any appointments this week?",
    ],
)
def test_questions_about_plans_and_decisions_are_plans(text):
    assert classify(text).kind == Kind.PLANS


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("지금 어디 살지?", "residence"),
        ("요즘 내가 사는 곳이 어디야?", "residence"),
        ("나 어디에 살고 있더라", "residence"),
        ("where do I live now?", "residence"),
        ("Where am I living these days?", "residence"),
        ("내가 어디 산다고 했지?", "residence"),
        ("내 직업이 뭐였지?", "job"),
        ("회사 어디 다닌다고 했지?", "job"),
        ("Where did I say I work now?", "job"),
        ("what's my job now?", "job"),
        ("내 이름 기억나?", "name"),
        ("Do you know my name?", "name"),
    ],
)
def test_questions_about_a_slot_now_ask_for_its_current_value(text, slot):
    assert classify(text) == Intent(Kind.CURRENT, slot, True)


def test_a_question_about_an_earlier_value_of_a_slot_is_about_the_past():
    assert classify("예전에 어디 살았었지?").kind == Kind.PAST
    assert classify("Where did I live before?").kind == Kind.PAST


@pytest.mark.parametrize(
    "text",
    ["내가 좋아하는 음식이 뭐였지?", "내 커피 취향 기억해?", "what kind of music do I like?",
     "내가 무슨 운동 좋아한다고 했지?", "내가 싫어한다고 한 음식이 뭐였지?",
     "Which do I prefer, tea or coffee?"],
)  # fmt: skip
def test_questions_about_likings_are_preferences(text):
    assert classify(text).kind == Kind.PREFERENCE


@pytest.mark.parametrize(
    "text", ["지난주에 어디 갔었지?", "어제 내가 뭐 먹었더라?", "what did I do yesterday?",
             "Where did we go last weekend?"],
)  # fmt: skip
def test_questions_about_what_happened_are_past(text):
    assert classify(text).kind == Kind.PAST


@pytest.mark.parametrize(
    "text",
    ["다음 주 금요일에 부산 출장 가기로 했어", "나는 매일 아침 커피를 마셔",
     "I moved to Busan last month.", "Remember that I prefer short meetings."],
)  # fmt: skip
def test_statements_are_not_questions_and_ask_for_nothing(text):
    assert not is_question(text)
    assert classify(text) == Intent()


def test_someone_elses_name_is_not_the_users_name():
    assert classify("내 고양이 이름이 뭐였지?").slot == ""


def test_a_question_of_no_kind_keeps_the_order():
    asked = classify("오늘 날씨 어때?")
    assert asked.question and asked.kind == Kind.NONE
    ranks = {answer_rank(asked, memory_type=t, slot="", is_plan=False)
             for t in ("fact", "episode", "decision", "preference")}  # fmt: skip
    assert ranks == {2}


def test_plans_rank_decisions_and_episodes_ahead_before_past_episodes_and_the_rest():
    asked = classify("what did I plan?")
    rank = lambda t, plan: answer_rank(asked, memory_type=t, slot="", is_plan=plan)  # noqa: E731
    assert rank("decision", False) == 0
    assert rank("episode", True) == 0
    assert rank("episode", False) == 1
    assert rank("fact", False) == 2


def test_a_current_slot_question_ranks_that_slot_first():
    asked = classify("지금 어디 살지?")
    assert answer_rank(asked, memory_type="fact", slot="residence", is_plan=False) == 0
    assert answer_rank(asked, memory_type="fact", slot="job", is_plan=False) == 1
    assert answer_rank(asked, memory_type="preference", slot="", is_plan=False) == 2


@pytest.mark.parametrize("question", ["what is my job now?", "지금 무슨 일 해?"])
def test_a_job_question_is_answered_by_an_employer_as_by_a_job_title(question):
    asked = classify(question)
    assert asked.asks_current_value()
    assert answer_rank(asked, memory_type="fact", slot="workplace", is_plan=False) == 0
    assert answer_rank(asked, memory_type="fact", slot="job", is_plan=False) == 0
    assert answer_rank(asked, memory_type="fact", slot="residence", is_plan=False) == 1


def test_a_question_about_how_to_answer_is_answered_by_each_answer_slot():
    asked = classify("어떻게 대답해 달라고 했지?")
    assert set(asked.answer_slots()) == {
        "answer_formality", "answer_format", "answer_length", "answer_language"
    }  # fmt: skip


def test_a_question_about_an_earlier_value_asks_for_no_current_value():
    assert not classify("예전에 어디 살았었지?").asks_current_value()
    assert not classify("what did I plan?").asks_current_value()
    assert classify("오늘 날씨 어때?").answer_slots() == ()


# --- what a question is about (the offline reply quotes only what is about it) ---------------


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("출장 뭐 하기로 했었지?", {"출장"}),
        ("내 생일 언제야?", {"생일"}),
        ("우리강아지 이름 뭐였더라", {"강아지"}),
        ("다음주 계획 뭐였지?", set()),
        ("지금 어디 살지?", set()),
        ("what did I plan for the business trip?", {"business", "trip"}),
        ("which seats do I prefer?", {"seat"}),
        ("where did I go last week?", set()),
        ("what do you remember about me?", set()),
    ],
)
def test_a_questions_topic_leaves_out_the_words_of_its_kind_and_time(question, topic):
    assert intent.topic_terms(question) == topic
