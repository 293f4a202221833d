/**
 * The plugin learns the service's request limits (GetLimits) instead of copying them: asked once, kept; an older
 * service (UNIMPLEMENTED) leaves the defaults, said once; an unreachable one is asked again later. Against the REAL
 * service configured below its defaults, the plugin's batches and Provide requests fit, and the service takes them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import type { UUID } from "@elizaos/core";

import { contextFor } from "../src/context.js";
import {
  closeContext,
  createFactMemoryClient,
  DEFAULT_LIMITS,
  type FactMemoryClient,
  type GetLimitsResponse,
  GetLimitsResponseSchema,
  LearnedLimits,
  type ServiceLimits,
} from "../src/index.js";
import { type FakeService, startFakeService, startRecordingProxy } from "./support/fake-service.js";
import { uuid } from "./support/ids.js";
import { closedPort } from "./support/net.js";
import { startRealService } from "./support/real-service.js";
import { emptyState } from "./support/runtime.js";
import { type Cleanups, startOnce } from "./support/setup.js";
import { type SqlAgent, startSqlAgent } from "./support/sql-runtime.js";

interface Reports {
  older: unknown[];
  failures: unknown[];
}

function learned(
  ask: () => Promise<GetLimitsResponse>,
  now: () => number = Date.now,
): [LearnedLimits, Reports] {
  const reports: Reports = { older: [], failures: [] };
  const limits = new LearnedLimits({
    ask,
    onOlderService: (error) => reports.older.push(error),
    onFailure: (error) => reports.failures.push(error),
    retryMs: 1_000,
    now,
  });
  return [limits, reports];
}

describe("LearnedLimits", () => {
  test("an older service (UNIMPLEMENTED): the defaults, said once, asked once", async () => {
    const fake = await startFakeService();
    const client = createFactMemoryClient({ url: fake.url, timeoutMs: 10_000 });
    try {
      const [limits, reports] = learned(() => client.getLimits({}));
      const [first, second] = await Promise.all([limits.get(), limits.get()]);
      assert.deepEqual(first, DEFAULT_LIMITS);
      assert.equal(second, first);
      assert.deepEqual(await limits.get(), DEFAULT_LIMITS);
      assert.equal(fake.limitsAsked, 1, "asked once");
      assert.equal(reports.older.length, 1, "said once");
      assert.deepEqual(reports.failures, []);
    } finally {
      client.close();
      await fake.close();
    }
  });

  test("a service that reports its limits: learned once and kept; a limit it leaves at 0 keeps its default", async () => {
    const fake = await startFakeService({
      getLimits: () => create(GetLimitsResponseSchema, { maxBatchMessages: 4, maxTextChars: 500 }),
    });
    const client = createFactMemoryClient({ url: fake.url, timeoutMs: 10_000 });
    try {
      const [limits, reports] = learned(() => client.getLimits({}));
      const expected: ServiceLimits = { ...DEFAULT_LIMITS, maxBatchMessages: 4, maxTextChars: 500 };
      assert.deepEqual(await limits.get(), expected);
      assert.deepEqual(await limits.get(), expected);
      assert.equal(fake.limitsAsked, 1);
      assert.deepEqual(reports, { older: [], failures: [] });
    } finally {
      client.close();
      await fake.close();
    }
  });

  test("unreachable: the defaults, asked again only after the retry period, learned once it answers", async () => {
    let clock = 0;
    const down = createFactMemoryClient({ url: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 5_000 });
    const fake: FakeService = await startFakeService({
      getLimits: () => create(GetLimitsResponseSchema, { maxRecentMessages: 7 }),
    });
    const up = createFactMemoryClient({ url: fake.url, timeoutMs: 10_000 });
    let client = down;
    try {
      const [limits, reports] = learned(
        () => client.getLimits({}),
        () => clock,
      );
      assert.deepEqual(await limits.get(), DEFAULT_LIMITS);
      assert.equal(reports.failures.length, 1);
      clock += 999;
      assert.deepEqual(await limits.get(), DEFAULT_LIMITS);
      assert.equal(reports.failures.length, 1, "not asked again within the retry period");
      clock += 1;
      assert.deepEqual(await limits.get(), DEFAULT_LIMITS);
      assert.equal(reports.failures.length, 2, "asked again after it");
      client = up; // the service is back
      clock += 1_000;
      assert.equal((await limits.get()).maxRecentMessages, 7);
      assert.equal(fake.limitsAsked, 1);
      assert.deepEqual(reports.older, []);
    } finally {
      down.close();
      up.close();
      await fake.close();
    }
  });
});

const LIMITED = {
  FACTMEMORY_MAX_BATCH_MESSAGES: "2",
  FACTMEMORY_MAX_RECENT_MESSAGES: "3",
  FACTMEMORY_MAX_TEXT_CHARS: "300",
};
const NOTHING_NEW = {
  facts: { ops: [] },
  relationships: [],
  identities: [],
  success: { completed: true, reason: "ok" },
};

interface Env {
  agent: SqlAgent;
  userId: UUID;
  /** Between the plugin and the service, recording the plugin's requests. */
  proxy: FakeService;
  /** The test's own client, straight to the service. */
  client: FactMemoryClient;
}

describe("with the real service configured below its default limits", () => {
  const ready = startOnce(async (cleanups: Cleanups): Promise<Env> => {
    const userId = uuid();
    const real = await startRealService({
      script: {
        replies: [
          {
            match: "the tenor sax",
            content: {
              ...NOTHING_NEW,
              facts: {
                ops: [
                  {
                    op: "add_durable",
                    claim: "plays the tenor sax",
                    category: "preference",
                    structured_fields: [],
                    verification_status: null,
                    message: "M1",
                  },
                ],
              },
            },
          },
        ],
        default: NOTHING_NEW,
      },
      env: LIMITED,
    });
    cleanups.push(() => real.stop());
    const client = createFactMemoryClient({ url: real.url, timeoutMs: 60_000 });
    cleanups.push(() => client.close());
    const proxy = await startRecordingProxy(client);
    cleanups.push(() => proxy.close());
    // Batches of 16 asked for: the service takes 2.
    const agent = await startSqlAgent(
      {
        FACT_MEMORY_URL: proxy.url,
        FACT_MEMORY_EVALUATE_EVERY: "16",
        FACT_MEMORY_EVALUATE_QUIET_MS: "600000",
        FACT_MEMORY_TIMEOUT_MS: "30000",
      },
      [{ id: userId, name: "Dana" }],
    );
    cleanups.push(() => agent.stop());
    cleanups.push(() => closeContext(agent.runtime));
    return { agent, userId, proxy, client };
  });

  test("the plugin learns the configured limits from the service", async () => {
    const { agent } = await ready();
    assert.deepEqual(await contextFor(agent.runtime).limits.get(), {
      ...DEFAULT_LIMITS,
      maxBatchMessages: 2,
      maxRecentMessages: 3,
      maxTextChars: 300,
    });
  });

  test("a batch goes out at the service's largest batch, not the 16 asked for, and the service applies it", async () => {
    const { agent, userId, proxy, client } = await ready();
    for (const text of ["I play the tenor sax in a big band", "we rehearse on Tuesdays"]) {
      const message = await agent.say(userId, text);
      await agent.runtime.evaluate(message, emptyState(), false, async () => [], []);
    }
    assert.equal(proxy.evaluateBatchRequests.length, 1);
    const batch = proxy.evaluateBatchRequests[0]!;
    assert.equal(batch.messages.length, 2);
    assert.ok(batch.recentMessages.length <= 3 && batch.agentResponses.length <= 3);
    const { facts } = await client.listFacts({ agentId: agent.runtime.agentId, entityId: userId });
    assert.deepEqual(
      facts.map((fact) => fact.claim),
      ["plays the tenor sax"],
    );
  });

  test("Provide: the room cut to the service's message count and text length; the service answers it", async () => {
    const { agent, userId, proxy } = await ready();
    await agent.say(userId, "a long story: " + "la ".repeat(400));
    await agent.say(userId, "and then some");
    const message = await agent.say(userId, "what do you remember about my music?");
    const before = proxy.provideRequests.length;
    const state = await agent.runtime.composeState(message);
    const request = proxy.provideRequests.at(-1)!;
    assert.equal(proxy.provideRequests.length, before + 1);
    assert.equal(request.recentMessages.length, 3, "the room holds 5 messages; the service takes 3");
    assert.equal(request.recentMessages.at(-1)!.id, message.id, "the current message is kept");
    assert.ok(request.recentMessages.every((m) => m.text.length <= 300));
    assert.equal(request.recentMessages[0]!.text.length, 300, "the long one is cut, not refused");
    assert.match(String(state.values["factMemory"]), /plays the tenor sax/);
  });
});
