/**
 * A room as elizaOS stores it (its type and its world), kept for a minute per runtime: every turn needs it (which
 * world's shared facts, whether the agent answers at once), and a room's type and world do not change while it is
 * used. The world itself is read fresh each turn (roles change). A failed read is not kept.
 */
import type { IAgentRuntime, Room, UUID } from "@elizaos/core";

import { KeptPromises } from "./kept.js";
import { perRuntime } from "./per-runtime.js";

export const ROOM_TTL_MS = 60_000;
export const ROOMS_KEPT = 512;

const roomsOf = perRuntime(() => new KeptPromises<UUID, Room | null>(ROOM_TTL_MS, ROOMS_KEPT));

/** The room, read at most once a minute (concurrent callers share one read). */
export function roomOf(runtime: IAgentRuntime, roomId: UUID): Promise<Room | null> {
  const rooms = roomsOf(runtime);
  return rooms.get(roomId) ?? rooms.set(roomId, runtime.getRoom(roomId), (room) => room !== null);
}
