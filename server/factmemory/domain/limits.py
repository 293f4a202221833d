"""Every bound on what a request or a model reply may hold and on what a response carries, as one value; and the
fixed sizes of the candidate pools and text caps, as constants.

The configurable numbers live in one home, Settings (FACTMEMORY_MAX_*, FACTMEMORY_PROMPT_*); the app builds the
Limits value from them and passes it down to the edges and the pure modules. The constants below are not settings:
the prompt, the ranking and the benchmarks are tuned to them. tests/test_limits.py fails on a bare copy of a cap."""

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


# Candidate pools: how many stored facts each path reads to choose from (Provide's: domain/provide_tuning.py).
RETRIEVE_PER_KIND = 15  # Evaluate: the nearest facts per kind shown to the model
DEDUP_NEIGHBOURS = 8  # Evaluate: the nearest facts of its kind each add is compared with (rule and pairs)
MAX_PAIRS_SHOWN = 3  # Evaluate: open possible-duplicate pairs shown (likeliest first), two fact lines each
SAME_CLAIM_MEMO = 65_536  # Provide: verdicts of the read-time duplicate check kept per process (pairs of claims)
CLAIM_ANALYSIS_MEMO = 16_384  # the dedup rule's analysis of a claim (its words, classified) kept per process

# Full-text lookups per turn: one GIN lookup each, so this bounds Provide's cost on large entities (at 100k facts,
# p95 13.2 ms with 12 words, 7.1 ms with 6; recall on the project's set unchanged). Numbers and names go first.
MAX_TERMS = 6

# Text caps. An actor (reviewer or import source) and an entity search as they are kept; a dispute quoted beside a
# fact in the provider's block.
MAX_ACTOR_CHARS = 200
MAX_QUERY_CHARS = 200
DEFAULT_FIND_LIMIT = 10  # FindFacts: facts in all when the request names no limit
MAX_DISPUTE_CHARS = 48
# The review page: what its search box and a page token keep of the query string.
MAX_SEARCH_CHARS = 100
MAX_PAGE_TOKEN_CHARS = 200
MAX_EXCERPT_CHARS = 280  # the sentence of a message shown as a fact's evidence
MAX_FORM_ECHO_CHARS = 2000  # a claim typed into a form, shown again when saving it failed
# What a history entry's reason, an evaluation's success reason and an error shown on a page keep of their text.
MAX_REASON_CHARS = 500
# Roles a speaker may hold in one world (elizaOS has three); more is a caller's mistake.
MAX_SPEAKER_ROLES = 16
# ForgetMessages: message ids per call.
MAX_MESSAGE_IDS = 1000
# ForgetMessages: the messages a relationship or an identity keeps as its evidence (the newest; beyond them it is
# never deleted by a deletion, since older messages it stood on are no longer known).
MAX_LINK_EVIDENCE = 50

# A restore (domain/backup.py): a person's name in an export, and a claim, reason or excerpt longer than the text
# cap is a damaged file, not a memory.
MAX_RESTORED_NAME_CHARS = 200
MAX_RESTORED_TEXT = 10_000

# Every message of a batch keeps at least this much of the prompt budget, whatever the budget (docs/operating.md).
MIN_BATCH_MESSAGE_TOKENS = 16
# Stand-out of a possible duplicate (domain/dedup/prefilter.py): with fewer other candidates than this the mean is
# padded with the pre-filter threshold (a person with one or two facts says nothing about their unrelated facts).
MIN_OTHERS = 3
