"""The papers pnpgen prints on at home (``--paper``): their sizes in mm, portrait.

A module of the base layer so that the command line knows the names without loading the layout.
"""
from __future__ import annotations

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "tabloid": (279.4, 431.8)}
#: the papers every game must print on (a card too large for either is refused at load); A3 and Tabloid
#: are larger than both in both directions, so what fits these fits them
HOME_PAPERS = ("a4", "letter")
