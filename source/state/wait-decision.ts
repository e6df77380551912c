/**
 * The wait decision as a pure function: given what the user sees of the wait, the store's picture and the clock's
 * now, what happens next — keep waiting (with which line), offer the grace prompt, or finish with which result.
 * The wait controller applies it (subscriptions, the deadline it extends, the promise it settles). The one thing it
 * writes is its memory's cache of settled verdicts (`WaitMemory.settled`), which holds only what it would decide again.
 */
import {objectKey, parseObjectKey, qualifiedName, shownObjectKey, type PlanObject} from '../model/plan-tree.js';
import {deletedVerdict, waitVerdict, type WaitVerdict} from '../model/wait-rules.js';
import {formatDurationWords} from '../model/format-duration.js';
import {exitCodes, type ExitCode} from '../core/exit-codes.js';
import {connectionTrouble, stillTrying} from './still-trying.js';
import type {DeletedObject, StoreSnapshot} from './store.js';
import type {WaitView} from './wait-session.js';
import {contextFailures, withContextFailures} from './context-results.js';

export type WaitResult = {readonly exitCode: ExitCode; readonly message: string};

/** What of the store's picture the decision reads. */
export type WaitSnapshot = Pick<StoreSnapshot, 'objects' | 'connection' | 'synced' | 'fatal' | 'contexts' | 'deleted'>;

export type WaitRules = {
	/** Object keys (`Kind/ns/name`) to wait for; empty = every object in the store. */
	readonly targets: readonly string[];
	/** How long the grace prompt lasts once the deadline is reached; 0 = finish with the timeout at once. */
	readonly graceMs: number;
	/** Kanister: how long a failed ActionSet's pending deferPhase may take to show it started. */
	readonly deferGraceMs: number;
	/** Kanister: a running ActionSet with no progress for this long is flagged stale. */
	readonly staleMs: number;
	/** `--plan NAME`: which KUDO plan the Instances are waited for. */
	readonly plan?: string;
};

/**
 * What the decision remembers from one call to the next (the caller keeps it and passes it back):
 * - `baseline`: the picture when the store first synced — KUDO's uid snapshot, so a previous run is never
 *   reported as this one;
 * - `failedSeenAt`: when planwatch first saw each ActionSet fail with its deferPhase pending; its grace period
 *   counts from that moment, since the object's own timestamps move only with progress.
 */
export type WaitMemory = {
	readonly baseline?: ReadonlyMap<string, PlanObject>;
	readonly failedSeenAt: ReadonlyMap<string, number>;
	/** The verdicts that cannot change while their object stays the same one (see objectVerdicts). */
	readonly settled?: Settled;
};

/**
 * Verdicts that are done for good, by object (the store hands out a new object whenever one changes), with whether
 * their line carries the object's name; `now`: the latest clock time they were given at. A cache: what it holds
 * is what the rules would say again.
 */
type Settled = {now: number; readonly verdicts: WeakMap<PlanObject, {readonly named: boolean; readonly verdict: WaitVerdict}>};

export const emptyWaitMemory: WaitMemory = {failedSeenAt: new Map()};

/** Finish with `result`, or show `view` (the same object as the one passed in when nothing changes). */
export type WaitDecision =
	| {readonly finish: WaitResult; readonly memory: WaitMemory}
	| {readonly view: WaitView; readonly memory: WaitMemory};

export function decideWait(view: WaitView, snapshot: WaitSnapshot, now: number, memory: WaitMemory, rules: WaitRules): WaitDecision {
	if (snapshot.fatal) {
		return {finish: {exitCode: snapshot.fatal.exitCode, message: snapshot.fatal.message}, memory};
	}

	if (view.phase === 'watching' || view.phase === 'done') {
		return {view, memory};
	}

	if (!snapshot.synced) {
		// The deadline holds from the start: a cluster that never answers a list must not outlive --timeout.
		const trying = stillTrying(snapshot.connection);
		return atDeadline(
			view,
			now,
			trying,
			rules.graceMs,
			() => ({exitCode: exitCodes.timedOut, message: `timed out after ${formatDurationWords(waitedMs(view))}: ${trying}`}),
			memory,
		)
			?? {view: view.waitingFor === trying ? view : {...view, waitingFor: trying}, memory};
	}

	// Several contexts: the targets of a context that gave up will never come; the others are still waited for,
	// and the end combines the two (worst code wins).
	const failures = contextFailures(snapshot.contexts);
	const failed = new Set(failures.map(f => f.context));
	const targets = failed.size === 0 ? rules.targets : rules.targets.filter(t => !failed.has(parseObjectKey(t).context ?? ''));
	if (rules.targets.length > 0 && targets.length === 0) {
		return {finish: withContextFailures({exitCode: exitCodes.ok, message: ''}, failures), memory};
	}

	// Several contexts and no targets: every object of every context is waited for, so a context that has not
	// listed yet (unreachable so far) holds the end until it lists, gives up, or the timeout comes.
	const unlisted = rules.targets.length === 0 ? (snapshot.contexts ?? []).filter(c => !c.synced && !c.fatal) : [];
	if (unlisted.length > 0) {
		const waitingFor = unlisted.map(c => `context ${c.name}: ${stillTrying(c.connection)}`).join('; ');
		return atDeadline(
			view,
			now,
			waitingFor,
			rules.graceMs,
			() => withContextFailures(timedOut(view, snapshot.objects, waitingFor), failures),
			memory,
		)
			?? {
				view: view.waitingFor === waitingFor && view.phase === 'waiting'
					? view
					: {...view, phase: 'waiting', graceEndsAt: undefined, waitingFor},
				memory,
			};
	}

	const objects = selectTargets(snapshot.objects, targets);
	const baseline = memory.baseline ?? new Map(objects.map(o => [objectKey(o), o]));
	const gone = goneTargets(snapshot, targets, objects, view.startedAt);
	if (objects.length === 0 && gone.length === 0 && rules.targets.length === 0) {
		return {
			finish: withContextFailures(
				{exitCode: exitCodes.ok, message: 'nothing to wait for: no Instance or ActionSet in scope'},
				failures,
			),
			memory: {...memory, baseline},
		};
	}

	// Several objects (or none named): each line says whose it is.
	const named = objects.length + gone.length > 1 || rules.targets.length === 0;
	const {verdicts, failedSeenAt, settled} = objectVerdicts(
		objects,
		now,
		{baseline, failedSeenAt: memory.failedSeenAt, settled: memory.settled},
		rules,
		named,
	);
	const next: WaitMemory = baseline === memory.baseline && failedSeenAt === memory.failedSeenAt && settled === memory.settled
		? memory
		: {baseline, failedSeenAt, settled};
	// A target deleted while waited for ends its wait at once, with the last state seen.
	const goneVerdicts = gone.map(([key, d]) => {
		const v = deletedVerdict(d.object, baseline.get(key), {
			now,
			deferGraceMs: rules.deferGraceMs,
			staleMs: rules.staleMs,
			...(rules.plan === undefined ? {} : {plan: rules.plan}),
		});
		return {...v, summary: `${named ? `${qualifiedName(d.object)}: ` : ''}${v.summary}`};
	});
	const decision = decideTargets(
		targets,
		// Only named targets can be missing.
		targets.length === 0 ? [] : [...objects.map(o => objectKey(o)), ...gone.map(([key]) => key)],
		[...verdicts, ...goneVerdicts],
	);
	if (decision.done) {
		return {finish: withContextFailures(decision.result, failures), memory: next};
	}

	const {waitingFor} = decision;
	// Several contexts: the timeout line says what it waited for, names carrying their context (`up:default/a`).
	const several = (snapshot.contexts?.length ?? 0) > 1;
	const trouble = connectionTrouble(snapshot.connection);
	const why = several ? [`waiting for ${waitingFor}`, ...(trouble === undefined ? [] : [trouble])].join('; ') : trouble;
	return atDeadline(view, now, waitingFor, rules.graceMs, () => withContextFailures(timedOut(view, objects, why), failures), next)
		?? {
			view: view.waitingFor === waitingFor && view.phase === 'waiting'
				? view
				: {...view, phase: 'waiting', graceEndsAt: undefined, waitingFor},
			memory: next,
		};
}

/**
 * The targets deleted while waited for: the named ones gone from the store, or (waiting for everything) each
 * object that went after the wait began.
 */
function goneTargets(
	snapshot: WaitSnapshot,
	targets: readonly string[],
	present: readonly PlanObject[],
	startedAt: number,
): Array<[string, DeletedObject]> {
	const deleted = snapshot.deleted;
	if (!deleted) {
		return [];
	}

	if (targets.length > 0) {
		const here = new Set(present.map(o => objectKey(o)));
		return targets.flatMap(t => {
			const d = here.has(t) ? undefined : deleted.get(t);
			return d ? [[t, d] as [string, DeletedObject]] : [];
		});
	}

	return [...deleted].filter(([, d]) => d.at >= startedAt);
}

/** At or past the deadline: the grace prompt, or the result once it (or the prompt) is over. Undefined before it. */
function atDeadline(
	view: WaitView,
	now: number,
	waitingFor: string,
	graceMs: number,
	result: () => WaitResult,
	memory: WaitMemory,
): WaitDecision | undefined {
	if (view.deadlineAt === undefined || now < view.deadlineAt) {
		return undefined;
	}

	if (view.phase === 'grace') {
		if (view.graceEndsAt !== undefined && now >= view.graceEndsAt) {
			return {finish: result(), memory};
		}

		return {view: view.waitingFor === waitingFor ? view : {...view, waitingFor}, memory};
	}

	if (graceMs > 0) {
		return {view: {...view, phase: 'grace', graceEndsAt: now + graceMs, waitingFor}, memory};
	}

	return {finish: result(), memory};
}

/**
 * Each object's verdict, its line prefixed with the object's name when there are several (or none named). A verdict
 * that is done stays done as the clock moves on (the rules' grace periods only run out, wait-rules.ts), so one not held
 * by the deferPhase grace is kept for its object: with every object of a namespace waited for, an event then looks
 * at the objects it changed and the ones still running, not again at every finished one. A clock that goes back (a
 * replay seeking) forgets them.
 */
function objectVerdicts(
	objects: readonly PlanObject[],
	now: number,
	memory: Omit<WaitMemory, 'baseline'> & {readonly baseline: ReadonlyMap<string, PlanObject>},
	rules: WaitRules,
	named: boolean,
): {verdicts: WaitVerdict[]; failedSeenAt: ReadonlyMap<string, number>; settled: Settled | undefined} {
	let {failedSeenAt} = memory;
	// Made when a first verdict settles: until then the memory stays the one passed in.
	let settled = memory.settled !== undefined && now >= memory.settled.now ? memory.settled : undefined;
	if (settled) {
		settled.now = now;
	}

	const options = {
		now,
		deferGraceMs: rules.deferGraceMs,
		staleMs: rules.staleMs,
		...(rules.plan === undefined ? {} : {plan: rules.plan}),
	};
	const verdicts: WaitVerdict[] = [];
	for (let i = 0; i < objects.length; i++) {
		const o = objects[i]!;
		const kept = settled?.verdicts.get(o);
		if (kept?.named === named) {
			verdicts.push(kept.verdict);
			continue;
		}

		const verdict = waitVerdict(o, memory.baseline.get(objectKey(o)), options);
		const hold = holdForDeferPhase(o, verdict, now, memory.baseline, failedSeenAt, rules.deferGraceMs);
		failedSeenAt = hold.failedSeenAt;
		const held = hold.verdict;
		const prefix = named ? `${qualifiedName(o)}: ` : '';
		const line = held.done ? {...held, summary: prefix + held.summary} : {...held, waitingFor: prefix + held.waitingFor};
		if (held === verdict && verdict.done) {
			settled ??= {now, verdicts: new WeakMap()};
			settled.verdicts.set(o, {named, verdict: line});
		}

		verdicts.push(line);
	}

	return {verdicts, failedSeenAt, settled};
}

/**
 * A failed ActionSet whose deferPhase is pending gets the grace period from the moment planwatch saw it fail
 * (unless it had already failed when the wait began).
 */
function holdForDeferPhase(
	o: PlanObject,
	verdict: WaitVerdict,
	now: number,
	baseline: ReadonlyMap<string, PlanObject>,
	failedSeenAt: ReadonlyMap<string, number>,
	deferGraceMs: number,
): {verdict: WaitVerdict; failedSeenAt: ReadonlyMap<string, number>} {
	const facts = o.wait;
	if (facts.kind !== 'ActionSet' || facts.state !== 'failed' || !facts.deferPending || facts.deferRunning) {
		return {verdict, failedSeenAt};
	}

	// Remember the first sight even while the rule itself still holds, so the two grace periods overlap.
	const key = objectKey(o);
	const seen = failedSeenAt.get(key);
	const remembered = seen === undefined ? new Map([...failedSeenAt, [key, now]]) : failedSeenAt;
	const before = baseline.get(key)?.wait;
	if (!verdict.done || (before?.kind === 'ActionSet' && before.state === 'failed')) {
		return {verdict, failedSeenAt: remembered};
	}

	const left = deferGraceMs - (now - (seen ?? now));
	return {
		verdict: left > 0
			? {done: false, waitingFor: `${o.summary}; giving the deferPhase ${formatDurationWords(left)} to start`}
			: verdict,
		failedSeenAt: remembered,
	};
}

/** The objects waited for: the named targets present in the store, or every object when none is named. */
export function selectTargets(objects: readonly PlanObject[], targets: readonly string[]): PlanObject[] {
	if (targets.length === 0) {
		return [...objects];
	}

	const wanted = new Set(targets);
	return objects.filter(o => wanted.has(objectKey(o)));
}

function waitedMs(view: WaitView): number {
	return (view.deadlineAt ?? view.startedAt) - view.startedAt;
}

function timedOut(view: WaitView, objects: readonly PlanObject[], trouble?: string): WaitResult {
	const states = objects.map(o => `${o.kind.toLowerCase()} ${qualifiedName(o)}: ${o.summary}`).join('\n');
	return {
		exitCode: exitCodes.timedOut,
		message: `timed out after ${formatDurationWords(waitedMs(view))}${trouble ? `: ${trouble}` : ''}${states ? `\n${states}` : ''}`,
	};
}

/**
 * The wait decision over all targets, once each object has its verdict: done when every object is done and no
 * named target is still missing (exit 1 if any failed, else 0, one summary line per object); else what is
 * awaited: the missing targets first, then each object still running.
 */
export function decideTargets(
	targets: readonly string[],
	present: readonly string[],
	verdicts: readonly WaitVerdict[],
): {readonly done: true; readonly result: WaitResult} | {readonly done: false; readonly waitingFor: string} {
	const missing = targets.filter(t => !present.includes(t));
	const pending = verdicts.flatMap(v => (v.done ? [] : [v.waitingFor]));
	if (missing.length > 0) {
		return {done: false, waitingFor: `waiting for ${missing.map(m => shownObjectKey(m)).join(', ')} to appear`};
	}

	if (pending.length > 0) {
		return {done: false, waitingFor: pending.join('; ')};
	}

	const isFailed = (v: WaitVerdict) => v.done && v.exitCode === exitCodes.failed;
	const failed = verdicts.some(v => isFailed(v));
	// What failed first: a view that has room for one line (the TUI's banner at 80 or 100 columns) shows why the
	// exit code is 1, not a success next to a ✖.
	const ordered = [...verdicts.filter(v => isFailed(v)), ...verdicts.filter(v => !isFailed(v))];
	return {
		done: true,
		result: {exitCode: failed ? exitCodes.failed : exitCodes.ok, message: ordered.map(v => (v.done ? v.summary : '')).join('\n')},
	};
}
