// The recorder's sanitiser: machine paths and volatile values become stable placeholders, the
// same value always the same placeholder, and what a scenario wrote itself stays as it was.
import { describe, expect, it } from "vitest";
import { Sanitiser } from "./sanitise.js";

const place = {
  root: "/tmp/telecode-test-Ab12",
  home: "/tmp/telecode-test-Ab12/home",
  project: "/tmp/telecode-test-Ab12/project",
  tmp: "/tmp/telecode-test-Ab12/tmp",
  apiPort: "43117",
};

function sanitised(lines: string[], keep: string[] = []): string[] {
  const sanitiser = new Sanitiser(place, keep);
  for (const line of lines) sanitiser.learn(line);
  return lines.map((line) => sanitiser.clean(line));
}

describe("recorder sanitiser", () => {
  it("rewrites the workspace to the shared recordings' paths", () => {
    const [line] = sanitised([
      JSON.stringify({
        cwd: place.project,
        memory: `${place.home}/.claude/projects/-tmp-telecode-test-Ab12-project/memory/`,
        socket: `${place.tmp}/claude-1000/4242.sock`,
        messaging_socket_path: `${place.tmp}/cc-socks/4242.sock`,
        text: "check your inference gateway (127.0.0.1:43117).",
        pid: 4242,
      }),
    ]);
    expect(JSON.parse(line ?? "")).toEqual({
      cwd: "/home/user/project",
      memory: "/home/user/.claude/projects/-home-user-project/memory/",
      socket: "/tmp/claude-XXXX/10000.sock",
      messaging_socket_path: "/tmp/cc-socks/10000.sock",
      text: "check your inference gateway (127.0.0.1:PORT).",
      pid: 10000,
    });
  });

  it("gives every uuid and CLI-made id one placeholder, in order of first appearance, and keeps the scenario's own", () => {
    const session = "86bcd8b4-01d1-4027-ae4e-91ae1fade731";
    const ours = "11111111-2222-4333-8444-555555555555";
    const lines = sanitised(
      [
        JSON.stringify({ session_id: session, uuid: ours, task_id: "a249f8673e4ffee0d" }),
        JSON.stringify({
          session_id: session,
          text: "agentId: a249f8673e4ffee0d",
          tool_use_result: { id: "3dcca280", humanSchedule: "Every minute" },
        }),
        JSON.stringify({ content: "Scheduled recurring job 3dcca280 (Every minute). Next run: Nov 30 4:31pm." }),
      ],
      [ours],
    ).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({
      session_id: "00000000-0000-4000-8000-000000000001",
      uuid: ours,
      task_id: "a0000000000000001",
    });
    expect(lines[1]?.["session_id"]).toBe("00000000-0000-4000-8000-000000000001");
    expect(lines[1]?.["text"]).toBe("agentId: a0000000000000001");
    expect(lines[2]?.["content"]).toBe("Scheduled recurring job 00000002 (Every minute). Next run: Jan 1 12:00am.");
  });

  it("fixes times, durations and generated file names", () => {
    const [line] = sanitised([
      JSON.stringify({
        timestamp: "2026-11-30T16:31:58.368Z",
        duration_ms: 1863,
        duration_api_ms: 1700,
        retry_delay_ms: 548,
        scheduled_for: 1796056380000,
        plan: "/home/user/.claude/plans/plan-how-to-make-purring-newell.md",
        saved: "/home/user/.claude/projects/x/tool-results/bvs51dcq1.txt",
        wake: "Next wakeup scheduled for 16:33:00 (in 61s)",
        backup:
          "The corrupted file has been backed up to: /home/user/.claude/backups/.claude.json.corrupted.1796469010535",
        num_turns: 2,
      }),
    ]);
    expect(JSON.parse(line ?? "")).toEqual({
      timestamp: "2026-01-01T00:00:00.000Z",
      duration_ms: 0,
      duration_api_ms: 0,
      retry_delay_ms: 0,
      scheduled_for: 1767225600000,
      plan: "/home/user/.claude/plans/plan-1.md",
      saved: "/home/user/.claude/projects/x/tool-results/output-2.txt",
      wake: "Next wakeup scheduled for 00:00:00 (in 60s)",
      backup:
        "The corrupted file has been backed up to: /home/user/.claude/backups/.claude.json.corrupted.1767225600000",
      num_turns: 2,
    });
  });
});
