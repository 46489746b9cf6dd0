"""The benchmark behind ``lanparty bench``: real peer processes on loopback, measured from
their traces. ``measure`` spawns the peers (hosts timed until discovery sees them, then one
traced short game) and gathers every figure; ``traces`` reads the peers' trace files and
computes the figures from them; ``model`` is the LAN model of ``--lan-model`` (the joint
shuffle as if each peer had a machine of its own). Nothing here asserts: the command prints.
"""
