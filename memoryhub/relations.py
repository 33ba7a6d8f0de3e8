"""Relations between two rows of one person's data that name the person in every query.

A foreign key from one table of user data to another (`Message.session`, `MemoryVersion.memory`)
links rows of the same user. Django reaches the other side by id alone: a join on
`message.session_id = session.id`, `session.messages` as `WHERE session_id = %s`, a prefetch
as `WHERE session_id IN (...)`. Once the tables are distributed by `user_id` (docs/deploy.md,
section 10) such a query goes to every shard. `UserForeignKey` and `UserOneToOneField` add the
owner to each of them:

- every join through the key gets `AND <one>.user_id = <other>.user_id` in its ON clause (the
  join on the distribution column keeps it on one shard);
- `message.session` loads `WHERE id = %s AND user_id = %s`;
- `session.messages` filters `session_id = %s AND user_id = %s`;
- prefetches of either side add `user_id IN (<the owners of the instances>)`.

The database schema is that of a plain key (the column, its index and constraint), so the
fields deconstruct as Django's own and migrations never name these classes.

Django-internal (5.2.19): `get_extra_restriction`, `get_extra_descriptor_filter`, the
descriptor classes and the related manager's `core_filters` and `get_prefetch_querysets`;
tests/memoryhub/test_relations.py pins each.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar

from django.db import models
from django.db.models.expressions import Col
from django.db.models.fields.related_descriptors import (
    ForwardManyToOneDescriptor,
    ForwardOneToOneDescriptor,
    ReverseManyToOneDescriptor,
    ReverseOneToOneDescriptor,
)
from django.db.models.lookups import Exact
from django.db.models.sql.where import AND, WhereNode

OWNER = "user_id"
_ST = TypeVar("_ST")
_GT = TypeVar("_GT")


def _owners(instances: Any) -> set[Any]:
    return {getattr(instance, OWNER) for instance in instances}


def _prefetch_querysets(descriptor: Any, base: Any, instances: Any, querysets: Any) -> Any:
    queryset = querysets[0] if querysets else descriptor.get_queryset()
    return base.get_prefetch_querysets(
        descriptor, instances, [queryset.filter(user_id__in=_owners(instances))]
    )


class _ForwardDescriptor(ForwardManyToOneDescriptor):  # type: ignore[type-arg]
    def get_prefetch_querysets(self, instances: Any, querysets: Any = None) -> Any:
        return _prefetch_querysets(self, ForwardManyToOneDescriptor, instances, querysets)


class _ForwardOneToOneDescriptor(ForwardOneToOneDescriptor):  # type: ignore[type-arg]
    def get_prefetch_querysets(self, instances: Any, querysets: Any = None) -> Any:
        return _prefetch_querysets(self, ForwardOneToOneDescriptor, instances, querysets)


class _ReverseOneToOneDescriptor(ReverseOneToOneDescriptor):  # type: ignore[type-arg]
    def get_queryset(self, **hints: Any) -> Any:
        queryset = super().get_queryset(**hints)
        instance = hints.get("instance")
        return queryset if instance is None else queryset.filter(user_id=instance.user_id)

    def get_prefetch_querysets(self, instances: Any, querysets: Any = None) -> Any:
        return _prefetch_querysets(self, ReverseOneToOneDescriptor, instances, querysets)


class _ReverseManyDescriptor(ReverseManyToOneDescriptor):  # type: ignore[type-arg]
    @cached_property
    def related_manager_cls(self) -> Any:
        base: Any = super().related_manager_cls
        unfiltered = self.rel.related_model._default_manager.__class__

        class UserScopedRelatedManager(base):
            def __init__(self, instance: Any) -> None:
                super().__init__(instance)
                self.core_filters = {self.field.name: instance, OWNER: getattr(instance, OWNER)}

            def get_prefetch_querysets(self, instances: Any, querysets: Any = None) -> Any:
                queryset = querysets[0] if querysets else unfiltered.get_queryset(self)
                return super().get_prefetch_querysets(
                    instances, [queryset.filter(user_id__in=_owners(instances))]
                )

        return UserScopedRelatedManager


class _SameOwner:
    """The join condition and descriptor filter shared by both fields."""

    model: Any

    def get_extra_restriction(self, alias: str | None, related_alias: str | None) -> Any:
        if alias is None or related_alias is None:
            # A subquery pushed down from a join (Query.trim_start) has one side only.
            return None
        owner = self.model._meta.get_field("user")
        condition = Exact(Col(alias, owner), Col(related_alias, owner))
        return WhereNode([condition], connector=AND)  # type: ignore[list-item]

    def get_extra_descriptor_filter(self, instance: Any) -> dict[str, Any]:
        return {OWNER: getattr(instance, OWNER)}

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()  # type: ignore[misc]
        return name, self._plain_path, args, kwargs

    _plain_path = ""


class UserForeignKey(_SameOwner, models.ForeignKey[_ST, _GT]):
    """A foreign key between two tables of one person's data (see the module doc)."""

    _plain_path = "django.db.models.ForeignKey"
    forward_related_accessor_class = _ForwardDescriptor
    related_accessor_class = _ReverseManyDescriptor


class UserOneToOneField(_SameOwner, models.OneToOneField[_ST, _GT]):
    """A one-to-one key between two rows of one person's data (see the module doc)."""

    _plain_path = "django.db.models.OneToOneField"
    forward_related_accessor_class = _ForwardOneToOneDescriptor
    related_accessor_class = _ReverseOneToOneDescriptor
