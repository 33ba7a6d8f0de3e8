"""Which question about the user a statement answers (its *slot*): pure, no Django.

A later memory replaces an earlier one only when both answer the same question, so a slot
names one question, finely and in one vocabulary for Korean and English alike:

- one answer at a time: `residence`, `hometown`, `household`, `name`, `job`, `work_mode`,
  `major`, `age`, `birthday`, `diet`, the user's `car`, `phone`, `timezone`, `wake_time`,
  `bed_time`, `exercise`, `commute`, `work_start` and `work_shift`, and how to answer:
  `answer_formality` (존댓말/반말), `answer_format` (bullets, table, prose), `answer_length`,
  `answer_language`, `units`, `emoji`;
- `prefers:<thing>:<dimension>`: a choice along one kind of modifier ("morning meetings" and
  "저녁 회의" share `prefers:meeting:time`; "short meetings" is `prefers:meeting:size`);
- `likes:<subject>`: liking and disliking one subject ("커피 좋아해", "I hate coffee");
- `favourite:<category>`, `allergy:<subject>`, `name:<relation>` ("my dog's name"),
  `pets:<animal>` (how many of one kind the user keeps: "a dog" then "two dogs").

`job` is the one occupation question, what the user does for a living or studies: a
workplace or a school is a detail of it, so "대학원생이에요" is replaced by "졸업하고 연구소
다녀요" and a new employer replaces a job title (`workplace` and `school` from a model are
read as `job`). A change said in words of change ("switched to ...", "갈아탔어", "그만두고
... 해요", "moved to X, so I'm on GMT now") answers the question of the new state; idioms of
살다/live ("못 살아", "can't live without") answer no residence question; words of when
("now", "요즘") never enter a key.

Two statements that can both be true never share a slot; a statement that answers no such
question gets "". Raw chat ("나 부산으로 이사했어") and clean fact phrasing ("부산으로 이사함",
"Lives in Busan", third-person notes) give the same slot. Subjects are normalised through a
small bilingual table (`커피` and `coffee` are `coffee`); other words keep their Korean lemma
or English stem.
"""

from memories.logic.slots.names import KEYED_PREFIXES, SINGLE_SLOTS, normalise_slot, valid
from memories.logic.slots.questions import question_of
from memories.logic.slots.vocab import DIMENSIONS, MAX_KEY_CHARS

__all__ = [
    "DIMENSIONS",
    "KEYED_PREFIXES",
    "MAX_KEY_CHARS",
    "SINGLE_SLOTS",
    "normalise_slot",
    "question_of",
    "valid",
]
