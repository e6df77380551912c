/**
 * Safe readers for untrusted decoded objects (JSON from the API server, YAML from a file): a field can be
 * missing, of the wrong type, or hostile. Nothing here sanitizes; the adapters do that on the way out.
 */
import {isoMs} from './iso-time.js';

export type RawRecord = Readonly<Record<string, unknown>>;

/** The value as a plain object, or an empty one. */
export function record(value: unknown): RawRecord {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) ? (value as RawRecord) : {};
}

/** The value as an array, or an empty one. */
export function list(value: unknown): readonly unknown[] {
	return Array.isArray(value) ? value : [];
}

/** The plain objects of an array value (anything else in it is dropped). */
export function records(value: unknown): readonly RawRecord[] {
	return list(value).filter(v => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)) as RawRecord[];
}

/** The value if it is a string, else ''. */
export function rawString(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/**
 * A timestamp as an ISO string, or undefined when absent or unparsable. Accepts strings and Date objects
 * (YAML loaders and client-node's deserializer turn metav1.Time into Date).
 */
export function isoTime(value: unknown): string | undefined {
	let ms: number;
	if (value instanceof Date) {
		ms = value.getTime();
	} else if (typeof value === 'string' && value.length <= 64 && value.endsWith('Z')) {
		const known = isoTimes.get(value);
		if (known !== undefined) {
			return known === '' ? undefined : known;
		}

		ms = isoMs(value) ?? Number.NaN;
		const iso = Number.isNaN(ms) ? '' : isoText(ms);
		if (isoTimes.size >= maxIsoTimes) {
			isoTimes.clear();
		}

		isoTimes.set(value, iso);
		return iso === '' ? undefined : iso;
	} else if (typeof value === 'string' && value.length <= 64) {
		// Without `Z` a time may be read in the local zone, which a test (or TZ) can change: not kept.
		ms = isoMs(value) ?? Number.NaN;
	} else {
		return undefined;
	}

	return Number.isNaN(ms) ? undefined : isoText(ms);
}

/**
 * The answers for UTC strings seen recently ('' for unparsable): every adaptation reads the same few timestamps of an
 * object again (creation, transitions, events), and parsing and printing a Date costs more than the lookup. Bounded:
 * when full it starts again.
 */
const isoTimes = new Map<string, string>();
const maxIsoTimes = 4096;

/** Whole seconds (what Kubernetes stores) print without the `.000` a Date adds. */
function isoText(ms: number): string {
	return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Milliseconds of an ISO time from `isoTime`, or -Infinity when absent (sorts first). */
export function timeValue(iso: string | undefined): number {
	return isoMs(iso) ?? Number.NEGATIVE_INFINITY;
}

/** The latest of several ISO times. */
export function latestTime(...times: ReadonlyArray<string | undefined>): string | undefined {
	let best: string | undefined;
	for (const t of times) {
		if (t !== undefined && timeValue(t) > timeValue(best)) {
			best = t;
		}
	}

	return best;
}

/**
 * `read` of each raw record, kept per record. The store keeps the records an update left unchanged by identity
 * (compact-raw.ts reuseUnchanged) and raw objects are never changed in place, so an update reads again only the
 * records that changed: the step of a 500-step plan that moved, the phase of an ActionSet whose progress did.
 */
export function readOnce<T>(memo: WeakMap<RawRecord, T>, read: (r: RawRecord) => T): (r: RawRecord) => T {
	return r => {
		let value = memo.get(r);
		if (value === undefined) {
			value = read(r);
			memo.set(r, value);
		}

		return value;
	};
}
