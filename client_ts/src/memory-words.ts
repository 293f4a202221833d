/**
 * What the agent says when a person asks about their own memory, and how it reads their answer to a question it
 * asked ("which one?", "are you sure?"). Pure: no I/O, no model call.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";

import type { Fact } from "./gen/factmemory/v1/factmemory_pb.js";

/** The categories whose loss is a safety risk: deleted from the chat only once the person confirms. */
export const SAFETY_CATEGORIES: ReadonlySet<string> = new Set(["health"]);

/** How the person answered a question: yes, no, some of the listed facts by number, all of them, or something else. */
export type Answer =
  | { kind: "yes" }
  | { kind: "no" }
  | { kind: "all" }
  | { kind: "pick"; numbers: number[] }
  | { kind: "other" };

// English words people answer with; anything else is "other" (a yes/no question then keeps what it asked about).
const NO_WORDS = new Set([
  "no",
  "n",
  "nope",
  "nah",
  "cancel",
  "dont",
  "don't",
  "keep",
  "stop",
  "never",
  "neither",
  "none",
  "nothing",
  "wait",
]);
const YES_WORDS = new Set([
  "yes",
  "y",
  "yeah",
  "yep",
  "yup",
  "sure",
  "ok",
  "okay",
  "confirm",
  "confirmed",
  "absolutely",
]);
const YES_PHRASES = ["do it", "go ahead", "forget me", "please do", "that's right", "i'm sure", "i am sure"];
const ALL_WORDS = new Set(["all", "both", "everything", "every"]);
const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6 };

/** Reads an answer to a question about `count` listed facts (0 for a yes/no question). */
export function readAnswer(text: string, count: number): Answer {
  const lower = text.toLowerCase().replace(/[’]/g, "'");
  const words = lower.match(/[a-z0-9']+/g) ?? [];
  if (words.some((w) => NO_WORDS.has(w))) return { kind: "no" };
  const numbers = new Set<number>();
  for (const word of words) {
    const n = /^\d+$/.test(word) ? Number(word) : word === "last" ? count : (ORDINALS[word] ?? 0);
    if (n >= 1 && n <= count) numbers.add(n);
  }
  if (numbers.size > 0) return { kind: "pick", numbers: [...numbers].sort((a, b) => a - b) };
  if (count > 0 && words.some((w) => ALL_WORDS.has(w))) return { kind: "all" };
  if (words.some((w) => YES_WORDS.has(w)) || YES_PHRASES.some((p) => lower.includes(p)))
    return { kind: "yes" };
  return { kind: "other" };
}

const DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

function day(fact: Fact, which: "createdAt" | "lastConfirmedAt"): string {
  const at = fact[which];
  return at ? DAY.format(timestampDate(at)) : "";
}

/** Where a fact came from, in the person's terms: "you told me on 20 November 2026". */
export function origin(fact: Fact): string {
  const evidence = fact.evidenceMessageIds;
  const when = day(fact, "createdAt");
  let said: string;
  if (evidence.length > 0 && evidence.every((e) => e.startsWith("reviewer:")))
    said = `added by hand on ${when}`;
  else if (evidence.length > 0 && evidence.every((e) => e.startsWith("import:")))
    said = `imported on ${when}`;
  else said = `you told me on ${when}`;
  const again = day(fact, "lastConfirmedAt");
  if (again && again !== when && !said.startsWith("added")) said += `, and again on ${again}`;
  const before = fact.previousClaims.at(-1);
  if (before) said += `; it used to say "${before}"`;
  return said;
}

function quoted(facts: readonly Fact[]): string {
  const claims = facts.map((f) => `"${f.claim}"`);
  return claims.length <= 1 ? (claims[0] ?? "") : `${claims.slice(0, -1).join(", ")} and ${claims.at(-1)}`;
}

export const say = {
  recall(facts: readonly Fact[], aboutTopic: boolean): string {
    if (facts.length === 0) return "I don't remember anything about you yet.";
    const intro = aboutTopic ? "Here is what I remember about that:" : "Here is what I remember about you:";
    return [intro, ...facts.map((f) => `- ${f.claim} (${origin(f)})`)].join("\n");
  },
  nothingToForget(otherPerson: string | undefined): string {
    const whose = otherPerson
      ? ` I only change what I remember about you, never what I remember about ${otherPerson}.`
      : "";
    return `I don't have anything like that stored about you, so I forgot nothing.${whose}`;
  },
  forgot(facts: readonly Fact[]): string {
    return `Done: I forgot ${quoted(facts)}.`;
  },
  confirmSafety(fact: Fact): string {
    return `"${fact.claim}" is about your health, and forgetting it could matter for your safety. Should I forget it? Answer yes or no.`;
  },
  whichOne(facts: readonly Fact[]): string {
    const lines = facts.map(
      (f, i) => `${i + 1}. ${f.claim}${SAFETY_CATEGORIES.has(f.category) ? ` (${f.category})` : ""}`,
    );
    return [
      "I remember a few things that could be it:",
      ...lines,
      'Which should I forget? Answer with a number, "all" or "none". I haven\'t forgotten anything yet.',
    ].join("\n");
  },
  keptIt: "OK, I kept it: I forgot nothing.",
  unclear: "I couldn't tell which one you meant, so I forgot nothing. Ask me again whenever you like.",
  nothingAsked: "There's nothing waiting for your answer, so I changed nothing.",
  confirmForgetMe(facts: number, more: boolean): string {
    const count = `${facts}${more ? " or more" : ""} fact${facts === 1 && !more ? "" : "s"}`;
    return `That erases everything I remember about you: ${count}, and what I learned about your relationships and accounts. It can't be undone. To confirm, answer "yes, forget me" in your next message; anything else keeps it.`;
  },
  forgotYou(facts: number, relationships: number, identities: number): string {
    return `Done: I erased everything I remembered about you (${facts} facts, ${relationships} relationships, ${identities} accounts). I'll start from scratch.`;
  },
  keptYou: "OK, I kept everything I remember about you.",
  corrected(before: string, after: string): string {
    return `Thanks, I fixed it: "${before}" is now "${after}".`;
  },
  noted(facts: readonly Fact[]): string {
    return `Noted: ${quoted(facts)}.`;
  },
  notCorrected:
    "I couldn't tell which of the things I remember about you that corrects, so nothing changed. You can ask me what I remember about you.",
  heldForReview(claim: string): string {
    return `"${claim}" is something I know about this community, not about you, and only the people trusted to teach it can change it. I passed your request on for review; until then it stays as it is.`;
  },
  forgotShared(claim: string): string {
    return `Done: I forgot "${claim}" (something I knew about this community).`;
  },
  lessSure(claim: string): string {
    return `Noted: I'm less sure now that "${claim}" (something I know about this community).`;
  },
  unreachable: "I couldn't reach my memory just now, so nothing changed. Please try again in a moment.",
};
