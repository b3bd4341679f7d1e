// A CLI that is ending waits for its SessionEnd hooks (up to their `timeout`, a minute at most),
// and Telecode waits with it (src/process/wind-down.ts). Whatever waits on such an end says so
// once it has taken longer than the CLI's usual grace, so a person is not left wondering.
import type { Clock } from "../ports/index.js";

/** How long an end is awaited before a running hook is looked for: the grace a CLI gets to exit. */
const LOOK_AFTER_MS = 2000;

/** The note a message gets that waits for the last process's hooks before its own process starts. */
export const PREVIOUS_END_HOOKS_NOTE =
  "Waiting for this session's last Claude Code process to finish its SessionEnd hooks first.";

/**
 * Awaits `ended`; when it has not come 2 s in and `runsEndHook()` then says a SessionEnd hook
 * holds it up, calls `say` (once).
 */
export async function awaitSayingEndHooks(
  ended: Promise<unknown>,
  runsEndHook: () => boolean,
  clock: Clock,
  say: () => void,
): Promise<void> {
  const look = clock.setTimer(LOOK_AFTER_MS, () => {
    if (runsEndHook()) say();
  });
  try {
    await ended;
  } finally {
    look.cancel();
  }
}
