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
/**
 * Starts the message's Provide when `mode` allows it here; never throws. The event handlers do not wait for it:
 * the runtime awaits its event handlers, and the message's handling must not wait on this.
 */
export declare function prefetch(runtime: IAgentRuntime, message: Memory | undefined): Promise<boolean>;
export declare const prefetchEvents: PluginEvents;
