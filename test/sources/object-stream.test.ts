/**
 * The streaming parser behind `-f`: Lists are read item by item (JSON always, kubectl's YAML block List once a
 * document passes the document limit), every unit of text is capped, tags are data.
 */
import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {InputError} from '../../source/core/errors.js';
import {ObjectStream} from '../../source/sources/object-stream.js';
import {parseObjects} from '../../source/sources/file-source.js';

const instance = (i: number): Record<string, unknown> => ({
	apiVersion: 'kudo.dev/v1beta1',
	kind: 'Instance',
	metadata: {name: `mysql-${i}`, namespace: 'default', labels: {n: String(i)}},
	spec: {operatorVersion: {name: 'mysql-5.7-0.3.0'}},
});

/** kubectl get -o json: a List, keys sorted, four-space indentation. */
function jsonList(count: number): string {
	return `${JSON.stringify({apiVersion: 'v1', items: Array.from({length: count}, (_, i) => instance(i)), kind: 'List', metadata: {resourceVersion: ''}}, undefined, 4)}\n`;
}

/** kubectl get -o yaml: a block List, items not indented under `items:`. */
function yamlList(count: number): string {
	const item = (i: number) => [
		'- apiVersion: kudo.dev/v1beta1',
		'  kind: Instance',
		'  metadata:',
		`    name: mysql-${i}`,
		'    namespace: default',
		'    annotations:',
		'      note: |',
		'        a block scalar',
		'',
		'        with a blank line',
		'  spec:',
		'    operatorVersion: {name: mysql-5.7-0.3.0}',
	].join('\n');
	return `apiVersion: v1\nitems:\n${Array.from({length: count}, (_, i) => item(i)).join('\n')}\nkind: List\nmetadata:\n  resourceVersion: ""\n`;
}

function collect(limits?: {maxDocumentBytes: number; maxDepth: number}): {stream: ObjectStream; objects: KubeObject[]} {
	const objects: KubeObject[] = [];
	return {stream: new ObjectStream('x', o => objects.push(o), limits), objects};
}

function message(run: () => void): string {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return (error as Error).message;
	}

	throw new Error('expected an InputError');
}

describe('a JSON List', () => {
	it('hands on each item as soon as its text is complete, before the List ends', () => {
		const text = jsonList(100);
		const {stream, objects} = collect();
		stream.push(text.slice(0, text.length / 2));
		expect(objects.length).toBeGreaterThan(40);
		expect(objects.length).toBeLessThan(100);
		stream.push(text.slice(text.length / 2));
		stream.end();
		expect(objects.map(o => o.metadata?.name)).toEqual(Array.from({length: 100}, (_, i) => `mysql-${i}`));
	});

	it('gives the same objects whatever the chunks, one character at a time included', () => {
		const text = jsonList(3);
		const {stream, objects} = collect();
		for (const c of text) {
			stream.push(c);
		}

		stream.end();
		expect(objects).toEqual(parseObjects(text, 'x'));
		expect(objects).toEqual([instance(0), instance(1), instance(2)]);
	});

	it('is bounded per item, not per document: a List far past the document limit is read', () => {
		const text = jsonList(2000);
		expect(text.length).toBeGreaterThan(100 * 1024);
		expect(parseObjects(text, 'x', {maxDocumentBytes: 4096, maxDepth: 100})).toHaveLength(2000);
	});

	it('refuses an item past the limit, naming it and the line', () => {
		const big = JSON.stringify({apiVersion: 'v1', kind: 'List', items: [instance(0), {...instance(1), data: 'x'.repeat(10_000)}]});
		expect(message(() => parseObjects(big, 'x', {maxDocumentBytes: 4096, maxDepth: 100}))).toBe('x: line 1: an item of the List larger than 4 KiB');
	});

	it('fills in the kind of a typed list, known only after its items', () => {
		const text = JSON.stringify({apiVersion: 'kudo.dev/v1beta1', items: [{metadata: {name: 'a'}}], kind: 'InstanceList'});
		expect(parseObjects(text, 'x')).toEqual([{apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'a'}}]);
	});

	it('reads JSON documents one after another, with or without ---, and plain objects', () => {
		const text = `${JSON.stringify(instance(0))}\n${JSON.stringify(instance(1))}\n---\n${JSON.stringify(instance(2))}\n---\nkind: Instance\nmetadata: {name: y}\n`;
		expect(parseObjects(text, 'x').map(o => o.metadata?.name)).toEqual(['mysql-0', 'mysql-1', 'mysql-2', 'y']);
	});

	it('names the line of malformed JSON and bounds its nesting', () => {
		expect(message(() => parseObjects('{\n  "items": [\n    {"a": 1,}\n  ]\n}\n', 'x'))).toMatch(/^x: line 3: invalid JSON \(/);
		expect(message(() => parseObjects(`{"a": ${'['.repeat(200)}${']'.repeat(200)}}`, 'x'))).toBe('x: line 1: invalid JSON: nested deeper than 100 levels');
		expect(message(() => parseObjects('{"items": [{"a": 1}', 'x'))).toMatch(/^x: line 1: invalid JSON: the document ends early/);
	});
});

describe('a YAML document', () => {
	it('past the limit is refused, naming the limit, while its text arrives', () => {
		const {stream} = collect({maxDocumentBytes: 1024, maxDepth: 100});
		expect(message(() => {
			for (let i = 0; i < 300; i++) {
				stream.push('a: b\n'.repeat(20));
			}
		})).toBe('x: line 1: a YAML document larger than 1 KiB (split it into documents with ---)');
	});

	it('that is kubectl\'s block List is read item by item past the limit, with the same objects as parsed whole', () => {
		const text = yamlList(300);
		expect(text.length).toBeGreaterThan(20 * 1024);
		const whole = parseObjects(text, 'x');
		const streamed = parseObjects(`---\n${text}---\n${JSON.stringify(instance(7))}\n`, 'x', {maxDocumentBytes: 4096, maxDepth: 100});
		expect(streamed).toEqual([...whole, instance(7)]);
		expect(streamed[299]!.metadata?.annotations).toEqual({note: 'a block scalar\n\nwith a blank line\n'});
	});

	it('of a streamed List names the file line of an error in an item', () => {
		const text = yamlList(300).replace('    name: mysql-250', '    name: [mysql-250');
		expect(message(() => parseObjects(text, 'x', {maxDocumentBytes: 4096, maxDepth: 100}))).toMatch(/^x: invalid YAML at line 30\d\d: /);
	});
});

describe('YAML tags', () => {
	it('accepts !!timestamp and !!binary as data, as kubectl does', () => {
		const [o] = parseObjects('kind: Instance\nmetadata:\n  name: a\n  creationTimestamp: !!timestamp 2021-06-10T09:14:02Z\n  annotations:\n    b: !!binary aGVsbG8=\n    plain: 2021-06-10\n', 'x');
		expect(o!.metadata).toEqual({name: 'a', creationTimestamp: '2021-06-10T09:14:02Z', annotations: {b: 'hello', plain: '2021-06-10'}});
	});

	it('refuses every other tag that is not core YAML', () => {
		for (const tag of ['!!js/function', '!!js/undefined', '!!python/object:os.system', '!custom', '!!set', '!!omap']) {
			expect(message(() => parseObjects(`kind: Instance\nmetadata: {name: a}\nx: ${tag} "y"\n`, 'x'))).toMatch(/^x: invalid YAML at line 3: unknown (?:scalar )?tag/);
		}
	});
});

it('holds one item per name while a typed List\'s kind is not known yet: an endless run of {} costs one', () => {
	const {stream, objects} = collect();
	stream.push('{"apiVersion": "kudo.dev/v1beta1", "items": [');
	for (let i = 0; i < 2000; i++) {
		stream.push('{}, {"metadata": {"name": "a"}}, ');
	}

	stream.push('{"metadata": {"name": "a", "labels": {"last": "yes"}}}], "kind": "InstanceList"}');
	stream.end();
	expect(objects).toEqual([
		{apiVersion: 'kudo.dev/v1beta1', kind: 'Instance'},
		{apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'a', labels: {last: 'yes'}}},
	]);
});

describe('a YAML document fed in chunks', () => {
	const doc = (i: number): string => `apiVersion: kudo.dev/v1beta1\nkind: Instance\nmetadata:\n  name: mysql-${i}\n  namespace: default\n`;

	it.each([
		['whole in one chunk', ['---\n', `${doc(1)}---\n${doc(2)}`]],
		['the marker split between chunks', ['---\n', `${doc(1)}-`, '-', `-\n${doc(2)}`]],
		['the end marker split between chunks', ['---\n', `${doc(1)}.`, '..\n', doc(2)]],
	])('a document is emitted as soon as the next marker arrives, before the input ends (%s)', (_label, chunks) => {
		const names: string[] = [];
		const stream = new ObjectStream('stdin', object => names.push(String(object.metadata?.name)));
		for (const chunk of chunks) {
			stream.push(chunk);
		}

		expect(names).toEqual(['mysql-1']);
		stream.end();
		expect(names).toEqual(['mysql-1', 'mysql-2']);
	});

	it('text held back between markers still counts toward the document limit and its line numbers', () => {
		const stream = new ObjectStream('stdin', () => {}, {maxDocumentBytes: 1024, maxDepth: 100});
		stream.push('---\n');
		expect(() => {
			for (let i = 0; i < 300; i++) {
				stream.push('a: b\n');
			}
		}).toThrow('stdin: line 2: a YAML document larger than 1 KiB (split it into documents with ---)');
	});
});
