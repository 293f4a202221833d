"""Every bound on what a request or a model reply may hold and on what a response carries, as one value.

The numbers live in one home, Settings (FACTMEMORY_MAX_*, FACTMEMORY_PROMPT_*); the app builds this value from
them and passes it down to the edges and the pure modules."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Limits:
    # Requests (larger is INVALID_ARGUMENT).
    max_id_chars: int
    max_name_chars: int
    max_text_chars: int
    max_recent_messages: int
    max_batch_messages: int
    max_room_entities: int
    max_names_per_entity: int
    max_provide_limit: int
    default_provide_limit: int
    max_page_size: int
    default_page_size: int
    # The model's reply (beyond these, items are dropped and counted).
    max_claim_chars: int
    max_ops: int
    max_relationships: int
    max_identities: int
    max_tags: int
    max_tag_chars: int
    max_fields: int
    max_field_chars: int
    # Responses.
    max_evidence_ids: int
    max_response_bytes: int
    # The extraction prompt (estimated tokens).
    prompt_max_tokens: int
    prompt_message_max_tokens: int
    prompt_current_message_max_tokens: int
    # Times after the server's clock by more than this are taken as the server's clock.
    clock_skew_s: float

    def for_messages(self, count: int) -> Limits:
        """The caps of one model reply covering `count` messages (a batch): the per-message caps times count."""
        return replace(
            self,
            max_ops=self.max_ops * count,
            max_relationships=self.max_relationships * count,
            max_identities=self.max_identities * count,
        )


# What a history entry's reason, an evaluation's success reason and an error shown on a page keep of their text.
MAX_REASON_CHARS = 500
