// The keeper's reading of the CLI's stdout: every line is numbered and delivered whole, and the
// `system/init` lines (which carry the session id) are spotted whatever their key order, also
// when cut across reads, while no other line is taken for one.
import { describe, expect, it } from "vitest";
import { KeeperLog } from "../../src/keeper/keeper-log.js";
import type { LogStorage } from "../../src/keeper/log-storage.js";
import { StdoutRecorder } from "../../src/keeper/stdout-recorder.js";

/** A disk that keeps nothing and answers every write at once. */
const nullDisk: LogStorage = {
  append: (_name, _data, done) => queueMicrotask(() => done(undefined)),
  read: () => Buffer.alloc(0),
  remove: () => undefined,
};

function record(chunks: string[]): { inits: string[]; frames: string } {
  const inits: string[] = [];
  const sent: Buffer[] = [];
  const recorder = new StdoutRecorder({
    log: new KeeperLog({ storage: nullDisk }),
    delivery: {
      sendLive: (frames) => (sent.push(Buffer.from(frames)), true),
      catchUp: () => undefined,
    },
    onInitLine: (line) => inits.push(line),
    maxLineBytes: 1024 * 1024,
  });
  for (const chunk of chunks) recorder.push(Buffer.from(chunk));
  recorder.end();
  return { inits, frames: Buffer.concat(sent).toString() };
}

const init = '{"type":"system","subtype":"init","session_id":"s-1","claude_code_version":"2.1.332"}';
const reordered = '{"session_id":"s-2","subtype":"init","type":"system"}';
/** Holds the init mark in a nested object: not an init line. */
const assistant = '{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"subtype":"init"}}]}}';
const status = '{"type":"system","subtype":"status","status":"compacting"}';

describe("the keeper's stdout recorder", () => {
  it("spots init lines in any key order and nothing else", () => {
    const { inits, frames } = record([`${assistant}\n${status}\n${init}\n${reordered}\n`]);
    expect(inits).toEqual([init, reordered]);
    expect(frames).toBe(`1 ${assistant}\n2 ${status}\n3 ${init}\n4 ${reordered}\n`);
  });

  it("spots an init line cut across reads", () => {
    const cut = init.length / 2;
    const { inits, frames } = record([`${assistant}\n${init.slice(0, cut)}`, `${init.slice(cut)}\n${status}`]);
    expect(inits).toEqual([init]);
    expect(frames).toBe(`1 ${assistant}\n2 ${init}\n3 ${status}\n`);
  });
});
