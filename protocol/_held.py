"""What a seat holds of the log, kept across a restart so the host cannot roll it back.

A seat whose program restarts (``lanparty join --resume``) is given the whole log again by
the host. A host that gave it an *earlier* cut of its journal could make the seat act twice
from one position: see one decryption share, or one coin contribution, in the first branch,
and steer the second. So before anything a seat signs leaves its machine, the seat keeps
(:class:`Held`):

- the last entry it had applied: its position, its hash and the host's relay signature over
  it (the host's own word that it sequenced that entry there; the hash chain vouches for
  everything before it);
- the last entry it signed, whole (it may not have been sequenced yet).

Taking its seat back, it refuses a log that does not contain the entry it had applied (a
shorter log, or another entry at that position), and a log that put another entry where its
signed one went (unless that entry could legitimately win the position: moves, sealed-move
commitments and joins race for positions; a duty does not). Its last signed entry, if the
host never sequenced it, is proposed again byte for byte: the seat never signs two different
things for one position of one history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ._bodies import KEY_BYTES
from ._codec import pack, unpack
from ._errors import LocalProtocolError, RemoteProtocolError
from ._messages import SIG_BYTES, SignedEntry, decode_entry

__all__ = ["RACING_KINDS", "Held"]

#: Entry kinds that may lose their log position to another seat's entry (a race or a free
#: turn): a seat whose such entry was not sequenced has not been rolled back.
RACING_KINDS: Final = frozenset({"move", "seal_commit", "seal_close", "join"})
_MAX_HELD: Final = 1 << 21


@dataclass(frozen=True, slots=True)
class Held:
    """A seat's hold on the log: the host's key, the last entry it applied (position, hash,
    the host's relay signature) and the last it signed (whole), if any."""

    host: bytes
    applied: int
    head: bytes
    seq: bytes
    signed: SignedEntry | None = None

    def to_bytes(self) -> bytes:
        """The form kept with the seat's secrets."""
        signed = [self.signed.raw, self.signed.sig] if self.signed is not None else None
        return pack([self.host, self.applied, self.head, self.seq, signed])

    @classmethod
    def from_bytes(cls, blob: bytes) -> Held:
        """Read what :meth:`to_bytes` kept; raises :class:`LocalProtocolError` if it is
        damaged (it is our own file: nothing to blame a peer for)."""
        try:
            value = unpack(blob, _MAX_HELD)
            if not isinstance(value, list) or len(value) != 5:
                raise ValueError("not a held record")
            host, applied, head, seq, signed = value
            if not isinstance(host, bytes) or len(host) != KEY_BYTES:
                raise ValueError("bad host key")
            if type(applied) is not int or applied < 0:
                raise ValueError("bad position")
            if not (isinstance(head, bytes) and isinstance(seq, bytes) and len(seq) == SIG_BYTES):
                raise ValueError("bad head")
            se: SignedEntry | None = None
            if signed is not None:
                if not (isinstance(signed, list) and len(signed) == 2
                        and all(isinstance(x, bytes) for x in signed)):  # fmt: skip
                    raise ValueError("bad signed entry")
                se = SignedEntry(signed[0], signed[1], decode_entry(signed[0]))
        except (ValueError, RemoteProtocolError) as exc:
            raise LocalProtocolError(f"the kept record of the log is damaged: {exc}") from None
        return cls(host, applied, head, seq, se)

    @property
    def until(self) -> int:
        """The first log length at which everything held has been checked."""
        last = self.signed.entry.pos if self.signed is not None else -1
        return max(self.applied, last) + 1
