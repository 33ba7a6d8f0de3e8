"""Speed of the per-user search (conversations/search.py); nothing it returns changes.

1. A GIN index on (user_id, keywords) (btree_gin) replaces the one on keywords alone. Every
   keyword query is per user; with the keywords-only index PostgreSQL builds a bitmap of every
   user's rows holding the terms and ANDs it with the user's (at 1M messages a common term
   matches ~10% of the table). With user_id in the same GIN index only the user's matching
   rows are read: for a user with 50,000 of 1M messages, p50 21 -> 12 ms, p95 65 -> 27 ms.
2. The search vector stays in the row (STORAGE MAIN instead of pgvector's EXTERNAL). A row
   carries two 1.5 kB vectors; past PostgreSQL's 2 kB row target both were moved to the TOAST
   table, so the exact per-user scan paid a TOAST index lookup for each such row: at 1M
   messages 17% of the rows and 73% of the pages the scan read. Takes effect for rows written
   from now on (every message's search vector is written again when its neighbours change).
   An ALTER COLUMN ... TYPE on this column would reset it.

The indexes are built and dropped CONCURRENTLY so a large table is not locked meanwhile; the
storage change is raw SQL (Django has no operation for it). Measured in docs/benchmarks.md
(`manage.py bench_latency`).
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.operations import (
    AddIndexConcurrently,
    BtreeGinExtension,
    RemoveIndexConcurrently,
)
from django.db import migrations


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("conversations", "0003_remove_message_message_embedding_hnsw_and_more"),
    ]

    operations = [
        BtreeGinExtension(),
        AddIndexConcurrently(
            model_name="message",
            index=GinIndex(fields=["user", "keywords"], name="message_user_keywords_gin"),
        ),
        RemoveIndexConcurrently(model_name="message", name="message_keywords_gin"),
        migrations.RunSQL(
            "ALTER TABLE conversations_message ALTER COLUMN context_embedding SET STORAGE MAIN",
            "ALTER TABLE conversations_message ALTER COLUMN context_embedding SET STORAGE EXTERNAL",
        ),
    ]
