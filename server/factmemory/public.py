"""The service's names for the developer tools and scripts (tools/, scripts/): their one address outside the
service. Beside it they use the contract (`factmemory.v1`), the settings (`factmemory.settings.Settings`) and the
test doubles (`factmemory.testing`); tests/test_layers.py fails on a tool that reaches anywhere else. Inside the
service every name is imported from its own module, never from here."""

from factmemory.adapters import eliza  # an elizaOS export read and imported (scripts/measure_import.py)
from factmemory.adapters.embedding.embedders import LOCAL_VARIANTS, LocalEmbedder  # embedbench
from factmemory.adapters.embedding.worker import load as load_engine  # vs_mem0's shared endpoint
from factmemory.adapters.postgres.connection import (
    SESSION_SETTINGS,  # bench: the session the service's plans get
    open_pool,  # citus_import: the store on a pool of its own
)
from factmemory.adapters.postgres.deployment.database import database_url, migrate, open_database
from factmemory.adapters.postgres.deployment.distribution import distribute  # citus_latency
from factmemory.adapters.postgres.erasure.retention import PostgresRetention
from factmemory.adapters.postgres.read.nearest import NEAREST_BY_KIND, nearest_args  # bench: nearest vs exact order
from factmemory.adapters.postgres.read.provide_pool import (  # bench: EXPLAIN of Provide's query
    CANDIDATES,
    candidate_args,
)
from factmemory.adapters.postgres.store import PostgresBulk  # citus_import: the import's writes, timed alone
from factmemory.api.settings_doc import settings_table  # docs/configuration.md (scripts/gen_configuration.py)
from factmemory.app import create_server, open_deps, retention_policy
from factmemory.domain.confidence import ADD_CONFIDENCE  # citus_import
from factmemory.domain.dedup.planning import Neighbour, plan_adds  # measure_dedup: the write-time plan
from factmemory.domain.dedup.prefilter import MIN_STAND_OUT, stand_out  # measure_dedup: the pre-filter
from factmemory.domain.dedup.rule import DedupVerdict, decide  # measure_dedup: the rule
from factmemory.domain.extraction import strict_schema  # bench: the response schema's size
from factmemory.domain.language import content_terms  # bench: the turn's terms, as Provide takes them
from factmemory.domain.limits import DEDUP_NEIGHBOURS  # measure_dedup
from factmemory.domain.models import (
    ALL_ITEMS,
    CATEGORIES,
    UNCATEGORIZED,
    ChatMessage,
    EvaluateInput,
    Fact,
    Kind,
    OpType,
    ProvideInput,
    Verification,
)
from factmemory.domain.new_fact import NewFact, new_fact  # citus_import
from factmemory.domain.ops import PlannedAdd  # measure_dedup: an ADD as the write path plans it
from factmemory.domain.provide_tuning import RARE_DF, RARE_FACTS, VECTOR_POOL  # bench: Provide's candidate pool
from factmemory.domain.relevance import word_overlap  # near-duplicate topics among facts shown (recall/misses)
from factmemory.domain.retention import RetentionPolicy
from factmemory.domain.vectors import centroid  # bench: a Provide-like query vector
from factmemory.ports import CALL_SCOPE, CallScope, NullTelemetry
from factmemory.usecases.deps import Deps  # the opened service (testing.service) the benchmarks query
from factmemory.usecases.evaluate.agent_model import TicketBody  # an agent-model ticket's size (agentbench)
from factmemory.usecases.evaluate.prompting import Shown
from factmemory.usecases.imports import import_facts
from factmemory.usecases.provide import provide  # Provide's own scores, deeper than the wire limit (recall/misses)
from factmemory.usecases.retention import sweep

__all__ = [
    "ADD_CONFIDENCE",
    "ALL_ITEMS",
    "CALL_SCOPE",
    "CANDIDATES",
    "CATEGORIES",
    "DEDUP_NEIGHBOURS",
    "LOCAL_VARIANTS",
    "MIN_STAND_OUT",
    "NEAREST_BY_KIND",
    "RARE_DF",
    "RARE_FACTS",
    "SESSION_SETTINGS",
    "UNCATEGORIZED",
    "VECTOR_POOL",
    "CallScope",
    "ChatMessage",
    "DedupVerdict",
    "Deps",
    "EvaluateInput",
    "Fact",
    "Kind",
    "LocalEmbedder",
    "Neighbour",
    "NewFact",
    "NullTelemetry",
    "OpType",
    "PlannedAdd",
    "PostgresBulk",
    "PostgresRetention",
    "ProvideInput",
    "RetentionPolicy",
    "Shown",
    "TicketBody",
    "Verification",
    "candidate_args",
    "centroid",
    "content_terms",
    "create_server",
    "database_url",
    "decide",
    "distribute",
    "eliza",
    "import_facts",
    "load_engine",
    "migrate",
    "nearest_args",
    "new_fact",
    "open_database",
    "open_deps",
    "open_pool",
    "plan_adds",
    "provide",
    "retention_policy",
    "settings_table",
    "stand_out",
    "strict_schema",
    "sweep",
    "word_overlap",
]
