"""``python -m lanparty``: the same as the ``lanparty`` command."""

from lanparty.commands.main import main

if __name__ == "__main__":
    raise SystemExit(main())
