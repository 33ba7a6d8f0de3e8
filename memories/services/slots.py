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

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from memoryhub.text import _analyser, has_hangul, stem_english

SINGLE_SLOTS = (
    "residence",
    "hometown",
    "household",
    "name",
    "job",
    "workplace",
    "work_mode",
    "school",
    "major",
    "age",
    "birthday",
    "diet",
    "answer_formality",
    "answer_format",
    "answer_length",
    "answer_language",
    "units",
    "emoji",
)
KEYED_PREFIXES = ("likes:", "prefers:", "favourite:", "allergy:", "name:")
MAX_KEY_CHARS = 60

# --- the bilingual vocabulary ----------------------------------------------------------------
# Canonical English word -> the Korean and English forms that mean it. Korean forms are Kiwi
# nouns or lemmas ("맵다"); English forms are lower-case words (their stems are added below).
_SYNONYMS: dict[str, tuple[str, ...]] = {
    # things one likes or chooses
    "coffee": ("커피",),
    "tea": ("티", "tea"),
    "green tea": ("녹차",),
    "black tea": ("홍차",),
    "chicken": ("치킨", "닭고기", "닭"),
    "beef": ("소고기", "쇠고기"),
    "pork": ("돼지고기", "삼겹살"),
    "kimchi": ("김치",),
    "tofu": ("두부",),
    "cheese": ("치즈",),
    "salad": ("샐러드",),
    "pasta": ("파스타",),
    "burger": ("햄버거", "버거", "hamburger"),
    "steak": ("스테이크",),
    "curry": ("카레", "커리"),
    "ice cream": ("아이스크림",),
    "cake": ("케이크",),
    "cola": ("콜라", "coke"),
    "whisky": ("위스키", "whiskey"),
    "makgeolli": ("막걸리",),
    "tteokbokki": ("떡볶이",),
    "mushroom": ("버섯",),
    "onion": ("양파",),
    "garlic": ("마늘",),
    "tomato": ("토마토", "tomatoes"),
    "carrot": ("당근",),
    "seafood": ("해산물",),
    "raw fish": ("날생선",),
    "americano": ("아메리카노",),
    "latte": ("라떼", "라테"),
    "beer": ("맥주",),
    "wine": ("와인",),
    "soju": ("소주",),
    "water": ("water",),
    "juice": ("주스",),
    "milk": ("우유",),
    "food": ("음식",),
    "meat": ("고기", "육류"),
    "fish": ("생선",),
    "vegetable": ("채소", "야채", "veggie", "veggies", "vegetables"),
    "fruit": ("과일",),
    "cilantro": ("고수", "coriander"),
    "peanut": ("땅콩", "peanuts"),
    "nut": ("견과류", "nuts", "tree nuts"),
    "shellfish": ("갑각류", "갑각", "조개"),
    "shrimp": ("새우", "prawn", "prawns"),
    "egg": ("계란", "달걀", "eggs"),
    "wheat": ("밀", "밀가루", "gluten", "글루텐"),
    "dairy": ("유제품",),
    "pollen": ("꽃가루",),
    "dust": ("먼지",),
    "penicillin": ("페니실린",),
    "cucumber": ("오이",),
    "mint chocolate": ("민트초코", "민초"),
    "chocolate": ("초콜릿", "초콜렛"),
    "sushi": ("초밥", "스시"),
    "pizza": ("피자",),
    "ramen": ("라면",),
    "bread": ("빵",),
    "rice": ("밥",),
    "noodle": ("국수", "면", "noodles"),
    "dessert": ("디저트",),
    "movie": ("영화", "movies", "film", "films"),
    "music": ("음악",),
    "song": ("노래",),
    "novel": ("소설",),
    "drama": ("드라마",),
    "show": ("shows", "예능"),
    "game": ("게임", "gaming"),
    "sport": ("스포츠", "운동경기"),
    "exercise": ("운동", "workout", "workouts", "working out"),
    "running": ("달리기", "러닝", "조깅", "jogging", "run", "runs", "jog"),
    "swimming": ("수영", "swim"),
    "hiking": ("등산", "하이킹", "hike", "hikes", "hik"),
    "walking": ("산책", "걷기", "walk", "walks"),
    "cycling": ("자전거", "bike", "bikes", "biking", "bicycle"),
    "yoga": ("요가",),
    "tennis": ("테니스",),
    "soccer": ("축구", "football"),
    "baseball": ("야구",),
    "basketball": ("농구",),
    "golf": ("골프",),
    "travel": ("여행", "traveling", "travelling", "trip", "trips"),
    "reading": ("독서", "read"),
    "cooking": ("요리", "cook"),
    "drawing": ("그림", "draw", "painting"),
    "photography": ("사진",),
    "camping": ("캠핑", "camp"),
    "fishing": ("낚시",),
    "jazz": ("재즈",),
    "rock": ("록", "락"),
    "classical": ("클래식",),
    "kpop": ("케이팝", "k-pop"),
    "hiphop": ("힙합", "hip-hop"),
    "horror": ("공포", "호러"),
    "comedy": ("코미디",),
    "anime": ("애니", "애니메이션"),
    "cat": ("고양이", "냥이", "cats"),
    "dog": ("개", "강아지", "멍멍이", "dogs", "puppy"),
    "summer": ("여름",),
    "winter": ("겨울",),
    "spring": ("봄",),
    "autumn": ("가을", "fall"),
    "rain": ("비", "rainy"),
    "snow": ("눈", "snowy"),
    "sea": ("바다", "beach", "ocean"),
    "mountain": ("산", "mountains"),
    "city": ("도시",),
    "meeting": ("회의", "미팅", "meetings"),
    "table": ("표", "테이블", "tables"),
    "mode": ("모드", "modes", "theme", "테마"),
    "pineapple": ("파인애플",),
    "apple": ("사과",),
    "banana": ("바나나",),
    "strawberry": ("딸기", "strawberries"),
    "grape": ("포도",),
    "peach": ("복숭아", "peaches"),
    "watermelon": ("수박",),
    "mango": ("망고", "mangoes"),
    "lemon": ("레몬",),
    "book": ("책", "도서", "books"),
    "paper book": ("종이책",),
    "digital book": ("전자책", "ebook", "e-book", "ebooks", "e-books"),
    "audio book": ("오디오북", "audiobook", "audiobooks"),
    "party": ("파티", "parties"),
    "shift": ("근무", "교대", "shifts"),
    "seat": ("자리", "좌석", "seats", "seating", "sit", "sitting"),
    "flight": ("비행기", "항공편", "비행", "flights"),
    "class": ("수업", "강의", "lecture", "classes"),
    "call": ("통화", "전화", "calls", "phone call"),
    "email": ("이메일", "메일", "emails"),
    "message": ("메시지", "문자", "messages", "text"),
    "cafe": ("카페", "cafes", "café"),
    "restaurant": ("식당", "맛집"),
    "shower": ("샤워",),
    "nap": ("낮잠",),
    "commute": ("출근", "출퇴근"),
    "car": ("자동차", "차량", "cars"),
    "train": ("기차", "열차", "trains"),
    "subway": ("지하철", "metro"),
    "bus": ("버스",),
    "color": ("색", "색깔", "색상", "colour", "colors", "colours"),
    "season": ("계절",),
    "drink": ("음료", "음료수", "drinks", "beverage"),
    "animal": ("동물",),
    "flower": ("꽃",),
    "singer": ("가수",),
    "band": ("밴드",),
    "actor": ("배우", "actress"),
    "author": ("작가", "writer"),
    "team": ("팀",),
    "genre": ("장르",),
    "number": ("숫자",),
    "place": ("장소", "곳"),
    "snack": ("간식", "과자"),
    "breakfast": ("아침밥", "아침식사"),
    "lunch": ("점심", "점심식사"),
    "dinner": ("저녁밥", "저녁식사"),
    # modifiers (dimensions below)
    "morning": ("아침", "오전", "mornings"),
    "afternoon": ("오후", "afternoons"),
    "evening": ("저녁", "evenings"),
    "night": ("밤", "야간", "nights", "late-night"),
    "dawn": ("새벽",),
    "daytime": ("주간", "낮", "day"),
    "weekend": ("주말", "weekends"),
    "weekday": ("평일", "weekdays"),
    "early": ("이르다", "일찍", "이른"),
    "late": ("늦다", "늦게", "늦은"),
    "short": ("짧다", "shorter", "brief", "quick"),
    "long": ("길다", "longer", "lengthy"),
    "small": ("작다", "smaller", "tiny"),
    "big": ("크다", "large", "bigger", "larger", "huge"),
    "window": ("창가", "창문", "window-side"),
    "aisle": ("통로", "통로석"),
    "front": ("앞자리", "앞쪽"),
    "back": ("뒷자리", "뒤쪽"),
    "online": ("온라인", "비대면", "화상", "virtual", "video", "zoom", "remote"),
    "in-person": ("대면", "오프라인", "offline", "face-to-face", "in person"),
    "indoor": ("실내", "indoors"),
    "outdoor": ("야외", "실외", "outdoors"),
    "hot": ("뜨겁다", "따뜻", "따뜻하다", "핫", "warm", "온수"),
    "iced": ("아이스", "차갑다", "시원하다", "cold", "ice", "찬물", "냉수", "차다"),
    "bitter": ("bitter",),
    "spicy": ("맵다", "매콤", "매콤하다"),
    "mild": ("순하다", "안 맵다"),
    "sweet": ("달다", "달콤하다", "달달하다"),
    "salty": ("짜다",),
    "quiet": ("조용하다", "조용"),
    "noisy": ("시끄럽다", "loud", "lively"),
    "alone": ("혼자", "solo"),
    "group": ("단체", "여럿", "together"),
    "fast": ("빠르다", "faster", "quicker"),
    "slow": ("느리다", "slower"),
    "paper": ("종이", "print", "printed", "physical"),
    "digital": ("전자", "electronic"),
    "audio": ("오디오",),
    "dark": ("다크", "어두운", "어둡다"),
    "light": ("라이트", "밝다", "밝은"),
}
# The kind of modifier a preference chooses along ("morning" and "evening" are both `time`).
_DIMENSIONS: dict[str, tuple[str, ...]] = {
    dimension: tuple(words.split())
    for dimension, words in {
        "time": """morning afternoon evening night dawn daytime weekend weekday early late
            lunchtime monday tuesday wednesday thursday friday saturday sunday
            월요일 화요일 수요일 목요일 금요일 토요일 일요일""",
        "size": "short long small big",
        "place": "window aisle front back online in-person indoor outdoor",
        "temperature": "hot iced",
        "taste": "spicy mild sweet salty bitter",
        "noise": "quiet noisy",
        "company": "alone group",
        "speed": "fast slow",
        "medium": "paper digital audio",
        "brightness": "dark light",
    }.items()
}
DIMENSIONS = tuple(_DIMENSIONS)
_DIMENSION_OF = {word: dim for dim, words in _DIMENSIONS.items() for word in words}

# Korean adjectives whose stem is also a verb's: Kiwi tells them apart by tag.
_ADJECTIVE_SENSES = {"쓰다": "bitter"}

_CANON: dict[str, str] = {}
for _word, _forms in _SYNONYMS.items():
    for _form in (_word, *_forms):
        _CANON[_form] = _word
        if _form.isascii():
            _CANON.setdefault(stem_english(_form), _word)

# People and animals whose name the user may tell ("내 강아지 이름은 코코").
_RELATIONS: dict[str, tuple[str, ...]] = {
    "dog": ("개", "강아지", "puppy"),
    "cat": ("고양이",),
    "pet": ("반려동물", "애완동물"),
    "wife": ("아내", "와이프", "부인"),
    "husband": ("남편",),
    "partner": ("애인",),
    "girlfriend": ("여자친구", "여친"),
    "boyfriend": ("남자친구", "남친"),
    "son": ("아들",),
    "daughter": ("딸",),
    "mother": ("엄마", "어머니", "mom", "mum"),
    "father": ("아빠", "아버지", "dad"),
    "brother": ("형", "오빠", "남동생"),
    "sister": ("누나", "언니", "여동생"),
    "boss": ("상사", "팀장님", "manager"),
}
_RELATION_OF = {form: rel for rel, forms in _RELATIONS.items() for form in (rel, *forms)}

# People whose facts are theirs, not the user's.
_PEOPLE = frozenset(
    """아내 와이프 부인 남편 애인 여자친구 여친 남자친구 남친 아들 딸 엄마 어머니 아빠 아버지
    부모 부모님 형 오빠 누나 언니 동생 남동생 여동생 친구 동료 상사 팀장 사장님 할머니 할아버지
    가족 사촌 이모 삼촌 고모 선배 후배 룸메이트 그 그녀 걔 쟤""".split()  # noqa: SIM905
)
_EN_OTHER_SUBJECT = re.compile(
    r"^(?:and\s+|also\s+|oh\s+)?(?:(?:my|our)\s+(?:\w+\s+)?(?:wife|husband|partner|girlfriend|"
    r"boyfriend|son|daughter|kids?|children|mom|mum|mother|dad|father|parents|brother|sister|"
    r"friend|friends|colleague|coworker|co-worker|boss|manager|roommate|family|cousin|uncle|aunt|"
    r"grandma|grandpa|grandmother|grandfather|neighbou?r)|he|she|they|his|her)\b(?!'s\s+name)",
    re.IGNORECASE,
)
_KO_JOBS = frozenset(
    """개발자 엔지니어 디자이너 기획자 학생 대학생 대학원생 고등학생 중학생 교사 선생님 선생 교수
    강사 의사 치과의사 한의사 간호사 약사 수의사 변호사 회계사 세무사 변리사 노무사 연구원 기자
    작가 마케터 프로그래머 개발 데이터사이언티스트 사이언티스트 분석가 공무원 회사원 직장인 프리랜서
    요리사 셰프 바리스타 사진작가 번역가 통역사 예술가 음악가 배우 조종사 승무원 소방관 경찰 경찰관
    군인 농부 사업가 창업자 자영업자 대표 사장 영업사원 상담사 트레이너 비서 은행원 주부 백수
    알바생 인턴 매니저 팀장 과장 대리 부장 사원 컨설턴트 아키텍트 운전기사 기사 미용사 건축가
    판사 검사 목사 연구자 과학자 치료사 물리치료사 보육교사 유치원교사 웹개발자 백엔드
    프론트엔드 PM PO CTO CEO 임원 은퇴자 취준생 작곡가 가수 유튜버 크리에이터 스트리머 편집자
    애널리스트""".split()  # noqa: SIM905
)
_EN_JOBS = (
    r"developer|engineer|designer|student|teacher|professor|lecturer|instructor|tutor|doctor|"
    r"physician|surgeon|dentist|nurse|pharmacist|vet|veterinarian|lawyer|attorney|accountant|"
    r"researcher|scientist|analyst|journalist|reporter|writer|editor|author|translator|"
    r"interpreter|marketer|programmer|coder|consultant|architect|manager|director|founder|"
    r"cofounder|co-founder|owner|entrepreneur|freelancer|contractor|chef|cook|baker|barista|"
    r"photographer|artist|musician|actor|actress|pilot|flight\s+attendant|firefighter|"
    r"police\s+officer|officer|soldier|farmer|civil\s+servant|clerk|cashier|salesperson|"
    r"recruiter|therapist|counselor|counsellor|psychologist|librarian|mechanic|electrician|"
    r"plumber|carpenter|driver|secretary|assistant|administrator|banker|economist|intern|"
    r"coach|trainer|homemaker|housewife|househusband|retiree|cto|ceo|cfo|coo|pm|vp|"
    r"product\s+owner|data\s+scientist|sre|devops|streamer|youtuber|creator|composer|singer"
)

# --- cues ------------------------------------------------------------------------------------
_ANSWER_WORDS = re.compile(
    r"답변|대답|응답|답장|답을|답은|답해|답할|설명|말투|어조|톤|말해|말할|말하|얘기해|글을|써\s*줘|"
    r"작성|정리해|\b(?:answers?|responses?|repl(?:y|ies)|respond|responding|explanations?|explain|"
    r"talk|talking|speak|speaking|speech|tone|write|writing|formatt?(?:ed|ing)?|chat|"
    r"messages?\s+to\s+me|"
    r"to\s+me|with\s+me)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"[가-힣]\s*(?:줘|주세요|줘요|주라|줄래|주면|줬으면)(?=$|[\s.!~,])|(?:하지|쓰지|붙이지|달지)\s*"
    r"(?:마|말아)|^(?:앞으로|이제부터|지금부터|항상|늘)|"
    r"^(?:please\s+)?(?:always\s+|never\s+|just\s+)?(?:use|answer|reply|respond|write|keep|give|"
    r"be|format|talk|speak|address|stick|avoid|don't|do\s+not|stop)\b|"
    r"\b(?:from\s+now\s+on|going\s+forward|by\s+default|please)\b",
    re.IGNORECASE,
)
_SELF_DOES = re.compile(
    r"\b(?:i|user)\s+(?:can\s+|also\s+|mostly\s+)?(?:speak|talk|write|explain|chat)\b|"
    r"(?:나는|난|저는|전)\s+\S*(?:를|을)?\s*(?:할\s*줄|말할\s*줄)"
)
_CODE_WORDS = re.compile(r"코드|주석|변수명|커밋|\b(?:code|comments?|variable|commit)\b", re.I)
_FACETS: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    # (slot, cue, whether the cue alone says it is about answers)
    (
        "answer_language",
        re.compile(
            r"(?:한국어|영어|일본어|중국어|한글|스페인어|프랑스어|독일어|베트남어|모국어)|"
            r"\b(?:english|korean|japanese|chinese|spanish|french|german|vietnamese)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        "answer_formality",
        re.compile(r"존댓말|존대|반말|높임말|경어|말\s*(?:을\s*)?(?:놓|높여)|\bhonorifics?\b"),
        True,
    ),
    (
        "answer_formality",
        re.compile(
            r"편하게|격식|친근하게|정중하게|공손하게|\b(?:formal(?:ly)?|informal(?:ly)?|casual(?:ly)?|"
            r"polite(?:ly)?|politeness|friendly)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        "answer_format",
        re.compile(
            r"글머리|불릿|블릿|목록|리스트|번호\s*(?:매|붙)|표로|표\s*형식|표를|테이블|마크다운|문단|단락|"
            r"줄글|산문|서술형|\b(?:bullet[-\s]points?|bullets?|bulleted|lists?|numbered|tables?|"
            r"tabular|prose|plain|paragraphs?|markdown|headings?)\b",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        "answer_length",
        re.compile(
            r"짧게|짧은|짧았|간결|간단|간략|길게|긴\s|자세|상세|한\s*줄|요약|핵심만|장황|"
            r"\b(?:short(?:er)?|brief(?:ly)?|concise(?:ly)?|succinct(?:ly)?|detailed|long(?:er)?|"
            r"lengthy|verbose|in[-\s]depth|thorough(?:ly)?|one[-\s]line(?:rs?)?|to\s+the\s+point|"
            r"tl;?dr|length|\d+\s*(?:words?|sentences?|lines?|paragraphs?))\b|"
            r"\d+\s*(?:단어|줄|문장|글자|자)\s*(?:이내|이하|안|정도|로|만)",
            re.IGNORECASE,
        ),
        False,
    ),
    ("emoji", re.compile(r"이모지|이모티콘|\bemojis?\b|\bemoticons?\b", re.IGNORECASE), True),
    (
        "units",
        re.compile(
            r"미터법|야드파운드|섭씨|화씨|단위|\b(?:metric|imperial|celsius|fahrenheit|units?)\b",
            re.IGNORECASE,
        ),
        True,
    ),
    (
        "units",
        re.compile(
            r"킬로미터|마일|킬로그램|파운드|피트|인치|미터|\b(?:km|kms|kilomet(?:er|re)s?|miles?|kg|kgs|"
            r"kilograms?|pounds?|lbs?|feet|foot|inch(?:es)?|met(?:er|re)s?)\b",
            re.IGNORECASE,
        ),
        False,
    ),
)

# "Is a nurse", "Does not like horror movies" are subject-less facts; "is my ...", "do I ..."
# ask. A hypothetical ("if I moved ...") answers nothing either.
_QUESTION_START = re.compile(
    r"^(?:what|where|who|whom|how|why|which|whether|suppose|if)\b|^(?:만약|만일|혹시)|"
    r"^(?:do|does|did|can|could|would|will|should|is|are|am|was|were|have|has|when)\s+"
    r"(?:i|you|he|she|it|we|they|my|your|the|this|that|there|any|anyone|user)\b",
    re.IGNORECASE,
)
_KO_QUESTION_WORD = re.compile(r"뭐|뭘|무엇|누구|어디|언제|왜|어떻게|어느|무슨")
_KO_QUESTION_END = re.compile(r"(?:지|까|니|냐|나요|가요|까요|는지|던가|려나)\s*[.!~]*$")
_CONDITIONAL_REQUEST = re.compile(r"^(?:when(?:ever)?|if)\b[^,?]{2,80},\s*\w", re.IGNORECASE)

_FUTURE = re.compile(
    r"예정|계획|할\s*거|갈\s*거|할지도|하려고|려고|싶어|싶다|다음\s*(?:주|달|해)|담주|내년|다다음|"
    r"\b(?:will|going\s+to|plan(?:ning)?\s+to|might|may|want\s+to|hope\s+to|"
    r"thinking\s+(?:of|about)|next\s+(?:week|month|year|spring|summer|fall|autumn|winter)|"
    r"moving)\b",
    re.IGNORECASE,
)
_PAST_ONLY = re.compile(
    r"예전에|옛날에|전에는|어릴\s*때|때는|\b(?:used\s+to|previously|formerly|once|as\s+a\s+kid|"
    r"when\s+i\s+was)\b",
    re.IGNORECASE,
)
_NAME = re.compile(
    r"\bcall\s+me\b|\bgo(?:es)?\s+by\b|\bbe\s+called\b|\baddress\s+me\s+as\b|\bnick\s*name\b|"
    r"라고\s*(?:불러|부르|불리)|(?:으로|로)\s*(?:불러|불리)|호칭|닉네임|별명",
    re.IGNORECASE,
)
_EN_OWN_NAME = re.compile(r"(?:^|\b(?:my|user'?s)\s+)(?:full\s+|first\s+)?name\b")
_EN_RELATION_NAME = re.compile(r"\bmy\s+([a-z]+(?:\s+[a-z]+)?)'s\s+name\b")
_KO_NAME = re.compile(r"(?:^|(\S+?)\s*)이름")
_KO_SELF = frozenset("내 제 나의 저의 사용자 사용자의 유저의 유저 나 저".split())  # noqa: SIM905

_EN_RESIDENCE = re.compile(
    r"\b(?:live|lives|living|reside|resides|residing|based|stay(?:s|ing)?)\s+(?:in|at|near)\b|"
    r"\b(?:moved|relocated|move|moves|relocate)\s+(?:back\s+)?(?:(?:from|out\s+of)\s+[\w\s,.-]{1,40}?\s+)?"
    r"(?:to|into)\b|\b(?:rent|renting|rents|own|owns)\s+(?:a|an|my|our)\s+[\w\s-]{1,30}?\s+in\b|"
    r"\b(?:home|address|apartment|flat)\s+is\s+in\b|\bresidence\b",
    re.IGNORECASE,
)
_EN_HOUSEHOLD = re.compile(
    r"\b(?:live|lives|living)\s+(?:alone|by\s+myself|on\s+my\s+own|with)\b", re.IGNORECASE
)
_EN_HOMETOWN = re.compile(
    r"\b(?:i'm|i\s+am|user\s+is|come|comes|originally)\s+from\b|^(?:originally\s+)?from\s|"
    r"\bhometown\b|\bborn\s+(?:and\s+raised\s+)?in\s+(?![12]\d{3})|\bgrew\s+up\s+in\b",
    re.IGNORECASE,
)
_KO_HOMETOWN = re.compile(r"고향|출신|태어났|태어난|태어나|자랐")
_AGE = re.compile(
    r"(?<!\d)\d{1,3}\s*(?:살|세)(?:이야|야|예요|이에요|입니다|임|이다|다|요)?(?![가-힣])|나이|"
    r"\b\d{1,3}\s*(?:years?\s+old|yo|y/o)\b|\baged?\s+\d{1,3}\b|\bturn(?:ed|ing)?\s+\d{1,3}\b|"
    r"\bi(?:'?m|\s+am)\s+\d{1,3}(?:\s+now)?\s*[.!]*$|\bborn\s+in\s+[12]\d{3}\b|[12]\d{3}\s*년생|"
    r"[1-9]0\s*대|\bin\s+(?:my|their)\s+[1-9]0s\b",
    re.IGNORECASE,
)
_BIRTHDAY = re.compile(
    r"(?:^|내|제|나의|저의|사용자의?)\s*생일|생일(?:은|이)\s|생년월일|"
    r"(?:^|\bmy\s+|user'?s\s+)birthday\b|\bbirthday\s+is\b|\bborn\s+on\b|\bdate\s+of\s+birth\b",
    re.IGNORECASE,
)
_DIET = re.compile(
    r"채식|비건|페스코|락토|오보|육식|\b(?:vegan|vegetarian|pescatarian|pescetarian|"
    r"plant-based|carnivore|keto)\b|고기를?\s*안\s*먹|\b(?:don't|do\s+not|doesn't|no\s+longer)\s+"
    r"eat\s+meat\b|\beats?\s+meat\b",
    re.IGNORECASE,
)
_ALLERGY = re.compile(r"알레르기|알러지|\ballerg(?:y|ies|ic)\b", re.IGNORECASE)
_EN_WORK_MODE = re.compile(
    r"\bwork(?:s|ing)?\s+(?:from\s+home|remotely|remote|hybrid|in\s+the\s+office|on[-\s]site)\b|"
    r"\b(?:remote|hybrid)\s+work\b|재택|원격\s*근무|하이브리드\s*근무|사무실\s*(?:로\s*)?출근",
    re.IGNORECASE,
)
_EN_MAJOR = re.compile(r"\bmajor(?:s|ed|ing)?\s+in\b|\bmy\s+major\b|\bmajor\s+is\b|전공", re.I)
_EN_SCHOOL = re.compile(
    r"\b(?:university|college|school|grad\s+school|academy|campus|alma\s+mater)\b|"
    r"\bstud(?:y|ies|ying)\s+at\b|\battend(?:s|ing)?\b|\bgraduated?\s+from\b|\benrolled\b|"
    r"\bstudent\s+at\b|\b(?:freshman|sophomore|junior|senior)\s+at\b",
    re.IGNORECASE,
)
_KO_SCHOOL = re.compile(
    r"재학|입학|휴학|복학|편입|졸업(?:했|함|생)|\d\s*학년|"
    r"(?:학교|대학|대학교|대학원)(?:에|을|를)?\s*(?:다니|다녀|다님|가|졸업)"
)
_EN_JOB_TITLE = re.compile(r"\b(?:" + _EN_JOBS + r")\b", re.IGNORECASE)
_EN_JOB = re.compile(
    r"\bwork(?:s|ing|ed)?\s+as\b|\b(?:job(?!\s+(?:at|with|in)\b)|profession|occupation|career)\b|"
    r"\b(?:became|become|becoming)\s+(?:a|an)\b|\bpromoted\s+to\b|\bquit\s+(?:my|their)\s+job\b|"
    r"\b(?:retired|unemployed|jobless|self-employed|between\s+jobs)\b|"
    r"\b(?:i'm|i\s+am|is|am|now)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:" + _EN_JOBS + r")s?\b|"
    r"^(?:a|an)?\s*(?:[\w-]+\s+){0,3}?(?:" + _EN_JOBS + r")s?\s+(?:by\s+profession|at\b|for\b)",
    re.IGNORECASE,
)
_EN_WORKPLACE = re.compile(
    r"\b(?:work|teach)(?:s|es|ing|ed)?\s+(?:at|for)\b|\bemployed\s+(?:at|by)\b|\bstarted\s+(?:working\s+)?at\b|"
    r"\b(?:employer|company|workplace|firm|startup)\b|\bhired\s+(?:at|by)\b|\bjob\s+at\b",
    re.IGNORECASE,
)
_KO_JOB_CUE = re.compile(r"직업|승진|퇴사|은퇴|백수|취준|무직|일을?\s*그만")
_KO_WORKPLACE_CUE = re.compile(
    r"입사|재직|취직|취업|이직|근무지|(?:회사|직장)(?:은|는|이|가)\s|(?:회사|직장)(?:를|을)?\s*(?:옮|바꿨|바꿈)"
)

_FAVOURITE = re.compile(
    r"(?:제일|가장)\s*좋아|최애|\bfavou?rites?\b|\bfav\b|\bthe\s+most\b|\bmost\s+of\s+all\b", re.I
)
# A favourite named without its category ("파란색을 가장 좋아함") still has one.
_CATEGORY_OF = {
    **dict.fromkeys(
        """blue red green yellow black white purple pink orange gray grey navy brown beige
        파란색 파랑 하늘색 빨간색 빨강 초록색 초록 녹색 노란색 노랑 검은색 검정 검정색 흰색 하얀색
        보라색 분홍색 핑크 주황색 회색 남색 갈색 베이지""".split(),  # noqa: SIM905
        "color",
    ),
    **dict.fromkeys(("spring", "summer", "autumn", "winter"), "season"),
}
_EN_FAVOURITE_CATEGORY = re.compile(
    r"\bfavou?rite\s+((?:[a-z-]+\s+){0,2}?[a-z-]+)\s*(?:is|are|was|:|would|=|$|,|\.)",
    re.IGNORECASE,
)
_KO_FAVOURITE_CATEGORY = re.compile(
    r"(?:(?P<before>[가-힣a-z]+)\s+)?최애(?:는|은|가)\s|최애\s*(?P<after>[가-힣a-z]+?)(?:은|는|이|가)\s"
)
_NOT_A_CATEGORY = frozenset("my the a an all-time all time most very user user's".split())  # noqa: SIM905
# One category under two names: "운동" is both sport and exercise.
_SAME_CATEGORY = {"exercise": "sport", "tune": "song", "film": "movie"}
_EN_FAVOURITE_AFTER = re.compile(r"\b(?:is|are)\s+(?:my|the\s+user'?s|their)\s+favou?rite\s+(\w+)")

_MOMENTARY = re.compile(
    r"오늘|어제|방금|지금\s*(?:이|막)|이번\s*(?:주|에)|\b(?:today|tonight|yesterday|right\s+now|"
    r"this\s+(?:morning|evening|time|one))\b",
    re.IGNORECASE,
)
_PREFER = re.compile(
    r"선호|더\s*좋|\b(?:prefer(?:s|red|ring)?|preference|rather|would\s+sooner)\b", re.IGNORECASE
)
# "like" is a verb after its subject or at the start ("Likes tea"), a preposition elsewhere
# ("answer like a pirate").
_LIKE = re.compile(
    r"좋아|좋다|좋음|좋아요|싫|별로|질색|못\s*먹|사랑|즐겨|즐기|"
    r"(?:^|\b(?:i|user|we|really|also|still|not|don't|doesn't|to|would|'d|and|but|always|"
    r"genuinely|kinda|actually)\s+)like[sd]?\b|\b(?:liking|love[sd]?|"
    r"loving|enjoy(?:s|ed|ing)?|hate[sd]?|hating|dislike[sd]?|detest(?:s|ed)?|adore[sd]?|"
    r"can't\s+stand|cannot\s+stand|fan\s+of|(?:'m|am|is|really)\s+into)\b",
    re.IGNORECASE,
)
_EN_COMPARISON = re.compile(
    r"\b([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:over|more\s+than|rather\s+than|than|to|instead\s+of)"
    r"\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\b",
    re.IGNORECASE,
)
_EN_LIKE_MY_X = re.compile(
    r"\b(?:like|likes|love|loves|want|wants)\s+(?:my|their|his|her|the)\s+(\w+)\s+(\w+)\b", re.I
)

# Words that carry no subject: pronouns, fillers, the like/prefer verbs and their helpers.
_EN_FILLER = frozenset(
    """i i'm im me my mine myself we our you your user user's the a an to of in on at for and or
    but that this it its is am are was were be been being really very so just also too lot lots
    much more most less least than then over rather instead better best do does did don't
    doesn't didn't not no never anymore any longer always usually generally kind sort bit quite
    pretty absolutely truly totally definitely actually honestly still now currently these days
    prefer prefers preferred preferring preference like likes liked liking love loves loved loving
    remember note fyi please use using give keep make show tell let stop start put me full
    proper simple clear whole complete nice good fewer
    enjoy enjoys enjoyed enjoying hate hates hated hating dislike dislikes disliked detest detests
    adore adores can't cannot stand fan fans into would sooner have has had get getting go going
    eat eating eats drink drinking drinks listen listening listens watch watching watches play
    playing plays having with without thing things stuff type types kind kinds one ones when
    whenever if them they their he she his her who what which something anything everything
    someone by from about as all some every each other way ways time times""".split()  # noqa: SIM905
)
_KO_FILLER = frozenset(
    """나 저 내 제 사용자 유저 것 거 게 걸 편 정도 제일 가장 정말 진짜 너무 아주 완전 엄청 특히
    좀 약간
    더 덜 많이 항상 늘 요즘 최근 지금 현재 그냥 원래 보통 평소 선호 좋아하다 싫어하다 좋다 싫다
    사랑하다 즐기다 즐겨 하다 되다 있다 없다 먹다 마시다 듣다 보다 치다 타다 가다 오다 별로 질색
    기억 기억하다 참고 무조건 절대 잘 못 안
    이다 아니다 편이다 쪽 종류 때 경우 대신 보다는 차라리 이상 앞 앞으로 날""".split()  # noqa: SIM905
)
_KO_CONTENT_TAGS = frozenset({"NNG", "NNP", "XR", "SL", "NR"})
_KO_PREDICATE_TAGS = frozenset({"VA", "VA-I", "VA-R", "VV", "VV-I", "VV-R"})


# --- the statement, once analysed --------------------------------------------------------------


@dataclass(frozen=True)
class _Token:
    form: str  # canonical word: "coffee", "meeting", or a Korean lemma/noun, or an English stem
    tag: str  # Kiwi's tag, or "EN" for an English word
    raw: str
    start: int = 0  # where the token starts and ends in the folded text
    end: int = 0


@dataclass(frozen=True)
class _Statement:
    text: str  # folded: NFKC, lower case, straight quotes, single spaces
    tokens: tuple[_Token, ...]

    def words(self) -> list[str]:
        """Subject words in order: nouns, roots, adjectives and English content words."""
        found = []
        for index, token in enumerate(self.tokens):
            following = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
            if (
                token.tag.startswith("VV")
                and following
                and (following.tag, following.raw) == ("ETN", "기")
                and token.raw not in _KO_FILLER
            ):
                # "달리기", "걷기": a verb made a noun names an activity.
                found.append(_canon(token.raw.removesuffix("다") + "기"))
            elif token.tag == "EN":
                if token.raw not in _EN_FILLER and token.form not in _EN_FILLER:
                    found.extend(token.form.split())
            elif (token.tag in _KO_CONTENT_TAGS or token.tag.startswith("VA")) and not (
                token.form in _KO_FILLER or token.raw in _KO_FILLER
            ):
                found.extend(token.form.split())
        return found


def _canon(word: str) -> str:
    word = word.lower()
    if word in _CANON:
        return _CANON[word]
    if word.isascii():
        stem = stem_english(word)
        return _CANON.get(stem, stem)
    return word


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'")
    return re.sub(r"\s+", " ", folded).strip()


_EN_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")


@lru_cache(maxsize=2048)
def _analyse(text: str) -> _Statement:
    folded = _fold(text)
    tokens: list[_Token] = []
    if has_hangul(folded):
        for token in _analyser().tokenize(folded):
            raw = token.form
            if token.tag in _KO_PREDICATE_TAGS:
                raw = raw + "다"
            if token.tag.startswith("VA") and raw in _ADJECTIVE_SENSES:
                raw = _ADJECTIVE_SENSES[raw]  # "쓴 커피" is bitter; "쓰다" the verb is write
            end = token.start + token.len
            if token.tag == "SL":
                tokens.append(_Token(_canon(raw), "EN", raw.lower(), token.start, end))
            else:
                tokens.append(_Token(_canon(raw), token.tag, raw, token.start, end))
    else:
        for match in _EN_WORD.finditer(folded):
            raw = match.group(0).strip("'-")
            if raw.endswith("'s"):
                raw = raw[:-2]
            tokens.append(_Token(_canon(raw), "EN", raw, match.start(), match.end()))
    return _Statement(text=folded, tokens=tuple(tokens))


_EN_CONJUNCTIONS = frozenset(
    "because but so since though although while whereas unless which cause".split()  # noqa: SIM905
)
# Korean endings that join two clauses ("못 먹어서", "좋아하는데", "좋아하지만"); "-고" only
# when no auxiliary verb follows ("살고 있어" is one clause).
_KO_CLAUSE_ENDINGS = frozenset(
    "어서 아서 서 니까 으니까 는데 은데 ᆫ데 지만 라서 이라서 어도 아도 고 며 으며 면서".split()  # noqa: SIM905
)


def _clauses(statement: _Statement) -> list[_Statement]:
    """The statement cut into clauses: "I can't stand cilantro, it tastes like soap" gives
    the clause about cilantro and the one about soap."""
    tokens = statement.tokens
    clauses: list[list[_Token]] = [[]]
    for index, token in enumerate(tokens):
        if token.tag == "EN" and token.raw in _EN_CONJUNCTIONS:
            clauses.append([])
            continue
        clauses[-1].append(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None:
            break
        gap = statement.text[token.end : following.start]
        ends_clause = bool(re.search(r"[,;:.!?—–]|\s-\s", gap))
        if token.tag in ("EF", "SF"):
            ends_clause = True
        if token.tag == "EC" and token.raw in _KO_CLAUSE_ENDINGS and following.tag != "VX":
            ends_clause = True
        if ends_clause:
            clauses.append([])
    return [
        _Statement(text=statement.text[part[0].start : part[-1].end], tokens=tuple(part))
        for part in clauses
        if part
    ]


def _clause_with(statement: _Statement, cue: re.Pattern[str]) -> _Statement:
    """The first clause that holds `cue`, or the whole statement."""
    return next((c for c in _clauses(statement) if cue.search(c.text)), statement)


def _is_question(statement: _Statement) -> bool:
    text = statement.text.rstrip(" .!~")
    if text.endswith("?") or "?" in text[-3:]:
        return True
    if _QUESTION_START.search(text) and not _CONDITIONAL_REQUEST.match(text):
        return True
    return bool(_KO_QUESTION_WORD.search(text) and _KO_QUESTION_END.search(text))


def _key(words: list[str], *, ordered: bool = False) -> str:
    # "mint chocolate" (one Korean word's meaning) and "mint", "chocolate" give one key.
    unique = list(dict.fromkeys(part for w in words for part in w.split()))
    return " ".join(unique if ordered else sorted(unique))[:MAX_KEY_CHARS].strip()


# --- the questions -----------------------------------------------------------------------------


def _answer_facet(statement: _Statement) -> str:
    text = statement.text
    # "I speak Korean", "I write short stories": about the user, not about the answers.
    about_answers = bool(_ANSWER_WORDS.search(_SELF_DOES.sub(" ", text)))
    # "Prefers plain prose": a preference for a way of writing, with nothing else named.
    asks = bool(_REQUEST.search(text))
    # A request or a liking that names nothing but a way of writing is about the answers:
    # "자세히 알려줘", "표로 보여주는 거 좋아해", "Prefers plain prose"; "Keep meetings short",
    # "파이썬 리스트 정렬하는 법 알려줘" and "I like short hair" name something else.
    words = statement.words()
    leftover = " ".join(words)
    for _, cue, _ in _FACETS:
        leftover = cue.sub(" ", leftover)
    only_manner = not leftover.strip()
    likes_a_manner = (
        bool(words) and only_manner and bool(_PREFER.search(text) or _LIKE.search(text))
    )
    canonical = " ".join(words)  # "표" is "table"
    for slot, cue, intrinsic in _FACETS:
        if not (cue.search(text) or cue.search(canonical)):
            continue
        if slot == "answer_language" and _CODE_WORDS.search(text):
            continue  # the language of code comments is another question
        if intrinsic or about_answers or (asks and only_manner) or likes_a_manner:
            return slot
    return ""


def _name(statement: _Statement) -> str:
    text = statement.text
    relation = _EN_RELATION_NAME.search(text)
    if relation:
        return _relation_slot(relation.group(1).split()[-1])
    if _EN_OWN_NAME.search(text) and not re.search(r"\b(?:name\s+(?:the|a|my)|named)\b", text):
        return "name"
    if _NAME.search(text):
        return "name"
    for match in _KO_NAME.finditer(text):
        owner = (match.group(1) or "").strip()
        owner = re.sub(r"(?:의|는|은)$", "", owner) if owner not in _KO_SELF else owner
        if not owner or owner in _KO_SELF:
            return "name"
        return _relation_slot(owner)
    return ""


def _relation_slot(word: str) -> str:
    relation = _RELATION_OF.get(word) or _RELATION_OF.get(stem_english(word))
    return f"name:{relation}" if relation else ""


def _lemmas(statement: _Statement) -> set[str]:
    return {t.raw for t in statement.tokens if t.tag != "EN"}


def _korean_lives_somewhere(statement: _Statement) -> str:
    """'residence' for "서울에 살아", 'household' for "혼자 살아", '' otherwise."""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.raw == "살다" and token.tag.startswith("VV"):
            after = tokens[index + 1 : index + 3]
            past = any(t.tag == "EP" and t.raw in ("었", "았") for t in after)
            if past and not re.search(r"지금|현재|아직", statement.text):
                return ""  # "부산에 살았어": where I lived, not where I live
            before = tokens[:index]
            if any(t.tag == "JKB" and t.raw in ("에", "에서") for t in before):
                return "residence"
            if any(t.raw in ("혼자", "같이", "함께") or t.raw in ("이랑", "랑", "와", "과", "하고")
                   for t in before):  # fmt: skip
                return "household"
            return "residence" if before else ""
    return ""


def _residence(statement: _Statement) -> str:
    text = statement.text
    lemmas = _lemmas(statement)
    if _PAST_ONLY.search(text):
        return ""
    if _EN_HOUSEHOLD.search(text) and not re.search(r"\blive[s]?\s+in\b", text):
        return "household"
    if _EN_RESIDENCE.search(text):
        if re.search(r"\blived\s+in\b", text) and not re.search(r"\bnow\b", text):
            return ""
        return "" if _FUTURE.search(text) else "residence"
    if "거주" in lemmas or "이사" in lemmas:
        return "" if _FUTURE.search(text) else "residence"
    found = _korean_lives_somewhere(statement)
    if found == "residence" and _FUTURE.search(text):
        return ""
    return found


def _hometown(statement: _Statement) -> str:
    text = statement.text
    if _EN_HOMETOWN.search(text) or _KO_HOMETOWN.search(text):
        return "hometown"
    return ""


def _school_or_major(statement: _Statement) -> str:
    text = statement.text
    if _EN_MAJOR.search(text):
        return "major"
    if _works_there(statement):
        return ""  # "I'm a high school teacher": a school is where the user works
    if _EN_SCHOOL.search(text) or _KO_SCHOOL.search(text + " "):
        return "school"
    # "연세대 다녀", "고려대 학생이야": a university's short name ends in 대.
    if _lemmas(statement) & {"다니다", "학생", "대학생", "대학원생", "신입생"} and any(
        t.tag == "NNP" and t.raw.endswith("대") for t in statement.tokens
    ):
        return "school"
    return ""


_TEACHES = re.compile(r"\bteach(?:es|ing)?\b|가르치|가르쳐|가르침")
_STUDENTS = frozenset("student 학생 대학생 대학원생 고등학생 중학생 신입생".split())  # noqa: SIM905


def _works_there(statement: _Statement) -> bool:
    """True when the statement names a job other than student."""
    found = _EN_JOB_TITLE.search(statement.text)
    if (found and found.group(0).lower() != "student") or _TEACHES.search(statement.text):
        return True
    return any(noun not in _STUDENTS for noun in _korean_jobs(statement))


def _korean_jobs(statement: _Statement) -> list[str]:
    """Job nouns, with a suffix Kiwi split off put back ("대학원" + "생")."""
    tokens = statement.tokens
    found = []
    for index, token in enumerate(tokens):
        noun = token.raw.upper() if token.tag == "EN" else token.raw
        if index + 1 < len(tokens) and tokens[index + 1].tag == "XSN":
            noun += tokens[index + 1].raw
        if noun in _KO_JOBS:
            found.append(noun)
    return found


def _has_korean_job(statement: _Statement) -> bool:
    return bool(_korean_jobs(statement))


def _job_or_workplace(statement: _Statement) -> str:
    text = statement.text
    if _PREFER.search(text):
        return ""  # "주간 근무 선호", "I'd prefer to work as a designer": not the job itself
    if _EN_WORK_MODE.search(text):
        return "work_mode"
    lemmas = _lemmas(statement)
    works = bool(re.search(r"(?:으로|로|에서)\s*(?:일|근무|가르)|근무|일하|일함|일해", text))
    korean_job = _has_korean_job(statement)
    if _EN_JOB.search(text) or _KO_JOB_CUE.search(text):
        return "job"
    if korean_job and (
        works
        or "되다" in lemmas
        or any(t.tag == "VCP" for t in statement.tokens)
        or re.search(r"(?:임|입니다|이에요|예요|야)\s*[.!~]*$", text)
        or text.rstrip(" .!~").endswith(tuple(_KO_JOBS))
    ):
        return "job"
    if (
        _EN_WORKPLACE.search(text)
        or _KO_WORKPLACE_CUE.search(text)
        or _goes_to_an_organisation(statement)
        or (works and "에서" in text)
    ):
        return "workplace"
    if works and lemmas:
        return "job"
    return ""


_ORGANISATIONS = frozenset(
    """회사 직장 스타트업 기업 대기업 중소기업 은행 병원 공장 연구소 관공서 학원 로펌
    에이전시""".split()  # noqa: SIM905
)


def _goes_to_an_organisation(statement: _Statement) -> bool:
    """ "네이버에 다녀", "스타트업 다녀": an employer; "헬스 다녀" (a gym) is no employer."""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.raw != "다니다" or index == 0:
            continue
        before = tokens[index - 1]
        if before.tag == "JKB" and before.raw == "에" and index > 1:
            before = tokens[index - 2]
        if before.tag == "NNP" or before.raw in _ORGANISATIONS:
            return True
    return False


def _age_or_birthday(statement: _Statement) -> str:
    text = statement.text
    if _BIRTHDAY.search(text):
        return "birthday"
    others = any(t.form in _RELATION_OF for t in statement.tokens) or re.search(
        r"\b(?:he|she|they|his|her|my\s+\w+)\s+(?:is|turned)\b", text
    )
    if _AGE.search(text) and not others:
        return "age"
    return ""


def _diet_or_allergy(statement: _Statement) -> str:
    text = statement.text
    if _ALLERGY.search(text):
        # The allergen: named right before "알레르기" / "allergy", or after "allergic to".
        clause = _clause_with(statement, _ALLERGY)
        found = re.search(r"\ballergic\s+to\s+((?:[a-z-]+\s+)?[a-z-]+)", clause.text)
        if found:
            words = [_canon(w) for w in found.group(1).split() if w not in _EN_FILLER]
            return f"allergy:{words[-1]}" if words else ""
        tokens = clause.tokens
        for index, token in enumerate(tokens):
            if _ALLERGY.search(token.raw) and index > 0:
                before = index - 1
                while before > 0 and tokens[before].tag == "XSN":  # "갑각/류"
                    before -= 1
                allergen = tokens[before]
                if allergen.tag in _KO_CONTENT_TAGS or allergen.tag == "EN":
                    return f"allergy:{allergen.form}"
        return ""
    if _DIET.search(text):
        return "diet"
    return ""


def _favourite(statement: _Statement) -> str:
    text = statement.text
    if not _FAVOURITE.search(text):
        return ""
    found = _EN_FAVOURITE_CATEGORY.search(text) or _EN_FAVOURITE_AFTER.search(text)
    if found:
        words = [_canon(w) for w in found.group(1).split() if w not in _NOT_A_CATEGORY]
        key = _key([_SAME_CATEGORY.get(w, w) for w in words], ordered=True)
        if key and key not in _CATEGORY_OF:
            return f"favourite:{key}"
    categories = [_CATEGORY_OF[w] for w in statement.words() if w in _CATEGORY_OF]
    if categories:
        return f"favourite:{categories[0]}"
    # "최애 가수는 ...": the category follows; "세븐틴 최애는 ...": the favourite among what
    # comes before. (Kiwi splits "최애" now and then, so this reads the text.)
    found = _KO_FAVOURITE_CATEGORY.search(text)
    if found:
        category = _canon(found.group("after") or found.group("before") or "")
        return f"favourite:{_SAME_CATEGORY.get(category, category)}" if category else ""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        # "제일 좋아하는 색은 ...": the noun the liking verb modifies is the category.
        if token.raw == "좋아하다" and index + 1 < len(tokens) and tokens[index + 1].tag == "ETM":
            for noun in tokens[index + 1 :]:
                if noun.tag in ("NNG", "NNP") and noun.raw not in _KO_FILLER:
                    return f"favourite:{_SAME_CATEGORY.get(noun.form, noun.form)}"
                if noun.tag.startswith("J") and noun.raw not in ("은", "는"):
                    break
    return ""


def _comparison_key(statement: _Statement) -> str:
    """`likes:<a b>` for "A보다 B" / "B over A": one question, which of the two."""
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.tag == "JKB" and token.raw == "보다" and index > 0:
            lesser = tokens[index - 1].form
            greater = next((t.form for t in tokens[index + 1 :] if t.tag in _KO_CONTENT_TAGS), "")
            if lesser and greater:
                return f"likes:{_key([lesser, greater])}"
    found = _EN_COMPARISON.search(statement.text)
    if found and (_PREFER.search(statement.text) or "than" in found.group(0)):
        sides = []
        for side in found.groups():
            words = [_canon(w) for w in side.split() if w not in _EN_FILLER]
            if words:
                sides.append(words[-1])
        if len(sides) == 2:
            return f"likes:{_key(sides)}"
    return ""


def _preference(whole: _Statement) -> str:
    if _MOMENTARY.search(whole.text):
        return ""  # "오늘 커피 좋다": how things are now, not a lasting taste
    if not _PREFER.search(whole.text) and not _LIKE.search(whole.text):
        return ""
    statement = _clause_with(whole, _PREFER) if _PREFER.search(whole.text) else whole
    if statement is whole:
        statement = _clause_with(whole, _LIKE)
    text = statement.text
    prefers = bool(_PREFER.search(text))
    compared = _comparison_key(statement)
    if compared:
        return compared
    words = [w for w in statement.words() if w not in ("preference",)]
    if not words:
        return ""
    dimensions = [_DIMENSION_OF[w] for w in words if w in _DIMENSION_OF]
    things = [w for w in words if w not in _DIMENSION_OF]
    # "회의는 아침이 좋아", "I like my coffee iced": a choice, said with a liking verb.
    # "아침 회의가 좋아" (is good) judges one choice; "좋아하다" (likes) does not compare.
    topic_choice = any(t.raw == "좋다" and t.tag.startswith("VA") for t in statement.tokens)
    if _EN_LIKE_MY_X.search(text) and dimensions:
        topic_choice = True
    if (prefers or topic_choice) and dimensions and things:
        return f"prefers:{_head(statement, things)}:{dimensions[0]}"
    key = _key(words)
    return f"likes:{key}" if key else ""


_EN_PREPOSITIONS = frozenset("on in at for during with from about".split())  # noqa: SIM905


def _head(statement: _Statement, things: list[str]) -> str:
    """The thing a preference is about: the last noun before an English preposition
    ("window seats on long flights" is about seats), else the last one (Korean is head-final:
    "장거리 비행에서는 창가 자리 선호")."""
    before: list[str] = []
    for token in statement.tokens:
        if token.tag == "EN" and token.raw in _EN_PREPOSITIONS and before:
            return before[-1]
        if token.form in things:
            before.append(token.form)
    return things[-1]


def _about_someone_else(statement: _Statement) -> bool:
    """True when the statement's subject is another person ("my wife works at ...",
    "동생이 서울에 살아"): it answers nothing about the user."""
    if _EN_OTHER_SUBJECT.search(statement.text) and not re.search(
        r"\b(?:and|&)\s+i\b|\bi\s+and\b|\bwe\b", statement.text
    ):
        return True
    tokens = statement.tokens
    for index, token in enumerate(tokens):
        if token.raw not in _PEOPLE:
            continue
        # "누나가", "누나 서연이", "딸 하윤이가": the person, maybe named, as the subject.
        following = [t for t in tokens[index + 1 : index + 4] if t.tag not in ("NNP", "VCP")]
        subject = bool(following) and following[0].tag in ("JX", "JKS")
        if subject and not any(t.tag == "NP" and t.raw in ("저", "나") for t in tokens[index:]):
            return True
        # "우리 누나 서연이 지금 밴쿠버 살아": a particle left out in speech.
        ours = index > 0 and tokens[index - 1].raw in ("우리", "저희", "울")
        if ours and not subject and any(t.tag == "NNP" for t in tokens[index + 1 : index + 2]):
            return True
    return False


_ABOUT_THE_USER = (
    _diet_or_allergy,
    _favourite,
    _residence,
    _hometown,
    _school_or_major,
    _job_or_workplace,
    _age_or_birthday,
    _preference,
)


def question_of(text: str) -> str:
    """The question about the user that `text` answers, as a slot name; "" for none.

    Two statements get the same slot exactly when a later one should replace the earlier
    one; statements that can both be true get different slots (or "").
    """
    if not text or not text.strip():
        return ""
    statement = _analyse(text.strip()[:500])
    if _is_question(statement):
        return ""
    slot = _answer_facet(statement) or _name(statement)
    if not slot and not _about_someone_else(statement):
        slot = next((s for s in (q(statement) for q in _ABOUT_THE_USER) if s), "")
    return slot if valid(slot) else ""


def valid(slot: str) -> bool:
    """True for a slot name `question_of` can give (what a model may name in `updates`)."""
    if slot in SINGLE_SLOTS:
        return True
    for prefix in KEYED_PREFIXES:
        if slot.startswith(prefix):
            key = slot[len(prefix) :]
            if not 0 < len(key) <= MAX_KEY_CHARS or key != key.strip():
                return False
            if prefix == "prefers:":
                thing, _, dimension = key.rpartition(":")
                return bool(thing.strip()) and dimension in DIMENSIONS
            return ":" not in key
    return False


def normalise_slot(slot: str) -> str:
    """A valid slot with its subject words in this module's vocabulary: a model's
    "likes:커피" and an offline "likes:coffee" are one slot. "" for an invalid slot."""
    slot = _fold(slot)
    if not valid(slot):
        return ""
    for prefix in ("likes:", "allergy:"):
        if slot.startswith(prefix):
            key = _key([_canon(w) for w in slot[len(prefix) :].split()])
            return f"{prefix}{key}" if key else ""
    if slot.startswith("prefers:"):
        thing, _, dimension = slot[len("prefers:") :].rpartition(":")
        words = [_canon(w) for w in thing.split()]
        return f"prefers:{words[-1]}:{dimension}"
    if slot.startswith("favourite:"):
        key = _key([_canon(w) for w in slot[len("favourite:") :].split()], ordered=True)
        return f"favourite:{key}"
    if slot.startswith("name:"):
        return _relation_slot(slot[len("name:") :]) or ""
    return slot
