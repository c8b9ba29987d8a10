"""What the shared vectors cannot write down: Python-only inputs to the JavaScript rules (int keys,
ints past 2**53, values that contain themselves). The rules themselves are pinned by vectors/."""

from __future__ import annotations

import math

from statewire_nodes.jsvalues import js_key_order, js_number, number_text, utf16_len, utf16_prefix
from statewire_nodes.preview import bounded_json, preview_keyed


def test_int_keys_order_as_the_strings_javascript_would_see():
    assert js_key_order(["b", 10, "2", True, "-1", "4294967294", "4294967295"]) == [
        "2",
        10,
        "4294967294",
        "b",
        True,
        "-1",
        "4294967295",  # past the largest array index: an ordinary key
    ]
    assert preview_keyed({"ep": 1, 3: 2}) == {"keys": 2, "preview": "[3] 2"}


def test_ints_past_2_53_print_as_the_double_javascript_holds():
    assert number_text(2**53) == "9007199254740992"
    assert number_text(2**53 + 1) == "9007199254740992"
    assert number_text(10**21) == "1e+21"
    assert number_text(10**400) == "Infinity" and number_text(-(10**400)) == "-Infinity"


def test_number_text_rounds_trips_like_javascript():
    assert [number_text(x) for x in (5e-324, 1.7976931348623157e308, -0.0, 123e-20, 1e-6, 1e-7)] == [
        "5e-324",
        "1.7976931348623157e+308",
        "0",
        "1.23e-18",
        "0.000001",
        "1e-7",
    ]


def test_js_number_of_python_only_values():
    assert js_number((4,)) == 4  # a tuple travels as a list
    assert math.isnan(js_number({1}))  # JavaScript has no sets: read as an object would be


def test_utf16_helpers_count_astral_characters_twice():
    assert utf16_len("a\U0001F600") == 3
    assert utf16_prefix("a\U0001F600b", 2) == "a"
    assert utf16_prefix("a\U0001F600b", 3) == "a\U0001F600"


def test_a_value_that_contains_itself_previews_without_hanging():
    loop: dict = {"a": 1}
    loop["self"] = loop
    assert bounded_json(loop) == '{"a":1,"self":"[circular]"}'
    items: list = [1]
    items.append(items)
    assert bounded_json(items) == '[1,"[circular]"]'
