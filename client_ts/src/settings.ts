import type { IAgentRuntime } from "@elizaos/core";

/** The plugin's settings, read once per runtime from character settings/secrets or the environment. */
export interface FactMemorySettings {
  url: string;
  token: string | undefined;
  /** Deadline of the per-turn Provide call: it holds up the agent's reply, so it is short. */
  timeoutMs: number;
  /** Deadline of the post-turn Evaluate call, which waits for one LLM call on the server. */
  evaluateTimeoutMs: number;
  /** Evaluate a person's messages in batches of this many (one LLM call each); 1 = every turn. */
  evaluateEvery: number;
  /** With batches: a batch also goes after this long without a new message from that person. */
  evaluateQuietMs: number;
}

export const DEFAULT_URL = "http://127.0.0.1:50051";
export const DEFAULT_TIMEOUT_MS = 3_000;
export const DEFAULT_EVALUATE_TIMEOUT_MS = 60_000;
export const DEFAULT_EVALUATE_EVERY = 1;
export const MAX_EVALUATE_EVERY = 16; // the service's default FACTMEMORY_MAX_BATCH_MESSAGES
export const DEFAULT_EVALUATE_QUIET_MS = 60_000;

type GetSetting = Pick<IAgentRuntime, "getSetting">;

/**
 * Reads FACT_MEMORY_URL, FACT_MEMORY_TOKEN, FACT_MEMORY_TIMEOUT_MS, FACT_MEMORY_EVALUATE_TIMEOUT_MS,
 * FACT_MEMORY_EVALUATE_EVERY (at most 16) and FACT_MEMORY_EVALUATE_QUIET_MS.
 */
export function readSettings(runtime: GetSetting): FactMemorySettings {
  return {
    url: text(runtime, "FACT_MEMORY_URL") ?? DEFAULT_URL,
    token: text(runtime, "FACT_MEMORY_TOKEN"),
    timeoutMs: positiveInt(runtime, "FACT_MEMORY_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS,
    evaluateTimeoutMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_TIMEOUT_MS") ?? DEFAULT_EVALUATE_TIMEOUT_MS,
    evaluateEvery: Math.min(
      positiveInt(runtime, "FACT_MEMORY_EVALUATE_EVERY") ?? DEFAULT_EVALUATE_EVERY,
      MAX_EVALUATE_EVERY,
    ),
    evaluateQuietMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_QUIET_MS") ?? DEFAULT_EVALUATE_QUIET_MS,
  };
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
