import type { Evaluator, IAgentRuntime, Memory } from "@elizaos/core";
import { Item } from "./gen/factmemory/v1/factmemory_pb.js";
/** How long a joined request waits for an expected evaluator that has not arrived. */
export declare const JOIN_GRACE_MS = 100;
/** What the first handler of a message saw; every handler of one runtime.evaluate call sees the same. */
export interface EvaluateContext {
    runtime: IAgentRuntime;
    message: Memory;
    responses: readonly Memory[];
}
/** A message worth evaluating: someone other than the agent said something, and it can be keyed. */
export declare function isEvaluable(runtime: IAgentRuntime, message: Memory): boolean;
/**
 * The items of this plugin that runtime.evaluate will start for a message, given who has arrived.
 * didRespond is not passed to handlers, so it is inferred: only a responded turn runs a non-alwaysRun
 * evaluator, and the runtime passes the turn's responses along.
 */
export declare function expectedItems(registeredNames: ReadonlySet<string>, arrived: ReadonlySet<Item>, responses: readonly Memory[]): Item[];
export declare function inferDidRespond(arrived: ReadonlySet<Item>, responses: readonly Memory[]): boolean;
export declare const factMemoryEvaluator: Evaluator;
export declare const relationshipEvaluator: Evaluator;
export declare const identityEvaluator: Evaluator;
export declare const successEvaluator: Evaluator;
export declare const factMemoryEvaluators: readonly Evaluator[];
