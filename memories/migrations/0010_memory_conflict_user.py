"""`Memory.conflicts` gets an explicit through model on its existing table, and the table
gets the owner's `user_id`, filled from the memory each link starts from."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

FILL_USER = (
    "UPDATE memories_memory_conflicts AS link SET user_id = memory.user_id "
    "FROM memories_memory AS memory WHERE memory.id = link.from_memory_id"
)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0009_agents"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The table stays as it is; only Django's view of it changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="MemoryConflict",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "from_memory",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="memories.memory",
                            ),
                        ),
                        (
                            "to_memory",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="memories.memory",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memories_memory_conflicts",
                        "unique_together": {("from_memory", "to_memory")},
                    },
                ),
                migrations.AlterField(
                    model_name="memory",
                    name="conflicts",
                    field=models.ManyToManyField(
                        blank=True, through="memories.MemoryConflict", to="memories.memory"
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.AddField(
            model_name="memoryconflict",
            name="user",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        # Backwards the column is dropped with the field: nothing to undo here.
        migrations.RunSQL(FILL_USER, reverse_sql=migrations.RunSQL.noop),
        migrations.AlterField(
            model_name="memoryconflict",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
