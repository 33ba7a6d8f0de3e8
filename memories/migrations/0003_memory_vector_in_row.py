"""Memory vectors stay in the row (STORAGE MAIN instead of pgvector's EXTERNAL).

A version's row with its 1.5 kB vector passes PostgreSQL's 2 kB row target once the content
and keyword tokens are added, and the vector moved to the TOAST table: retrieval, which
computes the cosine of every live version of the user, then read a TOAST page per row (at
5,000 memories, 1,749 of 3,071 pages read). Stored versions are rewritten so the change
applies to them too (versions are otherwise written once; the vector is the same value).
Measured with `manage.py bench_latency` (docs/benchmarks.md).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0002_memory_auditor_group"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE memories_memoryversion ALTER COLUMN embedding SET STORAGE MAIN",
            "ALTER TABLE memories_memoryversion ALTER COLUMN embedding SET STORAGE EXTERNAL",
        ),
        migrations.RunSQL(
            "UPDATE memories_memoryversion SET embedding = embedding::real[]::vector "
            "WHERE embedding IS NOT NULL",
            migrations.RunSQL.noop,
        ),
    ]
