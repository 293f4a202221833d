"""Embedding vectors as the service handles them (unit-length float32) and the one way several become a query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

Vector = np.ndarray[Any, np.dtype[np.float32]]
Matrix = np.ndarray[Any, np.dtype[np.float32]]


def centroid(vectors: Matrix) -> Vector:
    """The normalized mean of unit vectors: one query for several messages.

    Each message is embedded on its own (and cached), so a turn embeds only its new message instead of
    re-embedding the five joined; the mean stands for the joined text."""
    mean = vectors.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return np.asarray(mean / norm if norm > 0 else vectors[-1], dtype=np.float32)


def weighted_centroid(vectors: Matrix, weights: Sequence[float]) -> Vector:
    """The normalized weighted sum of unit vectors (domain/turn.py gives the weights); the last row when it is 0."""
    total = np.asarray(weights, dtype=np.float32) @ vectors
    norm = float(np.linalg.norm(total))
    return np.asarray(total / norm if norm > 0 else vectors[-1], dtype=np.float32)
