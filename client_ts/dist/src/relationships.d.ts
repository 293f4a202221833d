/**
 * Mirrors the relationships the service returns into the runtime's own store, so that elizaOS's
 * RELATIONSHIPS provider (which reads runtime.getRelationships) shows them too.
 */
import type { IAgentRuntime, Relationship as ElizaRelationship } from "@elizaos/core";
import type { Relationship } from "./gen/factmemory/v1/factmemory_pb.js";
export interface MirrorOutcome {
    created: number;
    updated: number;
    failed: number;
}
/** Creates or updates one runtime relationship per service relationship; never throws. */
export declare function mirrorRelationships(runtime: IAgentRuntime, relationships: readonly Relationship[], onError: (error: unknown) => void): Promise<MirrorOutcome>;
/** Keeps what other plugins stored on the relationship and adds what the service learned. */
export declare function merged(existing: ElizaRelationship, learned: Relationship): ElizaRelationship;
