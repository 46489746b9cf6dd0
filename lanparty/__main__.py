"""``python -m lanparty``: the same as the ``lanparty`` command.

Every peer a command starts runs as ``python -m lanparty``, so its start costs are paid many
times over: the cyclic garbage collector is kept off while the program's modules are
imported (nothing they make is garbage: several full collections over a growing heap, for
nothing), and what they made is then moved out of its sight (``gc.freeze``), so the
collections the game's own objects cause do not walk every module's objects again.
"""

import gc

if __name__ == "__main__":
    gc.disable()

from lanparty.commands.main import main  # after the collector is off

if __name__ == "__main__":
    gc.freeze()
    gc.enable()
    raise SystemExit(main())
