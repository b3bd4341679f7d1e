import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemorySessionBook, createTranslator } from "../../src/claude/index.js";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { decodeLine } from "../../src/wire/index.js";
import { listStdoutFixtures, stdoutLines } from "../wire/fixtures.js";

const SID = "s-1";
const init = (extra: object = {}) =>
  JSON.stringify({
    type: "system",
    subtype: "init",
    session_id: SID,
    model: "m",
    cwd: "/p",
    permissionMode: "default",
    tools: ["Bash"],
    ...extra,
  });
const assistant = (content: object[], extra: object = {}) =>
  JSON.stringify({
    type: "assistant",
    message: { model: "m", content, usage: { input_tokens: 1000, output_tokens: 10, cache_read_input_tokens: 4000 } },
    parent_tool_use_id: null,
    ...extra,
  });
const toolResult = (id: string, content: unknown, isError = false, parent: string | null = null) =>
  JSON.stringify({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
    parent_tool_use_id: parent,
  });
const result = (extra: object = {}) =>
  JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    session_id: SID,
    result: "done",
    num_turns: 1,
    duration_ms: 50,
    total_cost_usd: 0.01,
    usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 },
    modelUsage: { m: { contextWindow: 10000 } },
    ...extra,
  });

const lifecycle = (uuid: string, state: string, extra: object = {}) =>
  JSON.stringify({ type: "command_lifecycle", command_uuid: uuid, state, session_id: SID, ...extra });

function run(lines: string[], timeZone?: string): TelecodeEvent[] {
  const t = createTranslator(timeZone === undefined ? {} : { timeZone });
  return lines.flatMap((line) => t.push(decodeLine(line)));
}
const ofType = <T extends TelecodeEvent["type"]>(events: TelecodeEvent[], type: T) =>
  events.filter((e): e is Extract<TelecodeEvent, { type: T }> => e.type === type);

describe("translator", () => {
  it("names the MCP servers a process started without, once, with what to do", () => {
    const servers = [
      { name: "ops", status: "connected" },
      { name: "db", status: "failed" },
      { name: "search", status: "failed" },
      { name: "linear", status: "needs-auth" },
      { name: "slow", status: "pending" },
      { name: "off", status: "disabled" },
      { status: "failed" },
      null,
    ];
    const events = run([init({ mcp_servers: servers }), result(), init({ mcp_servers: servers }), result()]);
    expect(ofType(events, "note")).toEqual([
      {
        type: "note",
        kind: "warning",
        key: "mcp_unavailable:failed",
        text: "MCP servers db, search did not connect; Claude works without their tools. `claude mcp list` on the computer says why.",
      },
      {
        type: "note",
        kind: "warning",
        key: "mcp_unavailable:sign_in",
        text: "MCP server linear needs a sign-in; Claude works without its tools. On the computer: run `claude` in the project, then /mcp.",
        servers: ["linear"],
      },
    ]);
    // In the first turn, after it started.
    expect(events.slice(0, 4).map((e) => e.type)).toEqual(["session_started", "turn_started", "note", "note"]);
    const one = run([
      init({
        mcp_servers: [
          { name: "db", status: "failed" },
          { name: "a", status: "needs-auth" },
          { name: "b", status: "needs-auth" },
        ],
      }),
    ]);
    expect(ofType(one, "note").map((n) => n.text)).toEqual([
      "MCP server db did not connect; Claude works without its tools. `claude mcp list` on the computer says why.",
      "MCP servers a, b need a sign-in; Claude works without their tools. On the computer: run `claude` in the project, then /mcp.",
    ]);
    expect(ofType(one, "note").map((n) => n.servers)).toEqual([undefined, ["a", "b"]]);
    for (const listed of [[], [{ name: "ops", status: "connected" }], "odd", undefined])
      expect(ofType(run([init({ mcp_servers: listed })]), "note")).toEqual([]);
  });

  it("names again, with their reasons, the MCP servers that did not connect, while that turn goes on", () => {
    const t = createTranslator();
    const servers = [
      { name: "db", status: "failed" },
      { name: "search", status: "failed" },
      { name: "linear", status: "needs-auth" },
    ];
    t.push(decodeLine(init({ mcp_servers: servers })));
    // What the connection asks Claude Code about.
    expect(t.failedMcpServers).toEqual(["db", "search"]);
    const status = {
      mcpServers: [
        { name: "db", status: "failed", error: "ENOENT: no such file or directory, posix_spawn '/opt/db-mcp'" },
        { name: "search", status: "failed", error: " " },
        { name: "linear", status: "needs-auth" },
        { name: "ops", status: "connected", error: "not a failure" },
      ],
    };
    expect(t.explainMcpFailures(status)).toEqual([
      {
        type: "note",
        kind: "warning",
        key: "mcp_unavailable:failed",
        text: "MCP servers db (ENOENT: no such file or directory, posix_spawn '/opt/db-mcp'), search did not connect; Claude works without their tools. `claude mcp list` on the computer says why.",
      },
    ]);
    // Nothing to add without reasons, nor once the turn it was said in is over.
    expect(t.explainMcpFailures({ mcpServers: [] })).toEqual([]);
    expect(t.explainMcpFailures({})).toEqual([]);
    t.push(decodeLine(result()));
    expect(t.explainMcpFailures(status)).toEqual([]);
    t.push(decodeLine(init({ mcp_servers: servers })));
    expect(t.explainMcpFailures(status)).toEqual([]);
    // A process whose servers all connected has nothing to explain.
    const fine = createTranslator();
    fine.push(decodeLine(init({ mcp_servers: [{ name: "ops", status: "connected" }] })));
    expect(fine.failedMcpServers).toEqual([]);
    expect(fine.explainMcpFailures(status)).toEqual([]);
  });

  it("hands on Claude Code's guess at the next message, in the session it follows; an empty one is none", () => {
    const guess = (suggestion: string, extra: object = {}) =>
      JSON.stringify({ type: "prompt_suggestion", suggestion, uuid: "u", ...extra });
    const events = run([
      init(),
      result(),
      guess("run the tests"),
      guess("  "),
      guess("commit it", { session_id: "s-2" }),
    ]);
    expect(ofType(events, "prompt_suggested")).toEqual([
      { type: "prompt_suggested", text: "run the tests", sessionId: SID },
      { type: "prompt_suggested", text: "commit it", sessionId: "s-2" },
    ]);
  });

  it("emits session_started once and turn_started per system/init, numbered", () => {
    const events = run([init(), result(), init(), result()]);
    expect(events.map((e) => e.type)).toEqual([
      "session_started",
      "turn_started",
      "usage",
      "turn_finished",
      "turn_started",
      "usage",
      "turn_finished",
    ]);
    expect(ofType(events, "session_started")[0]).toEqual({
      type: "session_started",
      sessionId: SID,
      model: "m",
      cwd: "/p",
      permissionMode: "default",
      tools: ["Bash"],
    });
    expect(ofType(events, "turn_started").map((e) => e.turn)).toEqual([1, 2]);
  });

  it("maps tool calls to kinds and titles and results to ok/detail, keeping the parent", () => {
    const events = run([
      init(),
      assistant([{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls -a" } }]),
      toolResult("t1", "a\nb"),
      assistant([{ type: "tool_use", id: "t2", name: "Write", input: { file_path: "/p/x" } }], {
        parent_tool_use_id: "agent-1",
      }),
      toolResult("t2", "denied", true, "agent-1"),
    ]);
    expect(ofType(events, "tool_started").map((e) => [e.kind, e.title, e.parentToolUseId])).toEqual([
      ["command", "ls -a", null],
      ["file_change", "/p/x", "agent-1"],
    ]);
    expect(ofType(events, "tool_finished").map((e) => [e.name, e.ok, e.detail, e.parentToolUseId])).toEqual([
      ["Bash", true, "a\nb", null],
      ["Write", false, "denied", "agent-1"],
    ]);
  });

  it("uses result.result as the answer, else the turn's last main-thread text", () => {
    const events = run([
      init(),
      assistant([{ type: "text", text: "main" }]),
      assistant([{ type: "text", text: "sub" }], { parent_tool_use_id: "a" }),
      result({
        result: undefined,
        subtype: "error_during_execution",
        is_error: true,
        terminal_reason: "aborted_streaming",
      }),
    ]);
    expect(ofType(events, "turn_finished")[0]).toMatchObject({ ok: false, interrupted: true, answer: "main" });
    expect(ofType(events, "turn_finished")[0]).not.toHaveProperty("error");
  });

  it("reports an API failure hidden in subtype success as an error naming the status, without repeating the synthetic text", () => {
    const events = run([
      init(),
      assistant([{ type: "text", text: "API Error: 500 Internal server error." }], {
        is_api_error_message: true,
        error: "server_error",
        api_error_status: 500,
      }),
      result({
        is_error: true,
        api_error_status: 500,
        terminal_reason: "api_error",
        result: "API Error: 500 Internal server error.",
      }),
    ]);
    expect(ofType(events, "text")).toEqual([]);
    expect(ofType(events, "turn_finished")[0]).toMatchObject({
      ok: false,
      interrupted: false,
      error: {
        reason: "api_error",
        what: "API error 500: Internal server error.",
        hint: "Send the message again in a minute; Claude Code already retried.",
        apiStatus: 500,
      },
    });
  });

  it("says that the API could not be reached when no answer came (no status; the CLI's kind connection_failed)", () => {
    // As 2.1.332 ends a turn whose every try was refused, with no ANTHROPIC_BASE_URL advice.
    const refused = "API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)";
    const failure = (extra: object) =>
      ofType(
        run([
          init(),
          result({ is_error: true, api_error_status: null, terminal_reason: "api_error", result: refused, ...extra }),
        ]),
        "turn_finished",
      )[0]?.error;
    expect(failure({ api_error: "connection_failed" })).toEqual({
      reason: "api_error",
      passing: true,
      what: "Claude Code could not reach the API: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED).",
      hint: "Claude Code already retried: check the connection from the computer running Telecode to the API (a proxy, a firewall, or the API itself down), then send the message again.",
    });
    // No answer for another reason (a deadline), or no kind at all: the CLI's words, as an API error that may pass.
    expect(failure({ api_error: "no_response", result: "API Error: No response arrived in time." })).toEqual({
      reason: "api_error",
      passing: true,
      what: "API error: No response arrived in time.",
      hint: "Send the message again in a minute; Claude Code already retried.",
    });
    expect(failure({ result: "API Error: Request timed out." })?.reason).toBe("api_error");
    // A kind that repeats (a policy, a credential) is no API trouble to wait out: no second try
    // (api-error-kinds.test.ts words each next step).
    const denied = failure({
      api_error: "dlp_request_denied",
      result: "API Error: Blocked by your organization's policy.",
    });
    expect(denied).toMatchObject({ reason: "api_error", what: "API error: Blocked by your organization's policy." });
    expect(denied?.passing).toBeUndefined();
  });

  it("says that the computer slept when Claude Code gave up for the sleep (the CLI's kind computer_slept), not that it retried", () => {
    const failure = (text: string) =>
      ofType(
        run([
          init(),
          result({
            is_error: true,
            api_error_status: null,
            terminal_reason: "api_error",
            api_error: "computer_slept",
            result: text,
          }),
        ]),
        "turn_finished",
      )[0]?.error;
    // Both of 2.1.332's texts for the kind: a stream cut by the sleep, and a connection lost in it.
    const said = {
      reason: "api_error",
      passing: true,
      what: "The computer running Telecode slept while Claude Code waited for the API's answer, so the run stopped.",
      hint: "Send the message again to go on from where it stopped.",
    };
    expect(failure("API Error: Your computer went to sleep before a response was produced. Try again.")).toEqual(said);
    expect(
      failure("API Error: Connection to the API was lost (ECONNRESET). This is usually temporary — try again."),
    ).toEqual(said);
  });

  it("names other failures by subtype", () => {
    const events = run([init(), result({ subtype: "error_max_turns", is_error: true, result: undefined })]);
    expect(ofType(events, "turn_finished")[0]?.error).toMatchObject({
      reason: "cli_error",
      what: expect.stringMatching(/maximum number of turns/),
    });
  });

  it("computes usage: turn tokens, session cost, context % from the last main-thread call", () => {
    const events = run([init(), assistant([{ type: "text", text: "x" }]), result()]);
    expect(ofType(events, "usage")[0]).toEqual({
      type: "usage",
      inputTokens: 105,
      outputTokens: 20,
      costUsd: 0.01,
      contextPercent: 50.1,
    });
  });

  it("gives each turn its share of the cumulative cost", () => {
    const events = run([init(), result({ total_cost_usd: 0.01 }), init(), result({ total_cost_usd: 0.025 })]);
    expect(ofType(events, "turn_finished").map((e) => e.costUsd)).toEqual([0.01, 0.015]);
  });

  it("costs a resumed session's first turn what the turn cost, not the total the CLI carried over", () => {
    const book = createMemorySessionBook();
    const first = createTranslator({ book });
    const costsOf = (t: ReturnType<typeof createTranslator>, lines: string[]): number[] =>
      ofType(
        lines.flatMap((line) => t.push(decodeLine(line))),
        "turn_finished",
      ).map((e) => e.costUsd);
    // Without the CLI's own per-turn figure: the total minus the session's last known total.
    expect(costsOf(first, [init(), result({ total_cost_usd: 0.0356 })])).toEqual([0.0356]);
    expect(book.lastTotalUsd(SID)).toBe(0.0356);
    const resumed = createTranslator({ book });
    expect(costsOf(resumed, [init(), result({ total_cost_usd: 0.0364 })])).toEqual([0.0008]);
    // An interrupted turn that was never billed costs nothing.
    expect(costsOf(createTranslator({ book }), [init(), result({ total_cost_usd: 0.0364 })])).toEqual([0]);
  });

  it("takes a turn's cost from the CLI's model_usage_since_last_result when it gives one", () => {
    const since = (usd: number) => ({
      model_usage_since_last_result: { m: { costUSD: usd }, haiku: { costUSD: 0.0001 } },
    });
    // A session never seen here (continued from a terminal): the total is not this turn's.
    const events = run([
      init(),
      result({ total_cost_usd: 0.5, ...since(0.0007) }),
      init(),
      result({ total_cost_usd: 0.5, model_usage_since_last_result: {} }),
    ]);
    expect(ofType(events, "turn_finished").map((e) => e.costUsd)).toEqual([0.0008, 0]);
    expect(ofType(events, "usage").map((e) => e.costUsd)).toEqual([0.5, 0.5]);
  });

  it("emits a turn_started before a result that came without an init", () => {
    const events = run([result(), result()]);
    expect(events.filter((e) => e.type.startsWith("turn_")).map((e) => e.type)).toEqual([
      "turn_started",
      "turn_finished",
      "turn_started",
      "turn_finished",
    ]);
  });

  it("marks a turn after a background task finished as self-started; the result's origin is authoritative", () => {
    const task = (subtype: string, extra: object = {}) =>
      JSON.stringify({ type: "system", subtype, task_id: "k", session_id: SID, ...extra });
    const events = run([
      init(),
      task("task_started", { tool_use_id: "t", task_type: "local_agent" }),
      result(),
      task("task_notification", { status: "completed" }),
      init(),
      result({ origin: { kind: "task-notification" } }),
    ]);
    expect(ofType(events, "turn_started").map((e) => e.origin)).toEqual(["person", "subagent"]);
    expect(ofType(events, "turn_finished").map((e) => e.origin)).toEqual(["person", "subagent"]);
    expect(ofType(events, "task_changed").map((e) => [e.phase, e.toolUseId])).toEqual([
      ["started", "t"],
      ["finished", "t"],
    ]);
  });

  it("notes API retries as one updating note per turn", () => {
    const retry = (attempt: number, status: number | null, error: string) =>
      JSON.stringify({
        type: "system",
        subtype: "api_retry",
        attempt,
        max_retries: 10,
        retry_delay_ms: 8000,
        error_status: status,
        error,
        session_id: SID,
      });
    const notes = ofType(run([init(), retry(2, 529, "overloaded"), retry(3, null, "unknown")]), "note");
    expect(notes).toEqual([
      {
        type: "note",
        kind: "api_retry",
        key: "api_retry:1",
        text: "API error 529 (overloaded) — retrying in 8 s, attempt 2/10",
      },
      {
        type: "note",
        kind: "api_retry",
        key: "api_retry:1",
        text: "API connection failed — retrying in 8 s, attempt 3/10",
      },
    ]);
  });

  it("rate limits: allowed shows nothing, a warning once per window, rejected latches until the reset (time zone honoured)", () => {
    const rl = (info: object) =>
      JSON.stringify({
        type: "rate_limit_event",
        rate_limit_info: { rateLimitType: "five_hour", resetsAt: 1900000000, ...info },
      });
    const lines = [
      rl({ status: "allowed" }),
      rl({ status: "allowed_warning", utilization: 0.91 }),
      rl({ status: "allowed_warning", utilization: 0.95 }),
      rl({ status: "rejected" }),
    ];
    // Read back later (a replay, of any year), a reset time says its day and year.
    expect(ofType(run(lines), "note")).toEqual([
      {
        type: "note",
        kind: "rate_limit",
        key: "rate_limit:five_hour",
        text: "5h limit 91% used, resets 17:46 on 17 March 2030",
      },
      {
        type: "note",
        kind: "rate_limit",
        key: "rate_limit:five_hour",
        text: "Rate limited until 17:46 on 17 March 2030 (5h limit reached)",
        untilMs: 1900000000000,
      },
    ]);
    expect(ofType(run(lines, "Asia/Kolkata"), "note")[0]?.text).toBe(
      "5h limit 91% used, resets 23:16 on 17 March 2030",
    );
    // Where the limit stands comes with every event, a repeated warning's new share too.
    const resetsAtMs = 1900000000000;
    expect(ofType(run(lines), "usage_limit")).toEqual([
      { type: "usage_limit", limit: "5h", state: "ok", resetsAtMs, extraUsage: false },
      { type: "usage_limit", limit: "5h", state: "warning", usedPercent: 91, resetsAtMs, extraUsage: false },
      { type: "usage_limit", limit: "5h", state: "warning", usedPercent: 95, resetsAtMs, extraUsage: false },
      { type: "usage_limit", limit: "5h", state: "reached", resetsAtMs, extraUsage: false },
    ]);
    const overage = run([rl({ status: "rejected", rateLimitType: "seven_day", isUsingOverage: true, resetsAt: 1e20 })]);
    expect(ofType(overage, "usage_limit")).toEqual([
      { type: "usage_limit", limit: "7-day", state: "reached", extraUsage: true },
    ]);
    expect(ofType(run([rl({ status: "suspended" })]), "usage_limit")).toEqual([]);
  });

  it("rate limits read live: a reset is today or tomorrow, or on its date, with its year when not this one", () => {
    const rejected = JSON.stringify({
      type: "rate_limit_event",
      rate_limit_info: { rateLimitType: "five_hour", resetsAt: 1900000000, status: "rejected" },
    });
    const noteAt = (nowIso: string, timeZone = "UTC") => {
      const t = createTranslator({ timeZone, now: () => Date.parse(nowIso) });
      return ofType([...t.push(decodeLine(rejected))], "note")[0]?.text;
    };
    expect(noteAt("2030-03-17T13:00:00Z")).toBe("Rate limited until 17:46 today (5h limit reached)");
    expect(noteAt("2030-03-16T23:00:00Z")).toBe("Rate limited until 17:46 tomorrow (5h limit reached)");
    expect(noteAt("2030-03-10T23:00:00Z")).toBe("Rate limited until 17:46 on 17 March (5h limit reached)");
    expect(noteAt("2029-12-31T12:00:00Z")).toBe("Rate limited until 17:46 on 17 March 2030 (5h limit reached)");
    // 13:00 UTC is already the 18th in Auckland, where the reset (05:46 on the 18th) is today.
    expect(noteAt("2030-03-17T13:00:00Z", "Pacific/Auckland")).toBe(
      "Rate limited until 06:46 today (5h limit reached)",
    );
  });

  it("types a usage-limit failure with the reset time the rate-limit event gave, and a missing login", () => {
    const limited = run([
      init(),
      JSON.stringify({
        type: "rate_limit_event",
        rate_limit_info: { status: "rejected", rateLimitType: "five_hour", resetsAt: 1900000000 },
      }),
      result({
        is_error: true,
        api_error_status: 429,
        result: "You've hit your 5-hour limit · resets 5:46pm (UTC)",
      }),
    ]);
    expect(ofType(limited, "turn_finished")[0]?.error).toMatchObject({
      reason: "rate_limited",
      apiStatus: 429,
      resetsAtMs: 1900000000000,
      what: "API error 429: You've hit your 5-hour limit.",
      hint: "The limit resets at 17:46 on 17 March 2030; until then every message fails the same way.",
    });
    const loggedOut = run([init(), result({ is_error: true, result: "Invalid API key · Please run /login" })]);
    expect(ofType(loggedOut, "turn_finished")[0]?.error).toMatchObject({
      reason: "not_logged_in",
      what: "Claude Code's API key or login was refused.",
      hint: expect.stringMatching(/^On the computer running Telecode, run `claude auth login`/),
    });
  });

  it("words failures that repeat as such: a limit says when it resets (today, tomorrow or its date), a login how to fix it", () => {
    const limitedAt = (nowIso: string) => {
      const t = createTranslator({ timeZone: "Europe/Berlin", now: () => Date.parse(nowIso) });
      const lines = [
        init(),
        JSON.stringify({
          type: "rate_limit_event",
          rate_limit_info: { status: "rejected", rateLimitType: "five_hour", resetsAt: 1900000000 },
        }),
        result({ is_error: true, api_error_status: 429, result: "You've hit your 5-hour limit · resets 5:46pm (UTC)" }),
      ];
      return ofType(
        lines.flatMap((line) => t.push(decodeLine(line))),
        "turn_finished",
      )[0]?.error?.hint;
    };
    // 17:46 UTC is 18:46 in Berlin.
    expect(limitedAt("2030-03-17T09:00:00Z")).toBe(
      "The limit resets at 18:46 today; until then every message fails the same way.",
    );
    expect(limitedAt("2030-03-16T09:00:00Z")).toBe(
      "The limit resets at 18:46 tomorrow; until then every message fails the same way.",
    );
    expect(limitedAt("2030-03-01T09:00:00Z")).toBe(
      "The limit resets at 18:46 on 17 March; until then every message fails the same way.",
    );
    const failure = (extra: object) =>
      ofType(run([init(), result({ is_error: true, ...extra })]), "turn_finished")[0]?.error;
    const notLoggedIn = failure({ result: "Not logged in · Please run /login", terminal_reason: "api_error" });
    expect(notLoggedIn).toMatchObject({
      reason: "not_logged_in",
      what: "Claude Code is not logged in.",
    });
    expect(notLoggedIn?.hint).toContain("`claude auth login`");
    expect(notLoggedIn?.hint).toContain("claude.use_api_billing = true");
    expect(`${notLoggedIn?.what} ${notLoggedIn?.hint}`).not.toMatch(/\/login|send the message again/i);
    const tooLong = failure({
      api_error_status: 400,
      terminal_reason: "prompt_too_long",
      result: "Prompt is too long",
    });
    expect(tooLong?.hint).toMatch(/start a fresh session/);
    expect(failure({ api_error_status: 404, result: "model: claude-nope not found" })?.hint).toMatch(
      /fails the same way/,
    );
    const serverSide = failure({ api_error_status: 500, result: "API Error: 500 Internal server error" });
    expect(serverSide?.hint).toBe("Send the message again in a minute; Claude Code already retried.");
    // Only the API's own failures may pass on a later try (the chat offers "Send it again" for them).
    expect(serverSide?.passing).toBe(true);
    expect(tooLong?.passing).toBeUndefined();
    expect(failure({ api_error_status: 404, result: "model: claude-nope not found" })?.passing).toBeUndefined();
  });

  it("notes compaction with token counts, and mode changes from status and init", () => {
    const events = run([
      init(),
      JSON.stringify({
        type: "system",
        subtype: "compact_boundary",
        compact_metadata: { trigger: "auto", pre_tokens: 990021, post_tokens: 2570 },
      }),
      JSON.stringify({ type: "system", subtype: "status", status: null, permissionMode: "plan" }),
      result(),
      init({ permissionMode: "acceptEdits" }),
    ]);
    expect(ofType(events, "note").map((n) => n.text)).toEqual(["Context compacted (auto): 990,021 → 2,570 tokens"]);
    expect(ofType(events, "mode_changed").map((e) => e.mode)).toEqual(["plan", "acceptEdits"]);
  });

  it("turns can_use_tool into approval_requested and control_cancel_request into approval_withdrawn; other control lines into nothing", () => {
    const events = run([
      init(),
      JSON.stringify({
        type: "control_request",
        request_id: "r1",
        request: {
          subtype: "can_use_tool",
          tool_name: "Bash",
          input: { command: "ls" },
          tool_use_id: "t1",
          decision_reason: "why",
          agent_id: "a",
        },
      }),
      JSON.stringify({
        type: "control_request",
        request_id: "r2",
        request: { subtype: "hook_callback", callback_id: "c", input: {} },
      }),
      JSON.stringify({
        type: "control_response",
        response: { subtype: "success", request_id: "init_1", response: {} },
      }),
      JSON.stringify({ type: "control_cancel_request", request_id: "r1" }),
    ]);
    expect(events.slice(2)).toEqual([
      {
        type: "approval_requested",
        request: {
          requestId: "r1",
          toolName: "Bash",
          input: { command: "ls" },
          toolUseId: "t1",
          decisionReason: "why",
          agentId: "a",
          permissionSuggestions: [],
        },
      },
      { type: "approval_withdrawn", requestId: "r1" },
    ]);
  });

  it("turns a decode problem into a counted warning note, and a stream ending mid-turn into a warning", () => {
    const t = createTranslator();
    expect(t.push(decodeLine("garbage"))).toMatchObject([{ type: "note", kind: "warning" }]);
    expect(t.decodeProblemCount).toBe(1);
    t.push(decodeLine(init()));
    expect(t.isTurnOpen).toBe(true);
    expect(t.end()).toMatchObject([{ type: "note", kind: "warning" }]);
  });

  it("leaves out a line of a type it does not know (a newer CLI's) without a note, and counts it by type", () => {
    const t = createTranslator();
    t.push(decodeLine(init()));
    const newer = '{"type":"turn_metrics","session_id":"s","ttft_ms":12}';
    expect(t.push(decodeLine(newer))).toEqual([]);
    expect(t.push(decodeLine(newer))).toEqual([]);
    expect(t.push(decodeLine('{"type":"brand_new"}'))).toEqual([]);
    expect([...t.unknownTypes]).toEqual([
      ["turn_metrics", 2],
      ["brand_new", 1],
    ]);
    expect(t.decodeProblemCount).toBe(3);
    // A broken line of a known type still says so.
    expect(t.push(decodeLine('{"type":"assistant","message":{"content":"text"}}'))).toMatchObject([
      { type: "note", kind: "warning" },
    ]);
  });

  it("rejects an unknown time zone at creation", () => {
    expect(() => createTranslator({ timeZone: "Mars/Olympus" })).toThrow(RangeError);
  });

  it("is deterministic: the same lines give the same events", () => {
    for (const name of listStdoutFixtures()) {
      const lines = stdoutLines(name);
      expect(run(lines)).toEqual(run(lines));
    }
  });
});

describe("translator properties", () => {
  // Messages built from fixture lines and from generated objects, all passed through the
  // decoder, so the translator sees exactly what it can see in production.
  const fixtureLines = listStdoutFixtures()
    .flatMap((name) => stdoutLines(name))
    .filter((line) => line.length < 100_000);
  const fromFixture = fc.constantFrom(...fixtureLines);
  const json = fc.jsonValue({ maxDepth: 3 });
  const generated = fc
    .oneof(
      fc.record({
        type: fc.constant("result"),
        subtype: fc.constantFrom("success", "error_during_execution", "error_max_turns"),
        is_error: fc.boolean(),
        session_id: fc.string(),
        result: fc.option(fc.string(), { nil: undefined }),
        terminal_reason: fc.option(fc.constantFrom("aborted_tools", "completed", "api_error"), { nil: undefined }),
        api_error_status: fc.option(fc.integer(), { nil: undefined }),
        total_cost_usd: fc.option(json, { nil: undefined }),
        usage: fc.option(json, { nil: undefined }),
        modelUsage: fc.option(json, { nil: undefined }),
        origin: fc.option(json, { nil: undefined }),
      }),
      fc.record({
        type: fc.constant("system"),
        subtype: fc.constantFrom(
          "init",
          "status",
          "api_retry",
          "compact_boundary",
          "task_started",
          "task_updated",
          "task_notification",
          "hook_response",
          "informational",
          "other",
        ),
        session_id: fc.string(),
        task_id: fc.string(),
        permissionMode: json,
        attempt: fc.integer(),
        max_retries: fc.integer(),
        retry_delay_ms: fc.integer(),
        error_status: json,
        compact_metadata: json,
        patch: json,
        status: json,
        outcome: json,
        content: json,
        model: json,
        tools: json,
      }),
      fc.record({
        type: fc.constantFrom("assistant", "user"),
        parent_tool_use_id: fc.option(fc.constantFrom("a", "b"), { nil: null }),
        message: fc.record({
          role: fc.constant("user"),
          model: json,
          usage: json,
          content: fc.oneof(
            fc.string(),
            fc.array(
              fc.oneof(
                json,
                fc.record({
                  type: fc.constantFrom("text", "thinking", "tool_use", "tool_result"),
                  text: fc.string(),
                  thinking: fc.string(),
                  id: fc.constantFrom("t1", "t2"),
                  name: fc.constantFrom("Bash", "Edit", "Agent", "X"),
                  input: fc.dictionary(fc.string(), json),
                  tool_use_id: fc.constantFrom("t1", "t2", "t3"),
                  content: json,
                  is_error: json,
                }),
              ),
            ),
          ),
        }),
      }),
      fc.record({
        type: fc.constant("rate_limit_event"),
        rate_limit_info: fc.record({
          status: fc.constantFrom("allowed", "allowed_warning", "rejected", "x"),
          resetsAt: fc.option(fc.integer({ min: 0, max: 4e9 }), { nil: undefined }),
          rateLimitType: fc.option(fc.string(), { nil: undefined }),
          utilization: json,
          overageStatus: json,
        }),
      }),
      fc.record({
        type: fc.constantFrom(
          "control_request",
          "control_cancel_request",
          "control_response",
          "stream_event",
          "keep_alive",
        ),
        request_id: fc.string(),
        request: fc.record({
          subtype: fc.constantFrom("can_use_tool", "hook_callback", "x"),
          tool_name: fc.string(),
          input: fc.dictionary(fc.string(), json),
          permission_suggestions: json,
        }),
      }),
      json,
    )
    .map((value) => JSON.stringify(value) ?? "null");
  const line = fc.oneof(
    { weight: 1, arbitrary: fromFixture },
    { weight: 3, arbitrary: generated },
    { weight: 1, arbitrary: fc.string() },
  );

  it("never throws, and emits exactly one turn_finished per result, each after its turn's turn_started", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (lines) => {
        const t = createTranslator();
        let results = 0;
        let finished = 0;
        let open = false;
        for (const l of lines) {
          const decoded = decodeLine(l);
          if (!("kind" in decoded) && decoded.type === "result") results += 1;
          for (const event of t.push(decoded)) {
            if (event.type === "turn_started") {
              expect(open).toBe(false);
              open = true;
            } else if (event.type === "turn_finished") {
              expect(open).toBe(true);
              open = false;
              finished += 1;
            }
          }
        }
        t.end();
        expect(finished).toBe(results);
        expect(t.translationErrorCount).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("turn origins", () => {
  const OWN = "own-1";
  const OWN_2 = "own-2";
  /** A live translator: Telecode wrote OWN (run r1) and OWN_2 (run r2). */
  function live(lines: string[]): TelecodeEvent[] {
    const written: Record<string, { origin: "person"; runId: string }> = {
      [OWN]: { origin: "person", runId: "r1" },
      [OWN_2]: { origin: "person", runId: "r2" },
    };
    const t = createTranslator({ commandOf: (uuid) => written[uuid] });
    return lines.flatMap((line) => t.push(decodeLine(line)));
  }
  const turns = (events: TelecodeEvent[]) =>
    events.flatMap((e) =>
      e.type === "turn_started" || e.type === "turn_finished" ? [`${e.type}:${e.origin}:${e.runId ?? "-"}`] : [],
    );

  it("names the run of a turn Telecode wrote, and a cron or wake-up fire as the CLI's own turn", () => {
    const events = live([
      lifecycle(OWN, "queued"),
      lifecycle(OWN, "started"),
      init(),
      result(),
      lifecycle(OWN, "completed"),
      lifecycle("cli-1", "started", { wakeup_source: "schedule_wakeup" }),
      init(),
      result(),
      lifecycle("cli-1", "completed"),
      lifecycle("cli-2", "started", { wakeup_source: "loop_wakeup", scheduled_for: 1 }),
      init(),
      result(),
    ]);
    expect(turns(events)).toEqual([
      "turn_started:person:r1",
      "turn_finished:person:r1",
      "turn_started:schedule:-",
      "turn_finished:schedule:-",
      "turn_started:wakeup:-",
      "turn_finished:wakeup:-",
    ]);
  });

  it("keeps a message written while a fired turn runs apart from it: each turn has its own run or none", () => {
    const events = live([
      lifecycle("cli-1", "started", { wakeup_source: "schedule_wakeup" }),
      init(),
      lifecycle(OWN_2, "queued"),
      assistant([{ type: "text", text: "fired answer" }]),
      result({ result: "fired answer" }),
      lifecycle("cli-1", "completed"),
      lifecycle(OWN_2, "started"),
      init(),
      result({ result: "person answer" }),
    ]);
    expect(turns(events)).toEqual([
      "turn_started:schedule:-",
      "turn_finished:schedule:-",
      "turn_started:person:r2",
      "turn_finished:person:r2",
    ]);
    expect(ofType(events, "turn_finished").map((e) => e.answer)).toEqual(["fired answer", "person answer"]);
  });

  it("reads a turn without any command as a Monitor event while a Monitor runs, live and in a replay", () => {
    const lines = [
      lifecycle(OWN, "started"),
      init(),
      assistant([{ type: "tool_use", id: "mon", name: "Monitor", input: { description: "watch", command: "x" } }]),
      JSON.stringify({
        type: "system",
        subtype: "task_started",
        task_id: "k",
        tool_use_id: "mon",
        task_type: "local_bash",
        is_backgrounded: true,
        session_id: SID,
      }),
      result(),
      init(),
      result({ origin: { kind: "task-notification" } }),
      JSON.stringify({
        type: "system",
        subtype: "task_notification",
        task_id: "k",
        status: "completed",
        session_id: SID,
      }),
      init(),
      result({ origin: { kind: "task-notification" } }),
    ];
    expect(turns(live(lines))).toEqual([
      "turn_started:person:r1",
      "turn_finished:person:r1",
      "turn_started:monitor:-",
      "turn_finished:monitor:-",
      "turn_started:monitor:-",
      "turn_finished:monitor:-",
    ]);
    expect(turns(run(lines))).toEqual([
      "turn_started:person:-",
      "turn_finished:person:-",
      "turn_started:monitor:-",
      "turn_finished:monitor:-",
      "turn_started:monitor:-",
      "turn_finished:monitor:-",
    ]);
  });

  it("leaves every turn a person's when the CLI reports no commands at all (an older CLI)", () => {
    expect(turns(live([init(), result(), init(), result()]))).toEqual([
      "turn_started:person:-",
      "turn_finished:person:-",
      "turn_started:person:-",
      "turn_finished:person:-",
    ]);
  });

  it("reads a command without a wake-up source in a replay as the recording's own message", () => {
    expect(turns(run([lifecycle("u", "started"), init(), result()]))).toEqual([
      "turn_started:person:-",
      "turn_finished:person:-",
    ]);
  });
});
