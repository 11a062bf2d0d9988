"""The PettingZoo environment: PettingZoo's own API test on every shipped game, and
what the observation and the action mask say."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import varsand  # noqa: E402
from conftest import GAMES, REPO  # noqa: E402
from varsand.env import VarsandEnv, env  # noqa: E402


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_pettingzoos_api_test_passes(path):
    api_test(env(str(path), max_plies=100), num_cycles=200)


def test_the_mask_is_the_legal_moves_and_the_planes_the_board():
    e = VarsandEnv(str(REPO / "variants" / "chess.var"))
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    assert obs["observation"].shape == e.game.observation_shape
    assert obs["action_mask"].sum() == 20
    assert e.observe(e.possible_agents[1])["action_mask"].sum() == 0
    planes = e.game.observation_planes
    pawns = obs["observation"][planes.index(f"board Pawn of {e.game.players[0]}")]
    assert pawns[1].sum() == 8 and pawns.sum() == 8
    assert obs["observation"][-1].sum() == 0
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.observe(e.agent_selection)["observation"][-1].all()


def test_a_game_ends_with_rewards_to_the_winner():
    e = VarsandEnv(game=varsand.Game.from_text((REPO / "variants" / "chess.var").read_text()))
    e.reset()
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        move = next(m for m in e.position.moves() if m.text == text)
        e.step(move.action)
    assert all(e.terminations.values())
    assert e.rewards == {e.possible_agents[0]: -1.0, e.possible_agents[1]: 1.0}
