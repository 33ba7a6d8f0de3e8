"""The chat centre topic shifts are measured off (`conversations.logic.segmentation`): per
language, the mean embedding of the deployment's recent messages. A beat job averages them
every 15 minutes and keeps the result in the cache (Redis/Valkey), so no request waits for the
average; while there is none (a new deployment, the job stopped for an hour, the cache down),
embeddings are compared raw.
"""

from __future__ import annotations

import logging

import numpy as np
from django.conf import settings
from django.core.cache import cache

from conversations import selectors
from conversations.logic import segmentation
from conversations.logic.segmentation import Centre

logger = logging.getLogger(__name__)

# A centre the job has not renewed for this long is not used.
CENTRE_TTL_SECONDS = 3600


def _key() -> str:
    return f"chat-centre:{settings.MEMORYHUB_EMBEDDING_BACKEND}"


def chat_centre_refresh() -> dict[str, int]:
    """Average the recent messages per language and keep the means; returns the counts."""
    means = selectors.recent_messages_mean_embeddings(limit=settings.MEMORYHUB_CHAT_CENTRE_MESSAGES)
    cache.set(_key(), means, timeout=CENTRE_TTL_SECONDS)
    return {language: count for language, (_mean, count) in means.items()}


def chat_centre(language: str) -> Centre:
    """The centre for messages in `language`: the deployment's mean once it is built from
    enough messages and a threshold was measured for it, else none (raw)."""
    try:
        means = cache.get(_key())
    except Exception:  # the cache is an accelerator; raw comparison is the safe fallback
        logger.warning("chat centre unavailable; comparing embeddings raw", exc_info=True)
        return segmentation.RAW
    if not isinstance(means, dict) or language not in means:
        return segmentation.RAW
    mean, count = means[language]
    return segmentation.centre_for(
        np.asarray(mean, dtype=np.float32),
        int(count),
        model=settings.MEMORYHUB_EMBEDDING_BACKEND,
        language=language,
    )
