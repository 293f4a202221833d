/**
 * The plugin as an elizaOS citizen, in a real AgentRuntime against an in-process gRPC service that records what
 * it receives: the agent's own model (FACT_MEMORY_MODEL), deletions (ForgetMessages), the character's name
 * (RegisterAgent). plugin-bootstrap's memory superseded: eliza.test.ts, where runtimes initialize on plugin-sql.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";

import { create, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { AgentRuntime, Memory } from "@elizaos/core";

import {
  CompleteEvaluationResponseSchema,
  EvaluateResponseSchema,
  ForgetMessagesRequestSchema,
  ForgetMessagesResponseSchema,
  OpType,
  PrepareEvaluationResponseSchema,
  type PrepareEvaluationRequest,
} from "../src/gen/factmemory/v1/factmemory_pb.js";
import { closeContext, ForgetQueue, forgetKey, pendingKey, registerAgentName } from "../src/index.js";
import { type FakeService, startFakeService } from "./support/fake-service.js";
import { uuid } from "./support/ids.js";
import { emptyState, startAgent, type TestAgent } from "./support/runtime.js";

const REPLY = '{"facts":{"ops":[]}}';

describe("the plugin as an elizaOS citizen", () => {
  let service: FakeService;
  const agents: TestAgent[] = [];
  /** What the next CompleteEvaluation calls answer, in turn (an error is thrown); then a result per message. */
  let completeFaults: ConnectError[] = [];
  let evaluateFault: ConnectError | undefined;
  let forgetFaults: ConnectError[] = [];
  let registerFaults: ConnectError[] = [];

  before(async () => {
    service = await startFakeService({
      evaluate: () => {
        if (evaluateFault) throw evaluateFault;
        return create(EvaluateResponseSchema, {});
      },
      prepareEvaluation: (request) =>
        create(PrepareEvaluationResponseSchema, {
          ticket: `ticket-${service.prepareRequests.length}`,
          prompt: [
            { role: "system", content: "You extract facts." },
            { role: "user", content: `<current_message>${firstText(request)}</current_message>` },
          ],
          jsonSchema: '{"type":"object","properties":{"facts":{"type":"object"}}}',
          schemaName: "evaluation",
        }),
      completeEvaluation: (request) => {
        const fault = completeFaults.shift();
        if (fault) throw fault;
        const prepared = service.prepareRequests.at(-1)!;
        const count = prepared.request.case === "batch" ? prepared.request.value.messages.length : 1;
        return create(CompleteEvaluationResponseSchema, {
          results: Array.from({ length: count }, () => ({
            ops: [{ op: OpType.ADD_DURABLE, claim: `from ${request.reply}`, factId: "f1" }],
          })),
        });
      },
      forgetMessages: () => {
        const fault = forgetFaults.shift();
        if (fault) throw fault;
        return create(ForgetMessagesResponseSchema, { messagesForgotten: 1 });
      },
      registerAgent: () => {
        const fault = registerFaults.shift();
        if (fault) throw fault;
      },
    });
  });

  beforeEach(() => {
    completeFaults = [];
    evaluateFault = undefined;
    forgetFaults = [];
    registerFaults = [];
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

  /** Registers a model handler that records its calls and answers REPLY (as text, or parsed for OBJECT_*). */
  function model(runtime: AgentRuntime, type: "TEXT_SMALL" | "OBJECT_SMALL"): Array<Record<string, unknown>> {
    const calls: Array<Record<string, unknown>> = [];
    runtime.registerModel(
      type,
      async (_runtime, params) => {
        calls.push(params);
        return type === "OBJECT_SMALL" ? JSON.parse(REPLY) : REPLY;
      },
      "test",
    );
    return calls;
  }

  async function turn(agent: TestAgent, text: string): Promise<Memory> {
    const message = agent.say(text);
    await agent.runtime.evaluate(message, emptyState(), false, async () => [], []);
    return message;
  }

  function counts() {
    return {
      evaluate: service.evaluateRequests.length,
      prepare: service.prepareRequests.length,
      complete: service.completeRequests.length,
    };
  }

  function delta(before: ReturnType<typeof counts>) {
    const now = counts();
    return {
      evaluate: now.evaluate - before.evaluate,
      prepare: now.prepare - before.prepare,
      complete: now.complete - before.complete,
    };
  }

  test("agent mode: one PrepareEvaluation, ONE TEXT_SMALL call at temperature 0, one CompleteEvaluation", async () => {
    const dana = await agent({ FACT_MEMORY_MODEL: "agent" });
    const calls = model(dana.runtime, "TEXT_SMALL");
    const start = counts();
    const message = dana.say("I moved to Berlin");
    const ran = await dana.runtime.evaluate(message, emptyState(), false, async () => [], []);
    assert.deepEqual(delta(start), { evaluate: 0, prepare: 1, complete: 1 });
    const prepared = service.prepareRequests.at(-1)!;
    assert.equal(prepared.request.case, "single");
    assert.equal(prepared.request.value?.message?.id, message.id);
    assert.equal(calls.length, 1, "one model call");
    assert.equal(calls[0]!["temperature"], 0);
    assert.equal(
      calls[0]!["prompt"],
      "You extract facts.\n\n<current_message>I moved to Berlin</current_message>\n\n" +
        'Answer with the JSON object only. Its JSON schema:\n{"type":"object","properties":{"facts":{"type":"object"}}}',
    );
    const completed = service.completeRequests.at(-1)!;
    assert.deepEqual(
      [completed.agentId, completed.entityId, completed.ticket, completed.reply],
      [dana.runtime.agentId, dana.userId, `ticket-${service.prepareRequests.length}`, REPLY],
    );
    const facts = ran?.find((e) => e.name === "FACT_MEMORY_FACTS");
    assert.ok(facts);
    assert.equal(service.evaluateRequests.length, start.evaluate);
  });

  test("agent mode: OBJECT_SMALL is preferred where a model plugin provides it; its object goes back as JSON", async () => {
    const dana = await agent({ FACT_MEMORY_MODEL: "agent" });
    const text = model(dana.runtime, "TEXT_SMALL");
    const objects = model(dana.runtime, "OBJECT_SMALL");
    await turn(dana, "I like tea");
    assert.equal(text.length, 0);
    assert.equal(objects.length, 1);
    assert.deepEqual(objects[0]!["schema"], { type: "object", properties: { facts: { type: "object" } } });
    assert.equal(objects[0]!["temperature"], 0);
    assert.equal(service.completeRequests.at(-1)!.reply, REPLY);
  });

  test("agent mode: ABORTED (another write landed) is prepared again without a second model call", async () => {
    const dana = await agent({ FACT_MEMORY_MODEL: "agent" });
    const calls = model(dana.runtime, "TEXT_SMALL");
    completeFaults = [new ConnectError("another write landed", Code.Aborted)];
    let start = counts();
    await turn(dana, "I have a dog");
    // One model call; the ticket prepared again still needs one, so the service's model takes the turn.
    assert.deepEqual(delta(start), { evaluate: 1, prepare: 2, complete: 1 });
    assert.equal(calls.length, 1);

    completeFaults = [new ConnectError("busy", Code.Aborted)];
    evaluateFault = new ConnectError("no LLM is configured", Code.FailedPrecondition);
    start = counts();
    const message = dana.say("I have a cat");
    await dana.runtime.evaluate(message, emptyState(), false, async () => [], []);
    // No model on the service either: dropped with one warning, still one agent model call in the turn.
    assert.deepEqual(delta(start), { evaluate: 1, prepare: 2, complete: 1 });
    assert.equal(calls.length, 2);
  });

  test("auto: the service's model until it says it has none, then the agent's for good", async () => {
    const dana = await agent({ FACT_MEMORY_MODEL: "auto" });
    const calls = model(dana.runtime, "TEXT_SMALL");
    let start = counts();
    await turn(dana, "first");
    assert.deepEqual(delta(start), { evaluate: 1, prepare: 0, complete: 0 });
    assert.equal(calls.length, 0);

    evaluateFault = new ConnectError("no LLM is configured: set OPENAI_API_KEY", Code.FailedPrecondition);
    start = counts();
    await turn(dana, "second");
    assert.deepEqual(delta(start), { evaluate: 1, prepare: 1, complete: 1 });
    start = counts();
    await turn(dana, "third");
    assert.deepEqual(delta(start), { evaluate: 0, prepare: 1, complete: 1 }, "the decision is remembered");
    assert.equal(calls.length, 2);
  });

  test("service mode never falls back to the agent's model", async () => {
    const dana = await agent({ FACT_MEMORY_MODEL: "service" });
    const calls = model(dana.runtime, "TEXT_SMALL");
    evaluateFault = new ConnectError("no LLM is configured", Code.FailedPrecondition);
    const start = counts();
    await turn(dana, "hello");
    assert.deepEqual(delta(start), { evaluate: 1, prepare: 0, complete: 0 });
    assert.equal(calls.length, 0);
  });

  test("agent mode with batches: two messages, ONE PrepareEvaluation of the batch, ONE model call", async () => {
    const dana = await agent({
      FACT_MEMORY_MODEL: "agent",
      FACT_MEMORY_EVALUATE_EVERY: "2",
      FACT_MEMORY_EVALUATE_QUIET_MS: "600000",
    });
    const calls = model(dana.runtime, "TEXT_SMALL");
    const start = counts();
    const first = await turn(dana, "I play chess");
    assert.deepEqual(delta(start), { evaluate: 0, prepare: 0, complete: 0 }, "the first waits");
    const second = await turn(dana, "and the piano");
    assert.deepEqual(delta(start), { evaluate: 0, prepare: 1, complete: 1 });
    assert.equal(calls.length, 1);
    const prepared = service.prepareRequests.at(-1)!;
    assert.equal(prepared.request.case, "batch");
    assert.deepEqual(
      prepared.request.value?.messages.map((m) => m.id),
      [first.id, second.id],
    );
    assert.equal(service.evaluateBatchRequests.length, 0);
  });

  test("MESSAGE_DELETED: exactly one ForgetMessages for the person's message; the agent's own is not sent", async () => {
    const dana = await agent();
    const before = service.forgetRequests.length;
    const message = dana.say("my number is 555");
    await dana.runtime.emitEvent("MESSAGE_DELETED", { runtime: dana.runtime, source: "test", message });
    assert.equal(service.forgetRequests.length - before, 1);
    const sent = service.forgetRequests.at(-1)!;
    assert.deepEqual(
      [sent.agentId, sent.entityId, sent.messageIds, sent.roomId],
      [dana.runtime.agentId, dana.userId, [message.id], ""],
    );
    await dana.runtime.emitEvent("MESSAGE_DELETED", {
      runtime: dana.runtime,
      source: "test",
      message: dana.reply("noted"),
    });
    assert.equal(service.forgetRequests.length - before, 1, "the agent's own message holds no facts");
    assert.deepEqual(await dana.runtime.getCache(forgetKey(dana.runtime.agentId)), {
      version: 1,
      requests: [],
    });
  });

  test("CHANNEL_CLEARED: one ForgetMessages for the room, every person", async () => {
    const dana = await agent();
    const before = service.forgetRequests.length;
    await dana.runtime.emitEvent("CHANNEL_CLEARED", {
      runtime: dana.runtime,
      source: "test",
      roomId: dana.roomId,
      channelId: "general",
      memoryCount: 3,
    });
    assert.equal(service.forgetRequests.length - before, 1);
    const sent = service.forgetRequests.at(-1)!;
    assert.deepEqual(
      [sent.agentId, sent.entityId, sent.messageIds, sent.roomId],
      [dana.runtime.agentId, "", [], dana.roomId],
    );
  });

  test("a deleted message still waiting for its batch is never sent", async () => {
    const dana = await agent({ FACT_MEMORY_EVALUATE_EVERY: "3", FACT_MEMORY_EVALUATE_QUIET_MS: "600000" });
    const kept = await turn(dana, "I run marathons");
    const deleted = await turn(dana, "my password is hunter2");
    const key = pendingKey(dana.runtime.agentId);
    type Stored = { requests: Array<{ message: { id: string } }> };
    assert.equal((await dana.runtime.getCache<Stored>(key))?.requests.length, 2);
    await dana.runtime.emitEvent("MESSAGE_DELETED", {
      runtime: dana.runtime,
      source: "test",
      message: deleted,
    });
    assert.deepEqual(
      (await dana.runtime.getCache<Stored>(key))?.requests.map((r) => r.message.id),
      [kept.id],
    );
  });

  test("ForgetQueue: kept through an outage (bounded retries), sent by the next start, once", async () => {
    let stored: JsonValue | undefined;
    const store = {
      load: async () => stored,
      save: async (value: JsonValue) => {
        stored = value;
      },
    };
    const errors: string[] = [];
    const waits: number[] = [];
    const queue = (send: () => Promise<never> | Promise<ReturnType<typeof okResponse>>, sent: number[]) =>
      new ForgetQueue({
        delaysMs: [10, 20],
        wait: async (ms) => {
          waits.push(ms);
        },
        store,
        send: async () => {
          sent.push(1);
          return send();
        },
        onError: (what) => errors.push(what),
      });
    const okResponse = () => create(ForgetMessagesResponseSchema, { messagesForgotten: 1 });
    const request = { agentId: uuid(), entityId: uuid(), messageIds: [uuid()], roomId: "" };
    const down: number[] = [];
    const first = queue(() => Promise.reject(new ConnectError("down", Code.Unavailable)), down);
    assert.equal(await first.forget(create(ForgetMessagesRequestSchema, request)), undefined);
    assert.equal(down.length, 3, "one try and two retries");
    assert.deepEqual(waits, [10, 20]);
    assert.deepEqual(errors, ["ForgetMessages"]);
    assert.equal(first.waiting, 1);
    // The next start finds it in the store and sends it; the one after finds nothing.
    const up: number[] = [];
    await queue(async () => okResponse(), up).restore();
    assert.equal(up.length, 1);
    const again: number[] = [];
    await queue(async () => okResponse(), again).restore();
    assert.equal(again.length, 0);
    // A caller's mistake is not retried.
    const refused: number[] = [];
    await queue(() => Promise.reject(new ConnectError("bad id", Code.InvalidArgument)), refused).forget(
      create(ForgetMessagesRequestSchema, request),
    );
    assert.equal(refused.length, 1);
  });

  test("RegisterAgent: the character's name once the runtime is up, retried while the service is down", async () => {
    const dana = await agent();
    registerFaults = [new ConnectError("down", Code.Unavailable)];
    const before = service.registerRequests.length;
    (dana.runtime as unknown as { initPromise: Promise<void> }).initPromise = Promise.resolve();
    const waits: number[] = [];
    const registered = await registerAgentName(dana.runtime, [5, 5], async (ms) => {
      waits.push(ms);
    });
    assert.equal(registered, true);
    assert.deepEqual(
      service.registerRequests.slice(before).map((r) => [r.agentId, r.name]),
      [
        [dana.runtime.agentId, "Ava"],
        [dana.runtime.agentId, "Ava"],
      ],
    );
    assert.deepEqual(waits, [5]);
    registerFaults = [1, 2, 3].map(() => new ConnectError("down", Code.Unavailable));
    assert.equal(await registerAgentName(dana.runtime, [5, 5], async () => undefined), false, "bounded");
    assert.ok(dana.warnings.some((w) => /registering the agent's name failed/.test(w)));
  });
});

function firstText(request: PrepareEvaluationRequest): string {
  if (request.request.case === "single") return request.request.value.message?.text ?? "";
  if (request.request.case === "batch") return request.request.value.messages.map((m) => m.text).join(" | ");
  return "";
}
