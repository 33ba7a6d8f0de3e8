"""Stamp the injection detector's verdict again where a release made it stale:

    python manage.py instruction_stamps_refresh [--user ID]

Recall reads each message's and summary's stored verdict instead of running the detector;
a release that changes the detector makes every stamp stale, and until it is stamped again a
text is read by the detector on every recall (safe, slower). Beat runs the same daily
(`conversations.tasks.instruction_stamps_refresh`); run this after upgrading to have it now.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.services import indexing


class Command(BaseCommand):
    help = "Stamp again the injection detector's verdicts a release made stale."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", type=int, default=None, help="only this user id")

    def handle(self, *args: Any, **options: Any) -> None:
        user_id = options["user"]
        if user_id is not None and user_id <= 0:
            raise CommandError("--user must be a positive user id")
        messages, summaries = indexing.instruction_stamps_refresh(user_id=user_id)
        self.stdout.write(f"stamped {messages} messages and {summaries} summaries")
