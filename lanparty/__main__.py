"""``python -m lanparty``: the same as the ``lanparty`` command."""

from lanparty.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
