"""The admin reads well (issue 19 line 7): a memory's change page in groups, model names with
real plurals in English and Korean, no particle slips in Django's Korean, and the dashboard
shows cost only where a paid model ran."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.contrib import admin
from django.urls import reverse

from memories.logic.extraction_schema import ExtractedItem
from memories.services import extraction
from memoryhub.models import LLMCall

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
# A particle written for both endings ("와/과", "을(를)") where Django could not know the noun.
SLIP = re.compile(
    r"와/과|과/와|을/를|를/을|이/가|가/이|은/는|는/은|\(으\)로|[을를이가은는와과]\([을를이가은는와과]\)"
)


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_superuser(username="root", password="a-long-pw-9x")
    client.force_login(staff)
    return client


def _memory(user):
    item = ExtractedItem(type="fact", content="I cycle to work on Tuesdays")
    return extraction.memory_store_candidate(user_id=user.pk, item=item).memory


def _text(response) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_memory_change_page_reads_content_versions_provenance_governance_technical(
    staff_client, user
):
    memory = _memory(user)

    page = staff_client.get(reverse("admin:memories_memory_change", args=[memory.pk]), **EN)

    content = page.content.decode()

    def heading(name: str) -> int:
        found = re.search(rf">\s*{name}\s*</h2>", content)
        assert found, name
        return found.start()

    order = [
        heading("Content"),
        content.index("I cycle to work on Tuesdays"),
        heading("Memory versions"),
        heading("Provenance"),
        heading("Governance"),
        heading("Technical"),
    ]
    assert order == sorted(order)
    assert len(re.findall(r">\s*Memory versions\s*</h2>", content)) == 1  # shown once


def test_model_names_have_real_plurals_in_english_and_read_in_korean(staff_client):
    english = _text(staff_client.get(reverse("admin:index"), **EN))
    korean = _text(staff_client.get(reverse("admin:index"), **KO))

    assert "Tag weight histories" in english and "historys" not in english
    assert "Deletion receipts" in english and "Memory versions" in english
    for name in ("태그 가중치 기록", "삭제 확인서", "기억 버전", "대화", "LLM 호출", "LLM 사용량"):
        assert name in korean, name
    assert "Tag weight" not in korean and "Deletion receipt" not in korean
    assert "Conversations" not in korean and "(들)" not in korean


def test_admin_pages_in_korean_have_no_particle_slips(staff_client, client, user):
    memory = _memory(user)
    urls = [
        reverse("admin:index"),
        reverse("admin:memories_memory_change", args=[memory.pk]),
        reverse("admin:auth_user_change", args=[user.pk]),
        reverse("admin:auth_user_delete", args=[user.pk]),
        reverse("admin:auth_user_password_change", args=[user.pk]),
        reverse("admin:memories_memory_change", args=[987654]),
    ]
    for model in admin.site._registry:
        urls.append(reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"))

    slips = {url: SLIP.findall(_text(staff_client.get(url, follow=True, **KO))) for url in urls}
    client.logout()
    failed_login = client.post(
        reverse("admin:login"), {"username": "nobody", "password": "wrong"}, **KO
    )

    assert {url: found for url, found in slips.items() if found} == {}
    assert not SLIP.findall(_text(failed_login))
    assert "사용자 이름 및 비밀번호" in _text(failed_login)


def test_the_dashboard_shows_no_cost_when_only_the_offline_provider_ran(staff_client, user):
    LLMCall.objects.create(
        user=user, task="reply", provider="offline", model="offline", input_tokens=40,
        output_tokens=60,
    )  # fmt: skip

    english = staff_client.get(reverse("admin:index"), **EN).content.decode()
    korean = staff_client.get(reverse("admin:index"), **KO).content.decode()

    assert "Local tokens (offline mode, no cost): <strong>100</strong>" in english
    assert "LLM cost" not in english and "paid models" not in english
    assert "로컬 토큰 (오프라인 모드, 비용 없음)" in korean


def test_the_dashboard_keeps_paid_and_local_tokens_apart(staff_client, user):
    LLMCall.objects.create(
        user=user, task="reply", provider="offline", model="offline", input_tokens=40,
        output_tokens=60,
    )  # fmt: skip
    LLMCall.objects.create(
        user=user, task="reply", provider="anthropic", model="claude", input_tokens=1000,
        output_tokens=200, cost_usd=Decimal("0.0100"),
    )  # fmt: skip

    content = staff_client.get(reverse("admin:index"), **EN).content.decode()

    assert "LLM tokens (paid models): <strong>1200</strong>" in content
    assert "LLM cost (USD): <strong>0.0100</strong>" in content
    assert "Local tokens (offline mode, no cost): <strong>100</strong>" in content
