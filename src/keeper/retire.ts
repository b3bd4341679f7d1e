// Telling a keeper of another protocol version (an older or newer Telecode's) that this
// Telecode owns the state now: it refuses the hello by name and lets its CLI finish the current
// turn and end, while new runs use new keepers. Needs only the socket path every version records.
import { createConnection } from "node:net";
import type { Clock } from "../ports/index.js";
import { encodeMessage, KEEPER_PROTOCOL_VERSION } from "./protocol.js";

/**
 * Says hello with this protocol version and `fence` to the keeper at `socketPath`; resolves
 * with its first answer line (a `refused` frame naming both versions), or undefined when it
 * does not answer within `timeoutMs` (it has ended). Never throws.
 */
export function retireKeeper(options: {
  socketPath: string;
  fence: number;
  clientId: string;
  clock: Clock;
  timeoutMs?: number;
}): Promise<string | undefined> {
  return new Promise((resolve) => {
    let text = "";
    const socket = createConnection(options.socketPath, () =>
      socket.write(
        encodeMessage({
          t: "hello",
          v: KEEPER_PROTOCOL_VERSION,
          client: options.clientId,
          fence: options.fence,
          fromSeq: 0,
        }),
      ),
    );
    const finish = (answer: string | undefined): void => {
      timer.cancel();
      socket.destroy();
      resolve(answer);
    };
    const timer = options.clock.setTimer(options.timeoutMs ?? 5000, () => finish(undefined));
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end >= 0) finish(text.slice(0, end));
    });
    socket.on("error", () => finish(undefined));
    socket.on("close", () => finish(text === "" ? undefined : text));
  });
}
