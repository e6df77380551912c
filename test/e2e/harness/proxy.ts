/**
 * A TLS-terminating TCP proxy on loopback between the CLI and kube-apiserver, to make network faults the API
 * server alone cannot: refuse every connection for a while (an outage while the server keeps changing), or cut
 * a watch stream in the middle of an event line. It terminates TLS with the apiserver's own serving
 * certificate (so the CLI verifies it with the cluster CA as usual), sees plain HTTP/1.1, and re-encrypts
 * towards the apiserver. It also logs the requests it forwarded and whether the answer was a 410 Expired
 * (as HTTP status or as a watch ERROR event), so a test can prove the fault happened and how the CLI reacted.
 * It can also answer LISTs itself with a 503 HTML page, as a load balancer in front of a sick apiserver does.
 */
import {readFileSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import path from 'node:path';
import tls from 'node:tls';
import type {Cluster} from './cluster.js';

export type ProxiedRequest = {
	readonly method: string;
	readonly path: string;
	readonly at: number;
	readonly watch: boolean;
	/** HTTP status of the answer, once seen. */
	status?: number;
	/** The answer said 410 Expired (HTTP status or an ERROR event on a watch). */
	expired?: boolean;
	/** This watch was cut by `cutWatchEvent`. */
	cut?: boolean;
};

export type Cut = {readonly at: number; readonly request: ProxiedRequest; readonly sent: string; readonly withheld: string};

export type ApiProxy = {
	/** https://127.0.0.1:<port> */
	readonly url: string;
	/** A kubeconfig (user admin) pointing at the proxy. */
	readonly kubeconfig: string;
	/** Close every open connection and reset new ones until `accept()`. */
	refuse(): void;
	accept(): void;
	/**
	 * The next time the answer to a watch whose path matches `path` carries a chunk holding `needle` (the start
	 * of an event line, e.g. `{"type":"MODIFIED"`), forward that chunk only up to the middle of that line, then
	 * close both sides. With `mustContain`, only a chunk that also holds that text (e.g. the final status).
	 */
	cutWatchEvent(path: RegExp, needle: string, mustContain?: string): Promise<Cut>;
	/**
	 * Answer the next `times` LISTs (GET, not a watch) whose path matches `path` here, with `status` and an HTML
	 * error page as a load balancer in front of the apiserver does, instead of forwarding them.
	 */
	answerLists(path: RegExp, times: number, status?: number): void;
	readonly requests: ProxiedRequest[];
	/** Connections reset since `refuse()` (each one is the CLI trying again). */
	refused(): number;
	close(): Promise<void>;
};

type Pair = {client: tls.TLSSocket; upstream?: tls.TLSSocket; pending: ProxiedRequest[]; current?: ProxiedRequest};

const requestLine = /(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/g;
const statusLine = /HTTP\/1\.[01] (\d{3}) /g;

export async function startProxy(cluster: Cluster, name = 'proxy'): Promise<ApiProxy> {
	const target = new URL(cluster.server);
	const ca = readFileSync(cluster.caFile);
	const cert = readFileSync(path.join(cluster.dir, 'serving.crt'));
	const key = readFileSync(path.join(cluster.dir, 'serving.key'));
	const pairs = new Set<Pair>();
	const requests: ProxiedRequest[] = [];
	let refusing = false;
	let refused = 0;
	let armed: {path: RegExp; needle: string; mustContain: string; resolve: (cut: Cut) => void} | undefined;
	let listAnswers: {path: RegExp; remaining: number; status: number} | undefined;

	const closePair = (pair: Pair) => {
		pair.client.destroy();
		pair.upstream?.destroy();
		pairs.delete(pair);
	};

	const server = tls.createServer({cert, key, ALPNProtocols: ['http/1.1']}, client => {
		if (refusing) {
			refused++;
			client.destroy();
			return;
		}

		const pair: Pair = {client, pending: []};
		pairs.add(pair);
		const upstream = tls.connect({host: target.hostname, port: Number(target.port), ca, servername: 'localhost', ALPNProtocols: ['http/1.1']});
		pair.upstream = upstream;
		client.on('data', (data: Buffer) => {
			const text = data.toString('latin1');
			for (const m of text.matchAll(requestLine)) {
				const request: ProxiedRequest = {method: m[1]!, path: m[2]!, at: Date.now(), watch: /[?&]watch=(true|1)\b/.test(m[2]!)};
				requests.push(request);
				if (listAnswers && listAnswers.remaining > 0 && request.method === 'GET' && !request.watch && listAnswers.path.test(request.path)) {
					// Answered here (a GET has no body: the chunk is this request alone); the connection closes after it.
					listAnswers.remaining--;
					request.status = listAnswers.status;
					const body = `<html><head><title>${listAnswers.status} Service Temporarily Unavailable</title></head><body><center>proxy</center></body></html>`;
					client.end(`HTTP/1.1 ${listAnswers.status} Service Unavailable\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
					upstream.destroy();
					return;
				}

				pair.pending.push(request);
			}

			upstream.write(data);
		});
		upstream.on('data', (data: Buffer) => {
			const text = data.toString('utf8');
			for (const m of text.matchAll(statusLine)) {
				const request = pair.pending.shift();
				if (request) {
					request.status = Number(m[1]);
					request.expired = request.status === 410;
					pair.current = request;
				}
			}

			const current = pair.current;
			if (current && /"reason":"Expired"|"code":410\b/.test(text)) {
				current.expired = true;
			}

			if (armed && current?.watch && armed.path.test(current.path) && text.includes(armed.needle) && text.includes(armed.mustContain)) {
				const {needle, resolve} = armed;
				armed = undefined;
				const from = text.indexOf(needle);
				const lineEnd = text.indexOf('\n', from);
				const to = lineEnd === -1 ? text.length : lineEnd;
				const cutAt = Math.max(from + 1, Math.floor((from + to) / 2));
				const sent = text.slice(0, cutAt);
				current.cut = true;
				client.write(Buffer.from(sent, 'utf8'), () => {
					closePair(pair);
				});
				resolve({at: Date.now(), request: current, sent, withheld: text.slice(cutAt)});
				return;
			}

			client.write(data);
		});
		const end = () => {
			closePair(pair);
		};

		client.on('error', end);
		client.on('close', end);
		upstream.on('error', end);
		upstream.on('close', end);
	});
	server.on('tlsClientError', () => {
		// A connection reset while refusing, or the CLI giving up: nothing to do.
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === 'string') {
		throw new Error('proxy: unexpected address');
	}

	const url = `https://127.0.0.1:${address.port}`;
	const kubeconfig = path.join(cluster.dir, `${name}.kubeconfig`);
	await writeFile(kubeconfig, [
		'apiVersion: v1',
		'kind: Config',
		'clusters:',
		'- name: via-proxy',
		'  cluster:',
		`    server: ${JSON.stringify(url)}`,
		`    certificate-authority: ${JSON.stringify(cluster.caFile)}`,
		'users:',
		'- name: admin',
		'  user:',
		`    token: ${JSON.stringify(cluster.adminToken)}`,
		'contexts:',
		'- name: admin@via-proxy',
		'  context:',
		'    cluster: via-proxy',
		'    user: admin',
		'    namespace: default',
		'current-context: admin@via-proxy',
		'',
	].join('\n'), {mode: 0o600});

	return {
		url,
		kubeconfig,
		refuse: () => {
			refusing = true;
			refused = 0;
			for (const pair of [...pairs]) {
				closePair(pair);
			}
		},
		accept: () => {
			refusing = false;
		},
		answerLists: (listPath, times, status = 503) => {
			listAnswers = {path: listPath, remaining: times, status};
		},
		cutWatchEvent: async (watchPath, needle, mustContain = '') => new Promise<Cut>(resolve => {
			armed = {path: watchPath, needle, mustContain, resolve};
		}),
		requests,
		refused: () => refused,
		close: async () => {
			for (const pair of [...pairs]) {
				closePair(pair);
			}

			await new Promise<void>(resolve => {
				server.close(() => {
					resolve();
				});
			});
		},
	};
}
