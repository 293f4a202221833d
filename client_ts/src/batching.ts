/**
 * The runtime side of batched evaluation (FACT_MEMORY_EVALUATE_EVERY > 1): one Batcher per runtime, its queue
 * in the runtime's cache, and a service whose stop() sends what waits when the agent shuts down.
 */
import type { IAgentRuntime, Service } from "@elizaos/core";

import { Batcher } from "./batch.js";
import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import { Item } from "./gen/factmemory/v1/factmemory_pb.js";
import { evaluateMany } from "./model-mode.js";
import { cacheStore, perRuntime } from "./per-runtime.js";
import { mirrorRelationships } from "./relationships.js";

/** The runtime cache key of the queue (one per agent). */
export function pendingKey(agentId: string): string {
  return `factmemory:pending:${agentId}`;
}

export const batcherFor = perRuntime((runtime) => {
  const plugin = contextFor(runtime);
  const warn = (what: string, error: unknown) =>
    runtime.logger.warn({ src: LOG_SOURCE, error: describeError(error) }, `FactMemory: ${what} failed`);
  return new Batcher({
    every: plugin.settings.evaluateEvery,
    limits: () => plugin.limits.get(),
    quietMs: plugin.settings.evaluateQuietMs,
    store: cacheStore(runtime, pendingKey(runtime.agentId)),
    send: async (request) => {
      try {
        const response = await evaluateMany(runtime, request);
        plugin.outage.succeeded();
        if (request.items.includes(Item.RELATIONSHIPS)) {
          const relationships = response.results.flatMap((result) => result.relationships);
          await mirrorRelationships(runtime, relationships, (error) =>
            warn("mirroring a relationship", error),
          );
        }
        return response;
      } catch (error) {
        plugin.outage.failed("EvaluateBatch", error);
        throw error;
      }
    },
    onError: (what, error) => {
      if (what !== "EvaluateBatch") warn(what, error); // a failed send is logged by the outage log
    },
  });
});

/**
 * Sends, once the runtime is initialized (its database open), the messages an earlier process left waiting:
 * after a crash, or after batching was turned off. Never throws.
 */
export function restorePending(runtime: IAgentRuntime): Promise<void> {
  return runtime.initPromise
    .then(() => batcherFor(runtime).restore())
    .catch((error: unknown) =>
      runtime.logger.warn(
        { src: LOG_SOURCE, error: describeError(error) },
        "FactMemory: sending the pending messages failed",
      ),
    );
}

/**
 * Registered when batching is on: the runtime stops its services on shutdown, and this one sends what waits.
 * Shaped like an elizaOS Service without extending it, so that the package loads without @elizaos/core
 * (the client alone needs nothing of elizaOS at run time).
 */
export class FactMemoryBatchService {
  static readonly serviceType = "factmemory-batch";
  readonly capabilityDescription =
    "Sends the messages FactMemory batches (FACT_MEMORY_EVALUATE_EVERY) when the agent stops";
  readonly #runtime: IAgentRuntime;

  constructor(runtime: IAgentRuntime) {
    this.#runtime = runtime;
  }

  static async start(runtime: IAgentRuntime): Promise<FactMemoryBatchService> {
    return new FactMemoryBatchService(runtime);
  }

  static async stop(_runtime: IAgentRuntime): Promise<void> {}

  async stop(): Promise<void> {
    const batcher = batcherFor(this.#runtime);
    await batcher.flushAll();
    batcher.close();
  }
}

/** The service as registerService takes it. */
export const batchService = FactMemoryBatchService as unknown as typeof Service;
