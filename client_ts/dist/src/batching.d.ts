/**
 * The runtime side of batched evaluation (FACT_MEMORY_EVALUATE_EVERY > 1): one Batcher per runtime, its queue
 * in the runtime's cache, and a service whose stop() sends what waits when the agent shuts down.
 */
import type { IAgentRuntime, Service } from "@elizaos/core";
import { Batcher } from "./batch.js";
/** The runtime cache key of the queue (one per agent). */
export declare function pendingKey(agentId: string): string;
export declare const batcherFor: (runtime: IAgentRuntime) => Batcher;
/**
 * Sends, once the runtime is initialized (its database open), the messages an earlier process left waiting:
 * after a crash, or after batching was turned off. Never throws.
 */
export declare function restorePending(runtime: IAgentRuntime): Promise<void>;
/**
 * Registered when batching is on: the runtime stops its services on shutdown, and this one sends what waits.
 * Shaped like an elizaOS Service without extending it, so that the package loads without @elizaos/core
 * (the client alone needs nothing of elizaOS at run time).
 */
export declare class FactMemoryBatchService {
    #private;
    static readonly serviceType = "factmemory-batch";
    readonly capabilityDescription = "Sends the messages FactMemory batches (FACT_MEMORY_EVALUATE_EVERY) when the agent stops";
    constructor(runtime: IAgentRuntime);
    static start(runtime: IAgentRuntime): Promise<FactMemoryBatchService>;
    static stop(_runtime: IAgentRuntime): Promise<void>;
    stop(): Promise<void>;
}
/** The service as registerService takes it. */
export declare const batchService: typeof Service;
