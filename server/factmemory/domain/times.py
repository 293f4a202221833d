"""The one rule for times: what range is stored, and how times read back are made safe. Pure.

asyncpg writes its smallest and largest datetimes as -infinity/infinity and reads those back without a time zone,
so a time at the very edge of the calendar (the zero time of several languages, 9999-12-31) would poison every
later read of the entity. Times outside [EARLIEST, LATEST) never reach the database: from a caller they are
INVALID_ARGUMENT, from the model they are ignored (the message time is used instead, as for any unreadable date).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)  # exclusive
RANGE_TEXT = "between 1900-01-01 and 3000-01-01"


def in_range(value: datetime) -> bool:
    """True for an aware time that may be stored."""
    return value.tzinfo is not None and EARLIEST <= value < LATEST


def from_storage(value: datetime) -> datetime:
    """A time read from the database, aware and within range, whatever the row holds (±infinity included)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return min(max(value, EARLIEST), LATEST)


def optional_from_storage(value: datetime | None) -> datetime | None:
    return None if value is None else from_storage(value)


def not_after(value: datetime, clock: datetime, skew_s: float) -> datetime:
    """value, or the server's clock when value is later than it by more than skew_s (a time from the future)."""
    return clock if value > clock + timedelta(seconds=skew_s) else value
