/**
 * An in-memory stand-in for the few IDatabaseAdapter methods the plugin and runtime.evaluate touch, so a
 * real AgentRuntime can run without a database plugin. Unlisted methods are absent on purpose: a test that
 * reaches one fails loudly instead of passing on a silent stub.
 */
import type { Entity, IDatabaseAdapter, Memory, Metadata, Relationship, UUID } from "@elizaos/core";

export class FakeAdapter {
  readonly memories: Memory[] = [];
  readonly entities: Entity[] = [];
  readonly relationships: Relationship[] = [];
  readonly logs: unknown[] = [];
  readonly cache = new Map<string, unknown>();
  getMemoriesCalls = 0;
  #nextId = 0;

  asAdapter(): IDatabaseAdapter {
    return this as unknown as IDatabaseAdapter;
  }

  async log(params: unknown): Promise<void> {
    this.logs.push(params);
  }

  async getMemories(params: { tableName: string; roomId?: UUID; count?: number }): Promise<Memory[]> {
    this.getMemoriesCalls += 1;
    const inRoom = this.memories.filter((m) => params.roomId === undefined || m.roomId === params.roomId);
    // Newest first, like the SQL adapter.
    const newestFirst = [...inRoom].sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
    return newestFirst.slice(0, params.count ?? newestFirst.length);
  }

  async getCache<T>(key: string): Promise<T | undefined> {
    return this.cache.get(key) as T | undefined;
  }

  async setCache<T>(key: string, value: T): Promise<boolean> {
    // Stored as a copy, as a database would.
    this.cache.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    return true;
  }

  async getEntitiesForRoom(_roomId: UUID): Promise<Entity[]> {
    return [...this.entities];
  }

  async getRelationship(params: {
    sourceEntityId: UUID;
    targetEntityId: UUID;
  }): Promise<Relationship | null> {
    return (
      this.relationships.find(
        (r) => r.sourceEntityId === params.sourceEntityId && r.targetEntityId === params.targetEntityId,
      ) ?? null
    );
  }

  async getRelationships(params: { entityId: UUID }): Promise<Relationship[]> {
    return this.relationships.filter(
      (r) => r.sourceEntityId === params.entityId || r.targetEntityId === params.entityId,
    );
  }

  async createRelationship(params: {
    sourceEntityId: UUID;
    targetEntityId: UUID;
    tags?: string[];
    metadata?: Metadata;
  }): Promise<boolean> {
    this.#nextId += 1;
    this.relationships.push({
      id: `00000000-0000-4000-8000-${String(this.#nextId).padStart(12, "0")}` as UUID,
      agentId: "00000000-0000-4000-8000-000000000000" as UUID,
      sourceEntityId: params.sourceEntityId,
      targetEntityId: params.targetEntityId,
      tags: params.tags ?? [],
      metadata: params.metadata ?? {},
    });
    return true;
  }

  async updateRelationship(relationship: Relationship): Promise<void> {
    const index = this.relationships.findIndex((r) => r.id === relationship.id);
    if (index < 0) throw new Error(`no relationship ${relationship.id}`);
    this.relationships[index] = relationship;
  }
}
