/**
 * The plugin inside a real AgentRuntime (@elizaos/core), against an in-process gRPC service that records
 * what it receives: the join, the request contents, the provider in composeState, relationship mirroring,
 * and a service that is down or slow.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { AgentRuntime } from "@elizaos/core";

import {
  EvaluateResponseSchema,
  Item,
  ProvideResponseSchema,
} from "../src/gen/factmemory/v1/factmemory_pb.js";
import {
  closeContext,
  factMemoryEvaluator,
  factMemoryPlugin,
  PROVIDER_NAME,
  successEvaluator,
} from "../src/index.js";
import { type FakeService, startFakeService } from "./support/fake-service.js";
import { uuid } from "./support/ids.js";
import { closedPort, hangingListener } from "./support/net.js";
import { emptyState, startAgent, type TestAgent } from "./support/runtime.js";

const FRIEND = uuid();

describe("plugin in an AgentRuntime", () => {
  let service: FakeService;
  const agents: TestAgent[] = [];

  before(async () => {
    service = await startFakeService({
      evaluate: (request) =>
        create(EvaluateResponseSchema, {
          relationships: request.items.includes(Item.RELATIONSHIPS)
            ? [
                {
                  sourceEntityId: request.entityId,
                  targetEntityId: FRIEND,
                  tags: ["family"],
                  interactionCount: 2,
                },
              ]
            : [],
          success: { completed: true, reason: "answered" },
        }),
      provide: (request) =>
        create(ProvideResponseSchema, {
          text: `What I know about ${request.subjectName}:\n- lives in Berlin`,
          durable: [{ fact: { id: "f1", claim: "lives in Berlin" }, score: 1 }],
        }),
    });
  });

  after(async () => {
    for (const agent of agents) closeContext(agent.runtime);
    await service.close();
  });

  async function agent(settings: Record<string, string> = {}): Promise<TestAgent> {
    const created = await startAgent({ FACT_MEMORY_URL: service.url, ...settings });
    agents.push(created);
    return created;
  }

  test("registers four evaluators and the non-dynamic FACT_MEMORY provider", async () => {
    const { runtime } = await agent();
    assert.deepEqual(
      runtime.evaluators.map((e) => [e.name, e.alwaysRun]),
      [
        ["FACT_MEMORY_FACTS", true],
        ["FACT_MEMORY_RELATIONSHIPS", true],
        ["FACT_MEMORY_IDENTITIES", true],
        ["FACT_MEMORY_SUCCESS", false],
      ],
    );
    const provider = runtime.providers.find((p) => p.name === PROVIDER_NAME);
    assert.ok(provider);
    assert.equal(provider.dynamic, false);
    assert.equal(factMemoryPlugin.evaluators?.length, 4);
  });

  test("a responded turn sends ONE Evaluate with all four items and the room's context", async () => {
    const a = await agent({ FACT_MEMORY_TOKEN: "s3cret" });
    const first = a.say("hi there");
    a.reply("hello Dana");
    const message = a.say("I moved to Berlin last year");
    const response = a.reply("Welcome to Berlin!");
    const before = service.evaluateRequests.length;
    const authBefore = service.authorization.length;

    const ran = await a.runtime.evaluate(message, emptyState(), true, async () => [], [response]);

    assert.equal(ran?.length, 4);
    const requests = service.evaluateRequests.slice(before);
    assert.equal(requests.length, 1, "one Evaluate RPC for four evaluators");
    const request = requests[0]!;
    assert.deepEqual(request.items, [Item.FACTS, Item.RELATIONSHIPS, Item.IDENTITIES, Item.SUCCESS]);
    assert.equal(request.didRespond, true);
    assert.equal(request.agentId, a.runtime.agentId);
    assert.equal(request.entityId, a.userId);
    assert.equal(request.roomId, a.roomId);
    assert.equal(request.message?.id, message.id);
    assert.equal(request.message?.name, "Dana");
    assert.equal(Number(request.message?.createdAt?.seconds), Math.floor(message.createdAt! / 1000));
    assert.deepEqual(
      request.recentMessages.map((m) => m.text),
      ["hi there", "hello Dana", "I moved to Berlin last year", "Welcome to Berlin!"],
    );
    assert.equal(request.recentMessages[0]?.id, first.id);
    assert.deepEqual(request.roomEntities.map((e) => e.names[0]).sort(), ["Ava", "Dana"]);
    assert.deepEqual(
      request.agentResponses.map((m) => m.text),
      ["Welcome to Berlin!"],
    );
    assert.ok(
      service.authorization.slice(authBefore).every((value) => value === "Bearer s3cret"),
      "every call carries the bearer token",
    );
  });

  test("a turn without an answer sends ONE Evaluate with the three alwaysRun items", async () => {
    const a = await agent();
    const message = a.say("Sam is my sister");
    const before = service.evaluateRequests.length;

    await a.runtime.evaluate(message, emptyState(), false);

    const requests = service.evaluateRequests.slice(before);
    assert.equal(requests.length, 1);
    assert.deepEqual(requests[0]!.items, [Item.FACTS, Item.RELATIONSHIPS, Item.IDENTITIES]);
    assert.equal(requests[0]!.didRespond, false);
  });

  test("the agent's own messages are not evaluated", async () => {
    const a = await agent();
    const before = service.evaluateRequests.length;
    const ran = await a.runtime.evaluate(a.reply("I am Ava"), emptyState(), true);
    assert.deepEqual(ran, []);
    assert.equal(service.evaluateRequests.length, before);
  });

  test("relationships from the service are mirrored into the runtime", async () => {
    const a = await agent();
    await a.runtime.evaluate(a.say("Sam is my sister"), emptyState(), false);
    let stored = await a.runtime.getRelationships({ entityId: a.userId });
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.targetEntityId, FRIEND);
    assert.deepEqual(stored[0]!.tags, ["family"]);
    assert.equal(stored[0]!.metadata["interactions"], 2);

    // A second turn updates the same relationship instead of adding one, keeping others' tags.
    stored[0]!.tags.push("neighbour");
    await a.runtime.evaluate(a.say("Sam and I went hiking"), emptyState(), false);
    stored = await a.runtime.getRelationships({ entityId: a.userId });
    assert.equal(stored.length, 1);
    assert.deepEqual(stored[0]!.tags, ["family", "neighbour"]);
  });

  test("composeState includes the facts block, its values and its data", async () => {
    const a = await agent();
    const state = await a.runtime.composeState(a.say("How is the weather?"));
    assert.match(state.text, /What I know about Dana:\n- lives in Berlin/);
    assert.equal(state.values["factMemory"], "What I know about Dana:\n- lives in Berlin");
    const providers = state.data.providers as Record<string, { data?: { durable?: unknown[] } }>;
    assert.deepEqual(providers[PROVIDER_NAME]?.data?.durable, [
      { fact: { id: "f1", claim: "lives in Berlin" }, score: 1 },
    ]);
    const request = service.provideRequests.at(-1)!;
    assert.equal(request.subjectName, "Dana");
    assert.equal(request.recentMessages.at(-1)?.text, "How is the weather?");
  });
});

describe("plugin in an AgentRuntime without a database adapter", () => {
  test("the provider still answers from the current message alone", async () => {
    const service = await startFakeService({
      provide: (request) =>
        create(ProvideResponseSchema, { text: `${request.recentMessages.length} message(s)` }),
    });
    const runtime = new AgentRuntime({
      character: { name: "Ava", bio: [], settings: { FACT_MEMORY_URL: service.url } },
    });
    try {
      await runtime.registerPlugin(factMemoryPlugin);
      const message = {
        id: uuid(),
        entityId: uuid(),
        roomId: uuid(),
        content: { text: "hi" },
        createdAt: Date.now(),
      };
      const state = await runtime.composeState(message);
      assert.equal(state.values["factMemory"], "1 message(s)");
      assert.equal(service.provideRequests[0]?.recentMessages[0]?.text, "hi");
    } finally {
      closeContext(runtime);
      await service.close();
    }
  });
});

describe("evaluator results", () => {
  test("a handler reports its slice of the response, and a server error as { success: false, error }", async () => {
    let fail = false;
    const service = await startFakeService({
      evaluate: () => {
        if (fail) throw new ConnectError("message.text is empty", Code.InvalidArgument);
        return create(EvaluateResponseSchema, { success: { completed: true, reason: "answered" } });
      },
    });
    const a = await startAgent({ FACT_MEMORY_URL: service.url });
    try {
      // Called alone (not through runtime.evaluate): the join waits its grace period for the other
      // alwaysRun evaluators, then sends what it has.
      const ok = await successEvaluator.handler(a.runtime, a.say("thanks!"), emptyState(), {}, undefined, [
        a.reply("np"),
      ]);
      assert.deepEqual(ok, {
        success: true,
        text: "FactMemory: task completed",
        data: { success: { completed: true, reason: "answered" }, replayed: false },
      });
      assert.deepEqual(service.evaluateRequests.at(-1)?.items, [Item.SUCCESS]);

      fail = true;
      const failed = await factMemoryEvaluator.handler(a.runtime, a.say("hm"), emptyState());
      assert.deepEqual(failed, { success: false, error: "InvalidArgument: message.text is empty" });
      assert.deepEqual(a.warnings, ["FactMemory Evaluate failed"]);
    } finally {
      closeContext(a.runtime);
      await service.close();
    }
  });
});

describe("plugin with the service down or slow", () => {
  test("a closed port: evaluate and composeState return, without facts, and the outage is logged once", async () => {
    const port = await closedPort();
    const a = await startAgent({ FACT_MEMORY_URL: `http://127.0.0.1:${port}` });
    try {
      for (const text of ["I live in Berlin", "I have a cat", "I like tea"]) {
        const message = a.say(text);
        const state = await a.runtime.composeState(message);
        assert.equal(state.values["factMemory"], "");
        assert.doesNotMatch(state.text, /What I know/);
        const ran = await a.runtime.evaluate(message, state, true, async () => [], [a.reply("ok")]);
        assert.equal(ran?.length, 4, "the evaluators ran and returned instead of throwing");
      }
      assert.equal(a.warnings.length, 1, `one warning for the outage, got ${JSON.stringify(a.warnings)}`);
    } finally {
      closeContext(a.runtime);
    }
  });

  test("a service that never answers: composeState returns within the provider's deadline", async () => {
    const hang = await hangingListener();
    const a = await startAgent({ FACT_MEMORY_URL: hang.url, FACT_MEMORY_TIMEOUT_MS: "300" });
    try {
      const started = Date.now();
      const state = await a.runtime.composeState(a.say("hello?"));
      const elapsed = Date.now() - started;
      assert.equal(state.values["factMemory"], "");
      assert.ok(elapsed < 2_000, `composeState took ${elapsed} ms`);
    } finally {
      closeContext(a.runtime);
      await hang.close();
    }
  });
});
