import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Entity, type Memory, Role, type UUID, type World } from "@elizaos/core";

import { Item, Kind, ProvideResponseSchema } from "../src/gen/factmemory/v1/factmemory_pb.js";
import { expectedItems, inferDidRespond } from "../src/evaluators.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../src/limits.js";
import { EMPTY_RESULT, toProviderResult } from "../src/provider.js";
import {
  buildEvaluateRequest,
  buildProvideRequest,
  fit,
  oldestFirst,
  rolesIn,
  toTimestamp,
  worldName,
} from "../src/request.js";
import { uuid } from "./support/ids.js";

const agentId = uuid();
const userId = uuid();
const friendId = uuid();
const roomId = uuid();

function memory(
  entityId: UUID,
  text: string,
  createdAt?: number,
  metadata?: Record<string, unknown>,
): Memory {
  return {
    id: uuid(),
    entityId,
    roomId,
    content: { text },
    ...(createdAt !== undefined ? { createdAt } : {}),
    ...(metadata ? { metadata: metadata as unknown as NonNullable<Memory["metadata"]> } : {}),
  };
}

const entities: Entity[] = [
  { id: userId, names: ["Dana", "dana#1"], metadata: {}, agentId },
  { id: friendId, names: ["", "Sam"], metadata: {}, agentId },
];

describe("the world and the speaker's roles (shared facts)", () => {
  const worldId = uuid();
  const world: World = {
    id: worldId,
    agentId,
    messageServerId: uuid(),
    metadata: { ownership: { ownerId: friendId }, roles: { [userId]: Role.ADMIN, [friendId]: Role.NONE } },
  };
  const message = memory(userId, "the hackathon moved to Friday", Date.UTC(2025, 0, 2));
  const input = { agentId, agentName: "Ava", message, responses: [], items: [Item.FACTS], didRespond: false };

  test("sends the room's world and the roles world.metadata.roles gives the speaker", () => {
    const request = buildEvaluateRequest({ ...input, conversation: { recent: [], entities, world } });
    assert.equal(request.worldId, worldId);
    assert.deepEqual(request.speakerRoles, ["ADMIN"]);
    assert.equal(request.worldName, "");
    const provide = buildProvideRequest({
      agentId,
      agentName: "Ava",
      message,
      conversation: { recent: [], entities, world },
    });
    assert.equal(provide.worldId, worldId);
  });

  test("sends the world's name, on one line and cut to the service's name limit", () => {
    const named: World = { ...world, name: "  Eliza\nBuilders   Guild " };
    const request = buildEvaluateRequest({ ...input, conversation: { recent: [], entities, world: named } });
    assert.equal(request.worldName, "Eliza Builders Guild");
    const limits = { ...DEFAULT_LIMITS, maxNameChars: 5 };
    assert.equal(worldName(named, limits), "Eliza");
    const bare = buildEvaluateRequest({ ...input, conversation: { recent: [], entities } });
    assert.equal(bare.worldName, "");
  });

  test("the world's owner is OWNER; without a world, no world and no roles", () => {
    assert.deepEqual(rolesIn(world, friendId), ["NONE", "OWNER"]);
    assert.deepEqual(rolesIn(world, uuid()), []);
    const request = buildEvaluateRequest({ ...input, conversation: { recent: [], entities } });
    assert.equal(request.worldId, "");
    assert.deepEqual(request.speakerRoles, []);
  });
});

describe("buildEvaluateRequest", () => {
  const t0 = Date.UTC(2025, 0, 2, 3, 4, 5, 678);
  const older = memory(userId, "hi", t0);
  const reply = memory(agentId, "hello Dana", t0 + 1_000);
  const current = memory(userId, "I moved to Berlin", t0 + 2_000);
  const response = memory(agentId, "Welcome to Berlin!", t0 + 3_000);
  const request = buildEvaluateRequest({
    agentId,
    agentName: "Ava",
    message: current,
    conversation: { recent: oldestFirst([current, reply, older]), entities },
    responses: [response],
    items: [Item.FACTS, Item.SUCCESS],
    didRespond: true,
  });

  test("carries the ids of the agent, the sender, the room and the message", () => {
    assert.equal(request.agentId, agentId);
    assert.equal(request.entityId, userId);
    assert.equal(request.roomId, roomId);
    assert.equal(request.message?.id, current.id);
    assert.equal(request.message?.entityId, userId);
    assert.equal(request.message?.text, "I moved to Berlin");
    assert.deepEqual(request.items, [Item.FACTS, Item.SUCCESS]);
    assert.equal(request.didRespond, true);
  });

  test("orders recent messages oldest first, with names from the room and the character", () => {
    assert.deepEqual(
      request.recentMessages.map((m) => [m.id, m.name, m.text]),
      [
        [older.id, "Dana", "hi"],
        [reply.id, "Ava", "hello Dana"],
        [current.id, "Dana", "I moved to Berlin"],
      ],
    );
  });

  test("turns createdAt milliseconds into Timestamps", () => {
    const createdAt = request.message?.createdAt;
    assert.ok(createdAt);
    assert.equal(timestampDate(createdAt).getTime(), t0 + 2_000);
    assert.equal(createdAt.nanos, 678_000_000);
  });

  test("lists room entities with their non-empty names, and the agent's responses", () => {
    assert.deepEqual(
      request.roomEntities.map((e) => [e.id, e.names]),
      [
        [userId, ["Dana", "dana#1"]],
        [friendId, ["Sam"]],
      ],
    );
    assert.deepEqual(
      request.agentResponses.map((m) => [m.id, m.entityId, m.name, m.text]),
      [[response.id, agentId, "Ava", "Welcome to Berlin!"]],
    );
  });

  test("falls back to the message metadata's entityName and leaves a missing createdAt unset", () => {
    const stranger = memory(uuid(), "who am I", undefined, { type: "message", entityName: "Zed" });
    const built = buildEvaluateRequest({
      agentId,
      agentName: "Ava",
      message: stranger,
      conversation: { recent: [], entities: [] },
      responses: [],
      items: [Item.FACTS],
      didRespond: false,
    });
    assert.equal(built.message?.name, "Zed");
    assert.equal(built.message?.createdAt, undefined);
  });
});

describe("oldestFirst", () => {
  test("sorts by createdAt when every memory has one", () => {
    const a = memory(userId, "a", 3);
    const b = memory(userId, "b", 1);
    const c = memory(userId, "c", 2);
    assert.deepEqual(
      oldestFirst([a, b, c]).map((m) => m.content.text),
      ["b", "c", "a"],
    );
  });

  test("reverses the adapter's newest-first order when timestamps are missing", () => {
    const a = memory(userId, "newest");
    const b = memory(userId, "middle", 5);
    const c = memory(userId, "oldest");
    assert.deepEqual(
      oldestFirst([a, b, c]).map((m) => m.content.text),
      ["oldest", "middle", "newest"],
    );
  });
});

describe("buildProvideRequest", () => {
  test("names the sender as subject and ends the recent messages with the current one", () => {
    const older = memory(friendId, "Dana, how is Berlin?", 1_000);
    const current = memory(userId, "Rainy!", 2_000);
    const request = buildProvideRequest({
      agentId,
      agentName: "Ava",
      message: current,
      conversation: { recent: [older], entities },
    });
    assert.equal(request.subjectName, "Dana");
    assert.equal(request.entityId, userId);
    assert.equal(request.totalLimit, 12); // one shared budget, no fixed per-section limits
    assert.equal(request.durableLimit, 0);
    assert.deepEqual(
      request.recentMessages.map((m) => m.text),
      ["Dana, how is Berlin?", "Rainy!"],
    );
  });

  test("does not repeat the current message when it is already stored", () => {
    const current = memory(userId, "Rainy!", 2_000);
    const request = buildProvideRequest({
      agentId,
      agentName: "Ava",
      message: current,
      conversation: { recent: [current], entities },
    });
    assert.equal(request.recentMessages.length, 1);
  });
});

describe("toTimestamp", () => {
  test("keeps millisecond precision", () => {
    const ts = toTimestamp(1_700_000_000_123);
    assert.equal(ts.seconds, 1_700_000_000n);
    assert.equal(ts.nanos, 123_000_000);
  });
});

describe("which evaluators the join waits for", () => {
  const all = new Set([
    "FACT_MEMORY_FACTS",
    "FACT_MEMORY_RELATIONSHIPS",
    "FACT_MEMORY_IDENTITIES",
    "FACT_MEMORY_SUCCESS",
  ]);
  const reply = [memory(agentId, "sure")];

  test("on a turn the agent answered, all four", () => {
    assert.deepEqual(expectedItems(all, new Set([Item.FACTS]), reply), [
      Item.FACTS,
      Item.RELATIONSHIPS,
      Item.IDENTITIES,
      Item.SUCCESS,
    ]);
    assert.deepEqual(expectedItems(all, new Set([Item.SUCCESS]), []).length, 4);
  });

  test("on a turn without an answer, only the alwaysRun ones", () => {
    assert.deepEqual(expectedItems(all, new Set([Item.FACTS]), []), [
      Item.FACTS,
      Item.RELATIONSHIPS,
      Item.IDENTITIES,
    ]);
  });

  test("only those registered on the runtime", () => {
    assert.deepEqual(expectedItems(new Set(["FACT_MEMORY_FACTS"]), new Set([Item.FACTS]), reply), [
      Item.FACTS,
    ]);
  });

  test("didRespond is inferred from the success evaluator or the responses", () => {
    assert.equal(inferDidRespond(new Set([Item.FACTS, Item.RELATIONSHIPS]), []), false);
    assert.equal(inferDidRespond(new Set([Item.FACTS, Item.SUCCESS]), []), true);
    assert.equal(inferDidRespond(new Set([Item.FACTS]), reply), true);
  });
});

describe("provider result", () => {
  test("has text, values.factMemory and JSON durable/current facts", () => {
    const response = create(ProvideResponseSchema, {
      text: "What I know about Dana:\n- lives in Berlin",
      durable: [{ fact: { id: "f1", claim: "lives in Berlin", kind: Kind.DURABLE }, score: 0.9 }],
      current: [
        { fact: { id: "f2", claim: "anxious", kind: Kind.CURRENT, validAt: toTimestamp(0) }, score: 0.5 },
      ],
    });
    const result = toProviderResult(response);
    assert.equal(result.text, response.text);
    assert.deepEqual(result.values, { factMemory: response.text });
    assert.deepEqual(result.data.durable, [
      { fact: { id: "f1", claim: "lives in Berlin", kind: "KIND_DURABLE" }, score: 0.9 },
    ]);
    assert.deepEqual(result.data.current, [
      {
        fact: { id: "f2", claim: "anxious", kind: "KIND_CURRENT", validAt: "1970-01-01T00:00:00Z" },
        score: 0.5,
      },
    ]);
    // State is logged and cached as JSON: BigInt or message objects would break that.
    assert.doesNotThrow(() => JSON.stringify(result));
  });

  test("is empty when there is nothing to say", () => {
    assert.deepEqual(EMPTY_RESULT, {
      text: "",
      values: { factMemory: "" },
      data: { durable: [], current: [], shared: [] },
    });
  });
});

describe("request limits", () => {
  test("an over-long text is cut and NUL characters dropped instead of failing the whole request", () => {
    const long = memory(userId, `a\0b${"x".repeat(DEFAULT_LIMITS.maxTextChars + 50)}`, 1);
    const request = buildEvaluateRequest({
      agentId,
      agentName: "Ava",
      message: long,
      conversation: { recent: [], entities: [] },
      responses: [],
      items: [],
      didRespond: false,
    });
    assert.equal(request.message?.text.length, DEFAULT_LIMITS.maxTextChars);
    assert.ok(request.message?.text.startsWith("abx"));
    assert.equal(fit("short", 10), "short");
  });

  test("room entities are capped with the sender and the agent kept", () => {
    const crowd: Entity[] = Array.from({ length: DEFAULT_LIMITS.maxRoomEntities + 20 }, (_, i) => ({
      id: uuid(),
      names: [`guest ${i}`],
      metadata: {},
      agentId,
    }));
    crowd.push(
      { id: userId, names: ["Dana"], metadata: {}, agentId },
      { id: agentId, names: ["Ava"], metadata: {}, agentId },
    );
    const request = buildEvaluateRequest({
      agentId,
      agentName: "Ava",
      message: memory(userId, "hello all", 1),
      conversation: { recent: [], entities: crowd },
      responses: [],
      items: [],
      didRespond: false,
    });
    assert.equal(request.roomEntities.length, DEFAULT_LIMITS.maxRoomEntities);
    const ids = request.roomEntities.map((e) => e.id);
    assert.ok(ids.includes(userId) && ids.includes(agentId));
  });
});

describe("learned limits", () => {
  // A service configured below its defaults (FACTMEMORY_MAX_*), as GetLimits reports it.
  const small: ServiceLimits = {
    maxTextChars: 40,
    maxNameChars: 4,
    maxRecentMessages: 2,
    maxBatchMessages: 2,
    maxRoomEntities: 2,
    maxProvideLimit: 3,
    maxSpeakerRoles: 1,
  };
  const world: World = {
    id: uuid(),
    name: "Guild",
    agentId,
    messageServerId: uuid(),
    metadata: { roles: { [userId]: Role.ADMIN }, ownership: { ownerId: userId } },
  };
  const recent = [1, 2, 3, 4].map((i) => memory(userId, `earlier message ${i}`, i));
  const entities: Entity[] = [
    { id: friendId, names: ["Frederica"], metadata: {}, agentId },
    { id: userId, names: ["Dana Scully"], metadata: {}, agentId },
    { id: agentId, names: ["Ava"], metadata: {}, agentId },
  ];

  test("Evaluate is cut to the service's limits, not the defaults", () => {
    const request = buildEvaluateRequest({
      agentId,
      agentName: "Ava",
      message: memory(userId, "y".repeat(100), 5),
      conversation: { recent, entities, world },
      responses: recent,
      items: [],
      didRespond: true,
      limits: small,
    });
    assert.equal(request.message?.text.length, 40);
    assert.equal(request.message?.name, "Dana");
    assert.deepEqual(
      request.recentMessages.map((m) => m.text),
      ["earlier message 3", "earlier message 4"],
    );
    assert.equal(request.agentResponses.length, 2);
    assert.deepEqual(
      request.roomEntities.map((e) => e.id),
      [userId, agentId],
    );
    assert.equal(request.speakerRoles.length, 1);
  });

  test("Provide keeps the current message within the service's count and asks for at most its limit", () => {
    const request = buildProvideRequest({
      agentId,
      agentName: "Ava",
      message: memory(userId, "what do you know about me", 5),
      conversation: { recent, entities },
      limits: small,
    });
    assert.deepEqual(
      request.recentMessages.map((m) => m.text),
      ["earlier message 4", "what do you know about me"],
    );
    assert.equal(request.totalLimit, 2 * small.maxProvideLimit);
    assert.equal(request.subjectName, "Dana");
  });
});
