"""Staff side: the dashboard on the admin index, quarantine and purge actions, the auditor group."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from memories.logic.extraction_schema import ExtractedItem
from memories.models import AuditEvent, DeletionReceipt, ExtractionRun, Memory, MemoryStatus
from memories.services import extraction
from memoryhub.charts import bar_chart
from memoryhub.models import LLMCall
from tests.memories.conftest import current

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="root", password="a-long-password-9")


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def _pending(user, content="The user may like hiking"):
    outcome = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type="preference", content=content, stated_by_user=False),
    )
    return outcome.memory


def _links(html: str) -> list[str]:
    return [unescape(href) for href in re.findall(r'href="([^"]+)"', html)]


def test_the_memory_auditor_group_may_only_view():
    group = Group.objects.get(name="memory auditor")

    codenames = set(group.permissions.values_list("codename", flat=True))

    assert {"view_memory", "view_memoryversion", "view_memoryuse", "view_deletionreceipt",
            "view_auditevent", "view_extractionrun", "view_llmcall"} <= codenames  # fmt: skip
    assert all(code.startswith("view_") for code in codenames)


def test_an_auditor_sees_a_memory_read_only_and_the_owner_sees_that_they_did(
    client, django_user_model, user, remember
):
    auditor = django_user_model.objects.create_user(
        username="auditor", password="a-long-password-8", is_staff=True
    )
    auditor.groups.add(Group.objects.get(name="memory auditor"))
    client.force_login(auditor)
    memory = remember("I prefer green tea", "preference")

    page = client.get(f"/admin/memories/memory/{memory.pk}/change/")
    change = client.post(f"/admin/memories/memory/{memory.pk}/change/", {"status": "rejected"})

    assert page.status_code == 200 and "green tea" in page.content.decode()
    assert change.status_code == 403
    assert current(memory).status == MemoryStatus.ACTIVE
    event = AuditEvent.objects.get(action="staff_view")
    assert (event.user_id, event.actor_id) == (user.pk, auditor.pk)


def test_opening_a_version_in_admin_is_recorded_for_its_owner(staff_client, staff, user, remember):
    memory = remember("I prefer green tea", "preference")

    response = staff_client.get(
        f"/admin/memories/memoryversion/{current(memory).current_version_id}/change/"
    )

    assert response.status_code == 200
    event = AuditEvent.objects.get(action="staff_view")
    assert (event.user_id, event.actor_id, event.target_id) == (user.pk, staff.pk, str(memory.pk))


def test_the_version_list_in_admin_shows_no_content(staff_client, remember):
    remember("비밀 프로젝트 블루버드", "fact")

    response = staff_client.get("/admin/memories/memoryversion/")

    assert response.status_code == 200
    assert "블루버드" not in response.content.decode()


def test_quarantine_action_stops_the_memory_and_names_the_staff_member(
    staff_client, staff, user, remember
):
    memory = remember("I prefer green tea", "preference")

    response = staff_client.post(
        "/admin/memories/memory/",
        {"action": "quarantine_selected", "_selected_action": [str(memory.pk)]},
    )

    assert response.status_code == 302
    assert current(memory).status == MemoryStatus.QUARANTINED
    event = AuditEvent.objects.get(action="quarantine")
    assert (event.user_id, event.actor_id) == (user.pk, staff.pk)


def test_purge_action_asks_for_confirmation_first(staff_client, remember):
    memory = remember("I prefer green tea", "preference")

    response = staff_client.post(
        "/admin/memories/memory/",
        {"action": "purge_selected", "_selected_action": [str(memory.pk)]},
    )

    assert response.status_code == 200
    assert "deletes 1 memory for good" in response.content.decode()
    assert Memory.objects.filter(pk=memory.pk).exists()


def test_purge_action_deletes_for_good_with_a_receipt_for_the_owner(
    staff_client, staff, user, remember
):
    memory = remember("I prefer green tea", "preference")

    response = staff_client.post(
        "/admin/memories/memory/",
        {"action": "purge_selected", "_selected_action": [str(memory.pk)], "post": "yes"},
    )

    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()
    receipt = DeletionReceipt.objects.get(user=user)
    assert receipt.removed["versions"] == 1
    event = AuditEvent.objects.get(action="purge")
    assert (event.actor_id, event.detail["receipt"]) == (staff.pk, str(receipt.id))


def test_deleting_a_memory_in_admin_is_a_purge_with_a_receipt(staff_client, user, remember):
    memory = remember("I prefer green tea", "preference")

    response = staff_client.post(f"/admin/memories/memory/{memory.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert DeletionReceipt.objects.filter(user=user, memory_id=str(memory.pk)).exists()


def test_the_bare_delete_action_is_not_offered(staff_client, remember):
    remember("I prefer green tea", "preference")

    content = staff_client.get("/admin/memories/memory/").content.decode()

    assert 'value="delete_selected"' not in content
    assert 'value="purge_selected"' in content and 'value="quarantine_selected"' in content


def test_admin_index_shows_the_memory_dashboard(staff_client, user, remember):
    remember("I prefer green tea", "preference")
    _pending(user)
    ExtractionRun.objects.create(user=user, provider="anthropic", status="failed", error="x")
    LLMCall.objects.create(
        user=user, task="reply", provider="anthropic", model="claude",
        input_tokens=1200, output_tokens=300, cost_usd=Decimal("0.0123"),
    )  # fmt: skip

    content = staff_client.get("/admin/").content.decode()

    assert "Memory dashboard" in content
    assert "1 memory waits for approval" in content
    assert "/admin/memories/memory/?status__exact=pending" in content
    assert "/admin/memories/memory/?type__exact=preference" in content
    assert "Extraction failures: <strong>1</strong>" in content
    assert "LLM tokens (paid models): <strong>1500</strong>" in content
    assert "LLM cost (USD): <strong>0.0123</strong>" in content
    assert content.count("<rect ") == 5 * 30
    assert "green tea" not in content  # counts only, no content


def test_every_dashboard_link_opens_its_filtered_admin_list(staff_client, user):
    ExtractionRun.objects.create(user=user, provider="anthropic", status="failed", error="x")
    content = staff_client.get("/admin/").content.decode()
    start = content.index('class="memory-dashboard"')
    dashboard = content[start : content.index("</section>", start)]
    links = sorted({href for href in _links(dashboard) if href.startswith("/admin/")})

    assert len(links) > 20
    for href in links:
        response = staff_client.get(href)
        assert response.status_code == 200, href
        assert "?e=1" not in response.get("Location", ""), href
    today = timezone.localdate().isoformat()
    failures_today = next(
        h for h in links if "status__exact=failed" in h and f"created_at__gte={today}" in h
    )
    assert "1 extraction run" in staff_client.get(failures_today).content.decode()


def test_staff_without_memory_permissions_do_not_see_the_dashboard(client, django_user_model):
    helper = django_user_model.objects.create_user(
        username="helper", password="a-long-password-7", is_staff=True
    )
    helper.user_permissions.add(Permission.objects.get(codename="view_group"))
    client.force_login(helper)

    content = client.get("/admin/").content.decode()

    assert "Memory dashboard" not in content


def test_bar_chart_scales_the_largest_value_to_the_full_height():
    chart = bar_chart([0, 5, 10], width=30, height=10, gap=0)

    assert [bar.height for bar in chart.bars] == [1.0, 5.0, 10.0]
    assert [bar.x for bar in chart.bars] == [0.0, 10.0, 20.0]
    assert [bar.y for bar in chart.bars] == [9.0, 5.0, 0.0]
    assert chart.top == 10


def test_bar_chart_of_zeros_is_hairlines():
    chart = bar_chart([0, 0], width=20, height=10)

    assert {bar.height for bar in chart.bars} == {1.0}
    assert chart.top == 0
