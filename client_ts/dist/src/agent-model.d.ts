/**
 * Agent-model mode: the service composes the prompt and JSON schema (PrepareEvaluation), the agent's own model
 * answers it through runtime.useModel, and the service applies the raw reply (CompleteEvaluation) exactly as it
 * applies its own model's. One model call per turn (or batch), never a second: a ticket refused (expired, evicted,
 * the person forgotten) or aborted (a batch that lost a race on one of its messages) is prepared again without a
 * model call, and what still needs one goes to the service's model or is dropped: see TicketRefused.
 */
import { ConnectError } from "@connectrpc/connect";
import type { IAgentRuntime } from "@elizaos/core";
import type { FactMemoryClient } from "./client.js";
import type { EvaluateBatchRequest, EvaluateRequest, EvaluateResponse, PromptMessage } from "./gen/factmemory/v1/factmemory_pb.js";
import type { AgentModelType } from "./settings.js";
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
 * CompleteEvaluation refused the ticket and its messages still need a model call, which would be the turn's second
 * (issue 24: one model call per turn): the caller falls back to the service's model or drops the turn.
 * `forgotten`: the person was forgotten (ForgetEntity) after the ticket was issued; their messages must not be
 * learned again.
 */
export declare class TicketRefused extends Error {
    readonly refusal: ConnectError;
    readonly forgotten: boolean;
    constructor(refusal: ConnectError);
}
/**
 * Prepare, ask, complete. A refused or aborted ticket is prepared again once, without a model call: that answers
 * the stored results when the messages were applied meanwhile (the ticket used by a concurrent Complete, another
 * call that evaluated them, or the message deleted); else TicketRefused. Returns one result per message of the
 * request, in its order.
 */
export declare function evaluateWithAgentModel(client: FactMemoryClient, request: Prepared, ask: AskModel, timeoutMs: number): Promise<EvaluateResponse[]>;
/** The prompt as one text: plugins' TEXT_SMALL/OBJECT_SMALL handlers take a single prompt string. */
export declare function promptText(prompt: readonly PromptMessage[]): string;
/** The prompt for a model without structured output: the reply's JSON schema follows the instructions. */
export declare function withSchema(prompt: string, jsonSchema: string): string;
/** OBJECT_SMALL when a model plugin provides it (structured output), else TEXT_SMALL; a setting overrides. */
export declare function agentModelType(runtime: Pick<IAgentRuntime, "getModel">, setting: AgentModelType | undefined): AgentModelType;
/** Asks the agent's model (its provider, routing, settings and usage events apply) at temperature 0. */
export declare function askRuntimeModel(runtime: IAgentRuntime, setting: AgentModelType | undefined): AskModel;
