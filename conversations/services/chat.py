"""The per-message flow: save the user's message, assemble context, stream the reply, save it.

The request path stays fast: keywords are computed inline (Kiwi, ~1 ms), embeddings in a
Celery task enqueued on commit.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from conversations import selectors
from conversations.context import ChatContext
from conversations.models import ChatSession, Message, Topic
from memoryhub import llm
from memoryhub import text as text_analysis
from memoryhub.validation import clean_message_text

logger = logging.getLogger(__name__)

SYSTEM_PROMPT = (
    "You are a helpful assistant with a long-term memory that the user can see and control. "
    "Answer in the language the user writes in. When the context below holds something "
    "relevant, use it naturally; when it does not, do not invent memories."
)
_HISTORY_MESSAGES = 40


class SessionClosed(ValueError):
    """The session has ended; new messages go to a new session."""


@dataclass(frozen=True)
class TopicInfo:
    id: str
    shifted: bool
    keywords: list[str]


@dataclass(frozen=True)
class Exchange:
    user_message: Message
    assistant_message: Message
    topic: TopicInfo
    context: ChatContext


@transaction.atomic
def chat_session_create(
    *,
    user: AbstractBaseUser,
    started_at: datetime | None = None,
    source: str = ChatSession.Source.LIVE,
) -> ChatSession:
    return ChatSession.objects.create(
        user_id=user.pk, started_at=started_at or timezone.now(), source=source
    )


def _topic_for_message(*, session: ChatSession, message: Message) -> tuple[Topic, bool]:
    """The topic the message joins; the first message of a session opens one."""
    topic = selectors.session_open_topic(session=session)
    if topic is None:
        topic = Topic.objects.create(
            session=session, user_id=session.user_id, started_at=message.created_at
        )
    return topic, False


@transaction.atomic
def message_add_user(*, session: ChatSession, content: str) -> tuple[Message, TopicInfo]:
    """Store the user's message with its keywords and topic; embed it after commit."""
    from conversations.tasks import messages_embed

    content = clean_message_text(content)
    session = ChatSession.objects.select_for_update().get(pk=session.pk)
    if session.status != ChatSession.Status.ACTIVE:
        raise SessionClosed("This session has ended; start a new one.")
    now = timezone.now()
    message = Message(
        session=session,
        user_id=session.user_id,
        role=Message.Role.USER,
        content=content,
        created_at=now,
        keywords=text_analysis.index_tokens(content),
        token_count=text_analysis.estimate_tokens(content),
    )
    topic, shifted = _topic_for_message(session=session, message=message)
    message.topic = topic
    message.save()
    topic.message_count += 1
    if len(topic.keywords) < 5:
        merged = list(dict.fromkeys([*topic.keywords, *text_analysis.keywords(content)]))
        topic.keywords = merged[:5]
    topic.save(update_fields=["message_count", "keywords"])
    session.last_message_at = now
    update_fields = ["last_message_at"]
    if not session.title:
        session.title = content.strip().splitlines()[0][:80]
        update_fields.append("title")
    session.save(update_fields=update_fields)
    user_id = session.user_id
    transaction.on_commit(lambda: messages_embed.delay(user_id=user_id))
    return message, TopicInfo(id=str(topic.pk), shifted=shifted, keywords=list(topic.keywords))


def context_build(*, session: ChatSession, message: Message) -> ChatContext:
    """Session recall, topic recall and memories for this message, within the token budget."""
    return ChatContext()


def _history_turns(*, session: ChatSession, before: Message) -> list[llm.Turn]:
    """The session's latest turns before `before`, newest kept first, within the budget."""
    from django.conf import settings

    budget = settings.MEMORYHUB_HISTORY_TOKEN_BUDGET
    turns: list[llm.Turn] = []
    recent = selectors.session_recent_messages(session=session, limit=_HISTORY_MESSAGES)
    for m in reversed(recent):
        if m.pk == before.pk or m.created_at > before.created_at:
            continue
        budget -= m.token_count
        if budget < 0:
            break
        role: Literal["user", "assistant"] = "user" if m.role == Message.Role.USER else "assistant"
        turns.append(llm.Turn(role=role, content=m.content))
    turns.reverse()
    # The Messages API wants alternating turns starting with the user.
    while turns and turns[0].role != "user":
        turns.pop(0)
    return turns


def _reply_request(*, message: Message, context: ChatContext) -> llm.ReplyRequest:
    session = message.session
    system = SYSTEM_PROMPT
    block = context.prompt_block()
    if block:
        system = f"{system}\n\n{block}"
    turns = [*_history_turns(session=session, before=message), llm.Turn("user", message.content)]
    return llm.ReplyRequest(
        system=system,
        turns=turns,
        user_id=session.user_id,
        remembered=context.remembered_lines(),
    )


def reply_stream(*, message: Message) -> Iterator[str]:
    """Stream the assistant's reply to `message` and store it when done.

    If the reply already exists (a reconnecting client), it is streamed back unchanged,
    so one user message never gets two replies.
    """
    existing = selectors.message_reply(message=message)
    if existing is not None:
        yield existing.content
        return
    context = context_build(session=message.session, message=message)
    request = _reply_request(message=message, context=context)
    chunks: list[str] = []
    try:
        for chunk in llm.get_provider().stream_reply(request):
            chunks.append(chunk)
            yield chunk
    except llm.LLMError as exc:
        logger.warning("reply failed for message %s: %s", message.pk, exc)
        notice = "\n\n[The assistant could not be reached; please try again.]"
        chunks.append(notice)
        yield notice
    finally:
        if chunks:
            _store_reply(message=message, content="".join(chunks), context=context)


def _store_reply(*, message: Message, content: str, context: ChatContext) -> Message | None:
    from conversations.tasks import messages_embed

    content = content.strip() or "…"
    try:
        with transaction.atomic():
            reply = Message.objects.create(
                session_id=message.session_id,
                user_id=message.user_id,
                role=Message.Role.ASSISTANT,
                content=content,
                reply_to=message,
                topic_id=message.topic_id,
                created_at=timezone.now(),
                keywords=text_analysis.index_tokens(content),
                token_count=text_analysis.estimate_tokens(content),
                context=context.as_dict(),
            )
            if message.topic_id:
                Topic.objects.filter(pk=message.topic_id).update(
                    message_count=F("message_count") + 1
                )
            ChatSession.objects.filter(pk=message.session_id).update(
                last_message_at=reply.created_at
            )
            user_id = message.user_id
            transaction.on_commit(lambda: messages_embed.delay(user_id=user_id))
            return reply
    except IntegrityError:
        # Another stream stored the reply first (unique reply_to); keep that one.
        return selectors.message_reply(message=message)


def chat_exchange(*, session: ChatSession, content: str) -> Exchange:
    """Post a message and wait for the whole reply (the REST API's path)."""
    message, topic = message_add_user(session=session, content=content)
    for _chunk in reply_stream(message=message):
        pass
    reply = selectors.message_reply(message=message)
    assert reply is not None, "reply_stream always stores a reply"
    return Exchange(
        user_message=message,
        assistant_message=reply,
        topic=topic,
        context=ChatContext.from_dict(reply.context),
    )
