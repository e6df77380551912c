/**
 * Reconnect backoff policy, as client-go's reflector uses it: start at 800 ms, double up to 30 s, full jitter
 * (so many clients that lost the same apiserver do not come back in lockstep), and forget the history once the
 * connection has stayed healthy for 2 minutes. Pure: time comes in as arguments, randomness is injectable.
 */

export type BackoffPolicy = {
	readonly initialMs: number;
	readonly capMs: number;
	readonly factor: number;
	/** A failure this long after the previous one starts again from `initialMs`. */
	readonly resetAfterMs: number;
};

export const defaultBackoffPolicy: BackoffPolicy = {
	initialMs: 800,
	capMs: 30_000,
	factor: 2,
	resetAfterMs: 120_000,
};

/** Upper bound of the delay before retry number `attempt` (1-based), before jitter. */
export function backoffCeiling(attempt: number, policy: BackoffPolicy = defaultBackoffPolicy): number {
	const exponent = Math.max(0, attempt - 1);
	return Math.min(policy.capMs, policy.initialMs * (policy.factor ** exponent));
}

export class Backoff {
	readonly policy: BackoffPolicy;
	readonly #random: () => number;
	#attempt = 0;
	#lastFailureAt: number | undefined;

	constructor(options: {policy?: Partial<BackoffPolicy>; random?: () => number} = {}) {
		this.policy = {...defaultBackoffPolicy, ...options.policy};
		this.#random = options.random ?? Math.random;
	}

	/** Consecutive failures so far (0 when healthy). */
	get attempt(): number {
		return this.#attempt;
	}

	/** Record a failure at `now` and return how long to wait before the next try. */
	next(now: number): number {
		if (this.#lastFailureAt !== undefined && now - this.#lastFailureAt >= this.policy.resetAfterMs) {
			this.#attempt = 0;
		}

		this.#lastFailureAt = now;
		this.#attempt++;
		// Full jitter: anywhere in [0, ceiling).
		return Math.floor(this.#random() * backoffCeiling(this.#attempt, this.policy));
	}

	/** Forget the failure history (e.g. a relist or watch succeeded after a long healthy stretch). */
	reset(): void {
		this.#attempt = 0;
		this.#lastFailureAt = undefined;
	}
}
