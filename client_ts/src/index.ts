/** FactMemory for elizaOS: long-term memory about people, served by the FactMemory gRPC service. */
import type { Plugin } from "@elizaos/core";

import { batchService, restorePending } from "./batching.js";
import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import {
  factMemoryEvaluator,
  identityEvaluator,
  relationshipEvaluator,
  successEvaluator,
} from "./evaluators.js";
import { factMemoryProvider } from "./provider.js";
import {
  DEFAULT_EVALUATE_EVERY,
  DEFAULT_EVALUATE_QUIET_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_URL,
} from "./settings.js";

export const factMemoryPlugin: Plugin = {
  name: "factmemory",
  description: "Long-term memory about people: learns facts after each turn and puts them in the next prompt",
  evaluators: [factMemoryEvaluator, relationshipEvaluator, identityEvaluator, successEvaluator],
  providers: [factMemoryProvider],
  config: {
    FACT_MEMORY_URL: DEFAULT_URL,
    FACT_MEMORY_TOKEN: null,
    FACT_MEMORY_TIMEOUT_MS: DEFAULT_TIMEOUT_MS,
    FACT_MEMORY_EVALUATE_EVERY: DEFAULT_EVALUATE_EVERY,
    FACT_MEMORY_EVALUATE_QUIET_MS: DEFAULT_EVALUATE_QUIET_MS,
  },
  // Only reads settings and creates the (lazy) client: an agent must start even when the service is down.
  // Messages an earlier run left waiting for their batch are sent once the runtime is up, in the background.
  init: async (_config, runtime) => {
    const { settings } = contextFor(runtime);
    if (settings.evaluateEvery > 1) {
      // Not awaited: registerService waits for the runtime's initialization, which waits for this init.
      void runtime
        .registerService(batchService)
        .catch((error: unknown) =>
          runtime.logger.warn(
            { src: LOG_SOURCE, error: describeError(error) },
            "FactMemory: batch service failed",
          ),
        );
    }
    void restorePending(runtime);
    runtime.logger.info(
      { src: LOG_SOURCE, url: settings.url, evaluateEvery: settings.evaluateEvery },
      "FactMemory plugin ready",
    );
  },
};

export default factMemoryPlugin;

export {
  createFactMemoryClient,
  type FactMemoryClient,
  type FactMemoryClientOptions,
  REVIEWER_HEADER,
} from "./client.js";
export {
  Batcher,
  type BatcherOptions,
  MAX_BATCH_MESSAGES,
  mergeBatch,
  type PendingStore,
  type Queued,
} from "./batch.js";
export { batcherFor, FactMemoryBatchService, pendingKey } from "./batching.js";
export { closeContext } from "./context.js";
export {
  factMemoryEvaluator,
  factMemoryEvaluators,
  identityEvaluator,
  relationshipEvaluator,
  successEvaluator,
} from "./evaluators.js";
export { factMemoryProvider, PROVIDER_NAME } from "./provider.js";
export { type FactMemorySettings, readSettings } from "./settings.js";
export * from "./gen/factmemory/v1/factmemory_pb.js";
