/**
 * A person controls their own memory from the chat, in a real AgentRuntime as agents run one: @elizaos/plugin-sql
 * (PGlite), the real @elizaos/plugin-bootstrap 1.7.2 and @elizaos/plugin-openai 1.6.0 pointed at the scripted
 * OpenAI-compatible server, this plugin, the REAL service. Each turn goes through elizaOS's own message service
 * (runtime.messageService.handleMessage): the scripted model answers the agent's response call with the actions it
 * chooses (XML, as elizaOS asks), the plugin's actions reply through the callback, the evaluators run after.
 * Every model call lands at the scripted server and is counted per turn. Both model modes.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";

import { ChannelType, type Content, type Plugin, type UUID, type World } from "@elizaos/core";
import bootstrapPlugin from "@elizaos/plugin-bootstrap";
import openaiPlugin from "@elizaos/plugin-openai";

import {
  createFactMemoryClient,
  type FactMemoryClient,
  factMemoryPlugin,
  HistoryAction,
} from "../src/index.js";
import { uuid } from "./support/ids.js";
import { startRealService } from "./support/real-service.js";
import { learns, NOTHING, response } from "./support/script.js";
import { type Cleanups, startOnce } from "./support/setup.js";
import { type SqlAgent, startSqlAgent, stopSqlAgents } from "./support/sql-runtime.js";

const TOKEN = "chat-memory-token";

// The person's messages. Rules are tried in order, so the longer texts come first.
const SAID = {
  vegetarian: "I'm vegetarian, by the way",
  restaurants: "I love vegetarian restaurants",
  lisbon: "I live in Lisbon",
  peanuts: "I'm allergic to peanuts",
  samVegetarian: "Sam here: I eat no meat at all",
  ask: "What do you know about me?",
  askTopic: "What do you remember about where I live?",
  forgetVegetarian: "Please forget that I'm a vegetarian",
  forgetCat: "Forget that I have a cat",
  forgetPeanuts: "Forget that I'm allergic to peanuts",
  forgetSam: "Forget that Sam is vegetarian",
  secondOne: "The second one",
  yes: "Yes",
  correct: "That's wrong, I moved to Porto in March",
  forgetMe: "Forget everything about me",
  yesForgetMe: "Yes, forget me",
  weather: "Actually, how is the weather?",
  meetup: "Heads up everyone: the meetup is on Fridays",
  forgetMeetup: "Forget that the meetup is on Fridays",
};
const MEETUP = "the meetup is on Fridays";

function script() {
  return {
    replies: [
      {
        match: SAID.forgetMeetup,
        content: {
          ...NOTHING,
          facts: { ops: [{ op: "decay", fact: "SD1", reason: "the speaker says it is wrong" }] },
        },
      },
      {
        match: SAID.meetup,
        content: {
          ...NOTHING,
          facts: {
            ops: [
              {
                op: "add_durable",
                claim: MEETUP,
                category: "life_event",
                structured_fields: [],
                verification_status: null,
                scope: "shared",
              },
            ],
          },
        },
      },
      {
        match: SAID.correct,
        content: {
          ...NOTHING,
          facts: {
            ops: [{ op: "contradict", fact: "D1", reason: "moved", proposed_claim: "lives in Porto" }],
          },
        },
      },
      { match: SAID.samVegetarian, content: learns("is vegetarian", "preference") },
      { match: SAID.restaurants, content: learns("likes vegetarian restaurants", "preference") },
      { match: SAID.vegetarian, content: learns("is vegetarian", "preference") },
      { match: SAID.lisbon, content: learns("lives in Lisbon", "identity") },
      { match: SAID.peanuts, content: learns("is allergic to peanuts", "health") },
    ],
    default: NOTHING,
    chat: [
      { match: SAID.askTopic, content: response("RECALL_MEMORY") },
      { match: SAID.ask, content: response("RECALL_MEMORY") },
      { match: SAID.forgetVegetarian, content: response("FORGET_FACT") },
      { match: SAID.forgetCat, content: response("FORGET_FACT") },
      { match: SAID.forgetPeanuts, content: response("FORGET_FACT") },
      { match: SAID.forgetSam, content: response("FORGET_FACT") },
      { match: SAID.forgetMeetup, content: response("FORGET_FACT") },
      { match: SAID.secondOne, content: response("ANSWER_MEMORY_QUESTION") },
      { match: SAID.yesForgetMe, content: response("ANSWER_MEMORY_QUESTION") },
      { match: SAID.yes, content: response("ANSWER_MEMORY_QUESTION") },
      { match: SAID.correct, content: response("CORRECT_FACT") },
      { match: SAID.forgetMe, content: response("FORGET_ME") },
      { match: SAID.weather, content: response("REPLY", "Sunny, I hear.") },
      // Whatever else the person says is answered by plain text.
      { match: "", content: response("REPLY", "Nice, good to know.") },
    ],
  };
}

type LlmRequest = Record<string, unknown> & { messages?: Array<{ content?: unknown }> };

function textOf(request: LlmRequest): string {
  return (request.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
}

interface Turn {
  /** What the agent said back (every callback's text). */
  said: string;
  /** The turn's model calls: the agent's response call and FactMemory's extraction call. */
  calls: { response: number; extraction: number; other: number };
  /** The text of the turn's extraction calls. */
  extractions: string[];
}

interface Env {
  client: FactMemoryClient;
  llmUrl: string;
  serviceUrl: string;
  llmRequests(): Promise<LlmRequest[]>;
}

describe("a person controls their memory from the chat", () => {
  const ready = startOnce(async (cleanups: Cleanups): Promise<Env> => {
    const real = await startRealService({
      script: script(),
      llmArgs: ["--embedding-dims", "1536"],
      token: TOKEN,
      // A service configured below the plugin's own numbers (FindFacts of 10): the plugin cuts its requests to it.
      env: { FACTMEMORY_MAX_PROVIDE_LIMIT: "4" },
    });
    cleanups.push(() => real.stop());
    const client = createFactMemoryClient({ url: real.url, token: TOKEN, timeoutMs: 30_000 });
    cleanups.push(() => client.close());
    return {
      client,
      llmUrl: real.llmUrl,
      serviceUrl: real.url,
      llmRequests: async () => (await real.llmRequests()) as LlmRequest[],
    };
  });

  const agents: SqlAgent[] = [];
  after(() => stopSqlAgents(agents));

  for (const mode of ["service", "agent"] as const) {
    describe(`FACT_MEMORY_MODEL=${mode}`, () => {
      const names = ["Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Sam", "Ada", "Max"];
      const people = Object.fromEntries(names.map((name) => [name, uuid()])) as Record<string, UUID>;
      let started: Promise<SqlAgent> | undefined;
      const agent = async (): Promise<SqlAgent> => {
        const env = await ready();
        started ??= startSqlAgent(
          {
            FACT_MEMORY_URL: env.serviceUrl,
            FACT_MEMORY_TOKEN: TOKEN,
            FACT_MEMORY_MODEL: mode,
            OPENAI_BASE_URL: env.llmUrl,
            OPENAI_API_KEY: "test",
            OPENAI_EMBEDDING_DIMENSIONS: "1536",
          },
          names.map((name) => ({ id: people[name]!, name })),
          [bootstrapPlugin, openaiPlugin, factMemoryPlugin] as Plugin[],
          uuid(),
          ChannelType.DM,
        ).then(async (a) => {
          agents.push(a);
          // The room's world, where Ada teaches (ADMIN) and Max does not (NONE), as elizaOS keeps roles.
          const room = await a.runtime.getRoom(a.roomId);
          const world = (await a.runtime.getWorld(room!.worldId!))!;
          const roles = { [people["Ada"]!]: "ADMIN", [people["Max"]!]: "NONE" };
          await a.runtime.updateWorld({ ...world, metadata: { ...world.metadata, roles } } as World);
          return a;
        });
        return started;
      };

      /** One message of `person` through elizaOS's message service, as a client (Discord, ...) sends it. */
      async function turn(person: string, text: string): Promise<Turn> {
        const env = await ready();
        const a = await agent();
        const before = (await env.llmRequests()).length;
        const message = await a.say(people[person]!, text);
        const replies: string[] = [];
        await a.runtime.messageService!.handleMessage(a.runtime, message, async (content: Content) => {
          if (content.text) replies.push(content.text);
          return [];
        });
        const requests = (await env.llmRequests()).slice(before);
        const response = requests.filter((r) => /# Received Message/.test(textOf(r))).length;
        const extractions = requests.map(textOf).filter((text) => /<current_messages?>/.test(text));
        const extraction = extractions.length;
        return {
          said: replies.join("\n"),
          calls: { response, extraction, other: requests.length - response - extraction },
          extractions,
        };
      }

      async function claims(person: string): Promise<string[]> {
        const env = await ready();
        const a = await agent();
        const { facts } = await env.client.listFacts({
          agentId: a.runtime.agentId,
          entityId: people[person]!,
        });
        return facts.map((f) => f.claim).sort();
      }

      async function teach(person: string, ...texts: string[]) {
        for (const text of texts) {
          const taught = await turn(person, text);
          assert.deepEqual(taught.calls, { response: 1, extraction: 1, other: 0 }, `teaching "${text}"`);
        }
      }

      const ONLY_THE_RESPONSE = { response: 1, extraction: 0, other: 0 };

      test("ask: what it knows about me, and about a topic, from the stored facts with where each came from", async () => {
        await teach("Dana", SAID.vegetarian, SAID.lisbon);
        const all = await turn("Dana", SAID.ask);
        assert.deepEqual(all.calls, ONLY_THE_RESPONSE);
        assert.match(all.said, /^Here is what I remember about you:/);
        assert.match(all.said, /- is vegetarian \(you told me on \d+ \w+ \d{4}\)/);
        assert.match(all.said, /- lives in Lisbon \(you told me on/);
        const topic = await turn("Dana", SAID.askTopic);
        assert.match(topic.said, /^Here is what I remember about that:\n- lives in Lisbon/);
        assert.doesNotMatch(topic.said, /vegetarian/);
        assert.deepEqual(
          await claims("Dana"),
          ["is vegetarian", "lives in Lisbon"],
          "asking changes nothing",
        );
      });

      test("forget one: one clear match is deleted and said; the request teaches nothing; the fact is not relearned", async () => {
        const env = await ready();
        const a = await agent();
        await teach("Eli", SAID.vegetarian, SAID.lisbon);
        const { facts } = await env.client.listFacts({
          agentId: a.runtime.agentId,
          entityId: people["Eli"]!,
        });
        const vegetarian = facts.find((f) => f.claim === "is vegetarian")!;
        const forgot = await turn("Eli", SAID.forgetVegetarian);
        assert.equal(forgot.said, 'Done: I forgot "is vegetarian".');
        assert.deepEqual(forgot.calls, ONLY_THE_RESPONSE, "no extraction call for a request to forget");
        assert.deepEqual(await claims("Eli"), ["lives in Lisbon"]);
        const history = await env.client.getFact({
          agentId: a.runtime.agentId,
          entityId: people["Eli"]!,
          factId: vegetarian.id,
        });
        const last = history.history.at(-1)!;
        assert.deepEqual(
          [last.action, last.actor, last.reason],
          [HistoryAction.DELETED, `chat:${people["Eli"]}`, "deleted in the chat"],
        );
        // The message it came from is never evaluated again (a replay applies nothing).
        const source = vegetarian.evidenceMessageIds[0]!;
        const replay = await env.client.evaluate({
          agentId: a.runtime.agentId,
          entityId: people["Eli"]!,
          message: { id: source, entityId: people["Eli"]!, name: "Eli", text: SAID.vegetarian },
          items: [],
        });
        assert.ok(replay.replayed);
        assert.deepEqual(await claims("Eli"), ["lives in Lisbon"]);
        // Nor does a later turn's extraction call see it (or the request to forget it) as context.
        const later = await turn("Eli", SAID.peanuts);
        const prompt = later.extractions[0] ?? "";
        assert.ok(prompt.includes(`Eli: ${SAID.lisbon}`), "the person's other messages are context");
        assert.ok(!prompt.includes(`Eli: ${SAID.vegetarian}`), "the forgotten fact's message is not");
        assert.ok(!prompt.includes(`Eli: ${SAID.forgetVegetarian}`), "nor the request to forget it");
        assert.deepEqual(await claims("Eli"), ["is allergic to peanuts", "lives in Lisbon"]);
      });

      test("forget one: several matches are listed and nothing is deleted until the answer picks one", async () => {
        await teach("Fay", SAID.vegetarian, SAID.restaurants);
        const asked = await turn("Fay", SAID.forgetVegetarian);
        assert.deepEqual(asked.calls, ONLY_THE_RESPONSE);
        assert.match(
          asked.said,
          /^I remember a few things that could be it:\n1\. .+\n2\. .+\nWhich should I forget\?/,
        );
        assert.deepEqual(await claims("Fay"), ["is vegetarian", "likes vegetarian restaurants"]);
        const listed = asked.said
          .split("\n")
          .slice(1, 3)
          .map((line) => line.slice(3));
        const answered = await turn("Fay", SAID.secondOne);
        assert.deepEqual(answered.calls, ONLY_THE_RESPONSE);
        assert.equal(answered.said, `Done: I forgot "${listed[1]}".`);
        assert.deepEqual(await claims("Fay"), [listed[0]]);
      });

      test("forget one: no match says so and deletes nothing", async () => {
        await teach("Gus", SAID.lisbon);
        const none = await turn("Gus", SAID.forgetCat);
        assert.equal(none.said, "I don't have anything like that stored about you, so I forgot nothing.");
        assert.deepEqual(await claims("Gus"), ["lives in Lisbon"]);
      });

      test("a safety-critical fact is deleted only after the person confirms", async () => {
        await teach("Hana", SAID.peanuts);
        const asked = await turn("Hana", SAID.forgetPeanuts);
        assert.match(
          asked.said,
          /"is allergic to peanuts" is about your health.*Should I forget it\? Answer yes or no\./,
        );
        assert.deepEqual(await claims("Hana"), ["is allergic to peanuts"]);
        const confirmed = await turn("Hana", SAID.yes);
        assert.equal(confirmed.said, 'Done: I forgot "is allergic to peanuts".');
        assert.deepEqual(await claims("Hana"), []);
      });

      test("another person's fact is never changed through the chat", async () => {
        await teach("Sam", SAID.samVegetarian);
        const refused = await turn("Ivo", SAID.forgetSam);
        assert.equal(
          refused.said,
          "I don't have anything like that stored about you, so I forgot nothing. I only change what I remember about you, never what I remember about Sam.",
        );
        assert.deepEqual(await claims("Sam"), ["is vegetarian"]);
      });

      test("a stranger's attempt on a shared fact of the world is held for review; the fact stays", async () => {
        const env = await ready();
        const a = await agent();
        await teach("Ada", SAID.meetup);
        const held = await turn("Max", SAID.forgetMeetup);
        assert.deepEqual(
          held.calls,
          { response: 1, extraction: 1, other: 0 },
          "the turn's one extraction call",
        );
        assert.match(
          held.said,
          /^"the meetup is on Fridays" is something I know about this community, not about you.*passed your request on for review/,
        );
        const { candidates } = await env.client.listCandidates({ agentId: a.runtime.agentId });
        assert.ok(
          candidates.some((c) => c.fact?.claim === MEETUP),
          "in the review queue",
        );
        const room = await a.runtime.getRoom(a.roomId);
        const shown = await env.client.provide({
          agentId: a.runtime.agentId,
          entityId: people["Ada"]!,
          worldId: room!.worldId!,
          recentMessages: [
            { id: uuid(), entityId: people["Ada"]!, name: "Ada", text: "when is the meetup?" },
          ],
        });
        assert.ok(
          shown.shared.some((s) => s.fact?.claim === MEETUP),
          "still shared",
        );
      });

      test("correct: the stored fact is corrected, not duplicated, and its history says the chat", async () => {
        const env = await ready();
        const a = await agent();
        await teach("Jo", SAID.lisbon);
        const fixed = await turn("Jo", SAID.correct);
        assert.deepEqual(
          fixed.calls,
          { response: 1, extraction: 1, other: 0 },
          "the turn's one extraction call",
        );
        assert.equal(fixed.said, 'Thanks, I fixed it: "lives in Lisbon" is now "lives in Porto".');
        assert.deepEqual(await claims("Jo"), ["lives in Porto"]);
        const { facts } = await env.client.listFacts({ agentId: a.runtime.agentId, entityId: people["Jo"]! });
        const porto = facts.find((f) => f.claim === "lives in Porto")!;
        assert.deepEqual(porto.previousClaims, ["lives in Lisbon"]);
        const history = await env.client.getFact({
          agentId: a.runtime.agentId,
          entityId: people["Jo"]!,
          factId: porto.id,
        });
        const last = history.history.at(-1)!;
        assert.equal(last.actor, `chat:${people["Jo"]}`);
        assert.equal(last.reason, "corrected in the chat: lives in Porto");
      });

      test("forget me: nothing is erased without a confirmation in the NEXT message", async () => {
        // Dana's two facts from the first test.
        const asked = await turn("Dana", SAID.forgetMe);
        assert.match(asked.said, /^That erases everything I remember about you: 2 facts,/);
        assert.deepEqual(asked.calls, ONLY_THE_RESPONSE);
        const other = await turn("Dana", SAID.weather);
        assert.equal(other.said, "Sunny, I hear.");
        const late = await turn("Dana", SAID.yesForgetMe);
        assert.equal(late.said, "There's nothing waiting for your answer, so I changed nothing.");
        assert.deepEqual(await claims("Dana"), ["is vegetarian", "lives in Lisbon"]);
      });

      test("forget me: after the confirmation, everything is erased as ForgetEntity does, and it says what it did", async () => {
        const asked = await turn("Dana", SAID.forgetMe);
        assert.match(asked.said, /answer "yes, forget me" in your next message/);
        const done = await turn("Dana", SAID.yesForgetMe);
        assert.deepEqual(done.calls, ONLY_THE_RESPONSE);
        assert.match(
          done.said,
          /^Done: I erased everything I remembered about you \(2 facts, \d+ relationships, \d+ accounts\)/,
        );
        assert.deepEqual(await claims("Dana"), []);
      });
    });
  }
});
