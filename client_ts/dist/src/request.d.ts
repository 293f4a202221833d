import { type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Entity, IAgentRuntime, Memory, UUID, World } from "@elizaos/core";
import { type ChatMessage, type EvaluateRequest, type Item, type ProvideRequest } from "./gen/factmemory/v1/factmemory_pb.js";
import { type ServiceLimits } from "./limits.js";
/** How many of the room's last messages go with each request. */
export declare const RECENT_MESSAGE_COUNT = 12;
/**
 * Facts per turn: one budget the durable and current sections share by relevance (ProvideRequest.total_limit).
 * On the LoCoMo tune half it recalls more than fixed 6 + 6 sections (docs/recall.md, "The slots").
 */
export declare const PROVIDE_TOTAL_LIMIT = 12;
/** What the runtime knows about the room of a message, loaded once per request. */
export interface Conversation {
    /** Oldest first. */
    recent: Memory[];
    entities: Entity[];
    /** The room's world (a Discord server, a Telegram group), when it has one and it was read: its roles, its name. */
    world?: World;
    /** The room's world's id, known from the room even when the world itself was not read: its shared facts. */
    worldId?: UUID;
}
/**
 * The roles an entity holds in a world, as elizaOS 1.7 keeps them: `world.metadata.roles[entityId]` (OWNER,
 * ADMIN, NONE; what core's getUserServerRole reads), and OWNER for `world.metadata.ownership.ownerId`. Shared facts
 * of a world can be taught by the roles the service trusts (docs/shared-facts.md).
 */
export declare function rolesIn(world: World | undefined, entityId: string, limits?: ServiceLimits): string[];
/** The world's name (elizaOS: the Discord server's, the Telegram group's), shown for its community by the service. */
export declare function worldName(world: World | undefined, limits?: ServiceLimits): string;
export interface EvaluateInput {
    agentId: string;
    agentName: string;
    message: Memory;
    conversation: Conversation;
    responses: readonly Memory[];
    items: readonly Item[];
    didRespond: boolean;
    /** The service's limits (LearnedLimits); its defaults when not given. */
    limits?: ServiceLimits;
}
export interface ProvideInput {
    agentId: string;
    agentName: string;
    message: Memory;
    conversation: Conversation;
    /** The service's limits (LearnedLimits); its defaults when not given. */
    limits?: ServiceLimits;
}
/** Builds the merged post-turn request for the items whose evaluators ran. */
export declare function buildEvaluateRequest(input: EvaluateInput): EvaluateRequest;
/** Builds the per-turn facts request about the sender of `message`. */
export declare function buildProvideRequest(input: ProvideInput): ProvideRequest;
/**
 * Loads the room's recent messages and entities, and its world (the row only with `worldRow`: Provide needs its id,
 * which the room holds); a runtime without a database gives an empty room.
 */
export declare function loadConversation(runtime: IAgentRuntime, roomId: Memory["roomId"], onError: (what: string, error: unknown) => void, worldRow?: boolean): Promise<Conversation>;
/** AgentRuntime forwards storage calls to `adapter`, which is absent until a database plugin registers one. */
export declare function hasDatabase(runtime: IAgentRuntime): boolean;
/**
 * Orders memories oldest first. Adapters return the newest first; when every memory has a createdAt the
 * timestamps decide, otherwise the adapter's order is trusted.
 */
export declare function oldestFirst(memories: readonly Memory[]): Memory[];
/** One message as the service takes it: one over-long chat message must not make the turn INVALID_ARGUMENT. */
export declare function toChatMessage(memory: Memory, names: ReadonlyMap<string, string>, limits?: ServiceLimits): ChatMessage;
export declare function toTimestamp(epochMs: number): Timestamp;
/** Entity id -> the name people use for it; the agent is known by its character's name. */
export declare function nameBook(agentId: string, agentName: string, entities: readonly Entity[]): Map<string, string>;
/** Drops NUL characters (the service refuses them) and cuts to `max` characters. */
export declare function fit(text: string, max: number): string;
