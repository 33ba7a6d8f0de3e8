import json
import logging
import re
from types import SimpleNamespace

import pytest

from memoryhub import logs as mh_logging
from memoryhub.logs import JsonFormatter, RequestContextFilter, request_id_var

pytestmark = pytest.mark.django_db


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []
        self.addFilter(RequestContextFilter())

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def captured():
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler.records
    root.removeHandler(handler)


def test_every_response_carries_a_new_request_id(client):
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]

    assert re.fullmatch(r"[0-9a-f]{32}", first)
    assert first != second


def test_a_sane_incoming_request_id_is_kept(client):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="lb-7f3a.19:x_2")

    assert response["X-Request-ID"] == "lb-7f3a.19:x_2"


@pytest.mark.parametrize(
    "incoming",
    ["", "a" * 200, "has space", "line\nbreak", '"quoted"', "-leading-dash", "é"],
)
def test_an_insane_incoming_request_id_is_replaced(client, incoming):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=incoming)

    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


def test_api_errors_carry_the_request_id_too(client):
    response = client.get("/api/v1/memories/", HTTP_X_REQUEST_ID="req-401")

    assert response.status_code == 401
    assert response["X-Request-ID"] == "req-401"


def test_a_log_line_inside_a_view_has_the_request_id_and_the_user_id(
    api, user, captured, monkeypatch
):
    from conversations.api import views

    original = views.search.search

    def logging_search(**kwargs):
        logging.getLogger("memoryhub.test").warning("searching")
        return original(**kwargs)

    monkeypatch.setattr(views.search, "search", logging_search)

    api.post("/api/v1/search/", {"query": "q"}, format="json", HTTP_X_REQUEST_ID="req-in-view")

    line = next(r for r in captured if r.getMessage() == "searching")
    assert line.request_id == "req-in-view"
    assert line.user_id == str(user.pk)


def test_the_json_formatter_writes_one_object_per_line_with_the_context_fields():
    record = logging.LogRecord(
        "memoryhub.x", logging.ERROR, __file__, 1, "세상 %s", ("\n¡hola!",), None
    )
    token = request_id_var.set("req-json")
    try:
        RequestContextFilter().filter(record)
    finally:
        request_id_var.reset(token)

    line = JsonFormatter().format(record)

    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "ERROR"
    assert entry["logger"] == "memoryhub.x"
    assert entry["message"] == "세상 \n¡hola!"
    assert entry["request_id"] == "req-json"
    assert entry["user_id"] is None
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", entry["time"])


def test_the_json_formatter_includes_the_exception():
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())

    entry = json.loads(JsonFormatter().format(record))

    assert "ValueError: boom" in entry["exception"]


def test_a_task_enqueued_during_a_request_carries_its_id_in_the_headers():
    headers: dict[str, str] = {}
    token = request_id_var.set("req-task")
    try:
        mh_logging._task_carries_request_id(headers=headers)
    finally:
        request_id_var.reset(token)

    assert headers == {mh_logging.REQUEST_ID_HEADER: "req-task"}


def test_a_task_outside_a_request_carries_no_id():
    headers: dict[str, str] = {}

    mh_logging._task_carries_request_id(headers=headers)

    assert headers == {}


def test_a_running_task_logs_with_the_id_it_carries_and_forgets_it_after():
    task = SimpleNamespace(request=SimpleNamespace(**{mh_logging.REQUEST_ID_HEADER: "req-task"}))

    mh_logging._task_adopts_request_id(task=task)
    assert request_id_var.get() == "req-task"
    mh_logging._task_forgets_request_id()
    assert request_id_var.get() is None


def test_a_task_ignores_an_insane_carried_id():
    task = SimpleNamespace(request=SimpleNamespace(**{mh_logging.REQUEST_ID_HEADER: "x\ny"}))

    mh_logging._task_adopts_request_id(task=task)

    assert request_id_var.get() is None


def test_djangos_own_4xx_log_line_carries_the_request_id(client, captured):
    client.get("/api/v1/memories/", HTTP_X_REQUEST_ID="req-unauthorized")

    line = next(r for r in captured if r.name == "django.request")
    assert line.getMessage().startswith("Unauthorized")
    assert line.request_id == "req-unauthorized"
    assert request_id_var.get() is None
