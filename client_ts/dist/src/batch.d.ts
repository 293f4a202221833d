/**
 * Batched evaluation: instead of one Evaluate per message, a person's messages wait until `every` of them
 * (or a quiet period) and go to the service as ONE EvaluateBatch, one LLM call for all of them.
 *
 * What waits is kept in a store (the runtime's cache) as the Evaluate requests they would have been, so a
 * stopped process loses nothing: pending messages are sent on shutdown, and whatever a crash left behind
 * is sent on the next start. The service applies each message exactly once (idempotent per message id), so
 * sending a message twice, after a crash between the service's answer and the store's update, is harmless.
 */
import { type JsonValue } from "@bufbuild/protobuf";
import { type EvaluateBatchRequest, type EvaluateBatchResponse, type EvaluateRequest, type EvaluateResponse } from "./gen/factmemory/v1/factmemory_pb.js";
import { type ServiceLimits } from "./limits.js";
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
export declare class Batcher {
    #private;
    constructor(options: BatcherOptions);
    /** Messages waiting, in all rooms. */
    get waiting(): number;
    /**
     * Queues one message's request. When its person has `every` messages waiting they are sent, and this
     * message's own result comes back; otherwise it waits (and the quiet timer starts again).
     */
    add(request: EvaluateRequest): Promise<EvaluateResponse | Queued>;
    /** Sends what waits for one person and room (in batches the service takes); results by message id. */
    flush(key: string): Promise<Map<string, EvaluateResponse>>;
    /** Sends everything that waits; failures are reported and the messages stay pending. */
    flushAll(): Promise<void>;
    /** Takes up what an earlier process left in the store, then sends it. */
    restore(): Promise<void>;
    /** Drops the waiting messages that `deleted` matches (deleted messages, a cleared room); returns how many. */
    drop(deleted: (request: EvaluateRequest) => boolean): Promise<number>;
    /** Stops the quiet timers (call after flushAll at shutdown). */
    close(): void;
}
/** One EvaluateBatch for the queued requests of one person and room (oldest first). */
export declare function mergeBatch(requests: readonly EvaluateRequest[], limits?: ServiceLimits): EvaluateBatchRequest;
