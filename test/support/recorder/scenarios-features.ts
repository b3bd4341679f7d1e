// Scenarios m–s2 and v: hook callbacks and shell hooks, --resume, partial messages and thinking,
// subagents in the foreground and background, file edits, large lines, compaction, and the
// task list.
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.js";
import type { Scenario } from "./scenario.js";
import {
  allowTool,
  answerHook,
  controlArgs,
  controlRun,
  initialize,
  thenPrompt,
  user,
  type HookMatchers,
} from "./steps.js";

const cronHooks: HookMatchers = {
  PreToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["hook_pre_cron"] }],
  PostToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["hook_post_cron"] }],
};

/** CronCreate behind PreToolUse/PostToolUse hook callbacks; the PreToolUse answer decides. */
function cronHookScenario(
  name: string,
  description: string,
  finalText: string,
  [permissionDecision, permissionDecisionReason]: ["allow" | "deny", string],
): Scenario {
  const preToolUse = {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason },
  };
  return {
    name,
    description,
    replies: [
      reply.tool("ToolSearch", { query: "select:CronCreate" }),
      reply.tool("CronCreate", { cron: "*/5 * * * *", prompt: "check the build", recurring: true }),
      reply.text(finalText),
    ],
    runs: [
      controlRun({
        prompt: "Every five minutes, check the build",
        extraArgs: ["--include-hook-events"],
        hooks: cronHooks,
        // Only an allowed call runs, and only then does the PostToolUse callback come.
        middle: [answerHook(preToolUse), ...(permissionDecision === "allow" ? [answerHook({}, 2)] : [])],
      }),
    ],
  };
}

const commandHook = (command: string) => [{ hooks: [{ type: "command", command }] }];
const shellHooks = {
  hooks: {
    UserPromptSubmit: commandHook("echo prompt-hook-ran"),
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo pre-bash-hook-ran" }] }],
    PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo post-bash-hook-ran >&2" }] }],
    Stop: commandHook("echo stop-hook-ran"),
  },
};

const SUBAGENT = "SUBAGENT-TASK";
const subagentInput = {
  description: "List project files",
  prompt: `${SUBAGENT}: save a listing of the project files and report back.`,
  subagent_type: "general-purpose",
};
const listing = { command: "ls -a > listing.txt && echo listed", description: "Save a listing" };
const subagentReplies = [
  reply.tool("Bash", listing, "Checking the file list."),
  reply.text("Subagent report: the listing was saved to listing.txt."),
];

const SUMMARY_GREETING =
  "<summary>\n1. Primary Request and Intent: the user asked for a greeting.\n2. Key Technical Concepts: none.\n3. Files and Code Sections: none.\n4. Errors and fixes: none.\n5. Problem Solving: none.\n6. All user messages: 'Say hello'.\n7. Pending Tasks: none.\n8. Current Work: greeted the user.\n</summary>";
const SUMMARY_WORD =
  "<summary>\n1. Primary Request and Intent: the user asked to print a word.\n2. Pending Tasks: report the output.\n</summary>";

/** 11,000 lines of 97 characters: a Write of 1.07 MB, so two stdout lines exceed 1 MiB. */
const BIG_CONTENT = `${"0123456789abcdef".repeat(6)}\n`.repeat(11_000);

export const featureScenarios: readonly Scenario[] = [
  cronHookScenario(
    "m-hooks-cron-create",
    "--include-hook-events and an initialize request registering PreToolUse (matcher CronCreate) and PostToolUse (matcher CronCreate) hook callbacks; the model loads CronCreate with ToolSearch and calls it; the consumer answers each hook_callback (PreToolUse: allow decision with a reason)",
    "Scheduled the recurring check.",
    ["allow", "cron jobs are fine in tests"],
  ),
  cronHookScenario(
    "m2-hooks-cron-create-deny",
    "as m-hooks-cron-create, but the PreToolUse hook_callback answer denies the CronCreate call (permissionDecision deny with a reason); the PostToolUse callback should not fire",
    "The scheduler is not available here, so I did not schedule it.",
    ["deny", "Scheduling is disabled in this host."],
  ),
  {
    name: "m3-command-hook-events",
    description:
      "--include-hook-events with shell command hooks from the project's .claude/settings.json (PreToolUse and PostToolUse on Bash, plus UserPromptSubmit and Stop); shows the system hook_started / hook_response events that callback hooks do not produce",
    files: { ".claude/settings.json": `${JSON.stringify(shellHooks, null, 2)}\n` },
    replies: [reply.bash("echo hi", "Say hi"), reply.text("Said hi.")],
    runs: [controlRun({ prompt: "Say hi with bash", extraArgs: ["--include-hook-events"] })],
  },
  {
    name: "n-resume",
    description:
      "two processes in the same project and HOME: the first (label 'first') runs one turn in control mode and exits; the second starts with --resume <session_id of the first> in stream-json control mode and runs a second turn that sees the earlier history",
    replies: [
      reply.text("Remembered: the codeword is PELICAN."),
      reply.text("The codeword was PELICAN (from the resumed history)."),
    ],
    runs: [
      controlRun({ label: "first", prompt: "Remember the codeword PELICAN", closeAfterMs: 300 }),
      controlRun({ prompt: "What was the codeword?", resumeFrom: "first" }),
    ],
  },
  {
    name: "o-partial-messages-thinking",
    description:
      "--include-partial-messages: the response has a thinking block (with signature) and a text block, each streamed in 3 deltas; stream_event lines wrap the raw SSE events",
    replies: [
      {
        kind: "message",
        blocks: [
          { type: "thinking", thinking: "The user wants a short greeting. I will keep it brief." },
          { type: "text", text: "Hello! This reply was streamed in pieces." },
        ],
        chunks: 3,
        deltaDelayMs: 20,
        outputTokens: 42,
      },
    ],
    runs: [controlRun({ prompt: "Greet me", extraArgs: ["--include-partial-messages"] })],
  },
  {
    name: "p-subagent",
    description:
      "the model starts a general-purpose subagent with the Agent tool (init lists it as Task) in the foreground (run_in_background false); the subagent runs its own requests (a Bash call needing permission, then text); its events carry parent_tool_use_id",
    replies: [
      reply.tool("Agent", { ...subagentInput, run_in_background: false }),
      reply.text("The subagent saved the listing."),
    ],
    keyed: { [SUBAGENT]: subagentReplies },
    runs: [controlRun({ prompt: "Use a subagent to list the files", middle: [allowTool()] })],
  },
  {
    name: "p2-subagent-background",
    description:
      "the model calls the Agent tool without run_in_background; this CLI launches the subagent asynchronously: the main turn ends with a result while the subagent still runs, and when it finishes a task_notification starts a new main turn on its own (a second system/init and result without any user message)",
    replies: [
      reply.tool("Agent", subagentInput),
      // The turn ends late, so the subagent's first lines come before this result, as in the shared recording.
      reply.text("The subagent has been started; I will report when it finishes.", { stopDelayMs: 500 }),
      reply.text("The background subagent finished and saved the listing."),
    ],
    keyed: { [SUBAGENT]: subagentReplies },
    runs: [
      controlRun({
        prompt: "Use a subagent to list the files",
        // The main result comes while the subagent's permission request is open: answer after it.
        middle: [{ waitFor: "control_request/can_use_tool" }, { waitFor: "result" }, allowTool()],
        results: 2,
      }),
    ],
  },
  {
    name: "p3-background-shell-resume",
    description:
      "run0: the model starts a Bash command in the background (run_in_background: true, `sleep 8`, which needs no approval); once its task_started and the turn's result are out, the consumer kills the CLI with SIGKILL, so the task never ends in its transcript. main: --resume of that session and a user message; records how the new process accounts for the task it finds unfinished",
    replies: [
      reply.tool(
        "Bash",
        { command: "sleep 8", description: "Watch the build", run_in_background: true },
        "Starting the watcher.",
      ),
      reply.text("The watcher is running in the background."),
      reply.text("The watcher is no longer running."),
    ],
    runs: [
      {
        label: "run0",
        args: controlArgs(),
        steps: [
          initialize(),
          user("Start the watcher in the background"),
          { waitFor: "system/task_started" },
          { waitFor: "result" },
          // The CLI writes its transcript in batches: give it time to hold the launch.
          { pauseMs: 1000 },
          { signal: "SIGKILL" },
        ],
      },
      controlRun({ prompt: "Is the watcher still running?", resumeFrom: "run0" }),
    ],
  },
  {
    name: "q-accept-edits-write-edit-read",
    description:
      "--permission-mode acceptEdits: the model calls Write (new file), Edit (change one line) and Read on a file in the project; no can_use_tool is expected",
    replies: ({ project }) => [
      reply.tool("Write", { file_path: join(project, "notes.txt"), content: "alpha\nbeta\ngamma\n" }),
      reply.tool("Edit", { file_path: join(project, "notes.txt"), old_string: "beta", new_string: "BETA" }),
      reply.tool("Read", { file_path: join(project, "notes.txt") }),
      reply.text("notes.txt now has alpha, BETA, gamma."),
    ],
    runs: [controlRun({ prompt: "Create notes.txt, capitalise beta, and show me the file", mode: "acceptEdits" })],
  },
  {
    name: "r-large-tool-output",
    description:
      "an allowed Bash command prints about 2 MB (20000 lines of 100 characters); shows how the CLI truncates or persists the tool result and how long the stdout lines get",
    replies: [
      reply.bash("for i in $(seq 1 20000); do printf '%05d %094d\\n' $i 0; done", "Print a lot of output"),
      reply.text("That was a lot of output."),
    ],
    runs: [controlRun({ prompt: "Print a lot of output", middle: [allowTool()] })],
  },
  {
    name: "r2-large-assistant-line",
    description:
      "acceptEdits mode: the model calls Write with about 1.07 MB of content (just over 1 MiB); the assistant line that echoes the tool_use input and the user line that echoes the written content are each longer than 1 MiB",
    replies: ({ project }) => [
      reply.tool("Write", { file_path: join(project, "big.txt"), content: BIG_CONTENT }),
      reply.text("Wrote big.txt."),
    ],
    runs: [controlRun({ prompt: "Write a big file", mode: "acceptEdits" })],
  },
  {
    name: "s-compact",
    description:
      "manual compaction: after one normal turn the consumer sends the user message '/compact'; the CLI makes a summary request; then a third user message runs on the compacted history",
    replies: [
      reply.text("Hello! (first turn)", { inputTokens: 5000 }),
      reply.text(SUMMARY_GREETING, { inputTokens: 5000, outputTokens: 120 }),
      reply.text("Answer after compaction."),
    ],
    runs: [
      controlRun({
        prompt: "Say hello",
        middle: [...thenPrompt("/compact"), ...thenPrompt("What did we talk about?", { after: 2 })],
        results: 3,
      }),
    ],
  },
  {
    name: "s2-autocompact",
    description:
      "automatic compaction: the first response reports usage.input_tokens 990000 (context window 1000000) together with a Bash tool call; before the follow-up request the CLI compacts on its own (trigger auto)",
    replies: [
      { ...reply.bash("echo word", "Print a word"), inputTokens: 990_000 },
      reply.text(SUMMARY_WORD, { inputTokens: 990_000, outputTokens: 50 }),
      reply.text("The command printed: word.", { inputTokens: 3000 }),
    ],
    runs: [controlRun({ prompt: "Print a word" })],
  },
  {
    name: "v-task-list",
    description:
      "the task list (CLAUDE_CODE_ENABLE_TODO_TOOLS=1: the CLI offers it to the models it knows, not to the fake one): ToolSearch selects TaskCreate, TaskUpdate and TaskList; three TaskCreate calls, TaskUpdate to in_progress and to completed, one to in_progress with a new subject, TaskList, a TaskUpdate of an id that does not exist; then a second turn completes one task and deletes another",
    replies: [
      reply.tool("ToolSearch", { query: "select:TaskCreate,TaskUpdate,TaskList" }),
      reply.tool("TaskCreate", { subject: "Read the code", description: "Read src/", activeForm: "Reading the code" }),
      reply.tool("TaskCreate", { subject: "Run the tests", description: "npm test", activeForm: "Running the tests" }),
      reply.tool("TaskCreate", { subject: "Fix the bug", description: "Make the failing test pass" }),
      reply.tool("TaskUpdate", { taskId: "1", status: "in_progress" }),
      reply.tool("TaskUpdate", { taskId: "1", status: "completed" }),
      reply.tool("TaskUpdate", { taskId: "2", status: "in_progress", subject: "Run the unit tests" }),
      reply.tool("TaskList", {}),
      reply.tool("TaskUpdate", { taskId: "99", status: "completed" }),
      reply.text("Reading done; the tests run next."),
      reply.tool("TaskUpdate", { taskId: "2", status: "completed" }),
      reply.tool("TaskUpdate", { taskId: "3", status: "deleted" }),
      reply.text("All done."),
    ],
    runs: [
      controlRun({
        prompt: "Plan the work as tasks and start",
        middle: [...thenPrompt("Go on")],
        results: 2,
        env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
      }),
    ],
  },
  {
    name: "v2-task-list-resume",
    description:
      "the task list across processes (CLAUDE_CODE_ENABLE_TODO_TOOLS=1): run0 creates two tasks and completes one; main resumes the session, calls TaskList (the CLI kept the list), starts the other task and completes it",
    replies: [
      reply.tool("TaskCreate", { subject: "Read the code", description: "Read src/" }),
      reply.tool("TaskCreate", { subject: "Run the tests", description: "npm test" }),
      reply.tool("TaskUpdate", { taskId: "1", status: "completed" }),
      reply.text("Planned."),
      reply.tool("TaskList", {}),
      reply.tool("TaskUpdate", { taskId: "2", status: "in_progress" }),
      reply.tool("TaskUpdate", { taskId: "2", status: "completed" }),
      reply.text("Resumed and done."),
    ],
    runs: [
      controlRun({ label: "run0", prompt: "Plan", env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } }),
      controlRun({ resumeFrom: "run0", prompt: "Go on", env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } }),
    ],
  },
];
