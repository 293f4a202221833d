/**
 * A room as elizaOS stores it (its type and its world), kept for a minute per runtime: every turn needs it (which
 * world's shared facts, whether the agent answers at once), and a room's type and world do not change while it is
 * used. The world itself is read fresh each turn (roles change). A failed read is not kept.
 */
import type { IAgentRuntime, Room, UUID } from "@elizaos/core";

import { perRuntime } from "./per-runtime.js";

export const ROOM_TTL_MS = 60_000;
export const ROOMS_KEPT = 512;

interface Kept {
  at: number;
  room: Promise<Room | null>;
}

const roomsOf = perRuntime(() => new Map<UUID, Kept>());

/** The room, read at most once a minute (concurrent callers share one read). */
export function roomOf(runtime: IAgentRuntime, roomId: UUID): Promise<Room | null> {
  const rooms = roomsOf(runtime);
  const now = Date.now();
  const kept = rooms.get(roomId);
  if (kept && now - kept.at < ROOM_TTL_MS) return kept.room;
  for (const [old, entry] of rooms) {
    if (rooms.size < ROOMS_KEPT && now - entry.at < ROOM_TTL_MS) break;
    rooms.delete(old);
  }
  const entry: Kept = { at: now, room: runtime.getRoom(roomId) };
  rooms.set(roomId, entry);
  entry.room.then(
    (room) => {
      if (room === null && rooms.get(roomId) === entry) rooms.delete(roomId);
    },
    () => {
      if (rooms.get(roomId) === entry) rooms.delete(roomId);
    },
  );
  return entry.room;
}
