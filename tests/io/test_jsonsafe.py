"""The strict JSON reader's depth scan and the stable pretty writer."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import LoadError
from twtw_desktop.io.jsonsafe import MAX_DEPTH, dumps_pretty, max_depth, parse_json

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    # brackets, quotes and backslashes inside strings must not confuse the scan
    | st.text(alphabet='[]{}"\\ab,:\n\t\u00e9', max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=40,
)


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


@settings(max_examples=200)
@given(json_values)
def test_depth_scan_agrees_with_the_real_nesting(value):
    assert max_depth(json.dumps(value)) == depth(value)
    assert max_depth(dumps_pretty(value)) == depth(value)


@settings(max_examples=200)
@given(json_values)
def test_pretty_output_parses_back_to_the_same_value(value):
    text = dumps_pretty(value)
    assert json.loads(text) == value
    assert parse_json("x", text) == value
    assert dumps_pretty(value) == text


def test_depth_limit_is_exact():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json("x", ok) is not None
    too_deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(LoadError, match="nested more than 64"):
        parse_json("x", too_deep)


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"text": "[" * 5000 + '\\"{' * 100})
    assert max_depth(text) == 1
    assert parse_json("x", text)["text"].startswith("[[[")


def test_unterminated_string_cannot_hide_nesting():
    # the text after a stray quote is all "inside a string", so it cannot add depth
    assert max_depth('["abc' + "[" * 1000) == 1
    with pytest.raises(LoadError, match="not valid JSON"):
        parse_json("x", '["abc' + "[" * 1000)


def test_huge_flat_input_is_scanned_quickly_enough_to_finish():
    text = "[" + "[]," * 2_000_000 + "[]]"
    assert max_depth(text) == 2


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": [1, NaN]}', "a.1"),
        ('{"a": {"b": Infinity}}', "a.b"),
        ('{"a": -Infinity}', "a"),
        ("[1e400]", "0"),
    ],
)
def test_non_finite_numbers_are_located(text, where):
    with pytest.raises(LoadError, match="finite") as e:
        parse_json("f.json", text)
    assert e.value.where == where


def test_bad_json_gives_line_and_column():
    with pytest.raises(LoadError) as e:
        parse_json("f.json", '{\n "a": 1,\n "b": }')
    assert e.value.where == "line 3, column 7"
    assert str(e.value).startswith("f.json at line 3, column 7: not valid JSON")


def test_enormous_integers_are_refused_not_crashing():
    with pytest.raises(LoadError, match="not valid JSON"):
        parse_json("f.json", "[" + "9" * 5000 + "]")


def test_layout_rows_and_packing():
    value = {
        "terrain": ["....", "rrrr"],
        "elevation": [[0, 1, 2, 3], [4, 5, 6, 7]],
        "points": [[float(i), float(i) / 3] for i in range(30)],
        "short": {"a": 1},
    }
    text = dumps_pretty(value)
    lines = text.splitlines()
    assert '  "....",' in lines and '  "rrrr"' in lines
    assert "  [0, 1, 2, 3]," in lines
    assert ' "short": {"a": 1}' in lines
    assert max(len(line) for line in lines) <= 100
    assert json.loads(text) == value
