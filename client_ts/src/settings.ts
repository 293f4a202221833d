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

export const MODEL_MODES = ["service", "agent", "auto"] as const;
export type ModelMode = (typeof MODEL_MODES)[number];
export const PREFETCH_MODES = ["answered", "all", "off"] as const;
export type PrefetchMode = (typeof PREFETCH_MODES)[number];
export const AGENT_MODEL_TYPES = ["OBJECT_SMALL", "TEXT_SMALL"] as const;
export type AgentModelType = (typeof AGENT_MODEL_TYPES)[number];

export const DEFAULT_URL = "http://127.0.0.1:50051";
export const DEFAULT_TIMEOUT_MS = 3_000;
export const DEFAULT_EVALUATE_TIMEOUT_MS = 60_000;
export const DEFAULT_EVALUATE_EVERY = 1;
export const DEFAULT_EVALUATE_QUIET_MS = 60_000;
export const DEFAULT_MODEL: ModelMode = "auto";
export const DEFAULT_PREFETCH: PrefetchMode = "answered";

type GetSetting = Pick<IAgentRuntime, "getSetting">;

/**
 * Reads FACT_MEMORY_URL, FACT_MEMORY_TOKEN, FACT_MEMORY_TIMEOUT_MS, FACT_MEMORY_EVALUATE_TIMEOUT_MS,
 * FACT_MEMORY_EVALUATE_EVERY (batches of at most the service's limit), FACT_MEMORY_EVALUATE_QUIET_MS, FACT_MEMORY_MODEL (service | agent |
 * auto), FACT_MEMORY_AGENT_MODEL_TYPE (OBJECT_SMALL | TEXT_SMALL), FACT_MEMORY_PREFETCH (answered | all | off) and
 * FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY (true | false).
 */
export function readSettings(runtime: GetSetting): FactMemorySettings {
  const problems: string[] = [];
  return {
    url: text(runtime, "FACT_MEMORY_URL") ?? DEFAULT_URL,
    token: text(runtime, "FACT_MEMORY_TOKEN"),
    timeoutMs: positiveInt(runtime, "FACT_MEMORY_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS,
    evaluateTimeoutMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_TIMEOUT_MS") ?? DEFAULT_EVALUATE_TIMEOUT_MS,
    evaluateEvery: positiveInt(runtime, "FACT_MEMORY_EVALUATE_EVERY") ?? DEFAULT_EVALUATE_EVERY,
    evaluateQuietMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_QUIET_MS") ?? DEFAULT_EVALUATE_QUIET_MS,
    model: oneOf(runtime, "FACT_MEMORY_MODEL", MODEL_MODES, problems, "lower") ?? DEFAULT_MODEL,
    agentModelType: oneOf(runtime, "FACT_MEMORY_AGENT_MODEL_TYPE", AGENT_MODEL_TYPES, problems, "upper"),
    prefetch: oneOf(runtime, "FACT_MEMORY_PREFETCH", PREFETCH_MODES, problems, "lower") ?? DEFAULT_PREFETCH,
    keepBootstrapMemory: flag(runtime, "FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY", problems) ?? false,
    problems,
  };
}

function oneOf<T extends string>(
  runtime: GetSetting,
  key: string,
  allowed: readonly T[],
  problems: string[],
  letterCase: "lower" | "upper",
): T | undefined {
  const raw = text(runtime, key);
  if (raw === undefined) return undefined;
  const value = letterCase === "lower" ? raw.toLowerCase() : raw.toUpperCase();
  const found = allowed.find((option) => option === value);
  if (found === undefined)
    problems.push(`${key}=${JSON.stringify(raw)} is not one of ${allowed.join(", ")}: ignored`);
  return found;
}

function flag(runtime: GetSetting, key: string, problems: string[]): boolean | undefined {
  const value = runtime.getSetting(key);
  if (typeof value === "boolean") return value;
  const raw = text(runtime, key)?.toLowerCase();
  if (raw === undefined) return undefined;
  if (["true", "1", "yes"].includes(raw)) return true;
  if (["false", "0", "no"].includes(raw)) return false;
  problems.push(`${key}=${JSON.stringify(raw)} is not true or false: ignored`);
  return undefined;
}

function text(runtime: GetSetting, key: string): string | undefined {
  const value = runtime.getSetting(key);
  if (value === null || value === undefined || typeof value === "boolean") return undefined;
  const trimmed = String(value).trim();
  return trimmed === "" ? undefined : trimmed;
}

function positiveInt(runtime: GetSetting, key: string): number | undefined {
  const raw = text(runtime, key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  // A typo must not turn into a zero deadline (every call failing at once): fall back to the default.
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}
