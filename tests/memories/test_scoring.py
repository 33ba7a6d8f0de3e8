"""Retrieval math and the measured thresholds (issue 5 lines 4 and 7).

The pure functions are tested without a database. The measurement tests embed real text
with the configured model and check the named constants still separate what they must:
paraphrases from different statements (PARAPHRASE_COSINE) and related from unrelated
questions (VECTOR_BANDS + RELEVANCE_FLOOR).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from django.conf import settings

from memories.logic import scoring
from memories.logic.rules import adds_nothing
from memoryhub import embeddings

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _scored(
    memory_id: str,
    *,
    slot: str = "",
    by_user: bool = True,
    days: int = 0,
    score: float = 1.0,
    tokens: int = 10,
    conflicts: tuple[str, ...] | set[str] = (),
) -> scoring.Scored:
    return scoring.Scored(
        memory_id=memory_id,
        slot=slot,
        by_user=by_user,
        observed_at=T0 + timedelta(days=days),
        version=1,
        score=score,
        tokens=tokens,
        conflicts=frozenset(conflicts),
    )


def test_time_decay_follows_seed_002():
    assert scoring.time_decay(0) == 1.0
    assert scoring.time_decay(100) == pytest.approx(np.exp(-1.0))


def test_keyword_relevance_is_the_share_of_query_tokens_matched():
    assert scoring.keyword_relevance(["커피", "추천"], ["커피", "좋아"]) == 0.5
    assert scoring.keyword_relevance([], ["커피"]) == 0.0


def test_either_signal_alone_can_make_a_memory_relevant():
    assert scoring.fuse(0.0, 1.0) == 1.0
    assert scoring.fuse(0.6, 0.0) == pytest.approx(0.6)
    assert scoring.fuse(0.5, 0.5) == pytest.approx(0.75)


def test_the_score_multiplies_relevance_decay_importance_and_confidence():
    score = scoring.final_score(relevance=0.8, decay=0.5, importance=0.5, confidence=1.0)

    assert score == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("query", "types"),
    [
        ("내 이름이 뭐였지?", {"fact"}),
        ("나에 대해 뭘 알아?", {"fact"}),
        ("who am I?", {"fact"}),
        ("지난번에 하던 프로젝트 기억나?", {"episode", "decision"}),
        ("what did we do on the previous project?", {"episode", "decision"}),
        ("답변 스타일 어떻게 해줄까?", {"preference", "procedure"}),
        ("how should you answer me?", {"preference", "procedure"}),
        ("파이썬 리스트 정렬 방법", set()),
    ],
)
def test_type_aware_triggers_load_the_types_of_seed_002(query, types):
    assert scoring.triggered_types(query) == types


def test_a_user_statement_wins_over_an_inference_and_the_conflict_is_flagged():
    user = _scored("1", slot="residence", by_user=True, days=0, conflicts={"2"})
    inferred = _scored("2", slot="residence", by_user=False, days=5, conflicts={"1"})

    kept = scoring.resolve_conflicts([user, inferred])

    assert [k.memory_id for k in kept] == ["1"]
    assert kept[0].conflict_with == ("2",)


def test_the_newer_of_two_statements_wins():
    kept = scoring.resolve_conflicts(
        [_scored("1", slot="job", days=0), _scored("2", slot="job", days=3)]
    )

    assert [k.memory_id for k in kept] == ["2"]


def test_statements_made_at_the_same_moment_are_both_kept_as_a_conflict():
    a = _scored("1", slot="residence", conflicts={"2"})
    b = _scored("2", slot="residence", conflicts={"1"})

    kept = scoring.resolve_conflicts([a, b])

    assert sorted(k.memory_id for k in kept) == ["1", "2"]
    assert all(k.conflict_with for k in kept)


def test_a_conflict_with_a_memory_not_retrieved_is_still_flagged():
    kept = scoring.resolve_conflicts([_scored("1", conflicts={"9"})])

    assert kept[0].conflict_with == ("9",)


def test_the_budget_keeps_the_best_items_that_fit():
    items = [
        _scored("1", score=0.9, tokens=100),
        _scored("2", score=0.8, tokens=10),
        _scored("3", score=0.7, tokens=10),
    ]

    chosen = scoring.within_budget(items, limit=5, token_budget=50)

    assert [c.memory_id for c in chosen] == ["2", "3"]
    assert len(scoring.within_budget(items, limit=1, token_budget=1000)) == 1


# --- measured on the real model ------------------------------------------------------------

PARAPHRASES = [
    ("나는 커피를 좋아해", "커피 좋아해"),
    ("나는 커피를 좋아해", "나 커피 진짜 좋아함"),
    ("앞으로 답변은 짧게 해줘", "답변은 짧게 해 줘"),
    ("I prefer short answers", "I like my answers short"),
    ("I live in Boston", "I'm living in Boston"),
]
NOT_PARAPHRASES = [
    ("나는 커피를 좋아해", "나는 차를 좋아해"),
    ("나는 고양이를 좋아해", "나는 고양이를 싫어해"),
    ("I like coffee", "I like tea"),
    ("나 서울 강남에 살아", "나 부산으로 이사했어"),
    ("I live in Boston", "I moved to Denver"),
]


def _cosine(a: str, b: str) -> float:
    va, vb = embeddings.embed_passages([a, b])
    return float(np.dot(va, vb))


def test_paraphrases_reach_the_paraphrase_threshold_and_pass_the_word_check():
    threshold = scoring.PARAPHRASE_COSINE[settings.MEMORYHUB_EMBEDDING_BACKEND]

    for a, b in PARAPHRASES:
        assert _cosine(a, b) >= threshold, (a, b)
        assert adds_nothing(a, b), (a, b)


def test_different_statements_are_never_taken_for_paraphrases():
    threshold = scoring.PARAPHRASE_COSINE[settings.MEMORYHUB_EMBEDDING_BACKEND]

    for a, b in NOT_PARAPHRASES:
        assert not (_cosine(a, b) >= threshold and adds_nothing(a, b)), (a, b)


MEMORIES = [
    "나 서울 강남에 살아",
    "내 이름은 민지야",
    "앞으로 답변은 짧게 해줘",
    "나는 커피를 좋아해",
    "I prefer short answers",
    "Next.js로 마이그레이션하기로 결정했어",
    "지난주에 React 프로젝트에서 라우팅 버그를 고쳤어",
    "I hate cilantro",
    "We decided to use PostgreSQL for the analytics service",
]
RELATED = [
    ("커피 추천해줘", 3),
    ("마이그레이션 어떻게 하기로 했지?", 5),
    ("React 라우팅 버그 기억나?", 6),
    ("should I add cilantro to this salsa?", 7),
    ("which database did we pick for analytics?", 8),
]
UNRELATED = [
    "오늘 점심 뭐 먹을까?",
    "What's the capital of France?",
    "파이썬 리스트 정렬 방법",
    "Explain quantum entanglement simply",
    "How do I center a div in CSS?",
    "세계에서 가장 높은 산은?",
    "Write a haiku about autumn",
]


def _vector_relevance(query: str, memory: str) -> float:
    from memories.selectors.retrieval import query_baseline

    vector = embeddings.embed_query(query)
    passage = embeddings.embed_passages([memory])[0]
    band = scoring.VECTOR_BANDS[settings.MEMORYHUB_EMBEDDING_BACKEND]
    return scoring.vector_relevance(float(np.dot(vector, passage)), query_baseline(vector), band)


def test_related_questions_clear_the_relevance_floor_by_meaning_alone():
    for query, index in RELATED:
        assert _vector_relevance(query, MEMORIES[index]) >= scoring.RELEVANCE_FLOOR, query


def test_unrelated_questions_stay_below_the_relevance_floor_for_every_memory():
    for query in UNRELATED:
        best = max(_vector_relevance(query, memory) for memory in MEMORIES)
        assert best < scoring.RELEVANCE_FLOOR, query
