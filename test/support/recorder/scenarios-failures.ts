// Scenarios t–t6: the ways a run goes wrong — SIGTERM mid-turn, an unknown flag, a stdin line
// that is not JSON, stdin lines of unknown types, and what the CLI will not start with (a
// settings file that is not JSON, a proxy variable that is not a URL).
import { reply } from "../fake-anthropic/index.js";
import type { Scenario } from "./scenario.js";
import { controlArgs, controlRequest, controlRun, initialize, user } from "./steps.js";

export const failureScenarios: readonly Scenario[] = [
  {
    name: "t-sigterm-mid-turn",
    description:
      "the consumer sends SIGTERM to the CLI 1.5 s into a Bash `sleep 20` tool call (stdin still open); records the last lines and the exit status",
    replies: [
      reply.tool("Bash", { command: "sleep 20 && echo finished", description: "Wait twenty seconds" }, "Waiting now."),
    ],
    runs: [
      {
        label: "main",
        args: controlArgs(),
        steps: [
          initialize(),
          user("Wait a while"),
          { waitFor: "assistant/tool_use" },
          { pauseMs: 1500 },
          { signal: "SIGTERM" },
        ],
      },
    ],
  },
  {
    name: "t2-bad-flag",
    description:
      "the CLI is started with an unknown flag (--no-such-flag) next to the usual stream-json flags; records stdout, stderr and the exit code",
    replies: [],
    runs: [{ label: "main", args: [...controlArgs().slice(0, 5), "--no-such-flag"], steps: [] }],
  },
  {
    name: "t3-bad-stdin-line",
    description:
      "in control mode the consumer writes a line that is not JSON (after initialize, before any user message); the CLI reports a parse error on stderr and exits with code 1",
    replies: [],
    runs: [
      {
        label: "main",
        args: controlArgs(),
        steps: [initialize(), { waitFor: "control_response" }, { pauseMs: 250 }, { write: "this is not json" }],
      },
    ],
  },
  {
    name: "t4-unknown-stdin-type",
    description:
      'in control mode the consumer writes a JSON line of an unknown type ({"type":"no_such_message_type"}) and a control_request with an unknown subtype, then a normal user message; records how the CLI reacts',
    replies: [reply.text("Still alive.")],
    runs: [
      controlRun({
        middle: [
          { waitFor: "control_response" },
          { pauseMs: 250 },
          { write: { type: "no_such_message_type", foo: 1 } },
          { pauseMs: 300 },
          controlRequest("bogus_1", { subtype: "no_such_subtype" }),
          { waitFor: "control_response", count: 2 },
          { pauseMs: 300 },
          user("Are you still there?"),
        ],
      }),
    ],
  },
  {
    name: "t5-config-file-invalid",
    description:
      "HOME's .claude.json is not JSON; the CLI is started in control mode with CLAUDE_CODE_STARTUP_FAILURE_RESULTS=1, as Telecode starts it, and refuses to start: records its zeroed error result (startup_failure_reason, invalid_config_file), stderr and the exit code",
    homeFiles: { ".claude.json": "{ broken" },
    env: { CLAUDE_CODE_STARTUP_FAILURE_RESULTS: "1" },
    replies: [],
    runs: [{ label: "main", args: controlArgs(), steps: [initialize(), user("Hello")] }],
  },
  {
    name: "t6-proxy-invalid",
    description:
      "HTTPS_PROXY is not a URL (notaurl). bare: the CLI is started in control mode as it is; main: with CLAUDE_CODE_STARTUP_FAILURE_RESULTS=1, as Telecode starts it. Both refuse to start; records what each writes (a zeroed error result naming startup_failure_reason, or stderr alone) and the exit code",
    env: { HTTPS_PROXY: "notaurl" },
    replies: [],
    runs: [
      { label: "bare", args: controlArgs(), steps: [initialize(), user("Hello")] },
      {
        label: "main",
        args: controlArgs(),
        env: { CLAUDE_CODE_STARTUP_FAILURE_RESULTS: "1" },
        steps: [initialize(), user("Hello")],
      },
    ],
  },
];
