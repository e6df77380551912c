/**
 * Matches updates to what a client shows. Each update is (probe, value, sent at); when a client shows a probe with
 * a value, that update and every earlier one still pending for the same probe are on screen (a newer value
 * supersedes older ones: a coalesced frame still shows the change), their latency = shown at − sent at.
 */
export class LatencyTracker {
	readonly #pending = new Map<string, Array<{readonly value: number; readonly sentAt: number}>>();
	readonly samples: number[] = [];

	sent(probe: string, value: number, sentAt: number): void {
		let list = this.#pending.get(probe);
		if (!list) {
			list = [];
			this.#pending.set(probe, list);
		}

		list.push({value, sentAt});
	}

	seen(probe: string, value: number, shownAt: number): void {
		const list = this.#pending.get(probe);
		if (!list || list.length === 0) {
			return;
		}

		const index = list.findIndex(u => u.value === value && u.sentAt <= shownAt);
		if (index === -1) {
			return;
		}

		for (const update of list.splice(0, index + 1)) {
			this.samples.push(shownAt - update.sentAt);
		}
	}

	/** Updates not seen yet. */
	get pending(): number {
		let n = 0;
		for (const list of this.#pending.values()) {
			n += list.length;
		}

		return n;
	}
}
