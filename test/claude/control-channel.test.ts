// Our control requests: own ids, answers matched, timeouts and failures as typed errors,
// unmatched answers only logged; the CLI's requests answered at most once.
import { describe, expect, it } from "vitest";
import { isClaudeError } from "../../src/claude/index.js";
import { silentLogger, type EventName } from "../../src/ports/index.js";
import { ControlChannel } from "../../src/claude/control-channel.js";
import { ClaudeError } from "../../src/claude/errors.js";
import { createFakeClock } from "../support/fake-clock.js";

function setup() {
  const clock = createFakeClock(1_000_000);
  const written: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  const logger = { ...silentLogger, event: (name: EventName) => void warnings.push(name) };
  const channel = new ControlChannel({
    write: (line) => (written.push(JSON.parse(line) as Record<string, unknown>), Promise.resolve({ ok: true })),
    clock,
    logger,
  });
  return { clock, written, warnings, channel };
}

describe("ControlChannel", () => {
  it("matches answers by our own ids and fails cleanly on error and timeout", async () => {
    const { clock, written, warnings, channel } = setup();
    const mode = channel.request({ subtype: "set_permission_mode", mode: "plan" });
    const model = channel.request({ subtype: "set_model", model: "x" });
    const slow = channel.request({ subtype: "interrupt" }, 1000);
    const [a, b] = written.map((w) => w["request_id"] as string);
    expect(a).not.toBe(b);
    channel.handleResponse({
      type: "control_response",
      response: { subtype: "error", request_id: b as string, error: "no such model" },
    });
    channel.handleResponse({
      type: "control_response",
      response: { subtype: "success", request_id: a as string, response: { mode: "plan" } },
    });
    channel.handleResponse({
      type: "control_response",
      response: { subtype: "success", request_id: "nobody", response: {} },
    });
    await expect(mode).resolves.toEqual({ mode: "plan" });
    await expect(model).rejects.toSatisfy((e) => isClaudeError(e, "claude.control_failed"));
    clock.advance(1000);
    await expect(slow).rejects.toSatisfy((e) => isClaudeError(e, "claude.control_timeout"));
    expect(warnings).toEqual(["claude.control.unmatched_response"]);
  });

  it("hands back with an initialize answer the requests the CLI lists beside it as still waiting", async () => {
    const { written, channel } = setup();
    const init = channel.request({ subtype: "initialize", hooks: null });
    const permission = { type: "control_request", request_id: "p-1", request: { subtype: "can_use_tool" } };
    const question = { type: "control_request", request_id: "e-1", request: { subtype: "elicitation" } };
    channel.handleResponse({
      type: "control_response",
      response: {
        subtype: "success",
        request_id: written[0]!["request_id"] as string,
        response: { commands: [] },
        pending_permission_requests: [permission],
        pending_elicitation_requests: [question],
      },
    });
    await expect(init).resolves.toEqual({
      commands: [],
      pending_permission_requests: [permission],
      pending_elicitation_requests: [question],
    });
  });

  it("answers a CLI request once, never after withdrawal, and fails pending requests on close", async () => {
    const { written, channel } = setup();
    const signal = channel.beginIncoming("q1", "can_use_tool");
    expect(channel.beginIncoming("q1", "can_use_tool")).toBeUndefined();
    expect(await channel.answer("q1", '{"a":1}\n')).toEqual({ ok: true });
    expect(await channel.answer("q1", '{"a":2}\n')).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    const other = channel.beginIncoming("q2", "can_use_tool");
    expect(channel.withdraw("q2")).toBe(true);
    expect(other?.aborted).toBe(true);
    expect(await channel.answer("q2", '{"b":1}\n')).toBeUndefined();
    expect(written).toEqual([{ a: 1 }]);
    const pending = channel.request({ subtype: "interrupt" });
    channel.close(new ClaudeError("claude.exited", "gone"));
    await expect(pending).rejects.toSatisfy((e) => isClaudeError(e, "claude.exited"));
  });
});
