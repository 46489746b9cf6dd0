"""A seat at a table: the layer between the games and the screen.

``local`` (every seat in this process: ``play --offline``), ``networked`` (one seat of a
table on the network, or a spectator's), ``botseat`` (a bot playing a networked seat),
``terminal`` (the network run inside the screen's event loop), ``keeping`` (what a seat
keeps on disk to be resumed), ``outcome`` (how a table ended, as one summary) and
``stopwords`` (why a table stopped, in words). The network itself is :mod:`lanparty.net`,
below this; the screen, :mod:`lanparty.ui`, above.
"""
