/**
 * Against the REAL Python service (.venv/bin/factmemory serve) and the scripted LLM
 * (tests/support/llm_stub.py), both started on free ports by support/real-service.ts. If either cannot start,
 * these tests FAIL: run ./dev test (or set up .venv) at the repo root first.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Code, ConnectError } from "@connectrpc/connect";
import type { UUID } from "@elizaos/core";

import { create, type JsonValue } from "@bufbuild/protobuf";

import {
  Batcher,
  closeContext,
  createFactMemoryClient,
  type FactMemoryClient,
  type EvaluateBatchRequest,
  EvaluateRequestSchema,
  HistoryAction,
  Item,
  Kind,
  OpType,
  pendingKey,
  VerificationStatus,
} from "../src/index.js";
import { DEFAULT_LIMITS, fromResponse } from "../src/limits.js";
import { type FakeService, startRecordingProxy } from "./support/fake-service.js";
import { uuid } from "./support/ids.js";
import type { Started } from "./support/processes.js";
import { startRealService } from "./support/real-service.js";
import { type Cleanups, startOnce } from "./support/setup.js";
import { emptyState } from "./support/runtime.js";
import { type SqlAgent, startSqlAgent } from "./support/sql-runtime.js";
import { hangingListener } from "./support/net.js";

const TOKEN = "integration-token";
const FRIEND = uuid();
const BERLIN = "I moved to Berlin last year and I'm anxious this morning";
const MISSHAPEN = "my words come back misshapen";
const NOTHING_NEW = {
  facts: { ops: [] },
  relationships: [],
  identities: [],
  success: { completed: true, reason: "ok" },
};

function script(userId: string) {
  return {
    replies: [
      {
        match: "moved to Berlin",
        content: {
          facts: {
            ops: [
              {
                op: "add_durable",
                claim: "lives in Berlin",
                category: "identity",
                structured_fields: [],
                verification_status: null,
              },
              {
                op: "add_current",
                claim: "anxious this morning",
                category: "feeling",
                structured_fields: [],
                valid_at: null,
              },
            ],
          },
          relationships: [{ source_entity_id: userId, target_entity_id: FRIEND, tags: ["friend"] }],
          identities: [],
          success: { completed: true, reason: "answered" },
        },
      },
      { match: "Kim lives in Berlin", content: { facts: { ops: [addDurable("lives in Berlin")] } } },
      // Batches: the block holds every message of the batch, and each op names its message.
      {
        match: "cello in a quartet",
        content: {
          ...NOTHING_NEW,
          facts: {
            ops: [
              { ...addDurable("plays the cello in a quartet"), message: "M1" },
              {
                op: "add_current",
                claim: "tired after a long rehearsal",
                category: "physical_state",
                structured_fields: [],
                valid_at: null,
                message: "M3",
              },
            ],
          },
        },
      },
      {
        match: "the oboe on Sundays",
        content: { ...NOTHING_NEW, facts: { ops: [{ ...addDurable("plays the oboe"), message: "M1" }] } },
      },
      {
        match: "the violin at night",
        content: { ...NOTHING_NEW, facts: { ops: [{ ...addDurable("plays the violin"), message: "M1" }] } },
      },
      { match: "Kim resides in Berlin", content: { facts: { ops: [addDurable("resides in Berlin")] } } },
      // The model answers in the wrong shape (facts is a string): the service refuses it, nothing is applied.
      { match: MISSHAPEN, content: { facts: "lives in Berlin" } },
      // Only the marked pair is shown (D1, D2): whichever is which, they fold into one.
      {
        match: "Kim says hello",
        content: { facts: { ops: [{ op: "merge", fact: "D1", duplicate: "D2", reason: "same fact" }] } },
      },
    ],
    default: NOTHING_NEW,
  };
}

function addDurable(claim: string) {
  return { op: "add_durable", claim, category: "identity", structured_fields: [], verification_status: null };
}

interface Env {
  /** A full elizaOS runtime (plugin-sql on PGlite) with the plugin, talking to the service via `proxy`. */
  agent: SqlAgent;
  userId: UUID;
  /** The test's own client, straight to the service. */
  client: FactMemoryClient;
  /** The proxy between the plugin and the service, counting the plugin's calls. */
  proxy: FakeService;
  service: Started;
  serviceUrl: string;
  /** Every request the scripted model received so far. */
  llmRequests(): Promise<Array<Record<string, unknown>>>;
  /** What after() stops; a test's extra runtimes join it. */
  cleanups: Cleanups;
}

describe("with the real FactMemory service", () => {
  const ready = startOnce(start);

  async function start(cleanups: Cleanups): Promise<Env> {
    const userId = uuid();
    const real = await startRealService({ script: script(userId), token: TOKEN });
    cleanups.push(() => real.stop());
    const serviceUrl = real.url;
    const client = createFactMemoryClient({ url: serviceUrl, token: TOKEN, timeoutMs: 30_000 });
    cleanups.push(() => client.close());
    const upstream = createFactMemoryClient({ url: serviceUrl, timeoutMs: 60_000 });
    cleanups.push(() => upstream.close());
    const proxy = await startRecordingProxy(upstream);
    cleanups.push(() => proxy.close());
    const agent = await startSqlAgent({ FACT_MEMORY_URL: proxy.url, FACT_MEMORY_TOKEN: TOKEN }, [
      { id: userId, name: "Dana" },
      { id: FRIEND, name: "Sam" },
    ]);
    cleanups.push(() => agent.stop());
    cleanups.push(() => closeContext(agent.runtime));
    return {
      agent,
      userId,
      client,
      proxy,
      service: real.service,
      serviceUrl,
      llmRequests: real.llmRequests,
      cleanups,
    };
  }

  test("client factory: a unary call with the bearer token", async () => {
    const { client, agent } = await ready();
    const response = await client.listFacts({ agentId: agent.runtime.agentId, entityId: uuid() });
    assert.deepEqual(response.facts, []);
    assert.equal(response.nextPageToken, "");
  });

  test("the plugin's fallback limits (a service older than GetLimits) are the service's defaults", async () => {
    const { client } = await ready();
    assert.deepEqual(fromResponse(await client.getLimits({})), DEFAULT_LIMITS);
  });

  test("client factory: a call without the token is refused", async () => {
    const { serviceUrl, agent } = await ready();
    const anonymous = createFactMemoryClient({ url: serviceUrl, timeoutMs: 10_000 });
    try {
      await assert.rejects(
        anonymous.listFacts({ agentId: agent.runtime.agentId, entityId: uuid() }),
        (error: unknown) => ConnectError.from(error).code === Code.Unauthenticated,
      );
    } finally {
      anonymous.close();
    }
  });

  test("client factory: INVALID_ARGUMENT carries the server's message", async () => {
    const { client, userId } = await ready();
    await assert.rejects(
      client.evaluate({ agentId: "", entityId: userId, message: { id: uuid(), text: "hi" } }),
      (error: unknown) => {
        const err = ConnectError.from(error);
        assert.equal(err.code, Code.InvalidArgument);
        assert.match(err.rawMessage, /agent_id/);
        return true;
      },
    );
  });

  test("client factory: a deadline that expires", async () => {
    await ready();
    const hang = await hangingListener();
    const slow = createFactMemoryClient({ url: hang.url, timeoutMs: 200 });
    try {
      const started = Date.now();
      await assert.rejects(
        slow.listFacts({ agentId: uuid(), entityId: uuid() }),
        (error: unknown) => ConnectError.from(error).code === Code.DeadlineExceeded,
      );
      assert.ok(Date.now() - started < 5_000);
    } finally {
      slow.close();
      await hang.close();
    }
  });

  test("review RPCs: add by hand, history names the reviewer, agent-wide queue and entity list", async () => {
    const { serviceUrl } = await ready();
    const reviewer = createFactMemoryClient({
      url: serviceUrl,
      token: TOKEN,
      timeoutMs: 30_000,
      reviewer: "ts-ann",
    });
    try {
      const agentId = uuid();
      const entityId = uuid();
      const added = await reviewer.addFact({
        agentId,
        entityId,
        kind: Kind.DURABLE,
        category: "health",
        claim: "allergic to penicillin",
      });
      assert.equal(added.fact?.verificationStatus, VerificationStatus.CONFIRMED);
      const edited = await reviewer.updateFact({
        agentId,
        entityId,
        factId: added.fact?.id ?? "",
        claim: "allergic to amoxicillin",
      });
      assert.deepEqual(edited.fact?.previousClaims, ["allergic to penicillin"]);
      const shown = await reviewer.getFact({ agentId, entityId, factId: added.fact?.id ?? "" });
      assert.deepEqual(
        shown.history.map((h) => [h.action, h.actor]),
        [
          [HistoryAction.CREATED, "reviewer:ts-ann"],
          [HistoryAction.EDITED, "reviewer:ts-ann"],
        ],
      );
      const entities = await reviewer.listEntities({ agentId });
      assert.deepEqual(
        entities.entities.map((e) => [e.entityId, e.durableFacts]),
        [[entityId, 1]],
      );
      const queue = await reviewer.listCandidates({ agentId });
      assert.deepEqual(queue.candidates, []);
      await reviewer.deleteFact({ agentId, entityId, factId: added.fact?.id ?? "" });
      await assert.rejects(
        reviewer.deleteFact({ agentId, entityId: uuid(), factId: added.fact?.id ?? "" }),
        (error: unknown) => ConnectError.from(error).code === Code.NotFound,
      );
    } finally {
      reviewer.close();
    }
  });

  test("runtime.evaluate stores facts with ONE Evaluate call and ONE LLM call for four evaluators", async () => {
    const { agent, userId, client, proxy, llmRequests } = await ready();
    await agent.say(userId, "hi, I'm Dana");
    const message = await agent.say(userId, BERLIN);
    const response = await agent.reply("Welcome to Berlin! Take a deep breath.");
    const llmBefore = (await llmRequests()).length;
    const evaluateBefore = proxy.evaluateRequests.length;

    const ran = await agent.runtime.evaluate(message, emptyState(), true, async () => [], [response]);

    assert.deepEqual(ran?.map((e) => e.name).sort(), [
      "FACT_MEMORY_FACTS",
      "FACT_MEMORY_IDENTITIES",
      "FACT_MEMORY_RELATIONSHIPS",
      "FACT_MEMORY_SUCCESS",
    ]);
    assert.equal(proxy.evaluateRequests.length - evaluateBefore, 1, "one Evaluate RPC");
    // What plugin-sql stored for the room, as the service received it.
    const sent = proxy.evaluateRequests.at(-1)!;
    assert.deepEqual(
      sent.recentMessages.map((m) => [m.name, m.text]),
      [
        ["Dana", "hi, I'm Dana"],
        ["Dana", BERLIN],
        ["Ava", "Welcome to Berlin! Take a deep breath."],
      ],
    );
    assert.deepEqual(
      sent.roomEntities
        .map((e) => e.names[0])
        .filter((name) => name !== "Ava")
        .sort(),
      ["Dana", "Sam"],
    );
    const calls = (await llmRequests()).slice(llmBefore);
    assert.equal(calls.length, 1, "one LLM call");
    // The one call asked for all four items.
    const asked = JSON.stringify(calls[0]);
    for (const item of ["facts", "relationships", "identities", "success"]) {
      assert.match(asked, new RegExp(`"${item}"`));
    }
    assert.ok(proxy.authorization.every((value) => value === `Bearer ${TOKEN}`));

    const { facts } = await client.listFacts({ agentId: agent.runtime.agentId, entityId: userId });
    assert.deepEqual(facts.map((f) => `${Kind[f.kind]} ${f.claim}`).sort(), [
      "CURRENT anxious this morning",
      "DURABLE lives in Berlin",
    ]);
    assert.ok(facts.every((f) => f.evidenceMessageIds.includes(message.id ?? "")));

    // The relationship the model saw is mirrored into the runtime for elizaOS's RELATIONSHIPS provider.
    const mirrored = await agent.runtime.getRelationships({ entityId: userId });
    assert.deepEqual(
      mirrored.map((r) => [r.targetEntityId, r.tags]),
      [[FRIEND, ["friend"]]],
    );
  });

  test("the next turn's composeState has both sections with the facts just learned", async () => {
    const { agent, userId } = await ready();
    const state = await agent.runtime.composeState(await agent.say(userId, "Any ideas for the weekend?"));
    const text = String(state.values["factMemory"]);
    assert.match(text, /What I know about Dana:/);
    assert.match(text, /lives in Berlin/);
    assert.match(text, /What's currently happening for Dana:/);
    assert.match(text, /anxious this morning/);
    assert.ok(state.text.includes(text), "the block is part of the prompt text");
  });

  test("the model's merge of a marked pair reaches the client as OP_TYPE_MERGE", async () => {
    const { agent, client } = await ready();
    const agentId = agent.runtime.agentId;
    const entityId = uuid();
    const evaluate = (text: string) =>
      client.evaluate({
        agentId,
        entityId,
        message: { id: uuid(), entityId, name: "Kim", text },
        items: [Item.FACTS],
      });
    await evaluate("Kim lives in Berlin");
    await evaluate("Kim resides in Berlin");
    const { ops } = await evaluate("Kim says hello");
    assert.equal(ops.length, 1);
    const [merge] = ops;
    assert.equal(merge!.op, OpType.MERGE);
    assert.equal(merge!.rejected, false, merge!.reason);
    assert.deepEqual([merge!.handle, merge!.duplicateHandle], ["D1", "D2"]);
    const { facts } = await client.listFacts({ agentId, entityId });
    assert.equal(facts.length, 1);
    assert.notEqual(facts[0]!.id, merge!.duplicateFactId);
    assert.deepEqual([facts[0]!.claim, ...facts[0]!.previousClaims].sort(), [
      "lives in Berlin",
      "resides in Berlin",
    ]);
  });

  /** A second runtime on the same service, evaluating in batches of `every`. */
  async function batchingAgent(env: Env, person: UUID, every: number): Promise<SqlAgent> {
    const batching = await startSqlAgent(
      {
        FACT_MEMORY_URL: env.proxy.url,
        FACT_MEMORY_TOKEN: TOKEN,
        FACT_MEMORY_EVALUATE_EVERY: String(every),
        FACT_MEMORY_EVALUATE_QUIET_MS: "600000",
      },
      [{ id: person, name: "Lee" }],
    );
    // plugin-sql shares one PGlite among the runtimes of a process: closing this one's adapter would close the
    // main agent's database too, so only the runtime is stopped (its services: the batch is sent).
    env.cleanups.push(() => closeContext(batching.runtime));
    env.cleanups.push(() => batching.runtime.stop());
    return batching;
  }

  async function claimsOf(env: Env, agentId: UUID, person: UUID): Promise<Map<string, string[]>> {
    const { facts } = await env.client.listFacts({ agentId, entityId: person });
    return new Map(facts.map((f) => [f.claim, [...f.evidenceMessageIds]]));
  }

  test("batched: three messages go as ONE EvaluateBatch and ONE LLM call, each fact with its message", async () => {
    const env = await ready();
    const lee = uuid();
    const batching = await batchingAgent(env, lee, 3);
    const batchesBefore = env.proxy.evaluateBatchRequests.length;
    const llmBefore = (await env.llmRequests()).length;
    const texts = [
      "I play the cello in a quartet",
      "we have a concert soon",
      "long rehearsal today, so tired",
    ];
    const messages = [];
    for (const text of texts) {
      const message = await batching.say(lee, text);
      messages.push(message);
      await batching.runtime.evaluate(message, emptyState(), false, async () => [], []);
    }
    // The first two wait (in the runtime's cache); the third sends all three.
    const key = pendingKey(batching.runtime.agentId);
    assert.equal(env.proxy.evaluateBatchRequests.length - batchesBefore, 1, "one EvaluateBatch");
    assert.equal(
      env.proxy.evaluateRequests.filter((r) => r.entityId === lee).length,
      0,
      "no single Evaluate",
    );
    assert.deepEqual(
      env.proxy.evaluateBatchRequests.at(-1)!.messages.map((m) => m.text),
      texts,
    );
    assert.equal((await env.llmRequests()).length - llmBefore, 1, "one LLM call for three messages");
    assert.deepEqual(
      (await batching.runtime.getCache<{ requests: unknown[] }>(key))?.requests,
      [],
      "nothing left waiting",
    );
    const claims = await claimsOf(env, batching.runtime.agentId, lee);
    assert.deepEqual(claims.get("plays the cello in a quartet"), [messages[0]!.id]);
    assert.deepEqual(claims.get("tired after a long rehearsal"), [messages[2]!.id]);
    assert.equal(claims.size, 2);
  });

  test("batched: what waits is saved in the runtime's cache and sent when the agent stops", async () => {
    const env = await ready();
    const lee = uuid();
    const batching = await batchingAgent(env, lee, 4);
    const message = await batching.say(lee, "I play the oboe on Sundays");
    await batching.runtime.evaluate(message, emptyState(), false, async () => [], []);
    const key = pendingKey(batching.runtime.agentId);
    const waiting = await batching.runtime.getCache<{ requests: Array<{ message: { id: string } }> }>(key);
    assert.deepEqual(
      waiting?.requests.map((r) => r.message.id),
      [message.id],
    );
    assert.equal((await claimsOf(env, batching.runtime.agentId, lee)).size, 0, "not evaluated yet");

    await batching.runtime.stop();

    const claims = await claimsOf(env, batching.runtime.agentId, lee);
    assert.deepEqual(claims.get("plays the oboe"), [message.id]);
  });

  test("batched: what a crashed process left waiting is sent by the next one, exactly once", async () => {
    const env = await ready();
    const agentId = uuid();
    const lee = uuid();
    let stored: JsonValue | undefined;
    const store = {
      load: async () => stored,
      save: async (value: JsonValue) => {
        stored = value;
      },
    };
    const options = (sent: EvaluateBatchRequest[]) => ({
      every: 4,
      quietMs: 0,
      store,
      send: (request: EvaluateBatchRequest) => {
        sent.push(request);
        return env.client.evaluateBatch(request);
      },
      onError: (what: string, error: unknown) => assert.fail(`${what}: ${String(error)}`),
    });
    const message = { id: uuid(), entityId: lee, name: "Lee", text: "I play the violin at night" };
    const request = create(EvaluateRequestSchema, { agentId, entityId: lee, message, items: [Item.FACTS] });
    const first: EvaluateBatchRequest[] = [];
    assert.deepEqual(await new Batcher(options(first)).add(request), { queued: true, waiting: 1 });
    assert.equal(first.length, 0);
    // The process dies here; the next one takes up the queue from the store.
    const second: EvaluateBatchRequest[] = [];
    await new Batcher(options(second)).restore();
    assert.equal(second.length, 1);
    assert.deepEqual((await claimsOf(env, agentId as UUID, lee)).get("plays the violin"), [message.id]);
    // A third start (the store was emptied) sends nothing; a replay would not add twice anyway.
    const third: EvaluateBatchRequest[] = [];
    await new Batcher(options(third)).restore();
    assert.equal(third.length, 0);
    const again = await env.client.evaluateBatch(second[0]!);
    assert.ok(again.results.every((r) => r.replayed));
    assert.equal((await claimsOf(env, agentId as UUID, lee)).size, 1);
  });

  test("a model reply of the wrong shape: FAILED_PRECONDITION, ONE model call, the batch not sent again", async () => {
    const env = await ready();
    const lee = uuid();
    const errors: unknown[] = [];
    const sent: EvaluateBatchRequest[] = [];
    const batcher = new Batcher({
      every: 1,
      quietMs: 20, // a transient failure would be sent again after 20 ms
      store: { load: async () => undefined, save: async () => undefined },
      send: (request) => {
        sent.push(request);
        return env.client.evaluateBatch(request);
      },
      onError: (_what, error) => errors.push(error),
    });
    const before = (await env.llmRequests()).length;
    const message = { id: uuid(), entityId: lee, name: "Lee", text: MISSHAPEN };
    const request = create(EvaluateRequestSchema, {
      agentId: uuid(),
      entityId: lee,
      message,
      items: [Item.FACTS],
    });
    await assert.rejects(
      batcher.add(request),
      (error: unknown) => ConnectError.from(error).code === Code.FailedPrecondition,
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // many quiet periods
    batcher.close();
    assert.equal(sent.length, 1, "sent once");
    assert.equal(batcher.waiting, 0, "the batch left the queue");
    assert.equal((await env.llmRequests()).length - before, 1, "one model call");
    assert.deepEqual(errors, []);
  });

  test("with the service stopped, evaluate and composeState still return, without facts", async () => {
    const { agent, userId, service } = await ready();
    await service.stop();
    const message = await agent.say(userId, "I also have a cat called Miso");
    const state = await agent.runtime.composeState(message);
    assert.equal(state.values["factMemory"], "");
    assert.doesNotMatch(state.text, /What I know about/);
    const ran = await agent.runtime.evaluate(message, state, true, async () => [], [
      await agent.reply("Cute!"),
    ]);
    assert.equal(ran?.length, 4);
  });
});
