"""The words people use to agree to, move and call off plans, and to put off an answer, as
data: one tuple of phrases (regular-expression fragments, matched case-insensitively on whole
words) per language. ``memory.extract`` and ``memory.timeline`` compile
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
        # "the 12th works", "25-27 works", "sunday works": a day or dates agreed to.
        r"(?:\d{1,2}(?:st|nd|rd|th)?|[a-z]+day) works",
        # "the 11th is a go", "we're a go".
        f"(?:is|it{_APOSTROPHE}s|we{_APOSTROPHE}re|that{_APOSTROPHE}s) a go",
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
        # "move it to Sunday", not "a van for the move" (the move is the plan itself).
        "(?<!the )(?<!a )(?<!our )(?<!my )(?<!your )(?<!their )(?<!his )(?<!her )move[sd]?",
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
        # "you have been rebooked on Sunday's flight": a booking moved.
        r"rebook\w*",
        # "cancelled my flight, now coming sun 20th": the new time said with "now".
        r"now (?:on|at|for|coming|arriving|landing|leaving|flying|getting in)",
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
        r"remarcad[oa]s?",
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
        r"reprogramad[oa]s?",
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
    "de": (r"verschieb\w*", "verlegt", "lieber", "stattdessen", "umgebucht"),
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
        # "tonight's off", "Friday is off": the day's plan is off.
        f"(?:tonight|today|tomorrow|[a-z]+day)(?:{_APOSTROPHE}s| is) off(?! to\\b)",
        # Put off to no day at all: "another weekend then", "some other time".
        "(?:another|some other) (?:weekend|time)",
    ),
    "pt": (
        r"cancel(?:ad[oa]|ar|ei|ou|amos)",
        r"desmarc\w*",
        "n[aã]o vou poder",
        "n[aã]o vou conseguir",
        "furar",
        "outro (?:dia|fim de semana)",
    ),
    "es": (
        r"cancel(?:ad[oa]|ar|amos|[ée]|[óo])",
        "se cancela",
        r"suspendid[oa]",
        "no puedo ir",
        "ya no va",
        "no voy a poder",
        "otro d[ií]a",
        # Falls through ("lo de la playa se cae"), and put off to another weekend.
        "se (?:nos )?(?:cae|ha ca[ií]do)",
        "otro (?:finde|fin de semana)",
    ),
    "fr": (
        r"annul\w*",
        "je (?:ne )?peux (?:plus|pas)",
        r"emp[êe]chement",
        "une autre fois",
        "un autre (?:week-?end|jour)",
    ),
    "de": (r"abgesagt", r"absag\w*", "sagen? ab", "storniert", "f[äa]llt aus", "klappt nicht"),
    "it": (
        r"annull\w*",
        r"disdett[oa]",
        "disdire",
        "non si fa",
        r"non posso pi[uù]",
        f"un{_APOSTROPHE}altra volta",
        "un altro (?:weekend|giorno)",
    ),
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

# A yes hedged or left for later ("the 26th maybe", "prob the 19th", "I'll confirm closer to
# the time"): the plan is still only proposed.
TENTATIVE: Mapping[str, tuple[str, ...]] = {
    "en": (
        "maybe",
        "perhaps",
        "probably",
        "prob",
        "possibly",
        r"tentative\w*",
        r"pencil(?:led|ed)? (?:\w+ )?in",
        "not sure(?: yet)?",
        "tbc",
        "to be confirmed",
        f"(?:i{_APOSTROPHE}ll|i will|will|let me) (?:confirm|let you know|get back to you)",
    ),
    "pt": ("talvez", "provavelmente", "a confirmar", r"te (?:confirmo|aviso|falo) depois"),
    "es": ("quiz[aá]s?", "a lo mejor", "tal vez", "probablemente", "por confirmar", "te confirmo"),
    "fr": (r"peut-[êe]tre", "probablement", "[àa] confirmer", "je (?:te|vous) confirme"),
    "de": ("vielleicht", "wahrscheinlich", "unter vorbehalt", "ich (?:sag|melde) (?:dir|mich)"),
    "it": ("forse", "probabilmente", "da confermare", "ti confermo"),
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

# Vietnamese and Indonesian speakers name themselves by kinship or with a pronoun ("con", "em",
# "aku", "saya"), and a deed is its bare verb: to buy, send, bring, pay, transfer, call, book,
# fetch. The rules below build on them.
_VI_SELF = "(?:con|em|anh|ch[ịi]|t[ôo]i|m[ìi]nh|tao|tớ)"
_VI_DEED = (
    "(?:mua|g[ửu]i|mang|đem|tr[ảa]|chuy[ểe]n|g[ọo]i|nh[ắa]n|đ[ặa]t|l[ấa]y|đ[óo]n|r[ướu][ớo]c"
    "|đưa|c[ấa]t)"
)
_ID_SELF = "(?:aku|saya|gue|gw|ku)"
_ID_DEED = (
    "(?:kirim|transfer|bayar|beli|bawa|balikin|kembalikan|kasih|antar|jemput|ambil|telepon"
    "|telpon|pesan|booking)"
)

# The user's promise in other words or languages ("remind me to send you the playlist", "te
# mando o pix amanhã", "je te l'envoie ce soir").
PROMISE: Mapping[str, tuple[str, ...]] = {
    "en": (r"remind me to (?:send|share|pay|return|bring|give|forward|email|call|text|book)",),
    "pt": (
        r"te (?:mando|envio|pago|passo|devolvo|trago|levo|ligo)",
        r"te fa[çc]o (?:um |o )?pix",
        r"vou (?:te |lhe )?(?:mandar|enviar|pagar|passar|devolver|trazer|ligar|telefonar|visitar)",
    ),
    "es": (
        r"te (?:(?:lo|la|los|las) )?(?:mando|env[ií]o|paso|pago|devuelvo|traigo|llevo|llamo)",
        r"te hago (?:un |el )?bizum",
        r"(?:voy a|te voy a|le voy a) (?:mandar|enviar|pasar|pagar|devolver|traer|llamar"
        r"|visitar|escribir)",
    ),
    "fr": (
        r"je (?:te |t['\u2019]|vous )(?:l['\u2019]|les? |la )?(?:envoie|enverrai|paie|paierai"
        r"|rembourse|rendrai|rends|passe|apporte|transf[eè]re|appelle|appellerai)",
        # "je vais appeler Mamie dimanche", "je vais lui rendre son livre".
        r"je vais (?:te |t['\u2019]|vous |lui |leur |l['\u2019]|les? |la )?"
        r"(?:appeler|t[ée]l[ée]phoner|envoyer|apporter|amener|rendre|payer|rembourser|passer|[ée]crire|rappeler|visiter)",
    ),
    "de": (
        r"ich (?:schicke?|[üu]berweise|zahle|bringe?|sende?|gebe?) (?:dir|ihnen|euch)",
        r"mach(?:e)? ich",
        r"ich (?:mach(?:e)?|k[üu]mmere mich)",
    ),
    "it": (
        r"(?:te|ve) (?:l[oaie] )?(?:mando|invio|passo|porto|pago|giro|restituisco)",
        r"ti (?:mando|invio|passo|porto|pago|giro|scrivo|chiamo|restituisco)",
        r"(?:lo|la|li|le) faccio",
        r"me ne occupo",
        r"ci penso io",
    ),
    "vi": (
        rf"{_VI_SELF} s[ẽe] {_VI_DEED}",
        rf"để {_VI_SELF} {_VI_DEED}",
    ),
    "id": (
        rf"{_ID_SELF} (?:akan|nanti|besok|ntar) (?:\w+ )?{_ID_DEED}\w*",
        rf"nanti {_ID_SELF} {_ID_DEED}\w*",
    ),
}

# A short reply that takes on what was just asked, without saying what: "will do!", "on it",
# "leave it with me", "claro, lo hago", "c'est noté". Read as a promise only as a reply to an
# ask (the ask says what is owed).
TAKE_ON: Mapping[str, tuple[str, ...]] = {
    "en": (
        "will do",
        f"(?:i{_APOSTROPHE}m )?on it",
        "leave it with me",
        f"i{_APOSTROPHE}ll (?:do it|do that|sort it|handle it|take care of it|get (?:it|that) "
        "(?:to you|done|sorted))",
        "consider it done",
    ),
    "es": (r"(?:yo )?(?:lo|la|me) (?:hago|encargo|miro)", "d[ée]jamelo a m[ií]"),
    "pt": (r"(?:eu )?(?:fa[cç]o|deixa comigo|pode deixar|vou fazer)",),
    "fr": (
        f"je m{_APOSTROPHE}en (?:occupe|charge)",
        f"c{_APOSTROPHE}est not[ée]",
        r"je (?:le|la) fais",
    ),
    "it": (r"(?:lo|la) faccio", "ci penso io", "me ne occupo"),
    "de": (r"mach(?:e)? ich", "wird erledigt", r"k[üu]mmere mich"),
    "vi": (
        rf"(?:d[ạa] )?{_VI_SELF} nh[ớo] r[ồo]i",
        rf"để {_VI_SELF} (?:lo|l[àa]m)",
        "ok (?:con|em) l[àa]m",
    ),
    "id": (
        "siap",
        rf"(?:oke|ok|sip),? nanti {_ID_SELF}",
        rf"{_ID_SELF} (?:urus|kerjain|handle)",
    ),
}

# The politeness word that makes a request of a sentence without a question mark ("pls send me
# the code when you can"); an exclamation ("send me that one!") is not held as owed.
PLEASE: Mapping[str, tuple[str, ...]] = {
    "en": ("please", "pls", "plz"),
    "es": ("por favor", "porfa"),
    "pt": ("por favor", "pfv", "pf"),
    "fr": (r"s['\u2019]il (?:te|vous) pla[iî]t", "stp", "svp"),
    "it": (r"per (?:favore|piacere)",),
    "de": ("bitte",),
    "vi": ("nha", r"nh[ée]", "gi[ùu]m", "gi[úu]p", r"l[àa]m [ơo]n", r"đ[ừu]ng qu[êe]n"),
    "id": ("tolong", "mohon", "dong", r"jangan lupa"),
}

# Someone asking the person they write to for something, with or without a question mark:
# the modal and imperative forms of a request, not whole sentences ("could you …", "pls send
# me …", "¿me pasas …?", "tu peux m'envoyer …", "mi mandi …", "kannst du …").
REQUEST: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"(?:could|can|would|will) (?:you|u|ya|we)",
        r"(?:would|do) (?:you|u) mind",
        # "any chance you could collect me?", "would you be able to …", "is it possible to …"
        r"any chance (?:you|u|ya|we)",
        r"(?:are|would|will) (?:you|u) (?:be )?able to",
        r"(?:is|would) it (?:be )?possible",
        r"(?:please|pls|plz|pleeease) (?:\w+ )?(?:send|share|let|tell|confirm|check|call|text"
        r"|forward|bring|get|pay|book|sign|remind|look|send)",
        r"(?:send|text|email|forward|tell|remind|call) me",
        r"let me know",
        # Follow-ups that leave out "you": "any news on the lease?", "still up for Friday?"
        r"any (?:eta|news|updates?)",
        r"still (?:up for|on for|keen|in for)",
        r"(?:did|have) (?:you|u) (?:had |get |got )?a chance to",
        r"do (?:you|u) (?:still )?have",
        r"can i (?:get|have|borrow|grab)",
        r"when (?:can|could|will|would) (?:i|we) (?:expect|get|have|see)",
    ),
    "es": (
        r"(?:me|nos) (?:mandas|pasas|env[ií]as|dices|traes|compartes|confirmas|prestas|ayudas"
        r"|reenv[ií]as|devuelves)",
        r"(?:puedes|podr[ií]as|pod[ée]s|podr[ií]a usted|puede usted)",
        r"(?:tienes|ten[ée]s) (?:todav[ií]a|a[uú]n)",
        r"por favor",
        "porfa",
    ),
    "pt": (
        r"(?:me|nos) (?:manda|mandas|passa|passas|envia|envias|diz|fala|avisa|empresta|devolve)",
        r"(?:voc[eê]|vc|tu) (?:pode|podes|consegue|conseguiria|poderia|tem|t[aá]|ainda tem)",
        r"(?:consegue|conseguiria|poderia|podes|pode) (?:me |nos )?(?:mandar|enviar|passar"
        r"|ver|confirmar|trazer|avisar|dizer|devolver)",
        r"por favor",
    ),
    "fr": (
        r"(?:tu|vous) (?:peux|pourrais|pouvez|pourriez|as|avez) ",
        r"(?:peux|pourrais|pouvez|pourriez|as|avez)[- ](?:tu|vous)",
        r"(?:tu|vous) (?:m|nous)['\u2019]",
        r"est[- ]ce que (?:tu|vous)",
        r"s['\u2019]il (?:te|vous) pla[iî]t",
        "stp",
        "svp",
    ),
    "it": (
        r"(?:mi|ci) (?:mandi|passi|invii|dici|giri|porti|presti|mandate|manderesti|restituisci)",
        r"(?:puoi|potresti|riesci|può|potrebbe|potete)",
        r"hai (?:ancora|per caso)",
        r"per (?:favore|piacere)",
    ),
    "de": (
        r"(?:kannst|k[öo]nntest|w[üu]rdest|hast|schickst|gibst) du",
        r"(?:k[öo]nnen|k[öo]nnten|w[üu]rden) sie",
        "bitte",
    ),
    "vi": (
        rf"nh[ớo] {_VI_DEED}",
        r"đ[ừu]ng qu[êe]n",
        r"(?:nh[ờo]|gi[úu]p|gi[ùu]m) (?:con|em|anh|ch[ịi]|m[ẹe]|b[ốo]|t[ôo]i|m[ìi]nh)",
        r"l[àa]m [ơo]n",
    ),
    "id": (
        rf"(?:tolong|jangan lupa|mohon) (?:\w+ )?{_ID_DEED}\w*",
        r"(?:bisa|bisakah|boleh|mau) (?:kamu|kau|lu|lo|km|kak|mas|mbak)",
        r"(?:boleh|bisa) (?:minta|pinjam)",
        r"tolong",
    ),
}

# Saying something was handed over, each language's common forms ("c'est envoyé", "ya te lo
# mandé", "pix feito", "überwiesen"): a delivery whatever it is about.
DONE: Mapping[str, tuple[str, ...]] = {
    # Regular and irregular past tenses of handing over, calling and telling ("rang her",
    # "brought the chairs", "gave it back", "dropped it off", "left it with her neighbour").
    "en": (
        r"(?:just |already )?(?:rang|phoned|called|brought|gave|handed|returned|lent|paid|sent"
        r"|told|texted|mailed|posted|delivered)"
        r" (?:him|her|them|it|the|his|her|their|back|over|round|\w+['\u2019]s)",
        r"dropped (?:it |them |\w+ )?off",
        r"left (?:it|them|the \w+|\w+['\u2019]s \w+(?: \w+)?) (?:with|at)",
        r"gave (?:it|them) back",
        # Fetched for someone: "picked up your parcel", "collected them this morning".
        r"picked (?:it |them |\w+ )?up",
        r"collected (?:it|them|the|your|his|her|their)",
    ),
    "es": (
        r"enviad[oa]s?", r"mandad[oa]s?", r"pagad[oa]", r"transferid[oa]",
        r"ya te (?:l[oa]s? )?(?:mand[eé]|envi[eé]|pas[eé]|pagu[eé]|devolv[ií]|dej[eé]|traje"
        r"|llev[eé])",
        # Handed back or fetched: "libro devuelto", "paquete recogido", "te lo he dejado".
        r"devuelt[oa]s?", r"recogid[oa]s?",
        r"te (?:l[oa]s? )?(?:he|hemos) (?:dejado|devuelto|mandado|enviado|pagado|pasado"
        r"|tra[ií]do|llevado|recogido)",
    ),
    "pt": (
        r"enviad[oa]s?", r"mandad[oa]s?", r"transferid[oa]", r"pix feito", r"devolvid[oa]s?",
        r"(?:j[aá] )?te (?:mandei|enviei|passei|paguei|devolvi|levei|trouxe)",
    ),
    "fr": (
        r"c['\u2019]est (?:envoy[ée]|pay[ée])", r"envoy[ée]e?s?", r"pay[ée]", r"vir[ée]",
        r"je (?:te |vous )?(?:l['\u2019]|les )?ai (?:envoy[ée]|pay[ée]|vir[ée]|transmis"
        r"|rendu|ramen[ée]|rapport[ée]|r[ée]cup[ée]r[ée])",
    ),
    "it": (r"inviat[oaie]", r"mandat[oaie]", r"pagat[oaie]", r"restituit[oaie]",
           r"ritirat[oaie]",
           r"(?:te|ti) (?:l['\u2019]|l[oaie] )?ho (?:mandat|inviat|passat|pagat|restituit"
           r"|riportat)[oaie]"),
    "de": ("geschickt", r"[üu]berwiesen", "bezahlt", "anbei", r"zur[üu]ckgegeben",
           "abgeholt"),
    "vi": (rf"(?:đ[ãa] )?{_VI_DEED}\b[^.!?\n]{{0,40}}? r[ồo]i", rf"đ[ãa] {_VI_DEED}"),
    "id": (rf"(?:sudah|udah|dah|telah) (?:{_ID_SELF} )?(?:di|ku)?{_ID_DEED}\w*",),
}  # fmt: skip

# Saying something is finished without saying what ("done ✅", "fatto", "listo", "erledigt",
# "voilà"): it keeps the user's own promise, but in a chat with several threads it is no
# answer to a request days old.
FINISHED: Mapping[str, tuple[str, ...]] = {
    "en": ("done", "all done", "sorted", "taken care of"),
    "es": ("hecho", "listo"),
    "pt": ("feito", r"pag[oa]"),
    "fr": (r"c['\u2019]est (?:fait|r[ée]gl[ée])", "voil[aà]"),
    "it": ("fatto", r"ecco(?:l[oaie])?"),
    "de": ("erledigt", "gemacht", r"hier (?:ist|sind)"),
    "vi": (r"(?:đ[ãa] )?xong(?: r[ồo]i)?",),
    "id": ("beres", "selesai", r"(?:sudah|udah) (?:beres|selesai)"),
}  # fmt: skip

# That what was owed arrived, said by whoever received it ("got it", "arrived", "recebi",
# "bien reçu", "ricevuto", "angekommen").
ARRIVED: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"got (?:it|them|the|your)",
        "received",
        r"(?:it|they|that|your \w+) (?:arrived|came)",
        r"(?:has|have) arrived",
        "came through",
    ),
    "es": (r"recib[ií]", "lo tengo", r"(?:ya )?(?:me )?lleg[oó]"),
    "pt": ("recebi", "peguei", r"(?:j[aá] )?chegou"),
    "fr": (r"bien re[çc]u", r"re[çc]u", r"(?:c['\u2019]est |bien )arriv[ée]"),
    "it": (r"ricevut[oaie]", r"(?:[eè] )?arrivat[oaie]"),
    "de": ("erhalten", "angekommen", "bekommen"),
    "vi": (r"(?:đ[ãa] )?nh[ậa]n (?:đ[ưu][ợo]c )?r[ồo]i", r"đ[ãa] nh[ậa]n đ[ưu][ợo]c"),
    "id": (
        r"(?:sudah|udah|dah) (?:\w+ )?(?:terima|diterima|nyampe|sampai|sampe|masuk)",
        "diterima",
    ),
}

# A time still ahead said as the whole reply ("sure, tonight", "mañana", "demain sans faute"):
# it promises the thing for later, it does not deliver it.
LATER_TIME: Mapping[str, tuple[str, ...]] = {
    "en": (
        "tonight", "tomorrow", "tmrw", "later", "this (?:week|evening|afternoon|weekend)",
        r"next (?:week|month)", r"(?:on |by )?(?:mon|tues|wednes|thurs|fri|satur|sun)day",
        r"in (?:a|an|\d+) (?:bit|sec|min|minutes|hours?|days?)", "first thing",
    ),
    "es": ("ma[ñn]ana", "esta (?:noche|tarde|semana)", "luego", "despu[ée]s", "m[aá]s tarde",
           r"(?:el |este )?(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo)"),
    "pt": ("amanh[aã]", "(?:hoje )?[àa] noite", "mais tarde", "depois", "essa semana",
           r"(?:na |no )?(?:segunda|ter[çc]a|quarta|quinta|sexta|s[áa]bado|domingo)"),
    "fr": ("demain", "ce soir", "plus tard", "tout [àa] l['\u2019]heure", "cette semaine",
           r"(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)"),
    "it": ("domani", "stasera", "pi[uù] tardi", "dopo", "questa settimana",
           r"(?:luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica)"),
    "de": ("morgen", "heute abend", r"sp[äa]ter", "diese woche", "gleich",
           r"(?:am )?(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)"),
    "vi": ("ng[àa]y mai", r"t[ốo]i nay", r"chi[ềe]u nay", r"tu[ầa]n (?:sau|n[àa]y)",
           r"l[áa]t n[ữu]a"),
    "id": ("besok", r"nanti(?: malam| sore)?", "ntar", r"minggu (?:depan|ini)"),
}  # fmt: skip

# An arrangement already made: a booking or a reservation said with its day or time is a plan
# in its own right ("booked the cabin for the weekend after next", "got us a table at 8 on
# Fri", "reservei mesa para sexta"), confirmed from the start.
BOOKING: Mapping[str, tuple[str, ...]] = {
    "en": (
        "booked",
        "rented",
        "reserved",
        "reservation",
        "booking",
        "got us",
        "grabbed",
        "tickets",
    ),
    "pt": (
        "reservei",
        "reservamos",
        "reservad[oa]",
        "reserva",
        "marquei",
        "bilhetes?",
        "alugu?ei",
        "alugamos",
    ),
    "es": ("reserv[ée]", "reservamos", "reservad[oa]", "reserva", "entradas", "alquil[ée]"),
    "fr": (r"r[ée]serv[ée]e?s?", r"r[ée]servation", "billets?"),
    "de": ("reserviert", "gebucht", "reservierung", "karten", "gemietet"),
    "it": ("prenotat[oa]", "prenotazione", "biglietti", "affittat[oa]"),
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
    # Sports and classes people keep as a habit with the same friends.
    (
        "swimming",
        "swim",
        "natação",
        "natacao",
        "natación",
        "natacion",
        "natation",
        "schwimmen",
        "nuoto",
        "berenang",
    ),
    ("running", "jog", "jogging", "corrida", "footing", "laufen"),
    ("tennis", "tênis", "tenis"),
    ("padel", "pádel"),
    ("football", "soccer", "futebol", "fútbol", "futbol", "fußball", "fussball", "calcetto"),
    ("yoga",),
    ("pilates",),
    ("gym", "gimnasio"),
    ("squash",),
    ("badminton",),
    ("basketball", "basquete", "baloncesto"),
    ("netball",),
    ("volleyball", "vôlei", "volei", "voleibol"),
    ("golf",),
    ("bowling", "boliche"),
    ("karaoke",),
    ("cycling", "bike ride", "ciclismo", "vélo", "velo"),
    ("surfing", "surf"),
    ("skiing", "ski", "esqui", "esquí"),
    ("kayaking", "kayak", "canoeing"),
    ("camping", "acampamento", "acampada"),
    ("rehearsal", "ensaio", "ensayo", "répétition", "repetition"),
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


# Money owed, said by whoever is owed it ("you owe me 6 for the balls", "me debes 6€") or by
# whoever owes it ("I owe you 12 for the tickets", "te debo 20€"). Read as a debt only with an
# amount: "I owe you one" is thanks.
OWED_TO_ME: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"(?:you|u) (?:still )?owe me",
        # "still need your $40 when you can", "waiting on ur 20 bucks": the sum right after.
        r"(?:still )?(?:need|needs|waiting on|waiting for) (?:your|ur) (?=[$€£]?\s?\d)",
        # "$90 for the cabin, send me half when you can", "transfer me your share".
        # Not half of a thing: "send me half the photos".
        r"(?:send|transfer|pay|venmo|bank) me (?:back )?(?:half|your half|ur half|your share"
        r"|ur share|your cut|the rest)(?! (?:the|of|those|these|my|your) "
        r"(?!cost|price|money|amount|total|bill|rent|fee)\w)",
    ),
    "es": (r"me debes", r"me deb[ée]is"),
    "pt": (r"me deves", r"me deve"),
    "fr": (r"tu me dois", r"vous me devez"),
    "it": (r"mi devi", r"mi dovete"),
    "de": (r"du schuldest mir", r"ihr schuldet mir"),
}
I_OWE: Mapping[str, tuple[str, ...]] = {
    "en": (r"i (?:still )?owe (?:you|u|ya)", r"i['\u2019]?m owing you"),
    "es": (r"te debo", r"os debo", r"le debo"),
    "pt": (r"te devo", r"lhe devo"),
    "fr": (r"je te dois", r"je vous dois"),
    "it": (r"ti devo", r"vi devo"),
    "de": (r"ich schulde (?:dir|ihnen|euch)",),
}

# A deed asked for and reported done, in several languages (folded, on whole words): "can I
# have my lamp back?" is answered by "lámpara devuelta"; "could you pick up my parcel?" by
# "paquete recogido". Each family names one deed; the deeds of sending and telling are too
# common to say which thread a message finishes.
DEED_FAMILIES: Mapping[str, tuple[str, ...]] = {
    "return": (
        r"back",
        r"return\w*",
        r"devol\w*",
        r"devuel\w*",
        r"rend(?:s|re|u|ue|us|ues|rai)",
        r"restitu\w*",
        r"ridat\w*",
        r"riport\w*",
        r"zur[uü]ck\w*",
    ),
    "fetch": (
        r"pick(?:ed|ing|s)?\s+(?:\w+\s+)?up",
        r"collect\w*",
        r"fetch\w*",
        r"recog\w*",
        r"recoj\w*",
        r"recuper\w*",
        r"ritir\w*",
        r"abhol\w*",
        r"abgeholt",
    ),
    "pay": (
        r"pay\w*",
        r"paid",
        r"reimburs\w*",
        r"bizum\w*",
        r"venmo\w*",
        r"zelle\w*",
        r"pix",
        r"pag(?:a|as|ar|o|ue|ado|ada|ato|ata|ei|ou|amos)",
        r"rembours\w*",
        r"pay[ée]",
        r"bezahl\w*",
        r"[uü]berwie\w*",
        r"transfer\w*",
        r"chuyen khoan",
        r"bayar\w*",
        r"dibayar",
    ),
}


def deed_families_regex() -> str:
    """Every word of ``DEED_FAMILIES`` in one alternation (a prefilter for a database read)."""
    return "|".join(word for words in DEED_FAMILIES.values() for word in words)


def deed_families(folded_text: str) -> frozenset[str]:
    """The ``DEED_FAMILIES`` a folded text names ("give it back" → {"return"})."""
    return frozenset(
        family
        for family, words in DEED_FAMILIES.items()
        if re.search(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", folded_text)
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


# Other things a plan is named for, said in several languages or forms (folded): "when's the
# tournament?" finds "torneo sábado", "when am I flying?" finds "flight EI 12", "xmas" finds
# "Christmas".
TOPIC_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("tournament", "tourney", "torneo", "torneio", "tournoi", "turnier"),
    ("flight", "flying", "fly", "flies", "vuelo", "voo", "flug", "volo"),
    ("christmas", "xmas", "navidad", "natal", "noel", "weihnachten", "natale"),
    # Holidays a family plan is named for, as each language calls them.
    (
        "thanksgiving",
        "action de grace",
        "action de graces",
        "acao de gracas",
        "dia de acao de gracas",
        "accion de gracias",
        "dia de accion de gracias",
        "erntedankfest",
        "erntedank",
        "ringraziamento",
    ),
    ("easter", "paques", "pascoa", "pascua", "ostern", "pasqua"),
    ("halloween", "dia das bruxas", "toussaint"),
    ("hanukkah", "chanukah", "hanouka", "janucah"),
    ("diwali", "deepavali", "divali"),
    ("passover", "pessach", "pesach", "pessah", "pascua judia"),
)

# A month as the languages read write it, whole and short ("november", "nov", "novembre",
# "noviembre"): "the november quiz" is the one a message calls "nov quiz". A form that is also
# a word or a name ("may", "mar", "jan", "marco" for "março") is left out.
MONTH_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("january", "janeiro", "enero", "janvier", "januar", "gennaio"),
    ("february", "feb", "fevereiro", "febrero", "fevrier", "februar", "febbraio"),
    ("march", "marzo", "marz"),
    ("april", "apr", "abril", "avril", "aprile"),
    ("may", "maio", "mayo", "mai", "maggio"),
    ("june", "jun", "junho", "junio", "juin", "juni", "giugno"),
    ("july", "jul", "julho", "julio", "juillet", "juli", "luglio"),
    ("august", "aug", "agosto", "aout"),
    ("september", "sep", "sept", "setembro", "septiembre", "septembre", "settembre"),
    ("october", "oct", "outubro", "octubre", "octobre", "oktober", "ottobre"),
    ("november", "nov", "novembro", "noviembre", "novembre"),
    ("december", "dec", "dezembro", "diciembre", "decembre", "dezember", "dicembre"),
)


def role_family(folded_word: str) -> tuple[str, ...]:
    """The same trade, role or topic in the other languages (folded), or just the word."""
    for family in (*ROLE_FAMILIES, *TOPIC_FAMILIES, *MONTH_FAMILIES):
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
