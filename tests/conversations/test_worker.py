import pytest

from conversations.models import Message
from tests.conftest import wait_until

pytestmark = pytest.mark.worker


def test_a_real_worker_embeds_posted_messages_through_the_broker(celery_worker_process, api):
    session_id = api.post("/api/v1/sessions/", format="json").json()["id"]

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "Next.js App Router 설정했어."},
        format="json",
    )

    assert response.status_code == 201
    messages = Message.objects.filter(session_id=session_id)
    assert wait_until(lambda: not messages.filter(embedding__isnull=True).exists(), timeout=90), (
        "the worker did not embed the messages; see .data/test-worker.log"
    )
    assert messages.count() == 2
    assert celery_worker_process.poll() is None
