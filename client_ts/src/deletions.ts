/**
 * Deletions reach the memory: on MESSAGE_DELETED and CHANNEL_CLEARED the plugin calls ForgetMessages once per
 * event. The request is kept in the runtime's cache until the service has answered, so an outage or a stop
 * loses nothing: transient failures are retried (bounded), and what is still unsent is sent on the next start.
 * ForgetMessages is idempotent on the service, so a resend after a crash is harmless.
 */
import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import type { ChannelClearedPayload, IAgentRuntime, MessagePayload, PluginEvents } from "@elizaos/core";

import type { PendingStore } from "./batch.js";
import { batcherFor } from "./batching.js";
import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import {
  type ForgetMessagesRequest,
  ForgetMessagesRequestSchema,
  type ForgetMessagesResponse,
} from "./gen/factmemory/v1/factmemory_pb.js";
import { cacheStore, perRuntime } from "./per-runtime.js";
import { type Sleep, withRetries } from "./retry.js";

/** Waits between the tries of one ForgetMessages; after the last, it waits in the cache for the next start. */
export const FORGET_DELAYS_MS: readonly number[] = [1_000, 5_000, 20_000];

export interface ForgetQueueOptions {
  send(request: ForgetMessagesRequest): Promise<ForgetMessagesResponse>;
  store: PendingStore;
  delaysMs: readonly number[];
  wait?: Sleep;
  onError(what: string, error: unknown): void;
}

const STORE_VERSION = 1;

/** ForgetMessages requests not yet acknowledged by the service, persisted in order. */
export class ForgetQueue {
  readonly #options: ForgetQueueOptions;
  readonly #pending: ForgetMessagesRequest[] = [];
  #saved: Promise<void> = Promise.resolve();

  constructor(options: ForgetQueueOptions) {
    this.#options = options;
  }

  get waiting(): number {
    return this.#pending.length;
  }

  /** Keeps the request, sends it (retrying transient failures); undefined when it is still waiting. */
  async forget(request: ForgetMessagesRequest): Promise<ForgetMessagesResponse | undefined> {
    this.#pending.push(request);
    await this.#save();
    return this.#send(request);
  }

  /** Takes up what an earlier process left unsent and sends it. */
  async restore(): Promise<void> {
    let stored: JsonValue | undefined;
    try {
      stored = await this.#options.store.load();
    } catch (error) {
      this.#options.onError("loading pending deletions", error);
      return;
    }
    const requests = parseStored(stored);
    this.#pending.push(...requests);
    for (const request of requests) await this.#send(request);
  }

  async #send(request: ForgetMessagesRequest): Promise<ForgetMessagesResponse | undefined> {
    try {
      const response = await withRetries(
        () => this.#options.send(request),
        this.#options.delaysMs,
        this.#options.wait,
      );
      const index = this.#pending.indexOf(request);
      if (index >= 0) this.#pending.splice(index, 1);
      await this.#save();
      return response;
    } catch (error) {
      this.#options.onError("ForgetMessages", error);
      return undefined;
    }
  }

  #save(): Promise<void> {
    const snapshot: JsonValue = {
      version: STORE_VERSION,
      requests: this.#pending.map((request) => toJson(ForgetMessagesRequestSchema, request)),
    };
    this.#saved = this.#saved
      .then(() => this.#options.store.save(snapshot))
      .catch((error: unknown) => this.#options.onError("saving pending deletions", error));
    return this.#saved;
  }
}

function parseStored(stored: JsonValue | undefined): ForgetMessagesRequest[] {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return [];
  if (stored["version"] !== STORE_VERSION || !Array.isArray(stored["requests"])) return [];
  const out: ForgetMessagesRequest[] = [];
  for (const json of stored["requests"]) {
    try {
      out.push(fromJson(ForgetMessagesRequestSchema, json));
    } catch {
      // not a request of this version: nothing to send
    }
  }
  return out;
}

/** The runtime cache key of the unsent deletions (one per agent). */
export function forgetKey(agentId: string): string {
  return `factmemory:forget:${agentId}`;
}

export const forgetQueueFor = perRuntime((runtime) => {
  const plugin = contextFor(runtime);
  return new ForgetQueue({
    delaysMs: FORGET_DELAYS_MS,
    store: cacheStore(runtime, forgetKey(runtime.agentId)),
    send: async (request) => {
      try {
        const response = await plugin.client.forgetMessages(request);
        plugin.outage.succeeded();
        return response;
      } catch (error) {
        plugin.outage.failed("ForgetMessages", error);
        throw error;
      }
    },
    onError: (what, error) =>
      runtime.logger.warn(
        { src: LOG_SOURCE, error: describeError(error) },
        what === "ForgetMessages"
          ? "FactMemory: ForgetMessages failed; it is kept and sent again when the agent next starts"
          : `FactMemory: ${what} failed`,
      ),
  });
});

/** Pure: the ForgetMessages request for a deleted message; undefined for the agent's own or an id-less message. */
export function forgetMessageRequest(
  agentId: string,
  message: MessagePayload["message"],
): ForgetMessagesRequest | undefined {
  if (typeof message.id !== "string" || message.entityId === agentId) return undefined;
  return create(ForgetMessagesRequestSchema, {
    agentId,
    entityId: message.entityId,
    messageIds: [message.id],
  });
}

/** Pure: the ForgetMessages request for a cleared channel: every person's messages in that room. */
export function forgetRoomRequest(agentId: string, roomId: string): ForgetMessagesRequest {
  return create(ForgetMessagesRequestSchema, { agentId, roomId });
}

/** Handles one MESSAGE_DELETED; never throws (the emitter awaits every handler). */
export async function onMessageDeleted(payload: MessagePayload): Promise<void> {
  const { runtime, message } = payload;
  const request = forgetMessageRequest(runtime.agentId, message);
  if (!request) return;
  const ids = new Set(request.messageIds);
  await dropWaiting(runtime, (waiting) => ids.has(waiting.message?.id ?? ""));
  await forgetQueueFor(runtime).forget(request);
}

/** Handles one CHANNEL_CLEARED; never throws. */
export async function onChannelCleared(payload: ChannelClearedPayload): Promise<void> {
  const { runtime, roomId } = payload;
  if (typeof roomId !== "string" || roomId.length === 0) return;
  await dropWaiting(runtime, (waiting) => waiting.roomId === roomId);
  await forgetQueueFor(runtime).forget(forgetRoomRequest(runtime.agentId, roomId));
}

/** A deleted message still waiting for its batch (FACT_MEMORY_EVALUATE_EVERY) is never sent. */
async function dropWaiting(
  runtime: IAgentRuntime,
  deleted: Parameters<ReturnType<typeof batcherFor>["drop"]>[0],
): Promise<void> {
  try {
    await batcherFor(runtime).drop(deleted);
  } catch (error) {
    runtime.logger.warn(
      { src: LOG_SOURCE, error: describeError(error) },
      "FactMemory: dropping a deleted message failed",
    );
  }
}

/** Sends, once the runtime is up, the deletions an earlier process could not send. Never throws. */
export function restoreDeletions(runtime: IAgentRuntime): Promise<void> {
  return runtime.initPromise
    .then(() => forgetQueueFor(runtime).restore())
    .catch((error: unknown) =>
      runtime.logger.warn(
        { src: LOG_SOURCE, error: describeError(error) },
        "FactMemory: sending pending deletions failed",
      ),
    );
}

export const deletionEvents: PluginEvents = {
  MESSAGE_DELETED: [onMessageDeleted],
  CHANNEL_CLEARED: [onChannelCleared],
};
