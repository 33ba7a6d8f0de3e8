"""Tag weights are decayed in SQL; they must agree with the Python decay of
`conversations.logic.decay` (seed Algorithm 1: weight x 0.95^days)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from conversations.logic import decay
from conversations.models import ChatSession, TagWeight, TagWeightHistory
from conversations.services import tag_weights

pytestmark = pytest.mark.django_db


def test_the_top_tags_from_sql_are_the_first_of_the_full_python_ranking(user, other_user):
    now = timezone.now()
    weights = [
        ("여행", 3.0, 0), ("travel", 3.0, 0), ("coffee", 2.5, 10), ("커피", 4.0, 30),
        ("jazz", 1.0, 1), ("바이올린", 2.0, 5), ("python", 0.5, 0), ("old", 5.0, 200),
        ("equal-b", 1.2, 2), ("equal-a", 1.2, 2),
    ]  # fmt: skip
    for tag, weight, days in weights:
        TagWeight.objects.create(
            user=user, tag=tag, weight=weight, updated_at=now - timedelta(days=days)
        )
    TagWeight.objects.create(user=other_user, tag="theirs", weight=9.0, updated_at=now)

    everything = tag_weights.tag_weights_effective(user_id=user.pk, now=now)
    top = tag_weights.tag_weights_effective(user_id=user.pk, now=now, limit=6)
    factor = settings.MEMORYHUB_TAG_DECAY_FACTOR
    in_python = sorted(
        (
            (t, decay.effective_weight(w, now - timedelta(days=d), now, factor))
            for t, w, d in weights
        ),
        key=lambda row: (-row[1], row[0]),
    )
    in_python = [row for row in in_python if row[1] >= settings.MEMORYHUB_TAG_FLOOR]

    assert [t for t, _w, _at in top] == [t for t, _w in in_python[:6]]
    assert [t for t, _w, _at in everything] == [t for t, _w in in_python]
    for (_, fast, _), (_, slow) in zip(everything, in_python, strict=True):
        assert fast == pytest.approx(slow)
    assert "old" not in {t for t, _w, _at in everything}  # decayed under the floor
    assert "theirs" not in {t for t, _w, _at in top}


def test_a_tag_no_session_has_any_more_is_forgotten_with_its_history(user, other_user):
    now = timezone.now()
    ChatSession.objects.create(user=user, started_at=now, tags=["정원"])
    ChatSession.objects.create(user=other_user, started_at=now, tags=["cello"])
    tag_weights.tag_weights_add(user_id=user.pk, tags=["정원", "cello"], amount=1.0, at=now)

    forgotten = tag_weights.tag_weights_forget_unused(user_id=user.pk, tags={"정원", "cello"})

    assert forgotten == 1
    assert set(TagWeight.objects.filter(user=user).values_list("tag", flat=True)) == {"정원"}
    assert not TagWeightHistory.objects.filter(user=user, tag="cello").exists()
