/**
 * One memory per agent: with FactMemory loaded, @elizaos/plugin-bootstrap's REFLECTION evaluator (a second
 * extraction call every few turns, storing facts FactMemory never sees) and its FACTS provider (a second facts
 * block) are removed, whatever the plugin order, unless FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY=true.
 */
import type { IAgentRuntime } from "@elizaos/core";
export declare const SUPERSEDED_EVALUATORS: readonly string[];
export declare const SUPERSEDED_PROVIDERS: readonly string[];
type Runtime = Pick<IAgentRuntime, "evaluators" | "providers" | "registerEvaluator" | "registerProvider" | "logger">;
/**
 * Removes what is registered now and keeps out what a plugin registered later brings (this runtime's
 * registerEvaluator/registerProvider skip those names). Logs once per runtime, when the first is superseded.
 */
export declare function supersedeBootstrapMemory(runtime: Runtime): void;
export {};
