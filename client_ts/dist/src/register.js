import { contextFor, describeError, LOG_SOURCE } from "./context.js";
import { sleep, withRetries } from "./retry.js";
/** Waits between tries while the service is not up yet: about a minute in all. */
export const REGISTER_DELAYS_MS = [1_000, 4_000, 15_000, 40_000];
/** Registers the name once the runtime is up; never throws, a failure is logged (the agent works without it). */
export async function registerAgentName(runtime, delaysMs = REGISTER_DELAYS_MS, wait = sleep) {
    const name = runtime.character?.name?.trim() ?? "";
    if (name === "")
        return false;
    try {
        await runtime.initPromise;
        const plugin = contextFor(runtime);
        await withRetries(() => plugin.client.registerAgent({ agentId: runtime.agentId, name }), delaysMs, wait);
        return true;
    }
    catch (error) {
        runtime.logger.warn({ src: LOG_SOURCE, name, error: describeError(error) }, "FactMemory: registering the agent's name failed; the review page and CLI show its id instead");
        return false;
    }
}
//# sourceMappingURL=register.js.map