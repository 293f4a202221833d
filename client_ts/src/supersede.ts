/**
 * One memory per agent: with FactMemory loaded, @elizaos/plugin-bootstrap's REFLECTION evaluator (a second
 * extraction call every few turns, storing facts FactMemory never sees) and its FACTS provider (a second facts
 * block) are removed, whatever the plugin order, unless FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY=true.
 */
import type { IAgentRuntime } from "@elizaos/core";

import { LOG_SOURCE } from "./context.js";

export const SUPERSEDED_EVALUATORS: readonly string[] = ["REFLECTION"];
export const SUPERSEDED_PROVIDERS: readonly string[] = ["FACTS"];

type Runtime = Pick<
  IAgentRuntime,
  "evaluators" | "providers" | "registerEvaluator" | "registerProvider" | "logger"
>;

const superseding = new WeakSet<object>();

/**
 * Removes what is registered now and keeps out what a plugin registered later brings (this runtime's
 * registerEvaluator/registerProvider skip those names). Logs once per runtime, when the first is superseded.
 */
export function supersedeBootstrapMemory(runtime: Runtime): void {
  if (superseding.has(runtime)) return;
  superseding.add(runtime);
  const dropped = new Set<string>();
  let logged = false;
  const note = (what: string) => {
    dropped.add(what);
    if (logged) return;
    logged = true;
    // Deferred a tick so that one plugin registering both shows both in the one line.
    queueMicrotask(() =>
      runtime.logger.info(
        { src: LOG_SOURCE, superseded: [...dropped] },
        "FactMemory supersedes plugin-bootstrap's REFLECTION evaluator and FACTS provider: one memory per agent " +
          "(FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY=true keeps them)",
      ),
    );
  };
  removeNamed(runtime.evaluators, SUPERSEDED_EVALUATORS, (name) => note(`evaluator ${name}`));
  removeNamed(runtime.providers, SUPERSEDED_PROVIDERS, (name) => note(`provider ${name}`));
  const registerEvaluator = runtime.registerEvaluator.bind(runtime);
  runtime.registerEvaluator = (evaluator) => {
    if (SUPERSEDED_EVALUATORS.includes(evaluator.name)) note(`evaluator ${evaluator.name}`);
    else registerEvaluator(evaluator);
  };
  const registerProvider = runtime.registerProvider.bind(runtime);
  runtime.registerProvider = (provider) => {
    if (SUPERSEDED_PROVIDERS.includes(provider.name)) note(`provider ${provider.name}`);
    else registerProvider(provider);
  };
}

function removeNamed<T extends { name: string }>(
  list: T[],
  names: readonly string[],
  removed: (name: string) => void,
): void {
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const item = list[i]!;
    if (names.includes(item.name)) {
      list.splice(i, 1);
      removed(item.name);
    }
  }
}
