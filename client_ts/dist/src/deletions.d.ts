import type { ChannelClearedPayload, IAgentRuntime, MessagePayload, PluginEvents } from "@elizaos/core";
import type { PendingStore } from "./batch.js";
import { type ForgetMessagesRequest, type ForgetMessagesResponse } from "./gen/factmemory/v1/factmemory_pb.js";
import { type Sleep } from "./retry.js";
/** Waits between the tries of one ForgetMessages; after the last, it waits in the cache for the next start. */
export declare const FORGET_DELAYS_MS: readonly number[];
export interface ForgetQueueOptions {
    send(request: ForgetMessagesRequest): Promise<ForgetMessagesResponse>;
    store: PendingStore;
    delaysMs: readonly number[];
    wait?: Sleep;
    onError(what: string, error: unknown): void;
}
/** ForgetMessages requests not yet acknowledged by the service, persisted in order. */
export declare class ForgetQueue {
    #private;
    constructor(options: ForgetQueueOptions);
    get waiting(): number;
    /** Keeps the request, sends it (retrying transient failures); undefined when it is still waiting. */
    forget(request: ForgetMessagesRequest): Promise<ForgetMessagesResponse | undefined>;
    /** Takes up what an earlier process left unsent and sends it. */
    restore(): Promise<void>;
}
/** The runtime cache key of the unsent deletions (one per agent). */
export declare function forgetKey(agentId: string): string;
export declare const forgetQueueFor: (runtime: IAgentRuntime) => ForgetQueue;
/** Pure: the ForgetMessages request for a deleted message; undefined for the agent's own or an id-less message. */
export declare function forgetMessageRequest(agentId: string, message: MessagePayload["message"]): ForgetMessagesRequest | undefined;
/** Pure: the ForgetMessages request for a cleared channel: every person's messages in that room. */
export declare function forgetRoomRequest(agentId: string, roomId: string): ForgetMessagesRequest;
/** Handles one MESSAGE_DELETED; never throws (the emitter awaits every handler). */
export declare function onMessageDeleted(payload: MessagePayload): Promise<void>;
/** Handles one CHANNEL_CLEARED; never throws. */
export declare function onChannelCleared(payload: ChannelClearedPayload): Promise<void>;
/** Sends, once the runtime is up, the deletions an earlier process could not send. Never throws. */
export declare function restoreDeletions(runtime: IAgentRuntime): Promise<void>;
export declare const deletionEvents: PluginEvents;
