// Every event a job sends to the screen that started it, by channel name, and the sink a service
// sends them through. Here in the model so services and the CLI need not import the IPC contract
// (which re-exports these for the bridges).
import type {
  DetailedDoneEvent,
  DetailedPlanEvent,
  DetailedProgressEvent,
  DetailedStepEvent,
  CheckDoneEvent,
  CheckProgressEvent,
  HashDoneEvent,
  HashProgressEvent,
  HashStageEvent,
  QuickCycleEvent,
  QuickDoneEvent,
  QuickProgressEvent,
  WizardDoneEvent,
  WizardFormatEvent,
  WizardProgressEvent,
  CampaignDoneEvent,
  CampaignProgressEvent,
  CampaignWaitingEvent,
  JobNotAnsweringEvent,
} from './events.js';

declare const eventType: unique symbol;
/** An event's data type, carried as a type only. */
export interface EventOf<T> {
  readonly [eventType]: T;
}
const event = <T>(): EventOf<T> => ({}) as EventOf<T>;

/** Every event (core → the renderer that started the job) and its data. */
export const events = {
  'quick.progress': event<QuickProgressEvent>(),
  'quick.cycle': event<QuickCycleEvent>(),
  'quick.done': event<QuickDoneEvent>(),
  'detailed.plan': event<DetailedPlanEvent>(),
  'detailed.progress': event<DetailedProgressEvent>(),
  'detailed.step': event<DetailedStepEvent>(),
  'detailed.done': event<DetailedDoneEvent>(),
  'hash.progress': event<HashProgressEvent>(),
  'hash.stage': event<HashStageEvent>(),
  'hash.done': event<HashDoneEvent>(),
  'check.progress': event<CheckProgressEvent>(),
  'check.done': event<CheckDoneEvent>(),
  'wizard.progress': event<WizardProgressEvent>(),
  'wizard.format': event<WizardFormatEvent>(),
  'wizard.done': event<WizardDoneEvent>(),
  'campaign.waiting': event<CampaignWaitingEvent>(),
  'campaign.progress': event<CampaignProgressEvent>(),
  'campaign.done': event<CampaignDoneEvent>(),
  /** Any job: its drive has moved no data for a few seconds. */
  'job.notAnswering': event<JobNotAnsweringEvent>(),
};
export type EventMap = { [E in keyof typeof events]: (typeof events)[E] extends EventOf<infer T> ? T : never };
export type EventChannel = keyof EventMap;

/** Where the core sends events for a job: the window (or socket) that started it. */
export interface EventSink {
  send<C extends EventChannel>(channel: C, data: EventMap[C]): void;
  /** False once the window or socket is gone; events for it are dropped. */
  readonly alive: boolean;
}
