// The demo environment: a seeded grid world (gridEnv) and a seeded heuristic policy (gridPolicy).
// All randomness comes from a PRNG whose state lives in node-local state, so runs are reproducible
// and restore-from-checkpoint replays the same episodes.
import { cfgNumber, cfgString, type NodeHandler } from '../handler.types.ts';
import { nextInt, nextRandom, seedState } from '../prng.ts';

export const ACTIONS = ['STOP', 'FORWARD', 'TURN_LEFT', 'TURN_RIGHT'] as const;
const HEADINGS = ['N', 'E', 'S', 'W'] as const;
const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;

export interface GridMap {
  width: number;
  height: number;
  /** One string per row: '.' free, '#' obstacle. */
  rows: readonly string[];
  start: readonly [number, number];
  goal: readonly [number, number];
}

export interface Pose {
  x: number;
  y: number;
  heading: number;
  position: readonly [number, number];
  orientation: string;
}

interface EnvState {
  rng: number;
  episode: number;
  t: number;
  done: boolean;
  map: GridMap | null;
  pose: { x: number; y: number; heading: number };
}

const free = (m: GridMap, x: number, y: number) =>
  x >= 0 && y >= 0 && x < m.width && y < m.height && m.rows[y]![x] === '.';
const manhattan = (a: readonly [number, number], x: number, y: number) =>
  Math.abs(a[0] - x) + Math.abs(a[1] - y);

function reachable(m: GridMap): boolean {
  const seen = new Set<string>([`${m.start[0]},${m.start[1]}`]);
  const queue: [number, number][] = [[m.start[0], m.start[1]]];
  while (queue.length > 0) {
    const [x, y] = queue.shift()!;
    if (x === m.goal[0] && y === m.goal[1]) return true;
    for (let h = 0; h < 4; h++) {
      const nx = x + DX[h]!;
      const ny = y + DY[h]!;
      const k = `${nx},${ny}`;
      if (!seen.has(k) && free(m, nx, ny)) {
        seen.add(k);
        queue.push([nx, ny]);
      }
    }
  }
  return false;
}

function generate(rng: number, w: number, h: number, r: number): [GridMap, number] {
  // Clamp config so a bad value cannot hang or crash the env (a start and a distinct goal must fit).
  const width = Math.min(200, Math.max(2, Math.floor(w) || 2));
  const height = Math.min(200, Math.max(2, Math.floor(h) || 2));
  const ratio = Math.min(0.6, Math.max(0, r || 0));
  let s = rng;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 10_000)
      throw new Error(`gridEnv: could not place start and goal on a ${width}x${height} grid`);
    const rows: string[] = [];
    for (let y = 0; y < height; y++) {
      let row = '';
      for (let x = 0; x < width; x++) {
        const [rand, ns] = nextRandom(s);
        s = ns;
        row += rand < ratio && attempt < 20 ? '#' : '.';
      }
      rows.push(row);
    }
    let sx: number, sy: number, gx: number, gy: number;
    [sx, s] = nextInt(s, width);
    [sy, s] = nextInt(s, height);
    [gx, s] = nextInt(s, width);
    [gy, s] = nextInt(s, height);
    const setFree = (x: number, y: number) => {
      rows[y] = rows[y]!.slice(0, x) + '.' + rows[y]!.slice(x + 1);
    };
    setFree(sx, sy);
    setFree(gx, gy);
    const map: GridMap = { width, height, rows, start: [sx, sy], goal: [gx, gy] };
    const far = manhattan(map.goal, sx, sy) >= Math.min(width, height) / 2;
    if ((far || (attempt > 100 && (sx !== gx || sy !== gy))) && reachable(map)) return [map, s];
  }
}

function parseAction(a: unknown): number {
  if (typeof a === 'number' && Number.isInteger(a) && a >= 0 && a < 4) return a;
  if (typeof a === 'string') {
    const up = a.trim().toUpperCase();
    const i = ACTIONS.findIndex((n) => n === up || n.replace('TURN_', '') === up);
    if (i >= 0) return i;
    if (/^[0-3]$/.test(up)) return Number(up);
  }
  return -1;
}

export const gridEnv: NodeHandler = {
  initState: ({ config }) => ({
    rng: seedState(typeof config.seed === 'number' ? config.seed : 7),
    episode: 0,
    t: 0,
    done: true,
    map: null,
    pose: { x: 0, y: 0, heading: 0 },
  }),
  fire(inputs, ctx) {
    const cfg = ctx.node.config;
    let st = ctx.state as EnvState;
    let reward = 0;
    let collision = 0;
    // The episode a new one replaces (emitted as `ended_episode`, e.g. to evict its keyed memory).
    let ended: number | undefined;
    if (st.done || !st.map) {
      if (st.episode > 0) ended = st.episode;
      const [map, rng] = generate(
        st.rng,
        cfgNumber(cfg, 'width', 12),
        cfgNumber(cfg, 'height', 12),
        cfgNumber(cfg, 'obstacle_ratio', 0.18),
      );
      st = {
        rng,
        episode: st.episode + 1,
        t: 0,
        done: false,
        map,
        pose: { x: map.start[0], y: map.start[1], heading: 1 },
      };
      ctx.emitSignal('episode_reset', { episode: st.episode });
    } else {
      const map = st.map;
      const action = parseAction(inputs.action);
      let { x, y, heading } = st.pose;
      if (action === 1) {
        const nx = x + DX[heading]!;
        const ny = y + DY[heading]!;
        if (free(map, nx, ny)) [x, y] = [nx, ny];
        else collision = 1;
      } else if (action === 2) heading = (heading + 3) % 4;
      else if (action === 3) heading = (heading + 1) % 4;
      const t = st.t + 1;
      const atGoal = x === map.goal[0] && y === map.goal[1];
      const done = atGoal || action === 0 || t >= cfgNumber(cfg, 'max_episode_steps', 40);
      reward = (atGoal ? 1 : 0) - 0.01 - collision * 0.05;
      st = { ...st, t, done, pose: { x, y, heading } };
    }
    const map = st.map!;
    const { x, y, heading } = st.pose;
    const success = st.done && x === map.goal[0] && y === map.goal[1] ? 1 : 0;
    const distance = manhattan(map.goal, x, y);
    const ahead = free(map, x + DX[heading]!, y + DY[heading]!) ? 'free' : 'blocked';
    const observation = `${cfgString(cfg, 'name', 'grid')} episode ${st.episode} t=${st.t}: at (${x},${y}) facing ${HEADINGS[heading]}, goal (${map.goal[0]},${map.goal[1]}) distance ${distance}, ahead ${ahead}${st.done ? (success ? ', reached goal' : ', episode over') : ''}`;
    const pose: Pose = { x, y, heading, position: [x, y], orientation: HEADINGS[heading]! };
    return {
      outputs: {
        observation,
        pose,
        map,
        done: st.done,
        metrics: {
          episode: st.episode,
          t: st.t,
          distance,
          success,
          reward: Math.round(reward * 1000) / 1000,
          collisions: collision,
        },
        episode: st.episode,
        ...(ended !== undefined ? { ended_episode: ended } : {}),
      },
      state: st,
    };
  },
};

interface PolicyState {
  rng: number;
  decisions: number;
}

export const gridPolicy: NodeHandler = {
  initState: ({ config }) => ({
    rng: seedState(typeof config.seed === 'number' ? config.seed : 11),
    decisions: 0,
  }),
  fire(inputs, ctx) {
    const st = ctx.state as PolicyState;
    const pose = inputs.pose as Pose | undefined;
    const map = inputs.map as GridMap | undefined;
    let rng = st.rng;
    let action = 1;
    let reason = 'no pose/map: go forward';
    if (pose && map) {
      const visitedSlot = cfgString(ctx.node.config, 'visited_slot');
      const gs = ctx.graph_state;
      const visited = gs && visitedSlot ? ((gs.read(visitedSlot) as readonly string[] | null) ?? []) : [];
      const here = manhattan(map.goal, pose.x, pose.y);
      const score = (h: number) => {
        const nx = pose.x + DX[h]!;
        const ny = pose.y + DY[h]!;
        if (!free(map, nx, ny)) return Infinity;
        return manhattan(map.goal, nx, ny) + (visited.includes(`${nx},${ny}`) ? 0.5 : 0);
      };
      let r: number;
      [r, rng] = nextRandom(rng);
      if (here === 0) [action, reason] = [0, 'at goal: STOP'];
      else if (r < cfgNumber(ctx.node.config, 'epsilon', 0.1)) {
        let k: number;
        [k, rng] = nextInt(rng, 3);
        action = k + 1;
        reason = `explore: ${ACTIONS[action]}`;
      } else {
        const ahead = score(pose.heading);
        const left = score((pose.heading + 3) % 4);
        const right = score((pose.heading + 1) % 4);
        if (ahead <= left && ahead <= right && ahead !== Infinity)
          [action, reason] = [1, `forward toward goal (${here} away)`];
        else if (left <= right && left !== Infinity) [action, reason] = [2, 'turn left: better heading'];
        else if (right !== Infinity) [action, reason] = [3, 'turn right: better heading'];
        else [action, reason] = [2, 'boxed in: turn left'];
      }
      if (gs && visitedSlot) gs.write(visitedSlot, `${pose.x},${pose.y}`);
      const countSlot = cfgString(ctx.node.config, 'count_slot');
      if (gs && countSlot) gs.write(countSlot, 1);
    }
    return {
      outputs: { action, reason: `${ACTIONS[action]}: ${reason}` },
      state: { rng, decisions: st.decisions + 1 },
    };
  },
};
