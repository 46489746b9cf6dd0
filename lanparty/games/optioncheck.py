"""The table options of any game checked against its ``OptionSpec`` list: one routine for
every game (each adds its own cross-option rules after it).

Every value comes from outside (the host's ``open`` entry, a command line): refusals quote
it only through ``excerpt``, so a huge or unprintable value never makes a huge message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from protocol.contract import OptionError, OptionSpec, Plain, excerpt

__all__ = ["check_options"]


def _shown(name: object) -> str:
    """An unknown option's name as a refusal may quote it."""
    if isinstance(name, str) and len(name) <= 40 and name.isprintable():
        return name
    return excerpt(name)


def check_options(
    game: str,
    specs: Sequence[OptionSpec],
    given: Mapping[str, Plain],
    spellings: Mapping[str, Mapping[object, str]] | None = None,
) -> dict[str, Plain]:
    """Every option of ``specs``: ``given``'s value or the default, checked (type, choices,
    range). ``spellings`` maps a boolean to a choice for options that take words (KaTO's
    ``stacking = false`` means ``off``). Raises ``OptionError`` naming the first bad option
    (an unknown name included)."""
    names = {spec.name for spec in specs}
    for name in given:
        if name not in names:
            raise OptionError(_shown(name), f"unknown option for {game}")
    out: dict[str, Plain] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        spelled = (spellings or {}).get(spec.name, {})
        if type(value) is bool and value in spelled:
            value = spelled[value]
        kind = type(spec.default)
        named = isinstance(spec.default, str) and bool(spec.choices)  # a word from a list
        if type(value) is not kind and not named:
            raise OptionError(spec.name, f"must be {kind.__name__}, got {excerpt(value)}")
        if spec.choices and (type(value) is not kind or value not in spec.choices):
            allowed = ", ".join(str(c) for c in spec.choices)
            raise OptionError(spec.name, f"must be one of {allowed}, got {excerpt(value)}")
        if isinstance(value, int) and not isinstance(value, bool):
            if spec.minimum is not None and value < spec.minimum:
                raise OptionError(spec.name, f"must be at least {spec.minimum}, got {value}")
            if spec.maximum is not None and value > spec.maximum:
                raise OptionError(spec.name, f"must be at most {spec.maximum}, got {value}")
        out[spec.name] = value
    return out
