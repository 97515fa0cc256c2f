"""The words people use to agree to, move and call off plans, and to put off an answer, as
data: one tuple of phrases (regular-expression fragments, matched case-insensitively on whole
words) per language. ``retrieval.memory.extract`` and ``retrieval.memory.timeline`` compile
them; a new language or a new way of saying it is a line here, not a rule elsewhere."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_APOSTROPHE = "['\u2019]?"

AGREEMENT: Mapping[str, tuple[str, ...]] = {
    "en": (
        "count me in",
        f"i{_APOSTROPHE}m in",
        f"we{_APOSTROPHE}re in",
        "works for me",
        "that works",
        "sounds (?:good|great|perfect|like a plan)",
        "booked",
        "confirmed",
        "see (?:you|ya|u) (?:then|there)",
        f"(?:we|i){_APOSTROPHE}ll be there",
        "yes",
        f"i{_APOSTROPHE}m down",
        "down",
        "deal",
        "perfect",
        f"it{_APOSTROPHE}s a date",
        f"i{_APOSTROPHE}m game",
        f"let{_APOSTROPHE}s do it",
        "fine by me",
        "good for me",
        "can[\u2019']?t wait",
        "looking forward",
    ),
    "pt": (
        "combinado",
        "fechado",
        "fechou",
        "bora",
        "ok pra mim",
        "pode ser",
        "claro que sim",
        "t[oô] dentro",
        "topo",
        "beleza",
        "vamos nessa",
        "perfeito",
        "at[eé] l[aá]",
    ),
    "es": (
        "dale",
        "de acuerdo",
        "vale",
        "me apunto",
        "nos vemos",
        "perfecto",
        "hecho",
        "me parece bien",
    ),
    "fr": (
        f"d{_APOSTROPHE}accord",
        "[çc]a marche",
        "carr[ée]ment",
        "ok pour moi",
        "parfait",
        "partante?",
        "volontiers",
        "avec plaisir",
        "[àa] (?:demain|tout [àa] l['\u2019]heure)",
    ),
    "de": ("passt", "abgemacht", "einverstanden", "bin dabei", "klingt gut"),
    "it": (
        "va bene",
        "perfetto",
        r"confermat[oa]",
        "ci sono",
        "d['\u2019]accordo",
        "volentieri",
        "certo",
    ),
}

# Said with a new time: the plan moves ("can we push to 8", "make it 7:30", "Sunday instead").
CHANGE: Mapping[str, tuple[str, ...]] = {
    "en": (
        "move[sd]?",
        "moving",
        r"reschedul\w*",
        r"postpon\w*",
        r"push(?:ed|ing)?",
        "bump(?:ed)?",
        "instead",
        "change of plans?",
        "change of (?:venue|location|place|time|date)",
        r"chang(?:ed|ing) (?:\w+ ){0,3}?to",
        # "new venue", "new start time", "new due date": a new when or where of anything.
        r"new (?:\w+ )?(?:venue|location|place|time|date|deadline)",
        "switch(?:ed)? (?:it )?to",
        "delay(?:ed)?",
        "(?<!['\u2019]t )(?<!not )make it",
        "running (?:late|behind)",
        "shift(?:ed)? (?:it )?to",
    ),
    "pt": (
        "mudan[cç]a de planos?",
        "mudar",
        "mudamos",
        "adiar",
        "adiad[oa]",
        "adiamos",
        "passar para",
        "remarcar",
        "remarcamos",
        "em vez de",
        "em vez disso",
    ),
    "es": (
        "cambio de planes?",
        "cambiar",
        "cambiamos",
        "movemos",
        "pasamos al",
        "la pasamos",
        "lo pasamos",
        "posponer",
        "aplazar",
        "retrasar",
        "mejor el",
        "en vez de",
        "en lugar de",
        "en su lugar",
    ),
    "fr": (
        "changement de plans?",
        r"d[ée]plac\w*",
        "report[ée]e?",
        "reporter",
        r"d[ée]cal\w*",
        "repousser",
        "plut[oô]t",
    ),
    "de": (r"verschieb\w*", "verlegt", "lieber", "stattdessen"),
    "it": (r"spost\w*", r"rimand\w*", r"rinvi\w*", r"posticip\w*", "invece", "cambio di programma"),
}

# The plan is off ("gonna have to bail", "rain check?", "no voy a poder").
CANCELLATION: Mapping[str, tuple[str, ...]] = {
    "en": (
        "cancel(?:led|ed|ling)?",
        "call(?:ed|ing)? (?:it )?off",
        f"(?:can{_APOSTROPHE}t|cannot|won{_APOSTROPHE}t) make it",
        "not happening anymore",
        "bail(?:ed|ing)?",
        "rain ?checks?",
        "raincheck",
        f"(?:can{_APOSTROPHE}t|cannot) (?:come|go|do it) (?:anymore|after all)",
        "not going to make it",
        "gonna have to skip",
        "have to skip",
        "something came up",
        f"it{_APOSTROPHE}s off",
    ),
    "pt": (
        r"cancel(?:ad[oa]|ar|ei|ou|amos)",
        r"desmarc\w*",
        "n[aã]o vou poder",
        "n[aã]o vou conseguir",
        "furar",
    ),
    "es": (
        r"cancel(?:ad[oa]|ar|amos|[ée]|[óo])",
        "se cancela",
        r"suspendid[oa]",
        "no puedo ir",
        "ya no va",
        "no voy a poder",
        "otro d[ií]a",
    ),
    "fr": (
        r"annul\w*",
        "je (?:ne )?peux (?:plus|pas)",
        r"emp[êe]chement",
    ),
    "de": (r"abgesagt", r"absag\w*", "sagen? ab", "storniert", "f[äa]llt aus", "klappt nicht"),
    "it": (r"annull\w*", r"disdett[oa]", "disdire", "non si fa", r"non posso pi[uù]"),
}

# One person dropping out of a group plan: the plan goes on without them.
DECLINE: Mapping[str, tuple[str, ...]] = {
    "en": (
        f"(?:can{_APOSTROPHE}t|cannot|won{_APOSTROPHE}t|couldn{_APOSTROPHE}t) "
        "(?:make it|come|go|join)",
        "go without me",
        "count me out",
        f"i{_APOSTROPHE}m out",
    ),
    "pt": ("n[aã]o posso", "n[aã]o vou poder"),
    "es": ("no puedo", "no voy a poder"),
    "fr": ("je (?:ne )?peux (?:plus|pas)",),
    "de": ("kann nicht",),
    "it": ("non posso", "non ce la faccio"),
}

# The user putting off an answer: a promise to come back with it ("let me check and get back
# to you", "I'll let you know", "deixa eu ver e te falo").
DEFERRAL: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"let me (?:check|see|ask|look|find out|think)\b.{0,40}?\b(?:get back|let you know"
        r"|tell you|confirm)",
        f"(?:i{_APOSTROPHE}ll|i will|will) (?:get back to you|let you know|confirm|find out)",
        "(?:get|getting) back to you",
        # "I'll ask the builder and let you know", "will keep you posted"
        r"(?:and|then|&) (?:let you know|get back to you)",
        "keep you (?:posted|updated|in the loop)",
    ),
    "pt": (r"deixa eu ver", r"te (?:falo|aviso|digo) (?:depois|amanh[aã]|j[aá])", r"vou ver e"),
    "es": (r"d[ée]jame (?:ver|mirar|revisar)", r"te (?:digo|aviso|confirmo)"),
    "fr": (r"je (?:te|vous) (?:redis|tiens au courant|confirme)", r"je regarde et"),
    "de": (r"ich (?:sag|melde) (?:dir|mich)",),
    "it": (r"ti (?:faccio sapere|so dire|dico|aggiorno|confermo|richiamo)", r"vi faccio sapere"),
}

# The user's promise in other words or languages ("remind me to send you the playlist", "te
# mando o pix amanhã", "je te l'envoie ce soir").
PROMISE: Mapping[str, tuple[str, ...]] = {
    "en": (r"remind me to (?:send|share|pay|return|bring|give|forward|email|call|text|book)",),
    "pt": (
        r"te (?:mando|envio|pago|passo|devolvo|trago)",
        r"vou (?:te )?(?:mandar|enviar|pagar|passar|devolver|trazer)",
    ),
    "es": (
        r"te (?:(?:lo|la|los|las) )?(?:mando|env[ií]o|paso|pago|devuelvo|traigo)",
        r"(?:voy a|te voy a) (?:mandar|enviar|pasar|pagar|devolver|traer)",
    ),
    "fr": (r"je (?:te|vous) (?:l['\u2019]|les )?(?:envoie|enverrai|paie|rembourse|rends|passe)",),
    "de": (r"ich (?:schicke?|[üu]berweise|zahle|bringe?) dir",),
}

# An arrangement already made: a booking or a reservation said with its day or time is a plan
# in its own right ("booked the cabin for the weekend after next", "got us a table at 8 on
# Fri", "reservei mesa para sexta"), confirmed from the start.
BOOKING: Mapping[str, tuple[str, ...]] = {
    "en": (
        "booked",
        "reserved",
        "reservation",
        "booking",
        "got us",
        "grabbed",
        "tickets",
    ),
    "pt": ("reservei", "reservamos", "reservad[oa]", "reserva", "marquei", "bilhetes?"),
    "es": ("reserv[ée]", "reservamos", "reservad[oa]", "reserva", "entradas"),
    "fr": (r"r[ée]serv[ée]e?s?", r"r[ée]servation", "billets?"),
    "de": ("reserviert", "gebucht", "reservierung", "karten"),
    "it": ("prenotat[oa]", "prenotazione", "biglietti"),
}

# What gets booked, in every language: the plan's name when no activity is said.
BOOKED_THINGS: tuple[str, ...] = (
    "reservation",
    "booking",
    "reserva",
    "réservation",
    "reservierung",
    "prenotazione",
    "table",
    "tickets",
    "cabin",
    "room",
    "court",
    "campsite",
    "tee time",
    "mesa",
    "pista",
    "cancha",
    "quarto",
    "campo",
    "habitación",
    "chambre",
    "terrain",
    "tisch",
    "zimmer",
    "platz",
    "tavolo",
    "camera",
    "billets",
    "bilhetes",
    "entradas",
    "biglietti",
    "karten",
)

# Kinds of event said in several languages: a question in one finds the plan said in another
# ("when is lunch with Joana?" reads "bora almoçar sábado").
ACTIVITY_FAMILIES: tuple[tuple[str, ...], ...] = (
    (
        "dinner",
        "supper",
        "jantar",
        "jantamos",
        "cena",
        "cenar",
        "cenamos",
        "dîner",
        "diner",
        "abendessen",
    ),
    (
        "lunch",
        "almoço",
        "almoco",
        "almoçar",
        "almocar",
        "almuerzo",
        "almorzar",
        "déjeuner",
        "dejeuner",
        "mittagessen",
    ),
    ("drinks", "drink", "beers", "beer", "copas", "cerveja", "apéro", "apero", "verre"),
    ("coffee", "café", "cafe", "cafezinho", "kaffee"),
    (
        "movie",
        "movies",
        "cinema",
        "cinéma",
        "film",
        "ciné",
        "cine",
        "filme",
        "película",
        "pelicula",
    ),
    ("party", "festa", "fiesta", "soirée", "soiree", "fête", "fete"),
    ("trip", "viagem", "viaje", "voyage", "reise"),
    ("climbing", "bouldering", "escalada", "escalade", "klettern"),
    # What gets booked, in every language ("when is our table?" finds "reservei mesa").
    ("table", "mesa", "tisch", "tavolo"),
    ("tickets", "bilhetes", "entradas", "billets", "biglietti", "karten"),
    ("court", "pista", "cancha", "campo", "terrain", "platz"),
    ("room", "quarto", "habitación", "habitacion", "chambre", "zimmer", "camera"),
    (
        "reservation",
        "booking",
        "reserva",
        "réservation",
        "reservation",
        "reservierung",
        "prenotazione",
    ),
    (
        "hike",
        "hiking",
        "trilha",
        "senderismo",
        "randonnée",
        "randonnee",
        "rando",
        "wanderung",
    ),
)


# People who come to do a job, said in several languages: "when's the plumber coming?" finds
# "l'idraulico viene giovedì".
ROLE_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("plumber", "idraulico", "encanador", "fontanero", "plombier", "klempner", "installateur"),
    ("electrician", "elettricista", "eletricista", "electricista", "electricien", "elektriker"),
    ("cleaner", "pulizie", "faxineira", "diarista", "limpiadora", "femme de menage", "putzfrau"),
    ("mechanic", "meccanico", "mecanico", "mecanicien", "mechaniker"),
    ("doctor", "medico", "dottore", "dottoressa", "medecin", "arzt", "arztin"),
    ("dentist", "dentista", "dentiste", "zahnarzt"),
    ("landlord", "proprietario", "senhorio", "casero", "proprietaire", "vermieter"),
    ("movers", "mover", "traslochi", "trasloco", "mudanza", "mudanca", "demenagement", "umzug"),
)


def role_family(folded_word: str) -> tuple[str, ...]:
    """The same trade or role in the other languages (folded), or just the word."""
    for family in ROLE_FAMILIES:
        if folded_word in family:
            return family
    return (folded_word,)


def phrases_regex(lexicon: Mapping[str, Iterable[str]]) -> re.Pattern[str]:
    """One pattern for every phrase of every language, on whole words."""
    phrases = [phrase for language in lexicon.values() for phrase in language]
    return re.compile(r"(?<!\w)(?:" + "|".join(phrases) + r")(?!\w)", re.IGNORECASE)


def activity_family(folded_word: str) -> tuple[str, ...]:
    """The same kind of event in the other languages (as written and folded), or just the
    word."""
    for family in ACTIVITY_FAMILIES:
        if folded_word in family:
            return family
    return (folded_word,)
