/**
 * FactMemory in an agent as builders run one: a real AgentRuntime with @elizaos/plugin-sql (PGlite), the real
 * @elizaos/plugin-bootstrap 1.7.2 and @elizaos/plugin-openai 1.6.0 pointed at the scripted OpenAI-compatible
 * server (which speaks the Responses API plugin-openai uses), plus this plugin, against the REAL service.
 * Every model call of the agent and of the service lands at the scripted server and is counted there.
 *
 * Printed figures (FIGURE lines): model calls per 10 turns with plugin-bootstrap loaded, before (its memory
 * kept) and after (superseded), in both model modes.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";

import type { Memory, Plugin, UUID } from "@elizaos/core";
import bootstrapPlugin from "@elizaos/plugin-bootstrap";
import openaiPlugin from "@elizaos/plugin-openai";

import { createFactMemoryClient, type FactMemoryClient, factMemoryPlugin, Kind } from "../src/index.js";
import { uuid } from "./support/ids.js";
import { startRealService } from "./support/real-service.js";
import { type Cleanups, startOnce } from "./support/setup.js";
import { type SqlAgent, startSqlAgent, stopSqlAgents } from "./support/sql-runtime.js";

const TURNS = 10;
const TOKEN = "eliza-integration-token";
const HOBBIES = [
  "chess",
  "the piano",
  "climbing",
  "pottery",
  "sailing",
  "baking",
  "tennis",
  "poetry",
  "origami",
  "jazz",
];
const NOTHING_NEW = {
  facts: { ops: [] },
  relationships: [],
  identities: [],
  success: { completed: true, reason: "ok" },
};

/** Turn i's message names hobby i; the model answers it with one durable fact. */
function turnText(i: number): string {
  return `Turn ${i}: lately I spend my evenings on ${HOBBIES[i]}`;
}

function script() {
  return {
    replies: HOBBIES.map((hobby, i) => ({
      match: `Turn ${i}:`,
      content: {
        ...NOTHING_NEW,
        facts: {
          ops: [
            {
              op: "add_durable",
              claim: `enjoys ${hobby}`,
              category: "preference",
              structured_fields: [],
              verification_status: null,
            },
          ],
        },
      },
    })),
    // Anything else, REFLECTION's XML prompt included, gets this JSON (which REFLECTION cannot parse).
    default: NOTHING_NEW,
  };
}

type LlmRequest = Record<string, unknown> & { api?: string; messages?: Array<{ content?: unknown }> };

function textOf(request: LlmRequest): string {
  return (request.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
}

/** The calls by kind: FactMemory's extraction (its <current_message> block), REFLECTION's, anything else. */
function classify(requests: readonly LlmRequest[]) {
  const factMemory = requests.filter((r) => /<current_messages?>/.test(textOf(r)));
  const reflection = requests.filter((r) => /self-reflective thought/.test(textOf(r)));
  return {
    total: requests.length,
    factMemory: factMemory.length,
    reflection: reflection.length,
    other: requests.length - factMemory.length - reflection.length,
    viaResponses: requests.filter((r) => r.api === "responses").length,
  };
}

interface Env {
  llmUrl: string;
  serviceUrl: string;
  client: FactMemoryClient;
  llmRequests(): Promise<LlmRequest[]>;
}

describe("an elizaOS agent with plugin-bootstrap and plugin-openai", () => {
  const ready = startOnce(start);

  async function start(cleanups: Cleanups): Promise<Env> {
    const real = await startRealService({
      script: script(),
      llmArgs: ["--embedding-dims", "1536"],
      token: TOKEN,
    });
    cleanups.push(() => real.stop());
    const client = createFactMemoryClient({ url: real.url, token: TOKEN, timeoutMs: 30_000 });
    cleanups.push(() => client.close());
    return {
      llmUrl: real.llmUrl,
      serviceUrl: real.url,
      client,
      llmRequests: async () => (await real.llmRequests()) as LlmRequest[],
    };
  }

  const agents: SqlAgent[] = [];
  after(() => stopSqlAgents(agents));

  async function agentWith(env: Env, person: UUID, settings: Record<string, string>, plugins: Plugin[]) {
    const agent = await startSqlAgent(
      {
        FACT_MEMORY_URL: env.serviceUrl,
        FACT_MEMORY_TOKEN: TOKEN,
        OPENAI_BASE_URL: env.llmUrl,
        OPENAI_API_KEY: "test",
        OPENAI_EMBEDDING_DIMENSIONS: "1536",
        ...settings,
      },
      [{ id: person, name: "Dana" }],
      plugins,
      uuid(), // each agent its own row: settings of one test never reach another
    );
    agents.push(agent);
    return agent;
  }

  /**
   * Ten turns as the message service runs them: the person's message, the composed state (asking for the
   * FACTS provider by name, as a template that uses {{facts}} would), the agent's reply, the evaluators.
   */
  async function tenTurns(env: Env, agent: SqlAgent, person: UUID) {
    const start = (await env.llmRequests()).length;
    const messages: Memory[] = [];
    const blocks: number[] = [];
    for (let i = 0; i < TURNS; i += 1) {
      const message = await agent.say(person, turnText(i));
      messages.push(message);
      const state = await agent.runtime.composeState(message, ["FACTS"]);
      const providers = (state.data["providers"] ?? {}) as Record<string, { text?: string }>;
      blocks.push(["FACT_MEMORY", "FACTS"].filter((name) => name in providers).length);
      const reply = await agent.reply(`Nice, tell me more about ${HOBBIES[i]}.`);
      await agent.runtime.evaluate(message, state, true, async () => [], [reply]);
    }
    const calls = classify((await env.llmRequests()).slice(start));
    return { messages, blocks, calls };
  }

  async function claims(env: Env, agentId: UUID, person: UUID): Promise<string[]> {
    const { facts } = await env.client.listFacts({ agentId, entityId: person });
    return facts.map((f) => `${Kind[f.kind]} ${f.claim}`).sort();
  }

  let serviceModeClaims: string[] | undefined;

  test("before: bootstrap's memory kept, it makes extraction calls of its own and a second facts block", async () => {
    const env = await ready();
    const person = uuid();
    const agent = await agentWith(
      env,
      person,
      { FACT_MEMORY_MODEL: "service", FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY: "true" },
      [bootstrapPlugin, openaiPlugin, factMemoryPlugin],
    );
    assert.ok(agent.runtime.evaluators.some((e) => e.name === "REFLECTION"));
    const { calls, blocks } = await tenTurns(env, agent, person);
    console.log(`FIGURE model calls per ${TURNS} turns, bootstrap memory kept: ${JSON.stringify(calls)}`);
    assert.equal(calls.factMemory, TURNS);
    assert.ok(calls.reflection > 0, "REFLECTION extracted too");
    assert.ok(
      blocks.every((count) => count === 2),
      `two facts blocks: ${blocks.join(",")}`,
    );
  });

  test("after, service's model: ONE extraction call per turn, ONE facts block; bootstrap's superseded (registered first)", async () => {
    const env = await ready();
    const person = uuid();
    const agent = await agentWith(env, person, { FACT_MEMORY_MODEL: "service" }, [
      bootstrapPlugin,
      openaiPlugin,
      factMemoryPlugin,
    ]);
    assert.ok(!agent.runtime.evaluators.some((e) => e.name === "REFLECTION"));
    assert.ok(!agent.runtime.providers.some((p) => p.name === "FACTS"));
    const { calls, blocks } = await tenTurns(env, agent, person);
    console.log(
      `FIGURE model calls per ${TURNS} turns, service's model, bootstrap memory superseded: ${JSON.stringify(calls)}`,
    );
    assert.deepEqual(
      {
        total: calls.total,
        factMemory: calls.factMemory,
        reflection: calls.reflection,
        viaResponses: calls.viaResponses,
      },
      { total: TURNS, factMemory: TURNS, reflection: 0, viaResponses: 0 },
    );
    assert.deepEqual(blocks, Array(TURNS).fill(1));
    serviceModeClaims = await claims(env, agent.runtime.agentId, person);
    assert.deepEqual(serviceModeClaims, HOBBIES.map((hobby) => `DURABLE enjoys ${hobby}`).sort());
  });

  test("after, agent's model (registered before bootstrap): ONE useModel call per turn, the same facts", async () => {
    const env = await ready();
    const person = uuid();
    const agent = await agentWith(env, person, { FACT_MEMORY_MODEL: "agent" }, [
      factMemoryPlugin,
      openaiPlugin,
      bootstrapPlugin,
    ]);
    assert.ok(!agent.runtime.evaluators.some((e) => e.name === "REFLECTION"));
    assert.ok(!agent.runtime.providers.some((p) => p.name === "FACTS"));
    const { calls, blocks } = await tenTurns(env, agent, person);
    console.log(
      `FIGURE model calls per ${TURNS} turns, agent's model, bootstrap memory superseded: ${JSON.stringify(calls)}`,
    );
    assert.deepEqual(
      {
        total: calls.total,
        factMemory: calls.factMemory,
        reflection: calls.reflection,
        viaResponses: calls.viaResponses,
      },
      { total: TURNS, factMemory: TURNS, reflection: 0, viaResponses: TURNS },
      "every call went through plugin-openai",
    );
    assert.deepEqual(blocks, Array(TURNS).fill(1));
    assert.deepEqual(await claims(env, agent.runtime.agentId, person), serviceModeClaims);
  });

  test("a deleted message's facts are gone, and a replay of it applies nothing", async () => {
    const env = await ready();
    const person = uuid();
    const agent = await agentWith(env, person, { FACT_MEMORY_MODEL: "service" }, [
      bootstrapPlugin,
      openaiPlugin,
      factMemoryPlugin,
    ]);
    const said: Memory[] = [];
    for (const i of [0, 1]) {
      const message = await agent.say(person, turnText(i));
      said.push(message);
      await agent.runtime.evaluate(message, { values: {}, data: {}, text: "" }, false, async () => [], []);
    }
    const agentId = agent.runtime.agentId;
    assert.deepEqual(await claims(env, agentId, person), [
      "DURABLE enjoys chess",
      "DURABLE enjoys the piano",
    ]);
    const deleted = said[1]!;
    await agent.runtime.emitEvent("MESSAGE_DELETED", {
      runtime: agent.runtime,
      source: "test",
      message: deleted,
    });
    assert.deepEqual(await claims(env, agentId, person), ["DURABLE enjoys chess"]);
    // A late or replayed evaluation of the deleted message learns nothing.
    const replay = await env.client.evaluate({
      agentId,
      entityId: person,
      message: { id: deleted.id!, entityId: person, name: "Dana", text: turnText(1) },
      items: [],
    });
    assert.ok(
      replay.ops.every((op) => op.rejected),
      JSON.stringify(replay.ops),
    );
    assert.deepEqual(await claims(env, agentId, person), ["DURABLE enjoys chess"]);
  });

  test("the character's name reaches the service (RegisterAgent at start)", async () => {
    const env = await ready();
    const person = uuid();
    const agent = await agentWith(env, person, {}, [factMemoryPlugin]);
    for (let waited = 0; waited < 10_000; waited += 100) {
      const { agents: listed } = await env.client.listAgents({});
      if (listed.some((a) => a.agentId === agent.runtime.agentId && a.name === "Ava")) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail("the agent is not listed by its name");
  });
});
