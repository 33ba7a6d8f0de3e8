"""The segmentation and LoCoMo retrieval benchmarks, end to end on a tiny LoCoMo-shaped file:
every table is printed and every figure in the JSON is a share between 0 and 1."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from bench import benchdata
from bench.benchdata import load
from bench.management.commands.bench_locomo import VECTOR_SHARES

# (speaker_a, speaker_b, sessions as (date, turns alternating a and b), questions as
# (question, answer, evidence, category)).
Conversation = tuple[str, str, list[tuple[str, list[str]]], list[tuple[str, str, list[str], int]]]

HANA_AND_OLIVER: Conversation = (
    "Hana",
    "Oliver",
    [
        ("1:56 pm on 8 May, 2023", [
            "Hi Oliver! I signed up for a pottery class at the community studio yesterday.",
            "A pottery class sounds fun, Hana. What are you making first?",
            "A glazed blue bowl on the wheel. The clay keeps collapsing though.",
            "Clay is tricky at first. Keep your elbows braced against your knees.",
            "Good tip. The pottery teacher said the kiln firing is next Thursday.",
            "Send me a photo of the bowl once it comes out of the kiln.",
            "I will! It is my first glazed bowl ever.",
        ]),
        ("10:37 am on 27 May, 2023", [
            "We finally went camping by the lake last weekend.",
            "Camping by the lake, nice! Did the tent survive the storm?",
            "The tent leaked a little, but the campfire kept us warm all night.",
            "Did you cook on the campfire?",
            "Yes, we grilled corn and marshmallows on the campfire under the stars.",
            "That sounds like a perfect camping trip.",
        ]),
        ("8:15 pm on 12 June, 2023", [
            "I have a job interview at the French bakery downtown on Monday.",
            "A bakery job? You love baking croissants.",
            "Exactly, they want someone for the early croissant shift at five am.",
            "Five am is early, but the bakery smell would be worth it.",
            "I am practising my answers about sourdough and laminated dough.",
            "You know laminated dough better than anyone. Good luck at the interview.",
        ]),
        ("9:02 am on 3 July, 2023", [
            "I ran my first half marathon on Sunday along the river!",
            "Congratulations on the half marathon! What was your time?",
            "Two hours and ten minutes. My knees hurt after the marathon.",
            "Ice your knees and rest. Will you run a full marathon next?",
            "Maybe next year, after more training with the running club.",
            "The running club will keep you motivated.",
            "They meet every Wednesday evening at the river park.",
        ]),
    ],
    [
        ("What did Hana make in her pottery class?", "A glazed blue bowl", ["D1:3"], 4),
        ("What did Hana grill on the campfire while camping?", "Corn and marshmallows",
         ["D2:5", "D2:3"], 1),
        ("Would Hana enjoy working at a bakery?", "Yes, she loves baking croissants",
         ["D3:2", "D3:4"], 3),
    ],
)  # fmt: skip

JISOO_AND_DANIEL: Conversation = (
    "Jisoo",
    "Daniel",
    [
        ("4:20 pm on 2 March, 2023", [
            "Daniel, 주말에 엄마랑 김치 담그기 했어. We made kimchi all Saturday.",
            "김치 담그기 힘들지 않았어? How many cabbages did you use?",
            "배추 스무 포기! Twenty napa cabbages, my hands smelled of garlic for days.",
            "Twenty cabbages of kimchi will last you the whole year.",
            "엄마가 김치냉장고에 다 넣어줬어. The kimchi fridge is full now.",
            "Bring me a jar of that kimchi next time.",
        ]),
        ("7:45 pm on 18 March, 2023", [
            "다음 달에 부산 여행 가기로 했어. A trip to Busan in April!",
            "부산 여행 좋다! Are you going to Haeundae beach?",
            "해운대 해변이랑 감천문화마을 갈 거야. And the Jagalchi fish market.",
            "Try the raw fish at Jagalchi fish market, it is famous.",
            "KTX 기차표도 벌써 예매했어. The KTX train tickets are booked.",
            "The KTX from Seoul to Busan is under three hours.",
            "완벽해. I can't wait for Busan.",
        ]),
        ("11:10 am on 9 April, 2023", [
            "My piano recital is on Friday, 피아노 발표회 너무 떨려.",
            "Which piece are you playing at the piano recital?",
            "쇼팽 녹턴 20번. Chopin's Nocturne number 20.",
            "Chopin nocturnes are beautiful. How long have you practised it?",
            "Three months of practice, every night on the upright piano.",
            "You will play the nocturne beautifully on Friday.",
        ]),
        ("6:30 pm on 1 May, 2023", [
            "우리 고양이 입양했어! We adopted a grey cat from the shelter.",
            "고양이 입양 축하해! What did you name the cat?",
            "이름은 두부야. Her name is Dubu, like tofu.",
            "Dubu is a cute name for a grey cat.",
            "두부가 밤마다 피아노 위에서 자. She sleeps on top of the piano every night.",
            "A cat on the piano, that is a recital audience of one.",
            "맞아, she even listens to my Chopin practice.",
            "Send me pictures of Dubu.",
        ]),
    ],
    [
        ("지수는 부산 여행 때 어디에 가?", "해운대 해변, 감천문화마을", ["D2:3"], 4),
        ("When is Jisoo's piano recital?", "Friday", ["D3:1"], 2),
        ("What is the name of the cat Jisoo adopted?", "Dubu", ["D4:3", "D4:1"], 1),
    ],
)  # fmt: skip

MARCUS_AND_PRIYA: Conversation = (
    "Marcus",
    "Priya",
    [
        ("2:00 pm on 14 August, 2023", [
            "Priya, my tomato plants in the back garden are finally turning red.",
            "Red tomatoes already? Which variety did you plant in the garden?",
            "Cherry tomatoes and some heirloom beefsteak tomatoes.",
            "Heirloom beefsteak tomatoes make the best sauce.",
            "I am going to make tomato sauce and can twelve jars.",
            "Save me a jar of tomato sauce!",
        ]),
        ("9:40 pm on 2 September, 2023", [
            "I bought a telescope to look at Saturn and its rings.",
            "A telescope! Could you see the rings of Saturn?",
            "Yes, the rings were tiny but clear. Jupiter's moons too.",
            "Jupiter's moons through your own telescope, amazing.",
            "I want to photograph the Andromeda galaxy next.",
            "Andromeda needs a dark sky far from the city lights.",
            "The astronomy club goes to the desert for dark skies in October.",
        ]),
        ("5:25 pm on 20 September, 2023", [
            "I started Spanish lessons online, three evenings a week.",
            "Spanish lessons, why Spanish?",
            "We are travelling to Mexico City in December and I want to order tacos in Spanish.",
            "Your Spanish tutor must be patient with the verb conjugations.",
            "The subjunctive is killing me, but the tutor is very patient.",
            "Practice ordering tacos, that is the important part of Mexico City.",
        ]),
    ],
    [
        ("What tomato varieties did Marcus plant?", "Cherry and heirloom beefsteak",
         ["D1:3"], 4),
        ("Why is Marcus taking Spanish lessons?", "A trip to Mexico City", ["D3:3"], 3),
        ("Did Marcus buy a boat to sail to Andromeda?", "Not mentioned", ["D2:5"], 5),
    ],
)  # fmt: skip

CONVERSATIONS = [HANA_AND_OLIVER, JISOO_AND_DANIEL, MARCUS_AND_PRIYA]
KINDS = ("spliced-topics", "spliced-sessions", "same-conversation")
MODES = ("keyword only (BM25)", "vector only", "hybrid")


def _locomo_item(sample_id: str, conversation: Conversation) -> dict[str, Any]:
    speaker_a, speaker_b, sessions, questions = conversation
    conv: dict[str, Any] = {"speaker_a": speaker_a, "speaker_b": speaker_b}
    for number, (date, texts) in enumerate(sessions, start=1):
        conv[f"session_{number}_date_time"] = date
        conv[f"session_{number}"] = [
            {"speaker": (speaker_a, speaker_b)[i % 2], "dia_id": f"D{number}:{i + 1}", "text": text}
            for i, text in enumerate(texts)
        ]
    qa: list[dict[str, Any]] = [
        {"question": question, "answer": answer, "evidence": evidence, "category": category}
        for question, answer, evidence, category in questions
    ]
    for item in qa:
        if item["category"] == 5:  # LoCoMo's adversarial questions carry this key instead
            item["adversarial_answer"] = item.pop("answer")
    return {"sample_id": sample_id, "conversation": conv, "qa": qa}


@pytest.fixture
def tiny_locomo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file, with the embedding cache kept in tmp_path rather than `.data/bench-cache`."""
    monkeypatch.setattr(benchdata, "data_dir", lambda: tmp_path)
    path = tmp_path / "tiny_bench_locomo.json"
    items = [_locomo_item(f"tiny-{i}", conv) for i, conv in enumerate(CONVERSATIONS)]
    path.write_text(json.dumps(items, ensure_ascii=False))
    return path


def _is_share(value: Any) -> bool:
    return isinstance(value, float) and 0.0 <= value <= 1.0


def _blocks(printed: str) -> dict[str, list[str]]:
    """The printed tables by their title line (tables are separated by a blank line)."""
    blocks = [block.splitlines() for block in printed.split("\n\n")]
    return {lines[0]: lines[1:] for lines in blocks if lines}


def test_the_tiny_file_loads_as_written(tiny_locomo: Path) -> None:
    conversations = load(tiny_locomo)

    assert [len(c.sessions) for c in conversations] == [4, 4, 3]
    assert [len(c.questions) for c in conversations] == [3, 3, 3]
    assert all(c.skipped_questions == 0 and c.dropped_evidence_ids == 0 for c in conversations)


@pytest.mark.django_db
def test_bench_segmentation_prints_every_detector_for_every_construction(
    tiny_locomo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "segmentation.json"
    buf = StringIO()

    call_command("bench_segmentation", str(tiny_locomo), "--sequences", "3", "--json", str(out),
                 stdout=buf)  # fmt: skip

    tables = _blocks(buf.getvalue())
    for kind in KINDS:
        title = f"tiny_bench_locomo — {kind} (3 sequences)"
        assert title in tables, buf.getvalue()
        labels = [line[:34].rstrip() for line in tables[title][1:]]
        assert labels[0] == "offline detector"
        assert labels[1].startswith("baseline: every ") and labels[1].endswith(" turns")
        assert labels[2] == "baseline: no shared keyword"
    report = json.loads(out.read_text())["files"]["tiny_bench_locomo"]
    for kind in KINDS:
        assert len(report[kind]) == 3
        for row in report[kind].values():
            assert row["sequences"] == 3
            for figure in ("precision", "recall", "f1", "pk"):
                assert _is_share(row[figure]), (kind, figure, row)
    assert (tmp_path / "bench-cache").is_dir()  # the cache went to tmp_path, not `.data`


@pytest.mark.django_db
def test_bench_segmentation_scores_sessions_against_marked_topic_boundaries(
    tiny_locomo: Path, tmp_path: Path
) -> None:
    labels = tmp_path / "labels.json"
    first = load(tiny_locomo)[0]
    session = first.sessions[0]
    middle = session.turns[len(session.turns) // 2].dia_id
    labels.write_text(json.dumps({
        "file": "tiny_bench_locomo.json",
        "boundaries": {first.sample_id: {f"session_{session.number}": [middle]}},
    }))  # fmt: skip
    out = tmp_path / "segmentation.json"
    buf = StringIO()

    call_command("bench_segmentation", str(tiny_locomo), "--sequences", "1", "--labels",
                 str(labels), "--json", str(out), stdout=buf)  # fmt: skip

    assert "labels.json: 1 sessions, 1 topic boundaries" in buf.getvalue()
    assert "tiny_bench_locomo — labelled-topics (1 sequences)" in _blocks(buf.getvalue())
    rows = json.loads(out.read_text())["files"]["tiny_bench_locomo"]["labelled-topics"]
    assert all(row["sequences"] == 1 and _is_share(row["f1"]) for row in rows.values())


@pytest.mark.django_db
def test_bench_segmentation_chooses_a_threshold_on_half_the_marked_sessions_and_scores_the_rest(
    tiny_locomo: Path, tmp_path: Path
) -> None:
    labels = tmp_path / "labels.json"
    marked: dict[str, dict[str, list[str]]] = {}
    for conversation in load(tiny_locomo)[:2]:
        for session in conversation.sessions[:2]:
            middle = session.turns[len(session.turns) // 2].dia_id
            marked.setdefault(conversation.sample_id, {})[f"session_{session.number}"] = [middle]
    labels.write_text(json.dumps({"file": "tiny_bench_locomo.json", "boundaries": marked}))
    out = tmp_path / "segmentation.json"
    buf = StringIO()

    call_command("bench_segmentation", str(tiny_locomo), "--sequences", "1", "--labels",
                 str(labels), "--json", str(out), stdout=buf)  # fmt: skip

    printed = buf.getvalue()
    assert "tiny_bench_locomo — labelled topics, threshold chosen on one half" in printed
    assert "chosen on the even sessions (2)" in printed
    assert "chosen on the odd sessions (2)" in printed
    beside = _blocks(printed)[next(t for t in _blocks(printed) if t.startswith("file "))]
    assert beside[0].split()[0] == "tiny_bench_locomo"
    report = json.loads(out.read_text())["labelled_halves"]["tiny_bench_locomo"]
    for half in ("chosen_on_even", "chosen_on_odd"):
        assert report[half]["sessions"] == [2, 2]
        assert _is_share(report[half]["f1_chosen_on"]) and _is_share(report[half]["f1_other_half"])
        assert -0.2 <= report[half]["threshold"] <= 1.0


@pytest.mark.django_db
def test_bench_segmentation_scores_a_threshold_on_conversations_it_was_not_tuned_on(
    tiny_locomo: Path, tmp_path: Path
) -> None:
    items = json.loads(tiny_locomo.read_text())
    items.append({**items[0], "sample_id": "tiny-3"})  # four conversations: two halves of two
    tiny_locomo.write_text(json.dumps(items, ensure_ascii=False))
    out = tmp_path / "segmentation.json"
    buf = StringIO()

    call_command("bench_segmentation", str(tiny_locomo), "--sequences", "2",
                 "--held-out-conversations", "2", "--json", str(out), stdout=buf)  # fmt: skip

    assert "tiny_bench_locomo — spliced topics on held-out conversations" in buf.getvalue()
    report = json.loads(out.read_text())["held_out_conversations"]["tiny_bench_locomo"]
    assert len(report["splits"]) == 2
    for split in report["splits"]:
        assert not set(split["tuned_on"]) & set(split["scored_on"])
        assert sorted(split["tuned_on"] + split["scored_on"]) == [f"tiny-{i}" for i in range(4)]
        assert split["sequences"] == 2
        assert _is_share(split["f1"]) and _is_share(split["f1_threshold_in_use"])
    assert report["mean_f1"] == pytest.approx(sum(s["f1"] for s in report["splits"]) / 2)


@pytest.mark.django_db
@pytest.mark.parametrize(("option", "centre"), [([], "raw"), (["--centre", "deployment"],
                                                               "deployment")])  # fmt: skip
def test_bench_segmentation_uses_the_centre_a_deployment_would_have_unless_told(
    tiny_locomo: Path, tmp_path: Path, option: list[str], centre: str
) -> None:
    out = tmp_path / "segmentation.json"

    call_command("bench_segmentation", str(tiny_locomo), "--sequences", "2", "--tune", *option,
                 "--json", str(out), stdout=StringIO())  # fmt: skip

    report = json.loads(out.read_text())
    # 72 turns are far from the 1,000 a deployment needs for a centre of its own
    assert report["files"]["tiny_bench_locomo"]["centre"] == centre
    assert f"en/{centre}" in report["thresholds"]
    assert report["keyword_weights"][centre] in (0.0, 0.1, 0.2, 0.3)


@pytest.mark.django_db
def test_bench_segmentation_skips_the_held_out_check_with_too_few_conversations(
    tiny_locomo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "segmentation.json"
    buf = StringIO()

    call_command("bench_segmentation", str(tiny_locomo), "--sequences", "1",
                 "--held-out-conversations", "1", "--json", str(out), stdout=buf)  # fmt: skip

    assert "need at least 4 conversations (it has 3); skipped" in buf.getvalue()
    assert json.loads(out.read_text())["held_out_conversations"] == {"tiny_bench_locomo": None}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a labels file"),
        ('{"file": "other.json", "boundaries": {}}', "not among the files given"),
        ('{"file": "tiny_bench_locomo.json", "boundaries": {"nobody": {}}}', "no such conv"),
        ('{"file": "tiny_bench_locomo.json", "boundaries": {"tiny-0": {"session_9": []}}}',
         "no such session"),
        ('{"file": "tiny_bench_locomo.json", "boundaries": {"tiny-0": {"session_1": ["D1:1"]}}}',
         "is not a turn of that session after its first"),
    ],
)  # fmt: skip
def test_bench_segmentation_names_the_place_of_a_bad_label(
    tiny_locomo: Path, tmp_path: Path, content: str, message: str
) -> None:
    labels = tmp_path / "labels.json"
    labels.write_text(content)

    with pytest.raises(CommandError, match=message):
        call_command("bench_segmentation", str(tiny_locomo), "--sequences", "1", "--labels",
                     str(labels), stdout=StringIO())  # fmt: skip


def test_bench_segmentation_refuses_a_negative_number_of_held_out_splits(tiny_locomo: Path) -> None:
    with pytest.raises(CommandError, match="--held-out-conversations must be"):
        call_command("bench_segmentation", str(tiny_locomo), "--held-out-conversations", "-1",
                     stdout=StringIO())  # fmt: skip


def test_bench_segmentation_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="does not exist"):
        call_command("bench_segmentation", str(tmp_path / "missing.json"), stdout=StringIO())


@pytest.mark.django_db
def test_bench_locomo_prints_recall_per_category_and_overall_for_each_retriever(
    tiny_locomo: Path, tmp_path: Path, settings: Any
) -> None:
    settings.MEMORYHUB_IMPORT_EXTRACTION = "off"  # queue no extraction tasks on the broker
    out = tmp_path / "locomo.json"
    buf = StringIO()

    call_command("bench_locomo", str(tiny_locomo), "--k", "1,5", "--json", str(out), stdout=buf)

    printed = buf.getvalue()
    assert "tiny_bench_locomo.json: 3 conversations, 72 turns imported" in printed
    tables = {title.split("  (")[0]: rows for title, rows in _blocks(printed).items()}
    for mode in MODES:
        assert mode in tables, printed
        first_column = [line.split()[0] for line in tables[mode][1:]]
        assert first_column[:6] == ["1", "2", "3", "4", "5", "overall"]
    report = json.loads(out.read_text())
    assert report["k"] == [1, 5]
    assert report["skipped_questions"] == 0
    for mode in MODES:
        data = report["modes"][mode]
        assert set(data["categories"]) == {"1", "2", "3", "4", "5"}
        for row in data["categories"].values():
            assert _is_share(row["1"]) and _is_share(row["5"])
        assert _is_share(data["overall"]["1"]) and _is_share(data["overall"]["5"])
    assert report["modes"]["hybrid"]["overall"]["5"] > 0


@pytest.mark.django_db
def test_bench_locomo_scores_the_share_chosen_on_one_half_on_the_other_and_counts_tokens(
    tiny_locomo: Path, tmp_path: Path, settings: Any
) -> None:
    settings.MEMORYHUB_IMPORT_EXTRACTION = "off"
    out = tmp_path / "locomo.json"
    buf = StringIO()

    call_command("bench_locomo", str(tiny_locomo), "--k", "1,5", "--halves", "--tokens",
                 "--json", str(out), stdout=buf)  # fmt: skip

    printed = buf.getvalue()
    halves = json.loads(out.read_text())["halves"]
    # Conversations 1 and 3 are the even half (6 questions), conversation 2 the odd (3).
    asked = {"even": 6, "odd": 3}
    for name, other in (("even", "odd"), ("odd", "even")):
        assert (
            sum(r["n"] for r in halves[f"product_on_{name}"]["categories"].values()) == asked[name]
        )
        chosen = halves[f"chosen_on_{name}"]
        assert chosen["share"] in VECTOR_SHARES
        assert sum(r["n"] for r in chosen["other_half"]["categories"].values()) == asked[other]
        assert _is_share(chosen["other_half"]["overall"]["5"])
        assert (f"vector share chosen on the {name} half: {chosen['share']}; "
                f"scored on the {other} half") in printed  # fmt: skip
    tokens = json.loads(out.read_text())["tokens"]
    assert tokens["top_10_hit_tokens"]["mean"] > 0
    assert tokens["context_tokens"]["p95"] <= settings.MEMORYHUB_CONTEXT_TOKEN_BUDGET
    assert "context.tokens (context_preview, 9 questions): mean " in printed


# Mina moves: her first statement becomes a memory, her second replaces it; the question's
# evidence is the turn that said the latest value.
MINA_MOVES: Conversation = (
    "Mina",
    "Haru",
    [
        ("9:05 am on 3 March, 2025", [
            "I live in Busan.",
            "Busan is lovely in spring.",
            "The sea is ten minutes from my flat.",
            "A sea view is a good reason to stay.",
        ]),
        ("7:40 pm on 4 March, 2025", [
            "I moved to Seoul last week.",
            "Welcome to Seoul! How is the new flat?",
        ]),
    ],
    [("Where do I live now?", "Seoul", ["D2:1"], 3)],
)  # fmt: skip


@pytest.mark.django_db
def test_bench_locomo_with_memories_extracts_and_counts_a_memory_hit_as_its_latest_source(
    tiny_locomo: Path, tmp_path: Path, settings: Any
) -> None:
    settings.MEMORYHUB_IMPORT_EXTRACTION = "off"  # so the benchmark's own pass extracts them
    path = tmp_path / "moves.json"
    items = [_locomo_item("moves", MINA_MOVES), _locomo_item("tiny-0", HANA_AND_OLIVER)]
    path.write_text(json.dumps(items, ensure_ascii=False))
    out = tmp_path / "moves-report.json"
    buf = StringIO()

    call_command("bench_locomo", str(path), "--k", "1,5", "--memories", "--halves",
                 "--json", str(out), stdout=buf)  # fmt: skip

    printed = buf.getvalue()
    report = json.loads(out.read_text())
    made = report["memories"]
    user_turns = 2 + 1 + 4 + 3 + 3 + 4  # speaker_a's turns of both conversations
    assert made["user_turns"] == made["extracted_after_import"] == user_turns
    assert made["replaced"] >= 1 and made["memories"] >= made["active"] >= 1
    assert f"memories made: {made['memories']} ({made['active']} active" in printed
    tables = {title.split("  (")[0]: rows for title, rows in _blocks(printed).items()}
    assert [line.split()[0] for line in tables["hybrid+memories"][1:]][-1] == "overall"
    # Mina is the even half. Her question's evidence is the turn the memory's latest version
    # came from; search lists the memory in place of that turn, so only the memory finds it.
    halves = report["halves"]
    assert halves["memories_on_even"]["categories"] == {"3": {"1": 1.0, "5": 1.0, "n": 1}}
    assert sum(r["n"] for r in halves["memories_on_odd"]["categories"].values()) == 3
    assert "hybrid+memories on the odd half of the people" in printed


@pytest.mark.django_db
def test_bench_long_message_times_a_message_of_the_size_asked_and_leaves_no_user() -> None:
    from django.contrib.auth import get_user_model

    from bench.management.commands.bench_long_message import long_message

    out = StringIO()
    call_command(
        "bench_long_message", "--chars", "400", "--runs", "1", "--profile", "3", stdout=out
    )

    assert "400 characters: median" in out.getvalue()
    assert "Ordered by: cumulative time" in out.getvalue()
    assert len(long_message(400)) == 400 and long_message(400) != long_message(400, seed=1)
    assert not get_user_model().objects.filter(username__startswith="bench-long-").exists()


@pytest.mark.django_db
def test_bench_long_message_times_every_attackers_shape_at_the_size_asked() -> None:
    from bench.management.commands.bench_long_message import SHAPES

    out = StringIO()
    call_command(
        "bench_long_message", "--chars", "300", "--runs", "1", "--shape", "all", stdout=out
    )

    for shape, make in SHAPES.items():
        assert f"{shape}: 300 characters: median" in out.getvalue()
        assert len(make(300, 0)) == 300
