"""Word lists the query compiler reads: stop words, descriptors of people, and text folding.

Everything here is data plus one pure function; the rules that use it live in
``retrieval.compile`` and ``retrieval.dates``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_PUNCTUATION_FOLDS = {
    "\u2018": "'",
    "\u2019": "'",
    "\u02bc": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u00a0": " ",
}


@lru_cache(maxsize=8192)
def _fold_char(char: str) -> str:
    char = _PUNCTUATION_FOLDS.get(char, char)
    base = unicodedata.normalize("NFD", char)[0]
    lowered = base.lower()
    return lowered if len(lowered) == 1 else base


def fold_text(text: str) -> str:
    """Lower-case, accent-free, straight-quoted text of exactly the same length as ``text``,
    so a span found in the folded text is the same span in the original."""
    return "".join(_fold_char(char) for char in text)


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that never carry content on their own: question words, pronouns, auxiliaries,
# prepositions, articles, the generic verbs of asking about a conversation, and the fillers
# of texting ("lol", "btw", "tbh"): a question that says "how big is it lol" asks how big.
STOP_WORDS: frozenset[str] = word_set(
    """
    a about above across after again against ago all almost also am among an and any anybody
    anyone anything anywhere are aren't around as at back be because been before being below
    between both but by can can't cannot could couldn't did didn't do does doesn't doing don't
    done down during each either else even ever every everyone everything few for from get gets
    getting got had hadn't has hasn't have haven't having he he'd he'll he's her here hers herself
    him himself his how i i'd i'll i'm i've if in into is isn't it it's its itself just last let
    let's like many may me might mine more most much must my myself near need no nobody none nor
    not nothing now of off often on once one only or other others our ours ourselves out over own
    per please quite rather really same say said says saying shall she she'd she'll she's should
    shouldn't since so some somebody someone something sometime somewhere still such tell telling
    told than that that's the their theirs them themselves then there there's these they they'd
    they'll they're they've thing things this those though through thru till to too toward towards
    under until up upon us very via was wasn't we we'd we'll we're we've were weren't what what's
    whatever when when's where where's whether which while who who's whom whose why will with
    within without won't would wouldn't yes yet you you'd you'll you're you've your yours
    yourself yourselves
    again also actually anyway basically maybe perhaps probably finally eventually ultimately
    ask asked asking talk talked talking talks speak spoke spoken chat chatted chatting
    mention mentioned mentions discuss discussed message messages messaged text texted texts
    write wrote written send sent conversation conversations chats thread email emails e-mail
    know knew remember recall forgot forget find show give gave tell think thought mean meant
    meet met time
    guy guys girl girls woman women man men person people ppl lady dude someone somebody
    claire hey hi hello ok okay thanks thank pls help
    wheres whens whats whos hows ur
    lol lmao lmfao rofl haha hahaha hehe omg btw plz idk tbh imo rn ya yeah yep yup nope hmm um
    smth sth smthg sumthin
    uh anyways tho kk ty thx fyi
    """
)

# Phrases and words that only choose the intent or route ("catch me up", "what did I miss",
# "my closest friends"); they are removed from the keywords like stop words.
ROUTING_WORDS: frozenset[str] = word_set(
    """
    catch miss missed missing fill recap summarize summarise summary sum update updates latest new
    happening happened going
    unresolved open loop loops loose ends pending outstanding unanswered waiting replied reply
    replies respond responded answer answered owe
    decide decided decision agree agreed plan plans planned planning arrange arranged settle
    settled
    closest best top most least neglect neglecting neglected ignoring rank ranking sort friends
    friend contacts contact touch lost while ages
    draft compose prepare remind reminder invite schedule calendar add put name names called
    two three four five six seven eight nine ten fifteen twenty
    """
)

# Nationalities and demonyms, canonical form first; matched whole-word, plural forms included.
NATIONALITIES: dict[str, tuple[str, ...]] = {
    "Afghan": ("afghan", "afghans"),
    "Albanian": ("albanian", "albanians"),
    "Algerian": ("algerian", "algerians"),
    "American": ("american", "americans"),
    "Angolan": ("angolan", "angolans"),
    "Argentinian": ("argentinian", "argentinians", "argentine", "argentines", "argentinean"),
    "Armenian": ("armenian", "armenians"),
    "Australian": ("australian", "australians", "aussie", "aussies"),
    "Austrian": ("austrian", "austrians"),
    "Azerbaijani": ("azerbaijani", "azerbaijanis", "azeri"),
    "Bangladeshi": ("bangladeshi", "bangladeshis"),
    "Belarusian": ("belarusian", "belarusians"),
    "Belgian": ("belgian", "belgians"),
    "Bolivian": ("bolivian", "bolivians"),
    "Bosnian": ("bosnian", "bosnians"),
    "Brazilian": ("brazilian", "brazilians"),
    "British": ("british", "brit", "brits"),
    "Bulgarian": ("bulgarian", "bulgarians"),
    "Cambodian": ("cambodian", "cambodians"),
    "Cameroonian": ("cameroonian", "cameroonians"),
    "Canadian": ("canadian", "canadians"),
    "Cape Verdean": ("cape verdean", "cape verdeans"),
    "Chilean": ("chilean", "chileans"),
    "Chinese": ("chinese",),
    "Colombian": ("colombian", "colombians"),
    "Costa Rican": ("costa rican", "costa ricans"),
    "Croatian": ("croatian", "croatians", "croat", "croats"),
    "Cuban": ("cuban", "cubans"),
    "Cypriot": ("cypriot", "cypriots"),
    "Czech": ("czech", "czechs"),
    "Danish": ("danish", "dane", "danes"),
    "Dominican": ("dominican", "dominicans"),
    "Dutch": ("dutch",),
    "Ecuadorian": ("ecuadorian", "ecuadorians"),
    "Egyptian": ("egyptian", "egyptians"),
    "Emirati": ("emirati", "emiratis"),
    "English": ("english",),
    "Estonian": ("estonian", "estonians"),
    "Ethiopian": ("ethiopian", "ethiopians"),
    "Filipino": ("filipino", "filipinos", "filipina", "filipinas"),
    "Finnish": ("finnish", "finn", "finns"),
    "French": ("french",),
    "Georgian": ("georgian", "georgians"),
    "German": ("german", "germans"),
    "Ghanaian": ("ghanaian", "ghanaians"),
    "Greek": ("greek", "greeks"),
    "Guatemalan": ("guatemalan", "guatemalans"),
    "Honduran": ("honduran", "hondurans"),
    "Hungarian": ("hungarian", "hungarians"),
    "Icelandic": ("icelandic", "icelander", "icelanders"),
    "Indian": ("indian", "indians"),
    "Indonesian": ("indonesian", "indonesians"),
    "Iranian": ("iranian", "iranians", "persian", "persians"),
    "Iraqi": ("iraqi", "iraqis"),
    "Irish": ("irish",),
    "Israeli": ("israeli", "israelis"),
    "Italian": ("italian", "italians"),
    "Ivorian": ("ivorian", "ivorians"),
    "Jamaican": ("jamaican", "jamaicans"),
    "Japanese": ("japanese",),
    "Jordanian": ("jordanian", "jordanians"),
    "Kazakh": ("kazakh", "kazakhs", "kazakhstani"),
    "Kenyan": ("kenyan", "kenyans"),
    "Korean": ("korean", "koreans", "south korean", "south koreans"),
    "Kuwaiti": ("kuwaiti", "kuwaitis"),
    "Latvian": ("latvian", "latvians"),
    "Lebanese": ("lebanese",),
    "Lithuanian": ("lithuanian", "lithuanians"),
    "Luxembourgish": ("luxembourgish", "luxembourger", "luxembourgers"),
    "Malaysian": ("malaysian", "malaysians"),
    "Maltese": ("maltese",),
    "Mexican": ("mexican", "mexicans"),
    "Moldovan": ("moldovan", "moldovans"),
    "Mongolian": ("mongolian", "mongolians"),
    "Montenegrin": ("montenegrin", "montenegrins"),
    "Moroccan": ("moroccan", "moroccans"),
    "Mozambican": ("mozambican", "mozambicans"),
    "Nepali": ("nepali", "nepalis", "nepalese"),
    "New Zealander": ("new zealander", "new zealanders", "kiwi", "kiwis"),
    "Nicaraguan": ("nicaraguan", "nicaraguans"),
    "Nigerian": ("nigerian", "nigerians"),
    "Norwegian": ("norwegian", "norwegians"),
    "Pakistani": ("pakistani", "pakistanis"),
    "Palestinian": ("palestinian", "palestinians"),
    "Panamanian": ("panamanian", "panamanians"),
    "Paraguayan": ("paraguayan", "paraguayans"),
    "Peruvian": ("peruvian", "peruvians"),
    "Polish": ("polish", "pole", "poles"),
    "Portuguese": ("portuguese",),
    "Puerto Rican": ("puerto rican", "puerto ricans"),
    "Qatari": ("qatari", "qataris"),
    "Romanian": ("romanian", "romanians"),
    "Russian": ("russian", "russians"),
    "Salvadoran": ("salvadoran", "salvadorans", "salvadorian"),
    "Saudi": ("saudi", "saudis"),
    "Scottish": ("scottish", "scot", "scots"),
    "Senegalese": ("senegalese",),
    "Serbian": ("serbian", "serbians", "serb", "serbs"),
    "Singaporean": ("singaporean", "singaporeans"),
    "Slovak": ("slovak", "slovaks", "slovakian"),
    "Slovenian": ("slovenian", "slovenians", "slovene", "slovenes"),
    "South African": ("south african", "south africans"),
    "Spanish": ("spanish", "spaniard", "spaniards"),
    "Sri Lankan": ("sri lankan", "sri lankans"),
    "Swedish": ("swedish", "swede", "swedes"),
    "Swiss": ("swiss",),
    "Syrian": ("syrian", "syrians"),
    "Taiwanese": ("taiwanese",),
    "Tanzanian": ("tanzanian", "tanzanians"),
    "Thai": ("thai", "thais"),
    "Tunisian": ("tunisian", "tunisians"),
    "Turkish": ("turkish", "turk", "turks"),
    "Ugandan": ("ugandan", "ugandans"),
    "Ukrainian": ("ukrainian", "ukrainians"),
    "Uruguayan": ("uruguayan", "uruguayans"),
    "Uzbek": ("uzbek", "uzbeks"),
    "Venezuelan": ("venezuelan", "venezuelans"),
    "Vietnamese": ("vietnamese",),
    "Welsh": ("welsh",),
    "Zimbabwean": ("zimbabwean", "zimbabweans"),
}

# Roles and relations, canonical form first. "my boss" and "boss" are the same descriptor.
ROLES: dict[str, tuple[str, ...]] = {
    "accountant": ("accountant", "accountants"),
    "architect": ("architect", "architects"),
    "artist": ("artist", "artists"),
    "babysitter": ("babysitter", "babysitters", "nanny", "nannies"),
    "banker": ("banker", "bankers"),
    "barber": ("barber", "barbers", "hairdresser", "hairdressers", "hair stylist"),
    "boss": ("boss", "manager", "line manager"),
    "builder": ("builder", "builders", "contractor", "contractors"),
    "ceo": ("ceo", "chief executive"),
    "chef": ("chef", "chefs", "cook"),
    "cleaner": ("cleaner", "cleaners", "cleaning lady"),
    "client": ("client", "clients", "customer", "customers"),
    "coach": ("coach", "personal trainer", "trainer"),
    "colleague": ("colleague", "colleagues", "coworker", "coworkers", "co-worker", "co-workers"),
    "consultant": ("consultant", "consultants"),
    "dentist": ("dentist", "dentists"),
    "designer": ("designer", "designers"),
    "developer": ("developer", "developers", "programmer", "programmers"),
    "doctor": ("doctor", "doctors", "physician"),
    "driver": ("driver", "drivers"),
    "electrician": ("electrician", "electricians"),
    "engineer": ("engineer", "engineers"),
    "founder": ("founder", "founders", "cofounder", "co-founder"),
    "investor": ("investor", "investors"),
    "journalist": ("journalist", "journalists", "reporter"),
    "landlord": ("landlord", "landlords", "landlady"),
    "lawyer": ("lawyer", "lawyers", "attorney", "solicitor"),
    "mechanic": ("mechanic", "mechanics"),
    "mentor": ("mentor", "mentors"),
    "musician": ("musician", "musicians"),
    "neighbour": ("neighbour", "neighbours", "neighbor", "neighbors"),
    "nurse": ("nurse", "nurses"),
    "photographer": ("photographer", "photographers"),
    "pharmacist": ("pharmacist",),
    "plumber": ("plumber", "plumbers"),
    "professor": ("professor", "professors", "lecturer"),
    "real estate agent": ("real estate agent", "estate agent", "realtor", "agent"),
    "recruiter": ("recruiter", "recruiters", "headhunter"),
    "flatmate": ("flatmate", "flatmates", "roommate", "roommates", "housemate", "housemates"),
    "student": ("student", "students"),
    "teacher": ("teacher", "teachers", "tutor"),
    "therapist": ("therapist", "therapists", "psychologist", "counsellor"),
    "translator": ("translator", "translators", "interpreter"),
    "vet": ("vet", "veterinarian"),
    # relations
    "mother": ("mother", "mom", "mum", "mama", "mommy", "mummy", "momma"),
    "father": ("father", "dad", "papa", "daddy"),
    "sister": ("sister", "sis"),
    "brother": ("brother", "bro"),
    "sibling": ("sibling", "siblings"),
    "parents": ("parents",),
    "wife": ("wife", "wifey"),
    "husband": ("husband", "hubby"),
    "partner": ("partner",),
    "girlfriend": ("girlfriend", "gf"),
    "boyfriend": ("boyfriend", "bf"),
    "fiance": ("fiance", "fiancee"),
    "ex": ("ex", "ex-girlfriend", "ex-boyfriend", "ex-wife", "ex-husband"),
    "son": ("son",),
    "daughter": ("daughter",),
    "aunt": ("aunt", "auntie", "aunty"),
    "uncle": ("uncle",),
    "cousin": ("cousin", "cousins"),
    "niece": ("niece",),
    "nephew": ("nephew",),
    "grandmother": ("grandmother", "grandma", "granny", "gran", "nan", "nana", "nanna", "grandmum"),
    "grandfather": ("grandfather", "grandpa", "granddad", "grandad", "gramps"),
    "in-laws": ("in-laws", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law"),
}


def _descriptor_forms() -> dict[str, str]:
    forms: dict[str, str] = {}
    for canonical, variants in (*NATIONALITIES.items(), *ROLES.items()):
        for variant in variants:
            forms[variant] = canonical
    return forms


# Folded surface form -> canonical descriptor.
DESCRIPTOR_FORMS: dict[str, str] = _descriptor_forms()
