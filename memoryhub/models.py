"""Rows the whole project shares: the record of every LLM call and its cost, and the base of
every model of one person's data."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class UserOwnedModel(models.Model):
    """A row of one person's data: `save()` of a stored row updates it by owner and id.

    Django updates a saved row `WHERE id = %s`; naming the owner too keeps the statement on
    the owner's shard when the tables are distributed by `user_id` (docs/deploy.md, section
    10). The owner of a stored row never changes (it would move the row to another shard): a
    row whose `user_id` was changed in memory is not found by the update, and Django's save
    then tries an insert, which fails on the primary key.
    """

    user_id: Any

    class Meta:
        abstract = True

    def _do_update(self, base_qs: Any, *args: Any, **kwargs: Any) -> Any:
        # Django-internal (5.2.19): every save() of a stored row updates through
        # `base_qs.filter(pk=...)` here; tests/memoryhub/test_user_owned_models.py pins it.
        owned = base_qs.filter(**{"user_id": self.user_id})
        return super()._do_update(owned, *args, **kwargs)

    def refresh_from_db(
        self, using: str | None = None, fields: Any = None, from_queryset: Any = None
    ) -> None:
        # Reloads (and loads of deferred fields) read `WHERE id = %s`; name the owner too,
        # unless the owner itself is what is being loaded.
        if from_queryset is None and "user_id" in self.__dict__:
            manager = type(self)._base_manager.db_manager(using, hints={"instance": self})
            from_queryset = manager.filter(**{"user_id": self.user_id})
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)


def owned_by(user_id: int | None) -> dict[str, int]:
    """The filter naming a row's owner, for a task that carries the owner's id beside the
    row's; a task queued before tasks carried it passes None and finds the row by id alone."""
    return {} if user_id is None else {"user_id": user_id}


def rows_delete(queryset: models.QuerySet[Any]) -> int:
    """Delete the rows of `queryset` in one `DELETE`, without Django's cascade; the count.

    Django's cascade looks for the rows that point at the deleted ones by their ids, a query
    that names no user (sent to every shard once tables are distributed by `user_id`). The
    deletion services delete those rows first, each filtered by its owner, then the rows
    themselves with this. The foreign keys stay, deferred to the commit: a row left pointing
    at a deleted one fails the transaction, so nothing is half-deleted.
    """
    # Django-internal (5.2): the single DELETE its own fast path issues.
    return int(queryset._raw_delete(queryset.db))


class LLMCall(UserOwnedModel):
    """One call to a language model (or the offline provider), for cost per user and task."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="llm_calls",
        verbose_name=_("user"),
    )
    task = models.CharField(max_length=64, db_index=True, verbose_name=_("task"))
    provider = models.CharField(max_length=32, verbose_name=_("provider"))
    model = models.CharField(max_length=128, verbose_name=_("model"))
    input_tokens = models.PositiveIntegerField(default=0, verbose_name=_("input tokens"))
    output_tokens = models.PositiveIntegerField(default=0, verbose_name=_("output tokens"))
    cost_usd = models.DecimalField(
        max_digits=12,
        decimal_places=6,
        default=Decimal("0"),
        verbose_name=_("cost (USD)"),
        help_text=_("Zero for the offline provider, which runs locally."),
    )
    latency_ms = models.PositiveIntegerField(default=0, verbose_name=_("latency (ms)"))
    ok = models.BooleanField(default=True, verbose_name=_("succeeded"))
    error = models.CharField(max_length=500, blank=True, verbose_name=_("error"))
    created_at = models.DateTimeField(
        auto_now_add=True, db_index=True, verbose_name=_("created at")
    )

    class Meta:
        verbose_name = _("LLM call")
        verbose_name_plural = _("LLM calls")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return _("%(task)s with %(model)s, %(input)s+%(output)s tokens") % {
            "task": self.task,
            "model": self.model,
            "input": self.input_tokens,
            "output": self.output_tokens,
        }
