"""The probe set behind sessions.RECALL_SIMILARITY: related first messages clear the floor,
unrelated ones do not, in Korean and English."""

import pytest

from conversations.services.sessions import recall_floor
from memoryhub import embeddings

SUMMARY_KO = "React 프로젝트 Next.js로 마이그레이션하려고 해. Next.js App Router 설정했어."
SUMMARY_EN = "We decided to migrate the React app to Next.js with the App Router."


@pytest.mark.parametrize(
    "message, summary, related",
    [
        ("Next.js 마이그레이션 다음 단계는 뭐야?", SUMMARY_KO, True),
        ("프레임워크 옮기는 거 어디까지 했지?", SUMMARY_KO, True),
        ("라우터 설정 다 끝났나?", SUMMARY_KO, True),
        ("고양이 사료 추천해줘", SUMMARY_KO, False),
        ("오늘 날씨 어때?", SUMMARY_KO, False),
        ("Where are we with the framework move?", SUMMARY_EN, True),
        ("Recommend some cat food", SUMMARY_EN, False),
        ("What is the weather today?", SUMMARY_EN, False),
        ("Explain how photosynthesis works.", "My name is Priya. I work as a nurse.", False),
        (
            "Can you help with my resume for the nurse job?",
            "My name is Priya. I work as a nurse.",
            True,
        ),
        (
            "How is my Japan trip planning going?",
            "Planning a trip to Japan in April; booked hotels in Kyoto.",
            True,
        ),
        ("제주도 여행 준비 어떻게 돼가?", "제주도 여행 계획, 숙소 예약 완료.", True),
    ],
)
def test_the_recall_floor_separates_related_from_unrelated_first_messages(
    message, summary, related
):
    vectors = embeddings.embed_passages([message, summary])
    floor = recall_floor(vectors[0], message)

    assert (embeddings.cosine(vectors[0], vectors[1]) >= floor) is related
