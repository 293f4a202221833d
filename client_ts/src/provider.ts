/** The FACT_MEMORY provider: what the agent knows about the sender, in every turn's prompt. */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { IAgentRuntime, Memory, Provider, ProviderResult } from "@elizaos/core";

import { contextFor, LOG_SOURCE, describeError } from "./context.js";
import { type ProvideResponse, ScoredFactSchema } from "./gen/factmemory/v1/factmemory_pb.js";
import { KeptPromises } from "./kept.js";
import { questionHint } from "./memory-actions.js";
import { perRuntime } from "./per-runtime.js";
import { buildProvideRequest, loadConversation } from "./request.js";

export const PROVIDER_NAME = "FACT_MEMORY";

/** How long a message's facts block is reused: composeState runs providers several times in one turn. */
const MEMO_TTL_MS = 60_000;
const MEMO_MAX_ENTRIES = 256;

export interface FactMemoryProviderResult extends ProviderResult {
  text: string;
  values: { factMemory: string };
  data: { durable: JsonValue[]; current: JsonValue[]; shared: JsonValue[] };
}

export const EMPTY_RESULT: FactMemoryProviderResult = Object.freeze({
  text: "",
  values: { factMemory: "" },
  data: { durable: [], current: [], shared: [] },
});

/** Shapes a Provide response for composeState; facts go out as JSON because state gets logged and cached. */
export function toProviderResult(response: ProvideResponse): FactMemoryProviderResult {
  return {
    text: response.text,
    values: { factMemory: response.text },
    data: {
      durable: response.durable.map((fact) => toJson(ScoredFactSchema, fact)),
      current: response.current.map((fact) => toJson(ScoredFactSchema, fact)),
      // The world's shared facts relevant to the turn; the text holds them as "What I know about this community:".
      shared: response.shared.map((fact) => toJson(ScoredFactSchema, fact)),
    },
  };
}

/** The turn's call per message, shared by composeState's several provider calls and the prefetch. */
const callsOf = perRuntime(
  () => new KeptPromises<string, FactMemoryProviderResult>(MEMO_TTL_MS, MEMO_MAX_ENTRIES),
);

export const factMemoryProvider: Provider = {
  name: PROVIDER_NAME,
  description:
    "Long-term facts about the person speaking (who they are, what is going on for them now) and about the community",
  // Not dynamic: composeState includes it on every turn without the planner having to ask for it.
  dynamic: false,
  get: async (runtime, message) => provide(runtime, message),
};

/** Never throws and never takes longer than the configured deadline: a turn must not wait on memory. */
async function provide(runtime: IAgentRuntime, message: Memory): Promise<FactMemoryProviderResult> {
  if (message.entityId === runtime.agentId) return EMPTY_RESULT;
  const key = message.id;
  if (!key) return turnFacts(runtime, message);
  const calls = callsOf(runtime);
  return calls.get(key) ?? calls.set(key, turnFacts(runtime, message));
}

/**
 * Starts the turn's Provide before composeState asks for it (prefetch.ts); the provider then takes the same call
 * from the memo, finished or still running. A call that fails is forgotten once it has failed, so that the provider
 * asks again instead of reusing the failure. False when there was nothing to start: the agent's own message, a
 * message without an id, or one whose call is already made.
 */
export function prefetchFacts(runtime: IAgentRuntime, message: Memory): boolean {
  const key = message.id;
  if (!key || message.entityId === runtime.agentId) return false;
  const calls = callsOf(runtime);
  if (calls.get(key)) return false;
  calls.set(key, turnFacts(runtime, message), (facts) => facts !== EMPTY_RESULT);
  return true;
}

/** The turn's facts block, with the question the agent asked about memory; EMPTY_RESULT when the call failed. */
function turnFacts(runtime: IAgentRuntime, message: Memory): Promise<FactMemoryProviderResult> {
  return fetchFacts(runtime, message)
    .then((facts) => withQuestion(runtime, message, facts))
    .catch((error: unknown) => {
      runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error) }, "FactMemory provider failed");
      return EMPTY_RESULT;
    });
}

async function fetchFacts(runtime: IAgentRuntime, message: Memory): Promise<FactMemoryProviderResult> {
  const plugin = contextFor(runtime);
  const deadline = Date.now() + plugin.settings.timeoutMs;
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new ConnectError("FactMemory provider deadline exceeded", Code.DeadlineExceeded)),
    plugin.settings.timeoutMs,
  );
  try {
    // The deadline covers the room lookups too, not only the RPC: a slow database must not hold up the turn.
    const response = await Promise.race([
      requestFacts(runtime, message, deadline, abort.signal),
      rejectOnAbort(abort.signal),
    ]);
    plugin.outage.succeeded();
    return toProviderResult(response);
  } catch (error) {
    plugin.outage.failed("Provide", error);
    return EMPTY_RESULT;
  } finally {
    clearTimeout(timer);
  }
}

async function requestFacts(
  runtime: IAgentRuntime,
  message: Memory,
  deadline: number,
  signal: AbortSignal,
): Promise<ProvideResponse> {
  const [conversation, limits] = await Promise.all([
    // Provide needs the world's id only, which the room holds: the world row is not read.
    loadConversation(
      runtime,
      message.roomId,
      (what, error) =>
        runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error) }, `FactMemory: ${what} failed`),
      false,
    ),
    contextFor(runtime).limits.get(),
  ]);
  const request = buildProvideRequest({
    agentId: runtime.agentId,
    agentName: runtime.character?.name ?? "",
    message,
    conversation,
    limits,
  });
  const timeoutMs = Math.max(1, deadline - Date.now());
  return contextFor(runtime).client.provide(request, { timeoutMs, signal });
}

/** A question the agent asked about the person's memory and this message may answer joins the text. */
async function withQuestion(
  runtime: IAgentRuntime,
  message: Memory,
  result: FactMemoryProviderResult,
): Promise<FactMemoryProviderResult> {
  const hint = await questionHint(runtime, message);
  if (!hint) return result;
  const text = [result.text, hint].filter(Boolean).join("\n\n");
  return { ...result, text, values: { factMemory: text } };
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
