"""varsand from Python: rule files of board games and chess variants, their
positions and moves, the computer player, perft, pictures, and self-play analysis.

>>> import varsand
>>> game = varsand.load("variants/chess.var")
>>> pos = game.start()
>>> pos.perft(3)
8902
>>> pos.push("e2e4")
'e2e4'

The PettingZoo environment is `varsand.env` (it needs numpy, pettingzoo and
gymnasium), and runs of many games on a Ray cluster are `varsand.distributed`
(it needs ray). Both are imported on first use, so `import varsand` needs neither.
"""

from ._native import (
    Game,
    Move,
    Outcome,
    Position,
    SearchResult,
    VarsandError,
    __version__,
    load,
    merge,
)

__all__ = [
    "Game",
    "Move",
    "Outcome",
    "Position",
    "SearchResult",
    "VarsandError",
    "__version__",
    "load",
    "merge",
]
