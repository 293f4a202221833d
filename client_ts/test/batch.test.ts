/**
 * The Batcher (FACT_MEMORY_EVALUATE_EVERY > 1) over a real gRPC channel to an in-process service that records
 * what it receives: the quiet period, a failed send that keeps the messages, long queues in the batches the
 * service takes.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { create, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

import {
  Batcher,
  type BatcherOptions,
  createFactMemoryClient,
  DEFAULT_LIMITS,
  EvaluateBatchResponseSchema,
  type EvaluateRequest,
  EvaluateRequestSchema,
  EvaluateResponseSchema,
  type FactMemoryClient,
  Item,
  type ServiceLimits,
} from "../src/index.js";
import { type FakeService, startFakeService } from "./support/fake-service.js";
import { uuid } from "./support/ids.js";

describe("Batcher", () => {
  let service: FakeService;
  let client: FactMemoryClient;
  let failures = 0;

  before(async () => {
    service = await startFakeService({
      evaluateBatch: (request) => {
        if (failures > 0) {
          failures -= 1;
          throw new ConnectError("scripted outage", Code.Unavailable);
        }
        return create(EvaluateBatchResponseSchema, {
          results: request.messages.map(() => create(EvaluateResponseSchema, {})),
          usage: { llmCalls: 1 },
        });
      },
    });
    client = createFactMemoryClient({ url: service.url, timeoutMs: 5_000 });
  });

  after(async () => {
    client.close();
    await service.close();
  });

  function batcher(
    every: number,
    quietMs: number,
    errors: string[] = [],
    limits?: ServiceLimits,
  ): { batcher: Batcher; saved: JsonValue[] } {
    const saved: JsonValue[] = [];
    const options: BatcherOptions = {
      every,
      quietMs,
      ...(limits ? { limits: async () => limits } : {}),
      send: (request) => client.evaluateBatch(request),
      store: {
        load: async () => saved.at(-1),
        save: async (value) => {
          saved.push(value);
        },
      },
      onError: (what) => errors.push(what),
    };
    return { batcher: new Batcher(options), saved };
  }

  const person = uuid();
  const room = uuid();
  let clock = Date.UTC(2026, 10, 1) / 1000;
  function request(text: string, entityId = person): EvaluateRequest {
    clock += 60;
    return create(EvaluateRequestSchema, {
      agentId: uuid(),
      entityId,
      roomId: room,
      message: { id: uuid(), entityId, text, createdAt: { seconds: BigInt(clock) } },
      items: [Item.FACTS],
    });
  }

  function sentSince(before: number): string[][] {
    return service.evaluateBatchRequests.slice(before).map((r) => r.messages.map((m) => m.text));
  }

  test("a batch goes after the quiet period even when it is not full", async () => {
    const before = service.evaluateBatchRequests.length;
    const { batcher: b } = batcher(5, 50);
    await b.add(request("one"));
    await b.add(request("two"));
    assert.deepEqual(sentSince(before), []);
    // The quiet timer fires after 50 ms; the send itself may take a while on a loaded machine.
    for (let waited = 0; b.waiting > 0 && waited < 10_000; waited += 50) await sleep(50);
    assert.deepEqual(sentSince(before), [["one", "two"]]);
    assert.equal(b.waiting, 0);
    b.close();
  });

  test("the same message queued twice is sent once", async () => {
    const before = service.evaluateBatchRequests.length;
    const { batcher: b } = batcher(2, 0);
    const first = request("said once");
    await b.add(first);
    await b.add(first);
    assert.equal(b.waiting, 1);
    const result = await b.add(request("then another"));
    assert.ok(!("queued" in result));
    assert.deepEqual(sentSince(before), [["said once", "then another"]]);
  });

  test("people are batched apart", async () => {
    const before = service.evaluateBatchRequests.length;
    const { batcher: b } = batcher(2, 0);
    const other = uuid();
    await b.add(request("mine 1"));
    await b.add(request("theirs 1", other));
    assert.deepEqual(sentSince(before), []);
    await b.add(request("theirs 2", other));
    await b.add(request("mine 2"));
    assert.deepEqual(sentSince(before), [
      ["theirs 1", "theirs 2"],
      ["mine 1", "mine 2"],
    ]);
  });

  test("a failed send keeps the messages; the next send takes them all, in order", async () => {
    const before = service.evaluateBatchRequests.length;
    const { batcher: b, saved } = batcher(2, 0);
    await b.add(request("a"));
    failures = 1;
    await assert.rejects(
      b.add(request("b")),
      (error: unknown) => ConnectError.from(error).code === Code.Unavailable,
    );
    assert.equal(b.waiting, 2);
    const stored = saved.at(-1) as { requests: unknown[] };
    assert.equal(stored.requests.length, 2, "still in the store");
    await b.add(request("c"));
    assert.deepEqual(sentSince(before).at(-1), ["a", "b", "c"]);
    assert.equal(b.waiting, 0);
    assert.deepEqual((saved.at(-1) as { requests: unknown[] }).requests, []);
  });

  test("a long queue an earlier process left (its service took larger batches) goes in the batches this one takes", async () => {
    const before = service.evaluateBatchRequests.length;
    const { batcher: first, saved } = batcher(100, 0, [], { ...DEFAULT_LIMITS, maxBatchMessages: 100 });
    for (let i = 0; i < DEFAULT_LIMITS.maxBatchMessages + 4; i += 1) await first.add(request(`m${i}`));
    assert.deepEqual(sentSince(before), []);
    // The next process, on the same store:
    const restored = new Batcher({
      every: 100,
      quietMs: 0,
      limits: async () => DEFAULT_LIMITS,
      send: (r) => client.evaluateBatch(r),
      store: { load: async () => saved.at(-1), save: async () => undefined },
      onError: (what) => assert.fail(what),
    });
    await restored.restore();
    assert.deepEqual(
      sentSince(before).map((texts) => texts.length),
      [DEFAULT_LIMITS.maxBatchMessages, 4],
    );
    assert.equal(sentSince(before)[0]![0], "m0");
  });

  test("a stored queue of another version is ignored, not sent", async () => {
    const before = service.evaluateBatchRequests.length;
    const b = new Batcher({
      every: 2,
      quietMs: 0,
      send: (r) => client.evaluateBatch(r),
      store: {
        load: async () => ({ version: 99, requests: [{ nonsense: true }] }),
        save: async () => undefined,
      },
      onError: (what) => assert.fail(what),
    });
    await b.restore();
    assert.deepEqual(sentSince(before), []);
  });
});
