"""Slots name the question a memory answers (memories.logic.slots.question_of), finely:
"answer_style" became answer_formality / answer_format / answer_length / ..., "language"
became answer_language, "prefers:meetings" became prefers:meeting:time or :size, and like
subjects share one bilingual vocabulary ("likes:커피" is "likes:coffee").

Every version's slot is worked out again from its own content; when the content answers no
known question, a stored slot that is still a valid name is kept (normalised) and an old coarse
one ("answer_style", "language") is cleared, so the memory is simply never replaced by a later
statement. Only slots change: no memory, version or content is touched or removed. A memory's
slot follows its current version. Going backwards leaves the new slots in place (older code
reads them as plain strings).
"""

from django.db import migrations

from memories.logic import slots

_BATCH = 500


def _new_slot(content: str, old: str) -> str:
    return slots.question_of(content) or slots.normalise_slot(old)


def recompute_slots(apps, schema_editor):
    memory_version = apps.get_model("memories", "MemoryVersion")
    memory_model = apps.get_model("memories", "Memory")
    changed = []
    for version in memory_version.objects.only("id", "content", "slot").iterator(_BATCH):
        slot = _new_slot(version.content, version.slot)
        if slot != version.slot:
            version.slot = slot
            changed.append(version)
        if len(changed) >= _BATCH:
            memory_version.objects.bulk_update(changed, ["slot"])
            changed = []
    memory_version.objects.bulk_update(changed, ["slot"])

    changed = []
    memories = memory_model.objects.exclude(current_version=None).select_related("current_version")
    for memory in memories.only("id", "slot", "current_version__slot").iterator(_BATCH):
        if memory.slot != memory.current_version.slot:
            memory.slot = memory.current_version.slot
            changed.append(memory)
        if len(changed) >= _BATCH:
            memory_model.objects.bulk_update(changed, ["slot"])
            changed = []
    memory_model.objects.bulk_update(changed, ["slot"])


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0007_memory_disputed"),
    ]

    operations = [migrations.RunPython(recompute_slots, migrations.RunPython.noop)]
