import type {Clock} from '../../source/core/clock.js';

/** A test double for `Clock`: time moves only when a test calls `advance`. Lives here, not in source/. */

type FakeTimer = {readonly at: number; readonly callback: () => void; readonly id: number};

/** A clock tests drive by hand: `advance(ms)` fires ticks (one per whole second crossed) and due timers. */
export class FakeClock implements Clock {
	#now: number;
	readonly #listeners = new Set<() => void>();
	#timers: FakeTimer[] = [];
	#nextId = 0;

	constructor(start = Date.parse('2026-11-30T11:00:00Z')) {
		this.#now = start;
	}

	now(): number {
		return this.#now;
	}

	onTick(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	after(ms: number, callback: () => void): () => void {
		const id = this.#nextId++;
		this.#timers.push({at: this.#now + ms, callback, id});
		return () => {
			this.#timers = this.#timers.filter(t => t.id !== id);
		};
	}

	/** Move time forward, firing due timers and whole-second ticks in time order (timers first on a tie). */
	advance(ms: number): void {
		const end = this.#now + ms;
		for (;;) {
			const timer = this.#timers.reduce<FakeTimer | undefined>((a, t) => (t.at <= end && (!a || t.at < a.at) ? t : a), undefined);
			const tick = Math.floor(this.#now / 1000) * 1000 + 1000;
			if (timer && timer.at <= tick) {
				this.#now = Math.max(this.#now, timer.at);
				this.#timers = this.#timers.filter(x => x.id !== timer.id);
				timer.callback();
			} else if (tick <= end) {
				this.#now = tick;
				for (const l of [...this.#listeners]) {
					l();
				}
			} else {
				break;
			}
		}

		this.#now = end;
	}
}
