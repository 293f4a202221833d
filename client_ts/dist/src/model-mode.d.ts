import type { IAgentRuntime } from "@elizaos/core";
import { type EvaluateBatchRequest, type EvaluateBatchResponse, type EvaluateRequest, type EvaluateResponse } from "./gen/factmemory/v1/factmemory_pb.js";
import type { ModelMode } from "./settings.js";
/** The service's answer when it has no LLM of its own (FAILED_PRECONDITION "no LLM configured"). */
export declare function isNoServiceModel(error: unknown): boolean;
/** A turn dropped after a refused ticket; already logged (one warning), so the caller logs nothing more. */
export declare class TurnDropped extends Error {
    constructor(message: string);
}
/** Pure: the mode after a service call failed with `error` (auto turns into agent when the service has no model). */
export declare function modeAfterFailure(mode: ModelMode, error: unknown): ModelMode;
/** One message, by the service's model or the agent's. */
export declare function evaluateOne(runtime: IAgentRuntime, request: EvaluateRequest): Promise<EvaluateResponse>;
/** Several messages of one person, as one batch, by the service's model or the agent's. */
export declare function evaluateMany(runtime: IAgentRuntime, request: EvaluateBatchRequest): Promise<EvaluateBatchResponse>;
