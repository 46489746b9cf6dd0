"""The commands a person types, one module each: ``lobby``, ``play``, ``host``, ``join``,
``watch``, ``listing`` (``list``), ``demo``, ``rules``, ``audit``, ``replay``, ``bench``.

``main`` parses the command line and runs the command's ``COMMAND``; each module parses what
is its own, calls the layers below (a seat at a table in :mod:`lanparty.table`, the screen in
:mod:`lanparty.ui`, the replay and audit in :mod:`lanparty.replay`) and prints. Beside them:
``common`` (the one-line error, the shape of a command, a game and its options as typed),
``netargs`` and ``argwords`` (arguments shared by the network commands, and argparse's own
words), ``seating`` (a networked seat played headless or in the terminal) and ``progress``
(a line that says how far a long job is).
"""
