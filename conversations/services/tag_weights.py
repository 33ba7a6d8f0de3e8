"""Session tags with decaying weights (seed Algorithm 1): adding weight when a session ends
or a tag is recalled, the effective weight now, and the daily decay job.

Effective weight = weight x factor^(days since updated_at) (`conversations.logic.decay`), so a
missed beat run never loses or doubles decay; the job writes it back and forgets tags under
the floor (`MEMORYHUB_TAG_DECAY_FACTOR`, `MEMORYHUB_TAG_FLOOR`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from conversations.logic import decay
from conversations.logic.summarize import tag_form
from conversations.models import ChatSession, TagWeight, TagWeightHistory


def _record_history(user_id: int, weights: dict[str, float], day: datetime) -> None:
    for tag, weight in weights.items():
        TagWeightHistory.objects.update_or_create(
            user_id=user_id, tag=tag, day=timezone.localdate(day), defaults={"weight": weight}
        )


@transaction.atomic
def tag_weights_add(*, user_id: int, tags: Sequence[str], amount: float, at: datetime) -> None:
    """Add `amount` to each tag's weight as of time `at` (the data's own time)."""
    factor = settings.MEMORYHUB_TAG_DECAY_FACTOR
    changed: dict[str, float] = {}
    for tag in dict.fromkeys(tag_form(t) for t in tags if t):
        row, created = TagWeight.objects.select_for_update().get_or_create(
            user_id=user_id, tag=tag, defaults={"weight": amount, "updated_at": at}
        )
        if not created:
            row.weight, row.updated_at = decay.add_at(
                row.weight, row.updated_at, amount, at, factor
            )
            row.save(update_fields=["weight", "updated_at"])
        changed[tag] = decay.effective_weight(row.weight, row.updated_at, at, factor)
    _record_history(user_id, changed, at)


# factor ^ days since updated_at, in double precision: with numeric arguments (the default
# for these literals) power() took 1.9 ms over a user's 273 tags at session start.
_DECAYED = (
    "power(%s::float8, GREATEST(0.0, extract(epoch FROM (%s - updated_at))::float8 / 86400.0))"
)


def tag_weights_forget_unused(*, user_id: int, tags: Iterable[str]) -> int:
    """Forget each of `tags` that no session of the user has any more, weight and history
    (after sessions were deleted or their tags derived again); how many were forgotten."""
    forgotten = 0
    for tag in set(tags):
        if ChatSession.objects.filter(user_id=user_id, tags__contains=[tag]).exists():
            continue
        TagWeight.objects.filter(user_id=user_id, tag=tag_form(tag)).delete()
        TagWeightHistory.objects.filter(user_id=user_id, tag=tag_form(tag)).delete()
        forgotten += 1
    return forgotten


def tag_weights_effective(
    *, user_id: int, now: datetime | None = None, limit: int | None = None
) -> list[tuple[str, float, datetime]]:
    """(tag, effective weight now, updated_at), strongest first, without forgotten tags."""
    now = now or timezone.now()
    # Decayed in SQL by the daily job's formula (`decay.effective_weight`): session start
    # needs only the strongest few of what may be hundreds of tags.
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT tag, effective, updated_at FROM (SELECT tag, updated_at, weight * {_DECAYED} "
            "AS effective FROM conversations_tagweight WHERE user_id = %s) AS decayed "
            'WHERE effective >= %s ORDER BY effective DESC, tag COLLATE "C" LIMIT %s',
            [
                settings.MEMORYHUB_TAG_DECAY_FACTOR,
                now,
                user_id,
                settings.MEMORYHUB_TAG_FLOOR,
                limit or None,
            ],
        )
        return [(tag, float(weight), at) for tag, weight, at in cursor.fetchall()]


def tag_weights_decay(*, now: datetime | None = None) -> int:
    """The daily job: write effective weights back, forget those under the floor."""
    now = now or timezone.now()
    factor = settings.MEMORYHUB_TAG_DECAY_FACTOR
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE conversations_tagweight SET weight = weight * {_DECAYED}, updated_at = %s "
            "WHERE updated_at < %s",
            [factor, now, now, now],
        )
        cursor.execute(
            "DELETE FROM conversations_tagweight WHERE weight < %s",
            [settings.MEMORYHUB_TAG_FLOOR],
        )
        deleted = cursor.rowcount
        cursor.execute(
            "INSERT INTO conversations_tagweighthistory (user_id, tag, day, weight) "
            "SELECT user_id, tag, %s, weight FROM conversations_tagweight "
            "ON CONFLICT (user_id, tag, day) DO UPDATE SET weight = EXCLUDED.weight",
            [timezone.localdate(now)],
        )
    return deleted
