"""Playtest simulator (``pnpgen simulate``): bots play the game the content describes.

``family`` tells a route game (Ticket to Ride) from a line game (S鉄道で行こう) by what its model has.
Route family: ``rules`` compiles a ``Game`` into plain tuples (or refuses a game whose rules it does not
know), ``engine`` plays one game from a seed, ``bots`` choose moves, ``validate`` replays a game's log
with a second, simple reading of the rules, ``heatmap`` draws the board by claim frequency, ``compare``
plays two versions of a game on the same seeds. Line family: ``line_rules``, ``line_engine``,
``line_bots``, ``line_validate``, ``line_report``. ``report`` runs many games of either family (over
processes) and sums up the route family's.
"""
