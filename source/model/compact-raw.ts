/**
 * What a raw object costs while planwatch keeps it (the store re-adapts an object from it when its Blueprint,
 * OperatorVersion or events change). Applied where objects arrive from a cluster, in place (the objects were
 * decoded for planwatch alone):
 * - `metadata.managedFields` and the `kubectl.kubernetes.io/last-applied-configuration` annotation are dropped: no
 *   adapter reads them (recordings leave managedFields out too), and on a real apiserver they are often most of an
 *   object's bytes;
 * - repeated strings are shared: JSON decoding makes a new string for every value, so 10 000 ActionSets carried
 *   10 000 copies of their namespace, Blueprint, action and phase names, status words and equal timestamps. The
 *   adapters hand the same strings on (sanitizing returns printable text as it is), so adapted objects share them too.
 */
import type {KubeObject} from '../core/kube-object.js';

/** Longer strings are rarely repeated (messages, outputs): looking them up would cost more than it saves. */
const maxSharedLength = 128;

/** Values that are unique to each object: sharing them saves nothing and would only fill the table. */
const uniqueKeys = new Set(['uid', 'resourceVersion']);

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * One copy of each string seen recently. Bounded: when full it starts again (strings already shared stay shared),
 * so values of objects long gone are held at most until then.
 */
export class StringTable {
	readonly #limit: number;
	#strings = new Map<string, string>();

	constructor(limit = 8192) {
		this.#limit = limit;
	}

	get size(): number {
		return this.#strings.size;
	}

	/** The copy of `text` the table holds (now `text` itself if it held none). */
	share(text: string): string {
		if (text.length > maxSharedLength) {
			return text;
		}

		const found = this.#strings.get(text);
		if (found !== undefined) {
			return found;
		}

		if (this.#strings.size >= this.#limit) {
			this.#strings = new Map();
		}

		this.#strings.set(text, text);
		return text;
	}
}

/**
 * How deep sharing and comparing go. Kubernetes objects nest a few levels (a Blueprint's phase args perhaps a dozen);
 * a hostile server's event nested a million deep must not overflow the stack: below this its strings stay unshared
 * and two such objects count as different.
 */
const maxDepth = 64;

function shareStrings(value: unknown, strings: StringTable, depth = 0): void {
	if (depth > maxDepth) {
		return;
	}

	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			const item: unknown = value[i];
			if (typeof item === 'string') {
				value[i] = strings.share(item);
			} else if (typeof item === 'object' && item !== null) {
				shareStrings(item, strings, depth + 1);
			}
		}

		return;
	}

	const record = value as Record<string, unknown>;
	for (const key in record) {
		if (!Object.hasOwn(record, key)) {
			continue;
		}

		const item = record[key];
		if (typeof item === 'string') {
			if (!uniqueKeys.has(key)) {
				record[key] = strings.share(item);
			}
		} else if (typeof item === 'object' && item !== null) {
			shareStrings(item, strings, depth + 1);
		}
	}
}

/** `record` without `key` (a new object: deleting a key would leave V8 a slower, larger dictionary object). */
function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
	const {[key]: _dropped, ...rest} = record;
	return rest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `object`, compacted in place (see above); returned for convenience. */
export function compactRaw(object: KubeObject, strings: StringTable): KubeObject {
	let {metadata} = object;
	if (isRecord(metadata)) {
		if (Object.hasOwn(metadata, 'managedFields')) {
			metadata = without(metadata, 'managedFields');
		}

		const {annotations} = metadata;
		if (isRecord(annotations) && Object.hasOwn(annotations, lastApplied)) {
			metadata = {...metadata, annotations: without(annotations, lastApplied)};
		}

		object.metadata = metadata;
	}

	shareStrings(object, strings);
	return object;
}

/** Two decoded JSON values alike (`depth` bounds the walk: past maxDepth they count as different). */
function sameJson(a: unknown, b: unknown, depth: number): boolean {
	if (a === b) {
		return true;
	}

	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > maxDepth) {
		return false;
	}

	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) {
			return false;
		}

		for (let i = 0; i < a.length; i++) {
			if (!sameJson(a[i], b[i], depth + 1)) {
				return false;
			}
		}

		return true;
	}

	return !Array.isArray(b) && sameRecords(a as Record<string, unknown>, b as Record<string, unknown>, depth, undefined);
}

/** Records alike, leaving out the key `skip`. */
function sameRecords(a: Record<string, unknown>, b: Record<string, unknown>, depth: number, skip: string | undefined): boolean {
	let keys = 0;
	for (const key in a) {
		if (!Object.hasOwn(a, key) || key === skip) {
			continue;
		}

		keys++;
		if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key], depth + 1)) {
			return false;
		}
	}

	for (const key in b) {
		if (Object.hasOwn(b, key) && key !== skip) {
			keys--;
		}
	}

	return keys === 0;
}

/**
 * The same object as far as planwatch can tell: equal but for `metadata.resourceVersion` (which every write moves)
 * and what compactRaw drops (`metadata.managedFields`, the last-applied annotation; compare compacted objects). A
 * watch event or relist that brings such an object changes nothing planwatch shows, so the store does not adapt
 * it again. The status is compared first: it is what changes between most updates, so a changed object is told
 * apart early.
 */
export function sameRaw(a: KubeObject, b: KubeObject): boolean {
	if (a === b) {
		return true;
	}

	const ra = a as Record<string, unknown>;
	const rb = b as Record<string, unknown>;
	if (!sameJson(ra['status'], rb['status'], 1) || !sameJson(ra['spec'], rb['spec'], 1)) {
		return false;
	}

	let keys = 0;
	for (const key in ra) {
		if (!Object.hasOwn(ra, key) || key === 'status' || key === 'spec') {
			continue;
		}

		keys++;
		const same = key === 'metadata' && isRecord(ra[key]) && isRecord(rb[key])
			? sameRecords(ra[key], rb[key], 1, 'resourceVersion')
			: Object.hasOwn(rb, key) && sameJson(ra[key], rb[key], 1);
		if (!same) {
			return false;
		}
	}

	for (const key in rb) {
		if (Object.hasOwn(rb, key) && key !== 'status' && key !== 'spec') {
			keys--;
		}
	}

	return keys === 0;
}

/**
 * `next` with each part equal to `held`'s (the same keys and values, as sameRaw compares them: the order of a
 * record's keys aside, which a Kubernetes apiserver writes in a fixed order) replaced by `held`'s own: an update
 * keeps what did not change the same object, so the adapters can tell an unchanged part by identity
 * (adapt-kanister-action-set.ts ActionSetMemo) instead of reading and building it again. `next` is not changed: the
 * records and arrays on the way to a change are copied (a few small ones per update); `held` when all is equal.
 */
export function reuseUnchanged<T>(held: T, next: T): T {
	return reuse(held, next, 0) as T;
}

function reuse(held: unknown, next: unknown, depth: number): unknown {
	if (held === next || typeof held !== 'object' || typeof next !== 'object' || held === null || next === null || depth > maxDepth) {
		return next;
	}

	if (Array.isArray(next)) {
		return Array.isArray(held) ? reuseItems(held, next, depth) : next;
	}

	return Array.isArray(held) ? next : reuseFields(held as Record<string, unknown>, next as Record<string, unknown>, depth);
}

/*
 * While every part so far is `held`'s, nothing is copied (most records of an update are equal: they become `held`'s
 * whole). At the first difference the parts before it are known to be `held`'s, and only then is `next` copied.
 */

function reuseItems(held: readonly unknown[], next: readonly unknown[], depth: number): readonly unknown[] {
	let copy: unknown[] | undefined;
	let allHeld = true;
	for (let i = 0; i < next.length; i++) {
		const value = next[i];
		const kept = i < held.length ? reuse(held[i], value, depth + 1) : value;
		if (allHeld && (i >= held.length || kept !== held[i])) {
			allHeld = false;
			copy = heldItems(held, next, i);
		}

		if (!allHeld && kept !== value) {
			copy ??= [...next];
			copy[i] = kept;
		}
	}

	if (allHeld) {
		return held.length === next.length ? held : (heldItems(held, next, next.length) ?? next);
	}

	return copy ?? next;
}

/** `next` with its first `end` items `held`'s (a copy), or undefined when they are already. */
function heldItems(held: readonly unknown[], next: readonly unknown[], end: number): unknown[] | undefined {
	let copy: unknown[] | undefined;
	for (let i = 0; i < end; i++) {
		if (next[i] !== held[i]) {
			copy ??= [...next];
			copy[i] = held[i];
		}
	}

	return copy;
}

function reuseFields(held: Record<string, unknown>, next: Record<string, unknown>, depth: number): Record<string, unknown> {
	let copy: Record<string, unknown> | undefined;
	let allHeld = true;
	let keys = 0;
	for (const key in next) {
		if (!Object.hasOwn(next, key)) {
			continue;
		}

		keys++;
		const value = next[key];
		const has = Object.hasOwn(held, key);
		const kept = has ? reuse(held[key], value, depth + 1) : value;
		if (allHeld && !(has && kept === held[key])) {
			allHeld = false;
			copy = heldFields(held, next, key);
		}

		if (!allHeld && kept !== value) {
			copy ??= {...next};
			define(copy, key, kept);
		}
	}

	if (!allHeld) {
		return copy ?? next;
	}

	for (const key in held) {
		if (Object.hasOwn(held, key)) {
			keys--;
		}
	}

	return keys === 0 ? held : (heldFields(held, next, undefined) ?? next);
}

/** `next` with its fields before `end` (all: undefined) `held`'s (a copy), or undefined when they are already. */
function heldFields(
	held: Record<string, unknown>,
	next: Record<string, unknown>,
	end: string | undefined,
): Record<string, unknown> | undefined {
	let copy: Record<string, unknown> | undefined;
	for (const key in next) {
		if (key === end) {
			break;
		}

		if (Object.hasOwn(next, key) && next[key] !== held[key]) {
			copy ??= {...next};
			define(copy, key, held[key]);
		}
	}

	return copy;
}

/** Defined, not assigned: a `__proto__` key of decoded JSON stays a plain key. */
function define(record: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(record, key, {value, enumerable: true, writable: true, configurable: true});
}
