"""Print an API token for a user: `python manage.py issue_token USERNAME [--create]`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Print the API key of USERNAME (only the key, on stdout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true", help="create the user if missing")
        parser.add_argument("--rotate", action="store_true", help="replace an existing key")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"].strip()
        if not username or len(username) > 150:
            raise CommandError("USERNAME must be 1-150 characters")
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist:
            if not options["create"]:
                raise CommandError(f"no user {username!r}; pass --create to make one") from None
            user = User.objects.create_user(username=username)
            user.set_unusable_password()
            user.save(update_fields=["password"])
        if options["rotate"]:
            Token.objects.filter(user=user).delete()
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
