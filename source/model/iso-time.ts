/**
 * THE parser of the ISO times Kubernetes objects carry (creationTimestamp, lastUpdatedTimestamp, event times):
 * every layer turns an ISO string into clock milliseconds here, and only here.
 */

/** Milliseconds of an ISO time, or undefined when missing or unparsable. */
export function isoMs(iso: string | undefined): number | undefined {
	if (!iso) {
		return undefined;
	}

	const t = Date.parse(iso);
	return Number.isNaN(t) ? undefined : t;
}

/** Milliseconds from an ISO time to `now`; undefined when the time is missing or unparsable. */
export function msSince(iso: string | undefined, now: number): number | undefined {
	const t = isoMs(iso);
	return t === undefined ? undefined : now - t;
}
