"""Admin pieces that span the apps: the login form and view, and memories' admin with its
purge (`conversations.services.forgetting.memory_staff_purge`, which removes the copies too)."""

from typing import Any

from django.contrib import admin
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse

from account.auth import AdminLoginForm
from account.devices import device_cookie_set
from conversations.services.forgetting import memory_staff_purge
from memories import admin as memories_admin
from memories.models import Memory

admin.site.login_form = AdminLoginForm  # the same failed-login budget as the site's login
_admin_login = admin.site.login


def _admin_login_with_device_cookie(
    request: HttpRequest, extra_context: dict[str, Any] | None = None
) -> HttpResponse:
    """Admin's login view; a successful login gives the browser a device cookie, as the
    site's does (staff accounts are the ones most worth locking out)."""
    response = _admin_login(request, extra_context)
    if request.method == "POST" and response.status_code == 302 and request.user.is_authenticated:
        device_cookie_set(request=request, response=response, user=request.user)
    return response


admin.site.login = _admin_login_with_device_cookie  # type: ignore[method-assign]


@admin.register(Memory)
class MemoryAdmin(memories_admin.MemoryAdmin):
    def purge(self, *, actor: AbstractBaseUser, memory: Memory) -> None:
        memory_staff_purge(actor=actor, memory=memory)
