"""Property-based API testing with schemathesis against `/api/schema/`, in-process (WSGI).

Every operation of the schema is called with generated valid and invalid input by a user who
holds data; no response may be a 5xx, every 2xx must match the schema, and every 4xx must be
in the error shape of docs/API.md. Bounded to a few examples per operation (the suite runs on two
slow cores); raise `MEMORYHUB_SCHEMATHESIS_EXAMPLES` locally for a deeper run.
"""

from __future__ import annotations

import json
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from conversations.services import chat
from memories.models import MemoryType
from memories.services import revision
from memoryhub.wsgi import application

EXAMPLES = int(os.environ.get("MEMORYHUB_SCHEMATHESIS_EXAMPLES", "12"))

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

# Ids of the data the current test user holds; path parameters are drawn from them half the
# time, so generated calls reach real rows, not only 404s.
_known_ids: dict[str, list[str]] = {}


@schema.hook
def map_path_parameters(context, path_parameters):
    if not path_parameters:
        return path_parameters
    mapped = dict(path_parameters)
    for name, value in path_parameters.items():
        ids = _known_ids.get(name)
        if ids and isinstance(value, str) and len(value) % 2 == 0:
            mapped[name] = ids[len(value) % len(ids)]
    return mapped


def error_shape(ctx, response, case):
    """Every 4xx carries `{"error": {"code", "message", "fields"}}` (docs/API.md "Errors")."""
    if not 400 <= response.status_code < 500:
        return None
    body = json.loads(response.content)
    assert set(body) == {"error"}, f"not the error shape: {body!r}"
    error = body["error"]
    assert set(error) == {"code", "message", "fields"}, f"not the error shape: {body!r}"
    assert isinstance(error["code"], str) and error["code"], body
    assert isinstance(error["message"], str), body
    assert isinstance(error["fields"], dict), body
    if response.status_code == 429:
        assert "Retry-After" in response.headers
    return True


@pytest.fixture
def same_database_connection():
    """Django's WSGI handler closes the connection after each request; the test transaction
    must survive the calls (Django's test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def user_with_data(db, user, same_database_connection):
    session = chat.chat_session_create(user=user)
    exchange = chat.chat_exchange(
        session=session, content="나는 아침에 커피를 좋아해. I use Django."
    )
    memory = revision.memory_create(
        user=user, type=MemoryType.PREFERENCE, content="Prefers green tea in the afternoon."
    )
    _known_ids.clear()
    _known_ids.update(
        session_id=[str(session.pk)],
        memory_id=[str(memory.pk)],
        message_id=[str(exchange.user_message.pk)],
        import_id=[],
    )
    token, _ = Token.objects.get_or_create(user=user)
    yield {"Authorization": f"Token {token.key}"}
    _known_ids.clear()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)
@pytest.mark.slow
def test_api_never_fails_with_5xx_and_errors_are_in_the_documented_shape(case, user_with_data):
    response = case.call(headers=user_with_data)

    case.validate_response(
        response, checks=[not_a_server_error, response_schema_conformance, error_shape]
    )
