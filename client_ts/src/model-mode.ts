/**
 * Whose model extracts: FACT_MEMORY_MODEL = service (Evaluate / EvaluateBatch), agent (the agent's own model,
 * see agent-model.ts) or auto: the service's, until it answers that it has no model; from then on, for the
 * life of the runtime, the agent's. When the service refuses the agent's ticket (TicketRefused), the turn goes to
 * the service's model if it has one, else it is dropped with one warning.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { IAgentRuntime } from "@elizaos/core";

import { askRuntimeModel, evaluateWithAgentModel, TicketRefused } from "./agent-model.js";
import { contextFor, LOG_SOURCE, type PluginContext } from "./context.js";
import {
  type EvaluateBatchRequest,
  type EvaluateBatchResponse,
  EvaluateBatchResponseSchema,
  type EvaluateRequest,
  type EvaluateResponse,
  EvaluateResponseSchema,
} from "./gen/factmemory/v1/factmemory_pb.js";
import type { ModelMode } from "./settings.js";

/** The service's answer when it has no LLM of its own (FAILED_PRECONDITION "no LLM configured"). */
export function isNoServiceModel(error: unknown): boolean {
  const err = ConnectError.from(error);
  return err.code === Code.FailedPrecondition && /no LLM (is )?configured/i.test(err.rawMessage);
}

/** A turn dropped after a refused ticket; already logged (one warning), so the caller logs nothing more. */
export class TurnDropped extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TurnDropped";
  }
}

/** Pure: the mode after a service call failed with `error` (auto turns into agent when the service has no model). */
export function modeAfterFailure(mode: ModelMode, error: unknown): ModelMode {
  return mode === "auto" && isNoServiceModel(error) ? "agent" : mode;
}

/** One message, by the service's model or the agent's. */
export async function evaluateOne(
  runtime: IAgentRuntime,
  request: EvaluateRequest,
): Promise<EvaluateResponse> {
  const plugin = contextFor(runtime);
  const timeoutMs = plugin.settings.evaluateTimeoutMs;
  const viaAgent = async () => {
    const results = await evaluateWithAgentModel(
      plugin.client,
      { case: "single", value: request },
      askRuntimeModel(runtime, plugin.settings.agentModelType),
      timeoutMs,
    );
    const [result] = results;
    if (!result) throw new Error("the service returned no result for the message");
    return result;
  };
  const viaService = () => plugin.client.evaluate(request, { timeoutMs });
  return withMode(runtime, plugin, refusable(runtime, viaAgent, viaService, dropped), viaService);
}

function dropped(reason: string): never {
  throw new TurnDropped(reason);
}

/** Several messages of one person, as one batch, by the service's model or the agent's. */
export async function evaluateMany(
  runtime: IAgentRuntime,
  request: EvaluateBatchRequest,
): Promise<EvaluateBatchResponse> {
  const plugin = contextFor(runtime);
  const timeoutMs = plugin.settings.evaluateTimeoutMs;
  const viaAgent = async () => {
    const results = await evaluateWithAgentModel(
      plugin.client,
      { case: "batch", value: request },
      askRuntimeModel(runtime, plugin.settings.agentModelType),
      timeoutMs,
    );
    return create(EvaluateBatchResponseSchema, { results });
  };
  const viaService = () => plugin.client.evaluateBatch(request, { timeoutMs });
  // A dropped batch answers an empty result per message, so that its messages leave the queue.
  const emptyResults = () =>
    create(EvaluateBatchResponseSchema, {
      results: request.messages.map(() => create(EvaluateResponseSchema)),
    });
  return withMode(runtime, plugin, refusable(runtime, viaAgent, viaService, emptyResults), viaService);
}

/**
 * The agent's model, and when the service refuses its ticket: the service's model (the agent's was asked once
 * already), or, when the service has none or the person was forgotten since, `drop`. One warning either way.
 */
function refusable<T>(
  runtime: IAgentRuntime,
  viaAgent: () => Promise<T>,
  viaService: () => Promise<T>,
  drop: (reason: string) => T,
): () => Promise<T> {
  return async () => {
    try {
      return await viaAgent();
    } catch (error) {
      if (!(error instanceof TicketRefused)) throw error;
      const why = `${error.message}; a second call of the agent's model in one turn is not allowed`;
      if (!error.forgotten) {
        try {
          const result = await viaService();
          runtime.logger.warn(
            { src: LOG_SOURCE },
            `FactMemory: ${why}: the service's model evaluated the turn`,
          );
          return result;
        } catch (fallback) {
          if (!isNoServiceModel(fallback)) throw fallback;
        }
      }
      const reason = error.forgotten
        ? `${error.message}: the person was forgotten meanwhile, so the turn is dropped (not learned)`
        : `${why}, and the service has no model: the turn is dropped (not learned)`;
      runtime.logger.warn({ src: LOG_SOURCE }, `FactMemory: ${reason}`);
      return drop(reason);
    }
  };
}

async function withMode<T>(
  runtime: IAgentRuntime,
  plugin: PluginContext,
  viaAgent: () => Promise<T>,
  viaService: () => Promise<T>,
): Promise<T> {
  if (plugin.mode === "agent") return viaAgent();
  try {
    return await viaService();
  } catch (error) {
    const next = modeAfterFailure(plugin.mode, error);
    if (next === plugin.mode) throw error;
    plugin.mode = next;
    runtime.logger.info(
      { src: LOG_SOURCE },
      "FactMemory: the service has no model of its own; facts are extracted by the agent's model from now on (FACT_MEMORY_MODEL=auto)",
    );
    return viaAgent();
  }
}
