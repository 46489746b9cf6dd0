"""``lanparty audit FILE``: re-verify a saved transcript offline and print the verdict.

The audit and its verdict are :mod:`lanparty.replay.audit`'s, the verdict's words and JSON
:mod:`lanparty.replay.auditwords`'; on a terminal a status line on stderr says how far the
replay got. Exit statuses:

- 0 (:data:`~lanparty.replay.audit.EXIT_PASSED`) the audit passed: complete, every seat
  signed off, every signature, proof, share and move checked; a rule broken that nobody
  challenged during play (a bluffed Wild Draw Four) is listed — the same verdict every peer
  reaches at the table;
- 1 (:data:`~lanparty.replay.audit.EXIT_FAILED`) the audit failed: an entry is forged,
  damaged, out of place or breaks a rule (named with its log position), or the file is not
  a transcript at all;
- 2 the file cannot be audited: missing, unreadable, empty, over the size limit, or of
  another version (:class:`lanparty.errors.NetError`, one line);
- 3 (:data:`~lanparty.replay.audit.EXIT_INCOMPLETE`) incomplete: every entry in the file
  verified, but the log stops before the end — the table stopped (someone left, vanished or
  stalled) or the file was cut. The log does not say why (the host's halt is not a signed
  entry), but it says where it stopped and whose entry the table was waiting for.
"""

from __future__ import annotations

import argparse
import json
import sys

from lanparty import i18n
from lanparty.commands.common import Command, net_errors
from lanparty.commands.progress import Progress
from lanparty.i18n import N_, _, catalogue
from lanparty.replay.audit import audit_file, refusal_text
from lanparty.replay.auditwords import verdict_json, verdict_text
from lanparty.text import printable, printable_lines

__all__ = ["COMMAND", "run_audit"]


def run_audit(args: argparse.Namespace) -> int:
    """``lanparty audit FILE [--json]``; the exit status is the verdict's (0 passed,
    1 failed, 3 incomplete: see the module's docstring). Raises :class:`NetError` for a
    file that cannot be audited (exit 2)."""
    with Progress() as progress:
        verdict = audit_file(args.file, progress=progress)
    if args.json:
        print(json.dumps(verdict_json(verdict)))
    elif verdict.error:
        error = verdict.error
        if verdict.refused is not None:  # told again in the reader's words
            error = refusal_text(verdict.path, verdict.refused, verdict, catalogue())
        print(printable(_("lanparty audit: FAILED: {error}").format(error=error)),
              file=sys.stderr)  # fmt: skip
    else:  # names and details come from the file: nothing in it may steer the terminal
        print(printable_lines(verdict_text(verdict).removesuffix("\n")))
    return verdict.exit_code


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=i18n._("a saved transcript (.lptx)"))
    p.add_argument("--json", action="store_true", help=i18n._("print the verdict as JSON"))



COMMAND = Command(
    "audit", N_("re-verify a saved game offline"), configure, net_errors(run_audit)
)
