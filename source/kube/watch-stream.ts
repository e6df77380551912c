/**
 * One WATCH request, as client-node's `Watch` makes it (its request machinery: auth, TLS, proxies), but read
 * with limits: client-node splits the stream with readline, which holds a line without a newline whole until
 * the process runs out of memory. Here one event is at most `maxEventBytes` (client-go's 16 MiB); past it the
 * connection is dropped and `done` gets a TooLargeError. Also like client-node: a request the server has not
 * answered within `connectTimeoutMs` (30 s, client-node's) or a stream silent for `inactivityMs` ends with a
 * `TimeoutError`, and a non-200 answer ends it with its status — here a KubeStatusError carrying the Status body,
 * so a 401 or 403 on a watch says what the server said. client-node uses its 30 s for the silence too; the
 * reflector passes a longer one (list-watch.ts: a quiet resource's stream carries a bookmark once a minute).
 */
import {HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig} from '@kubernetes/client-node';
import {LineSplitter, maxErrorBodyBytes, maxWatchEventBytes, readPrefix} from './bounded-read.js';
import {KubeStatusError, statusText, type KubeStatus} from './errors.js';
import {startRequest, type RequestLog} from './request-log.js';

export type WatchStreamOptions = {
	/** No answer to the request for this long → end with a TimeoutError (client-node's requestTimeoutMs). Default 30 s. */
	readonly connectTimeoutMs?: number;
	/** Once answered, no bytes for this long → end with a TimeoutError. Default 30 s (client-node's). */
	readonly inactivityMs?: number;
	/** Largest event (line) accepted. Default maxWatchEventBytes. */
	readonly maxEventBytes?: number;
	/** What one event is called in the too-large message (`an event on the watch of actionsets`). */
	readonly eventName?: string;
	/** `-v=6`: the request's line once the server has answered (the watch then stays open). */
	readonly log?: RequestLog;
};

/** client-node's Watch: `requestTimeoutMs`, for the answer and for the silence after it. */
const defaultTimeoutMs = 30_000;

function timeoutError(): DOMException {
	return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/**
 * Start a watch of `path` with `query` (plus `watch=true`). Resolves with a controller that ends it once the
 * server has answered (or the request has failed, `done` having been called); rejects only when the
 * credentials cannot be had, before anything is sent. `done` is called once: undefined/null when the server
 * ended the stream, else the error.
 */
export async function watchStream(
	kubeConfig: KubeConfig,
	path: string,
	query: Readonly<Record<string, string | number | boolean>>,
	onEvent: (type: string, object: unknown) => void,
	done: (error: unknown) => void,
	options: WatchStreamOptions = {},
): Promise<AbortController> {
	const server = kubeConfig.getCurrentCluster()?.server;
	if (server === undefined) {
		throw new Error('No currently active cluster');
	}

	const url = new URL(server + path);
	url.searchParams.set('watch', 'true');
	for (const [key, value] of Object.entries(query)) {
		url.searchParams.set(key, String(value));
	}

	const request = new RequestContext(url.toString(), HttpMethod.GET);
	await kubeConfig.applySecurityAuthentication(request);
	request.setHeaderParam('Accept', 'application/json');
	const controller = new AbortController();
	request.setSignal(controller.signal);

	const connectTimeoutMs = options.connectTimeoutMs ?? defaultTimeoutMs;
	let inactivityMs = connectTimeoutMs;
	let timer: NodeJS.Timeout | undefined;
	let timedOut = false;
	// One timer, not one per chunk (a busy watch reads ~100 chunks a second): a chunk only notes the time, and a
	// timer that fires early (bytes came since it was armed) is armed again for what is left.
	let activeAt = 0;
	const arm = (ms: number) => {
		timer = setTimeout(() => {
			const quietMs = performance.now() - activeAt;
			if (quietMs < inactivityMs) {
				arm(inactivityMs - quietMs);
				return;
			}

			timedOut = true;
			controller.abort(timeoutError());
		}, ms);
		timer.unref();
	};

	const resetTimer = () => {
		activeAt = performance.now();
		if (timer === undefined) {
			arm(inactivityMs);
		}
	};

	/** The connect timeout is over: the inactivity timeout starts now, on a timer of its own. */
	const restartTimer = () => {
		inactivityMs = options.inactivityMs ?? defaultTimeoutMs;
		clearTimeout(timer);
		timer = undefined;
		resetTimer();
	};

	let finished = false;
	const finish = (error: unknown) => {
		if (finished) {
			return;
		}

		finished = true;
		clearTimeout(timer);
		controller.abort();
		done(error && timedOut ? timeoutError() : error);
	};

	resetTimer();
	let body: ReadableStream<Uint8Array> | null;
	const ended = startRequest(options.log, 'GET', url.toString());
	try {
		const response = await new IsomorphicFetchHttpLibrary().send(request).toPromise().catch((error: unknown) => {
			ended({error});
			throw error;
		});
		ended({status: response.httpStatusCode});
		body = response.body.stream();
		if (response.httpStatusCode !== 200) {
			const text = (await readPrefix(body, maxErrorBodyBytes)).toString('utf8');
			let status: KubeStatus | undefined;
			try {
				const parsed = JSON.parse(text) as unknown;
				status = typeof parsed === 'object' && parsed !== null && (parsed as {kind?: unknown}).kind === 'Status'
					? parsed as KubeStatus
					: undefined;
			} catch {
				status = undefined;
			}

			throw new KubeStatusError(response.httpStatusCode, status, statusText(response.httpStatusCode), text);
		}
	} catch (error) {
		finish(error);
		return controller;
	}

	// The connect timeout is over; from here on it is an inactivity timeout.
	restartTimer();
	void readEvents(
		body,
		new LineSplitter(options.maxEventBytes ?? maxWatchEventBytes, options.eventName ?? 'a watch event'),
		resetTimer,
		onEvent,
	).then(
		() => {
			finish(null);
		},
		(error: unknown) => {
			finish(error);
		},
	);
	return controller;
}

async function readEvents(
	body: ReadableStream<Uint8Array> | null,
	lines: LineSplitter,
	onBytes: () => void,
	onEvent: (type: string, object: unknown) => void,
): Promise<void> {
	if (!body) {
		return;
	}

	const deliver = (line: string) => {
		let data: unknown;
		try {
			data = JSON.parse(line);
		} catch {
			// Not an event (a keep-alive blank line, garbage): skipped, as client-node does.
			return;
		}

		if (typeof data === 'object' && data !== null) {
			const {type, object} = data as {type?: unknown; object?: unknown};
			onEvent(typeof type === 'string' ? type : '', object);
		}
	};

	const reader = body.getReader();
	try {
		for (;;) {
			const {done, value} = await reader.read();
			if (done) {
				break;
			}

			onBytes();
			for (const line of lines.push(value)) {
				deliver(line);
			}
		}

		for (const line of lines.end()) {
			deliver(line);
		}
	} finally {
		void reader.cancel().catch(() => undefined);
	}
}
