"""Tests of the terminal UI, the local session and the command line."""
