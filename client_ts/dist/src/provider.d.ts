/** The FACT_MEMORY provider: what the agent knows about the sender, in every turn's prompt. */
import { type JsonValue } from "@bufbuild/protobuf";
import type { IAgentRuntime, Memory, Provider, ProviderResult } from "@elizaos/core";
import { type ProvideResponse } from "./gen/factmemory/v1/factmemory_pb.js";
export declare const PROVIDER_NAME = "FACT_MEMORY";
export interface FactMemoryProviderResult extends ProviderResult {
    text: string;
    values: {
        factMemory: string;
    };
    data: {
        durable: JsonValue[];
        current: JsonValue[];
        shared: JsonValue[];
    };
}
export declare const EMPTY_RESULT: FactMemoryProviderResult;
/** Shapes a Provide response for composeState; facts go out as JSON because state gets logged and cached. */
export declare function toProviderResult(response: ProvideResponse): FactMemoryProviderResult;
export declare const factMemoryProvider: Provider;
/**
 * Starts the turn's Provide before composeState asks for it (prefetch.ts); the provider then takes the same call
 * from the memo, finished or still running. A call that fails is forgotten once it has failed, so that the provider
 * asks again instead of reusing the failure. False when there was nothing to start: the agent's own message, a
 * message without an id, or one whose call is already made.
 */
export declare function prefetchFacts(runtime: IAgentRuntime, message: Memory): boolean;
