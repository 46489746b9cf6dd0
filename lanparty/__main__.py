"""``python -m lanparty``: the same as the ``lanparty`` command."""

from lanparty.cli import main

raise SystemExit(main())
