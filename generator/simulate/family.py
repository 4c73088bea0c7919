"""Which family of rules a game is, read off its model: the line family (S鉄道で行こう: train types that
name their stops) or the route family (Ticket to Ride: a map of routes). Each family brings its rules
compiler, engine, bots, referee and report; ``report`` and the command ask here which to use."""
from __future__ import annotations

from generator.errors import ContentError
from generator.model.game import Game
from generator.simulate.bots import BOTS
from generator.simulate.line_bots import LINE_BOTS
from generator.simulate.line_rules import LineRules, compile_line_rules, is_line_game
from generator.simulate.rules import Rules, compile_rules


def compile_game(game: Game) -> Rules | LineRules:
    """The game's rules in its family's form (a ContentError names what a game of neither family lacks, or a figure
    the rules read that is not what they need: never a traceback for content)."""
    try:
        return compile_line_rules(game) if is_line_game(game) else compile_rules(game)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as error:
        raise ContentError(game.source, f"pnpgen simulate cannot read this game's rules: {type(error).__name__}: "
                                        f"{error}", "`pnpgen check GAME` may name the line; the README's 'Playtest "
                                        "simulator' section lists the figures the simulator reads") from error


def bots_for(rules: Rules | LineRules) -> dict:
    """The bots that play this family, by name."""
    return LINE_BOTS if isinstance(rules, LineRules) else BOTS
