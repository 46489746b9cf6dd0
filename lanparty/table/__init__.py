"""A seat at a table: the layer between the games and the screen.

What a seat was asked to be: ``plan`` (the commands fill a
:class:`~lanparty.table.plan.TablePlan`). Where it sits: ``local`` (every seat in this
process: ``play --offline``), ``hosting`` (the host of a table on the network: listen,
announce, start the bot peers, serve), ``joining`` (find a table with ``locate``, take a
seat or a saved seat back), ``watching`` (a spectator); ``networked`` (what one networked
seat sees and may do), ``botseat`` (a bot playing it), ``terminal`` (the network run inside
the screen's event loop). What it keeps: ``whoami`` (the key it signs with, the name it goes
by), ``keeping`` (what is kept on disk to be resumed), ``outcome`` (how a table ended, as
one summary) and ``stopwords`` (why a table stopped, in words). The network itself is
:mod:`lanparty.net`, below this; the screen, :mod:`lanparty.ui`, above; the commands that
fill a plan, :mod:`lanparty.commands`.
"""
