// The store folder's public surface: open the database, its repositories and records.
// All SQL lives in this folder; everything else goes through these repositories.
export type { ChatPreferencesPatch, ChatsRepository, MemberChatRecord, TopicRecord } from "./chats-repo.js";
export type { ClaudeCommandsRepository } from "./claude-commands-repo.js";
export type { CountersRepository } from "./counters-repo.js";
export type { AddDecisionInput, DecisionsRepository } from "./decisions-repo.js";
export { StoreError, type StoreErrorCode } from "./errors.js";
export {
  acquireInstanceLock,
  HOLDER_FILE,
  instanceState,
  LOCK_FILE,
  type InstanceLock,
  type InstanceState,
} from "./instance-lock.js";
export type { InboxEntry, InboxRepository } from "./inbox-repo.js";
export { LATEST_SCHEMA_VERSION } from "./migrations.js";
export type { OffsetsRepository } from "./offsets-repo.js";
export type { AddQueuedRunInput, QueuedRunsRepository } from "./queued-runs-repo.js";
export {
  DATABASE_FILE,
  openStore,
  type OpenStoreOptions,
  type PrepareFailure,
  type RestartRecovery,
  type Store,
} from "./open-store.js";
export {
  DECISION_KINDS,
  DECISION_STATES,
  RUN_STATES,
  type ChatPreferences,
  type DailyUsage,
  type DecisionKind,
  type DecisionRecord,
  type DecisionState,
  type FinishedRunState,
  type QueuedRunRecord,
  type QueuedRunState,
  type RunRecord,
  type RunState,
  type SessionRecord,
} from "./records.js";
export type { FinishRunInput, KeptRunInput, RunsRepository, StartRunInput } from "./runs-repo.js";
export type { SchedulesRepository } from "./schedules-repo.js";
export type { SessionCostsRepository } from "./session-costs-repo.js";
export type { SessionPlansRepository } from "./session-plans-repo.js";
export type { SessionsRepository } from "./sessions-repo.js";
export {
  TRIGGER_RESULTS,
  type HeldDelivery,
  type LastResult,
  type PausedChoice,
  type TriggerResult,
  type TriggersRepository,
} from "./triggers-repo.js";
export type { UsageRepository } from "./usage-repo.js";
export type { WebhookDeliveriesRepository } from "./webhook-deliveries-repo.js";
