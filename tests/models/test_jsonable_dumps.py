"""The JSON text `gpuviz compute` prints: the same data as json.dumps, long arrays on one line."""

import json

from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.jsonable import dumps

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                    st.floats(allow_nan=False, allow_infinity=False))
plain = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=20)


@given(plain)
def test_the_text_reads_back_as_the_same_data(value):
    assert json.loads(dumps(value)) == value


def test_objects_are_indented_and_arrays_of_numbers_stay_on_one_line():
    text = dumps({"steps": list(range(1000)), "order": [[0, 1], [1, 1]], "runs": [{"a": 1}]})
    assert text.splitlines() == [
        "{",
        '  "steps": [' + ", ".join(map(str, range(1000))) + "],",
        '  "order": [[0, 1], [1, 1]],',
        '  "runs": [',
        "    {",
        '      "a": 1',
        "    }",
        "  ]",
        "}",
    ]
