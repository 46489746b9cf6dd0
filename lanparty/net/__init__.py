"""Networking: the thin trio layer under the sans-IO protocol, and the mDNS lobby."""
