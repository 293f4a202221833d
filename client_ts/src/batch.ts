/**
 * Batched evaluation: instead of one Evaluate per message, a person's messages wait until `every` of them
 * (or a quiet period) and go to the service as ONE EvaluateBatch, one LLM call for all of them.
 *
 * What waits is kept in a store (the runtime's cache) as the Evaluate requests they would have been, so a
 * stopped process loses nothing: pending messages are sent on shutdown, and whatever a crash left behind
 * is sent on the next start. The service applies each message exactly once (idempotent per message id), so
 * sending a message twice, after a crash between the service's answer and the store's update, is harmless.
 */
import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";

import {
  type ChatMessage,
  type EvaluateBatchRequest,
  EvaluateBatchRequestSchema,
  type EvaluateBatchResponse,
  type EvaluateRequest,
  EvaluateRequestSchema,
  type EvaluateResponse,
} from "./gen/factmemory/v1/factmemory_pb.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "./limits.js";
import { isFinal, isTransient } from "./retry.js";

/** Where the waiting requests are kept between calls and processes. */
export interface PendingStore {
  load(): Promise<JsonValue | undefined>;
  save(value: JsonValue): Promise<void>;
}

export interface BatcherOptions {
  /** Send when a person has this many messages waiting (or the service's largest batch, when smaller). */
  every: number;
  /**
   * The service's limits (LearnedLimits.get): a batch holds at most maxBatchMessages, a longer queue goes out in
   * several; its defaults when not given.
   */
  limits?: () => Promise<ServiceLimits>;
  /** ... or when none has come for this long (0: only on `every`, shutdown and start). */
  quietMs: number;
  send(request: EvaluateBatchRequest): Promise<EvaluateBatchResponse>;
  store: PendingStore;
  /**
   * A send or a store access failed. After a transient failure the messages stay pending and go again after a
   * quiet period; after a final one (FAILED_PRECONDITION, INVALID_ARGUMENT: the service would answer the same)
   * the batch is dropped; after any other they wait for the next send.
   */
  onError(what: string, error: unknown): void;
}

/** A message that waits for its batch. */
export interface Queued {
  queued: true;
  /** Messages of this person and room waiting, this one included. */
  waiting: number;
}

const STORE_VERSION = 1;

export class Batcher {
  readonly #options: BatcherOptions;
  /** Per person and room, oldest first. */
  readonly #pending = new Map<string, EvaluateRequest[]>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** One send at a time per person and room. */
  readonly #sending = new Map<string, Promise<unknown>>();
  #saved: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: BatcherOptions) {
    this.#options = options;
  }

  /** Messages waiting, in all rooms. */
  get waiting(): number {
    let count = 0;
    for (const list of this.#pending.values()) count += list.length;
    return count;
  }

  /**
   * Queues one message's request. When its person has `every` messages waiting they are sent, and this
   * message's own result comes back; otherwise it waits (and the quiet timer starts again).
   */
  async add(request: EvaluateRequest): Promise<EvaluateResponse | Queued> {
    const key = keyOf(request);
    const list = this.#pending.get(key) ?? [];
    const id = request.message?.id ?? "";
    if (!list.some((queued) => queued.message?.id === id)) list.push(request);
    this.#pending.set(key, list);
    await this.#save();
    const { maxBatchMessages } = await this.#limits();
    if (list.length >= Math.min(this.#options.every, maxBatchMessages)) {
      const results = await this.flush(key);
      return results.get(id) ?? { queued: true, waiting: this.#pending.get(key)?.length ?? 0 };
    }
    this.#arm(key);
    return { queued: true, waiting: list.length };
  }

  /** Sends what waits for one person and room (in batches the service takes); results by message id. */
  flush(key: string): Promise<Map<string, EvaluateResponse>> {
    clearTimeout(this.#timers.get(key));
    this.#timers.delete(key);
    const previous = this.#sending.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.#sendAll(key));
    this.#sending.set(key, next);
    void next
      .finally(() => {
        if (this.#sending.get(key) === next) this.#sending.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  /** Sends everything that waits; failures are reported and the messages stay pending. */
  async flushAll(): Promise<void> {
    await Promise.all(
      [...this.#pending.keys()].map((key) =>
        this.flush(key).catch((error: unknown) => this.#options.onError("EvaluateBatch", error)),
      ),
    );
  }

  /** Takes up what an earlier process left in the store, then sends it. */
  async restore(): Promise<void> {
    let stored: JsonValue | undefined;
    try {
      stored = await this.#options.store.load();
    } catch (error) {
      this.#options.onError("loading pending messages", error);
      return;
    }
    for (const request of parseStored(stored)) {
      const key = keyOf(request);
      const list = this.#pending.get(key) ?? [];
      if (!list.some((queued) => queued.message?.id === request.message?.id)) list.push(request);
      this.#pending.set(key, list.sort(byTime));
    }
    await this.flushAll();
  }

  /** Drops the waiting messages that `deleted` matches (deleted messages, a cleared room); returns how many. */
  async drop(deleted: (request: EvaluateRequest) => boolean): Promise<number> {
    let dropped = 0;
    for (const [key, list] of this.#pending) {
      const kept = list.filter((request) => !deleted(request));
      dropped += list.length - kept.length;
      if (kept.length > 0) this.#pending.set(key, kept);
      else this.#pending.delete(key);
    }
    if (dropped > 0) await this.#save();
    return dropped;
  }

  /** Stops the quiet timers (call after flushAll at shutdown). */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  async #sendAll(key: string): Promise<Map<string, EvaluateResponse>> {
    const results = new Map<string, EvaluateResponse>();
    const limits = await this.#limits();
    for (;;) {
      const batch = (this.#pending.get(key) ?? []).slice(0, limits.maxBatchMessages);
      if (batch.length === 0) return results;
      let response: EvaluateBatchResponse;
      try {
        response = await this.#options.send(mergeBatch(batch, limits));
      } catch (error) {
        if (isTransient(error)) {
          this.#arm(key); // try again after a quiet period (and with the next message, shutdown or start)
        } else if (isFinal(error)) {
          // The service will answer this batch the same way again (the model's reply broke the contract, or
          // the batch is invalid): sending it again pays for another model call and learns nothing.
          await this.#remove(key, batch);
        } // anything else (a wrong token, ...) waits for the next message, shutdown or start: no timer
        throw error;
      }
      batch.forEach((request, i) => {
        const result = response.results[i];
        if (result && request.message) results.set(request.message.id, result);
      });
      await this.#remove(key, batch);
    }
  }

  #limits(): Promise<ServiceLimits> {
    return this.#options.limits ? this.#options.limits() : Promise.resolve(DEFAULT_LIMITS);
  }

  /** Takes a sent (or given up) batch out of the queue and the store. */
  async #remove(key: string, batch: readonly EvaluateRequest[]): Promise<void> {
    const sent = new Set(batch.map((request) => request.message?.id));
    const rest = (this.#pending.get(key) ?? []).filter((request) => !sent.has(request.message?.id));
    if (rest.length > 0) this.#pending.set(key, rest);
    else this.#pending.delete(key);
    await this.#save();
  }

  #arm(key: string): void {
    if (this.#closed || this.#options.quietMs <= 0) return;
    clearTimeout(this.#timers.get(key));
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.flush(key).catch((error: unknown) => this.#options.onError("EvaluateBatch", error));
    }, this.#options.quietMs);
    timer.unref(); // a waiting batch never keeps the process alive; shutdown sends it
    this.#timers.set(key, timer);
  }

  /** Writes the whole queue, one write at a time, in order. */
  #save(): Promise<void> {
    const snapshot: JsonValue = {
      version: STORE_VERSION,
      requests: [...this.#pending.values()].flat().map((request) => toJson(EvaluateRequestSchema, request)),
    };
    this.#saved = this.#saved
      .then(() => this.#options.store.save(snapshot))
      .catch((error: unknown) => this.#options.onError("saving pending messages", error));
    return this.#saved;
  }
}

/** One EvaluateBatch for the queued requests of one person and room (oldest first). */
export function mergeBatch(
  requests: readonly EvaluateRequest[],
  limits: ServiceLimits = DEFAULT_LIMITS,
): EvaluateBatchRequest {
  const last = requests[requests.length - 1]!;
  const items = new Set(requests.flatMap((request) => request.items));
  const responses = new Map<string, ChatMessage>();
  for (const response of requests.flatMap((request) => request.agentResponses)) {
    responses.set(response.id, response);
  }
  return create(EvaluateBatchRequestSchema, {
    agentId: last.agentId,
    entityId: last.entityId,
    roomId: last.roomId,
    messages: requests.flatMap((request) => (request.message ? [request.message] : [])),
    // The room as it was at the newest message holds the earlier ones; the service skips the batch's own.
    recentMessages: last.recentMessages,
    items: [...items].sort((a, b) => a - b),
    roomEntities: last.roomEntities,
    agentResponses: [...responses.values()].slice(-limits.maxRecentMessages),
    didRespond: requests.some((request) => request.didRespond),
    // One person in one room: one world; the roles as they were at the newest message.
    worldId: last.worldId,
    speakerRoles: last.speakerRoles,
    worldName: last.worldName,
  });
}

function keyOf(request: EvaluateRequest): string {
  return `${request.entityId}:${request.roomId}`;
}

function byTime(a: EvaluateRequest, b: EvaluateRequest): number {
  const at = (request: EvaluateRequest) => Number(request.message?.createdAt?.seconds ?? 0n);
  return at(a) - at(b);
}

/** The requests of a stored queue; anything unreadable is skipped (a queue from another version). */
function parseStored(stored: JsonValue | undefined): EvaluateRequest[] {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return [];
  if (stored["version"] !== STORE_VERSION || !Array.isArray(stored["requests"])) return [];
  const out: EvaluateRequest[] = [];
  for (const json of stored["requests"]) {
    try {
      const request = fromJson(EvaluateRequestSchema, json);
      if (request.message?.id) out.push(request);
    } catch {
      // not a request of this version: nothing to send
    }
  }
  return out;
}
