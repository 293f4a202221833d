"""The word tables the write-time rule (`rule.py`) reads: fillers, light verbs, markers, equivalents, opposites.

Word-level and general, never claim pairs; each entry is a merge (or a block) we trust. See docs/dedup.md.
"""

from __future__ import annotations

from typing import Final, Literal

# ---------------------------------------------------------------------------------------------
# Tables. Keys are lower-case surface words; all are word-level and general, never claim pairs.
# ---------------------------------------------------------------------------------------------

# Words that carry no fact: articles, subject pronouns and possessive determiners (the subject is
# implicit; "her" is ambiguous and dropped too), intensifiers, "named". Object pronouns (him, them,
# me, us) stay: "trusts him" is not "trusts them".
FILLERS: Final = frozenset(
    "a an the this that these those my your his her its our their he she they it i user "
    "really very quite so just actually truly currently now still also named called does do".split()
)

# Light verbs: "has a headache" == "headache", "is a nurse" == "nurse". They are ignored when only
# one side has one, but "is a nurse" vs "has a nurse" must not merge, so they are kept as markers.
# Past forms (was, had) are deliberately NOT here: tense must agree (see TEMPORAL).
LIGHT_VERBS: Final[dict[str, str]] = {
    **dict.fromkeys("is am are be been being feel feels feeling".split(), "be"),
    **dict.fromkeys("has have having own owns".split(), "have"),
}
# "works as/at a nurse" == "nurse at ...": the verb is light only when it opens the claim and is
# followed by one of these prepositions ("lives in Berlin, works in Munich" keeps its verb).
WORK_NOUNS: Final = frozenset("work works working job employed".split())
WORK_PREPOSITIONS: Final = frozenset("as at for in".split())

PREPOSITIONS: Final = frozenset(
    "about across after against among around as at before behind between beyond by during for from "
    "in into near of off on onto over per since than through to toward towards under until upon via "
    "with within".split()
)
# Negations attach to the next content word, like prepositions, so "tea, not coffee" keeps its object.
NEGATIONS: Final = frozenset("not no never none nothing nobody without except unless instead".split())
# A list or contrast on one side only means it says more than the other: never a harmless addition.
CONJUNCTIONS: Final = frozenset("and or but plus nor either neither versus vs whereas while".split())
# Tense and status change: "was married" is not "married", "quit smoking" is not "smokes".
TEMPORAL: Final = frozenset(
    "was were had did used former formerly previously ex once anymore no_longer last next yesterday "
    "tomorrow ago soon later future past "
    # past forms of the light verbs dropped above: only the tense is left of them
    "worked owned felt".split()
)
STATUS_CHANGE: Final = frozenset("quit stop stopped start started began begun became retired resigned".split())
# Hedges, modals, frequency and quantity: "sometimes vegetarian" is not "vegetarian".
QUALIFIERS: Final = frozenset(
    "maybe probably possibly perhaps might may could would should will can sometimes occasionally "
    "rarely seldom often usually always mostly partly partially almost nearly only slightly somewhat "
    "barely hardly more less most least all some any few many several every each both much".split()
)
# Time words that may be added at the end of one side without changing a current-state fact.
TIME_ADDITIONS: Final = frozenset("today tonight morning afternoon evening night week weekend lately recently".split())
# Prepositions that may introduce a harmless trailing addition (place, time, topic). Not "with"
# (adds a co-agent: "married with kids"), "per" (a rate), "for", "to", "by", "than", "as" (roles).
ADDITION_PREPOSITIONS: Final = frozenset("at in on during near around about".split())
# Relations that read the same in both directions, so "Alex's husband" == "married to Alex".
SYMMETRIC_RELATIONS: Final = frozenset(
    "husband wife spouse partner friend colleague coworker roommate neighbor neighbour cousin sibling twin".split()
)
ROLES: Final = frozenset(
    "ceo cto cfo coo cmo cio cpo vp svp evp president chair chairman director manager founder cofounder "
    "owner intern lead head chief principal staff senior junior engineer developer designer analyst "
    "consultant nurse doctor teacher student professor".split()
)
# Number words become digits so "two kids" == "2 kids"; ordinals become "1st", "2nd", ...
_ONES: Final = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
_TENS: Final = "thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS: Final[dict[str, str]] = (
    {word: str(value) for value, word in enumerate(_ONES)}
    | {word: str(30 + 10 * i) for i, word in enumerate(_TENS)}
    | {"hundred": "100", "thousand": "1000", "dozen": "12", "twice": "2x"}
)
_ORDINAL_WORDS: Final = "first second third fourth fifth sixth seventh eighth ninth tenth".split()
ORDINALS: Final[dict[str, str]] = {
    word: f"{i}{'st' if i == 1 else 'nd' if i == 2 else 'rd' if i == 3 else 'th'}"
    for i, word in enumerate(_ORDINAL_WORDS, start=1)
}

# Equivalence groups: every word maps to the first one. Past forms are listed separately because
# "-ed" is not stemmed (tense matters). Kept small on purpose: each entry is a merge we trust.
EQUIVALENT_GROUPS: Final[tuple[tuple[str, ...], ...]] = (
    ("allergy", "allergic", "allergies"),
    ("move", "relocate"),
    ("moved", "relocated"),
    ("love", "enjoy", "adore"),
    ("loved", "enjoyed", "adored"),
    ("write", "draft"),
    ("wrote", "drafted"),
    ("degree", "graduated"),
    ("married", "husband", "wife", "spouse"),
    ("authentication", "auth", "authn"),
    ("information", "info"),
    ("configuration", "config"),
    ("repository", "repo"),
    ("database", "db"),
    ("documentation", "docs"),
)

# Opposites, compared on loose lemmas (so "stopped"/"started" and "loves"/"hates" both hit).
# Words with a negating prefix (un-, dis-, in-, non-, ...) are detected separately.
ANTONYM_PAIRS: Final[tuple[tuple[str, str], ...]] = (
    ("love", "hate"),
    ("enjoy", "hate"),
    ("like", "hate"),
    ("like", "dislike"),
    ("prefer", "avoid"),
    ("senior", "junior"),
    ("more", "less"),
    ("most", "least"),
    ("increase", "decrease"),
    ("start", "stop"),
    ("start", "quit"),
    ("begin", "stop"),
    ("begin", "end"),
    ("start", "end"),
    ("anxious", "excited"),
    ("anxious", "calm"),
    ("stressed", "relieved"),
    ("stressed", "relaxed"),
    ("happy", "sad"),
    ("good", "bad"),
    ("better", "worse"),
    ("best", "worst"),
    ("high", "low"),
    ("higher", "lower"),
    ("up", "down"),
    ("early", "late"),
    ("before", "after"),
    ("old", "young"),
    ("older", "younger"),
    ("big", "small"),
    ("long", "short"),
    ("always", "never"),
    ("win", "lose"),
    ("won", "lost"),
    ("pass", "fail"),
    ("accept", "reject"),
    ("gain", "lose"),
    ("open", "closed"),
    ("left", "right"),
    ("husband", "wife"),
    ("brother", "sister"),
    ("son", "daughter"),
    ("mother", "father"),
    ("male", "female"),
    ("concise", "detailed"),
    ("brief", "detailed"),
    ("short", "detailed"),
    ("introvert", "extrovert"),
    ("full", "part"),
    ("remote", "office"),
    ("gain", "lost"),
    ("well", "badly"),
    ("well", "poorly"),
    ("join", "left"),
    ("support", "oppose"),
    ("on", "off"),
    ("with", "without"),
)
NEGATING_PREFIXES: Final = ("un", "dis", "non", "in", "im", "ir", "il")

# Multi-word rewrites applied to the lower-case word list before classification.
PHRASES: Final[tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = (
    (("not", "like"), ("dislike",)),
    (("not", "likes"), ("dislike",)),
    (("not", "agree"), ("disagree",)),
    (("diagnosed", "with"), ("has",)),
    (("stressed", "out"), ("stressed",)),
    (("no", "longer"), ("no_longer",)),
    (("used", "to"), ("used",)),
)

TokenKind = Literal["content", "prep", "neg", "conj", "light"]
