"""lanparty's peer protocol, sans-IO: a signed, hash-chained table log that runs whole games
with mental poker among peers who do not trust each other, the host included.

Layout (implementation in private modules; this file only re-exports):

- ``_codec``: canonical msgpack; ``_frames``: length-prefixed frames with a size limit;
- ``_messages``: frames (challenge, hello, watch, offer, propose, relay, refuse, halt, leave,
  say, said) and signed log entries, strictly decoded;
  ``_fields``: the strict readers of every field;
  ``_bodies``: one class per entry kind (:class:`OpenTable` with its :class:`NightLink`, the
  link between the games of a night at one table);
- ``_log``: the hash-chained log, crypto contexts, equivocation evidence, the transcript file;
- ``_deck``: the deck sub-protocol's schedule (joint shuffles, deals, reveals, show-to-one,
  coins); ``_steps``: its entries' duties, checks and results;
- ``_roles``: phases, members, one peer's secrets; ``_events``: what a peer reports;
- ``_table``: the replicated state machine every peer (and the offline audit) applies;
- ``_audit``: the end-of-game audit; ``_offline``: auditing a transcript file;
- ``_night``: the next game of a night at the same table (the host's offer, each seat's
  check of it, the next table's seats in the old order); ``_sit``: a spectator taking a
  free seat there, where the host allows it;
- ``_peer``: :class:`Peer` (``_held``: what a seat keeps so a host cannot roll it back;
  ``_seat``: what a peer and the host share);
  ``_host``: :class:`Host` (``_lobby``: its connections, held joins, kicks and spectators;
  ``_race``: its race window);
  ``_watcher``: :class:`Watcher`, a spectator; bytes in, events and bytes out;
- ``_talk``: table talk (signed lines kept out of the log; their bounds and rates);
- ``harness``: N peers in one process (tests, benchmark); ``bench``: the benchmark;
- ``contract``: the game contract every game implements; ``shapes``: the declared shapes of
  its moves and options, read before any game code sees a peer's value.

Errors: :class:`LocalProtocolError` (the caller misused the API) and
:class:`RemoteProtocolError` (a peer misbehaved; it is named). See ``docs/protocol.md``.
"""

from ._audit import ShowRecord
from ._bodies import NightLink, OpenTable
from ._checks import DeferredCheck, run_check
from ._codec import pack, unpack
from ._errors import LocalProtocolError, ProtocolError, RemoteProtocolError, VersionMismatchError
from ._events import (
    Answered,
    Applied,
    AuditFinished,
    AuditReport,
    Event,
    Finding,
    GameEnded,
    Holding,
    JoinAsked,
    Joined,
    JoinWithdrawn,
    MoveDropped,
    Offered,
    PhaseClosed,
    RaceOpened,
    Refused,
    Rejected,
    Removed,
    Returned,
    Said,
    SealedMove,
    SeatAsked,
    SeatDenied,
    SeatsFixed,
    SitRefused,
    Stopped,
    TableClosed,
    TalkRefused,
    TooFew,
)
from ._frames import MAX_FRAME, FrameReader, frame
from ._host import Host
from ._log import Equivocation, Log, context, read_transcript
from ._messages import (
    ENTRY_VERSION,
    ENTRY_VERSIONS,
    MAX_ENTRY,
    MAX_TABLE_NAME,
    PROTOCOL_VERSION,
    Challenge,
    Entry,
    Halt,
    Hello,
    Leave,
    Message,
    Offer,
    Propose,
    Refuse,
    Relay,
    SaidLine,
    Say,
    SignedEntry,
    Watch,
    decode_entry,
    decode_message,
    encode_message,
    race_rank,
    table_name_problem,
)
from ._night import check_offer, next_link
from ._offline import audit_transcript
from ._peer import Peer
from ._roles import PERSONS_CHOICE, Member, Phase, Private
from ._sit import SIT_POS
from ._table import Table
from ._talk import MAX_TALK, TALK_BURST, TALK_EVERY, talk_problem
from ._watcher import Watcher

__all__ = [
    "ENTRY_VERSION",
    "ENTRY_VERSIONS",
    "MAX_ENTRY",
    "MAX_FRAME",
    "MAX_TABLE_NAME",
    "MAX_TALK",
    "PERSONS_CHOICE",
    "PROTOCOL_VERSION",
    "SIT_POS",
    "TALK_BURST",
    "TALK_EVERY",
    "Answered",
    "Applied",
    "AuditFinished",
    "AuditReport",
    "Challenge",
    "DeferredCheck",
    "Entry",
    "Equivocation",
    "Event",
    "Finding",
    "FrameReader",
    "GameEnded",
    "Halt",
    "Hello",
    "Holding",
    "Host",
    "JoinAsked",
    "JoinWithdrawn",
    "Joined",
    "Leave",
    "LocalProtocolError",
    "Log",
    "Member",
    "Message",
    "MoveDropped",
    "NightLink",
    "Offer",
    "Offered",
    "OpenTable",
    "Peer",
    "Phase",
    "PhaseClosed",
    "Private",
    "Propose",
    "ProtocolError",
    "RaceOpened",
    "Refuse",
    "Refused",
    "Rejected",
    "Relay",
    "RemoteProtocolError",
    "Removed",
    "Returned",
    "Said",
    "SaidLine",
    "Say",
    "SealedMove",
    "SeatAsked",
    "SeatDenied",
    "SeatsFixed",
    "ShowRecord",
    "SignedEntry",
    "SitRefused",
    "Stopped",
    "Table",
    "TableClosed",
    "TalkRefused",
    "TooFew",
    "VersionMismatchError",
    "Watch",
    "Watcher",
    "audit_transcript",
    "check_offer",
    "context",
    "decode_entry",
    "decode_message",
    "encode_message",
    "frame",
    "next_link",
    "pack",
    "race_rank",
    "read_transcript",
    "run_check",
    "table_name_problem",
    "talk_problem",
    "unpack",
]
