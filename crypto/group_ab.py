"""A/B of the group: edwards25519 (protocol version 2, through PyNaCl) against ristretto255
(today, through ``rbcl``), measured operation by operation in one process; prints one JSON
object.

    python -m crypto.group_ab [--repeat 3]

Each figure is the best of ``repeat`` timings of ``N`` calls, in microseconds, and in ``u``
(one edwards25519 variable-base multiplication measured here). What a shuffle of ``n`` cards
costs follows from the counts in ``docs/crypto.md``: the multiplications are the same in both
groups; what differs is the check of each point decoded from the wire (a deck and its proof
bring about ``3n`` points) and the price of one multiplication. The estimate printed per card
assumes the edwards25519 counts of version 2 (``--prove-mults``, ``--verify-mults``: 8.7 and
9.6 from ``python -m crypto.bench`` there).
This module asserts nothing and is not imported by the program.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from nacl import bindings

from ._group import encode_scalar, random_scalar

N = 2000


def _best_us(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(N):
            fn()
        best = min(best, (time.perf_counter() - start) / N)
    return best * 1e6


def _edwards(repeat: int) -> dict[str, float]:
    s = encode_scalar(random_scalar())
    p = bindings.crypto_scalarmult_ed25519_base_noclamp(encode_scalar(random_scalar()))
    q = bindings.crypto_scalarmult_ed25519_base_noclamp(encode_scalar(random_scalar()))
    return {
        "mul_us": _best_us(lambda: bindings.crypto_scalarmult_ed25519_noclamp(s, p), repeat),
        "base_mul_us": _best_us(
            lambda: bindings.crypto_scalarmult_ed25519_base_noclamp(s), repeat
        ),
        "add_us": _best_us(lambda: bindings.crypto_core_ed25519_add(p, q), repeat),
        "decode_check_us": _best_us(
            lambda: bindings.crypto_core_ed25519_is_valid_point(p), repeat
        ),
    }


def _ristretto(repeat: int) -> dict[str, float]:
    import rbcl  # type: ignore[import-not-found, import-untyped, unused-ignore]

    r: Any = rbcl
    s = r.crypto_core_ristretto255_scalar_random()
    p = r.crypto_scalarmult_ristretto255_base(r.crypto_core_ristretto255_scalar_random())
    q = r.crypto_scalarmult_ristretto255_base(r.crypto_core_ristretto255_scalar_random())
    return {
        "mul_us": _best_us(lambda: r.crypto_scalarmult_ristretto255(s, p), repeat),
        "base_mul_us": _best_us(lambda: r.crypto_scalarmult_ristretto255_base(s), repeat),
        "add_us": _best_us(lambda: r.crypto_core_ristretto255_add(p, q), repeat),
        "decode_check_us": _best_us(
            lambda: r.crypto_core_ristretto255_is_valid_point(p), repeat
        ),
    }


def run(repeat: int, prove_mults: float, verify_mults: float) -> dict[str, object]:
    """Every figure, measured now; per-card estimates from the given multiplication counts."""
    ed = _edwards(repeat)
    try:
        ri: dict[str, float] | None = _ristretto(repeat)
    except ImportError:
        ri = None
    u = ed["mul_us"]
    out: dict[str, object] = {
        "u_us": round(u, 2),
        "edwards25519_u": {k: round(v / u, 3) for k, v in ed.items()},
    }

    def per_card(g: dict[str, float]) -> dict[str, float]:
        mul = g["mul_us"] / u
        return {
            "prove_u": round(prove_mults * mul, 2),
            "check_u": round(verify_mults * mul + 3 * g["decode_check_us"] / u, 2),
        }

    out["edwards25519_per_card"] = per_card(ed)
    if ri is None:
        out["ristretto255"] = "not measured: pip install rbcl"
    else:
        out["ristretto255_u"] = {k: round(v / u, 3) for k, v in ri.items()}
        out["ristretto255_per_card"] = per_card(ri)
    return out


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, measure, print the JSON."""
    parser = argparse.ArgumentParser(prog="python -m crypto.group_ab", description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="timings per figure (best)")
    parser.add_argument("--prove-mults", type=float, default=8.7,
                        help="multiplications per card to prove (crypto.bench)")  # fmt: skip
    parser.add_argument("--verify-mults", type=float, default=9.6,
                        help="multiplications per card to verify (crypto.bench)")  # fmt: skip
    args = parser.parse_args(argv)
    if not 1 <= args.repeat <= 20:
        parser.error("--repeat must be 1..20")
    print(json.dumps(run(args.repeat, args.prove_mults, args.verify_mults)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
