"""The MCP server's tools and resources for one authenticated agent.

`mcp_server_build` makes a fresh `MCPServer` bound to one `Caller` (the agent the request's
bearer token named) for every HTTP request: nothing in it is shared between requests or
threads, and the limits in its input schemas follow the settings in force. Each tool is
thin: it hands its arguments to one selector or service of `memories` and turns an
`AgentError` into a tool error the model can read. Every call (refused ones too, bar those
over the rate limit) is recorded with `agent_call_record`.

The ORM is only touched inside `_serve_call`, run through `sync_to_async` with
`thread_sensitive=True`: under `account.mcp.views` that is the web server's request
thread itself, so Django opens and closes the database connection as for any request.
"""

# No `from __future__ import annotations`: the SDK reads the tools' signatures at run time,
# and their limits (`le=cap`) are local to `mcp_server_build`.
import json
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from conversations.services.forgetting import agent_memory_forget
from memories.models import Agent, MemoryType
from memories.selectors.agents import (
    LISTABLE_STATUSES,
    MAX_QUERY_CHARS,
    AgentError,
    AgentMemory,
    agent_authenticate,
    agent_memory_get,
    agent_memory_list,
    agent_memory_search,
)
from memories.serializers import DeletionReceiptSerializer
from memories.services.agents import (
    agent_call_record,
    agent_memory_add,
    agent_rate_limit,
    agent_require,
)

SERVER_NAME = "memoryhub"
INSTRUCTIONS = (
    "The user's long-term memory, kept by memoryhub. Search it before answering questions "
    "about the user; add a memory only for something the user would want remembered. What "
    "you add waits for the user's approval unless the user trusts this agent."
)
MEMORY_URI = "memory://{memory_id}"
MEMORY_LIST_URI = "memory://memories"

T = TypeVar("T")


@dataclass
class Caller:
    """The agent a request authenticated as; set by the token check before any tool runs."""

    agent: Agent | None = None


class AgentTokenVerifier:
    """The SDK's `TokenVerifier` for agent tokens: a user's own API key, a revoked token or
    anything else unknown is no token at all (the SDK answers 401 with `WWW-Authenticate:
    Bearer error="invalid_token"`)."""

    def __init__(self, caller: Caller) -> None:
        self.caller = caller

    async def verify_token(self, token: str) -> AccessToken | None:
        agent = await sync_to_async(agent_authenticate, thread_sensitive=True)(token=token)
        if agent is None:
            return None
        self.caller.agent = agent
        # The raw token stays out of the SDK's objects; the prefix is what the user sees too.
        return AccessToken(
            token=agent.token_prefix, client_id=f"agent-{agent.pk}", scopes=list(agent.scopes)
        )


class CallRefused(Exception):
    """A call the agent may not make now; the message is for the model (no user text)."""


class MemoryRecord(BaseModel):
    id: int
    content: str
    type: str
    status: str = Field(
        description="'active'; 'pending' while it waits for the user's approval; 'quarantined' "
        "when the write policy read it as instructions (then no agent reads it)"
    )
    created_at: str
    updated_at: str
    score: float | None = Field(default=None, description="Search relevance; null in lists")


class MemoryResults(BaseModel):
    memories: list[MemoryRecord]


class DeletionReceiptRecord(BaseModel):
    id: str
    kind: str
    memory_id: str | None
    deleted_at: str
    removed: dict[str, int]
    copies: list[dict[str, str | int]]  # kind, session_id, date and count


def _record(memory: AgentMemory) -> MemoryRecord:
    return MemoryRecord.model_validate(memory.as_dict())


def _results(memories: list[AgentMemory]) -> tuple[MemoryResults, list[int]]:
    return MemoryResults(memories=[_record(m) for m in memories]), [m.id for m in memories]


def _serve_call(caller: Caller, tool: str, action: Callable[[Agent], tuple[T, list[int]]]) -> T:
    """Run one call of `tool` for the caller's agent: the rate limit, the agent's standing
    (paused), then `action`; recorded in the access log with the ids it returned, or none
    when refused. A call over the rate limit is not recorded: the limit is what keeps an
    agent in a loop from filling the user's access log."""
    agent = caller.agent
    if agent is None:  # the token check runs before any tool; never reached through /mcp/
        raise CallRefused("Not authenticated.")
    wait = agent_rate_limit(agent=agent)
    if wait is not None:
        raise CallRefused(
            f"Rate limit reached for this agent (429). Retry-After: {math.ceil(wait)} seconds."
        )
    try:
        agent_require(agent=agent)  # a paused agent: every call refused, nothing read
        result, ids = action(agent)
    except AgentError as exc:
        agent_call_record(agent=agent, tool=tool, memory_ids=[], outcome=exc.code)
        raise CallRefused(f"{exc.code}: {exc.message}") from exc
    agent_call_record(agent=agent, tool=tool, memory_ids=ids)
    return result


async def _call_tool(
    caller: Caller, tool: str, action: Callable[[Agent], tuple[T, list[int]]]
) -> T:
    try:
        return await sync_to_async(_serve_call, thread_sensitive=True)(caller, tool, action)
    except CallRefused as exc:
        raise ToolError(str(exc)) from exc


async def _read_resource(
    caller: Caller, tool: str, action: Callable[[Agent], tuple[T, list[int]]]
) -> T:
    try:
        return await sync_to_async(_serve_call, thread_sensitive=True)(caller, tool, action)
    except CallRefused as exc:
        raise ResourceError(str(exc)) from exc


def _memory_json(memory: AgentMemory) -> str:
    return json.dumps(_record(memory).model_dump(), ensure_ascii=False)


def _one_of(values: Collection[str], description: str) -> Any:
    """An optional string argument whose schema lists `values`; the service checks it (and
    names the values in its error), so a client that ignores the schema learns them too."""

    def schema(field: dict[str, Any]) -> None:
        field.pop("anyOf", None)
        field["anyOf"] = [{"type": "string", "enum": list(values)}, {"type": "null"}]

    return Field(default=None, description=description, json_schema_extra=schema)


def mcp_server_build(*, caller: Caller, site_url: str) -> MCPServer[Any]:
    """A server whose tools and resources act for `caller.agent`, which its token check
    (an `AgentTokenVerifier` for `caller`) sets. `site_url` is this memoryhub's own address,
    the issuer of agent tokens."""
    cap = settings.MEMORYHUB_AGENT_MAX_RESULTS
    max_content = settings.MEMORYHUB_MAX_MESSAGE_CHARS
    server: MCPServer[Any] = MCPServer(
        SERVER_NAME,
        instructions=INSTRUCTIONS,
        subscriptions=False,
        log_level="WARNING",
        # Tokens come from the user's "Connected agents" page, not from an OAuth flow: no
        # resource_server_url, so no OAuth metadata routes are served or advertised.
        auth=AuthSettings(issuer_url=site_url, resource_server_url=None),  # type: ignore[arg-type]
        token_verifier=AgentTokenVerifier(caller),
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(
        description=(
            "Search the user's memories for what bears on `query` (Korean or English). "
            f"Returns up to `k` (at most {cap}) memories, best first, each with id, content, "
            "type, status, created_at, updated_at and a relevance score."
        ),
        annotations=read_only,
    )
    async def search_memory(
        query: Annotated[
            str,
            Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for"),
        ],
        k: Annotated[int, Field(ge=1, le=cap, description="How many memories at most")] = min(
            10, cap
        ),
    ) -> MemoryResults:
        return await _call_tool(
            caller,
            "search_memory",
            lambda agent: _results(agent_memory_search(agent=agent, query=query, k=k)),
        )

    @server.tool(
        description=(
            "List the user's memories this agent may read, most recently changed first, "
            f"at most {cap}. Filter by `type`, by `status` ('active', or 'pending' for this "
            "agent's own writes waiting for approval) and by words in `q`. Returns each "
            "memory's id, content, type, status, created_at and updated_at."
        ),
        annotations=read_only,
    )
    async def list_memories(
        type: Annotated[str | None, _one_of(MemoryType.values, "Only memories of this type")],
        status: Annotated[str | None, _one_of(LISTABLE_STATUSES, "Only memories in this status")],
        q: Annotated[
            str | None,
            Field(max_length=MAX_QUERY_CHARS, description="Only memories with these words"),
        ] = None,
    ) -> MemoryResults:
        return await _call_tool(
            caller,
            "list_memories",
            lambda agent: _results(
                agent_memory_list(agent=agent, type=type, status=status, q=q, limit=cap)
            ),
        )

    @server.tool(
        description=(
            "Ask to remember `content` about the user (one statement, Korean or English). "
            "Secrets are redacted or refused and the write policy applies; unless the user "
            "trusts this agent the memory waits for the user's approval (status 'pending'). "
            "Returns the stored memory: id, content as stored, type, status and dates. "
            "Needs the write scope."
        ),
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False),
    )
    async def add_memory(
        content: Annotated[
            str,
            Field(
                min_length=1,
                max_length=max_content,
                description="One thing to remember about the user, as a sentence",
            ),
        ],
        type: Annotated[
            str | None, _one_of(MemoryType.values, "Its type; guessed from the content if left out")
        ],
    ) -> MemoryRecord:
        def add(agent: Agent) -> tuple[MemoryRecord, list[int]]:
            memory = agent_memory_add(agent=agent, content=content, type=type)
            version = memory.current_version
            assert version is not None
            record = MemoryRecord(
                id=memory.pk,
                content=version.content,
                type=memory.type,
                status=memory.status,
                created_at=memory.created_at.isoformat(),
                updated_at=memory.updated_at.isoformat(),
            )
            return record, [memory.pk]

        return await _call_tool(caller, "add_memory", add)

    @server.tool(
        description=(
            "Delete the memory with this `id` and everything derived from it, as the user's "
            "own delete does. Returns the deletion receipt (its id, the memory id, when, and "
            "counts of what was removed; never the content). Needs the write scope."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True
        ),
    )
    async def forget_memory(
        id: Annotated[int, Field(ge=1, description="The memory's id, from search or list")],
    ) -> DeletionReceiptRecord:
        def forget(agent: Agent) -> tuple[DeletionReceiptRecord, list[int]]:
            receipt = agent_memory_forget(agent=agent, memory_id=id)
            data = DeletionReceiptSerializer(receipt).data
            return DeletionReceiptRecord.model_validate(data), [id]

        return await _call_tool(caller, "forget_memory", forget)

    @server.resource(
        MEMORY_LIST_URI,
        name="memories",
        description=(
            f"The memories this agent may read, most recently changed first (at most {cap})."
        ),
        mime_type="application/json",
    )
    async def memory_list_resource() -> str:
        def read(agent: Agent) -> tuple[str, list[int]]:
            memories = agent_memory_list(agent=agent, limit=cap)
            body = json.dumps(
                {"memories": [_record(m).model_dump() for m in memories]}, ensure_ascii=False
            )
            return body, [m.id for m in memories]

        return await _read_resource(caller, "resource:memories", read)

    @server.resource(
        MEMORY_URI,
        name="memory",
        description="One memory by id: id, content, type, status, created_at, updated_at.",
        mime_type="application/json",
    )
    async def memory_resource(memory_id: str) -> str:
        def read(agent: Agent) -> tuple[str | None, list[int]]:
            pk = int(memory_id) if memory_id.isascii() and memory_id.isdigit() else 0
            memory = agent_memory_get(agent=agent, memory_id=pk) if 0 < pk < 2**63 else None
            return (None, []) if memory is None else (_memory_json(memory), [memory.id])

        body = await _read_resource(caller, "resource:memory", read)
        if body is None:
            raise ResourceNotFoundError("No such memory for this agent.")
        return body

    return server
