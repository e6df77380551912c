/**
 * When planwatch calls for attention: a wait that ends (succeeded, failed, timed out), or, while only watching,
 * a watched object that fails. `--notify=auto` does so only once the wait (or watch) has run longer than
 * `autoNotifyAfterMs`: a person who waited ten seconds is still looking. `n` in the TUI turns it off and on.
 */
import {objectKey, type PlanObject} from '../model/plan-tree.js';
import type {StoreSnapshot} from '../state/store.js';
import type {NotifyMode} from './parse-args.js';
import type {TerminalSignals} from './terminal-signals.js';

export const autoNotifyAfterMs = 30_000;

/** Whether to notify now; pure. */
export function shouldNotify(mode: NotifyMode, enabled: boolean, elapsedMs: number): boolean {
	return enabled && (mode === 'always' || (mode === 'auto' && elapsedMs > autoNotifyAfterMs));
}

/** The words for a wait's end; undefined for ends nobody needs to hear about (quit, interrupted, usage). */
export function waitEndText(result: {readonly exitCode: number; readonly message: string}): string | undefined {
	const first = result.message.split('\n')[0] ?? '';
	switch (result.exitCode) {
		case 0: {
			return first ? `succeeded: ${first}` : 'succeeded';
		}

		case 1: {
			return first ? `failed: ${first}` : 'failed';
		}

		case 3: {
			return first || 'timed out';
		}

		default: {
			return undefined;
		}
	}
}

export class Notifier {
	readonly #mode: NotifyMode;
	readonly #signals: TerminalSignals;
	readonly #startedAt: number;
	#enabled: boolean;

	constructor(mode: NotifyMode, signals: TerminalSignals, startedAt: number) {
		// `n` turns a --notify=never run on: then it notifies like always.
		this.#mode = mode === 'never' ? 'always' : mode;
		this.#enabled = mode !== 'never';
		this.#signals = signals;
		this.#startedAt = startedAt;
	}

	get enabled(): boolean {
		return this.#enabled;
	}

	get available(): boolean {
		return this.#signals.available;
	}

	/** `n`: the footer's words for the new state. */
	toggle(): string {
		if (!this.#signals.available) {
			return 'notifications need a terminal on stdout';
		}

		this.#enabled = !this.#enabled;
		if (!this.#enabled) {
			return 'notifications off';
		}

		return this.#mode === 'auto' ? `notifications on (when a wait takes over ${autoNotifyAfterMs / 1000}s)` : 'notifications on';
	}

	/** The wait ended; true when a notification was sent. */
	waitEnded(result: {readonly exitCode: number; readonly message: string}, now: number): boolean {
		const text = waitEndText(result);
		return text !== undefined &&
			shouldNotify(this.#mode, this.#enabled, now - this.#startedAt) &&
			this.#signals.notify('planwatch', text);
	}

	objectFailed(object: PlanObject, now: number): boolean {
		return (
			shouldNotify(this.#mode, this.#enabled, now - this.#startedAt) &&
			this.#signals.notify('planwatch', `${object.kind} ${object.namespace}/${object.name} failed: ${object.summary}`)
		);
	}
}

/**
 * Calls `onFailed` when a watched object turns failed. Objects already failed when first seen are not news.
 * Returns the function that stops watching.
 */
export function watchFailures(
	store: {
		getSnapshot(): Pick<StoreSnapshot, 'objects'> & Partial<Pick<StoreSnapshot, 'version' | 'changes'>>;
		subscribe(listener: () => void): () => void;
	},
	targets: readonly string[],
	onFailed: (object: PlanObject) => void,
): () => void {
	const outcomes = new Map<string, PlanObject['outcome']>();
	let last: ReturnType<typeof store.getSnapshot> | undefined;
	const wanted = targets.length === 0 ? undefined : new Set(targets);
	const see = (key: string, o: PlanObject): void => {
		if (wanted && !wanted.has(key)) {
			return;
		}

		const before = outcomes.get(key);
		outcomes.set(key, o.outcome);
		if (before !== undefined && before !== 'failed' && o.outcome === 'failed') {
			onFailed(o);
		}
	};

	const check = (): void => {
		const snapshot = store.getSnapshot();
		if (snapshot.objects === last?.objects) {
			return;
		}

		// Objects changed in place since the last look (the store's change log): only those are looked at, not
		// thousands per watch event. Anything else (an object added or deleted, the log outrun): all of them.
		const log = last?.changes !== undefined && last.changes === snapshot.changes ? snapshot.changes : undefined;
		const from = last?.version;
		const changes = log && from !== undefined && snapshot.version !== undefined ? log.between(from, snapshot.version) : undefined;
		last = snapshot;
		if (changes) {
			// The last state of each: what a look at the whole list would have seen.
			const latest = new Map<string, PlanObject>();
			for (const change of changes) {
				if (!('eventsOnly' in change)) {
					latest.delete(change.key);
					latest.set(change.key, change.after);
				}
			}

			for (const [key, o] of latest) {
				see(key, o);
			}

			return;
		}

		for (const o of snapshot.objects) {
			see(objectKey(o), o);
		}
	};

	check();
	return store.subscribe(check);
}
