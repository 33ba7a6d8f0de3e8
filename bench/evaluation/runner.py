"""Runs the scenarios through the real product paths, for throwaway `eval-...` users.

Each step is what the product does for that action: a chat message is `chat_exchange` (the
REST API's path: user message, context, streamed reply, stored reply) followed by the task
bodies the reply enqueues (`extract_from_exchange` with the same arguments, `messages_embed`);
ending a session is `session_end` then the `session_finalize` it enqueues; a memory written by
hand is `memory_create` (POST /memories/); the assistant's note is Claude's memory tool; a
delete is `memory_forget` (DELETE /memories/{id}/). The probe is one question in a new
session: `context_preview` (/api/v1/context/) and a chat exchange.

The baseline user of a scenario has nothing remembered: it asks the same question the same
way, and nothing is extracted from its messages.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max, Sum
from rest_framework.test import APIClient

from bench.evaluation.places import (
    OWN_WORDS_SUFFIX,
    contains,
    context_places,
    export_places,
)
from bench.evaluation.report import ScenarioResult, Usage
from bench.evaluation.scenarios import (
    AgentReads,
    AssistantNote,
    Delete,
    Edit,
    EndSession,
    MarkWrong,
    OtherSays,
    Row,
    Say,
    Scenario,
    Step,
    Write,
)
from bench.evaluation.verdicts import (
    ContextView,
    MemoryState,
    Observation,
    Said,
    baseline_of,
    judge,
)
from conversations import search
from conversations.logic.prompt_context import ChatContext
from conversations.models import ChatSession
from conversations.selectors import session_memory_updates
from conversations.services import chat, sessions, shortterm
from conversations.services.context import context_preview
from conversations.services.forgetting import memory_forget
from conversations.tasks import extract_from_exchange, messages_embed
from memories.logic.write_policy import Origin
from memories.models import Memory, Reader
from memories.reasons import ChangeReason
from memories.selectors import memory_list_for_user, memory_retrieve, memory_versions
from memories.serializers import MemorySerializer
from memories.services import feedback, revision
from memories.services.memory_tool import MemoryToolError, memory_tool_execute
from memoryhub import llm
from memoryhub.models import LLMCall

# Context assembly is timed this many times per question and condition, alternating.
CONTEXT_REPEATS = 3


@dataclass
class _Actor:
    user: AbstractBaseUser
    session: ChatSession | None = None
    said: list[Said] = field(default_factory=list)
    notes_written: int = 0


@dataclass
class _Condition:
    """What one condition (with or without memory) cost and how long it took."""

    llm_call_ids: set[int] = field(default_factory=set)
    exchanges: int = 0
    context_ms: list[float] = field(default_factory=list)
    exchange_ms: list[float] = field(default_factory=list)

    def usage(self) -> Usage:
        totals = LLMCall.objects.filter(pk__in=self.llm_call_ids).aggregate(
            input_tokens=Sum("input_tokens"),
            output_tokens=Sum("output_tokens"),
            cost=Sum("cost_usd"),
        )
        return Usage(
            exchanges=self.exchanges,
            calls=len(self.llm_call_ids),
            input_tokens=totals["input_tokens"] or 0,
            output_tokens=totals["output_tokens"] or 0,
            cost_usd=float(totals["cost"] or Decimal("0")),
            context_ms=tuple(self.context_ms),
            exchange_ms=tuple(self.exchange_ms),
        )


@dataclass(frozen=True)
class RunResult:
    results: list[ScenarioResult]
    observations: list[tuple[Observation, Observation]]  # (with memory, without memory)
    with_memory: Usage
    without_memory: Usage


def _view(context: ChatContext) -> ContextView:
    recall = [s.summary for s in context.session_recall]
    recall += [m.content for topic in context.topic_recall for m in topic.messages]
    return ContextView(
        memories=tuple((m.id, m.content) for m in context.memories), recall=tuple(recall)
    )


class Evaluation:
    """One run: creates users named `<prefix>-...`, runs scenarios, deletes the users."""

    def __init__(self, *, prefix: str, progress: Callable[[str], None] | None = None) -> None:
        self.prefix = prefix
        self.progress = progress or (lambda _line: None)
        self.users: list[AbstractBaseUser] = []
        self.with_memory = _Condition()
        self.without_memory = _Condition()

    # --- users, cost ---------------------------------------------------------------------

    def _new_user(self, name: str) -> AbstractBaseUser:
        user = get_user_model().objects.create_user(username=f"{self.prefix}-{name}"[:150])
        self.users.append(user)
        return user

    @contextmanager
    def _billed_to(self, condition: _Condition) -> Iterator[None]:
        """Count the LLM calls made by this run's users inside the block for `condition`."""
        before = LLMCall.objects.aggregate(last=Max("id"))["last"] or 0
        try:
            yield
        finally:
            condition.llm_call_ids.update(
                LLMCall.objects.filter(
                    pk__gt=before, user_id__in=[u.pk for u in self.users]
                ).values_list("pk", flat=True)
            )

    def cleanup(self) -> None:
        """Delete every user this run created, with all their data and cached state."""
        for user in self.users:
            session_ids = list(
                ChatSession.objects.filter(user_id=user.pk).values_list("pk", flat=True)
            )
            shortterm.user_forget(user_id=user.pk, session_ids=session_ids)
            user.delete()
        self.users = []

    # --- steps ---------------------------------------------------------------------------

    def _say(
        self, actor: _Actor, text: str, *, remember: bool = True
    ) -> tuple[chat.Exchange, float]:
        """Send `text` in the actor's session; the exchange and its duration in ms."""
        if actor.session is None:
            actor.session = chat.chat_session_create(user=actor.user)
        condition = self.with_memory if remember else self.without_memory
        with self._billed_to(condition):
            started = time.perf_counter()
            exchange = chat.chat_exchange(session=actor.session, content=text)
            elapsed = (time.perf_counter() - started) * 1000
            if remember:
                self._run_reply_tasks(exchange)
        condition.exchanges += 1
        message = exchange.user_message
        actor.said.append(Said(str(message.pk), str(message.session_id), message.content))
        return exchange, elapsed

    def _run_reply_tasks(self, exchange: chat.Exchange) -> None:
        """The task bodies a stored reply enqueues, with the arguments it gives them.

        Called directly, the extraction task raises where a worker would retry; the run
        goes on and the scenario shows what was (not) stored.
        """
        message, reply = exchange.user_message, exchange.assistant_message
        try:
            extract_from_exchange(
                user_id=message.user_id,
                user_text=message.content,
                assistant_text=reply.content if reply.searchable else "",
                source_message_id=message.pk,
                source_session_id=message.session_id,
                observed_at=message.created_at.isoformat(),
            )
        except llm.LLMError as exc:
            self.progress(f"    extraction failed for message {message.pk}: {exc}")
        messages_embed(user_id=message.user_id)

    def _end(self, actor: _Actor) -> None:
        if actor.session is None:
            return
        with self._billed_to(self.with_memory):
            sessions.session_end(session=actor.session)
            sessions.session_finalize(session_id=actor.session.pk)
        actor.session = None

    def _write(self, actor: _Actor, step: Write) -> None:
        try:
            revision.memory_create(user=actor.user, type=step.type, content=step.content)
        except revision.MemoryRefused as exc:
            self.progress(f"    write refused: {exc.result.reason}")

    def _assistant_note(self, actor: _Actor, step: AssistantNote) -> None:
        actor.notes_written += 1
        command = {
            "command": "create",
            "path": f"/memories/{step.type}/note-{actor.notes_written}.md",
            "file_text": step.content,
        }
        try:
            memory_tool_execute(user=actor.user, command=command)
        except MemoryToolError as exc:
            self.progress(f"    memory tool refused: {exc}")

    @staticmethod
    def _holding(actor: _Actor, text: str) -> list[Memory]:
        """The user's memories holding `text`, found as the memories screen finds them."""
        return [
            memory
            for memory in memory_list_for_user(user=actor.user, q=text)
            if memory.current_version is not None and contains(memory.current_version.content, text)
        ]

    def _delete(self, actor: _Actor, canary: str) -> int:
        """Delete the user's memories holding `canary`; how many."""
        found = self._holding(actor, canary)
        for memory in found:
            memory_forget(user=actor.user, memory=memory)
        return len(found)

    def _mark_wrong(self, actor: _Actor, canary: str) -> None:
        for memory in self._holding(actor, canary):
            feedback.memory_mark_wrong(user=actor.user, memory=memory)

    def _edit(self, actor: _Actor, step: Edit) -> None:
        """The memory edit form's save: a new version written by the user."""
        for memory in self._holding(actor, step.old)[:1]:
            try:
                revision.memory_revise(
                    memory=memory,
                    changes=revision.MemoryChanges(content=step.content),
                    origin=Origin.USER,
                    change_reason=ChangeReason.EDITED_BY_USER,
                )
            except revision.MemoryRefused as exc:
                self.progress(f"    edit refused: {exc.result.reason}")

    def _step(self, actor: _Actor, step: Step, others: dict[str, _Actor], name: str) -> int:
        """Run one step; returns how many memories it deleted."""
        if isinstance(step, Say):
            self._say(actor, step.text)
        elif isinstance(step, EndSession):
            self._end(actor)
        elif isinstance(step, Write):
            self._write(actor, step)
        elif isinstance(step, AssistantNote):
            self._assistant_note(actor, step)
        elif isinstance(step, AgentReads):
            context_preview(
                user=actor.user, content=step.question, session=None, reader=Reader.ASSISTANT
            )
        elif isinstance(step, OtherSays):
            other = others.get("other")
            if other is None:
                other = others["other"] = _Actor(self._new_user(f"{name}-other"))
            self._say(other, step.text)
            self._end(other)
        elif isinstance(step, Delete):
            return self._delete(actor, step.canary)
        elif isinstance(step, MarkWrong):
            self._mark_wrong(actor, step.canary)
        elif isinstance(step, Edit):
            self._edit(actor, step)
        return 0

    # --- the probe and what it shows -----------------------------------------------------

    def _time_contexts(
        self, actor: _Actor, baseline: _Actor, question: str
    ) -> tuple[ContextView, ContextView]:
        """The /context/ view of `question` for the user and for the baseline user, assembled
        CONTEXT_REPEATS times each in turn so that load on the machine falls on both alike."""
        views: list[ContextView] = []
        for _ in range(CONTEXT_REPEATS):
            for who, condition in ((actor, self.with_memory), (baseline, self.without_memory)):
                started = time.perf_counter()
                preview = context_preview(
                    user=who.user, content=question, session=None, reader=Reader.ASSISTANT
                )
                condition.context_ms.append((time.perf_counter() - started) * 1000)
                views.append(_view(preview))
        return views[0], views[1]

    def _probe(self, actor: _Actor, question: str, *, remember: bool) -> chat.Exchange:
        """Ask `question` in a new session."""
        self._end(actor)
        exchange, elapsed = self._say(actor, question, remember=remember)
        (self.with_memory if remember else self.without_memory).exchange_ms.append(elapsed)
        return exchange

    @staticmethod
    def _memory_states(user: AbstractBaseUser) -> tuple[MemoryState, ...]:
        states = []
        for memory in memory_list_for_user(user=user):
            record = MemorySerializer(memory).data
            source = record["source"] or {}
            conflict = record["conflict"] or {}
            history = tuple(
                v.content
                for v in memory_versions(memory=memory)
                if v.pk != memory.current_version_id
            )
            states.append(
                MemoryState(
                    id=record["id"],
                    status=record["status"],
                    type=record["type"],
                    content=record["content"],
                    scope=record["scope"],
                    created_by=record["created_by"],
                    source_message_id=source.get("message_id"),
                    source_session_id=source.get("session_id"),
                    conflict_with=tuple(conflict.get("with", ())),
                    history=history,
                    status_reason=record["status_reason"],
                )
            )
        return tuple(states)

    @staticmethod
    def _trace_places(
        actor: _Actor, trace: str, context: ChatContext, preview: ContextView, reply: str
    ) -> tuple[str, ...]:
        """Every place `trace` still shows up for the user: contexts, retrieval, search,
        export and the probe's reply."""
        user = actor.user
        places = context_places("context", context, trace)
        if any(contains(text, trace) for text in preview.texts()):
            places.append("preview")
        by_trace = context_preview(user=user, content=trace, session=None, reader=Reader.ASSISTANT)
        places += context_places("preview", by_trace, trace)
        if any(
            contains(m.content, trace)
            for reader in Reader
            for m in memory_retrieve(user=user, query=trace, reader=reader)
        ):
            places.append("retrieval")
        own_messages = {s.message_id for s in actor.said}
        hits, _ms = search.search(user_id=user.pk, query=trace, k=10, reader=Reader.ASSISTANT)
        for hit in hits:
            if contains(hit.text, trace):
                own = hit.kind == "message" and hit.id in own_messages
                places.append(f"search:{hit.kind}" + (OWN_WORDS_SUFFIX if own else ""))
        places += export_places(_exported(user), trace)
        if contains(reply, trace):
            places.append("reply")
        return tuple(dict.fromkeys(places))

    @staticmethod
    def _conversation_record(
        user: AbstractBaseUser,
    ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """What the user's conversations said they remembered (action, content), and the
        summaries of the ended ones, oldest first."""
        updates: list[tuple[str, str]] = []
        summaries: list[str] = []
        for session in ChatSession.objects.filter(user_id=user.pk).order_by("pk"):
            updates += [(u.action, u.content) for u in session_memory_updates(session=session)]
            if session.summary:
                summaries.append(session.summary)
        return tuple(updates), tuple(summaries)

    @staticmethod
    def _in_use_places(user: AbstractBaseUser, trace: str) -> tuple[str, ...]:
        """Where a memory holding `trace` is still in use: retrieval for any reader, or a
        memory search result."""
        places = []
        if any(
            contains(m.content, trace)
            for reader in Reader
            for m in memory_retrieve(user=user, query=trace, reader=reader)
        ):
            places.append("retrieval")
        hits, _ms = search.search(user_id=user.pk, query=trace, k=10, reader=Reader.ASSISTANT)
        if any(hit.kind == "memory" and contains(hit.text, trace) for hit in hits):
            places.append("search:memory")
        return tuple(places)

    # --- a scenario ----------------------------------------------------------------------

    def run_scenario(self, scenario: Scenario, index: int) -> tuple[Observation, Observation]:
        name = f"{index:02d}-{scenario.lang}-{scenario.row.value}"
        actor = _Actor(self._new_user(name))
        others: dict[str, _Actor] = {}
        deleted = 0
        for step in scenario.steps:
            deleted += self._step(actor, step, others, name)
        self._end(actor)  # the question comes in a later session
        baseline_actor = _Actor(self._new_user(f"{name}-baseline"))
        preview, base_preview = self._time_contexts(actor, baseline_actor, scenario.question)
        exchange = self._probe(actor, scenario.question, remember=True)
        reply = exchange.assistant_message.content
        found: tuple[str, ...] = ()
        if scenario.row is Row.DELETION and scenario.trace:
            found = self._trace_places(actor, scenario.trace, exchange.context, preview, reply)
        elif scenario.row is Row.WRONG and scenario.trace:
            found = self._in_use_places(actor.user, scenario.trace)
        updates, summaries = self._conversation_record(actor.user)
        observed = Observation(
            scenario_id=scenario.id,
            context=_view(exchange.context),
            preview=preview,
            memories=self._memory_states(actor.user),
            said=tuple(actor.said),
            deleted=deleted,
            found=found,
            reply=reply,
            updates=updates,
            summaries=summaries,
        )
        base = self._probe(baseline_actor, scenario.question, remember=False)
        baseline = baseline_of(
            observed,
            context=_view(base.context),
            preview=base_preview,
            reply=base.assistant_message.content,
        )
        return observed, baseline

    def warm_up(self) -> None:
        """Load the models (embeddings, Korean analyser) before anything is timed or billed."""
        user = self._new_user("warm-up")
        session = chat.chat_session_create(user=user)
        for text in ("오늘 날씨가 좋네.", "The weather is nice today."):
            context_preview(user=user, content=text, session=None, reader=Reader.ASSISTANT)
            chat.chat_exchange(session=session, content=text)

    def run(self, scenarios: Sequence[Scenario]) -> RunResult:
        self.warm_up()
        results: list[ScenarioResult] = []
        observations: list[tuple[Observation, Observation]] = []
        for index, scenario in enumerate(scenarios, start=1):
            started = time.perf_counter()
            observed, baseline = self.run_scenario(scenario, index)
            with_memory, without = judge(scenario, observed), judge(scenario, baseline)
            results.append(
                ScenarioResult(scenario.id, scenario.row, scenario.lang, with_memory, without)
            )
            observations.append((observed, baseline))
            outcome = "pass" if with_memory.passed else f"FAIL: {with_memory.failure}"
            self.progress(
                f"  [{index}/{len(scenarios)}] {scenario.id}: {outcome} "
                f"({time.perf_counter() - started:.1f} s)"
            )
        return RunResult(
            results=results,
            observations=observations,
            with_memory=self.with_memory.usage(),
            without_memory=self.without_memory.usage(),
        )


def _exported(user: AbstractBaseUser) -> dict[str, Any]:
    """The user's export as a person gets it: `GET /api/v1/export/` (the harness drives the
    product through its surface; it imports no account code)."""
    client = APIClient()
    client.force_authenticate(user=user)
    response = client.get("/api/v1/export/")
    if response.status_code != 200:
        raise RuntimeError(f"export answered {response.status_code}")
    return cast(dict[str, Any], response.json())
