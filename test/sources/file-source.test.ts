import {describe, expect, it} from 'vitest';
import type {SourceEvent} from '../../source/state/object-source.js';
import {InputError} from '../../source/core/errors.js';
import {FileSource, parseObjects, processReader, readInputs, type InputReader} from '../../source/sources/file-source.js';
import {fixturesDir} from '../helpers/fixtures.js';

const instance = `apiVersion: kudo.dev/v1beta1
kind: Instance
metadata:
  name: mysql-instance
  namespace: default
  creationTimestamp: "2021-06-10T09:14:02Z"
spec: {operatorVersion: {name: mysql-5.7-0.3.0}}
`;

const actionSet = `apiVersion: cr.kanister.io/v1alpha1
kind: ActionSet
metadata: {name: backup-x, namespace: kanister}
`;

/** A reader over in-memory files; missing ones fail like the file system does. */
function memoryReader(files: Record<string, string>, stdin = ''): InputReader & {stdinReads: number} {
	const reader = {
		stdinReads: 0,
		async *chunks(path: string) {
			if (path === '-') {
				reader.stdinReads++;
				yield stdin;
				return;
			}

			if (!(path in files)) {
				throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), {code: 'ENOENT'});
			}

			yield files[path]!;
		},
	};
	return reader;
}

async function inputError(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return (error as Error).message;
	}

	throw new Error('expected an InputError');
}

describe('parseObjects', () => {
	it('reads every document, skipping empty and scalar ones', () => {
		const objects = parseObjects(`---\n${instance}---\n---\njust text\n---\n${actionSet}...\n`, 'x.yaml');
		expect(objects.map(o => o.kind)).toEqual(['Instance', 'ActionSet']);
	});

	it('flattens kind: List and typed lists whose items carry no kind', () => {
		const list = `apiVersion: v1
kind: List
items:
- ${instance.trimEnd().replaceAll('\n', '\n  ')}
---
apiVersion: v1
kind: EventList
items:
- metadata: {name: e1, namespace: default}
  involvedObject: {kind: Instance, name: mysql-instance}
  reason: PlanStarted
`;
		const objects = parseObjects(list, 'x.yaml');
		expect(objects.map(o => `${o.apiVersion} ${o.kind} ${o.metadata?.name}`)).toEqual(['kudo.dev/v1beta1 Instance mysql-instance', 'v1 Event e1']);
	});

	it('reads JSON, including kubectl get -o json lists', () => {
		const json = JSON.stringify({apiVersion: 'v1', kind: 'List', items: [{apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet', metadata: {name: 'a', namespace: 'k'}}]}, undefined, '\t');
		expect(parseObjects(json, 'x.json')).toEqual([{apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet', metadata: {name: 'a', namespace: 'k'}}]);
	});

	it('gives metadata times back as the RFC 3339 strings the API server sends', () => {
		const [o] = parseObjects(instance, 'x.yaml');
		expect(o!.metadata!.creationTimestamp).toBe('2021-06-10T09:14:02Z');
	});

	it('names the file and line of malformed YAML', () => {
		expect(() => parseObjects('kind: Instance\nmetadata:\n  name: [a\n', 'x.yaml')).toThrow(/^x\.yaml: invalid YAML at line \d+: /);
		expect(() => parseObjects('a: 1\n  b: 2\n', 'bad.yaml')).toThrow('bad.yaml: invalid YAML at line 2: bad indentation of a mapping entry');
		// In a stream with an empty document (parsed document by document) the line still counts from the file's top.
		expect(() => parseObjects('---\n---\na: 1\n---\nb: 1\n  c: 2\n', 'x.yaml')).toThrow('x.yaml: invalid YAML at line 6: bad indentation of a mapping entry');
	});
});

describe('readInputs', () => {
	it('reads files and stdin in order', async () => {
		const reader = memoryReader({'a.yaml': instance}, actionSet);
		const objects = await readInputs(['a.yaml', '-'], reader);
		expect(objects.map(o => o.metadata?.name)).toEqual(['mysql-instance', 'backup-x']);
		expect(reader.stdinReads).toBe(1);
	});

	it('ignores kinds planwatch does not read', async () => {
		const objects = await readInputs(['a.yaml'], memoryReader({'a.yaml': `${instance}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n`}));
		expect(objects.map(o => o.kind)).toEqual(['Instance']);
	});

	it('accepts supporting objects in their own files', async () => {
		const ov = 'apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nmetadata: {name: mysql-5.7-0.3.0, namespace: default}\n';
		const objects = await readInputs(['i.yaml', 'ov.yaml'], memoryReader({'i.yaml': instance, 'ov.yaml': ov}));
		expect(objects.map(o => o.kind)).toEqual(['Instance', 'OperatorVersion']);
	});

	it('says which file cannot be read', async () => {
		expect(await inputError(readInputs(['a.yaml', 'x.yaml'], memoryReader({'a.yaml': instance})))).toBe('cannot read x.yaml: no such file');
		expect(await inputError(readInputs(['/nonexistent/x.yaml'], processReader))).toBe('cannot read /nonexistent/x.yaml: no such file');
		expect(await inputError(readInputs([fixturesDir], processReader))).toBe(`cannot read ${fixturesDir}: is a directory`);
	});

	it('rejects a file with nothing planwatch reads, and input without any Instance or ActionSet', async () => {
		const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n';
		const ov = 'apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nmetadata: {name: ov}\n';
		expect(await inputError(readInputs(['a.yaml', 'cm.yaml'], memoryReader({'a.yaml': instance, 'cm.yaml': configMap})))).toBe(
			'cm.yaml: no KUDO Instance or Kanister ActionSet found',
		);
		expect(await inputError(readInputs(['-'], memoryReader({}, '')))).toBe('stdin: no KUDO Instance or Kanister ActionSet found');
		expect(await inputError(readInputs(['ov.yaml'], memoryReader({'ov.yaml': ov})))).toBe('ov.yaml: no KUDO Instance or Kanister ActionSet found');
		expect(await inputError(readInputs(['ov.yaml', 'ov2.yaml'], memoryReader({'ov.yaml': ov, 'ov2.yaml': ov})))).toBe(
			'no KUDO Instance or Kanister ActionSet found in ov.yaml, ov2.yaml',
		);
	});

	it('reports malformed YAML from stdin by that name', async () => {
		expect(await inputError(readInputs(['-'], memoryReader({}, 'a: [')))).toMatch(/^stdin: invalid YAML at line 1: /);
	});

	it('keeps control characters of a file name out of messages', async () => {
		expect(await inputError(readInputs(['\u001B]0;pwned\u0007x.yaml'], memoryReader({})))).toBe('cannot read x.yaml: no such file');
	});
});

describe('FileSource', () => {
	it('emits a static connection, one replace per resource (supporting kinds first), then synced', () => {
		const objects = parseObjects(`${instance}---\n${actionSet}---\napiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nmetadata: {name: ov, namespace: default}\n`, 'x');
		const source = new FileSource(objects);
		const events: SourceEvent[] = [];
		source.start(e => events.push(e));
		expect(events.map(e => (e.type === 'replace' ? `replace ${e.resource} ${e.objects.length}` : e.type))).toEqual([
			'connection',
			'replace OperatorVersion 1',
			'replace Blueprint 0',
			'replace Event 0',
			'replace Instance 1',
			'replace ActionSet 1',
			'synced',
		]);
		expect(events[0]).toEqual({type: 'connection', state: {status: 'static', label: 'file'}});
		expect(source.label).toBe('file');
		expect(source.scope).toBe('default, kanister');
	});
});
