"""Keep the messages table's visibility map current, which the covering index of migration 0008
needs: an index-only scan reads a row's page for every entry whose page is not marked
all-visible, and a user's entries lie on pages spread over the whole table (at a million
messages, 50,000 entries read this way took 233 ms instead of 15).

- VACUUM once after the rewrite of 0008, which left no page marked;
- vacuum the table after 1% of new or changed rows instead of PostgreSQL's 20%, so the pages
  of recent messages are marked within minutes rather than after the table grows by a fifth.

VACUUM cannot run in a transaction: this migration is not atomic.
"""

from django.db import migrations


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("conversations", "0008_message_half_cover"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE conversations_message SET ("
            "autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.02)",
            "ALTER TABLE conversations_message RESET ("
            "autovacuum_vacuum_insert_scale_factor, autovacuum_vacuum_scale_factor)",
        ),
        migrations.RunSQL("VACUUM (ANALYZE) conversations_message", migrations.RunSQL.noop),
    ]
