"""Validation of the model's extraction JSON (issue 5 line 4): pure."""

from __future__ import annotations

import json

import pytest

from memories.services.extraction_schema import InvalidExtraction, parse_extraction


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
