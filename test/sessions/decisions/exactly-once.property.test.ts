// Property: whatever the interleaving of taps, typed replies, withdrawals, timeouts and the
// session's end, every request is answered exactly once (and before the session is gone),
// the first event decides, and late taps get "already answered" / "no longer pending".
import fc from "fast-check";
import { expect, it } from "vitest";
import type { ApprovalRequest } from "../../../src/domain/events.js";
import type { AnswerVerdict } from "../../../src/policy/index.js";
import {
  createDecisionDriver,
  createDecisionRegistry,
  type DriverDecision,
} from "../../../src/sessions/decisions/index.js";
import { fixtureRequest } from "../../policy/fixture-events.js";
import { lane, recordingPort } from "./fakes.js";
import { createFakeClock } from "../../support/fake-clock.js";

const bash = fixtureRequest("c-control-bash-allow", "Bash");
const question = fixtureRequest("g2-ask-user-question-answers", "AskUserQuestion");

type Op =
  | { op: "create"; kind: "approval" | "question" }
  | { op: "tap"; i: number; pick: number }
  | { op: "text"; i: number }
  | { op: "textToSession" }
  | { op: "abort"; i: number }
  | { op: "withdrawnEvent"; i: number }
  | { op: "advance"; ms: number }
  | { op: "end" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("create" as const),
      kind: fc.constantFrom("approval" as const, "question" as const),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("tap" as const), i: fc.nat(5), pick: fc.nat(1) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("text" as const), i: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("textToSession" as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("abort" as const), i: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("withdrawnEvent" as const), i: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 1500 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("end" as const) }) },
);

type Closed = "answered" | "expired";
type Tracked = {
  kind: "approval" | "question";
  request: ApprovalRequest;
  abort: AbortController;
  decisionId: string | undefined;
  /** How the model expects it to end, from the first event that closed it. */
  first:
    | { by: "choice"; choiceId: string }
    | { by: "text" }
    | { by: "withdrawn" }
    | { by: "timeout" }
    | { by: "end" }
    | undefined;
  closed: Closed | undefined;
  /** Clock time when it was shown (its timeout counts from here). */
  askedAtMs: number | undefined;
  resolutions: number;
  result: DriverDecision | undefined;
};

it("every request is answered exactly once, by the first event, under any interleaving", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(opArb, { maxLength: 40 }),
      fc.constantFrom<number | null>(null, 1000),
      async (ops, timeoutMs) => {
        const port = recordingPort();
        const registry = createDecisionRegistry();
        const clock = createFakeClock();
        let n = 0;
        const driver = createDecisionDriver({
          lane: lane("s"),
          settings: { mode: "default", approvalTimeoutMs: timeoutMs },
          port,
          registry,
          clock,
          newDecisionId: () => `d${++n}`,
        });
        const tracked: Tracked[] = [];
        const verdicts: { expected: AnswerVerdict; got: AnswerVerdict }[] = [];
        const answers: Promise<void>[] = [];
        let ended = false;

        const open = (): Tracked[] => tracked.filter((t) => t.closed === undefined);
        const expectVerdict = (t: Tracked): AnswerVerdict =>
          t.closed === undefined ? "accepted" : t.closed === "answered" ? "already_answered" : "no_longer_pending";
        const close = (t: Tracked, first: NonNullable<Tracked["first"]>, how: Closed): void => {
          t.first = first;
          t.closed = how;
        };

        for (const step of [...ops, { op: "end" } as Op]) {
          const target = "i" in step ? tracked[step.i % Math.max(1, tracked.length)] : undefined;
          switch (step.op) {
            case "create": {
              const abort = new AbortController();
              const base = step.kind === "approval" ? bash : question;
              const t: Tracked = {
                kind: step.kind,
                request: { ...base, requestId: `r${tracked.length}` },
                abort,
                decisionId: undefined,
                first: undefined,
                closed: undefined,
                askedAtMs: undefined,
                resolutions: 0,
                result: undefined,
              };
              tracked.push(t);
              const asksBefore = port.asks.length;
              answers.push(
                driver.decide(t.request, { signal: abort.signal, run: { id: "run", unattended: false } }).then((r) => {
                  t.resolutions++;
                  t.result = r;
                }),
              );
              if (ended) close(t, { by: "end" }, "expired");
              else {
                t.decisionId = port.asks[asksBefore]?.decisionId;
                t.askedAtMs = clock.now();
              }
              break;
            }
            case "tap": {
              if (!target?.decisionId) break;
              const choiceId =
                target.kind === "approval"
                  ? ((["allow", "deny"] as const)[step.pick] ?? "allow")
                  : `q0:opt${step.pick}`;
              const expected = expectVerdict(target);
              verdicts.push({ expected, got: registry.answer(target.decisionId, { kind: "choice", choiceId }) });
              if (expected === "accepted") close(target, { by: "choice", choiceId }, "answered");
              break;
            }
            case "text": {
              if (!target?.decisionId) break;
              const expected = expectVerdict(target);
              verdicts.push({ expected, got: registry.answer(target.decisionId, { kind: "text", text: "use pnpm" }) });
              if (expected === "accepted") close(target, { by: "text" }, "answered");
              break;
            }
            case "textToSession": {
              const oldest = open()[0];
              expect(registry.answerByText(lane("s"), "use pnpm")).toBe(oldest ? "accepted" : "no_pending");
              if (oldest) close(oldest, { by: "text" }, "answered");
              break;
            }
            case "abort":
              if (target && !target.abort.signal.aborted) {
                target.abort.abort();
                if (target.closed === undefined) close(target, { by: "withdrawn" }, "expired");
              }
              break;
            case "withdrawnEvent":
              if (target) {
                driver.observe({ type: "approval_withdrawn", requestId: target.request.requestId });
                if (target.closed === undefined) close(target, { by: "withdrawn" }, "expired");
              }
              break;
            case "advance": {
              // Every open decision whose timeout falls within the step expires.
              if (timeoutMs !== null) {
                const deadline = clock.now() + step.ms;
                for (const t of open())
                  if (t.askedAtMs !== undefined && t.askedAtMs + timeoutMs <= deadline)
                    close(t, { by: "timeout" }, "expired");
              }
              clock.advance(step.ms);
              break;
            }
            case "end":
              if (!ended) {
                driver.end();
                ended = true;
                for (const t of open()) close(t, { by: "end" }, "expired");
              }
              break;
          }
        }

        // After the session's end every decide() has resolved (a missing answer would hang here).
        await Promise.all(answers);
        for (const v of verdicts) expect(v.got).toBe(v.expected);
        for (const t of tracked) {
          expect(t.resolutions).toBe(1);
          expect(port.outcomes.filter((o) => o.decisionId === t.decisionId && t.decisionId !== undefined)).toHaveLength(
            t.decisionId === undefined ? 0 : 1,
          );
          const r = t.result;
          switch (t.first?.by) {
            case "choice":
              if (t.kind === "approval") expect(r?.behavior).toBe(t.first.choiceId === "allow" ? "allow" : "deny");
              else
                expect(r).toMatchObject({
                  behavior: "allow",
                  updatedInput: {
                    answers: { "Which color should the button be?": t.first.choiceId === "q0:opt0" ? "Blue" : "Green" },
                  },
                });
              break;
            case "text":
              if (t.kind === "approval") expect(r?.behavior === "deny" && r.message).toContain("use pnpm");
              else
                expect(r).toMatchObject({
                  behavior: "allow",
                  updatedInput: { answers: { "Which color should the button be?": "use pnpm" } },
                });
              break;
            case "withdrawn":
              expect(r?.by).toBe("withdrawn");
              break;
            case "timeout":
              expect(r?.by).toBe("timeout");
              break;
            case "end":
              expect(r?.behavior).toBe("deny");
              expect(["session end", "withdrawn"]).toContain(r?.by);
              break;
            case undefined:
              throw new Error("a decision was never closed by the model");
          }
        }
        expect(registry.pendingFor(lane("s"))).toEqual([]);
        expect(clock.activeTimers).toBe(0);
      },
    ),
    { numRuns: 400 },
  );
});
