/* eslint-disable @stylistic/max-len -- the example's header is one NDJSON line, shown whole */
/**
 * The recording format of `--record FILE` and `planwatch replay FILE`: NDJSON, one header line, then one line per
 * source event with the time planwatch received it. Pure: encoding, sanitizing, parsing with bounds, and folding
 * the entries into the state at a moment. File I/O lives in source/sources/recorder.ts and replay-source.ts.
 * (In state/, next to the SourceEvent it records; pure like model/.)
 *
 *   {"recording":"planwatch/1","version":"0.1.0","source":"cluster","context":"kind","namespace":"prod","targets":["instance/mysql"],"start":"2026-11-30T11:00:00.000Z"}
 *   {"at":"2026-11-30T11:00:00.120Z","type":"connection","state":{"status":"live"}}
 *   {"at":"2026-11-30T11:00:00.180Z","type":"replace","resource":"Instance","namespace":"prod","objects":[…]}
 *   {"at":"2026-11-30T11:00:03.002Z","type":"upsert","resource":"Instance","object":{…}}
 *   {"at":"2026-11-30T11:04:10.511Z","type":"end"}
 *
 * A line is written whole or not at all by the recorder; a crash can still leave the last line cut, and a reader
 * then ignores that one unterminated line. Anything else that is wrong is one error naming the line.
 */
/* eslint-enable @stylistic/max-len */
import type {KubeObject, ResourceKind} from '../core/kube-object.js';
import {InputError} from '../core/errors.js';
import {exitCodes, isExitCode} from '../core/exit-codes.js';
import {logTailLimits} from '../model/log-tail.js';
import {sanitizeLine, sanitizeText} from '../model/sanitize.js';
import type {ConnectionState, SourceEvent} from '../state/object-source.js';
import {contextSeparator} from '../model/plan-tree.js';

export const recordingFormat = 'planwatch/1';

export type RecordingHeader = {
	readonly recording: typeof recordingFormat;
	/** planwatch version that recorded. */
	readonly version: string;
	readonly source: 'cluster' | 'demo';
	/** Context name (cluster) or `demo`. */
	readonly context: string;
	/** Namespace or `all namespaces`. */
	readonly namespace: string;
	/** Targets as typed (`instance/NAME`); empty = everything in scope. */
	readonly targets: readonly string[];
	/** Object keys (`Kind/namespace/name`) the session waited for; what replay --wait waits for. */
	readonly waitFor: readonly string[];
	/** When the recording started, ISO 8601. */
	readonly start: string;
};

/** One recorded source event, or the end of the session. */
export type RecordedEvent = SourceEvent | {readonly type: 'end'};

export type RecordingEntry = {
	/** Receive time, epoch ms. Never earlier than the entry before it. */
	readonly at: number;
	readonly event: RecordedEvent;
	/** 1-based line in the file, for messages. */
	readonly line: number;
};

export type Recording = {
	readonly header: RecordingHeader;
	readonly startMs: number;
	readonly entries: readonly RecordingEntry[];
	/** The last line was cut (a crash while writing it) and was left out. */
	readonly truncated: boolean;
};

/** Bounds a reader enforces on untrusted recordings. */
export const recordingLimits = {
	/** Whole file. */
	maxBytes: 512 * 1024 * 1024,
	maxLines: 2_000_000,
	/** One line: a `replace` carries a whole list. */
	maxLineChars: 32 * 1024 * 1024,
	/** An `upsert`/`delete` line (one object): the API server's own request limit is 3 MiB. */
	maxObjectLineChars: 3 * 1024 * 1024,
	maxObjectsPerLine: 100_000,
	/** JSON nesting of one object; real objects stay under 20. */
	maxDepth: 64,
} as const;

/** Strings in a recording are already sanitized; this cap is above every cap of the adapters, so replay cuts as live did. */
const maxRecordedString = 16_384;

/** Bad recording: one line naming the file and line, exit 2. */
export class RecordingError extends InputError {}

const resources: ReadonlySet<string> = new Set<ResourceKind>([
	'Instance', 'OperatorVersion', 'ActionSet', 'Blueprint', 'Event', 'Pod', 'Deployment', 'StatefulSet', 'Job',
]);

/** Fields planwatch never reads and that only make lines long (server-side apply bookkeeping). */
function isDropped(key: string, parentKey: string | undefined): boolean {
	return parentKey === 'metadata' && key === 'managedFields';
}

/**
 * A raw object with every string (keys included) sanitized and cut, as stored in a recording: a recording shown
 * with `cat` or `tail -f` writes no escape sequence to the terminal.
 */
export function sanitizeRaw(value: unknown, depth = 0, parentKey?: string): unknown {
	if (typeof value === 'string') {
		return clean(value);
	}

	if (value === null || typeof value !== 'object' || depth > recordingLimits.maxDepth) {
		return typeof value === 'number' || typeof value === 'boolean' || value === null ? value : undefined;
	}

	if (Array.isArray(value)) {
		return value.map(v => sanitizeRaw(v, depth + 1) ?? null);
	}

	const out: Record<string, unknown> = {};
	const object = value as Record<string, unknown>;
	// for…in over own keys: no entries array per object (this runs for every field of every recorded update).
	for (const k in object) {
		if (Object.hasOwn(object, k) && !isDropped(k, parentKey)) {
			const cleaned = sanitizeRaw(object[k], depth + 1, k);
			if (cleaned !== undefined) {
				out[clean(k)] = cleaned;
			}
		}
	}

	return out;
}

/** The sanitizer itself (its own shortcut returns a clean string as it is, so --record stays cheap). */
function clean(text: string): string {
	return sanitizeText(text, maxRecordedString);
}

function sanitizeConnection(state: ConnectionState): ConnectionState {
	switch (state.status) {
		case 'static': {
			return {status: 'static', label: sanitizeLine(state.label)};
		}

		case 'waiting-credentials': {
			return {status: 'waiting-credentials', plugin: sanitizeLine(state.plugin)};
		}

		case 'reconnecting': {
			return {status: 'reconnecting', attempt: state.attempt, lastError: sanitizeLine(state.lastError)};
		}

		default: {
			return {status: state.status};
		}
	}
}

export function encodeHeader(header: Omit<RecordingHeader, 'recording'>): string {
	const clean: RecordingHeader = {
		recording: recordingFormat,
		version: sanitizeLine(header.version, 100),
		source: header.source,
		context: sanitizeLine(header.context, 253),
		namespace: sanitizeLine(header.namespace, 253),
		targets: header.targets.map(t => sanitizeLine(t, 600)),
		waitFor: header.waitFor.map(t => sanitizeKey(t)),
		start: header.start,
	};
	return `${JSON.stringify(clean)}\n`;
}

/** One entry's line, sanitized, with its newline. */
export function encodeEntry(at: number, event: RecordedEvent): string {
	const time = new Date(at).toISOString();
	let body: Record<string, unknown>;
	switch (event.type) {
		case 'upsert':
		case 'delete': {
			body = {type: event.type, resource: event.resource, object: sanitizeRaw(event.object)};
			break;
		}

		case 'replace': {
			body = {
				type: 'replace',
				resource: event.resource,
				...(event.namespace === undefined ? {} : {namespace: sanitizeLine(event.namespace, 253)}),
				objects: event.objects.map(o => sanitizeRaw(o)),
			};
			break;
		}

		case 'connection': {
			body = {type: 'connection', state: sanitizeConnection(event.state)};
			break;
		}

		case 'fatal': {
			body = {type: 'fatal', message: sanitizeLine(event.message), exitCode: event.exitCode};
			break;
		}

		case 'missing': {
			body = {type: 'missing', resource: event.resource, message: sanitizeLine(event.message)};
			break;
		}

		case 'log': {
			body = {
				type: 'log',
				namespace: sanitizeLine(event.namespace, 253),
				pod: sanitizeLine(event.pod, 253),
				container: sanitizeLine(event.container, 253),
				previous: event.previous,
				text: sanitizeText(event.text, logTailLimits.requestBytes),
				...(event.reset ? {reset: true} : {}),
				...(event.error === undefined ? {} : {error: sanitizeLine(event.error)}),
				...(event.forbidden ? {forbidden: true} : {}),
			};
			break;
		}

		case 'synced':
		case 'end': {
			body = {type: event.type};
			break;
		}
	}

	// Several contexts: each line names its own.
	const context = event.type !== 'end' && event.context !== undefined ? {context: sanitizeLine(event.context, 253)} : {};
	return `${JSON.stringify({at: time, ...context, ...body})}\n`;
}

/** Whether a file's text is a recording (its first line is a recording header), for `-f`. */
export function looksLikeRecording(text: string): boolean {
	return /^\uFEFF?\s*\{\s*"recording"\s*:\s*"planwatch\//.test(text.slice(0, 200));
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deepest nesting, stopping as soon as it passes `max` (so a hostile line cannot exhaust the stack). */
function deeperThan(value: unknown, max: number, depth = 0): boolean {
	if (depth > max) {
		return true;
	}

	if (typeof value !== 'object' || value === null) {
		return false;
	}

	for (const v of Array.isArray(value) ? value : Object.values(value)) {
		if (deeperThan(v, max, depth + 1)) {
			return true;
		}
	}

	return false;
}

function parseTime(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.length > 40) {
		return undefined;
	}

	const t = Date.parse(value);
	return Number.isFinite(t) ? t : undefined;
}

function stringList(value: unknown, max: number): string[] | undefined {
	if (!Array.isArray(value) || value.length > 10_000 || !value.every(v => typeof v === 'string')) {
		return undefined;
	}

	// An object key's context separator is a control character: kept, each part sanitized.
	return value.map(v => v.split(contextSeparator).map(part => sanitizeLine(part, max)).join(contextSeparator));
}

/** An object key (`Kind/ns/name`, or with its context): each part sanitized, the context separator kept. */
function sanitizeKey(key: string): string {
	const at = key.indexOf(contextSeparator);
	return at === -1
		? sanitizeLine(key, 600)
		: `${sanitizeLine(key.slice(0, at), 253)}${contextSeparator}${sanitizeLine(key.slice(at + 1), 600)}`;
}

function parseHeader(value: unknown, fail: (reason: string) => never): RecordingHeader {
	if (!isRecord(value) || typeof value['recording'] !== 'string' || !value['recording'].startsWith('planwatch/')) {
		fail('not a planwatch recording (the first line is not a recording header)');
	}

	if (value['recording'] !== recordingFormat) {
		fail(`recording format ${sanitizeLine(value['recording'], 40)} is not supported (this planwatch reads ${recordingFormat})`);
	}

	const start = parseTime(value['start']);
	const source = value['source'];
	const targets = stringList(value['targets'] ?? [], 600);
	const waitFor = stringList(value['waitFor'] ?? [], 600)?.map(t => sanitizeKey(t));
	if (start === undefined) {
		fail('header: start is not a time');
	}

	if (source !== 'cluster' && source !== 'demo') {
		fail('header: source must be cluster or demo');
	}

	if (!targets || !waitFor) {
		fail('header: targets and waitFor must be lists of strings');
	}

	return {
		recording: recordingFormat,
		version: sanitizeLine(value['version'], 100),
		source,
		context: sanitizeLine(value['context'], 253),
		namespace: sanitizeLine(value['namespace'], 253),
		targets,
		waitFor,
		start: new Date(start).toISOString(),
	};
}

function kubeObject(value: unknown, what: string, fail: (reason: string) => never): KubeObject {
	if (!isRecord(value) || (value['metadata'] !== undefined && !isRecord(value['metadata']))) {
		fail(`${what} is not a Kubernetes object`);
	}

	return value as KubeObject;
}

function parseConnection(value: unknown, fail: (reason: string) => never): ConnectionState {
	if (!isRecord(value)) {
		fail('connection state is not an object');
	}

	switch (value['status']) {
		case 'static': {
			return {status: 'static', label: sanitizeLine(value['label'])};
		}

		case 'connecting':
		case 'live': {
			return {status: value['status']};
		}

		case 'waiting-credentials': {
			return {status: 'waiting-credentials', plugin: sanitizeLine(value['plugin'])};
		}

		case 'reconnecting': {
			const attempt = value['attempt'];
			return {
				status: 'reconnecting',
				attempt: typeof attempt === 'number' && Number.isSafeInteger(attempt) && attempt >= 0 ? attempt : 0,
				lastError: sanitizeLine(value['lastError']),
			};
		}

		default: {
			fail(`unknown connection status ${JSON.stringify(sanitizeLine(value['status'], 40))}`);
		}
	}
}

function parseEvent(value: Record<string, unknown>, length: number, fail: (reason: string) => never): RecordedEvent {
	const event = parseEventBody(value, length, fail);
	const context = value['context'];
	if (context === undefined || event.type === 'end') {
		return event;
	}

	if (typeof context !== 'string' || context === '') {
		fail('context is not a name');
	}

	return {...event, context: sanitizeLine(context, 253)};
}

function parseEventBody(value: Record<string, unknown>, length: number, fail: (reason: string) => never): RecordedEvent {
	const type = value['type'];
	const resource = value['resource'];
	const needResource = (): ResourceKind => {
		if (typeof resource !== 'string' || !resources.has(resource)) {
			fail(`unknown resource ${JSON.stringify(sanitizeLine(resource, 40))}`);
		}

		return resource as ResourceKind;
	};

	switch (type) {
		case 'upsert':
		case 'delete': {
			if (length > recordingLimits.maxObjectLineChars) {
				fail(`object larger than ${recordingLimits.maxObjectLineChars / 1024 / 1024} MiB`);
			}

			return {type, resource: needResource(), object: kubeObject(value['object'], 'object', fail)};
		}

		case 'replace': {
			const objects = value['objects'];
			if (!Array.isArray(objects)) {
				fail('replace without a list of objects');
			}

			if (objects.length > recordingLimits.maxObjectsPerLine) {
				fail(`more than ${recordingLimits.maxObjectsPerLine} objects in one line`);
			}

			const namespace = value['namespace'];
			if (namespace !== undefined && typeof namespace !== 'string') {
				fail('replace namespace is not a string');
			}

			return {
				type,
				resource: needResource(),
				...(namespace === undefined ? {} : {namespace: sanitizeLine(namespace, 253)}),
				objects: objects.map((o, i) => kubeObject(o, `objects[${i}]`, fail)),
			};
		}

		case 'connection': {
			return {type, state: parseConnection(value['state'], fail)};
		}

		case 'missing': {
			return {type, resource: needResource(), message: sanitizeLine(value['message'])};
		}

		case 'log': {
			const error = value['error'];
			return {
				type,
				namespace: sanitizeLine(value['namespace'], 253),
				pod: sanitizeLine(value['pod'], 253),
				container: sanitizeLine(value['container'], 253),
				previous: value['previous'] === true,
				text: sanitizeText(value['text'], logTailLimits.requestBytes),
				...(value['reset'] === true ? {reset: true} : {}),
				...(error === undefined ? {} : {error: sanitizeLine(error)}),
				...(value['forbidden'] === true ? {forbidden: true} : {}),
			};
		}

		case 'fatal': {
			const code = value['exitCode'];
			return {
				type,
				message: sanitizeLine(value['message']),
				exitCode: isExitCode(code) && code !== exitCodes.ok ? code : exitCodes.cluster,
			};
		}

		case 'synced':
		case 'end': {
			return {type};
		}

		default: {
			fail(`unknown entry type ${JSON.stringify(sanitizeLine(type, 40))}`);
		}
	}
}

/**
 * How far back a line's time may be from the line before it: the recorder stamps lines with the wall clock, which
 * an NTP correction can step back a little. Such a line is played at the time before it; anything further back
 * was not written by a recorder in order and is refused (played in file order, its transitions would all fall on
 * one moment: `COMPLETE in 0s`).
 */
export const maxClockStepBackMs = 1000;

/**
 * A recording's lines → header and entries, one line at a time (a reader never holds the file's text). Throws
 * RecordingError (`NAME: line N: reason`) on anything malformed, except one unterminated last line that does not
 * parse: the cut a crash leaves, dropped.
 */
export class RecordingParser {
	readonly #name: string;
	#header: RecordingHeader | undefined;
	#startMs = 0;
	#previous = 0;
	#previousLine = 1;
	#truncated = false;
	#lines = 0;
	readonly #entries: RecordingEntry[] = [];

	constructor(name: string) {
		this.#name = name;
	}

	/** The input's name, for messages. */
	get name(): string {
		return this.#name;
	}

	/** Line `line` (1-based) of the file, without its newline; `terminated` false for an unterminated last line. */
	line(raw: string, line: number, terminated: boolean): void {
		const fail: (reason: string) => never = reason => {
			throw new RecordingError(`${this.#name}: line ${line}: ${reason}`);
		};

		if (++this.#lines > recordingLimits.maxLines) {
			throw new RecordingError(`${this.#name}: more than ${recordingLimits.maxLines} lines`);
		}

		const text = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).replace(/\r$/, '');
		if (text.trim() === '') {
			if (line === 1) {
				fail('not a planwatch recording (the first line is empty)');
			}

			return;
		}

		if (text.length > recordingLimits.maxLineChars) {
			fail(`line longer than ${recordingLimits.maxLineChars / 1024 / 1024} MiB`);
		}

		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch (error) {
			if (!terminated && this.#header) {
				this.#truncated = true;
				return;
			}

			fail(line === 1
				? 'not a planwatch recording (the first line is not JSON)'
				: `invalid JSON (${sanitizeLine((error as Error).message, 120)})`);
		}

		if (deeperThan(value, recordingLimits.maxDepth)) {
			fail(`nested deeper than ${recordingLimits.maxDepth} levels`);
		}

		if (!this.#header) {
			this.#header = parseHeader(value, fail);
			this.#startMs = Date.parse(this.#header.start);
			this.#previous = this.#startMs;
			return;
		}

		if (!isRecord(value)) {
			fail('not a JSON object');
		}

		const at = parseTime(value['at']);
		if (at === undefined) {
			fail('"at" is not a time');
		}

		if (at < this.#previous - maxClockStepBackMs) {
			const before = this.#entries.length === 0
				? `the recording's start (${new Date(this.#startMs).toISOString()})`
				: `line ${this.#previousLine} (${new Date(this.#previous).toISOString()})`;
			fail(`time goes backwards: ${new Date(at).toISOString()} is before ${before}; a recording's lines are in the ` +
				'order they were received');
		}

		// A small step back of the wall clock: played at the time before it, keeping the order the lines were written in.
		this.#previous = Math.max(this.#previous, at);
		this.#previousLine = line;
		this.#entries.push({at: this.#previous, event: parseEvent(value, text.length, fail), line});
	}

	finish(): Recording {
		if (!this.#header) {
			throw new RecordingError(`${this.#name}: line 1: not a planwatch recording (empty file)`);
		}

		return {header: this.#header, startMs: this.#startMs, entries: this.#entries, truncated: this.#truncated};
	}
}

/** A recording's whole text → header and entries (see RecordingParser). */
export function parseRecording(text: string, name: string): Recording {
	if (text.length > recordingLimits.maxBytes) {
		throw new RecordingError(`${name}: larger than ${recordingLimits.maxBytes / 1024 / 1024} MiB`);
	}

	const lines = text.split('\n');
	const terminated = lines.at(-1) === '';
	if (terminated) {
		lines.pop();
	}

	if (lines.length > recordingLimits.maxLines) {
		throw new RecordingError(`${name}: more than ${recordingLimits.maxLines} lines`);
	}

	const parser = new RecordingParser(name);
	for (const [i, raw] of lines.entries()) {
		parser.line(raw, i + 1, terminated || i < lines.length - 1);
	}

	return parser.finish();
}

/** The recording's last moment: its `end` entry, else its last entry, else its start. */
export function recordingEndMs(recording: Recording): number {
	return recording.entries.at(-1)?.at ?? recording.startMs;
}

/** Every object present after the entries up to and including `untilMs` (all when omitted), by resource. */
export function stateAt(entries: readonly RecordingEntry[], untilMs = Number.POSITIVE_INFINITY): Map<ResourceKind, KubeObject[]> {
	const state = new Map<ResourceKind, Map<string, KubeObject>>();
	const of = (resource: ResourceKind): Map<string, KubeObject> => {
		let m = state.get(resource);
		if (!m) {
			m = new Map();
			state.set(resource, m);
		}

		return m;
	};

	const key = (o: KubeObject): string => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
	for (const {at, event} of entries) {
		if (at > untilMs) {
			break;
		}

		switch (event.type) {
			case 'upsert': {
				of(event.resource).set(key(event.object), event.object);
				break;
			}

			case 'delete': {
				of(event.resource).delete(key(event.object));
				break;
			}

			case 'replace': {
				const m = of(event.resource);
				for (const [k, o] of m) {
					if (event.namespace === undefined || o.metadata?.namespace === event.namespace) {
						m.delete(k);
					}
				}

				for (const o of event.objects) {
					m.set(key(o), o);
				}

				break;
			}

			default: {
				break;
			}
		}
	}

	return new Map([...state].map(([r, m]) => [r, [...m.values()]]));
}

/** The first mark after `now` (a transition to jump to with `]`), if any. `marks` ascending. */
export function nextMark(marks: readonly number[], now: number): number | undefined {
	return marks.find(m => m > now);
}

/** The last mark before `now` (`[`), if any. `marks` ascending. */
export function previousMark(marks: readonly number[], now: number): number | undefined {
	return marks.findLast(m => m < now);
}

/**
 * `--from`: a Go duration after the start (`2m`, `1h30m`), an ISO time (`2026-11-30T11:02:00Z`), or a time of day
 * `HH:MM[:SS]` on the recording's first day in `timeZone` (default: the machine's). Undefined when unreadable.
 */
export function resolveFrom(
	text: string,
	startMs: number,
	parseDuration: (s: string) => number | undefined,
	timeZone?: string,
): number | undefined {
	const duration = parseDuration(text);
	if (duration !== undefined) {
		return startMs + duration;
	}

	const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
	if (clock) {
		const [h, m, s] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
		if (h > 23 || m > 59 || s > 59) {
			return undefined;
		}

		// Same day as the start, in the zone: move from the start's time of day to the wanted one.
		const day = new Intl.DateTimeFormat('en-GB', {
			timeZone,
			hourCycle: 'h23',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		}).format(startMs);
		const [sh, sm, ss] = day.split(':').map(Number) as [number, number, number];
		return startMs - (startMs % 1000) + ((h - sh) * 3600 + (m - sm) * 60 + (s - ss)) * 1000;
	}

	if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(text.trim())) {
		return undefined;
	}

	const t = Date.parse(text.trim());
	return Number.isFinite(t) ? t : undefined;
}
