/**
 * The history of finished runs behind ETAs: one record per finished top-level node (a KUDO plan run, a Kanister
 * action), keyed by object kind, operator version / blueprint and the plan or action name. Only names and
 * durations: never a namespace, an object name, a message or any other cluster data. Pure: the file lives in
 * source/history/history-file.ts.
 */
import {expectationOf, type Expectation} from './eta.js';
import type {ObjectKind, PlanNode, PlanObject} from './plan-tree.js';

/** One finished run, as a line of history.ndjson. */
export type RunRecord = {
	readonly v: 1;
	readonly kind: ObjectKind;
	/** KUDO: OperatorVersion name (operator name and version); Kanister: blueprint name(s). */
	readonly group: string;
	/** Plan (KUDO) or action (Kanister) name. */
	readonly top: string;
	/** Identity of the run, so the same run seen twice (two planwatch processes, a restart) counts once. */
	readonly run: string;
	/** ISO time the run ended. */
	readonly at: string;
	readonly outcome: 'succeeded' | 'failed';
	/** Durations by path of names below the top node ([] = the top node itself). */
	readonly durations: ReadonlyArray<{readonly path: readonly string[]; readonly ms: number}>;
};

/** Runs kept per key: enough for a stable median, small enough that the file stays a few hundred KB at most. */
export const runsPerKey = 20;

const maxName = 256;
const maxNodes = 500;
/**
 * Longer than any plan or action runs (a KUDO plan or Kanister backup takes minutes to hours): a duration past it
 * is a broken clock or a broken line (1e30 ms showed `~2.7777777777777777e+23h left`), not a run to learn from.
 */
export const maxRunMs = 30 * 24 * 60 * 60 * 1000;

/** A line of a newer history format (`"v": 2` and on): this version skips it, and a rewrite keeps it as it is. */
export function isNewerRecordLine(line: string): boolean {
	if (!/^\s*\{/.test(line)) {
		return false;
	}

	try {
		const value = JSON.parse(line) as unknown;
		const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['v'] : undefined;
		return typeof v === 'number' && Number.isInteger(v) && v > 1;
	} catch {
		return false;
	}
}

export function historyKey(r: {readonly kind: string; readonly group: string; readonly top: string}): string {
	return JSON.stringify([r.kind, r.group, r.top]);
}

function isName(v: unknown): v is string {
	return typeof v === 'string' && v.length <= maxName;
}

/** A line of the file, or undefined when it is not a record this version understands (skipped, never fatal). */
export function parseRunRecord(line: string): RunRecord | undefined {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null) {
		return undefined;
	}

	const r = value as Record<string, unknown>;
	if (
		r['v'] !== 1 ||
		(r['kind'] !== 'Instance' && r['kind'] !== 'ActionSet') ||
		!isName(r['group']) ||
		!isName(r['top']) ||
		!isName(r['run']) ||
		typeof r['at'] !== 'string' ||
		Number.isNaN(Date.parse(r['at'])) ||
		(r['outcome'] !== 'succeeded' && r['outcome'] !== 'failed') ||
		!Array.isArray(r['durations']) ||
		r['durations'].length > maxNodes
	) {
		return undefined;
	}

	const durations: Array<{path: string[]; ms: number}> = [];
	for (const d of r['durations'] as unknown[]) {
		const entry = d as {path?: unknown; ms?: unknown};
		if (
			typeof d !== 'object' ||
			d === null ||
			!Array.isArray(entry.path) ||
			!entry.path.every(p => isName(p)) ||
			typeof entry.ms !== 'number' ||
			!Number.isFinite(entry.ms) ||
			entry.ms < 0 ||
			entry.ms > maxRunMs
		) {
			return undefined;
		}

		durations.push({path: entry.path as string[], ms: entry.ms});
	}

	return {v: 1, kind: r['kind'], group: r['group'], top: r['top'], run: r['run'], at: r['at'], outcome: r['outcome'], durations};
}

export function formatRunRecord(r: RunRecord): string {
	return JSON.stringify({
		v: 1,
		kind: r.kind,
		group: r.group,
		top: r.top,
		run: r.run,
		at: r.at,
		outcome: r.outcome,
		durations: r.durations,
	}) + '\n';
}

/**
 * The records worth keeping, in file order: the first record of each run (later copies of the same run are
 * dropped) and the last `perKey` runs of each key.
 */
export function compactRuns(records: readonly RunRecord[], perKey = runsPerKey): RunRecord[] {
	const seen = new Set<string>();
	const unique = records.filter(r => {
		const id = `${historyKey(r)}\n${r.run}`;
		if (seen.has(id)) {
			return false;
		}

		seen.add(id);
		return true;
	});
	const left = new Map<string, number>();
	const keep: boolean[] = Array.from({length: unique.length}, () => false);
	for (let i = unique.length - 1; i >= 0; i--) {
		const key = historyKey(unique[i]!);
		const n = left.get(key) ?? 0;
		if (n < perKey) {
			keep[i] = true;
			left.set(key, n + 1);
		}
	}

	return unique.filter((_, i) => keep[i]);
}

/**
 * Where a top-level node's runs are filed. `realm` keeps runs of the demo (`demo/`) apart from a cluster's: the
 * demo's operator versions have real names, its durations are not.
 */
export function historyKeyOf(object: Pick<PlanObject, 'kind' | 'version'>, top: Pick<PlanNode, 'name'>, realm = ''): string {
	return historyKey({kind: object.kind, group: groupOf(object, realm), top: top.name});
}

export function groupOf(object: Pick<PlanObject, 'version'>, realm = ''): string {
	return `${realm}${object.version ?? ''}`;
}

const noExpectations: ReadonlyMap<string, Expectation> = new Map();

/**
 * The runs in memory, and expectations per node of an object. An object's expectations are computed once per
 * adaptation (objects are immutable: a new adaptation is a new object) and once per change of the history, so
 * drawing a frame costs one map lookup per row.
 */
export class RunHistory {
	readonly #runs = new Map<string, RunRecord[]>();
	/** historyKey → path key → expectation; rebuilt for a key when its runs change. */
	readonly #stats = new Map<string, Map<string, Expectation>>();
	#perObject = new WeakMap<PlanObject, ReadonlyMap<string, Expectation>>();
	readonly #perKey: number;
	readonly #realm: string;

	constructor(records: readonly RunRecord[] = [], perKey = runsPerKey, realm = '') {
		this.#perKey = perKey;
		this.#realm = realm;
		for (const r of compactRuns(records, perKey)) {
			this.#push(r);
		}
	}

	/** Whether this run is already known. */
	has(r: Pick<RunRecord, 'kind' | 'group' | 'top' | 'run'>): boolean {
		return this.#runs.get(historyKey(r))?.some(x => x.run === r.run) ?? false;
	}

	/** Add a run; false when it was already known. */
	add(r: RunRecord): boolean {
		if (this.has(r) || this.#olderThanKept(r)) {
			return false;
		}

		this.#push(r);
		const list = this.#runs.get(historyKey(r))!;
		if (list.length > this.#perKey) {
			list.splice(0, list.length - this.#perKey);
		}

		this.#stats.delete(historyKey(r));
		this.#perObject = new WeakMap();
		return true;
	}

	/**
	 * Whether `r` ended before every run kept of its key, which is full (a replay of an old recording): compaction
	 * keeps the last runs in file order, so filing it would push out a newer run, and it may be one that was
	 * already filed and compacted away since.
	 */
	#olderThanKept(r: RunRecord): boolean {
		const list = this.#runs.get(historyKey(r));
		const at = Date.parse(r.at);
		return list !== undefined && list.length >= this.#perKey && list.every(x => Date.parse(x.at) > at);
	}

	get size(): number {
		let n = 0;
		for (const list of this.#runs.values()) {
			n += list.length;
		}

		return n;
	}

	/** node id → expectation, for the nodes of `object` that past successful runs know. */
	expectations(object: PlanObject): ReadonlyMap<string, Expectation> {
		let found = this.#perObject.get(object);
		if (!found) {
			found = this.#compute(object);
			this.#perObject.set(object, found);
		}

		return found;
	}

	#push(r: RunRecord): void {
		const key = historyKey(r);
		let list = this.#runs.get(key);
		if (!list) {
			list = [];
			this.#runs.set(key, list);
		}

		list.push(r);
	}

	#statsFor(key: string): Map<string, Expectation> | undefined {
		let stats = this.#stats.get(key);
		if (stats) {
			return stats;
		}

		const runs = this.#runs.get(key)?.filter(r => r.outcome === 'succeeded');
		if (!runs || runs.length === 0) {
			return undefined;
		}

		const byPath = new Map<string, number[]>();
		for (const r of runs) {
			for (const d of r.durations) {
				const p = JSON.stringify(d.path);
				let list = byPath.get(p);
				if (!list) {
					list = [];
					byPath.set(p, list);
				}

				list.push(d.ms);
			}
		}

		stats = new Map();
		for (const [p, list] of byPath) {
			const e = expectationOf(list);
			if (e) {
				stats.set(p, e);
			}
		}

		this.#stats.set(key, stats);
		return stats;
	}

	#compute(object: PlanObject): ReadonlyMap<string, Expectation> {
		let out: Map<string, Expectation> | undefined;
		for (const top of object.tree) {
			const stats = this.#statsFor(historyKeyOf(object, top, this.#realm));
			if (!stats) {
				continue;
			}

			out ??= new Map();
			const visit = (node: PlanNode, path: string[]): void => {
				const e = stats.get(JSON.stringify(path));
				if (e) {
					out!.set(node.id, e);
				}

				for (const c of node.children) {
					visit(c, [...path, c.name]);
				}
			};

			visit(top, []);
		}

		return out ?? noExpectations;
	}
}
