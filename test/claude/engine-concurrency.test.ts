// Many sessions in one process, each with its own CLI, ids and pending requests: every
// session gets only its own answers (the fake API routes by a marker in each prompt).
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { makeHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("concurrent sessions with the real CLI", () => {
  it("keeps 10 sessions apart, approvals included", async () => {
    h = await makeHarness();
    const count = 10;
    const markers = Array.from({ length: count }, (_, i) => `[session-${i}]`);
    // Each session runs a command (an approval in its own session) and answers with its marker.
    markers.forEach((m, i) =>
      h?.api.script(
        [reply.bash(`touch made-${i}.txt && echo ran ${m}`, "Make a file"), reply.text(`answer for ${m}`)],
        m,
      ),
    );
    const harness = h;
    const sessions = markers.map(() => harness.open());
    const results = await Promise.all(
      sessions.map(({ session, events }, i) => harness.run(session, events, `Please echo your marker ${markers[i]}`)),
    );
    results.forEach((done, i) => expect(done).toMatchObject({ ok: true, answer: `answer for ${markers[i]}` }));
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(count);
    expect(new Set(sessions.map((s) => s.session.pid)).size).toBe(count);
    for (const [i, { events }] of sessions.entries()) {
      const asked = events.events.filter((e) => e.type === "approval_requested");
      expect(asked).toHaveLength(1);
      expect(asked[0]?.type === "approval_requested" && asked[0].request.input["command"]).toBe(
        `touch made-${i}.txt && echo ran ${markers[i]}`,
      );
      const finished = events.events.filter((e) => e.type === "tool_finished");
      expect(finished).toHaveLength(1);
      expect(finished[0]?.type === "tool_finished" && finished[0].detail).toBe(`ran ${markers[i]}`);
    }
    for (const m of markers) {
      const reqs = h.api.requests(m);
      expect(reqs).toHaveLength(2);
      expect(reqs[1]?.toolResults[0]?.text).toBe(`ran ${m}`);
    }
  });
});
