"""Every number that steers Provide's choice of facts, in one place, each with where it came from. Pure.

"Tuned" names the data set and the section of docs/recall.md that holds the runs; "judgement" means no data set here
says better. The LoCoMo tune half is `locomo-tune` (`factmemory_tools.recall.locomo`); its held-out half is never
tuned on. Who reads each number is named beside it; every user imports it from here.

Two numbers that steer Provide are settings, read once in settings.py and carried in `Deps.tuning`:
- the current facts' decay, `FACTMEMORY_CURRENT_DECAY_DAYS` (14 days; Settings.current_decay_days: a judgement,
  docs/read-path.md step 4), used by ranking.time_weight;
- the shared facts' gate, `FACTMEMORY_SHARED_MIN_SIMILARITY` (its default per embedder is
  shared.DEFAULT_SHARED_MIN_SIMILARITY; docs/shared-facts.md), used by usecases/provide.shared_candidates.

A cost bound that also shapes the ranking with the embedder down stays with the other fixed limits:
limits.MAX_TERMS, the turn's words looked up by full text (a bound on Provide's cost at 100k facts).
"""

from __future__ import annotations

from datetime import timedelta

# --- The candidate pool (usecases/provide.py; adapters/postgres/read/provide_pool.py reads it) ------------------------
POOL_FACTOR = 4  # facts read per kind, as a multiple of the limit asked for... (judgement)
MIN_POOL = 24  # ...and at least this many (judgement)
# VECTOR_POOL: mem0's top-60, not tuned (locomo-tune offline: 40 and 100 within 3 questions, docs/recall.md).
VECTOR_POOL = 60  # the person's facts nearest the turn by vector, re-ranked with BM25...
RARE_DF = 8  # ...plus the facts holding a term of the turn found in at most this many of the person's facts...
RARE_FACTS = 24  # ...at most this many of them (RARE_DF, RARE_FACTS: judgement, not tuned; docs/recall.md)

# --- The weighed turn (domain/turn.py; docs/read-path.md step 1) -----------------------------------------------------
# The messages read, the current one included (the plugin sends up to its max_recent_messages).
WINDOW = 5
# CONTEXT and FADE: tuned on the LoCoMo tune half's follow-up set (docs/recall.md, "The live turn"): CONTEXT 0.8,
# 1.5, 2.5, 4.0 with FADE 0.5 / 0.25 gave 0.670 / -, 0.685 / 0.718, 0.688 / 0.723, - / 0.722 (the question alone:
# 0.728). FADE 0.1 gave 0.727, but that set puts only chatter before the question, so a steeper fade always wins
# there: 0.25 keeps a topic spread over two messages (judgement). The others are judgements, not tuned: no data
# set here has the agent's own replies in the context.
CONTEXT = 2.5  # a message just before a current message with no topic of its own (the current one weighs 1)
FADE = 0.25  # each step further back
AGENT = 0.5  # a message of the agent itself, relative to a person's (judgement)
SELF_SUFFICIENT_TERMS = 3  # a message with this many content terms needs no context (judgement; 98 % of the tune
#                            half's questions have 3 or more)
DATED = 0.5  # a message's named times count from this weight on (judgement)
# A day the turn names covers this many days either side (people are approximate about days); a month or a year
# covers itself and as many days either side (domain/language date_spans). Tuned on locomo-tune: 0 days 0.697,
# 3 days 0.703 (docs/recall.md, "Dates").
DATE_SLACK = timedelta(days=3)

# --- Relevance: the signals and their fusion (domain/fusion.py; docs/read-path.md step 3) ----------------------------
# Okapi BM25's k1 and b (domain/bm25.py): the usual defaults (Robertson and Zaragoza 2009; Lucene's), not tuned.
BM25_K1 = 1.2
BM25_B = 0.75
# Each signal's weight in the weighted mean. Equal weights, tuned on locomo-tune only in that they were kept: BM25
# at 0.5 within 2 questions, the date signal at 0.5 gave 0.697 against 0.703 (docs/recall.md).
VECTOR_WEIGHT = 1.0
LEXICAL_WEIGHT = 1.0
DATED_WEIGHT = 1.0
# With the embedder down (domain/relevance.text_relevance): relevance = TEXT_FLOOR + (1 - TEXT_FLOOR) x word match,
# so a fact the full-text search found is never ranked as unrelated (judgement).
TEXT_FLOOR = 0.5

# --- Score and selection (domain/ranking.py; docs/read-path.md steps 4 and 5) ---------------------------------------
# score = relevance x (1 - MODIFIER + MODIFIER x confidence x time weight): confidence and age move a fact by at most
# 30 % (judgement; on locomo-tune 0.0 and 0.1 give the same figure within 3 questions, docs/recall.md). The lane's
# thresholds were tuned on the synthetic recall set (docs/quality.md: LANE_MIN is the sensitive one); its size, 2, is
# the one measured there.
MODIFIER = 0.3  # share of the score that confidence x time weight can move
LANE = 2  # slots for the most relevant facts the score or the per-kind quota left out
LANE_MIN = 0.2  # ... if at least this relevant
SPILL_BELOW = 0.3  # beyond the lane, a slot held by a fact less relevant than this is given up
# A shared budget (ranking.share): a section holding a fact at least RELEVANT shows at least its FLOOR best. The same
# "relevant to the turn" mark as SPILL_BELOW; not tuned (locomo-tune: floors of 1 to 3, marks 0.2 and 0.4 within
# 2 questions of each other, docs/recall.md).
RELEVANT = 0.3
FLOOR = 1
# The shared section's mark in that budget: 0, since every shared candidate already passed the shared facts' gate
# (FACTMEMORY_SHARED_MIN_SIMILARITY, above), so each counts as relevant (judgement; docs/shared-facts.md).
SHARED_MARK = 0.0
