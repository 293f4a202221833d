/**
 * Agent-model mode: the service composes the prompt and JSON schema (PrepareEvaluation), the agent's own model
 * answers it through runtime.useModel, and the service applies the raw reply (CompleteEvaluation) exactly as it
 * applies its own model's. One model call per turn (or batch), never a second: a ticket refused (expired, evicted,
 * the person forgotten) or aborted (a batch that lost a race on one of its messages) is prepared again without a
 * model call, and what still needs one goes to the service's model or is dropped: see TicketRefused.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { IAgentRuntime, JSONSchema } from "@elizaos/core";

import type { FactMemoryClient } from "./client.js";
import type {
  EvaluateBatchRequest,
  EvaluateRequest,
  EvaluateResponse,
  PromptMessage,
} from "./gen/factmemory/v1/factmemory_pb.js";
import type { AgentModelType } from "./settings.js";

/** What the model is asked: the service's prompt messages, in order, and the JSON schema of the reply. */
export interface ModelQuestion {
  prompt: readonly PromptMessage[];
  jsonSchema: string;
  schemaName: string;
}

/** Answers a question with the model's raw reply text. */
export type AskModel = (question: ModelQuestion) => Promise<string>;

export type Prepared =
  { case: "single"; value: EvaluateRequest } | { case: "batch"; value: EvaluateBatchRequest };

/**
 * CompleteEvaluation refused the ticket and its messages still need a model call, which would be the turn's second
 * (issue 24: one model call per turn): the caller falls back to the service's model or drops the turn.
 * `forgotten`: the person was forgotten (ForgetEntity) after the ticket was issued; their messages must not be
 * learned again.
 */
export class TicketRefused extends Error {
  readonly refusal: ConnectError;
  readonly forgotten: boolean;

  constructor(refusal: ConnectError) {
    super(`CompleteEvaluation refused the ticket: ${Code[refusal.code]}: ${refusal.rawMessage}`);
    this.name = "TicketRefused";
    this.refusal = refusal;
    this.forgotten = refusal.code === Code.FailedPrecondition && /forgotten/i.test(refusal.rawMessage);
  }
}

/**
 * A ticket the service will not complete (used, expired, forgotten since: FAILED_PRECONDITION; evicted: NOT_FOUND;
 * another call evaluated some of its messages meanwhile: ABORTED).
 */
function isRefusedTicket(error: ConnectError): boolean {
  return (
    error.code === Code.FailedPrecondition || error.code === Code.NotFound || error.code === Code.Aborted
  );
}

/**
 * Prepare, ask, complete. A refused or aborted ticket is prepared again once, without a model call: that answers
 * the stored results when the messages were applied meanwhile (the ticket used by a concurrent Complete, another
 * call that evaluated them, or the message deleted); else TicketRefused. Returns one result per message of the
 * request, in its order.
 */
export async function evaluateWithAgentModel(
  client: FactMemoryClient,
  request: Prepared,
  ask: AskModel,
  timeoutMs: number,
): Promise<EvaluateResponse[]> {
  const { agentId, entityId } = request.value;
  const prepared = await client.prepareEvaluation({ request }, { timeoutMs });
  if (prepared.ticket === "") return prepared.results; // evaluated before: the stored results
  const reply = await ask({
    prompt: prepared.prompt,
    jsonSchema: prepared.jsonSchema,
    schemaName: prepared.schemaName,
  });
  try {
    const completed = await client.completeEvaluation(
      { agentId, entityId, ticket: prepared.ticket, reply },
      { timeoutMs },
    );
    return completed.results;
  } catch (error) {
    const refusal = ConnectError.from(error);
    if (!isRefusedTicket(refusal)) throw error;
    const refused = new TicketRefused(refusal);
    if (refused.forgotten) throw refused;
    const again = await client.prepareEvaluation({ request }, { timeoutMs });
    if (again.ticket === "") return again.results;
    // The new ticket is left to expire: answering it would take the turn's second model call.
    throw refused;
  }
}

/** The prompt as one text: plugins' TEXT_SMALL/OBJECT_SMALL handlers take a single prompt string. */
export function promptText(prompt: readonly PromptMessage[]): string {
  return prompt.map((message) => message.content).join("\n\n");
}

/** The prompt for a model without structured output: the reply's JSON schema follows the instructions. */
export function withSchema(prompt: string, jsonSchema: string): string {
  return `${prompt}\n\nAnswer with the JSON object only. Its JSON schema:\n${jsonSchema}`;
}

/** OBJECT_SMALL when a model plugin provides it (structured output), else TEXT_SMALL; a setting overrides. */
export function agentModelType(
  runtime: Pick<IAgentRuntime, "getModel">,
  setting: AgentModelType | undefined,
): AgentModelType {
  if (setting !== undefined) return setting;
  return runtime.getModel("OBJECT_SMALL") ? "OBJECT_SMALL" : "TEXT_SMALL";
}

/** Asks the agent's model (its provider, routing, settings and usage events apply) at temperature 0. */
export function askRuntimeModel(runtime: IAgentRuntime, setting: AgentModelType | undefined): AskModel {
  return async (question) => {
    const prompt = promptText(question.prompt);
    if (agentModelType(runtime, setting) === "OBJECT_SMALL") {
      const object: unknown = await runtime.useModel("OBJECT_SMALL", {
        prompt,
        schema: JSON.parse(question.jsonSchema) as JSONSchema,
        temperature: 0,
      });
      return typeof object === "string" ? object : JSON.stringify(object);
    }
    // Without structured output the schema goes into the prompt, as the service does when its endpoint refuses it.
    const text: unknown = await runtime.useModel("TEXT_SMALL", {
      prompt: withSchema(prompt, question.jsonSchema),
      temperature: 0,
    });
    return typeof text === "string" ? text : JSON.stringify(text);
  };
}
