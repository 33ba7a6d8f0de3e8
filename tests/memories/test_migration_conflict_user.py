"""memories/0010: the conflict links get their owner's user_id, and the step reverses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("memories", "0009_agents")]
AFTER = [("memories", "0010_memory_conflict_user")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _columns() -> set[str]:
    with connection.cursor() as cursor:
        return {
            column.name
            for column in connection.introspection.get_table_description(
                cursor, "memories_memory_conflicts"
            )
        }


@pytest.fixture
def at_0009(transactional_db: None) -> Iterator[Any]:
    yield _migrate(BEFORE)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_each_link_gets_the_user_of_the_memory_it_starts_from_and_the_column_goes_back(
    at_0009: Any,
) -> None:
    User = at_0009.get_model("auth", "User")
    Memory = at_0009.get_model("memories", "Memory")
    pairs = {}
    for name in ("hana", "jun"):
        owner = User.objects.create(username=name)
        first = Memory.objects.create(user_id=owner.pk, type="fact", slot="home")
        second = Memory.objects.create(user_id=owner.pk, type="fact", slot="home")
        # Both directions, as the app stores them (the historical model is not symmetrical).
        first.conflicts.add(second)
        second.conflicts.add(first)
        pairs[owner.pk] = {first.pk, second.pk}
    assert "user_id" not in _columns()

    after = _migrate(AFTER)
    links = after.get_model("memories", "MemoryConflict").objects.values_list(
        "from_memory_id", "user_id"
    )
    owners: dict[int, set[int]] = {}
    for memory_id, user_id in links:
        owners.setdefault(user_id, set()).add(memory_id)
    assert owners == pairs

    _migrate(BEFORE)
    assert "user_id" not in _columns()
    assert at_0009.get_model("memories", "Memory").conflicts.through.objects.count() == 4
