// The one switch that holds every trigger (schedules, loops, webhooks). `[schedule] paused` is its
// start value; /pause and /resume set it and are kept in SQLite, so a restart keeps the chat's
// choice, until the config's own value changes (editing `paused` decides again).
import type { Config } from "../../config/index.js";
import type { PausedChoice, Store } from "../../store/index.js";

export type TriggerPause = {
  /** Whether triggers are held now: the chat's last choice, unless the config's value changed since. */
  isPaused(): boolean;
  /** Records the chat's choice; false when triggers already were so. */
  set(paused: boolean): boolean;
};

/** Whether triggers are held, from the config's value and the chat's last choice (which the config's change overrides). */
export function effectivePaused(configPaused: boolean, choice: PausedChoice | null): boolean {
  return choice === null || choice.configPaused !== configPaused ? configPaused : choice.paused;
}

export function createTriggerPause(deps: { config: () => Config; store: Store; now: () => number }): TriggerPause {
  const { config, store } = deps;
  const isPaused = (): boolean => {
    const configPaused = config().schedule.paused;
    const choice = store.triggers.pausedChoice();
    // The config's value was edited after the chat's choice: the edit wins, and the choice is spent.
    if (choice !== null && choice.configPaused !== configPaused) store.triggers.clearPausedChoice();
    return effectivePaused(configPaused, choice);
  };
  return {
    isPaused,
    set(paused) {
      const was = isPaused();
      store.triggers.setPausedChoice({ paused, configPaused: config().schedule.paused, changedAt: deps.now() });
      return was !== paused;
    },
  };
}
