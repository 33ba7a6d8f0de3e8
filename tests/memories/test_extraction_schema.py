"""Validation of the model's extraction JSON (issue 5 line 4): pure."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest

from memories.logic.extraction_schema import InvalidExtraction, parse_extraction


def _item(**overrides: object) -> dict[str, object]:
    item: dict[str, object] = {
        "type": "preference",
        "content": "The user prefers short answers",
        "importance": 0.7,
        "tags": ["style"],
        "stated_by_user": True,
        "confidence": 0.9,
        "updates": "answer_length",
    }
    item.update(overrides)
    return item


def test_a_valid_answer_is_parsed_into_items():
    items = parse_extraction(json.dumps([_item()]))

    assert items[0].type == "preference"
    assert items[0].slot == "answer_length"
    assert items[0].stated_by_user is True


def test_the_day_of_an_event_and_the_expiry_are_parsed_when_given():
    (item,) = parse_extraction(
        json.dumps(
            [_item(type="episode", happens_on="2026-12-11", expires_at="2026-12-15T00:00:00Z")]
        )
    )
    (undated,) = parse_extraction(json.dumps([_item()]))

    assert item.happens_on == date(2026, 12, 11)
    assert item.expires_at == datetime(2026, 12, 15, tzinfo=UTC)
    assert undated.happens_on is None and undated.expires_at is None


def test_an_expiry_without_an_offset_is_read_as_utc():
    (item,) = parse_extraction(json.dumps([_item(expires_at="2026-12-15T09:30:00")]))

    assert item.expires_at == datetime(2026, 12, 15, 9, 30, tzinfo=UTC)


def test_seed_002_type_names_are_accepted():
    items = parse_extraction(json.dumps([_item(type="semantic"), _item(type="episodic")]))

    assert [i.type for i in items] == ["fact", "episode"]


def test_a_fenced_answer_and_an_object_wrapper_are_accepted():
    assert parse_extraction("```json\n[]\n```") == []
    assert len(parse_extraction(json.dumps({"memories": [_item()]}))) == 1


@pytest.mark.parametrize(
    "answer",
    [
        "not json at all",
        '{"type": "fact"}',
        json.dumps([_item(type="opinion")]),
        json.dumps([_item(content="")]),
        json.dumps([_item(importance=3)]),
        json.dumps([_item(importance="high")]),
        json.dumps([_item(stated_by_user="yes")]),
        json.dumps([_item(tags="style")]),
        json.dumps([_item(), "second item is a string"]),
        json.dumps([_item()] * 11),
        json.dumps([_item(happens_on="next Friday")]),
        json.dumps([_item(happens_on="2026-02-30")]),
        json.dumps([_item(happens_on=20261211)]),
        json.dumps([_item(expires_at="soon")]),
        json.dumps([_item(expires_at=1765500000)]),
    ],
)
def test_anything_off_schema_is_rejected_as_a_whole(answer):
    with pytest.raises(InvalidExtraction):
        parse_extraction(answer)


@pytest.mark.parametrize("updates", ["favourite_colour", "answer_style", "prefers:meeting:mood"])
def test_a_slot_name_outside_the_known_questions_is_dropped_not_the_answer(updates):
    items = parse_extraction(json.dumps([_item(updates=updates)]))

    assert items[0].content == "The user prefers short answers"
    assert items[0].slot == ""


def test_a_slot_that_is_not_a_string_still_rejects_the_answer():
    with pytest.raises(InvalidExtraction):
        parse_extraction(json.dumps([_item(updates=["residence"])]))
