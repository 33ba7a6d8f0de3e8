"""`/mcp/`: the MCP server over Streamable HTTP, served by the same Django app and port.

How it runs, and why this way. gunicorn serves the WSGI app with gthread workers (several
processes, threads in each); the official `mcp` SDK is an ASGI app whose session manager
needs a running task group. The options were

- mounting the SDK's Starlette app through an ASGI-to-WSGI bridge (`a2wsgi`): one event loop
  thread per process runs the session manager for the process's lifetime. It must be
  started after gunicorn forks and stopped at exit, and every ORM call from a tool then
  runs on that loop's thread pool, outside Django's request cycle (connections opened there
  are never closed by `request_finished`), or all of them funnel through asgiref's single
  shared thread;
- this view, which drives the SDK for one request at a time: it turns the Django request
  into an ASGI scope, and under `async_to_sync` builds the server, enters the session
  manager's lifespan (`run()`: its task group), serves the one request and leaves the
  lifespan again before the view returns.

The view is the robust one here: nothing lives between requests, so there is nothing to
start per worker process, to break on fork or to leak on shutdown; a worker stopping
mid-request is a request stopping. Tools reach the ORM through `sync_to_async(
thread_sensitive=True)`, which inside `async_to_sync` runs on this very request thread, so
database connections are Django's as for any view and gthread's threads are the
concurrency. Building the server per request costs about 6 ms here; a whole `ping` round
trip under gunicorn is about 17 ms (median, on a loaded 2-core machine).

The SDK runs stateless (`stateless_http=True`) with JSON responses: with several worker
processes a session kept in one process's memory would be unknown to the next request's
process, and a held-open SSE stream would pin a gthread thread. So there is no
`Mcp-Session-Id`, GET (the server-to-client stream) and DELETE (ending a session) answer
405, which the spec allows and the SDK's client expects. Both protocol eras work: clients
of the 2026-07-28 revision send self-contained requests, older ones (2024-11-05 through
2025-11-25) the `initialize` handshake, which the stateless transport answers on the POST.

Authentication is the SDK's own bearer middleware with `AgentTokenVerifier`, so a missing or
unknown token gets the SDK's 401 and `WWW-Authenticate: Bearer error="invalid_token"`.
Django has already checked the Host against ALLOWED_HOSTS; the SDK's DNS rebinding check
still refuses a browser Origin other than this site's (or a CSRF-trusted one).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from mcp.server.transport_security import TransportSecuritySettings

from account.mcp.server import Caller, mcp_server_build

MCP_PATH = "/mcp/"
# Response headers the web server sets itself from the body it sends.
_HOP_HEADERS = frozenset({"content-length", "connection", "transfer-encoding"})


@dataclass
class _Reply:
    status: int = 500
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytearray = field(default_factory=bytearray)
    started: bool = False


def _asgi_scope(request: HttpRequest) -> dict[str, Any]:
    meta = request.META
    port = str(meta.get("SERVER_PORT", ""))
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        # The SDK's app serves one route; `/mcp` and `/mcp/` both reach it.
        "path": MCP_PATH,
        "raw_path": MCP_PATH.encode(),
        "root_path": "",
        "query_string": meta.get("QUERY_STRING", "").encode("latin-1"),
        "headers": [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in request.headers.items()
        ],
        "client": (meta.get("REMOTE_ADDR", ""), 0),
        "server": (meta.get("SERVER_NAME", ""), int(port) if port.isdigit() else 0),
    }


def _transport_security(request: HttpRequest) -> TransportSecuritySettings:
    origin = f"{request.scheme}://{request.get_host()}"
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        # Django validated the Host against ALLOWED_HOSTS before this view ran.
        allowed_hosts=[request.headers.get("Host", "")],
        allowed_origins=[origin, *settings.CSRF_TRUSTED_ORIGINS],
    )


async def _serve(
    *, scope: dict[str, Any], body: bytes, site_url: str, security: TransportSecuritySettings
) -> _Reply:
    """Serve one request with a fresh server and session manager (see the module doc)."""
    caller = Caller()
    server = mcp_server_build(caller=caller, site_url=site_url)
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=security,
    )
    reply = _Reply()
    done = anyio.Event()
    body_sent = False

    async def receive() -> dict[str, Any]:
        nonlocal body_sent
        if not body_sent:
            body_sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        # As a real server: the client "disconnects" only once the response is out.
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            reply.started = True
            reply.status = int(message["status"])
            reply.headers = [
                (bytes(name).decode("latin-1"), bytes(value).decode("latin-1"))
                for name, value in message.get("headers", [])
            ]
        elif message["type"] == "http.response.body":
            reply.body.extend(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    async with app.router.lifespan_context(app):
        await app(scope, receive, send)
    return reply


@csrf_exempt
def mcp_endpoint(request: HttpRequest) -> HttpResponse:
    """MCP over Streamable HTTP (stateless, JSON responses): POST only."""
    if request.method != "POST":
        refused = JsonResponse(
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32000, "message": "Method Not Allowed: POST only"},
            },
            status=405,
        )
        refused["Allow"] = "POST"
        return refused
    reply = async_to_sync(_serve)(
        scope=_asgi_scope(request),
        body=request.body,
        site_url=request.build_absolute_uri("/"),
        security=_transport_security(request),
    )
    if not reply.started:
        raise RuntimeError("the MCP server sent no response")
    response = HttpResponse(bytes(reply.body), status=reply.status)
    for name, value in reply.headers:
        if name.lower() not in _HOP_HEADERS:
            response[name] = value
    return response
