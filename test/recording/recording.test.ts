import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import type {SourceEvent} from '../../source/state/object-source.js';
import {parseDuration} from '../../source/model/parse-duration.js';
import {sanitizeText} from '../../source/model/sanitize.js';
import {hostileString, seededRandom} from '../helpers/random-strings.js';
import {
	encodeEntry,
	encodeHeader,
	looksLikeRecording,
	nextMark,
	parseRecording,
	previousMark,
	RecordingError,
	recordingLimits,
	resolveFrom,
	sanitizeRaw,
	stateAt,
	type RecordedEvent,
} from '../../source/recording/recording.js';

const start = Date.parse('2026-11-30T11:00:00Z');
const header = encodeHeader({
	version: '0.1.0',
	source: 'cluster',
	context: 'kind-prod',
	namespace: 'prod',
	targets: ['instance/mysql'],
	waitFor: ['Instance/prod/mysql'],
	start: new Date(start).toISOString(),
});

function instance(name: string, status: string, extra: Record<string, unknown> = {}): KubeObject {
	return {apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name, namespace: 'prod', ...extra}, status: {planStatus: {deploy: {status}}}};
}

const events: Array<[number, RecordedEvent]> = [
	[10, {type: 'connection', state: {status: 'live'}}],
	[20, {type: 'replace', resource: 'Instance', namespace: 'prod', objects: [instance('mysql', 'PENDING'), instance('kafka', 'COMPLETE')]}],
	[21, {type: 'synced'}],
	[1500, {type: 'upsert', resource: 'Instance', object: instance('mysql', 'IN_PROGRESS')}],
	[1600, {type: 'connection', state: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}}],
	[2500, {type: 'delete', resource: 'Instance', object: instance('kafka', 'COMPLETE')}],
	[2900, {type: 'missing', resource: 'Event', message: 'events: forbidden'}],
	[3000, {type: 'fatal', message: 'forbidden', exitCode: 4}],
	[3100, {type: 'end'}],
];

function text(lines: Array<[number, RecordedEvent]> = events): string {
	return header + lines.map(([ms, e]) => encodeEntry(start + ms, e)).join('');
}

function errorOf(body: string): string {
	try {
		parseRecording(body, 'rec.ndjson');
	} catch (error) {
		expect(error).toBeInstanceOf(RecordingError);
		expect((error as RecordingError).exitCode).toBe(2);
		return (error as Error).message;
	}

	throw new Error('parsed without an error');
}

describe('recording format', () => {
	it('round-trips the header and every kind of entry, with receive times', () => {
		const recording = parseRecording(text(), 'rec.ndjson');
		expect(recording.header).toEqual({
			recording: 'planwatch/1',
			version: '0.1.0',
			source: 'cluster',
			context: 'kind-prod',
			namespace: 'prod',
			targets: ['instance/mysql'],
			waitFor: ['Instance/prod/mysql'],
			start: '2026-11-30T11:00:00.000Z',
		});
		expect(recording.startMs).toBe(start);
		expect(recording.truncated).toBe(false);
		expect(recording.entries.map(e => [e.at - start, e.event])).toEqual(events);
		expect(recording.entries.map(e => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
	});

	it('round-trips pods and log text, the log sanitized and bounded', () => {
		const pod: KubeObject = {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'web-0', namespace: 'prod'}, status: {phase: 'Running'}};
		const lines: Array<[number, RecordedEvent]> = [
			[10, {type: 'upsert', resource: 'Pod', object: pod}],
			[20, {type: 'log', namespace: 'prod', pod: 'web-0', container: 'app', previous: true, text: 'ok\u001B]52;c;ZXZpbA==\u0007\npanic\n', reset: true}],
			[30, {type: 'log', namespace: 'prod', pod: 'web-1', container: 'app', previous: false, text: '', error: 'forbidden: cannot get pods/log', forbidden: true}],
			[40, {type: 'log', namespace: 'prod', pod: 'web-2', container: 'app', previous: false, text: 'x'.repeat(200_000)}],
		];
		const entries = parseRecording(text(lines), 'rec.ndjson').entries.map(e => e.event);
		expect(entries[0]).toEqual(lines[0]![1]);
		expect(entries[1]).toEqual({type: 'log', namespace: 'prod', pod: 'web-0', container: 'app', previous: true, text: 'ok\npanic\n', reset: true});
		expect(entries[2]).toEqual(lines[2]![1]);
		expect((entries[3] as {text: string}).text.length).toBeLessThanOrEqual(64 * 1024);
	});

	it('is one JSON object per line, header first', () => {
		const lines = text().trimEnd().split('\n');
		expect(lines).toHaveLength(events.length + 1);
		for (const line of lines) {
			expect(() => JSON.parse(line) as unknown).not.toThrow();
		}

		expect(looksLikeRecording(text())).toBe(true);
		expect(looksLikeRecording('apiVersion: v1\nkind: List\n')).toBe(false);
		expect(looksLikeRecording('{"apiVersion":"kudo.dev/v1beta1","kind":"Instance"}')).toBe(false);
	});

	it('stores objects already sanitized: no escape sequence reaches a file someone may cat, managedFields dropped', () => {
		const hostile = instance('mysql', 'IN_PROGRESS\u001B]52;c;cm0gLXJm\u0007', {managedFields: [{manager: 'x'}], labels: {'a\u001B[2J': 'b\u202E'}});
		const line = encodeEntry(start, {type: 'upsert', resource: 'Instance', object: hostile});
		expect(line).not.toMatch(/\\u001b|\\u0007|\u202E|\u001B/i);
		expect(line).not.toContain('managedFields');
		const parsed = JSON.parse(line) as {object: KubeObject};
		expect(parsed.object.metadata?.labels).toEqual({a: 'b'});
		expect(sanitizeRaw({n: 1, b: true, z: null, f: () => 1, list: ['x\u0000y']})).toEqual({n: 1, b: true, z: null, list: ['xy']});
	});

	it('sanitizes every string exactly as the sanitizer does (its shortcut for clean strings changes nothing)', () => {
		const random = seededRandom(13);
		for (let i = 0; i < 3000; i++) {
			const text = hostileString(random);
			expect(sanitizeRaw(text)).toBe(sanitizeText(text, 16_384));
		}

		for (const text of ['a\uD83D\uDE00b', 'lone \uD83D', 'lone \uDE00', 'tab\tnew\nline', 'x'.repeat(20_000), '\u200Bzw', '\u061Calm']) {
			expect(sanitizeRaw(text)).toBe(sanitizeText(text, 16_384));
		}
	});

	// Every kind of character the sanitizer removes or rewrites, each in a non-ASCII string (ASCII-only strings take
	// another shortcut), as a value and as a key: a recorded string is never other than what the sanitizer makes of it.
	const categories: Array<[string, string]> = [
		['C0 controls', [...Array.from({length: 32}, (_, i) => String.fromCodePoint(i))].join('')],
		['DEL', '\u007F'],
		['C1 controls', Array.from({length: 32}, (_, i) => String.fromCodePoint(0x80 + i)).join('')],
		['ESC sequences (CSI, OSC to BEL and ST, DCS, APC, two-character)', '\u001B[2J\u001B]52;c;eA==\u0007\u001B]0;t\u001B\\\u001BP1$r\u001B\\\u001B_x\u001B\\\u001B7'],
		['8-bit CSI and OSC', '\u009B2J\u009D0;t\u0007'],
		['soft hyphen', '\u00AD'],
		['bidi controls, marks and isolates', '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C'],
		['zero-width characters and BOM', '\u200B\u200C\u200D\u2060\uFEFF'],
		['tag characters', '\u{E0001}\u{E0020}\u{E0067}\u{E007F}'],
		['deprecated format characters', '\u206A\u206B\u206C\u206D\u206E\u206F'],
		['interlinear annotations', '\uFFF9\uFFFA\uFFFB'],
		['Mongolian vowel separator and free variation selectors', '\u180E\u180B\u180F'],
		['Hangul fillers', '\u115F\u1160\u3164\uFFA0'],
		['combining grapheme joiner', '\u034F'],
		['reserved default-ignorable code points', '\u2065\u{E0080}\u{E0FFF}'],
		['other format characters (Arabic, shorthand, musical)', '\u0600\u06DD\u{1BCA0}\u{1D173}'],
		['variation selectors standing alone', ' \uFE0F \u{E0100}'],
		['line and paragraph separators', '\u2028\u2029'],
		['CR, tab and newline', '\r\t\n'],
		['lone surrogates', '\uD83D \uDE00'],
	];

	it.each(categories)('stores %s exactly as the sanitizer does, in values and keys', (_name, characters) => {
		for (const text of [`名${characters}前`, `é${characters}`, `${characters}✔`, `名前 ${characters}`.repeat(2000)]) {
			expect(sanitizeRaw(text), JSON.stringify(text.slice(0, 40))).toBe(sanitizeText(text, 16_384));
			expect(Object.keys(sanitizeRaw({[text]: 1}) as object)).toEqual([sanitizeText(text, 16_384)]);
		}
	});

	it('stores every code point, between non-ASCII letters, exactly as the sanitizer does', () => {
		const wrong: string[] = [];
		for (let cp = 0; cp <= 0x10_ff_ff; cp++) {
			const text = `é${String.fromCodePoint(cp)}é`;
			if (sanitizeRaw(text) !== sanitizeText(text, 16_384)) {
				wrong.push(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
			}
		}

		expect(wrong).toEqual([]);
	});

	it('drops one cut last line (a crash while writing it), and only that', () => {
		const whole = text();
		const cut = whole.slice(0, whole.length - 12);
		const recording = parseRecording(cut, 'rec.ndjson');
		expect(recording.truncated).toBe(true);
		expect(recording.entries).toHaveLength(events.length - 1);
		// A whole last line without its newline is kept.
		expect(parseRecording(whole.trimEnd(), 'rec.ndjson').entries).toHaveLength(events.length);
		// The same cut in the middle is an error with its line number.
		const lines = whole.split('\n');
		lines[3] = lines[3]!.slice(0, 20);
		expect(errorOf(lines.join('\n'))).toMatch(/^rec\.ndjson: line 4: invalid JSON/);
	});

	it.each([
		['an empty file', '', 'line 1: not a planwatch recording (empty file)'],
		['YAML', 'apiVersion: v1\n', 'line 1: not a planwatch recording (the first line is not JSON)'],
		['another JSON file', '{"kind":"List"}\n', 'line 1: not a planwatch recording (the first line is not a recording header)'],
		['a future format', '{"recording":"planwatch/9","start":"2026-11-30T11:00:00Z","source":"demo"}\n', 'line 1: recording format planwatch/9 is not supported'],
		['a header without start', '{"recording":"planwatch/1","source":"demo"}\n', 'line 1: header: start is not a time'],
		['an entry that is not an object', `${header}[1,2]\n`, 'line 2: not a JSON object'],
		['an entry without a time', `${header}{"type":"synced"}\n`, 'line 2: "at" is not a time'],
		['an unknown type', `${header}{"at":"2026-11-30T11:00:01Z","type":"exec","cmd":"rm"}\n`, 'line 2: unknown entry type "exec"'],
		['an unknown resource', `${header}{"at":"2026-11-30T11:00:01Z","type":"upsert","resource":"Secret","object":{}}\n`, 'line 2: unknown resource "Secret"'],
		['an object that is a string', `${header}{"at":"2026-11-30T11:00:01Z","type":"upsert","resource":"Instance","object":"x"}\n`, 'line 2: object is not a Kubernetes object'],
		['replace without objects', `${header}{"at":"2026-11-30T11:00:01Z","type":"replace","resource":"Instance"}\n`, 'line 2: replace without a list of objects'],
		['an unknown connection', `${header}{"at":"2026-11-30T11:00:01Z","type":"connection","state":{"status":"hacked"}}\n`, 'line 2: unknown connection status "hacked"'],
		['escape sequences in a message', `${header}{"at":"2026-11-30T11:00:01Z","type":"exec\\u001b]0;x\\u0007"}\n`, 'line 2: unknown entry type "exec"'],
	])('rejects %s with one line naming the line', (_name, body, message) => {
		expect(errorOf(body)).toContain(`rec.ndjson: ${message}`);
		expect(errorOf(body)).not.toContain('\n');
	});

	it('bounds nesting, object size and objects per line', () => {
		const deep = '['.repeat(200_000) + ']'.repeat(200_000);
		expect(errorOf(`${header}{"at":"2026-11-30T11:00:01Z","type":"upsert","resource":"Instance","object":{"x":${deep}}}\n`)).toMatch(/line 2: nested deeper than 64 levels/);
		const big = 'x'.repeat(recordingLimits.maxObjectLineChars);
		expect(errorOf(`${header}{"at":"2026-11-30T11:00:01Z","type":"upsert","resource":"Instance","object":{"x":"${big}"}}\n`)).toMatch(/line 2: object larger than 3 MiB/);
		const many = Array.from({length: recordingLimits.maxObjectsPerLine + 1}, () => '{}').join(',');
		expect(errorOf(`${header}{"at":"2026-11-30T11:00:01Z","type":"replace","resource":"Event","objects":[${many}]}\n`)).toMatch(/line 2: more than 100000 objects in one line/);
	});

	it('keeps the written order when the wall clock stepped back a little (up to 1 s)', () => {
		const recording = parseRecording(text([[1500, {type: 'synced'}], [600, {type: 'synced'}]]), 'r');
		expect(recording.entries.map(e => e.at - start)).toEqual([1500, 1500]);
	});

	it('refuses times that go further back, naming the line (played in file order every transition would take 0s)', () => {
		expect(errorOf(text([[5000, {type: 'synced'}], [6000, {type: 'synced'}], [2000, {type: 'synced'}]]))).toBe(
			'rec.ndjson: line 4: time goes backwards: 2026-11-30T11:00:02.000Z is before line 3 (2026-11-30T11:00:06.000Z); a recording\'s lines are in the order they were received',
		);
		expect(errorOf(text([[-60_000, {type: 'synced'}]]))).toBe(
			"rec.ndjson: line 2: time goes backwards: 2026-11-30T10:59:00.000Z is before the recording's start (2026-11-30T11:00:00.000Z); a recording's lines are in the order they were received",
		);
	});

	it('folds entries into the objects present at a moment', () => {
		const {entries} = parseRecording(text(), 'r');
		const names = (at?: number) => (stateAt(entries, at === undefined ? undefined : start + at).get('Instance') ?? []).map(o =>
			`${o.metadata?.name}:${(o['status'] as {planStatus: {deploy: {status: string}}}).planStatus.deploy.status}`);
		expect(names(5)).toEqual([]);
		expect(names(20)).toEqual(['mysql:PENDING', 'kafka:COMPLETE']);
		expect(names(1500)).toEqual(['mysql:IN_PROGRESS', 'kafka:COMPLETE']);
		expect(names()).toEqual(['mysql:IN_PROGRESS']);
	});

	it('finds the transition before and after a moment', () => {
		const marks = [10, 20, 30];
		expect(nextMark(marks, 5)).toBe(10);
		expect(nextMark(marks, 10)).toBe(20);
		expect(nextMark(marks, 30)).toBeUndefined();
		expect(previousMark(marks, 30)).toBe(20);
		expect(previousMark(marks, 25)).toBe(20);
		expect(previousMark(marks, 10)).toBeUndefined();
	});

	it.each([
		['2m', start + 120_000],
		['1h30m', start + 5_400_000],
		['0', start],
		['11:02:30', start + 150_000],
		['11:05', start + 300_000],
		['2026-11-30T11:02:00Z', start + 120_000],
		['25:00', undefined],
		['yesterday', undefined],
		['-2m', undefined],
	])('--from %s', (from, want) => {
		expect(resolveFrom(from, start, parseDuration, 'UTC')).toBe(want);
	});
});

describe('SourceEvent coverage', () => {
	it('encodes every source event type', () => {
		const all: SourceEvent['type'][] = ['upsert', 'delete', 'replace', 'synced', 'connection', 'missing', 'fatal'];
		expect(new Set(events.map(([, e]) => e.type))).toEqual(new Set([...all, 'end']));
	});
});
