"""The memory_search and memory tools in a real Claude tool-use loop (mocked transport)."""

from __future__ import annotations

import pytest

from conversations.services import chat, indexing, tools
from memories.models import Memory
from memoryhub import llm
from tests.anthropic_fake import FakeAnthropic, streamed

pytestmark = pytest.mark.django_db


def _history(user):
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="Next.js App Router 설정 완료")
    "".join(chat.reply_stream(message=message))
    indexing.messages_embed_pending(user_id=user.pk)


def test_claude_calls_memory_search_and_gets_the_users_history_back(user):
    _history(user)
    fake = FakeAnthropic([
        streamed(tool_use={"id": "toolu_1", "name": "memory_search",
                           "input": {"query": "App Router", "k": 3}}),
        streamed(text="App Router 설정을 마치셨어요."),
    ])  # fmt: skip
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="라우터 어디까지 했지?")

    reply = "".join(chat.reply_stream(message=message))

    assert "App Router 설정을 마치셨어요." in reply
    names = [tool["name"] for tool in fake.requests[0]["tools"]]
    assert names == ["memory_search", "memory"]
    result = fake.requests[1]["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and not result["is_error"]
    assert "Next.js App Router 설정 완료" in result["content"]
    assert "라우터 어디까지 했지?" not in result["content"]  # not the question itself


def test_bad_tool_input_from_the_model_is_an_error_result_not_a_crash(user):
    fake = FakeAnthropic([
        streamed(tool_use={"id": "toolu_1", "name": "memory_search", "input": {"k": 99}}),
        streamed(text="ok"),
    ])  # fmt: skip
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="hello")

    "".join(chat.reply_stream(message=message))

    result = fake.requests[1]["messages"][-1]["content"][0]
    assert result["is_error"] is True


def test_claude_writes_a_memory_through_the_memory_tool_and_the_write_policy(user):
    fake = FakeAnthropic([
        streamed(tool_use={"id": "toolu_1", "name": "memory", "input": {
            "command": "create", "path": "/memories/preference/answers.md",
            "file_text": "The user prefers short answers."}}),
        streamed(tool_use={"id": "toolu_2", "name": "memory", "input": {
            "command": "view", "path": "/memories/../../etc/passwd"}}),
        streamed(text="Noted."),
    ])  # fmt: skip
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="Keep answers short please.")

    "".join(chat.reply_stream(message=message))

    created = fake.requests[1]["messages"][-1]["content"][0]
    assert not created["is_error"]
    assert Memory.objects.filter(user=user).exists()
    traversal = fake.requests[2]["messages"][-1]["content"][0]
    assert traversal["is_error"] is True


def test_the_search_tool_only_sees_its_own_users_data(user, other_user):
    _history(other_user)

    output = tools.memory_search_tool(user=user, exclude_message_ids=set()).run(
        {"query": "App Router"}
    )

    assert output == "(nothing found)"


def test_the_search_tool_leaves_out_the_current_sessions_own_topic(user):
    _history(user)
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content="App Router 다음 단계는?")

    output = tools.memory_search_tool(
        user=user, exclude_message_ids={str(message.pk)}, current_session_id=str(session.pk)
    ).run({"query": "App Router"})

    assert "Next.js App Router 설정 완료" in output
    assert "다음 단계" not in output


def _tool_result(user, query, *, current_session_id=""):
    tool = tools.memory_search_tool(
        user=user, exclude_message_ids=set(), current_session_id=current_session_id
    )
    return tool.run({"query": query, "k": 5})


@pytest.mark.parametrize(
    "content, query",
    [
        ("나는 주말마다 북한산에 올라", "주말에 보통 뭐 하지?"),
        ("I play the violin in a community orchestra", "Which instrument do I play?"),
    ],
)
def test_the_search_tool_finds_memory_records(user, other_user, content, query):
    from memories.services import revision

    memory = revision.memory_create(user=user, type="fact", content=content)
    revision.memory_create(user=other_user, type="fact", content=content + " too")

    result = _tool_result(user, query)

    assert f"[memory {memory.pk}" in result
    assert content in result
    assert "too" not in result  # another user's memory never


def test_the_search_tool_leaves_out_a_memory_kept_from_the_assistant(user):
    from memories.services import revision

    revision.memory_create(
        user=user, type="fact", content="I play the cello", allowed_readers=("agent",)
    )

    assert "cello" not in _tool_result(user, "Which instrument do I play?")
