"""Print the Citus statements that distribute memoryhub by user, and what must change first.

    python manage.py citus_plan > citus.sql

Reads the live schema (run it after `migrate`): reference tables get `create_reference_table`,
tables of user data `create_distributed_table(..., 'user_id')` co-located with each other,
and every primary key, unique constraint and foreign key that Citus would refuse is listed
with the statement that changes it (memoryhub/sharding.py). `--check` exits 1 if anything
must change, for CI.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from memoryhub.sharding import Constraint, citus_plan, plan_sql


def _constraints_of(table: str) -> list[Constraint]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    constraints = []
    for name, info in sorted(found.items()):
        columns = tuple(info["columns"] or ())
        if info["foreign_key"]:
            kind = "foreign key"
        elif info["primary_key"]:
            kind = "primary key"
        elif info["unique"]:
            kind = "unique index" if info["index"] and not info.get("check") else "unique"
        else:
            continue
        constraints.append(
            Constraint(
                table=table,
                name=name,
                kind=kind,
                columns=columns,
                references=(
                    (str(info["foreign_key"][0]), str(info["foreign_key"][1]))
                    if info["foreign_key"]
                    else None
                ),
            )
        )
    return constraints


def _is_constraint(table: str, name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_constraint WHERE conname = %s AND conrelid = %s::regclass",
            [name, table],
        )
        return cursor.fetchone() is not None


def _columns_of(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


class Command(BaseCommand):
    help = "Print the Citus statements that distribute the database by user_id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="exit 1 if any table or key must change"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with connection.cursor() as cursor:
            tables = [
                info.name
                for info in connection.introspection.get_table_list(cursor)
                if info.type == "t"
            ]
        if not tables:
            raise CommandError("The database has no tables: run `manage.py migrate` first.")

        def constraints_of(table: str) -> list[Constraint]:
            # A unique constraint is backed by an index of the same name: tell them apart.
            return [
                Constraint(c.table, c.name, "unique", c.columns, c.references)
                if c.kind == "unique index" and _is_constraint(table, c.name)
                else c
                for c in _constraints_of(table)
            ]

        plan = citus_plan(tables=tables, columns_of=_columns_of, constraints_of=constraints_of)
        self.stdout.write("\n".join(plan_sql(plan)))
        must_change = (
            plan.unclassified
            or plan.without_user_id
            or plan.keys
            or plan.foreign_keys
            or plan.reference_to_distributed
        )
        if options["check"] and must_change:
            raise CommandError("Some tables or keys must change before distribution (above).")
