"""What a turn is about: the message being answered leads, the messages before it help only where they carry its
topic. Pure.

A live turn reaches Provide as the room's recent messages with the current one last. Averaging them with equal
weight makes the message the person just wrote a fifth of the query: after chatter about something else, the
agent is handed facts about the chatter. Instead each message gets a weight:

* the current message (the last non-empty one) weighs 1;
* a message before it weighs `CONTEXT` times `FADE` per step back, scaled by how much the current message needs
  it: fully when the current message carries no topic of its own ("when was that?", "how did it go?"), not at all
  when it names one ("when did Caroline go to the support group?"), linearly in between by its count of content
  terms (`needs_context`);
* a message of the agent itself (its entity id is the agent's) weighs `AGENT` times that: the agent's reply
  carries the person's topic, but also its own words.

The same weights steer every signal of the turn (usecases/provide.py): the query vector is the weighted mean of
the messages' vectors, a lexical term weighs as the heaviest message holding it, and the times a message names count
when the message weighs at least `DATED`. Messages of weight 0 are not embedded at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from factmemory.domain import language
from factmemory.domain.models import ChatMessage

# The messages read, the current one included (the plugin sends up to its max_recent_messages).
WINDOW = 5
# Tuned on the LoCoMo tune half (docs/recall.md, "The live turn"): a question after the conversation's last four
# messages, and the follow-up set (the question, then a follow-up leaning on it).
CONTEXT = 0.8  # a message just before a current message with no topic of its own
FADE = 0.5  # each step further back
AGENT = 0.5  # a message of the agent itself, relative to a person's
SELF_SUFFICIENT_TERMS = 3  # a current message with this many content terms or more needs no context
DATED = 0.5  # a message's named times count from this weight on


@dataclass(frozen=True)
class Part:
    """One message of the turn's query and its weight (the current message: 1)."""

    text: str
    weight: float


def needs_context(text: str) -> float:
    """How much the current message leans on the messages before it, on [0, 1]: 1 with no content term ("when
    was that?"), 0 from SELF_SUFFICIENT_TERMS content terms on ("when did Caroline go to the support group?")."""
    held = len(language.content_terms(text))
    return max(0.0, 1.0 - held / SELF_SUFFICIENT_TERMS)


def parts(messages: Sequence[ChatMessage], agent_id: str) -> list[Part]:
    """The turn's weighted messages, oldest first, the current one last; those of weight 0 left out."""
    said = [m for m in messages if m.text.strip()][-WINDOW:]
    if not said:
        return []
    current, before = said[-1], said[:-1]
    lean = needs_context(current.text)
    out = [Part(current.text.strip(), 1.0)]
    for steps, message in enumerate(reversed(before)):
        weight = lean * CONTEXT * FADE**steps * (AGENT if message.entity_id == agent_id else 1.0)
        if weight > 0.0:
            out.append(Part(message.text.strip(), weight))
    return out[::-1]


def term_weights(turn: Sequence[Part]) -> dict[str, float]:
    """Each content term of the turn with the weight of the heaviest message holding it."""
    weights: dict[str, float] = {}
    for part in turn:
        for term in language.content_terms_of([part.text]):
            weights[term] = max(weights.get(term, 0.0), part.weight)
    return weights


def dated_texts(turn: Sequence[Part]) -> list[str]:
    """The messages whose named times count."""
    return [p.text for p in turn if p.weight >= DATED]
