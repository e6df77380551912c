import {objectKey, parseObjectKey, qualifiedName, shownObjectKey, type PlanObject} from '../model/plan-tree.js';
import {waitVerdict} from '../model/wait-rules.js';
import {formatDurationWords} from '../model/format-duration.js';
import type {Clock} from '../core/clock.js';
import {Listeners, type ExternalStore} from '../core/external-store.js';
import {connectionTrouble, stillTrying} from './still-trying.js';
import type {StoreSnapshot} from './store.js';
import type {WaitSession, WaitView} from './wait-session.js';
import {exitCodes, type ExitCode} from '../core/exit-codes.js';
import {contextFailures, withContextFailures} from './context-results.js';

export type WaitResult = {readonly exitCode: ExitCode; readonly message: string};

export type WaitOptions = {
	readonly store: ExternalStore<StoreSnapshot>;
	readonly clock: Clock;
	/** --wait: finish when the targets finish. Without it the session only watches until quit. */
	readonly wait: boolean;
	/** Object keys (`Kind/ns/name`) to wait for; empty = every object in the store. */
	readonly targets: readonly string[];
	/** --timeout in ms; 0 or undefined = none. */
	readonly timeoutMs?: number;
	/** --extend in ms (what `+` adds). */
	readonly extendMs: number;
	/** How long the TUI offers "+ to wait more" once the timeout is reached; 0 = exit 3 at once (no TTY). */
	readonly graceMs: number;
	/** Kanister: how long a failed ActionSet's pending deferPhase may take to show it started. */
	readonly deferGraceMs?: number;
	/** Kanister: a running ActionSet with no progress for this long is flagged stale. */
	readonly staleMs?: number;
};

export type WaitController = WaitSession & {
	/** Settles when the session is done (finished, timed out, failed, or quit). */
	readonly done: Promise<WaitResult>;
	/** Stop listening (idempotent). */
	dispose(): void;
};

const defaultDeferGraceMs = 30_000;
const defaultStaleMs = 10 * 60_000;

/**
 * Drives a wait: re-evaluates the wait rules on every store change and every clock tick, owns the deadline
 * (extend/retract), the grace prompt and the final result. Pure state + the injected clock; no I/O.
 */
export function createWaitController(options: WaitOptions): WaitController {
	const {store, clock} = options;
	const startedAt = clock.now();
	let view: WaitView = {
		phase: options.wait ? 'waiting' : 'watching',
		startedAt,
		deadlineAt: options.wait && options.timeoutMs ? startedAt + options.timeoutMs : undefined,
		extendMs: options.extendMs,
		extendedMs: 0,
	};
	const listeners = new Listeners();
	// The picture at the start of the wait: KUDO's uid snapshot, so a previous run is never reported as this one.
	let baseline: Map<string, PlanObject> | undefined;
	let resolve!: (r: WaitResult) => void;
	const done = new Promise<WaitResult>(r => {
		resolve = r;
	});

	const set = (next: WaitView): void => {
		view = next;
		listeners.notify();
	};

	const finish = (result: WaitResult): void => {
		if (view.phase === 'done') {
			return;
		}

		set({...view, phase: 'done', graceEndsAt: undefined, result});
		dispose();
		resolve(result);
	};

	const evaluate = (): void => {
		if (view.phase === 'done') {
			return;
		}

		const snap = store.getSnapshot();
		if (snap.fatal) {
			finish({exitCode: snap.fatal.exitCode, message: snap.fatal.message});
			return;
		}

		if (view.phase === 'watching') {
			return;
		}

		const now = clock.now();
		if (!snap.synced) {
			// The deadline holds from the start: a cluster that never answers a list must not outlive --timeout.
			const trying = stillTrying(snap.connection);
			if (!deadline(now, trying, () => ({exitCode: exitCodes.timedOut, message: `timed out after ${formatDurationWords(waitedMs(view))}: ${trying}`}))) {
				if (view.waitingFor !== trying) {
					set({...view, waitingFor: trying});
				}
			}

			return;
		}

		// Several contexts: the targets of a context that gave up will never come; the others are still waited for,
		// and the end combines the two (worst code wins).
		const failures = contextFailures(snap.contexts);
		const failed = new Set(failures.map(f => f.context));
		const targets = failed.size === 0 ? options.targets : options.targets.filter(t => !failed.has(parseObjectKey(t).context ?? ''));
		if (options.targets.length > 0 && targets.length === 0) {
			finish(withContextFailures({exitCode: exitCodes.ok, message: ''}, failures));
			return;
		}

		// Several contexts and no targets: every object of every context is waited for, so a context that has not
		// listed yet (unreachable so far) holds the end until it lists, gives up, or the timeout comes.
		const unlisted = options.targets.length === 0 ? (snap.contexts ?? []).filter(c => !c.synced && !c.fatal) : [];
		if (unlisted.length > 0) {
			const waitingFor = unlisted.map(c => `context ${c.name}: ${stillTrying(c.connection)}`).join('; ');
			if (deadline(now, waitingFor, () => withContextFailures(timedOut(view, snap.objects, waitingFor), failures))) {
				return;
			}

			if (view.waitingFor !== waitingFor || view.phase !== 'waiting') {
				set({...view, phase: 'waiting', graceEndsAt: undefined, waitingFor});
			}

			return;
		}

		const objects = selectTargets(snap, targets);
		baseline ??= new Map(objects.map(o => [objectKey(o), o]));
		if (objects.length === 0) {
			if (options.targets.length === 0) {
				finish(withContextFailures({exitCode: exitCodes.ok, message: 'nothing to wait for: no Instance or ActionSet in scope'}, failures));
				return;
			}
		}

		const deferGraceMs = options.deferGraceMs ?? defaultDeferGraceMs;
		const named = objects.length > 1 || options.targets.length === 0;
		const verdicts = objects.map(o => {
			const verdict = waitVerdict(o, baseline?.get(objectKey(o)), {now, deferGraceMs, staleMs: options.staleMs ?? defaultStaleMs});
			const held = holdForDeferPhase(o, verdict, now);
			const prefix = named ? `${qualifiedName(o)}: ` : '';
			return held.done ? {...held, summary: prefix + held.summary} : {...held, waitingFor: prefix + held.waitingFor};
		});
		const decision = decideTargets(targets, objects.map(o => objectKey(o)), verdicts);
		if (decision.done) {
			finish(withContextFailures(decision.result, failures));
			return;
		}

		const {waitingFor} = decision;
		if (deadline(now, waitingFor, () => withContextFailures(timedOut(view, objects, connectionTrouble(snap.connection)), failures))) {
			return;
		}

		if (view.waitingFor !== waitingFor || view.phase !== 'waiting') {
			set({...view, phase: 'waiting', graceEndsAt: undefined, waitingFor});
		}
	};

	/** At the deadline: the grace prompt (TUI) or the result. True when the deadline has passed. */
	const deadline = (now: number, waitingFor: string, result: () => WaitResult): boolean => {
		if (view.deadlineAt === undefined || now < view.deadlineAt) {
			return false;
		}

		if (view.phase === 'grace') {
			if (view.graceEndsAt !== undefined && now >= view.graceEndsAt) {
				finish(result());
			} else if (view.waitingFor !== waitingFor) {
				set({...view, waitingFor});
			}

			return true;
		}

		if (options.graceMs > 0) {
			set({...view, phase: 'grace', graceEndsAt: now + options.graceMs, waitingFor});
			return true;
		}

		finish(result());
		return true;
	};

	// When planwatch itself saw an ActionSet fail, its pending deferPhase gets the grace period from that moment:
	// the object's own timestamps may be much older than the failure (they move only with progress).
	const failedSeenAt = new Map<string, number>();
	const holdForDeferPhase = (o: PlanObject, verdict: ReturnType<typeof waitVerdict>, now: number): ReturnType<typeof waitVerdict> => {
		const facts = o.wait;
		if (facts.kind !== 'ActionSet' || facts.state !== 'failed' || !facts.deferPending || facts.deferRunning) {
			return verdict;
		}

		// Remember the first sight even while the rule itself still holds, so the two grace periods overlap.
		const key = objectKey(o);
		const seen = failedSeenAt.get(key) ?? now;
		failedSeenAt.set(key, seen);
		const before = baseline?.get(key)?.wait;
		if (!verdict.done || (before?.kind === 'ActionSet' && before.state === 'failed')) {
			return verdict;
		}

		const left = (options.deferGraceMs ?? defaultDeferGraceMs) - (now - seen);
		return left > 0 ? {done: false, waitingFor: `${o.summary}; giving the deferPhase ${formatDurationWords(left)} to start`} : verdict;
	};

	const unsubscribeStore = store.subscribe(evaluate);
	const unsubscribeTick = clock.onTick(evaluate);
	function dispose(): void {
		unsubscribeStore();
		unsubscribeTick();
	}

	queueMicrotask(evaluate);

	return {
		done,
		dispose,
		subscribe: listener => listeners.add(listener),
		getSnapshot: () => view,
		extend() {
			if (view.phase !== 'waiting' && view.phase !== 'grace') {
				return;
			}

			const now = clock.now();
			// From the grace prompt the extension counts from now: the old deadline is already behind us.
			const base = view.deadlineAt === undefined ? undefined : Math.max(view.deadlineAt, now);
			if (base === undefined) {
				return;
			}

			set({...view, phase: 'waiting', graceEndsAt: undefined, deadlineAt: base + view.extendMs, extendedMs: view.extendedMs + view.extendMs});
			evaluate();
		},
		retract() {
			if (view.phase !== 'waiting' || view.deadlineAt === undefined || view.extendedMs < view.extendMs) {
				return;
			}

			set({...view, deadlineAt: view.deadlineAt - view.extendMs, extendedMs: view.extendedMs - view.extendMs});
			evaluate();
		},
		quit() {
			if (view.phase === 'waiting' || view.phase === 'grace') {
				finish({exitCode: exitCodes.interrupted, message: 'interrupted while waiting'});
				return;
			}

			const snap = store.getSnapshot();
			const failed = selectTargets(snap, options.targets).some(o => o.outcome === 'failed');
			finish(withContextFailures({exitCode: failed ? exitCodes.failed : exitCodes.ok, message: ''}, contextFailures(snap.contexts)));
		},
	};
}

function selectTargets(snap: StoreSnapshot, targets: readonly string[]): PlanObject[] {
	if (targets.length === 0) {
		return [...snap.objects];
	}

	const wanted = new Set(targets);
	return snap.objects.filter(o => wanted.has(objectKey(o)));
}

function waitedMs(view: WaitView): number {
	return (view.deadlineAt ?? view.startedAt) - view.startedAt;
}

function timedOut(view: WaitView, objects: readonly PlanObject[], trouble?: string): WaitResult {
	const states = objects.map(o => `${o.kind.toLowerCase()} ${qualifiedName(o)}: ${o.summary}`).join('\n');
	return {exitCode: exitCodes.timedOut, message: `timed out after ${formatDurationWords(waitedMs(view))}${trouble ? `: ${trouble}` : ''}${states ? `\n${states}` : ''}`};
}

/**
 * The wait decision over all targets, once each object has its verdict: done when every object is done and no
 * named target is still missing (exit 1 if any failed, else 0, one summary line per object); else what is
 * awaited: the missing targets first, then each object still running.
 */
export function decideTargets(
	targets: readonly string[],
	present: readonly string[],
	verdicts: ReadonlyArray<ReturnType<typeof waitVerdict>>,
): {readonly done: true; readonly result: WaitResult} | {readonly done: false; readonly waitingFor: string} {
	const missing = targets.filter(t => !present.includes(t));
	const pending = verdicts.flatMap(v => (v.done ? [] : [v.waitingFor]));
	if (missing.length > 0) {
		return {done: false, waitingFor: `waiting for ${missing.map(m => shownObjectKey(m)).join(', ')} to appear`};
	}

	if (pending.length > 0) {
		return {done: false, waitingFor: pending.join('; ')};
	}

	const failed = verdicts.some(v => v.done && v.exitCode === exitCodes.failed);
	return {done: true, result: {exitCode: failed ? exitCodes.failed : exitCodes.ok, message: verdicts.map(v => (v.done ? v.summary : '')).join('\n')}};
}
