"""Sharding by user: which tables are user data, and the plan that distributes them with Citus.

Every table of this project's apps holds one person's data and carries `user_id`, the
distribution column; the tables of Django and the libraries (users, tokens, sessions, the
scheduler's) are reference data, copied to every node. `citus_plan` turns the live schema
into the statements that distribute it and lists what must change first: Citus needs the
distribution column in every primary key and unique constraint of a distributed table, and
in both sides of a foreign key between two of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings

DISTRIBUTION_COLUMN = "user_id"
# Apps whose tables are reference data (small, read by every shard's queries).
REFERENCE_APPS = frozenset(
    {
        "admin",
        "auth",
        "authtoken",
        "contenttypes",
        "sessions",
        "django_celery_beat",
        "django_celery_results",
    }
)

# Django's record of applied migrations: stays an ordinary table on the coordinator.
LOCAL_TABLES = frozenset({"django_migrations"})


def _tables_of(app_configs: Iterable[Any]) -> set[str]:
    return {
        model._meta.db_table
        for app in app_configs
        for model in app.get_models(include_auto_created=True)
        if model._meta.managed or model._meta.auto_created
    }


def project_app_configs() -> list[Any]:
    """The apps of this repository (its top-level folders), not Django's or a library's."""
    root = Path(settings.BASE_DIR).resolve()
    return [app for app in apps.get_app_configs() if Path(app.path).resolve().parent == root]


def user_data_tables() -> set[str]:
    return _tables_of(project_app_configs())


def reference_tables() -> set[str]:
    return _tables_of(a for a in apps.get_app_configs() if a.label in REFERENCE_APPS)


@dataclass(frozen=True)
class Constraint:
    """A primary key, unique constraint, unique index or foreign key, as the database has it."""

    table: str
    name: str
    kind: str  # "primary key", "unique", "unique index", "foreign key"
    columns: tuple[str, ...]
    references: tuple[str, str] | None = None  # (table, column) of a foreign key


@dataclass
class Plan:
    reference: list[str] = field(default_factory=list)
    local: list[str] = field(default_factory=list)
    distributed: list[str] = field(default_factory=list)
    unclassified: list[str] = field(default_factory=list)
    without_user_id: list[str] = field(default_factory=list)  # distributed tables lacking it
    keys: list[Constraint] = field(default_factory=list)  # PK/unique lacking user_id
    foreign_keys: list[Constraint] = field(default_factory=list)  # distributed -> distributed
    reference_to_distributed: list[Constraint] = field(default_factory=list)

    @property
    def anchor(self) -> str | None:
        return self.distributed[0] if self.distributed else None


def citus_plan(
    *,
    tables: Iterable[str],
    columns_of: Callable[[str], set[str]],
    constraints_of: Callable[[str], list[Constraint]],
) -> Plan:
    """Classify `tables` (the database's) and find what Citus would refuse."""
    user_tables, ref_tables = user_data_tables(), reference_tables()
    plan = Plan()
    for table in sorted(tables):
        if table in user_tables:
            plan.distributed.append(table)
        elif table in ref_tables:
            plan.reference.append(table)
        elif table in LOCAL_TABLES:
            plan.local.append(table)
        else:
            plan.unclassified.append(table)
    distributed = set(plan.distributed)
    for table in plan.distributed:
        if DISTRIBUTION_COLUMN not in columns_of(table):
            plan.without_user_id.append(table)
        for constraint in constraints_of(table):
            if constraint.kind == "foreign key":
                if constraint.references and constraint.references[0] in distributed:
                    plan.foreign_keys.append(constraint)
            elif DISTRIBUTION_COLUMN not in constraint.columns:
                plan.keys.append(constraint)
    for table in plan.reference:
        for constraint in constraints_of(table):
            if constraint.references and constraint.references[0] in distributed:
                plan.reference_to_distributed.append(constraint)
    return plan


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def plan_sql(plan: Plan) -> list[str]:
    """The plan as a commented SQL script, in the order it must run."""
    lines = [
        "-- memoryhub on Citus: distributed by user_id (docs/deploy.md, 'Sharding by user').",
        "-- Generated from the models and the live schema by `manage.py citus_plan`.",
    ]
    if plan.unclassified:
        lines += ["", "-- UNCLASSIFIED: add these tables' apps to the user data or reference list:"]
        lines += [f"--   {table}" for table in plan.unclassified]
    if plan.without_user_id:
        lines += ["", "-- MUST CHANGE: tables of user data without user_id (add and fill it):"]
        lines += [f"--   {table}" for table in plan.without_user_id]
    if plan.reference_to_distributed:
        lines += ["", "-- MUST CHANGE: reference tables may not point at distributed tables:"]
        lines += [f"--   {c.table} ({c.name})" for c in plan.reference_to_distributed]
    if plan.local:
        lines += ["", f"-- Left on the coordinator as they are: {', '.join(plan.local)}."]
    lines += ["", "-- 1. Reference tables: a full copy on every node."]
    lines += [f"SELECT create_reference_table('{table}');" for table in plan.reference]
    if plan.foreign_keys:
        lines += [
            "",
            "-- 2. MUST CHANGE: foreign keys between distributed tables must include user_id on",
            "--    both sides; drop them now, add them back as (user_id, column) in step 5.",
        ]
        lines += [f'ALTER TABLE "{c.table}" DROP CONSTRAINT "{c.name}";' for c in plan.foreign_keys]
    if plan.keys:
        lines += [
            "",
            "-- 3. MUST CHANGE: every primary key and unique constraint of a distributed table",
            "--    must include user_id. Ids stay unique (one sequence per table), so adding",
            "--    user_id in front changes no answer; a lookup that knows only the unique",
            "--    value (no user) must first learn the user (see docs/deploy.md).",
        ]
        for c in plan.keys:
            columns = _quoted((DISTRIBUTION_COLUMN, *c.columns))
            if c.kind == "primary key":
                lines.append(
                    f'ALTER TABLE "{c.table}" DROP CONSTRAINT "{c.name}", '
                    f"ADD PRIMARY KEY ({columns});"
                )
            elif c.kind == "unique":
                lines.append(
                    f'ALTER TABLE "{c.table}" DROP CONSTRAINT "{c.name}", '
                    f'ADD CONSTRAINT "{c.name}" UNIQUE ({columns});'
                )
            else:
                lines.append(
                    f'-- unique index "{c.name}" on "{c.table}" ({_quoted(c.columns)}): '
                    f"recreate it on ({columns}) with its WHERE clause"
                )
    if plan.anchor:
        lines += ["", "-- 4. Distributed tables, all co-located with the first (same shards)."]
        lines.append(f"SELECT create_distributed_table('{plan.anchor}', '{DISTRIBUTION_COLUMN}');")
        lines += [
            f"SELECT create_distributed_table('{table}', '{DISTRIBUTION_COLUMN}', "
            f"colocate_with => '{plan.anchor}');"
            for table in plan.distributed[1:]
        ]
    if plan.foreign_keys:
        lines += ["", "-- 5. The foreign keys again, through user_id."]
        for c in plan.foreign_keys:
            assert c.references is not None
            lines.append(
                f'ALTER TABLE "{c.table}" ADD CONSTRAINT "{c.name}" FOREIGN KEY '
                f"({_quoted((DISTRIBUTION_COLUMN, *c.columns))}) REFERENCES "
                f'"{c.references[0]}" ({_quoted((DISTRIBUTION_COLUMN, c.references[1]))});'
            )
    return lines
