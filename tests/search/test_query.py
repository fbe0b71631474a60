from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.search.query import (
    MAX_CLAUSES,
    MAX_FUZZY,
    Clause,
    parse_query,
    pin_words,
)
from paperterm.index.search.query_text import MAX_QUERY_CHARS, blank_query


def test_words_phrases_fields_and_exclusions():
    parsed = parse_query('"long context" -vision title:transformer author:"Ada Lovelace"')
    assert parsed.clauses == [
        Clause("phrase", "long context"),
        Clause("word", "vision", negate=True),
        Clause("word", "transformer", "title"),
        Clause("phrase", "Ada Lovelace", "authors"),
    ]


def test_unknown_field_is_a_plain_word():
    parsed = parse_query("SpOiLer: Offline reinforcement")
    assert [c.text for c in parsed.clauses] == ["SpOiLer:", "Offline", "reinforcement"]
    assert all(c.field is None for c in parsed.clauses)
    assert parse_query("foo:bar ").clauses == [Clause("word", "foo:bar")]


def test_prefix_needs_three_letters_and_leading_wildcards_are_ignored():
    assert parse_query("trans*").clauses == [Clause("prefix", "trans")]
    short = parse_query("c* ")
    assert short.clauses == [Clause("word", "c")]
    assert any("3 letters" in note for note in short.notes)
    lead = parse_query("*former ")
    assert lead.clauses == [Clause("word", "former")]
    assert any("leading" in note for note in lead.notes)
    assert parse_query("*").clauses == []


def test_fuzzy_distance_is_capped():
    parsed = parse_query("foo~9")
    assert parsed.clauses == [Clause("fuzzy", "foo", distance=MAX_FUZZY)]
    assert parsed.notes
    assert parse_query("transfromer~").clauses[0].distance == 2
    assert parse_query("cat~").clauses[0].distance == 1
    assert parse_query("cat~1").clauses[0].distance == 1


def test_tags_are_filters_not_clauses():
    parsed = parse_query("tag:To-Read -tag:done diffusion ")
    assert parsed.tags == ["to-read"]
    assert parsed.excluded_tags == ["done"]
    assert parsed.clauses == [Clause("word", "diffusion")]


def test_unbalanced_quote_runs_to_the_end_and_empty_field_is_a_word():
    assert parse_query('"reverse complement ').clauses == [Clause("phrase", "reverse complement")]
    assert parse_query("title: ").clauses == [Clause("word", "title:")]


def test_clause_count_is_capped():
    parsed = parse_query(" ".join(f"w{i}" for i in range(500)))
    assert len(parsed.clauses) == MAX_CLAUSES
    assert parsed.notes


def test_a_pasted_page_is_cut_with_a_note():
    parsed = parse_query("word " * 100_000 + "tail")
    assert parsed.notes and str(MAX_QUERY_CHARS) in parsed.notes[0]
    assert [c.text for c in parsed.clauses] == ["word"]


def test_a_blank_query_is_what_parses_to_nothing():
    """The reader does not parse a blank search box: what it skips must be nothing."""
    for text in ["", " ", "\t \u3000\n", " " * MAX_QUERY_CHARS]:
        assert blank_query(text)
        parsed = parse_query(text)
        assert parsed.empty and not parsed.notes
    for text in ["a", " tag:x", "-", " " * (MAX_QUERY_CHARS + 1)]:
        assert not blank_query(text)
    assert parse_query(" " * (MAX_QUERY_CHARS + 1)).notes  # the cut's note: parsed, so shown


@given(st.text(alphabet=" \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000", max_size=40))
def test_whitespace_of_any_kind_is_blank_and_parses_to_nothing(text):
    assert blank_query(text)
    parsed = parse_query(text)
    assert parsed.empty and not parsed.notes


def test_control_characters_never_reach_clauses():
    parsed = parse_query("dna\x1b[31m\x00 \u009bred")
    for clause in parsed.clauses:
        assert all(ch.isprintable() for ch in clause.text)


# --- the word being typed ---------------------------------------------------------------------


def test_the_last_word_is_partial_until_a_space_ends_it():
    assert parse_query("graph neu").clauses == [
        Clause("word", "graph"),
        Clause("word", "neu", partial=True),
    ]
    assert parse_query("graph neu").typing
    for finished in ("graph neu ", "graph neu,", "graph neu*", "graph neu~", '"graph neu"'):
        parsed = parse_query(finished)
        assert not any(clause.partial for clause in parsed.clauses), finished
        assert not parsed.typing, finished


def test_a_half_typed_word_keeps_its_field_negation_and_phrase():
    assert parse_query("title:seg").clauses == [Clause("word", "seg", "title", partial=True)]
    assert parse_query("dna -vis").clauses[-1] == Clause("word", "vis", negate=True, partial=True)
    assert parse_query('"long cont').clauses == [Clause("phrase", "long cont", partial=True)]
    assert not parse_query('"long cont ').clauses[0].partial


def test_a_half_typed_tag_is_a_tag_prefix():
    parsed = parse_query("dna tag:to-r")
    assert parsed.tags == [] and parsed.tag_prefixes == ["to-r"]
    assert parse_query("dna tag:to-read ").tags == ["to-read"]
    assert parse_query("dna -tag:don").excluded_tags == ["don"]  # excluding only as typed


def test_equals_turns_correction_off_and_spans_locate_words():
    parsed = parse_query("=diffsion  -Models =x")
    assert parsed.clauses == [
        Clause("word", "diffsion", exact=True),
        Clause("word", "Models", negate=True),
        Clause("word", "x", exact=True, partial=True),
    ]
    for clause in parsed.clauses:
        start, end = clause.span
        assert parsed.text[start:end] == clause.text
    assert parse_query("=").clauses == [Clause("word", "=", partial=False)]


@given(st.text())
def test_spans_point_at_the_words(text):
    parsed = parse_query(text)
    for clause in parsed.clauses:
        start, end = clause.span
        if clause.kind == "word" and "*" not in text and "?" not in text and "~" not in text:
            assert parsed.text[start:end].casefold() == clause.text.casefold()


@given(st.text())
def test_parser_never_raises(text):
    parsed = parse_query(text)
    assert len(parsed.clauses) <= MAX_CLAUSES
    for clause in parsed.clauses:
        assert clause.text
        assert clause.distance <= MAX_FUZZY


def test_pinning_words_keeps_the_rest_of_the_query():
    assert pin_words("diffsion models -nueral", ["diffsion", "nueral"]) == (
        "=diffsion models -=nueral"
    )
    assert pin_words('"diffsion" =diffsion title:diffsion', ["diffsion"]) == (
        '"diffsion" =diffsion title:=diffsion'
    )
    pinned = parse_query(pin_words("graph nueral", ["nueral"])).clauses[-1]
    assert pinned.exact and pinned.partial and pinned.text == "nueral"


def test_a_repeated_word_is_one_clause_counted_up_to_the_cap():
    from paperterm.index.search.query import MAX_REPEATS

    text = "Shortcuts in deep models: identifying shortcuts, models, SHORTCUTS: shortcuts"
    query = parse_query(text)
    counts = {clause.text.lower(): clause.repeats for clause in query.clauses}
    assert counts == {"shortcuts": MAX_REPEATS, "in": 1, "deep": 1, "models:": 2, "identifying": 1}
    assert [clause.text for clause in query.clauses].count("Shortcuts") == 1
