import type { IAgentRuntime } from "@elizaos/core";
import { type FactMemoryClient } from "./client.js";
import { type FactMemorySettings, type ModelMode } from "./settings.js";
export declare const LOG_SOURCE = "plugin:factmemory";
export interface PluginContext {
    settings: FactMemorySettings;
    client: FactMemoryClient;
    outage: OutageLog;
    /** Whose model extracts now: starts as the setting; auto becomes agent once the service says it has none. */
    mode: ModelMode;
}
type Logger = IAgentRuntime["logger"];
export declare function contextFor(runtime: IAgentRuntime): PluginContext;
/** Drops the runtime's connection; the next call opens a new one with freshly read settings. */
export declare function closeContext(runtime: IAgentRuntime): void;
/**
 * Logs an outage once instead of on every turn: the first failed call warns, later ones of the same
 * outage go to debug, and the first success afterwards says the service is back.
 * Errors that are not outages (INVALID_ARGUMENT, INTERNAL, ...) point at a bug and always warn.
 */
export declare class OutageLog {
    #private;
    constructor(logger: Logger, url: string);
    get down(): boolean;
    failed(operation: string, error: unknown): void;
    succeeded(): void;
}
/** A short, human-readable form of any error, for ActionResult.error and logs. */
export declare function describeError(error: unknown): string;
export {};
