"""Questions with one current answer about the user's things and routine, and the words of
change that say the new answer ("switched to ...", "갈아탔어", "그만두고 ...").

- `car`: the car the user drives; `phone`: the phone or device they use;
- `timezone`; `wake_time` and `bed_time`; `work_start`: when the user starts work;
  `work_shift`: which shift they work ("night shift", "데이 고정", "3교대");
  `exercise`: the exercise they do (gym, swimming);
- `commute`: how they get to work or school;
- `pets:<animal>`: how many of one kind of animal they keep ("a dog", then "two dogs").

A liking ("I love my iPhone", "수영 좋아해") is not the thing one uses or does: it keeps its
`likes:` slot, so two likings that can both be true stay apart.
"""

from __future__ import annotations

import re

from memories.logic.slots import cues
from memories.logic.slots.statement import Statement

CAR_WORDS = re.compile(
    r"(?:^|[^a-z])(?:car|cars|suv|sedan|ev|hybrid\s+car|hyundai|kia|tesla|toyota|honda|bmw|benz|"
    r"mercedes|audi|volvo|volkswagen|vw|porsche|genesis|sonata|avante|elantra|grandeur|"
    r"santa\s*fe|tucson|ioniq|k5|model\s+[3sxy]|prius|camry|civic|corolla|mini\s+cooper|mini|"
    r"subaru|ford|chevrolet|chevy|nissan|mazda|lexus|jeep|peugeot|renault|land\s+rover|jaguar|"
    r"ferrari|lamborghini|rivian|polestar|byd|sorento|sportage|carnival|casper)"
    r"(?![a-z])|\bdrives?\s+(?:a|an|my|the)\s+(?!bus\b|truck\b|taxi\b|cab\b)|"
    r"르노|쉐보레|미니\s*쿠퍼|스바루|포드|닛산|마쓰다|렉서스|지프|푸조|랜드로버|쏘렌토|스포티지|캐스퍼|"
    r"자동차|차를|차는|내\s*차|제\s*차|중고차|전기차|suv|세단|현대차|기아차|테슬라|토요타|도요타|혼다|"
    r"벤츠|아우디|볼보|포르쉐|제네시스|소나타|쏘나타|아반떼|그랜저|싼타페|투싼|아이오닉|모닝|레이|카니발",
    re.IGNORECASE,
)

DRIVES = re.compile(
    r"\b(?:drive|drives|driving|drove|own|owns|got|bought|sold|traded|switched|leased?|"
    r"new|have|has)\b|\bmy\s+(?:[\w-]+\s+)?car\s+is\b|(?:내|제)\s*차(?:는|가)\s|타고\s*다|타요|타|몰아|몰고|모는|끌고|샀|구입|구매|팔았|팔고|바꿨|바꿈|갈아탔|뽑았|있",
    re.IGNORECASE,
)

PHONE_WORDS = re.compile(
    r"\b(?:phone|phones|smartphone|iphone|android|galaxy|pixel|samsung\s+phone|oneplus|xiaomi|"
    r"blackberry)\b|폰|휴대폰|핸드폰|스마트폰|아이폰|갤럭시|안드로이드|픽셀|갤노트|갤폴드|갤플립",
    re.IGNORECASE,
)

USES = re.compile(
    r"\b(?:use|uses|using|used|have|has|got|bought|sold|switched|switch|swapped|moved|on|carry|own|owns|"
    r"upgraded|new|person|user|dropped|ditched|traded|replaced)\b|"
    r"(?:^|\bmy\s+)(?:[\w-]+\s+)?(?:phone|smartphone)(?:\s+is|'s)\s|"
    r"(?:폰|휴대폰|핸드폰)(?:은|는)\s|써|쓰고|쓰는|써요|씀|사용|샀|구입|바꿨|바꿈|갈아\s*(?:탐|탔|타)|"
    r"넘어\s*(?:감|갔|왔|옴|와)|장만|있",
    re.IGNORECASE,
)

TIMEZONE = re.compile(
    r"\btime\s*zone\b|\btimezone\b|\b(?:kst|jst|pst|pdt|est|edt|cst|cdt|mst|gmt|utc|cet|bst|"
    r"aest|cest|wet|eet|hst|akst|sgt|hkt)\b|\b(?:pacific|eastern|central|mountain|korea|korean|japan|london|uk|british|"
    r"european|greenwich|atlantic|alaska|hawaii|india|indian|china|singapore|sydney|tokyo|seoul|"
    r"paris|berlin|new\s+york|us|la)\s+time\b|"
    # "use Lisbon time", "use local time": the clock answers are given in
    r"\buse\s+(?!(?:more|less|some|extra|free|spare|screen|much|enough|any|no|my|your|the\s+same)\b)"
    r"[a-z]+(?:\s+[a-z]+)?\s+time\b|"
    r"\butc\s*[+-]\s*\d|표준시|시간대(?:는|가|를)?\s*(?:kst|utc|gmt|한국|미국|서부|동부)|한국\s*시간\s*(?:기준|으로)|"
    r"시간(?:은|는)?\s*(?:한국|미국|서울|뉴욕|런던|도쿄|현지|동부|서부)\s*기준|"
    r"(?:미국|동부|서부|중부|현지|뉴욕|런던|도쿄|유럽|영국|일본)\s*시간\s*(?:기준|으로)",
    re.IGNORECASE,
)

CLOCK = re.compile(
    r"\d{1,2}\s*(?::\d{2}|시|am|pm|a\.m|p\.m|o'clock)|\b(?:at|by|around|before|after|till|until)\s+\d{1,2}\b|\bmidnight\b|\bnoon\b|"
    r"\bdawn\b|자정|새벽|\d{1,2}\s*시\s*(?:반|쯤)?",
    re.IGNORECASE,
)

WAKES = re.compile(
    r"\b(?:wake|wakes|woke|waking|get|gets|getting)\s+up\b|\bup\s+(?:by|at|around)\b|기상|일어나|일어난|깨(?:요|어|서|고|는|다)",
    re.I,
)

SLEEPS = re.compile(
    r"\b(?:go|goes|going|went)\s+to\s+(?:bed|sleep)\b|\bbedtime\b|\bfall\s+asleep\b|"
    r"\bsleep\s+(?:at|around|by)\b|\bin\s+bed\s+(?:by|at|around|before)\b|\bturn\s+in\b|취침|잠들|잠자리|자요|잔다|자는|자고|잠|"
    # "보통 11시에 자": the bare verb as the last word
    r"(?:^|\s|[시에쯤])자\s*[.!~]*$",
    re.IGNORECASE,
)

EXERCISE_WORDS = re.compile(
    r"\b(?:gym|swimming|swim|swims|pilates|yoga|crossfit|climbing|bouldering|running|run|runs|"
    r"jogging|cycling|biking|bike|pool|spinning|boxing|weightlifting|lifting|tennis|badminton|golf|taekwondo|"
    r"jiu-jitsu|workouts?|work\s+out|working\s+out)\b|"
    r"헬스|헬스장|수영|필라테스|요가|크로스핏|클라이밍|볼더링|러닝|달리기|조깅|자전거|스피닝|복싱|"
    r"웨이트|테니스|배드민턴|골프|태권도|주짓수|운동",
    re.IGNORECASE,
)

ROUTINE = re.compile(
    r"\b(?:go|goes|going|do|does|doing|hit|hits|took\s+up|take|takes|started|switched|"
    r"every|daily|weekly|times\s+a\s+week|a\s+week|mornings?|evenings?|now|these\s+days|"
    r"regularly|instead|ride|rides|riding|weekends)\b|\bi\s+(?:swim|run|jog|cycle|lift|climb|work\s+out)\b|"
    r"타요|타고\s*있|탄다|주말마다|"
    r"다녀|다니|다님|해요|하고\s*있|해\b|함\b|한다|매일|매주|주\s*\d|일주일에|꾸준히|시작했|배워|배우|"
    r"바꿨|갈아탔|요즘",
    re.IGNORECASE,
)

# When the user starts work: "출근 9시까지", "10시 출근", "I start work at 8", "shift starts at 7".
WORK_START = re.compile(
    r"출근|\bstart(?:s|ing)?\s+(?:work|my\s+shift)\b|\b(?:work|shift)\s+starts\b|"
    r"\bin\s+the\s+office\s+by\b|\bclock\s+in\b",
    re.IGNORECASE,
)

COMMUTE = re.compile(
    r"\bcommute|\b(?:to|into)\s+(?:work|the\s+office|school|campus)\b|출근|출퇴근|통근|등교|통학",
    re.IGNORECASE,
)

TRANSPORT = re.compile(
    r"\b(?:bus|subway|metro|train|tube|car|drive|drives|driving|bike|bicycle|cycle|cycles|"
    r"walk|walks|walking|scooter|taxi|carpool|ferry|on\s+foot)\b|"
    r"버스|지하철|전철|\d+\s*호선|기차|차로|자차|운전|자전거|걸어서|도보|킥보드|택시|카풀",
    re.IGNORECASE,
)

ANIMALS: dict[str, tuple[str, ...]] = {
    "dog": ("dog", "dogs", "puppy", "puppies", "개", "강아지", "멍멍이"),
    "cat": ("cat", "cats", "kitten", "kittens", "고양이", "냥이"),
    "fish": ("fish", "goldfish", "물고기", "금붕어", "열대어"),
    "bird": ("bird", "birds", "parrot", "parrots", "새", "앵무새"),
    "rabbit": ("rabbit", "rabbits", "bunny", "토끼"),
    "hamster": ("hamster", "hamsters", "햄스터"),
    "turtle": ("turtle", "turtles", "거북이"),
}

# The user keeps the animal ("I have two cats", "Got a puppy", "고양이 키워요"); "my cat has
# a cold" is about the cat, and "I don't have a dog" keeps none.
KEEPS = re.compile(
    r"(?:^|\b(?:i|we|user)\s+(?:now\s+|just\s+|also\s+|still\s+|finally\s+)?)(?:have|has|own|owns|"
    r"got|adopted|keep|keeps|raise|rescued)\b|^(?:now|also|just)\s+(?:have|has|own|got|adopted)\b|"
    r"키워|키우|키움|기르|길러|입양|데려왔|데려옴|마리",
    re.IGNORECASE,
)

# "오늘부터 헬스 다닌다", "starting today I swim": a routine that begins, not a moment.
FROM_NOW_ON = re.compile(
    r"(?:오늘|이번\s*주|어제)\s*부터|\b(?:starting|from|as\s+of|since)\s+(?:today|yesterday|this\s+week)\b",
    re.IGNORECASE,
)

# Which shift the user works: "I'm on the night shift", "데이 고정 근무", "3교대 해요". The
# shift named is the answer; "nurse" or "병원" beside it stay the job's question.
SHIFT = re.compile(
    r"\b(?:day|night|evening|swing|graveyard|morning|afternoon|early|late|rotating|split|"
    r"overnight)\s+shifts?\b|\bshifts?\s+(?:work|pattern|rotation)\b|\bwork(?:s|ing)?\s+nights\b|"
    r"(?:데이|이브닝|나이트|야간|주간|오전|오후|새벽|밤)\s*(?:근무|고정|조|전담|번)|"
    r"\d\s*교대|교대\s*근무|(?:^|\s)(?:데이|이브닝|나이트)(?:\s|$)",
    re.IGNORECASE,
)

# A change told with the day it happened ("switched to a Pixel yesterday", "오늘 폰 바꿨어")
# is news of the state that holds from then on, not a passing moment.
CHANGED = re.compile(
    r"\b(?:switched|upgraded|changed|moved|swapped|traded|replaced|got\s+a\s+new|bought|"
    r"went\s+back)\b|바꿨|바꿈|바뀌었|바뀜|갈아\s*탔|갈아\s*탐|넘어\s*(?:왔|옴)|"
    r"장만|샀|구입했",
    re.IGNORECASE,
)

WORD = re.compile(r"[a-z]+|[가-힣]+")


# A tablet, a watch or a laptop of a phone maker is another device, not the phone
# ("태블릿은 갤럭시탭 써요" beside "폰은 아이폰 써요").
_TABLET = re.compile(
    r"태블릿|패드|갤럭시\s*탭|노트북|워치|\b(?:tablet|ipad|galaxy\s+tab|laptop|macbook|watch)\b",
    re.I,
)


def _animal(text: str) -> str:
    words = WORD.findall(text)
    for animal, forms in ANIMALS.items():
        for word in words:
            if word in forms or (
                not word.isascii() and any(word.startswith(f) and len(f) > 1 for f in forms)
            ):
                return animal
    return ""


def _likes(text: str) -> bool:
    return bool(cues.LIKE.search(text) or cues.PREFER.search(text) or cues.FAVOURITE.search(text))


def current_thing(statement: Statement) -> str:
    """The slot of a thing or routine the user has one of at a time, else ""."""
    text = statement.text
    momentary = (
        cues.MOMENTARY.search(text) and not FROM_NOW_ON.search(text) and not CHANGED.search(text)
    )
    if cues.FUTURE.search(text) or momentary:
        return ""  # "thinking of buying a car", "woke up at 4 today": no current answer
    if TIMEZONE.search(text):
        return "timezone"
    if CLOCK.search(text) and not _likes(text):
        if WAKES.search(text):
            return "wake_time"
        if SLEEPS.search(text):
            return "bed_time"
    if SHIFT.search(text) and not _likes(text) and not cues.PREFER.search(text):
        return "work_shift"
    if CLOCK.search(text) and WORK_START.search(text) and not TRANSPORT.search(text):
        return "work_start"
    if COMMUTE.search(text) and TRANSPORT.search(text) and not cues.EN_WORK_MODE.search(text):
        return "commute"
    if _likes(text):
        return ""
    if CAR_WORDS.search(text) and DRIVES.search(text):
        return "car"
    if PHONE_WORDS.search(text) and USES.search(text) and not _TABLET.search(text):
        return "phone"
    animal = _animal(text)
    if animal and KEEPS.search(text):
        return f"pets:{animal}"
    # Exercise has no slot here: two routines ("I run on weekends", "I swim on Wednesdays")
    # are both true at once, and one must not replace the other; when one exercise is done
    # is its own question (`questions._routine_time`).
    return ""
