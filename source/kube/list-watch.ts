/**
 * The reflector: the one owner of list → watch → relist for one resource (client-go's Reflector, in small).
 *
 * Why hand-written and not client-node's informer (`makeInformer`, i.e. its `ListWatch` in dist/cache.js; read
 * in @kubernetes/client-node 2.0.1, test/kube/list-watch-header.test.ts fails when another version is installed,
 * so this is read again). What the reflector needs and that ListWatch does not do:
 * - Pagination: it lists through one `listFn()` call, whatever its size; no `limit`/`continue`, so no restart
 *   on an expired continue token either. Here LISTs come in pages of 500, as kubectl asks.
 * - Bookmarks and a server-side timeout: its WATCH sends only `resourceVersion` and the selectors. Without
 *   `allowWatchBookmarks` a quiet resource's resourceVersion ages until a rewatch gets 410 and relists
 *   everything; without `timeoutSeconds` spread by jitter, many clients reconnect together.
 * - Retry after errors: any error other than 410 or its own timeout is handed to the `error` callbacks and
 *   the informer stops; a failed LIST too. Here a failure before the first list is fatal or retried by the
 *   caller's rule (401/403/CRD missing end the run, 5xx/429 are retried); what happens after it, below.
 * - Backoff: its reconnect delay doubles 1 s → 30 s without jitter and is reset by any event; here it is
 *   client-go's (800 ms → 30 s, full jitter, reset after 2 minutes of health: kube/backoff.ts).
 * - Bounds: a LIST that never answers is awaited forever; here it is abandoned after 60 s, and a watch that
 *   is silent past its bookmarks is cut by a watchdog.
 * - Errors as sentences: it passes on undici errors and ApiExceptions as they are; here every failure is
 *   classified once (kube/errors.ts) into a sentence the header, plain log and json show, with the state
 *   (`connecting`, `live`, `reconnecting` with attempt and last error) reported as it changes.
 * - One `replace` per relist: it keeps its own cache of every object (a second copy next to the store's) and
 *   reports a relist as one add/update/delete callback per object; the store wants the whole list at once.
 * What is taken from client-node as it is: its request machinery (auth, exec plugins, TLS, proxies). How it works:
 *
 * - LIST through client-node's request machinery (so auth, exec plugins and TLS are client-node's), emit
 *   `replace`, then WATCH (watch-stream.ts, the same machinery) from the list resourceVersion with bookmarks on.
 *   Every answer is read against a byte limit (bounded-read.ts): one page, one event.
 * - Every event and bookmark moves the last seen resourceVersion; a rewatch resumes from it.
 * - 410 Gone (HTTP status or ERROR event) → relist; the `replace` drops objects deleted meanwhile.
 * - A watch ended by the server (timeoutSeconds), by the stream's inactivity timer or by our own watchdog is
 *   normal: rewatch at once. Both timers allow a quiet resource's once-a-minute bookmark (`quietWatchLimitMs`).
 *   A watch that ends within a second with nothing on it, or any error, is retried with jittered exponential
 *   backoff and shows as `reconnecting`.
 * - Before the first successful list, failures the caller deems fatal (401, 403, CRD missing,
 *   unreachable…) stop the reflector; afterwards it retries forever: a blip never ends the program. The
 *   exception: a 401 or 403 that a retry (with a fresh credential) does not cure (#rejectedForGood).
 */
import {HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig} from '@kubernetes/client-node';
import type {Clock} from '../core/clock.js';
import {Backoff, type BackoffPolicy} from './backoff.js';
import {byteSize, maxListResponseBytes, readBounded, TooLargeError} from './bounded-read.js';
import {
	BadResponseError,
	classifyFailure,
	CredentialError,
	describeBody,
	errorText,
	KubeStatusError,
	statusText,
	unauthorizedAgainMessage,
	type FailureContext,
	type KubeFailure,
	type KubeStatus,
} from './errors.js';
import {watchStream} from './watch-stream.js';
import {startRequest, type RequestLog} from './request-log.js';
import type {KubeObject} from '../core/kube-object.js';
import {collectionPath, type ResourceType} from './resources.js';
import {notAnswered, onStreamEnd, onWatchError, type WatchOutcome} from './watch-decisions.js';

export type ReflectorState =
	| {readonly status: 'connecting'}
	| {readonly status: 'live'}
	| {readonly status: 'reconnecting'; readonly attempt: number; readonly lastError: string};

export type ReflectorEvent =
	/** The result of a (re)list: exactly these objects exist now. */
	| {readonly type: 'replace'; readonly objects: readonly KubeObject[]}
	| {readonly type: 'upsert'; readonly object: KubeObject}
	| {readonly type: 'delete'; readonly object: KubeObject}
	| {readonly type: 'state'; readonly state: ReflectorState}
	/** The first list failed in a way `isFatalAtStart` calls final; the reflector has stopped. */
	| {readonly type: 'failed'; readonly failure: KubeFailure};

export type ReflectorSink = (event: ReflectorEvent) => void;

export type ReflectorOptions = {
	readonly kubeConfig: KubeConfig;
	readonly resource: ResourceType;
	/** undefined = all namespaces. */
	readonly namespace?: string;
	readonly labelSelector?: string;
	readonly fieldSelector?: string;
	readonly clock: Clock;
	/** For messages about credentials. */
	readonly credentialPlugin?: string;
	/** Jitter for backoff and watch timeouts (tests pin it). */
	readonly random?: () => number;
	readonly backoff?: Partial<BackoffPolicy>;
	/** No event or bookmark for this long → abort and rewatch. Default quietWatchLimitMs. */
	readonly watchdogMs?: number;
	/** A LIST that has not answered after this long is abandoned and retried. Default 60 s. */
	readonly listTimeoutMs?: number;
	/**
	 * `--request-timeout`, kubectl's: how long one LIST request (one page) may take; 0 = no limit. When given, it
	 * replaces listTimeoutMs, which bounds a whole list. Watches are not cut by it.
	 */
	readonly requestTimeoutMs?: number;
	/** `-v=6`: every request's line. */
	readonly log?: RequestLog;
	/** Which failures of the very first list stop the reflector. Default: all but 5xx/429 and 410. */
	readonly isFatalAtStart?: (failure: KubeFailure) => boolean;
	/** Override the watch stream's inactivity timer (default quietWatchLimitMs); tests use it to make that timer fire. */
	readonly clientInactivityMs?: number;
	/** Objects per LIST page (tests use small pages). Default defaultListPageSize. */
	readonly listPageSize?: number;
	/** Largest LIST answer (one page) and largest watch event accepted (tests use small ones). */
	readonly maxListBytes?: number;
	readonly maxEventBytes?: number;
	/** Pages one list may take (tests use few). Default maxListPages. */
	readonly maxListPages?: number;
	/**
	 * Forget the cached credential so the next request gets a new one (the exec plugin runs again): called on a
	 * 401 after a good list. A second 401 in a row then ends the reflector (`failed`), as nothing else will help.
	 */
	readonly refreshCredentials?: () => void;
};

/**
 * How often kube-apiserver sends a BOOKMARK on a watch that asked for them and sees nothing else: "roughly every
 * minute" (k8s.io/apiserver pkg/storage/cacher: `defaultBookmarkFrequency = time.Minute` in cacher.go,
 * `nextBookmarkTime` in cache_watcher.go; due times are bucketed by the second, so 60–62 s apart).
 */
export const apiserverBookmarkPeriodMs = 60_000;

/**
 * How long a watch may be silent before it is taken for dead and made again: a bookmark period and half of one
 * more. With client-node's 30 s (and a 60 s watchdog) every quiet watch — a namespace's events, its pods, the
 * blueprints — was cut before its first bookmark and made again on a new TLS connection: 8 watches every 30 s
 * in the side bench (`-v=6`).
 */
export const quietWatchLimitMs = apiserverBookmarkPeriodMs + 30_000;

const minWatchTimeoutSeconds = 300;
const maxWatchTimeoutSeconds = 600;

export function defaultIsFatalAtStart(failure: KubeFailure): boolean {
	return failure.kind !== 'server' && failure.kind !== 'expired';
}

type ListResult = {readonly items: KubeObject[]; readonly resourceVersion: string} | {readonly failure: KubeFailure};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ListOptions = {
	readonly kubeConfig: KubeConfig;
	readonly resource: ResourceType;
	/** undefined = all namespaces. */
	readonly namespace?: string;
	readonly labelSelector?: string;
	readonly fieldSelector?: string;
	readonly credentialPlugin?: string;
	readonly signal?: AbortSignal;
	/** Objects per page (`limit`); 0 = no paging. Default defaultListPageSize. */
	readonly pageSize?: number;
	/** Largest answer (one page) read. Default maxListResponseBytes. */
	readonly maxBytes?: number;
	/** Pages the list may take. Default maxListPages. */
	readonly maxPages?: number;
	/** Filled in while the list runs: what has arrived so far (to say why a list that is cut short was). */
	readonly progress?: ListProgress;
	/** Called after each page has been read (a per-request timeout starts again). */
	readonly onPage?: () => void;
	/** `-v=6`: every request's line. */
	readonly log?: RequestLog;
};

/** How far a LIST got: pages answered, and the bytes of the page being read. */
export type ListProgress = {pages: number; bytes: number; answered: boolean};

/** Fill in kind/apiVersion: list items of core types come without them. */
function typed(resource: ResourceType, object: KubeObject): KubeObject {
	if (object.kind && object.apiVersion) {
		return object;
	}

	return {
		...object,
		kind: object.kind ?? resource.kind,
		apiVersion: object.apiVersion ?? (resource.group ? `${resource.group}/${resource.version}` : resource.version),
	};
}

/** Objects per LIST page, as kubectl asks for them (`kubectl get --chunk-size`, default 500). */
export const defaultListPageSize = 500;

/** How often a paged list starts over when the server expires its continue token (410) before giving up. */
const maxListRestarts = 3;

/**
 * Pages one list may take: 2 000 pages of 500 are a million objects, far beyond any cluster planwatch can draw;
 * a server that keeps handing out new continue tokens is stopped here (a repeated token is caught at once).
 */
export const maxListPages = 2000;

/**
 * A complete LIST through client-node's request machinery (its auth, exec plugins, TLS and proxies), in pages
 * of `pageSize` with `limit`/`continue` as kubectl does, so a namespace with tens of thousands of Events never
 * arrives as one huge answer. A continue token the server no longer honours (410: its snapshot was compacted
 * between two pages) starts the list over. Throws CredentialError, KubeStatusError (non-200, with the Status
 * body), BadResponseError (a 200 that is not a list) or the network error.
 */
export async function listObjects(options: ListOptions): Promise<{items: KubeObject[]; resourceVersion: string}> {
	for (let restart = 0; ; restart++) {
		const items: KubeObject[] = [];
		let continueToken: string | undefined;
		let resourceVersion: string;
		// A server that hands back a token it gave before would be asked for the same pages forever.
		const tokens = new Set<string>();
		let pages = 0;
		try {
			do {
				if (options.progress) {
					// A new request: nothing of it has arrived yet.
					options.progress.answered = false;
					options.progress.bytes = 0;
				}

				const page = await listPage(options, continueToken);
				pages++;
				options.onPage?.();
				if (options.progress) {
					options.progress.pages = pages;
				}

				for (const item of page.items) {
					items.push(item);
				}

				resourceVersion = page.resourceVersion;
				continueToken = page.continueToken;
				if (continueToken !== undefined) {
					if (tokens.has(continueToken)) {
						throw new BadResponseError(
							200,
							`a continue token it had already given (page ${pages + 1} of a list of ${options.resource.plural} would ` +
							'repeat an earlier one); planwatch stopped paging',
						);
					}

					const pageLimit = options.maxPages ?? maxListPages;
					if (pages >= pageLimit) {
						throw new BadResponseError(
							200,
							`page ${pages} of a list of ${options.resource.plural} and still a continue token (more than ${pageLimit} ` +
							'pages is beyond any real cluster); planwatch stopped paging',
						);
					}

					tokens.add(continueToken);
				}
			} while (continueToken !== undefined);
		} catch (error) {
			if (continueToken !== undefined && error instanceof KubeStatusError && error.statusCode === 410 && restart < maxListRestarts) {
				continue;
			}

			throw error;
		}

		return {items, resourceVersion};
	}
}

async function listPage(
	options: ListOptions,
	continueToken: string | undefined,
): Promise<{items: KubeObject[]; resourceVersion: string; continueToken?: string}> {
	const server = options.kubeConfig.getCurrentCluster()?.server ?? '';
	const url = new URL(server + collectionPath(options.resource, options.namespace));
	if (options.labelSelector) {
		url.searchParams.set('labelSelector', options.labelSelector);
	}

	if (options.fieldSelector) {
		url.searchParams.set('fieldSelector', options.fieldSelector);
	}

	const pageSize = options.pageSize ?? defaultListPageSize;
	if (pageSize > 0) {
		url.searchParams.set('limit', String(pageSize));
	}

	if (continueToken !== undefined) {
		url.searchParams.set('continue', continueToken);
	}

	const request = new RequestContext(url.toString(), HttpMethod.GET);
	try {
		await options.kubeConfig.applySecurityAuthentication(request);
	} catch (error) {
		throw new CredentialError(options.credentialPlugin, error);
	}

	request.setHeaderParam('Accept', 'application/json');
	if (options.signal) {
		request.setSignal(options.signal);
	}

	const ended = startRequest(options.log, 'GET', url.toString());
	let response: Awaited<ReturnType<ReturnType<IsomorphicFetchHttpLibrary['send']>['toPromise']>>;
	try {
		response = await new IsomorphicFetchHttpLibrary().send(request).toPromise();
	} catch (error) {
		ended({error});
		throw error;
	}

	ended({status: response.httpStatusCode});
	const contentType = response.headers['content-type'] ?? '';
	const {progress} = options;
	if (progress) {
		progress.answered = true;
		progress.bytes = 0;
	}

	const maxBytes = options.maxBytes ?? maxListResponseBytes;
	let text: string;
	try {
		// Counted after gzip is undone: a small compressed answer may inflate to gigabytes.
		text = (await readBounded(
			response.body.stream(),
			maxBytes,
			`the answer to a list of ${options.resource.plural}`,
			progress,
		)).toString('utf8');
	} catch (error) {
		if (options.signal?.aborted || error instanceof TooLargeError) {
			throw error;
		}

		// Headers arrived, then the connection ended before the body did.
		throw new BadResponseError(response.httpStatusCode, `a body that was cut off (${errorText(error)})`);
	}

	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		body = undefined;
	}

	if (response.httpStatusCode !== 200) {
		const status = isRecord(body) && body['kind'] === 'Status' ? body as KubeStatus : undefined;
		throw new KubeStatusError(response.httpStatusCode, status, statusText(response.httpStatusCode), text);
	}

	if (!isRecord(body) || !Array.isArray(body['items'])) {
		throw new BadResponseError(200, `${describeBody(text, contentType)}, not a list of ${options.resource.plural}`);
	}

	const metadata = isRecord(body['metadata']) ? body['metadata'] : {};
	const next = typeof metadata['continue'] === 'string' && metadata['continue'] !== '' ? metadata['continue'] : undefined;
	return {
		items: (body['items'] as unknown[]).filter(isRecord).map(item => typed(options.resource, item as KubeObject)),
		resourceVersion: typeof metadata['resourceVersion'] === 'string' ? metadata['resourceVersion'] : '',
		...(next === undefined ? {} : {continueToken: next}),
	};
}

export class Reflector {
	readonly #options: ReflectorOptions;
	readonly #sink: ReflectorSink;
	readonly #backoff: Backoff;
	readonly #random: () => number;
	readonly #context: FailureContext;
	#resourceVersion = '';
	#needList = true;
	#firstWatchAfterList = false;
	#everListed = false;
	#started = false;
	#stopped = false;
	#failures = 0;
	/** 401s or 403s in a row since the last good answer. */
	#rejections = 0;
	#state: ReflectorState | undefined;
	/** Ends whatever the loop is waiting on (a list, a watch, a backoff sleep). */
	#interrupt: (() => void) | undefined;
	#done: Promise<void> = Promise.resolve();

	constructor(options: ReflectorOptions, sink: ReflectorSink) {
		this.#options = options;
		this.#sink = sink;
		this.#random = options.random ?? Math.random;
		this.#backoff = new Backoff({random: this.#random, ...(options.backoff ? {policy: options.backoff} : {})});
		const cluster = options.kubeConfig.getCurrentCluster();
		this.#context = {
			server: cluster?.server ?? '',
			...(cluster?.caData || cluster?.caFile ? {caConfigured: true} : {}),
			...(cluster?.proxyUrl ? {proxyUrl: cluster.proxyUrl} : {}),
			verb: 'list',
			resource: options.resource,
			...(options.namespace === undefined ? {} : {namespace: options.namespace}),
			...(options.credentialPlugin === undefined ? {} : {credentialPlugin: options.credentialPlugin}),
		};
	}

	/** The last resourceVersion seen (list, event or bookmark). */
	get resourceVersion(): string {
		return this.#resourceVersion;
	}

	get state(): ReflectorState | undefined {
		return this.#state;
	}

	start(): void {
		if (this.#started) {
			return;
		}

		this.#started = true;
		this.#setState({status: 'connecting'});
		this.#done = this.#run().catch((error: unknown) => {
			// The loop handles its own errors; anything here is a bug, reported rather than thrown into the void.
			if (!this.#stopped) {
				this.#stopped = true;
				this.#sink({type: 'failed', failure: classifyFailure(error, this.#context)});
			}
		});
	}

	/** Stop listing and watching; resolves when the loop has ended. Idempotent. */
	async stop(): Promise<void> {
		this.#stopped = true;
		this.#interrupt?.();
		await this.#done;
	}

	async #run(): Promise<void> {
		while (!this.#stopped) {
			if (this.#needList) {
				const listed = await this.#listOnce();
				if (listed === 'stopped') {
					return;
				}

				if (listed === 'retry') {
					continue;
				}
			}

			const outcome = await this.#watchOnce();
			switch (outcome.kind) {
				case 'stopped': {
					return;
				}

				case 'closed': {
					break;
				}

				case 'expired': {
					this.#needList = true;
					this.#resourceVersion = '';
					if (outcome.quick) {
						// A fresh resourceVersion refused at once: do not spin list→410→list.
						await this.#retryAfter({kind: 'expired', message: 'the cluster keeps refusing a fresh resource version (410)'});
					}

					break;
				}

				case 'failed': {
					if (this.#rejectedForGood(outcome.failure)) {
						return;
					}

					await this.#retryAfter(outcome.failure);
					break;
				}
			}
		}
	}

	/**
	 * One list, handed to the sink. Its own method: a local of the long-running #run would stay in that async
	 * function's frame across every later await, and with it the whole first list (every raw object) for as long
	 * as the watch runs.
	 */
	async #listOnce(): Promise<'listed' | 'retry' | 'stopped'> {
		const result = await this.#list();
		if (this.#stopped) {
			return 'stopped';
		}

		if ('failure' in result) {
			if (!this.#everListed && (this.#options.isFatalAtStart ?? defaultIsFatalAtStart)(result.failure)) {
				this.#stopped = true;
				this.#sink({type: 'failed', failure: result.failure});
				return 'stopped';
			}

			if (this.#rejectedForGood(result.failure)) {
				return 'stopped';
			}

			await this.#retryAfter(result.failure);
			return 'retry';
		}

		this.#rejections = 0;
		this.#everListed = true;
		this.#needList = false;
		this.#resourceVersion = result.resourceVersion;
		this.#firstWatchAfterList = true;
		this.#sink({type: 'replace', objects: result.items});
		return 'listed';
	}

	#setState(state: ReflectorState): void {
		const previous = this.#state;
		if (
			previous &&
			previous.status === state.status &&
			(state.status !== 'reconnecting' ||
				(previous.status === 'reconnecting' && previous.attempt === state.attempt && previous.lastError === state.lastError))
		) {
			return;
		}

		this.#state = state;
		this.#sink({type: 'state', state});
	}

	/**
	 * A 401 or 403 after a good list. One is retried (after the backoff): a 401 may be a credential that just
	 * expired — it is dropped, so the exec plugin runs again — and a 403 may be an authorization webhook that
	 * failed once. A second in a row, with nothing answered in between, ends the reflector with `failed`, as at
	 * the start: retrying a rejected credential or a missing permission helps nobody.
	 */
	#rejectedForGood(failure: KubeFailure): boolean {
		if (failure.kind !== 'unauthorized' && failure.kind !== 'forbidden') {
			this.#rejections = 0;
			return false;
		}

		this.#rejections++;
		if (this.#rejections === 1) {
			if (failure.kind === 'unauthorized') {
				this.#options.refreshCredentials?.();
			}

			return false;
		}

		this.#stopped = true;
		const message = failure.kind === 'unauthorized'
			? unauthorizedAgainMessage(this.#options.credentialPlugin, this.#options.refreshCredentials !== undefined)
			: failure.message;
		this.#sink({type: 'failed', failure: {...failure, message}});
		return true;
	}

	#healthy(): void {
		this.#rejections = 0;
		this.#failures = 0;
		this.#setState({status: 'live'});
	}

	async #retryAfter(failure: KubeFailure): Promise<void> {
		this.#failures++;
		this.#setState({status: 'reconnecting', attempt: this.#failures, lastError: failure.message});
		const delay = this.#backoff.next(this.#options.clock.now());
		await new Promise<void>(resolve => {
			if (this.#stopped) {
				resolve();
				return;
			}

			const cancel = this.#options.clock.after(delay, () => {
				this.#interrupt = undefined;
				resolve();
			});
			this.#interrupt = () => {
				cancel();
				this.#interrupt = undefined;
				resolve();
			};
		});
	}

	async #list(): Promise<ListResult> {
		const context: FailureContext = {...this.#context, verb: 'list'};
		const controller = new AbortController();
		let timedOut = false;
		const {requestTimeoutMs} = this.#options;
		const timeoutMs = requestTimeoutMs ?? this.#options.listTimeoutMs ?? 60_000;
		// 0: kubectl's "no timeout" (only --request-timeout can say it).
		const arm = () => timeoutMs === 0 ? () => undefined : this.#options.clock.after(timeoutMs, () => {
			timedOut = true;
			controller.abort();
		});
		let cancelTimeout = arm();
		// --request-timeout bounds each request (page), as kubectl's does; the default bounds the whole list.
		const onPage = requestTimeoutMs === undefined ? undefined : () => {
			cancelTimeout();
			cancelTimeout = arm();
		};
		// stop() must not wait for an exec plugin that is still prompting: give up on the list at once.
		const interrupted = new Promise<never>((_resolve, reject) => {
			this.#interrupt = () => {
				controller.abort();
				reject(new Error('stopped'));
			};
		});

		const progress: ListProgress = {pages: 0, bytes: 0, answered: false};
		try {
			return await Promise.race([listObjects({
				...this.#options,
				signal: controller.signal,
				progress,
				...(onPage ? {onPage} : {}),
				...(this.#options.listPageSize === undefined ? {} : {pageSize: this.#options.listPageSize}),
				...(this.#options.maxListBytes === undefined ? {} : {maxBytes: this.#options.maxListBytes}),
				...(this.#options.maxListPages === undefined ? {} : {maxPages: this.#options.maxListPages}),
			}), interrupted]);
		} catch (error) {
			if (timedOut) {
				return {failure: {kind: 'server', message: listTimeoutMessage(this.#options.resource.plural, timeoutMs, progress)}};
			}

			return {failure: classifyFailure(error, context)};
		} finally {
			cancelTimeout();
			this.#interrupt = undefined;
		}
	}

	async #watchOnce(): Promise<WatchOutcome> {
		const {clock} = this.#options;
		const context: FailureContext = {...this.#context, verb: 'watch'};
		const query = watchQuery(this.#options, this.#resourceVersion, this.#random());
		const path = collectionPath(this.#options.resource, this.#options.namespace);
		const startedAt = clock.now();
		// The first watch from a fresh list RV that is refused at once means relisting will not help.
		const firstAfterList = this.#firstWatchAfterList;
		this.#firstWatchAfterList = false;
		const watchdogMs = this.#options.watchdogMs ?? quietWatchLimitMs;

		return new Promise<WatchOutcome>(resolve => {
			let settled = false;
			let opened = false; // the server answered 200
			let received = 0;
			let controller: AbortController | undefined;
			let cancelWatchdog: (() => void) | undefined;

			const finish = (outcome: WatchOutcome) => {
				if (settled) {
					return;
				}

				settled = true;
				cancelWatchdog?.();
				this.#interrupt = undefined;
				controller?.abort();
				resolve(outcome);
			};

			const progress = () => ({firstAfterList, received, opened, elapsedMs: clock.now() - startedAt});

			// One timer for the watch, not one per event: an event notes the time, and a timer that fires while
			// events have come since it was set is set again for what is left.
			let lastEventAt = clock.now();
			const watchdog = (ms: number) => {
				cancelWatchdog = clock.after(ms, () => {
					const quietMs = clock.now() - lastEventAt;
					if (quietMs < watchdogMs) {
						watchdog(watchdogMs - quietMs);
						return;
					}

					// Nothing for too long on a connection that looks open: assume it is dead and rewatch.
					finish(opened ? {kind: 'closed'} : notAnswered(context));
				});
			};

			const armWatchdog = () => {
				lastEventAt = clock.now();
				if (cancelWatchdog === undefined) {
					watchdog(watchdogMs);
				}
			};

			const onEvent = (type: string, object: unknown) => {
				if (settled || this.#stopped) {
					return;
				}

				armWatchdog();
				if (type === 'ERROR') {
					finish(onWatchError(isRecord(object) ? object as KubeStatus : {}, progress(), context));
					return;
				}

				if (isRecord(object)) {
					received++;
					this.#applyWatchEvent(type, object as KubeObject);
				}
			};

			const onDone = (error: unknown) => {
				if (settled) {
					return;
				}

				if (this.#stopped) {
					finish({kind: 'stopped'});
					return;
				}

				finish(onStreamEnd(error, progress(), context));
			};

			this.#interrupt = () => {
				finish({kind: 'stopped'});
			};
			armWatchdog();
			watchStream(this.#options.kubeConfig, path, query, onEvent, onDone, {
				inactivityMs: this.#options.clientInactivityMs ?? quietWatchLimitMs,
				...(this.#options.maxEventBytes === undefined ? {} : {maxEventBytes: this.#options.maxEventBytes}),
				eventName: `an event on the watch of ${this.#options.resource.plural}`,
				...(this.#options.log ? {log: this.#options.log} : {}),
			}).then(
				c => {
					controller = c;
					opened = !settled;
					if (settled) {
						c.abort();
					} else if (!this.#stopped) {
						// The stream is open (client-node resolves after a 200 answer).
						this.#healthy();
					}
				},
				(error: unknown) => {
					// Rejections come from authentication, before any request was sent.
					finish({kind: 'failed', failure: classifyFailure(new CredentialError(this.#options.credentialPlugin, error), context)});
				},
			);
		});
	}

	/** One ADDED / MODIFIED / DELETED / BOOKMARK: its resourceVersion is where the next watch resumes. */
	#applyWatchEvent(type: string, object: KubeObject): void {
		const kubeObject = typed(this.#options.resource, object);
		const rv = kubeObject.metadata?.resourceVersion;
		if (typeof rv === 'string' && rv !== '') {
			this.#resourceVersion = rv;
		}

		switch (type) {
			case 'ADDED':
			case 'MODIFIED': {
				this.#sink({type: 'upsert', object: kubeObject});
				break;
			}

			case 'DELETED': {
				this.#sink({type: 'delete', object: kubeObject});
				break;
			}

			default: {
				// BOOKMARK: only the resourceVersion matters, taken above.
				break;
			}
		}
	}
}

/** Why a list was abandoned at its timeout: no answer at all, or an answer still arriving. */
function listTimeoutMessage(plural: string, timeoutMs: number, progress: ListProgress): string {
	const seconds = Math.round(timeoutMs / 1000);
	if (!progress.answered) {
		return progress.pages > 0
			? `the cluster did not answer page ${progress.pages + 1} of a list of ${plural} within ${seconds}s`
			: `the cluster did not answer a list of ${plural} within ${seconds}s`;
	}

	const page = progress.pages > 0 ? ` (page ${progress.pages + 1})` : '';
	return `the answer to a list of ${plural}${page} was still arriving after ${seconds}s (${byteSize(progress.bytes)} so far); ` +
		'planwatch stopped reading it';
}

/**
 * The query of one WATCH: bookmarks on, from `resourceVersion`, the selectors, and a server-side timeout spread
 * between the bounds by `random` (in [0, 1)) so that many clients do not reconnect together, as client-go does.
 */
export function watchQuery(
	selectors: {readonly labelSelector?: string; readonly fieldSelector?: string},
	resourceVersion: string,
	random: number,
): Record<string, string | number | boolean> {
	const span = maxWatchTimeoutSeconds - minWatchTimeoutSeconds;
	return {
		allowWatchBookmarks: true,
		resourceVersion,
		timeoutSeconds: minWatchTimeoutSeconds + Math.floor(random * span),
		...(selectors.labelSelector ? {labelSelector: selectors.labelSelector} : {}),
		...(selectors.fieldSelector ? {fieldSelector: selectors.fieldSelector} : {}),
	};
}
