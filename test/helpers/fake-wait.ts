import type {WaitSession, WaitView} from '../../source/state/wait-session.js';
import {t0} from './ui-objects.js';

/** A wait session that records what the user asked for; the test moves its view with `set`. */
export class FakeWait implements WaitSession {
	readonly calls: Array<'extend' | 'retract' | 'quit'> = [];
	#view: WaitView;
	readonly #listeners = new Set<() => void>();

	constructor(view: Partial<WaitView> = {}) {
		this.#view = {phase: 'watching', startedAt: t0, extendMs: 300_000, extendedMs: 0, ...view};
	}

	readonly subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	readonly getSnapshot = (): WaitView => this.#view;

	set(view: Partial<WaitView>): void {
		this.#view = {...this.#view, ...view};
		for (const l of [...this.#listeners]) {
			l();
		}
	}

	extend(): void {
		this.calls.push('extend');
	}

	retract(): void {
		this.calls.push('retract');
	}

	quit(): void {
		this.calls.push('quit');
	}
}
