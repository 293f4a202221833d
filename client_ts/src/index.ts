/** FactMemory for elizaOS: long-term memory about people, served by the FactMemory gRPC service. */
import type { Plugin } from "@elizaos/core";

import { batchService, restorePending } from "./batching.js";
import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import { deletionEvents, restoreDeletions } from "./deletions.js";
import {
  factMemoryEvaluator,
  identityEvaluator,
  relationshipEvaluator,
  successEvaluator,
} from "./evaluators.js";
import { memoryActions } from "./memory-actions.js";
import { prefetchEvents } from "./prefetch.js";
import { factMemoryProvider } from "./provider.js";
import { registerAgentName } from "./register.js";
import {
  DEFAULT_EVALUATE_EVERY,
  DEFAULT_EVALUATE_QUIET_MS,
  DEFAULT_MODEL,
  DEFAULT_PREFETCH,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_URL,
} from "./settings.js";
import { supersedeBootstrapMemory } from "./supersede.js";

export const factMemoryPlugin: Plugin = {
  name: "factmemory",
  description: "Long-term memory about people: learns facts after each turn and puts them in the next prompt",
  evaluators: [factMemoryEvaluator, relationshipEvaluator, identityEvaluator, successEvaluator],
  // A person's requests about their own memory, chosen by the agent's response call (docs/elizaos.md).
  actions: [...memoryActions],
  providers: [factMemoryProvider],
  // Deletions reach the memory; a person's message starts its Provide before composeState asks for it.
  events: { ...deletionEvents, ...prefetchEvents },
  config: {
    FACT_MEMORY_URL: DEFAULT_URL,
    FACT_MEMORY_TOKEN: null,
    FACT_MEMORY_TIMEOUT_MS: DEFAULT_TIMEOUT_MS,
    FACT_MEMORY_EVALUATE_EVERY: DEFAULT_EVALUATE_EVERY,
    FACT_MEMORY_EVALUATE_QUIET_MS: DEFAULT_EVALUATE_QUIET_MS,
    FACT_MEMORY_MODEL: DEFAULT_MODEL,
    FACT_MEMORY_PREFETCH: DEFAULT_PREFETCH,
    FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY: false,
  },
  // Only reads settings and creates the (lazy) client: an agent must start even when the service is down.
  // In the background, once the runtime is up: messages an earlier run left waiting for their batch and
  // deletions it could not send are sent, and the character's name is registered.
  init: async (_config, runtime) => {
    const { settings } = contextFor(runtime);
    for (const problem of settings.problems)
      runtime.logger.warn({ src: LOG_SOURCE }, `FactMemory: ${problem}`);
    if (!settings.keepBootstrapMemory) supersedeBootstrapMemory(runtime);
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
    void restoreDeletions(runtime);
    void registerAgentName(runtime);
    runtime.logger.info(
      { src: LOG_SOURCE, url: settings.url, evaluateEvery: settings.evaluateEvery, model: settings.model },
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
export { Batcher, type BatcherOptions, mergeBatch, type PendingStore, type Queued } from "./batch.js";
export { batcherFor, FactMemoryBatchService, pendingKey } from "./batching.js";
export { closeContext } from "./context.js";
export { DEFAULT_LIMITS, LearnedLimits, type LimitsOptions, type ServiceLimits } from "./limits.js";
export {
  type AskModel,
  evaluateWithAgentModel,
  type ModelQuestion,
  promptText,
  TicketRefused,
} from "./agent-model.js";
export {
  deletionEvents,
  ForgetQueue,
  forgetKey,
  forgetMessageRequest,
  forgetRoomRequest,
} from "./deletions.js";
export { evaluateMany, evaluateOne, isNoServiceModel, modeAfterFailure, TurnDropped } from "./model-mode.js";
export {
  ANSWER_MEMORY_QUESTION,
  answerMemoryQuestionAction,
  CORRECT_FACT,
  correctFactAction,
  FORGET_FACT,
  FORGET_ME,
  forgetFactAction,
  forgetMeAction,
  isMemoryRequest,
  MEMORY_ACTIONS,
  memoryActions,
  RECALL_MEMORY,
  recallMemoryAction,
} from "./memory-actions.js";
export { type Answer, origin, readAnswer, SAFETY_CATEGORIES, say } from "./memory-words.js";
export { registerAgentName } from "./register.js";
export { supersedeBootstrapMemory } from "./supersede.js";
export {
  factMemoryEvaluator,
  factMemoryEvaluators,
  identityEvaluator,
  relationshipEvaluator,
  successEvaluator,
} from "./evaluators.js";
export { prefetch, prefetchEvents } from "./prefetch.js";
export { factMemoryProvider, prefetchFacts, PROVIDER_NAME } from "./provider.js";
export {
  type AgentModelType,
  type FactMemorySettings,
  type ModelMode,
  type PrefetchMode,
  readSettings,
} from "./settings.js";
export * from "./gen/factmemory/v1/factmemory_pb.js";
