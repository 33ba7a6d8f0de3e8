from __future__ import annotations

from decimal import Decimal

import pytest

from memoryhub import llm, offline_reply
from memoryhub.models import LLMCall
from tests.anthropic_fake import FakeAnthropic, completed, failing, streamed

pytestmark = pytest.mark.django_db


def _request(**kwargs) -> llm.ReplyRequest:
    defaults = {"system": "You are helpful.", "turns": [llm.Turn("user", "안녕?")], "user_id": None}
    return llm.ReplyRequest(**{**defaults, **kwargs})


def test_anthropic_reply_streams_text_through_the_real_sdk():
    fake = FakeAnthropic([streamed(text="안녕하세요! 무엇을 도와드릴까요?")])
    provider = llm.AnthropicProvider(client=fake.client())

    chunks = list(provider.stream_reply(_request()))

    assert len(chunks) > 1
    assert "".join(chunks) == "안녕하세요! 무엇을 도와드릴까요?"
    sent = fake.requests[0]
    assert sent["stream"] is True
    assert sent["system"] == "You are helpful."
    assert sent["messages"] == [{"role": "user", "content": "안녕?"}]


def test_chat_model_is_a_setting(settings):
    settings.MEMORYHUB_CHAT_MODEL = "claude-opus-4-7"
    fake = FakeAnthropic([streamed(text="ok")])

    list(llm.AnthropicProvider(client=fake.client()).stream_reply(_request()))

    assert fake.requests[0]["model"] == "claude-opus-4-7"


def test_tool_use_round_trip_runs_the_tool_and_feeds_the_result_back(settings, user):
    settings.MEMORYHUB_CHAT_MODEL = "claude-sonnet-4-6"
    seen: list[dict] = []

    def search(tool_input: dict) -> str:
        seen.append(tool_input)
        return "[message 12] App Router 설정 완료"

    tool = llm.Tool(
        name="memory_search",
        description="Search the user's memory.",
        input_schema={"type": "object", "properties": {"query": {"type": "string"}}},
        run=search,
    )
    fake = FakeAnthropic(
        [
            streamed(
                text="찾아볼게요.",
                tool_use={
                    "id": "toolu_1",
                    "name": "memory_search",
                    "input": {"query": "마이그레이션"},
                },
                input_tokens=100,
                output_tokens=20,
            ),
            streamed(text="App Router 설정을 마치셨어요.", input_tokens=150, output_tokens=10),
        ]
    )
    provider = llm.AnthropicProvider(client=fake.client())

    reply = "".join(provider.stream_reply(_request(tools=[tool], user_id=user.pk)))

    assert seen == [{"query": "마이그레이션"}]
    assert "App Router 설정을 마치셨어요." in reply
    assert fake.requests[0]["tools"][0]["name"] == "memory_search"
    follow_up = fake.requests[1]["messages"]
    assert follow_up[1]["role"] == "assistant"
    assert follow_up[1]["content"][-1] == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "memory_search",
        "input": {"query": "마이그레이션"},
    }
    result = follow_up[2]["content"][0]
    assert result["type"] == "tool_result"
    assert result["tool_use_id"] == "toolu_1"
    assert "App Router 설정 완료" in result["content"]
    calls = list(LLMCall.objects.filter(user=user).order_by("id"))
    assert [(c.input_tokens, c.output_tokens) for c in calls] == [(100, 20), (150, 10)]
    assert calls[0].cost_usd == llm.cost_usd("claude-sonnet-4-6", 100, 20)


def test_tool_calls_are_bounded_and_the_last_request_forbids_tools(settings):
    settings.MEMORYHUB_MAX_TOOL_CALLS = 1
    runs: list[dict] = []
    tool = llm.Tool("memory_search", "search", {"type": "object"}, lambda i: runs.append(i) or "x")
    ask = {"id": "toolu_1", "name": "memory_search", "input": {"query": "a"}}
    again = {"id": "toolu_2", "name": "memory_search", "input": {"query": "b"}}
    fake = FakeAnthropic([streamed(tool_use=ask), streamed(tool_use=again), streamed(text="done")])

    reply = "".join(
        llm.AnthropicProvider(client=fake.client()).stream_reply(_request(tools=[tool]))
    )

    assert len(runs) == 1
    assert fake.requests[0]["tool_choice"] == {"type": "auto"}
    assert fake.requests[1]["tool_choice"] == {"type": "none"}
    refused = fake.requests[2]["messages"][-1]["content"][0]
    assert refused["is_error"] is True
    assert reply.strip().endswith("done")


def test_api_errors_become_llm_errors_and_are_recorded(user):
    fake = FakeAnthropic([failing(529)])
    provider = llm.AnthropicProvider(client=fake.client())

    with pytest.raises(llm.LLMError):
        list(provider.stream_reply(_request(user_id=user.pk)))

    call = LLMCall.objects.get(user=user)
    assert call.ok is False
    assert call.error


def test_complete_uses_the_light_model_and_records_cost(settings, user):
    settings.MEMORYHUB_LIGHT_MODEL = "claude-haiku-4-5"
    fake = FakeAnthropic([completed("N", input_tokens=40, output_tokens=1)])

    answer = llm.AnthropicProvider(client=fake.client()).complete(
        task="topic_shift", prompt="A와 B가 같은 화제인가?", user_id=user.pk
    )

    assert answer == "N"
    assert fake.requests[0]["model"] == "claude-haiku-4-5"
    call = LLMCall.objects.get(user=user)
    assert (call.task, call.model, call.input_tokens, call.output_tokens) == (
        "topic_shift",
        "claude-haiku-4-5",
        40,
        1,
    )
    assert call.cost_usd == Decimal("0.000045")


def test_cost_uses_the_longest_matching_price_prefix():
    assert llm.cost_usd("claude-opus-4-5-20251101", 1_000_000, 0) == Decimal("5")
    assert llm.cost_usd("claude-opus-4-1", 1_000_000, 0) == Decimal("15")
    assert llm.cost_usd("unknown-model", 1000, 1000) == Decimal("0")


def test_offline_reply_answers_with_what_was_recalled_and_says_it_is_offline(user):
    recollection = offline_reply.Recollection(
        question=True,
        kind="plans",
        items=[offline_reply.Recalled("memory", "Next.js 마이그레이션을 하기로 함", answers=True)],
    )

    reply = "".join(
        llm.OfflineProvider().stream_reply(
            _request(
                turns=[llm.Turn("user", "어제 뭐 하기로 했었지?")],
                user_id=user.pk,
                recall=lambda: recollection,
            )
        )
    )

    assert reply.startswith("하기로 하신 일은 “Next.js 마이그레이션을 하기로 함”라고")
    assert "언어 모델 없이" in reply
    call = LLMCall.objects.get(user=user)
    assert (call.provider, call.cost_usd) == ("offline", Decimal("0"))


def test_offline_reply_without_a_recall_says_nothing_is_remembered_in_the_users_language():
    reply = "".join(
        llm.OfflineProvider().stream_reply(
            _request(turns=[llm.Turn("user", "What did we decide about the API?")])
        )
    )

    assert reply.startswith("I don't have anything remembered about this yet.")
    assert "ANTHROPIC_API_KEY" not in reply


def test_provider_is_offline_without_a_key(settings):
    llm.set_provider(None)
    settings.ANTHROPIC_API_KEY = None
    assert llm.is_offline()
    assert isinstance(llm.get_provider(), llm.OfflineProvider)
    llm.set_provider(None)
    settings.ANTHROPIC_API_KEY = "sk-ant-test"
    assert not llm.is_offline()
    assert isinstance(llm.get_provider(), llm.AnthropicProvider)


def test_prices_can_be_added_by_setting(settings):
    settings.MEMORYHUB_LLM_PRICES = {"claude-sonnet-5": (Decimal("2"), Decimal("10"))}

    assert llm.cost_usd("claude-sonnet-5-20270101", 1_000_000, 100_000) == Decimal("3")
