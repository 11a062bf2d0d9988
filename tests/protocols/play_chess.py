#!/usr/bin/env python3
"""python-chess's engine module drives `varsand uci|xboard variants/chess.var`.

Usage: play_chess.py VARSAND RULE_FILE uci|xboard

A few short games against a python-side mover (random legal moves with a fixed seed),
under the limits GUIs send (depth, a fixed time per move, a clock with increment, and
a node count): every engine move must be legal on python-chess's board. Then
the engine must find a mate in one, and see it as one. Prints one line per game and
exits 0; any failure raises (exit 1). Exits 3 when python-chess is missing.
"""

import random
import sys

try:
    import chess
    import chess.engine
except ImportError:
    print("python-chess is missing: python3 -m pip install chess", file=sys.stderr)
    sys.exit(3)

MAX_PLIES = 60
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def open_engine(binary, rules, protocol):
    command = [binary, protocol, rules]
    if protocol == "uci":
        return chess.engine.SimpleEngine.popen_uci(command, timeout=20)
    return chess.engine.SimpleEngine.popen_xboard(command, timeout=20)


def limits():
    """The limits of the games: one game each."""
    out = [
        chess.engine.Limit(depth=2),
        chess.engine.Limit(time=0.02),
        chess.engine.Limit(white_clock=1.5, black_clock=1.5, white_inc=0.02, black_inc=0.02),
    ]
    # UCI's `go nodes`; XBoard's `nps` with `st`.
    out.append(chess.engine.Limit(nodes=3000))
    return out


def play_game(engine, limit, engine_color, rng):
    """Plays one game; returns its result (or `*` when cut short)."""
    board = chess.Board()
    while not board.is_game_over() and board.ply() < MAX_PLIES:
        if board.turn == engine_color:
            result = engine.play(board, limit, game=limit)
            if result.move is None:
                # The engine sees the game as over: by the file's rules, a repetition
                # or a move limit that python-chess leaves to a claim.
                assert board.can_claim_draw(), f"no move in {board.fen()}"
                return "1/2-1/2 (claimed by the engine)"
            assert board.is_legal(result.move), f"illegal {result.move} in {board.fen()}"
            board.push(result.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board.result()


def mate_in_one(engine):
    board = chess.Board(MATE_IN_ONE)
    result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_SCORE)
    assert result.move == chess.Move.from_uci("a1a8"), f"missed the mate: {result.move}"
    score = result.info.get("score")
    assert score is not None and score.white() == chess.engine.Mate(1), f"score {score}"
    # Analysis: `go depth 3` under UCI, `analyze` until depth 3 under XBoard.
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1), info
    assert info["pv"][0] == chess.Move.from_uci("a1a8"), info


def main():
    binary, rules, protocol = sys.argv[1], sys.argv[2], sys.argv[3]
    rng = random.Random(7)
    engine = open_engine(binary, rules, protocol)
    try:
        for i, limit in enumerate(limits()):
            color = chess.WHITE if i % 2 == 0 else chess.BLACK
            print(f"{protocol} game {i + 1}: {play_game(engine, limit, color, rng)}")
        mate_in_one(engine)
        print(f"{protocol}: mate in one found")
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
