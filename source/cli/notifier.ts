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
	store: {getSnapshot(): Pick<StoreSnapshot, 'objects'>; subscribe(listener: () => void): () => void},
	targets: readonly string[],
	onFailed: (object: PlanObject) => void,
): () => void {
	const outcomes = new Map<string, PlanObject['outcome']>();
	let lastObjects: readonly PlanObject[] | undefined;
	const wanted = targets.length === 0 ? undefined : new Set(targets);
	const check = (): void => {
		const {objects} = store.getSnapshot();
		if (objects === lastObjects) {
			return;
		}

		lastObjects = objects;
		for (const o of objects) {
			const key = objectKey(o);
			if (wanted && !wanted.has(key)) {
				continue;
			}

			const before = outcomes.get(key);
			outcomes.set(key, o.outcome);
			if (before !== undefined && before !== 'failed' && o.outcome === 'failed') {
				onFailed(o);
			}
		}
	};

	check();
	return store.subscribe(check);
}
