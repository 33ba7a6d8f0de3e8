"""The "Connected agents" pages: connect an agent (its token shown once, with configuration
to paste into Claude Desktop, Claude Code or Cursor), list, pause, trust and revoke agents,
and see what each one read and wrote.

Every action is a plain form post that redirects back, so the pages work without JavaScript;
a small script (static/js/agents.js) only adds the copy buttons.
"""

from __future__ import annotations

import json
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from account.forms import AgentCreateForm
from memories.models import Agent
from memories.selectors.agents import (
    agent_activity,
    agent_get_for_user,
    agent_memories_written,
    agents_of,
)
from memories.selectors.browse import memory_ids_existing_for_user
from memories.services.agents import (
    AgentError,
    agent_create,
    agent_pause,
    agent_revoke,
    agent_update,
)

ACTIVITY_PAGE_SIZE = 50
WRITTEN_SHOWN = 50
TOKEN_PLACEHOLDER = "<token>"
MCP_PATH = "/mcp/"


def _user(request: HttpRequest) -> AbstractBaseUser:
    return cast(AbstractBaseUser, request.user)


def _agent(request: HttpRequest, agent_id: int) -> Agent:
    agent = agent_get_for_user(user=_user(request), agent_id=agent_id)
    if agent is None:
        raise Http404("No such agent.")
    return agent


def agent_configs(*, mcp_url: str, token: str) -> dict[str, str]:
    """Configuration to paste into each client for this server and token."""
    header = f"Bearer {token}"
    # mcp-remote bridges Claude Desktop's local servers to an HTTP one. The header goes
    # through an environment variable: a space inside an argument is split on some systems.
    bridge = ["-y", "mcp-remote", mcp_url, "--header", "Authorization:${AUTH_HEADER}"]
    if mcp_url.startswith("http://"):
        bridge.append("--allow-http")  # it refuses plain HTTP to anything but localhost
    desktop = {
        "mcpServers": {
            "memoryhub": {"command": "npx", "args": bridge, "env": {"AUTH_HEADER": header}}
        }
    }
    cursor = {"mcpServers": {"memoryhub": {"url": mcp_url, "headers": {"Authorization": header}}}}
    return {
        "claude_desktop": json.dumps(desktop, indent=2),
        "claude_code": f"claude mcp add --transport http memoryhub {mcp_url} "
        f'--header "Authorization: {header}"',
        "cursor": json.dumps(cursor, indent=2),
    }


def _page(
    request: HttpRequest, *, form: AgentCreateForm, created: tuple[Agent, str] | None, status: int
) -> HttpResponse:
    mcp_url = request.build_absolute_uri(MCP_PATH)
    token = created[1] if created else TOKEN_PLACEHOLDER
    context: dict[str, Any] = {
        "agents": agents_of(user=_user(request)),
        "form": form,
        "created": created[0] if created else None,
        "token": created[1] if created else "",
        "mcp_url": mcp_url,
        "configs": agent_configs(mcp_url=mcp_url, token=token),
    }
    return render(request, "account/agent_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def agent_list(request: HttpRequest) -> HttpResponse:
    """GET: the user's agents and the form to connect one. POST: connect one; the page then
    shows its token this once (never stored, so never in a redirect or the session)."""
    if request.method != "POST":
        return _page(request, form=AgentCreateForm(), created=None, status=200)
    form = AgentCreateForm(request.POST)
    if not form.is_valid():
        return _page(request, form=form, created=None, status=400)
    try:
        created = agent_create(
            user=_user(request), name=form.cleaned_data["name"], scopes=form.scopes()
        )
    except AgentError:
        form.add_error("name", _("Give the agent a name."))
        return _page(request, form=form, created=None, status=400)
    return _page(request, form=AgentCreateForm(), created=created, status=200)


_ACTIONS = {"pause", "resume", "trust", "distrust", "allow_sensitive", "deny_sensitive", "revoke"}


@login_required
@require_POST
def agent_change(request: HttpRequest, agent_id: int) -> HttpResponse:
    """Pause, resume, trust, stop trusting, allow or deny sensitive reads, or revoke."""
    agent = _agent(request, agent_id)
    action = request.POST.get("action", "")
    back = "account:agent" if request.POST.get("back") == "detail" else "account:agents"
    target = redirect(back, agent_id=agent.pk) if back == "account:agent" else redirect(back)
    if action not in _ACTIONS:
        messages.error(request, _("Unknown action."))
        return target
    if agent.revoked_at is not None:
        messages.error(request, _("This agent was revoked; connect a new one instead."))
        return target
    if action == "revoke":
        agent_revoke(agent=agent)
        messages.success(request, _("Revoked: its token no longer works."))
    elif action in ("pause", "resume"):
        agent_pause(agent=agent, paused=action == "pause")
        messages.success(
            request,
            _("Paused: it can read and write nothing until you resume it.")
            if action == "pause"
            else _("Resumed."),
        )
    elif action in ("trust", "distrust"):
        agent_update(agent=agent, trusted=action == "trust")
        messages.success(
            request,
            _("Trusted: what it adds is used without waiting for your approval.")
            if action == "trust"
            else _("What it adds waits for your approval again."),
        )
    else:
        agent_update(agent=agent, may_read_sensitive=action == "allow_sensitive")
        messages.success(
            request,
            _("It may now read memories marked highly sensitive.")
            if action == "allow_sensitive"
            else _("It no longer reads memories marked highly sensitive."),
        )
    return target


@login_required
@require_GET
def agent_detail(request: HttpRequest, agent_id: int) -> HttpResponse:
    """What the agent read and wrote (from the access log), with pause and revoke."""
    user = _user(request)
    agent = _agent(request, agent_id)
    page = Paginator(agent_activity(agent=agent), ACTIVITY_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    ids = [str(i) for event in page for i in event.detail.get("ids", [])]
    context = {
        "agent": agent,
        "page": page,
        "existing": memory_ids_existing_for_user(user=user, ids=ids),
        "written": agent_memories_written(agent=agent)[:WRITTEN_SHOWN],
    }
    return render(request, "account/agent_detail.html", context)
