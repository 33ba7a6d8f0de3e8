"""Rows the whole project shares: the record of every LLM call and its cost."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LLMCall(models.Model):
    """One call to a language model (or the offline provider), for cost per user and task."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="llm_calls",
    )
    task = models.CharField(max_length=64, db_index=True)
    provider = models.CharField(max_length=32)
    model = models.CharField(max_length=128)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=Decimal("0"))
    latency_ms = models.PositiveIntegerField(default=0)
    ok = models.BooleanField(default=True)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("LLM call")
        verbose_name_plural = _("LLM calls")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"{self.task} {self.model} {self.input_tokens}+{self.output_tokens} tokens"
