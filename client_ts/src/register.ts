/** Tells the service the character's name (RegisterAgent), so that people find the agent by name, not UUID. */
import type { IAgentRuntime } from "@elizaos/core";

import { contextFor, describeError, LOG_SOURCE, refusalAdvice } from "./context.js";
import { type Sleep, sleep, withRetries } from "./retry.js";

/** Waits between tries while the service is not up yet: about a minute in all. */
export const REGISTER_DELAYS_MS: readonly number[] = [1_000, 4_000, 15_000, 40_000];

/** Registers the name once the runtime is up; never throws, a failure is logged (the agent works without it). */
export async function registerAgentName(
  runtime: IAgentRuntime,
  delaysMs: readonly number[] = REGISTER_DELAYS_MS,
  wait: Sleep = sleep,
): Promise<boolean> {
  const name = runtime.character?.name?.trim() ?? "";
  if (name === "") return false;
  try {
    await runtime.initPromise;
    const plugin = contextFor(runtime);
    await withRetries(() => plugin.client.registerAgent({ agentId: runtime.agentId, name }), delaysMs, wait);
    return true;
  } catch (error) {
    if (refusalAdvice(error, false) !== undefined) {
      contextFor(runtime).outage.failed("RegisterAgent", error); // said once, with what to set
      return false;
    }
    runtime.logger.warn(
      { src: LOG_SOURCE, name, error: describeError(error) },
      "FactMemory: registering the agent's name failed; the review page and CLI show its id instead",
    );
    return false;
  }
}
