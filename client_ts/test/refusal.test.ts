/**
 * The REAL service refuses an agent itself (issue 36): started without FACT_MEMORY_TOKEN, or with a wrong one, the
 * plugin says so ONCE, clearly, with what to set, however many turns it takes; and the service answers a missing
 * token as a configuration error (not a guess), so the same agent restarted with the right token is served at once.
 * A real AgentRuntime (in-memory adapter) against a real service with FACTMEMORY_AUTH_TOKEN.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { closeContext, createFactMemoryClient } from "../src/index.js";
import { uuid } from "./support/ids.js";
import { type RealService, startRealService } from "./support/real-service.js";
import { type TestAgent, startAgent } from "./support/runtime.js";
import { type Cleanups, startOnce } from "./support/setup.js";

const TOKEN = "refusal-test-token-0123456789";

async function turns(agent: TestAgent, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    const message = agent.say(`turn ${n}: I live in Berlin`);
    const state = await agent.runtime.composeState(message);
    assert.equal(state.values["factMemory"], "");
    await agent.runtime.evaluate(message, state, true, async () => [], [agent.reply("ok")]);
  }
}

describe("the service refuses the agent's token", () => {
  const ready = startOnce(async (cleanups: Cleanups): Promise<RealService> => {
    const real = await startRealService({ token: TOKEN });
    cleanups.push(() => real.stop());
    return real;
  });

  test("without FACT_MEMORY_TOKEN: one warning naming what to set, then served at once with it", async () => {
    const real = await ready();
    const agent = await startAgent({ FACT_MEMORY_URL: real.url });
    try {
      await turns(agent, 12); // more calls than the service's per-client guess limit (10)
      assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
      assert.match(
        agent.warnings[0]!,
        /refuses this agent: the service requires a token and FACT_MEMORY_TOKEN is not set/,
      );
      assert.match(agent.warnings[0]!, /set FACT_MEMORY_TOKEN to the service's FACTMEMORY_AUTH_TOKEN/);
    } finally {
      closeContext(agent.runtime);
    }
    // The same agent restarted with its token: not throttled by the calls it made without one.
    const client = createFactMemoryClient({ url: real.url, token: TOKEN, timeoutMs: 30_000 });
    try {
      const listed = await client.listFacts({ agentId: agent.runtime.agentId, entityId: uuid() });
      assert.deepEqual(listed.facts, []);
    } finally {
      client.close();
    }
  });

  test("with a wrong FACT_MEMORY_TOKEN: one warning saying the service refuses it", async () => {
    const real = await ready();
    const agent = await startAgent({
      FACT_MEMORY_URL: real.url,
      FACT_MEMORY_TOKEN: "not-the-service-token-9",
    });
    try {
      await turns(agent, 3);
      assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
      assert.match(agent.warnings[0]!, /refuses this agent: the service refuses FACT_MEMORY_TOKEN/);
    } finally {
      closeContext(agent.runtime);
    }
  });

  test("after too many wrong tokens from its address: the agent with the right token is told how long it waits", async () => {
    const real = await ready();
    const guesser = createFactMemoryClient({
      url: real.url,
      token: "a-wrong-guess-0123456789",
      timeoutMs: 30_000,
    });
    try {
      for (let n = 0; n < 12; n += 1) {
        await guesser.listFacts({ agentId: uuid(), entityId: uuid() }).catch(() => undefined);
      }
    } finally {
      guesser.close();
    }
    const agent = await startAgent({ FACT_MEMORY_URL: real.url, FACT_MEMORY_TOKEN: TOKEN });
    try {
      await turns(agent, 2);
      assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
      assert.match(
        agent.warnings[0]!,
        /refuses this agent: the service refuses every call from this address for \d+ s after too many wrong tokens, the right token too/,
      );
    } finally {
      closeContext(agent.runtime);
    }
  });
});
