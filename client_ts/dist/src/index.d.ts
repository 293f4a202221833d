/** FactMemory for elizaOS: long-term memory about people, served by the FactMemory gRPC service. */
import type { Plugin } from "@elizaos/core";
export declare const factMemoryPlugin: Plugin;
export default factMemoryPlugin;
export { createFactMemoryClient, type FactMemoryClient, type FactMemoryClientOptions, REVIEWER_HEADER, } from "./client.js";
export { Batcher, type BatcherOptions, mergeBatch, type PendingStore, type Queued } from "./batch.js";
export { batcherFor, FactMemoryBatchService, pendingKey } from "./batching.js";
export { closeContext } from "./context.js";
export { DEFAULT_LIMITS, LearnedLimits, type LimitsOptions, type ServiceLimits } from "./limits.js";
export { type AskModel, evaluateWithAgentModel, type ModelQuestion, promptText, TicketRefused, } from "./agent-model.js";
export { deletionEvents, ForgetQueue, forgetKey, forgetMessageRequest, forgetRoomRequest, } from "./deletions.js";
export { evaluateMany, evaluateOne, isNoServiceModel, modeAfterFailure, TurnDropped } from "./model-mode.js";
export { registerAgentName } from "./register.js";
export { supersedeBootstrapMemory } from "./supersede.js";
export { factMemoryEvaluator, factMemoryEvaluators, identityEvaluator, relationshipEvaluator, successEvaluator, } from "./evaluators.js";
export { factMemoryProvider, PROVIDER_NAME } from "./provider.js";
export { type AgentModelType, type FactMemorySettings, type ModelMode, readSettings } from "./settings.js";
export * from "./gen/factmemory/v1/factmemory_pb.js";
