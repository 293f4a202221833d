/** The FACT_MEMORY provider: what the agent knows about the sender, in every turn's prompt. */
import { type JsonValue } from "@bufbuild/protobuf";
import type { Provider, ProviderResult } from "@elizaos/core";
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
