"""Session summaries of one line per topic (conversations.logic.summarize), without a database."""

from conversations.logic import summarize
from conversations.logic.summarize import Sentence


def _s(text, *terms):
    return Sentence(text, frozenset(terms))


def test_every_topic_gets_a_line_in_order():
    topics = [
        [_s("운동화 밑창이 닳아서 새로 사야 해.", "운동화", "밑창"),
         _s("운동화는 쿠션 좋은 걸로 볼래.", "운동화", "쿠션")],
        [_s("I booked a table at the ramen place for Friday.", "booked", "table", "ramen"),
         _s("The ramen place opens at six.", "ramen", "place", "opens")],
        [_s("어머니 생신 선물로 화분을 골랐어.", "어머니", "생신", "선물", "화분")],
    ]  # fmt: skip

    lines = summarize.topic_lines(topics)

    assert len(lines) == 3
    assert "운동화" in lines[0]
    assert "ramen" in lines[1]
    assert "화분" in lines[2]


def test_a_line_carries_the_words_its_topic_keeps_coming_back_to():
    topic = [
        _s("그런데 말이야."),
        _s("보일러가 고장 나서 수리 기사를 불렀어.", "보일러", "고장", "수리", "기사"),
        _s("보일러 수리비가 생각보다 비쌌어.", "보일러", "수리비"),
    ]

    (line,) = summarize.topic_lines([topic])

    assert "보일러" in line


def test_a_sentence_said_again_in_a_later_topic_is_not_repeated():
    same = "My sister moves to Lisbon next month."
    topics = [
        [_s(same, "sister", "moves", "Lisbon", "month")],
        [_s(same, "sister", "moves", "Lisbon", "month"),
         _s("She asked me to help pack her books.", "asked", "help", "pack", "books")],
    ]  # fmt: skip

    lines = summarize.topic_lines(topics)

    assert lines == [same, "She asked me to help pack her books."]


def test_a_topic_with_nothing_new_to_say_adds_no_line():
    topics = [
        [_s("주말에 캠핑 장비를 점검했어.", "주말", "캠핑", "장비", "점검")],
        [_s("주말에 캠핑 장비를 점검했어!", "주말", "캠핑", "장비", "점검")],
    ]

    assert summarize.topic_lines(topics) == ["주말에 캠핑 장비를 점검했어."]


def test_near_duplicates_differ_only_by_case_spacing_punctuation_or_a_particle():
    assert summarize.near_duplicate("The train was late again.", "the train was late  again")
    assert summarize.near_duplicate("동생이 내일 서울에 도착해.", "동생은 내일 서울에 도착해")
    assert not summarize.near_duplicate("동생이 내일 서울에 도착해.", "동생이 다음 달에 이사해.")
    assert not summarize.near_duplicate("I like green tea.", "I like black coffee.")


def test_distinct_lines_keeps_the_first_of_each_repeat_and_drops_empty_lines():
    lines = ["Paid the electricity bill.", "", "paid the electricity bill", "Fixed the fence."]

    assert summarize.distinct_lines(lines) == ["Paid the electricity bill.", "Fixed the fence."]


def test_a_long_sentence_is_cut_to_one_line():
    long = "우리 팀은 " + "정말 많은 회의를 " * 30 + "했어.\n그리고 끝났어."

    line = summarize.shorten_line(long)

    assert len(line) <= summarize.MAX_LINE_CHARS
    assert "\n" not in line
    assert line.endswith("…")


def test_a_line_is_the_sentence_that_carries_more_of_its_topic_not_the_shorter_one():
    topic = [
        _s("Our team moves the billing service from PHP to Go this quarter.",
           "team", "billing", "service", "PHP", "Go", "quarter"),
        _s("The Go billing build works.", "Go", "billing", "build", "works"),
        _s("Billing tests pass in Go.", "Billing", "tests", "pass", "Go"),
    ]  # fmt: skip

    (line,) = summarize.topic_lines([topic])

    assert line.startswith("Our team moves the billing service")


def test_a_line_adds_the_topics_other_sentences_on_its_main_words_but_not_an_aside():
    topic = [
        _s("이번 주말에 이사할 집 계약을 했어.", "주말", "이사", "계약"),
        _s("점심은 뭐 먹지.", "점심"),
        _s("이사 업체는 화요일에 견적을 보내 준대.", "이사", "업체", "화요일", "견적"),
    ]

    (line,) = summarize.topic_lines([topic])

    assert line == "이번 주말에 이사할 집 계약을 했어. 이사 업체는 화요일에 견적을 보내 준대."


def test_a_sentence_with_a_marker_in_any_form_is_no_summary_sentence():
    for sentence in [
        "[removed] 다니고 있어.",
        "My gym is near (deleted) station.",
        "동생 생일은 (삭제됨)이야.",
        "The wifi code is (password hidden) now.",
        "현관 비밀번호는 (비밀번호 가림)로 바꿨어.",
        "I keep my notes at [REDACTED].",
    ]:
        assert not summarize.says_something(sentence), sentence


def test_questions_are_no_summary_sentences_with_or_without_a_question_mark():
    for sentence in [
        "저번에 내가 어떤 책 추천받았더라?",
        "우리 언제 만나기로 했지",
        "What was the name of that cafe?",
        "where did I park last night",
        "Did we settle on a date",
    ]:
        assert summarize.is_question(sentence), sentence
        assert not summarize.says_something(sentence), sentence


def test_asking_to_remember_and_acknowledging_say_nothing_about_the_subject():
    for sentence in ["이거 꼭 기억해 둬.", "잊지 마!", "네, 알겠습니다.", "고마워요.",
                     "Please remember this.", "Noted, thanks!", "Sounds good.", "OK."]:  # fmt: skip
        assert summarize.is_filler(sentence), sentence
        assert not summarize.says_something(sentence), sentence


def test_statements_short_or_long_are_summary_sentences():
    for sentence in ["요즘 저녁마다 줄넘기를 해.", "매주 달려.", "다음 달에 광주로 이사 가.",
                     "I swim before work.", "How we met is a long story."]:  # fmt: skip
        assert summarize.says_something(sentence), sentence


def test_summary_sentences_keep_only_what_was_said_in_order():
    said = "저번에 뭐 먹기로 했지? 나 요즘 요가 배워. 기억해줘. [removed] 있고 주말엔 쉬어."

    assert summarize.summary_sentences(said) == ["나 요즘 요가 배워."]
