/**
 * `-f FILE|-`: objects read once from YAML/JSON files or stdin, offered through the same ObjectSource interface
 * as a cluster, so plain, json and the TUI all draw from one store. Parsing uses client-node's `loadAllYaml`
 * (multi-document; JSON is YAML); `kind: List` and typed `…List` documents are flattened into their items.
 * A recording made with --record is read too: the objects present at its end.
 * Every problem with the input is an InputError (RecordingError for a recording): one line naming the file, exit 2.
 */
import {readFile} from 'node:fs/promises';
import {loadAllYaml} from '@kubernetes/client-node';
import {resourceOf, type KubeObject, type ObjectSource, type ResourceKind, type SourceSink} from '../kube/object-source.js';
import {looksLikeRecording, parseRecording, stateAt} from '../model/recording.js';
import {sanitizeLine} from '../model/sanitize.js';

/** Bad input (unreadable file, malformed YAML, nothing to show): one line, exit 2. */
export class InputError extends Error {
	readonly exitCode = 2;

	constructor(message: string) {
		super(message);
		this.name = 'InputError';
	}
}

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
	return documents(text, name).flatMap(doc => flatten(doc));
}

function documents(text: string, name: string): unknown[] {
	try {
		return loadAllYaml(text) as unknown[];
	} catch (error) {
		if (isYamlError(error)) {
			throw yamlInputError(error, name, 0);
		}

		// client-node's loadAllYaml dereferences every document, so an empty document (`---` twice, or `null`)
		// throws a TypeError. Parse document by document and skip the empty ones.
	}

	return splitDocuments(text).flatMap(({text: chunk, firstLine}) => {
		try {
			return loadAllYaml(chunk) as unknown[];
		} catch (error) {
			if (isYamlError(error)) {
				throw yamlInputError(error, name, firstLine);
			}

			return [];
		}
	});
}

/**
 * Split a YAML stream at document markers (`---` / `...` at the start of a line, which YAML forbids inside
 * content), keeping line numbers for messages.
 */
function splitDocuments(text: string): Array<{text: string; firstLine: number}> {
	const lines = text.split('\n');
	const out: Array<{text: string; firstLine: number}> = [];
	let start = 0;
	const flush = (end: number): void => {
		out.push({text: lines.slice(start, end).join('\n'), firstLine: start});
	};

	lines.forEach((line, i) => {
		if (i > start && /^---(?:\s|$)/.test(line)) {
			flush(i);
			start = i;
		} else if (/^\.\.\.(?:\s|$)/.test(line)) {
			flush(i);
			start = i + 1;
		}
	});
	flush(lines.length);
	return out;
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

/** loadAllYaml turns metadata times into Date objects; the cluster sends RFC 3339 strings. Make them agree. */
function normalize(value: unknown): unknown {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? '' : value.toISOString().replace('.000Z', 'Z');
	}

	if (Array.isArray(value)) {
		return value.map(v => normalize(v));
	}

	if (isObject(value)) {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
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
	readonly #objects: readonly KubeObject[];

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
