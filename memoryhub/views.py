"""Project-level error pages: JSON under /api/, HTML elsewhere."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext
from django.views import defaults

from memoryhub.api import (
    DATABASE_RETRY_AFTER_SECONDS,
    DATABASE_UNAVAILABLE,
    database_unavailable_body,
)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "fields": {}}}, status=status)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error(404, "not_found", "Not found.")
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error(400, "bad_request", "Bad request.")
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this inside its `except` block, so the exception is at hand.
    if isinstance(sys.exc_info()[1], DATABASE_UNAVAILABLE):
        return _database_unavailable(request)
    if _is_api(request):
        return _error(500, "server_error", "Internal server error.")
    return defaults.server_error(request)


def _database_unavailable(request: HttpRequest) -> HttpResponse:
    """503, not 500: the database is down or restarting; the same request will work later."""
    headers = {"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)}
    if _is_api(request):
        return JsonResponse(database_unavailable_body(), status=503, headers=headers)
    # No template: rendering one may need the database (sessions, context processors).
    title = escape(gettext("memoryhub is unavailable"))
    body = escape(
        gettext("The database cannot be reached right now. Please try again in a moment.")
    )
    return HttpResponse(
        f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{body}</p>",
        status=503,
        headers=headers,
    )
