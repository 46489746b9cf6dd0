"""Benchmark of the mental-poker core (prints one JSON object; asserts nothing).

    python -m crypto.bench [--cards 108] [--players 4] [--repeat 5]

Every figure is measured in this run, in this process. ``*_mults_per_card`` divide a shuffle
time by the cost of ``cards`` variable-base multiplications measured here, so they compare
across machines. The unit ``u`` (``scalarmult_us``) is one edwards25519 variable-base
multiplication through PyNaCl, the unit the figures were first given in, although the group
is now ristretto255 (whose multiplication costs about half a ``u``).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version

from nacl import bindings

from . import (
    CardSet,
    DecryptionShare,
    G,
    KeyShare,
    Point,
    ShareBatch,
    ShuffleProof,
    deck_from_wire,
    deck_to_wire,
    joint_key,
    random_scalar,
    shuffle,
    unmask_with_own,
    verified_afresh,
    verify_shuffle,
)
from ._group import encode_scalar


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _scalarmult_us() -> float:
    s = encode_scalar(random_scalar())
    p = bindings.crypto_scalarmult_ed25519_base_noclamp(encode_scalar(random_scalar()))
    n = 2000
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            bindings.crypto_scalarmult_ed25519_noclamp(s, p)
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


def _decode_us() -> float:
    """Best time of one :meth:`Point.decode` of a valid point, in microseconds."""
    encoded = (G * random_scalar()).encode()
    n = 5000
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            Point.decode(encoded)
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


def shuffle_costs(cards: int, repeat: int) -> tuple[float, float, float]:
    """``(prove_s, verify_s, decode_s)`` of one shuffle of ``cards`` cards at a table of two
    keys, medians over ``repeat`` runs in this process (decoding: the new deck and the proof
    read from the wire, every point checked)."""
    keys = [KeyShare(), KeyShare()]
    ctxs = [b"bench/key/0", b"bench/key/1"]
    table_key = joint_key([k.prove(c) for k, c in zip(keys, ctxs, strict=True)], ctxs)
    deck = CardSet("bench", cards).open_mask(table_key)
    out, proof = shuffle(deck, table_key, b"bench/shuffle")
    wire = (deck_to_wire(out), proof.to_wire())
    prove_s = _median(lambda: shuffle(deck, table_key, b"bench/shuffle"), repeat)
    with verified_afresh():  # the same proof each time: verified in full each time
        verify_s = _median(
            lambda: verify_shuffle(deck, out, table_key, proof, b"bench/shuffle"), repeat
        )
    decode_s = _median(
        lambda: (deck_from_wire(wire[0], cards), ShuffleProof.from_wire(wire[1], cards)), repeat
    )
    return prove_s, verify_s, decode_s


def run(cards: int, players: int, repeat: int) -> dict[str, object]:
    """Measure every figure once (medians over ``repeat``) and return them."""
    keys = [KeyShare() for _ in range(players)]
    ctxs = [b"bench/key/%d" % i for i in range(players)]
    table_key = joint_key([k.prove(c) for k, c in zip(keys, ctxs, strict=True)], ctxs)
    deck = CardSet("bench", cards).open_mask(table_key)
    mult_us = _scalarmult_us()

    out, proof = shuffle(deck, table_key, b"bench/shuffle")
    wire = (deck_to_wire(out), proof.to_wire())
    prove_s, verify_s, decode_s = shuffle_costs(cards, repeat)

    def joint() -> None:
        d = deck
        for author in range(players):
            ctx = b"bench/joint/%d" % author
            o, p = shuffle(d, table_key, ctx)
            w = (deck_to_wire(o), p.to_wire())
            for verifier in range(players):
                if verifier != author:
                    verify_shuffle(
                        d,
                        deck_from_wire(w[0], cards),
                        table_key,
                        ShuffleProof.from_wire(w[1], cards),
                        ctx,
                    )
            d = o

    with verified_afresh():  # each verifier stands for a peer of its own: all verify in full
        joint_s = _median(joint, max(1, repeat // 2))

    ct = out[0]

    def deal() -> None:
        # Every other peer proves its share; the recipient verifies each and unmasks.
        shares = [
            (i, DecryptionShare.create(keys[i], ct, b"bench/deal")) for i in range(1, players)
        ]
        for i, sh in shares:
            DecryptionShare.from_wire(sh.to_wire()).verify(keys[i].public, ct, b"bench/deal")
        unmask_with_own(ct, [sh.d for _, sh in shares], keys[0])

    share = DecryptionShare.create(keys[1], ct, b"bench/dleq")
    dealt = out[:21]  # a 4-player KaTO deal: one seat's shares of the other hands
    batch = ShareBatch.create(keys[1], dealt, b"bench/batch")
    batch_prove_s = _median(lambda: ShareBatch.create(keys[1], dealt, b"bench/batch"), repeat * 5)
    batch_verify_s = _median(lambda: batch.verify(keys[1].public, dealt, b"bench/batch"),
                             repeat * 5)  # fmt: skip
    deal_s = _median(deal, repeat * 20)
    prove_ms = _median(lambda: DecryptionShare.create(keys[1], ct, b"bench/dleq"), repeat * 50)
    verify_ms = _median(lambda: share.verify(keys[1].public, ct, b"bench/dleq"), repeat * 50)

    per_card = cards * mult_us / 1e6
    return {
        "cards": cards,
        "players": players,
        "repeat": repeat,
        "scalarmult_us": round(mult_us, 2),
        "shuffle_prove_s": round(prove_s, 4),
        "shuffle_verify_s": round(verify_s, 4),
        "shuffle_decode_s": round(decode_s, 4),
        "point_decode_us": round(_decode_us(), 2),
        "prove_mults_per_card": round(prove_s / per_card, 2),
        "verify_mults_per_card": round(verify_s / per_card, 2),
        "verify_with_decode_mults_per_card": round((verify_s + decode_s) / per_card, 2),
        "joint_shuffle_s": round(joint_s, 3),
        "deal_card_ms": round(deal_s * 1e3, 3),
        "dleq_prove_ms": round(prove_ms * 1e3, 3),
        "dleq_verify_ms": round(verify_ms * 1e3, 3),
        "dleq_prove_mults": round(prove_ms * 1e6 / mult_us, 2),
        "dleq_verify_mults": round(verify_ms * 1e6 / mult_us, 2),
        "batch_shares": len(dealt),
        "batch_prove_mults_per_share": round(batch_prove_s * 1e6 / mult_us / len(dealt), 2),
        "batch_verify_mults_per_share": round(batch_verify_s * 1e6 / mult_us / len(dealt), 2),
        "proof_bytes": sum(len(x) for x in _flatten(wire[1])),
        "python": platform.python_version(),
        "pynacl": version("PyNaCl"),
        "rbcl": version("rbcl"),
        "libsodium": f"bundled with rbcl {version('rbcl')} (the group) and PyNaCl (u)",
        "cryptography": version("cryptography"),
    }


def _flatten(value: object) -> list[bytes]:
    if isinstance(value, bytes):
        return [value]
    if isinstance(value, list):
        return [b for v in value for b in _flatten(v)]
    return []


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(
        prog="python -m crypto.bench", description="Benchmark lanparty's mental-poker core."
    )
    parser.add_argument("--cards", type=int, default=108, help="deck size (default 108)")
    parser.add_argument("--players", type=int, default=4, help="peers at the table (default 4)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per figure (default 5)")
    args = parser.parse_args(argv)
    if not 2 <= args.cards <= 1024:
        parser.error("--cards must be 2..1024")
    if not 2 <= args.players <= 10:
        parser.error("--players must be 2..10")
    if not 1 <= args.repeat <= 100:
        parser.error("--repeat must be 1..100")
    print(json.dumps(run(args.cards, args.players, args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
