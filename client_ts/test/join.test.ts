import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Join } from "../src/join.js";

type Call = { context: string; members: string[] };

/** Resolves after the join's own next-tick look (immediates run in order), with no clock involved. */
const afterTick = () => new Promise<void>((resolve) => setImmediate(resolve));

function recordingJoin(expected: readonly string[], graceMs = 50) {
  const calls: Call[] = [];
  const join = new Join<string, string, number>({
    graceMs,
    expected: () => expected,
    send: async (context, members) => {
      calls.push({ context, members: [...members] });
      return calls.length;
    },
  });
  return { join, calls };
}

describe("Join", () => {
  test("members arriving in one tick share one send", async () => {
    const { join, calls } = recordingJoin(["a", "b", "c", "d"]);
    const results = await Promise.all(["a", "b", "c", "d"].map((m) => join.arrive("k", m, "ctx")));
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0], { context: "ctx", members: ["a", "b", "c", "d"] });
    for (const result of results) {
      assert.equal(result.value, 1);
      assert.deepEqual([...result.members], ["a", "b", "c", "d"]);
    }
    assert.equal(join.size, 0);
  });

  test("a complete set is sent without waiting for the grace period", async () => {
    const { join, calls } = recordingJoin(["a", "b"], 10_000);
    const started = Date.now();
    await Promise.all([join.arrive("k", "a", "ctx"), join.arrive("k", "b", "ctx")]);
    assert.equal(calls.length, 1);
    assert.ok(Date.now() - started < 1_000, "sent before the grace period");
  });

  test("a missing expected member is waited for, then the rest is sent after the grace period", async () => {
    const { join, calls } = recordingJoin(["a", "b", "c"], 80);
    const started = Date.now();
    const [first] = await Promise.all([join.arrive("k", "a", "ctx"), join.arrive("k", "b", "ctx")]);
    assert.ok(Date.now() - started >= 70, "waited for the grace period");
    assert.deepEqual(calls, [{ context: "ctx", members: ["a", "b"] }]);
    assert.deepEqual([...first.members], ["a", "b"]);
  });

  test("a member arriving within the grace period joins the same send", async () => {
    const { join, calls } = recordingJoin(["a", "b"], 10_000);
    const a = join.arrive("k", "a", "ctx");
    await afterTick(); // the join has looked, found "b" missing and started its grace period
    assert.equal(calls.length, 0);
    const b = join.arrive("k", "b", "ctx");
    await Promise.all([a, b]);
    assert.deepEqual(calls, [{ context: "ctx", members: ["a", "b"] }]);
  });

  test("a member arriving while the request is in flight shares the result without being part of it", async () => {
    // No clock: the late member arrives once send has been called (the request is in flight), whatever the load.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inFlight!: () => void;
    const sending = new Promise<void>((resolve) => (inFlight = resolve));
    const join = new Join<string, string, string>({
      graceMs: 10,
      expected: () => ["a"],
      send: async (_context, members) => {
        inFlight();
        await gate;
        return members.join(",");
      },
    });
    const a = join.arrive("k", "a", "ctx");
    await sending;
    const late = join.arrive("k", "b", "ctx");
    release();
    const [first, second] = await Promise.all([a, late]);
    assert.equal(first.value, "a");
    assert.equal(second.value, "a");
    assert.equal(second.members.has("b"), false);
  });

  test("different keys are different requests", async () => {
    const { join, calls } = recordingJoin(["a"]);
    await Promise.all([join.arrive("k1", "a", "one"), join.arrive("k2", "a", "two")]);
    assert.deepEqual(calls.map((c) => c.context).sort(), ["one", "two"]);
  });

  test("a failed send rejects every member, and the next arrival starts over", async () => {
    let attempts = 0;
    const join = new Join<string, string, number>({
      graceMs: 10,
      expected: () => ["a", "b"],
      send: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("boom");
        return attempts;
      },
    });
    const results = await Promise.allSettled([join.arrive("k", "a", "c"), join.arrive("k", "b", "c")]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "rejected"],
    );
    const again = await Promise.all([join.arrive("k", "a", "c"), join.arrive("k", "b", "c")]);
    assert.equal(again[0].value, 2);
  });

  test("a send that throws synchronously still rejects instead of escaping", async () => {
    const join = new Join<string, string, number>({
      graceMs: 10,
      expected: () => ["a"],
      send: () => {
        throw new Error("sync");
      },
    });
    await assert.rejects(join.arrive("k", "a", "c"), /sync/);
  });
});
