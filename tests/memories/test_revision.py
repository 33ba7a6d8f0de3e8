"""Revising a memory keeps its provenance: an edited version still comes from the message the
memory was made from, and says who edited it (issue 14 line 6)."""

from __future__ import annotations

import pytest

from memories.logic.extraction_schema import ExtractedItem
from memories.logic.write_policy import Origin
from memories.reasons import ChangeReason
from memories.selectors.history import memory_history, memory_provenance
from memories.services import extraction, revision
from tests.memories.conftest import current, version_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def from_chat(user):
    """A memory the user stated in chat message 41 of session 7."""

    def store(content: str, *, message_id: int = 41, session_id: int = 7):
        outcome = extraction.memory_store_candidate(
            user_id=user.pk,
            item=ExtractedItem(type="fact", content=content),
            source_message_id=message_id,
            source_session_id=session_id,
        )
        assert outcome.memory is not None
        return current(outcome.memory)

    return store


def _edit(memory, content: str, *, origin: Origin = Origin.USER):
    reason = (
        ChangeReason.EDITED_BY_USER if origin is Origin.USER else ChangeReason.EDITED_BY_ASSISTANT
    )
    revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(content=content),
        origin=origin,
        change_reason=reason,
    )
    return current(memory)


@pytest.mark.parametrize(
    ("said", "edited"),
    [
        ("서울 강남에 삶", "서울 서초구에 삶"),
        ("Lives in Gangnam, Seoul", "Lives in Seocho, Seoul"),
    ],
)
def test_a_users_edit_keeps_the_source_message_and_says_the_user_edited_it(from_chat, said, edited):
    memory = _edit(from_chat(said), edited)

    version = version_of(memory)
    assert version.content == edited
    assert (version.source_message_id, version.source_session_id) == (41, 7)
    assert version.created_by == "user"
    provenance = memory_provenance(history=memory_history(memory=memory))
    assert (provenance.source_message_id, provenance.source_session_id) == (41, 7)
    assert provenance.edited_by == "user"


def test_a_memory_as_it_was_said_reads_as_not_edited(from_chat):
    memory = from_chat("서울 강남에 삶")

    provenance = memory_provenance(history=memory_history(memory=memory))

    assert (provenance.source_message_id, provenance.edited_by) == (41, "")


def test_a_change_of_sensitivity_alone_is_no_edit_of_the_text(from_chat):
    memory = from_chat("서울 강남에 삶")
    revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(sensitivity="high"),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
    )

    provenance = memory_provenance(history=memory_history(memory=current(memory)))

    assert (provenance.source_message_id, provenance.edited_by) == (41, "")


def test_a_correction_stated_in_a_later_message_takes_that_message_as_its_source(from_chat):
    memory = _edit(from_chat("서울 강남에 삶"), "서울 서초구에 삶")

    revision.memory_revise(
        memory=memory,
        origin=Origin.USER,
        change_reason=ChangeReason.CORRECTED,
        changes=revision.MemoryChanges(content="부산 해운대에 삶"),
        source_message_id=58,
        source_session_id=9,
    )

    memory = current(memory)
    assert (version_of(memory).source_message_id, version_of(memory).source_session_id) == (58, 9)
    provenance = memory_provenance(history=memory_history(memory=memory))
    assert (provenance.source_message_id, provenance.edited_by) == (58, "")


def test_an_edit_that_lost_its_source_before_still_shows_where_the_memory_came_from(
    from_chat, user
):
    """Versions edited before edits kept their source have none of their own."""
    memory = from_chat("Lives in Gangnam, Seoul")
    memory = _edit(memory, "Lives in Seocho, Seoul")
    type(version_of(memory)).objects.filter(pk=version_of(memory).pk).update(
        source_message_id=None, source_session_id=None
    )

    provenance = memory_provenance(history=memory_history(memory=current(memory)))

    assert (provenance.source_message_id, provenance.edited_by) == (41, "user")


def test_a_memory_written_directly_and_edited_has_no_source_but_says_it_was_edited(remember):
    memory = _edit(remember("I prefer short meetings", "preference"), "I prefer 20-minute meetings")

    provenance = memory_provenance(history=memory_history(memory=memory))

    assert provenance.source_message_id is None
    assert provenance.edited_by == "user"


def test_revising_with_the_values_the_memory_already_has_adds_no_version(from_chat):
    memory = from_chat("서울 마포구에 삶")
    version = version_of(memory)

    revised = revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(
            content=version.content,
            type=version.type,
            sensitivity=version.sensitivity,
            importance=version.importance,
            allowed_readers=tuple(version.allowed_readers),
            expires_at=version.expires_at,
        ),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
    )

    assert revised.current_version_id == version.pk
    assert current(memory).versions.count() == 1


def test_revising_with_no_field_set_adds_no_version(from_chat):
    memory = from_chat("Lives in Mapo, Seoul")

    revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
    )

    assert current(memory).versions.count() == 1


def test_changing_one_field_among_restated_ones_adds_a_version(from_chat):
    memory = from_chat("Lives in Mapo, Seoul")
    version = version_of(memory)

    revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(content=version.content, importance=0.95),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
    )

    assert version_of(current(memory)).version == 2
    assert version_of(current(memory)).importance == 0.95
