import type {Clock} from '../core/clock.js';
import {Listeners, type ExternalStore} from '../core/external-store.js';
import {exitCodes} from '../core/exit-codes.js';
import {decideWait, emptyWaitMemory, selectTargets, type WaitMemory, type WaitResult, type WaitRules} from './wait-decision.js';
import type {StoreSnapshot} from './store.js';
import {contextFailures, withContextFailures} from './context-results.js';
import type {WaitSession, WaitView} from './wait-session.js';

export type {WaitResult} from './wait-decision.js';

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
	/** `--plan NAME`: wait for this KUDO plan. */
	readonly plan?: string;
	/**
	 * Quitting a watch exits 1 when a target failed: files (`-f`), whose TUI answers as `-f -o plain` does. A live
	 * view (a cluster, the demo, a replay) that is quit exits 0, whatever its objects did.
	 */
	readonly quitCountsFailures?: boolean;
};

const defaultDeferGraceMs = 30_000;
const defaultStaleMs = 10 * 60_000;

/**
 * Drives a wait: applies the wait decision (state/wait-decision.ts) on every store change and every clock tick,
 * and owns what the decision does not: the deadline the user extends or retracts, quitting, and the final result.
 * Pure state + the injected clock; no I/O.
 */
export class WaitController implements WaitSession {
	/** Settles when the session is done (finished, timed out, failed, or quit). */
	readonly done: Promise<WaitResult>;
	readonly #store: ExternalStore<StoreSnapshot>;
	readonly #clock: Clock;
	readonly #rules: WaitRules;
	readonly #quitCountsFailures: boolean;
	readonly #listeners = new Listeners();
	readonly #unsubscribe: Array<() => void>;
	#view: WaitView;
	#memory: WaitMemory = emptyWaitMemory;
	#resolve!: (result: WaitResult) => void;

	constructor(options: WaitOptions) {
		this.#quitCountsFailures = options.quitCountsFailures ?? false;
		this.#store = options.store;
		this.#clock = options.clock;
		this.#rules = {
			targets: options.targets,
			graceMs: options.graceMs,
			deferGraceMs: options.deferGraceMs ?? defaultDeferGraceMs,
			staleMs: options.staleMs ?? defaultStaleMs,
			...(options.plan === undefined ? {} : {plan: options.plan}),
		};
		const startedAt = this.#clock.now();
		this.#view = {
			phase: options.wait ? 'waiting' : 'watching',
			startedAt,
			deadlineAt: options.wait && options.timeoutMs ? startedAt + options.timeoutMs : undefined,
			extendMs: options.extendMs,
			extendedMs: 0,
		};
		this.done = new Promise<WaitResult>(resolve => {
			this.#resolve = resolve;
		});
		this.#unsubscribe = [this.#store.subscribe(this.#evaluate), this.#clock.onTick(this.#evaluate)];
		queueMicrotask(this.#evaluate);
	}

	readonly subscribe = (listener: () => void): (() => void) => this.#listeners.add(listener);

	readonly getSnapshot = (): WaitView => this.#view;

	/** Stop listening (idempotent). */
	readonly dispose = (): void => {
		for (const unsubscribe of this.#unsubscribe) {
			unsubscribe();
		}
	};

	readonly extend = (): void => {
		const view = this.#view;
		if (view.phase !== 'waiting' && view.phase !== 'grace') {
			return;
		}

		// From the grace prompt the extension counts from now: the old deadline is already behind us.
		const base = view.deadlineAt === undefined ? undefined : Math.max(view.deadlineAt, this.#clock.now());
		if (base === undefined) {
			return;
		}

		this.#set({
			...view,
			phase: 'waiting',
			graceEndsAt: undefined,
			deadlineAt: base + view.extendMs,
			extendedMs: view.extendedMs + view.extendMs,
		});
		this.#evaluate();
	};

	readonly retract = (): void => {
		const view = this.#view;
		if (view.phase !== 'waiting' || view.deadlineAt === undefined || view.extendedMs < view.extendMs) {
			return;
		}

		this.#set({...view, deadlineAt: view.deadlineAt - view.extendMs, extendedMs: view.extendedMs - view.extendMs});
		this.#evaluate();
	};

	readonly quit = (): void => {
		if (this.#view.phase === 'waiting' || this.#view.phase === 'grace') {
			this.#finish({exitCode: exitCodes.interrupted, message: 'interrupted while waiting'});
			return;
		}

		// Watching (no --wait): the user looked and left; what the objects did is on the screen, not in the code (the
		// demo's tour fails a restore on purpose). A context that could not be reached is still the run's error.
		const snap = this.#store.getSnapshot();
		const failed = this.#quitCountsFailures && selectTargets(snap.objects, this.#rules.targets).some(o => o.outcome === 'failed');
		this.#finish(withContextFailures(
			{exitCode: failed ? exitCodes.failed : exitCodes.ok, message: ''},
			contextFailures(snap.contexts),
		));
	};

	/**
	 * Whether the view changed: as a subscriber of framed snapshots (state/framed-snapshots.ts) that is a frame (the
	 * view's readers draw it); a decision that changes nothing draws nothing.
	 */
	readonly #evaluate = (): boolean => {
		if (this.#view.phase === 'done') {
			return false;
		}

		const decision = decideWait(this.#view, this.#store.getSnapshot(), this.#clock.now(), this.#memory, this.#rules);
		this.#memory = decision.memory;
		if ('finish' in decision) {
			this.#finish(decision.finish);
			return true;
		}

		if (decision.view !== this.#view) {
			this.#set(decision.view);
			return true;
		}

		return false;
	};

	#set(next: WaitView): void {
		this.#view = next;
		this.#listeners.notify();
	}

	#finish(result: WaitResult): void {
		if (this.#view.phase === 'done') {
			return;
		}

		this.#set({...this.#view, phase: 'done', graceEndsAt: undefined, result});
		this.dispose();
		this.#resolve(result);
	}
}

export function createWaitController(options: WaitOptions): WaitController {
	return new WaitController(options);
}
