"""Bytes per stored message after a long replay, with retention off and on.

`python -m factmemory_tools.storagebench [--messages 480] [--days 180] [--json out.json]`

One person talks for `--days` simulated days; every message teaches a current fact (every tenth a durable one
too), through the real service (gRPC, local embedder, the scripted LLM). Each simulated day the retention sweep
runs with the simulated clock (evaluation rows are dated by the simulated clock too). Every 30 days the live
bytes of what is stored (sum of pg_column_size of the rows of facts, evaluations, fact_history, fact_candidates,
possible_duplicates) are divided by the messages so far. Three policies on three fresh databases: off, the
defaults (archive stale current facts, reduce evaluations after 30 days, keep archived facts), and the defaults
with archived facts deleted after 30 days."""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import grpc
from asyncpg.pool import PoolConnectionProxy
from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.public import (
    NullTelemetry,
    PostgresRetention,
    RetentionPolicy,
    create_server,
    open_database,
    open_deps,
    retention_policy,
    sweep,
)
from factmemory.settings import Settings
from factmemory.testing.llm import Reply, ScriptedLLM
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

TABLES = ("facts", "evaluations", "fact_history", "fact_candidates", "possible_duplicates")
CURRENT = ("feeling", "physical_state", "working_on", "going_through", "schedule_context")
CHECKPOINT_DAYS = 30


def policies(settings: Settings) -> dict[str, RetentionPolicy | None]:
    defaults = retention_policy(settings)
    return {"off": None, "defaults": defaults, "delete_after_30d": replace(defaults, delete_after_days=30.0)}


def _reply(i: int) -> dict[str, Any]:
    ops: list[dict[str, Any]] = [
        {
            "op": "add_current",
            "claim": f"is busy with errand number {i} of the season",
            "category": CURRENT[i % len(CURRENT)],
            "structured_fields": [],
            "valid_at": None,
        }
    ]
    if i % 10 == 0:
        ops.append(
            {
                "op": "add_durable",
                "claim": f"has hobby number {i // 10}",
                "category": "preference",
                "structured_fields": [],
                "verification_status": None,
            }
        )
    return {
        "facts": {"ops": ops},
        "relationships": [],
        "identities": [],
        "success": {"completed": True, "reason": "scripted"},
    }


def _ts(when: datetime) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(when)
    return out


async def stored_bytes(conn: PoolConnectionProxy[asyncpg.Record]) -> dict[str, int]:
    return {t: int(await conn.fetchval(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {t} t")) for t in TABLES}


@asynccontextmanager
async def fresh_database(admin_url: str, name: str) -> AsyncIterator[str]:
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield urlunsplit(urlsplit(admin_url)._replace(path="/" + name))
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


async def replay(
    url: str, llm: ScriptedLLM, tmp: Path, policy: RetentionPolicy | None, messages: int, days: int
) -> list[dict[str, Any]]:
    settings = Settings(
        listen="127.0.0.1:0",
        database_url=url,
        data_dir=tmp,
        openai_api_key="bench",
        openai_base_url=llm.base_url,
        retention_interval_s=0,
    )
    agent, entity, room = (str(uuid.uuid4()) for _ in range(3))
    start = datetime.now(UTC) - timedelta(days=days + 1)
    step = timedelta(days=days) / messages
    rows: list[dict[str, Any]] = []
    async with open_deps(settings) as deps:
        server, port = create_server(deps, settings)
        await server.start()
        try:
            async with (
                grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
                asyncpg.create_pool(url, min_size=1, max_size=2) as pool,
            ):
                stub = pb_grpc.FactMemoryServiceStub(channel)
                swept_day, checkpoint = 0, CHECKPOINT_DAYS
                for i in range(messages):
                    at = start + step * i
                    text = f"storage message {i}: a day like the others"
                    llm.on(text, Reply(_reply(i)))
                    message = pb.ChatMessage(
                        id=str(uuid.uuid4()), entity_id=entity, name="Sam", text=text, created_at=_ts(at)
                    )
                    await stub.Evaluate(
                        pb.EvaluateRequest(
                            agent_id=agent, entity_id=entity, room_id=room, message=message, did_respond=True
                        )
                    )
                    async with pool.acquire() as conn:  # the row is dated by the simulated clock
                        await conn.execute(
                            "UPDATE evaluations SET created_at = $2 WHERE message_id = $1", message.id, at
                        )
                    day = (at - start).days
                    if policy is not None and day > swept_day:
                        swept_day = day
                        await sweep(PostgresRetention(pool), policy, at, NullTelemetry())
                    if day >= checkpoint or i == messages - 1:
                        checkpoint += CHECKPOINT_DAYS
                        async with pool.acquire() as conn:
                            sizes = await stored_bytes(conn)
                            live = await conn.fetchval("SELECT count(*) FROM facts WHERE archived_at IS NULL")
                            archived = await conn.fetchval("SELECT count(*) FROM facts WHERE archived_at IS NOT NULL")
                        rows.append(
                            {
                                "day": day,
                                "messages": i + 1,
                                "live_facts": live,
                                "archived_facts": archived,
                                "bytes": sizes,
                                "bytes_per_message": round(sum(sizes.values()) / (i + 1)),
                            }
                        )
        finally:
            await server.stop(1)
    return rows


async def run(messages: int, days: int) -> dict[str, list[dict[str, Any]]]:
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="factmemory-storage-") as tmp, ScriptedLLM() as llm:
        async with open_database(None, Path(tmp)) as database:
            for name, policy in policies(Settings.model_construct()).items():
                async with fresh_database(database.url, f"storage_{name}") as url:
                    results[name] = await replay(url, llm, Path(tmp), policy, messages, days)
                    last = results[name][-1]
                    print(
                        f"{name}: {last['bytes_per_message']} bytes per message after {last['messages']} "
                        f"messages over {last['day']} days",
                        flush=True,
                    )
    return results


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    lines = [
        "| policy | day | messages | live facts | archived | bytes/message | evaluations bytes/message |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, rows in results.items():
        for r in rows:
            lines.append(
                f"| {name} | {r['day']} | {r['messages']} | {r['live_facts']} | {r['archived_facts']} | "
                f"{r['bytes_per_message']} | {round(r['bytes']['evaluations'] / r['messages'])} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=480)
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    results = asyncio.run(run(args.messages, args.days))
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
