"""A finished game, from its transcript: ``audit`` (re-verify the file offline: the
:class:`~lanparty.replay.audit.Verdict`), ``auditwords`` (the verdict told: in the reader's
words, and as JSON), ``course`` (the states of a transcript, step by step) and ``view`` (the
full-screen viewer over them)."""
