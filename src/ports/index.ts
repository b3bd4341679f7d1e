// Ports every layer may import: the clock (time and timers, a watch for the computer's sleep
// and network changes, and one for a transfer that stalls) and the logger. Types and the one
// system implementation of each; pure layers import the types only.
export { createSystemClock, MAX_HOST_TIMER_MS } from "./clock.js";
export type { Clock, SystemClockOptions, TimerHandle, TimerHost, TimerOptions } from "./clock.js";
export { LOOK_EVERY_MS, momentOf, networkAddresses, SLEEP_NOTICE_MS, sleptSince, watchForWakes } from "./wake-watch.js";
export type { Moment, Wake, WakeWatch, WakeWatchOptions } from "./wake-watch.js";
export { watchForStall } from "./stall-watch.js";
export type { StallWatch } from "./stall-watch.js";
export { silentLogger } from "./logger.js";
export type { EventName, LogFields, Logger, LogLevel } from "./logger.js";
