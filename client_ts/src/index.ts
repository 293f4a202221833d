/** FactMemory for elizaOS: long-term memory about people, served by the FactMemory gRPC service. */
import type { Plugin } from "@elizaos/core";

import { contextFor, LOG_SOURCE } from "./context.js";
import {
  factMemoryEvaluator,
  identityEvaluator,
  relationshipEvaluator,
  successEvaluator,
} from "./evaluators.js";
import { factMemoryProvider } from "./provider.js";
import { DEFAULT_TIMEOUT_MS, DEFAULT_URL } from "./settings.js";

export const factMemoryPlugin: Plugin = {
  name: "factmemory",
  description: "Long-term memory about people: learns facts after each turn and puts them in the next prompt",
  evaluators: [factMemoryEvaluator, relationshipEvaluator, identityEvaluator, successEvaluator],
  providers: [factMemoryProvider],
  config: {
    FACT_MEMORY_URL: DEFAULT_URL,
    FACT_MEMORY_TOKEN: null,
    FACT_MEMORY_TIMEOUT_MS: DEFAULT_TIMEOUT_MS,
  },
  // Only reads settings and creates the (lazy) client: an agent must start even when the service is down.
  init: async (_config, runtime) => {
    const { settings } = contextFor(runtime);
    runtime.logger.info({ src: LOG_SOURCE, url: settings.url }, "FactMemory plugin ready");
  },
};

export default factMemoryPlugin;

export {
  createFactMemoryClient,
  type FactMemoryClient,
  type FactMemoryClientOptions,
  REVIEWER_HEADER,
} from "./client.js";
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
