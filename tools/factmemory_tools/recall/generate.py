"""Writes the recall benchmark's labelled data set (data/recall.json), deterministically from a seed.

Everything here was written for this project: 24 invented people, each with dated sessions over eight
months; every message carries the facts a model would extract from it (as add_durable / add_current ops),
and every question names the facts that answer it. The lives are built from threads (home, work, projects,
people, health, food, money, pets, plans, feelings) so each person has many facts on the same topics
(distractors), states that changed (old states), names and numbers, and questions phrased in other words
than the fact. A seeded 20 % of the facts are marked as said again on the speaker's next three messages
(the "restated" variant).

    PYTHONPATH=tools python -m factmemory_tools.recall.generate     # rewrites data/recall.json
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SEED = 20261123
PEOPLE = 24
RESTATED_SHARE = 0.2
RESTATED_TURNS = 3
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAYS = 245  # early March to early November
OUT = Path(__file__).parent / "data" / "recall.json"

NAMES = (
    "Amara",
    "Bjorn",
    "Chiara",
    "Dmitri",
    "Esme",
    "Farid",
    "Greta",
    "Hiroshi",
    "Ifeoma",
    "Joaquin",
    "Katja",
    "Lorenzo",
    "Maelle",
    "Nikhil",
    "Oona",
    "Pavel",
    "Quentin",
    "Rosalind",
    "Soren",
    "Tamsin",
    "Ugo",
    "Valeria",
    "Wendell",
    "Ximena",
    "Yusuf",
    "Zofia",
)
CITIES = (
    "Lisbon",
    "Rotterdam",
    "Leeds",
    "Valencia",
    "Gdansk",
    "Tampere",
    "Bologna",
    "Graz",
    "Nantes",
    "Cork",
    "Brno",
    "Aarhus",
    "Porto",
    "Ghent",
    "Malmo",
    "Bilbao",
    "Ljubljana",
    "Tallinn",
    "Lyon",
    "Bergen",
)
DISTRICTS = ("riverside", "old town", "harbour", "university", "north end", "market", "hillside", "station")
JOBS = (
    ("nurse", "the children's ward"),
    ("backend developer", "the payments team"),
    ("secondary school teacher", "the maths department"),
    ("structural engineer", "a bridge project"),
    ("pharmacist", "the night shifts"),
    ("UX researcher", "the onboarding squad"),
    ("accountant", "the audit group"),
    ("sous chef", "the dinner service"),
    ("paralegal", "the employment cases"),
    ("data analyst", "the churn dashboards"),
    ("physiotherapist", "the sports clinic"),
    ("translator", "the legal documents"),
)
COMPANIES = (
    "Brightwell Logistics",
    "Hollander & Krupp",
    "Veltrix Health",
    "Solenne Foods",
    "Quarrybank Mutual",
    "Tidewater Analytics",
    "Orrin Systems",
    "Marlowe Publishing",
    "Kestrel Freight",
    "Pellucid Labs",
    "Ashgrove Clinic",
    "Northgate Schools",
    "Fennimore Bank",
    "Cobalt Ridge Studio",
)
CODENAMES = (
    "Bluebottle",
    "Marigold",
    "Ironbark",
    "Halcyon",
    "Sandpiper",
    "Quillon",
    "Tamarack",
    "Nightjar",
    "Obsidian",
    "Pennywort",
    "Larkspur",
    "Driftwood",
    "Cormorant",
    "Juniper",
    "Wolfram",
    "Saffron",
)
PROJECT_KINDS = ("migration", "rollout", "redesign", "audit", "launch", "rewrite", "pilot", "integration")
RARE_NAMES = (
    "Bertha",
    "Thaddeus",
    "Oluwaseun",
    "Radomir",
    "Siobhan",
    "Ingeborg",
    "Leopoldine",
    "Casimir",
    "Perpetua",
    "Evander",
    "Wilhelmina",
    "Bartholomew",
    "Ottoline",
    "Fitzgerald",
    "Gwendolyn",
    "Ignatius",
    "Philippa",
    "Barnaby",
    "Clementine",
    "Augustin",
    "Henrietta",
    "Cosmo",
    "Mathilde",
    "Ambrose",
    "Isolde",
    "Rupert",
    "Dagny",
    "Lazlo",
    "Marisol",
    "Horatio",
)
RELATIONS = (
    ("sister", "relationship", "has a sister named {n} who lives in {c}", "My sister {n} lives over in {c}."),
    (
        "brother",
        "relationship",
        "has a brother named {n} who works as an electrician",
        "My brother {n} is an electrician, he fixed my lights once.",
    ),
    (
        "neighbour",
        "relationship",
        "has a neighbour named {n} who waters the plants when they travel",
        "My neighbour {n} waters my plants whenever I'm away.",
    ),
    (
        "best friend",
        "relationship",
        "has a best friend named {n} from school",
        "{n} has been my best friend since school.",
    ),
    (
        "partner",
        "relationship",
        "is in a relationship with {n}, together for four years",
        "{n} and I have been together four years now.",
    ),
    (
        "mentor",
        "relationship",
        "has a former manager named {n} who still mentors them",
        "My old manager {n} still mentors me once a month.",
    ),
    (
        "godson",
        "relationship",
        "is godparent to {n}, a seven-year-old",
        "I'm godparent to little {n}, he just turned seven.",
    ),
    (
        "landlord",
        "relationship",
        "rents from a landlord named {n} who is slow with repairs",
        "My landlord {n} takes forever to fix anything.",
    ),
)
NAME_QUESTIONS = (
    "{n} called me out of the blue yesterday.",
    "I'm thinking of getting {n} something for their birthday, any ideas?",
    "Should I ask {n} for help with this?",
    "{n} keeps texting me, not sure how to answer.",
    "Ran into {n} this morning.",
)
RELATION_PARAPHRASE = {
    "sister": "Which of my siblings lives in another city?",
    "brother": "Who could I ask about the wiring in my kitchen?",
    "neighbour": "Who looks after my plants while I'm gone?",
    "best friend": "Who's the friend I've known the longest?",
    "partner": "How long have I been with my other half?",
    "mentor": "Who gives me career advice these days?",
    "godson": "What should I get the kid I'm godparent to?",
    "landlord": "Who do I need to chase about the broken boiler?",
}
CONDITIONS = (
    (
        "asthma",
        "uses an inhaler before running",
        "Need to grab my inhaler before the run.",
        "Is a weekend of hill running a good idea for me?",
    ),
    (
        "type 1 diabetes",
        "checks blood sugar before every meal",
        "Gotta check my sugar before lunch.",
        "The office is doing a cake morning, what should I watch out for?",
    ),
    (
        "migraines",
        "avoids red wine because it triggers migraines",
        "Red wine sets off my migraines.",
        "Can I join the office wine tasting?",
    ),
    (
        "coeliac disease",
        "has to eat strictly gluten free",
        "I can't have any gluten at all.",
        "Could you plan a week of dinners for me?",
    ),
    (
        "hypothyroidism",
        "takes levothyroxine every morning",
        "Took my thyroid pill this morning.",
        "What should I tell the new doctor about my daily medication?",
    ),
    (
        "lower back pain",
        "does back exercises every evening",
        "Doing my back exercises again.",
        "Is helping my friend carry furniture all day a good idea for me?",
    ),
)
ALLERGIES = ("shellfish", "peanuts", "penicillin", "cats", "kiwi", "sesame", "latex", "bee stings")
ALLERGY_PARAPHRASE = {
    "shellfish": "The team wants to go for seafood paella, should I go?",
    "peanuts": "Can I have the satay at the Thai place?",
    "penicillin": "The dentist wants to give me antibiotics, anything to flag?",
    "cats": "My friend wants me to pet-sit her tabby for a week.",
    "kiwi": "Is a tropical fruit salad fine for my breakfast?",
    "sesame": "Would hummus and tahini be a good snack for me?",
    "latex": "The clinic uses rubber gloves, anything I should say?",
    "bee stings": "Is it safe for me to help with my uncle's beehives?",
}
INJURIES = (
    ("sprained the left ankle playing five-a-side football", "ankle", "football"),
    ("pulled a hamstring sprinting for a bus", "hamstring", "sprinting"),
    ("has a stiff neck from sleeping badly", "neck", "pillow"),
    ("twisted the right knee skiing", "knee", "skiing"),
    ("has a bad chest cold with a cough", "cough", "cold"),
    ("cut a thumb badly while cooking", "thumb", "knife"),
)
INJURY_QUESTIONS = (
    "Remind me, what did the physio say I should avoid?",
    "Is it too early to go back to training?",
    "Why am I still not at a hundred percent?",
)
FOODS = (
    "takes coffee with oat milk and no sugar",
    "does not eat pork",
    "loves Ethiopian food, injera especially",
    "hates coriander, says it tastes like soap",
    "is vegetarian on weekdays",
    "drinks green tea instead of coffee",
    "loves spicy Sichuan dishes",
    "cannot stand mushrooms",
    "bakes sourdough bread every Sunday",
    "prefers sparkling water to soft drinks",
    "eats a big breakfast and skips lunch",
    "is trying to cut down on sugar",
)
FOOD_QUESTIONS = {
    "takes coffee with oat milk and no sugar": "How do I like my morning cup again?",
    "does not eat pork": "Is the carbonara with guanciale ok for me?",
    "loves Ethiopian food, injera especially": "Which cuisine do I always want for celebrations?",
    "hates coriander, says it tastes like soap": "Is there a herb I should ask them to leave out?",
    "is vegetarian on weekdays": "It's Tuesday, what kind of dinner fits my rules?",
    "drinks green tea instead of coffee": "What hot drink should I pack for the office?",
    "loves spicy Sichuan dishes": "How hot do I like my food?",
    "cannot stand mushrooms": "Would a risotto ai funghi be a good pick for me?",
    "bakes sourdough bread every Sunday": "What's my weekend kitchen routine?",
    "prefers sparkling water to soft drinks": "What should I order to drink that isn't a soda?",
    "eats a big breakfast and skips lunch": "Does it matter if the meeting runs through midday?",
    "is trying to cut down on sugar": "Should I get the chocolate cake at the café?",
}
HOBBIES = (
    ("plays cello in a community orchestra", "orchestra rehearsal"),
    ("climbs at the bouldering gym twice a week", "bouldering"),
    ("restores old bicycles in the garage", "bike restoring"),
    ("sings in a choir on Thursdays", "choir"),
    ("paints watercolour landscapes", "painting"),
    ("plays competitive chess online", "chess"),
    ("grows tomatoes on the balcony", "balcony garden"),
    ("swims in the lake every morning in summer", "lake swims"),
)
PURCHASES = (
    ("noise-cancelling headphones", 150),
    ("a second-hand road bike", 420),
    ("a standing desk", 380),
    ("concert tickets for the Tallis Scholars", 95),
    ("a new mattress", 640),
    ("an espresso machine", 275),
    ("hiking boots", 180),
    ("a drawing tablet", 230),
    ("a weekend in the Dolomites", 910),
)
PETS = (
    ("dog", "Biscuit"),
    ("cat", "Pimento"),
    ("dog", "Ziggy"),
    ("rabbit", "Clover"),
    ("cat", "Mortimer"),
    ("dog", "Noodle"),
    ("parrot", "Captain"),
    ("cat", "Figaro"),
    ("tortoise", "Sheldon"),
    ("dog", "Pretzel"),
)
PET_STATES = (
    "{p} is recovering from a tooth extraction",
    "{p} has been limping since the weekend",
    "{p} is on a special diet for a sensitive stomach",
    "{p} is terrified of the fireworks this week",
)
GOALS = (
    ("wants to run a half marathon under two hours", "What's my big running ambition?"),
    ("wants to learn Portuguese well enough to chat with the in-laws", "Which language am I trying to learn and why?"),
    ("wants to save a deposit for a flat by 2028", "What am I putting money aside for?"),
    ("wants to switch careers into teaching", "What job would I rather be doing?"),
    ("wants to publish a short story collection", "What writing project do I dream about?"),
    ("wants to cycle from coast to coast next summer", "What's my big bike trip plan?"),
    ("wants to get a scuba diving licence", "Which certification was I hoping to get?"),
)
TRIPS = ("a wedding", "a conference", "a friend's birthday", "a job interview", "a family reunion", "a hiking week")
FEELINGS = (
    "anxious",
    "excited",
    "drained",
    "hopeful",
    "frustrated",
    "calm",
    "overwhelmed",
    "proud",
    "restless",
    "relieved",
    "irritable",
    "content",
)
FEELING_TOPICS = (
    "the quarterly review",
    "the move",
    "the new manager",
    "money this month",
    "the family visit",
    "the exam results",
    "the team reshuffle",
    "the doctor's results",
    "the wedding planning",
    "the project deadline",
    "the neighbours' renovation",
    "the holiday plans",
    "the weather",
    "turning a year older",
    "the car repair bill",
    "the friend's engagement",
    "the gym routine",
    "the sister's visit",
    "the office party",
    "the salary negotiation",
)
GOING_THROUGH = (
    (
        "is dealing with a dispute with the landlord over a {m} euro deposit",
        "deposit",
        "Any news on getting my deposit back?",
    ),
    ("is helping their father recover from hip surgery", "father", "How's my dad's recovery going, did I tell you?"),
    ("is going through a breakup after {y} years", "breakup", "Why have I been so down lately?"),
    (
        "is waiting for the results of a job application at {co}",
        "application",
        "Have I heard back about that role yet?",
    ),
    (
        "is renovating the bathroom, which is {w} weeks behind schedule",
        "bathroom",
        "When will the builders finally be done?",
    ),
)
SMALL_TALK = (
    "Morning!",
    "Ok, thanks.",
    "Haha yes.",
    "Let me think about it.",
    "Anyway.",
    "Cool, talk later.",
    "Not much else going on.",
    "Long day.",
    "Right.",
    "Good point.",
)
ACTIVITIES = (
    ("cooking a big batch of lentil soup for the week", "What did I make to eat for the whole week?"),
    ("binge-watching a documentary series about volcanoes", "What show have I been glued to?"),
    ("clearing out the attic before winter", "Which part of the house was I decluttering?"),
    ("repainting the hallway a dark green", "What colour did I pick for the walls?"),
    ("learning to juggle with three balls", "What silly skill have I been practising?"),
    ("reading a thick biography of Ada Lovelace", "Whose life story am I reading?"),
    ("fixing a leaking tap in the kitchen", "What plumbing job was I doing myself?"),
    ("planning a surprise party for a friend", "What secret celebration am I organising?"),
    ("training for a charity swim", "What fundraiser am I getting fit for?"),
    ("doing a thirty-day yoga challenge", "What daily stretching routine did I sign up for?"),
    ("sorting through old family photos", "What was I digitising from the family albums?"),
    ("helping a cousin move flats", "Whose boxes was I carrying?"),
    ("building a bookshelf from reclaimed wood", "What furniture project am I making?"),
    ("studying for a driving theory test", "Which exam am I revising for?"),
    ("trying out a new budgeting app", "How am I keeping track of spending now?"),
    ("knitting a scarf for the winter", "What am I making with all that wool?"),
    ("volunteering at a food bank on Saturdays", "Where do I help out at the weekend?"),
    ("waking up at six to write before work", "Why am I getting up so early lately?"),
    ("doing physiotherapy exercises for a sore shoulder", "What exercises did I say I have to do for my arm?"),
    ("looking for a new dentist", "Which appointment am I still trying to sort out?"),
    ("taking a weekly pottery class", "Where do I make the mugs and bowls?"),
    ("fostering a kitten for the animal shelter", "What little animal is staying with me for now?"),
    ("rehearsing a best man speech", "Which speech am I practising?"),
    ("drafting a grant application for the community garden", "What funding request am I writing?"),
    ("cutting out caffeine for a month", "Why am I avoiding coffee at the moment?"),
    ("teaching a niece to ride a bike", "Who am I helping learn to cycle?"),
    ("applying for a mortgage", "What loan paperwork am I dealing with?"),
    ("redoing the garden fence", "What outdoor repair am I in the middle of?"),
    ("preparing a talk for a local meetup", "What presentation am I working on outside work?"),
    ("trying to sleep before eleven every night", "What bedtime rule did I set myself?"),
    ("listening to a podcast about Roman history", "Which history thing am I listening to?"),
    ("selling old furniture online", "What am I trying to get rid of?"),
    ("baking a wedding cake for a friend", "What big bake am I attempting?"),
    ("learning to play the ukulele", "Which instrument did I pick up recently?"),
    ("tracking steps to hit ten thousand a day", "What daily walking goal am I chasing?"),
    ("organising a book swap at the office", "What event am I planning for colleagues?"),
)
TASTES = (
    ("listens to a lot of Nina Simone", "Which singer do I always come back to?"),
    ("reads crime novels set in Scandinavia", "What kind of books do I like at bedtime?"),
    ("prefers window seats on planes", "Where do I like to sit when I fly?"),
    ("hates being phoned without a text first", "How should people reach me?"),
    ("loves old Studio Ghibli films", "Which animated films do I like?"),
    ("prefers trains to flying for trips under six hours", "How do I like to travel for shorter trips?"),
    ("enjoys cold-water swimming", "What is my favourite weird way to wake up?"),
    ("likes to plan holidays months in advance", "Am I a last-minute traveller?"),
    ("supports Athletic Bilbao", "Which football team do I follow?"),
    ("collects vintage postcards", "What do I collect?"),
    ("prefers working in quiet cafés to the office", "Where do I concentrate best?"),
    ("goes to a jazz club every first Friday", "What is my monthly night out?"),
    ("loves thunderstorms", "What weather makes me happy?"),
    ("dislikes open-plan offices", "What kind of workspace drives me mad?"),
    ("prefers e-books for travel and paper books at home", "Do I read on paper or on a screen?"),
    ("listens to audiobooks on the commute", "What do I do on the bus to work?"),
    ("likes board game nights with friends", "What do I like doing with friends on weeknights?"),
    ("always takes the stairs instead of the lift", "Do I use the lift?"),
    ("is a night owl who works best after ten", "When do I get my best work done?"),
    ("hates shopping malls", "Where do I refuse to go shopping?"),
    ("prefers handwritten notes to apps", "How do I keep my to-do list?"),
    ("loves visiting botanical gardens", "What kind of place do I love to visit in a new city?"),
)
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass
class Event:
    day: float
    text: str
    facts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Life:
    """One person's messages and questions as they are being built."""

    pid: str
    rng: random.Random
    events: list[Event] = field(default_factory=list)
    questions: list[dict[str, Any]] = field(default_factory=list)
    claims: set[str] = field(default_factory=set)

    def say(self, day: float, text: str, *facts: tuple[str, str, str]) -> list[str]:
        """A message on `day` yielding facts (kind, category, claim); returns their ids."""
        ids: list[str] = []
        built = []
        for kind, category, claim in facts:
            assert claim not in self.claims, (self.pid, claim)
            self.claims.add(claim)
            fid = f"{self.pid}-f{len(self.claims):03d}"
            ids.append(fid)
            built.append({"id": fid, "kind": kind, "category": category, "claim": claim})
        self.events.append(Event(day, text, built))
        return ids

    def ask(self, qtype: str, text: str, *evidence: str) -> None:
        self.questions.append({"type": qtype, "text": text, "evidence": list(evidence)})


def month_of(day: float) -> str:
    return MONTHS[(START + timedelta(days=day)).month - 1]


def home(life: Life, rng: random.Random) -> None:
    old, new = rng.sample(CITIES, 2)
    d_old, d_new = rng.sample(DISTRICTS, 2)
    move = rng.uniform(90, 150)
    a = life.say(
        rng.uniform(1, 10),
        f"I've been in {old} for years now, love the {d_old} area.",
        ("durable", "identity", f"lives in {old}, in the {d_old} district"),
    )
    b = life.say(
        move,
        f"Big news, I finally moved to {new}! Boxes everywhere.",
        ("durable", "life_event", f"moved from {old} to {new} in {month_of(move)} 2026"),
        ("durable", "identity", f"lives in {new}, near the {d_new}"),
    )
    life.ask("old_state", "Which city was I living in before?", a[0])
    life.ask("paraphrase", "When did I pack everything up and relocate?", b[0])
    life.ask("plain", f"Any nice walks near my place in {new}?", b[1])


def work(life: Life, rng: random.Random) -> None:
    (job1, team1), (job2, _team2) = rng.sample(JOBS, 2)
    co1, co2 = rng.sample(COMPANIES, 2)
    switch = rng.uniform(110, 190)
    a = life.say(
        rng.uniform(2, 15),
        f"Work is busy, I'm {_a(job1)} at {co1}, mostly on {team1}.",
        ("durable", "business_role", f"works as {_a(job1)} at {co1}, on {team1}"),
    )
    b = life.say(
        switch,
        f"First week as {_a(job2)} at {co2}! New badge and everything.",
        ("durable", "life_event", f"started a new job as {_a(job2)} at {co2} in {month_of(switch)} 2026"),
        ("durable", "business_role", f"works as {_a(job2)} at {co2}"),
    )
    life.ask("old_state", "What did I do at my previous employer?", a[0])
    life.ask("name", f"Do people at {co2} usually work from home on Fridays?", b[1])
    life.ask("paraphrase", "How long have I been in my current position?", b[0])


def projects(life: Life, rng: random.Random) -> None:
    names = rng.sample(CODENAMES, 8)
    days = sorted(rng.uniform(5, DAYS - 3) for _ in names)
    ids = []
    for day, name in zip(days, names, strict=True):
        kind = rng.choice(PROJECT_KINDS)
        deadline = rng.choice(("Friday", "the end of the month", "next sprint", "mid-month", "the board meeting"))
        ids += life.say(
            day,
            f"Heads down on the {name} {kind} now, deadline is {deadline}.",
            ("current", "working_on", f"working on the {name} {kind}, due {deadline}"),
        )
    pick = rng.randrange(3)
    life.ask("old_state", f"What was I busy with at work back in {month_of(days[pick])}?", ids[pick])
    life.ask("name", f"Did the {names[1]} thing ever ship?", ids[1])
    life.ask("current_weeks_ago", "What's my main work project right now?", ids[-1])
    life.ask("name", f"Who else was on {names[3]}, do you remember the deadline?", ids[3])


def people(life: Life, rng: random.Random) -> None:
    relations = rng.sample(RELATIONS, 6)
    for (rel, category, claim, text), name in zip(relations, rng.sample(RARE_NAMES, 6), strict=True):
        city = rng.choice(CITIES)
        fid = life.say(
            rng.uniform(1, DAYS - 10), text.format(n=name, c=city), ("durable", category, claim.format(n=name, c=city))
        )[0]
        life.ask("name", rng.choice(NAME_QUESTIONS).format(n=name), fid)
        if rng.random() < 0.5:
            life.ask("paraphrase", RELATION_PARAPHRASE[rel], fid)


def health(life: Life, rng: random.Random) -> None:
    condition, habit, text, question = rng.choice(CONDITIONS)
    allergy = rng.choice(ALLERGIES)
    c = life.say(
        rng.uniform(5, 60),
        f"Reminder to self: {text} I've had {condition} since I was a teen.",
        ("durable", "health", f"has {condition}"),
        ("durable", "health", habit),
    )
    a = life.say(
        rng.uniform(10, 120),
        f"Careful with {allergy}, I'm seriously allergic.",
        ("durable", "health", f"is allergic to {allergy}"),
    )
    life.ask("paraphrase", ALLERGY_PARAPHRASE[allergy], a[0])
    life.ask("paraphrase", question, c[0], c[1])
    injury, part, cause = rng.choice(INJURIES)
    hurt = rng.uniform(40, DAYS - 40)
    i1 = life.say(hurt, f"Ugh, {cause} mishap, my {part} is killing me.", ("current", "physical_state", injury))
    i2 = life.say(
        hurt + rng.uniform(6, 14),
        f"The physio says to keep weight off my {part} for two more weeks.",
        ("current", "physical_state", f"physio said to rest the {part} for two more weeks"),
    )
    life.ask("old_state", f"How did I hurt my {part} in {month_of(hurt)}?", i1[0])
    life.ask("paraphrase", rng.choice(INJURY_QUESTIONS), i2[0])
    late = life.say(
        DAYS - rng.uniform(14, 35),
        "Had a rough night, barely slept and my head is pounding.",
        ("current", "physical_state", "slept badly and has a pounding headache"),
    )
    life.ask("current_weeks_ago", "I'm still feeling rough, when did this start?", late[0])


def food(life: Life, rng: random.Random) -> None:
    for pref in rng.sample(FOODS, 8):
        fid = life.say(
            rng.uniform(1, DAYS - 5), f"Fun fact about me: I {_first_person(pref)}.", ("durable", "preference", pref)
        )[0]
        if rng.random() < 0.7:
            life.ask("distractor", FOOD_QUESTIONS[pref], fid)


def hobbies(life: Life, rng: random.Random) -> None:
    for hobby, short in rng.sample(HOBBIES, 4):
        fid = life.say(
            rng.uniform(1, DAYS - 5),
            f"Off to {short} later, I {_first_person(hobby)}.",
            ("durable", "preference", hobby),
        )[0]
        if rng.random() < 0.5:
            life.ask("distractor", f"What do I usually do for {short}, remind me of the details?", fid)


def money(life: Life, rng: random.Random) -> None:
    rent = rng.choice((1150, 1275, 1390, 1460, 1525, 1680, 1740))
    r = life.say(
        rng.uniform(3, 40),
        f"Rent is {rent} euros a month, it's painful.",
        ("durable", "identity", f"pays {rent} euros a month in rent"),
    )
    life.ask("number", f"Is {rent} euros normal for a one-bed around here?", r[0])
    for item, price in rng.sample(PURCHASES, 4):
        price += rng.choice((0, 5, 10, 25))
        day = rng.uniform(20, DAYS - 5)
        p = life.say(
            day,
            f"Treated myself to {item}, ${price}. No regrets.",
            ("durable", "life_event", f"bought {item} for ${price} in {month_of(day)} 2026"),
        )
        if rng.random() < 0.5:
            life.ask("number", f"Was ${price} a fair price, looking back?", p[0])
        else:
            life.ask("paraphrase", f"What was that big purchase I made in {month_of(day)}?", p[0])
    budget = rng.choice((300, 450, 600, 800))
    b = life.say(
        rng.uniform(DAYS - 60, DAYS - 20),
        f"Setting myself a {budget} budget for gifts this year.",
        ("current", "schedule_context", f"set a gift budget of {budget} euros for the holidays"),
    )
    life.ask("number", f"Will {budget} cover presents for everyone?", b[0])


def pets(life: Life, rng: random.Random) -> None:
    species, name = rng.choice(PETS)
    p = life.say(
        rng.uniform(1, 30),
        f"{name} my {species} says hi.",
        ("durable", "relationship", f"has a {species} named {name}"),
    )
    state = rng.choice(PET_STATES).format(p=name)
    s = life.say(
        rng.uniform(DAYS - 50, DAYS - 15), f"Poor {name}, vet visit today.", ("current", "going_through", state)
    )
    life.ask("name", f"{name} is hiding under the bed again.", s[0], p[0])
    life.ask("paraphrase", "What kind of animal do I have at home?", p[0])


def plans(life: Life, rng: random.Random) -> None:
    goal, question = rng.choice(GOALS)
    g = life.say(rng.uniform(10, 100), f"Long term, I {_first_person(goal)}.", ("durable", "goal", goal))
    life.ask("paraphrase", question, g[0])
    trips = []
    for n, reason in enumerate(rng.sample(TRIPS, 3)):
        day = rng.uniform(20 + n * 70, 80 + n * 70)
        city = rng.choice(CITIES)
        trips.append(
            (
                city,
                life.say(
                    day,
                    f"Booked the train to {city} for {reason}.",
                    ("current", "schedule_context", f"travelling to {city} for {reason}"),
                )[0],
            )
        )
    life.ask("old_state", f"Remind me why I went to {trips[0][0]}?", trips[0][1])
    life.ask("current_weeks_ago", "What's the next trip on my calendar?", trips[-1][1])
    kind, short, question = rng.choice(GOING_THROUGH)
    claim = kind.format(
        m=rng.choice((650, 900, 1200)), y=rng.choice((3, 6, 9)), co=rng.choice(COMPANIES), w=rng.choice((3, 5, 7))
    )
    t = life.say(
        DAYS - rng.uniform(16, 40), f"Stressful stuff with the {short} situation.", ("current", "going_through", claim)
    )
    life.ask("current_weeks_ago", question, t[0])


def feelings(life: Life, rng: random.Random) -> None:
    topics = rng.sample(FEELING_TOPICS, 16)
    ids = []
    for day, topic in zip(sorted(rng.uniform(3, DAYS - 1) for _ in topics), topics, strict=True):
        feeling = rng.choice(FEELINGS)
        ids.append(
            (
                topic,
                feeling,
                day,
                life.say(
                    day,
                    f"Honestly I'm {feeling} about {topic}.",
                    ("current", "feeling", f"feeling {feeling} about {topic}"),
                )[0],
            )
        )
    topic, _, day, fid = ids[rng.randrange(2)]
    life.ask("old_state", f"How was I feeling about {topic} back in {month_of(day)}?", fid)
    topic, _, _, fid = ids[-2]
    life.ask("distractor", f"Do you remember my mood around {topic}?", fid)


def daily(life: Life, rng: random.Random) -> None:
    """Many current facts over the months: what the person is busy with outside work."""
    chosen = rng.sample(ACTIVITIES, 24)
    days = sorted(rng.uniform(2, DAYS - 1) for _ in chosen)
    asked = 0
    for day, (claim, question) in zip(days, chosen, strict=True):
        fid = life.say(day, f"These days I'm {claim}.", ("current", "going_through", claim))[0]
        age = DAYS - day
        if 14 <= age <= 42 and asked < 2:
            life.ask("current_weeks_ago", question, fid)
            asked += 1
        elif rng.random() < 0.12:
            life.ask("paraphrase", question, fid)


def tastes(life: Life, rng: random.Random) -> None:
    """Many durable preferences on unrelated topics."""
    for claim, question in rng.sample(TASTES, 12):
        fid = life.say(
            rng.uniform(1, DAYS - 2), f"Something about me: I {_first_person(claim)}.", ("durable", "preference", claim)
        )[0]
        if rng.random() < 0.25:
            life.ask("paraphrase", question, fid)


def small_talk(life: Life, rng: random.Random) -> None:
    for text in rng.sample(SMALL_TALK, 6):
        life.say(rng.uniform(1, DAYS), text)


def _a(noun: str) -> str:
    return ("an " if noun[0].lower() in "aeiou" else "a ") + noun


def _first_person(claim: str) -> str:
    """A third-person claim as the speaker would say it (good enough for message texts)."""
    swaps = {
        "is ": "am ",
        "has ": "have ",
        "does ": "do ",
        "takes ": "take ",
        "loves ": "love ",
        "hates ": "hate ",
        "wants ": "want ",
        "plays ": "play ",
        "climbs ": "climb ",
        "restores ": "restore ",
        "sings ": "sing ",
        "paints ": "paint ",
        "grows ": "grow ",
        "swims ": "swim ",
        "drinks ": "drink ",
        "bakes ": "bake ",
        "prefers ": "prefer ",
        "eats ": "eat ",
        "cannot ": "cannot ",
    }
    for third, first in swaps.items():
        if claim.startswith(third):
            claim = first + claim[len(third) :]
            break
    return claim.replace(" they ", " I ").replace("their ", "my ").replace("them", "me")


def build_life(index: int, rng: random.Random) -> dict[str, Any]:
    pid = f"p{index:02d}"
    life = Life(pid, rng)
    for thread in (
        home,
        work,
        projects,
        health,
        food,
        hobbies,
        money,
        pets,
        plans,
        feelings,
        daily,
        tastes,
        small_talk,
    ):
        thread(life, rng)
    people(life, rng)
    life.events.sort(key=lambda e: e.day)
    messages = []
    for n, event in enumerate(life.events):
        at = START + timedelta(days=event.day)
        at = at.replace(hour=8 + int(event.day * 7) % 13, minute=0, second=0, microsecond=0)
        for fact in event.facts:
            if fact["kind"] == "current":
                fact["valid_at"] = at.isoformat()
        messages.append({"id": f"{pid}-m{n:03d}", "at": at.isoformat(), "text": event.text, "facts": event.facts})
    asked = (START + timedelta(days=DAYS + 2)).replace(hour=10, minute=0).isoformat()
    questions = [q | {"id": f"{pid}-q{n:02d}", "asked_at": asked} for n, q in enumerate(life.questions)]
    return {"id": pid, "name": NAMES[index], "messages": messages, "questions": questions}


def restatements(people: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """A seeded 20 % of all facts, each said again on the speaker's next three messages (when there are)."""
    out = []
    for person in people:
        messages = person["messages"]
        for n, message in enumerate(messages):
            for fact in message["facts"]:
                later = [m["id"] for m in messages[n + 1 : n + 1 + RESTATED_TURNS]]
                if later and rng.random() < RESTATED_SHARE:
                    out.append({"fact": fact["id"], "messages": later})
    return out


def generate() -> dict[str, Any]:
    rng = random.Random(SEED)
    people = [build_life(i, rng) for i in range(PEOPLE)]
    return {"seed": SEED, "people": people, "restated": restatements(people, rng)}


def main() -> None:
    data = generate()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    facts = sum(len(m["facts"]) for p in data["people"] for m in p["messages"])
    questions = sum(len(p["questions"]) for p in data["people"])
    print(
        f"{OUT}: {len(data['people'])} people, {facts} facts, {questions} questions, {len(data['restated'])} restated"
    )


if __name__ == "__main__":
    main()
