"""The package itself: loading (with parameters and errors), positions, moves as
texts and objects, push/pop, outcomes, the computer's move, pictures, versions."""

import re

import pytest

import varsand
from conftest import REPO


def chess():
    return varsand.load(str(REPO / "variants" / "chess.var"))


def test_the_package_version_is_the_crates():
    cargo = (REPO / "Cargo.toml").read_text()
    version = re.search(r'\[workspace\.package\]\s*version = "([^"]+)"', cargo).group(1)
    assert varsand.__version__ == version


def test_a_rule_file_with_errors_raises_with_its_rendered_diagnostics():
    text = 'board 8 x 8\nsetup "8/8/8/8/8/8/8/8 w"\npiece King K { moves "Kx" }'
    with pytest.raises(varsand.VarsandError) as caught:
        varsand.Game.from_text(text, name="bad.var")
    e = caught.value
    assert "bad Betza" in e.diagnostics and "bad.var" in e.diagnostics
    assert e.problems[0]["code"] == "varsand::betza"
    assert e.problems[0]["span"]["line"] == 3


def test_a_missing_file_raises_an_os_error():
    with pytest.raises(OSError):
        varsand.load(str(REPO / "no-such-file.var"))


def test_parameters_are_set_as_the_command_line_sets_them():
    path = str(REPO / "tests" / "balance" / "handicap.var")
    plain, queens = varsand.load(path), varsand.load(path, set={"handicap": 2})
    assert plain.parameters == [] and queens.parameters == [("handicap", 2)]
    count = lambda game: game.start().fen().split()[0].count("Q")
    assert count(queens) == count(plain) + 2
    with pytest.raises(varsand.VarsandError, match="handicap"):
        varsand.load(path, set={"handicap": 9})


def test_moves_push_and_pop():
    pos = chess().start()
    assert len(pos.legal_moves()) == 20 == pos.legal_count()
    by_text = {m.text: m for m in pos.moves()}
    e4 = by_text["e2e4"]
    assert (e4.kind, e4.origin, e4.target, e4.becomes) == ("step", "e2", "e4", None)
    assert pos.push(e4) == "e2e4"
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert pos.turn == 1 and pos.history == ["e2e4"]
    with pytest.raises(ValueError):
        pos.push("e2e4")
    assert pos.pop() == "e2e4"
    assert pos.fen() == chess().start().fen()
    with pytest.raises(IndexError):
        pos.pop()


def test_actions_are_unique_among_the_legal_moves_and_play_the_move():
    pos = chess().start()
    moves = pos.moves()
    actions = [m.action for m in moves]
    assert len(set(actions)) == len(actions) == 20
    assert all(0 <= a < chess().action_count for a in actions)
    assert pos.push_action(moves[3].action) == moves[3].text


def test_moves_with_a_second_part_have_actions_of_their_own():
    # Amazons: every move is a queen's move and an arrow; 2,176 at the start, many
    # sharing their first part.
    game = varsand.load(str(REPO / "variants" / "amazons.var"))
    pos = game.start()
    moves = pos.moves()
    actions = [m.action for m in moves]
    assert len(set(actions)) == len(actions) == 2176
    assert all(0 <= a < game.action_count for a in actions)
    assert pos.push_action(moves[5].action) == moves[5].text


def test_a_given_position_and_its_outcome():
    game = chess()
    mated = game.position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    out = mated.outcome()
    assert out.winner == 1 and out.winner_name == game.players[1]
    assert out.reason == "checkmate" and "checkmated" in out.description
    assert mated.is_over() and mated.legal_moves() == []
    with pytest.raises(ValueError):
        game.position("not a position")


def test_the_computer_finds_mate_in_one():
    game = chess()
    pos = game.position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    r = pos.best_move(depth=3)
    assert r.move == "a1a8" and r.pv[0] == "a1a8" and r.score_text == "win in 1"
    assert pos.best_move(nodes=2000).move is not None
    assert pos.best_move(time=0.05).move is not None


def test_the_picture_is_svg():
    svg = chess().start().svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


@pytest.mark.parametrize("name", ["breakthrough", "monkey_queen"])
def test_analysis_from_python_is_the_command_lines(name):
    """The same report, learned values included (monkey_queen.values beside the file)."""
    from conftest import cli
    import json

    path = str(REPO / "variants" / f"{name}.var")
    game = varsand.load(path)
    assert (game.values is not None) == (name == "monkey_queen")
    ours = game.analyze(4, depth=1, seed=3, threads=1)
    theirs = json.loads(cli("analyze", path, "--games", "4", "--depth", "1", "--seed", "3", "--json"))
    if name == "monkey_queen":
        assert "learned" in {p["value_source"] for p in ours["pieces"]}
    ours.pop("timing"), theirs.pop("timing")
    assert ours == theirs


def test_shards_merge_into_the_whole_run():
    game = varsand.load(str(REPO / "variants" / "breakthrough.var"))
    whole = game.analyze(7, random=True, seed=5, threads=1)
    shards = [game.analyze(7, random=True, seed=5, threads=1, shard=(k, 3)) for k in (1, 2, 3)]
    assert [s["games"] for s in shards] == [2, 2, 3]
    merged = varsand.merge(shards)
    whole.pop("timing"), merged.pop("timing")
    assert merged == whole
    with pytest.raises(ValueError, match="missing"):
        varsand.merge(shards[:2])


def test_every_name_of_the_module_has_a_stub_and_a_docstring():
    import ast
    from pathlib import Path

    from varsand import _native

    stub = ast.parse((Path(varsand.__file__).parent / "_native.pyi").read_text())
    stubbed = {n.name for n in stub.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    stubbed |= {t.target.id for t in stub.body if isinstance(t, ast.AnnAssign)}
    public = {n for n in dir(_native) if not n.startswith("_") or n == "__version__"}
    assert public <= stubbed, public - stubbed
    for name in public - {"__version__"}:
        assert getattr(_native, name).__doc__, name
    for cls in (_native.Game, _native.Position):
        for name, member in vars(cls).items():
            if not name.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{name}"


def test_the_readmes_examples_run(tmp_path, monkeypatch, capsys):
    """The README's ten-line example and its environment loop, as written (the rule
    files' paths made absolute; the picture written in a temporary folder)."""
    readme = (REPO / "README.md").read_text()
    section = readme.split("### From Python", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        if "ray.init" in block:
            continue  # tests/test_distributed.py runs Ray
        exec(block.replace('"variants/', f'"{REPO}/variants/'), {})
    out = capsys.readouterr().out
    assert "['b1a3', 'b1c3', 'g1f3'] 197281" in out
    assert "win in 1 white is checkmated" in out
    assert (tmp_path / "board.svg").read_text().startswith("<svg")
