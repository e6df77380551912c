/**
 * `-f FILE|-`: objects read once from YAML/JSON files or stdin, offered through the same ObjectSource interface
 * as a cluster, so plain, json and the TUI all draw from one store. Reading is bounded (bounded-input.ts: chunks,
 * binary refused, the whole input capped); parsing streams document by document and item by item
 * (object-stream.ts). A recording made with --record is read too: the objects present at its end.
 * Every problem with the input is an InputError (RecordingError for a recording): one line naming the file, exit 2.
 */
import {resourceOf, type KubeObject, type ResourceKind} from '../core/kube-object.js';
import {type ObjectSource, type SourceSink} from '../state/object-source.js';
import {InputError} from '../core/errors.js';
import {looksLikeRecording, RecordingParser, stateAt} from '../recording/recording.js';
import {inputName, processReader, textChunks, type InputReader} from './bounded-input.js';
import {ObjectStream, type StreamLimits} from './object-stream.js';
import {readRecordingLines} from './recording-input.js';
import {newestRecordedTime} from '../model/as-of.js';

export {inputName, processReader, type InputReader} from './bounded-input.js';

/**
 * Every object in one file's text, Lists flattened, YAML dates turned back into the strings the API server
 * sends. Non-object documents (scalars, empty documents) are skipped. Throws InputError on malformed input.
 */
export function parseObjects(text: string, name: string, limits?: StreamLimits): KubeObject[] {
	const objects: KubeObject[] = [];
	const stream = new ObjectStream(name, o => objects.push(o), limits);
	stream.push(text);
	stream.end();
	return objects;
}

/** An object's identity in one run's input: the same object given twice (or a thousand times) is kept once, the last. */
function keyOf(resource: ResourceKind, o: KubeObject): string {
	return `${resource}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

/** One input's objects of the kinds planwatch reads, into `into`; throws InputError. */
async function readInput(path: string, reader: InputReader, into: Map<string, KubeObject>, limits?: StreamLimits): Promise<number> {
	const name = inputName(path);
	let found = 0;
	const keep = (o: KubeObject): void => {
		const resource = resourceOf(o);
		if (resource !== undefined) {
			found++;
			const key = keyOf(resource, o);
			// Delete first: the last copy takes the last place, as a later document would in a cluster.
			into.delete(key);
			into.set(key, o);
		}
	};

	const chunks = textChunks(path, reader);
	// A recording is told by its first line: gather enough of the start to see it.
	let head = '';
	let next = await chunks.next();
	while (!next.done && head.length + next.value.length < 200) {
		head += next.value;
		next = await chunks.next();
	}

	const first = head + (next.done ? '' : next.value);
	if (looksLikeRecording(first)) {
		const rest = (async function* () {
			yield first;
			yield* chunks;
		})();
		const recording = await readRecordingLines(rest, new RecordingParser(name));
		for (const objects of stateAt(recording.entries).values()) {
			for (const o of objects) {
				keep(o);
			}
		}

		return found;
	}

	const stream = new ObjectStream(name, keep, limits);
	stream.push(first);
	for await (const text of chunks) {
		stream.push(text);
	}

	stream.end();
	return found;
}

/** The objects planwatch uses, from every input in order; throws InputError. */
export async function readInputs(
	paths: readonly string[],
	reader: InputReader = processReader,
	limits?: StreamLimits,
): Promise<KubeObject[]> {
	const all = new Map<string, KubeObject>();
	for (const path of paths) {
		// A file that holds nothing planwatch reads is most likely the wrong file.
		if ((await readInput(path, reader, all, limits)) === 0) {
			throw new InputError(`${inputName(path)}: no KUDO Instance or Kanister ActionSet found`);
		}
	}

	const objects = [...all.values()];
	if (!objects.some(o => isPlanObject(o))) {
		const names = paths.map(p => inputName(p));
		throw new InputError(
			names.length === 1
				? `${names[0]!}: no KUDO Instance or Kanister ActionSet found`
				: `no KUDO Instance or Kanister ActionSet found in ${names.join(', ')}`,
		);
	}

	return objects;
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
	readonly frozen: {readonly recordedAt?: number};
	#objects: readonly KubeObject[];

	constructor(objects: readonly KubeObject[]) {
		this.#objects = objects;
		const recordedAt = newestRecordedTime(objects);
		this.frozen = recordedAt === undefined ? {} : {recordedAt};
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
