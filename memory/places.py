"""Places in message text: cities (from ``retrieval.gazetteer``) and the nationality a city or
country implies, so "the Russian guy" can be matched to someone who wrote "I'm from Moscow".

A nationality read this way is an inference about a person: it is derived when a question
needs it, cited to the messages it comes from, and never stored (see docs/MEMORY.md).
"""

from __future__ import annotations

import re

from retrieval.gazetteer import CITY_FORMS
from retrieval.lexicon import fold_text

# Nationality -> (country names, cities of the gazetteer in that country).
_NATIONALITY_PLACES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Portuguese": (("Portugal",), ("Lisbon", "Porto", "Coimbra", "Faro", "Braga", "Funchal")),
    "Spanish": (
        ("Spain",),
        (
            "Madrid",
            "Barcelona",
            "Valencia",
            "Seville",
            "Málaga",
            "Bilbao",
            "Granada",
            "Palma",
            "Ibiza",
            "San Sebastián",
        ),
    ),
    "French": (
        ("France",),
        (
            "Paris",
            "Lyon",
            "Marseille",
            "Bordeaux",
            "Toulouse",
            "Strasbourg",
            "Lille",
            "Montpellier",
            "Nantes",
        ),
    ),
    "British": (
        ("United Kingdom", "UK", "England", "Scotland", "Wales", "Northern Ireland"),
        (
            "London",
            "Manchester",
            "Liverpool",
            "Birmingham",
            "Leeds",
            "Bristol",
            "Brighton",
            "Oxford",
            "Cambridge",
            "Edinburgh",
            "Glasgow",
            "Cardiff",
            "Belfast",
        ),
    ),
    "Irish": (("Ireland",), ("Dublin", "Cork", "Galway")),
    "Dutch": (
        ("Netherlands", "Holland"),
        ("Amsterdam", "Rotterdam", "The Hague", "Utrecht", "Eindhoven"),
    ),
    "Belgian": (("Belgium",), ("Brussels", "Antwerp", "Ghent")),
    "German": (
        ("Germany",),
        (
            "Berlin",
            "Munich",
            "Hamburg",
            "Frankfurt",
            "Cologne",
            "Stuttgart",
            "Düsseldorf",
            "Leipzig",
            "Dresden",
            "Hanover",
            "Nuremberg",
        ),
    ),
    "Austrian": (("Austria",), ("Vienna", "Salzburg")),
    "Swiss": (("Switzerland",), ("Zurich", "Geneva", "Basel", "Bern", "Lausanne")),
    "Italian": (
        ("Italy",),
        (
            "Rome",
            "Milan",
            "Naples",
            "Turin",
            "Florence",
            "Venice",
            "Bologna",
            "Genoa",
            "Palermo",
            "Verona",
        ),
    ),
    "Danish": (("Denmark",), ("Copenhagen", "Aarhus")),
    "Swedish": (("Sweden",), ("Stockholm", "Gothenburg", "Malmö")),
    "Norwegian": (("Norway",), ("Oslo", "Bergen")),
    "Finnish": (("Finland",), ("Helsinki", "Tampere")),
    "Polish": (("Poland",), ("Warsaw", "Kraków", "Gdańsk", "Wrocław", "Poznań")),
    "Czech": (("Czechia", "Czech Republic"), ("Prague", "Brno")),
    "Hungarian": (("Hungary",), ("Budapest",)),
    "Greek": (("Greece",), ("Athens", "Thessaloniki")),
    "Turkish": (("Turkey", "Türkiye"), ("Istanbul", "Ankara", "Izmir", "Antalya")),
    "Ukrainian": (("Ukraine",), ("Kyiv", "Lviv", "Odesa", "Kharkiv")),
    "Russian": (
        ("Russia",),
        ("Moscow", "Saint Petersburg", "Kazan", "Novosibirsk", "Yekaterinburg"),
    ),
    "Georgian": (("Georgia",), ("Tbilisi", "Batumi")),
    "American": (
        ("United States", "USA", "America"),
        (
            "New York",
            "Los Angeles",
            "San Francisco",
            "San Diego",
            "Seattle",
            "Chicago",
            "Boston",
            "Washington",
            "Philadelphia",
            "Miami",
            "Atlanta",
            "Houston",
            "Dallas",
            "Austin",
            "Denver",
            "Phoenix",
            "Las Vegas",
            "New Orleans",
            "Nashville",
            "Detroit",
        ),
    ),
    "Canadian": (
        ("Canada",),
        ("Toronto", "Montreal", "Vancouver", "Calgary", "Ottawa", "Quebec City"),
    ),
    "Mexican": (
        ("Mexico",),
        (
            "Mexico City",
            "Guadalajara",
            "Monterrey",
            "Cancún",
            "Tulum",
            "Oaxaca",
            "Puebla",
            "Mérida",
            "Playa del Carmen",
            "Puerto Vallarta",
            "Tijuana",
        ),
    ),
    "Colombian": (("Colombia",), ("Bogotá", "Medellín", "Cartagena", "Cali")),
    "Argentinian": (("Argentina",), ("Buenos Aires", "Córdoba", "Mendoza")),
    "Chilean": (("Chile",), ("Santiago", "Valparaíso")),
    "Peruvian": (("Peru",), ("Lima", "Cusco")),
    "Brazilian": (
        ("Brazil", "Brasil"),
        (
            "São Paulo",
            "Rio de Janeiro",
            "Brasília",
            "Salvador",
            "Belo Horizonte",
            "Florianópolis",
            "Porto Alegre",
            "Curitiba",
            "Recife",
            "Fortaleza",
            "Manaus",
        ),
    ),
    "Nigerian": (("Nigeria",), ("Lagos", "Abuja")),
    "Kenyan": (("Kenya",), ("Nairobi", "Mombasa")),
    "South African": (("South Africa",), ("Johannesburg", "Cape Town", "Durban", "Pretoria")),
    "Moroccan": (("Morocco",), ("Marrakesh", "Casablanca", "Rabat", "Fez", "Tangier")),
    "Egyptian": (("Egypt",), ("Cairo", "Alexandria")),
    "Japanese": (
        ("Japan",),
        ("Tokyo", "Osaka", "Kyoto", "Yokohama", "Nagoya", "Sapporo", "Fukuoka"),
    ),
    "Korean": (("Korea", "South Korea"), ("Seoul", "Busan")),
    "Chinese": (
        ("China",),
        ("Beijing", "Shanghai", "Shenzhen", "Guangzhou", "Chengdu", "Hangzhou", "Wuhan", "Xi'an"),
    ),
    "Indian": (
        ("India",),
        (
            "Mumbai",
            "Delhi",
            "Bangalore",
            "Chennai",
            "Kolkata",
            "Hyderabad",
            "Pune",
            "Goa",
            "Jaipur",
            "Ahmedabad",
        ),
    ),
    "Australian": (
        ("Australia",),
        ("Sydney", "Melbourne", "Brisbane", "Perth", "Adelaide", "Canberra", "Hobart"),
    ),
    "New Zealander": (("New Zealand",), ("Auckland", "Wellington", "Christchurch", "Queenstown")),
}

_NATIONALITY_BY_PLACE: dict[str, str] = {
    fold_text(place): nationality
    for nationality, (countries, cities) in _NATIONALITY_PLACES.items()
    for place in (*countries, *cities)
}

# Up to four capitalised words ("Mexico City", "Rio de Janeiro"), tried longest first.
_CAPITALISED_RUN = re.compile(
    r"\b[A-ZÀ-Ý][\w'\u2019-]*(?:\s+(?:de\s+|del\s+)?[A-ZÀ-Ý][\w'\u2019-]*){0,3}"
)


def cities_in(text: str) -> list[str]:
    """Canonical names of the gazetteer cities ``text`` names, in order of appearance."""
    found: list[str] = []
    for match in _CAPITALISED_RUN.finditer(text):
        words = match.group(0).split()
        used: set[int] = set()
        for length in range(len(words), 0, -1):
            for start in range(0, len(words) - length + 1):
                span = set(range(start, start + length))
                if span & used:
                    continue
                city = CITY_FORMS.get(fold_text(" ".join(words[start : start + length])))
                if city:
                    used |= span
                    if city not in found:
                        found.append(city)
    return found


def city_of(phrase: str) -> str | None:
    """The canonical city a short phrase is (or starts with), if any."""
    cities = cities_in(phrase)
    return cities[0] if cities else None


def nationality_of_place(place: str) -> str | None:
    """The nationality a city or country implies ("Moscow" -> "Russian"), if known."""
    return _NATIONALITY_BY_PLACE.get(fold_text(place.strip()))
