"""Retrieval in seed 003's order and the usage log (issue 5 line 7)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from memories.logic.write_policy import Origin
from memories.models import Memory, MemoryUse, MemoryVersion
from memories.selectors import RetrievedMemory, memory_retrieve
from memories.services import revision
from memories.services.usage import memories_access_refresh, memory_use_record
from memoryhub import embeddings
from tests.memories.conftest import version_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def profile(remember: Any) -> dict[str, Memory]:
    return {
        "home": remember("나 서울 강남에 살아", "fact"),
        "name": remember("내 이름은 민지야", "fact"),
        "coffee": remember("나는 커피를 좋아해", "preference"),
        "short": remember("앞으로 답변은 짧게 해줘", "procedure"),
        "nextjs": remember("Next.js로 마이그레이션하기로 결정했어", "decision"),
        "bug": remember("지난주에 React 프로젝트에서 라우팅 버그를 고쳤어", "episode"),
        "cilantro": remember("I hate cilantro", "preference"),
    }


def _ids(found: list[RetrievedMemory]) -> list[str]:
    return [m.memory_id for m in found]


def test_a_relevant_question_retrieves_the_memory_first(user, profile):
    found = memory_retrieve(user=user, reader="assistant", query="커피 추천해줘")

    assert _ids(found)[0] == str(profile["coffee"].pk)
    assert found[0].rank == 1
    assert found[0].as_context_item()["content"] == "나는 커피를 좋아해"


def test_an_english_question_finds_an_english_memory(user, profile):
    found = memory_retrieve(
        user=user, reader="assistant", query="should I add cilantro to this salsa?"
    )

    assert _ids(found)[0] == str(profile["cilantro"].pk)


@pytest.mark.parametrize(
    "query",
    [
        "오늘 날씨 어때?",
        "What's the capital of France?",
        "파이썬 리스트 정렬 방법",
        "How do I center a div in CSS?",
        "Write a haiku about autumn",
    ],
)
def test_a_question_unrelated_to_every_memory_retrieves_none(user, profile, query):
    assert memory_retrieve(user=user, reader="assistant", query=query) == []


@pytest.mark.parametrize("query", ["오늘 점심 뭐 먹을까?", "Can you suggest a snack for my hike?"])
def test_a_request_for_a_suggestion_loads_the_users_preferences(user, profile, query):
    found = _ids(memory_retrieve(user=user, reader="assistant", query=query))

    assert str(profile["coffee"].pk) in found
    assert str(profile["cilantro"].pk) in found
    assert str(profile["home"].pk) not in found


def test_an_allergy_is_remembered_as_a_preference_that_shapes_suggestions(user, say):
    say("Remember that I'm allergic to peanuts.")

    found = memory_retrieve(user=user, reader="assistant", query="What should I cook tonight?")

    assert [m.type for m in found] == ["preference"]
    assert "peanuts" in found[0].content


def test_a_mention_of_the_users_name_or_profile_loads_facts(user, profile):
    found = memory_retrieve(user=user, reader="assistant", query="나에 대해 뭘 알고 있어?")

    assert {str(profile["home"].pk), str(profile["name"].pk)} <= set(_ids(found))
    assert {m.type for m in found} <= {"fact"}


def test_a_question_about_how_to_answer_loads_preferences_and_procedures(user, profile):
    found = memory_retrieve(user=user, reader="assistant", query="how should you answer me?")

    assert str(profile["short"].pk) in _ids(found)
    assert {m.type for m in found} <= {"preference", "procedure"}


def test_a_mention_of_an_earlier_project_loads_its_episodes(user, profile):
    found = memory_retrieve(user=user, reader="assistant", query="지난번에 하던 프로젝트 기억나?")

    assert str(profile["bug"].pk) in _ids(found)


def test_only_active_memories_in_effect_and_not_expired_are_retrieved(user, remember):
    past = timezone.now() - timedelta(hours=1)
    expired = remember("나는 커피를 좋아해", "preference", expires_at=past)
    future = remember("커피는 라떼가 최고야", "preference")
    Memory.objects.filter(pk=future.pk).update(status="pending")
    later = remember("커피 대신 차를 마실 거야", "decision")
    MemoryVersion.objects.filter(pk=later.current_version_id).update(
        effective_from=timezone.now() + timedelta(days=3)
    )

    assert memory_retrieve(user=user, reader="assistant", query="커피 추천해줘") == []
    assert expired.status == "active"  # expiry is filtered even before beat marks it


def test_another_users_memories_are_never_retrieved(user, other_user, remember):
    remember("나는 커피를 좋아해", "preference", owner=other_user)

    assert memory_retrieve(user=user, reader="assistant", query="커피 추천해줘") == []


def test_readers_see_only_memories_allowed_to_them(user, remember):
    remember("나는 커피를 좋아해", "preference", allowed_readers=("assistant",))

    assert memory_retrieve(user=user, query="커피 추천해줘", reader="agent") == []
    assert len(memory_retrieve(user=user, query="커피 추천해줘", reader="assistant")) == 1


def test_a_sensitive_memory_is_not_shared_with_other_agents(user, remember):
    remember("나는 커피를 좋아해", "preference", sensitivity="high")

    assert memory_retrieve(user=user, query="커피 추천해줘", reader="agent") == []


def test_other_scopes_are_only_searched_when_asked_for(user, remember):
    remember("이 프로젝트는 Next.js로 마이그레이션하기로 결정했어", "decision", scope="project:web")

    assert (
        memory_retrieve(user=user, reader="assistant", query="마이그레이션 어떻게 하기로 했지?")
        == []
    )
    found = memory_retrieve(
        user=user, reader="assistant", query="마이그레이션 어떻게 하기로 했지?", scope="project:web"
    )
    assert len(found) == 1


def test_at_most_limit_memories_are_returned(user, profile):
    assert (
        len(
            memory_retrieve(
                user=user, reader="assistant", query="나에 대해 뭘 알아? 어떻게 답해?", limit=2
            )
        )
        == 2
    )


def test_the_token_budget_is_respected(user, remember):
    remember("나는 커피를 좋아해. " + "특히 산미 있는 원두를 아주 좋아해. " * 30, "preference")
    remember("커피는 하루에 두 잔만 마셔", "fact")

    found = memory_retrieve(user=user, reader="assistant", query="커피 추천해줘", token_budget=60)

    assert [m.content for m in found] == ["커피는 하루에 두 잔만 마셔"]
    assert (
        memory_retrieve(user=user, reader="assistant", query="커피 추천해줘", token_budget=0) == []
    )


def test_importance_and_recency_order_equally_relevant_memories(user, remember):
    old = remember("커피는 아메리카노만 마셔", "preference", importance=0.9)
    new = remember("커피는 라떼만 마셔", "preference", importance=0.2)

    found = memory_retrieve(user=user, reader="assistant", query="커피 주문해줘")

    assert _ids(found)[:2] == [str(old.pk), str(new.pk)]


def test_a_user_statement_wins_over_an_inference_and_the_conflict_is_flagged(user, remember):
    stated = remember("나 서울 강남에 살아", "fact")
    inferred = revision.lineage_create(
        user_id=user.pk,
        fields=revision.VersionFields(
            type="fact", content="사용자는 부산에 산다", slot="residence"
        ),
        origin=Origin.ASSISTANT,
        policy=revision.policy_decide(
            content="사용자는 부산에 산다", type="fact", origin=Origin.ASSISTANT
        ),
        indexed=revision.memory_index(content="사용자는 부산에 산다"),
    )
    revision.memory_approve(user=user, memory=inferred)
    inferred.conflicts.add(stated, through_defaults={"user_id": inferred.user_id})

    found = memory_retrieve(user=user, reader="assistant", query="내가 어디 살지?")

    assert _ids(found) == [str(stated.pk)]
    assert found[0].conflict_with == (str(inferred.pk),)


def test_recording_uses_logs_rank_and_score_and_updates_access_counts_off_the_request(
    user, profile, django_capture_on_commit_callbacks
):
    found = memory_retrieve(user=user, reader="assistant", query="커피 추천해줘")

    with django_capture_on_commit_callbacks() as callbacks:
        assert memory_use_record(uses=found, message_id=501) == len(found)
        memory_use_record(uses=found, message_id=501)

    assert len(callbacks) == 2
    use = MemoryUse.objects.get(message_id=501, memory_id=int(found[0].memory_id))
    assert use.rank == 1
    assert use.score == pytest.approx(found[0].score)
    assert MemoryUse.objects.filter(message_id=501).count() == len(found)
    coffee = Memory.objects.get(pk=profile["coffee"].pk)
    assert coffee.access_count == 0  # not on the request path

    memories_access_refresh(memory_ids=[coffee.pk])
    memories_access_refresh(memory_ids=[coffee.pk])

    coffee.refresh_from_db()
    assert coffee.access_count == 1
    assert coffee.last_accessed_at == use.used_at


def test_a_use_of_a_memory_deleted_since_retrieval_is_skipped(user, profile):
    from memories.services.deletion import memory_delete
    from memories.services.receipts import NO_COPIES

    found = memory_retrieve(user=user, reader="assistant", query="커피 추천해줘")
    memory_delete(user=user, memory=profile["coffee"], copies=NO_COPIES)

    assert memory_use_record(uses=found, message_id=77) == len(found) - 1


def test_a_keyword_match_is_still_found_when_more_memories_qualify_than_are_scored(
    user, remember, monkeypatch
):
    monkeypatch.setattr("memories.selectors.retrieval.CANDIDATES", 2)
    for flavour in ("바닐라", "초코", "딸기", "녹차"):
        remember(f"{flavour} 아이스크림을 좋아해", "preference", importance=0.2)
    wanted = remember("민트 아이스크림을 제일 좋아해", "preference", importance=0.9)

    found = memory_retrieve(user=user, reader="assistant", query="민트 아이스크림 사줘")

    assert _ids(found)[0] == str(wanted.pk)


def test_a_slot_mate_left_out_by_the_candidate_cap_still_decides_the_conflict(
    user, remember, monkeypatch
):
    inferred = revision.lineage_create(
        user_id=user.pk,
        fields=revision.VersionFields(
            type="fact", content="사용자는 부산 해운대에 산다", slot="residence"
        ),
        origin=Origin.ASSISTANT,
        policy=revision.policy_decide(
            content="사용자는 부산 해운대에 산다", type="fact", origin=Origin.ASSISTANT
        ),
        indexed=revision.memory_index(content="사용자는 부산 해운대에 산다"),
    )
    revision.memory_approve(user=user, memory=inferred)
    stated = remember("나 서울에 살아", "fact", importance=0.1)
    assert version_of(stated).slot == "residence"
    monkeypatch.setattr("memories.selectors.retrieval.CANDIDATES", 1)

    found = memory_retrieve(
        user=user, reader="assistant", query="부산 해운대 맛집 알려줘, 나 어디 살지?"
    )

    assert str(inferred.pk) not in _ids(found)
    assert str(stated.pk) in _ids(found)


def test_a_retrieved_memory_carries_its_cosine_with_the_query(user, profile):
    query = "커피 추천해줘"
    found = memory_retrieve(user=user, reader="assistant", query=query)
    vector = embeddings.embed_query(query)
    stored = embeddings.embed_passages([found[0].content])[0]

    assert found[0].similarity == pytest.approx(embeddings.cosine(vector, stored), abs=1e-3)
