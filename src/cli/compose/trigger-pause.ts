// The one switch that holds every trigger (schedules, loops, webhooks). `[schedule] paused` is its
// start value; /pause and /resume set it and are kept in SQLite, so a restart keeps the chat's
// choice, until the config's own value changes (editing `paused` decides again).
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/index.js";

export type TriggerPause = {
  /** Whether triggers are held now: the chat's last choice, unless the config's value changed since. */
  isPaused(): boolean;
  /** Records the chat's choice; false when triggers already were so. */
  set(paused: boolean): boolean;
};

export function createTriggerPause(deps: { config: () => Config; store: Store; now: () => number }): TriggerPause {
  const { config, store } = deps;
  const isPaused = (): boolean => {
    const configPaused = config().schedule.paused;
    const choice = store.triggers.pausedChoice();
    if (choice === null) return configPaused;
    if (choice.configPaused === configPaused) return choice.paused;
    // The config's value was edited after the chat's choice: the edit wins, and the choice is spent.
    store.triggers.clearPausedChoice();
    return configPaused;
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
