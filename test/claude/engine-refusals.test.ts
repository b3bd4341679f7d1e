// The engine when Claude Code refuses to start, against the real CLI: it names the cause in a
// result (CLAUDE_CODE_STARTUP_FAILURE_RESULTS, which the engine sets), and the run fails with what
// happened and what to do on the computer running Telecode, not with the CLI's exit status.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { failsUntilFixed } from "../../src/domain/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { makeHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("claude engine: Claude Code refusing to start", () => {
  it("says which settings file is not JSON and how to mend it, then runs once it is mended", async () => {
    h = await makeHarness({ replies: [reply.text("Settings mended.")] });
    const settings = join(h.ws.env["HOME"] as string, ".claude.json");
    await writeFile(settings, "{ broken");
    const { session, events } = h.open();
    const failed = await h.run(session, events, "Hello");
    expect(failed).toMatchObject({ ok: false, cancelled: false });
    expect(failed.error).toMatchObject({
      reason: "start_refused",
      what: `Claude Code would not start: Configuration error in ${settings}: JSON Parse error: Expected '}'.`,
      hint: `On the computer running Telecode, fix the JSON in ${settings}, or move the file aside to start Claude Code with default settings; until then every message fails the same way.`,
    });
    expect(failsUntilFixed(failed.error!)).toBe(true);
    // The session its result names was never begun, and its exit is no crash to report.
    expect(failed.sessionId).toBeUndefined();
    expect(events.events.filter((e) => e.type === "note")).toEqual([]);

    await rm(settings);
    const done = await h.run(session, events, "Hello again");
    expect(done).toMatchObject({ ok: true, answer: "Settings mended." });
    expect(events.events.filter((e) => e.type === "note")).toEqual([]);
  });

  it("names a proxy variable that is not a URL, which Claude Code would otherwise leave on stderr alone", async () => {
    h = await makeHarness({ env: { HTTPS_PROXY: "notaurl" } });
    const { session, events } = h.open();
    const failed = await h.run(session, events, "Hello");
    expect(failed.error).toMatchObject({
      reason: "start_refused",
      what: 'Claude Code would not start: Invalid proxy URL in HTTPS_PROXY: "notaurl" cannot be parsed as a URL.',
      hint: "On the computer running Telecode, set that variable to a complete URL (such as http://proxy.example.com:8080) or unset it where Telecode is started, then restart Telecode; until then every message fails the same way.",
    });
  });
});
