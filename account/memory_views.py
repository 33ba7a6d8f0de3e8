"""Deleting a memory from its page: a confirmation listing the copies in conversations that
go with it, then the deletion (`conversations.services.forgetting.memory_forget`) and its
receipt. Here rather than in memories' views because it reaches conversations."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from conversations.services.forgetting import memory_copies_find, memory_forget
from memories.selectors import memory_get_for_user


@login_required
@require_http_methods(["GET", "POST"])
def memory_delete(request: HttpRequest, memory_id: int) -> HttpResponse:
    """GET asks for confirmation; POST deletes every version and copy and shows the receipt.
    The list's rows confirm in place and post only after their few seconds of undo
    (static/js/memory_rows.js); they get the row that says it is gone, with the receipt."""
    user = cast(AbstractBaseUser, request.user)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    if request.method == "GET":
        copies = memory_copies_find(user_id=user.pk, memory_ids=[str(memory.pk)])
        return render(request, "memories/memory_delete.html", {"memory": memory, "copies": copies})
    receipt = memory_forget(user=user, memory=memory)
    if request.headers.get("HX-Request") == "true" and request.POST.get("fragment") == "row":
        context = {"memory_id": memory_id, "receipt": receipt}
        return render(request, "memories/memory_list.html#memory-row-deleted", context)
    messages.success(request, _("The memory was deleted for good."))
    return redirect("memories:receipt", receipt_id=receipt.id)
