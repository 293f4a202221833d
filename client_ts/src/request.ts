/** Turns elizaOS memories and entities into factmemory.v1 requests. */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Entity, IAgentRuntime, Memory, UUID, World } from "@elizaos/core";

import {
  type ChatMessage,
  ChatMessageSchema,
  type EvaluateRequest,
  EvaluateRequestSchema,
  type Item,
  type ProvideRequest,
  ProvideRequestSchema,
  type RoomEntity,
  RoomEntitySchema,
} from "./gen/factmemory/v1/factmemory_pb.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "./limits.js";
import { roomOf } from "./rooms.js";
import { withoutUnsaid } from "./unsaid.js";

/** How many of the room's last messages go with each request. */
export const RECENT_MESSAGE_COUNT = 12;

/**
 * Facts per turn: one budget the durable and current sections share by relevance (ProvideRequest.total_limit).
 * On the LoCoMo tune half it recalls more than fixed 6 + 6 sections (docs/recall.md, "The slots").
 */
export const PROVIDE_TOTAL_LIMIT = 12;

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
export function rolesIn(
  world: World | undefined,
  entityId: string,
  limits: ServiceLimits = DEFAULT_LIMITS,
): string[] {
  if (!world) return [];
  const metadata = world.metadata ?? {};
  const roles = new Set<string>();
  const role = (metadata.roles as Record<string, unknown> | undefined)?.[entityId];
  if (typeof role === "string" && role !== "") roles.add(fit(role, limits.maxNameChars));
  if (metadata.ownership?.ownerId === entityId) roles.add("OWNER");
  return [...roles].slice(0, limits.maxSpeakerRoles);
}

/** The world's name (elizaOS: the Discord server's, the Telegram group's), shown for its community by the service. */
export function worldName(world: World | undefined, limits: ServiceLimits = DEFAULT_LIMITS): string {
  if (!world?.id || typeof world.name !== "string") return "";
  return fit(world.name.replace(/\s+/g, " ").trim(), limits.maxNameChars);
}

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
export function buildEvaluateRequest(input: EvaluateInput): EvaluateRequest {
  const limits = input.limits ?? DEFAULT_LIMITS;
  const names = nameBook(input.agentId, input.agentName, input.conversation.entities);
  const chat = (memories: readonly Memory[]) =>
    memories.slice(-limits.maxRecentMessages).map((memory) => toChatMessage(memory, names, limits));
  return create(EvaluateRequestSchema, {
    agentId: input.agentId,
    entityId: input.message.entityId,
    roomId: input.message.roomId,
    message: toChatMessage(input.message, names, limits),
    recentMessages: chat(input.conversation.recent),
    items: [...input.items],
    roomEntities: roomEntities(input.conversation.entities, [input.message.entityId, input.agentId], limits),
    agentResponses: chat(input.responses),
    didRespond: input.didRespond,
    worldId: input.conversation.world?.id ?? "",
    speakerRoles: rolesIn(input.conversation.world, input.message.entityId, limits),
    worldName: worldName(input.conversation.world, limits),
  });
}

/** Builds the per-turn facts request about the sender of `message`. */
export function buildProvideRequest(input: ProvideInput): ProvideRequest {
  const limits = input.limits ?? DEFAULT_LIMITS;
  const names = nameBook(input.agentId, input.agentName, input.conversation.entities);
  // The current message last, and kept when the service takes fewer messages than the room has.
  const recent = withCurrent(input.conversation.recent, input.message).slice(-limits.maxRecentMessages);
  return create(ProvideRequestSchema, {
    agentId: input.agentId,
    entityId: input.message.entityId,
    roomId: input.message.roomId,
    recentMessages: recent.map((memory) => toChatMessage(memory, names, limits)),
    subjectName: fit(senderName(input.message, names) ?? "", limits.maxNameChars),
    worldId: input.conversation.worldId ?? input.conversation.world?.id ?? "",
    totalLimit: Math.min(PROVIDE_TOTAL_LIMIT, 2 * limits.maxProvideLimit),
  });
}

/**
 * Loads the room's recent messages and entities, and its world (the row only with `worldRow`: Provide needs its id,
 * which the room holds); a runtime without a database gives an empty room.
 */
export async function loadConversation(
  runtime: IAgentRuntime,
  roomId: Memory["roomId"],
  onError: (what: string, error: unknown) => void,
  worldRow = true,
): Promise<Conversation> {
  if (!hasDatabase(runtime)) return { recent: [], entities: [] };
  const [recent, entities, world] = await Promise.all([
    runtime
      .getMemories({ tableName: "messages", roomId, count: RECENT_MESSAGE_COUNT })
      .then((memories) => withoutUnsaid(runtime, memories))
      .then(oldestFirst)
      .catch((error: unknown) => (onError("getMemories", error), [])),
    runtime.getEntitiesForRoom(roomId).catch((error: unknown) => (onError("getEntitiesForRoom", error), [])),
    loadWorld(runtime, roomId, worldRow).catch((error: unknown) => (onError("getWorld", error), undefined)),
  ]);
  if (!world) return { recent, entities };
  return world.row
    ? { recent, entities, world: world.row, worldId: world.id }
    : { recent, entities, worldId: world.id };
}

/**
 * The room's world: its id (room.worldId, the room read at most once a minute) and, with `row`, the world read fresh
 * each turn (roles change; a world is one row). Undefined when the room has no world, or the row was asked for and
 * is gone.
 */
async function loadWorld(
  runtime: IAgentRuntime,
  roomId: Memory["roomId"],
  row: boolean,
): Promise<{ id: UUID; row?: World } | undefined> {
  const room = await roomOf(runtime, roomId);
  if (!room?.worldId) return undefined;
  if (!row) return { id: room.worldId };
  const world = await runtime.getWorld(room.worldId);
  return world ? { id: room.worldId, row: world } : undefined;
}

/** AgentRuntime forwards storage calls to `adapter`, which is absent until a database plugin registers one. */
export function hasDatabase(runtime: IAgentRuntime): boolean {
  return !("adapter" in runtime) || (runtime as { adapter?: unknown }).adapter != null;
}

/**
 * Orders memories oldest first. Adapters return the newest first; when every memory has a createdAt the
 * timestamps decide, otherwise the adapter's order is trusted.
 */
export function oldestFirst(memories: readonly Memory[]): Memory[] {
  const reversed = [...memories].reverse();
  if (reversed.every((memory) => typeof memory.createdAt === "number")) {
    reversed.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  }
  return reversed;
}

/** One message as the service takes it: one over-long chat message must not make the turn INVALID_ARGUMENT. */
export function toChatMessage(
  memory: Memory,
  names: ReadonlyMap<string, string>,
  limits: ServiceLimits = DEFAULT_LIMITS,
): ChatMessage {
  return create(ChatMessageSchema, {
    id: memory.id ?? "",
    entityId: memory.entityId,
    name: fit(senderName(memory, names) ?? "", limits.maxNameChars),
    text: fit(memory.content.text ?? "", limits.maxTextChars),
    ...(typeof memory.createdAt === "number" ? { createdAt: toTimestamp(memory.createdAt) } : {}),
  });
}

export function toTimestamp(epochMs: number): Timestamp {
  return timestampFromMs(Math.trunc(epochMs));
}

/** Entity id -> the name people use for it; the agent is known by its character's name. */
export function nameBook(
  agentId: string,
  agentName: string,
  entities: readonly Entity[],
): Map<string, string> {
  const names = new Map<string, string>();
  for (const entity of entities) {
    const first = entity.names.find((name) => name.trim() !== "");
    if (entity.id && first) names.set(entity.id, first);
  }
  if (agentName) names.set(agentId, agentName);
  return names;
}

function senderName(memory: Memory, names: ReadonlyMap<string, string>): string | undefined {
  const known = names.get(memory.entityId);
  if (known) return known;
  // The message service records the platform's display name here.
  const fromMetadata = (memory.metadata as { entityName?: unknown } | undefined)?.entityName;
  return typeof fromMetadata === "string" && fromMetadata !== "" ? fromMetadata : undefined;
}

/** The room's entities, the sender and the agent first so that a cap never drops them. */
function roomEntities(
  entities: readonly Entity[],
  first: readonly string[],
  limits: ServiceLimits,
): RoomEntity[] {
  const rank = (entity: Entity) => (entity.id && first.includes(entity.id) ? 0 : 1);
  return [...entities]
    .sort((a, b) => rank(a) - rank(b))
    .flatMap((entity) => toRoomEntity(entity, limits.maxNameChars))
    .slice(0, limits.maxRoomEntities);
}

function toRoomEntity(entity: Entity, maxNameChars: number): RoomEntity[] {
  if (!entity.id) return [];
  const names = entity.names.filter((name) => name.trim() !== "").map((name) => fit(name, maxNameChars));
  return [create(RoomEntitySchema, { id: entity.id, names })];
}

/** Drops NUL characters (the service refuses them) and cuts to `max` characters. */
export function fit(text: string, max: number): string {
  const clean = text.includes("\0") ? text.replaceAll("\0", "") : text;
  return clean.length <= max ? clean : clean.slice(0, max);
}

/** The current message is the most relevant one for retrieval; make sure it is last even if not yet stored. */
function withCurrent(recent: readonly Memory[], message: Memory): Memory[] {
  const others = recent.filter((memory) => memory.id === undefined || memory.id !== message.id);
  return [...others, message];
}
