"""The agents REST endpoints (issue 17 line 3): create with the token once, list, change,
revoke; the user's key or session only, never an agent's token."""

from __future__ import annotations

import hashlib

import pytest
from rest_framework.test import APIClient

from memories.models import Agent, AuditEvent
from memories.selectors.agents import agent_authenticate
from memories.services.agents import agent_call_record

pytestmark = pytest.mark.django_db


def _create(api, name="Claude Desktop", scopes=("read",)):
    response = api.post("/api/v1/agents/", {"name": name, "scopes": list(scopes)}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_create_returns_the_published_shape_with_the_token_once(api, user):
    body = _create(api, scopes=["read", "write"])

    assert set(body) == {"id", "name", "scopes", "token", "created_at"}
    assert body["scopes"] == ["read", "write"]
    stored = Agent.objects.get(pk=body["id"])
    assert stored.user == user
    assert stored.token_hash == hashlib.sha256(body["token"].encode()).hexdigest()
    listed = api.get("/api/v1/agents/").json()["results"]
    assert [a["id"] for a in listed] == [body["id"]]
    assert body["token"] not in api.get("/api/v1/agents/").content.decode()
    assert "token" not in listed[0] and listed[0]["token_prefix"]


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"name": "x"},
        {"name": "", "scopes": ["read"]},
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["write"]},
        {"name": "x", "scopes": ["admin"]},
        {"name": "x", "scopes": "read"},
        {"name": "x" * 101, "scopes": ["read"]},
        {"name": "nul\u0000", "scopes": ["read"]},
    ],
)
def test_bad_create_input_is_400_and_creates_nothing(api, payload):
    response = api.post("/api/v1/agents/", payload, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert not Agent.objects.exists()


def test_delete_revokes_at_once(api):
    body = _create(api)

    response = api.delete(f"/api/v1/agents/{body['id']}/")

    assert response.status_code == 200
    assert response.json()["revoked"] is True
    assert agent_authenticate(token=body["token"]) is None
    assert api.delete(f"/api/v1/agents/{body['id']}/").status_code == 200  # idempotent


def test_patch_pauses_trusts_and_allows_sensitive_reads(api):
    body = _create(api, scopes=["read", "write"])
    url = f"/api/v1/agents/{body['id']}/"

    changed = api.patch(url, {"paused": True, "trusted": True}, format="json").json()
    assert (changed["paused"], changed["trusted"], changed["may_read_sensitive"]) == (
        True, True, False,
    )  # fmt: skip
    changed = api.patch(url, {"paused": False, "may_read_sensitive": True}, format="json").json()
    assert (changed["paused"], changed["trusted"], changed["may_read_sensitive"]) == (
        False, True, True,
    )  # fmt: skip


@pytest.mark.parametrize("payload", [{}, {"paused": "maybe"}, {"trusted": None}])
def test_a_bad_patch_is_400(api, payload):
    body = _create(api)

    response = api.patch(f"/api/v1/agents/{body['id']}/", payload, format="json")

    assert response.status_code == 400


def test_a_revoked_agent_cannot_be_resumed(api):
    body = _create(api)
    api.delete(f"/api/v1/agents/{body['id']}/")

    response = api.patch(f"/api/v1/agents/{body['id']}/", {"paused": False}, format="json")

    assert response.status_code == 409


def test_another_users_agent_is_404(api, other_api):
    theirs = _create(other_api)

    for method in ("get", "delete"):
        assert getattr(api, method)(f"/api/v1/agents/{theirs['id']}/").status_code == 404
    assert (
        api.patch(f"/api/v1/agents/{theirs['id']}/", {"paused": True}, format="json").status_code
        == 404
    )
    assert api.get("/api/v1/agents/").json()["results"] == []
    assert agent_authenticate(token=theirs["token"]) is not None
    assert api.get("/api/v1/agents/nope/").status_code == 404


def test_an_agent_token_cannot_use_the_agents_endpoints(api):
    body = _create(api, scopes=["read", "write"])
    agent_client = APIClient()

    for header in (f"Bearer {body['token']}", f"Token {body['token']}"):
        agent_client.credentials(HTTP_AUTHORIZATION=header)
        assert agent_client.get("/api/v1/agents/").status_code == 401
        created = agent_client.post(
            "/api/v1/agents/", {"name": "x", "scopes": ["read"]}, format="json"
        )
        assert created.status_code == 401
        assert agent_client.delete(f"/api/v1/agents/{body['id']}/").status_code == 401
    assert Agent.objects.count() == 1


def test_the_session_may_manage_agents(client, user):
    client.force_login(user)

    response = client.get("/api/v1/agents/")

    assert response.status_code == 200


def test_the_audit_events_name_the_agent_of_each_call(api, user):
    body = _create(api)
    agent = Agent.objects.get(pk=body["id"])
    agent_call_record(agent=agent, tool="search_memory", memory_ids=[3, 5])

    events = api.get("/api/v1/audit-events/").json()["results"]

    call = next(e for e in events if e["action"] == AuditEvent.Action.AGENT_CALL)
    assert call["agent"] == {"id": body["id"], "name": "Claude Desktop"}
    assert call["detail"] == {
        "agent_id": agent.pk,
        "tool": "search_memory",
        "outcome": "done",
        "ids": [3, 5],
    }


def test_the_export_lists_agents_without_their_token(api):
    body = _create(api, name="export me")
    stored = Agent.objects.get(pk=body["id"])

    exported = api.get("/api/v1/export/")

    assert exported.status_code == 200
    text = exported.content.decode()
    assert [a["name"] for a in exported.json()["agents"]] == ["export me"]
    assert body["token"] not in text and stored.token_hash not in text
