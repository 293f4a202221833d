/**
 * Agent-model mode when the REAL service refuses the ticket between PrepareEvaluation and CompleteEvaluation:
 * expired, evicted (NOT_FOUND), or the person forgotten meanwhile. Issue 24 allows one model call per turn, so the
 * agent's model is never asked twice: the turn goes to the service's model when the service has one, else it is
 * dropped with one warning (and a batch leaves the queue). A real AgentRuntime (in-memory adapter) with a model
 * handler of the test's own, which makes the refusal happen while it "thinks"; two real services, with and
 * without a model of their own, whose tickets live FACTMEMORY_TICKET_TTL_S = 6 s.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { create } from "@bufbuild/protobuf";

import {
  batcherFor,
  closeContext,
  createFactMemoryClient,
  EvaluateRequestSchema,
  type FactMemoryClient,
  Kind,
} from "../src/index.js";
import { uuid } from "./support/ids.js";
import { type RealService, startRealService } from "./support/real-service.js";
import { type Cleanups, startOnce } from "./support/setup.js";
import { emptyState, startAgent, type TestAgent } from "./support/runtime.js";

/** Long enough that the eviction and forget tests finish well within it on a loaded machine (8 prepares at 1 s did not). */
const TTL_S = 6;
/** The service's default FACTMEMORY_MAX_TICKETS_PER_ENTITY: one more ticket evicts the oldest. */
const TICKETS_PER_ENTITY = 8;
const CELLO = "I play the cello in a quartet";
const NOTHING_NEW = {
  facts: { ops: [] },
  relationships: [],
  identities: [],
  success: { completed: true, reason: "ok" },
};
const LEARNED = {
  ...NOTHING_NEW,
  facts: {
    ops: [
      {
        op: "add_durable",
        claim: "plays the cello in a quartet",
        category: "preference",
        structured_fields: [],
        verification_status: null,
      },
    ],
  },
};

interface Services {
  withModel: RealService;
  withoutModel: RealService;
}

describe("agent-model mode: a ticket the service refuses", () => {
  // Clients and agents of the tests, closed before the services stop.
  const stops: Array<() => unknown> = [];
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  const ready = startOnce(start);

  async function start(cleanups: Cleanups): Promise<Services> {
    const env = { FACTMEMORY_TICKET_TTL_S: String(TTL_S) };
    const started = (options: Parameters<typeof startRealService>[0]) =>
      startRealService(options).then((service) => {
        cleanups.push(() => service.stop());
        return service;
      });
    const [withModel, withoutModel] = await Promise.all([
      started({ script: { replies: [{ match: "cello", content: LEARNED }], default: NOTHING_NEW }, env }),
      started({ env }),
    ]);
    return { withModel, withoutModel };
  }

  function clientOf(service: RealService): FactMemoryClient {
    const client = createFactMemoryClient({ url: service.url, timeoutMs: 30_000 });
    stops.push(() => client.close());
    return client;
  }

  /**
   * An agent in agent-model mode whose model runs `meanwhile` (which makes the service refuse the ticket) and
   * then answers LEARNED. Returns the agent and its model's calls.
   */
  async function agentWith(
    service: RealService,
    meanwhile: (agent: TestAgent) => Promise<void>,
    settings: Record<string, string> = {},
  ) {
    const agent = await startAgent({ FACT_MEMORY_URL: service.url, FACT_MEMORY_MODEL: "agent", ...settings });
    stops.push(() => closeContext(agent.runtime));
    const calls: unknown[] = [];
    agent.runtime.registerModel(
      "OBJECT_SMALL",
      async (_runtime, params) => {
        calls.push(params);
        await meanwhile(agent);
        return LEARNED;
      },
      "test",
    );
    return { agent, calls };
  }

  /** Past the ticket's lifetime: it was issued before the model was asked, so it has expired after this. */
  const expire = () => sleep(TTL_S * 1_000 + 300);

  async function turn(agent: TestAgent, text = CELLO): Promise<void> {
    const message = agent.say(text);
    await agent.runtime.evaluate(message, emptyState(), false, async () => [], []);
  }

  async function claims(client: FactMemoryClient, agent: TestAgent): Promise<string[]> {
    const { facts } = await client.listFacts({ agentId: agent.runtime.agentId, entityId: agent.userId });
    return facts.map((f) => `${Kind[f.kind]} ${f.claim}`);
  }

  test("expired, the service has a model: the agent's model asked once, then the service's model learns the turn", async () => {
    const { withModel } = await ready();
    const client = clientOf(withModel);
    const { agent, calls } = await agentWith(withModel, expire);
    const llmBefore = (await withModel.llmRequests()).length;

    await turn(agent);

    assert.equal(calls.length, 1, "the agent's model is asked once");
    assert.equal((await withModel.llmRequests()).length - llmBefore, 1, "the service's model once");
    assert.deepEqual(await claims(client, agent), ["DURABLE plays the cello in a quartet"]);
    assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
    assert.match(agent.warnings[0]!, /refused the ticket: FailedPrecondition: the ticket expired/);
    assert.match(agent.warnings[0]!, /the service's model evaluated the turn/);
  });

  test("evicted by newer tickets of the person (NOT_FOUND): prepared again once, then the service's model", async () => {
    const { withModel } = await ready();
    const client = clientOf(withModel);
    const evict = async (agent: TestAgent) => {
      for (let i = 0; i < TICKETS_PER_ENTITY; i += 1) {
        const request = create(EvaluateRequestSchema, {
          agentId: agent.runtime.agentId,
          entityId: agent.userId,
          message: { id: uuid(), entityId: agent.userId, name: "Dana", text: `something else ${i}` },
        });
        const prepared = await client.prepareEvaluation({ request: { case: "single", value: request } });
        assert.notEqual(prepared.ticket, "");
      }
    };
    const { agent, calls } = await agentWith(withModel, evict);

    await turn(agent);

    assert.equal(calls.length, 1);
    assert.deepEqual(await claims(client, agent), ["DURABLE plays the cello in a quartet"]);
    assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
    assert.match(agent.warnings[0]!, /refused the ticket: NotFound: unknown ticket/);
  });

  test("the person forgotten meanwhile: dropped with one warning, never learned again, no model call by the service", async () => {
    const { withModel } = await ready();
    const client = clientOf(withModel);
    const forget = async (agent: TestAgent) => {
      await client.forgetEntity({ agentId: agent.runtime.agentId, entityId: agent.userId });
    };
    const { agent, calls } = await agentWith(withModel, forget);
    const llmBefore = (await withModel.llmRequests()).length;

    await turn(agent);

    assert.equal(calls.length, 1);
    assert.equal((await withModel.llmRequests()).length, llmBefore, "not sent to the service's model");
    assert.deepEqual(await claims(client, agent), []);
    assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
    assert.match(
      agent.warnings[0]!,
      /the entity was forgotten after the ticket was issued.*: the person was forgotten meanwhile, so the turn is dropped/,
    );
  });

  test("expired, the service has no model: dropped with one warning, nothing learned", async () => {
    const { withoutModel } = await ready();
    const client = clientOf(withoutModel);
    const { agent, calls } = await agentWith(withoutModel, expire);

    await turn(agent);

    assert.equal(calls.length, 1);
    assert.deepEqual(await claims(client, agent), []);
    assert.equal(agent.warnings.length, 1, agent.warnings.join("\n"));
    assert.match(agent.warnings[0]!, /the ticket expired.*and the service has no model: the turn is dropped/);
  });

  test("a batch, expired, the service has no model: dropped with one warning, and its messages leave the queue", async () => {
    const { withoutModel } = await ready();
    const client = clientOf(withoutModel);
    const { agent, calls } = await agentWith(withoutModel, expire, {
      FACT_MEMORY_EVALUATE_EVERY: "2",
      FACT_MEMORY_EVALUATE_QUIET_MS: "0",
    });

    await turn(agent, "I play the viola");
    assert.equal(batcherFor(agent.runtime).waiting, 1);
    await turn(agent);

    assert.equal(calls.length, 1, "one model call for the batch");
    assert.equal(batcherFor(agent.runtime).waiting, 0, "the dropped messages are not retried");
    assert.deepEqual(await claims(client, agent), []);
    // This runtime never initializes, so the batch service's registration warns after 30 s: not ours to count.
    const warnings = agent.warnings.filter((w) => !/batch service failed/.test(w));
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0]!, /and the service has no model: the turn is dropped/);
  });
});
