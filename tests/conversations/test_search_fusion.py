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
