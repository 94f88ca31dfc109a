"""Reciprocal rank fusion: one ranking from several (BM25 and embeddings), by rank, not score.

BM25 scores and cosine similarities live on different scales; their ranks do not. An item's fused
score is Σ 1/(k + rank) over the rankings that hold it (k=60, the usual constant), so an item near
the top of either ranking comes up, and one both rankings hold comes up most.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

K = 60
Key = TypeVar("Key", bound=Hashable)


def reciprocal_rank_fusion(rankings: Iterable[Sequence[Key]], k: int = K) -> list[Key]:
    """The items of `rankings` (each best first), best fused first; ties keep first-seen order."""
    fused: dict[Key, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda item: -fused[item])
