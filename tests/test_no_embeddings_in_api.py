"""No API response carries an embedding: vectors are derived data and stay in the database."""

import re
from typing import Any

import pytest

from conversations.models import Message

pytestmark = pytest.mark.django_db

_VECTOR_KEY = re.compile(r"embed|vector(?!s_pending)", re.IGNORECASE)
LONG_FLOAT_RUN = 16


def _offences(value, path="$"):
    """Places in a JSON document holding a vector-like key or a long list of floats."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            # A count such as a deletion receipt's `"embeddings": 3` is no vector.
            if _VECTOR_KEY.search(str(key)) and not isinstance(item, int):
                found.append(f"{path}.{key}")
            found += _offences(item, f"{path}.{key}")
    elif isinstance(value, list):
        if sum(isinstance(item, float) for item in value) >= LONG_FLOAT_RUN:
            found.append(f"{path}[] ({len(value)} floats)")
        for index, item in enumerate(value):
            found += _offences(item, f"{path}[{index}]")
    return found


def test_the_detector_finds_a_vector_key_and_a_bare_float_list():
    assert _offences({"a": {"embedding": None}}) == ["$.a.embedding"]
    assert _offences({"v": [0.1] * 384}) == ["$.v[] (384 floats)"]
    assert _offences({"a": {"vector": "[0.1,0.2]"}}) == ["$.a.vector"]
    assert _offences({"vectors_pending": 0, "scores": [0.5, 0.25]}) == []
    assert _offences({"removed": {"embeddings": 3}}) == []


@pytest.fixture
def data(api, user):
    session_id = api.post("/api/v1/sessions/").json()["id"]
    replies = [
        api.post(f"/api/v1/sessions/{session_id}/messages/", {"content": text}, format="json")
        for text in (
            "나는 부산에 살아. Remember that I prefer Postgres over MySQL.",
            "Our migration to Next.js starts on Monday; I decided to keep the REST API.",
        )
    ]
    assert all(r.status_code == 201 for r in replies)
    memory = api.post(
        "/api/v1/memories/", {"type": "fact", "content": "Uses pgvector."}, format="json"
    ).json()
    import_body = {
        "sessions": [
            {
                "started_at": "2026-01-02T10:00:00+00:00",
                "messages": [
                    {
                        "role": "user",
                        "content": "I like jazz.",
                        "created_at": "2026-01-02T10:00:00Z",
                    }
                ],
            }
        ]
    }
    history_import = api.post("/api/v1/imports/", import_body, format="json").json()
    # The vectors exist in the database; the API must still not show them.
    assert Message.objects.filter(session_id=session_id, embedding__isnull=False).exists()
    return {
        "session_id": session_id,
        "memory_id": memory["id"],
        "import_id": history_import["id"],
        "replies": [r.json() for r in replies],
    }


def test_no_api_response_contains_an_embedding(api, data):
    s, m, i = data["session_id"], data["memory_id"], data["import_id"]
    responses = {
        "message replies": data["replies"],
        f"GET /sessions/{s}/": api.get(f"/api/v1/sessions/{s}/"),
        "GET /memories/": api.get("/api/v1/memories/"),
        f"GET /memories/{m}/": api.get(f"/api/v1/memories/{m}/"),
        f"GET /memories/{m}/versions/": api.get(f"/api/v1/memories/{m}/versions/"),
        f"GET /imports/{i}/": api.get(f"/api/v1/imports/{i}/"),
        "GET /tags/": api.get("/api/v1/tags/"),
        "GET /receipts/": api.get("/api/v1/receipts/"),
        "GET /audit-events/": api.get("/api/v1/audit-events/"),
        "GET /export/": api.get("/api/v1/export/"),
        "POST /search/": api.post(
            "/api/v1/search/", {"query": "Postgres 부산 Next.js"}, format="json"
        ),
        "POST /context/": api.post(
            "/api/v1/context/", {"message": "What database do I prefer?"}, format="json"
        ),
    }
    bodies: dict[str, Any] = {}
    for name, response in responses.items():
        if isinstance(response, list):
            bodies[name] = response
            continue
        assert response.status_code == 200, (name, response.content[:300])
        bodies[name] = response.json()

    assert bodies["POST /search/"]["results"], "search found nothing; the walk would be empty"
    assert bodies["GET /export/"]["sessions"][0]["messages"]
    offences = {name: _offences(body) for name, body in bodies.items()}
    assert {name: places for name, places in offences.items() if places} == {}
    deleted = api.delete(f"/api/v1/memories/{m}/")
    assert deleted.status_code == 200
    assert _offences(deleted.json()) == []
