"""The "my memories" pages: the list with search and filters, a memory's page with its history,
editing, approving, rejecting, marking wrong and deleting, the receipts, the access log, and
exporting or erasing all of one's data.

Every page and action works without JavaScript (forms post and redirect back to `next`).
With htmx, the list's search and filters swap only the results, and an action swaps only the
fragment it changed: the form names it in `fragment` (see `_FRAGMENTS`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from memories.forms import MemoryEditForm, MemoryFilterForm
from memories.logic.write_policy import CandidateKind, Origin
from memories.models import Memory, WrittenVia
from memories.reasons import ChangeReason
from memories.receipt_words import (
    copy_count,
    receipt_changed_conversations,
    receipt_copy_sentences,
    receipt_count_sentences,
)
from memories.selectors import (
    deletion_receipts_for_user,
    memory_get_for_user,
)
from memories.selectors.agents import access_log_for_user, agent_names_for_user
from memories.selectors.browse import (
    EXPIRING_SOON_DAYS,
    deletion_receipt_get_for_user,
    memory_extraction_finished,
    memory_filter_for_user,
    memory_ids_existing_for_user,
    memory_pending_count_for_user,
    memory_row_get_for_user,
    memory_search_for_user,
    memory_suggestions_for_message,
)
from memories.selectors.history import memory_history, memory_provenance, memory_uses
from memories.services import feedback, revision
from memories.services.revision import InvalidTransition, MemoryChanges, MemoryRefused
from memoryhub.validation import parse_id

PAGE_SIZE = 20
LOG_PAGE_SIZE = 50
USES_SHOWN = 50
# How often and how long a chat panel asks whether extraction has made suggestions yet.
SUGGESTION_POLL_SECONDS = 2
SUGGESTION_POLL_TRIES = 15

_LIST = "memories/memory_list.html"
_DETAIL = "memories/memory_detail.html"
_PANEL = "memories/memory_panel.html"
# The fragment an htmx action answers with, named by the form that sent it.
_FRAGMENTS = {
    "row": f"{_LIST}#memory-row",
    "detail": f"{_DETAIL}#memory-body",
    "suggestion": f"{_PANEL}#suggestion",
    "panel": f"{_PANEL}#wrong-done",
    "panel-undone": f"{_PANEL}#wrong-undone",
}


# The list's filters folded behind one control (the search box stays open).
_FILTERS = ("status", "type", "sensitivity", "expiring")


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _user(request: HttpRequest) -> AbstractBaseUser:
    """The logged-in user; only views behind login_required call this."""
    return cast(AbstractBaseUser, request.user)


def _id_parameter(raw: str, name: str) -> int:
    """A number from the query or form, or a 400 (`?message=²` was a 500)."""
    value = parse_id(raw)
    if value is None:
        raise BadRequest(f"{name} must be a number")
    return value


def _next_url(request: HttpRequest, default: str) -> str:
    """Where a no-JavaScript form goes back to: its `next` when it is on this site."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return default


def _is_partial(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


# The list


@login_required
@require_GET
@vary_on_headers("HX-Request")
def memory_list(request: HtmxHttpRequest) -> HttpResponse:
    user = _user(request)
    form = MemoryFilterForm(request.GET)
    filters = form.filters()
    memories = memory_filter_for_user(
        user=user,
        status=filters["status"],
        type=filters["type"],
        sensitivity=filters["sensitivity"],
        expiring_soon=filters["expiring"],
    )
    query = filters["q"].strip()
    items: Any = memories
    if query:
        items = [
            hit.memory for hit in memory_search_for_user(user=user, query=query, memories=memories)
        ]
    page = Paginator(items, PAGE_SIZE).get_page(request.GET.get("page"))
    # Only the list's own filters are carried into its links and forms: anything else in the
    # address is not repeated back on the page.
    params = QueryDict(mutable=True)
    for name in ("q", *_FILTERS):
        if request.GET.get(name):
            params[name] = request.GET[name]
    here = params.copy()
    if request.GET.get("page"):
        here["page"] = str(page.number)
    context = {
        "form": form,
        "query": query,
        "filtered": any(filters[name] for name in _FILTERS),
        "filter_count": sum(bool(filters[name]) for name in _FILTERS),
        "page": page,
        "query_string": params.urlencode(),
        "pending_count": memory_pending_count_for_user(user=user),
        "expiring_days": EXPIRING_SOON_DAYS,
        "next": reverse("memories:list") + (f"?{here.urlencode()}" if here else ""),
    }
    if _is_partial(request):
        return render(request, f"{_LIST}#memory-results", context)
    return render(request, _LIST, context)


# One memory


def _detail_context(
    request: HttpRequest, memory: Memory, form: MemoryEditForm | None = None
) -> dict[str, Any]:
    uses = memory_uses(memory=memory)
    shown_uses = list(uses[:USES_SHOWN])
    version = memory.current_version
    history = memory_history(memory=memory)
    provenance = memory_provenance(history=history)
    source_id = provenance.source_message_id
    return {
        "memory": memory,
        "version": version,
        "history": history,
        "provenance": provenance,
        "uses": shown_uses,
        "use_count": uses.count(),
        # Messages can be deleted while memories made from or used in them stay: the page
        # links only those that still exist (account's `chat_links` tags ask the chat).
        "chat_message_ids": [source_id, *(use.message_id for use in shown_uses)],
        "conflicts": getattr(memory, "live_conflicts", []),
        "form": form or MemoryEditForm.for_memory(memory),
        "edit_open": form is not None,
        "next": reverse("memories:detail", args=[memory.pk]),
    }


@login_required
@require_GET
@vary_on_headers("HX-Request")
def memory_detail(request: HtmxHttpRequest, memory_id: int) -> HttpResponse:
    memory = memory_get_for_user(user=_user(request), memory_id=memory_id)
    context = _detail_context(request, memory)
    if _is_partial(request):
        return render(request, f"{_DETAIL}#memory-body", context)
    return render(request, _DETAIL, context)


def _form_changes(form: MemoryEditForm, memory: Memory) -> MemoryChanges:
    """The form's fields as an edit (`memory_revise` finds whether anything changed)."""
    version = memory.current_version
    assert version is not None
    data = form.cleaned_data
    expires_at = data["expires_at"]
    if _same_minute(expires_at, version.expires_at):
        expires_at = version.expires_at
    return MemoryChanges(
        content=data["content"],
        type=data["type"],
        sensitivity=data["sensitivity"],
        expires_at=expires_at,
    )


def _same_minute(a: datetime | None, b: datetime | None) -> bool:
    """The form edits expiry to the minute, so seconds alone are no change."""
    if a is None or b is None:
        return a is b
    return a.replace(second=0, microsecond=0) == b.replace(second=0, microsecond=0)


@login_required
@require_http_methods(["GET", "POST"])
def memory_edit(request: HtmxHttpRequest, memory_id: int) -> HttpResponse:
    """Edit a memory: a new version that supersedes the current one (the old one is kept)."""
    user = _user(request)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    if request.method == "GET":
        # "Correct it" lands here: the form open, the text ready to type over.
        form = MemoryEditForm.for_memory(memory)
        form.fields["content"].widget.attrs["autofocus"] = True
        context = _detail_context(request, memory)
        context.update({"form": form, "edit_open": True})
        return render(request, _DETAIL, context)
    form = MemoryEditForm.for_memory(memory, data=request.POST)
    in_row = _is_partial(request) and request.POST.get("fragment") == "row"
    if form.is_valid():
        before = memory.current_version_id
        try:
            revised = revision.memory_revise(
                memory=memory,
                changes=_form_changes(form, memory),
                origin=Origin.USER,
                change_reason=ChangeReason.EDITED_BY_USER,
                change_params={"via": WrittenVia.PAGE},
            )
        except MemoryRefused as exc:
            form.add_error("content", _refusal_message(exc))
        else:
            saved = revised.current_version_id != before
            done = _("Saved as a new version.") if saved else _("Nothing was changed.")
            memory = memory_get_for_user(user=user, memory_id=memory.pk)
            if in_row:
                return _row_response(request, memory.pk, done=done)
            if _is_partial(request):
                context = _detail_context(request, memory)
                context["action_done"] = done
                return render(request, f"{_DETAIL}#memory-body", context)
            messages.success(request, done)
            return redirect("memories:detail", memory_id=memory.pk)
    if in_row:
        return _row_response(request, memory.pk, row_form=form)
    context = _detail_context(request, memory, form=form)
    if _is_partial(request):
        return render(request, f"{_DETAIL}#memory-body", context)
    return render(request, _DETAIL, context, status=400)


def _row_response(
    request: HtmxHttpRequest,
    memory_id: int,
    *,
    done: str = "",
    error: str = "",
    row_form: MemoryEditForm | None = None,
) -> HttpResponse:
    """The list row of a memory after an action in it; `row_form` an edit that failed."""
    memory = memory_row_get_for_user(user=_user(request), memory_id=memory_id)
    context = {
        "memory": memory,
        "next": request.POST.get("next", ""),
        "action_done": done,
        "action_error": error,
        "row_form": row_form,
    }
    return render(request, _FRAGMENTS["row"], context)


def _refusal_message(exc: MemoryRefused) -> str:
    """Why the write policy refused a memory, in the page's language (the recorded reason,
    `exc.result.reason`, is English for the logs and the API)."""
    kind = exc.result.kind
    if kind is CandidateKind.SECRET:
        return _("This looks like a password, token or key. Secrets are never stored.")
    if kind is CandidateKind.VOLATILE_FACT:
        return _("This changes too often to remember (prices, stock, weather, policies).")
    return _("This cannot be stored.")


def _action_response(
    request: HtmxHttpRequest, memory_id: int, *, error: str = "", done: str = ""
) -> HttpResponse:
    """After an action: the fragment the htmx form asked for, or a redirect back."""
    user = _user(request)
    fragment = _FRAGMENTS.get(request.POST.get("fragment", ""))
    if _is_partial(request) and fragment == _FRAGMENTS["row"]:
        return _row_response(request, memory_id, done=done, error=error)
    if _is_partial(request) and fragment is not None:
        memory = memory_get_for_user(user=user, memory_id=memory_id)
        if fragment == _FRAGMENTS["detail"]:
            context = _detail_context(request, memory)
        else:
            context = {"memory": memory, "next": request.POST.get("next", "")}
        context.update({"action_error": error, "action_done": done})
        return render(request, fragment, context)
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return redirect(_next_url(request, reverse("memories:detail", args=[memory_id])))


@login_required
@require_POST
def memory_approve(request: HtmxHttpRequest, memory_id: int) -> HttpResponse:
    user = _user(request)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    try:
        revision.memory_approve(user=user, memory=memory)
    except InvalidTransition:
        return _action_response(
            request, memory.pk, error=_("Only a memory waiting for approval can be approved.")
        )
    return _action_response(request, memory.pk, done=_("Approved: it will be remembered."))


@login_required
@require_POST
def memory_reject(request: HtmxHttpRequest, memory_id: int) -> HttpResponse:
    user = _user(request)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    try:
        revision.memory_reject(user=user, memory=memory)
    except InvalidTransition:
        return _action_response(request, memory.pk, error=_("This memory cannot be rejected."))
    return _action_response(request, memory.pk, done=_("Rejected: it will not be used."))


@login_required
@require_POST
def memory_mark_wrong(request: HtmxHttpRequest, memory_id: int) -> HttpResponse:
    """ "This is wrong": the memory is out of use at once, until undone or corrected."""
    user = _user(request)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    raw_message_id = request.POST.get("message_id", "")
    message_id = _id_parameter(raw_message_id, "message_id") if raw_message_id else None
    try:
        feedback.memory_mark_wrong(user=user, memory=memory, message_id=message_id)
    except InvalidTransition:
        return _action_response(request, memory.pk, error=_("This memory cannot be marked wrong."))
    done = _("Marked wrong: the assistant no longer uses it. Undo, or correct it.")
    return _action_response(request, memory.pk, done=done)


@login_required
@require_POST
def memory_mark_wrong_undo(request: HtmxHttpRequest, memory_id: int) -> HttpResponse:
    """Undo "this is wrong": the memory goes back to how it was."""
    user = _user(request)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    try:
        feedback.memory_mark_wrong_undo(user=user, memory=memory)
    except InvalidTransition:
        return _action_response(request, memory.pk, error=_("This memory is not marked wrong."))
    return _action_response(request, memory.pk, done=_("Undone: the memory is as it was."))


# Suggestions in the chat panel


@login_required
@require_GET
@vary_on_headers("HX-Request")
def memory_suggestions(request: HtmxHttpRequest) -> HttpResponse:
    """What the assistant proposed to remember from one exchange (`?message=` the user's
    message). With htmx, a fragment that asks again while extraction has not run yet."""
    message_id = _id_parameter(request.GET.get("message", "0"), "message")
    tries = _id_parameter(request.GET.get("tries", "0"), "tries")
    user = _user(request)
    suggestions = list(memory_suggestions_for_message(user=user, message_id=message_id))
    waiting = (
        not suggestions
        and tries < SUGGESTION_POLL_TRIES
        and not memory_extraction_finished(user=user, message_id=message_id)
    )
    back = _next_url(request, "")
    context = {
        "suggestions": suggestions,
        "message_id": message_id,
        "waiting": waiting,
        "tries": tries + 1,
        "poll_seconds": SUGGESTION_POLL_SECONDS,
        "next": back,
    }
    if _is_partial(request):
        return render(request, f"{_PANEL}#suggestions", context)
    # Without JavaScript an approval comes back to this page, which links back to the chat.
    context.update({"next": request.get_full_path(), "back": back})
    return render(request, "memories/memory_suggestions.html", context)


# Receipts, the access log, and all of one's data


@login_required
@require_GET
def receipt_list(request: HttpRequest) -> HttpResponse:
    receipts = deletion_receipts_for_user(user=_user(request))
    page = Paginator(receipts, LOG_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "memories/receipt_list.html", {"page": page})


@login_required
@require_GET
def receipt_detail(request: HttpRequest, receipt_id: UUID) -> HttpResponse:
    user = _user(request)
    receipt = deletion_receipt_get_for_user(user=user, receipt_id=receipt_id)
    copies = [c for c in receipt.copies if isinstance(c, dict)]
    changed = receipt_changed_conversations(copies)
    context = {
        "receipt": receipt,
        "copy_sentences": receipt_copy_sentences(copies),
        "count_sentences": receipt_count_sentences(
            receipt.removed, copies_named=sum(copy_count(c) for c in copies)
        ),
        # Only conversations that still exist are linked (account's `chat_links` tags ask
        # the chat); the others are named by date.
        "changed_conversations": changed,
    }
    return render(request, "memories/receipt_detail.html", context)


@login_required
@require_GET
def access_log(request: HttpRequest) -> HttpResponse:
    """Every time staff opened or changed the user's memories or chats, and every call of one
    of their connected agents: who, what and when."""
    user = _user(request)
    page = Paginator(access_log_for_user(user=user), LOG_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    memory_ids = [e.target_id for e in page if e.target_type == "memory"]
    memory_ids += [str(i) for e in page for i in e.detail.get("ids", [])]
    names = agent_names_for_user(user=user, ids=[e.detail.get("agent_id") for e in page])
    rows = [(event, names.get(event.detail.get("agent_id"), "")) for event in page]
    existing = memory_ids_existing_for_user(user=user, ids=memory_ids)
    context = {"page": page, "rows": rows, "existing": existing}
    return render(request, "memories/access_log.html", context)
