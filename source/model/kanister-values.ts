/**
 * Kanister's free-form values: a phase's `output` (`map[string]interface{}`, whatever the function returned) and an
 * action's `artifacts` (`map[string]Artifact`, `{keyValue: map[string]string, kopiaSnapshot: string}` —
 * kanisterio/kanister pkg/apis/cr/v1alpha1/types.go Phase, ActionStatus, Artifact). Hostile like every cluster
 * string, and of any shape (a file or another writer may put arrays, numbers, null, a thousand keys or a deep
 * tree there): copied here sanitized and bounded, with `truncated` set when anything was left out or cut.
 */
import {maxMessageLength, maxNameLength, sanitizeLine} from './sanitize.js';

/** A JSON value as planwatch keeps it: every string sanitized (one line) and cut. */
export type KanisterValue = string | number | boolean | null | readonly KanisterValue[] | {readonly [key: string]: KanisterValue};

/** A bounded copy of a Kanister map. */
export type KanisterValues = {
	readonly values: {readonly [key: string]: KanisterValue};
	/** Something was left out: entries past the budget, a tree deeper than allowed, a string cut (ends in `…`). */
	readonly truncated?: true;
};

/** Marks a subtree left out for depth (the whole `KanisterValues` is then `truncated`). */
export const cutValue = '…';

export type ValueLimits = {
	/** Nesting below the top-level map (1: the map's values are leaves; deeper containers become `…`). */
	readonly depth: number;
	/** Values (leaves and containers) kept in all, across the whole tree. */
	readonly entries: number;
	/** Code points per string value. */
	readonly stringLength: number;
	/** Code points per key. */
	readonly keyLength: number;
};

/** Enough for what Kanister functions return (an object reference, an s3 path, a kopia snapshot's JSON). */
export const valueLimits: ValueLimits = {depth: 4, entries: 100, stringLength: maxMessageLength, keyLength: maxNameLength};

type Budget = {left: number; truncated: boolean};

function isMap(value: unknown): value is Readonly<Record<string, unknown>> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !ArrayBuffer.isView(value);
}

function text(raw: string, max: number, budget: Budget): string {
	const out = sanitizeLine(raw, max);
	// The sanitizer marks its cut with `…`; only a string longer than the cap can have been cut.
	if (raw.length > max && out.endsWith('…')) {
		budget.truncated = true;
	}

	return out;
}

/** One value, or undefined for what JSON cannot hold (a function, undefined: left out, as JSON.stringify does). */
function copy(raw: unknown, depth: number, limits: ValueLimits, budget: Budget): KanisterValue | undefined {
	if (raw === null || typeof raw === 'boolean') {
		return raw;
	}

	if (typeof raw === 'number') {
		return Number.isFinite(raw) ? raw : String(raw);
	}

	if (typeof raw === 'bigint') {
		return text(String(raw), limits.stringLength, budget);
	}

	if (typeof raw === 'string') {
		return text(raw, limits.stringLength, budget);
	}

	if (raw instanceof Date) {
		return Number.isNaN(raw.getTime()) ? null : raw.toISOString().replace('.000Z', 'Z');
	}

	if (ArrayBuffer.isView(raw)) {
		// YAML `!!binary`: its bytes are no text to show.
		return `(${raw.byteLength} bytes)`;
	}

	if (Array.isArray(raw) || isMap(raw)) {
		if (depth >= limits.depth) {
			budget.truncated = true;
			return cutValue;
		}

		return Array.isArray(raw) ? copyList(raw, depth + 1, limits, budget) : copyMap(raw, depth + 1, limits, budget);
	}

	return undefined;
}

function copyList(raw: readonly unknown[], depth: number, limits: ValueLimits, budget: Budget): KanisterValue[] {
	const out: KanisterValue[] = [];
	for (const item of raw) {
		if (budget.left <= 0) {
			budget.truncated = true;
			break;
		}

		budget.left--;
		out.push(copy(item, depth, limits, budget) ?? null);
	}

	return out;
}

type RawMap = Readonly<Record<string, unknown>>;

function copyMap(raw: RawMap, depth: number, limits: ValueLimits, budget: Budget): Record<string, KanisterValue> {
	const out: Record<string, KanisterValue> = {};
	// In the writer's order: the apiserver's JSON of a Go map is sorted by key already (encoding/json).
	for (const rawKey of Object.keys(raw)) {
		if (budget.left <= 0) {
			budget.truncated = true;
			break;
		}

		const value = copy(raw[rawKey], depth, limits, budget);
		if (value === undefined) {
			continue;
		}

		budget.left--;
		const key = text(rawKey, limits.keyLength, budget);
		if (Object.hasOwn(out, key)) {
			// Two keys that differ only in what the sanitizer removes: the first stays, the loss is marked.
			budget.truncated = true;
			continue;
		}

		// defineProperty: a key named `__proto__` is an ordinary key here, never the prototype.
		Object.defineProperty(out, key, {value, enumerable: true, writable: true, configurable: true});
	}

	return out;
}

/**
 * A Kanister map (a phase's output, an action's artifacts), sanitized and bounded; undefined when the value is not
 * a map or holds nothing. Never throws.
 */
export function kanisterValues(raw: unknown, limits: ValueLimits = valueLimits): KanisterValues | undefined {
	if (!isMap(raw)) {
		return undefined;
	}

	const budget: Budget = {left: limits.entries, truncated: false};
	const values = copyMap(raw, 1, limits, budget);
	if (Object.keys(values).length === 0 && !budget.truncated) {
		return undefined;
	}

	return budget.truncated ? {values, truncated: true} : {values};
}

/** `a.b=1`, `list.0=x`: each leaf with its path, in order, for one-line views (plain, the TUI's detail). */
export function flatValues(values: KanisterValues['values']): Array<{readonly path: string; readonly value: string}> {
	const out: Array<{path: string; value: string}> = [];
	const visit = (value: KanisterValue, path: string): void => {
		if (value !== null && typeof value === 'object') {
			const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
			if (entries.length === 0) {
				out.push({path, value: Array.isArray(value) ? '[]' : '{}'});
			}

			for (const [k, v] of entries) {
				visit(v, path === '' ? k : `${path}.${k}`);
			}

			return;
		}

		out.push({path, value: value === null ? 'null' : String(value)});
	};

	for (const [k, v] of Object.entries(values)) {
		visit(v, k);
	}

	return out;
}

/**
 * `label: a=1 · b.c=x` for one-line views. Empty strings are left out (an object reference's empty group and kind
 * say nothing); `-o json` has every value. A top-level key `''` shows its value alone.
 */
export function valuesLine(label: string, values: KanisterValues, separator = ' · '): string {
	const parts = flatValues(values.values)
		.filter(v => v.value !== '')
		.map(v => (v.path === '' ? v.value : `${v.path}=${v.value}`));
	return `${label}: ${parts.join(separator)}${values.truncated ? ' (truncated)' : ''}`;
}

/** The lines a node's Kanister values read as: its output, then each rendered artifact (or the templates, marked). */
export function valuesLines(
	node: {readonly output?: KanisterValues; readonly artifacts?: KanisterValues & {readonly rendered: boolean}},
	separator = ' · ',
): string[] {
	const lines = node.output ? [valuesLine('output', node.output, separator)] : [];
	if (node.artifacts) {
		const label = node.artifacts.rendered ? 'artifact' : 'artifact template';
		for (const [name, value] of Object.entries(node.artifacts.values)) {
			lines.push(valuesLine(`${label} ${name}`, {values: {'': value}}, separator));
		}

		if (node.artifacts.truncated) {
			lines.push('artifacts truncated (see -o json)');
		}
	}

	return lines;
}
