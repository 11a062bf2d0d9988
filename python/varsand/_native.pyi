"""Type stubs of the compiled module (python/src/*.rs); docstrings there."""

from typing import Any, Optional, TypedDict, Union

from typing_extensions import Unpack

class AnalyzeOptions(TypedDict, total=False):
    """The options of `Game.analyze`, with the command line's defaults."""

    depth: int
    """Search depth per move (3 unless movetime is given)."""
    movetime: int
    """Search time per move, in milliseconds."""
    random: bool
    """Uniformly random games."""
    vs_random: bool
    """The search against a random mover, each colour in turn."""
    seed: int
    """1 by default; the same seed gives the same report."""
    opening_plies: int
    """Random sound plies at the start of each game (2)."""
    max_plies: int
    """Games still going after this many plies are draws (1000)."""
    threads: int
    """Threads; 0 (the default) for every core."""
    shard: tuple[int, int]
    """(k, n): shard k of n of the games, k from 1 (see varsand.merge)."""

__version__: str

class VarsandError(Exception):
    """A rule file with errors."""

    diagnostics: str
    """The report, as `varsand check` prints it."""
    problems: list[dict[str, Any]]
    """The same as `varsand check --format json`: code, severity, message, span..."""

class Move:
    """A legal move, as the engine writes it and as an agent numbers it."""

    text: str
    kind: str
    """"step", "castle", "drop", "exit", "capture-in-place", "pass" or "swap"."""
    origin: Optional[str]
    target: Optional[str]
    becomes: Optional[str]
    piece: Optional[str]
    action: int
    """Its number in the game's fixed action space."""

class Outcome:
    """How a game ended."""

    winner: Optional[int]
    winner_name: Optional[str]
    reason: str
    description: str
    side: int

class SearchResult:
    """What the computer's search found."""

    move: Optional[str]
    score: int
    score_text: str
    depth: int
    nodes: int
    seconds: float
    pv: list[str]

class Position:
    """A position of a game, with the moves pushed on it."""

    turn: int
    """The side to move: 0 for the first player, 1 for the second."""
    ply: int
    history: list[str]
    def legal_moves(self) -> list[str]: ...
    def moves(self) -> list[Move]: ...
    def legal_actions(self) -> list[int]: ...
    def legal_count(self) -> int: ...
    def push(self, move: Union[str, Move]) -> str:
        """Plays a move (its text or a Move); ValueError saying why if illegal."""
    def push_action(self, action: int) -> str: ...
    def push_index(self, index: int) -> None: ...
    def pop(self) -> str: ...
    def fen(self) -> str: ...
    def outcome(self) -> Optional[Outcome]: ...
    def is_over(self) -> bool: ...
    def perft(self, depth: int) -> int: ...
    def divide(self, depth: int) -> list[tuple[str, int]]: ...
    def best_move(
        self,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        threads: int = 1,
    ) -> SearchResult:
        """The computer's move within any of these limits (time in seconds; one
        second if none)."""
    def svg(self, flipped: bool = False) -> str: ...
    def observation(self) -> bytes: ...
    def copy(self) -> Position: ...
    def piece_at(self, square: str) -> Optional[tuple[str, int]]: ...
    def hand(self, side: int) -> list[tuple[str, int]]: ...

class Game:
    """A rule file checked and compiled, with its parameters."""

    name: str
    path: str
    source: str
    parameters: list[tuple[str, int]]
    values: Optional[str]
    players: list[str]
    pieces: list[str]
    squares: list[str]
    counters: list[str]
    action_count: int
    observation_shape: tuple[int, int, int]
    observation_planes: list[str]
    @staticmethod
    def from_text(
        text: str,
        name: str = "<text>",
        set: Optional[dict[str, int]] = None,
        values: Optional[str] = None,
    ) -> Game: ...
    def start(self) -> Position: ...
    def position(self, fen: str) -> Position: ...
    def analyze(self, games: int = 100, **options: Unpack[AnalyzeOptions]) -> dict[str, Any]:
        """Self-play analysis, the report as `varsand analyze --json` gives it."""
    def sweep(
        self, parameter: str, games: int = 100, **options: Unpack[AnalyzeOptions]
    ) -> dict[str, Any]:
        """A parameter swept ("NAME=FROM..TO[:STEP]"), as `varsand analyze --sweep`."""

def load(path: str, set: Optional[dict[str, int]] = None) -> Game:
    """Loads a rule file; VarsandError with the diagnostics if it has errors."""

def merge(reports: list[Union[dict[str, Any], str]]) -> dict[str, Any]:
    """Merges a run's shards' reports into the whole run's report."""
