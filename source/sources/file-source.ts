/**
 * `-f FILE|-`: objects read once from YAML/JSON files or stdin, offered through the same ObjectSource interface
 * as a cluster, so plain, json and the TUI all draw from one store. Parsing is yaml-input.ts (multi-document,
 * JSON is YAML, aliases bounded); `kind: List` and typed `…List` documents are flattened into their items.
 * A recording made with --record is read too: the objects present at its end.
 * Every problem with the input is an InputError (RecordingError for a recording): one line naming the file, exit 2.
 */
import {readFile} from 'node:fs/promises';
import {resourceOf, type KubeObject, type ResourceKind} from '../core/kube-object.js';
import {type ObjectSource, type SourceSink} from '../state/object-source.js';
import {InputError} from '../core/errors.js';
import {looksLikeRecording, parseRecording, stateAt} from '../recording/recording.js';
import {sanitizeLine} from '../model/sanitize.js';
import {ExpansionLimitError, loadYamlDocuments} from './yaml-input.js';

/** How files and stdin are read; injected by tests. */
export type InputReader = {
	readFile(path: string): Promise<string>;
	readStdin(): Promise<string>;
};

export const processReader: InputReader = {
	readFile: async path => readFile(path, 'utf8'),
	async readStdin() {
		const chunks: Buffer[] = [];
		for await (const chunk of process.stdin) {
			chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
		}

		return Buffer.concat(chunks).toString('utf8');
	},
};

/** What the user called the input, for messages. */
export function inputName(path: string): string {
	return path === '-' ? 'stdin' : sanitizeLine(path, 200);
}

const readErrors: Record<string, string> = {
	ENOENT: 'no such file',
	EACCES: 'permission denied',
	EPERM: 'permission denied',
	EISDIR: 'is a directory',
	ENOTDIR: 'not a directory',
	ELOOP: 'too many symbolic links',
	EMFILE: 'too many open files',
};

/**
 * Every object in one file's text, Lists flattened, YAML dates turned back into the strings the API server
 * sends. Non-object documents (scalars, empty documents) are skipped. Throws InputError on malformed input.
 */
export function parseObjects(text: string, name: string): KubeObject[] {
	// Document by document: a YAML parser's scratch memory then dies young with each document instead of piling up
	// over the whole stream (15 MB of 10 000 Instances: parse peak 451 → about 260 MB RSS).
	const objects: KubeObject[] = [];
	for (const chunk of documentChunks(text)) {
		for (const doc of documents(chunk.text, name, chunk.firstLine)) {
			for (const object of flatten(doc)) {
				objects.push(object);
			}
		}
	}

	return objects;
}

/**
 * The stream's documents as text, split at document markers (`---` / `...` at the start of a line, which YAML
 * forbids inside content), with the line each starts on for messages. A scan, not a split into lines: a 15 MB
 * stream would otherwise make half a million line strings first.
 */
function documentChunks(text: string): Array<{text: string; firstLine: number}> {
	const out: Array<{text: string; firstLine: number}> = [];
	const marker = /^(?:---|\.\.\.)(?:[ \t\r]|$)/gm;
	let start = 0;
	let startLine = 0;
	let line = 0;
	let counted = 0;
	const lineAt = (index: number): number => {
		for (let i = text.indexOf('\n', counted); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
			line++;
			counted = i + 1;
		}

		counted = Math.max(counted, index);
		return line;
	};

	for (let m = marker.exec(text); m; m = marker.exec(text)) {
		const at = lineAt(m.index);
		if (m[0].startsWith('---')) {
			if (m.index > start) {
				out.push({text: text.slice(start, m.index), firstLine: startLine});
			}

			start = m.index;
			startLine = at;
		} else {
			out.push({text: text.slice(start, m.index), firstLine: startLine});
			const next = text.indexOf('\n', m.index);
			start = next === -1 ? text.length : next + 1;
			startLine = at + 1;
		}
	}

	if (start < text.length || out.length === 0) {
		out.push({text: text.slice(start), firstLine: startLine});
	}

	return out;
}

/** One document's text (from documentChunks) → its value; an empty document gives none. */
function documents(text: string, name: string, firstLine: number): unknown[] {
	try {
		return loadYamlDocuments(text);
	} catch (error) {
		if (error instanceof ExpansionLimitError) {
			throw new InputError(`${name}: rejected: ${error.message}`);
		}

		if (isYamlError(error)) {
			throw yamlInputError(error, name, firstLine);
		}

		throw error;
	}
}

type YamlError = Error & {reason?: string; mark?: {line?: number}};

function isYamlError(error: unknown): error is YamlError {
	return error instanceof Error && error.name === 'YAMLException';
}

function yamlInputError(error: YamlError, name: string, firstLine: number): InputError {
	const line = typeof error.mark?.line === 'number' ? ` at line ${firstLine + error.mark.line + 1}` : '';
	const reason = sanitizeLine(error.reason ?? error.message.split('\n')[0] ?? 'parse error', 200);
	return new InputError(`${name}: invalid YAML${line}: ${reason}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A List's items are objects; items of a typed list (`EventList`, as the API returns it) may lack kind. */
function flatten(doc: unknown): KubeObject[] {
	if (!isObject(doc)) {
		return [];
	}

	const object = normalize(doc) as KubeObject;
	const kind = typeof object.kind === 'string' ? object.kind : '';
	if (kind.endsWith('List') && Array.isArray(object['items'])) {
		const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
		return (object['items'] as unknown[]).flatMap(item => {
			if (!isObject(item)) {
				return [];
			}

			const o = item as KubeObject;
			return flatten(itemKind && o.kind === undefined ? {apiVersion: object.apiVersion, kind: itemKind, ...o} : o);
		});
	}

	return [object];
}

/**
 * A YAML loader with timestamps would turn metadata times into Date objects; the cluster sends RFC 3339 strings.
 * Make them agree, in place: the parsed document is ours, and a copy of every object of a big file would double
 * what is allocated.
 */
function normalize(value: unknown): unknown {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? '' : value.toISOString().replace('.000Z', 'Z');
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

/** A recording (`--record`) read as a file: the objects present at its end. Throws RecordingError (exit 2). */
function recordedObjects(text: string, name: string): KubeObject[] {
	return [...stateAt(parseRecording(text, name).entries).values()].flat();
}

/** The objects planwatch uses, from every input in order; throws InputError. */
export async function readInputs(paths: readonly string[], reader: InputReader = processReader): Promise<KubeObject[]> {
	const all: KubeObject[] = [];
	for (const path of paths) {
		const name = inputName(path);
		let text: string;
		try {
			text = path === '-' ? await reader.readStdin() : await reader.readFile(path);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code ?? '';
			throw new InputError(`cannot read ${name}: ${readErrors[code] ?? sanitizeLine((error as Error).message, 200)}`);
		}

		const objects = (looksLikeRecording(text) ? recordedObjects(text, name) : parseObjects(text, name)).filter(o => resourceOf(o) !== undefined);
		// A file that holds nothing planwatch reads is most likely the wrong file.
		if (objects.length === 0) {
			throw new InputError(`${name}: no KUDO Instance or Kanister ActionSet found`);
		}

		all.push(...objects);
	}

	if (!all.some(o => isPlanObject(o))) {
		const names = paths.map(p => inputName(p));
		throw new InputError(
			names.length === 1 ? `${names[0]!}: no KUDO Instance or Kanister ActionSet found` : `no KUDO Instance or Kanister ActionSet found in ${names.join(', ')}`,
		);
	}

	return all;
}

function isPlanObject(o: KubeObject): boolean {
	const r = resourceOf(o);
	return r === 'Instance' || r === 'ActionSet';
}

// Supporting objects first, so the first adaptation of an Instance/ActionSet already sees its
// OperatorVersion, Blueprint and events (no spurious transitions at load time).
const emitOrder: readonly ResourceKind[] = ['OperatorVersion', 'Blueprint', 'Event', 'Instance', 'ActionSet'];

/** Objects from files, already read: emits one `replace` per resource, then `synced`. Nothing to stop. */
export class FileSource implements ObjectSource {
	readonly label = 'file';
	readonly scope: string;
	#objects: readonly KubeObject[];

	constructor(objects: readonly KubeObject[]) {
		this.#objects = objects;
		const namespaces = [...new Set(objects.filter(o => isPlanObject(o)).map(o => o.metadata?.namespace ?? ''))].filter(Boolean).sort();
		this.scope = namespaces.length <= 3 ? namespaces.join(', ') : `${namespaces.length} namespaces`;
	}

	start(sink: SourceSink): void {
		sink({type: 'connection', state: {status: 'static', label: 'file'}});
		for (const resource of emitOrder) {
			sink({type: 'replace', resource, objects: this.#objects.filter(o => resourceOf(o) === resource)});
		}

		// The store has them now; keeping the raw objects here too would hold a big file's worth for the whole run.
		this.#objects = [];
		sink({type: 'synced'});
	}

	stop(): void {
		// Files were read before start(): nothing is open.
	}
}

/** Read every `-f` input and wrap the objects in a FileSource; throws InputError. */
export async function loadFileSource(paths: readonly string[], reader: InputReader = processReader): Promise<FileSource> {
	return new FileSource(await readInputs(paths, reader));
}
