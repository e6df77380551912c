import type {KubeObject} from '../core/kube-object.js';
import {compareRevisions, type PlanEvent} from './plan-tree.js';
import {isoTime, rawString, record, timeValue} from './read-raw.js';
import {maxNameLength, sanitizeLine} from './sanitize.js';

/*
 * Which KUDO plan ran last, from what the cluster records of order. `lastUpdatedTimestamp` has one-second
 * resolution, and a plan triggered right after another finished often carries the same second; the webhook has
 * cleared `spec.planExecution` ~40 ms after the terminal write. The other records, strongest first:
 * - the plan starts planwatch itself saw during the watch (a new `spec.planExecution` or a new status uid): KUDO
 *   runs one plan at a time, so the one seen starting last is the one that ran last;
 * - the manager's Events on the Instance (kudobuilder/kudo v0.19.0 pkg/controller/instance/instance_controller.go):
 *   Normal `PlanStarted` "Execution of plan <p> started" when a run begins, Normal `PlanFinished` "Execution of plan
 *   <p> finished with status <S>" (rarely emitted: the webhook has cleared planExecution by then). The recorder
 *   re-counts a repeated event in place, so its resourceVersion grows with the latest start; of two events, the
 *   greater resourceVersion was written later, even within one second.
 * When none of these tells the tied plans apart, the order is unknown, and the caller must say so.
 */

/** What the manager's Events say about the runs of one Instance. */
export type KudoEventFacts = {
	/** Plan name → its latest `PlanStarted` event (time: its last occurrence). */
	readonly started: ReadonlyMap<string, {readonly time?: string; readonly revision?: string}>;
	/** Plan name → its latest `PlanFinished` event. */
	readonly finished: ReadonlyMap<string, {readonly status: string; readonly time?: string; readonly revision?: string}>;
};

const startedMessage = /^Execution of plan (.+) started$/s;
const finishedMessage = /^Execution of plan (.+) finished with status (\S+)$/s;
/** client-go's EventAggregator rewrites the message of many similar events in a short time. */
const combinedPrefix = '(combined from similar events): ';

/** Later of two events: by revision when both have one, else by time (undefined when it cannot be told). */
function later(a: PlanEvent, b: {readonly time?: string; readonly revision?: string}): boolean {
	if (a.revision !== undefined && b.revision !== undefined) {
		return compareRevisions(a.revision, b.revision) > 0;
	}

	return timeValue(a.time) > timeValue(b.time);
}

/** The Events about this Instance (its uid when both name one; none that predate it), read for plan runs. */
export function readKudoEvents(
	events: readonly PlanEvent[],
	instance: {readonly namespace: string; readonly name: string; readonly uid?: string; readonly createdAt?: string},
): KudoEventFacts {
	const started = new Map<string, {time?: string; revision?: string}>();
	const finished = new Map<string, {status: string; time?: string; revision?: string}>();
	for (const e of events) {
		if (e.involvedKind !== 'Instance' || e.involvedName !== instance.name || (e.namespace && e.namespace !== instance.namespace)) {
			continue;
		}

		// An earlier Instance of the same name left these (Events live an hour).
		if (
			(instance.uid && e.involvedUid && e.involvedUid !== instance.uid) ||
			(instance.createdAt && e.time && timeValue(e.time) < timeValue(instance.createdAt))
		) {
			continue;
		}

		const text = e.message.startsWith(combinedPrefix) ? e.message.slice(combinedPrefix.length) : e.message;
		const entry = {...(e.time ? {time: e.time} : {}), ...(e.revision ? {revision: e.revision} : {})};
		if (e.reason === 'PlanStarted') {
			const plan = startedMessage.exec(text)?.[1];
			const before = plan === undefined ? undefined : started.get(plan);
			if (plan !== undefined && (before === undefined || later(e, before))) {
				started.set(plan, entry);
			}
		} else if (e.reason === 'PlanFinished') {
			const m = finishedMessage.exec(text);
			const before = m ? finished.get(m[1]!) : undefined;
			if (m && (before === undefined || later(e, before))) {
				finished.set(m[1]!, {status: m[2]!, ...entry});
			}
		}
	}

	return {started, finished};
}

/**
 * What planwatch saw of an Instance's plan runs while watching it (the store keeps it from one update to the
 * next): the order in which plans were seen starting.
 */
export type KudoRunMemory = {
	/** Plan name → rank of the last start seen (greater = later). First sight says nothing of order. */
	readonly order: Readonly<Record<string, number>>;
	readonly rank: number;
	/** status.planStatus[*].uid as last seen. */
	readonly uids: Readonly<Record<string, string>>;
	/** spec.planExecution as last seen, `plan uid` ('' when idle). */
	readonly scheduled: string;
	/** status.planStatus[*].lastUpdatedTimestamp as last seen (the raw text). */
	readonly updated?: Readonly<Record<string, string>>;
	/**
	 * Plan name → what was known when its current run was seen starting: the previous run's last update and the
	 * newest `PlanStarted` revision then. A `PlanStarted` Event is this run's only when it is later than both
	 * (runStart).
	 */
	readonly since?: Readonly<Record<string, RunSince>>;
};

/** What was known of a plan when a run of it was seen starting. */
export type RunSince = {readonly updatedAt?: string; readonly revision?: string};

const name = (v: unknown): string => sanitizeLine(v, maxNameLength);

function readRuns(raw: KubeObject): {uids: Record<string, string>; updated: Record<string, string>; plan: string; scheduled: string} {
	const execution = record(record(raw['spec'])['planExecution']);
	const plan = name(execution['planName']);
	const uids: Record<string, string> = {};
	const updated: Record<string, string> = {};
	for (const [key, value] of Object.entries(record(record(raw['status'])['planStatus']))) {
		const uid = name(record(value)['uid']);
		const k = name(key);
		if (k && uid && !(k in uids)) {
			uids[k] = uid;
		}

		const at = name(record(value)['lastUpdatedTimestamp']);
		if (k && at && !(k in updated)) {
			updated[k] = at;
		}
	}

	return {uids, updated, plan, scheduled: plan ? `${plan} ${name(execution['uid'])}` : ''};
}

function sameRecord(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>>): boolean {
	const keys = Object.keys(b);
	return a !== undefined && Object.keys(a).length === keys.length && keys.every(k => a[k] === b[k]);
}

/**
 * The memory after seeing `raw` (the Instance as now listed or watched); `previous` undefined = first sight.
 * `started`: the `PlanStarted` Events known now (readKudoEvents), to tell this run's from an earlier one's later.
 */
export function nextRunMemory(previous: KudoRunMemory | undefined, raw: KubeObject, started?: KudoEventFacts['started']): KudoRunMemory {
	const {uids, updated, plan, scheduled} = readRuns(raw);
	if (previous === undefined) {
		// Whatever is scheduled now is the latest trigger, whatever the timestamps of earlier runs say (rank 0: not
		// seen starting; see startedWhileWatched).
		return {order: plan ? {[plan]: 0} : {}, rank: 0, uids, scheduled, updated};
	}

	let {rank} = previous;
	const order: Record<string, number> = {...previous.order};
	const since: Record<string, RunSince> = {...previous.since};
	const seenStarting = (p: string, sameRun: boolean): void => {
		order[p] = ++rank;
		// The scheduled run picked up (its second sign) keeps what was known at the first: its own PlanStarted may
		// have come in between.
		if (!sameRun || since[p] === undefined) {
			const before = previous.updated?.[p];
			const revision = started?.get(p)?.revision;
			since[p] = {...(before ? {updatedAt: before} : {}), ...(revision ? {revision} : {})};
		}
	};

	// A new uid in the status is a run the controller started; a new planExecution one the webhook scheduled (the
	// manager then gives the run the planExecution's uid).
	for (const [p, uid] of Object.entries(uids)) {
		if (previous.uids[p] !== uid) {
			seenStarting(p, previous.scheduled === `${p} ${uid}`);
		}
	}

	if (scheduled && scheduled !== previous.scheduled) {
		seenStarting(plan, false);
	}

	const same =
		rank === previous.rank &&
		scheduled === previous.scheduled &&
		Object.keys(uids).length === Object.keys(previous.uids).length &&
		sameRecord(previous.updated, updated);
	return same && Object.entries(uids).every(([p, u]) => previous.uids[p] === u)
		? previous
		: {order, rank, uids, scheduled, updated, ...(Object.keys(since).length > 0 ? {since} : {})};
}

/** planwatch saw this plan's current run start (its timer is then planwatch's own, from that moment). */
export function startedWhileWatched(memory: KudoRunMemory | undefined, plan: string): boolean {
	return (memory?.order[plan] ?? 0) > 0;
}

/** One plan that has run: its name, raw status and lastUpdatedTimestamp. */
export type RunPlan = {readonly name: string; readonly status: string; readonly updatedAt?: string};

/** Which plan ran last, and on what evidence; or the plans it cannot be told apart from. */
export type LastRun =
	| {readonly plan: string; readonly by: 'only' | 'running' | 'time' | 'watch' | 'events'}
	| {readonly plan: string; readonly by: 'unknown'; readonly candidates: readonly string[]; readonly reason: string};

const runningStatuses = new Set(['PENDING', 'IN_PROGRESS', 'ERROR']);

function byName(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** How bad a plan's status would be as the last run: the worst candidate stands for an undecided order. */
function badness(status: string): number {
	return status === 'FATAL_ERROR' ? 2 : status === 'COMPLETE' ? 0 : 1;
}

/**
 * The plan that ran last among `plans` (those with a status other than NEVER_RUN), from the evidence at hand.
 * `eventsReadable`: false when planwatch may not read Events (the line then says so).
 */
export function lastRun(
	plans: readonly RunPlan[],
	memory: KudoRunMemory | undefined,
	events: KudoEventFacts | undefined,
	eventsReadable = true,
): LastRun | undefined {
	const candidates = [...plans].sort((a, b) => byName(a.name, b.name));
	if (candidates.length === 0) {
		return undefined;
	}

	if (candidates.length === 1) {
		return {plan: candidates[0]!.name, by: 'only'};
	}

	// KUDO runs one plan at a time: a running one is the last.
	const running = candidates.filter(p => runningStatuses.has(p.status));
	if (running.length > 0) {
		return {plan: latestByTime(running).name, by: 'running'};
	}

	// A strictly later lastUpdatedTimestamp ran later (it is re-stamped on every pass of a plan). A plan without
	// one (trimmed objects; KUDO always writes it) never wins over one with it, as in the KUDO CLI's wasRunAfter.
	const top = Math.max(...candidates.map(p => timeValue(p.updatedAt)));
	const tied = candidates.filter(p => timeValue(p.updatedAt) === top);
	if (tied.length === 1) {
		return {plan: tied[0]!.name, by: 'time'};
	}

	const seen = tied.filter(p => memory?.order[p.name] !== undefined);
	if (seen.length > 0) {
		const last = seen.reduce((a, b) => (memory!.order[b.name]! > memory!.order[a.name]! ? b : a));
		return {plan: last.name, by: 'watch'};
	}

	const fromEvents = events ? lastStarted(tied, events) : undefined;
	if (fromEvents) {
		return {plan: fromEvents, by: 'events'};
	}

	// Same outcome whichever ran last: nothing to be unsure of.
	if (tied.every(p => p.status === tied[0]!.status)) {
		return {plan: tied[0]!.name, by: 'time'};
	}

	const worst = tied.reduce((a, b) => (badness(b.status) > badness(a.status) ? b : a));
	const when = Number.isFinite(top)
		? `all were last updated in the same second (${tied[0]!.updatedAt})`
		: 'none has a lastUpdatedTimestamp';
	const evidence = eventsReadable ? 'no PlanStarted Events order them' : 'Events cannot be read to order them';
	return {
		plan: worst.name,
		by: 'unknown',
		candidates: tied.map(p => p.name),
		reason: `cannot tell which plan ran last (${tied.map(p => `${p.name} ${p.status}`).join(', ')}): ${when} and ${evidence}`,
	};
}

function latestByTime(plans: readonly RunPlan[]): RunPlan {
	return plans.reduce((a, b) => (timeValue(b.updatedAt) > timeValue(a.updatedAt) ? b : a));
}

/** The tied plan whose PlanStarted event is the latest; undefined unless every one has an event that orders them. */
function lastStarted(tied: readonly RunPlan[], events: KudoEventFacts): string | undefined {
	const starts = tied.map(p => ({plan: p.name, e: events.started.get(p.name)}));
	if (starts.some(s => s.e === undefined)) {
		return undefined;
	}

	const all = starts as ReadonlyArray<{plan: string; e: {time?: string; revision?: string}}>;
	if (all.every(s => s.e.revision !== undefined)) {
		return all.reduce((a, b) => (compareRevisions(b.e.revision!, a.e.revision!) > 0 ? b : a)).plan;
	}

	const top = Math.max(...all.map(s => timeValue(s.e.time)));
	const at = all.filter(s => timeValue(s.e.time) === top);
	return at.length === 1 && Number.isFinite(top) ? at[0]!.plan : undefined;
}

/** Start time of the plan's current run from its latest PlanStarted event, when there is one. */
export function plannedStart(events: KudoEventFacts | undefined, plan: string): string | undefined {
	return events?.started.get(plan)?.time;
}

/**
 * The start of a plan's current run from its PlanStarted Event, for a run planwatch saw start too: the Event is
 * this run's only when it was written after the run was seen starting (a greater resourceVersion than the newest
 * PlanStarted then), or when it is of a later second than the previous run's last update (a run's start is never
 * after its own last update). Otherwise it may be the previous run's: undefined (the view times the run itself).
 */
export function watchedRunStart(events: KudoEventFacts | undefined, memory: KudoRunMemory | undefined, plan: string): string | undefined {
	const event = events?.started.get(plan);
	const since = memory?.since?.[plan];
	if (event?.time === undefined || since === undefined) {
		return undefined;
	}

	const {revision} = event;
	const newerWrite = revision !== undefined && (since.revision === undefined || compareRevisions(revision, since.revision) > 0);
	const laterSecond = since.updatedAt === undefined || timeValue(event.time) > timeValue(since.updatedAt);
	// No PlanStarted known when the run started, and none newer than the last update: only a same-second tie is left.
	const firstAfter = since.revision === undefined && timeValue(event.time) >= timeValue(since.updatedAt);
	return newerWrite || laterSecond || firstAfter ? event.time : undefined;
}

/** readKudoEvents for a raw Instance (its names sanitized as the adapter's are). */
export function kudoEventsOf(raw: KubeObject, events: readonly PlanEvent[]): KudoEventFacts {
	const meta = record(raw.metadata);
	const createdAt = isoTime(meta['creationTimestamp']);
	const instance = {namespace: name(meta['namespace']), name: name(meta['name']), uid: instanceUid(raw)};
	return readKudoEvents(events, createdAt ? {...instance, createdAt} : instance);
}

/** Uid of the Instance as a raw string (for readKudoEvents). */
export function instanceUid(raw: KubeObject): string {
	return name(rawString(record(raw.metadata)['uid']));
}
