/**
 * YAML/JSON text → Kubernetes objects, pushed chunk by chunk: only one document (or one item of a List) is held
 * as text at a time, so memory follows the objects, not the input's size.
 *
 * - A YAML stream is split at document markers (`---` / `...` at the start of a line, which YAML forbids inside
 *   content); each document is parsed on its own (yaml-input.ts: aliases bounded, a parser's scratch memory dies
 *   with its document).
 * - A JSON document (what `kubectl get -o json` writes: one `kind: List`) is scanned, not parsed whole: each item of
 *   its `items` is parsed and handed on as soon as it is complete. JSON documents may follow each other without a
 *   marker, as kubectl accepts.
 * - A YAML document past `maxDocumentBytes` is read item by item when it is a block List as kubectl writes it
 *   (`items:` at the start of a line, each item a `- ` line); anything else that big is refused.
 *
 * `kind: List` and typed `…List` documents are flattened into their items (an item of a typed list may lack its
 * kind). Every problem is one InputError naming the input and line (exit 2).
 */
import type {KubeObject} from '../core/kube-object.js';
import {InputError} from '../core/errors.js';
import {sanitizeLine} from '../model/sanitize.js';
import {inputLimits, mib} from './bounded-input.js';
import {ExpansionLimitError, loadYamlDocuments} from './yaml-input.js';

export type StreamLimits = {
	readonly maxDocumentBytes: number;
	/** JSON nesting (js-yaml's own default for YAML). */
	readonly maxDepth: number;
};

const defaultLimits: StreamLimits = {maxDocumentBytes: inputLimits.maxDocumentBytes, maxDepth: 100};

type YamlError = Error & {reason?: string; mark?: {line?: number}};

function isYamlError(error: unknown): error is YamlError {
	return error instanceof Error && error.name === 'YAMLException';
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A List's items are objects; items of a typed list (`EventList`, as the API returns it) may lack kind. */
export function flatten(doc: unknown): KubeObject[] {
	if (!isObject(doc)) {
		return [];
	}

	const object = doc as KubeObject;
	const kind = typeof object.kind === 'string' ? object.kind : '';
	if (kind.endsWith('List') && Array.isArray(object['items'])) {
		return (object['items'] as unknown[]).flatMap(item => flatten(typed(item, object)));
	}

	return [object];
}

/** An item of `list` with its kind filled in from a typed list's (`InstanceList` → `Instance`). */
function typed(item: unknown, list: Record<string, unknown>): unknown {
	const kind = typeof list['kind'] === 'string' ? list['kind'] : '';
	const itemKind = kind === 'List' || !kind.endsWith('List') ? undefined : kind.slice(0, -'List'.length);
	return itemKind && isObject(item) && item['kind'] === undefined ? {apiVersion: list['apiVersion'], kind: itemKind, ...item} : item;
}

/**
 * Values YAML tags give that the cluster sends as strings, made strings, in place: `!!timestamp` → RFC 3339 (as
 * kubectl's YAML reader turns it), `!!binary` → its bytes as text (ditto). The parsed document is ours, and a copy
 * of every object of a big file would double what is allocated.
 */
function normalize(value: unknown): unknown {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? '' : value.toISOString().replace('.000Z', 'Z');
	}

	if (value instanceof Uint8Array) {
		return new TextDecoder().decode(value);
	}

	if (Array.isArray(value) || isObject(value)) {
		const container = value as Record<string, unknown>;
		for (const key of Object.keys(container)) {
			const before = container[key];
			const after = normalize(before);
			if (after !== before) {
				// Defined, not assigned: a key named __proto__ must stay a plain property.
				Object.defineProperty(container, key, {value: after, writable: true, enumerable: true, configurable: true});
			}
		}
	}

	return value;
}

const documentMarker = /^(?:---|\.\.\.)(?:[ \t\r]|$)/gm;
const bareStartMarker = /^---[ \t]*(?:#.*)?\r?$/;
const bareEndMarker = /^\.\.\.[ \t]*(?:#.*)?\r?$/;
const itemsKey = /^items:[ \t]*(?:#.*)?\r?$/;

/** Items of a List that wait for its kind, by namespace and name. */
type Held = Map<string, unknown>;

type JsonPhase = 'open' | 'key' | 'colon' | 'value' | 'afterValue' | 'item' | 'afterItem';

/** A JSON value being scanned for its end: resumable when its text arrives in several chunks. */
type ValueScan = {start: number; pos: number; depth: number; inString: boolean; escape: boolean};

type Mode =
	| {kind: 'start'}
	| {kind: 'yaml'; scanned: number}
	| {
		kind: 'yamlList';
		phase: 'head' | 'items' | 'tail';
		rest: string[];
		restChars: number;
		item: string[] | undefined;
		itemChars: number;
		itemLine: number;
		held: Held;
	}
	| {
		kind: 'json';
		phase: JsonPhase;
		key: string;
		first: boolean;
		top: Record<string, unknown>;
		sawItems: boolean;
		held: Held;
		scan: ValueScan | undefined;
	};

export class ObjectStream {
	readonly #name: string;
	readonly #emit: (object: KubeObject) => void;
	readonly #limits: StreamLimits;
	/** Text not yet consumed; its first character is on line `#line` (0-based). */
	#pending = '';
	/**
	 * Text of a YAML document held back unscanned: it has no document marker, so it cannot end the document, and
	 * appending it to `#pending` chunk by chunk would make each scan flatten the whole document again (an 8 MiB
	 * document fed in 64 KiB chunks cost ~200 MiB of peak memory in test/cli/bin-input-bounds.test.ts).
	 */
	#held: string[] = [];
	#heldChars = 0;
	/** The last characters pushed, so a marker split between two chunks is seen. */
	#tail = '';
	#line = 0;
	#mode: Mode = {kind: 'start'};

	constructor(name: string, emit: (object: KubeObject) => void, limits: StreamLimits = defaultLimits) {
		this.#name = name;
		this.#emit = emit;
		this.#limits = limits;
	}

	push(text: string): void {
		const seam = this.#tail + text;
		this.#tail = seam.slice(-3);
		if (this.#mode.kind === 'yaml' && !seam.includes('---') && !seam.includes('...')
			&& this.#pending.length + this.#heldChars + text.length <= this.#limits.maxDocumentBytes) {
			this.#held.push(text);
			this.#heldChars += text.length;
			return;
		}

		this.#pending += this.#release() + text;
		this.#drain(false);
	}

	end(): void {
		this.#pending += this.#release();
		this.#drain(true);
		this.#pending = '';
	}

	/** The held-back text, joined once. */
	#release(): string {
		if (this.#held.length === 0) {
			return '';
		}

		const text = this.#held.join('');
		this.#held = [];
		this.#heldChars = 0;
		return text;
	}

	#fail(line: number, reason: string): never {
		throw new InputError(`${this.#name}: line ${line + 1}: ${reason}`);
	}

	/** Drop the first `n` characters, counting the lines they end. */
	#consume(n: number): void {
		const text = this.#pending;
		for (let i = text.indexOf('\n'); i !== -1 && i < n; i = text.indexOf('\n', i + 1)) {
			this.#line++;
		}

		this.#pending = text.slice(n);
	}

	#lineOf(index: number): number {
		let line = this.#line;
		for (let i = this.#pending.indexOf('\n'); i !== -1 && i < index; i = this.#pending.indexOf('\n', i + 1)) {
			line++;
		}

		return line;
	}

	#drain(ended: boolean): void {
		for (;;) {
			const mode = this.#mode;
			const progressed = mode.kind === 'start'
				? this.#start(ended)
				: mode.kind === 'yaml'
					? this.#yaml(mode, ended)
					: mode.kind === 'json' ? this.#json(mode, ended) : this.#yamlList(mode, ended);
			if (!progressed) {
				return;
			}
		}
	}

	/** Between documents: skip blank and comment lines and bare markers, then tell JSON from YAML. */
	#start(ended: boolean): boolean {
		const text = this.#pending;
		const max = this.#limits.maxDocumentBytes;
		let lineStart = 0;
		for (;;) {
			const lineEnd = text.indexOf('\n', lineStart);
			const stop = lineEnd === -1 ? text.length : lineEnd;
			let first = lineStart;
			while (first < stop && (text[first] === ' ' || text[first] === '\t' || text[first] === '\r')) {
				first++;
			}

			if (first === stop) {
				if (lineEnd === -1) {
					// Blank so far: wait for the rest of the line (or that was all).
					this.#consume(ended ? text.length : lineStart);
					return false;
				}

				lineStart = lineEnd + 1;
				continue;
			}

			const c = text[first]!;
			if (c === '#' || c === '-' || c === '.') {
				// A comment or a marker is skipped, but only a whole line tells.
				if (lineEnd === -1 && !ended) {
					if (text.length - lineStart > max) {
						this.#fail(this.#lineOf(lineStart), `a line longer than ${mib(max)}`);
					}

					this.#consume(lineStart);
					return false;
				}

				const line = text.slice(lineStart, stop);
				if (c === '#' || bareStartMarker.test(line) || bareEndMarker.test(line)) {
					lineStart = lineEnd === -1 ? text.length : lineEnd + 1;
					if (lineStart >= text.length) {
						this.#consume(text.length);
						return false;
					}

					continue;
				}
			}

			if (c === '{') {
				let j = first + 1;
				while (j < text.length && /\s/.test(text[j]!)) {
					j++;
				}

				if (j >= text.length && !ended) {
					this.#consume(lineStart);
					return false;
				}

				if (text[j] === '"' || text[j] === '}') {
					this.#consume(first);
					this.#mode = {
						kind: 'json',
						phase: 'open',
						key: '',
						first: true,
						top: {},
						sawItems: false,
						held: new Map(),
						scan: undefined,
					};
					return true;
				}
			}

			// Whole lines only: a document indented as a whole keeps its indentation.
			this.#consume(lineStart);
			this.#mode = {kind: 'yaml', scanned: 0};
			return true;
		}
	}

	#yaml(mode: {kind: 'yaml'; scanned: number}, ended: boolean): boolean {
		const text = this.#pending;
		documentMarker.lastIndex = mode.scanned;
		for (let m = documentMarker.exec(text); m; m = documentMarker.exec(text)) {
			const lineEnd = text.indexOf('\n', m.index);
			if (lineEnd === -1 && !ended) {
				mode.scanned = m.index;
				return this.#checkSize(mode, ended);
			}

			if (m.index === 0 && m[0].startsWith('---')) {
				// This document's own start marker.
				documentMarker.lastIndex = 1;
				continue;
			}

			this.#document(text.slice(0, m.index), this.#line);
			if (m[0].startsWith('---')) {
				this.#consume(m.index);
			} else {
				this.#consume(lineEnd === -1 ? text.length : lineEnd + 1);
			}

			this.#mode = {kind: 'start'};
			return true;
		}

		if (ended) {
			this.#document(text, this.#line);
			this.#consume(text.length);
			this.#mode = {kind: 'start'};
			return false;
		}

		mode.scanned = text.lastIndexOf('\n') + 1;
		return this.#checkSize(mode, ended);
	}

	/** A YAML document past the limit: read on as a List, item by item, or refused. */
	#checkSize(mode: {kind: 'yaml'; scanned: number}, ended: boolean): boolean {
		if (this.#pending.length <= this.#limits.maxDocumentBytes || ended) {
			return false;
		}

		const list = /^items:[ \t]*(?:#.*)?\r?\n-(?:[ \t]|\r?\n)/m.exec(this.#pending);
		const firstLine = this.#pending.slice(0, this.#pending.indexOf('\n'));
		const marked = firstLine.startsWith('---');
		if (!list || (marked && !bareStartMarker.test(firstLine))) {
			this.#fail(this.#line, `a YAML document larger than ${mib(this.#limits.maxDocumentBytes)} (split it into documents with ---)`);
		}

		void mode;
		if (marked) {
			this.#consume(firstLine.length + 1);
		}

		this.#mode = {kind: 'yamlList', phase: 'head', rest: [], restChars: 0, item: undefined, itemChars: 0, itemLine: 0, held: new Map()};
		return true;
	}

	/** One YAML document's text → its objects. */
	#document(text: string, firstLine: number): void {
		for (const value of this.#parseYaml(text, firstLine)) {
			for (const object of flatten(normalize(value))) {
				this.#emit(object);
			}
		}
	}

	#parseYaml(text: string, firstLine: number): unknown[] {
		try {
			return loadYamlDocuments(text);
		} catch (error) {
			if (error instanceof ExpansionLimitError) {
				throw new InputError(`${this.#name}: rejected: ${error.message}`);
			}

			if (isYamlError(error)) {
				const line = typeof error.mark?.line === 'number' ? ` at line ${firstLine + error.mark.line + 1}` : '';
				const reason = sanitizeLine(error.reason ?? error.message.split('\n')[0] ?? 'parse error', 200);
				throw new InputError(`${this.#name}: invalid YAML${line}: ${reason}`);
			}

			throw error;
		}
	}

	/** An item of a List whose kind is not known yet (it comes after the items) waits for it; others go on at once. */
	#item(value: unknown, held: Held): void {
		if (isObject(value) && value['kind'] === undefined) {
			// All of them get the same kind: the same name twice is one object (the last), so an endless run of `{}`
			// costs one entry.
			const metadata = isObject(value['metadata']) ? value['metadata'] : {};
			const key = JSON.stringify([metadata['namespace'] ?? '', metadata['name'] ?? '']);
			held.delete(key);
			held.set(key, value);
			return;
		}

		for (const object of flatten(value)) {
			this.#emit(object);
		}
	}

	/** The List's own fields are known: the items that waited for its kind. */
	#endList(top: unknown, held: Held, line: number): void {
		if (!isObject(top) || typeof top['kind'] !== 'string' || !top['kind'].endsWith('List')) {
			this.#fail(line, 'a document with items that is not a List');
		}

		for (const item of held.values()) {
			for (const object of flatten(typed(item, top))) {
				this.#emit(object);
			}
		}
	}

	/** kubectl's block List, line by line: `items:`, then `- ` starts an item and two spaces continue it. */
	#yamlList(mode: Extract<Mode, {kind: 'yamlList'}>, ended: boolean): boolean {
		const max = this.#limits.maxDocumentBytes;
		let text = this.#pending;
		const finishItem = (): void => {
			if (mode.item) {
				const values = this.#parseYaml(mode.item.join('\n'), mode.itemLine);
				this.#item(normalize(values[0]), mode.held);
				mode.item = undefined;
				mode.itemChars = 0;
			}
		};

		const finishList = (): void => {
			finishItem();
			const [top] = this.#parseYaml(mode.rest.join('\n'), this.#line);
			this.#endList(normalize(top), mode.held, this.#line);
			this.#mode = {kind: 'start'};
		};

		for (;;) {
			const end = text.indexOf('\n');
			if (end === -1 && !ended) {
				this.#pending = text;
				if (text.length > max) {
					this.#fail(this.#line, `a line longer than ${mib(max)}`);
				}

				return false;
			}

			if (end === -1 && text === '') {
				this.#pending = '';
				finishList();
				return false;
			}

			const line = end === -1 ? text : text.slice(0, end);
			documentMarker.lastIndex = 0;
			if (documentMarker.test(line)) {
				this.#pending = text;
				finishList();
				if (line.startsWith('...')) {
					this.#consume(end === -1 ? text.length : end + 1);
				}

				return true;
			}

			const lineNumber = this.#line;
			text = end === -1 ? '' : text.slice(end + 1);
			this.#line++;
			if (mode.phase === 'items' && (line === '-' || line.startsWith('- ') || line.startsWith('-\t') || line === '-\r')) {
				finishItem();
				mode.item = [line.slice(2)];
				mode.itemChars = line.length;
				mode.itemLine = lineNumber;
				continue;
			}

			if (mode.phase === 'items' && mode.item && (line.startsWith('  ') || line.trim() === '' || line.startsWith('#'))) {
				const kept = line.startsWith('  ') ? line.slice(2) : '';
				mode.item.push(kept);
				mode.itemChars += line.length + 1;
				if (mode.itemChars > max) {
					this.#fail(mode.itemLine, `an item of the List larger than ${mib(max)}`);
				}

				continue;
			}

			if (mode.phase === 'head' && itemsKey.test(line)) {
				mode.phase = 'items';
				continue;
			}

			if (mode.phase === 'items') {
				finishItem();
				mode.phase = 'tail';
			}

			mode.rest.push(line);
			mode.restChars += line.length + 1;
			if (mode.restChars > max) {
				this.#fail(lineNumber, `a YAML document larger than ${mib(max)} (split it into documents with ---)`);
			}
		}
	}

	/** A JSON document: its top-level fields parsed one by one, the items of its `items` one by one. */
	#json(mode: Extract<Mode, {kind: 'json'}>, ended: boolean): boolean {
		for (;;) {
			const text = this.#pending;
			let i = 0;
			if (!mode.scan) {
				while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r' || text[i] === '\n')) {
					i++;
				}

				if (i >= text.length) {
					if (ended) {
						this.#fail(this.#line, 'invalid JSON: the document ends early');
					}

					this.#consume(i);
					return false;
				}
			}

			const c = text[i]!;
			switch (mode.phase) {
				case 'open': {
					this.#consume(i + 1);
					mode.phase = 'key';
					continue;
				}

				case 'key': {
					if (c === '}' && mode.first) {
						this.#consume(i + 1);
						this.#endJson(mode);
						return true;
					}

					if (c !== '"' && !mode.scan) {
						this.#fail(this.#lineOf(i), `invalid JSON: expected a field name, found ${JSON.stringify(c)}`);
					}

					const value = this.#value(mode, i, ended);
					if (value === undefined) {
						return false;
					}

					mode.key = String(value.value);
					mode.phase = 'colon';
					continue;
				}

				case 'colon': {
					if (c !== ':') {
						this.#fail(this.#lineOf(i), `invalid JSON: expected ":", found ${JSON.stringify(c)}`);
					}

					this.#consume(i + 1);
					mode.phase = 'value';
					continue;
				}

				case 'value': {
					if (mode.key === 'items' && c === '[' && !mode.scan) {
						this.#consume(i + 1);
						mode.sawItems = true;
						mode.first = true;
						mode.phase = 'item';
						continue;
					}

					const value = this.#value(mode, i, ended);
					if (value === undefined) {
						return false;
					}

					// Defined, not assigned: a field named __proto__ stays a plain property, as JSON.parse makes it.
					Object.defineProperty(mode.top, mode.key, {value: value.value, writable: true, enumerable: true, configurable: true});
					mode.phase = 'afterValue';
					continue;
				}

				case 'afterValue': {
					this.#consume(i + 1);
					if (c === ',') {
						mode.first = false;
						mode.phase = 'key';
						continue;
					}

					if (c === '}') {
						this.#endJson(mode);
						return true;
					}

					return this.#fail(this.#line, `invalid JSON: expected "," or "}", found ${JSON.stringify(c)}`);
				}

				case 'item': {
					if (c === ']' && mode.first && !mode.scan) {
						this.#consume(i + 1);
						mode.phase = 'afterValue';
						continue;
					}

					const value = this.#value(mode, i, ended);
					if (value === undefined) {
						return false;
					}

					this.#item(value.value, mode.held);
					mode.phase = 'afterItem';
					continue;
				}

				case 'afterItem': {
					this.#consume(i + 1);
					if (c === ',') {
						mode.first = false;
						mode.phase = 'item';
						continue;
					}

					if (c === ']') {
						mode.phase = 'afterValue';
						continue;
					}

					return this.#fail(this.#line, `invalid JSON: expected "," or "]" after an item, found ${JSON.stringify(c)}`);
				}
			}
		}
	}

	#endJson(mode: Extract<Mode, {kind: 'json'}>): void {
		this.#mode = {kind: 'start'};
		if (mode.sawItems) {
			this.#endList(mode.top, mode.held, this.#line);
			return;
		}

		for (const object of flatten(mode.top)) {
			this.#emit(object);
		}
	}

	/**
	 * The JSON value starting at `from` (or being scanned since an earlier chunk), parsed and consumed; undefined
	 * until its text is complete.
	 */
	#value(mode: Extract<Mode, {kind: 'json'}>, from: number, ended: boolean): {value: unknown} | undefined {
		const text = this.#pending;
		const scan = (mode.scan ??= {start: from, pos: from, depth: 0, inString: false, escape: false});
		const max = this.#limits.maxDocumentBytes;
		let end = -1;
		let {pos, depth, inString, escape} = scan;
		while (pos < text.length) {
			const ch = text.charCodeAt(pos);
			if (inString) {
				if (escape) {
					escape = false;
				} else if (ch === 0x5c) {
					escape = true;
				} else if (ch === 0x22) {
					inString = false;
					if (depth === 0) {
						end = pos + 1;
						break;
					}
				} else {
					// Jump to the next quote or backslash: strings are most of a document.
					const next = nextSpecial(text, pos + 1);
					pos = next === -1 ? text.length : next;
					continue;
				}
			} else if (ch === 0x22) {
				inString = true;
			} else if (ch === 0x7b || ch === 0x5b) {
				depth++;
				if (depth > this.#limits.maxDepth) {
					this.#fail(this.#lineOf(scan.start), `invalid JSON: nested deeper than ${this.#limits.maxDepth} levels`);
				}
			} else if (ch === 0x7d || ch === 0x5d) {
				if (depth === 0) {
					end = pos;
					break;
				}

				depth--;
				if (depth === 0) {
					end = pos + 1;
					break;
				}
			} else if (depth === 0 && (ch === 0x2c || ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09)) {
				end = pos;
				break;
			}

			pos++;
		}

		if ((end === -1 ? pos : end) - scan.start > max) {
			this.#fail(
				this.#lineOf(scan.start),
				`${mode.phase === 'item' ? 'an item of the List' : 'a JSON value'} larger than ${mib(max)}`,
			);
		}

		if (end === -1 && !(ended && depth === 0 && !inString)) {
			Object.assign(scan, {pos, depth, inString, escape});
			if (ended) {
				this.#fail(this.#lineOf(scan.start), 'invalid JSON: the document ends early');
			}

			return undefined;
		}

		end = end === -1 ? text.length : end;
		const source = text.slice(scan.start, end);
		const line = this.#lineOf(scan.start);
		mode.scan = undefined;
		let value: unknown;
		try {
			value = JSON.parse(source);
		} catch (error) {
			this.#fail(line, `invalid JSON (${sanitizeLine((error as Error).message, 120)})`);
		}

		this.#consume(end);
		return {value};
	}
}

const special = /["\\]/g;

/** Index of the next `"` or `\` from `from`, or -1: one search that stops at the nearer (two indexOf would run to the end). */
function nextSpecial(text: string, from: number): number {
	special.lastIndex = from;
	return special.exec(text)?.index ?? -1;
}
