// The import rules of DESIGN.md §1 and the glossary, checked by `npm run lint`
// (depcruise src). Folders under src/ are layers; each rule says why it exists.
/** @type {import('dependency-cruiser').IConfiguration} */
const PURE = "^src/(wire|domain|policy|render)/";

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "No import cycles, not even type-only ones: each module can be read bottom-up.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "pure-layers-import-no-io",
      severity: "error",
      comment: "wire, domain, policy and render import no I/O: only each other, in order, and the ports' types.",
      from: { path: PURE },
      to: {
        pathNot: ["^src/(wire|domain|policy|render)/", "^src/ports/"],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "pure-layers-see-only-ports-types",
      severity: "error",
      comment: "Pure layers may name the ports (Clock, Logger) but never run them.",
      from: { path: PURE },
      to: { path: "^src/ports/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "pure-layers-stay-pure",
      severity: "error",
      comment: "Pure layers import no adapter folder.",
      from: { path: PURE },
      to: { path: "^src/", pathNot: ["^src/(wire|domain|policy|render|ports)/"] },
    },
    {
      name: "wire-is-the-bottom",
      severity: "error",
      comment: "Wire shapes are decoded at the boundary; wire knows nothing above it.",
      from: { path: "^src/wire/" },
      to: { path: "^src/", pathNot: ["^src/wire/"] },
    },
    {
      name: "domain-is-engine-neutral",
      severity: "error",
      comment: "The domain (events, lanes, failures) knows no wire shapes and no other layer.",
      from: { path: "^src/domain/" },
      to: { path: "^src/", pathNot: ["^src/domain/", "^src/ports/"] },
    },
    {
      name: "only-wire-and-claude-see-wire-shapes",
      severity: "error",
      comment: "Everything else sees Telecode's events (glossary: Wire message); the keeper relays the CLI's lines.",
      from: { path: "^src/", pathNot: ["^src/wire/", "^src/claude/", "^src/keeper/"] },
      to: { path: "^src/wire/" },
    },
    {
      name: "policy-and-render-stay-above-the-domain",
      severity: "error",
      comment: "policy decides, render formats; render may read policy's prompt types, policy never render.",
      from: { path: "^src/policy/" },
      to: { path: "^src/render/" },
    },
    {
      name: "sessions-imports-no-adapter",
      severity: "error",
      comment: "sessions/ declares the ports it needs (engine, records, person) and never imports a concrete adapter.",
      from: { path: "^src/sessions/" },
      to: { path: "^src/(claude|store|telegram|terminal|cli|config|log|keeper|schedule|triggers|media|net)/" },
    },
    {
      name: "adapters-do-not-know-each-other",
      severity: "error",
      comment: "Only the composition root (cli/) wires concrete adapters together (the store: next rule).",
      from: { path: "^src/(claude|telegram|terminal|log|keeper|schedule|triggers|media|net)/" },
      to: {
        path: "^src/(claude|store|telegram|terminal|log|keeper|schedule|triggers|media|net)/",
        pathNot: ["^src/$1/", "^src/store/"],
      },
    },
    {
      name: "the-store-implements-ports-it-is-given",
      severity: "error",
      comment: "The store implements the schedule's repository port; it knows no other adapter.",
      from: { path: "^src/store/" },
      to: {
        path: "^src/(claude|telegram|terminal|log|keeper|triggers|media)/",
      },
    },
    {
      name: "the-store-is-passed-in",
      severity: "error",
      comment: "Front ends keep the chat's state in the store they are given: they name its types, never open one.",
      from: { path: "^src/(telegram|terminal)/" },
      to: { path: "^src/store/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "nothing-imports-the-composition-root",
      severity: "error",
      comment: "cli/ is the top: commands and the composition root.",
      from: { path: "^src/", pathNot: ["^src/cli/"] },
      to: { path: "^src/cli/" },
    },
    {
      name: "ports-are-the-bottom",
      severity: "error",
      comment: "Every layer may import src/ports, so it imports nothing of theirs.",
      from: { path: "^src/ports/" },
      to: { path: "^src/", pathNot: ["^src/ports/"] },
    },
    {
      name: "other-folders-through-their-index",
      severity: "error",
      comment: "A folder's public surface is its index.ts (a subfolder's too); reach into no other folder's files.",
      from: { path: "^src/([^/]+)/" },
      to: {
        path: "^src/",
        pathNot: ["^src/$1/", "^src/[^/]+/index\\.ts$", "^src/[^/]+/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "grammy-only-in-telegram",
      severity: "error",
      comment: "Each outside library lives in one folder.",
      from: { path: "^src/", pathNot: ["^src/telegram/"] },
      to: { path: "node_modules/(grammy|@grammyjs)/" },
    },
    {
      name: "proxy-agents-only-in-net",
      severity: "error",
      comment: "Each outside library lives in one folder.",
      from: { path: "^src/", pathNot: ["^src/net/"] },
      to: { path: "node_modules/(https?-proxy-agent|socks-proxy-agent)/" },
    },
    {
      name: "sqlite-only-in-store",
      severity: "error",
      comment: "All SQL lives in store/.",
      from: { path: "^src/", pathNot: ["^src/store/"] },
      to: { path: "node_modules/better-sqlite3/" },
    },
    {
      name: "pino-only-in-log",
      severity: "error",
      comment: "The logger implementation lives in log/; everyone else takes the ports' Logger.",
      from: { path: "^src/", pathNot: ["^src/log/"] },
      to: { path: "node_modules/pino" },
    },
    {
      name: "processes-only-in-claude-and-cli",
      severity: "error",
      comment:
        "The CLI is spawned by the engine (claude/) or a keeper; process/ finds what they left; cli/ probes it for doctor; worktrees/ runs git to make a chat's worktree.",
      from: { path: "^src/", pathNot: ["^src/(claude|cli|keeper|process|worktrees)/"] },
      to: { path: "^child_process$|^node:child_process$", dependencyTypes: ["core"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(dist|node_modules)/" },
  },
};
