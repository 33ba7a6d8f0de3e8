"""The extraction task queued with text before the move, on a real worker and broker."""

from __future__ import annotations

import pytest

from conversations.tasks import extract_from_exchange
from memories.models import Memory
from tests.conftest import wait_until

pytestmark = pytest.mark.worker


def test_a_real_worker_still_drains_extraction_tasks_queued_with_text_before_the_upgrade(
    celery_worker_process, user
):
    extract_from_exchange.delay(
        user_id=user.pk,
        user_text="내 이름은 민지야. 나 서울 강남에 살아.",
        assistant_text="반가워요, 민지님!",
        source_message_id=None,  # the worker checks a real source; none is made here
    )

    memories = Memory.objects.filter(user=user, status="active")
    assert wait_until(lambda: memories.count() == 2, timeout=120), (
        "the worker did not extract; see .data/test-worker-<test database>.log"
    )
    assert celery_worker_process.poll() is None
