"""The chat pages: the session list, a session's chat, sending a message and streaming the reply,
what each turn made of memory (with undo), ending a session, and the user's tags with their
weights over time.

Every page works without JavaScript. With htmx, sending returns only the new exchange, and the
reply streams into it over server-sent events from `message_reply`; the notices of what the
turn remembered follow by polling `message_memory_updates` until its extraction has run.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import cast

from django.conf import settings
from django.contrib import messages as django_messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh, reswap, retarget
from django_htmx.middleware import HtmxDetails

from conversations import selectors
from conversations.forms import MessageForm
from conversations.logic.prompt_context import ChatContext
from conversations.models import ChatSession, Message, TagWeightHistory
from conversations.services import chat, deletion, tag_weights
from conversations.services import memory_updates as memory_update_services
from conversations.services import sessions as session_services
from memories.redaction_labels import render_placeholders
from memories.selectors import memory_get_for_user
from memories.selectors.browse import memory_extraction_finished
from memoryhub import charts
from memoryhub.throttles import page_throttle_wait
from memoryhub.validation import InvalidText, parse_id

logger = logging.getLogger(__name__)

_DETAIL = "conversations/session_detail.html"
_SSE_LINE_BREAK = re.compile(r"\r\n|\r|\n")
TAG_CHART_DAYS = 60
# Room on the left for the weight labels and below for the dates and the axis title.
TAG_CHART_BOX = charts.PlotBox(width=320, height=140, padding=4, label_left=40, label_bottom=34)
# How often and how long a reply's notices ask whether its turn's extraction has run.
NOTICE_POLL_SECONDS = 2
NOTICE_POLL_TRIES = 15


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@dataclass(frozen=True)
class ExchangeRow:
    """One user message and the reply to it, as the chat page shows them.

    `pending` marks a user message whose reply is still to be streamed. Imported history
    can hold a lone user message or a lone assistant message; either side may be None.
    """

    message: Message | None
    reply: Message | None
    remembered: ChatContext
    pending: bool = False
    # What the user message made of memory, and whether its extraction is still to run.
    memory_updates: tuple[selectors.MemoryUpdate, ...] = ()
    updates_waiting: bool = False


def _user(request: HttpRequest) -> AbstractBaseUser:
    """The logged-in user; only views behind login_required call this."""
    return cast(AbstractBaseUser, request.user)


def _exchange_rows(session: ChatSession, messages: list[Message]) -> list[ExchangeRow]:
    replies = {m.reply_to_id: m for m in messages if m.reply_to_id is not None}
    updates: defaultdict[int, list[selectors.MemoryUpdate]] = defaultdict(list)
    for update in selectors.session_memory_updates(session=session):
        updates[update.message_id].append(update)
    rows: list[ExchangeRow] = []
    for m in messages:
        if m.role == Message.Role.USER:
            reply = replies.get(m.pk)
            rows.append(
                ExchangeRow(
                    message=m,
                    reply=reply,
                    remembered=ChatContext.from_dict(reply.context if reply else None),
                    memory_updates=tuple(updates[m.pk]),
                )
            )
        elif m.reply_to_id is None:
            rows.append(
                ExchangeRow(message=None, reply=m, remembered=ChatContext.from_dict(m.context))
            )
    # A live session's last message without a reply was sent with htmx and the page left
    # before its reply stream started; the page starts it again (reply_stream is idempotent).
    last = rows[-1] if rows else None
    if (
        last is not None
        and last.message is not None
        and last.reply is None
        and session.source == ChatSession.Source.LIVE
    ):
        rows[-1] = ExchangeRow(
            message=last.message, reply=None, remembered=ChatContext(), pending=True
        )
    elif (
        last is not None
        and last.message is not None
        and last.reply is not None
        and not last.memory_updates
        and session.source == ChatSession.Source.LIVE
        and not memory_extraction_finished(user=session.user, message_id=last.message.pk)
    ):
        # The newest turn's memories are still being extracted: its notices keep asking.
        rows[-1] = replace(last, updates_waiting=True)
    return rows


def _detail_context(
    session: ChatSession, form: MessageForm, *, session_closed: bool = False
) -> dict[str, object]:
    messages = list(selectors.session_messages(session=session))
    return {
        "session": session,
        "exchanges": _exchange_rows(session, messages),
        "topics": selectors.session_topics_with_ranges(session=session),
        "form": form,
        "session_closed": session_closed or session.status != ChatSession.Status.ACTIVE,
        # A person who has not written yet is told what the assistant remembers, and where.
        "first_use": not messages and not selectors.user_has_written(user=session.user),
    }


@login_required
@require_GET
def session_list(request: HttpRequest) -> HttpResponse:
    sessions = selectors.chat_session_list_for_user(user=_user(request))
    return render(request, "conversations/session_list.html", {"sessions": sessions})


@login_required
@require_POST
def session_create(request: HttpRequest) -> HttpResponse:
    session = chat.chat_session_create(user=_user(request))
    return redirect("chat:session-detail", session_id=session.pk)


@login_required
@require_GET
def session_detail(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The chat page; with htmx and `?wait=ended`, 204 while ending, then a client refresh.

    An ending session's page polls that way, so it reloads once tags and summary are made.
    """
    session = selectors.chat_session_get_for_user(user=_user(request), session_id=session_id)
    if request.htmx and request.GET.get("wait") == "ended":
        if session.status == ChatSession.Status.ENDING:
            return HttpResponse(status=204)
        return HttpResponseClientRefresh()
    return render(request, _DETAIL, _detail_context(session, MessageForm()))


@login_required
@require_POST
def session_end(request: HttpRequest, session_id: int) -> HttpResponse:
    """End the session now; its tags and summary are made in the background."""
    session = selectors.chat_session_get_for_user(user=_user(request), session_id=session_id)
    session_services.session_end(session=session)
    return redirect("chat:session-detail", session_id=session.pk)


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """GET asks for confirmation (the page without JavaScript); POST deletes the session and
    every copy of its text. With htmx (confirmed in the browser) the list row becomes a note
    with the receipt; otherwise the receipt page follows."""
    user = _user(request)
    session = selectors.chat_session_get_for_user(user=user, session_id=session_id)
    if request.method == "GET":
        return render(request, "conversations/session_delete.html", {"session": session})
    receipt = deletion.chat_session_delete(user=user, session=session)
    if request.htmx:
        return render(
            request, "conversations/session_list.html#session-deleted", {"receipt": receipt}
        )
    django_messages.success(request, _("The conversation was deleted for good."))
    return redirect("memories:receipt", receipt_id=receipt.id)


@login_required
@require_GET
def message_detail(request: HttpRequest, message_id: int) -> HttpResponse:
    """A message's permanent link: its session's chat page, scrolled to the message.

    Memory pages link here by message id alone (memories never imports conversations).
    """
    message = selectors.message_get_for_user(user=_user(request), message_id=message_id)
    url = reverse("chat:session-detail", args=[message.session_id])
    return redirect(f"{url}#message-{message.pk}")


@login_required
@require_POST
def message_create(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Store the user's message; without htmx also wait for the whole reply, then redirect."""
    session = selectors.chat_session_get_for_user(user=_user(request), session_id=session_id)
    form = MessageForm(request.POST)
    session_closed = False
    status = 400
    wait = page_throttle_wait(request, "chat") if form.is_valid() else None
    if wait is not None:
        status = 429
        form.add_error(
            "content",
            ngettext(
                "Too many messages in a short time; try again in %(seconds)d second.",
                "Too many messages in a short time; try again in %(seconds)d seconds.",
                wait,
            )
            % {"seconds": wait},
        )
    if form.is_valid():
        untitled = not session.title
        try:
            message, _topic = chat.message_add_user(
                session=session, content=form.cleaned_data["content"]
            )
        except InvalidText as exc:
            form.add_error("content", str(exc))
        except chat.SessionClosed:
            session_closed = True
        else:
            if request.htmx:
                # The first message names the conversation: the page's heading and the
                # document's title change with it (out of band), not only on the next load.
                if untitled:
                    session.refresh_from_db(fields=["title", "last_message_at"])
                return render(
                    request,
                    f"{_DETAIL}#exchange",
                    {
                        "session": session,
                        "exchange": ExchangeRow(
                            message=message, reply=None, remembered=ChatContext(), pending=True
                        ),
                        "form": MessageForm(),
                        "form_oob": True,
                        "title_oob": untitled,
                        # The message opened or grew a topic: the outline shows it now.
                        "outline_oob": True,
                        "topics": selectors.session_topics_with_ranges(session=session),
                    },
                )
            for _chunk in chat.reply_stream(message=message):
                pass
            return redirect("chat:session-detail", session_id=session.pk)
    if session_closed:
        session.refresh_from_db()
    if request.htmx:
        response = render(
            request,
            f"{_DETAIL}#message-form",
            {"session": session, "form": form, "session_closed": session_closed},
        )
        if status == 429:
            response["Retry-After"] = str(wait)
        return reswap(retarget(response, "#message-form"), "outerHTML")
    context = _detail_context(session, form, session_closed=session_closed)
    response = render(request, _DETAIL, context, status=409 if session_closed else status)
    if status == 429:
        response["Retry-After"] = str(wait)
    return response


def _sse_event(event: str, data: str) -> bytes:
    """One server-sent event; every line of `data` gets its own `data:` field."""
    lines = "".join(f"data: {line}\n" for line in _SSE_LINE_BREAK.split(data))
    return f"event: {event}\n{lines}\n".encode()


def _shown(chunks: Iterable[str]) -> Iterator[str]:
    """The chunks as a page shows stored text: markers ("[redacted: password]") in words. A
    marker may span chunks (the offline reply streams word by word), so text from an
    unclosed "[" waits, within a marker's length, for its "]"."""
    held = ""
    for chunk in chunks:
        held += chunk
        cut = held.rfind("[")
        if cut != -1 and "]" not in held[cut:] and len(held) - cut < _MARKER_MAX_CHARS:
            ready, held = held[:cut], held[cut:]
        else:
            ready, held = held, ""
        if ready:
            yield render_placeholders(ready)
    if held:
        yield render_placeholders(held)


_MARKER_MAX_CHARS = 120


def _reply_events(request: HttpRequest, message: Message) -> Iterator[bytes]:
    try:
        with translation.override(getattr(request, "LANGUAGE_CODE", translation.get_language())):
            for chunk in _shown(chat.reply_stream(message=message)):
                yield _sse_event("chunk", escape(chunk))
    except Exception:
        # The response has started, so no error page can be sent: say so in the reply and
        # end with `done`, or the browser would reconnect and fail again in a loop.
        logger.exception("reply stream failed for message %s", message.pk)
        yield _sse_event("chunk", escape("\n\n" + _("The reply could not be finished.")))
    reply = selectors.message_reply(message=message)
    remembered = ChatContext.from_dict(reply.context if reply else None)
    updates = selectors.session_memory_updates(session=message.session, message_ids=[message.pk])
    panel = render_to_string(
        f"{_DETAIL}#remembered-panel",
        # The panel's actions need the exchange: "this is wrong" names the reply, and the
        # suggestions are the memories proposed from the user's message.
        {
            "remembered": remembered,
            "session": message.session,
            "source_message": message,
            "reply": reply,
            "memory_updates": updates,
            # Extraction runs after the reply is stored: the notices ask until it has.
            "updates_waiting": not updates
            and not memory_extraction_finished(user=_user(request), message_id=message.pk),
            # The reply counts in its topic: the outline is sent again with it.
            "outline_oob": True,
            "topics": selectors.session_topics_with_ranges(session=message.session),
        },
        request=request,
    )
    yield _sse_event("done", panel.strip())


@login_required
@require_GET
def message_reply(request: HttpRequest, session_id: int, message_id: int) -> StreamingHttpResponse:
    """Stream the reply to one of the user's messages as server-sent events.

    Events: `chunk` (escaped reply text, in order) and a final `done` whose data is the
    "remembered" panel. A reconnect gets the stored reply whole.
    """
    session = selectors.chat_session_get_for_user(user=_user(request), session_id=session_id)
    message = get_object_or_404(
        selectors.session_messages(session=session), pk=message_id, role=Message.Role.USER
    )
    response = StreamingHttpResponse(
        _reply_events(request, message), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@login_required
@require_GET
def message_memory_updates(request: HtmxHttpRequest, message_id: int) -> HttpResponse:
    """The notices of what one user message made of memory (a fragment for htmx, which asks
    again while the turn's extraction has not run); without htmx, the message in its chat."""
    user = _user(request)
    message = selectors.message_get_for_user(user=user, message_id=message_id)
    if message.role != Message.Role.USER:
        raise Http404("No such message.")
    if not request.htmx:
        return redirect("chat:message-detail", message_id=message.pk)
    tries = parse_id(request.GET.get("tries", "0"))
    if tries is None:
        raise BadRequest("tries must be a number")
    updates = selectors.session_memory_updates(session=message.session, message_ids=[message.pk])
    waiting = (
        not updates
        and tries < NOTICE_POLL_TRIES
        and not memory_extraction_finished(user=user, message_id=message.pk)
    )
    return render(
        request,
        f"{_DETAIL}#memory-notices-content",
        {
            "session": message.session,
            "source_message": message,
            "reply": selectors.message_reply(message=message),
            "memory_updates": updates,
            "updates_waiting": waiting,
            "tries": tries + 1,
            "poll_seconds": NOTICE_POLL_SECONDS,
        },
    )


@login_required
@require_POST
def memory_update_undo(request: HtmxHttpRequest, message_id: int, memory_id: int) -> HttpResponse:
    """Undo what the user's message made of one memory: a created memory is deleted (with a
    receipt), an updated one goes back to its previous version. Without htmx, back to the chat.
    """
    user = _user(request)
    message = selectors.message_get_for_user(user=user, message_id=message_id)
    if message.role != Message.Role.USER:
        raise Http404("No such message.")
    undone: memory_update_services.MemoryUpdateUndone | None
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    try:
        undone = memory_update_services.memory_update_undo(
            user=user, message=message, memory=memory
        )
    except memory_update_services.NothingToUndo:
        undone = None
        note = _("There is nothing to undo here any more.")
    else:
        if undone.action == "deleted":
            note = _("Undone: the memory was deleted.")
        else:
            note = _("Undone: the memory is back to its previous version.")
    if request.htmx:
        return render(
            request,
            f"{_DETAIL}#memory-notice-undone",
            # 200 either way: htmx swaps only a success, and the note is the answer.
            {"undone": undone, "note": note, "message_id": message.pk, "memory_id": memory_id},
        )
    if undone is None:
        django_messages.error(request, note)
    else:
        django_messages.success(request, note)
    return redirect("chat:message-detail", message_id=message.pk)


@dataclass(frozen=True)
class TagRow:
    """One tag on the tags page: its weight now and its recent daily weights."""

    tag: str
    weight: float
    history: list[tuple[date, float]]
    chart: charts.LineChart


def _tag_rows(
    weights: Sequence[tuple[str, float, datetime]],
    history: Sequence[TagWeightHistory],
    *,
    start: date,
    today: date,
) -> tuple[list[TagRow], float]:
    """The rows, and the top of the scale all their charts share."""
    by_tag: defaultdict[str, dict[date, float]] = defaultdict(dict)
    for row in history:
        by_tag[row.tag][row.day] = row.weight
    for tag, weight, _updated_at in weights:
        # History is written at day's end; today's point is the weight shown beside the chart.
        by_tag[tag][today] = weight
    y_max = charts.nice_top(
        max((w for days in by_tag.values() for w in days.values()), default=0.0)
    )
    rows = []
    for tag, weight, _updated_at in weights:
        series = sorted(by_tag[tag].items())
        chart = charts.daily_line_chart(
            series, start=start, end=today, y_max=y_max, box=TAG_CHART_BOX
        )
        rows.append(TagRow(tag=tag, weight=weight, history=series, chart=chart))
    return rows, y_max


@login_required
@require_GET
def tag_list(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    today = timezone.localdate()
    start = today - timedelta(days=TAG_CHART_DAYS - 1)
    weights = tag_weights.tag_weights_effective(user_id=user.pk)
    history = selectors.tag_weight_history_for_user(
        user=user, since=start, tags=[tag for tag, _weight, _updated_at in weights]
    )
    rows, y_max = _tag_rows(weights, list(history), start=start, today=today)
    box = TAG_CHART_BOX
    return render(
        request,
        "conversations/tag_list.html",
        {
            "tags": rows,
            "y_max": y_max,
            "axes": charts.daily_axes(start=start, end=today, y_max=y_max, box=box),
            "box": box,
            "decay_percent": round((1 - settings.MEMORYHUB_TAG_DECAY_FACTOR) * 100, 1),
            "start": start,
            "today": today,
            "chart_days": TAG_CHART_DAYS,
            "decay_factor": settings.MEMORYHUB_TAG_DECAY_FACTOR,
            "floor": settings.MEMORYHUB_TAG_FLOOR,
            "end_boost": session_services.END_TAG_BOOST,
            "recall_boost": session_services.RECALL_TAG_BOOST,
        },
    )
