"""What a turn is about: the message being answered leads, the messages before it help only where they carry its
topic. Pure.

A live turn reaches Provide as the room's recent messages with the current one last. Averaging them with equal
weight makes the message the person just wrote a fifth of the query: after chatter about something else, the
agent is handed facts about the chatter. Instead each message gets a weight:

* the current message (the last non-empty one) weighs 1;
* a message before it weighs `CONTEXT` times `FADE` per step back, scaled by how much the current message needs
  it (`needs_context`): fully when the current message has no content word of its own ("when was that?"); when it
  has a few and points back ("how did that go?", "and her sister?"), less with each content word, and not at all
  from `SELF_SUFFICIENT_TERMS` on; not at all when it points nowhere ("what about my job?": a new topic);
* a message of the agent itself (its entity id is the agent's) weighs `AGENT` times that: the agent's reply
  carries the person's topic, but also its own words.

The same weights steer every signal of the turn (usecases/provide.py): the query vector is the weighted mean of
the messages' vectors, a lexical term weighs as the heaviest message holding it, and the times a message names count
when the message weighs at least `DATED`. Messages of weight 0 are not embedded at all. The weights, and where each
came from, are in domain/provide_tuning.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from factmemory.domain import language
from factmemory.domain.language.tables import word_set
from factmemory.domain.models import ChatMessage
from factmemory.domain.provide_tuning import AGENT, CONTEXT, DATED, FADE, SELF_SUFFICIENT_TERMS, WINDOW

# Words a message uses to ask or to talk ("remind me", "okay", "still"), not a topic: they are not counted.
_TALK = frozenset(language.stem(w) for w in word_set("query_words"))


@dataclass(frozen=True)
class Part:
    """One message of the turn's query and its weight (the current message: 1)."""

    text: str
    weight: float


def needs_context(text: str) -> float:
    """How much the current message leans on the messages before it, on [0, 1]: 1 with no content term ("when
    was that?"); with a few that point back, less with each ("and her sister?": 2/3); 0 for a message that points
    nowhere ("what about my job?") or names its own topic ("when did Caroline go to the support group?")."""
    held = len([t for t in language.content_terms(text) if t not in _TALK])
    if held == 0:
        return 1.0
    if not language.refers_back(text):
        return 0.0
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
