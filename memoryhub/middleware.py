"""Project middleware: request ids, the Content-Security-Policy header, and where a button
pressed after the session ended leads once the person has logged in again."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme

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


_REDIRECTS = frozenset({301, 302, 303, 307, 308})


class LoginRedirectMiddleware:
    """A button pressed after the session ended leads back to the page it was on.

    `login_required` sends a POST from a logged-out browser to the login page with the
    button's own address as `next` ("/memories/7/wrong/"); after logging in the browser GETs
    that address, which answers only POST: an empty 405 page. Here such a redirect keeps as
    `next` the page the person was on (htmx's HX-Current-URL, else the Referer, when it is this
    site), or none; and from htmx it is an HX-Redirect, so the login page replaces the whole
    page instead of the fragment the button targeted. The action is not replayed: the person
    presses the button again on the page they come back to.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method in ("GET", "HEAD") or response.status_code not in _REDIRECTS:
            return response
        login = resolve_url(settings.LOGIN_URL)
        location = urlsplit(response.get("Location", ""))
        if location.path != login or location.netloc not in ("", request.get_host()):
            return response
        query = QueryDict(location.query, mutable=True)
        query.pop("next", None)
        back = _page_before(request, login=login)
        if back:
            query["next"] = back
        target = urlunsplit(("", "", login, query.urlencode(safe="/"), ""))
        if request.headers.get("HX-Request") == "true":
            redirect = HttpResponse()
            redirect["HX-Redirect"] = target
            return redirect
        response["Location"] = target
        return response


def _page_before(request: HttpRequest, *, login: str) -> str | None:
    """The path (and query) of the page this request was sent from, if it is this site's and
    not the login page; else None."""
    page = request.headers.get("HX-Current-URL") or request.headers.get("Referer") or ""
    if not url_has_allowed_host_and_scheme(
        page, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    parts = urlsplit(page)
    if not parts.path.startswith("/") or parts.path == login:
        return None
    return urlunsplit(("", "", parts.path, parts.query, ""))
