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
