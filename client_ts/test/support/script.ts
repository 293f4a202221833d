/** Pieces of the scripted model's answers (tests/support/llm_stub.py) that several tests and the bench use. */

/** An extraction that learns nothing. */
export const NOTHING = {
  facts: { ops: [] },
  relationships: [],
  identities: [],
  success: { completed: true, reason: "ok" },
};

/** An extraction that learns one durable fact. */
export function learns(claim: string, category: string) {
  const op = { op: "add_durable", claim, category, structured_fields: [], verification_status: null };
  return { ...NOTHING, facts: { ops: [op] } };
}

/** The agent's response call: its thought, the actions it chooses and its text, as elizaOS's template asks. */
export function response(actions: string, text = "") {
  return `<response><thought>scripted</thought><actions>${actions}</actions><providers></providers><text>${text}</text></response>`;
}
