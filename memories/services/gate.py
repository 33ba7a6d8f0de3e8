"""The learned capture gate in use (`memories.logic.gate`): the message's e5 embedding (as a
passage, the product's convention for stored text) and its clause reading, scored by the
committed weights."""

from __future__ import annotations

import logging

from memories.logic import gate
from memoryhub.embeddings import embed_passages, get_embedder

logger = logging.getLogger(__name__)


def gate_probability(*, text: str) -> float | None:
    """How likely `text` says something worth remembering; None when the gate cannot read it
    (an embedding backend of another size than the weights were learned on)."""
    learned = gate.load()
    if get_embedder().dim != learned.dim:
        return None
    embedding = embed_passages([text])[0]
    return learned.probability(learned.row(embedding=embedding, text=text))


def gate_allows_statements(*, text: str) -> bool:
    """False when the gate judges the message's statements not worth keeping (below its
    threshold). Without a usable gate, statements are read by the rules alone."""
    probability = gate_probability(text=text)
    if probability is None:
        return True
    return probability >= gate.load().threshold
