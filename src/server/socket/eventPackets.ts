// Live `events` batches as socket.io packets of bounded size, serialized by the hub itself.
// - A batch is split into packets of about PACKET_TEXT characters. V8 puts a string over ~128 KB in
//   its large-object space, and turning such a string into a WebSocket frame is slow: measured on a
//   demo batch of 918 events (244 KB), encoding and framing it as one packet took 2.1–2.6 ms, and as
//   ~100-event packets 0.8 ms in all. How many events make PACKET_TEXT is learned from the packets
//   written so far (one JSON.stringify per packet; cutting by each event's own text was slower); a
//   packet that comes out over twice the target (a few events far bigger than the rest) is halved.
//   The packets go out in order, one after the other: the client sees the same events in the same order.
// - The JSON is what socket.io's encoder writes for a packet without binary attachments; written
//   here, the encoder does not first walk the whole batch looking for binary. Event payloads are
//   JSON by contract (the log stores their JSON; arrays from node services reach the stream as
//   summaries: services/serviceEvents.ts), so a live event goes out as the JSON a replay of the log gives.
// - A packet's payload is the events in the client's form: the envelopes themselves, or a packed
//   batch (packedEvents.ts) for clients that asked for one.
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';

/** How a slice of one run's events goes on the wire: the envelope array itself or another form of it. */
export type BatchForm = (events: EventEnvelope[]) => object;

/** Characters of JSON aimed at per packet (at most twice that, unless one event alone is bigger). */
export const PACKET_TEXT = 64 * 1024;

export interface EventPacket {
  /** The events it carries. */
  events: EventEnvelope[];
  /** What the client receives as the `events` payload: `events` in the packeter's form. */
  payload: object;
  /** The JSON of `["events", payload]`, as socket.io's encoder writes it. */
  json: string;
}

/**
 * Cuts batches into packets; one per kind of payload (previews or full values, envelopes or packed:
 * their events differ in size).
 */
export class EventPacketer {
  /** Characters per event in the last packet written. */
  private perEvent = 256;

  constructor(
    private readonly target = PACKET_TEXT,
    private readonly form: BatchForm = (events) => events,
  ) {}

  packets(events: readonly EventEnvelope[]): EventPacket[] {
    const out: EventPacket[] = [];
    for (let i = 0; i < events.length;) {
      const slice = events.slice(i, i + Math.max(1, Math.floor(this.target / this.perEvent)));
      this.write(slice, out);
      i += slice.length;
    }
    return out;
  }

  /** `slice` as packets: one, or halves when much bigger than the target (an event far bigger than its neighbours). */
  private write(slice: EventEnvelope[], out: EventPacket[]): void {
    const payload = this.form(slice);
    const json = JSON.stringify(['events', payload]);
    this.perEvent = Math.max(1, json.length / slice.length);
    if (json.length > 2 * this.target && slice.length > 1) {
      const half = slice.length >> 1;
      this.write(slice.slice(0, half), out);
      this.write(slice.slice(half), out);
    } else out.push({ events: slice, payload, json });
  }
}
