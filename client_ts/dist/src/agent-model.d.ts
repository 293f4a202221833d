import type { IAgentRuntime } from "@elizaos/core";
import type { FactMemoryClient } from "./client.js";
import type { EvaluateBatchRequest, EvaluateRequest, EvaluateResponse, PromptMessage } from "./gen/factmemory/v1/factmemory_pb.js";
import type { AgentModelType } from "./settings.js";
/** Prepare/complete rounds before giving up when other writes keep landing (ABORTED) between the two. */
export declare const MAX_PREPARE_ATTEMPTS = 3;
/** What the model is asked: the service's prompt messages, in order, and the JSON schema of the reply. */
export interface ModelQuestion {
    prompt: readonly PromptMessage[];
    jsonSchema: string;
    schemaName: string;
}
/** Answers a question with the model's raw reply text. */
export type AskModel = (question: ModelQuestion) => Promise<string>;
export type Prepared = {
    case: "single";
    value: EvaluateRequest;
} | {
    case: "batch";
    value: EvaluateBatchRequest;
};
/**
 * Prepare, ask, complete; prepared again (and asked again) when the service answers ABORTED because the
 * person's memory changed after the prompt was composed, at most MAX_PREPARE_ATTEMPTS times.
 * Returns one result per message of the request, in its order.
 */
export declare function evaluateWithAgentModel(client: FactMemoryClient, request: Prepared, ask: AskModel, timeoutMs: number): Promise<EvaluateResponse[]>;
/** The prompt as one text: plugins' TEXT_SMALL/OBJECT_SMALL handlers take a single prompt string. */
export declare function promptText(prompt: readonly PromptMessage[]): string;
/** OBJECT_SMALL when a model plugin provides it (structured output), else TEXT_SMALL; a setting overrides. */
export declare function agentModelType(runtime: Pick<IAgentRuntime, "getModel">, setting: AgentModelType | undefined): AgentModelType;
/** Asks the agent's model (its provider, routing, settings and usage events apply) at temperature 0. */
export declare function askRuntimeModel(runtime: IAgentRuntime, setting: AgentModelType | undefined): AskModel;
