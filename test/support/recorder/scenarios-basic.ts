// Scenarios a–h2: print mode, permission requests allowed and denied, plan mode and
// ExitPlanMode, AskUserQuestion, and a second turn in the same process. Each mirrors the
// shared recording of the same name (fixtures README, "Scenarios").
import {
  COLOR_QUESTION,
  reply,
  SUGGESTION_KEY,
  type FakeMessageReply,
  type RecordedRequest,
} from "../fake-anthropic/index.js";
import type { Scenario } from "./scenario.js";
import { allowTool, controlRun, denyTool, printArgs, thenPrompt } from "./steps.js";

/** The plan file the CLI names in its plan-mode instructions (~/.claude/plans/<slug>.md). */
function planFileOf(request: RecordedRequest): string {
  const match = /[^\s"'`]*\/\.claude\/plans\/[A-Za-z0-9._-]+\.md/.exec(JSON.stringify(request.body));
  return match?.[0] ?? "plan.md";
}

const PLAN = "# Plan\n\n1. Change the log line in app.js to print v2.\n2. Run node app.js to check.\n";

const writePlan = (text: string | undefined, content: string) =>
  reply.dynamic((request): FakeMessageReply => ({
    kind: "message",
    blocks: [
      ...(text === undefined ? [] : [{ type: "text" as const, text }]),
      { type: "tool_use", name: "Write", input: { file_path: planFileOf(request), content } },
    ],
  }));

const question = COLOR_QUESTION;

const planScenario = (name: string, description: string, allowExtra: Record<string, unknown>): Scenario => ({
  name,
  description,
  replies: [
    writePlan("I will write the plan first.", PLAN),
    reply.tool("ExitPlanMode", {}),
    reply.text("Plan approved; starting the change."),
  ],
  runs: [controlRun({ prompt: "Plan how to make app.js print v2", mode: "plan", middle: [allowTool(1, allowExtra)] })],
});

export const basicScenarios: readonly Scenario[] = [
  {
    name: "a-print-text",
    description: "print mode (-p) with stream-json output; the model answers with plain text",
    replies: [reply.text("Hello from the fake API.")],
    runs: [{ label: "main", args: printArgs("Say hello"), steps: [{ closeStdin: true }] }],
  },
  {
    name: "b-print-bash-allowed",
    description:
      "print mode (-p) with --allowedTools Bash: the model runs one Bash command without any permission prompt, then answers",
    replies: [
      {
        kind: "message",
        blocks: [
          { type: "text", text: "I will list the files." },
          {
            type: "tool_use",
            name: "Bash",
            input: { command: "echo hello-from-bash && ls", description: "Print a greeting and list files" },
          },
        ],
      },
      reply.text("The command printed hello-from-bash."),
    ],
    files: { "README.md": "# A project\n" },
    runs: [
      {
        label: "main",
        args: printArgs("Run a shell command", ["--allowedTools", "Bash"]),
        steps: [{ closeStdin: true }],
      },
    ],
  },
  {
    name: "c-control-bash-allow",
    description: "stream-json control mode: a Bash call needs permission (can_use_tool); the consumer allows it",
    replies: [
      reply.bash("touch created-by-test.txt && echo made", "Create a marker file"),
      reply.text("Created the marker file."),
    ],
    runs: [controlRun({ prompt: "Please create a marker file", middle: [allowTool()] })],
  },
  {
    name: "d-control-bash-deny",
    description:
      "stream-json control mode: a Bash call needs permission (can_use_tool); the consumer denies it with a message",
    replies: [
      reply.bash("touch created-by-test.txt && echo made", "Create a marker file"),
      reply.text("Understood, I will not run it."),
    ],
    runs: [
      controlRun({
        prompt: "Please create a marker file",
        middle: [denyTool("The user does not want files created right now.")],
      }),
    ],
  },
  planScenario(
    "e-plan-exit-allow",
    "--permission-mode plan: the model writes its plan to the plan file, calls ExitPlanMode, the consumer allows; watch system/status permissionMode transitions",
    {},
  ),
  planScenario(
    "e2-plan-exit-allow-accept-edits",
    "as e-plan-exit-allow, but the consumer's allow for ExitPlanMode also carries updatedPermissions [{type:setMode, mode:acceptEdits, destination:session}]; shows which mode the CLI ends up in",
    { updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }] },
  ),
  {
    name: "f-plan-exit-deny-then-allow",
    description:
      "--permission-mode plan: the consumer denies the first ExitPlanMode with a message asking for an outline; the model replies with text and calls ExitPlanMode again; the consumer allows",
    replies: [
      writePlan(undefined, "# Plan\n\nChange app.js to print v2.\n"),
      reply.tool("ExitPlanMode", {}),
      reply.dynamic((request): FakeMessageReply => ({
        kind: "message",
        blocks: [
          {
            type: "text",
            text: "Outline: (1) edit the log line, (2) run the script. I have added the outline to the plan.",
          },
          {
            type: "tool_use",
            name: "Edit",
            input: {
              file_path: planFileOf(request),
              old_string: "Change app.js to print v2.\n",
              new_string: "Outline:\n1. Edit the log line in app.js to print v2.\n2. Run node app.js.\n",
            },
          },
        ],
      })),
      reply.tool("ExitPlanMode", {}),
      reply.text("Plan approved; proceeding."),
    ],
    runs: [
      controlRun({
        prompt: "Plan how to make app.js print v2",
        mode: "plan",
        middle: [denyTool("Not yet: please give me a short outline of the steps first."), allowTool(2)],
      }),
    ],
  },
  {
    name: "g-ask-user-question-deny",
    description: "AskUserQuestion tool call answered by a can_use_tool deny whose message carries the user's answer",
    replies: [reply.tool("AskUserQuestion", question), reply.text("Got it, I will use the answer you gave.")],
    runs: [
      controlRun({
        prompt: "Make a button, ask me for the color",
        middle: [denyTool("The user answered: Which color should the button be? -> Green")],
      }),
    ],
  },
  {
    name: "g2-ask-user-question-answers",
    description:
      "AskUserQuestion tool call answered through the dedicated mechanism: can_use_tool allow with updatedInput carrying answers (question text -> chosen label)",
    replies: [reply.tool("AskUserQuestion", question), reply.text("Got it, I will use the answer you gave.")],
    runs: [
      controlRun({
        prompt: "Make a button, ask me for the color",
        middle: [
          {
            answer: "control_request/can_use_tool",
            with: () => ({
              behavior: "allow",
              updatedInput: { ...question, answers: { "Which color should the button be?": "Green" } },
            }),
          },
        ],
      }),
    ],
  },
  {
    name: "h-second-user-message",
    description:
      "live session: a second user message is written after the first result; a second turn runs in the same process",
    replies: [reply.text("First answer."), reply.text("Second answer, same session.")],
    runs: [
      controlRun({
        prompt: "First question",
        middle: thenPrompt("Second question"),
        results: 2,
      }),
    ],
  },
  {
    name: "h3-prompt-suggestion",
    description:
      "as h-second-user-message, with initialize promptSuggestions: after the second result (the first has too little conversation) the CLI asks the API for a guess at the next message and prints it as a prompt_suggestion line; the fake API reports a warm prompt cache, without which no guess is asked for",
    replies: [
      reply.text("The parser drops the last line.", { cacheReadTokens: 4000 }),
      reply.text("Fixed: the last line is kept.", { cacheReadTokens: 4000 }),
    ],
    keyed: { [SUGGESTION_KEY]: [reply.text("run the tests", { cacheReadTokens: 4000 })] },
    runs: [
      controlRun({
        prompt: "Why does the parser lose lines?",
        initialize: { promptSuggestions: true },
        middle: thenPrompt("Fix it"),
        results: 2,
        after: [{ waitFor: "prompt_suggestion" }],
      }),
    ],
  },
  {
    name: "h2-replay-user-messages",
    description:
      "as h-second-user-message, with --replay-user-messages: the CLI echoes each user message it takes from stdin back on stdout",
    replies: [reply.text("First answer."), reply.text("Second answer, same session.")],
    runs: [
      controlRun({
        prompt: "First question",
        extraArgs: ["--replay-user-messages"],
        middle: thenPrompt("Second question"),
        results: 2,
      }),
    ],
  },
];
