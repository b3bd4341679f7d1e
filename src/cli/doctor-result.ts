// One `telecode doctor` check as data (✓ works, ! worth knowing, ✗ must be fixed, with how),
// and the small builders every group of checks uses.

export type CheckStatus = "ok" | "warn" | "fail";

export type CheckResult = Readonly<{ status: CheckStatus; label: string; detail: string; fix?: string }>;

export const ok = (label: string, detail: string): CheckResult => ({ status: "ok", label, detail });

export const warn = (label: string, detail: string, fix?: string): CheckResult => ({
  status: "warn",
  label,
  detail,
  ...(fix === undefined ? {} : { fix }),
});

export const fail = (label: string, detail: string, fix: string): CheckResult => ({
  status: "fail",
  label,
  detail,
  fix,
});
