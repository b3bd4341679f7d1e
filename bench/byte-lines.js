// The floor both throughput benchmarks compare against: cut Buffers at "\n" with no framing
// logic beyond joining a line's pieces when its newline arrives (linear for long lines).
import { Buffer } from "node:buffer";

/** Returns push(chunk) and end(); `onLine` gets each complete line as a string. */
export function splitByteLines(onLine) {
  const pieces = [];
  return {
    push(chunk) {
      let at = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, at)) {
        if (pieces.length === 0) onLine(chunk.toString("utf8", at, nl));
        else {
          pieces.push(chunk.subarray(at, nl));
          onLine(Buffer.concat(pieces).toString("utf8"));
          pieces.length = 0;
        }
        at = nl + 1;
      }
      if (at < chunk.length) pieces.push(chunk.subarray(at));
    },
    end() {
      if (pieces.length > 0) onLine(Buffer.concat(pieces).toString("utf8"));
      pieces.length = 0;
    },
  };
}
