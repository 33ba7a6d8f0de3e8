"""Why the write policy decided as it did for a version: a code with parameters, worded on
render (in admin, in the reader's language) and as the API's English sentence."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from memories.logic.write_policy import WRITE_POLICY, CandidateKind
from memories.reasons import PolicyReason, policy_reason_sentence, policy_reason_text
from tests.memories.conftest import version_of

migration = importlib.import_module("memories.migrations.0013_policy_reason_codes")

VOLATILE = WRITE_POLICY[CandidateKind.VOLATILE_FACT].reason
BEFORE = [("memories", "0012_labels_and_names")]
AFTER = [("memories", "0013_policy_reason_codes")]


def _hangul(text: str) -> bool:
    return any("\uac00" <= char <= "\ud7a3" for char in text)


def test_every_kind_of_the_write_policy_has_its_code():
    assert {kind.value for kind in CandidateKind} == set(PolicyReason.values) - {"other"}


@pytest.mark.parametrize("code", PolicyReason.values)
def test_every_policy_code_renders_in_both_languages_and_as_the_policys_sentence(code):
    params = {"text": "kept by an older rule"} if code == PolicyReason.OTHER else {}

    with translation.override("ko"):
        korean = policy_reason_text(code, params)
        sentence = policy_reason_sentence(code, params)

    assert sentence and sentence.isascii()
    if code == PolicyReason.OTHER:
        assert korean == sentence == "kept by an older rule"
    else:
        assert _hangul(korean), korean
        assert sentence == WRITE_POLICY[CandidateKind(code)].reason


def test_a_volatile_facts_hours_are_in_its_reason_in_both_languages_and_the_api():
    with translation.override("en"):
        assert policy_reason_text("volatile_fact", {"hours": 1}).endswith("in 1 hour")
        assert policy_reason_text("volatile_fact", {"hours": 6}).endswith("in 6 hours")
    with translation.override("ko"):
        assert "6시간" in policy_reason_text("volatile_fact", {"hours": 6})
    volatile = WRITE_POLICY[CandidateKind.VOLATILE_FACT].reason
    assert policy_reason_sentence("volatile_fact", {"hours": 6}) == f"{volatile} (6 h)"


def test_no_code_is_no_reason_and_an_unknown_one_is_shown_as_it_is():
    assert policy_reason_text("", {}) == policy_reason_sentence("", {}) == ""
    assert (
        policy_reason_text("not_a_kind", {})
        == policy_reason_sentence("not_a_kind", {})
        == ("not_a_kind")
    )


@pytest.mark.django_db
def test_a_stored_version_keeps_the_code_and_the_api_shows_the_sentence_beside_it(
    api, remember, settings
):
    settings.MEMORYHUB_VOLATILE_EXPIRY_HOURS = 12
    memory = remember("The price of tomatoes is 3000 won this week", "fact")
    version = version_of(memory)

    body = api.get(f"/api/v1/memories/{memory.pk}/").json()
    versions = api.get(f"/api/v1/memories/{memory.pk}/versions/").json()["results"]

    assert (version.policy_reason, version.policy_params) == ("volatile_fact", {"hours": 12})
    volatile = WRITE_POLICY[CandidateKind.VOLATILE_FACT].reason
    expected = {
        "decision": "expire_soon",
        "reason": f"{volatile} (12 h)",
        "code": "volatile_fact",
        "params": {"hours": 12},
    }
    assert body["policy"] == versions[0]["policy"] == expected


@pytest.mark.django_db
def test_admin_shows_a_versions_policy_reason_in_the_readers_language(
    client, django_user_model, remember
):
    memory = remember("I prefer aisle seats", "preference")
    staff = django_user_model.objects.create_superuser("admin-kim", password="pw-123-abc")
    client.force_login(staff)

    page = client.get(
        f"/admin/memories/memory/{memory.pk}/change/", HTTP_ACCEPT_LANGUAGE="ko"
    ).content.decode()

    with translation.override("ko"):
        assert str(PolicyReason.STATED_PREFERENCE.label) in page
    assert "stated_preference" not in page


@pytest.mark.parametrize(
    ("sentence", "code", "params"),
    [
        *((rule.reason, kind.value, {}) for kind, rule in WRITE_POLICY.items()),
        (
            f"{WRITE_POLICY[CandidateKind.VOLATILE_FACT].reason} (24 h)",
            "volatile_fact",
            {"hours": 24},
        ),
        ("", "", {}),
    ],
)
def test_every_policy_sentence_maps_to_its_code_and_back(sentence, code, params):
    assert migration.policy_code_of(sentence) == (code, params)
    assert migration.policy_sentence_of(code, params) == sentence


def test_a_policy_sentence_no_code_fits_is_kept_as_a_parameter():
    assert migration.policy_code_of("stored by an older rule") == (
        "other",
        {"text": "stored by an older rule"},
    )
    assert migration.policy_sentence_of("other", {"text": "stored by an older rule"}) == (
        "stored by an older rule"
    )


def _migrate(target: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_rewrites_stored_policy_reasons_and_reverses(user):
    leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("memories")
    sentences = [
        "volatile fact (price, stock, weather, policy): short expiry (48 h)",
        "assistant inference: pending until the user approves it",
        "kept because an old rule said so",
    ]
    try:
        apps = _migrate(BEFORE)
        Memory = apps.get_model("memories", "Memory")
        MemoryVersion = apps.get_model("memories", "MemoryVersion")
        memory = Memory.objects.create(user_id=user.pk, type="fact")
        ids = [
            MemoryVersion.objects.create(
                memory_id=memory.pk,
                user_id=user.pk,
                version=number,
                type="fact",
                content="Tomatoes cost 3000 won",
                fingerprint="f",
                policy_decision="store",
                policy_reason=sentence,
                change_reason="created",
            ).pk
            for number, sentence in enumerate(sentences, start=1)
        ]

        apps = _migrate(AFTER)
        MemoryVersion = apps.get_model("memories", "MemoryVersion")
        coded = [
            MemoryVersion.objects.values_list("policy_reason", "policy_params").get(pk=pk)
            for pk in ids
        ]
        assert coded == [
            ("volatile_fact", {"hours": 48}),
            ("assistant_inference", {}),
            ("other", {"text": "kept because an old rule said so"}),
        ]

        apps = _migrate(BEFORE)
        MemoryVersion = apps.get_model("memories", "MemoryVersion")
        restored = [
            MemoryVersion.objects.values_list("policy_reason", flat=True).get(pk=pk) for pk in ids
        ]
        assert restored == sentences
    finally:
        _migrate(leaf)
