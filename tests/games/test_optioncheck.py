"""The option check every game shares: defaults filled, types, choices and ranges checked, a
hostile value quoted short, an unknown name quoted only if it is short and printable."""

from __future__ import annotations

import pytest

from lanparty.games.optioncheck import check_options
from protocol.contract import OptionError, OptionSpec

SPECS = (
    OptionSpec("rounds", 3, "rounds", minimum=1, maximum=9),
    OptionSpec("mode", "soft", "mode", choices=("soft", "hard", "off")),
    OptionSpec("fast", False, "fast", choices=(True, False)),
)


def test_defaults_and_given_values() -> None:
    assert check_options("g", SPECS, {}) == {"rounds": 3, "mode": "soft", "fast": False}
    assert check_options("g", SPECS, {"rounds": 9, "mode": "hard"})["rounds"] == 9


def test_a_boolean_may_spell_a_word() -> None:
    out = check_options("g", SPECS, {"mode": False}, {"mode": {False: "off"}})
    assert out["mode"] == "off"


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ({"rounds": 0}, "at least 1"),
        ({"rounds": 10}, "at most 9"),
        ({"rounds": True}, "must be int"),
        ({"mode": "loud"}, "must be one of soft, hard, off"),
        ({"mode": 1}, "must be one of"),
        ({"fast": "yes"}, "must be bool"),
        ({"colour": 1}, "unknown option for g"),
    ],
)
def test_bad_values_are_named(given: dict[str, object], why: str) -> None:
    with pytest.raises(OptionError, match=why):
        check_options("g", SPECS, given)  # type: ignore[arg-type]


def test_hostile_values_and_names_are_quoted_short() -> None:
    with pytest.raises(OptionError) as info:
        check_options("g", SPECS, {"mode": "x" * 100_000})
    assert len(str(info.value)) < 300
    with pytest.raises(OptionError) as info:
        check_options("g", SPECS, {"\x00" * 5000: 1})
    assert len(str(info.value)) < 300 and "\x00" not in str(info.value)
