"""Admin pieces that span the apps: the login form, and memories' admin with its purge
(`conversations.services.forgetting.memory_staff_purge`, which removes the copies too)."""

from django.contrib import admin
from django.contrib.auth.models import AbstractBaseUser

from account.auth import AdminLoginForm
from conversations.services.forgetting import memory_staff_purge
from memories import admin as memories_admin
from memories.models import Memory

admin.site.login_form = AdminLoginForm  # the same failed-login budget as the site's login


@admin.register(Memory)
class MemoryAdmin(memories_admin.MemoryAdmin):
    def purge(self, *, actor: AbstractBaseUser, memory: Memory) -> None:
        memory_staff_purge(actor=actor, memory=memory)
