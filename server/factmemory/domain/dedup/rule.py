"""Write-time dedup: decide whether a proposed fact repeats, contradicts or differs from a near neighbour.

Embedding similarity is only a pre-filter: with small embedders, claims that differ in one word or
number ("type 1" / "type 2 diabetes", "loves" / "hates coffee") score as high as true paraphrases.
The decision is therefore lexical and deliberately one-sided: SAME (merge) only when the content
words agree exactly, up to a small table of equivalents, or one side adds a harmless trailing
attachment. Anything else keeps both facts. A duplicate is a nuisance; a merged different fact is
a defect. See docs/dedup.md for the rule, the tables (lexicon.py) and the measurements behind the thresholds.
"""

from __future__ import annotations

import enum
import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from factmemory.domain.dedup.lexicon import (
    ADDITION_PREPOSITIONS,
    ANTONYM_PAIRS,
    CONJUNCTIONS,
    EQUIVALENT_GROUPS,
    FILLERS,
    LIGHT_VERBS,
    NEGATING_PREFIXES,
    NEGATIONS,
    NUMBER_WORDS,
    ORDINALS,
    PHRASES,
    PREPOSITIONS,
    QUALIFIERS,
    ROLES,
    STATUS_CHANGE,
    SYMMETRIC_RELATIONS,
    TEMPORAL,
    TIME_ADDITIONS,
    WORK_NOUNS,
    WORK_PREPOSITIONS,
    TokenKind,
)
from factmemory.domain.limits import CLAIM_ANALYSIS_MEMO


class DedupVerdict(enum.Enum):
    """What the write path should do with an add that has a near neighbour."""

    SAME = "same"  # merge: the add becomes a strengthen of the existing fact
    CONFLICT = "conflict"  # same statement, conflicting detail: keep the new fact and record a candidate
    DISTINCT = "distinct"  # different facts: keep both, nothing else


@dataclass(frozen=True)
class DedupDecision:
    """A verdict with a short human-readable reason."""

    verdict: DedupVerdict
    reason: str


# ---------------------------------------------------------------------------------------------
# Analysis of one claim
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Word:
    """A lower-case word with what its original spelling tells us."""

    text: str
    capitalised: bool  # a proper name or acronym in the original claim
    possessive: bool


@dataclass(frozen=True)
class _Token:
    kind: TokenKind
    surface: str  # lower-case word, for reasons
    raw: str  # stem before equivalents
    key: str  # stem after equivalents (and the possessive mark)
    name: bool = False
    number: bool = False


@dataclass(frozen=True)
class _Claim:
    tokens: tuple[_Token, ...]

    @property
    def content(self) -> tuple[_Token, ...]:
        return tuple(t for t in self.tokens if t.kind == "content")

    def of_kind(self, kind: TokenKind) -> Counter[str]:
        return Counter(t.key for t in self.tokens if t.kind == kind)


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _stem(word: str) -> str:
    """Light stemming: plural -s, -ies, -ing, final -e. Never -ed: tense must stay visible."""
    if any(c.isdigit() for c in word) or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ing") and len(word) >= 6:
        word = word[:-3]
        if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsfz":
            word = word[:-1]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _loose(word: str) -> str:
    """A stem that also drops -ed, for matching opposites and tense pairs only."""
    stem = _stem(word)
    if stem.endswith("ed") and len(stem) > 4:
        stem = stem[:-2]
        if stem[-1] == stem[-2] and stem[-1] not in "lsfz":
            stem = stem[:-1]
    return stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem


_EQUIVALENTS: Final[dict[str, str]] = {_stem(word): _stem(group[0]) for group in EQUIVALENT_GROUPS for word in group}
_ANTONYMS: Final[frozenset[tuple[str, str]]] = frozenset(
    pair for a, b in ANTONYM_PAIRS for pair in ((_loose(a), _loose(b)), (_loose(b), _loose(a)))
)
_WORD_RE: Final = re.compile(r"\d+(?:[.,:/]\d+)*[a-z%]*|[a-z0-9]+(?:'[a-z]+)?", re.IGNORECASE)
_CONTRACTIONS: Final[dict[str, tuple[str, ...]]] = {
    "n't": ("not",),
    "'ve": ("have",),
    "'re": ("are",),
    "'m": ("am",),
    "'ll": ("will",),
    "'d": ("would",),
}
_IRREGULAR_NEGATIONS: Final[dict[str, tuple[str, ...]]] = {
    "can't": ("can", "not"),
    "won't": ("will", "not"),
    "cannot": ("can", "not"),
}


def _split_words(claim: str) -> list[_Word]:
    """Words with contractions expanded; capitalisation noted before it is lost."""
    text = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", claim.replace("’", "'"))
    words: list[_Word] = []
    for index, match in enumerate(_WORD_RE.finditer(text)):
        words.extend(_expand(match.group(), first=index == 0))
    return words


def _expand(original: str, first: bool) -> list[_Word]:
    lower = original.lower()
    capitalised = _looks_like_name(original, first)
    if lower in _IRREGULAR_NEGATIONS:
        return [_Word(w, False, False) for w in _IRREGULAR_NEGATIONS[lower]]
    for suffix, expansion in _CONTRACTIONS.items():
        if lower.endswith(suffix) and len(lower) > len(suffix):
            head = lower[: -len(suffix)]
            return [_Word(head, capitalised, False), *(_Word(w, False, False) for w in expansion)]
    if lower.endswith("'s"):
        return [_Word(lower[:-2], capitalised, True)]
    return [_Word(lower.replace("'", ""), capitalised, False)]


def _looks_like_name(original: str, first: bool) -> bool:
    """Capitalised mid-claim (Berlin, Mia), an acronym (MIT, CTO) or a code with digits (Q4)."""
    letters = [c for c in original if c.isalpha()]
    if not letters or original in ("I", "I'm", "I've"):
        return False
    acronym = len(letters) >= 2 and all(c.isupper() for c in letters)
    return acronym or (not first and original[0].isupper())


def _rewrite_phrases(words: list[_Word]) -> list[_Word]:
    out: list[_Word] = []
    i = 0
    while i < len(words):
        for pattern, replacement in PHRASES:
            if tuple(w.text for w in words[i : i + len(pattern)]) == pattern:
                out.extend(_Word(r, False, False) for r in replacement)
                i += len(pattern)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _drop_light_work(words: list[_Word]) -> list[_Word]:
    """'works as a nurse' -> 'as a nurse': the opening verb says nothing the role does not."""
    first = next((i for i, w in enumerate(words) if w.text not in FILLERS and w.text not in LIGHT_VERBS), None)
    if first is None or first + 1 >= len(words):
        return words
    if words[first].text in WORK_NOUNS and words[first + 1].text in WORK_PREPOSITIONS:
        return words[:first] + words[first + 1 :]
    return words


_MARKER_TABLES: Final[tuple[tuple[TokenKind, frozenset[str]], ...]] = (
    ("prep", PREPOSITIONS),
    ("neg", NEGATIONS),
    ("conj", CONJUNCTIONS),
)


def _classify(word: _Word) -> _Token | None:
    text = word.text
    if text in FILLERS or not text:
        return None
    if text in LIGHT_VERBS:
        return _Token("light", text, LIGHT_VERBS[text], LIGHT_VERBS[text])
    for kind, table in _MARKER_TABLES:
        if text in table:
            return _Token(kind, text, text, text)
    number = NUMBER_WORDS.get(text) or ORDINALS.get(text)
    if number is not None or any(c.isdigit() for c in text):
        value = number or text
        return _Token("content", text, value, value, name=word.capitalised, number=True)
    stem = _stem(text)
    key = _EQUIVALENTS.get(stem, stem)
    mark = "'s" if word.possessive else ""
    return _Token("content", text + mark, stem, key + mark, name=word.capitalised)


def _resolve_symmetric_possessives(tokens: list[_Token]) -> list[_Token]:
    """'Alex's husband' == 'husband of Alex': drop the possessive before a symmetric relation."""
    out = list(tokens)
    content_at = [i for i, t in enumerate(out) if t.kind == "content"]
    for here, after in itertools.pairwise(content_at):
        token = out[here]
        if token.key.endswith("'s") and out[after].surface in SYMMETRIC_RELATIONS:
            out[here] = _Token("content", token.surface[:-2], token.raw, token.key[:-2], token.name, token.number)
    return out


# A pure function of the text, asked for the same claims again and again (each add against its neighbours, every
# Provide's duplicate check): kept per process.
@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _analyse(claim: str) -> _Claim:
    words = _drop_light_work(_rewrite_phrases(_split_words(claim)))
    tokens = [t for t in (_classify(w) for w in words) if t is not None]
    return _Claim(tuple(_resolve_symmetric_possessives(tokens)))


# ---------------------------------------------------------------------------------------------
# Structure checks: same words are not enough when who-did-what-to-whom changes
# ---------------------------------------------------------------------------------------------


_NO_OBJECT: Final = "(pronoun)"


def _attachments(claim: _Claim) -> list[tuple[str, str]]:
    """(preposition or negation, the content word it governs); a dropped pronoun counts as an object."""
    pairs: list[tuple[str, str]] = []
    pending: list[str] = []
    for token in claim.tokens:
        if token.kind in ("prep", "neg"):
            pending.append(token.key)
        elif token.kind == "content":
            pairs.extend((marker, token.key) for marker in pending)
            pending = []
    return pairs + [(marker, _NO_OBJECT) for marker in pending]


def _grouped(pairs: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    result: dict[str, set[str]] = {}
    for key, value in pairs:
        result.setdefault(key, set()).add(value)
    return result


def _crossed(left: dict[str, set[str]], right: dict[str, set[str]]) -> str | None:
    """A key both sides fill, with values neither of which contains the other."""
    for key in sorted(left.keys() & right.keys()):
        if not (left[key] <= right[key] or right[key] <= left[key]):
            return f"{key}: {'/'.join(sorted(left[key]))} vs {'/'.join(sorted(right[key]))}"
    return None


def _relation_conflict(a: _Claim, b: _Claim) -> str | None:
    """Same words, different relations: 'moved to Berlin' vs 'from Berlin', 'X to Y' vs 'Y to X'."""
    att_a, att_b = _attachments(a), _attachments(b)
    by_object = _crossed(_grouped((o, m) for m, o in att_a), _grouped((o, m) for m, o in att_b))
    by_marker = _crossed(_grouped(att_a), _grouped(att_b))
    found = by_object or by_marker
    return None if found is None else f"relation differs: {found}"


def _content_order(claim: _Claim) -> list[str]:
    """Content keys in order, with passive agents fronted ('confirmed by lab' -> 'lab confirmed')."""
    keys: list[str] = []
    after_by = False
    for token in claim.tokens:
        if token.kind == "content":
            if after_by and keys:
                keys.insert(len(keys) - 1, token.key)
            else:
                keys.append(token.key)
        after_by = token.kind == "prep" and token.key == "by"
    return keys


def _one_block_move(x: Sequence[str], y: Sequence[str]) -> bool:
    """True if y is x with at most one contiguous block moved ('penicillin allergy')."""
    if list(x) == list(y):
        return True
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n + 1):
            rest = [*x[:i], *x[j:]]
            block = list(x[i:j])
            if any([*rest[:k], *block, *rest[k:]] == list(y) for k in range(len(rest) + 1)):
                return True
    return False


def _light_conflict(a: _Claim, b: _Claim) -> bool:
    """'is a nurse' vs 'has a nurse'; one side without a light verb is fine."""
    light_a, light_b = set(a.of_kind("light")), set(b.of_kind("light"))
    return bool(light_a and light_b and light_a.isdisjoint(light_b))


def _structure_problem(a: _Claim, b: _Claim) -> str | None:
    """Why two claims with the same content words may still say different things."""
    relation = _relation_conflict(a, b)
    if relation is not None:
        return relation
    if not _one_block_move(_content_order(a), _content_order(b)):
        return "word order differs"
    if _light_conflict(a, b):
        return "is/has differs"
    return None


# ---------------------------------------------------------------------------------------------
# Typed differences: the details that must agree
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Diff:
    only_a: tuple[_Token, ...]
    only_b: tuple[_Token, ...]
    raw_only_a: tuple[_Token, ...]
    raw_only_b: tuple[_Token, ...]
    shared: int  # shared content words, numbers excluded


def _minus(tokens: Sequence[_Token], other: Sequence[_Token], attr: Literal["key", "raw"]) -> tuple[_Token, ...]:
    remaining = Counter(getattr(t, attr) for t in other)
    out: list[_Token] = []
    for token in tokens:
        value = getattr(token, attr)
        if remaining[value] > 0:
            remaining[value] -= 1
        else:
            out.append(token)
    return tuple(out)


def _diff(a: _Claim, b: _Claim) -> _Diff:
    ca, cb = a.content, b.content
    shared = Counter(t.key for t in ca if not t.number) & Counter(t.key for t in cb if not t.number)
    return _Diff(
        _minus(ca, cb, "key"), _minus(cb, ca, "key"), _minus(ca, cb, "raw"), _minus(cb, ca, "raw"), sum(shared.values())
    )


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _opposite(x: str, y: str) -> bool:
    lx, ly = _loose(x), _loose(y)
    if (lx, ly) in _ANTONYMS:
        return True
    return any(
        len(base) >= 3 and longer == prefix + base
        for prefix in NEGATING_PREFIXES
        for longer, base in ((lx, ly), (ly, lx))
    )


def _pairs(xs: Iterable[_Token], ys: Iterable[_Token]) -> list[tuple[_Token, _Token]]:
    ys = list(ys)
    return [(x, y) for x in xs for y in ys]


def _fmt(tokens: Iterable[_Token]) -> str:
    return ", ".join(t.surface for t in tokens)


def _opposites_finding(d: _Diff) -> str | None:
    for x, y in _pairs(d.only_a + d.raw_only_a, d.only_b + d.raw_only_b):
        if _opposite(x.surface, y.surface):
            return f"opposites: {x.surface} vs {y.surface}"
    return None


def _slot_finding(d: _Diff, label: str, member: frozenset[str] | None, number: bool, name: bool) -> str | None:
    def pick(tokens: Sequence[_Token]) -> list[_Token]:
        return [
            t
            for t in tokens
            if (number and t.number) or (name and t.name) or (member is not None and t.surface in member)
        ]

    xs, ys = pick(d.only_a), pick(d.only_b)
    return f"{label} differ: {_fmt(xs)} vs {_fmt(ys)}" if xs and ys else None


def _tense_finding(d: _Diff) -> str | None:
    for x, y in _pairs(d.only_a, d.only_b):
        if x.surface != y.surface and _loose(x.surface) == _loose(y.surface):
            return f"tense differs: {x.surface} vs {y.surface}"
    return None


def _one_sided_finding(a: _Claim, b: _Claim, d: _Diff) -> str | None:
    negations = (a.of_kind("neg") - b.of_kind("neg")) + (b.of_kind("neg") - a.of_kind("neg"))
    if negations:
        return f"negation differs: {', '.join(sorted(negations))}"
    for label, table in (("time or status differs", TEMPORAL | STATUS_CHANGE), ("qualifier differs", QUALIFIERS)):
        found = [t for t in d.only_a + d.only_b if not t.name and (t.surface in table or _loose(t.surface) in table)]
        if found:
            return f"{label}: {_fmt(found)}"
    return None


def _typed_finding(a: _Claim, b: _Claim, d: _Diff) -> str | None:
    """The first conflicting detail: opposites, negation, numbers, roles, names, tense, qualifiers."""
    return (
        _opposites_finding(d)
        or _one_sided_finding(a, b, d)
        or _slot_finding(d, "numbers", None, number=True, name=False)
        or _slot_finding(d, "roles", ROLES, number=False, name=False)
        or _slot_finding(d, "names", None, number=False, name=True)
        or _tense_finding(d)
    )


# ---------------------------------------------------------------------------------------------
# Harmless additions: "works as a nurse" vs "works as a nurse at a hospital"
# ---------------------------------------------------------------------------------------------

_MAX_ADDED_WORDS: Final = 2


def _plain(token: _Token) -> bool:
    """A word whose addition cannot flip or retarget the statement."""
    risky = TEMPORAL | STATUS_CHANGE | QUALIFIERS | ROLES
    return not (
        token.name
        or token.number
        or token.surface in risky
        or _loose(token.surface) in risky
        or any(_loose(token.surface) in pair for pair in _ANTONYMS)
    )


def _without(claim: _Claim, extra: Sequence[_Token]) -> _Claim:
    """The claim minus the extra content words and the markers that only governed them."""
    drop = {id(t) for t in extra}
    tokens = [t for t in claim.tokens if id(t) not in drop]
    while tokens and tokens[-1].kind == "prep":  # a dangling preposition whose object was the addition
        tokens.pop()
    return _Claim(tuple(tokens))


def _trailing_attachment(longer: _Claim, extra: Sequence[_Token]) -> bool:
    """The extra words form the claim's last phrase and are introduced by a preposition."""
    tokens = list(longer.tokens)
    start = tokens.index(extra[0])
    tail = tokens[start:]
    return (
        all(t.kind == "content" for t in tail)
        and [id(t) for t in tail] == [id(t) for t in extra]
        and start > 0
        and tokens[start - 1].key in ADDITION_PREPOSITIONS
    )


def _trailing_time(longer: _Claim, extra: Sequence[_Token]) -> bool:
    """'anxious' vs 'anxious this morning': time words closing the claim."""
    return all(t.surface in TIME_ADDITIONS for t in extra) and list(longer.content[-len(extra) :]) == list(extra)


def _safe_addition(a: _Claim, b: _Claim, d: _Diff) -> str | None:
    """A reason if one side only adds a time word or a short trailing prepositional phrase."""
    if d.only_a and d.only_b:
        return None
    longer, shorter, extra = (a, b, d.only_a) if d.only_a else (b, a, d.only_b)
    if not extra or not shorter.content or not all(_plain(t) for t in extra):
        return None
    if longer.of_kind("conj") != shorter.of_kind("conj"):
        return None
    core = _without(longer, extra)
    if _structure_problem(core, shorter) is not None:
        return None
    if _trailing_time(longer, extra):
        return f"adds only a time word: {_fmt(extra)}"
    small = len(extra) <= min(_MAX_ADDED_WORDS, len(shorter.content))
    if small and _trailing_attachment(longer, extra):
        return f"adds only a trailing detail: {_fmt(extra)}"
    return None


# ---------------------------------------------------------------------------------------------
# The decision
# ---------------------------------------------------------------------------------------------

_CONFLICT_MIN_SHARED: Final = 2
_CONFLICT_MIN_OVERLAP: Final = 0.6


def _same_reason(a: _Claim, b: _Claim, d: _Diff) -> str | None:
    if not d.only_a and not d.only_b:
        if not a.content or _structure_problem(a, b) is not None:
            return None
        if d.raw_only_a or d.raw_only_b:
            return f"equivalent words: {_fmt(d.raw_only_a)} ~ {_fmt(d.raw_only_b)}"
        return "same content words"
    return _safe_addition(a, b, d)


def _classify_difference(a: _Claim, b: _Claim, d: _Diff) -> DedupDecision:
    """Not the same: a conflict if one slot of a shared statement differs, otherwise distinct."""
    finding = _typed_finding(a, b, d) or (None if d.only_a or d.only_b else _structure_problem(a, b))
    one_slot = len(d.only_a) == 1 and len(d.only_b) == 1  # "happy" vs "unhappy": the whole claim is the slot
    if finding is not None and (d.shared >= 1 or one_slot):
        return DedupDecision(DedupVerdict.CONFLICT, finding)
    if d.only_a and d.only_b:
        overlap = d.shared / max(len(a.content), len(b.content))
        if d.shared >= _CONFLICT_MIN_SHARED and overlap >= _CONFLICT_MIN_OVERLAP:
            return DedupDecision(DedupVerdict.CONFLICT, f"detail differs: {_fmt(d.only_a)} vs {_fmt(d.only_b)}")
        return DedupDecision(DedupVerdict.DISTINCT, f"different words: {_fmt(d.only_a)} vs {_fmt(d.only_b)}")
    if d.only_a or d.only_b:
        return DedupDecision(DedupVerdict.DISTINCT, f"adds detail: {_fmt(d.only_a or d.only_b)}")
    return DedupDecision(DedupVerdict.DISTINCT, finding or "no comparable content")


def decide(new_claim: str, existing_claim: str, similarity: float, threshold: float) -> DedupDecision:
    """Decide whether an add duplicates, contradicts or differs from its nearest existing fact."""
    if similarity < threshold:
        return DedupDecision(DedupVerdict.DISTINCT, f"similarity {similarity:.3f} below {threshold:.3f}")
    a, b = _analyse(new_claim), _analyse(existing_claim)
    d = _diff(a, b)
    if _typed_finding(a, b, d) is None:
        reason = _same_reason(a, b, d)
        if reason is not None:
            return DedupDecision(DedupVerdict.SAME, reason)
    return _classify_difference(a, b, d)


def named_difference(claim_a: str, claim_b: str) -> str | None:
    """'numbers differ: ...' or 'names differ: ...' when each claim has a number (or a name) the other lacks.

    Such claims are about different things whatever else they share ("working on the Marigold pilot" / "the
    Sandpiper pilot", "bought a desk for $405" / "$935"), so no merge may fold one into the other."""
    d = _diff(_analyse(claim_a), _analyse(claim_b))
    return _slot_finding(d, "numbers", None, number=True, name=False) or _slot_finding(
        d, "names", None, number=False, name=True
    )
