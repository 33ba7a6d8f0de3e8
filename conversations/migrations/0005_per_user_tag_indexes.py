"""Session tags and topic terms are searched per user: GIN on (user_id, tags | terms).

As migration 0004 did for message keywords: with a GIN index on the tags alone, PostgreSQL
built a bitmap of every user's sessions holding any of the 20 strongest tags (7,992 of 43,543
at 1M messages; 2.1 ms) and ANDed it with the user's. Session recall's summary neighbours
and topic recall read only the user's own entries now. The session vector stays in the row
(STORAGE MAIN, as the message vectors): a session with a long summary and state would
otherwise move it to TOAST, one more index lookup per session the neighbour scan reads.
Measured with `manage.py bench_latency` (docs/benchmarks.md).
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("conversations", "0004_search_speed"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="chatsession",
            index=GinIndex(fields=["user", "tags"], name="chatsession_user_tags_gin"),
        ),
        RemoveIndexConcurrently(model_name="chatsession", name="chatsession_tags_gin"),
        AddIndexConcurrently(
            model_name="topic",
            index=GinIndex(fields=["user", "terms"], name="topic_user_terms_gin"),
        ),
        RemoveIndexConcurrently(model_name="topic", name="topic_terms_gin"),
        migrations.RunSQL(
            "ALTER TABLE conversations_chatsession ALTER COLUMN embedding SET STORAGE MAIN",
            "ALTER TABLE conversations_chatsession ALTER COLUMN embedding SET STORAGE EXTERNAL",
        ),
    ]
