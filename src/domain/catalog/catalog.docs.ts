// Markdown docs of the built-in node types, shown in the node library and the inspector. Kept apart
// from catalog.builtins.ts (ports and config) so the data stays readable; an entry here replaces the
// spec's inline `docs` (the entries that had one repeat it first).
// Every statement here describes what the engine's handler (src/engine/nodes/*, executor.ts) does.

const VIEWER_SINK =
  'A sink: it has no outputs and never feeds other nodes. Each fire emits a `viewer_data` event ' +
  '`{node_id, step, fields}` with what arrived, which the Run panel shows.';

const ACCUMULATING_VIEWER =
  `${VIEWER_SINK} It keeps the last 200 values per input in its node-local state (checkpointed, ` +
  'visible in the State panel) and sends that whole history on each fire.';

export const BUILTIN_DOCS: Readonly<Record<string, string>> = {
  iterIn:
    'Ports: `init_<x>` for each initPort (run-start side), `iterout_<x>` for each carry port of the paired iterOut, `step` and `iteration`.\n\n' +
    'Pair it with an iterOut (`pairedWith` on both). The nodes downstream of the iterIn and upstream of ' +
    'its iterOut form the loop scope. `step` is the root step count (root steps completed: 0, 1, … ' +
    'in the outermost loop), the same number in nested loops, as in the reference, so memory keyed by ' +
    '`step` gets the same keys. `iteration` is this loop’s own count since it was entered (0, 1, …; ' +
    'an inner loop starts again at 0 on every outer step); it is a Statewire extension that the ' +
    'reference does not have. Only non-null values are passed on: a port holding `null` (e.g. fed by ' +
    'a nullSource) fires nothing downstream. `config.step_budget` caps the iterations of this scope ' +
    '(default: the enclosing scope or the graph `step_budget`).',
  iterOut:
    'Inputs are the carry ports from `config.ports`: their values come back on the iterIn as ' +
    '`iterout_<x>` in the next iteration. A truthy `stop` ends the loop. When the loop ends, the ' +
    '`final_<x>` outputs (and `final_stop`) fire once with the last values; only `final_*` edges may ' +
    'leave an iterOut, and the nodes they feed form the after-loop band.',
  graphIn:
    'Inside a composite, the parent edge into the port named `config.portName` arrives here and is ' +
    'passed on as `value`. In a top-level graph it is a source that emits `config.value` (or null) ' +
    'once at run start.',
  graphOut:
    'Its last `value` appears in each `nav_step` under `config.portName`; in a composite it becomes ' +
    'the output port of that name. An evaluation graph (`eval_graph: true`) needs at least one; ' +
    '`metrics`/`success` outputs must be fed from the after-loop band.',
  nullSource:
    'Emits `null` on `value` once at run start. Use it to trigger nodes that need an input but no data.',
  constant:
    'Emits `config.value` (any JSON value; null when unset) on `value` once at run start. ' +
    '`config.wire_type` sets the wire type the editor checks edges against.',
  note: 'A markdown note on the canvas (`config.markdown`). It has no ports, holds no grants and never runs.',
  llmCall:
    'Unresolved `{var}` placeholders in the template are filled from granted `graph_state` slots. `write_to_state` writes the response to that graph_state slot.\n\n' +
    'The provider is the offline one by default: it is deterministic and echoes the prompt, or cycles ' +
    'through `config.responses` when given, so runs need no network. Set `STATEWIRE_LLM_BASE_URL`, ' +
    '`STATEWIRE_LLM_MODEL` (and `STATEWIRE_LLM_API_KEY`) to call any OpenAI-compatible endpoint. ' +
    'Every call is recorded in the run log; a restored or forked run replays the recorded response ' +
    'unless started with fresh effects.',
  textParse:
    'Mode `choice`: `value` is the comma-separated choice found earliest in the text (case-insensitive), ' +
    '`index` its position in the list (-1 if none), `rest` the text after it. Mode `regex`: `value` is ' +
    'group 1 (or the whole match), `index` the match offset (-1 if none). Mode `json_field`: `value` is ' +
    'the `json_key` field of the first `{…}` object in the text. An invalid pattern is a node error.',
  historyLog:
    'Each fire with an `entry` appends one line (`template` with `{step}` and `{entry}`) and emits the ' +
    'last `max_entries` lines joined by newlines on `history`. The lines live in node-local state, so ' +
    'they are visible in the State panel, checkpointed and restored.',
  stateRead:
    'When `trigger` arrives, reads slot `config.state` of container `config.container` (the node needs ' +
    'an access grant to it) and emits the value; `config.key` (or a `key` input) reads a keyed ' +
    'partition. Reading an undeclared slot or an ungranted container is a node error that names them. ' +
    'Both inputs are optional, so the node fires on the first that arrives: feed `key` from the same ' +
    'upstream node as `trigger` (or wire `key` alone).',
  stateWrite:
    'Optional `key` writes a keyed partition; optional `value` writes that constant instead of the input (the input then only triggers).\n\n' +
    'The slot’s reducer decides how the write merges (accumulator appends, lastWrite replaces, counter ' +
    'adds, merge/union/byKey combine). The written value is passed on as `value`, so writes can be ' +
    'chained in order. The key comes from the `key` input (a string, or a number such as an ' +
    'iterIn’s `step`, used as its decimal text) or else from `config.key`. The node needs an access ' +
    'grant to the container.',
  stateEvict:
    'When `key` arrives, drops that key from every keyed slot of container `config.container` (the ' +
    'node needs an access grant to it); the other keys and the unkeyed values stay. A number key is ' +
    'used as its decimal text, like stateWrite’s. A `trigger` that arrives with the key gates it: a ' +
    'falsy one evicts nothing. Outputs the `key` and, as `evicted`, the slots that had a partition ' +
    'for it. A key that is neither text nor a number is a node error.',
  emitSignal:
    'When `trigger` arrives, broadcasts `config.signal` to every container; slots with lifetime ' +
    '`custom` and that name in `reset_on` are cleared (the `signal` event lists them). The payload is ' +
    '`config.payload`, else the trigger value. With `only_if_truthy` a falsy trigger emits nothing. ' +
    'The trigger is passed on unchanged.',
  gridEnv:
    'A seeded grid world: obstacles, a start and a goal are drawn from `seed`, so a run replays ' +
    'exactly. Each fire applies `action` (0 STOP, 1 FORWARD, 2 TURN_LEFT, 3 TURN_RIGHT, or the name) ' +
    'and emits the `observation` text, the `pose`, the occupancy `map`, `done` and `metrics` ' +
    '(`episode`, `t`, `distance`, `success`, `reward`, `collisions`). An episode ends at the goal, on ' +
    'STOP or after `max_episode_steps`; the next fire starts a new one and emits `episode_reset`, which ' +
    'clears `episode`-lifetime slots. `episode` is the current episode number (1, 2, …); on the fire ' +
    'that starts a new episode, `ended_episode` carries the number of the one that ended (wire it to ' +
    'a stateEvict to drop that episode’s keyed memory). The generator state is node-local state ' +
    '(checkpointed).',
  gridPolicy:
    'Picks the action that brings the pose closest to the goal (Manhattan distance, avoiding obstacles; ' +
    'cells already in the `visited_slot` union cost a little more), or a random turn/forward with ' +
    'probability `epsilon`, and STOP at the goal. `reason` explains the choice. With a `graph_state` ' +
    'grant it adds the current cell to `visited_slot` and 1 to `count_slot` when those are set.',
  imageViewer: `Shows an image. ${VIEWER_SINK}`,
  textViewer: `Shows the latest text. ${VIEWER_SINK}`,
  textScroll: `Shows a scrolling list of the texts it received. ${ACCUMULATING_VIEWER}`,
  actionLog: `Shows the actions taken so far. ${ACCUMULATING_VIEWER}`,
  metrics: `Shows the latest metrics object as a table. ${VIEWER_SINK}`,
  trajectoryViewer: `Shows the path of the poses it received. ${ACCUMULATING_VIEWER}`,
  pointCloudViewer: `Shows a point cloud. ${VIEWER_SINK}`,
};
