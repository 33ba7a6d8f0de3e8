from __future__ import annotations

import numpy as np
import pytest

from conversations import search
from conversations.models import Message
from conversations.services import chat, indexing, sessions

pytestmark = pytest.mark.django_db


def _session(user, texts):
    session = chat.chat_session_create(user=user)
    for text in texts:
        message, _ = chat.message_add_user(session=session, content=text)
        "".join(chat.reply_stream(message=message))
    indexing.messages_embed_pending(user_id=user.pk)
    sessions.session_end(session=session)
    sessions.session_finalize(session_id=session.pk)
    return session


def _texts(hits):
    return [hit.text for hit in hits]


def test_the_seeds_topic_tag_search_finds_a_message_without_the_keyword(user):
    _session(user, [
        "React 프로젝트 Next.js로 마이그레이션하려고 해.",
        "Next.js App Router 설정 완료",
        "삼성전자 주가 어때?",
    ])  # fmt: skip
    query = search.analyse(user.pk, "마이그레이션", search.user_stats(user.pk)[0])

    keyword = search.keyword_ranking(user.pk, query, search.user_stats(user.pk)[1])
    by_topic = search.topic_ranking(user.pk, query)
    hits = search.message_hits(user_id=user.pk, query_text="마이그레이션", k=5)

    target = Message.objects.get(content="Next.js App Router 설정 완료").pk
    assert target not in keyword  # the word is not in it
    assert target in by_topic  # its topic is tagged with it
    assert "Next.js App Router 설정 완료" in _texts(hits)


def test_a_synonym_is_found_by_the_vector_side(user):
    _session(user, [
        "차트 그리는 라이브러리를 Recharts로 교체하기로 했어.",
        "고양이가 아파서 병원에 다녀왔어.",
        "주말에 등산 갈 거야.",
    ])  # fmt: skip

    hits = search.message_hits(user_id=user.pk, query_text="프레임워크 뭐로 바꿨지?", k=1)

    assert _texts(hits) == ["차트 그리는 라이브러리를 Recharts로 교체하기로 했어."]


def test_english_search_works_the_same_way(user):
    _session(user, [
        "We decided to move the dashboard to the Recharts library.",
        "My cat had to see the vet today.",
        "I am going hiking this weekend.",
    ])  # fmt: skip

    by_meaning = search.message_hits(user_id=user.pk, query_text="which framework for charts?", k=1)
    by_word = search.message_hits(user_id=user.pk, query_text="vet", k=1)

    assert _texts(by_meaning) == ["We decided to move the dashboard to the Recharts library."]
    assert _texts(by_word) == ["My cat had to see the vet today."]


def test_a_users_search_never_returns_another_users_rows(user, other_user):
    _session(user, ["나는 매운 떡볶이를 좋아해."])
    _session(other_user, ["나는 매운 떡볶이를 정말 좋아해.", "떡볶이 맛집 추천해줘"])

    hits, _took = search.search(user_id=user.pk, query="떡볶이", k=20, reader="assistant")

    mine = {str(pk) for pk in Message.objects.filter(user=user).values_list("pk", flat=True)}
    mine |= {str(s) for s in user.chat_sessions.values_list("pk", flat=True)}
    assert hits
    for hit in hits:
        assert hit.session_id in mine or hit.id in mine


def test_filtered_vector_search_returns_k_rows_whenever_k_exist(user, other_user, monkeypatch):
    rng = np.random.default_rng(7)
    session = chat.chat_session_create(user=user)
    crowd = chat.chat_session_create(user=other_user)

    def vectors(n):
        v = rng.normal(size=(n, 384)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    Message.objects.bulk_create(
        [Message(session=crowd, user=other_user, role="user", content=f"o{i}", embedding=v,
                 context_embedding=v) for i, v in enumerate(vectors(600))]
        + [Message(session=session, user=user, role="user", content=f"m{i}", embedding=v,
                   context_embedding=v) for i, v in enumerate(vectors(30))]
    )  # fmt: skip
    monkeypatch.setattr(search, "EXACT_SCAN_MAX", 0)  # force the HNSW path
    query = search.Query(text="q", terms=[], vector=vectors(1)[0])

    ids = search.vector_ranking(user.pk, query, count=30, limit=25)

    assert len(ids) == 25
    assert set(ids) <= set(Message.objects.filter(user=user).values_list("pk", flat=True))


def test_search_api_returns_the_documented_fields(api, user):
    _session(user, ["Next.js App Router 설정 완료"])

    response = api.post("/api/v1/search/", {"query": "App Router", "k": 3}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert isinstance(body["took_ms"], int)
    hit = body["results"][0]
    assert set(hit) == {"kind", "id", "score", "text", "session_id", "created_at", "external_id"}
    assert all(isinstance(hit[key], str) for key in ("kind", "id", "text"))


def test_search_api_filters_kinds(api, user):
    _session(user, ["Next.js App Router 설정 완료"])

    body = api.post("/api/v1/search/", {"query": "Next.js", "kinds": ["topic"]}, format="json")

    assert {hit["kind"] for hit in body.json()["results"]} == {"topic"}


@pytest.mark.parametrize(
    "payload", [{}, {"query": ""}, {"query": "x", "k": 0}, {"query": "x", "kinds": ["nope"]}]
)
def test_bad_search_input_is_400_in_the_error_shape(api, payload):
    response = api.post("/api/v1/search/", payload, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_context_api_returns_the_chat_context_without_calling_the_model(api, user):
    _session(user, ["React 프로젝트 Next.js로 마이그레이션하려고 해.", "App Router 설정 완료"])
    calls = user.llm_calls.count()

    response = api.post("/api/v1/context/", {"message": "마이그레이션 어디까지 했지?"},
                        format="json")  # fmt: skip

    assert response.status_code == 200
    body = response.json()
    assert set(body) >= {"session_recall", "topic_recall", "memories", "tokens", "took_ms"}
    assert body["session_recall"] and body["topic_recall"]
    assert user.llm_calls.count() == calls


def test_context_api_for_another_users_session_is_404(api, other_api):
    session_id = api.post("/api/v1/sessions/").json()["id"]

    response = other_api.post(
        "/api/v1/context/", {"message": "hi", "session_id": session_id}, format="json"
    )

    assert response.status_code == 404


def test_topic_recall_reads_a_topics_turns_in_one_query(user, django_assert_max_num_queries):
    from conversations.services import topics

    _session(user, ["React 프로젝트 Next.js로 마이그레이션하려고 해.", "App Router 설정 완료",
                    "마이그레이션 하면서 라우팅 테스트도 다 고쳤어."])  # fmt: skip
    terms = topics.message_topic_terms(content="마이그레이션 어디까지 했지?", user_id=user.pk)

    with django_assert_max_num_queries(3):
        recalled = topics.topic_recall(
            user_id=user.pk, terms=terms, exclude_topic_id=None, token_budget=2000
        )

    assert sum(len(t.messages) for t in recalled) >= 2


def test_a_search_without_the_vector_side_never_embeds_the_query(user, monkeypatch):
    _session(user, ["My cat had to see the vet today.", "I am going hiking this weekend."])

    def no_model(text):
        raise AssertionError("the query was embedded")

    monkeypatch.setattr(search.embeddings, "embed_query", no_model)
    hits = search.message_hits(user_id=user.pk, query_text="vet", k=1, modes=("keyword",))

    assert _texts(hits) == ["My cat had to see the vet today."]


# --- memory records (issue 17 line 1) -------------------------------------------------------


def _remember(owner, content, type="preference", **fields):
    from memories.services import revision

    return revision.memory_create(user=owner, type=type, content=content, **fields)


def _memory_search(api, query, kinds=("memory",), k=10):
    response = api.post("/api/v1/search/", {"query": query, "kinds": list(kinds), "k": k},
                        format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    return response.json()["results"]


@pytest.mark.parametrize(
    "query, wanted",
    [
        ("오늘 떡볶이 먹으러 갈까?", "나는 매운 떡볶이를 정말 좋아해"),
        ("what is my cat called?", "I have a grey cat named Mochi"),
    ],
)
def test_memory_kind_search_returns_the_users_memories_ranked(api, user, query, wanted):
    _remember(user, "나는 매운 떡볶이를 정말 좋아해", "preference")
    _remember(user, "I have a grey cat named Mochi", "fact")
    _remember(user, "나는 회계팀에서 일해", "fact")

    results = _memory_search(api, query)

    assert results and results[0]["text"] == wanted
    assert {hit["kind"] for hit in results} == {"memory"}
    assert set(results[0]) == {
        "kind", "id", "score", "text", "session_id", "created_at", "external_id"
    }  # fmt: skip


def test_memory_search_never_returns_another_users_memories(api, user, other_user):
    mine = _remember(user, "I have a grey cat named Mochi", "fact")
    _remember(other_user, "I have a black cat named Coal", "fact")

    results = _memory_search(api, "what is my cat called?")

    assert [hit["id"] for hit in results] == [str(mine.pk)]


def test_memory_search_returns_only_live_memories_the_reader_may_see(api, user):
    from memories.services import revision

    kept = _remember(user, "I have a grey cat named Mochi", "fact")
    rejected = _remember(user, "I have a cat named Bori", "fact")
    revision.memory_reject(user=user, memory=rejected)
    _remember(user, "My cat is called Kiwi", "fact", allowed_readers=("assistant",))

    results = _memory_search(api, "what is my cat called?")

    assert [hit["id"] for hit in results] == [str(kept.pk)]


def test_a_memory_and_the_message_it_came_from_appear_once(api, user):
    from memories.models import Memory
    from memories.services import extraction

    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(
        session=session, content="기억해줘: 나는 매일 아침 수영을 해"
    )
    extraction.memory_extract_from_exchange(
        user_id=user.pk, user_text=message.content, assistant_text="",
        source_message_id=message.pk, source_session_id=session.pk, observed_at=None,
    )  # fmt: skip
    indexing.messages_embed_pending(user_id=user.pk)
    memory = Memory.objects.get(user=user)

    results = _memory_search(api, "나 아침에 무슨 운동 하지?", kinds=("message", "memory"))

    assert memory.current_version.source_message_id == message.pk
    assert ("memory", str(memory.pk)) in {(h["kind"], h["id"]) for h in results}
    assert ("message", str(message.pk)) not in {(h["kind"], h["id"]) for h in results}


def test_a_memory_takes_the_place_of_the_message_it_came_from_when_that_ranks_higher(user):
    from memories.models import MemoryVersion

    _session(user, ["The spare key is under the green flowerpot",
                    "I bought a new raincoat", "The garden gnome is red"])  # fmt: skip
    source = Message.objects.get(content="The spare key is under the green flowerpot")
    _remember(user, "Likes green tea", importance=0.9)
    _remember(user, "Favourite colour is green", importance=0.8)
    key = _remember(user, "Spare key under the green flowerpot", "fact", importance=0.1)
    MemoryVersion.objects.filter(memory=key).update(source_message_id=source.pk)

    hits, _took = search.search(user_id=user.pk, query="green", reader="assistant", k=3,
                                kinds=("message", "memory"))  # fmt: skip

    # The message ranks first among messages and its memory last among memories: the memory
    # is listed in the message's place, not cut off with it.
    assert [(hit.kind, hit.text) for hit in hits][:2] == [
        ("memory", "Likes green tea"), ("memory", "Spare key under the green flowerpot"),
    ]  # fmt: skip
    assert ("message", str(source.pk)) not in {(hit.kind, hit.id) for hit in hits}


# --- a question about the current state (issue 18 line 2) ------------------------------------


def _said_a_day_apart(user, texts):
    """Each text as the user's message of its own imported session, a day after the one
    before, through the import pipeline (vectors, topics, offline memory extraction)."""
    from datetime import timedelta

    from django.utils import timezone

    from conversations.services import imports

    first = timezone.now() - timedelta(days=len(texts) + 1)
    sessions = []
    for day, text in enumerate(texts):
        at = first + timedelta(days=day)
        sessions.append({"started_at": at.isoformat(), "messages": [
            {"role": "user", "content": text, "created_at": at.isoformat(),
             "external_id": f"D{day + 1}:1"},
            {"role": "assistant", "content": "👍", "external_id": f"D{day + 1}:2",
             "created_at": (at + timedelta(seconds=30)).isoformat()},
        ]})  # fmt: skip
    imports.history_import_create_inline(user=user, payload={"sessions": sessions})


# (question, what the user said a day apart: the older value, the newer one, then a fact
# answering another question; a word of the older value; a word of the newer one)
CURRENT_STATE_CASES = [
    ("지금 어디 살아?", ["나 부산 살아", "서울로 이사했어", "나 간호사로 일해"], "부산", "서울"),
    ("what is my job now?",
     ["I work at a bakery", "started a new job at Kakao", "I live in Busan"], "bakery", "Kakao"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "said", "older", "newer"), CURRENT_STATE_CASES)
def test_a_question_about_the_current_state_is_led_by_the_latest_version(
    api, user, question, said, older, newer
):
    from memories.models import Memory, MemoryStatus

    _said_a_day_apart(user, said)
    replaced = Memory.objects.get(user=user, versions__content__contains=older)
    versions = list(replaced.versions.order_by("version").values_list("content", flat=True))

    hits, _took = search.search(user_id=user.pk, query=question, reader="assistant",
                                kinds=("message", "memory"))  # fmt: skip
    context = api.post("/api/v1/context/", {"message": question}, format="json").json()

    assert replaced.status == MemoryStatus.ACTIVE and len(versions) == 2
    assert older in versions[0] and newer in versions[1]  # the move replaced the old value
    assert (hits[0].kind, hits[0].id) == ("memory", str(replaced.pk)), _texts(hits)
    assert newer in hits[0].text  # so no hit holding the older value is above it
    assert any(older in hit.text for hit in hits[1:])  # the older message is still found
    assert (context["memories"][0]["id"], context["memories"][0]["version"]) == (
        str(replaced.pk), 2,
    )  # fmt: skip
