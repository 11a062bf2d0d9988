"""A PettingZoo AEC environment for any rule file.

    from varsand.env import VarsandEnv
    env = VarsandEnv("variants/shogi.var")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        mask = obs["action_mask"]
        action = None if terminated or truncated else int(mask.nonzero()[0][0])
        env.step(action)

Agents are the file's two players, named `<player>_<side>` ("white_0"). An observation is a dict:
``observation``, float32 planes of shape ``Game.observation_shape`` (one per piece
kind and side, then the hands, the counters and the side to move:
``Game.observation_planes`` names them), and ``action_mask``, an int8 vector over
the game's fixed action space (``Game.action_count``): 1 for each legal move of the
agent to move, all 0 for the other agent. Rewards are +1 to the winner and -1 to the
loser when the game ends by the file's end rules; a game still going after
``max_plies`` plies is truncated (no reward).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _native


class VarsandEnv(AECEnv):
    """The game of a rule file as a two-agent, turn-based PettingZoo environment."""

    metadata = {"name": "varsand_v0", "render_modes": ["svg", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        path: Optional[str] = None,
        *,
        game: Optional[_native.Game] = None,
        set: Optional[dict] = None,
        max_plies: int = 1000,
        render_mode: Optional[str] = None,
    ) -> None:
        """The environment of the rule file at `path` (or of a loaded `game`), with
        `set` parameters; games are cut after `max_plies` plies."""
        super().__init__()
        if game is None:
            if path is None:
                raise TypeError("VarsandEnv needs a rule file's path or a game")
            game = _native.load(path, set=set)
        self.game = game
        self.max_plies = max_plies
        self.render_mode = render_mode
        # PettingZoo's convention, <descriptor>_<number>: "white_0", "black_1".
        names = [f"{name}_{i}" for i, name in enumerate(game.players)]
        self.possible_agents = names
        self.agents = list(names)
        shape = game.observation_shape
        n = game.action_count
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in names
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in names}
        self._shape = shape
        self.position = game.start()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game from the setup (the rules are deterministic: `seed` is unused
        beyond the action spaces' sampling)."""
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.position = self.game.start()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._plies = 0
        self.agent_selection = self.possible_agents[self.position.turn]
        self._check_end()

    def observe(self, agent: str) -> dict[str, Any]:
        planes = np.frombuffer(self.position.observation(), dtype=np.float32).reshape(self._shape)
        mask = np.zeros(self.game.action_count, dtype=np.int8)
        done = self.terminations.get(agent, False) or self.truncations.get(agent, False)
        if agent == self.agent_selection and not done:
            mask[self.position.legal_actions()] = 1
        return {"observation": planes.copy(), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.position.push_action(int(action))
        self._plies += 1
        self.agent_selection = self.possible_agents[self.position.turn]
        self._check_end()
        self._accumulate_rewards()

    def _check_end(self) -> None:
        """Ends the game when a rule ends it (rewards ±1, 0 for a draw), or cuts it
        at the ply limit."""
        outcome = self.position.outcome()
        if outcome is not None:
            for i, a in enumerate(self.possible_agents):
                if outcome.winner is None:
                    self.rewards[a] = 0.0
                else:
                    self.rewards[a] = 1.0 if outcome.winner == i else -1.0
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome.description, "reason": outcome.reason}
        elif self._plies >= self.max_plies:
            for a in self.possible_agents:
                self.truncations[a] = True
        else:
            for a in self.possible_agents:
                self.rewards[a] = 0.0

    def render(self) -> Optional[str]:
        """The position as an SVG picture ("svg") or its position string ("ansi")."""
        if self.render_mode == "svg":
            return self.position.svg()
        if self.render_mode == "ansi":
            return self.position.fen()
        return None

    def close(self) -> None:
        pass


def env(path: str, **kwargs: Any) -> VarsandEnv:
    """The environment of a rule file, wrapped as PettingZoo's classic games are
    (an illegal action ends the game with a penalty, actions are checked)."""
    from pettingzoo.utils import wrappers

    e: Any = VarsandEnv(path, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
