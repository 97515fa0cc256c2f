"""The other forms a question's word is searched by: shorthand, abbreviations, other
languages; one-way forms, prefixes and phrases."""

from retrieval.shorthand import search_forms, search_forms_query


def test_a_word_and_its_shorthand_find_each_other():
    assert "mtg" in search_forms("meeting")
    assert "meeting" in search_forms("mtg")
    assert "mtg" in search_forms("Meetings")


def test_a_one_way_form_is_searched_from_but_never_for():
    assert "saturday" in search_forms("sat")
    assert "sat" not in search_forms("saturday")
    assert "jan" not in search_forms("january")


def test_inflected_languages_match_by_prefix_and_holidays_by_phrase():
    assert "listopad:*" in search_forms("november")
    assert "action <-> de <-> grâce" in search_forms("thanksgiving")


def test_phrases_and_unknown_words_have_no_other_form():
    assert search_forms('"game night"') == ()
    assert search_forms("pottery") == ()
    assert search_forms_query("pottery") == ""
    assert search_forms_query("tmrw").startswith("(tomorrow)")


def test_everyday_words_find_their_other_languages_and_related_words():
    assert "aduanas" in search_forms("customs")
    assert "paquete" in search_forms("parcel")
    assert "parcel" in search_forms("colis")
    assert "classes" in search_forms("teach")
    # "Who picked the film?" looks for the suggestion; a question about a proposal does not
    # look for every "picked".
    assert "proposta" in search_forms("picked")
    assert "picked" not in search_forms("proposal")
