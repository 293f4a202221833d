/** State kept per agent runtime: one plugin object may serve several agents in one process. */
import type { JsonValue } from "@bufbuild/protobuf";
import type { IAgentRuntime } from "@elizaos/core";

import type { PendingStore } from "./batch.js";

/** `make(runtime)` once per runtime, on first use; the value goes with the runtime. */
export function perRuntime<T>(make: (runtime: IAgentRuntime) => T): (runtime: IAgentRuntime) => T {
  const values = new WeakMap<IAgentRuntime, T>();
  return (runtime) => {
    let value = values.get(runtime);
    if (value === undefined) {
      value = make(runtime);
      values.set(runtime, value);
    }
    return value;
  };
}

/** A JSON value kept under `key` in the runtime's cache (its database), across restarts. */
export function cacheStore(runtime: IAgentRuntime, key: string): PendingStore {
  return {
    load: () => runtime.getCache<JsonValue>(key),
    save: async (value) => {
      await runtime.setCache(key, value);
    },
  };
}
