/** Tells the service the character's name (RegisterAgent), so that people find the agent by name, not UUID. */
import type { IAgentRuntime } from "@elizaos/core";
import { type Sleep } from "./retry.js";
/** Waits between tries while the service is not up yet: about a minute in all. */
export declare const REGISTER_DELAYS_MS: readonly number[];
/** Registers the name once the runtime is up; never throws, a failure is logged (the agent works without it). */
export declare function registerAgentName(runtime: IAgentRuntime, delaysMs?: readonly number[], wait?: Sleep): Promise<boolean>;
