import { LOG_SOURCE } from "./context.js";
export const SUPERSEDED_EVALUATORS = ["REFLECTION"];
export const SUPERSEDED_PROVIDERS = ["FACTS"];
const superseding = new WeakSet();
/**
 * Removes what is registered now and keeps out what a plugin registered later brings (this runtime's
 * registerEvaluator/registerProvider skip those names). Logs once per runtime, when the first is superseded.
 */
export function supersedeBootstrapMemory(runtime) {
    if (superseding.has(runtime))
        return;
    superseding.add(runtime);
    const dropped = new Set();
    let logged = false;
    const note = (what) => {
        dropped.add(what);
        if (logged)
            return;
        logged = true;
        // Deferred a tick so that one plugin registering both shows both in the one line.
        queueMicrotask(() => runtime.logger.info({ src: LOG_SOURCE, superseded: [...dropped] }, "FactMemory supersedes plugin-bootstrap's REFLECTION evaluator and FACTS provider: one memory per agent " +
            "(FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY=true keeps them)"));
    };
    removeNamed(runtime.evaluators, SUPERSEDED_EVALUATORS, (name) => note(`evaluator ${name}`));
    removeNamed(runtime.providers, SUPERSEDED_PROVIDERS, (name) => note(`provider ${name}`));
    const registerEvaluator = runtime.registerEvaluator.bind(runtime);
    runtime.registerEvaluator = (evaluator) => {
        if (SUPERSEDED_EVALUATORS.includes(evaluator.name))
            note(`evaluator ${evaluator.name}`);
        else
            registerEvaluator(evaluator);
    };
    const registerProvider = runtime.registerProvider.bind(runtime);
    runtime.registerProvider = (provider) => {
        if (SUPERSEDED_PROVIDERS.includes(provider.name))
            note(`provider ${provider.name}`);
        else
            registerProvider(provider);
    };
}
function removeNamed(list, names, removed) {
    for (let i = list.length - 1; i >= 0; i -= 1) {
        const item = list[i];
        if (names.includes(item.name)) {
            list.splice(i, 1);
            removed(item.name);
        }
    }
}
//# sourceMappingURL=supersede.js.map