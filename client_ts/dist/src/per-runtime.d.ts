import type { IAgentRuntime } from "@elizaos/core";
import type { PendingStore } from "./batch.js";
/** `make(runtime)` once per runtime, on first use; the value goes with the runtime. */
export declare function perRuntime<T>(make: (runtime: IAgentRuntime) => T): (runtime: IAgentRuntime) => T;
/** A JSON value kept under `key` in the runtime's cache (its database), across restarts. */
export declare function cacheStore(runtime: IAgentRuntime, key: string): PendingStore;
