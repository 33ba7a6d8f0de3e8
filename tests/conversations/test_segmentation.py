"""Merging topics of one message (conversations.logic.segmentation), without a database."""

import numpy as np

from conversations.logic import segmentation
from conversations.logic.segmentation import Span, merge_short_topics

ONE, TWO = 1, 2


def _turn(role, text, subject, vector):
    v = np.asarray(vector, dtype=np.float32)
    return segmentation.SegTurn(
        role, text, frozenset(subject), v / np.linalg.norm(v), frozenset(subject)
    )


def test_a_one_message_topic_joins_the_neighbour_it_shares_a_word_with():
    spans = [
        Span(3, frozenset({"bicycle", "tyre"})),
        Span(ONE, frozenset({"tyre", "pump"})),
        Span(2, frozenset({"invoice", "tax"})),
    ]

    assert merge_short_topics(spans) == [[0, 1], [2]]


def test_a_one_message_topic_joins_the_later_neighbour_when_it_shares_more_there():
    spans = [
        Span(2, frozenset({"정원", "상추"})),
        Span(ONE, frozenset({"상추", "이사", "계약"})),
        Span(2, frozenset({"이사", "계약", "전세"})),
    ]

    assert merge_short_topics(spans) == [[0], [1, 2]]


def test_on_a_tie_a_one_message_topic_joins_the_earlier_neighbour():
    spans = [
        Span(2, frozenset({"piano"})),
        Span(ONE, frozenset({"piano", "lesson"})),
        Span(2, frozenset({"lesson"})),
    ]

    assert merge_short_topics(spans) == [[0, 1], [2]]


def test_a_one_message_topic_sharing_no_word_stays_on_its_own():
    spans = [
        Span(2, frozenset({"주식", "배당"})),
        Span(ONE, frozenset({"강아지", "산책"})),
        Span(2, frozenset({"논문", "실험"})),
    ]

    assert merge_short_topics(spans) == [[0], [1], [2]]


def test_topics_of_two_messages_are_never_merged_with_each_other():
    spans = [Span(TWO, frozenset({"garden"})), Span(TWO, frozenset({"garden"}))]

    assert merge_short_topics(spans) == [[0], [1]]


def test_six_one_message_topics_on_three_subjects_become_three():
    spans = [
        Span(ONE, frozenset({"방울토마토", "베란다"})),
        Span(ONE, frozenset({"방울토마토", "물"})),
        Span(ONE, frozenset({"제주도", "여행"})),
        Span(ONE, frozenset({"제주도", "렌터카"})),
        Span(ONE, frozenset({"발표", "회사"})),
        Span(ONE, frozenset({"발표", "슬라이드"})),
    ]

    assert merge_short_topics(spans) == [[0, 1], [2, 3], [4, 5]]


def test_merged_boundaries_drop_the_boundary_of_a_folded_topic():
    turns = [
        _turn("user", "a", {"kayak"}, [1, 0, 0]),
        _turn("assistant", "b", set(), [1, 0, 0]),
        _turn("user", "c", {"kayak", "river"}, [0, 1, 0]),
        _turn("assistant", "d", set(), [0, 1, 0]),
        _turn("user", "e", {"mortgage"}, [0, 0, 1]),
        _turn("assistant", "f", set(), [0, 0, 1]),
        _turn("user", "g", {"mortgage", "rate"}, [0, 0, 1]),
    ]

    assert segmentation.merged_boundaries(turns, [2, 4]) == [4]


def test_a_message_sharing_a_subject_word_continues_a_topic_of_one_message():
    topic = [
        _turn("user", "about the kayak", {"kayak"}, [1, 0, 0]),
        _turn("assistant", "reply", set(), [1, 0, 0]),
    ]
    same_word = _turn("user", "the kayak again", {"kayak", "paddle"}, [0, 1, 0])
    other_word = _turn("user", "my taxes", {"tax"}, [0, 1, 0])

    assert not segmentation.is_shift(same_word, topic, threshold=0.8, centre=segmentation.RAW)
    assert segmentation.is_shift(other_word, topic, threshold=0.8, centre=segmentation.RAW)


def test_a_topic_of_two_messages_is_left_by_a_distant_message_even_with_a_shared_word():
    topic = [
        _turn("user", "about the kayak", {"kayak"}, [1, 0, 0]),
        _turn("assistant", "reply", set(), [1, 0, 0]),
        _turn("user", "kayak trip", {"kayak", "trip"}, [1, 0, 0]),
    ]
    distant = _turn("user", "kayak insurance", {"kayak", "insurance"}, [0, 1, 0])

    assert segmentation.is_shift(distant, topic, threshold=0.8, centre=segmentation.RAW)


def test_off_a_deployments_centre_a_shared_word_does_not_keep_a_one_message_topic():
    centre = segmentation.Centre(np.asarray([0.0, 0.0, 1.0], dtype=np.float32), "deployment")
    topic = [
        _turn("user", "about the kayak", {"kayak"}, [1, 0, 0]),
        _turn("assistant", "reply", set(), [1, 0, 0]),
    ]
    same_word = _turn("user", "the kayak again", {"kayak", "paddle"}, [0, 1, 0])

    assert segmentation.merges_short_topics(segmentation.RAW)
    assert not segmentation.merges_short_topics(centre)
    assert segmentation.is_shift(same_word, topic, threshold=0.8, centre=centre)
