"""Admin shows lineages with versions; staff reads are audited and visible to the user."""

from __future__ import annotations

import pytest

from memories.models import AuditEvent
from memories.services.feedback import memory_mark_wrong

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_superuser(
        username="root", password="a-long-password-9"
    )
    client.force_login(staff)
    return client, staff


def test_opening_a_users_memory_in_admin_is_recorded_and_shown_to_the_user(
    staff_client, api, remember, user
):
    client, staff = staff_client
    memory = remember("비밀 프로젝트 블루버드", "fact")

    response = client.get(f"/admin/memories/memory/{memory.pk}/change/")

    assert response.status_code == 200
    assert "블루버드" in response.content.decode()  # the versions inline
    event = AuditEvent.objects.get(action="staff_view")
    assert event.user_id == user.pk
    assert event.actor_id == staff.pk
    seen = api.get("/api/v1/audit-events/").json()["results"]
    assert seen[0]["action"] == "staff_view"
    assert seen[0]["actor"]["staff"] is True


def test_the_memory_list_in_admin_shows_no_content(staff_client, remember):
    client, _staff = staff_client
    remember("비밀 프로젝트 블루버드", "fact")

    response = client.get("/admin/memories/memory/")

    assert response.status_code == 200
    assert "블루버드" not in response.content.decode()


def test_a_staff_change_is_recorded(staff_client, remember, user):
    client, _staff = staff_client
    memory = remember("I like tea", "preference")
    memory_mark_wrong(user=user, memory=memory)  # a reason with parameters, replaced below

    response = client.post(
        f"/admin/memories/memory/{memory.pk}/change/",
        {
            "status": "quarantined",
            "status_reason": "staff_quarantine",
            "versions-TOTAL_FORMS": "1",
            "versions-INITIAL_FORMS": "1",
            "versions-MIN_NUM_FORMS": "0",
            "versions-MAX_NUM_FORMS": "1000",
            "versions-0-id": str(memory.current_version_id),
            "versions-0-memory": str(memory.pk),
        },
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    event = AuditEvent.objects.get(action="staff_change")
    assert event.detail == {"fields": ["status", "status_reason"]}
    memory.refresh_from_db()
    assert (memory.status_reason, memory.status_params) == ("staff_quarantine", {})


@pytest.mark.parametrize(
    "page",
    [
        "/admin/memories/memoryuse/",
        "/admin/memories/deletionreceipt/",
        "/admin/memories/auditevent/",
        "/admin/memories/extractionrun/?status__exact=failed",
    ],
)
def test_the_logs_are_browsable_in_admin(staff_client, page):
    client, _staff = staff_client

    assert client.get(page).status_code == 200


def test_a_staff_member_without_the_permission_is_refused_and_nothing_is_recorded(
    client, django_user_model, remember
):
    clerk = django_user_model.objects.create_user(
        username="clerk", password="a-long-password-7", is_staff=True
    )
    client.force_login(clerk)
    memory = remember("비밀 프로젝트 블루버드", "fact")

    response = client.get(f"/admin/memories/memory/{memory.pk}/change/")

    assert response.status_code == 403
    assert not AuditEvent.objects.filter(action="staff_view").exists()
