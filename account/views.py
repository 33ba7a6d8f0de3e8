"""The data page: everything of the user's, across conversations and memories. Export it as
one JSON file, or erase it all (the account stays, empty, to show the receipt)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from account.forms import EraseConfirmForm
from account.selectors import user_data_export
from account.services import user_data_erase


def _user(request: HttpRequest) -> AbstractBaseUser:
    """The logged-in user; only views behind login_required call this."""
    return cast(AbstractBaseUser, request.user)


@login_required
@require_GET
def data_overview(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = EraseConfirmForm(username=user.get_username())
    return render(request, "account/data_overview.html", {"form": form})


@login_required
@require_GET
@never_cache
def data_export(request: HttpRequest) -> HttpResponse:
    """Everything of the user's as one JSON file."""
    user = _user(request)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response = JsonResponse(
        user_data_export(user=user), json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    response["Content-Disposition"] = f'attachment; filename="memoryhub-export-{stamp}.json"'
    return response


@login_required
@require_POST
def data_erase(request: HttpRequest) -> HttpResponse:
    """Delete all of the user's data once they typed their username (or "delete")."""
    user = _user(request)
    form = EraseConfirmForm(request.POST, username=user.get_username())
    if not form.is_valid():
        return render(request, "account/data_overview.html", {"form": form}, status=400)
    receipt = user_data_erase(user=user)
    messages.success(request, _("All your data was deleted. Your account stays, empty."))
    return redirect("memories:receipt", receipt_id=receipt.id)
