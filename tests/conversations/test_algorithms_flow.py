"""Algorithms 1 and 2 end to end through the API, for both providers (seed 000)."""

from __future__ import annotations

import pytest

from conversations.models import ChatSession, TagWeight
from conversations.services import sessions
from memoryhub import llm
from tests.anthropic_scripted import ScriptedAnthropic

pytestmark = pytest.mark.django_db

MIGRATION = [
    "React 프로젝트 Next.js로 마이그레이션하려고 해.",
    "Next.js App Router 설정했어.",
    "빌드 에러는 해결했어.",
]
STOCK = "삼성전자 주가 어때?"
BACK = "다시 마이그레이션인데, 어디까지 했었지?"
GENERIC = {"대화", "질문", "답변", "인사", "채팅", "소통", "응답", "요청", "확인", "문의"}


def _shift_answer(prompt: str) -> str:
    new = prompt.split("B:", 1)[1].split("\n", 1)[0]
    previous = prompt.split("A:", 1)[1].split("\nB:", 1)[0]
    if "주가" in new or ("마이그레이션" in new and "주가" in previous):
        return "N"
    return "Y"


SUMMARY_JSON = (
    '{"tags": ["마이그레이션", "Next.js", "React", "대화"], '
    '"summary": "React 프로젝트를 Next.js App Router로 마이그레이션하기로 했다."}'
)


def _anthropic() -> llm.Provider:
    fake = ScriptedAnthropic(
        [
            ("같으면 Y", _shift_answer),
            ("이 메시지와 관련된 태그",
             lambda p: "없음" if "고양이" in p else "마이그레이션, next.js"),
            ("요약하라", lambda p: SUMMARY_JSON),
            ("대화 주제를 나타내는 단어", lambda p: "주식, 주가, 삼성전자" if "주가" in p
             else "마이그레이션, Next.js"),
        ]
    )  # fmt: skip
    return llm.AnthropicProvider(client=fake.client())


@pytest.fixture(params=["offline", "anthropic"])
def provider(request):
    chosen = llm.OfflineProvider() if request.param == "offline" else _anthropic()
    llm.set_provider(chosen)
    return chosen


def _say(api, session_id: str, content: str) -> dict:
    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": content}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_the_seeds_scenario_segments_topics_recalls_them_and_the_next_session(api, provider):
    session_id = api.post("/api/v1/sessions/").json()["id"]

    first, second, third = (_say(api, session_id, text) for text in MIGRATION)
    stock = _say(api, session_id, STOCK)
    back = _say(api, session_id, BACK)

    assert first["topic"]["shifted"] is False
    assert second["topic"] == {**second["topic"], "id": first["topic"]["id"], "shifted": False}
    assert third["topic"]["id"] == first["topic"]["id"] and not third["topic"]["shifted"]
    assert stock["topic"]["shifted"] is True and stock["topic"]["id"] != first["topic"]["id"]
    assert back["topic"]["shifted"] is True
    recalled = back["context"]["topic_recall"]
    assert recalled and recalled[0]["topic_id"] == first["topic"]["id"]
    recalled_text = [m["content"] for m in recalled[0]["messages"]]
    assert MIGRATION[0] in recalled_text and MIGRATION[1] in recalled_text
    assert back["context"]["tokens"] > 0

    ended = api.post(f"/api/v1/sessions/{session_id}/end/")
    assert ended.status_code == 202
    assert ended.json()["status"] == "ending"
    sessions.session_finalize(session_id=int(session_id))  # the task body

    detail = api.get(f"/api/v1/sessions/{session_id}/").json()
    assert detail["status"] == "ended" and detail["ended_at"]
    assert "마이그레이션" in detail["tags"]
    assert not GENERIC & set(detail["tags"])
    assert 3 <= len(detail["tags"]) <= 5
    assert detail["summary"]
    assert len(detail["topics"]) == 3

    next_session = api.post("/api/v1/sessions/").json()["id"]
    reply = _say(api, next_session, "어제 뭐 하기로 했었지?")

    recall = reply["context"]["session_recall"]
    assert [r["session_id"] for r in recall] == [session_id]
    assert "마이그레이션" in recall[0]["tags"]


def test_a_tag_picked_at_session_start_gains_half_a_point(api, user, provider):
    session_id = api.post("/api/v1/sessions/").json()["id"]
    for text in MIGRATION:
        _say(api, session_id, text)
    api.post(f"/api/v1/sessions/{session_id}/end/")
    sessions.session_finalize(session_id=int(session_id))
    before = TagWeight.objects.get(user=user, tag="마이그레이션").weight

    next_session = api.post("/api/v1/sessions/").json()["id"]
    reply = _say(api, next_session, "Next.js 마이그레이션 다음 단계는 뭐야?")

    assert reply["context"]["session_recall"]
    after = TagWeight.objects.get(user=user, tag="마이그레이션").weight
    assert after == pytest.approx(before + 0.5, abs=0.01)


def test_an_unrelated_first_message_recalls_no_session(api, provider):
    session_id = api.post("/api/v1/sessions/").json()["id"]
    for text in MIGRATION:
        _say(api, session_id, text)
    api.post(f"/api/v1/sessions/{session_id}/end/")
    sessions.session_finalize(session_id=int(session_id))

    next_session = api.post("/api/v1/sessions/").json()["id"]
    reply = _say(api, next_session, "고양이 사료 추천해줘")

    assert reply["context"]["session_recall"] == []


def test_ending_twice_and_finalizing_twice_changes_nothing_the_second_time(api, user):
    session_id = api.post("/api/v1/sessions/").json()["id"]
    for text in MIGRATION:
        _say(api, session_id, text)

    api.post(f"/api/v1/sessions/{session_id}/end/")
    sessions.session_finalize(session_id=int(session_id))
    weights = dict(TagWeight.objects.filter(user=user).values_list("tag", "weight"))
    again = api.post(f"/api/v1/sessions/{session_id}/end/")
    sessions.session_finalize(session_id=int(session_id))

    assert again.status_code == 202 and again.json()["status"] == "ended"
    assert dict(TagWeight.objects.filter(user=user).values_list("tag", "weight")) == weights


def test_an_ended_session_takes_no_new_messages(api):
    session_id = api.post("/api/v1/sessions/").json()["id"]
    _say(api, session_id, "hello there")
    api.post(f"/api/v1/sessions/{session_id}/end/")

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "more"}, format="json"
    )

    assert response.status_code == 409


def test_another_users_session_cannot_be_ended(api, other_api):
    session_id = api.post("/api/v1/sessions/").json()["id"]

    assert other_api.post(f"/api/v1/sessions/{session_id}/end/").status_code == 404
    assert ChatSession.objects.get(pk=session_id).status == "active"
