"""A small grid world: pure numpy, no SDK. The agent starts top-left and walks to the goal bottom-right.

Actions: 0 up, 1 right, 2 down, 3 left (moves into the border are no-ops). Reward -0.01 per step and
+1 on reaching the goal; the episode is done at the goal or after ``max_steps`` steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
CELL_PX = 16
STEP_REWARD = -0.01
GOAL_REWARD = 1.0

_BG = np.array([24, 24, 32], np.uint8)
_LINE = np.array([60, 60, 76], np.uint8)
_VISITED = np.array([70, 80, 140], np.uint8)
_GOAL = np.array([40, 200, 90], np.uint8)
_AGENT = np.array([250, 200, 40], np.uint8)


@dataclass
class Grid:
    size: int = 7
    max_steps: int = 50
    pos: tuple[int, int] = (0, 0)
    steps: int = 0
    visits: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if not 2 <= self.size <= 32:
            raise ValueError(f"grid size must be within 2..32, got {self.size}")
        self.visits = np.zeros((self.size, self.size), np.int32)
        self.visits[self.pos] = 1

    @property
    def goal(self) -> tuple[int, int]:
        return (self.size - 1, self.size - 1)

    @property
    def done(self) -> bool:
        return self.pos == self.goal or self.steps >= self.max_steps

    def step(self, action: int) -> float:
        if self.done:
            raise ValueError(f"the episode is over (at {list(self.pos)} after {self.steps} steps); reset it first")
        if action not in range(4):
            raise ValueError(f"action must be 0 up, 1 right, 2 down or 3 left; got {action!r}")
        dr, dc = MOVES[action]
        r = min(max(self.pos[0] + dr, 0), self.size - 1)
        c = min(max(self.pos[1] + dc, 0), self.size - 1)
        self.pos = (r, c)
        self.steps += 1
        self.visits[self.pos] += 1
        return GOAL_REWARD if self.pos == self.goal else STEP_REWARD

    def render(self) -> np.ndarray:
        """uint8 H×W×3: visited cells tinted, goal green, agent yellow, grid lines."""
        n = self.size
        cells = np.broadcast_to(_BG, (n, n, 3)).copy()
        seen = np.where(self.visits > 0, np.clip(0.4 + 0.15 * self.visits, 0, 1), 0)[..., None]
        cells = (cells * (1 - seen) + _VISITED * seen).astype(np.uint8)
        cells[self.goal] = _GOAL
        cells[self.pos] = _AGENT
        img = np.repeat(np.repeat(cells, CELL_PX, axis=0), CELL_PX, axis=1)
        img[::CELL_PX, :] = _LINE
        img[:, ::CELL_PX] = _LINE
        return img

    def depth(self) -> np.ndarray:
        """float32 H×W (pixels): distance in cells from the agent's centre to each pixel's centre."""
        px = self.size * CELL_PX
        centres = (np.arange(px, dtype=np.float32) + 0.5) / CELL_PX
        ar, ac = self.pos[0] + 0.5, self.pos[1] + 0.5
        return np.sqrt((centres[:, None] - ar) ** 2 + (centres[None, :] - ac) ** 2).astype(np.float32)


def greedy_action(pos: list[int], goal: list[int], epsilon: float, rng: np.random.Generator) -> int:
    """Toward the goal along the longer axis; a uniformly random action with probability epsilon."""
    if rng.random() < epsilon:
        return int(rng.integers(4))
    dr, dc = goal[0] - pos[0], goal[1] - pos[1]
    if dr == 0 and dc == 0:
        return 2
    if abs(dr) >= abs(dc):
        return 2 if dr > 0 else 0
    return 1 if dc > 0 else 3


def grid_state(g: Grid) -> dict:
    """A grid as plain values (for the service's snapshot)."""
    return {"size": g.size, "max_steps": g.max_steps, "pos": list(g.pos), "steps": g.steps, "visits": g.visits.copy()}


def grid_from(st: dict) -> Grid:
    g = Grid(size=int(st["size"]), max_steps=int(st["max_steps"]))
    g.pos = (int(st["pos"][0]), int(st["pos"][1]))
    g.steps = int(st["steps"])
    g.visits = np.array(st["visits"], np.int32).reshape(g.size, g.size)
    return g


def rng_state(rng: np.random.Generator) -> dict:
    """A generator's exact position (its 128-bit integers as text: msgpack stops at 64 bits)."""
    st = rng.bit_generator.state
    return {
        "bit_generator": st["bit_generator"],
        "state": {k: str(v) for k, v in st["state"].items()},
        "has_uint32": st["has_uint32"],
        "uinteger": st["uinteger"],
    }


def rng_from(saved: dict) -> np.random.Generator:
    if saved["bit_generator"] != "PCG64":
        raise ValueError(f"snapshot holds a {saved['bit_generator']} generator; this service makes PCG64")
    rng = np.random.default_rng()
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {k: int(v) for k, v in saved["state"].items()},
        "has_uint32": saved["has_uint32"],
        "uinteger": saved["uinteger"],
    }
    return rng
