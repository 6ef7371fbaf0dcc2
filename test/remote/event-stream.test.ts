// EventStream (src/remote/event-stream.ts): event ids, the backlog while no reader is attached,
// the bounded replay buffer for a reader that resumes with Last-Event-ID, and its refusals.
import { describe, expect, it } from "vitest";
import { EventStream } from "../../src/remote/event-stream.ts";
import type { EventSink } from "../../src/remote/sink.ts";

/** A sink that keeps what it was written, as the ids and data of its events. */
function memorySink(): EventSink & { events(): { id: string; data: string }[]; ended: boolean } {
  let text = "";
  const sink = {
    ended: false,
    write: (t: string) => void (text += t),
    end: () => void (sink.ended = true),
    buffered: () => 0,
    blockedSince: () => undefined,
    onClose: () => {},
    events: () =>
      text
        .split("\n\n")
        .filter((e) => e !== "")
        .map((e) => {
          const [id, data] = e.split("\n") as [string, string];
          return { id: id.replace("id: ", ""), data: data.replace("data: ", "") };
        }),
  };
  return sink;
}

const BOUNDS = { maxStreamBytes: 1 << 20, stallMs: 30_000, replayBytes: 1 << 20 };

describe("EventStream", () => {
  it("numbers events from 1 and hands a first reader what waited for it", () => {
    const stream = new EventStream(BOUNDS);
    stream.write('{"a":1}');
    stream.write('{"a":2}');
    const sink = memorySink();
    expect(stream.attach(sink, undefined)).toBeUndefined();
    stream.write('{"a":3}');
    expect(sink.events()).toEqual([
      { id: "1", data: '{"a":1}' },
      { id: "2", data: '{"a":2}' },
      { id: "3", data: '{"a":3}' },
    ]);
  });

  it("replays exactly the events after Last-Event-ID to a resuming reader, replacing the old one", () => {
    const stream = new EventStream(BOUNDS);
    const first = memorySink();
    stream.attach(first, undefined);
    for (let i = 1; i <= 5; i++) stream.write(`{"n":${i}}`);
    const second = memorySink();
    expect(stream.attach(second, "3")).toBeUndefined();
    expect(first.ended).toBe(true);
    stream.write('{"n":6}');
    expect(second.events().map((e) => e.id)).toEqual(["4", "5", "6"]);
    // "0": every event still held.
    const third = memorySink();
    stream.attach(third, "0");
    expect(third.events().map((e) => e.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
  });

  it("without Last-Event-ID a new reader gets only what no reader was handed", () => {
    const stream = new EventStream(BOUNDS);
    const first = memorySink();
    stream.attach(first, undefined);
    stream.write('{"n":1}');
    stream.detach(first);
    stream.write('{"n":2}');
    const second = memorySink();
    stream.attach(second, undefined);
    expect(second.events()).toEqual([{ id: "2", data: '{"n":2}' }]);
  });

  it("refuses a resumption past the replay buffer (410) and an id it never sent (400)", () => {
    const stream = new EventStream({ ...BOUNDS, replayBytes: 40 });
    stream.attach(memorySink(), undefined);
    for (let i = 1; i <= 10; i++) stream.write(`{"n":${i}}`);
    // Each event is 24 characters framed: the buffer keeps the last one.
    expect(stream.start("9")).toBe(10);
    expect(stream.start("2")).toEqual({ status: 410, message: "events 3 to 9 of this stream are no longer held (replayBytes 40): they cannot be resumed" });
    expect(stream.start("11")).toMatchObject({ status: 400 });
    expect(stream.start("x")).toMatchObject({ status: 400 });
    const refused = memorySink();
    expect(stream.attach(refused, "2")).toMatchObject({ status: 410 });
    expect(refused.ended).toBe(true);
  });

  it("never drops an event no reader was handed, and bounds them by maxStreamBytes", () => {
    const stream = new EventStream({ ...BOUNDS, replayBytes: 0, maxStreamBytes: 100 });
    let fault: string | undefined;
    for (let i = 1; i <= 20 && fault === undefined; i++) fault = stream.write(`{"n":${i}}`);
    expect(fault).toMatch(/bytes wait for an event stream that is not open \(maxStreamBytes 100\)/);
    const sink = memorySink();
    stream.attach(sink, undefined);
    expect(sink.events().map((e) => e.id)).toEqual(Array.from({ length: stream.lastId }, (_, i) => String(i + 1)));
  });

  it("gives up the events no reader was handed (a session stream given up), in order", () => {
    const stream = new EventStream(BOUNDS);
    const sink = memorySink();
    stream.attach(sink, undefined);
    stream.write('{"n":1}');
    stream.detach(sink);
    stream.write('{"n":2}');
    stream.write('{"n":3}');
    expect(stream.takeUnsent()).toEqual(['{"n":2}', '{"n":3}']);
    expect(stream.lastId).toBe(1);
  });
});
