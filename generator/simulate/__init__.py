"""Playtest simulator for route games (``pnpgen simulate``): bots play the game the content describes.

``rules`` compiles a ``Game`` into plain tuples (or refuses a game whose rules it does not know),
``engine`` plays one game from a seed, ``bots`` choose moves, ``validate`` replays a game's log with
a second, simple reading of the rules, ``report`` runs many games (over processes) and sums them up,
``heatmap`` draws the board by claim frequency, ``compare`` plays two versions of a game on the same seeds.
"""
