"""Which question about the user a statement answers (its *slot*): pure, no Django.

A later memory replaces an earlier one only when both answer the same question, so a slot
names one question, finely and in one vocabulary for Korean and English alike:

- one answer at a time: `residence`, `hometown`, `household`, `name`, `job`, `workplace`,
  `work_mode`, `school`, `major`, `age`, `birthday`, `diet`, and how to answer:
  `answer_formality` (존댓말/반말), `answer_format` (bullets, table, prose), `answer_length`,
  `answer_language`, `units`, `emoji`;
- `prefers:<thing>:<dimension>`: a choice along one kind of modifier ("morning meetings" and
  "저녁 회의" share `prefers:meeting:time`; "short meetings" is `prefers:meeting:size`);
- `likes:<subject>`: liking and disliking one subject ("커피 좋아해", "I hate coffee");
- `favourite:<category>`, `allergy:<subject>`, `name:<relation>` ("my dog's name").

Two statements that can both be true never share a slot; a statement that answers no such
question gets "". Raw chat ("나 부산으로 이사했어") and clean fact phrasing ("부산으로 이사함",
"Lives in Busan", third-person notes) give the same slot. Subjects are normalised through a
small bilingual table (`커피` and `coffee` are `coffee`); other words keep their Korean lemma
or English stem.
"""

from memories.services.slots.names import KEYED_PREFIXES, SINGLE_SLOTS, normalise_slot, valid
from memories.services.slots.questions import question_of
from memories.services.slots.vocab import DIMENSIONS, MAX_KEY_CHARS

__all__ = [
    "DIMENSIONS",
    "KEYED_PREFIXES",
    "MAX_KEY_CHARS",
    "SINGLE_SLOTS",
    "normalise_slot",
    "question_of",
    "valid",
]
