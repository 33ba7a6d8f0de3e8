"""The words slots are made of: one bilingual vocabulary for Korean and English.

Canonical English word -> the Korean and English forms that mean it; the kinds of modifier a
preference chooses along; people, jobs and fillers. Categories of words, not sentences.
"""

from __future__ import annotations

from memoryhub.text import stem_english

MAX_KEY_CHARS = 60

# Canonical English word -> the Korean and English forms that mean it. Korean forms are Kiwi
# nouns or lemmas ("맵다"); English forms are lower-case words (their stems are added below).
SYNONYMS: dict[str, tuple[str, ...]] = {
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
    # a workout is exercise, and "the gym" is where it is done: "moved my workouts to noon"
    # names "gym at 6am", and "evening workouts" and "아침 운동" choose along one question
    "exercise": (
        "운동",
        "workout",
        "workouts",
        "working out",
        "gym",
        "헬스",
        "헬스장",
        "웨이트",
        "lifting",
    ),
    "running": ("달리기", "러닝", "조깅", "jogging", "run", "runs", "jog"),
    "swimming": ("수영", "swim"),
    "hiking": ("등산", "하이킹", "hike", "hikes", "hik"),
    "walking": ("산책", "걷기", "walk", "walks"),
    "cycling": ("자전거", "bike", "bikes", "biking", "bicycle"),
    "yoga": ("요가",),
    "pilates": ("필라테스", "pilate"),
    "climbing": ("클라이밍", "climb", "climbs"),
    "tennis": ("테니스",),
    "soccer": ("축구", "football"),
    "baseball": ("야구",),
    "basketball": ("농구",),
    "golf": ("골프",),
    "travel": ("여행", "traveling", "travelling", "trip", "trips"),
    "reading": ("독서", "read", "읽기"),
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
    "weather": ("날씨",),
    "snow": ("눈", "snowy"),
    "sea": ("바다", "beach", "ocean"),
    "mountain": ("산", "mountains"),
    "city": ("도시",),
    "meeting": ("회의", "미팅", "meetings", "meet"),
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
DIMENSION_WORDS: dict[str, tuple[str, ...]] = {
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

DIMENSIONS = tuple(DIMENSION_WORDS)
DIMENSION_OF = {word: dim for dim, words in DIMENSION_WORDS.items() for word in words}

# Korean adjectives whose stem is also a verb's: Kiwi tells them apart by tag.
ADJECTIVE_SENSES = {"쓰다": "bitter"}


def _canon_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for word, forms in SYNONYMS.items():
        for form in (word, *forms):
            table[form] = word
            if form.isascii():
                table.setdefault(stem_english(form), word)
    return table


CANON = _canon_table()

# People and animals whose name the user may tell ("내 강아지 이름은 코코").
RELATIONS: dict[str, tuple[str, ...]] = {
    "dog": ("개", "강아지", "puppy"),
    "cat": ("고양이",),
    "pet": ("반려동물", "애완동물"),
    "parrot": ("앵무새", "parrots"),
    "rabbit": ("토끼", "bunny"),
    "hamster": ("햄스터",),
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

RELATION_OF = {form: rel for rel, forms in RELATIONS.items() for form in (rel, *forms)}

# People whose facts are theirs, not the user's.
PEOPLE = frozenset(
    """아내 와이프 부인 남편 애인 여자친구 여친 남자친구 남친 아들 딸 엄마 어머니 아빠 아버지
    부모 부모님 형 오빠 누나 언니 동생 남동생 여동생 친구 동료 상사 팀장 사장님 할머니 할아버지
    가족 사촌 이모 삼촌 고모 선배 후배 룸메이트 그 그녀 걔 쟤""".split()  # noqa: SIM905
)

KO_JOBS = frozenset(
    """개발자 엔지니어 디자이너 기획자 학생 대학생 대학원생 고등학생 중학생 교사 선생님 선생 교수
    강사 의사 치과의사 한의사 간호사 약사 수의사 변호사 회계사 세무사 변리사 노무사 연구원 기자
    작가 마케터 프로그래머 개발 데이터사이언티스트 사이언티스트 분석가 공무원 회사원 직장인 프리랜서
    요리사 셰프 바리스타 사진작가 번역가 통역사 예술가 음악가 배우 조종사 승무원 소방관 경찰 경찰관
    군인 농부 사업가 창업자 자영업자 대표 사장 영업사원 상담사 트레이너 비서 은행원 주부 백수
    알바생 인턴 매니저 팀장 과장 대리 부장 사원 컨설턴트 아키텍트 운전기사 기사 미용사 건축가
    판사 검사 목사 연구자 과학자 치료사 물리치료사 보육교사 유치원교사 웹개발자 백엔드
    프론트엔드 PM PO CTO CEO 임원 은퇴자 취준생 작곡가 가수 유튜버 크리에이터 스트리머 편집자
    애널리스트 학부생 석사생 박사생 석사과정생 박사과정생 수험생 고시생 재수생""".split()  # noqa: SIM905
)

EN_JOBS = (
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
    r"postdoc|post-doc|resident|fellow|"
    r"product\s+owner|data\s+scientist|sre|devops|streamer|youtuber|creator|composer|singer"
)

KO_SELF = frozenset("내 제 나의 저의 사용자 사용자의 유저의 유저 나 저".split())  # noqa: SIM905

# A favourite named without its category ("파란색을 가장 좋아함") still has one.
CATEGORY_OF = {
    **dict.fromkeys(
        """blue red green yellow black white purple pink orange gray grey navy brown beige
        파란색 파랑 하늘색 빨간색 빨강 초록색 초록 녹색 노란색 노랑 검은색 검정 검정색 흰색 하얀색
        보라색 분홍색 핑크 주황색 회색 남색 갈색 베이지""".split(),  # noqa: SIM905
        "color",
    ),
    **dict.fromkeys(("spring", "summer", "autumn", "winter"), "season"),
    # kinds of music: "jazz is my favourite" answers the favourite genre
    **dict.fromkeys(
        """jazz rock classical kpop hiphop hip-hop pop r&b edm metal indie folk country blues
        trot 트로트 발라드 ballad""".split(),  # noqa: SIM905
        "genre",
    ),
}

NOT_A_CATEGORY = frozenset("my the a an all-time all time most very user user's".split())  # noqa: SIM905

# One category under two names: "운동" is both sport and exercise.
SAME_CATEGORY = {"exercise": "sport", "tune": "song", "film": "movie", "music": "genre"}

# Words that carry no subject: pronouns, fillers, the like/prefer verbs and their helpers.
EN_FILLER = frozenset(
    """i i'm im me my mine myself we our you your user user's the a an to of in on at for and or
    but that this it its is am are was were be been being really very so just also too lot lots
    first thing things work works worked
    much more most less least than then over rather instead better best do does did don't
    doesn't didn't not no never anymore any longer always usually generally kind sort bit quite
    pretty absolutely truly totally definitely actually honestly still now currently these days
    lately recently nowadays again super lowkey obsessed hooked
    will can could should might must shall
    prefer prefers preferred preferring preference like likes liked liking love loves loved loving
    remember note fyi please use using give keep make show tell let stop start put me full
    proper simple clear whole complete nice good fewer
    enjoy enjoys enjoyed enjoying hate hates hated hating dislike dislikes disliked detest detests
    adore adores can't cannot stand fan fans into would sooner have has had get getting go going
    eat eating eats drink drinking drinks listen listening listens watch watching watches play
    playing plays having with without thing things stuff type types kind kinds one ones when
    whenever if them they their he she his her who what which something anything everything
    someone by from about as all some every each other way ways time times
    switch switched switching change changed mind""".split()  # noqa: SIM905
)

KO_FILLER = frozenset(
    """나 저 내 제 사용자 유저 것 거 게 걸 편 정도 제일 가장 정말 진짜 너무 아주 완전 엄청 특히
    좀 약간
    더 덜 많이 항상 늘 요즘 최근 지금 현재 그냥 원래 보통 평소 선호 좋아하다 싫어하다 좋다 싫다
    사랑하다 즐기다 즐겨 하다 되다 있다 없다 먹다 마시다 듣다 보다 치다 타다 가다 오다 별로 질색
    극혐 극호 불호
    기억 기억하다 참고 무조건 절대 잘 못 안
    이다 아니다 편이다 쪽 종류 때 경우 대신 보다는 차라리 이상 앞 앞으로 날
    편하다 낫다 이후 이전 쯤 잡다""".split()  # noqa: SIM905
)


def canon(word: str) -> str:
    """The vocabulary's word for `word` ("커피", "coffees" -> "coffee"), else its English stem
    or the Korean word as it is."""
    word = word.lower()
    if word in CANON:
        return CANON[word]
    if word.isascii():
        stem = stem_english(word)
        return CANON.get(stem, stem)
    return word


EN_CONJUNCTIONS = frozenset(
    "because but so since though although while whereas unless which cause".split()  # noqa: SIM905
)

# Korean endings that join two clauses ("못 먹어서", "좋아하는데", "좋아하지만"); "-고" only
# when no auxiliary verb follows ("살고 있어" is one clause).
KO_CLAUSE_ENDINGS = frozenset(
    "어서 아서 서 니까 으니까 는데 은데 ᆫ데 지만 라서 이라서 어도 아도 고 며 으며 면서".split()  # noqa: SIM905
)


def subject_key(words: list[str], *, ordered: bool = False) -> str:
    """The words as one slot key, sorted unless `ordered`, at most MAX_KEY_CHARS long."""
    # "mint chocolate" (one Korean word's meaning) and "mint", "chocolate" give one key.
    unique = list(dict.fromkeys(part for w in words for part in w.split()))
    return " ".join(unique if ordered else sorted(unique))[:MAX_KEY_CHARS].strip()


STUDENTS = frozenset(
    """student 학생 대학생 대학원생 고등학생 중학생 신입생 학부생 석사생 박사생 석사과정생
    박사과정생 수험생 고시생 재수생""".split()  # noqa: SIM905
)

ORGANISATIONS = frozenset(
    """회사 직장 스타트업 기업 대기업 중소기업 은행 병원 공장 연구소 관공서 학원 로펌
    에이전시""".split()  # noqa: SIM905
)

EN_PREPOSITIONS = frozenset("on in at for during with from about".split())  # noqa: SIM905
