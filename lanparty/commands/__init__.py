"""The commands a person types: ``lanparty play``, ``host``, ``join``, ``watch``, ``list``,
``lobby``, ``demo``, ``audit``, ``replay``, ``bench``, ``rules``.

``main`` parses the command line and calls the command's module; each module parses what
is its own, calls the layers below (a seat at a table in :mod:`lanparty.table`, the
screen in :mod:`lanparty.ui`, the replay and the audit in :mod:`lanparty.replay`, the
benchmark in :mod:`lanparty.bench`) and prints. Beside them: ``netargs`` and ``argwords``
(arguments shared by the network commands, and their words), ``locate`` (find a table by
name), ``whoami`` (your name and key) and ``progress`` (a line that says how far a long job
is).
"""
