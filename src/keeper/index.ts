// The keeper's public surface: the process that keeps a CLI alive across Telecode restarts
// (run by `telecode keeper`), and the client side: start, find, attach, reap, and whether
// keepers outlive a restart on this host.
export { attachKeeper } from "./keeper-client.js";
export type { AttachOptions, KeeperConnection, KeeperEnd, ShutdownTimings } from "./keeper-client.js";
export { findKeepers, reapGoneKeeper, reapIfGone, removeKeeperFiles } from "./discover.js";
export type { FoundKeeper, KeeperRecord } from "./discover.js";
export { KeeperError, isKeeperError } from "./errors.js";
export type { KeeperErrorCode } from "./errors.js";
export { DEFAULT_LOG_CAP_BYTES } from "./keeper-log.js";
export { keeperPaths, maxSocketPathBytes } from "./keeper-paths.js";
export type { KeeperPaths } from "./keeper-paths.js";
export { runKeeper } from "./keeper-process.js";
export type { RunningKeeper } from "./keeper-process.js";
export { DEFAULT_EXIT_GRACE_MS, parseKeeperSpec } from "./keeper-spec.js";
export type { KeeperReady, KeeperSpec } from "./keeper-spec.js";
export type { KeeperState } from "./keeper-state.js";
export { endKeeperProcess, keeperCommand, startKeeper, WarmKeeper } from "./launch.js";
export { retireKeeper } from "./retire.js";
export type { KeeperLauncher, StartKeeperOptions, StartedKeeper } from "./launch.js";
export { KEEPER_PROTOCOL_VERSION } from "./protocol.js";
export type { ExitRecord, Gap, GapReason, KeeperSignal, Welcome } from "./protocol.js";
export { keeperLaunchPlan, probeHostFacts, systemdUnitOf, userBusExists, findOnPath } from "./survival.js";
export type { HostFacts, LaunchPlan } from "./survival.js";
