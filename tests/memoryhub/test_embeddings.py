import numpy as np

from memoryhub import embeddings


def test_passages_are_normalised_rows_of_the_configured_dimension(settings):
    vectors = embeddings.embed_passages(["첫 번째 문장", "second sentence", ""], batch_size=2)

    assert vectors.shape == (3, settings.MEMORYHUB_EMBEDDING_DIM)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_korean_paraphrase_ranks_above_unrelated_text():
    query = embeddings.embed_query("프레임워크를 바꾸기로 했어")
    related, unrelated = embeddings.embed_passages(
        ["라이브러리를 다른 것으로 교체하기로 결정했다", "오늘 저녁은 김치찌개를 먹었다"]
    )

    assert embeddings.cosine(query, related) > embeddings.cosine(query, unrelated)


def test_english_paraphrase_ranks_above_unrelated_text():
    query = embeddings.embed_query("which web framework did we pick?")
    related, unrelated = embeddings.embed_passages(
        ["We decided to use Django for the backend.", "My cat sleeps on the sofa all day."]
    )

    assert embeddings.cosine(query, related) > embeddings.cosine(query, unrelated)


def test_empty_input_gives_an_empty_matrix(settings):
    assert embeddings.embed_passages([]).shape == (0, settings.MEMORYHUB_EMBEDDING_DIM)


def test_repeated_texts_are_embedded_once_and_rows_keep_the_order_given(monkeypatch):
    embedder = embeddings.get_embedder()
    asked: list[str] = []
    real = embedder.passages

    def recording(texts):
        asked.extend(texts)
        return real(texts)

    monkeypatch.setattr(embedder, "passages", recording)
    texts = ["네 좋아요", "See you on Friday then.", "네 좋아요", "", "금요일에 봐요", ""]

    vectors = embeddings.embed_passages(texts, batch_size=2)

    assert sorted(asked) == sorted(set(embeddings._clean(texts)))
    assert vectors.shape[0] == len(texts)
    assert np.array_equal(vectors[0], vectors[2]) and np.array_equal(vectors[3], vectors[5])
    alone = [embeddings.embed_passages([text])[0] for text in texts]
    assert all(np.array_equal(row, one) for row, one in zip(vectors, alone, strict=True))


def test_a_text_gets_the_same_vector_whatever_shares_its_batch():
    texts = [
        "이사 날짜를 다음 달 셋째 주로 미뤘어",
        "The dentist moved my appointment to Tuesday morning.",
        "짧은 말",
        "We compared three laptops and picked the lighter one for travelling.",
    ]

    together = embeddings.embed_passages(texts, batch_size=4)
    reversed_batch = embeddings.embed_passages(texts[::-1], batch_size=3)[::-1]

    assert np.array_equal(together, reversed_batch)


def test_a_long_query_is_embedded_from_its_beginning():
    page = "The quarterly budget review moved to Thursday afternoon. " * 60

    whole = embeddings.embed_query(page)
    beginning = embeddings.embed_query(page[: embeddings._MAX_QUERY_CHARS])

    assert np.allclose(whole, beginning)


def test_a_text_longer_than_the_model_reads_is_embedded_from_the_beginning_it_reads_whole():
    embedder = embeddings.get_embedder()
    if not isinstance(embedder, embeddings.E5Embedder):
        return
    # One letter repeated is one token a letter: 1,500 tokens, three times what e5 reads.
    run = "아" * 1500
    fitted = embedder._fit(run, False)

    assert embedder._model.token_count(fitted, False) <= embedder.max_tokens
    assert embedder._model.token_count(fitted + "아", False) > embedder.max_tokens
    assert np.array_equal(embeddings.embed_passages([run]), embeddings.embed_passages([fitted]))


def test_a_text_the_model_reads_whole_keeps_its_vector():
    embedder = embeddings.get_embedder()
    if not isinstance(embedder, embeddings.E5Embedder):
        return
    texts = ["짧은 말", "The dentist moved my appointment to Tuesday morning. " * 8]

    assert [embedder._fit(text, False) for text in texts] == texts
    assert np.array_equal(
        embeddings.embed_passages(texts), np.vstack([embeddings.embed_passages([t]) for t in texts])
    )
    engine = np.asarray(embedder._model.passage([texts[1]]), dtype=np.float32)
    assert np.allclose(embeddings.embed_passages(texts)[1], embeddings._normalised(engine)[0])


def test_a_long_query_is_read_from_a_beginning_of_at_most_the_query_tokens():
    embedder = embeddings.get_embedder()
    if not isinstance(embedder, embeddings.E5Embedder):
        return
    pasted = "가" * 450

    fitted = embedder._fit(pasted, True)

    assert embedder._model.token_count(fitted, True) <= embedder.max_query_tokens < len(pasted)
    assert np.array_equal(embeddings.embed_query(pasted), embeddings.embed_query(fitted))
