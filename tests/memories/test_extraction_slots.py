"""A memory replaces another only when both answer the same question (issue 14 line 3)."""

from __future__ import annotations

import importlib
import json
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.db.models import QuerySet
from django.utils import timezone

from memories.logic import rules
from memories.logic.extraction_schema import ExtractedItem
from memories.logic.slots import question_of
from memories.models import Memory, MemoryVersion
from memories.services import extraction
from tests.anthropic_fake import completed
from tests.memories.conftest import version_of

pytestmark = pytest.mark.django_db

EARLIER = timezone.now() - timedelta(weeks=2)
LATER = timezone.now() - timedelta(days=1)


def _live(user: Any) -> QuerySet[Memory]:
    return Memory.objects.filter(user=user, status__in=["active", "pending"])


def _live_contents(user: Any) -> set[str]:
    return {
        version_of(m).content.rstrip(".") for m in _live(user).select_related("current_version")
    }


def _stored_form(text: str) -> str:
    """What offline extraction keeps of `text`: its clean phrase."""
    (item,) = rules.extract_statements(text)
    return item.content.rstrip(".")


def _both_orders(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [*pairs, *((b, a) for a, b in pairs)]


SAME_QUESTION = _both_orders(
    [
        ("나 서울 강남에 살아", "나 부산으로 이사했어"),
        ("I live in Boston", "나 대전으로 이사했어"),
        ("나는 간호사야", "I work as a data engineer"),
        ("앞으로는 존댓말로 대답해줘", "앞으로는 반말로 대답해줘"),
        ("I prefer morning meetings", "I prefer evening meetings"),
        ("From now on, answer in English", "앞으로는 한국어로 대답해줘"),
        ("나는 커피를 좋아해", "I hate coffee"),
    ]
)

DIFFERENT_QUESTIONS = _both_orders(
    [
        ("앞으로는 존댓말로 대답해줘", "I like answers with bullet points"),
        ("I prefer short meetings", "I prefer morning meetings"),
        ("I like coffee", "I like tea"),
        ("앞으로 답변은 짧게 해줘", "From now on, answer in English"),
    ]
)


@pytest.mark.parametrize(("first", "second"), SAME_QUESTION)
def test_a_later_answer_to_the_same_question_replaces_the_earlier_one(user, say, first, second):
    say(first, at=EARLIER)

    result = say(second, at=LATER)

    assert result.outcome == {"corrected": 1}
    memory = _live(user).get()
    assert memory.slot == question_of(first) == question_of(second) != ""
    assert version_of(memory).version == 2
    assert version_of(memory).content.rstrip(".") == _stored_form(second)


@pytest.mark.parametrize(("first", "second"), DIFFERENT_QUESTIONS)
def test_two_preferences_that_can_both_be_true_both_stay_active(user, say, first, second):
    say(first, at=EARLIER)

    result = say(second, at=LATER)

    assert result.outcome == {"created": 1}
    assert _live(user).filter(status="active").count() == 2
    assert _live_contents(user) == {_stored_form(first), _stored_form(second)}
    assert all(version_of(m).version == 1 for m in _live(user).select_related("current_version"))


def _store(user: Any, content: str, *, at: Any, slot: str = "", type: str = "fact") -> str:
    stored = extraction.memory_store_candidate(
        user_id=user.pk,
        item=ExtractedItem(type=type, content=content, slot=slot, stated_by_user=True),
        observed_at=at,
    )
    return stored.outcome


@pytest.mark.parametrize(
    ("first", "second"),
    _both_orders(
        [
            ("서울 강남에 삶", "Lives in Busan"),
            ("존댓말로 답변 선호", "Prefers casual speech"),
            ("Prefers morning meetings", "저녁 회의 선호"),
            ("Works as a nurse", "개발자로 일함"),
        ]
    ),
)
def test_clean_facts_in_either_language_replace_each_other_by_question(user, first, second):
    _store(user, first, at=EARLIER)

    assert _store(user, second, at=LATER) == "corrected"
    assert version_of(_live(user).get()).content == second


@pytest.mark.parametrize(
    ("first", "second"),
    _both_orders(
        [
            ("존댓말로 답변 선호", "Prefers bullet-point answers"),
            ("짧은 회의 선호", "Prefers morning meetings"),
            ("Lives in Busan", "Works at Naver"),
        ]
    ),
)
def test_clean_facts_answering_different_questions_stay_side_by_side(user, first, second):
    _store(user, first, at=EARLIER)

    assert _store(user, second, at=LATER) == "created"
    assert _live(user).count() == 2


def _answer(*items: dict[str, Any]) -> Any:
    return completed(json.dumps(list(items), ensure_ascii=False))


def _item(content: str, updates: str | None, type: str = "preference") -> dict[str, Any]:
    return {
        "type": type,
        "content": content,
        "importance": 0.6,
        "tags": [],
        "stated_by_user": True,
        "confidence": 0.9,
        "updates": updates,
    }


def test_a_models_slot_for_a_subject_meets_the_offline_one(user, anthropic, say):
    say("나는 커피를 좋아해", at=EARLIER)
    anthropic([_answer(_item("The user no longer likes coffee", "likes:커피"))])

    result = say("I've gone off coffee", at=LATER)

    assert result.outcome == {"corrected": 1}
    assert _live(user).get().slot == "likes:coffee"


def test_without_a_usable_slot_from_the_model_the_content_decides(user, anthropic, say):
    say("I prefer morning meetings", at=EARLIER)
    anthropic(
        [
            _answer(
                _item("The user prefers evening meetings", None),
                _item("The user wants answers in bullet points", "answer_style"),
            )
        ]
    )

    result = say("Evening meetings suit me better; and bullets please", at=LATER)

    assert result.outcome == {"corrected": 1, "created": 1}
    slots = set(_live(user).values_list("slot", flat=True))
    assert slots == {"prefers:meeting:time", "answer_format"}


def test_a_valid_slot_the_model_names_is_kept(user, anthropic, say):
    anthropic([_answer(_item("사용자는 인천 송도에서 지낸다", "residence", type="fact"))])

    result = say("요즘 송도에서 지내")

    assert Memory.objects.get(pk=result.memory_ids[0]).slot == "residence"


def test_the_prompt_lists_every_kind_of_slot(user, anthropic, say):
    fake = anthropic([_answer()])

    say("hello")

    prompt = fake.requests[0]["messages"][0]["content"]
    for name in ("answer_formality", "answer_format", "answer_length", "answer_language"):
        assert f'"{name}"' in prompt
    for form in ("likes:<subject>", "favourite:<category>", "allergy:<subject>"):
        assert form in prompt
    assert "prefers:<thing>:<time|size|place" in prompt
    assert "answer_style" not in prompt


def test_a_typed_in_memory_gets_the_slot_of_its_question(user, remember):
    memory = remember("Prefers concise answers", "preference")

    assert memory.slot == "answer_length"


# --- stored memories with the old coarse slots -----------------------------------------------


def _with_old_slot(memory: Memory, slot: str) -> None:
    Memory.objects.filter(pk=memory.pk).update(slot=slot)
    MemoryVersion.objects.filter(memory=memory).update(slot=slot)


def _migrate() -> None:
    migration = importlib.import_module("memories.migrations.0008_question_slots")
    migration.recompute_slots(apps, None)


def test_the_migration_gives_old_coarse_slots_the_question_their_content_answers(user, remember):
    formal = remember("앞으로는 존댓말로 대답해줘", "procedure")
    bullets = remember("I like answers with bullet points", "preference")
    coffee = remember("나는 커피를 좋아해", "preference")
    meetings = remember("I prefer short meetings", "preference")
    _with_old_slot(formal, "answer_style")
    _with_old_slot(bullets, "answer_style")
    _with_old_slot(coffee, "likes:커피")
    _with_old_slot(meetings, "prefers:meetings")
    before = {v.pk: v.content for v in MemoryVersion.objects.all()}

    _migrate()

    slots = dict(Memory.objects.values_list("pk", "slot"))
    assert slots[formal.pk] == "answer_formality"
    assert slots[bullets.pk] == "answer_format"
    assert slots[coffee.pk] == "likes:coffee"
    assert slots[meetings.pk] == "prefers:meeting:size"
    assert {v.pk: v.content for v in MemoryVersion.objects.all()} == before
    assert set(MemoryVersion.objects.values_list("slot", flat=True)) == set(slots.values())


def test_the_migration_keeps_a_valid_slot_and_clears_an_old_one_no_content_answers(user, remember):
    typed = remember("그 얘기는 나중에 하자", "procedure")
    residence = remember("지금은 잠실", "fact")
    _with_old_slot(typed, "answer_style")
    _with_old_slot(residence, "residence")

    _migrate()

    assert Memory.objects.get(pk=typed.pk).slot == ""
    assert Memory.objects.get(pk=residence.pk).slot == "residence"
    assert Memory.objects.filter(user=user).count() == 2


def test_after_the_migration_a_new_statement_replaces_only_its_own_question(user, say, remember):
    say("앞으로는 존댓말로 대답해줘", at=EARLIER)
    say("I like answers with bullet points", at=EARLIER + timedelta(hours=1))
    for memory in _live(user):
        _with_old_slot(memory, "answer_style")
    _migrate()

    result = say("앞으로는 반말로 대답해줘", at=LATER)

    assert result.outcome == {"corrected": 1}
    assert _live_contents(user) == {
        _stored_form("앞으로는 반말로 대답해줘"),
        _stored_form("I like answers with bullet points"),
    }


@pytest.mark.parametrize(
    ("compound", "part", "kept"),
    [
        ("Concise replies in numbered lists, please.", "Numbered lists please.", "Concise replies"),
        ("Brief answers and a casual tone, please.", "Use a formal tone please.", "Brief answers"),
        ("앞으로 간단하게, 표로 답해줘", "앞으로 목록으로 답해줘", "앞으로 간단하게 답해줘"),
        ("반말로 간단하게 말해줘", "존댓말로 말해줘", "간단하게 말해줘"),
    ],
)
def test_a_request_sharing_one_question_of_a_compound_keeps_its_other_part(
    user, say, compound, part, kept
):
    say(compound, at=EARLIER)

    say(part, at=LATER)

    assert kept in _live_contents(user)
    assert len(_live_contents(user)) == 2
    assert _live(user).filter(slot=question_of(part)).count() == 1


@pytest.mark.parametrize(
    ("part", "compound"),
    [
        ("Numbered lists please.", "Concise replies in numbered lists, please."),
        ("앞으로 표로 답해줘", "앞으로 간단하게, 표로 답해줘"),
    ],
)
def test_a_compound_after_one_of_its_parts_replaces_that_part_and_adds_the_other(
    user, say, part, compound
):
    say(part, at=EARLIER)

    say(compound, at=LATER)

    assert len(_live_contents(user)) == 2
    assert _live(user).filter(slot=question_of(part)).count() == 1
