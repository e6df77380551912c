/**
 * A kubelet stand-in for the real kube-apiserver of harness/cluster.ts, for pods/log only: a Node object whose
 * kubelet address is 127.0.0.1 and a port where this HTTPS server answers `/containerLogs/{ns}/{pod}/{container}`
 * as the kubelet does (k8s.io/kubernetes v1.36.3 pkg/kubelet/server/server.go getContainerLogs, and
 * pkg/kubelet/kubelet_pods.go validateContainerLogStatus for its error texts). The apiserver finds it the way it
 * finds a real kubelet (pkg/registry/core/pod/strategy.go LogLocation → pkg/kubelet/client NodeConnectionInfoGetter:
 * the Node's preferred address and status.daemonEndpoints.kubeletEndpoint.Port) and verifies it with the harness CA;
 * the stand-in in turn only answers a caller with the apiserver's kubelet client certificate. Loopback only.
 *
 * Logs are what a test (or the Kanister recorder, playing kubelet for the controller's pods) sets: the current and
 * previous container's text per pod and container. `tailLines` and `limitBytes` apply as the kubelet applies them
 * (the last N lines, then at most N bytes); `follow` writes what is there and then what is appended, until the
 * container ends (`end`) or the stand-in stops.
 */
import {readFileSync} from 'node:fs';
import {createServer, type Server} from 'node:https';
import type {ServerResponse} from 'node:http';
import type {TLSSocket} from 'node:tls';
import type {Cluster} from './cluster.js';

export type ContainerRef = {readonly namespace: string; readonly pod: string; readonly container: string};

export type KubeletRequest = {
	readonly path: string;
	readonly query: Readonly<Record<string, string>>;
	/** CN of the client certificate the caller presented (the apiserver's: kube-apiserver-kubelet-client). */
	readonly client: string;
	readonly status: number;
};

export type KubeletStandIn = {
	readonly nodeName: string;
	readonly port: number;
	/**
	 * The pod is on this node but the container has not started: a read gets the kubelet's 400 `container "C" in pod
	 * "P" is waiting to start: REASON` until a log is set or appended.
	 */
	waiting(ref: ContainerRef, reason: string): void;
	/** Replace a container's log: the current one, or with `previous` the one of the container that ran before. */
	setLog(ref: ContainerRef, text: string, options?: {previous?: boolean}): void;
	/** Add to the current log; followers get it at once. The container runs (again) after this. */
	append(ref: ContainerRef, text: string): void;
	/** The container ended: follows of it end (a new `append` starts it again). */
	end(ref: ContainerRef): void;
	/** How many follows of `ref` are open now. */
	following(ref: ContainerRef): number;
	/** Every request it answered, oldest first. */
	readonly requests: readonly KubeletRequest[];
	stop(): Promise<void>;
};

type Log = {current: string; previous?: string; running: boolean; waiting?: string; followers: Set<Follower>};
type Follower = {response: ServerResponse; left: number};

function key(ref: ContainerRef): string {
	return `${ref.namespace}/${ref.pod}/${ref.container}`;
}

/** The last `lines` lines of `text` (a last line without its newline counts), as the kubelet's tail does. */
export function tailOf(text: string, lines: number | undefined): string {
	if (lines === undefined) {
		return text;
	}

	const parts = text.split(/(?<=\n)/).filter(part => part !== '');
	return lines <= 0 ? '' : parts.slice(-lines).join('');
}

function cut(text: string, bytes: number): string {
	const buffer = Buffer.from(text, 'utf8');
	return buffer.byteLength <= bytes ? text : buffer.subarray(0, bytes).toString('utf8');
}

function optionalInt(value: string | null): number | undefined {
	if (value === null || value === '') {
		return undefined;
	}

	const n = Number(value);
	return Number.isInteger(n) ? n : Number.NaN;
}

/** Register Node `nodeName` (kubelet on 127.0.0.1:<port>) and start its log server. */
export async function startKubelet(cluster: Pick<Cluster, 'request' | 'kubeletTls'>, nodeName = 'planwatch-e2e-node'): Promise<KubeletStandIn> {
	const logs = new Map<string, Log>();
	const requests: KubeletRequest[] = [];
	const logOf = (ref: ContainerRef): Log => {
		let log = logs.get(key(ref));
		if (!log) {
			log = {current: '', running: false, followers: new Set()};
			logs.set(key(ref), log);
		}

		return log;
	};

	const tls = cluster.kubeletTls;
	const server: Server = createServer({
		cert: readFileSync(tls.cert),
		key: readFileSync(tls.key),
		ca: readFileSync(tls.ca),
		requestCert: true,
		rejectUnauthorized: true,
	}, (request, response) => {
		const url = new URL(request.url ?? '/', 'https://127.0.0.1');
		const peer = (request.socket as TLSSocket).getPeerCertificate();
		const client = typeof peer.subject?.CN === 'string' ? peer.subject.CN : '';
		const query = Object.fromEntries(url.searchParams);
		const answer = (status: number, text: string): void => {
			requests.push({path: url.pathname, query, client, status});
			response.writeHead(status, {'content-type': 'text/plain; charset=utf-8'});
			response.end(text);
		};

		const match = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
		if (request.method !== 'GET' || !match) {
			answer(404, '404 page not found\n');
			return;
		}

		const [namespace, pod, container] = match.slice(1).map(part => decodeURIComponent(part)) as [string, string, string];
		const log = logs.get(key({namespace, pod, container}));
		if (!log) {
			answer(404, `pod "${pod}" does not exist`);
			return;
		}

		const tailLines = optionalInt(url.searchParams.get('tailLines'));
		const limitBytes = optionalInt(url.searchParams.get('limitBytes'));
		if (Number.isNaN(tailLines) || Number.isNaN(limitBytes) || (limitBytes !== undefined && limitBytes < 1)) {
			answer(422, '{"message": "Invalid request."}');
			return;
		}

		const previous = url.searchParams.get('previous') === 'true';
		if (log.waiting !== undefined && !previous) {
			answer(400, `container "${container}" in pod "${pod}" is waiting to start: ${log.waiting}`);
			return;
		}

		const text = previous ? log.previous : log.current;
		if (text === undefined) {
			answer(400, `previous terminated container "${container}" in pod "${pod}" not found`);
			return;
		}

		const budget = limitBytes ?? Number.MAX_SAFE_INTEGER;
		const first = cut(tailOf(text, tailLines), budget);
		const follow = url.searchParams.get('follow') === 'true' && !previous && log.running;
		requests.push({path: url.pathname, query, client, status: 200});
		response.writeHead(200, {'content-type': 'text/plain; charset=utf-8'});
		if (!follow) {
			response.end(first);
			return;
		}

		response.write(first);
		const follower: Follower = {response, left: budget - Buffer.byteLength(first, 'utf8')};
		if (follower.left <= 0) {
			response.end();
			return;
		}

		log.followers.add(follower);
		response.on('close', () => {
			log.followers.delete(follower);
		});
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === 'string') {
		throw new Error('kubelet stand-in: unexpected listener address');
	}

	const port = address.port;
	const stopServer = async () => {
		for (const log of logs.values()) {
			for (const f of log.followers) {
				f.response.end();
			}
		}

		server.closeAllConnections();
		await new Promise<void>(resolve => {
			server.close(() => {
				resolve();
			});
		});
	};

	// The Node a kubelet would register: its address and port are all the apiserver reads (no lease, no heartbeat:
	// nothing here marks nodes NotReady).
	const created = await cluster.request('POST', '/api/v1/nodes', {body: {apiVersion: 'v1', kind: 'Node', metadata: {name: nodeName}}});
	if (created.status !== 201 && created.status !== 409) {
		await stopServer();
		throw new Error(`kubelet stand-in: create node ${nodeName}: HTTP ${created.status} ${created.body}`);
	}

	const status = {
		status: {
			addresses: [{type: 'InternalIP', address: '127.0.0.1'}, {type: 'Hostname', address: nodeName}],
			daemonEndpoints: {kubeletEndpoint: {Port: port}},
			conditions: [{type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'planwatch e2e kubelet stand-in'}],
		},
	};
	const patched = await cluster.request('PATCH', `/api/v1/nodes/${nodeName}/status`, {body: status, contentType: 'application/merge-patch+json'});
	if (patched.status !== 200) {
		await stopServer();
		throw new Error(`kubelet stand-in: node ${nodeName} status: HTTP ${patched.status} ${patched.body}`);
	}

	return {
		nodeName,
		port,
		requests,
		waiting(ref, reason) {
			logOf(ref).waiting = reason;
		},
		setLog(ref, text, options = {}) {
			const log = logOf(ref);
			if (options.previous) {
				log.previous = text;
			} else {
				log.current = text;
				delete log.waiting;
			}
		},
		append(ref, text) {
			const log = logOf(ref);
			delete log.waiting;
			log.current += text;
			log.running = true;
			for (const f of log.followers) {
				const piece = cut(text, f.left);
				f.left -= Buffer.byteLength(piece, 'utf8');
				f.response.write(piece);
				if (f.left <= 0) {
					log.followers.delete(f);
					f.response.end();
				}
			}
		},
		end(ref) {
			const log = logOf(ref);
			log.running = false;
			for (const f of log.followers) {
				f.response.end();
			}

			log.followers.clear();
		},
		following(ref) {
			return logs.get(key(ref))?.followers.size ?? 0;
		},
		async stop() {
			await stopServer();
			await cluster.request('DELETE', `/api/v1/nodes/${nodeName}`);
		},
	};
}
