/**
 * The clock of `planwatch replay`: it reads the recorded time. Everything that asks the app clock for the time
 * (the store's stamps, timers, the wait's deadline) sees the moment being replayed, which moves `speed` times
 * faster than the real clock, stands still while paused, and jumps when the user seeks. Timers are kept in
 * recorded time and fire in time order, also when a seek crosses several at once; the real clock only wakes
 * this one up for the earliest of them. The 1 Hz tick is in recorded time too: the wait decides a timeout on a
 * tick, so a replayed timeout falls between the same recorded events as it did live.
 */
import type {Clock} from '../core/clock.js';
import {Listeners} from '../core/external-store.js';

/* What a view of a replay reads and drives (implemented by source/sources/replay-source.ts). */
export type ReplayState = {
	readonly paused: boolean;
	/** Every entry has played; the clock stands at the recording's end. */
	readonly ended: boolean;
	readonly speed: number;
};

/** What the TUI's `[`, `]` and space drive, and what the header shows. */
export type ReplayControls = {
	readonly startMs: number;
	readonly endMs: number;
	getState(): ReplayState;
	/** Pause, play, seeks and the end. */
	subscribe(listener: () => void): () => void;
	togglePause(): void;
	/** To the previous / next transition (the start / the end when there is none). */
	jump(direction: 'previous' | 'next'): void;
	/** Settles once the last entry has played. */
	readonly ended: Promise<void>;
};

type Timer = {readonly at: number; readonly callback: () => void; readonly id: number};

export class ReplayClock implements Clock {
	readonly #real: Clock;
	readonly #speed: number;
	/** Recorded time at `#anchorReal` (real time). */
	#anchor: number;
	#anchorReal: number;
	#paused = false;
	#timers: Timer[] = [];
	#nextId = 0;
	#wake: (() => void) | undefined;
	/** While a seek or a due timer runs, now() is exactly this (stamps get the recorded time, not a drifted one). */
	#fixed: number | undefined;
	readonly #listeners = new Listeners();
	readonly #tickListeners = new Listeners();
	#tickCancel: (() => void) | undefined;
	/** Ticks fall on this moment plus whole seconds: the first subscription's, as the system clock's interval does. */
	#tickPhase: number | undefined;

	/** `paused`: start standing still (a replay starts playing once its output is ready to show every change). */
	constructor(real: Clock, startMs: number, speed = 1, paused = false) {
		if (!(speed > 0) || !Number.isFinite(speed)) {
			throw new RangeError(`speed must be a positive number, got ${speed}`);
		}

		this.#real = real;
		this.#speed = speed;
		this.#anchor = startMs;
		this.#anchorReal = real.now();
		this.#paused = paused;
	}

	get speed(): number {
		return this.#speed;
	}

	get paused(): boolean {
		return this.#paused;
	}

	now(): number {
		if (this.#fixed !== undefined) {
			return this.#fixed;
		}

		return this.#paused ? this.#anchor : this.#anchor + (this.#real.now() - this.#anchorReal) * this.#speed;
	}

	onTick(listener: () => void): () => void {
		const remove = this.#tickListeners.add(listener);
		if (!this.#tickCancel) {
			this.#tickPhase = this.now();
			this.#armTick();
		}

		return () => {
			remove();
			if (this.#tickListeners.size === 0) {
				this.#tickCancel?.();
				this.#tickCancel = undefined;
			}
		};
	}

	/** The next tick after now, in recorded time. */
	#armTick(): void {
		const now = this.now();
		const phase = this.#tickPhase ?? now;
		this.#tickCancel = this.after(phase + (Math.floor((now - phase) / 1000) + 1) * 1000 - now, () => {
			this.#tickCancel = undefined;
			if (this.#tickListeners.size > 0) {
				this.#armTick();
			}

			this.#tickListeners.notify();
		});
	}

	after(ms: number, callback: () => void): () => void {
		const id = this.#nextId++;
		this.#timers.push({at: this.now() + Math.max(0, ms), callback, id});
		this.#schedule();
		return () => {
			this.#timers = this.#timers.filter(t => t.id !== id);
			this.#schedule();
		};
	}

	/** Pause or resume; listeners hear about it. */
	setPaused(paused: boolean): void {
		if (paused === this.#paused) {
			return;
		}

		this.#rebase(this.now());
		this.#paused = paused;
		this.#schedule();
		this.#changed();
	}

	/** Move to `ms`: forward fires every timer due on the way, in order; backward fires none. */
	seek(ms: number): void {
		const back = ms < this.now();
		this.#advance(ms);
		this.#rebase(ms);
		if (back && this.#tickCancel) {
			// The armed tick is in the future being left: tick from the new moment on.
			this.#tickCancel();
			this.#armTick();
		}

		this.#schedule();
		this.#changed();
	}

	/** Pause/resume and seeks, for views. */
	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	#changed(): void {
		this.#listeners.notify();
	}

	#rebase(ms: number): void {
		this.#anchor = ms;
		this.#anchorReal = this.#real.now();
	}

	/** Fire timers due up to `end` in time order; each sees now() at its own time. */
	#advance(end: number): void {
		const outer = this.#fixed;
		try {
			for (;;) {
				const due = this.#timers.reduce<Timer | undefined>(
					(a, t) => (t.at <= end && (!a || t.at < a.at || (t.at === a.at && t.id < a.id)) ? t : a),
					undefined,
				);
				if (!due) {
					break;
				}

				this.#timers = this.#timers.filter(t => t.id !== due.id);
				this.#fixed = Math.max(due.at, outer ?? Number.NEGATIVE_INFINITY);
				due.callback();
			}
		} finally {
			this.#fixed = outer;
		}
	}

	#schedule(): void {
		this.#wake?.();
		this.#wake = undefined;
		if (this.#paused || this.#fixed !== undefined || this.#timers.length === 0) {
			return;
		}

		const next = Math.min(...this.#timers.map(t => t.at));
		const realMs = Math.max(0, (next - this.now()) / this.#speed);
		this.#wake = this.#real.after(realMs, () => {
			this.#wake = undefined;
			const now = this.now();
			this.#advance(Math.max(now, next));
			if (next > now) {
				this.#rebase(next);
			}

			this.#schedule();
		});
	}
}
