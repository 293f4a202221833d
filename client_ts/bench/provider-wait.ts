/**
 * How long an elizaOS turn waits for FactMemory's provider, with the turn's Provide started when the message arrives
 * (FACT_MEMORY_PREFETCH=answered, the default) and without (off), in alternating turns on one machine.
 *
 * As a user's agent runs: a real AgentRuntime (@elizaos/plugin-sql on PGlite, plugin-bootstrap 1.7.2,
 * plugin-openai pointed at the scripted OpenAI-compatible server, this plugin), each message through elizaOS's own
 * message service in a direct-message room, the REAL service (.venv/bin/factmemory serve, its local embedding model).
 * The person and their words come from a LoCoMo replay file: the facts the replay's extraction learned from the
 * first half of one conversation are added for the person (AddFact), and the person's messages of the second half
 * are the timed turns. The agent answers each with the scripted model.
 *
 *   npm run bench:provider -- --data ../../shared/data/locomo-tune.json [--turns 60] [--conversation 0] [--out F]
 *     [--agent-postgres postgresql://...]   (the agents' database in PostgreSQL, as in production, not PGlite)
 *
 * Per turn and mode it reports (ms): `provider` (what composeState waits for this provider: its get()), `compose`
 * (the composeState call that ran it), `before` (from handleMessage's start to the provider's call: the work elizaOS
 * does first) and `turn` (handleMessage in full, the reply and the evaluators included).
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";

import { ChannelType, type IAgentRuntime, type Plugin, type Provider, type UUID } from "@elizaos/core";
import bootstrapPlugin from "@elizaos/plugin-bootstrap";
import openaiPlugin from "@elizaos/plugin-openai";

import { createFactMemoryClient, factMemoryPlugin, factMemoryProvider, Kind } from "../src/index.js";
import { uuid } from "../test/support/ids.js";
import { startRealService } from "../test/support/real-service.js";
import { NOTHING, response } from "../test/support/script.js";
import { type SqlAgent, startSqlAgent, stopSqlAgents } from "../test/support/sql-runtime.js";

const TOKEN = "provider-wait-token";
const MODES = ["off", "answered"] as const;
type Mode = (typeof MODES)[number];
const WARMUP_TURNS = 3;

interface Op {
  op: string;
  claim: string;
  category: string;
}
interface Turn {
  speaker: string;
  text: string;
  ops: Op[];
}
interface Replay {
  conversations: Array<{ id: string; turns: Turn[] }>;
}

interface Sample {
  provider: number;
  compose: number;
  before: number;
  turn: number;
}

/** Times this plugin's provider and the composeState call that runs it, per runtime. */
class Recorder {
  providerMs = 0;
  providerAt = 0;
  composeMs = 0;
  calls: number[] = [];

  wrap(runtime: IAgentRuntime): void {
    const compose = runtime.composeState.bind(runtime);
    runtime.composeState = async (...args: Parameters<IAgentRuntime["composeState"]>) => {
      const started = performance.now();
      const calledBefore = this.providerAt;
      const state = await compose(...args);
      if (this.providerAt !== calledBefore && calledBefore === 0)
        this.composeMs = performance.now() - started;
      return state;
    };
  }
}

const recorders = new Map<IAgentRuntime, Recorder>();

const timedProvider: Provider = {
  ...factMemoryProvider,
  get: async (runtime, message, state) => {
    const recorder = recorders.get(runtime);
    const started = performance.now();
    const result = await factMemoryProvider.get(runtime, message, state);
    if (recorder && recorder.providerAt === 0) {
      // The turn's first call; composeState calls again later (the memo answers).
      recorder.providerAt = started;
      recorder.providerMs = performance.now() - started;
      recorder.calls.push(Math.round(recorder.providerMs * 10) / 10);
    }
    return result;
  },
};

const timedPlugin: Plugin = { ...factMemoryPlugin, providers: [timedProvider] };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

function summary(values: number[]): { p50: number; p95: number; n: number } {
  const round = (x: number) => Math.round(x * 10) / 10;
  return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), n: values.length };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      turns: { type: "string", default: "60" },
      conversation: { type: "string", default: "0" },
      out: { type: "string" },
      // The agents' own database: PostgreSQL at this URL instead of in-process PGlite (plugin-sql's POSTGRES_URL).
      "agent-postgres": { type: "string" },
    },
  });
  if (!values.data) throw new Error("--data: a LoCoMo replay file (locomo-tune.json) is required");
  const replay = JSON.parse(await readFile(values.data, "utf8")) as Replay;
  const conversation = replay.conversations[Number(values.conversation)];
  if (!conversation) throw new Error(`--conversation ${values.conversation}: no such conversation`);
  const person = conversation.turns[0]!.speaker;
  const half = Math.floor(conversation.turns.length / 2);
  const theirs = (turns: Turn[]) => turns.filter((t) => t.speaker === person);
  const facts = theirs(conversation.turns.slice(0, half)).flatMap((t) => t.ops);
  const messages = theirs(conversation.turns.slice(half))
    .map((t) => t.text)
    .slice(0, Number(values.turns) + WARMUP_TURNS);

  const real = await startRealService({
    script: {
      replies: [],
      default: NOTHING,
      chat: [{ match: "", content: response("REPLY", "I see, tell me more.") }],
    },
    llmArgs: ["--embedding-dims", "1536"],
    token: TOKEN,
  });
  const agents: Partial<Record<Mode, SqlAgent>> = {};
  const reviewer = createFactMemoryClient({
    url: real.url,
    token: TOKEN,
    timeoutMs: 60_000,
    reviewer: "bench",
  });
  try {
    const personId = uuid() as UUID;
    for (const mode of MODES) {
      const agent = await startSqlAgent(
        {
          FACT_MEMORY_URL: real.url,
          FACT_MEMORY_TOKEN: TOKEN,
          FACT_MEMORY_PREFETCH: mode,
          OPENAI_BASE_URL: real.llmUrl,
          OPENAI_API_KEY: "test",
          OPENAI_EMBEDDING_DIMENSIONS: "1536",
          ...(values["agent-postgres"] ? { POSTGRES_URL: values["agent-postgres"] } : {}),
        },
        [{ id: personId, name: person }],
        [bootstrapPlugin, openaiPlugin, timedPlugin] as Plugin[],
        uuid(),
        ChannelType.DM,
      );
      agents[mode] = agent;
      const recorder = new Recorder();
      recorder.wrap(agent.runtime);
      recorders.set(agent.runtime, recorder);
      for (const op of facts) {
        await reviewer.addFact({
          agentId: agent.runtime.agentId,
          entityId: personId,
          kind: op.op === "add_current" ? Kind.CURRENT : Kind.DURABLE,
          category: op.category,
          claim: op.claim,
        });
      }
    }
    const samples: Record<Mode, Sample[]> = { off: [], answered: [] };
    for (const [i, text] of messages.entries()) {
      const order = i % 2 === 0 ? MODES : [...MODES].reverse();
      for (const mode of order) {
        const agent = agents[mode]!;
        const recorder = recorders.get(agent.runtime)!;
        recorder.providerAt = 0;
        recorder.calls = [];
        const message = await agent.say(personId, text);
        const started = performance.now();
        await agent.runtime.messageService!.handleMessage(agent.runtime, message, async () => []);
        const turn = performance.now() - started;
        if (process.env["DEBUG_CALLS"]) console.error(mode, i, recorder.calls);
        if (recorder.providerAt === 0)
          throw new Error(`mode ${mode}: the provider did not run for turn ${i}`);
        if (i >= WARMUP_TURNS)
          samples[mode].push({
            provider: recorder.providerMs,
            compose: recorder.composeMs,
            before: recorder.providerAt - started,
            turn,
          });
      }
    }
    const result = {
      conversation: conversation.id,
      person,
      facts: facts.length,
      turns: samples.off.length,
      modes: Object.fromEntries(
        MODES.map((mode) => [
          mode,
          Object.fromEntries(
            (["provider", "compose", "before", "turn"] as const).map((key) => [
              key,
              summary(samples[mode].map((s) => s[key])),
            ]),
          ),
        ]),
      ),
    };
    console.log(JSON.stringify(result, null, 2));
    if (values.out) await writeFile(values.out, JSON.stringify(result, null, 2));
  } finally {
    reviewer.close();
    await stopSqlAgents(MODES.map((m) => agents[m]).filter((a): a is SqlAgent => a !== undefined));
    await real.stop();
  }
}

await main();
