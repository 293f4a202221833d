"""Agent-model tickets: what the caller's model was shown, kept under an unguessable, short-lived, single-use token.

Pure: the token and its hash, and the refusals of a ticket presented to CompleteEvaluation. The store keeps only the
hash, so a leaked table row cannot be completed."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from factmemory.domain.errors import Conflict, FactMemoryError, InvalidInput, NotFound

# 256 random bits, URL-safe base64 without padding: 43 characters.
TOKEN_BYTES = 32
TOKEN_CHARS = 43
# A used or expired ticket is kept this long past its expiry, without its content, so that presenting it again is
# refused by name ("already used", "expired") rather than as unknown; its body is dropped when it is used, when it
# expires (read without it from then on, dropped from the row by the next issue of any agent's ticket or a read of
# it), and when its entity is forgotten or a message it shows deleted.
KEPT_AFTER_EXPIRY = timedelta(minutes=15)
# The longest a ticket can live (the upper bound of FACTMEMORY_TICKET_TTL_S in settings.py): a ticket is checked
# against the messages deleted since it could have been issued (expires_at - LONGEST_TTL), so every ticket open when
# a message was deleted is refused if it shows it.
LONGEST_TTL = timedelta(hours=1)
# How long a deleted message's id is kept (migration 0063): as long as a turn may send it back as recent context
# (Evaluate and PrepareEvaluation leave it out of the prompt while it is kept). The default evaluation window
# (FACTMEMORY_EVALUATION_WINDOW_DAYS), a judgement: a client that still holds a message a month after deleting it is
# not one we know of. Ids are small (an agent, a message id, a time), and every read of them is by id or by time.
DELETED_IDS_KEPT = timedelta(days=30)


@dataclass(frozen=True)
class TicketPolicy:
    """How long a ticket lives, how many may be open, and how large a reply may be (from settings)."""

    ttl_s: float
    max_per_entity: int
    max_total: int
    max_reply_chars: int
    max_per_agent: int | None = None  # None: the agent's share is the whole bound

    @property
    def agent_share(self) -> int:
        """How many open tickets one agent may hold: no agent can take every ticket of the service."""
        return min(self.max_total, self.max_per_agent or self.max_total)


@dataclass(frozen=True)
class TicketRow:
    """A stored ticket. `body` is None once the ticket was used or expired, its entity forgotten, or a message it
    shows deleted."""

    agent_id: UUID
    entity_id: UUID
    forget_epoch: int
    expires_at: datetime
    used_at: datetime | None
    body: str | None
    epoch_now: int  # the forget epoch, now, of the entity the ticket is presented for


def full(policy: TicketPolicy, total: int, mine: int) -> str:
    """Why no ticket can be issued now, naming the bound that is full (only open tickets count)."""
    if mine >= policy.agent_share:
        return (
            f"this agent holds {mine} open agent-model tickets, its share (FACTMEMORY_MAX_TICKETS_PER_AGENT = "
            f"{policy.agent_share}): complete or let some expire (within FACTMEMORY_TICKET_TTL_S), then retry"
        )
    return (
        f"{total} agent-model tickets are open in all, the service's bound (FACTMEMORY_MAX_TICKETS = "
        f"{policy.max_total}); retry in a moment"
    )


def new_token() -> str:
    """A fresh ticket: 256 bits from the operating system's CSPRNG."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> bytes:
    """What the store keeps and looks tickets up by."""
    return hashlib.sha256(token.encode("ascii")).digest()


def check_token(token: str) -> str:
    """The token as given, or InvalidInput when it cannot be one of ours (nothing is looked up then)."""
    token = token.strip()
    if not token:
        raise InvalidInput("ticket is required: call PrepareEvaluation first")
    if len(token) != TOKEN_CHARS or not all(c.isascii() and (c.isalnum() or c in "-_") for c in token):
        raise InvalidInput("ticket is malformed: pass the ticket PrepareEvaluation returned, unchanged")
    return token


def refusal(row: TicketRow | None, agent_id: UUID, entity_id: UUID, now: datetime) -> FactMemoryError | None:
    """Why the ticket cannot be completed now (None when it can)."""
    if row is None:
        return NotFound("unknown ticket (never issued, or evicted or expired long ago): call PrepareEvaluation again")
    if row.agent_id != agent_id or row.entity_id != entity_id:
        return InvalidInput("the ticket was issued for another agent or entity")
    if row.used_at is not None:
        return Conflict(
            "the ticket was already used: PrepareEvaluation again returns the stored results of its messages "
            "(or a new prompt for those a failure left unapplied)"
        )
    if now >= row.expires_at:
        return Conflict("the ticket expired: call PrepareEvaluation again (no messages were used up)")
    if row.forget_epoch != row.epoch_now:
        return Conflict("the entity was forgotten after the ticket was issued; nothing was applied")
    if row.body is None:
        return Conflict(
            "a message of this person, or one the ticket showed, was deleted after it was issued (ForgetMessages), "
            "so it holds nothing any more; nothing was applied: call PrepareEvaluation again"
        )
    return None
