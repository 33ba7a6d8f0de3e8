"""API plumbing shared by every app: the error shape and input helpers.

Every error is `{"error": {"code", "message", "fields"}}` (docs/API.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.validators import ProhibitNullCharactersValidator
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.validators import ProhibitSurrogateCharactersValidator
from rest_framework.views import exception_handler as drf_exception_handler

from memoryhub.budget import TokenBudgetExhausted
from memoryhub.validation import InvalidText, clean_message_text, unstorable


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request is too large."
    default_code = "too_large"


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state."
    default_code = "conflict"


def _flatten(detail: Any) -> Any:
    if isinstance(detail, list):
        return [
            str(item) if not isinstance(item, dict | list) else _flatten(item) for item in detail
        ]
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    return str(detail)


def error_response(
    status_code: int,
    code: str,
    message: str,
    fields: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body = {"error": {"code": code, "message": message, "fields": fields or {}}}
    return Response(body, status=status_code, headers=headers)


# The database is unreachable (down, restarting, connection lost): the client may retry.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
DATABASE_RETRY_AFTER_SECONDS = 5


def database_unavailable_body() -> dict[str, Any]:
    return {
        "error": {
            "code": "database_unavailable",
            "message": "The database is unavailable; try again shortly.",
            "fields": {},
        }
    }


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DATABASE_UNAVAILABLE):
        return Response(
            database_unavailable_body(),
            status=503,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, Http404):
        return error_response(404, "not_found", "Not found.")
    if isinstance(exc, PermissionDenied):
        return error_response(403, "permission_denied", "Permission denied.")
    if isinstance(exc, RequestDataTooBig):
        return error_response(413, "too_large", "The request body is too large.")
    if isinstance(exc, TokenBudgetExhausted):
        return error_response(
            429,
            "token_budget_exhausted",
            str(exc),
            headers={"Retry-After": str(exc.retry_after_seconds)},
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        fields = _flatten(detail) if isinstance(detail, dict) else {}
        too_large = any(
            getattr(item, "code", None) == "too_large"
            for items in (detail.values() if isinstance(detail, dict) else [detail])
            for item in (items if isinstance(items, list) else [items])
        )
        non_field = fields.pop("non_field_errors", None) if isinstance(fields, dict) else None
        message = "Invalid input."
        if non_field:
            message = str(non_field[0] if isinstance(non_field, list) else non_field)
        elif not isinstance(detail, dict):
            message = str(_flatten(detail)[0] if isinstance(detail, list) else detail)
        status_code = 413 if too_large else 400
        return error_response(status_code, "too_large" if too_large else "invalid", message, fields)
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        headers = {
            k: v for k, v in response.headers.items() if k in ("Retry-After", "WWW-Authenticate")
        }
        return error_response(
            response.status_code, str(code), str(_flatten(exc.detail)), headers=headers
        )
    return response


def request_user(request: Request) -> AbstractBaseUser:
    """The authenticated user of an API request (every view requires authentication)."""
    user = request.user
    if not isinstance(user, AbstractBaseUser):
        raise exceptions.NotAuthenticated()
    return user


# DRF's CharField validators that look at each character in Python; `unstorable` does the
# same check at C speed.
PER_CHARACTER = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)


def storable_text(value: str) -> None:
    """A validator: `value` can be stored (no NUL, no lone surrogates)."""
    if (problem := unstorable(value)) is not None:
        raise serializers.ValidationError(str(problem), code="invalid")


class MessageTextField(serializers.CharField):
    """Message text: over the size limit is a 413, bad Unicode or NUL bytes a 400."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("allow_blank", False)
        super().__init__(**kwargs)
        # `clean_message_text` refuses NUL and lone surrogates already; DRF's validators for
        # them look at the text one character at a time (a fifth of an import's validation).
        self.validators = [v for v in self.validators if not isinstance(v, PER_CHARACTER)]

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise serializers.ValidationError("Must be a string.", code="invalid")
        try:
            return clean_message_text(data)
        except InvalidText as exc:
            raise serializers.ValidationError(
                f"Content {exc}.", code="too_large" if exc.too_large else "invalid"
            ) from exc


class MessageTextFieldSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """Publishes the size limit MessageTextField enforces (read from the settings when the
    schema is built, as the field reads them when it validates)."""

    target_class = MessageTextField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer_field(
            self.target, direction, bypass_extensions=True
        )
        schema["minLength"] = 1  # blank (or only whitespace) is refused
        schema["maxLength"] = settings.MEMORYHUB_MAX_MESSAGE_CHARS
        return schema


class IsoDateTimeField(serializers.DateTimeField):
    """A time written as Python's `isoformat()` writes it (`+00:00`, not DRF's `Z`), in the
    zone the value has, or with `local=True` in the server's (TIME_ZONE): the forms the API's
    bodies had when they were built by hand, kept exact."""

    def __init__(self, *, local: bool = False, **kwargs: Any) -> None:
        self.local = local
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> Any:
        if value is None or value == "":
            return None
        if not isinstance(value, datetime):
            return str(value)
        return (timezone.localtime(value) if self.local else value).isoformat()


class RoundedFloatField(serializers.FloatField):
    """A float rounded to `places` decimals on the way out (scores and weights)."""

    def __init__(self, *, places: int, **kwargs: Any) -> None:
        self.places = places
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> Any:
        return round(float(value), self.places)
