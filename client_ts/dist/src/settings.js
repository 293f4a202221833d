export const MODEL_MODES = ["service", "agent", "auto"];
export const AGENT_MODEL_TYPES = ["OBJECT_SMALL", "TEXT_SMALL"];
export const DEFAULT_URL = "http://127.0.0.1:50051";
export const DEFAULT_TIMEOUT_MS = 3_000;
export const DEFAULT_EVALUATE_TIMEOUT_MS = 60_000;
export const DEFAULT_EVALUATE_EVERY = 1;
export const MAX_EVALUATE_EVERY = 16; // the service's default FACTMEMORY_MAX_BATCH_MESSAGES
export const DEFAULT_EVALUATE_QUIET_MS = 60_000;
export const DEFAULT_MODEL = "auto";
/**
 * Reads FACT_MEMORY_URL, FACT_MEMORY_TOKEN, FACT_MEMORY_TIMEOUT_MS, FACT_MEMORY_EVALUATE_TIMEOUT_MS,
 * FACT_MEMORY_EVALUATE_EVERY (at most 16), FACT_MEMORY_EVALUATE_QUIET_MS, FACT_MEMORY_MODEL (service | agent |
 * auto), FACT_MEMORY_AGENT_MODEL_TYPE (OBJECT_SMALL | TEXT_SMALL) and FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY (true | false).
 */
export function readSettings(runtime) {
    const problems = [];
    return {
        url: text(runtime, "FACT_MEMORY_URL") ?? DEFAULT_URL,
        token: text(runtime, "FACT_MEMORY_TOKEN"),
        timeoutMs: positiveInt(runtime, "FACT_MEMORY_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS,
        evaluateTimeoutMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_TIMEOUT_MS") ?? DEFAULT_EVALUATE_TIMEOUT_MS,
        evaluateEvery: Math.min(positiveInt(runtime, "FACT_MEMORY_EVALUATE_EVERY") ?? DEFAULT_EVALUATE_EVERY, MAX_EVALUATE_EVERY),
        evaluateQuietMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_QUIET_MS") ?? DEFAULT_EVALUATE_QUIET_MS,
        model: oneOf(runtime, "FACT_MEMORY_MODEL", MODEL_MODES, problems, "lower") ?? DEFAULT_MODEL,
        agentModelType: oneOf(runtime, "FACT_MEMORY_AGENT_MODEL_TYPE", AGENT_MODEL_TYPES, problems, "upper"),
        keepBootstrapMemory: flag(runtime, "FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY", problems) ?? false,
        problems,
    };
}
function oneOf(runtime, key, allowed, problems, letterCase) {
    const raw = text(runtime, key);
    if (raw === undefined)
        return undefined;
    const value = letterCase === "lower" ? raw.toLowerCase() : raw.toUpperCase();
    const found = allowed.find((option) => option === value);
    if (found === undefined)
        problems.push(`${key}=${JSON.stringify(raw)} is not one of ${allowed.join(", ")}: ignored`);
    return found;
}
function flag(runtime, key, problems) {
    const value = runtime.getSetting(key);
    if (typeof value === "boolean")
        return value;
    const raw = text(runtime, key)?.toLowerCase();
    if (raw === undefined)
        return undefined;
    if (["true", "1", "yes"].includes(raw))
        return true;
    if (["false", "0", "no"].includes(raw))
        return false;
    problems.push(`${key}=${JSON.stringify(raw)} is not true or false: ignored`);
    return undefined;
}
function text(runtime, key) {
    const value = runtime.getSetting(key);
    if (value === null || value === undefined || typeof value === "boolean")
        return undefined;
    const trimmed = String(value).trim();
    return trimmed === "" ? undefined : trimmed;
}
function positiveInt(runtime, key) {
    const raw = text(runtime, key);
    if (raw === undefined)
        return undefined;
    const value = Number(raw);
    // A typo must not turn into a zero deadline (every call failing at once): fall back to the default.
    return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}
//# sourceMappingURL=settings.js.map