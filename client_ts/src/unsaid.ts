/**
 * Messages a person took back from the chat: the messages a fact they had forgotten came from, the request to forget
 * it, and, after "forget me", their messages the room still holds. They stay in the room (elizaOS's own history) but
 * are never sent again as context (recent messages) to the service, so a later turn's extraction call does not see
 * them and learn the forgotten fact again. Kept in the runtime's cache, the newest MAX_UNSAID.
 */
import type { IAgentRuntime, Memory } from "@elizaos/core";

const MAX_UNSAID = 500;

const unsaidKey = (runtime: IAgentRuntime) => `factmemory:unsaid:${runtime.agentId}`;

/** Message ids ("reviewer:..." and "import:..." evidence is not a message and is skipped). */
export async function takeBack(runtime: IAgentRuntime, ids: Iterable<string>): Promise<void> {
  const fresh = [...ids].filter((id) => id !== "" && !/^(reviewer|import|chat):/.test(id));
  if (fresh.length === 0) return;
  const kept = (await runtime.getCache<string[]>(unsaidKey(runtime))) ?? [];
  const merged = [...new Set([...kept.filter((id) => !fresh.includes(id)), ...fresh])].slice(-MAX_UNSAID);
  await runtime.setCache(unsaidKey(runtime), merged);
}

/** The messages without those taken back; on any failure to read the list, all of them. */
export async function withoutUnsaid(runtime: IAgentRuntime, messages: Memory[]): Promise<Memory[]> {
  let unsaid: Set<string>;
  try {
    unsaid = new Set((await runtime.getCache<string[]>(unsaidKey(runtime))) ?? []);
  } catch {
    return messages;
  }
  return unsaid.size === 0 ? messages : messages.filter((m) => !unsaid.has(m.id ?? ""));
}
