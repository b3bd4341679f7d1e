import { describe, expect, it } from "vitest";
import {
  encodeControlError,
  encodeControlRequest,
  encodeControlSuccess,
  encodeHookOutput,
  encodePermissionAnswer,
  encodeUserMessage,
} from "../../src/wire/index.js";

/** Each encoder returns exactly one line: JSON text, one trailing newline, no other newline. */
function parseLine(line: string): unknown {
  expect(line.endsWith("\n")).toBe(true);
  expect(line.slice(0, -1)).not.toContain("\n");
  return JSON.parse(line);
}

describe("encoders (shapes from PROTOCOL.md)", () => {
  it("user message with text", () => {
    expect(encodeUserMessage("text")).toBe(
      '{"type":"user","message":{"role":"user","content":"text"},"parent_tool_use_id":null,"session_id":""}\n',
    );
  });

  it("user message with content blocks, and a text holding newlines stays one line", () => {
    const line = encodeUserMessage([
      { type: "text", text: "a\nb" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AA==" } },
    ]);
    expect(parseLine(line)).toEqual({
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "text", text: "a\nb" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "AA==" } },
        ],
      },
      parent_tool_use_id: null,
      session_id: "",
    });
  });

  it("allow with the input echoed", () => {
    expect(encodePermissionAnswer("req-1", { behavior: "allow", updatedInput: { command: "ls" } })).toBe(
      '{"type":"control_response","response":{"subtype":"success","request_id":"req-1","response":{"behavior":"allow","updatedInput":{"command":"ls"}}}}\n',
    );
  });

  it("allow with updatedPermissions (setMode acceptEdits)", () => {
    const perms = [{ type: "setMode", mode: "acceptEdits", destination: "session" }];
    expect(
      parseLine(
        encodePermissionAnswer("r", { behavior: "allow", updatedInput: { plan: "p" }, updatedPermissions: perms }),
      ),
    ).toEqual({
      type: "control_response",
      response: {
        subtype: "success",
        request_id: "r",
        response: { behavior: "allow", updatedInput: { plan: "p" }, updatedPermissions: perms },
      },
    });
  });

  it("either answer may say who decided; without it the field is left out", () => {
    const response = (line: string) => (parseLine(line) as { response: { response: unknown } }).response.response;
    expect(
      response(
        encodePermissionAnswer("r", { behavior: "allow", updatedInput: {}, decisionClassification: "user_permanent" }),
      ),
    ).toEqual({ behavior: "allow", updatedInput: {}, decisionClassification: "user_permanent" });
    expect(
      response(encodePermissionAnswer("r", { behavior: "deny", message: "no", decisionClassification: "config" })),
    ).toEqual({ behavior: "deny", message: "no", decisionClassification: "config" });
    expect(response(encodePermissionAnswer("r", { behavior: "deny", message: "no" }))).toEqual({
      behavior: "deny",
      message: "no",
    });
  });

  it("AskUserQuestion answers travel inside updatedInput", () => {
    const input = {
      questions: [{ question: "Colour?", options: [{ label: "Green" }] }],
      answers: { "Colour?": "Green" },
    };
    expect(parseLine(encodePermissionAnswer("r", { behavior: "allow", updatedInput: input }))).toMatchObject({
      response: { response: { updatedInput: input } },
    });
  });

  it("deny with a message", () => {
    expect(encodePermissionAnswer("r", { behavior: "deny", message: "no" })).toBe(
      '{"type":"control_response","response":{"subtype":"success","request_id":"r","response":{"behavior":"deny","message":"no"}}}\n',
    );
  });

  it("hook output, empty and with a decision", () => {
    expect(encodeHookOutput("h", {})).toBe(
      '{"type":"control_response","response":{"subtype":"success","request_id":"h","response":{}}}\n',
    );
    const output = {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "why" },
    };
    expect(parseLine(encodeHookOutput("h", output))).toEqual({
      type: "control_response",
      response: { subtype: "success", request_id: "h", response: output },
    });
    expect(parseLine(encodeControlSuccess("s", { still_queued: [] }))).toMatchObject({
      response: { response: { still_queued: [] } },
    });
  });

  it("error response with unsupported_request", () => {
    expect(encodeControlError("x", "Unsupported control request subtype: foo")).toBe(
      '{"type":"control_response","response":{"subtype":"error","request_id":"x","error":"Unsupported control request subtype: foo","error_code":"unsupported_request"}}\n',
    );
  });

  it("our control requests carry the ids we pass", () => {
    expect(encodeControlRequest("init_1", { subtype: "initialize", hooks: null })).toBe(
      '{"type":"control_request","request_id":"init_1","request":{"subtype":"initialize","hooks":null}}\n',
    );
    expect(
      parseLine(
        encodeControlRequest("i2", {
          subtype: "initialize",
          hooks: { PreToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["hook_pre_cron"] }] },
        }),
      ),
    ).toEqual({
      type: "control_request",
      request_id: "i2",
      request: {
        subtype: "initialize",
        hooks: { PreToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["hook_pre_cron"] }] },
      },
    });
    expect(encodeControlRequest("a", { subtype: "interrupt" })).toBe(
      '{"type":"control_request","request_id":"a","request":{"subtype":"interrupt"}}\n',
    );
    expect(encodeControlRequest("b", { subtype: "set_permission_mode", mode: "plan" })).toBe(
      '{"type":"control_request","request_id":"b","request":{"subtype":"set_permission_mode","mode":"plan"}}\n',
    );
    expect(encodeControlRequest("c", { subtype: "set_model", model: "claude-sonnet-4-5" })).toBe(
      '{"type":"control_request","request_id":"c","request":{"subtype":"set_model","model":"claude-sonnet-4-5"}}\n',
    );
  });
});
