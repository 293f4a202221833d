#!/usr/bin/env bash
# Times the path from a fresh clone to an elizaOS agent that remembers, by the README's steps:
#   1. git clone;  2. ./dev run (sets up .venv, starts the service);  3. npm i <clone>/client_ts
#   (+ @elizaos/core and @elizaos/plugin-sql, which any agent has);  4. a character with the plugin line: two turns,
#   the second one's prompt holds the fact learned on the first.
# The service's model is the scripted OpenAI-compatible server (no key needed). Prints one line per step and the total.
# Usage: scripts/fresh_clone_agent.sh [repository]   (default: this checkout's committed HEAD)
set -euo pipefail
REPO="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
WORK="$(mktemp -d /tmp/factmemory-fresh-XXXXXX)"
PIDS=()
# Each background step runs in its own process group (setsid), so that the service ./dev run execs stops with it.
cleanup() { for pid in "${PIDS[@]}"; do kill -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
START=$(date +%s.%N)
step() { printf '%-70s %6.1f s\n' "$1" "$(echo "$(date +%s.%N) - $START" | bc)"; }
wait_for() { for _ in $(seq 1 9000); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done; echo "timed out: $1" >&2; tail -20 "$1" >&2; return 1; }

git clone --quiet "$REPO" "$WORK/factmemory"
step "1. git clone"

cat >"$WORK/script.json" <<'JSON'
{"replies": [{"match": "moved to Berlin", "content": {"facts": {"ops": [{"op": "add_durable", "claim": "lives in Berlin",
 "category": "identity", "structured_fields": [], "verification_status": null}]}, "relationships": [], "identities": [],
 "success": {"completed": true, "reason": "ok"}}}], "default": {"facts": {"ops": []}}}
JSON
setsid bash -c 'cd "$1" && FACTMEMORY_LISTEN=127.0.0.1:0 exec ./dev run' _ "$WORK/factmemory" >"$WORK/service.log" 2>&1 &
PIDS+=($!)
wait_for "$WORK/service.log" "factmemory listening on"
step "2. ./dev run (first run: .venv, then the service)"
# The scripted model comes from the dev tools ./dev run installed; the service above has no model of its own, so
# this run restarts it pointed at the scripted server (what a user does by exporting OPENAI_* before ./dev run).
kill -- "-${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; PIDS=()
setsid "$WORK/factmemory/.venv/bin/python" -m factmemory.testing.llm --port 0 --script "$WORK/script.json" >"$WORK/llm.log" 2>&1 &
PIDS+=($!)
wait_for "$WORK/llm.log" "listening on"
LLM="$(grep -oE 'http://[^ ]+' "$WORK/llm.log")"
OPENAI_BASE_URL="$LLM" OPENAI_API_KEY=scripted setsid bash -c 'cd "$1" && FACTMEMORY_LISTEN=127.0.0.1:0 exec ./dev run' _ "$WORK/factmemory" >"$WORK/service.log" 2>&1 &
PIDS+=($!)
wait_for "$WORK/service.log" "factmemory listening on"
URL="http://$(grep -oE 'listening on [^ ]+' "$WORK/service.log" | head -1 | cut -d' ' -f3)"
step "   service restarted with OPENAI_BASE_URL set"

mkdir "$WORK/agent" && cd "$WORK/agent" && npm init -y >/dev/null
npm i --silent --prefer-offline --no-audit --no-fund "$WORK/factmemory/client_ts" @elizaos/core@1.7.2 @elizaos/plugin-sql@1.7.2
step "3. npm i <clone>/client_ts"

cat >agent.mjs <<JS
import { AgentRuntime, ChannelType } from "@elizaos/core";
import sqlPlugin from "@elizaos/plugin-sql";
import factMemoryPlugin from "@factmemory/plugin-elizaos";
const character = { name: "Ava", bio: ["A helpful assistant."], plugins: [],
  settings: { FACT_MEMORY_URL: "$URL", PGLITE_DATA_DIR: "memory://" } };
const runtime = new AgentRuntime({ character });
await runtime.registerPlugin(sqlPlugin);
// core 1.7.2 reads the agent row before it migrates: open and migrate a fresh database first (as the elizaOS CLI does).
if (!(await runtime.adapter.isReady())) await runtime.adapter.init();
await runtime.runPluginMigrations();
await runtime.initialize();
await runtime.registerPlugin(factMemoryPlugin);
const person = crypto.randomUUID(), roomId = crypto.randomUUID(), worldId = crypto.randomUUID();
await runtime.ensureConnection({ entityId: person, roomId, worldId, name: "Dana", source: "cli", type: ChannelType.DM });
const say = async (text) => { const m = { id: crypto.randomUUID(), entityId: person, agentId: runtime.agentId, roomId,
  content: { text }, createdAt: Date.now() }; await runtime.createMemory(m, "messages"); return m; };
const first = await say("I moved to Berlin last year");
await runtime.evaluate(first, { values: {}, data: {}, text: "" }, false, async () => [], []);
const state = await runtime.composeState(await say("Any plans for the weekend?"));
console.log(state.values.factMemory);
process.exit(/lives in Berlin/.test(state.text) ? 0 : 1);
JS
node agent.mjs >"$WORK/agent.log" 2>&1 || { cat "$WORK/agent.log"; exit 1; }
grep -A1 "What I know about" "$WORK/agent.log"
step "4. the character with the plugin: turn 1 learns, turn 2's prompt remembers"
