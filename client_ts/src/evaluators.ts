/**
 * Four elizaOS evaluators that share ONE Evaluate call per message: each handler joins the pending
 * request of its message, and the service answers every item with a single LLM call.
 */
import { toJson } from "@bufbuild/protobuf";
import type { ActionResult, Evaluator, EvaluationExample, IAgentRuntime, Memory } from "@elizaos/core";

import type { Queued } from "./batch.js";
import { batcherFor } from "./batching.js";
import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import {
  AppliedOpSchema,
  type EvaluateRequest,
  type EvaluateResponse,
  IdentitySchema,
  Item,
  RelationshipSchema,
  SuccessVerdictSchema,
  UsageSchema,
} from "./gen/factmemory/v1/factmemory_pb.js";
import { Join } from "./join.js";
import { isMemoryRequest } from "./memory-actions.js";
import { evaluateOne, TurnDropped } from "./model-mode.js";
import { perRuntime } from "./per-runtime.js";
import { mirrorRelationships } from "./relationships.js";
import { buildEvaluateRequest, loadConversation } from "./request.js";

/** How long a joined request waits for an expected evaluator that has not arrived. */
export const JOIN_GRACE_MS = 100;

/** What the first handler of a message saw; every handler of one runtime.evaluate call sees the same. */
export interface EvaluateContext {
  runtime: IAgentRuntime;
  message: Memory;
  responses: readonly Memory[];
}

interface EvaluatorSpec {
  name: string;
  item: Item;
  /**
   * runtime.evaluate runs an evaluator on a turn the agent did not answer only when alwaysRun is set.
   * Facts, relationships and identities are things people say whether or not the agent replies (a group
   * chat where it stays quiet); whether the agent's answer completed the request only exists if it answered.
   */
  alwaysRun: boolean;
  description: string;
  similes: string[];
  examples: EvaluationExample[];
}

const SPECS: readonly EvaluatorSpec[] = [
  {
    name: "FACT_MEMORY_FACTS",
    item: Item.FACTS,
    alwaysRun: true,
    description:
      "Learns durable facts (who someone is) and current facts (their state right now) about the sender.",
    similes: ["LEARN_FACTS", "REMEMBER_FACTS"],
    examples: [
      example(
        "The sender says where they live and how they feel today.",
        "I moved to Berlin last year, and I'm pretty anxious this morning.",
        "Durable fact 'lives in Berlin'; current fact 'anxious this morning'.",
      ),
    ],
  },
  {
    name: "FACT_MEMORY_RELATIONSHIPS",
    item: Item.RELATIONSHIPS,
    alwaysRun: true,
    description: "Records how the people in the room relate to each other and to the agent.",
    similes: ["LEARN_RELATIONSHIPS"],
    examples: [
      example(
        "The sender talks about another person in the room.",
        "Sam is my sister, we run the bakery together.",
        "Relationship sender -> Sam tagged family, colleague.",
      ),
    ],
  },
  {
    name: "FACT_MEMORY_IDENTITIES",
    item: Item.IDENTITIES,
    alwaysRun: true,
    description: "Links the sender to their handles on other platforms when they mention them.",
    similes: ["LEARN_IDENTITIES"],
    examples: [
      example(
        "The sender gives an account on another platform.",
        "You can find me on GitHub as @dana-dev.",
        "Identity github:@dana-dev for the sender.",
      ),
    ],
  },
  {
    name: "FACT_MEMORY_SUCCESS",
    item: Item.SUCCESS,
    alwaysRun: false,
    description: "Judges whether the agent's reply on this turn did what the sender asked.",
    similes: ["TASK_SUCCESS"],
    examples: [
      example(
        "The sender asked a question and the agent answered it.",
        "What's the capital of Portugal?",
        "Completed: the agent answered Lisbon.",
      ),
    ],
  },
];

const ALWAYS_RUN = new Set(SPECS.filter((spec) => spec.alwaysRun).map((spec) => spec.item));

/** A message worth evaluating: someone other than the agent said something, and it can be keyed. */
export function isEvaluable(runtime: IAgentRuntime, message: Memory): boolean {
  return (
    typeof message.id === "string" &&
    message.entityId !== runtime.agentId &&
    typeof message.content?.text === "string" &&
    message.content.text.trim() !== ""
  );
}

/**
 * The items of this plugin that runtime.evaluate will start for a message, given who has arrived.
 * didRespond is not passed to handlers, so it is inferred: only a responded turn runs a non-alwaysRun
 * evaluator, and the runtime passes the turn's responses along.
 */
export function expectedItems(
  registeredNames: ReadonlySet<string>,
  arrived: ReadonlySet<Item>,
  responses: readonly Memory[],
): Item[] {
  const responded = inferDidRespond(arrived, responses);
  return SPECS.filter((spec) => registeredNames.has(spec.name) && (spec.alwaysRun || responded)).map(
    (spec) => spec.item,
  );
}

export function inferDidRespond(arrived: ReadonlySet<Item>, responses: readonly Memory[]): boolean {
  return responses.length > 0 || [...arrived].some((item) => !ALWAYS_RUN.has(item));
}

/** The service's answer for a message, or word that it waits for its batch (FACT_MEMORY_EVALUATE_EVERY). */
type Outcome = EvaluateResponse | Queued;

// One join per runtime, so that runtimes in one process never share pending requests.
const joinFor = perRuntime(
  () =>
    new Join<Item, EvaluateContext, Outcome>({
      graceMs: JOIN_GRACE_MS,
      expected: (context, arrived) =>
        expectedItems(new Set(context.runtime.evaluators.map((e) => e.name)), arrived, context.responses),
      send: sendEvaluate,
    }),
);

/** Sends the joined request; every failure is logged here, once per request rather than once per evaluator. */
async function sendEvaluate(context: EvaluateContext, items: readonly Item[]): Promise<Outcome> {
  const plugin = contextFor(context.runtime);
  if (plugin.settings.evaluateEvery > 1) {
    // Queued; when the batch is full it goes now (its failures are logged by the batcher's sender).
    return batcherFor(context.runtime).add(await buildRequest(context, items));
  }
  try {
    const response = await evaluate(context, items);
    plugin.outage.succeeded();
    return response;
  } catch (error) {
    if (!(error instanceof TurnDropped)) plugin.outage.failed("Evaluate", error); // a drop warned already
    throw error;
  }
}

async function buildRequest(context: EvaluateContext, items: readonly Item[]): Promise<EvaluateRequest> {
  const { runtime, message, responses } = context;
  const conversation = await loadConversation(runtime, message.roomId, (what, error) =>
    runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error) }, `FactMemory: ${what} failed`),
  );
  return buildEvaluateRequest({
    agentId: runtime.agentId,
    agentName: runtime.character?.name ?? "",
    message,
    conversation,
    limits: await contextFor(runtime).limits.get(),
    responses,
    items: [...items].sort((a, b) => a - b),
    didRespond: inferDidRespond(new Set(items), responses),
  });
}

async function evaluate(context: EvaluateContext, items: readonly Item[]): Promise<EvaluateResponse> {
  const { runtime } = context;
  const request = await buildRequest(context, items);
  const response = await evaluateOne(runtime, request);
  if (items.includes(Item.RELATIONSHIPS)) {
    await mirrorRelationships(runtime, response.relationships, (error) =>
      runtime.logger.warn(
        { src: LOG_SOURCE, error: describeError(error) },
        "FactMemory: mirroring a relationship failed",
      ),
    );
  }
  return response;
}

function makeEvaluator(spec: EvaluatorSpec): Evaluator {
  return {
    name: spec.name,
    description: spec.description,
    similes: spec.similes,
    examples: spec.examples,
    alwaysRun: spec.alwaysRun,
    validate: async (runtime, message) => isEvaluable(runtime, message),
    handler: async (runtime, message, _state, _options, _callback, responses) =>
      handle(spec, runtime, message, responses ?? []),
  };
}

/** Never throws: runtime.evaluate awaits all handlers with Promise.all, so one throw would fail the turn. */
async function handle(
  spec: EvaluatorSpec,
  runtime: IAgentRuntime,
  message: Memory,
  responses: readonly Memory[],
): Promise<ActionResult> {
  try {
    if (!isEvaluable(runtime, message)) return { success: false, error: "message cannot be evaluated" };
    // "Forget that I'm vegetarian" is about the memory, not the person: nothing is learned from it (a correction's
    // one extraction call is made by its action).
    if (isMemoryRequest(responses)) {
      return { success: true, text: "FactMemory: a request about the memory itself is not learned from" };
    }
    const key = `${runtime.agentId}:${message.id}`;
    const joined = await joinFor(runtime).arrive(key, spec.item, { runtime, message, responses });
    if (!joined.members.has(spec.item)) {
      return { success: false, error: `${spec.name} arrived after this message's Evaluate call was sent` };
    }
    return { success: true, ...resultFor(spec.item, joined.value) };
  } catch (error) {
    return { success: false, error: describeError(error) };
  }
}

/** Each evaluator reports its own slice of the shared response, as JSON (state and logs get serialized). */
function resultFor(item: Item, outcome: Outcome): Pick<ActionResult, "text" | "data"> {
  if ("queued" in outcome) {
    return {
      text: `FactMemory: queued for a batched evaluation (${outcome.waiting} waiting)`,
      data: { queued: true, waiting: outcome.waiting },
    };
  }
  const response = outcome;
  const replayed = response.replayed;
  switch (item) {
    case Item.FACTS: {
      const applied = response.ops.filter((op) => !op.rejected).length;
      return {
        text: `FactMemory applied ${applied} of ${response.ops.length} fact operations`,
        data: {
          ops: response.ops.map((op) => toJson(AppliedOpSchema, op)),
          usage: response.usage ? toJson(UsageSchema, response.usage) : null,
          replayed,
        },
      };
    }
    case Item.RELATIONSHIPS:
      return {
        text: `FactMemory saw ${response.relationships.length} relationships`,
        data: { relationships: response.relationships.map((r) => toJson(RelationshipSchema, r)), replayed },
      };
    case Item.IDENTITIES:
      return {
        text: `FactMemory saw ${response.identities.length} identities`,
        data: { identities: response.identities.map((i) => toJson(IdentitySchema, i)), replayed },
      };
    default:
      return {
        text: response.success?.completed ? "FactMemory: task completed" : "FactMemory: task not completed",
        data: { success: response.success ? toJson(SuccessVerdictSchema, response.success) : null, replayed },
      };
  }
}

function example(prompt: string, text: string, outcome: string): EvaluationExample {
  return { prompt, messages: [{ name: "{{name1}}", content: { text } }], outcome };
}

const [facts, relationships, identities, success] = SPECS.map(makeEvaluator) as [
  Evaluator,
  Evaluator,
  Evaluator,
  Evaluator,
];

export const factMemoryEvaluator: Evaluator = facts;
export const relationshipEvaluator: Evaluator = relationships;
export const identityEvaluator: Evaluator = identities;
export const successEvaluator: Evaluator = success;
export const factMemoryEvaluators: readonly Evaluator[] = [facts, relationships, identities, success];
