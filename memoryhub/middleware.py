"""Project middleware: request ids and the Content-Security-Policy header."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from memoryhub.logs import is_sane_request_id, request_id_var, request_var

REQUEST_ID_HEADER = "X-Request-ID"


class RequestIdMiddleware:
    """Gives every request an id: a sane incoming X-Request-ID, or a new one.

    The id is in `request.request_id`, in every log line written while serving the request
    (until `request_finished`), in the headers of Celery tasks enqueued by it, and in the
    response's X-Request-ID.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get(REQUEST_ID_HEADER)
        request_id = incoming if is_sane_request_id(incoming) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        # Cleared on request_finished, not here: Django logs a 4xx after the middleware
        # returned, and a streamed reply (SSE) is sent after that.
        request_id_var.set(request_id)
        request_var.set(request)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        return response


@receiver(request_finished, dispatch_uid="memoryhub.middleware.forget_request")
def _forget_request(**_: Any) -> None:
    request_id_var.set(None)
    request_var.set(None)


class ContentSecurityPolicyMiddleware:
    """Sets `settings.MEMORYHUB_CSP` as the Content-Security-Policy of every response.

    The pages load scripts and styles only from our own static files (no inline code), so a
    strict policy holds for the app, htmx with its SSE extension, and Django admin.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = "; ".join(
            f"{directive} {' '.join(sources)}".strip()
            for directive, sources in settings.MEMORYHUB_CSP.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response
