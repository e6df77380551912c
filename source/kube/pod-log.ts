/**
 * A container's log through the apiserver (`GET /api/v1/namespaces/NS/pods/NAME/log`, the pods/log
 * subresource), read with limits: `tailLines` and `limitBytes` ask the server for little, and at most
 * `maxBytes` are read whatever it sends. `follow` keeps the stream open (kubectl logs -f) until `signal` ends
 * it. Text is handed on as it comes, decoded as UTF-8 across chunk boundaries; sanitizing is the caller's.
 */
import {HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig} from '@kubernetes/client-node';
import {maxErrorBodyBytes, readPrefix} from './bounded-read.js';
import {KubeStatusError, statusText, type KubeStatus} from './errors.js';

export type PodLogRequest = {
	readonly namespace: string;
	readonly pod: string;
	readonly container: string;
	readonly previous: boolean;
	readonly follow: boolean;
	readonly tailLines: number;
	readonly limitBytes: number;
	/** Most bytes read of the answer (a follow's whole stream). */
	readonly maxBytes: number;
	readonly signal?: AbortSignal;
};

/** `/api/v1/namespaces/NS/pods/NAME/log?…` for `request`. */
export function podLogPath(request: PodLogRequest): string {
	const query = new URLSearchParams({
		container: request.container,
		tailLines: String(request.tailLines),
		limitBytes: String(request.limitBytes),
	});
	if (request.previous) {
		query.set('previous', 'true');
	}

	if (request.follow) {
		query.set('follow', 'true');
	}

	return `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/log?${query.toString()}`;
}

/**
 * Read the log; `onText` gets each decoded piece. Resolves when the answer ends (or `maxBytes` were read, or
 * `signal` aborted); rejects with a KubeStatusError for a non-200 answer (403: pods/log is not allowed).
 */
export async function readPodLog(kubeConfig: KubeConfig, request: PodLogRequest, onText: (text: string) => void): Promise<void> {
	const server = kubeConfig.getCurrentCluster()?.server;
	if (server === undefined) {
		throw new Error('No currently active cluster');
	}

	const context = new RequestContext(server + podLogPath(request), HttpMethod.GET);
	await kubeConfig.applySecurityAuthentication(context);
	if (request.signal) {
		context.setSignal(request.signal);
	}

	const response = await new IsomorphicFetchHttpLibrary().send(context).toPromise();
	const body = response.body.stream();
	if (response.httpStatusCode !== 200) {
		const text = (await readPrefix(body, maxErrorBodyBytes)).toString('utf8');
		let status: KubeStatus | undefined;
		try {
			const parsed = JSON.parse(text) as unknown;
			const isStatus = typeof parsed === 'object' && parsed !== null && (parsed as {kind?: unknown}).kind === 'Status';
			status = isStatus ? parsed as KubeStatus : undefined;
		} catch {
			status = undefined;
		}

		throw new KubeStatusError(response.httpStatusCode, status, statusText(response.httpStatusCode), text);
	}

	if (!body) {
		return;
	}

	const decoder = new TextDecoder('utf-8');
	const reader = body.getReader();
	let read = 0;
	try {
		while (read < request.maxBytes) {
			const {done, value} = await reader.read();
			if (done) {
				break;
			}

			const piece = value.byteLength + read > request.maxBytes ? value.subarray(0, request.maxBytes - read) : value;
			read += piece.byteLength;
			const text = decoder.decode(piece, {stream: true});
			if (text) {
				onText(text);
			}
		}

		const rest = decoder.decode();
		if (rest) {
			onText(rest);
		}
	} finally {
		void reader.cancel().catch(() => undefined);
	}
}
