"""`manage.py citus_plan`: the Citus statements from the models and the live schema."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from memoryhub.sharding import Constraint, citus_plan, plan_sql


def _plan_output(*args: str) -> str:
    out = StringIO()
    call_command("citus_plan", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_users_are_reference_data_and_memories_are_distributed_by_user_co_located() -> None:
    lines = _plan_output().splitlines()

    assert "SELECT create_reference_table('auth_user');" in lines
    assert "SELECT create_reference_table('authtoken_token');" in lines
    distributed = [line for line in lines if line.startswith("SELECT create_distributed_table")]
    anchor = distributed[0].split("'")[1]
    assert distributed[0] == f"SELECT create_distributed_table('{anchor}', 'user_id');"
    assert (
        "SELECT create_distributed_table('memories_memory', 'user_id', "
        f"colocate_with => '{anchor}');" in lines
    )
    assert not any("create_distributed_table('auth_" in line for line in lines)
    assert "UNCLASSIFIED" not in "\n".join(lines)


@pytest.mark.django_db
def test_keys_without_user_id_are_flagged_with_their_replacement_and_keys_with_it_are_not() -> None:
    output = _plan_output()

    assert (
        'ALTER TABLE "memories_memory" DROP CONSTRAINT "memories_memory_pkey", '
        'ADD PRIMARY KEY ("user_id", "id");' in output
    )
    assert 'UNIQUE ("user_id", "memory_id", "version")' in output
    # (user, tag) already holds the distribution column.
    assert "tagweight_unique_user_tag" not in output
    assert (
        'FOREIGN KEY ("user_id", "memory_id") REFERENCES "memories_memory" ("user_id", "id")'
        in output
    )


@pytest.mark.django_db
def test_check_fails_while_something_must_change() -> None:
    with pytest.raises(CommandError, match="must change"):
        _plan_output("--check")


def test_an_unknown_table_and_a_reference_table_pointing_at_user_data_are_flagged() -> None:
    constraints = {
        "auth_user": [
            Constraint("auth_user", "auth_user_pkey", "primary key", ("id",)),
            Constraint(
                "auth_user",
                "auth_user_memory_fk",
                "foreign key",
                ("memory_id",),
                ("memories_memory", "id"),
            ),
        ],
        "memories_memory": [
            Constraint("memories_memory", "memory_scoped", "unique", ("user_id", "slot")),
        ],
    }
    plan = citus_plan(
        tables=["auth_user", "memories_memory", "someone_elses_table"],
        columns_of=lambda table: {"id"} if table == "memories_memory" else {"id", "user_id"},
        constraints_of=lambda table: constraints.get(table, []),
    )

    assert plan.unclassified == ["someone_elses_table"]
    assert plan.without_user_id == ["memories_memory"]
    assert [c.name for c in plan.reference_to_distributed] == ["auth_user_memory_fk"]
    assert plan.keys == []  # the reference table's own key is no concern of Citus
    script = "\n".join(plan_sql(plan))
    assert "someone_elses_table" in script.split("UNCLASSIFIED")[1]
