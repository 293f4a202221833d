/**
 * Whose model extracts: FACT_MEMORY_MODEL = service (Evaluate / EvaluateBatch), agent (the agent's own model,
 * see agent-model.ts) or auto: the service's, until it answers that it has no model; from then on, for the
 * life of the runtime, the agent's.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { askRuntimeModel, evaluateWithAgentModel } from "./agent-model.js";
import { contextFor, LOG_SOURCE } from "./context.js";
import { EvaluateBatchResponseSchema, } from "./gen/factmemory/v1/factmemory_pb.js";
/** The service's answer when it has no LLM of its own (FAILED_PRECONDITION "no LLM configured"). */
export function isNoServiceModel(error) {
    const err = ConnectError.from(error);
    return err.code === Code.FailedPrecondition && /no LLM (is )?configured/i.test(err.rawMessage);
}
/** Pure: the mode after a service call failed with `error` (auto turns into agent when the service has no model). */
export function modeAfterFailure(mode, error) {
    return mode === "auto" && isNoServiceModel(error) ? "agent" : mode;
}
/** One message, by the service's model or the agent's. */
export async function evaluateOne(runtime, request) {
    const plugin = contextFor(runtime);
    const timeoutMs = plugin.settings.evaluateTimeoutMs;
    const viaAgent = async () => {
        const results = await evaluateWithAgentModel(plugin.client, { case: "single", value: request }, askRuntimeModel(runtime, plugin.settings.agentModelType), timeoutMs);
        const [result] = results;
        if (!result)
            throw new Error("the service returned no result for the message");
        return result;
    };
    return withMode(runtime, plugin, viaAgent, () => plugin.client.evaluate(request, { timeoutMs }));
}
/** Several messages of one person, as one batch, by the service's model or the agent's. */
export async function evaluateMany(runtime, request) {
    const plugin = contextFor(runtime);
    const timeoutMs = plugin.settings.evaluateTimeoutMs;
    const viaAgent = async () => {
        const results = await evaluateWithAgentModel(plugin.client, { case: "batch", value: request }, askRuntimeModel(runtime, plugin.settings.agentModelType), timeoutMs);
        return create(EvaluateBatchResponseSchema, { results });
    };
    return withMode(runtime, plugin, viaAgent, () => plugin.client.evaluateBatch(request, { timeoutMs }));
}
async function withMode(runtime, plugin, viaAgent, viaService) {
    if (plugin.mode === "agent")
        return viaAgent();
    try {
        return await viaService();
    }
    catch (error) {
        const next = modeAfterFailure(plugin.mode, error);
        if (next === plugin.mode)
            throw error;
        plugin.mode = next;
        runtime.logger.info({ src: LOG_SOURCE }, "FactMemory: the service has no model of its own; facts are extracted by the agent's model from now on (FACT_MEMORY_MODEL=auto)");
        return viaAgent();
    }
}
//# sourceMappingURL=model-mode.js.map