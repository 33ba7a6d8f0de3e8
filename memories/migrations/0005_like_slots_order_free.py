"""Like/dislike slots name their words in sorted order ("likes:food spicy"), so "spicy food"
and "food, spicy" fill one slot (memories.logic.rules._subject_key). Stored slots of more
than one word are rewritten the same way, so a restatement still finds the memory it restates.
"""

from django.db import migrations

_SQL = """
UPDATE {table} SET slot = 'likes:' || (
    SELECT string_agg(word, ' ' ORDER BY word COLLATE "C")
    FROM unnest(string_to_array(substr(slot, 7), ' ')) AS word
)
WHERE slot LIKE 'likes:% %'
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0004_receipt_kinds_session_message"),
    ]

    operations = [
        migrations.RunSQL(_SQL.format(table="memories_memory"), migrations.RunSQL.noop),
        migrations.RunSQL(_SQL.format(table="memories_memoryversion"), migrations.RunSQL.noop),
    ]
