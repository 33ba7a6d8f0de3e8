"""A connected agent's `forget_memory` over MCP removes the memory's copies in conversations
and names them on the receipt, as the page does (issue 16 line 1)."""

from __future__ import annotations

from typing import Any

from memories.models import AuditEvent, DeletionReceipt
from tests.account.test_mcp import _agent, _call, mcp_url  # noqa: F401  (the live server)
from tests.conversations.test_forgetting_paths import (  # noqa: F401  (a fixture)
    Remembered,
    _assert_forgotten,
    remembered,
)


def test_forget_memory_removes_the_copies_and_names_them(
    mcp_url: str,  # noqa: F811
    user: Any,
    remembered: Remembered,  # noqa: F811
) -> None:
    agent, token = _agent(user, write=True)

    forgot = _call(mcp_url, token, "forget_memory", {"id": remembered.memory.pk})

    assert not forgot.is_error, forgot.content
    assert forgot.structured_content is not None
    receipt = DeletionReceipt.objects.get(pk=forgot.structured_content["id"])
    _assert_forgotten(remembered, receipt)
    event = AuditEvent.objects.get(action=AuditEvent.Action.USER_DELETE)
    assert event.detail["agent_id"] == agent.pk
