"""Print the geometry problems of a game's boards (a designer's aid while placing cities)."""
import sys
from pathlib import Path

from generator.layout.board_geometry import board_problems, plan_board
from generator.load.game import load_game

for folder in sys.argv[1:]:
    game = load_game(Path(folder))
    for board in game.boards.values():
        if board.kind != "map":
            continue
        problems = board_problems(plan_board(board))
        print(f"{game.id}/{board.id}: {len(problems)} problem(s)")
        for p in problems:
            print(f"  {p.source}: [{p.kind}] {p.message}")
