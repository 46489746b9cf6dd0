"""Replaying a saved game: ``course`` (the states of a transcript, step by step) and
``view`` (the full-screen viewer over them)."""
