/**
 * A full elizaOS runtime: @elizaos/plugin-sql on in-memory PGlite, migrated and initialized, with the
 * FactMemory plugin registered. Storage, entities and relationships are elizaOS's own, foreign keys included.
 */
import { AgentRuntime, ChannelType, type Memory, type Plugin, type UUID } from "@elizaos/core";
import sqlPlugin from "@elizaos/plugin-sql";

import { closeContext, factMemoryPlugin } from "../../src/index.js";
import { uuid } from "./ids.js";

export interface SqlAgent {
  runtime: AgentRuntime;
  roomId: UUID;
  say(entityId: UUID, text: string): Promise<Memory>;
  reply(text: string): Promise<Memory>;
  stop(): Promise<void>;
}

/**
 * `plugins` are registered after the runtime is initialized, in this order (FactMemory alone by default).
 * Without `agentId` the id comes from the name, and runtimes of one name share the agent row, settings included.
 * `type`: the room's channel type (a DM is answered without elizaOS's should-respond model call).
 */
export async function startSqlAgent(
  settings: Record<string, string>,
  people: ReadonlyArray<{ id: UUID; name: string }>,
  plugins: readonly Plugin[] = [factMemoryPlugin],
  agentId?: UUID,
  type: ChannelType = ChannelType.GROUP,
): Promise<SqlAgent> {
  const runtime = new AgentRuntime({
    ...(agentId !== undefined ? { agentId } : {}),
    character: {
      name: "Ava",
      bio: ["A helpful assistant."],
      settings: { ...settings, PGLITE_DATA_DIR: "memory://" },
    },
  });
  await runtime.registerPlugin(sqlPlugin);
  // AgentRuntime.initialize (1.7.2) looks up the agent row before it runs migrations, so a fresh database
  // needs the adapter opened and migrated first.
  const adapter = (runtime as unknown as { adapter: { isReady(): Promise<boolean>; init(): Promise<void> } })
    .adapter;
  if (!(await adapter.isReady())) await adapter.init();
  await runtime.runPluginMigrations();
  await runtime.initialize();
  for (const plugin of plugins) await runtime.registerPlugin(plugin);
  const pendingLogs = trackLogs(adapter as unknown as LogWriter);

  const roomId = uuid();
  const worldId = uuid();
  for (const person of people) {
    await runtime.ensureConnection({
      entityId: person.id,
      roomId,
      worldId,
      name: person.name,
      userName: person.name.toLowerCase(),
      source: "test",
      type,
    });
  }
  let clock = Date.now();
  const store = async (entityId: UUID, text: string): Promise<Memory> => {
    clock += 1_000;
    const memory: Memory = {
      id: uuid(),
      entityId,
      agentId: runtime.agentId,
      roomId,
      content: { text, source: "test" },
      createdAt: clock,
    };
    await runtime.createMemory(memory, "messages");
    return memory;
  };
  return {
    runtime,
    roomId,
    say: store,
    reply: (text) => store(runtime.agentId, text),
    stop: async () => {
      await Promise.allSettled(pendingLogs);
      await runtime.stop();
      await (runtime as unknown as { adapter: { close(): Promise<void> } }).adapter.close();
    },
  };
}

interface LogWriter {
  log(params: unknown): Promise<void>;
}

/**
 * runtime.evaluate writes its evaluator logs without awaiting them; closing the database under a write
 * still in flight would fail it after the test. Record the writes so that stop() can wait for them.
 */
function trackLogs(adapter: LogWriter): Promise<void>[] {
  const pending: Promise<void>[] = [];
  const log = adapter.log.bind(adapter);
  adapter.log = (params) => {
    const write = log(params);
    pending.push(write);
    return write;
  };
  return pending;
}

/**
 * Stops the agents and empties the list. plugin-sql shares one PGlite among the runtimes of a process: only the
 * last agent closes it.
 */
export async function stopSqlAgents(agents: SqlAgent[]): Promise<void> {
  const last = agents.pop();
  for (const agent of agents.splice(0)) {
    closeContext(agent.runtime);
    await agent.runtime.stop();
  }
  if (last) {
    closeContext(last.runtime);
    await last.stop();
  }
}
