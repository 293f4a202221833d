import type { IAgentRuntime } from "@elizaos/core";
import { type FactMemoryClient } from "./client.js";
import { LearnedLimits } from "./limits.js";
import { type FactMemorySettings, type ModelMode } from "./settings.js";
export declare const LOG_SOURCE = "plugin:factmemory";
export interface PluginContext {
    settings: FactMemorySettings;
    client: FactMemoryClient;
    outage: OutageLog;
    /** The service's request limits, asked for at first use (GetLimits). */
    limits: LearnedLimits;
    /** Whose model extracts now: starts as the setting; auto becomes agent once the service says it has none. */
    mode: ModelMode;
}
type Logger = IAgentRuntime["logger"];
export declare function contextFor(runtime: IAgentRuntime): PluginContext;
/** Drops the runtime's connection; the next call opens a new one with freshly read settings. */
export declare function closeContext(runtime: IAgentRuntime): void;
/**
 * Why the service refuses this agent itself (its token), and what to set; undefined for any other error.
 * The service says UNAUTHENTICATED for a missing or wrong token, RESOURCE_EXHAUSTED while this address is
 * throttled after too many wrong ones.
 */
export declare function refusalAdvice(error: unknown, tokenSet: boolean): string | undefined;
/**
 * Logs an outage once instead of on every turn: the first failed call warns, later ones of the same
 * outage go to debug, and the first success afterwards says the service is back. A refusal of the agent
 * itself (no or a wrong token) is said once, with what to set, until a call succeeds.
 * Errors that are not outages (INVALID_ARGUMENT, INTERNAL, ...) point at a bug and always warn.
 */
export declare class OutageLog {
    #private;
    constructor(logger: Logger, url: string, tokenSet?: boolean);
    get down(): boolean;
    failed(operation: string, error: unknown): void;
    succeeded(): void;
}
/** A short, human-readable form of any error, for ActionResult.error and logs. */
export declare function describeError(error: unknown): string;
export {};
