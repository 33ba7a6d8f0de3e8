"""The convex keyword + vector fusion behind `search.message_hits` (issue 18 line 1)."""

from __future__ import annotations

import pytest

from conversations import search
from conversations.logic import fusion
from conversations.models import Message
from tests.conversations.test_search import _session


def _best(scores):
    return max(scores, key=lambda item: scores[item])


def test_weak_keyword_evidence_leaves_the_order_to_the_vectors():
    # The best keyword hit matches one common word: a tenth of the query's IDF mass.
    keyword = [("common word", 1.0), ("meant", 0.5)]
    vector = [("meant", 0.86), ("common word", 0.80), ("other", 0.79)]

    fused = fusion.convex_fusion(keyword, vector, keyword_mass=10.0, vector_share=0.6)

    assert _best(fused) == "meant"


def test_a_message_holding_the_whole_query_outweighs_a_closer_vector():
    # Every query term matched (BM25 gives more than the IDF mass for a short message).
    keyword = [("exact", 9.0), ("other", 1.0)]
    vector = [("near", 0.90), ("exact", 0.85), ("far", 0.80)]

    fused = fusion.convex_fusion(keyword, vector, keyword_mass=4.0, vector_share=0.6)

    assert _best(fused) == "exact"
    assert fused["exact"] == pytest.approx(0.4 * 9.0 / 4.0 + 0.6 * 0.5)


def test_cosines_count_by_their_place_in_the_candidates_range():
    fused = fusion.convex_fusion([], [(1, 0.9), (2, 0.85), (3, 0.8)], keyword_mass=1.0,
                                 vector_share=0.5)  # fmt: skip

    assert fused == pytest.approx({1: 0.5, 2: 0.25, 3: 0.0})


def test_equal_cosines_all_count_fully_instead_of_dividing_by_zero():
    fused = fusion.convex_fusion([], [(1, 0.8), (2, 0.8)], keyword_mass=1.0, vector_share=0.5)

    assert fused == {1: 0.5, 2: 0.5}


def test_a_query_with_no_terms_gives_no_keyword_share():
    fused = fusion.convex_fusion([(1, 3.0)], [], keyword_mass=0.0, vector_share=0.5)

    assert fused == {}


def test_one_retriever_alone_keeps_its_own_order():
    keyword = [(3, 5.0), (1, 2.0), (2, 0.5)]

    fused = fusion.convex_fusion(keyword, [], keyword_mass=6.0, vector_share=0.6)

    assert sorted(fused, key=lambda item: -fused[item]) == [3, 1, 2]


@pytest.mark.django_db
def test_the_query_mass_counts_the_terms_no_message_holds(user):
    _session(user, ["주말에 동생이랑 등산 다녀왔어.", "새 노트북 사려고 알아보는 중이야."])
    documents = search.user_stats(user.pk)[0]
    query = search.analyse(user.pk, "등산 장비 추천", documents, embed=False)

    found = search.retrieve(user_id=user.pk, query_text="등산 장비 추천", modes=("keyword",))

    assert found is not None
    unseen = fusion.idf(documents, 0)
    missing = [t for t in query.terms if t not in query.idf]
    assert missing  # "장비" and "추천" are in no message
    expected = sum(query.idf.values()) + unseen * len(missing)
    assert found.keyword_mass == pytest.approx(expected)
    assert found.keyword_mass > sum(query.idf.values())


@pytest.mark.django_db
def test_vector_scores_are_the_cosines_best_first(user):
    _session(user, ["We moved the dashboard charts to a new library.", "My cat saw the vet.",
                    "I am going hiking this weekend."])  # fmt: skip
    documents = search.user_stats(user.pk)[0]
    query = search.analyse(user.pk, "which chart library did we pick?", documents)

    scored = search.vector_scores(user.pk, query, documents)

    cosines = [cosine for _mid, cosine in scored]
    assert cosines == sorted(cosines, reverse=True)
    assert all(-1.0 <= c <= 1.0 for c in cosines)
    assert [mid for mid, _c in scored] == search.vector_ranking(user.pk, query, documents)
    best = Message.objects.get(pk=scored[0][0])
    assert "dashboard" in best.content or "library" in best.content


@pytest.mark.django_db
def test_a_korean_paraphrase_sharing_one_word_with_another_message_is_found_by_meaning(user):
    # Only the shopping message holds a query word ("동네"); ranks alone (reciprocal rank
    # fusion) put it and its neighbours above the answer. (An English question leans on its
    # words: VECTOR_SHARE["other"] was chosen on LoCoMo, where names decide.)
    texts = [
        "퇴근하고 매일 한강변을 따라 5킬로씩 달리고 있어.",
        "조카 생일 선물로 레고를 샀어.",
        "동네 마트에서 세일하길래 장을 잔뜩 봤어.",
        "이번 달 전기 요금이 많이 나왔어.",
    ]
    _session(user, texts)

    hits = search.message_hits(user_id=user.pk, query_text="동네에서 무슨 운동 하고 지내?", k=1)

    assert [h.text for h in hits] == [texts[0]]


@pytest.mark.django_db
def test_a_share_given_by_the_caller_reweighs_one_retrieval(user):
    _session(user, ["The plumber comes on Tuesday.", "We talked about fixing the leaking pipe."])
    found = search.retrieve(user_id=user.pk, query_text="plumber", modes=("keyword", "vector"))
    assert found is not None

    by_words = search.message_hits(user_id=user.pk, query_text="plumber", k=2, vector_share=0.0,
                                   retrieved=found)  # fmt: skip

    assert by_words[0].text == "The plumber comes on Tuesday."
    assert by_words[0].score > by_words[1].score


def test_a_korean_question_gives_the_vectors_the_korean_share():
    assert fusion.vector_share("지난달에 어디로 이사했지?", hangul=0.6, other=0.2) == 0.6
    assert fusion.vector_share("where did I move last month?", hangul=0.6, other=0.2) == 0.2


def test_a_mixed_question_gets_a_share_in_proportion_to_its_hangul():
    # Four Hangul syllables and four Latin letters.
    assert fusion.hangul_share("qPCR 결과 어때") == pytest.approx(0.5)
    assert fusion.vector_share("qPCR 결과 어때", hangul=0.6, other=0.2) == pytest.approx(0.4)
    assert fusion.vector_share("2024?", hangul=0.6, other=0.2) == 0.2  # no letters


_MINJI = [
    "민지랑 카페 갔어",
    "민지가 요즘 회사 일로 바쁘대요.",
    "오늘 민지 만났음ㅋㅋ",
    "민지 생일 🎂 챙겨야 함",
    "민지한테 책 빌려줬어요",
    "민지는 고양이를 키워",
    "주말에 민지네 집들이 가요!",
    "민지 이사 도와주기로 함",
    "민지가 추천한 영화 봤는데 별로였어",
    "민지 결혼식 날짜 나왔대",
    "민지랑 전화로 한참 수다 떨었어요 ㅎㅎ",
    "민지 동생도 같이 왔어",
    "민지가 보낸 사진 너무 웃겨 😂",
    "드디어 수영 강습 등록했어요",
]


@pytest.mark.django_db
def test_a_name_most_messages_hold_ranks_no_message_by_itself(user):
    _session(user, _MINJI)
    documents = search.user_stats(user.pk)[0]

    query = search.analyse(user.pk, "민지 수영 언제 시작했지?", documents, embed=False)
    scored = search.keyword_scores(user.pk, query, search.user_stats(user.pk)[1])

    assert "민지" in query.common
    texts = set(Message.objects.filter(pk__in=[mid for mid, _s in scored]).values_list(
        "content", flat=True))  # fmt: skip
    assert "드디어 수영 강습 등록했어요" in texts
    assert not any("민지" in text and "수영" not in text for text in texts)


@pytest.mark.django_db
def test_the_query_mass_leaves_out_the_common_terms(user):
    _session(user, _MINJI)
    documents = search.user_stats(user.pk)[0]
    query = search.analyse(user.pk, "민지 수영 언제 시작했지?", documents, embed=False)

    found = search.retrieve(user_id=user.pk, query_text="민지 수영 언제 시작했지?",
                            modes=("keyword",))  # fmt: skip

    assert found is not None
    unseen = fusion.idf(documents, 0)
    expected = sum(query.idf.get(t, unseen) for t in query.terms if t != "민지")
    assert found.keyword_mass == pytest.approx(expected)


@pytest.mark.django_db
def test_an_english_speaker_name_in_most_turns_is_left_to_the_vectors(user):
    _session(user, [
        "Caroline went to the LGBTQ support group yesterday.",
        "caroline says hi!!",
        "Caroline is thinking about adoption agencies.",
        "I told Caroline about my new painting 🎨",
        "Caroline's mom visited last weekend",
        "Caroline and I went camping",
        "Did Caroline like the book? she didnt say",
        "Caroline starts her counseling course soon.",
        "Caroline sent me photos from the parade.",
        "Caroline wants to run a charity race.",
        "Caroline's friends threw her a party.",
        "Caroline bought a necklace from her grandma's shop.",
        "Melanie signed up for a pottery class.",
    ])  # fmt: skip
    documents, average = search.user_stats(user.pk)

    query = search.analyse(user.pk, "When did Caroline do pottery?", documents, embed=False)
    scored = search.keyword_scores(user.pk, query, average)

    assert "caroline" in query.common
    best = Message.objects.get(pk=scored[0][0]).content
    assert best == "Melanie signed up for a pottery class."


@pytest.mark.django_db
def test_in_a_short_history_every_found_term_still_counts(user):
    _session(user, ["민지랑 카페 갔어", "민지 생일 선물 샀어요", "수영 강습 등록함"])
    documents, average = search.user_stats(user.pk)

    query = search.analyse(user.pk, "민지 생일 언제였지", documents, embed=False)
    scored = search.keyword_scores(user.pk, query, average)

    assert query.common == frozenset()
    assert Message.objects.get(pk=scored[0][0]).content == "민지 생일 선물 샀어요"


def test_a_long_message_keeps_most_of_a_matched_terms_weight():
    short = fusion.bm25_weight(2.0, 5, 10.0, b=search.BM25_B)
    long = fusion.bm25_weight(2.0, 40, 10.0, b=search.BM25_B)

    assert long < short
    assert long > 0.75 * short
