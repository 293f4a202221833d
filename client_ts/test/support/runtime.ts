/** A real elizaOS AgentRuntime with the plugin registered, on the in-memory adapter. */
import { AgentRuntime, type Memory, type State, type UUID } from "@elizaos/core";

import { factMemoryPlugin } from "../../src/index.js";
import { FakeAdapter } from "./fake-adapter.js";
import { uuid } from "./ids.js";

export interface TestAgent {
  runtime: AgentRuntime;
  adapter: FakeAdapter;
  roomId: UUID;
  userId: UUID;
  /** Warnings the plugin logged (its outage log), to check that an outage is logged once. */
  warnings: string[];
  /** A user message of the room, stored the way the message service stores it. */
  say(text: string, at?: number): Memory;
  /** An agent message of the room, stored. */
  reply(text: string, at?: number): Memory;
}

export async function startAgent(
  settings: Record<string, string>,
  userId: UUID = uuid(),
): Promise<TestAgent> {
  const adapter = new FakeAdapter();
  const runtime = new AgentRuntime({
    character: { name: "Ava", bio: ["A helpful assistant."], settings },
    adapter: adapter.asAdapter(),
  });
  await runtime.registerPlugin(factMemoryPlugin);
  const roomId = uuid();
  adapter.entities.push(
    { id: userId, names: ["Dana"], metadata: {}, agentId: runtime.agentId },
    { id: runtime.agentId, names: ["Ava"], metadata: {}, agentId: runtime.agentId },
  );
  const warnings: string[] = [];
  const warn = runtime.logger.warn.bind(runtime.logger);
  runtime.logger.warn = (obj, msg, ...rest) => {
    if (typeof obj === "object" && obj !== null && (obj as { src?: unknown }).src === "plugin:factmemory") {
      warnings.push(msg ?? "");
    }
    warn(obj, msg, ...rest);
  };
  let clock = Date.now();
  const store = (entityId: UUID, text: string, at?: number): Memory => {
    clock += 1_000;
    const memory: Memory = {
      id: uuid(),
      entityId,
      agentId: runtime.agentId,
      roomId,
      content: { text },
      createdAt: at ?? clock,
    };
    adapter.memories.push(memory);
    return memory;
  };
  return {
    runtime,
    adapter,
    roomId,
    userId,
    warnings,
    say: (text, at) => store(userId, text, at),
    reply: (text, at) => store(runtime.agentId, text, at),
  };
}

export function emptyState(): State {
  return { values: {}, data: {}, text: "" };
}
