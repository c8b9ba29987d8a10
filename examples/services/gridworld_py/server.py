"""The gridworld node service: a grid environment, a greedy policy, and state on both sides.

    python server.py --port 9300

Node types: gridworld__reset, gridworld__step, gridworld__policy, gridworld__record_reward.
Everything a run changes is kept per execution id (``PerExecution``, the SDK's containers) and is
snapshotted with it, so Statewire's restore and fork put the grids, RNGs and stats back exactly.
The service owns the container ``gridworld_stats`` (visit counts and trail keyed by episode, an
episode counter, the last reward with lifetime ``episode``); ``record_reward`` writes into an executor
container granted to its node (by default ``episode_log.rewards``) through ``ctx``.
"""

from __future__ import annotations

import threading

import numpy as np
from grid import Grid, grid_from, grid_state, greedy_action, rng_from, rng_state

from statewire_nodes import NodeService, PerExecution, Port, State

svc = NodeService(
    "gridworld",
    version="0.1.0",
    description="A grid world environment and a greedy policy",
)

stats = svc.container(
    "gridworld_stats",
    label="Gridworld stats",
    states={
        "visit_counts": State("merge", value_type="METRICS"),
        "trail": State("accumulator", value_type="POSE", max_size=20),
        "episodes": State("counter", value_type="METRICS"),
        "last_reward": State("lastWrite", value_type="METRICS", lifetime="episode"),
    },
)



class World:
    """One run's side of the service (kept per execution id, so a fork never sees its original's)."""

    def __init__(self) -> None:
        self.episodes: dict[str, Grid] = {}
        self.latest: str | None = None  # the episode of the last reset
        # The grid of the last reset, kept after its episode is evicted: between an episode's end (its
        # key is evicted at episode_reset) and the auto-reset of the next step, the policy acts on it.
        self.current: Grid | None = None
        self.rngs: dict[int, np.random.Generator] = {}


world = PerExecution(World)
_lock = threading.Lock()


@svc.snapshot
def _save(execution_id):
    """The run's grids and RNGs (the container gridworld_stats is snapshotted by the SDK)."""
    w = world.get()
    with _lock:
        current = next((ep for ep, g in w.episodes.items() if g is w.current), None)
        return {
            "episodes": {ep: grid_state(g) for ep, g in w.episodes.items()},
            "latest": w.latest,
            # The current grid is one of the episodes (same object) unless its episode was evicted.
            "current": current if current is not None else grid_state(w.current) if w.current else None,
            "rngs": {str(seed): rng_state(r) for seed, r in w.rngs.items()},
        }


@svc.restore
def _load(execution_id, saved):
    if saved is None:
        world.drop()
        return
    w = World()
    w.episodes = {ep: grid_from(st) for ep, st in saved["episodes"].items()}
    w.latest = saved["latest"]
    cur = saved["current"]
    w.current = w.episodes.get(cur) if isinstance(cur, str) else grid_from(cur) if cur else None
    w.rngs = {int(seed): rng_from(st) for seed, st in saved["rngs"].items()}
    world.set(w)


OBSERVATION = {
    "observation": Port("IMAGE", "the grid rendered, uint8 H×W×3"),
    "depth": Port("DEPTH", "float32 H×W: distance in cells from the agent to each pixel"),
    "position": Port("POSE", "[row, col] of the agent"),
    "goal": Port("POSE", "[row, col] of the goal"),
    "episode": Port("TEXT", "episode id (the key of this episode's partitions)"),
    "done": Port("BOOL"),
}


def _observe(ep: str, g: Grid) -> dict:
    return {
        "observation": g.render(),
        "depth": g.depth(),
        "position": list(g.pos),
        "goal": list(g.goal),
        "episode": ep,
        "done": g.done,
    }


def _visit(ep: str, g: Grid) -> None:
    cell = f"{g.pos[0]},{g.pos[1]}"
    with _lock:  # read-then-write: two concurrent steps must not lose a count
        counts = stats.read("visit_counts", key=ep)
        stats.write("visit_counts", {cell: counts.get(cell, 0) + 1}, key=ep)
    stats.write("trail", list(g.pos), key=ep)


@svc.on_evict
def _forget(episode: str) -> None:
    """Statewire evicts an episode's key at episode_reset: drop its grid with its partitions."""
    w = world.get()
    with _lock:
        w.episodes.pop(episode, None)


@svc.function(
    inputs={"trigger": Port("ANY", "anything; fires a reset", optional=True)},
    outputs=OBSERVATION,
    config={
        "size": {
            "type": "integer",
            "default": 7,
            "minimum": 2,
            "maximum": 32,
            "description": "cells per side",
        },
        "max_steps": {
            "type": "integer",
            "default": 50,
            "minimum": 1,
            "description": "steps before the episode ends",
        },
    },
)
def reset(config):
    """Starts a new episode and returns its first observation."""
    ep, g = _new_episode(int(config["size"]), int(config["max_steps"]))
    return _observe(ep, g)


def _new_episode(size: int, max_steps: int) -> tuple[str, Grid]:
    w = world.get()
    with _lock:
        n = stats.write("episodes", 1)
        ep = f"ep{n}"
        g = Grid(size=size, max_steps=max_steps)
        w.episodes[ep] = g
        w.latest = ep
        w.current = g
    svc.broadcast_signal("episode_reset")  # clears last_reward (lifetime "episode")
    _visit(ep, g)
    return ep, g


@svc.function(
    inputs={
        "action": Port("DISCRETE_ACTION", "0 up, 1 right, 2 down, 3 left"),
        "episode": Port("TEXT", "episode to step (default: the latest reset)", optional=True),
    },
    outputs={
        **OBSERVATION,
        "reward": Port("METRICS", "-0.01 per step, +1 at the goal"),
        "ended": Port("TEXT", "id of the episode this step finished, else absent (wire it to an episode_reset signal)"),
    },
    config={
        "auto_reset": {
            "type": "boolean",
            "default": False,
            "description": "step a finished episode by starting a new one (for agent loops)",
        },
    },
)
def step(action, config, episode=None):
    """Moves the agent one cell."""
    w = world.get()
    with _lock:
        ep = episode or w.latest
        g = w.episodes.get(ep) if ep is not None else None
    if (g is None or g.done) and config["auto_reset"]:
        # The new episode keeps the last one's shape (its grid may already be evicted).
        last = g if g is not None else w.current
        size, max_steps = (last.size, last.max_steps) if last is not None else (7, 50)
        ep, g = _new_episode(size, max_steps)
    if ep is None:
        raise ValueError("no episode yet: fire gridworld__reset first")
    if g is None:
        raise ValueError(f"unknown or evicted episode {ep!r} (live: {', '.join(w.episodes) or 'none'})")
    with _lock:
        reward = g.step(int(action))
    stats.write("last_reward", reward)
    _visit(ep, g)
    out = {**_observe(ep, g), "reward": reward}
    if g.done:
        out["ended"] = ep
    return out


@svc.function(
    inputs={
        "position": Port("POSE", "default: the agent in the latest episode", optional=True),
        "goal": Port("POSE", "default: the goal of the latest episode", optional=True),
        "trigger": Port("ANY", "anything; fires the policy", optional=True),
    },
    outputs={"action": Port("DISCRETE_ACTION")},
    config={
        "epsilon": {
            "type": "number",
            "default": 0.1,
            "minimum": 0,
            "maximum": 1,
            "description": "chance of a random action",
        },
        "seed": {
            "type": "integer",
            "default": 0,
            "description": "random seed of the exploration",
        },
    },
)
def policy(config, position=None, goal=None, trigger=None):
    """Greedy toward the goal, exploring with probability epsilon."""
    seed = int(config["seed"])
    w = world.get()
    with _lock:
        g = w.current
        if position is None or goal is None:
            if g is None:
                raise ValueError("no position/goal given and no episode yet: fire gridworld__reset first")
            position, goal = list(g.pos), list(g.goal)
        rng = w.rngs.setdefault(seed, np.random.default_rng(seed))
        action = greedy_action(list(position), list(goal), float(config["epsilon"]), rng)
    return {"action": action}


@svc.function(
    inputs={"reward": Port("METRICS"), "done": Port("BOOL", optional=True)},
    outputs={"total": Port("METRICS", "sum of the rewards recorded in the granted slot")},
    config={
        "container": {
            "type": "string",
            "default": "episode_log",
            "description": "granted executor container",
        },
        "slot": {
            "type": "string",
            "default": "rewards",
            "description": "accumulator slot in it",
        },
    },
)
def record_reward(reward, done, config, ctx):
    """Appends the reward to a granted executor container and returns the running total."""
    ctx.write(config["container"], config["slot"], float(reward))
    rewards = ctx.read(config["container"], config["slot"]) or []
    total = float(np.sum(rewards)) if isinstance(rewards, list) else float(rewards)
    if done:
        ctx.log(
            "info",
            f"episode finished with return {total:.2f}",
            code="EPISODE_DONE",
            total=total,
        )
    return {"total": total}


if __name__ == "__main__":
    svc.run()
