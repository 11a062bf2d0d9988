"""The package against the command line on every shipped game: the same legal moves
(along random games), the same perft, and the same outcome at the end of random
games the command line played (`analyze --random --save-games`)."""

import re

import pytest

import varsand
from conftest import GAMES, cli

# Perft depth per game: 3, or 2 where the tree is wide.
WIDE = {"grand", "monkey_queen", "shogi", "capablanca", "crazyhouse", "janggi", "xiangqi"}


def cli_moves(path, moves):
    """The legal moves the command line lists after `moves` (perft divide at 1)."""
    args = ["perft", str(path), "1"] + (["--moves", " ".join(moves)] if moves else [])
    return sorted(line.split(":")[0] for line in cli(*args).splitlines() if re.match(r"^\S+: \d+$", line))


def saved_games(path, tmp_path, games=2, max_plies=300):
    """Random games the command line plays: (moves, result, ending comment)."""
    cli("analyze", str(path), "--random", "--games", str(games), "--seed", "7",
        "--max-plies", str(max_plies), "--save-games", str(tmp_path))
    out = []
    for pgn in sorted(tmp_path.glob("game-*.pgn")):
        text = pgn.read_text()
        result = re.search(r'\[Result "([^"]+)"\]', text).group(1)
        body = text.split("\n\n", 1)[1]
        comments = [" ".join(c.split()) for c in re.findall(r"\{([^}]*)\}", body)]
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [t for t in body.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", t)]
        out.append((moves, result, comments[-1] if comments else ""))
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_same_perft(path):
    # Two plies where the start has a thousand moves or more (every move with a
    # second part: depth 3 would be billions of leaves), as for the wide games.
    wide = path.stem in WIDE or len(varsand.load(str(path)).start().legal_moves()) >= 1000
    depth = 2 if wide else 3
    total = int(re.search(r"Nodes searched: (\d+)", cli("perft", str(path), str(depth))).group(1))
    assert varsand.load(str(path)).start().perft(depth) == total


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_same_moves_and_outcomes_over_random_games(path, tmp_path):
    game = varsand.load(str(path))
    for moves, result, ending in saved_games(path, tmp_path):
        pos = game.start()
        checks = {0, len(moves) // 3, len(moves) - 1}
        for i, m in enumerate(moves):
            assert pos.outcome() is None, f"{path.stem}: over before ply {i}"
            if i in checks:
                assert sorted(pos.legal_moves()) == cli_moves(path, moves[:i]), f"ply {i}"
            pos.push(m)
        out = pos.outcome()
        if out is None:
            assert "move cap" in ending and result == "1/2-1/2", ending
        else:
            expected = {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[out.winner]
            assert result == expected, (out.description, result, ending)
            assert out.description in ending or out.reason in ending, (out.description, ending)
