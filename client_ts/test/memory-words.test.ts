/** Reading a person's answer and saying where a fact came from: pure, no I/O. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";

import { FactSchema, origin, readAnswer } from "../src/index.js";

test("an answer is read as no, a pick, all, yes or something else, no first", () => {
  assert.deepEqual(readAnswer("The second one", 3), { kind: "pick", numbers: [2] });
  assert.deepEqual(readAnswer("1 and 3 please", 3), { kind: "pick", numbers: [1, 3] });
  assert.deepEqual(readAnswer("the last", 2), { kind: "pick", numbers: [2] });
  assert.deepEqual(readAnswer("7", 3), { kind: "other" }, "a number beyond the list picks nothing");
  assert.deepEqual(readAnswer("both of them", 2), { kind: "all" });
  assert.deepEqual(readAnswer("No, keep it", 2), { kind: "no" });
  assert.deepEqual(readAnswer("none", 2), { kind: "no" });
  assert.deepEqual(readAnswer("Yes, forget me", 0), { kind: "yes" });
  assert.deepEqual(readAnswer("go ahead", 0), { kind: "yes" });
  assert.deepEqual(readAnswer("Don't, actually", 0), { kind: "no" });
  assert.deepEqual(readAnswer("what's the weather?", 0), { kind: "other" });
});

test("where a fact came from: the person's message, a reviewer, an import, a second time, an earlier claim", () => {
  const at = (day: string) => timestampFromDate(new Date(`${day}T10:00:00Z`));
  const told = create(FactSchema, {
    claim: "lives in Porto",
    evidenceMessageIds: ["a3e1"],
    createdAt: at("2026-11-20"),
    lastConfirmedAt: at("2026-11-24"),
    previousClaims: ["lives in Lisbon"],
  });
  assert.equal(
    origin(told),
    'you told me on 20 November 2026, and again on 24 November 2026; it used to say "lives in Lisbon"',
  );
  const added = create(FactSchema, { evidenceMessageIds: ["reviewer:ann"], createdAt: at("2026-11-21") });
  assert.equal(origin(added), "added by hand on 21 November 2026");
  const imported = create(FactSchema, { evidenceMessageIds: ["import:mem0"], createdAt: at("2026-11-22") });
  assert.equal(origin(imported), "imported on 22 November 2026");
});
