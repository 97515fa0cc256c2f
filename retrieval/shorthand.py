"""Other ways a message may write a question's word: texting shorthand ("mtg", "appt",
"bday"), abbreviated months and weekdays ("nov", "thu"), months, weekdays, holidays and a
few everyday words in the other languages people text in (French, Spanish, Catalan,
Portuguese, Italian, German, Polish, Tagalog), and the English words a message may use for
the thing asked about ("teach" / "classes").

A question asks "what did Ana say about November?" and the message says "nov 9" or "w
listopadzie"; it asks about "the staff meeting" and the message says "staff mtg". Search
matches each of a question's words through these forms too (``retrieval.lexical``), as one
term: a message that uses any of them counts as using the word.

Data only, plus one pure function. Each group lists a word and the forms that mean the same;
a form written ``<form`` is read one way only (a question that says it means the group's
word, but a question using the word does not look for it: "sat" and "sun" are everyday
English words too), and a form ending in ``*`` matches every word it begins (inflected forms:
Polish "listopadzie", "we wtorek"). A form with spaces is a phrase.
"""

from __future__ import annotations

import re
from functools import lru_cache

from retrieval.lexicon import fold_text

# Texting shorthand (English). ``texting_words`` also spells these out in a question before its
# intent is read (``retrieval.question_forms``).
_TEXTING: tuple[tuple[str, ...], ...] = (
    ("meeting", "mtg", "mtgs"),
    ("appointment", "appt", "appts"),
    ("birthday", "bday", "bdays", "b-day"),
    ("tomorrow", "tmrw", "tmr", "tmw", "tmrow", "2moro", "2morrow"),
    ("tonight", "tonite", "2nite"),
    ("people", "ppl"),
    ("thanks", "thx", "tnx"),
    ("message", "msg", "msgs"),
    ("conversation", "convo", "convos"),
    ("information", "info"),
    ("picture", "pic", "pics"),
    ("photo", "pic", "pics"),
    ("minutes", "mins"),
    ("hours", "hrs"),
    ("week", "wk", "wks"),
    ("weekend", "wknd"),
    ("favorite", "favourite", "fave", "fav"),
    ("apartment", "apt"),
    ("restaurant", "resto"),
    ("doctor", "dr", "doc"),
    ("veterinarian", "vet"),
    ("vacation", "vacay"),
    ("congratulations", "congrats", "congratz"),
    ("breakfast", "brekkie", "bfast"),
    ("christmas", "xmas"),
    ("university", "uni"),
    ("department", "dept"),
    ("manager", "mgr"),
    ("management", "mgmt"),
    ("schedule", "sched"),
    ("reservation", "rez"),
    ("address", "addy"),
    ("girlfriend", "gf"),
    ("boyfriend", "bf"),
    ("probably", "prob", "prolly"),
    ("recommendations", "recs", "recos"),
)

_GROUPS: tuple[tuple[str, ...], ...] = (
    *_TEXTING,
    # Months, abbreviated and in other languages ("May" is left out: mostly the verb).
    (
        "january",
        "<jan",
        "janvier",
        "enero",
        "janeiro",
        "gennaio",
        "januar",
        "stycz*",
        "styczeń",
    ),
    (
        "february",
        "feb",
        "février",
        "fevrier",
        "febrero",
        "fevereiro",
        "febbraio",
        "februar",
        "luty",
        "lutego",
        "lutym",
        "pebrero",
    ),
    ("march", "<mar", "<mars", "marzo", "março", "märz", "marzec", "marca", "marcu"),
    ("april", "apr", "avril", "abril", "aprile", "kwie*"),
    ("june", "jun", "juin", "junio", "junho", "giugno", "czerw*", "hunyo"),
    ("july", "jul", "juillet", "julio", "julho", "luglio", "lipiec", "lipca", "lipcu"),
    ("august", "aug", "août", "aout", "agosto", "sierp*"),
    (
        "september",
        "sep",
        "sept",
        "septembre",
        "septiembre",
        "setiembre",
        "setembro",
        "settembre",
        "wrze*",
        "setyembre",
    ),
    ("october", "oct", "octobre", "octubre", "outubro", "ottobre", "oktober", "paździer*"),
    (
        "november",
        "nov",
        "novembre",
        "noviembre",
        "novembro",
        "listopad*",
        "nobyembre",
    ),
    (
        "december",
        "dec",
        "décembre",
        "decembre",
        "diciembre",
        "dezembro",
        "dicembre",
        "dezember",
        "grudzień",
        "grudn*",
        "disyembre",
    ),
    # Weekdays, abbreviated and in other languages.
    ("monday", "<mon", "lundi", "lunes", "lunedì", "lunedi", "montag", "poniedział*"),
    ("tuesday", "tue", "tues", "mardi", "martes", "martedì", "martedi", "dienstag", "wtor*"),
    (
        "wednesday",
        "wed",
        "weds",
        "mercredi",
        "miércoles",
        "miercoles",
        "mercoledì",
        "mercoledi",
        "mittwoch",
        "środ*",
        "miyerkules",
    ),
    (
        "thursday",
        "thu",
        "thur",
        "thurs",
        "jeudi",
        "jueves",
        "giovedì",
        "giovedi",
        "donnerstag",
        "czwart*",
        "huwebes",
    ),
    ("friday", "fri", "vendredi", "viernes", "venerdì", "venerdi", "freitag", "piąt*", "biyernes"),
    ("saturday", "<sat", "samedi", "sábado", "sabado", "sabato", "samstag", "sobot*"),
    ("sunday", "<sun", "dimanche", "domingo", "domenica", "sonntag", "niedziel*"),
    # Holidays as other languages name them.
    (
        "thanksgiving",
        "action de grâce",
        "action de grâces",
        "action de grace",
        "acción de gracias",
        "ação de graças",
    ),
    ("christmas", "noël", "noel", "navidad", "natale", "weihnachten", "wigili*", "pasko"),
    ("easter", "pâques", "paques", "pascua", "páscoa", "pascoa", "pasqua", "ostern", "wielkanoc*"),
    # Everyday words of errands, money, school and leisure as the other languages write them
    # (a question in English about a message in Spanish, Catalan, French, Italian, German or
    # Portuguese), and the words a message uses for the same thing in English.
    (
        "parcel",
        "parcels",
        "package",
        "packages",
        "paquete",
        "paquetes",
        "paquet",
        "colis",
        "pacco",
        "pacchetto",
        "paket",
        "pacote",
        "encomenda",
    ),
    ("customs", "aduana", "aduanas", "douane", "dogana", "zoll", "alfândega", "alfandega"),
    (
        "pay",
        "paid",
        "paying",
        "payment",
        "pagar",
        "pague",
        "pagado",
        "pagada",
        "payer",
        "payé",
        "paye",
        "paiement",
        "pagare",
        "pagato",
        "zahlen",
        "bezahlt",
        "bezahlen",
        "pagamento",
    ),
    ("rent", "alquiler", "loyer", "affitto", "miete", "aluguel", "lloguer"),
    ("delivery", "entrega", "livraison", "consegna", "lieferung"),
    ("tournament", "torneo", "torneos", "tournoi", "turnier", "torneig", "torneio"),
    (
        "semifinal",
        "semifinals",
        "semi-final",
        "semi-finals",
        "semis",
        "semifinales",
        "semifinale",
        "semifinali",
        "demi-finale",
        "halbfinale",
    ),
    ("book", "books", "libro", "libros", "llibre", "llibres", "livre", "livres", "buch", "livro"),
    ("library", "biblioteca", "bibliothèque", "bibliotheque", "bibliothek", "biblioteka"),
    ("school", "colegio", "escuela", "école", "ecole", "scuola", "schule", "escola"),
    ("teach", "teaches", "teaching", "taught", "teacher", "classes", "lessons"),
    ("key", "keys", "llave", "llaves", "clau", "clé", "clés", "chiave", "chiavi", "schlüssel"),
    ("wedding", "boda", "mariage", "matrimonio", "hochzeit", "casamento", "casament"),
    ("dinner", "cena", "sopar", "dîner", "abendessen", "jantar"),
    ("lunch", "almuerzo", "dinar", "déjeuner", "dejeuner", "pranzo", "mittagessen", "almoço"),
    ("flight", "flights", "vuelo", "vuelos", "vol", "volo", "flug", "voo"),
    ("ticket", "tickets", "entrada", "entradas", "billet", "billets", "biglietto", "biglietti"),
    (
        "birthday",
        "cumpleaños",
        "cumpleanos",
        "cumple",
        "aniversari",
        "anniversaire",
        "compleanno",
        "geburtstag",
        "aniversário",
    ),
    # Who picked something for a group usually put it forward: "who chose the restaurant?"
    # looks for a suggestion or a proposal too (one way: a question about a proposal does not
    # look for every "picked").
    (
        "suggested",
        "suggestion",
        "proposed",
        "proposal",
        "<picked",
        "<pick",
        "<chose",
        "<choose",
        "<chosen",
        "propuesta",
        "propuso",
        "proposta",
        "proposé",
        "proposition",
        "vorschlag",
    ),
)

_FORM = re.compile(r"^\w[\w'-]*(?: \w[\w'-]*)*\*?$")


def _query_form(form: str) -> str:
    """One form as ``to_tsquery`` text: words joined by ``<->``, a trailing ``*`` a prefix."""
    prefix = form.endswith("*")
    words = form.rstrip("*").replace("'", " ").replace("-", " ").split()
    text = " <-> ".join(words)
    return f"{text}:*" if prefix else text


@lru_cache(maxsize=1)
def _forms_by_word() -> dict[str, tuple[str, ...]]:
    forms: dict[str, list[str]] = {}
    for group in _GROUPS:
        members = [(form.lstrip("<"), form.startswith("<")) for form in group]
        for form, _one_way in members:
            if not _FORM.match(form):
                raise ValueError(f"not a search form: {form!r}")
        for word, _ in members:
            key = fold_text(word.rstrip("*"))
            if word.endswith("*") or " " in word:
                continue
            others = forms.setdefault(key, [])
            others.extend(
                form
                for form, one_way in members
                if not one_way and fold_text(form) != key and form not in others
            )
    return {word: tuple(others) for word, others in forms.items()}


@lru_cache(maxsize=1)
def texting_words() -> dict[str, str]:
    """Each English texting form and the one word it stands for ("tmrw" -> "tomorrow",
    "mtg" -> "meeting"); a form that stands for two words ("pic": picture or photo) is left
    out. Forms and words are lower-case."""
    words: dict[str, set[str]] = {}
    for group in _TEXTING:
        word, *forms = group
        for form in forms:
            if form.lower() != word.lower():
                words.setdefault(form.lower(), set()).add(word.lower())
    return {form: next(iter(full)) for form, full in words.items() if len(full) == 1}


def search_forms(term: str) -> tuple[str, ...]:
    """The other forms of one question word, as ``to_tsquery`` texts (empty for a phrase or
    a word with no other form). A plural finds its singular's forms ("meetings")."""
    if " " in term.strip() or '"' in term:
        return ()
    key = fold_text(term.strip())
    table = _forms_by_word()
    forms = table.get(key)
    if forms is None and len(key) > 4 and key.endswith("s"):
        forms = table.get(key[:-1])
    return tuple(_query_form(form) for form in forms or ())


def search_forms_query(term: str) -> str:
    """``search_forms`` of ``term`` as one ``to_tsquery`` alternation ("" when none)."""
    return " | ".join(f"({form})" for form in search_forms(term))
