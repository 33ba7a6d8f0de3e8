"""Importing history from elsewhere (docs/API.md "Import"; also how benchmarks load data).

The payload is validated whole before anything is written (errors name the place), stored on
a `HistoryImport`, and processed by a chain of tasks on the bulk queue, one chunk of messages
each (`history_import_step`), storing one session per transaction, so a crash resumes where it
stopped. Messages with an `external_id` already stored are skipped. Each imported session then
goes through the live pipeline (vectors, topics, memory extraction, tags, summary) dated by its
own timestamps, and ends.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from conversations.logic import segmentation
from conversations.logic.titles import title_from_messages
from conversations.models import ChatSession, HistoryImport, Message, Topic
from conversations.serializers import ImportInput, error_paths
from conversations.services import indexing, remembering, sessions, topics
from memories.models import ExtractionRun
from memories.services.intake import text_intake
from memoryhub import llm
from memoryhub import text as text_analysis
from memoryhub.models import owned_by

logger = logging.getLogger(__name__)


class ImportInvalid(ValueError):
    """The payload cannot be imported; `fields` maps each place to what is wrong."""

    def __init__(self, fields: dict[str, str], *, too_large: bool = False) -> None:
        first = next(iter(fields.items()))
        super().__init__(f"{first[0]}: {first[1]}")
        self.fields = fields
        self.too_large = too_large


@dataclass(frozen=True)
class ImportMessage:
    role: str
    content: str
    created_at: datetime
    speaker: str
    external_id: str | None


@dataclass(frozen=True)
class ImportSession:
    started_at: datetime
    messages: list[ImportMessage]


def parse_payload(payload: Any, *, stored: bool = False) -> list[ImportSession]:
    """Validate an import payload (`conversations.serializers.ImportInput`); raise
    ImportInvalid naming every bad place. `stored`: a payload queued earlier, validated when
    it came in (times without an offset were then read in TIME_ZONE)."""
    serializer = ImportInput(data=payload, context={"naive_times_allowed": stored})
    if not serializer.is_valid():
        errors = error_paths(serializer.errors)
        too_large = {place: e for place, e in errors.items() if e.code == "too_large"}
        # Too large is a 413 saying what is too large; the other errors can wait for a
        # payload that fits.
        raise ImportInvalid(
            {place: str(error) for place, error in (too_large or errors).items()},
            too_large=bool(too_large),
        )
    return [
        ImportSession(
            started_at=session["started_at"],
            messages=[
                ImportMessage(
                    role=message["role"],
                    content=message["content"],
                    created_at=message["created_at"],
                    speaker=message.get("speaker", ""),
                    external_id=message.get("external_id"),
                )
                for message in session["messages"]
            ],
        )
        for session in serializer.validated_data["sessions"]
    ]


@transaction.atomic
def history_import_create(*, user: AbstractBaseUser, payload: Any) -> HistoryImport:
    """Validate and queue an import; its task starts after commit."""
    parsed = parse_payload(payload)
    record = HistoryImport.objects.create(
        user_id=user.pk, payload=payload_intake(payload), total=sum(len(s.messages) for s in parsed)
    )
    record_id, owner_id = record.pk, record.user_id
    transaction.on_commit(
        lambda: history_import_queue(import_id=record_id, user_id=owner_id), robust=True
    )
    return record


def _chain_key(import_id: int) -> str:
    return f"import-chain:{import_id}"


def _stepped_key(import_id: int) -> str:
    return f"import-stepped:{import_id}"


def history_import_queue(*, import_id: int, user_id: int | None = None) -> int:
    """Queue the first step of a new chain of steps for the import; the chain's token.

    Each step queues the next with the same token, and a step whose token is no longer the
    import's stops: when recovery starts a chain again beside one that was only slow, one
    chain goes on, not two.
    """
    from conversations.tasks import history_import_run

    chain = secrets.randbits(62)  # a number: tasks carry ids, never text
    cache.set(_chain_key(import_id), chain, timeout=None)
    history_import_run.delay(import_id=import_id, chain=chain, user_id=user_id)
    return chain


def history_import_chain_current(*, import_id: int, chain: int) -> bool:
    """Whether `chain` is the import's chain of steps (adopted when none is known, as after
    the cache was emptied); records the time, which recovery reads as the import's pulse."""
    key = _chain_key(import_id)
    cache.add(key, chain, timeout=None)
    if cache.get(key) != chain:
        return False
    cache.set(_stepped_key(import_id), timezone.now().timestamp(), timeout=None)
    return True


def history_import_last_step(*, import_id: int) -> datetime | None:
    """When a step of the import last started (None: unknown)."""
    stamp = cache.get(_stepped_key(import_id))
    return None if stamp is None else datetime.fromtimestamp(float(stamp), tz=UTC)


def history_import_chain_end(*, import_id: int) -> None:
    cache.delete_many([_chain_key(import_id), _stepped_key(import_id)])


def payload_intake(payload: Any) -> Any:
    """A valid payload (`parse_payload` passed) with secrets in its text fields redacted, as
    it may wait in the database for its task. Ids and times are kept as sent: an external id
    is the key that makes a re-send idempotent."""
    sessions_ = [
        {**raw, "messages": [_raw_message_intake(m) for m in raw["messages"]]}
        for raw in payload["sessions"]
    ]
    return {**payload, "sessions": sessions_}


def _raw_message_intake(message: dict[str, Any]) -> dict[str, Any]:
    redacted = {**message, "content": text_intake(message["content"]).text}
    if "speaker" in message:
        redacted["speaker"] = _speaker_intake(message["speaker"])
    return redacted


def _speaker_intake(speaker: str) -> str:
    # A marker is longer than the secret it replaces; the column holds 100 characters.
    return text_intake(speaker).text[:100]


def _message_intake(message: ImportMessage) -> ImportMessage:
    return replace(
        message,
        content=text_intake(message.content).text,
        speaker=_speaker_intake(message.speaker),
    )


def _store_session(record: HistoryImport, item: ImportSession) -> ChatSession | None:
    """Store one session's new messages; None when every message was imported before."""
    ids = [m.external_id for m in item.messages if m.external_id]
    existing = dict(
        Message.objects.filter(user_id=record.user_id, external_id__in=ids).values_list(
            "external_id", "session_id"
        )
    )
    fresh = [m for m in item.messages if not m.external_id or m.external_id not in existing]
    fresh = [_message_intake(m) for m in fresh]  # also payloads queued before redaction
    if not fresh:
        return None
    session: ChatSession | None = None
    if existing:  # a partial re-send: add to the session that already holds the rest
        session = ChatSession.objects.filter(pk=next(iter(existing.values()))).first()
    if session is None:
        session = ChatSession.objects.create(
            user_id=record.user_id,
            source=ChatSession.Source.IMPORT,
            started_at=item.started_at,
            history_import=record,
            title=title_from_messages(m.content for m in fresh),
        )
    rows = [
        Message(
            session=session,
            user_id=record.user_id,
            role=m.role,
            content=m.content,
            speaker=m.speaker,
            created_at=m.created_at,
            external_id=m.external_id,
            keywords=indexing.message_keywords(m.content, m.created_at, m.speaker),
            token_count=text_analysis.estimate_tokens(m.content),
        )
        for m in sorted(fresh, key=lambda x: x.created_at)  # stable: payload order on ties
    ]
    Message.objects.bulk_create(rows)
    replies, previous_user = [], None
    for row in rows:
        if row.role == Message.Role.USER:
            previous_user = row
        elif previous_user is not None:
            row.reply_to = previous_user
            replies.append(row)
            previous_user = None
    Message.objects.filter(user_id=session.user_id).bulk_update(replies, ["reply_to"])
    last = max(r.created_at for r in rows)
    if session.last_message_at is None or last > session.last_message_at:
        session.last_message_at = last
        session.save(update_fields=["last_message_at"])
    return session


# Messages one step of an import works through. A step is one task on the `bulk` queue, and
# the next step of the same import is queued behind whatever else waits there, so the
# imports of several users take turns. Storing is cheap per message but reads the stored
# payload once per step, so its steps are larger.
STORE_STEP_MESSAGES = 500
PROCESS_STEP_MESSAGES = 50


def _store_sessions(
    record: HistoryImport,
    *,
    budget: int | None,
    finalize: Callable[[int], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> bool:
    """Store the import's next sessions, whole and one transaction each, until `budget`
    messages (None: all; at least one session a call); whether every session is stored.

    Idempotent: a rerun skips what was stored (by the progress count and by external_id).
    """
    import_id = record.pk
    mine = HistoryImport.objects.filter(user_id=record.user_id, pk=import_id)
    mine.update(status=HistoryImport.Status.RUNNING)
    raw_sessions = record.payload.get("sessions") if isinstance(record.payload, dict) else None
    try:
        if not isinstance(raw_sessions, list):
            raise ImportInvalid({"sessions": "must be a list of sessions"})
        # Only the sessions this call may store are parsed again; the whole payload was
        # validated when the import was made.
        end = len(raw_sessions) if budget is None else _stop_after(raw_sessions, record, budget)
        rest = raw_sessions[record.sessions_done : end]
        items = parse_payload({"sessions": rest}, stored=True) if rest else []
    except ImportInvalid:  # validated on the way in; only a corrupted row gets here
        logger.warning("import %s: its stored payload no longer validates", import_id)
        history_import_fail(
            import_id=import_id,
            reason=HistoryImport.Failure.PAYLOAD_INVALID,
            user_id=record.user_id,
        )
        return False
    for offset, item in enumerate(items):
        with transaction.atomic():
            session = _store_session(record, item)
            mine.update(
                sessions_done=record.sessions_done + offset + 1,
                done=F("done") + len(item.messages),
            )
        if session is not None and finalize is not None:
            finalize(session.pk)
        if progress is not None:
            record.refresh_from_db(fields=["done"])
            progress(record.done, record.total)
    record.refresh_from_db(fields=["sessions_done"])
    if record.sessions_done < len(raw_sessions):
        return False
    mine.update(
        status=HistoryImport.Status.DONE,
        done=record.total,
        payload={},
        finished_at=timezone.now(),
    )
    return True


def _stop_after(raw_sessions: list[Any], record: HistoryImport, budget: int) -> int:
    """The index after the last session a step of `budget` messages stores (at least one)."""
    end, count = record.sessions_done, 0
    while end < len(raw_sessions) and (count == 0 or count < budget):
        raw = raw_sessions[end]
        messages = raw.get("messages") if isinstance(raw, dict) else None
        count += len(messages) if isinstance(messages, list) else 1
        end += 1
    return end


def history_import_run(
    *,
    import_id: int,
    finalize: Callable[[int], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> HistoryImport | None:
    """Store every session of the import in this process (one transaction each), handing
    each to `finalize` (none: stored only, as `bench_latency`'s ingest measures).

    Workers do not call this: they run the import in steps (`history_import_step`).
    """
    record = HistoryImport.objects.filter(pk=import_id).first()
    if record is None or record.status in (HistoryImport.Status.DONE, HistoryImport.Status.FAILED):
        return record
    _store_sessions(record, budget=None, finalize=finalize, progress=progress)
    record.refresh_from_db()
    return record


def history_import_step(
    *,
    import_id: int,
    store_budget: int | None = None,
    process_budget: int | None = None,
    user_id: int | None = None,
) -> bool:
    """Do the import's next chunk of work; whether any is left.

    First its sessions are stored (`store_budget` messages a step); then, session by session
    in order, `process_budget` messages a step: their vectors, topics, memory extraction and
    the end of the session (tags, summary). What is done is read from what is stored, so a
    step that runs twice, or after a crash, does the next thing still missing.
    """
    record = HistoryImport.objects.filter(pk=import_id, **owned_by(user_id)).first()
    if record is None or record.status == HistoryImport.Status.FAILED:
        return False
    if record.status != HistoryImport.Status.DONE:
        _store_sessions(record, budget=store_budget or STORE_STEP_MESSAGES)
        record.refresh_from_db(fields=["status"])
        return record.status != HistoryImport.Status.FAILED
    spent, process_budget = 0, process_budget or PROCESS_STEP_MESSAGES
    while spent < process_budget:
        session = (
            ChatSession.objects.filter(user_id=record.user_id, history_import_id=import_id)
            .exclude(status=ChatSession.Status.ENDED)
            .order_by("started_at", "id")
            .first()
        )
        if session is None:
            return False
        spent += _session_advance(session, budget=process_budget - spent)
    return True


def history_import_fail(
    *, import_id: int, reason: HistoryImport.Failure, user_id: int | None = None
) -> HistoryImport | None:
    """Mark an unfinished import failed with a reason code, and drop its payload.

    Each session is stored in its own transaction, so what is stored is whole sessions; they
    stay, and sending the same history again adds only what is missing (by external_id).
    """
    unfinished = HistoryImport.objects.filter(pk=import_id, **owned_by(user_id)).exclude(
        status=HistoryImport.Status.DONE
    )
    unfinished.update(
        status=HistoryImport.Status.FAILED,
        error=reason.value,
        payload={},
        finished_at=timezone.now(),
    )
    return HistoryImport.objects.filter(pk=import_id, **owned_by(user_id)).first()


def history_import_create_inline(
    *,
    user: AbstractBaseUser,
    payload: Any,
    progress: Callable[[int, int], None] | None = None,
) -> HistoryImport:
    """Import in this process, pipeline included (the command line and benchmarks)."""
    parsed = parse_payload(payload)
    record = HistoryImport.objects.create(
        user_id=user.pk, payload=payload_intake(payload), total=sum(len(s.messages) for s in parsed)
    )
    try:
        history_import_run(
            import_id=record.pk,
            finalize=lambda session_id: session_import_finalize(session_id=session_id),
            progress=progress,
        )
    except Exception:
        history_import_fail(import_id=record.pk, reason=HistoryImport.Failure.WORKER_ERROR)
        raise
    record.refresh_from_db()
    return record


def session_import_finalize(*, session_id: int) -> None:
    """Vectors, topics, memory extraction, then the end-of-session pipeline, all in this
    process. Idempotent."""
    session = ChatSession.objects.filter(pk=session_id).first()
    while session is not None and session.status != ChatSession.Status.ENDED:
        _session_advance(session, budget=None)
        session.refresh_from_db(fields=["status"])


def _session_advance(session: ChatSession, *, budget: int | None) -> int:
    """The next part of an imported session's pipeline, within `budget` messages (None: no
    limit); its cost in messages, at least 1, so a caller's loop always ends.

    Imports use the embedding detector for topics whatever the provider: one LLM call per
    historical message would be a surprise bill. Tags and summaries use the provider, and
    extraction what MEMORYHUB_IMPORT_EXTRACTION says.
    """
    embedded = indexing.session_embed(session=session, limit=budget)
    if embedded:
        return embedded
    # A session with nothing searchable gets no topic: segmenting it again would loop.
    if not session.topics.exists() and session.messages.filter(searchable=True).exists():
        segment_session(session=session)
        return 1
    extracted = session_memories_extract(
        session=session, mode=settings.MEMORYHUB_IMPORT_EXTRACTION, limit=budget
    )
    if extracted:
        return extracted
    sessions.session_finalize(session_id=session.pk, user_id=session.user_id)
    return 1


EXTRACTION_MODES = ("offline", "model", "off")


def session_memories_extract(
    *, session: ChatSession, mode: str = "offline", limit: int | None = None
) -> int:
    """Memories from the session's next user messages not extracted yet (each with the reply
    stored after it), dated by the message, by the offline rules or the model (`mode`, as
    MEMORYHUB_IMPORT_EXTRACTION; "off" extracts none); how many were tried. Extraction is
    idempotent per message, and one that gave up is recorded as such, so none is tried
    twice. The import's steps call it for each session, in order; so may a benchmark."""
    if mode not in EXTRACTION_MODES:
        raise ValueError(f"extraction mode must be one of {EXTRACTION_MODES}, not {mode!r}")
    if mode == "off":
        return 0
    extracted = ExtractionRun.objects.filter(
        user_id=session.user_id, source_message_id=OuterRef("pk")
    )
    pending = (
        session.messages.filter(searchable=True, role=Message.Role.USER)
        .filter(~Exists(extracted))
        .order_by("created_at", "id")
        .values_list("id", flat=True)
    )
    message_ids = list(pending if limit is None else pending[:limit])
    for message_id in message_ids:
        try:
            remembering.exchange_memories_extract(
                message_id=message_id, offline=mode == "offline", user_id=session.user_id
            )
        except llm.LLMError as exc:  # the SDK has retried; the import moves on
            logger.warning("memory extraction gave up for imported message %s", message_id)
            remembering.exchange_memories_extract_failed(
                message_id=message_id, error=f"model unreachable: {exc}", user_id=session.user_id
            )
    return len(message_ids)


def _shifts(
    turn: segmentation.SegTurn,
    window: list[segmentation.SegTurn],
    centres: dict[str, segmentation.Centre],
) -> bool:
    threshold, centre = topics.shift_measure(turn.text, centres)
    return segmentation.is_shift(turn, window, threshold=threshold, centre=centre)


@transaction.atomic
def segment_session(*, session: ChatSession) -> None:
    """Split a stored session into topics with the offline detector, as if it were live."""
    messages = list(session.messages.filter(searchable=True).order_by("created_at", "id"))
    current: Topic | None = None
    window: list[segmentation.SegTurn] = []
    members: list[Message] = []
    centres: dict[str, segmentation.Centre] = {}  # one cache read per language, not per message
    for message in messages:
        turn = topics._seg_turn(message)
        starts = current is None or (
            message.role == Message.Role.USER
            and _shifts(turn, segmentation.last_exchanges(window), centres)
        )
        if starts:
            if current is not None:
                _close_imported(current, members)
            current = Topic.objects.create(
                session=session, user_id=session.user_id, started_at=message.created_at
            )
            window, members = [], []
        window.append(turn)
        members.append(message)
    if current is not None:
        _close_imported(current, members)


def _close_imported(topic: Topic, members: list[Message]) -> None:
    Message.objects.filter(user_id=topic.user_id, pk__in=[m.pk for m in members]).update(
        topic=topic
    )
    ranked = text_analysis.keywords("\n".join(m.content for m in members), limit=topics.TOPIC_TERMS)
    topic.keywords = ranked[: topics.TOPIC_KEYWORDS]
    topic.terms = list(dict.fromkeys(text_analysis.normalise(k) for k in ranked))
    topic.message_count = len(members)
    topic.ended_at = members[-1].created_at
    topic.save(update_fields=["keywords", "terms", "message_count", "ended_at"])
