"""The span matcher of exact forgetting, without a database (conversations/logic/spans.py)."""

from __future__ import annotations

from conversations.logic import spans
from memoryhub import text as text_analysis


def _tokens(text: str) -> frozenset[str]:
    return frozenset(spans.match_form(t) for t in text_analysis.index_tokens(text))


def _redacted(text: str, fact: str, **kwargs: object) -> str:
    found = spans.carrying_spans(text, [_tokens(fact)], _tokens, **kwargs)  # type: ignore[arg-type]
    return spans.redact(text, found, "[removed]")


def test_the_statement_of_a_fact_is_replaced_and_the_rest_of_its_line_stays():
    text = "아침마다 핸드드립으로 커피를 내려 드신다고 하셨죠! 오늘도 좋은 하루 되세요."

    assert (
        _redacted(text, "매일 아침 핸드드립 커피를 마심")
        == "[removed] 하셨죠! 오늘도 좋은 하루 되세요."
    )


def test_a_line_that_only_shares_a_word_with_the_fact_stays():
    assert _redacted("내일 아침 커피숍에서 미팅 있어", "매일 아침 핸드드립 커피를 마심") == (
        "내일 아침 커피숍에서 미팅 있어"
    )
    assert _redacted(
        "Let's meet at the coffee shop tomorrow morning.", "Drinks pour-over coffee every morning"
    ) == ("Let's meet at the coffee shop tomorrow morning.")


def test_of_two_facts_in_one_sentence_only_the_clause_of_the_deleted_one_goes():
    text = "나는 매일 아침 핸드드립 커피를 마시고, 주말에는 북한산에 등산을 가"

    assert (
        _redacted(text, "매일 아침 핸드드립 커피를 마심")
        == "[removed], 주말에는 북한산에 등산을 가"
    )
    assert _redacted("I play the cello and I work as a nurse.", "Plays the cello") == (
        "[removed] and I work as a nurse."
    )


def test_a_question_about_the_fact_is_not_a_copy_of_it():
    assert _redacted("Do you remember my cat's name?", "My cat's name is Zorblax-91") == (
        "Do you remember my cat's name?"
    )


def test_a_name_with_another_word_of_the_fact_carries_it():
    assert (
        _redacted(
            "Biscuit, my dog, turned five today!",
            "My dog's name is Biscuit",
            names=frozenset({"biscuit"}),
        )
        == "[removed], turned five today!"
    )


def test_in_replies_a_word_only_the_fact_held_carries_it():
    fact = "Project codename is Zorblax-91"
    reply = "Your project is called Zorblax-91!\n- [topic 1] keywords: launch, zorblax-91"

    kept = _redacted(reply, fact)
    gone = _redacted(reply, fact, distinctive=frozenset({"zorblax-91"}))

    assert kept == reply
    assert gone == "[removed]!\n- [topic 1] keywords: launch, [removed]"


def test_the_source_statement_loses_its_best_sentence_even_when_worded_differently():
    text = "기억해줘. 우리 집 밥솥은 쿠쿠야"

    assert _redacted(text, "밥솥 브랜드는 쿠쿠", source=True) == "기억해줘. [removed]"


def test_redaction_keeps_every_other_byte():
    text = "a\n\n  - 매일 아침 핸드드립 커피를 마심  \nb"

    assert _redacted(text, "매일 아침 핸드드립 커피를 마심") == "a\n\n  - [removed]  \nb"


def test_a_fact_in_brackets_takes_its_closing_bracket_along():
    english = _redacted(
        "I left my old job and started at a game studio (a small indie one).",
        "Started working at a game studio (a small indie one)",
    )
    korean = _redacted(
        "회사를 옮겼고 게임 회사(작은 인디 스튜디오)에 다녀.",
        "게임 회사(작은 인디 스튜디오)에 다님",
    )

    for redacted in (english, korean):
        assert redacted.count("(") == redacted.count(")"), redacted
        assert "[removed]" in redacted


def test_a_span_that_closes_a_bracket_takes_its_opening_one():
    text = "Weekend plans (hiking with Mina, then the cello lesson) are set."
    found = [spans.Span(text.index("then"), text.index(")") + 1)]

    widened = [spans._balanced(text, span) for span in found]

    assert text[widened[0].start : widened[0].end] == "(hiking with Mina, then the cello lesson)"
