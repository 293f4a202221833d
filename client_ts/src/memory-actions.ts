/**
 * A person controls their own memory from the conversation: "what do you know about me?", "forget that I'm
 * vegetarian", "that's wrong, I moved to Porto", "forget everything about me". Five elizaOS actions, chosen by the
 * agent's ordinary response call (its `actions` field; no model call of their own), that reply through the
 * callback with what the service stores. Only the sender's own facts are read or changed (the requests carry
 * message.entityId, never an id or a name from the text); every change carries the chat origin, so the service's
 * history names the person and its audit line says "via chat".
 */
import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Action, ActionResult, HandlerCallback, IAgentRuntime, Memory } from "@elizaos/core";

import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import {
  type AppliedOp,
  ChatRequestSchema,
  type Fact,
  FactSchema,
  Item,
  OpType,
  Resolution,
} from "./gen/factmemory/v1/factmemory_pb.js";
import { readAnswer, SAFETY_CATEGORIES, say } from "./memory-words.js";
import { evaluateOne } from "./model-mode.js";
import { buildEvaluateRequest, type Conversation, fit, loadConversation } from "./request.js";
import { takeBack } from "./unsaid.js";

export const RECALL_MEMORY = "RECALL_MEMORY";
export const FORGET_FACT = "FORGET_FACT";
export const CORRECT_FACT = "CORRECT_FACT";
export const FORGET_ME = "FORGET_ME";
export const ANSWER_MEMORY_QUESTION = "ANSWER_MEMORY_QUESTION";
export const MEMORY_ACTIONS = [RECALL_MEMORY, FORGET_FACT, CORRECT_FACT, FORGET_ME, ANSWER_MEMORY_QUESTION];

/** Facts an answer lists at most; a forget request offers at most CHOICES of its matches. */
const RECALL_LIMIT = 10;
const CHOICES = 5;
const COUNT_PAGE = 1000;
/** Messages of the room read to check that an answer is the person's next message after the question. */
const ANSWER_WINDOW = 30;

const normalized = (name: string) => name.toLowerCase().replace(/_/g, "");
const MEMORY_NAMES = new Set(MEMORY_ACTIONS.map(normalized));

/**
 * The turn's response chose one of these actions: the message is a request about the memory itself, not something
 * to learn from (the evaluators skip it; CORRECT_FACT makes the turn's one extraction call itself).
 */
export function isMemoryRequest(responses: readonly Memory[]): boolean {
  return responses.some((r) =>
    (r.content?.actions ?? []).some((a) => MEMORY_NAMES.has(normalized(String(a)))),
  );
}

/** A question the agent asked and the person's next message answers. */
interface Question {
  kind: "forget" | "forget_me";
  roomId: string;
  askedIn: string;
  askedAt: number;
  /** forget: the facts offered (one safety-critical fact awaiting a yes: confirmOnly). */
  facts: JsonValue[];
  confirmOnly: boolean;
}

const questionKey = (runtime: IAgentRuntime, entityId: string) =>
  `factmemory:question:${runtime.agentId}:${entityId}`;

async function ask(
  runtime: IAgentRuntime,
  message: Memory,
  question: Omit<Question, "roomId" | "askedIn" | "askedAt">,
) {
  const full: Question = {
    ...question,
    roomId: message.roomId,
    askedIn: message.id ?? "",
    askedAt: message.createdAt ?? Date.now(),
  };
  await runtime.setCache(questionKey(runtime, message.entityId), full as unknown as JsonValue);
}

/** The question this message answers: one was asked in this room and this is the person's next message. */
async function openQuestion(runtime: IAgentRuntime, message: Memory): Promise<Question | undefined> {
  const question = await runtime.getCache<Question>(questionKey(runtime, message.entityId));
  if (!question || question.roomId !== message.roomId || question.askedIn === message.id) return undefined;
  const at = message.createdAt ?? Date.now();
  const recent = await runtime.getMemories({
    tableName: "messages",
    roomId: message.roomId,
    count: ANSWER_WINDOW,
  });
  const between = recent.some(
    (m) =>
      m.entityId === message.entityId &&
      m.id !== message.id &&
      m.id !== question.askedIn &&
      (m.createdAt ?? 0) > question.askedAt &&
      (m.createdAt ?? 0) < at,
  );
  return between ? undefined : question;
}

/** For the response call: the question waiting for this message's answer, so that it can choose the answer action. */
export async function questionHint(runtime: IAgentRuntime, message: Memory): Promise<string> {
  if (message.entityId === runtime.agentId) return "";
  const question = await openQuestion(runtime, message).catch(() => undefined);
  if (!question) return "";
  const what =
    question.kind === "forget_me"
      ? "whether to erase everything remembered about them"
      : question.confirmOnly
        ? "whether to forget a health fact"
        : "which of the listed facts to forget";
  return `# A question waiting for this answer\nThe sender was just asked ${what}. If this message answers it (yes, no, a number, "all", "none"), use the action ${ANSWER_MEMORY_QUESTION}.`;
}

function chatOf(message: Memory, confirmed = false) {
  return create(ChatRequestSchema, { messageId: message.id ?? "", confirmed });
}

function scope(runtime: IAgentRuntime, message: Memory) {
  return { agentId: runtime.agentId, entityId: message.entityId };
}

async function reply(
  callback: HandlerCallback | undefined,
  name: string,
  text: string,
  data: Record<string, JsonValue> = {},
): Promise<ActionResult> {
  await callback?.({ text, actions: [name] });
  return { success: true, text, values: { factMemoryAnswer: text }, data: { actionName: name, ...data } };
}

/** Runs a handler; an unreachable or refusing service is said to the person, and nothing throws out of the turn. */
function guarded(
  name: string,
  body: (
    runtime: IAgentRuntime,
    message: Memory,
    callback: HandlerCallback | undefined,
    responses: Memory[],
  ) => Promise<ActionResult>,
): Action["handler"] {
  return async (runtime, message, _state, _options, callback, responses) => {
    try {
      const result = await body(runtime, message, callback, responses ?? []);
      contextFor(runtime).outage.succeeded();
      return result;
    } catch (error) {
      contextFor(runtime).outage.failed(name, error);
      runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error) }, `FactMemory: ${name} failed`);
      const result = await reply(callback, name, say.unreachable);
      return { ...result, success: false, error: describeError(error) };
    }
  };
}

const facts = (found: ReadonlyArray<{ fact?: Fact | undefined }>) =>
  found.flatMap((s) => (s.fact ? [s.fact] : []));

/** FindFacts of the sender's own facts, cut to the service's limits (GetLimits). */
async function find(runtime: IAgentRuntime, message: Memory, text: string, limit: number) {
  const limits = await contextFor(runtime).limits.get();
  return contextFor(runtime).client.findFacts({
    ...scope(runtime, message),
    text: fit(text, limits.maxTextChars),
    limit: Math.max(1, Math.min(limit, 2 * limits.maxProvideLimit)),
  });
}

async function recall(runtime: IAgentRuntime, message: Memory, callback: HandlerCallback | undefined) {
  const found = await find(runtime, message, message.content.text ?? "", RECALL_LIMIT);
  const topical = found.matches.length > 0;
  const shown = facts(topical ? found.matches : found.near);
  return reply(callback, RECALL_MEMORY, say.recall(shown, topical), {
    facts: shown.map((f) => toJson(FactSchema, f)),
  });
}

async function deleteFacts(
  runtime: IAgentRuntime,
  message: Memory,
  chosen: readonly Fact[],
  confirmed: boolean,
) {
  const deleted: Fact[] = [];
  for (const fact of chosen) {
    try {
      await contextFor(runtime).client.deleteFact({
        ...scope(runtime, message),
        factId: fact.id,
        chat: chatOf(message, confirmed),
      });
      deleted.push(fact);
    } catch (error) {
      if (ConnectError.from(error).code !== Code.NotFound) throw error; // already gone: nothing to say about it
    }
  }
  // Neither the messages the facts came from nor this request are context for a later extraction call again.
  await takeBack(runtime, [...deleted.flatMap((f) => f.evidenceMessageIds), message.id ?? ""]);
  return deleted;
}

/** A name of someone else in the room that the text mentions ("forget that Sam is vegetarian"). */
async function otherPersonNamed(runtime: IAgentRuntime, message: Memory): Promise<string | undefined> {
  const text = (message.content.text ?? "").toLowerCase();
  const { entities } = await loadConversation(runtime, message.roomId, () => undefined);
  for (const entity of entities) {
    if (entity.id === message.entityId || entity.id === runtime.agentId) continue;
    const name = (entity.names ?? []).find(
      (n) => n.length > 1 && new RegExp(`\\b${escape(n.toLowerCase())}\\b`).test(text),
    );
    if (name) return name;
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function forget(
  runtime: IAgentRuntime,
  message: Memory,
  callback: HandlerCallback | undefined,
  responses: Memory[],
) {
  const found = await find(runtime, message, message.content.text ?? "", CHOICES + 5);
  const matches = facts(found.matches);
  const [only] = matches;
  if (!only) {
    const shared = await sharedRequest(runtime, message, responses);
    if (shared) return reply(callback, FORGET_FACT, shared);
    return reply(callback, FORGET_FACT, say.nothingToForget(await otherPersonNamed(runtime, message)));
  }
  if (matches.length > 1) {
    const offered = matches.slice(0, CHOICES);
    await ask(runtime, message, {
      kind: "forget",
      facts: offered.map((f) => toJson(FactSchema, f)),
      confirmOnly: false,
    });
    return reply(callback, FORGET_FACT, say.whichOne(offered), { asked: true });
  }
  if (SAFETY_CATEGORIES.has(only.category)) {
    await ask(runtime, message, { kind: "forget", facts: [toJson(FactSchema, only)], confirmOnly: true });
    return reply(callback, FORGET_FACT, say.confirmSafety(only), { asked: true });
  }
  const deleted = await deleteFacts(runtime, message, [only], false);
  return reply(callback, FORGET_FACT, deleted.length ? say.forgot(deleted) : say.nothingToForget(undefined), {
    deleted: deleted.map((f) => f.id),
  });
}

async function forgetMe(runtime: IAgentRuntime, message: Memory, callback: HandlerCallback | undefined) {
  const listed = await contextFor(runtime).client.listFacts({
    ...scope(runtime, message),
    pageSize: COUNT_PAGE,
  });
  await ask(runtime, message, { kind: "forget_me", facts: [], confirmOnly: true });
  return reply(callback, FORGET_ME, say.confirmForgetMe(listed.facts.length, listed.nextPageToken !== ""), {
    asked: true,
  });
}

async function answer(runtime: IAgentRuntime, message: Memory, callback: HandlerCallback | undefined) {
  const question = await openQuestion(runtime, message);
  await runtime.deleteCache(questionKey(runtime, message.entityId)); // one answer per question
  if (!question) return reply(callback, ANSWER_MEMORY_QUESTION, say.nothingAsked);
  const text = message.content.text ?? "";
  if (question.kind === "forget_me") {
    if (readAnswer(text, 0).kind !== "yes") return reply(callback, ANSWER_MEMORY_QUESTION, say.keptYou);
    const room = await runtime.getMemories({
      tableName: "messages",
      roomId: message.roomId,
      count: ANSWER_WINDOW,
    });
    await takeBack(
      runtime,
      room.filter((m) => m.entityId === message.entityId).map((m) => m.id ?? ""),
    );
    const done = await contextFor(runtime).client.forgetEntity({
      ...scope(runtime, message),
      chat: chatOf(message, true),
    });
    return reply(
      callback,
      ANSWER_MEMORY_QUESTION,
      say.forgotYou(done.factsDeleted, done.relationshipsDeleted, done.identitiesDeleted),
      { erased: true },
    );
  }
  const offered = question.facts.map((f) => fromJson(FactSchema, f));
  const chosen = await chosenFacts(runtime, message, offered, question.confirmOnly);
  if (chosen === undefined) return reply(callback, ANSWER_MEMORY_QUESTION, say.unclear);
  if (chosen.length === 0) return reply(callback, ANSWER_MEMORY_QUESTION, say.keptIt);
  const deleted = await deleteFacts(runtime, message, chosen, true);
  return reply(callback, ANSWER_MEMORY_QUESTION, say.forgot(deleted), { deleted: deleted.map((f) => f.id) });
}

/** The offered facts the answer chooses ([] for no), undefined when it cannot tell. */
async function chosenFacts(
  runtime: IAgentRuntime,
  message: Memory,
  offered: readonly Fact[],
  confirmOnly: boolean,
): Promise<Fact[] | undefined> {
  const text = message.content.text ?? "";
  const said = readAnswer(text, confirmOnly ? 0 : offered.length);
  if (confirmOnly) return said.kind === "yes" ? [...offered] : [];
  if (said.kind === "no") return [];
  if (said.kind === "all") return [...offered];
  if (said.kind === "pick")
    return said.numbers.map((n) => offered[n - 1]).filter((f): f is Fact => f !== undefined);
  // "the one about restaurants": the offered facts the answer's words name.
  const ids = new Set(offered.map((f) => f.id));
  const named = facts((await find(runtime, message, text, RECALL_LIMIT)).matches).filter((f) =>
    ids.has(f.id),
  );
  return named.length > 0 ? named : undefined;
}

/** The turn's one extraction call, made by the action (the evaluators skip a memory request). */
async function extract(
  runtime: IAgentRuntime,
  message: Memory,
  responses: Memory[],
  conversation: Conversation,
) {
  const request = buildEvaluateRequest({
    agentId: runtime.agentId,
    agentName: runtime.character?.name ?? "",
    message,
    conversation,
    limits: await contextFor(runtime).limits.get(),
    responses,
    items: [Item.FACTS, Item.RELATIONSHIPS, Item.IDENTITIES],
    didRespond: true,
  });
  return evaluateOne(runtime, request);
}

/** An op of the model on one of the world's shared facts (handles SD1, SC1, ...), not on the person's own. */
const onShared = (op: AppliedOp, person: string) => op.handle.startsWith("S") && op.fact?.entityId !== person;

/** What became of a request about the world's shared facts: the service trusts its teachers, holds the rest. */
function sharedOutcome(ops: readonly AppliedOp[]): string | undefined {
  for (const op of ops) {
    const claim = op.fact?.claim ?? "";
    if (op.rejected || !claim) continue;
    if (op.candidateId) return say.heldForReview(claim);
    if (op.deleted) return say.forgotShared(claim);
    if (op.op === OpType.DECAY) return say.lessSure(claim);
  }
  return undefined;
}

/**
 * A request in a world that names none of the person's own facts may be about the world's shared facts: the turn's
 * extraction call decides, and the service applies it as it applies any turn (a teacher's word counts, a stranger's
 * is held for review). Undefined when there is no world or it changed nothing shared.
 */
async function sharedRequest(runtime: IAgentRuntime, message: Memory, responses: Memory[]) {
  const conversation = await loadConversation(runtime, message.roomId, () => undefined);
  if (!conversation.world) return undefined;
  const result = await extract(runtime, message, responses, conversation);
  return sharedOutcome(result.ops.filter((op) => onShared(op, message.entityId)));
}

/**
 * The turn's one extraction call: a correction the model reports of one of the person's own facts is settled at once
 * as theirs (ResolveCandidate with the chat origin) instead of waiting for a reviewer; one of a shared fact goes as
 * the service decides for the speaker (held for review unless they teach the world).
 */
async function correct(
  runtime: IAgentRuntime,
  message: Memory,
  callback: HandlerCallback | undefined,
  responses: Memory[],
) {
  const plugin = contextFor(runtime);
  const conversation = await loadConversation(runtime, message.roomId, () => undefined);
  const result = await extract(runtime, message, responses, conversation);
  const own = result.ops.filter((op) => !onShared(op, message.entityId));
  const correction = own.find((op) => op.op === OpType.CONTRADICT && op.candidateId && op.fact);
  if (correction) {
    const settled = await plugin.client.resolveCandidate({
      ...scope(runtime, message),
      candidateId: correction.candidateId,
      resolution: Resolution.ACCEPT,
      chat: chatOf(message),
    });
    const after = settled.fact?.claim ?? "";
    return reply(callback, CORRECT_FACT, say.corrected(correction.fact?.claim ?? "", after), {
      factId: settled.fact?.id ?? "",
    });
  }
  const shared = sharedOutcome(result.ops.filter((op) => onShared(op, message.entityId)));
  if (shared) return reply(callback, CORRECT_FACT, shared);
  const added = own.flatMap((op) =>
    !op.rejected && (op.op === OpType.ADD_DURABLE || op.op === OpType.ADD_CURRENT) && op.fact
      ? [op.fact]
      : [],
  );
  if (added.length > 0) return reply(callback, CORRECT_FACT, say.noted(added));
  return reply(callback, CORRECT_FACT, say.notCorrected);
}

const fromPerson = async (runtime: IAgentRuntime, message: Memory) =>
  message.entityId !== runtime.agentId &&
  typeof message.content?.text === "string" &&
  message.content.text.trim() !== "";

function example(user: string, agent: string, action: string) {
  return [
    { name: "{{name1}}", content: { text: user } },
    { name: "{{agentName}}", content: { text: agent, actions: [action] } },
  ];
}

export const recallMemoryAction: Action = {
  name: RECALL_MEMORY,
  similes: ["WHAT_DO_YOU_KNOW_ABOUT_ME", "SHOW_MY_MEMORY", "RECALL_FACTS"],
  description:
    'The sender asks what you know or remember about THEM ("what do you know about me?", "what do you remember about my job?"). Replies with their stored facts and where each came from. Use it alone, without REPLY.',
  validate: fromPerson,
  handler: guarded(RECALL_MEMORY, (runtime, message, callback) => recall(runtime, message, callback)),
  examples: [example("What do you know about me?", "Here is what I remember about you: ...", RECALL_MEMORY)],
};

export const forgetFactAction: Action = {
  name: FORGET_FACT,
  similes: ["FORGET_THAT", "DELETE_MEMORY", "REMOVE_FACT"],
  description:
    'The sender asks you to forget or delete ONE thing you remember about them ("forget that I\'m vegetarian", "forget what I said about my ex"). Deletes it, or asks which one when several match. Use it alone, without REPLY.',
  validate: fromPerson,
  handler: guarded(FORGET_FACT, (runtime, message, callback, responses) =>
    forget(runtime, message, callback, responses),
  ),
  examples: [example("Please forget that I'm vegetarian.", 'Done: I forgot "is vegetarian".', FORGET_FACT)],
};

export const correctFactAction: Action = {
  name: CORRECT_FACT,
  similes: ["CORRECT_MEMORY", "FIX_FACT", "UPDATE_MEMORY"],
  description:
    'The sender says something you remember about them is wrong and gives the right version ("that\'s wrong, I moved to Porto in March"). Corrects the stored fact. Use it alone, without REPLY.',
  validate: fromPerson,
  handler: guarded(CORRECT_FACT, (runtime, message, callback, responses) =>
    correct(runtime, message, callback, responses),
  ),
  examples: [
    example(
      "That's wrong, I don't live in Lisbon any more, I moved to Porto in March.",
      'Thanks, I fixed it: "lives in Lisbon" is now "lives in Porto".',
      CORRECT_FACT,
    ),
  ],
};

export const forgetMeAction: Action = {
  name: FORGET_ME,
  similes: ["FORGET_EVERYTHING_ABOUT_ME", "ERASE_MY_DATA", "DELETE_ALL_MY_MEMORY"],
  description:
    'The sender asks you to forget EVERYTHING about them ("forget me", "delete all you know about me"). Asks them to confirm in their next message first. Use it alone, without REPLY.',
  validate: fromPerson,
  handler: guarded(FORGET_ME, (runtime, message, callback) => forgetMe(runtime, message, callback)),
  examples: [
    example(
      "Forget everything about me.",
      'That erases everything I remember about you ... answer "yes, forget me"',
      FORGET_ME,
    ),
  ],
};

export const answerMemoryQuestionAction: Action = {
  name: ANSWER_MEMORY_QUESTION,
  similes: ["CONFIRM_FORGET", "CHOOSE_FACT_TO_FORGET"],
  description:
    'The sender answers the question you just asked about their memory (which fact to forget, or whether to really forget it or everything about them): yes, no, a number, "all" or "none". Use it alone, without REPLY.',
  validate: async (runtime, message) =>
    (await fromPerson(runtime, message)) &&
    (await openQuestion(runtime, message).catch(() => undefined)) !== undefined,
  handler: guarded(ANSWER_MEMORY_QUESTION, (runtime, message, callback) =>
    answer(runtime, message, callback),
  ),
  examples: [
    example(
      "Yes, forget me.",
      "Done: I erased everything I remembered about you ...",
      ANSWER_MEMORY_QUESTION,
    ),
  ],
};

export const memoryActions: readonly Action[] = [
  recallMemoryAction,
  forgetFactAction,
  correctFactAction,
  forgetMeAction,
  answerMemoryQuestionAction,
];
