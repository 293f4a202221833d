"""While the service runs, the objects made at its start are left out of Python's garbage collections and the
youngest generation is collected less often (app/runtime.settled_heap); both are undone when it stops."""

from __future__ import annotations

import gc
from pathlib import Path

from factmemory.app.runtime import YOUNG_COLLECTION_OBJECTS
from tests.conftest import make_settings, start_service
from tests.support.llm_stub import ScriptedLLM


async def test_the_running_service_leaves_its_start_up_objects_out_of_collections(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    before = gc.get_threshold()
    async for service in start_service(make_settings(pg_url, llm, tmp_path)):
        assert gc.get_threshold()[0] == YOUNG_COLLECTION_OBJECTS
        assert gc.get_threshold()[1:] == before[1:]
        # The embedding model's, gRPC's and the service's own objects: tens of thousands at least.
        assert gc.get_freeze_count() > 10_000
        assert service.deps.embedder.dimensions > 0
    assert gc.get_threshold() == before
