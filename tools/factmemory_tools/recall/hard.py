"""Writes the harder recall data set (data/hard.json), deterministically from a seed.

Shaped like long real conversations rather than like one generator's templates:
* 10 two-person conversations of ~25 sessions and 300-400 turns; each speaker is an entity with ~200 facts;
* facts are written the way an extraction model writes them: most name their speaker ("Ines went bouldering with
  Radomir"), some mention the other speaker; many facts on the same topic (a dozen outings, several trips);
* questions come from another process: their own templates and a separate vocabulary of paraphrases ("rock
  climbing indoors" for "bouldering", "ceramics" for "pottery"); about half name the person (every fact does too);
* question types: paraphrase, detail (a name, place or number in the question), two_fact (the answer needs a
  second fact that shares no word with the question), change (what changed: the old and the new fact), current.
Conversations 0-4 are the `tune` part, 5-9 the `heldout` part (never looked at while tuning).

    PYTHONPATH=tools python -m factmemory_tools.recall.hard     # rewrites data/hard.json
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SEED = 20261125
CONVERSATIONS = 10
TUNE = 5  # conversations [0, TUNE) are the tuning part, the rest is held out
SESSIONS = 25
START = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)
OUT = Path(__file__).parent / "data" / "hard.json"
NAMED_SHARE = 0.8  # facts whose claim names the speaker
QUESTION_NAMES_SHARE = 0.5  # questions that name the person (third person) rather than say "I"

FIRST_NAMES = (
    "Ines Navarro", "Tobias Lind", "Priya Raman", "Malik Osei", "Greta Holm", "Jonah Weiss", "Sakura Ito",
    "Diego Ferraz", "Lena Vogel", "Omar Haddad", "Chloe Marchand", "Ravi Menon", "Astrid Berg", "Kwame Mensah",
    "Nadia Petrova", "Felix Brandt", "Yara Haddad", "Lukas Novak", "Mira Kapoor", "Teodor Ilic",
)  # fmt: skip
FRIENDS = (
    "Radomir", "Bertha", "Thaddeus", "Oluwaseun", "Siobhan", "Ingeborg", "Casimir", "Perpetua", "Evander",
    "Marisol", "Wilhelmina", "Anselm", "Philippa", "Ottokar", "Rosalind", "Barnaby", "Ximena", "Leopold",
    "Henrietta", "Ignatius", "Cordelia", "Fitzgerald", "Ludmila", "Peregrine",
)  # fmt: skip
RELATIONS = ("cousin", "sister", "brother", "neighbour", "colleague", "old school friend", "aunt", "flatmate")
RELATION_Q = {
    "cousin": "cousin",
    "sister": "sister",
    "brother": "brother",
    "neighbour": "next-door neighbour",
    "colleague": "coworker",
    "old school friend": "friend from school",
    "aunt": "aunt",
    "flatmate": "roommate",
}
CITIES = (
    "Lisbon", "Rotterdam", "Leeds", "Valencia", "Gdansk", "Tampere", "Bologna", "Graz", "Nantes", "Cork", "Brno",
    "Aarhus", "Porto", "Ghent", "Malmo", "Bilbao", "Ljubljana", "Tallinn", "Lyon", "Bergen", "Seville", "Krakow",
)  # fmt: skip

# (fact phrasing, question phrasing): the two processes' words for the same thing.
ACTIVITIES = (
    ("went bouldering", "go rock climbing indoors"),
    ("went to a pottery class", "do ceramics"),
    ("went kayaking on the lake", "go paddling"),
    ("went to a salsa night", "go dancing"),
    ("went trail running", "go for a run in the hills"),
    ("went to a jazz gig", "see live music"),
    ("went birdwatching", "go looking for birds"),
    ("went to a board game cafe", "play tabletop games"),
    ("went ice skating", "go skating on the rink"),
    ("went to a life drawing session", "do some sketching of models"),
    ("went fishing off the pier", "go angling"),
    ("went to a stand-up comedy show", "see some comedians"),
    ("went foraging for mushrooms", "go picking wild fungi"),
    ("went to a wine tasting", "sample some wines"),
    ("went to the planetarium", "look at the stars at the dome"),
    ("went swimming in the sea", "take a dip in the ocean"),
)
PLACES = ("in the old town", "near the harbour", "out of town", "downtown", "by the river", "in the suburbs")
ITEMS = (
    ("bought a second-hand road bike", "get a used bicycle"),
    ("bought a espresso machine", "get a coffee maker"),
    ("bought a secondhand piano", "get a used keyboard instrument"),
    ("bought noise-cancelling headphones", "buy earphones that block sound"),
    ("bought a telescope", "get something to look at planets"),
    ("bought a sewing machine", "get a machine for making clothes"),
    ("bought a standing desk", "get a desk you stand at"),
    ("bought a tent for camping", "buy gear to sleep outdoors"),
    ("bought a film camera", "get an analogue camera"),
    ("bought a cast iron skillet", "buy a heavy frying pan"),
    ("bought an e-reader", "get a device for books"),
    ("bought a rowing machine", "get exercise equipment for home"),
)
SKILLS = (
    ("started learning Portuguese", "picking up a new language"),
    ("started violin lessons", "learning a string instrument"),
    ("started a woodworking course", "learning carpentry"),
    ("started learning to code in Python", "learning programming"),
    ("started taking singing lessons", "voice training"),
    ("started a beekeeping course", "learning to keep bees"),
    ("started learning to knit", "learning to make jumpers with yarn"),
    ("started sourdough baking", "making bread at home"),
    ("started practising calligraphy", "learning fancy handwriting"),
    ("started learning chess openings", "studying that board game"),
)
FOODS = (
    ("can't stand coriander", "a herb", "avoid"),
    ("is allergic to shellfish", "seafood", "avoid"),
    ("loves spicy ramen", "noodle soup", "like"),
    ("is vegetarian since last year", "meat", "avoid"),
    ("hates olives", "a salty fruit on pizza", "avoid"),
    ("adores dark chocolate", "a sweet treat", "like"),
    ("is lactose intolerant", "dairy", "avoid"),
    ("loves Ethiopian food", "an African cuisine", "like"),
    ("drinks oat milk flat whites", "a coffee order", "like"),
    ("dislikes mushrooms", "fungi in food", "avoid"),
)
JOBS = (
    ("works as a nurse on the night ward", "do for a living"),
    ("works as a software engineer at a fintech startup", "do for work"),
    ("works as a secondary school history teacher", "do for a job"),
    ("works as an architect at a small studio", "do professionally"),
    ("works as a paramedic", "do for a living"),
    ("works as a freelance illustrator", "do for work"),
    ("works as a barista at a roastery", "do for a job"),
    ("works as a civil engineer on tunnels", "do professionally"),
)
FRIEND_DETAILS = (
    ("plays the cello in an orchestra", "what instrument does {x} play"),
    ("is a marine biologist", "what does {x} do for a living"),
    ("just had twins", "any news about {x}'s family"),
    ("runs a bakery", "what kind of shop does {x} own"),
    ("is training for an ironman", "what race is {x} preparing for"),
    ("moved to Canada", "which country does {x} live in now"),
    ("is writing a fantasy novel", "what is {x} writing"),
    ("breeds border collies", "what animals does {x} raise"),
)
MET_AT = (
    ("met {f} at a climbing wall", "at the gym where you climb"),
    ("met {f} at a friend's wedding", "at the marriage celebration"),
    ("met {f} at a language exchange", "at the conversation meetup"),
    ("met {f} at a volunteering day", "while doing charity work"),
    ("met {f} on a train to the coast", "on the rail journey to the seaside"),
    ("met {f} at a book club", "at the reading group"),
)
FEELINGS = (
    ("is stressed about a deadline at work", "feeling under pressure on the job"),
    ("is nervous about a driving test", "anxious about getting a licence"),
    ("is excited about a concert next month", "looking forward to a show"),
    ("is worried about their mother's health", "concerned about a parent being ill"),
    ("is exhausted after a week of overtime", "worn out from long hours"),
    ("is homesick", "missing where they grew up"),
    ("is frustrated with a noisy neighbour", "annoyed by sounds next door"),
    ("is proud of finishing a half marathon", "pleased about a long race"),
    ("is recovering from a sprained ankle", "healing a hurt foot"),
    ("has a bad cold", "feeling sick with the sniffles"),
    ("is saving money for a deposit on a flat", "putting cash aside to buy a home"),
    ("is bored with their current routine", "in a rut"),
)
# A state that changed: (topic words in the question, old fact, new fact).
CHANGES = (
    ("commute", "cycles to work along the canal", "takes the tram to work since the office moved"),
    ("diet", "eats meat most days", "went vegan after a documentary"),
    ("phone", "uses an old Android phone", "switched to an iPhone"),
    ("fitness routine", "lifts weights at the gym three times a week", "quit the gym and does yoga at home"),
    ("hair", "has long curly hair", "cut their hair short"),
    ("relationship status", "is single", "is dating someone they met at a festival"),
    ("sleep schedule", "goes to bed after midnight", "now sleeps by ten and wakes at six"),
    ("car situation", "drives a rusty hatchback", "sold the car and uses a car share"),
)
PETS = (("adopted a rescue greyhound named {p}", "dog"), ("adopted a tabby cat named {p}", "cat"))
PET_NAMES = ("Biscuit", "Pickle", "Mochi", "Juniper", "Pepper", "Noodle", "Waffles", "Ziggy")
BOOKS = (
    ("finished reading The Salt Road", "a book about a desert journey"),
    ("finished reading Winter Orchard", "a novel set among fruit trees in the cold"),
    ("finished reading The Glass Cartographer", "a story about a mapmaker"),
    ("finished reading Nine Lanterns", "a mystery with lights in the title"),
    ("binge-watched a Korean drama", "watched a series from Seoul"),
    ("binge-watched a documentary about octopuses", "a nature show about sea creatures"),
)
NUMBERS = (
    ("pays {n} euros a month in rent", "how much does {who} pay for the flat", (650, 1800)),
    ("ran a 10k in {n} minutes", "how fast was {who} in the ten kilometre race", (41, 68)),
    ("has {n} houseplants", "how many plants does {who} keep indoors", (12, 60)),
    ("saved {n} euros for the summer trip", "how much was put aside for the holiday", (400, 3000)),
)
SMALL_TALK = (
    "haha yes", "that's so true", "oh no, really?", "sounds lovely", "how was your week?", "same here honestly",
    "wait, tell me more", "ugh, Mondays", "I know right", "good luck with that!", "see you next week",
    "that made my day", "omg", "lol", "fair enough", "I hear you",
)  # fmt: skip


@dataclass
class Speaker:
    """One speaker's facts and questions as they are being built."""

    pid: str
    name: str
    other: str
    rng: random.Random
    turns: list[tuple[float, str, list[dict[str, Any]]]] = field(default_factory=list)
    questions: list[dict[str, Any]] = field(default_factory=list)
    claims: set[str] = field(default_factory=set)
    count: int = 0

    @property
    def first(self) -> str:
        return self.name.split()[0]

    def claim(self, body: str, named: bool | None = None) -> str:
        """The extraction process's phrasing: mostly with the speaker's name, else a bare verb phrase."""
        if named is None:
            named = self.rng.random() < NAMED_SHARE
        return f"{self.first} {body}" if named else body

    def say(self, day: float, text: str, *facts: tuple[str, str, str]) -> list[str]:
        """A turn on `day` yielding facts (kind, category, claim); returns their ids."""
        built = []
        for kind, category, claim in facts:
            if claim in self.claims:
                claim = f"{claim} (again)"
            self.claims.add(claim)
            self.count += 1
            built.append({"id": f"{self.pid}-f{self.count:03d}", "kind": kind, "category": category, "claim": claim})
        self.turns.append((day, text, built))
        return [f["id"] for f in built]

    def who(self) -> tuple[str, str, str]:
        """The question process's way to refer to the person: (subject, possessive, object)."""
        if self.rng.random() < QUESTION_NAMES_SHARE:
            return self.first, f"{self.first}'s", self.first
        return "I", "my", "me"

    def ask(self, qtype: str, text: str, *evidence: str) -> None:
        self.questions.append({"type": qtype, "text": text[0].upper() + text[1:], "evidence": list(evidence)})


def _do(subject: str) -> str:
    return "did I" if subject == "I" else f"did {subject}"


def _is(subject: str) -> str:
    return "am I" if subject == "I" else f"is {subject}"


def _pronoun(subject: str) -> str:
    return "I" if subject == "I" else "they"


def outings(s: Speaker, days: list[float]) -> None:
    rng = s.rng
    last: dict[str, tuple[str, str, str]] = {}
    for day in days:
        act, q_act = rng.choice(ACTIVITIES)
        place = rng.choice(PLACES)
        friend = rng.choice(FRIENDS)
        with_other = rng.random() < 0.2
        companion = s.other if with_other else friend
        (fid,) = s.say(
            day,
            f"Had a great time, {act.split(' ', 1)[1]} {place} with {companion}!",
            ("durable", "life_event", s.claim(f"{act} {place} with {companion}")),
        )
        last[act] = (q_act, companion, fid)
    for q_act, companion, fid in list(last.values())[::2]:
        subject, _, _ = s.who()
        if rng.random() < 0.5:
            s.ask("detail", f"who {_do(subject)} {q_act} with most recently?", fid)
        else:
            s.ask("detail", f"when {_do(subject)} last {q_act} with {companion}?", fid)


def purchases(s: Speaker, days: list[float]) -> None:
    for day, (item, q_item) in zip(days, s.rng.sample(ITEMS, len(days)), strict=False):
        (fid,) = s.say(day, f"Treated myself: {item.split(' ', 1)[1]}.", ("durable", "life_event", s.claim(item)))
        subject, _, _ = s.who()
        s.ask("paraphrase", f"{_do(subject)} ever {q_item}?", fid)


def skills(s: Speaker, days: list[float]) -> None:
    for day, (skill, q_skill) in zip(days, s.rng.sample(SKILLS, len(days)), strict=False):
        (fid,) = s.say(day, f"Guess what, I {skill}!", ("durable", "preference", s.claim(skill)))
        subject, _, _ = s.who()
        s.ask("paraphrase", f"what was that thing {subject} said about {q_skill}?", fid)


def food(s: Speaker, days: list[float]) -> None:
    for day, (fact, q_what, polarity) in zip(days, s.rng.sample(FOODS, len(days)), strict=False):
        (fid,) = s.say(day, "Food talk, you know me.", ("durable", "preference", s.claim(fact)))
        subject, _, _ = s.who()
        verb = "avoid" if polarity == "avoid" else "enjoy"
        s.ask("paraphrase", f"is there {q_what} {subject} {verb}{'' if subject == 'I' else 's'}?", fid)


def friends(s: Speaker, days: list[float], names: list[str]) -> None:
    rng = s.rng
    for day, friend in zip(days, names, strict=False):
        relation = rng.choice(RELATIONS)
        detail, q_detail = rng.choice(FRIEND_DETAILS)
        met, q_met = rng.choice(MET_AT)
        a, b = s.say(
            day,
            f"Ran into my {relation} {friend} again, you remember?",
            (
                "durable",
                "relationship",
                s.claim(f"has {'an' if relation[0] in 'aeiou' else 'a'} {relation} called {friend}"),
            ),
            ("durable", "relationship", f"{friend} {detail}"),
        )
        (c,) = s.say(day + 3.5, "Small world moment.", ("durable", "relationship", s.claim(met.format(f=friend))))
        subject, possessive, _ = s.who()
        kind = rng.random()
        if kind < 0.34:
            s.ask("detail", q_detail.format(x=friend) + "?", b)
        elif kind < 0.67:
            s.ask("two_fact", q_detail.format(x=f"{possessive} {RELATION_Q[relation]}") + "?", a, b)
        else:
            s.ask("two_fact", q_detail.format(x=f"the person {subject} met {q_met}") + "?", c, b)


def feelings(s: Speaker, days: list[float]) -> None:
    rng = s.rng
    for day in days:
        fact, q_fact = rng.choice(FEELINGS)
        (fid,) = s.say(day, "Honestly it's been a lot lately.", ("current", "feeling", s.claim(fact)))
        if rng.random() < 0.4:
            subject, _, _ = s.who()
            s.ask("current", f"{_is(subject)} still {q_fact}?", fid)


def changes(s: Speaker, days: list[float]) -> None:
    for (topic, old, new), day in zip(s.rng.sample(CHANGES, 4), days, strict=False):
        (a,) = s.say(day, "Just my usual routine.", ("durable", "preference", s.claim(old)))
        (b,) = s.say(day + 60, "Some changes around here!", ("durable", "preference", s.claim(new)))
        _, possessive, _ = s.who()
        s.ask("change", f"what changed about {possessive} {topic}?", a, b)


def moves(s: Speaker, days: list[float]) -> None:
    rng = s.rng
    cities = rng.sample(CITIES, 3)
    ids = []
    for day, city in zip(days, cities, strict=True):
        (fid,) = s.say(day, f"Settling into {city}.", ("durable", "identity", s.claim(f"lives in {city}")))
        ids.append(fid)
    subject, _, _ = s.who()
    s.ask("change", f"where {_do(subject)} live before the latest move?", ids[1], ids[2])
    s.ask("detail", f"how long has {subject} been in {cities[2]}?", ids[2])


def jobs(s: Speaker, days: list[float]) -> None:
    old, new = s.rng.sample(JOBS, 2)
    (a,) = s.say(days[0], "Work, work, work.", ("durable", "business_role", s.claim(old[0])))
    (b,) = s.say(
        days[1],
        "New job! Starting Monday.",
        ("durable", "business_role", s.claim(new[0].replace("works", "now works"))),
    )
    subject, _, _ = s.who()
    aux = "do I" if subject == "I" else f"does {subject}"
    s.ask("change", f"what {aux} {new[1]} now, and what was it before?", a, b)


def pets(s: Speaker, days: list[float]) -> None:
    template, animal = s.rng.choice(PETS)
    pet = s.rng.choice(PET_NAMES)
    (a,) = s.say(days[0], f"Meet {pet}!!", ("durable", "relationship", s.claim(template.format(p=pet))))
    (b,) = s.say(
        days[1], f"{pet} is being a menace.", ("current", "going_through", f"{pet} chewed through a charging cable")
    )
    (c,) = s.say(days[2], "Vet visit today.", ("current", "going_through", f"{pet} had a vet visit for a limp"))
    subject, possessive, _ = s.who()
    s.ask("paraphrase", f"what kind of animal {_do(subject)} get from the shelter?", a)
    s.ask("two_fact", f"how is {possessive} {animal} doing, any health trouble?", a, c)
    del b


def reading(s: Speaker, days: list[float]) -> None:
    for day, (fact, q_fact) in zip(days, s.rng.sample(BOOKS, len(days)), strict=False):
        (fid,) = s.say(day, "Just finished something great.", ("current", "working_on", s.claim(fact)))
        subject, _, _ = s.who()
        s.ask("paraphrase", f"what {_do(subject)} think of {q_fact}?", fid)


def numbers(s: Speaker, days: list[float]) -> None:
    for day, (fact, question, (lo, hi)) in zip(days, NUMBERS, strict=False):
        n = s.rng.randint(lo, hi)
        (fid,) = s.say(day, "Some numbers for you.", ("durable", "life_event", s.claim(fact.format(n=n))))
        subject, _, _ = s.who()
        s.ask("paraphrase", question.format(who="me" if subject == "I" else subject) + "?", fid)


def trips(s: Speaker, days: list[float]) -> None:
    for day, city in zip(days, s.rng.sample(CITIES, len(days)), strict=False):
        month = (START + timedelta(days=day + 20)).strftime("%B")
        (fid,) = s.say(
            day,
            f"Booked flights to {city}!",
            ("current", "schedule_context", s.claim(f"is planning a trip to {city} in {month}")),
        )
        subject, _, _ = s.who()
        going = "am I going" if subject == "I" else f"is {subject} going"
        s.ask("detail", f"where {going} on holiday in {month}?", fid)


def fillers(s: Speaker, days: list[float]) -> None:
    """Everyday facts nobody asks about: the many neighbours every question's evidence competes with."""
    rng = s.rng
    for day in days:
        act, _ = rng.choice(ACTIVITIES)
        choice = rng.random()
        if choice < 0.3:
            body = f"{act} alone {rng.choice(PLACES)}"
        elif choice < 0.6:
            body = f"had dinner with {rng.choice(FRIENDS)} {rng.choice(PLACES)}"
        else:
            item, _ = rng.choice(ITEMS)
            body = f"is thinking about whether to {item.replace('bought', 'buy')}"
        kind, category = ("current", "working_on") if choice >= 0.6 else ("durable", "life_event")
        s.say(day, "Quick update.", (kind, category, s.claim(body)))


def build(s: Speaker, span: float, friend_names: list[str]) -> None:
    rng = s.rng

    def days(n: int) -> list[float]:
        return sorted(rng.uniform(1, span - 1) for _ in range(n))

    outings(s, days(36))
    purchases(s, days(8))
    skills(s, days(6))
    food(s, days(6))
    friends(s, days(8), friend_names)
    feelings(s, days(24))
    changes(s, sorted(rng.uniform(1, span - 70) for _ in range(4)))
    moves(s, sorted(rng.uniform(1, span - 1) for _ in range(3)))
    jobs(s, sorted(rng.uniform(1, span - 1) for _ in range(2)))
    pets(s, days(3))
    reading(s, days(4))
    numbers(s, days(4))
    trips(s, days(5))
    fillers(s, days(60))
    for day in days(70):
        s.turns.append((day, rng.choice(SMALL_TALK), []))


def conversation(index: int, rng: random.Random) -> list[dict[str, Any]]:
    a_name, b_name = FIRST_NAMES[2 * index], FIRST_NAMES[2 * index + 1]
    span = SESSIONS * 12.0
    part = "tune" if index < TUNE else "heldout"
    out = []
    for side, (name, other) in enumerate(((a_name, b_name), (b_name, a_name))):
        pid = f"c{index:02d}{'ab'[side]}"
        speaker = Speaker(pid, name, other.split()[0], rng)
        build(speaker, span, rng.sample(FRIENDS, 8))
        speaker.turns.sort(key=lambda t: t[0])
        messages = []
        for n, (day, text, facts) in enumerate(speaker.turns):
            session = int(day // 12)
            at = START + timedelta(days=session * 12, minutes=5 * n % 240 + side)
            for fact in facts:
                if fact["kind"] == "current":
                    fact["valid_at"] = at.isoformat()
            messages.append({"id": f"{pid}-m{n:03d}", "at": at.isoformat(), "text": text, "facts": facts})
        asked = (START + timedelta(days=span + 3)).replace(hour=10).isoformat()
        questions = [q | {"id": f"{pid}-q{n:02d}", "asked_at": asked} for n, q in enumerate(speaker.questions)]
        out.append(
            {"id": pid, "name": name, "conversation": index, "part": part, "messages": messages, "questions": questions}
        )
    return out


def generate() -> dict[str, Any]:
    rng = random.Random(SEED)
    people = [p for i in range(CONVERSATIONS) for p in conversation(i, rng)]
    return {"seed": SEED, "people": people, "restated": []}


def main() -> None:
    data = generate()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    facts = sum(len(m["facts"]) for p in data["people"] for m in p["messages"])
    questions = sum(len(p["questions"]) for p in data["people"])
    turns = sum(len(p["messages"]) for p in data["people"])
    print(f"{OUT}: {len(data['people'])} people, {turns} turns, {facts} facts, {questions} questions")


if __name__ == "__main__":
    main()
