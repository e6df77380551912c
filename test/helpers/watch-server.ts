/**
 * An in-process Kubernetes API double on 127.0.0.1 that speaks the list+watch protocol the way the real
 * apiserver does (shared/docs/real-apiserver.md §6): one global resourceVersion counter, LIST with the
 * collection RV, WATCH from an RV with newline-delimited JSON events (optionally split across chunks),
 * bookmarks on request, a history window that answers 410 (as an ERROR event or as HTTP 410), Status bodies
 * for 401/403/404, and knobs to close, cut or stall streams and to take the whole server down.
 * Modelled on client-go's FakeControllerSource: tests drive it, the real client-node talks to it.
 */
import {rmSync} from 'node:fs';
import {afterAll} from 'vitest';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type {AddressInfo, Socket} from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type ResourceDef = {
	readonly group: string;
	readonly version: string;
	readonly plural: string;
	readonly kind: string;
};

export const instances: ResourceDef = {group: 'kudo.dev', version: 'v1beta1', plural: 'instances', kind: 'Instance'};
export const operatorVersions: ResourceDef = {group: 'kudo.dev', version: 'v1beta1', plural: 'operatorversions', kind: 'OperatorVersion'};
export const actionSets: ResourceDef = {group: 'cr.kanister.io', version: 'v1alpha1', plural: 'actionsets', kind: 'ActionSet'};
export const blueprints: ResourceDef = {group: 'cr.kanister.io', version: 'v1alpha1', plural: 'blueprints', kind: 'Blueprint'};
export const events: ResourceDef = {group: '', version: 'v1', plural: 'events', kind: 'Event'};
export const allResources: readonly ResourceDef[] = [instances, operatorVersions, actionSets, blueprints, events];

export type StoredObject = {
	apiVersion: string;
	kind: string;
	metadata: {name: string; namespace: string; resourceVersion: string; uid: string; creationTimestamp: string; labels?: Record<string, string>; [key: string]: unknown};
	[key: string]: unknown;
};

export type RequestRecord = {
	readonly method: string;
	readonly path: string;
	readonly query: Readonly<Record<string, string>>;
	readonly watch: boolean;
	readonly plural?: string;
	readonly namespace?: string;
	readonly status: number;
};

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
type LogEntry = {rv: number; def: ResourceDef; type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: StoredObject};

type Filter = {namespace?: string; labelSelector?: string; fieldSelector?: string};

type OpenWatch = {
	readonly def: ResourceDef;
	readonly filter: Filter;
	readonly bookmarks: boolean;
	readonly response: http.ServerResponse;
	stalled: boolean;
	closed: boolean;
	timer?: NodeJS.Timeout;
};

/** An answer written as is: any status, content type and body; `truncate` drops the connection mid-body. */
export type RawAnswer = {readonly status: number; readonly body: string; readonly contentType?: string; readonly truncate?: boolean};

/** Writes a whole answer itself (an endless body, a gzip bomb); returns the status it sent, for the request log. */
export type CustomAnswer = (request: http.IncomingMessage, response: http.ServerResponse) => number;

/** An injected answer; status 0 = never answer. */
type Failure = {plural?: string; watch?: boolean; continued?: boolean; status: number; remaining: number; raw?: RawAnswer; custom?: CustomAnswer};

export type WatchServerOptions = {
	/** Resources the server serves (their CRDs are "installed"); the others answer 404. Default: all five. */
	readonly resources?: readonly ResourceDef[];
	/** Bearer token → user name. Default: `test-token` → `tester`. */
	readonly tokens?: Readonly<Record<string, string>>;
	/** Write every watch line in two chunks, splitting it in the middle (clients must reassemble). */
	readonly splitLines?: boolean;
	/** How a watch from a compacted resourceVersion is refused. Default `event` (what the watch cache does). */
	readonly expiredAs?: 'event' | 'status';
	/** Keep only the newest N changes (all resources together); older resourceVersions answer 410. */
	readonly historyLimit?: number;
	/** Serve https with this key and certificate (PEM) instead of plain http. */
	/** `requireClientCertificate`: refuse clients without one during the handshake (TLS 1.2, where that is an alert). */
	readonly tls?: {readonly key: string | Buffer; readonly cert: string | Buffer; readonly requireClientCertificate?: boolean};
};

function status(code: number, reason: string, message: string): Record<string, unknown> {
	return {kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code};
}

function apiVersionOf(def: ResourceDef): string {
	return def.group ? `${def.group}/${def.version}` : def.version;
}

function qualified(def: ResourceDef): string {
	return def.group ? `${def.plural}.${def.group}` : def.plural;
}

function valueAt(object: unknown, dotted: string): string | undefined {
	let current: unknown = object;
	for (const part of dotted.split('.')) {
		if (typeof current !== 'object' || current === null) {
			return undefined;
		}

		current = (current as Record<string, unknown>)[part];
	}

	return typeof current === 'string' ? current : undefined;
}

const supportedFields: Readonly<Record<string, readonly string[]>> = {
	'': ['metadata.name', 'metadata.namespace', 'involvedObject.name', 'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.uid', 'reason', 'type'],
	custom: ['metadata.name', 'metadata.namespace'],
};

/** Parses `a=b,c!=d` (field) or `a=b,c!=d,e,!f` (label) selectors; returns an error text for unsupported ones. */
function selectorError(def: ResourceDef, filter: Filter): string | undefined {
	const allowed = supportedFields[def.group === '' ? '' : 'custom']!;
	for (const term of (filter.fieldSelector ?? '').split(',').filter(Boolean)) {
		const field = term.split(/!?==?/)[0]!;
		if (!allowed.includes(field)) {
			return `field label not supported: ${field}`;
		}
	}

	for (const term of (filter.labelSelector ?? '').split(',').filter(Boolean)) {
		if (!/^!?[\w./-]+((!=|==?)[\w.-]*)?$/.test(term)) {
			return `unable to parse requirement: ${term}`;
		}
	}

	return undefined;
}

function matches(object: StoredObject, filter: Filter): boolean {
	if (filter.namespace !== undefined && object.metadata.namespace !== filter.namespace) {
		return false;
	}

	for (const term of (filter.fieldSelector ?? '').split(',').filter(Boolean)) {
		const negated = term.includes('!=');
		const [field, value] = term.split(/!=|==?/) as [string, string];
		const actual = valueAt(object, field) ?? '';
		if (negated ? actual === value : actual !== value) {
			return false;
		}
	}

	const labels = object.metadata.labels ?? {};
	for (const term of (filter.labelSelector ?? '').split(',').filter(Boolean)) {
		if (term.startsWith('!')) {
			if (term.slice(1) in labels) {
				return false;
			}
		} else if (term.includes('!=')) {
			const [key, value] = term.split('!=') as [string, string];
			if (labels[key] === value) {
				return false;
			}
		} else if (term.includes('=')) {
			const [key, value] = term.split(/==?/) as [string, string];
			if (labels[key] !== value) {
				return false;
			}
		} else if (!(term in labels)) {
			return false;
		}
	}

	return true;
}

export class WatchServer {
	readonly #server: http.Server;
	readonly #scheme: 'http' | 'https';
	readonly #sockets = new Set<Socket>();
	readonly #served: ResourceDef[];
	#tokens: Readonly<Record<string, string>>;
	readonly #objects = new Map<string, Map<string, StoredObject>>(); // plural.group → ns/name → object
	readonly #log: LogEntry[] = [];
	readonly #watches = new Set<OpenWatch>();
	readonly #forbidden = new Set<string>(); // `user|plural`
	/** pods/log: `namespace/pod/container[/previous]` → the text a kubelet would serve. */
	readonly #logs = new Map<string, string>();
	readonly #logFailures = new Map<string, number>();
	#logsForbidden = false;
	#failures: Failure[] = [];
	#rv = 100;
	#compactedAt = 0;
	#uid = 0;
	#port = 0;
	#listening = false;
	readonly #historyLimit: number;
	splitLines: boolean;
	expiredAs: 'event' | 'status';
	readonly requests: RequestRecord[] = [];

	private constructor(options: WatchServerOptions) {
		this.#served = [...(options.resources ?? allResources)];
		this.#tokens = options.tokens ?? {'test-token': 'tester'};
		this.splitLines = options.splitLines ?? false;
		this.#historyLimit = options.historyLimit ?? Number.POSITIVE_INFINITY;
		this.expiredAs = options.expiredAs ?? 'event';
		const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
			this.#handle(request, response);
		};

		this.#scheme = options.tls ? 'https' : 'http';
		this.#server = options.tls
			? https.createServer(
				{
					key: options.tls.key,
					cert: options.tls.cert,
					...(options.tls.requireClientCertificate ? {requestCert: true, rejectUnauthorized: true, ca: options.tls.cert, maxVersion: 'TLSv1.2' as const} : {}),
				},
				handler,
			)
			: http.createServer(handler);
		// Plain TCP sockets, also under TLS: stop() must be able to destroy every connection.
		this.#server.on('connection', (socket: Socket) => {
			this.#sockets.add(socket);
			socket.on('close', () => this.#sockets.delete(socket));
		});
	}

	static async start(options: WatchServerOptions = {}): Promise<WatchServer> {
		const server = new WatchServer(options);
		await server.#listen(0);
		return server;
	}

	get url(): string {
		return `${this.#scheme}://127.0.0.1:${this.#port}`;
	}

	get port(): number {
		return this.#port;
	}

	/** The current (collection) resourceVersion. */
	get resourceVersion(): string {
		return String(this.#rv);
	}

	/** Watches currently streaming. */
	get openWatchCount(): number {
		return [...this.#watches].filter(w => !w.closed).length;
	}

	/** Requests that match: e.g. `count({plural: 'actionsets', watch: true})`. */
	count(filter: {plural?: string; watch?: boolean; status?: number} = {}): number {
		return this.requests.filter(r => (filter.plural === undefined || r.plural === filter.plural)
			&& (filter.watch === undefined || r.watch === filter.watch)
			&& (filter.status === undefined || r.status === filter.status)).length;
	}

	// ----- objects -----

	/** Create or replace an object (namespace defaults to `default`); returns the stored copy with its new RV. */
	put(def: ResourceDef, object: {metadata: {name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown}; [key: string]: unknown}): StoredObject {
		const bucket = this.#bucket(def);
		const namespace = object.metadata.namespace ?? 'default';
		const key = `${namespace}/${object.metadata.name}`;
		const previous = bucket.get(key);
		const stored: StoredObject = {
			...structuredClone(object),
			apiVersion: apiVersionOf(def),
			kind: def.kind,
			metadata: {
				...structuredClone(object.metadata),
				namespace,
				name: object.metadata.name,
				uid: previous?.metadata.uid ?? `uid-${++this.#uid}`,
				creationTimestamp: previous?.metadata.creationTimestamp ?? '2026-11-30T11:00:00Z',
				resourceVersion: String(++this.#rv),
			},
		};
		bucket.set(key, stored);
		this.#record({rv: this.#rv, def, type: previous ? 'MODIFIED' : 'ADDED', object: stored});
		return stored;
	}

	/** Delete an object; the DELETED event carries its last state with a new RV. */
	remove(def: ResourceDef, name: string, namespace = 'default'): StoredObject {
		const bucket = this.#bucket(def);
		const key = `${namespace}/${name}`;
		const previous = bucket.get(key);
		if (!previous) {
			throw new Error(`watch-server: no ${def.kind} ${key}`);
		}

		bucket.delete(key);
		const last: StoredObject = {...previous, metadata: {...previous.metadata, resourceVersion: String(++this.#rv)}};
		this.#record({rv: this.#rv, def, type: 'DELETED', object: last});
		return last;
	}

	get(def: ResourceDef, name: string, namespace = 'default'): StoredObject | undefined {
		return this.#bucket(def).get(`${namespace}/${name}`);
	}

	/** Forget all history up to now: watching from any older resourceVersion answers 410 Gone. */
	compact(): void {
		this.#compactedAt = this.#rv;
		this.#log.length = 0;
	}

	// ----- protocol knobs -----

	/** What `GET …/pods/POD/log?container=C[&previous=true]` answers (a stand-in for the kubelet behind the apiserver). */
	setLog(namespace: string, pod: string, container: string, text: string, previous = false): void {
		this.#logFailures.delete(`${namespace}/${pod}/${container}${previous ? '/previous' : ''}`);
		this.#logs.set(`${namespace}/${pod}/${container}${previous ? '/previous' : ''}`, text);
	}

	/** The log of `container` answers `statusCode` (400: the container is waiting to start) until `setLog` gives it text. */
	failLog(namespace: string, pod: string, container: string, statusCode: number): void {
		this.#logs.delete(`${namespace}/${pod}/${container}`);
		this.#logFailures.set(`${namespace}/${pod}/${container}`, statusCode);
	}

	/** RBAC: nobody may get pods/log. */
	forbidLogs(): void {
		this.#logsForbidden = true;
	}

	/** RBAC: `user` may not list/watch `plural` (or only the verbs given: e.g. list allowed, watch not). */
	forbid(user: string, plural: string, verbs: ReadonlyArray<'list' | 'watch'> = ['list', 'watch']): void {
		for (const verb of verbs) {
			this.#forbidden.add(`${user}|${plural}|${verb}`);
		}
	}

	/** Answer the next `times` matching requests with HTTP `status` and a Status body. */
	failNext(match: {plural?: string; watch?: boolean; continued?: boolean}, statusCode: number, times = 1): void {
		this.#failures.push({...match, status: statusCode, remaining: times});
	}

	/** Answer the next `times` matching requests with exactly `answer` (an HTML page, `[]`, a cut-off body…). */
	answerNext(match: {plural?: string; watch?: boolean}, answer: RawAnswer, times = 1): void {
		this.#failures.push({...match, status: answer.status, remaining: times, raw: answer});
	}

	/** Answer the next `times` matching requests with `answer`, which writes status, headers and body itself. */
	handleNext(match: {plural?: string; watch?: boolean; continued?: boolean}, answer: CustomAnswer, times = 1): void {
		this.#failures.push({...match, status: -1, remaining: times, custom: answer});
	}

	/** Replace the accepted bearer tokens (e.g. revoke one mid-watch: its next request gets 401). */
	setTokens(tokens: Readonly<Record<string, string>>): void {
		this.#tokens = tokens;
	}

	/** Leave the next `times` matching requests unanswered (no status, no headers) until the server stops. */
	holdNext(match: {plural?: string; watch?: boolean}, times = 1): void {
		this.#failures.push({...match, status: 0, remaining: times});
	}

	/** Send a BOOKMARK with the current RV on every open watch that asked for bookmarks. */
	sendBookmarks(): void {
		for (const w of this.#watches) {
			if (w.bookmarks && !w.closed && !w.stalled) {
				this.#write(w, 'BOOKMARK', {kind: w.def.kind, apiVersion: apiVersionOf(w.def), metadata: {resourceVersion: String(this.#rv)}});
			}
		}
	}

	/** Send an ERROR event carrying a Status on every open watch (then the stream stays open, as the cacher's do not). */
	sendError(code: number, message: string, plural?: string): void {
		for (const w of this.#watches) {
			if (!w.closed && (plural === undefined || w.def.plural === plural)) {
				this.#write(w, 'ERROR', status(code, code === 410 ? 'Expired' : 'InternalError', message));
			}
		}
	}

	/** End every open watch cleanly (what the apiserver does at the watch timeout). */
	closeWatches(plural?: string): void {
		for (const w of this.#watches) {
			if (plural === undefined || w.def.plural === plural) {
				this.#end(w);
			}
		}
	}

	/** Write half of a line on every open watch, then drop the connection without ending the response. */
	cutWatches(): void {
		for (const w of [...this.#watches]) {
			if (w.closed) {
				continue;
			}

			w.response.write('{"type":"MODIFIED","object":{"kind":');
			w.closed = true;
			clearTimeout(w.timer);
			this.#watches.delete(w);
			// Let the half line leave before the socket goes.
			setImmediate(() => w.response.socket?.destroy());
		}
	}

	/** Keep every currently open watch connected but send nothing more on it (a half-open connection). */
	stallWatches(): void {
		for (const w of this.#watches) {
			w.stalled = true;
		}
	}

	/** Take the server down: close the listener and every connection. State (objects, RV) is kept. */
	async stop(): Promise<void> {
		if (!this.#listening) {
			return;
		}

		for (const w of this.#watches) {
			w.closed = true;
			clearTimeout(w.timer);
		}

		this.#watches.clear();
		const closed = new Promise<void>(resolve => {
			this.#server.close(() => {
				resolve();
			});
		});
		for (const socket of this.#sockets) {
			socket.destroy();
		}

		await closed;
		this.#listening = false;
	}

	/** Bring a stopped server back on the same port. */
	async restart(): Promise<void> {
		await this.#listen(this.#port);
	}

	async close(): Promise<void> {
		await this.stop();
	}

	// ----- internals -----

	async #listen(port: number): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.#server.once('error', reject);
			this.#server.listen(port, '127.0.0.1', () => {
				this.#server.off('error', reject);
				resolve();
			});
		});
		this.#port = (this.#server.address() as AddressInfo).port;
		this.#listening = true;
	}

	#bucket(def: ResourceDef): Map<string, StoredObject> {
		const key = qualified(def);
		let bucket = this.#objects.get(key);
		if (!bucket) {
			bucket = new Map();
			this.#objects.set(key, bucket);
		}

		return bucket;
	}

	#record(entry: LogEntry): void {
		this.#log.push(entry);
		while (this.#log.length > this.#historyLimit) {
			// From the dropped change's own RV everything newer is still here; only older RVs are too old.
			this.#compactedAt = this.#log.shift()!.rv;
		}

		for (const w of this.#watches) {
			if (!w.closed && !w.stalled && qualified(w.def) === qualified(entry.def) && matches(entry.object, w.filter)) {
				this.#write(w, entry.type, entry.object);
			}
		}
	}

	#write(w: OpenWatch, type: WatchEventType, object: unknown): void {
		const line = `${JSON.stringify({type, object})}\n`;
		if (this.splitLines && line.length > 2) {
			const middle = Math.floor(line.length / 2);
			w.response.write(line.slice(0, middle));
			w.response.write(line.slice(middle));
		} else {
			w.response.write(line);
		}
	}

	#end(w: OpenWatch): void {
		if (w.closed) {
			return;
		}

		w.closed = true;
		clearTimeout(w.timer);
		this.#watches.delete(w);
		w.response.end();
	}

	#route(pathname: string): {def?: ResourceDef; namespace?: string} | undefined {
		// /api/v1[/namespaces/NS]/PLURAL or /apis/GROUP/VERSION[/namespaces/NS]/PLURAL
		const parts = pathname.split('/').filter(Boolean).map(p => decodeURIComponent(p));
		let group: string;
		let version: string;
		let rest: string[];
		if (parts[0] === 'api') {
			group = '';
			version = parts[1] ?? '';
			rest = parts.slice(2);
		} else if (parts[0] === 'apis') {
			group = parts[1] ?? '';
			version = parts[2] ?? '';
			rest = parts.slice(3);
		} else {
			return undefined;
		}

		let namespace: string | undefined;
		if (rest[0] === 'namespaces' && rest.length === 3) {
			namespace = rest[1];
			rest = rest.slice(2);
		}

		if (rest.length !== 1) {
			return undefined;
		}

		const def = this.#served.find(d => d.group === group && d.version === version && d.plural === rest[0]);
		return def ? {def, ...(namespace === undefined ? {} : {namespace})} : {};
	}

	#handle(request: http.IncomingMessage, response: http.ServerResponse): void {
		const url = new URL(request.url ?? '/', 'http://localhost');
		const query = Object.fromEntries(url.searchParams.entries());
		const isWatch = query['watch'] === 'true' || query['watch'] === '1';
		const route = this.#route(url.pathname);
		const record = (statusCode: number) => {
			this.requests.push({
				method: request.method ?? 'GET',
				path: url.pathname,
				query,
				watch: isWatch,
				...(route?.def ? {plural: route.def.plural} : {}),
				...(route?.namespace === undefined ? {} : {namespace: route.namespace}),
				status: statusCode,
			});
		};

		const reply = (statusCode: number, body: unknown) => {
			record(statusCode);
			response.writeHead(statusCode, {'Content-Type': 'application/json'});
			response.end(JSON.stringify(body));
		};

		if (request.method !== 'GET') {
			reply(405, status(405, 'MethodNotAllowed', 'planwatch is read-only; this double only serves GET'));
			return;
		}

		const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
		const user = token === undefined ? undefined : this.#tokens[token];
		if (user === undefined) {
			reply(401, status(401, 'Unauthorized', 'Unauthorized'));
			return;
		}

		const log = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/.exec(url.pathname);
		if (log) {
			if (this.#logsForbidden) {
				reply(403, status(403, 'Forbidden', `pods "${log[2]!}" is forbidden: User "${user}" cannot get resource "pods/log" in API group "" in the namespace "${log[1]!}"`));
				return;
			}

			const logKey = `${decodeURIComponent(log[1]!)}/${decodeURIComponent(log[2]!)}/${query['container'] ?? ''}${query['previous'] === 'true' ? '/previous' : ''}`;
			const failing = this.#logFailures.get(logKey);
			if (failing !== undefined) {
				reply(failing, status(failing, failing === 400 ? 'BadRequest' : 'NotFound', `container "${query['container'] ?? ''}" in pod "${log[2]!}" is waiting to start`));
				return;
			}

			const text = this.#logs.get(logKey);
			if (text === undefined) {
				reply(404, status(404, 'NotFound', `pods "${log[2]!}" not found`));
				return;
			}

			record(200);
			const lines = text.split('\n');
			const tail = Number(query['tailLines'] ?? lines.length);
			response.writeHead(200, {'Content-Type': 'text/plain'});
			// A follow would stay open; this stand-in ends the stream, as the kubelet does when the container stops.
			response.end(lines.slice(-tail - 1).join('\n'));
			return;
		}

		if (!route?.def) {
			reply(404, status(404, 'NotFound', 'the server could not find the requested resource'));
			return;
		}

		const {def} = route;
		const continued = query['continue'] !== undefined && query['continue'] !== '';
		const failure = this.#failures.find(f => f.remaining > 0 && (f.plural === undefined || f.plural === def.plural) && (f.watch === undefined || f.watch === isWatch)
			&& (f.continued === undefined || f.continued === continued));
		if (failure) {
			failure.remaining--;
			this.#failures = this.#failures.filter(f => f.remaining > 0);
			if (failure.status === 0) {
				record(0);
				return;
			}

			if (failure.custom) {
				record(failure.custom(request, response));
				return;
			}

			if (failure.raw) {
				const {raw} = failure;
				record(raw.status);
				const body = Buffer.from(raw.body);
				response.writeHead(raw.status, {'Content-Type': raw.contentType ?? 'application/json', 'Content-Length': String(raw.truncate ? body.length * 2 + 10 : body.length)});
				if (raw.truncate) {
					// Promise more than is sent, send part of it, then drop the connection.
					response.write(body, () => {
						response.socket?.destroy();
					});
				} else {
					response.end(body);
				}

				return;
			}

			reply(
				failure.status,
				status(failure.status, failure.status === 410 ? 'Expired' : 'InjectedFailure', failure.status === 410 ? 'too old resource version' : `injected failure ${failure.status}`),
			);
			return;
		}

		if (this.#forbidden.has(`${user}|${def.plural}|${isWatch ? 'watch' : 'list'}`)) {
			const verb = isWatch ? 'watch' : 'list';
			const scope = route.namespace === undefined ? 'at the cluster scope' : `in the namespace "${route.namespace}"`;
			reply(403, status(403, 'Forbidden', `${qualified(def)} is forbidden: User "${user}" cannot ${verb} resource "${def.plural}" in API group "${def.group}" ${scope}`));
			return;
		}

		const filter: Filter = {
			...(route.namespace === undefined ? {} : {namespace: route.namespace}),
			...(query['labelSelector'] ? {labelSelector: query['labelSelector']} : {}),
			...(query['fieldSelector'] ? {fieldSelector: query['fieldSelector']} : {}),
		};
		const badSelector = selectorError(def, filter);
		if (badSelector) {
			reply(400, status(400, 'BadRequest', badSelector));
			return;
		}

		if (isWatch) {
			this.#watch(def, filter, query, response, record);
			return;
		}

		const items = [...this.#bucket(def).values()].filter(o => matches(o, filter))
			.sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
		// Paging as the apiserver does it (limit/continue); the token here is simply the offset of the next page.
		const limit = Number(query['limit'] ?? 0);
		const offset = continued ? Number(query['continue']!.slice('page:'.length)) : 0;
		const page = limit > 0 ? items.slice(offset, offset + limit) : items;
		const next = limit > 0 && offset + limit < items.length ? `page:${offset + limit}` : undefined;
		reply(200, {kind: `${def.kind}List`, apiVersion: apiVersionOf(def), metadata: {resourceVersion: String(this.#rv), ...(next === undefined ? {} : {continue: next})}, items: page});
	}

	#watch(def: ResourceDef, filter: Filter, query: Record<string, string>, response: http.ServerResponse, record: (status: number) => void): void {
		const from = query['resourceVersion'] ?? '';
		const fromNumber = Number(from);
		const expired = from !== '' && from !== '0' && (Number.isNaN(fromNumber) || fromNumber < this.#compactedAt);
		if (expired && this.expiredAs === 'status') {
			record(410);
			response.writeHead(410, {'Content-Type': 'application/json'});
			response.end(JSON.stringify(status(410, 'Expired', `too old resource version: ${from} (${this.#compactedAt})`)));
			return;
		}

		record(200);
		response.writeHead(200, {'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked'});
		response.flushHeaders();
		const w: OpenWatch = {def, filter, bookmarks: query['allowWatchBookmarks'] === 'true', response, stalled: false, closed: false};
		if (expired) {
			// The watch cache's answer: a 200 stream with one ERROR event, then the end.
			this.#write(w, 'ERROR', status(410, 'Expired', `too old resource version: ${from} (${this.#compactedAt})`));
			this.#end(w);
			return;
		}

		if (from === '' || from === '0') {
			for (const object of this.#bucket(def).values()) {
				if (matches(object, filter)) {
					this.#write(w, 'ADDED', object);
				}
			}
		} else {
			for (const entry of this.#log) {
				if (entry.rv > fromNumber && qualified(entry.def) === qualified(def) && matches(entry.object, filter)) {
					this.#write(w, entry.type, entry.object);
				}
			}
		}

		const timeout = Number(query['timeoutSeconds']);
		if (timeout > 0) {
			w.timer = setTimeout(() => {
				this.#end(w);
			}, timeout * 1000);
			w.timer.unref();
		}

		response.on('close', () => {
			w.closed = true;
			clearTimeout(w.timer);
			this.#watches.delete(w);
		});
		this.#watches.add(w);
	}
}

export type KubeconfigSpec = {
	readonly server: string;
	/** PEM of the CA to trust (certificate-authority-data). */
	readonly ca?: string | Buffer;
	readonly insecureSkipTlsVerify?: boolean;
	readonly token?: string;
	readonly namespace?: string;
	readonly contextName?: string;
	/** An exec credential plugin instead of a token. */
	readonly exec?: {readonly command: string; readonly args?: readonly string[]};
	/** Write no current-context. */
	readonly noCurrentContext?: boolean;
	/** More contexts (all pointing at the same cluster and user). */
	readonly extraContexts?: readonly string[];
};

/** A kubeconfig object (JSON is YAML) for `spec`. */
export function kubeconfigFor(spec: KubeconfigSpec): Record<string, unknown> {
	const contextName = spec.contextName ?? 'watch-server';
	const user = spec.exec
		? {exec: {apiVersion: 'client.authentication.k8s.io/v1', command: spec.exec.command, args: spec.exec.args ?? [], interactiveMode: 'Never'}}
		: {token: spec.token ?? 'test-token'};
	const context = (name: string) => ({name, context: {cluster: 'watch-server', user: 'tester', ...(spec.namespace ? {namespace: spec.namespace} : {})}});
	return {
		apiVersion: 'v1',
		kind: 'Config',
		clusters: [{name: 'watch-server', cluster: {
			server: spec.server,
			...(spec.ca ? {'certificate-authority-data': Buffer.from(spec.ca).toString('base64')} : {}),
			...(spec.insecureSkipTlsVerify ? {'insecure-skip-tls-verify': true} : {}),
		}}],
		users: [{name: 'tester', user}],
		contexts: [context(contextName), ...(spec.extraContexts ?? []).map(n => context(n))],
		...(spec.noCurrentContext ? {} : {'current-context': contextName}),
	};
}

const kubeconfigDirs = new Set<string>();
// Test files write many kubeconfigs; remove them after each test file rather than littering /tmp. (Vitest
// isolates modules per file, so this hook registers once per importing file.)
afterAll(() => {
	for (const dir of kubeconfigDirs) {
		rmSync(dir, {recursive: true, force: true});
	}

	kubeconfigDirs.clear();
});

/** Write a kubeconfig for `spec` into a fresh temporary directory (removed at exit); returns its path. */
export async function writeKubeconfig(spec: KubeconfigSpec): Promise<string> {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'planwatch-kubeconfig-'));
	kubeconfigDirs.add(dir);
	const file = path.join(dir, 'config');
	await fs.writeFile(file, JSON.stringify(kubeconfigFor(spec), undefined, 2));
	return file;
}
