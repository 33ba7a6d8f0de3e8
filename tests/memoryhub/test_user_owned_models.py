"""UserOwnedModel: saving a stored row of one person's data updates it by owner and id."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from memories.models import Agent
from memoryhub.models import UserOwnedModel
from memoryhub.sharding import project_app_configs


def _agent(user: Any, name: str = "notes") -> Agent:
    return Agent.objects.create(user=user, name=name, token_hash=name * 8, token_prefix=name)


@pytest.mark.django_db
def test_saving_a_stored_row_updates_it_where_owner_and_id_match(user: Any) -> None:
    agent = _agent(user)
    agent.name = "diary"
    with CaptureQueriesContext(connection) as queries:
        agent.save(update_fields=["name"])
    [update] = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    assert '"memories_agent"."user_id" = ' in update
    assert '"memories_agent"."id" = ' in update
    agent.refresh_from_db()
    assert agent.name == "diary"


@pytest.mark.django_db
def test_a_full_save_of_a_stored_row_updates_it_and_inserts_nothing(user: Any) -> None:
    agent = _agent(user)
    agent.name = "diary"
    agent.save()
    assert list(Agent.objects.values_list("name", flat=True)) == ["diary"]


@pytest.mark.django_db
def test_a_stored_row_given_another_owner_is_not_moved_but_refused(
    user: Any, other_user: Any
) -> None:
    agent = _agent(user)
    agent.user = other_user
    with pytest.raises(IntegrityError), transaction.atomic():
        agent.save()
    assert Agent.objects.get(pk=agent.pk).user_id == user.pk


def test_every_model_of_user_data_is_user_owned() -> None:
    plain = [
        model.__name__
        for app in project_app_configs()
        for model in app.get_models()
        if not issubclass(model, UserOwnedModel)
    ]
    assert plain == []


@pytest.mark.django_db
def test_deleting_a_user_deletes_every_row_of_theirs_and_no_one_elses(
    user: Any, other_user: Any, api: Any, other_api: Any, django_user_model: Any
) -> None:
    """What the admin's delete of a user runs (`delete_model`): Django's cascade along each
    table's `user` key, which stays CASCADE (the admin page itself refuses it while the user
    has rows of read-only admins such as memory versions, as before)."""
    for person in (api, other_api):
        session = person.post("/api/v1/sessions/", format="json").json()["id"]
        person.post(
            f"/api/v1/sessions/{session}/messages/",
            {"content": "나는 주말마다 한강에서 자전거를 타."},
            format="json",
        )
        first = person.post(
            "/api/v1/memories/", {"type": "fact", "content": "I live in Suwon."}, format="json"
        ).json()
        person.post(
            "/api/v1/memories/", {"type": "fact", "content": "I live in Incheon."}, format="json"
        )
        person.patch(
            f"/api/v1/memories/{first['id']}/", {"content": "I live in Suwon now."}, format="json"
        )
        person.post("/api/v1/agents/", {"name": "notes", "scopes": ["read"]}, format="json")
    models = [m for app in project_app_configs() for m in app.get_models()]
    before = {m._meta.label: m.objects.filter(user_id=other_user.pk).count() for m in models}
    assert all(before[label] for label in ("memories.MemoryVersion", "conversations.Message"))

    django_user_model.objects.get(pk=user.pk).delete()

    assert not django_user_model.objects.filter(pk=user.pk).exists()
    left = {m._meta.label: m.objects.filter(user_id=user.pk).count() for m in models}
    assert {label: n for label, n in left.items() if n} == {}
    after = {m._meta.label: m.objects.filter(user_id=other_user.pk).count() for m in models}
    assert after == before
