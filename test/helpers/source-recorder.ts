/**
 * Collects what a source (or a reflector) emits and waits for conditions on it, with a deadline whose error
 * lists everything received, so a failing test says what happened instead of timing out silently.
 */
import {deadline} from './deadline.js';

/**
 * Poll `predicate` until it holds; fail once `timeoutMs` of this process's CPU time are spent (or the wall-clock
 * backstop of test/helpers/deadline.ts passes) with `describe()` in the message.
 */
export async function waitUntil(predicate: () => boolean, describe: () => string, timeoutMs = 10_000): Promise<void> {
	const budget = deadline(timeoutMs);
	while (!predicate()) {
		if (budget.expired()) {
			throw new Error(`condition not met within ${timeoutMs} ms\n${describe()}`);
		}

		await new Promise(resolve => {
			setTimeout(resolve, 5);
		});
	}
}

export class Recorder<E> {
	readonly events: E[] = [];
	readonly summarize: (event: E) => string;

	constructor(summarize: (event: E) => string = event => JSON.stringify(event)) {
		this.summarize = summarize;
	}

	readonly push = (event: E): void => {
		this.events.push(event);
	};

	/** Events received since index `from`. */
	since(from: number): E[] {
		return this.events.slice(from);
	}

	describe(): string {
		return this.events.length === 0 ? '(nothing received)' : this.events.map((e, i) => `${i}: ${this.summarize(e)}`).join('\n');
	}

	/** Wait until `predicate(events)` holds. */
	async waitFor(what: string, predicate: (events: readonly E[]) => boolean, timeoutMs = 10_000): Promise<void> {
		await waitUntil(() => predicate(this.events), () => `waiting for: ${what}\nreceived:\n${this.describe()}`, timeoutMs);
	}

	/** Wait for the first event after index `from` that matches, and return it. */
	async next<T extends E>(what: string, match: (event: E) => event is T, from?: number, timeoutMs?: number): Promise<T>;
	async next(what: string, match: (event: E) => boolean, from?: number, timeoutMs?: number): Promise<E>;
	async next(what: string, match: (event: E) => boolean, from = 0, timeoutMs = 10_000): Promise<E> {
		await this.waitFor(what, events => events.slice(from).some(e => match(e)), timeoutMs);
		return this.events.slice(from).find(e => match(e))!;
	}
}
