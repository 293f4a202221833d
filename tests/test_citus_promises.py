"""The service's promises on the Citus cluster: the existing tests of exactly-once (replays, overlapping batches,
concurrent turns), forgetting (ForgetEntity, ForgetMessages), the import ledger, agent-model tickets and review run
unchanged against the service connected to the coordinator of a database distributed by person."""

from __future__ import annotations

import pytest

from tests.conftest import Service

# Each imported test runs here with the `service` fixture below.
from tests.test_agent_model import (  # noqa: F401
    test_a_reply_that_breaks_the_contract_applies_nothing_and_burns_nothing,
    test_a_ticket_from_before_a_forget_is_refused_and_keeps_nothing,
    test_a_ticket_is_used_once_and_a_retry_applies_nothing_twice,
    test_a_write_landing_between_prepare_and_complete_is_planned_against,
    test_facts_learned_through_the_agents_model_are_identical_to_the_services,
    test_messages_evaluated_before_get_their_stored_results_and_no_ticket,
)
from tests.test_batch import (  # noqa: F401
    test_a_replayed_batch_or_message_returns_the_stored_results_without_a_call,
    test_messages_evaluated_before_are_context_not_learned_again,
    test_overlapping_batches_at_once_apply_each_message_exactly_once,
)
from tests.test_forget_messages import (  # noqa: F401
    test_a_cleared_room_forgets_what_was_learned_there_from_everyone,
    test_a_deleted_message_leaves_the_evidence_and_its_only_facts_go,
    test_a_deletion_while_the_message_is_evaluated_wins,
    test_a_message_deleted_before_it_was_evaluated_is_never_learned,
    test_a_replayed_evaluate_of_a_deleted_message_applies_nothing,
    test_a_room_mates_ticket_that_showed_a_deleted_message_is_refused_and_learns_nothing,
    test_links_a_message_wrote_about_room_mates_go_with_it,
    test_relationships_and_identities_learned_only_from_deleted_messages_go,
    test_review_items_raised_by_a_deleted_message_close,
)
from tests.test_import_ledger import (  # noqa: F401
    test_a_second_import_adds_nothing_whatever_happened_to_the_facts,
    test_the_ledger_is_per_agent,
)
from tests.test_review import (  # noqa: F401
    test_add_update_delete_by_hand,
    test_agent_wide_queue_is_oldest_first_filtered_and_paged,
    test_contradiction_kept_as_both,
    test_entities_list_names_counts_and_pages,
    test_export_includes_history_and_forget_erases_it,
    test_history_records_every_change_with_actor_and_values,
    test_ids_of_another_scope_are_not_found,
    test_provider_marks_a_disputed_fact_until_resolved,
    test_strengthen_and_decay_are_recorded,
)
from tests.test_source_words import (  # noqa: F401
    test_a_changed_claim_is_searched_by_itself,
    test_deleting_the_message_takes_its_words_from_a_fact_that_stays,
    test_the_message_s_words_find_the_fact_its_claim_does_not_say,
)


@pytest.fixture(scope="session")
def service(citus_service: Service) -> Service:
    """The coordinator of the distributed database answers for the imported tests."""
    return citus_service
