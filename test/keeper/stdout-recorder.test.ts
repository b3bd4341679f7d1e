// The keeper's reading of the CLI's stdout: every line is numbered and delivered whole, and the
// `system/init` lines (which carry the session id) are spotted whatever their key order, also
// when cut across reads, while no other line is taken for one.
import { describe, expect, it } from "vitest";
import { KeeperLog } from "../../src/keeper/keeper-log.js";
import type { LogStorage } from "../../src/keeper/log-storage.js";
import { StdoutRecorder, type InitFields } from "../../src/keeper/stdout-recorder.js";

/** A disk that keeps nothing and answers every write at once. */
const nullDisk: LogStorage = {
  append: (_name, _data, done) => queueMicrotask(() => done(undefined)),
  read: () => Buffer.alloc(0),
  remove: () => undefined,
};

function record(chunks: string[]): { inits: InitFields[]; frames: string } {
  const inits: InitFields[] = [];
  const sent: Buffer[] = [];
  const recorder = new StdoutRecorder({
    log: new KeeperLog({ storage: nullDisk }),
    delivery: {
      sendLive: (frames) => (sent.push(Buffer.from(frames)), true),
      catchUp: () => undefined,
    },
    onInit: (fields) => inits.push(fields),
    maxLineBytes: 1024 * 1024,
  });
  for (const chunk of chunks) recorder.push(Buffer.from(chunk));
  recorder.end();
  return { inits, frames: Buffer.concat(sent).toString() };
}

const init = '{"type":"system","subtype":"init","session_id":"s-1","claude_code_version":"2.1.332"}';
const reordered = '{"session_id":"s-2","subtype":"init","type":"system"}';
/** A system line with its subtype after other keys, and a session id with an escape (not read). */
const late = '{"type":"system","uuid":"u","subtype":"init","session_id":"s\\"3","claude_code_version":"2.1.333"}';
/** Not system lines, though each holds an init mark. */
const notSystem = ['{"subtype":"init","type":"user"}', '{"type":"system","subtype":"initial","session_id":"s-4"}'];
/** Holds the init mark in a nested object: not an init line. */
const assistant = '{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"subtype":"init"}}]}}';
const status = '{"type":"system","subtype":"status","status":"compacting"}';

describe("the keeper's stdout recorder", () => {
  it("spots init lines in any key order and nothing else, and reads their session id and version", () => {
    const lines = [assistant, status, init, reordered, late, ...notSystem];
    const { inits, frames } = record([`${lines.join("\n")}\n`]);
    expect(inits).toEqual([
      { sessionId: "s-1", cliVersion: "2.1.332" },
      { sessionId: "s-2", cliVersion: null },
      { sessionId: null, cliVersion: "2.1.333" },
    ]);
    expect(frames).toBe(lines.map((line, i) => `${i + 1} ${line}\n`).join(""));
  });

  it("reads a field within its own line only", () => {
    const bare = '{"type":"system","subtype":"init","cwd":"/p"}';
    const { inits } = record([`${bare}\n{"type":"result","session_id":"s-9","claude_code_version":"9"}\n`]);
    expect(inits).toEqual([{ sessionId: null, cliVersion: null }]);
  });

  it("spots an init line cut across reads", () => {
    const cut = init.length / 2;
    const { inits, frames } = record([`${assistant}\n${init.slice(0, cut)}`, `${init.slice(cut)}\n${status}`]);
    expect(inits).toEqual([{ sessionId: "s-1", cliVersion: "2.1.332" }]);
    expect(frames).toBe(`1 ${assistant}\n2 ${init}\n3 ${status}\n`);
  });
});
