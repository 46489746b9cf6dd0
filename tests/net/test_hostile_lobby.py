"""A stranger on the LAN against a real host process waiting for players: nothing one sends
ends the host, costs it much, or stays with it. Every attack here once ended or bled a host
(issue 9); each test checks the host is still alive and serving after it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from crypto import CardSet, Identity, KeyShare, shuffle
from lanparty.games import GAMES
from protocol import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Challenge,
    Entry,
    Propose,
    Refuse,
    Relay,
    SignedEntry,
    Table,
)
from protocol._bodies import Join, ShuffleBody

from .conftest import LANPARTY
from .hostile import Stranger, cpu_seconds, rss_kib, version_frame


class Lobby:
    """A bot host with four seats and nobody coming: it waits, as at a real game night."""

    def __init__(self, home: Path) -> None:
        env = {**os.environ, "LANPARTY_HOME": str(home)}
        self.proc = subprocess.Popen(
            [*LANPARTY, "host", "kato", "--bot", "--local", "--seats", "4", "--nick", "hugo"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if line.startswith("table "):
                self.endpoint = line.split(" on ")[1].split(" ")[0]
                break
        else:
            raise AssertionError("the host did not open its table")

    def serving(self) -> None:
        """The host process lives and a newcomer is still served: challenged, then given the
        log after its hello."""
        assert self.proc.poll() is None, "the host process ended"
        s = Stranger(self.endpoint)
        challenge = s.hello()
        assert challenge.pos >= 1
        assert isinstance(s.next_message(), Relay)  # the opening entry
        s.close()

    def close(self) -> str:
        self.proc.kill()
        _, err = self.proc.communicate()
        return err


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lobby]:
    host = Lobby(tmp_path_factory.mktemp("lobby"))
    yield host
    err = host.close()
    assert "Traceback" not in err, err


def _refusal(messages: list[object]) -> Refuse:
    assert messages and isinstance(messages[-1], Refuse), messages
    refusal = messages[-1]
    assert refusal.fatal
    return refusal


def test_one_oversized_frame_from_a_stranger_gets_a_short_refusal(lobby: Lobby) -> None:
    s = Stranger(lobby.endpoint)
    s.send_payload({"v": PROTOCOL_VERSION, "type": "\x00" * 300_000})
    refusal = _refusal(s.rest())  # and then the host hangs up
    assert "unknown message type" in refusal.reason
    assert len(refusal.reason) <= 120 and refusal.reason.isprintable()
    assert s.received < 1024  # the challenge and the refusal, nothing quoted at length
    lobby.serving()


def test_an_oversized_length_prefix_gets_the_documented_refusal(lobby: Lobby) -> None:
    s = Stranger(lobby.endpoint)
    s.send((1 << 31).to_bytes(4, "big"))
    refusal = _refusal(s.rest())
    assert f"exceeds the {MAX_FRAME} limit" in refusal.reason
    lobby.serving()


def _replica(s: Stranger, challenge: Challenge) -> Table:
    """A spectator's copy of the table, from the log the host relays after the hello."""
    table = Table(GAMES)
    while len(table.log) < challenge.pos:
        msg = s.next_message()
        assert isinstance(msg, Relay)
        table.apply(SignedEntry.parse(msg.raw, msg.sig), msg.seq)
    return table


def test_a_small_order_seal_key_is_refused_at_the_join(lobby: Lobby) -> None:
    """u = 1 is a point of order 4 on Curve25519: anything sealed to it would leak, and once
    made a holder's seal() fail mid-game. It is refused where it enters, by every copy."""
    eve = Identity()
    s = Stranger(lobby.endpoint)
    table = _replica(s, s.hello(eve))
    low = (1).to_bytes(32, "little")
    entry = Entry(table.table_id, len(table.log), table.log.head, eve.public.raw, Join("eve", low))
    se = SignedEntry.create(eve, entry)
    s.send_message(Propose(se.raw, se.sig))
    refusal = _refusal(s.rest())
    assert "seal public key: a small-order point is refused" in refusal.reason
    lobby.serving()


def test_garbage_connections_leave_the_host_no_bigger(lobby: Lobby) -> None:
    """400 connections, each one frame that earns a refusal: the host keeps a bounded record
    (it once kept each error's full text and sent each a refusal as large as the frame)."""
    pid = lobby.proc.pid
    garbage = version_frame("x" * 200_000)
    lobby.serving()  # warmed up: what grows from here on is what the attack costs
    before = rss_kib(pid)
    for _ in range(400):
        s = Stranger(lobby.endpoint)
        s.send(garbage)
        _refusal(s.rest())
        assert s.received < 1024
        s.close()
    grown = rss_kib(pid) - before
    assert grown < 16 * 1024, f"the host grew by {grown} KiB"
    lobby.serving()


@pytest.fixture(scope="module")
def big_shuffle_entry() -> tuple[Identity, SignedEntry]:
    """A ~205 KiB proposal full of valid curve points: a real shuffle of 1000 cards with its
    proof, signed by a stranger's key (validating its points cost a host ~0.3 s)."""
    mallory = Identity()
    deck = CardSet("mallory", 1000).open_mask(KeyShare().public)
    out, proof = shuffle(deck, KeyShare().public, b"ctx")
    body = ShuffleBody(tuple(out), proof)
    se = SignedEntry.create(mallory, Entry(bytes(16), 1, bytes(32), mallory.public.raw, body))
    assert 180 << 10 < len(se.raw) < 260 << 10
    return mallory, se


def test_unauthenticated_proposals_cost_little_and_end_the_connection(
    lobby: Lobby, big_shuffle_entry: tuple[Identity, SignedEntry]
) -> None:
    """The host checks who speaks (hello, signature, seat, size) before it validates a single
    point, and hangs up on a frame no honest peer sends."""
    mallory, se = big_shuffle_entry
    pid = lobby.proc.pid
    frame_bytes = version_frame("propose", entry=se.raw, sig=se.sig)
    spent = cpu_seconds(pid)
    for _ in range(10):  # before any hello
        s = Stranger(lobby.endpoint)
        s.send(frame_bytes * 3)
        assert "before the hello" in _refusal(s.rest()).reason
    s = Stranger(lobby.endpoint)  # after a hello, with no seat
    s.hello(mallory)
    s.send(frame_bytes * 10)
    reasons = [m.reason for m in s.rest() if isinstance(m, Refuse)]
    assert len(reasons) == 1 and "only a join" in reasons[0]
    spent = cpu_seconds(pid) - spent
    assert spent < 1.0, f"the host spent {spent:.2f} s of CPU on 40 unauthenticated proposals"
    lobby.serving()
