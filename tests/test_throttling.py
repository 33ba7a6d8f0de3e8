"""Per-user request rates on chat, search/context and import (issue 7, line 2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from conversations.models import HistoryImport, Message
from memoryhub import env

pytestmark = pytest.mark.django_db


def _rates(settings: Any, **rates: str | None) -> None:
    current = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    current.update(rates)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": current}


def _session(api: Any) -> str:
    return str(api.post("/api/v1/sessions/").json()["id"])


def _import_payload() -> dict[str, Any]:
    now = timezone.now().isoformat()
    message = {"role": "user", "content": "hello there", "created_at": now}
    return {"sessions": [{"started_at": now, "messages": [message]}]}


def _assert_throttled(response: Any) -> None:
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "throttled"
    assert error["message"]
    assert int(response["Retry-After"]) > 0


def test_sending_messages_past_the_chat_rate_is_429_with_retry_after(api, settings):
    _rates(settings, chat="2/min")
    session_id = _session(api)
    url = f"/api/v1/sessions/{session_id}/messages/"

    first = api.post(url, {"content": "첫 번째"}, format="json")
    second = api.post(url, {"content": "두 번째"}, format="json")
    third = api.post(url, {"content": "세 번째"}, format="json")

    assert (first.status_code, second.status_code) == (201, 201)
    _assert_throttled(third)
    assert Message.objects.filter(content="세 번째").count() == 0


def test_search_and_context_share_the_search_rate(api, settings):
    _rates(settings, search="2/min")

    first = api.post("/api/v1/search/", {"query": "violin"}, format="json")
    second = api.post("/api/v1/context/", {"message": "violin"}, format="json")
    third = api.post("/api/v1/search/", {"query": "violin"}, format="json")
    fourth = api.post("/api/v1/context/", {"message": "violin"}, format="json")

    assert (first.status_code, second.status_code) == (200, 200)
    _assert_throttled(third)
    _assert_throttled(fourth)


def test_starting_imports_past_the_import_rate_is_429_and_stores_nothing(api, settings):
    _rates(settings, **{"import": "1/hour"})

    first = api.post("/api/v1/imports/", _import_payload(), format="json")
    second = api.post("/api/v1/imports/", _import_payload(), format="json")

    assert first.status_code == 202
    _assert_throttled(second)
    assert int(second["Retry-After"]) > 60
    assert HistoryImport.objects.count() == 1


def test_the_rate_is_per_user(api, other_api, settings):
    _rates(settings, search="1/min")

    assert api.post("/api/v1/search/", {"query": "a"}, format="json").status_code == 200
    assert api.post("/api/v1/search/", {"query": "a"}, format="json").status_code == 429
    assert other_api.post("/api/v1/search/", {"query": "a"}, format="json").status_code == 200


def test_other_endpoints_are_not_throttled_by_the_scopes(api, settings):
    _rates(settings, chat="1/min", search="1/min", **{"import": "1/min"})

    statuses = {api.get("/api/v1/memories/").status_code for _ in range(4)}

    assert statuses == {200}


def test_a_rate_set_to_off_means_no_limit(api, settings):
    _rates(settings, search=None)

    statuses = {
        api.post("/api/v1/search/", {"query": "a"}, format="json").status_code for _ in range(5)
    }

    assert statuses == {200}


def test_the_default_rates_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("MEMORYHUB_THROTTLE_CHAT", " 30/min ")
    monkeypatch.setenv("MEMORYHUB_THROTTLE_SEARCH", "off")

    assert env.env_rate("MEMORYHUB_THROTTLE_CHAT", "60/min") == "30/min"
    assert env.env_rate("MEMORYHUB_THROTTLE_SEARCH", "300/min") is None
    assert env.env_rate("MEMORYHUB_THROTTLE_UNSET_HERE", "60/hour") == "60/hour"


@pytest.mark.parametrize("raw", ["fast", "30", "30/fortnight", "-1/min", "0/min", "1.5/min"])
def test_a_malformed_rate_is_improperly_configured(monkeypatch, raw):
    monkeypatch.setenv("MEMORYHUB_THROTTLE_CHAT", raw)

    with pytest.raises(ImproperlyConfigured):
        env.env_rate("MEMORYHUB_THROTTLE_CHAT", "60/min")


def test_the_shipped_settings_throttle_the_three_scopes():
    from memoryhub import settings as shipped

    rates = shipped.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert isinstance(rates, dict)
    assert set(rates) == {"chat", "search", "import"}
    assert all(rate for rate in rates.values())
    classes = shipped.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]
    assert classes == ["memoryhub.throttles.ScopedRateThrottle"]


# --- bounded work per request ----------------------------------------------------------------


def test_a_request_body_over_the_byte_limit_is_413_and_stores_nothing(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4096
    payload = _import_payload()
    payload["sessions"][0]["messages"][0]["content"] = "x" * 5000

    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert HistoryImport.objects.count() == 0


def test_an_import_message_over_the_message_limit_is_413(api, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 50
    payload = _import_payload()
    payload["sessions"][0]["messages"][0]["content"] = "가" * 51

    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 413
    assert HistoryImport.objects.count() == 0


def test_a_context_message_over_the_message_limit_is_413(api, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 50

    response = api.post("/api/v1/context/", {"message": "a" * 51}, format="json")

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


@pytest.mark.parametrize(
    "body",
    [
        {"query": "q" * 2001},
        {"query": "violin", "k": 101},
        {"query": "violin", "k": 0},
        {"query": "violin", "kinds": ["message"] * 5},
    ],
)
def test_search_work_is_bounded(api, body):
    response = api.post("/api/v1/search/", body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


@pytest.mark.parametrize("page_size", ["201", "0", "many"])
def test_memory_pages_are_bounded(api, page_size):
    response = api.get(f"/api/v1/memories/?page_size={page_size}")

    assert response.status_code == 400
    assert "page_size" in response.json()["error"]["fields"]


def test_a_model_that_keeps_asking_for_tools_is_cut_off(settings):
    from memoryhub import llm
    from tests.anthropic_fake import FakeAnthropic, streamed

    settings.MEMORYHUB_MAX_TOOL_CALLS = 2
    runs: list[dict[str, Any]] = []
    tool = llm.Tool("memory_search", "search", {"type": "object"}, lambda i: runs.append(i) or "x")
    asks = [
        streamed(text=f"step {n}", tool_use={"id": f"toolu_{n}", "name": "memory_search",
                                             "input": {"query": str(n)}})
        for n in range(10)
    ]  # fmt: skip
    fake = FakeAnthropic(asks)
    request = llm.ReplyRequest(system="s", turns=[llm.Turn("user", "hi")], tools=[tool])

    reply = "".join(llm.AnthropicProvider(client=fake.client()).stream_reply(request))

    assert len(runs) == 2
    assert len(fake.requests) == 2 + 2
    assert "step 3" in reply and "step 4" not in reply


def test_the_chat_page_shares_the_chat_rate_and_says_when_to_try_again(client, api, user, settings):
    _rates(settings, chat="2/min")
    client.force_login(user)
    session_id = _session(api)
    url = f"/sessions/{session_id}/messages/"

    api.post(f"/api/v1/sessions/{session_id}/messages/", {"content": "API에서"}, format="json")
    page = client.post(url, {"content": "페이지에서"}, HTTP_HX_REQUEST="true")
    throttled = client.post(url, {"content": "세 번째"}, HTTP_HX_REQUEST="true")
    plain = client.post(url, {"content": "네 번째"})

    assert page.status_code == 200 and "Retry-After" not in page
    assert int(throttled["Retry-After"]) > 0
    assert "Too many messages" in throttled.content.decode()
    assert plain.status_code == 429 and int(plain["Retry-After"]) > 0
    assert not Message.objects.filter(content__in=["세 번째", "네 번째"]).exists()
