import type { IAgentRuntime } from "@elizaos/core";
/** The plugin's settings, read once per runtime from character settings/secrets or the environment. */
export interface FactMemorySettings {
    url: string;
    token: string | undefined;
    /** Deadline of the per-turn Provide call: it holds up the agent's reply, so it is short. */
    timeoutMs: number;
    /** Deadline of the post-turn Evaluate call, which waits for one LLM call on the server. */
    evaluateTimeoutMs: number;
    /**
     * Evaluate a person's messages in batches of this many (one LLM call each); 1 = every turn. A batch holds at
     * most the service's FACTMEMORY_MAX_BATCH_MESSAGES, which the plugin learns from the service (limits.ts).
     */
    evaluateEvery: number;
    /** With batches: a batch also goes after this long without a new message from that person. */
    evaluateQuietMs: number;
    /** Whose model extracts the facts: the service's, the agent's (runtime.useModel), or auto (the agent's when the service has none). */
    model: ModelMode;
    /** The agent's model type in agent mode; undefined: OBJECT_SMALL when a plugin provides it, else TEXT_SMALL. */
    agentModelType: AgentModelType | undefined;
    /**
     * When a person's message arrives, start the turn's Provide at once instead of when composeState asks for it:
     * `answered` in the rooms where elizaOS answers without asking its model first (direct messages, a mention:
     * its message service's own decision), `all` for every message, `off` never.
     */
    prefetch: PrefetchMode;
    /** Keep plugin-bootstrap's REFLECTION evaluator and FACTS provider (a second memory) instead of superseding them. */
    keepBootstrapMemory: boolean;
    /** Settings that were set but not understood, and what was used instead (logged once at start). */
    problems: string[];
}
export declare const MODEL_MODES: readonly ["service", "agent", "auto"];
export type ModelMode = (typeof MODEL_MODES)[number];
export declare const PREFETCH_MODES: readonly ["answered", "all", "off"];
export type PrefetchMode = (typeof PREFETCH_MODES)[number];
export declare const AGENT_MODEL_TYPES: readonly ["OBJECT_SMALL", "TEXT_SMALL"];
export type AgentModelType = (typeof AGENT_MODEL_TYPES)[number];
export declare const DEFAULT_URL = "http://127.0.0.1:50051";
export declare const DEFAULT_TIMEOUT_MS = 3000;
export declare const DEFAULT_EVALUATE_TIMEOUT_MS = 60000;
export declare const DEFAULT_EVALUATE_EVERY = 1;
export declare const DEFAULT_EVALUATE_QUIET_MS = 60000;
export declare const DEFAULT_MODEL: ModelMode;
export declare const DEFAULT_PREFETCH: PrefetchMode;
type GetSetting = Pick<IAgentRuntime, "getSetting">;
/**
 * Reads FACT_MEMORY_URL, FACT_MEMORY_TOKEN, FACT_MEMORY_TIMEOUT_MS, FACT_MEMORY_EVALUATE_TIMEOUT_MS,
 * FACT_MEMORY_EVALUATE_EVERY (batches of at most the service's limit), FACT_MEMORY_EVALUATE_QUIET_MS, FACT_MEMORY_MODEL (service | agent |
 * auto), FACT_MEMORY_AGENT_MODEL_TYPE (OBJECT_SMALL | TEXT_SMALL), FACT_MEMORY_PREFETCH (answered | all | off) and
 * FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY (true | false).
 */
export declare function readSettings(runtime: GetSetting): FactMemorySettings;
export {};
