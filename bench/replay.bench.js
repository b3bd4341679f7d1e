// bench/replay: decode+translate throughput against a bare split + JSON.parse floor.
// Builds a stream of ≥ 200k lines from the recorded fixtures (whole sessions, plus lines of
// up to 1 MiB derived from r2), fed to both in the same 64 KiB chunks, interleaved in one
// process. Reports lines/s, MB/s, the ratio b/a against the faster of two floors (text and
// byte splitting; goal ≥ 0.75) and RSS (must stay flat: events are not retained).
import { Buffer } from "node:buffer";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath, URL } from "node:url";
import { createTranslator } from "../dist/claude/translator.js";
import { decodeLine, LineFramer, oversizedLineProblem } from "../dist/wire/index.js";
import { splitByteLines } from "./byte-lines.js";
import { scaled } from "./scale.js";
import { printTable } from "./table.js";

const FIXTURES = fileURLToPath(new URL("../test/golden/fixtures/claude-code-2.1.332/", import.meta.url));
const MIN_LINES = scaled(200_000, 2000);
const CHUNK_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 1024 * 1024;
const BIG_BLOCK_EVERY = 10; // cycles of the ordinary fixtures between two ~1 MiB-line blocks
const ROUNDS = scaled(3, 1);
const MiB = 1024 * 1024;

// ------------------------------------------------------------------ the stream

/** Shrinks the longest string inside a parsed line until the line fits in `maxBytes`. */
function shrinkLine(line, maxBytes) {
  const over = Buffer.byteLength(line) - maxBytes;
  if (over <= 0) return line;
  const value = JSON.parse(line);
  let best = { holder: undefined, key: undefined, length: -1 };
  const visit = (holder) => {
    for (const key of Object.keys(holder)) {
      const inner = holder[key];
      if (typeof inner === "string" && inner.length > best.length) best = { holder, key, length: inner.length };
      else if (typeof inner === "object" && inner !== null) visit(inner);
    }
  };
  visit(value);
  best.holder[best.key] = best.holder[best.key].slice(0, best.length - over - 1024);
  return JSON.stringify(value);
}

function splitIntoChunks(buffer) {
  const chunks = [];
  for (let offset = 0; offset < buffer.length; offset += CHUNK_BYTES)
    chunks.push(buffer.subarray(offset, offset + CHUNK_BYTES));
  return chunks;
}

function countLines(buffer) {
  let lines = 0;
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) lines += 1;
  return lines;
}

function buildStream() {
  const files = readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".stdout.jsonl"))
    .sort();
  const ordinary = Buffer.concat(
    files.filter((name) => !name.startsWith("r2-")).map((name) => readFileSync(join(FIXTURES, name))),
  );
  const r2 = readFileSync(join(FIXTURES, "r2-large-assistant-line.stdout.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const big = Buffer.from(`${r2.map((line) => shrinkLine(line, MAX_LINE_BYTES)).join("\n")}\n`);
  const ordinaryChunks = splitIntoChunks(ordinary);
  const bigChunks = splitIntoChunks(big);
  const plan = [];
  let lines = 0;
  let bytes = 0;
  let largest = 0;
  for (const line of big.toString("utf8").split("\n")) largest = Math.max(largest, Buffer.byteLength(line));
  for (let cycle = 0; lines < MIN_LINES; cycle++) {
    plan.push(ordinaryChunks);
    lines += countLines(ordinary);
    bytes += ordinary.length;
    if (cycle % BIG_BLOCK_EVERY === BIG_BLOCK_EVERY - 1) {
      plan.push(bigChunks);
      lines += countLines(big);
      bytes += big.length;
    }
  }
  return { plan, lines, bytes, largest };
}

// ------------------------------------------------------------------ the two contenders

/**
 * (a) The floor: decode chunks to text, cut at each "\n" (joining a line's pieces only when
 * its newline arrives, so long lines cost linear time), JSON.parse each line.
 */
function runFloor(plan, sample) {
  const decoder = new StringDecoder("utf8");
  const pieces = [];
  let objects = 0;
  let chunkCount = 0;
  const parse = (line) => {
    if (line === "") return;
    const value = JSON.parse(line);
    if (typeof value.type === "string") objects += 1;
  };
  for (const block of plan) {
    for (const chunk of block) {
      const text = decoder.write(chunk);
      let start = 0;
      let newline = text.indexOf("\n");
      while (newline !== -1) {
        const tail = text.slice(start, newline);
        if (pieces.length === 0) parse(tail);
        else {
          pieces.push(tail);
          parse(pieces.join(""));
          pieces.length = 0;
        }
        start = newline + 1;
        newline = text.indexOf("\n", start);
      }
      if (start < text.length) pieces.push(text.slice(start));
      if ((++chunkCount & 255) === 0) sample(chunkCount);
    }
  }
  parse(pieces.join(""));
  return objects;
}

/** (a2) A second floor on bytes: cut the Buffers at "\n", decode each line, JSON.parse. */
function runFloorBytes(plan, sample) {
  let objects = 0;
  let chunkCount = 0;
  const lines = splitByteLines((line) => {
    if (line === "") return;
    const value = JSON.parse(line);
    if (typeof value.type === "string") objects += 1;
  });
  for (const block of plan) {
    for (const chunk of block) {
      lines.push(chunk);
      if ((++chunkCount & 255) === 0) sample(chunkCount);
    }
  }
  lines.end();
  return objects;
}

/** (b) Telecode: LineFramer → decodeLine → translator. */
function runTelecode(plan, sample) {
  const translator = createTranslator();
  let events = 0;
  const framer = new LineFramer({
    onLine: (line) => {
      events += translator.push(decodeLine(line)).length;
    },
    onOversizedLine: (report) => {
      events += translator.push(oversizedLineProblem(report)).length;
    },
  });
  let chunkCount = 0;
  for (const block of plan) {
    for (const chunk of block) {
      framer.push(chunk);
      if ((++chunkCount & 255) === 0) sample(chunkCount);
    }
  }
  framer.end();
  events += translator.end().length;
  return events;
}

// ------------------------------------------------------------------ measuring

function measure(run, plan, totalChunks) {
  globalThis.gc?.();
  const baseRss = process.memoryUsage.rss();
  let peakRss = baseRss;
  let rssAtTenth = 0;
  const sample = (chunkCount) => {
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) peakRss = rss;
    if (rssAtTenth === 0 && chunkCount >= totalChunks / 10) rssAtTenth = rss;
  };
  const start = process.hrtime.bigint();
  const output = run(plan, sample);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rssAtEnd = process.memoryUsage.rss();
  return { seconds, output, peakRss, rssAtTenth, rssAtEnd };
}

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

const stream = buildStream();
const totalChunks = stream.plan.reduce((sum, block) => sum + block.length, 0);
process.stdout.write(
  `stream: ${stream.lines.toLocaleString("en-US")} lines, ${(stream.bytes / MiB).toFixed(0)} MiB, ` +
    `${totalChunks.toLocaleString("en-US")} chunks of ${CHUNK_BYTES / 1024} KiB, longest line ${(stream.largest / MiB).toFixed(2)} MiB; ` +
    `${ROUNDS} interleaved rounds, medians\n\n`,
);

const floorText = [];
const floorBytes = [];
const telecode = [];
for (let round = 0; round < ROUNDS; round++) {
  floorText.push(measure(runFloor, stream.plan, totalChunks));
  floorBytes.push(measure(runFloorBytes, stream.plan, totalChunks));
  telecode.push(measure(runTelecode, stream.plan, totalChunks));
}

// The ratio is taken against the faster of the two floors.
const floorSeconds = Math.min(median(floorText.map((m) => m.seconds)), median(floorBytes.map((m) => m.seconds)));
const telecodeSeconds = median(telecode.map((m) => m.seconds));
const row = (name, seconds, runs) => ({
  variant: name,
  "lines/s": Math.round(stream.lines / seconds).toLocaleString("en-US"),
  "MB/s": (stream.bytes / 1e6 / seconds).toFixed(0),
  "vs best floor": (floorSeconds / seconds).toFixed(2),
  "peak RSS MiB": (Math.max(...runs.map((m) => m.peakRss)) / MiB).toFixed(0),
  "RSS at 10% → end MiB": `${(median(runs.map((m) => m.rssAtTenth)) / MiB).toFixed(0)} → ${(median(runs.map((m) => m.rssAtEnd)) / MiB).toFixed(0)}`,
});
printTable([
  row("(a) text split + JSON.parse", median(floorText.map((m) => m.seconds)), floorText),
  row("(a2) byte split + JSON.parse", median(floorBytes.map((m) => m.seconds)), floorBytes),
  row("(b) framer + decoder + translator", telecodeSeconds, telecode),
]);
process.stdout.write(`\nevents emitted per run: ${telecode[0].output.toLocaleString("en-US")}\n`);
