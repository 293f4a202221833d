/**
 * The turn's Provide starts when a person's message arrives (FACT_MEMORY_PREFETCH, src/prefetch.ts), and the provider
 * takes that same call: one Provide per message, never a failure kept.
 *
 * First on the in-process gRPC fake (the plugin in an AgentRuntime), then in elizaOS's own message service: a real
 * AgentRuntime on @elizaos/plugin-sql (PGlite) with plugin-bootstrap 1.7.2 and plugin-openai pointed at the
 * scripted model, this plugin, the REAL service.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ChannelType, type Content, type Plugin } from "@elizaos/core";
import bootstrapPlugin from "@elizaos/plugin-bootstrap";
import openaiPlugin from "@elizaos/plugin-openai";

import { contextFor } from "../src/context.js";
import {
  closeContext,
  factMemoryPlugin,
  prefetch,
  ProvideResponseSchema,
  readSettings,
} from "../src/index.js";
import { type FakeService, startFakeService } from "./support/fake-service.js";
import { uuid } from "./support/ids.js";
import { startRealService } from "./support/real-service.js";
import { learns, NOTHING, response } from "./support/script.js";
import { startAgent, type TestAgent } from "./support/runtime.js";
import { type Cleanups, startOnce } from "./support/setup.js";
import { type SqlAgent, startSqlAgent, stopSqlAgents } from "./support/sql-runtime.js";

const FAIL_ONCE = "this first call fails";

describe("prefetch: the provider takes the call started when the message arrived", () => {
  let service: FakeService;
  const failed = new Set<string>();
  const agents: TestAgent[] = [];

  before(async () => {
    service = await startFakeService({
      provide: (request) => {
        const text = request.recentMessages.at(-1)?.text ?? "";
        if (text.includes(FAIL_ONCE) && !failed.has(text)) {
          failed.add(text);
          throw new ConnectError("scripted failure", Code.Internal);
        }
        return create(ProvideResponseSchema, {
          text: `What I know about ${request.subjectName}:\n- lives in Berlin`,
        });
      },
    });
  });

  after(async () => {
    for (const agent of agents) closeContext(agent.runtime);
    await service.close();
  });

  async function agent(prefetchMode: string): Promise<TestAgent> {
    const created = await startAgent({ FACT_MEMORY_URL: service.url, FACT_MEMORY_PREFETCH: prefetchMode });
    agents.push(created);
    return created;
  }

  function callsFor(text: string): number {
    return service.provideRequests.filter((r) => r.recentMessages.at(-1)?.text === text).length;
  }

  test("one Provide for the message: started by the prefetch, its result in the turn's state", async () => {
    const a = await agent("all");
    const message = a.say("Any plans for the weekend?");
    assert.equal(await prefetch(a.runtime, message), true);
    assert.equal(await prefetch(a.runtime, message), false, "the call is made once per message");
    const state = await a.runtime.composeState(message);
    assert.match(state.text, /What I know about Dana:\n- lives in Berlin/);
    assert.equal(callsFor("Any plans for the weekend?"), 1);
  });

  test("a prefetch that failed is not kept: the provider asks again and gets the facts", async () => {
    const a = await agent("all");
    const text = `${FAIL_ONCE}: how are you?`;
    const message = a.say(text);
    assert.equal(await prefetch(a.runtime, message), true);
    // Once the failure has come back it is forgotten: a prefetch then starts a new call, which the provider takes.
    const deadline = Date.now() + 10_000;
    while (!(await prefetch(a.runtime, message))) {
      assert.ok(Date.now() < deadline, "the failed prefetch was never forgotten");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const state = await a.runtime.composeState(message);
    assert.match(state.text, /lives in Berlin/);
    assert.equal(callsFor(text), 2);
  });

  test("nothing starts with FACT_MEMORY_PREFETCH=off, for the agent's own message, or for an empty one", async () => {
    const off = await agent("off");
    assert.equal(await prefetch(off.runtime, off.say("Nothing early, please")), false);
    assert.equal(callsFor("Nothing early, please"), 0);
    const all = await agent("all");
    assert.equal(await prefetch(all.runtime, all.reply("The agent's own words")), false);
    assert.equal(await prefetch(all.runtime, all.say("   ")), false);
    assert.equal(callsFor("The agent's own words"), 0);
  });

  test("FACT_MEMORY_PREFETCH: answered by default, a value it does not know is reported and ignored", () => {
    const settings = (values: Record<string, string>) =>
      readSettings({ getSetting: (key) => values[key] ?? null });
    assert.equal(settings({}).prefetch, "answered");
    assert.equal(settings({ FACT_MEMORY_PREFETCH: "ALL" }).prefetch, "all");
    const wrong = settings({ FACT_MEMORY_PREFETCH: "sometimes" });
    assert.equal(wrong.prefetch, "answered");
    assert.match(
      wrong.problems.join("\n"),
      /FACT_MEMORY_PREFETCH="sometimes" is not one of answered, all, off/,
    );
  });
});

describe("prefetch in elizaOS's message service", () => {
  const ready = startOnce(async (cleanups: Cleanups) => {
    const real = await startRealService({
      script: {
        replies: [{ match: "I live in Lisbon", content: learns("lives in Lisbon", "identity") }],
        default: NOTHING,
        chat: [{ match: "", content: response("REPLY", "Good to know.") }],
      },
      llmArgs: ["--embedding-dims", "1536"],
    });
    cleanups.push(() => real.stop());
    return real;
  });

  const agents: SqlAgent[] = [];
  after(() => stopSqlAgents(agents));

  async function sqlAgent(type: ChannelType): Promise<{ agent: SqlAgent; person: ReturnType<typeof uuid> }> {
    const real = await ready();
    const person = uuid();
    const agent = await startSqlAgent(
      {
        FACT_MEMORY_URL: real.url,
        OPENAI_BASE_URL: real.llmUrl,
        OPENAI_API_KEY: "test",
        OPENAI_EMBEDDING_DIMENSIONS: "1536",
      },
      [{ id: person, name: "Dana" }],
      [bootstrapPlugin, openaiPlugin, factMemoryPlugin] as Plugin[],
      uuid(),
      type,
    );
    agents.push(agent);
    return { agent, person };
  }

  test("a direct message: Provide starts before the state is composed, once, and its facts reach the prompt", async () => {
    const real = await ready();
    const { agent, person } = await sqlAgent(ChannelType.DM);
    const { runtime } = agent;
    const events: string[] = [];
    const client = contextFor(runtime).client;
    const provide = client.provide.bind(client);
    client.provide = (...args: Parameters<typeof provide>) => {
      events.push("Provide");
      return provide(...args);
    };
    const compose = runtime.composeState.bind(runtime);
    runtime.composeState = (...args: Parameters<typeof compose>) => {
      // A state that runs every provider (not `onlyInclude` a list): the one FACT_MEMORY is part of.
      if (!args[2]) events.push("composeState");
      return compose(...args);
    };
    const turn = async (text: string) => {
      events.length = 0;
      const message = await agent.say(person, text);
      await runtime.messageService!.handleMessage(runtime, message, async (_: Content) => []);
      return [...events];
    };
    await turn("I live in Lisbon");
    const before = (await real.llmRequests()).length;
    const order = await turn("Where should I eat tonight?");
    assert.equal(
      order.filter((e) => e === "Provide").length,
      1,
      `one Provide for the turn: ${order.join(", ")}`,
    );
    assert.ok(order.indexOf("Provide") < order.indexOf("composeState"), `Provide first: ${order.join(", ")}`);
    const prompts = (await real.llmRequests()).slice(before).map((r) => JSON.stringify(r));
    assert.ok(
      prompts.some((p) => p.includes("# Received Message") && p.includes("lives in Lisbon")),
      "the prefetched facts are in the agent's response prompt",
    );
  });

  test("a group message that does not mention the agent is not prefetched (the agent may not answer)", async () => {
    const { agent, person } = await sqlAgent(ChannelType.GROUP);
    const message = await agent.say(person, "Anyone up for lunch?");
    assert.equal(await prefetch(agent.runtime, message), false);
    const { agent: direct, person: other } = await sqlAgent(ChannelType.DM);
    assert.equal(await prefetch(direct.runtime, await direct.say(other, "Up for lunch?")), true);
  });
});
