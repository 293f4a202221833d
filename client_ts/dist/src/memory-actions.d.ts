import type { Action, IAgentRuntime, Memory } from "@elizaos/core";
export declare const RECALL_MEMORY = "RECALL_MEMORY";
export declare const FORGET_FACT = "FORGET_FACT";
export declare const CORRECT_FACT = "CORRECT_FACT";
export declare const FORGET_ME = "FORGET_ME";
export declare const ANSWER_MEMORY_QUESTION = "ANSWER_MEMORY_QUESTION";
export declare const MEMORY_ACTIONS: string[];
/**
 * The turn's response chose one of these actions: the message is a request about the memory itself, not something
 * to learn from (the evaluators skip it; CORRECT_FACT makes the turn's one extraction call itself).
 */
export declare function isMemoryRequest(responses: readonly Memory[]): boolean;
/** For the response call: the question waiting for this message's answer, so that it can choose the answer action. */
export declare function questionHint(runtime: IAgentRuntime, message: Memory): Promise<string>;
export declare const recallMemoryAction: Action;
export declare const forgetFactAction: Action;
export declare const correctFactAction: Action;
export declare const forgetMeAction: Action;
export declare const answerMemoryQuestionAction: Action;
export declare const memoryActions: readonly Action[];
