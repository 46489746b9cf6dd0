"""The LAN model of ``lanparty bench --lan-model``: the joint shuffle's critical path as if
each peer had a machine of its own (this one), from proof and check times measured here.

On one machine every peer's work competes for the same cores, so ``joint_shuffle_s`` measured
over loopback is mostly the sum of everyone's work. At a game night each peer brings its own
computer. The model composes the measured times along the real message order of a joint
shuffle (``protocol._checks``): seat ``k`` proves its shuffle as soon as seat ``k − 1``'s
reaches it (the host relays a shuffle once its place is right, before checking it); every
peer checks each shuffle it did not make in a thread of its own, one after another, beside
its own proving; the joint shuffle is done once every peer has checked every shuffle. Each
message crosses the LAN twice (to the host, then relayed), ``hop_s`` each.
"""

from __future__ import annotations

from crypto.bench import shuffle_costs

__all__ = ["HOP_S", "compose", "lan_model", "measure_costs"]

HOP_S = 0.0005
"""One message across a wired LAN (a switch, small frames): half a millisecond."""


def compose(players: int, prove_s: float, check_s: float, hop_s: float = HOP_S) -> float:
    """The joint shuffle's critical path in seconds for ``players`` peers, each proving in
    ``prove_s`` and checking one shuffle in ``check_s`` (decoding included)."""
    if players < 1 or prove_s < 0 or check_s < 0 or hop_s < 0:
        raise ValueError("players must be at least 1 and every time non-negative")
    arrives = [0.0] * players  # when shuffle k reaches the peers (relayed by the host)
    ready = 0.0  # when the next shuffler holds the deck it shuffles
    for k in range(players):
        done = ready + prove_s
        arrives[k] = done + 2 * hop_s
        ready = arrives[k]
    finished = 0.0
    for peer in range(players):
        free = 0.0  # its checking thread, one shuffle after another
        for k in range(players):
            if k != peer:
                free = max(free, arrives[k]) + check_s
        finished = max(finished, free, arrives[-1])
    return finished


def measure_costs(cards: int, repeat: int = 3) -> tuple[float, float]:
    """``(prove_s, check_s)`` for one shuffle of ``cards`` cards, medians over ``repeat``
    runs in this process (``crypto.bench.shuffle_costs``); the check includes decoding the
    deck and proof from the wire."""
    prove_s, verify_s, decode_s = shuffle_costs(cards, repeat)
    return prove_s, verify_s + decode_s


def lan_model(players: int, cards: int) -> dict[str, float]:
    """The ``--lan-model`` figures for ``players`` peers shuffling ``cards`` cards:
    ``lan_model_prove_s`` and ``lan_model_check_s`` measured here (:func:`measure_costs`),
    and ``lan_model_joint_shuffle_s`` composed from them (:func:`compose`)."""
    prove_s, check_s = measure_costs(cards)
    return {
        "lan_model_prove_s": round(prove_s, 4),
        "lan_model_check_s": round(check_s, 4),
        "lan_model_joint_shuffle_s": round(compose(players, prove_s, check_s), 3),
    }
