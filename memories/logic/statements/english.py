"""English clauses read by a small clause analysis: pronouns, auxiliaries, verb forms."""

from __future__ import annotations

import re
from datetime import date

from memories.logic.slots.cues import EN_LIMIT
from memories.logic.statements.clause import _QUOTED, Clause, is_hypothetical

_EN_FIRST = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|im|ive|me|my|mine|myself|we|we're|we've|"
    r"our|ours|us)\b",
    re.IGNORECASE,
)
_EN_I = re.compile(r"^(?:I|im|i'm|ive|i've|i'd|i'll)\b", re.IGNORECASE)
_EN_CIRCLE_SUBJECT = re.compile(
    r"^(?:the\s+|our\s+|my\s+)?(?:kids?|children|husband|wife|partner|son|daughter|mom|mother|"
    r"dad|father|parents|family|baby|team|cat|dog|boyfriend|girlfriend|fianc[ée]e?|sister|"
    r"brother|grandma|grandpa|grandmother|grandfather|grandparents|in-laws|uncle|aunt|cousin|"
    r"nephew|niece|stepmom|stepdad|(?:father|mother|brother|sister|son|daughter)[\s-]in[\s-]law)\b",
    re.IGNORECASE,
)
_EN_NESTED_OTHER = re.compile(
    r"\bmy\s+(?:friend|coworker|co-worker|colleague|neighbou?r|boss|classmate|roommate)'s\b|"
    # someone of one's people who is no kin of the speaker's: "my cousin's boyfriend", "my
    # sister's friend", "my son's teacher"
    r"^(?:my\s+|our\s+)?(?:best\s+|old\s+|little\s+|big\s+|older\s+|younger\s+)?"
    r"[a-z-]+'s\s+(?:best\s+)?(?:friends?|boyfriend|girlfriend|bf|gf|"
    r"fianc[ée]e?|ex|coworkers?|co-workers?|colleagues?|boss|roommate|neighbou?rs?|classmates?|"
    r"teacher|landlord)\b|"
    r"^(?:my|our|a|the)\s+(?:friend|friends|coworker|co-worker|colleague|neighbou?r|neighbou?rs|"
    r"classmate|buddy|pal|mate|boss|manager|teammate|roommate|landlord|landlady|supervisor|"
    # a role at work: "our CTO", "my team lead", "the head nurse" is no kin of the speaker's
    r"ceo|cto|cfo|coo|vp|director|(?:team|tech)\s+lead|lead|head\s+nurse|charge\s+nurse|"
    r"principal|professor|advisor|adviser|pi|doorman|janitor|guy\s+next\s+door|lady\s+(?:next\s+door|upstairs|downstairs)|"
    r"(?:guy|people|family|couple)\s+(?:upstairs|downstairs|across\s+the\s+hall))\b"
    r"(?!\s+and\s+I)",
    re.IGNORECASE,
)
_EN_MINE = re.compile(r"^(?:my|our)\s+(?:fav(?:ou?rite)?|fave|go-to|all-time)\b", re.IGNORECASE)
_EN_YOU = re.compile(r"^(?:you|you're|your|can\s+you|could\s+you|would\s+you|will\s+you)\b", re.I)
_EN_QUESTION = re.compile(
    r"^(?:do|does|did|what|where|who|whom|how|why|when|which|can|could|would|will|should|is|are|"
    r"am|was|were|any)\b(?!['’]t)|^(?:have|has)\s+(?:you|i|we|they|he|she|it|there|anyone|"
    r"anybody|any|u)\b",
    re.IGNORECASE,
)
_EN_HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|what\s+if|hypothetically|pretend|let's\s+say)\b|"
    r"\b(?:if\s+I\s+(?:were|had|won|could|was)|I'd\s+\w+\s+if|would\s+\w+\s+if|i\s+wish|"
    r"(?:i\s+)?wonder(?:ing)?\s+(?:if|whether|what|how|why)|"
    # what one ought to do or wishes one could, not what one does: "i should probably start
    # flossing", "wish i could afford a tesla"
    r"i\s+(?:really\s+|probably\s+|prob\s+|seriously\s+|honestly\s+)*(?:should|ought\s+to|"
    r"oughta|gotta)\s+(?:really\s+|probably\s+|finally\s+|actually\s+)*(?!be\b|have\b|"
    r"been\b)[a-z]+|(?:^|\s)wish\s+i\s+(?:could|had|was|"
    r"were|did))\b",
    re.IGNORECASE,
)
_EN_QUOTATION = re.compile(
    r"\b(?:says|said|told\s+me|tells\s+me|according\s+to|as\s+\w+\s+(?:said|says)|"
    r"apparently|supposedly|allegedly|heard\s+that|reckons|rumou?r\s+(?:has\s+it|is)|word\s+is|"
    # news heard of a thing or of others: "heard the gym is closing", "I heard they're hiring"
    r"(?:^|(?<=\bi\s)|(?<=\bjust\s))heard\s+(?:from\s+\w+\s+)?(?:that\s+)?(?:the|a|an|our|they|"
    r"he|she|it|there|someone|somebody|people|everyone)\b|"
    # someone's message passed on: "mom texted asking if I'd eaten", "dad called to tell me"
    r"(?:texted|messaged|called|emailed|wrote)\s+(?:me\s+)?(?:to\s+(?:ask|tell|say|remind)|"
    r"asking|saying)|"
    # someone else's opinion of the speaker: their view, not the speaker's fact
    r"thinks|believes|feels\s+(?:like|that)|wants\s+me\s+to|insists|keeps\s+saying)\b",
    re.IGNORECASE,
)
# A saying handed down or someone's favourite words: "as my grandpa used to say, ...", "like
# mom always says ...", "as the saying goes": every clause of the sentence is quoted wisdom.
_EN_SAYING = re.compile(
    r"\b(?:as|like)\s+(?!i\b)(?:[\w']+\s+){1,3}(?:(?:always|often|still|used\s+to|would)\s+)?"
    r"(?:say|says|said|put\s+it|puts\s+it)\b|\bas\s+the\s+(?:saying|proverb|old\s+\w+)\s+goes\b|"
    r"\bas\s+they\s+say\b|\b(?:old|wise)\s+saying\b|\bproverb\b|\bfavou?rite\s+(?:saying|motto)\b",
    re.IGNORECASE,
)
# A parting that names only when: "see you tomorrow", "talk to you on monday".
_EN_PARTING = re.compile(
    r"^(?:ok(?:ay)?,?\s+|alright,?\s+|bye,?\s+)?(?:see|talk\s+to|speak\s+to|catch|chat\s+with)\s+"
    r"(?:you|ya|u)(?:\s+(?:all|guys))?(?:\s+(?:later|soon|tomorrow|tonight|then|again|around|"
    r"(?:on|next|this)\s+\w+|in\s+(?:a|the)\s+\w+))*\s*[.!~]*$",
    re.IGNORECASE,
)
_EN_REQUEST = re.compile(
    r"^(?:please\s+|pls\s+|hey,?\s+|ok(?:ay)?,?\s+)?(?:write|convert|rewrite|summari[sz]e|"
    r"translate|explain|tell|give|show|make|help|draft|list|find|check|fix|pretend|generate|"
    r"create|compose|suggest|recommend|calculate|compare|describe|plan|outline|proofread|edit|"
    r"review|name|teach|answer|play|act|let's|lets|imagine|design|build|solve)\b|"
    r"^(?:can|could|would|will)\s+you\b|^(?:I'd|I\s+would)\s+like\b|^I'll\s+(?:have|take)\b",
    re.IGNORECASE,
)
_EN_MOMENTARY = re.compile(
    r"\b(?:right\s+now|at\s+the\s+moment|atm|rn|brb|tbh|today|tonight|this\s+morning|"
    r"this\s+afternoon|this\s+evening|just\s+now)\b|"
    r"\b(?:i'm|i\s+am|im|i\s+feel|feeling|so|kinda|kind\s+of|we're|we\s+(?:are|were|feel)|"
    r"i\s+was)\s+(?:so\s+|really\s+|very\s+|"
    r"a\s+bit\s+|super\s+)?(?:tired|bored|hungry|starving|sleepy|exhausted|sad|stressed|sick|"
    r"cold|hot|angry|annoyed|happy|excited|nervous|upset|grumpy|full|thirsty|lonely)\b|"
    # a feeling opening a clause whose subject is left out ("bored out of my mind")
    r"^(?:so\s+|really\s+|super\s+|kinda\s+)?(?:tired|bored|hungry|starving|sleepy|exhausted|"
    r"stressed|sick|cold|hot|annoyed|grumpy|thirsty|sore|freezing|boiling)\b|"
    r"\b(?:in|during)\s+this\s+(?:meeting|class|lecture|call|queue|line|traffic)\b|"
    # A small mishap that just happened ("just spilled coffee on my shirt").
    r"\b(?:just|accidentally)\s+(?:spilled|spilt|dropped|burned|burnt|broke|missed|stubbed|"
    r"tripped|forgot|lost|locked|bumped|cut|ripped|knocked)\b|"
    r"\b(?:ate|drank)\s+(?:way\s+|far\s+)?too\s+much\b|\boverslept\b|\bslept\s+(?:badly|terribly)\b|"
    r"\b(?:raining|snowing|pouring)\b|"
    # not in the mood for anything: "don't feel like doing anything", "can't be bothered"
    r"\b(?:don'?t|do\s+not)\s+feel\s+like\b|\bcan'?t\s+be\s+bothered\b|\bnot\s+in\s+the\s+mood\b|"
    # what a phone or a laptop is doing: "battery at 4%", "wifi keeps dropping", "phone's dying"
    r"\b(?:battery|batt|wifi|wi-fi|signal|connection|internet|laptop|phone)(?:'s|\s+is|\s+keeps)?\s+"
    r"(?:at\s+\d+\s*%|down|out|dying|dead|low|lagging|dropping|acting\s+up|so\s+slow)\b|"
    r"\b\d+\s*%\s+(?:battery|left)\b|"
    # doubt at what someone just said, with nothing it is about: "I remain unconvinced"
    r"\b(?:remain|am|'m|stay|still)\s+(?:\w+\s+)?(?:unconvinced|not\s+convinced|not\s+sold)"
    r"\s*[.!]*$",
    re.IGNORECASE,
)
_EN_LASTING = re.compile(
    r"\b(?:more\s+of\s+an?|[\w-]+\s+person)\b|"
    r"\b(?:live|work|have|own|drive|use|study|speak|learn|am\s+a|'m\s+a|been|since|every|"
    r"allergic|diabetes|always|usually|learning|studying|training|working|living|teaching|"
    r"streak|years?|months?)\b",
    re.IGNORECASE,
)
_EN_DECISION = re.compile(
    r"\b(?:decided|chose|choose|chosen|switched|going\s+with|settled\s+on|opted|picked|"
    r"will\s+use|committed\s+to|quit|gave\s+up|stopped)\b",
    re.IGNORECASE,
)
# A choice that holds from now on, said in -ing: "going with the air, not the pro",
# "switching to home workouts", "using X only for drums now", "sticking with vim".
_EN_CHOSEN = re.compile(
    r"^(?:ok\s+|okay\s+|so\s+)?(?:going\s+with|switching\s+(?:to|over)|sticking\s+with|"
    r"moving\s+(?:to|over\s+to)|not\s+renewing|cancell?ing|dropping|ditching)\b|"
    r"\bonly\b[^.!?]*\bnow\b|\b(?:from\s+now\s+on|going\s+forward|anymore|no\s+more)\b",
    re.IGNORECASE,
)
# What happened today and stays true after it: a life event, not a passing state.
_EN_LIFE_EVENT = re.compile(
    r"\b(?:got\s+(?:engaged|married|divorced|promoted|hired|accepted|diagnosed|my\s+(?:license|"
    r"licence|visa|degree|results?|green\s+card|citizenship))|graduated|adopted|retired|"
    r"gave\s+birth|had\s+(?:a\s+baby|twins)|moved\s+(?:to|into|in)|bought\s+(?:a|an|my|our)\s+"
    r"(?:house|home|car|flat|apartment|condo)|signed\s+(?:a|the|my)\s+(?:lease|contract)|"
    r"passed\s+(?:my|the)\s+\w+|was\s+diagnosed|started\s+(?:a\s+new\s+job|at|my\s+new))\b",
    re.IGNORECASE,
)
HABIT = re.compile(
    r"\b(?:every|each|daily|weekly|monthly|weekdays|weekends|on\s+(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)days|(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:nights|mornings|evenings)|"
    r"usually|always|routine|habit|twice\s+a|once\s+a|times\s+a)\b",
    re.IGNORECASE,
)
_EN_PREFERENCE = re.compile(
    # "more of a tea person", "a night owl kind of person": what one is for, a taste
    r"\b(?:more\s+of\s+an?|an?)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:person|people|guy|gal|girl)\b|"
    r"\b(?:like|likes|love|loves|prefer|prefers|hate|hates|dislike|enjoy|enjoys|favou?rite|"
    r"can't\s+stand|cannot\s+stand|fan\s+of|usual\s+(?:order|coffee|drink)|go-to)\b",
    re.IGNORECASE,
)
_EN_FUTURE = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan\s+to|planning\s+to|planning|about\s+to|expecting|"
    r"next\s+(?:week|month|year|\w+day)|tomorrow|upcoming|soon)\b",
    re.IGNORECASE,
)
_EN_PAST = re.compile(
    r"\b(?:\w+ed|was|were|did|had|went|got|left|quit|moved|bought|took|made|began|became|"
    r"came|sold|won|lost|met|found|gave|broke|ran|wrote|yesterday|last\s+(?:week|month|year|"
    r"night|time))\b",
    re.IGNORECASE,
)
_EN_PAST_DAY = re.compile(r"\b(?:yesterday|last\s+(?:week|month|year|night)|ago)\b", re.I)
_EN_NEGATION = re.compile(
    r"\b(?:not|no|never|n't|dont|don't|doesnt|cant|cannot|won't)\b|n't\b", re.IGNORECASE
)
_EN_FILLER = re.compile(
    r"^(?:(?:oh|ah|so|well|also|and|btw|by\s+the\s+way|fyi|haha|lol|lmao|omg|ngl|tbh|"
    r"honestly|um+|uh+|welp|ok(?:ay)?|anyway|anyways|just\s+so\s+you\s+know|fun\s+fact|yeah|"
    r"yep|yes|hey|guess\s+what|heads\s+up|psa|update|news|fwiw|real\s+talk|not\s+gonna\s+lie|"
    r"basically|actually|literally|seriously|tl;?dr|long\s+story\s+short|"
    # "what I actually wanted to say is ...", "the point is ...": the news follows
    r"what\s+i\s+(?:actually\s+|really\s+)?(?:wanted|meant|want|mean|needed)\s+to\s+"
    r"(?:say|tell\s+you|mention|ask)\s+is|the\s+(?:thing|point|real\s+news|news)\s+is)"
    r"\b[,:!.]?\s*)+",
    re.IGNORECASE,
)
# A few words announcing what follows, ended by a colon, a dash, a comma or "!", before the
# speaker's own clause ("Big news: we moved ...", "Quick update - I ...", "Funny story, I
# ..."): the announcement is left out. A time or a place said first ("Last month, we moved
# ...", "In Berlin, I ...") is part of the statement and stays.
_EN_OPENER = re.compile(
    r"^(?P<lead>[A-Za-z'’ ]{2,30}?)\s*(?:(?:[:!]+|\s[—–-]+)\s+"
    r"(?=(?:I|I'm|I’m|I've|I'll|I'd|im|ive|we|we're|we’re|we've|my|our)\b)|"
    # after a comma only the speaker: "Linda, my accountant, ..." names the subject
    r",\s+(?=(?:I|I'm|I’m|I've|I'll|I'd|we|we're|we’re|we've)\b))",
    re.IGNORECASE,
)
_EN_LEAD_KEPT = re.compile(
    r"\b(?:I|me|my|we|our|us|in|on|at|since|for|after|before|during|when|while|because|if|"
    r"unless|until|from|as|last|next|this|ago|today|yesterday|tomorrow|tonight|morning|"
    r"evening|week|weekend|month|year|day|years|months|weeks|days|january|february|march|april|"
    r"may|june|july|august|september|october|november|december|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|now|then|although|not|no|never|is|are|was|were|do|does|"
    r"did|have|has|had|can|will|would|should|could)\b",
    re.IGNORECASE,
)
_EN_OPENER_WORDS = 4
# A short lead run on into the speaker's clause without a mark ("Random but I play ...",
# "Fun fact I ..."): at most this many words before "I".
_EN_RUN_ON_LEAD = re.compile(r"^(?P<lead>(?:[A-Za-z]+\s+){1,3}?)(?=(?:I|I'm|I’m|I've|I'll|I'd)\s)")


def without_opener(sentence: str) -> str:
    """`sentence` without the words that announce it ("Big news:", "so yeah", "lol", "btw")."""
    text = _EN_FILLER.sub("", sentence.strip())
    lead = _EN_OPENER.match(text)
    if (
        lead
        and len(lead.group("lead").split()) <= _EN_OPENER_WORDS
        and not _EN_LEAD_KEPT.search(lead.group("lead"))
    ):
        text = _EN_FILLER.sub("", text[lead.end() :])
    run_on = _EN_RUN_ON_LEAD.match(text)
    if run_on and not _EN_LEAD_KEPT.search(run_on.group("lead")):
        text = text[run_on.end() :]
    return text or sentence.strip()


_EN_TAIL = re.compile(
    r"(?:[,\s]+(?:fyi|tbh|lol|haha|btw|though|lmao|ngl|ugh|yay|omg|rn))+\s*[.!]*$", re.I
)
_EN_HEDGE_TAIL = re.compile(
    r"[,\s]+(?:i\s+think|i\s+guess|i\s+suppose|i\s+believe|i\s+reckon|i\s+assume|idk)\s*[.!?]*$",
    re.IGNORECASE,
)
# A clause whose subject, the speaker, is left out, as chat does: opened by a verb in -ing
# ("flying to ... next week"), a past tense ("got promoted", "booked a ..."), "been ...",
# a negated or bare present of feeling and having ("can't stand ...", "hate ...").
_EN_NOT_VERBS = frozenset(
    """thing something nothing anything everything morning evening king ring spring wing
    being bring sing sting swing cling fling
    ceiling string sibling darling pudding wedding feeling looking asking wondering hoping
    trying thinking checking need speed seed feed bed red shed weed bleed breed""".split()  # noqa: SIM905
)
_EN_BARE_PRESENT = frozenset(
    """hate hates love loves like likes prefer prefers live lives work works own owns have
    has need needs use uses drive drives play plays speak speaks run runs eat eats drink
    drinks can't cannot don't never didn't haven't still""".split()  # noqa: SIM905
)


_EN_EMPTY_WORDS = frozenset(
    """it that this there here on up out off in so too now again them him her me you done
    well fine ok okay back over away around through not stand just really already""".split()  # noqa: SIM905
)


def _dropped_subject(text: str) -> str:
    """ "ing", "past", "been", "present" when the clause opens with the speaker's verb and
    leaves the subject out; "" otherwise."""
    words = re.findall(r"[\w'’]+", text.lower())
    while words and words[0] in ("just", "finally", "also", "still", "recently", "currently"):
        words = words[1:]
    if len(words) > 1 and words[0] == "not" and words[1].endswith("ing"):
        words = words[1:]  # "not renewing the membership": a choice, the subject left out
    if not words or words[0] in _EN_NOT_VERBS:
        return ""
    head = re.split(r"[,;]", text.lower().replace("’", "'"), maxsplit=1)[0]
    rest = re.findall(r"[\w']+", head)[1:]
    if not [w for w in rest if w not in _EN_EMPTY_WORDS]:
        return ""  # "got it", "been there", "working on it": a turn of phrase, no news
    first = words[0].replace("’", "'")
    if first == "been":
        return "been"
    if first.endswith("ing") and len(first) > 4:  # "going freelance", "doing a 10k"
        if len(words) > 1 and words[1] in ("is", "was", "has", "makes", "keeps", "feels"):
            return ""  # "Texting is the easiest way to reach me": the -ing is the subject
        return "ing"
    if (first.endswith("ed") and len(first) > 4) or first in _EN_IRREGULAR_PAST:
        return "past" if first not in ("was", "were", "did", "had", "saw") else ""
    if first in _EN_BARE_PRESENT:
        return "present"
    return ""


# A bare noun with a day and time ("dentist this monday at 9"): the speaker's appointment.
_EN_APPOINTMENT = re.compile(
    r"^(?!(?:he|she|they|it|this|that|there|what|who)\b)[a-z]+(?:\s+(?:at|with|in|for)?\s*"
    r"[\w'-]+){0,3}?\s+(?:(?:this|next|on)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"tomorrow|tonight|next\s+week|"
    # a day of the month: "on the 14th", "on march 3", "on 3/14"
    r"on\s+the\s+\d{1,2}(?:st|nd|rd|th)|"
    r"on\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?|"
    r"on\s+\d{1,2}/\d{1,2})\b(?:\s+at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?)?\s*$",
    re.IGNORECASE,
)


def _appointment(text: str) -> bool:
    """A bare noun with its day and time, maybe a remark after a comma ("dentist on the 3rd
    at 9, finally getting it fixed"): the speaker's appointment."""
    head = _EN_TAIL.sub("", text.split(",", 1)[0])
    return bool(_EN_APPOINTMENT.match(head)) and not _EN_FINITE.search(head)


_EN_FINITE = re.compile(
    r"\b(?:is|are|was|were|be|will|has|have|had|do|does|did|can|could|should|would|"
    r"\w+'s)\b",
    re.IGNORECASE,
)
# A time that makes an activity in -ing more than the moment's ("in october", "lately").
_EN_SPAN = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|spring|summer|autumn|fall|winter|these\s+days|lately|this\s+(?:year|month|"
    r"semester|term|season)|for\s+(?:a|\d+|two|three|four|five|six|several|many)\s+\w+|"
    r"currently)\b",
    re.IGNORECASE,
)
_EN_TO_ASSISTANT = re.compile(r"\b(?:you|your|yours|u|ur)\b", re.IGNORECASE)
_EN_VERB_AFTER_AND = re.compile(
    r"\s*(?:,\s*)?\band\s+(?=(?:I\b|I'm\b|I've\b|my\b|(?:also\s+|now\s+|currently\s+)?"
    r"(?:work|works|live|lives|drive|drives|have|has|own|owns|play|plays|run|runs|take|takes|"
    r"use|uses|speak|speaks|study|studies|teach|teaches|love|loves|like|likes|hate|hates|"
    r"prefer|prefers|go|goes|do|does|am|'m|moved|started|joined|left|got|bought|adopted|"
    r"drink|drinks|eat|eats|cook|cooks|am\s+\w+ing|'m\s+\w+ing)\b))",
    re.IGNORECASE,
)
_EN_IRREGULAR_3RD = {
    "am": "is",
    "'m": "is",
    "have": "has",
    "'ve": "has",
    "do": "does",
    "go": "goes",
    "was": "was",
    "'d": "had",
    "'ll": "will",
    "can": "can",
    "can't": "can't",
    "don't": "doesn't",
    "won't": "won't",
    "will": "will",
    "would": "would",
    "could": "could",
    "should": "should",
    "had": "had",
    "did": "did",
    "didn't": "didn't",
    "haven't": "hasn't",
    "wasn't": "wasn't",
    "cannot": "cannot",
    "might": "might",
    "must": "must",
    "im": "is",
    "ive": "has",
    "are": "are",
    "were": "were",
}
# Past forms that do not end in -ed stay as they are ("quit", "left", "went").
_EN_IRREGULAR_PAST = frozenset(
    """went got left quit moved bought took made began became came sold won lost met
    found gave broke ran wrote put set spent sent built kept felt heard paid read
    told thought brought caught taught fought chose drove flew grew knew threw wore
    swam rode sang sat slept stood understood forgot led fell ate drank saw did had
    was were""".split()  # noqa: SIM905
)


# The verb of a noun-verb compound said as one verb ("meal prep", "bike commute", "batch
# cook", "dog sit", "window shop", "speed read").
_EN_COMPOUND_VERB_HEADS = frozenset(
    """prep shop cook commute sit surf hop walk swap proof train read plan watch""".split()  # noqa: SIM905
)
# Verbs that take a bare verb after them ("I help cook", "I go shop"): no compound.
_EN_HELPERS = frozenset(
    """help helps go let make try can could will would should must might do don't""".split()  # noqa: SIM905
)


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _EN_IRREGULAR_3RD:
        return _EN_IRREGULAR_3RD[lower]
    if not lower.isalpha() or lower.endswith("ed") or lower.endswith("s"):
        return verb
    if lower in _EN_IRREGULAR_PAST:
        return verb
    if re.search(r"(?:[sxz]|ch|sh|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


# A time said before the subject ("Tomorrow I have ...", "In two weeks I start ..."), moved
# after the rest so that the note can start with its verb.
_EN_LEADING_TIME = re.compile(
    r"^(?P<time>(?:tomorrow|today|tonight|yesterday|next\s+\w+|last\s+\w+|this\s+\w+|"
    r"in\s+\w+\s+(?:days?|weeks?|months?|years?)|on\s+\w+(?:\s+\d{1,2}(?:st|nd|rd|th)?)?|"
    r"every\s+\w+|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{1,2}\w*)),?\s+"
    r"(?P<rest>(?:I|I'm|I've|I'll|we)\b.*)$",
    re.IGNORECASE,
)


def _en_content(text: str) -> str:
    text = _EN_TAIL.sub("", _EN_FILLER.sub("", text.strip())).strip(" ,;:—-.!")
    dropped = _dropped_subject(text)
    if dropped == "present" and not re.match(
        r"(?:can't|cannot|don't|never|didn't|haven't|still)\b", text, re.I
    ):
        first, _, rest = text.partition(" ")
        text = f"{_third_person(first)} {rest}".strip()  # "hate horror movies" -> "Hates ..."
    elif dropped == "been":
        text = f"has {text}"
    if dropped:
        text = _third_person_words(text)
        return (text[:1].upper() + text[1:]).strip()
    lead = _EN_LEADING_TIME.match(text)
    if lead:
        time_words = lead.group("time")
        text = f"{lead.group('rest')} {time_words[:1].lower() + time_words[1:]}"
    # "We adopted ...", "we're moving ...": the household's news, told without "we".
    we = re.match(r"^we(?:'re|’re|\s+are)\s+(?=\w+ing\b)|^we\s+(?=\w+ed\b)", text, re.I)
    if not we and re.match(r"^we\s+(\w+)", text, re.I):
        verb = text.split()[1].lower()
        we = re.match(r"^we\s+", text, re.I) if verb in _EN_IRREGULAR_PAST - {"were"} else None
    if we:
        text = _third_person_words(text[we.end() :])
        text = re.sub(r"\bour\b", "their", text, flags=re.IGNORECASE)
        return (text[:1].upper() + text[1:]).strip()
    pair = re.match(
        r"^my\s+(?P<who>\w+(?:\s+\w+)?)\s+and\s+I(?:\s+(?:both\s+|also\s+|just\s+)*"
        r"(?P<verb>[a-z]+)|(?P<short>'re|'ve|'ll))\b\s*(?P<rest>.*)$",
        text,
        flags=re.IGNORECASE,
    )
    if pair:
        # "My wife and I are expecting our first baby": the speaker's news, shared with
        # someone of theirs, in the third person ("Is expecting their first baby, with their
        # wife")
        verb = (pair.group("verb") or pair.group("short") or "").lower().lstrip("'")
        verb = {"are": "is", "re": "is", "were": "was", "ve": "has", "ll": "will"}.get(
            verb, _third_person(verb)
        )
        rest = _our_to_their(_third_person_words(pair.group("rest")))
        note = f"{verb} {rest}".strip().rstrip(" .!")
        note = f"{note}, with their {pair.group('who')}"
        return (note[:1].upper() + note[1:]).strip()
    text = re.sub(
        r"^(?:please\s+)?(?:remember|don't\s+forget|note)(?:\s+that|:)?\s+",
        "",
        text,
        flags=re.IGNORECASE,
    )
    match = re.match(
        r"^(?:I(?:'m|'ve|'d|'ll)?|im|ive)\b\s*(?P<rest>.*)$", text, flags=re.IGNORECASE
    )
    if match:
        contraction = re.match(r"^I('m|'ve|'d|'ll)", text, flags=re.IGNORECASE)
        rest = match.group("rest")
        if contraction:
            verb = _third_person(contraction.group(1).lower())
            if verb == "had" and not re.match(r"(?:been|gone|done|had|already|never)\b", rest):
                verb = "would"  # "I'd love": would; "I'd been": had
            phrase = f"{verb} {rest}"
        elif text.lower().startswith(("im ", "ive ")):
            phrase = f"{_third_person(text.split()[0])} {rest}"
        else:
            words = rest.split(" ", 1)
            adverbs = []
            while words and words[0].lower() in (
                "also",
                "now",
                "currently",
                "just",
                "really",
                "still",
                "usually",
                "always",
                "never",
                "often",
                "recently",
                "finally",
                "mostly",
            ):
                adverbs.append(words[0])
                words = words[1].split(" ", 1) if len(words) > 1 else []
            if not words:
                return ""
            compound = words[1].split(" ", 1) if len(words) > 1 else []
            if (
                compound
                and compound[0].lower() in _EN_COMPOUND_VERB_HEADS
                and (words[0].lower() not in _EN_BARE_PRESENT | _EN_HELPERS)
            ):
                # "I meal prep on sundays": a noun and a verb make the verb ("meal preps")
                words = [f"{words[0]} {_third_person(compound[0])}", *compound[1:]]
                phrase = " ".join([*adverbs, *words])
                text = _third_person_words(phrase.strip())
                return (text[:1].upper() + text[1:]).strip()
            verb = _third_person(words[0])
            if verb.lower() == "do" and len(words) > 1:
                verb = "does"
            phrase = " ".join([*adverbs, verb, *(words[1:])])
        text = _third_person_words(phrase.strip())
    elif re.match(r"^my\s+", text, flags=re.IGNORECASE):
        text = _third_person_words(re.sub(r"^my\s+", "", text, flags=re.IGNORECASE))
    elif re.match(r"^our\s+", text, flags=re.IGNORECASE):
        text = _our_to_their(_third_person_words(text))  # "Our team deploys ..."
    elif not re.match(r"^(?:we|us)\b", text, flags=re.IGNORECASE):
        # "Radiohead is my favorite band": the fact stands in the third person too
        text = _third_person_words(text)
    return (text[:1].upper() + text[1:]).strip()


_EN_PRONOUNS = {
    "my": "their",
    "me": "them",
    "mine": "theirs",
    "myself": "themselves",
    "i": "they",
    "i'm": "they're",
    "i've": "they've",
    "i'd": "they'd",
    "i'll": "they'll",
    "im": "they're",
}


def _our_to_their(text: str) -> str:
    """The household's words in the third person: "our" -> "their", "we're" -> "they're"."""
    words = {"our": "their", "ours": "theirs", "we're": "they're", "we've": "they've", "we": "they"}
    return re.sub(
        r"\b(?:our|ours|we're|we've|we)\b",
        lambda m: words[m.group(0).lower()],
        text,
        flags=re.IGNORECASE,
    )


def _third_person_words(text: str) -> str:
    """The speaker's other pronouns in a subject-less note: "my" -> "their"."""
    text = re.sub(
        r"\bI\s+(?:was|am)\b", lambda m: "they were" if "was" in m.group(0) else "they are", text
    )
    titles = [m.span() for m in _QUOTED.finditer(text)]

    def third(match: re.Match[str]) -> str:
        word = match.group(0)
        if any(start <= match.start() < end for start, end in titles) or _in_a_title(match):
            return word  # "My Neighbor Totoro", "'Me Before You'": a title keeps its words
        return _EN_PRONOUNS[word.lower()]

    return re.sub(
        # the contractions before "I", or "I'm" would become "they'm"
        r"\b(?:I'm|I've|I'd|I'll|im|my|me|mine|myself|I)\b",
        third,
        text,
        flags=re.IGNORECASE,
    )


def _in_a_title(match: re.Match[str]) -> bool:
    """A capitalised "My"/"Me" inside a sentence, before another capitalised word, opens or
    sits in a title ("favorite movie is My Neighbor Totoro", "reading Me Before You")."""
    word = match.group(0)
    if word.lower() not in ("my", "me", "mine", "myself") or not word[:1].isupper():
        return False
    before = match.string[: match.start()].rstrip()
    if not before or before.endswith((".", "!", "?", ":", ";")):
        return False  # a sentence's first word is capitalised whatever it is
    after = match.string[match.end() :].lstrip()
    previous = before.split()[-1] if before.split() else ""
    return after[:1].isupper() or previous[:1].isupper()


# A run-on turning from the day's noise to what one means to tell: ", but what I wanted to say
# is ...", "anyway, the point is ...".
_EN_TURN = re.compile(
    r"\s*,?\s*\b(?:but|anyway|anyways)\s*,?\s+(?=what\s+i\s+(?:actually\s+|really\s+)?"
    r"(?:wanted|meant|want|mean|needed)\s+to\b|the\s+(?:thing|point|real\s+news|news)\s+is\b)",
    re.IGNORECASE,
)


def _en_clauses(sentence: str) -> list[str]:
    parts = [
        piece
        for part in re.split(r"\s*;\s*|\s+[—–-]\s+(?=(?:I|we|my|our)\b)", sentence)
        for piece in _EN_TURN.split(part)
    ]
    clauses: list[str] = []
    for part in parts:
        subject = re.match(r"^(?:I|we)\b", part.strip(), flags=re.IGNORECASE)
        if not subject and _dropped_subject(_EN_FILLER.sub("", part.strip())):
            clauses.append(part.strip(" ,"))  # "decided to quit and go back to school"
            continue
        pieces = _EN_VERB_AFTER_AND.split(part)
        for piece in pieces:
            piece = piece.strip(" ,")
            if not piece:
                continue
            if subject and clauses and not re.match(r"^(?:I|we|my|our)\b", piece, re.I):
                piece = f"{subject.group(0)} {piece}"  # "... and work at Y": same subject
            clauses.append(piece)
    # "My wife and I are ...": a piece of two words is no clause of its own, unless it is the
    # speaker and a predicate ("I'm vegetarian and I work as a nurse").
    merged: list[str] = []
    for piece in clauses:
        if (
            merged
            and len(merged[-1].split()) < 3
            and not re.match(r"^(?:i|we)(?:['’](?:m|ve|d|re|ll)\b|\s+\w+)", merged[-1], re.I)
        ):
            merged[-1] = f"{merged[-1]} and {piece}"
        else:
            merged.append(piece)
    return merged


# A time that anchors a verbless phrase in the speaker's life: a habit, a span, a start.
_EN_ANCHOR = re.compile(
    r"\b(?:\d+|two|three|four|five|six|ten)\s*(?:years?|yrs?|months?|weeks?)\b|\bsince\b|"
    r"\bas\s+of\b",
    re.IGNORECASE,
)
_EN_THIRD_OPENER = re.compile(
    r"^(?:he|she|they|it|this|that|these|those|there|what|who|the|his|her|their|its)\b", re.I
)


# A day ahead makes an activity in -ing a plan ("heading home this weekend").
_EN_AHEAD = re.compile(
    r"\b(?:this\s+weekend|starting|from\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"(?:this|on)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.IGNORECASE,
)


# The first day of something new of the speaker's: a job, a school ("First day at Stripe today").
_EN_FIRST_DAY = re.compile(
    r"^(?:(?:my|the)\s+)?first\s+(?:day|week|shift)\s+(?:at|of)\s+(?!the\s+(?:week|month|year)\b)"
    r"(?:my\s+|the\s+)?\w+",
    re.IGNORECASE,
)
# A property of the speaker's named without "my" ("fav band is ...", "new favorite movie: ...",
# "commute is 45 min", "home gym = a kettlebell"), and the speaker's week ("Saturdays are for
# the kids now").
_EN_OWN_PROPERTY = re.compile(
    r"^(?:new\s+|current\s+|all-time\s+|usual\s+|daily\s+|morning\s+|home\s+)?(?:fav(?:ou?rite)?|"
    r"go-to|birthday|hometown|timezone|time\s+zone|commute|rent|budget|salary|shift|schedule|"
    r"routine|setup|set-up|gym|office|desk|alarm|bedtime|diet|weight|height|shoe\s+size|"
    r"blood\s+type|mbti|daily\s+driver)\b(?:\s+[\w-]+){0,3}\s*(?:is|are|was|:|=|'s)(?=\s|$)|"
    r"^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|weeknights|mornings|evenings|"
    r"nights)\s+(?:are|=)\s+(?:for|my|family|reserved|off|sacred|kid|kids)\b",
    re.IGNORECASE,
)
# The speaker's own appointment or duty named first, then its day ("Jury duty starts on the
# 3rd", "parent-teacher conference is Tuesday 4:15"); a public event ("the election is
# Tuesday") opens with an article.
_EN_MY_EVENT = re.compile(
    r"^(?!(?:the|a|an|this|that|his|her|their|our|your)\b)(?:my\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:duty|conference|appointment|appt|interview|surgery|operation|exam|test|finals?|midterms?|"
    r"deadline|flight|trip|class|hearing|shift|check-?up|consult(?:ation)?|session|lesson|"
    r"practice|recital|reunion|wedding|funeral|court|visit|vacation|orientation|training|"
    r"presentation|demo|review|lease|procedure|scan|mri|physio|therapy|dentist|doctor|vet|"
    r"haircut|graduation|ceremony|move|closing|due\s+date|court\s+date|date)\s+"
    r"(?:is|starts|begins|ends|kicks\s+off|runs|'s)\s+(?:on\s+)?(?:this\s+|next\s+)?"
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|the\s+\d{1,2}(?:st|nd|rd|th)|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{1,2}|\d{1,2}/\d{1,2}|"
    r"in\s+(?:\w+\s+)?(?:days?|weeks?|months?))\b",
    re.IGNORECASE,
)


# A lasting condition of the person named without "I'm" ("allergic to penicillin fyi", "type 1
# diabetic here", "color blind (red green)").
_EN_CONDITION = re.compile(
    r"^(?:(?:also|btw|fyi|fwiw|ps|so|and)\s*,?\s+)?(?:(?:severely|mildly|very|super|pretty|kinda|"
    r"totally|fully|partly|partially)\s+)?(?:allergic\s+to|intolerant\s+(?:to|of)|lactose[\s-]"
    r"intolerant|gluten[\s-]intolerant|colou?r[\s-]?blind|deaf|hard\s+of\s+hearing|blind\s+in|"
    r"(?:type\s*[12]\s+)?diabetic|vegetarian|vegan|pescatarian|celiac|coeliac|asthmatic|"
    r"epileptic|dyslexic|autistic|adhd|pregnant|left[\s-]handed|right[\s-]handed|ambidextrous|"
    r"married|divorced|widowed|engaged|single|an?\s+only\s+child|a\s+twin|sober|teetotal|"
    r"(?:a\s+)?(?:non[\s-]?)?smoker|nearsighted|short[\s-]sighted|long[\s-]sighted)\b",
    re.IGNORECASE,
)


def lasting_condition(text: str) -> bool:
    """`text` opens with a lasting condition of a person ("vegan", "allergic to ...")."""
    return bool(_EN_CONDITION.match(text))


def _speakers_fragment(text: str) -> bool:
    """A phrase with no finite verb and no subject of its own, anchored in time ("sober 2
    years as of last week", "up at 5 every day to pray") or naming a lasting condition
    ("allergic to penicillin fyi"): chat leaves "I'm" out."""
    if _EN_CONDITION.match(text):
        # "allergic to shrimp btw which is hard bc ...": what follows explains the condition
        return not _EN_THIRD_OPENER.match(text)
    if _EN_TAKEN_WITH.match(text):
        return True
    if _EN_FINITE.search(text) or _EN_THIRD_OPENER.match(text):
        return False
    return bool(HABIT.search(text) or _EN_ANCHOR.search(text))


# Taken with something lately, "I'm" left out: "really into k-dramas these days", "obsessed
# with pickleball rn".
_EN_TAKEN_WITH = re.compile(
    r"^(?:(?:also|btw|so|and|lately|recently|honestly)\s*,?\s+)?(?:(?:been|getting|got)\s+)?"
    r"(?:(?:really|so|super|totally|very|pretty|kinda|lowkey|weirdly|seriously)\s+)*"
    r"(?:into|obsessed\s+with|hooked\s+on|addicted\s+to)\s+\w",
    re.IGNORECASE,
)


def read(sentence: str) -> list[Clause]:
    """The clauses of one English sentence."""
    out = []
    sentence = without_opener(sentence)
    whole_question = sentence.rstrip().endswith("?") or bool(_EN_QUESTION.match(sentence))
    whole_hypothetical = bool(_EN_HYPOTHETICAL.search(sentence)) or is_hypothetical(sentence)
    saying = bool(_EN_SAYING.search(sentence))
    for text in _en_clauses(sentence):
        bare = _EN_FILLER.sub("", text).strip()
        # "ctx is cancelled i think": a guess about a thing; the "i" of the hedge is no subject
        bare = _EN_HEDGE_TAIL.sub("", bare).strip() or bare
        if whole_question or _EN_QUESTION.match(bare):
            mood = "question"
        elif _EN_PARTING.match(bare):
            mood = "greeting"
        elif whole_hypothetical:
            mood = "hypothetical"
        elif (
            saying
            or _EN_QUOTATION.search(bare)
            # a quoted title of one's own ("my favourite book is 'All of Me'") quotes nobody
            or (_QUOTED.search(bare) and not _EN_I.match(bare) and not _EN_MINE.match(bare))
        ):
            mood = "quotation"
        elif _EN_REQUEST.match(bare):
            mood = "request"
        else:
            mood = "statement"
        if _EN_YOU.match(bare):
            subject = "assistant"
        elif _EN_NESTED_OTHER.search(bare):
            subject = "other"
        elif _dropped_subject(bare) and not _EN_TO_ASSISTANT.search(bare):
            subject = "speaker"  # "quit my job today": the speaker's verb, "my" its object
        elif _EN_FIRST.search(bare):
            subject = "speaker" if _EN_I.match(bare) else "circle"
        elif _EN_CIRCLE_SUBJECT.match(bare):
            subject = "circle"
        elif not _EN_TO_ASSISTANT.search(bare) and (_dropped_subject(bare) or _appointment(bare)):
            subject = "speaker"  # "got promoted last week", "dentist this monday at 9"
        elif _EN_OWN_PROPERTY.match(bare) or _EN_MY_EVENT.match(bare) or _EN_FIRST_DAY.match(bare):
            subject = "speaker"  # "favorite movie is Inception": "my" left out
        elif _speakers_fragment(bare):
            subject = "speaker"  # "sober 2 years now", "up at 6 every day to run"
        elif EN_LIMIT.match(bare):
            subject = "speaker"  # "meetings shouldn't go over 30 minutes": the speaker's rule
        else:
            subject = "other"
        if _EN_FUTURE.search(bare):
            tense = "future"
        elif re.search(r"\b(?:plan|planning)\s+to\b", bare, re.I):
            tense = "plan"
        elif _EN_PAST.search(bare) and not re.search(r"\b(?:have|has|'ve)\s+been\b", bare, re.I):
            tense = "past"
        else:
            tense = "present"
        momentary = bool(_EN_MOMENTARY.search(bare)) and not (
            tense == "future"
            or HABIT.search(bare)
            or _EN_LASTING.search(bare)
            or (tense == "past" and _EN_DECISION.search(bare))  # "quit my job today"
            or (tense == "past" and _EN_LIFE_EVENT.search(bare))  # "got engaged today"
            or _EN_FIRST_DAY.match(bare)  # "first day at Stripe today": a new job begins
        )
        if (
            subject == "speaker"
            and _dropped_subject(bare) == "ing"
            and tense == "present"
            and not (
                HABIT.search(bare)
                or _EN_LASTING.search(bare)
                or _EN_SPAN.search(bare)
                or _EN_AHEAD.search(bare)
                or _EN_CHOSEN.search(bare)
            )
        ):
            momentary = True  # "waiting for the bus": what one is doing as one types
        clause = Clause(
            text=text,
            lang="en",
            subject=subject,
            predicate="",
            tense=tense,
            negated=bool(_EN_NEGATION.search(bare)),
            mood=mood,
            momentary=momentary,
            content=_en_content(text),
            plain=bare,
        )
        out.append(clause)
    return out


def clause_type(clause: Clause, day: date | None) -> str:
    text = clause.text
    if _EN_DECISION.search(text):
        return "decision"
    if day is not None and day >= date.min:
        return "episode" if not HABIT.search(text) else "procedure"
    if clause.tense in ("future", "plan"):
        return "episode"
    if HABIT.search(text) and not _EN_PREFERENCE.search(text):
        return "procedure"
    if _EN_PREFERENCE.search(text) or EN_LIMIT.match(clause.plain):
        return "preference"
    if clause.tense == "past" and _EN_PAST_DAY.search(text):
        return "episode"
    return "fact"
