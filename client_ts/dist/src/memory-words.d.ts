import type { Fact } from "./gen/factmemory/v1/factmemory_pb.js";
/** The categories whose loss is a safety risk: deleted from the chat only once the person confirms. */
export declare const SAFETY_CATEGORIES: ReadonlySet<string>;
/** How the person answered a question: yes, no, some of the listed facts by number, all of them, or something else. */
export type Answer = {
    kind: "yes";
} | {
    kind: "no";
} | {
    kind: "all";
} | {
    kind: "pick";
    numbers: number[];
} | {
    kind: "other";
};
/** Reads an answer to a question about `count` listed facts (0 for a yes/no question). */
export declare function readAnswer(text: string, count: number): Answer;
/** Where a fact came from, in the person's terms: "you told me on 20 November 2026". */
export declare function origin(fact: Fact): string;
export declare const say: {
    recall(facts: readonly Fact[], aboutTopic: boolean): string;
    nothingToForget(otherPerson: string | undefined): string;
    forgot(facts: readonly Fact[]): string;
    confirmSafety(fact: Fact): string;
    whichOne(facts: readonly Fact[]): string;
    keptIt: string;
    unclear: string;
    nothingAsked: string;
    confirmForgetMe(facts: number, more: boolean): string;
    forgotYou(facts: number, relationships: number, identities: number): string;
    keptYou: string;
    corrected(before: string, after: string): string;
    noted(facts: readonly Fact[]): string;
    notCorrected: string;
    heldForReview(claim: string): string;
    forgotShared(claim: string): string;
    lessSure(claim: string): string;
    unreachable: string;
};
