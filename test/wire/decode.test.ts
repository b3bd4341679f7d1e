import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeLine, isDecodeProblem, oversizedLineProblem, PROBLEM_LINE_MAX_CHARS } from "../../src/wire/index.js";
import type { WireMessage } from "../../src/wire/index.js";
import { listStdoutFixtures, stdoutLines } from "./fixtures.js";

function decodeOk(line: string): WireMessage {
  const decoded = decodeLine(line);
  if (isDecodeProblem(decoded)) throw new Error(`unexpected problem: ${decoded.reason}`);
  return decoded;
}

function reasonOf(line: string): string {
  const decoded = decodeLine(line);
  if (!isDecodeProblem(decoded)) throw new Error(`expected a problem for ${line}`);
  expect(decoded.line).toBe(line.slice(0, PROBLEM_LINE_MAX_CHARS));
  return decoded.reason;
}

describe("decodeLine on the recorded fixtures", () => {
  // No fixture is meant to be odd at the line level: every stdout line the real CLI printed
  // is well-formed (t2 printed nothing; t3 and t4 misbehaved on stdin, not stdout).
  const names = listStdoutFixtures();
  it("finds all 76 stdout recordings (a–t6, the u-, v- and w-series with their earlier runs)", () => {
    expect(names.length).toBe(76);
  });
  for (const name of names) {
    it(`${name}: every line decodes without a problem`, () => {
      const problems = stdoutLines(name).map(decodeLine).filter(isDecodeProblem);
      expect(problems).toEqual([]);
    });
  }

  it("covers every type/subtype the fixtures contain", () => {
    const seen = new Set<string>();
    for (const name of names) {
      for (const line of stdoutLines(name)) {
        const m = decodeOk(line);
        const sub =
          m.type === "system"
            ? m.subtype
            : m.type === "control_request"
              ? m.request.subtype
              : m.type === "control_response"
                ? m.response.subtype
                : m.type === "command_lifecycle"
                  ? m.state
                  : "";
        seen.add(`${m.type}/${sub}`);
      }
    }
    for (const key of [
      "system/init",
      "system/status",
      "system/api_retry",
      "system/compact_boundary",
      "system/hook_started",
      "system/hook_response",
      "system/task_started",
      "system/task_progress",
      "system/task_updated",
      "system/task_notification",
      "system/thinking_tokens",
      "system/background_tasks_changed",
      "assistant/",
      "user/",
      "result/",
      "rate_limit_event/",
      "stream_event/",
      "control_request/can_use_tool",
      "control_request/hook_callback",
      "control_response/success",
      "control_response/error",
      "control_cancel_request/",
      "command_lifecycle/queued",
      "command_lifecycle/started",
      "command_lifecycle/completed",
    ]) {
      expect(seen, key).toContain(key);
    }
  });
});

describe("decodeLine on command_lifecycle", () => {
  const lifecycles = (name: string): WireMessage[] =>
    stdoutLines(name)
      .map(decodeOk)
      .filter((m) => m.type === "command_lifecycle");

  it("types a cron fire: started with its wake-up source, then completed for the same command", () => {
    const [started, completed] = lifecycles("u1-cron-live-fire");
    expect(started).toMatchObject({ type: "command_lifecycle", state: "started", wakeup_source: "schedule_wakeup" });
    expect(completed).toMatchObject({ state: "completed" });
    if (started?.type !== "command_lifecycle" || completed?.type !== "command_lifecycle") throw new Error("typed");
    expect(completed.command_uuid).toBe(started.command_uuid);
    expect(completed.wakeup_source).toBeUndefined();
  });

  it("types a loop wake-up with the time it was due", () => {
    const started = lifecycles("u5-schedule-wakeup").find(
      (m) => m.type === "command_lifecycle" && m.state === "started",
    );
    expect(started).toMatchObject({ wakeup_source: "loop_wakeup", scheduled_for: expect.any(Number) });
  });

  it("carries the uuid the consumer wrote on its user line as command_uuid", () => {
    const states = lifecycles("u11-user-uuid").map((m) => (m.type === "command_lifecycle" ? m : undefined));
    expect(states.map((m) => m?.state)).toEqual(["queued", "started", "completed"]);
    expect(new Set(states.map((m) => m?.command_uuid))).toEqual(new Set(["11111111-2222-4333-8444-555555555555"]));
  });

  it("reports a lifecycle line whose fields have the wrong types", () => {
    expect(reasonOf('{"type":"command_lifecycle","state":"started"}')).toBe("command_lifecycle without a command_uuid");
    expect(reasonOf('{"type":"command_lifecycle","command_uuid":"c","state":1}')).toMatch(/state/);
    expect(reasonOf('{"type":"command_lifecycle","command_uuid":"c","state":"started","wakeup_source":3}')).toMatch(
      /wakeup_source/,
    );
    expect(
      reasonOf('{"type":"command_lifecycle","command_uuid":"c","state":"started","scheduled_for":"soon"}'),
    ).toMatch(/scheduled_for/);
  });
});

describe("decodeLine", () => {
  it("keeps unknown fields and the parsed values", () => {
    const m = decodeOk(
      '{"type":"result","subtype":"success","is_error":false,"session_id":"s","future_field":{"x":1}}',
    );
    expect(m).toMatchObject({ type: "result", future_field: { x: 1 } });
  });

  it("accepts any other system subtype as a generic system message", () => {
    expect(decodeOk('{"type":"system","subtype":"notification","key":"k","text":"hi"}')).toMatchObject({
      subtype: "notification",
    });
  });

  it("accepts the SDK's auxiliary types", () => {
    for (const type of [
      "tool_progress",
      "tool_use_summary",
      "auth_status",
      "conversation_reset",
      "keep_alive",
      "active_goal",
    ]) {
      expect(decodeOk(JSON.stringify({ type }))).toEqual({ type });
    }
  });

  it("reads a prompt suggestion's text, and refuses one without it", () => {
    const line = '{"type":"prompt_suggestion","suggestion":"run the tests","uuid":"u","session_id":"s"}';
    expect(decodeOk(line)).toMatchObject({ type: "prompt_suggestion", suggestion: "run the tests" });
    expect(decodeLine('{"type":"prompt_suggestion","uuid":"u"}')).toMatchObject({
      kind: "decode_problem",
      reason: "prompt_suggestion without a string suggestion",
    });
    expect(decodeLine('{"type":"prompt_suggestion","suggestion":"x","session_id":7}')).toMatchObject({
      kind: "decode_problem",
    });
  });

  it("accepts user content as a string or blocks, and normalises a missing parent to null", () => {
    expect(decodeOk('{"type":"user","message":{"role":"user","content":"hi"}}')).toMatchObject({
      parent_tool_use_id: null,
    });
    expect(
      decodeOk(
        '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]},"parent_tool_use_id":"p"}',
      ),
    ).toMatchObject({ parent_tool_use_id: "p" });
  });

  it("reports non-JSON, non-objects, unknown types and malformed required fields", () => {
    expect(reasonOf("not json")).toMatch(/^not JSON/);
    expect(reasonOf("[1,2]")).toBe("not a JSON object");
    expect(reasonOf("null")).toBe("not a JSON object");
    expect(reasonOf('{"x":1}')).toBe("no string type field");
    expect(reasonOf('{"type":"no_such_type"}')).toBe('unknown message type "no_such_type"');
    // Only a well-formed line of a type Telecode does not know is told apart as one.
    expect(decodeLine('{"type":"no_such_type","session_id":"s"}')).toMatchObject({ unknownType: "no_such_type" });
    for (const broken of ["not json", '{"x":1}', '{"type":"assistant","message":{"content":"text"}}'])
      expect(decodeLine(broken)).not.toHaveProperty("unknownType");
    expect(reasonOf('{"type":"result","subtype":"success","is_error":"no","session_id":"s"}')).toMatch(/is_error/);
    expect(reasonOf('{"type":"assistant","message":{"content":"text"}}')).toMatch(/list of blocks/);
    expect(
      reasonOf('{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":"ls"}]}}'),
    ).toMatch(/input/);
    expect(reasonOf('{"type":"assistant","message":{"content":[{"type":"text"}]}}')).toMatch(/text block/);
    expect(reasonOf('{"type":"user","message":{"content":[{"type":"tool_result"}]}}')).toMatch(/tool_use_id/);
    expect(reasonOf('{"type":"system"}')).toMatch(/subtype/);
    expect(reasonOf('{"type":"system","subtype":"init"}')).toMatch(/session_id/);
    expect(reasonOf('{"type":"system","subtype":"api_retry","attempt":"1"}')).toMatch(/api_retry/);
    expect(
      reasonOf('{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","input":{}}}'),
    ).toMatch(/tool_name/);
    expect(reasonOf('{"type":"control_request","request":{"subtype":"interrupt"}}')).toMatch(/request_id/);
    expect(reasonOf('{"type":"control_response","response":{"subtype":"maybe","request_id":"r"}}')).toMatch(/subtype/);
    expect(reasonOf('{"type":"control_cancel_request"}')).toMatch(/request_id/);
    expect(reasonOf('{"type":"rate_limit_event","rate_limit_info":{}}')).toMatch(/status/);
    expect(reasonOf('{"type":"stream_event","event":{}}')).toMatch(/event type/);
  });

  it("cuts the raw line kept in a problem", () => {
    const decoded = decodeLine(`{"type":"nope","pad":"${"x".repeat(10_000)}"}`);
    expect(isDecodeProblem(decoded) && decoded.line.length).toBe(PROBLEM_LINE_MAX_CHARS);
  });

  it("turns an oversized-line report into a problem", () => {
    expect(oversizedLineProblem({ bytes: 70, maxLineBytes: 64, head: '{"type"' })).toEqual({
      kind: "decode_problem",
      reason: "line of 70 bytes exceeds the 64-byte limit and was dropped",
      line: '{"type"',
    });
  });

  it("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (line) => {
        decodeLine(line);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on arbitrary JSON, nor on arbitrary values under a known type", () => {
    const types = fc.constantFrom(
      "system",
      "assistant",
      "user",
      "result",
      "stream_event",
      "rate_limit_event",
      "control_request",
      "control_response",
      "control_cancel_request",
      "keep_alive",
      "other",
    );
    const subtypes = fc.constantFrom(
      "init",
      "status",
      "api_retry",
      "compact_boundary",
      "task_started",
      "can_use_tool",
      "hook_callback",
      "success",
      "error",
      "x",
    );
    const shaped = fc.record(
      {
        type: types,
        subtype: fc.oneof(subtypes, fc.jsonValue()),
        message: fc.oneof(
          fc.jsonValue(),
          fc.record({
            content: fc.oneof(
              fc.string(),
              fc.array(
                fc.oneof(
                  fc.jsonValue(),
                  fc.record({
                    type: fc.constantFrom("text", "tool_use", "tool_result", "thinking"),
                    text: fc.jsonValue(),
                    id: fc.jsonValue(),
                    name: fc.jsonValue(),
                    input: fc.jsonValue(),
                    tool_use_id: fc.jsonValue(),
                    content: fc.jsonValue(),
                  }),
                ),
              ),
            ),
          }),
        ),
        request: fc.oneof(
          fc.jsonValue(),
          fc.record({ subtype: subtypes, tool_name: fc.jsonValue(), input: fc.jsonValue() }),
        ),
        response: fc.oneof(
          fc.jsonValue(),
          fc.record({ subtype: subtypes, request_id: fc.jsonValue(), error: fc.jsonValue(), response: fc.jsonValue() }),
        ),
        request_id: fc.jsonValue(),
        session_id: fc.jsonValue(),
        is_error: fc.jsonValue(),
        event: fc.jsonValue(),
        rate_limit_info: fc.jsonValue(),
        parent_tool_use_id: fc.jsonValue(),
      },
      { requiredKeys: ["type"] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), shaped), (value) => {
        const decoded = decodeLine(JSON.stringify(value) ?? "null");
        expect(typeof decoded).toBe("object");
      }),
      { numRuns: 2000 },
    );
  });
});
