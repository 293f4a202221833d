/**
 * The turn's Provide starts when a person's message arrives instead of when composeState asks the provider for it.
 *
 * elizaOS's message service stores the message, queues its embedding (EMBEDDING_GENERATION_REQUESTED), composes a
 * first state without this provider, decides whether to answer, and only then composes the state that runs the
 * provider. Started at the first of those events, the Provide call (the room's messages, the service's embedding
 * of the turn, the ranking) runs while elizaOS does that work, and the provider takes the same call from its memo,
 * finished or still running. Nothing is fetched twice: the memo is keyed by the message's id.
 *
 * FACT_MEMORY_PREFETCH says where: `answered` (the default) only where the runtime's message service decides to
 * answer without asking its model (a direct message, a mention, a reply: its own `shouldRespond`), so a message the
 * agent may ignore costs nothing; `all` for every person's message; `off` never.
 */
import type { IAgentRuntime, Memory, PluginEvents } from "@elizaos/core";

import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import { prefetchFacts } from "./provider.js";
import { roomOf } from "./rooms.js";
import type { PrefetchMode } from "./settings.js";

/**
 * Starts the message's Provide when `mode` allows it here; never throws. The event handlers do not wait for it:
 * the runtime awaits its event handlers, and the message's handling must not wait on this.
 */
export async function prefetch(runtime: IAgentRuntime, message: Memory | undefined): Promise<boolean> {
  try {
    if (!message?.id || message.entityId === runtime.agentId || !message.content?.text?.trim()) return false;
    const mode = contextFor(runtime).settings.prefetch;
    if (!(await wanted(mode, runtime, message))) return false;
    return prefetchFacts(runtime, message);
  } catch (error) {
    runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error) }, "FactMemory prefetch failed");
    return false;
  }
}

async function wanted(mode: PrefetchMode, runtime: IAgentRuntime, message: Memory): Promise<boolean> {
  if (mode !== "answered") return mode === "all";
  const service = runtime.messageService;
  if (!service) return false;
  const room = await roomOf(runtime, message.roomId);
  if (!room) return false;
  const decision = service.shouldRespond(runtime, message, room, message.content.mentionContext);
  // skipEvaluation: decided without the model's should-respond call, so the provider will run for this message.
  return decision.shouldRespond && decision.skipEvaluation;
}

export const prefetchEvents: PluginEvents = {
  // The message service queues a stored message's embedding right after storing it, before composing any state.
  EMBEDDING_GENERATION_REQUESTED: [
    async ({ runtime, memory }) => {
      void prefetch(runtime, memory);
    },
  ],
  // Clients that announce a message before handing it to the message service.
  MESSAGE_RECEIVED: [
    async ({ runtime, message }) => {
      void prefetch(runtime, message);
    },
  ],
};
