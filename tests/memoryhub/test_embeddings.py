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
