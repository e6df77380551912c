/**
 * THE clock: the only code that reads the time or starts a timer. One 1 Hz tick for the whole app
 * (timers, countdown, "last event Ns ago"); tests inject a fake clock (test/helpers/fake-clock.ts).
 */
export type Clock = {
	now(): number;
	/** Subscribe to the shared 1 Hz tick. Returns an unsubscribe function. */
	onTick(listener: () => void): () => void;
	/** Run `callback` once after `ms`. Returns a cancel function. */
	after(ms: number, callback: () => void): () => void;
};

export class SystemClock implements Clock {
	readonly #listeners = new Set<() => void>();
	#interval: NodeJS.Timeout | undefined;

	now(): number {
		return Date.now();
	}

	onTick(listener: () => void): () => void {
		this.#listeners.add(listener);
		// One interval shared by every subscriber, alive only while someone listens.
		this.#interval ??= setInterval(() => {
			for (const l of [...this.#listeners]) {
				l();
			}
		}, 1000);
		return () => {
			this.#listeners.delete(listener);
			if (this.#listeners.size === 0 && this.#interval) {
				clearInterval(this.#interval);
				this.#interval = undefined;
			}
		};
	}

	after(ms: number, callback: () => void): () => void {
		const t = setTimeout(callback, ms);
		return () => {
			clearTimeout(t);
		};
	}
}
