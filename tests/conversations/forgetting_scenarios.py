"""Conversations in which one memory is deleted, to measure that forgetting is exact.

Each session is a list of turns, user first, then alternating. A line that starts with "» "
carries the deleted memory's content (the mark is not stored): it may change; every other line
must stay byte for byte. An assistant turn that starts with "@recall " was given the first
session's summary and first topic, and the memory itself, as its saved context. `gone` are
words that name the fact and occur only in carrying lines: afterwards they must be nowhere.
`kept` are words of the same carrying lines that are not the fact: they must survive.
`others` are memories stated in the same conversation that must survive the deletion.

TUNING scenarios were written while the matcher was built; HELD_OUT ones after it was frozen,
and were not used to change it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Scenario:
    name: str
    memory: str
    sessions: list[list[str]]
    gone: list[str]
    source: tuple[int, int] = (0, 0)  # (session, turn) the memory was taken from
    kept: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)


TUNING = [
    Scenario(
        name="ko: stated once, coffee in an unrelated meeting line",
        memory="매일 아침 핸드드립 커피를 마심",
        gone=["핸드드립"],
        sessions=[
            [
                "» 나는 매일 아침 핸드드립 커피를 마셔",
                "» 매일 아침 핸드드립 커피를 드시는군요. 원두는 어디서 사세요?",
                "동네 로스터리에서 원두를 사",
                "로스터리 원두는 신선해서 좋아요.",
            ],
            [
                "내일 아침 10시에 커피숍에서 팀 미팅이 있어",
                "미팅 준비 잘 하세요. 자료는 미리 공유해 두면 좋아요.",
                "고마워, 발표 자료 다시 볼게",
                "네, 화이팅이에요!",
            ],
            [
                "아침으로 뭐 먹을까?",
                "@recall 관련해서 기억하고 있는 내용:\n» - 매일 아침 핸드드립 커피를 마심\n"
                "토스트와 과일은 어떠세요?",
            ],
        ],
    ),
    Scenario(
        name="en: stated once, coffee in an unrelated meeting line",
        memory="Drinks pour-over coffee every morning",
        gone=["pour-over"],
        sessions=[
            [
                "» I drink pour-over coffee every morning.",
                "» A pour-over every morning sounds lovely. Which beans do you use?",
                "Mostly Ethiopian beans from a local roaster.",
                "Ethiopian beans are bright and fruity, good choice.",
            ],
            [
                "Let's meet at the coffee shop on Main Street tomorrow morning.",
                "Sounds good. Bring the slides so we can go over them.",
            ],
            [
                "What should I have for breakfast?",
                "@recall What I remember that relates to this:\n"
                "» - Drinks pour-over coffee every morning\nMaybe oatmeal with berries?",
            ],
        ],
    ),
    Scenario(
        name="ko: a pet's name, restated in a later session",
        memory="고양이 이름은 까망이",
        gone=["까망"],
        kept=["벌써 세 살이야"],
        sessions=[
            [
                "» 우리 고양이 이름은 까망이야",
                "» 까망이, 귀여운 이름이네요!",
                "고양이 사료는 뭐가 좋아?",
                "연령에 맞는 사료를 고르는 게 좋아요.",
            ],
            [
                "» 까망이는 우리 집 고양이 이름인데 벌써 세 살이야",
                "세 살이면 한창 활발할 때죠.",
            ],
        ],
    ),
    Scenario(
        name="en: a pet's name, restated in a later session",
        memory="My dog's name is Biscuit",
        gone=["Biscuit"],
        sessions=[
            [
                "» My dog's name is Biscuit.",
                "» Biscuit is a sweet name for a dog!",
                "Any tips for dog food?",
                "Look for food that lists meat first.",
            ],
            [
                "» Biscuit, my dog, turned five today!",
                "Happy birthday to your pup! Five is a great age.",
                "Thanks, we're going to the park.",
                "Have fun at the park!",
            ],
        ],
    ),
    Scenario(
        name="ko: quoted by the assistant, and recalled in a later reply",
        memory="견과류 알레르기가 있음",
        gone=["견과류"],
        sessions=[
            [
                "» 나 견과류 알레르기가 있어",
                "» 견과류 알레르기가 있으시군요. 기억해 둘게요.",
                "간식 추천해줘",
                "사과와 치즈는 어떠세요?",
            ],
            [
                "케이크 추천해줘",
                "@recall 관련해서 기억하고 있는 내용:\n» - 견과류 알레르기가 있음\n"
                "치즈케이크를 추천해요.",
            ],
        ],
    ),
    Scenario(
        name="en: quoted by the assistant, and recalled in a later reply",
        memory="Allergic to peanuts",
        gone=["peanut"],
        sessions=[
            [
                "» I'm allergic to peanuts.",
                "» Noted: you're allergic to peanuts. I'll keep that in mind.",
                "Can you suggest a snack?",
                "How about apple slices with cheese?",
            ],
            [
                "Planning a Thai dinner tonight",
                "@recall What I remember that relates to this:\n» - Allergic to peanuts\n"
                "Pad see ew is a good pick.",
            ],
        ],
    ),
    Scenario(
        name="ko: paraphrased by the assistant in a later session",
        memory="서울 강남에 삶",
        gone=["강남"],
        kept=["근처 한식당"],
        sessions=[
            [
                "» 나는 서울 강남에 살아",
                "» 강남에 사시는군요! 교통이 편하겠어요.",
            ],
            [
                "이번 주말에 부산 여행 가",
                "부산 가시면 해운대도 들러 보세요.",
            ],
            [
                "저녁 뭐 먹지?",
                "» 강남 쪽에 사시니까 근처 한식당을 찾아보는 건 어때요?",
            ],
        ],
    ),
    Scenario(
        name="en: paraphrased by the assistant in a later session",
        memory="Lives in Brooklyn, New York",
        gone=["Brooklyn"],
        kept=["Prospect Park"],
        sessions=[
            [
                "» I live in Brooklyn, New York.",
                "» Brooklyn is a great place to live!",
            ],
            [
                "Any weekend ideas?",
                "» Living in Brooklyn, you are close to Prospect Park and its museum.",
            ],
        ],
    ),
    Scenario(
        name="ko: two facts in one sentence, only one deleted",
        memory="매일 아침 핸드드립 커피를 마심",
        others=["주말마다 북한산에 등산을 감"],
        gone=["핸드드립"],
        kept=["주말마다 북한산에 등산을 가"],
        sessions=[
            [
                "» 나는 매일 아침 핸드드립 커피를 마시고, 주말마다 북한산에 등산을 가",
                "» 핸드드립 커피에 등산까지, 건강한 생활이네요!",
            ],
            [
                "이번 주말 등산 코스 추천해줘",
                "북한산 백운대 코스는 어떠세요?",
            ],
        ],
    ),
    Scenario(
        name="en: two facts in one sentence, only one deleted",
        memory="Plays the cello",
        others=["Works as a nurse"],
        gone=["cello"],
        kept=["I work as a nurse"],
        sessions=[
            [
                "» I play the cello and I work as a nurse.",
                "» The cello and nursing, what a combination!",
            ],
            [
                "Any tips for long night shifts?",
                "Keep snacks handy and take short breaks.",
            ],
        ],
    ),
    Scenario(
        name="ko: shares its day with unrelated lines",
        memory="매주 토요일에 테니스를 침",
        gone=["테니스"],
        sessions=[
            [
                "» 나 매주 토요일에 테니스 쳐",
                "» 토요일마다 테니스라니 부지런하시네요!",
                "이번 토요일엔 가족 모임이 있어",
                "가족 모임 즐겁게 보내세요.",
            ],
            [
                "토요일 저녁에 뭐 먹을까?",
                "토요일 저녁엔 파스타 어떠세요?",
            ],
        ],
    ),
    Scenario(
        name="en: shares its words with unrelated lines",
        memory="Commutes to work by ferry",
        gone=["ferry"],
        sessions=[
            [
                "» I commute to work by ferry.",
                "» Commuting by ferry sounds peaceful.",
                "Work was hectic today.",
                "Sorry to hear that, hope tomorrow is calmer.",
            ],
            [
                "My commute took forever because of the rain.",
                "Rainy days are rough. Did you bring an umbrella?",
            ],
        ],
    ),
    Scenario(
        name="ko: a date, asked about later without restating it",
        memory="아내 생일은 3월 14일",
        gone=["3월 14일"],
        sessions=[
            [
                "» 아내 생일은 3월 14일이야",
                "» 3월 14일이 아내분 생신이군요. 잊지 않을게요.",
            ],
            [
                "아내 생일 선물 뭐가 좋을까?",
                "@recall 관련해서 기억하고 있는 내용:\n» - 아내 생일은 3월 14일\n"
                "꽃과 손편지는 어떠세요?",
            ],
        ],
    ),
    Scenario(
        name="ko: one item of a reply's list of memories",
        memory="고수를 싫어함",
        others=["매운 음식을 좋아함"],
        gone=["고수"],
        sessions=[
            [
                "» 나 고수 싫어해",
                "알겠어요, 참고할게요.",
            ],
            [
                "쌀국수 맛집 알려줘",
                "관련해서 기억하고 있는 내용:\n- 매운 음식을 좋아함\n» - 고수를 싫어함\n"
                "근처 쌀국수 집을 찾아볼게요.",
            ],
        ],
    ),
    Scenario(
        name="en: one item of a reply's list of memories",
        memory="Dislikes cilantro",
        others=["Likes spicy food"],
        gone=["cilantro"],
        sessions=[
            [
                "» I really dislike cilantro.",
                "Got it, thanks for telling me.",
            ],
            [
                "Where should I get pho tonight?",
                "What I remember that relates to this:\n- Likes spicy food\n"
                "» - Dislikes cilantro\nI can look for pho places nearby.",
            ],
        ],
    ),
    Scenario(
        name="ko: one line of a long message",
        memory="채식주의자임",
        gone=["채식"],
        sessions=[
            [
                "오늘 있었던 일 정리:\n회의가 길어졌어\n"
                "» 참고로 난 채식주의자야\n저녁은 샐러드 먹었어",
                "» 하루 정리 고마워요. 채식주의자시군요, 기억할게요.",
            ],
        ],
    ),
    Scenario(
        name="en: one line of a long message",
        memory="Is vegetarian",
        gone=["vegetarian"],
        sessions=[
            [
                "Quick update:\nThe meeting ran long.\n» By the way, I'm vegetarian.\n"
                "Dinner was a salad.",
                "Thanks for the update!\n» Good to know you're vegetarian.",
            ],
        ],
    ),
    Scenario(
        name="ko: a code name in replies and a topic keyword list",
        memory="프로젝트 코드명은 Falcon-7",
        gone=["Falcon-7"],
        sessions=[
            [
                "» 기억해줘: 프로젝트 코드명은 Falcon-7이야",
                "» 알겠어요, Falcon-7로 기억할게요.",
            ],
            [
                "지난 프로젝트 얘기 기억나?",
                "» - [topic 1] 키워드: 프로젝트, falcon-7, 코드명\n더 자세히 알려주실래요?",
            ],
        ],
    ),
    Scenario(
        name="en: a code name in replies and a topic keyword list",
        memory="Project codename is Zorblax-91",
        gone=["Zorblax"],
        sessions=[
            [
                "» Remember that my project codename is Zorblax-91.",
                "» Got it, Zorblax-91 it is.",
            ],
            [
                "Do you remember my project codename?",
                "» Your project is called Zorblax-91!\n"
                "» - [topic 1] keywords: project, zorblax-91, codename",
            ],
        ],
    ),
    Scenario(
        name="ko: restated in other words, a shared company word elsewhere",
        memory="남동생은 삼성전자에 다님",
        gone=["삼성전자"],
        kept=["요즘 바쁘대"],
        sessions=[
            [
                "» 내 남동생 삼성전자 다녀",
                "좋은 회사네요.",
            ],
            [
                "삼성 주식 좀 샀어",
                "장기적으로 보시는 게 좋아요.",
                "» 동생이 삼성전자 다니는데 요즘 바쁘대",
                "바쁜 시기인가 봐요.",
            ],
        ],
    ),
]


HELD_OUT = [
    Scenario(
        name="ko: a child's school entry, congratulated in other words",
        memory="딸이 다음 달 초등학교에 입학함",
        gone=["입학"],
        sessions=[
            [
                "» 우리 딸이 다음 달에 초등학교에 입학해",
                "» 따님 입학을 축하드려요! 준비물은 챙기셨어요?",
                "다음 달에 이사 계획도 있어서 정신없어",
                "이사까지 겹치면 바쁘시겠어요.",
            ],
        ],
    ),
    Scenario(
        name="en: a child's first school, asked about later",
        memory="Son starts kindergarten in September",
        gone=["kindergarten"],
        sessions=[
            [
                "» My son starts kindergarten in September.",
                "» Big milestone! Kindergarten in September is exciting.",
            ],
            [
                "» Remind me what to pack for my son's first day of kindergarten?",
                "A lunchbox, a change of clothes and a water bottle.",
            ],
        ],
    ),
    Scenario(
        name="ko: two facts joined by -지만, only one deleted",
        memory="고양이 알레르기가 있음",
        others=["고양이를 좋아함"],
        gone=["알레르기"],
        kept=["고양이를 좋아하지만"],
        sessions=[
            [
                "» 나는 고양이를 좋아하지만 고양이 알레르기가 있어",
                "» 고양이를 좋아하시는데 알레르기가 있다니 아쉽네요.",
                "주말에 고양이 카페 갈까?",
                "마스크를 챙기면 좋을 것 같아요.",
            ],
        ],
    ),
    Scenario(
        name="en: two facts joined by 'and', only one deleted",
        memory="Training for a marathon",
        others=["Moved to Denver last spring"],
        gone=["marathon"],
        kept=["I moved to Denver last spring"],
        sessions=[
            [
                "» I moved to Denver last spring and I'm training for a marathon.",
                "» Denver's altitude should help your marathon training!",
                "Any good running shoes?",
                "Look for a cushioned pair and try them on in the afternoon.",
            ],
        ],
    ),
    Scenario(
        name="ko: one item of a to-do list, and a later unrelated mention",
        memory="수요일 3시에 치과 예약이 있음",
        gone=["치과 예약"],
        source=(0, 0),
        sessions=[
            [
                "이번 주 할 일:\n- 보고서 마감\n» - 수요일 3시 치과 예약\n- 장보기",
                "» 수요일 치과 예약 잊지 마세요. 보고서 마감도 화이팅!",
            ],
            [
                "치과 끝나고 뭐 먹을까?",
                "부드러운 죽은 어떠세요?",
            ],
        ],
    ),
    Scenario(
        name="en: restated with a complaint, unrelated dairy line",
        memory="Lactose intolerant",
        gone=["lactose"],
        sessions=[
            [
                "» I'm lactose intolerant.",
                "Thanks for telling me, I'll keep it in mind.",
                "Milk prices went up again.",
                "Groceries are getting expensive everywhere.",
            ],
            [
                "» Ugh, being lactose intolerant makes ordering pizza hard.",
                "Try a vegan cheese pizza, most places have one.",
            ],
        ],
    ),
    Scenario(
        name="ko: volunteering, praised and recalled later",
        memory="매달 첫째 주 토요일에 봉사활동을 함",
        gone=["봉사"],
        sessions=[
            [
                "» 나는 매달 첫째 주 토요일에 봉사활동 해",
                "» 매달 봉사활동을 하시다니 멋져요!",
            ],
            [
                "이번 주말 계획 세워줘",
                "@recall 관련해서 기억하고 있는 내용:\n» - 매달 첫째 주 토요일에 봉사활동을 함\n"
                "이번 주말 일정 정리해 드릴까요?",
            ],
        ],
    ),
    Scenario(
        name="en: a person's name, restated and quoted",
        memory="Manager's name is Priya",
        gone=["Priya"],
        sessions=[
            [
                "» My manager is Priya and she's great.",
                "» Nice, Priya sounds like a supportive manager.",
            ],
            [
                "» Priya, my manager, approved my vacation!",
                "Congratulations! Where are you going?",
            ],
        ],
    ),
    Scenario(
        name="ko: the office's area, company mentioned elsewhere",
        memory="회사는 판교에 있음",
        gone=["판교"],
        sessions=[
            [
                "» 우리 회사는 판교에 있어",
                "알겠어요.",
                "회사에서 점심 뭐 먹지?",
                "» 판교 근처라면 백현동 카페거리가 가까워요.",
            ],
            [
                "오늘 회사 회의가 길었어",
                "고생하셨어요. 푹 쉬세요.",
            ],
        ],
    ),
    Scenario(
        name="en: an anniversary date, with a follow-up question",
        memory="Anniversary is June 2",
        gone=["June 2"],
        sessions=[
            [
                "» My anniversary is on June 2nd.",
                "» June 2nd, noted! Any plans for the anniversary?",
            ],
        ],
    ),
]
