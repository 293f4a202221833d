/**
 * Messages a person took back from the chat: the messages a fact they had forgotten came from, the request to forget
 * it, and, after "forget me", their messages the room still holds. They stay in the room (elizaOS's own history) but
 * are never sent again as context (recent messages) to the service, so a later turn's extraction call does not see
 * them and learn the forgotten fact again. Kept in the runtime's cache, the newest MAX_UNSAID.
 */
import type { IAgentRuntime, Memory } from "@elizaos/core";
/** Message ids ("reviewer:..." and "import:..." evidence is not a message and is skipped). */
export declare function takeBack(runtime: IAgentRuntime, ids: Iterable<string>): Promise<void>;
/** The messages without those taken back; on any failure to read the list, all of them. */
export declare function withoutUnsaid(runtime: IAgentRuntime, messages: Memory[]): Promise<Memory[]>;
